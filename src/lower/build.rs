//! Building the normalised output node of one location from its merged facts.

use super::facts::{Bound, Facts, conjoin};
use super::types::TypeSet;
use super::{Fail, Literals, Lowerer, MAX_BRANCHES, PatternRule};
use crate::closure::{self, Gathered, Src};
use crate::note::Action;
use crate::pattern;
use serde_json::{Map, Number, Value};
use std::collections::HashSet;

/// Integers whose `f64` is exact.
const EXACT_INT: f64 = 9_007_199_254_740_992.0;

impl<'d> Lowerer<'_, 'd> {
    pub(crate) fn build(&mut self, mut f: Facts<'d>, pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        if let Some(p) = &f.never {
            return Err(Fail::empty(p, "", "a `false` schema accepts no value"));
        }
        if !f.unions.is_empty() && self.nesting == 1 && !self.rules.root_unions {
            for (kw, p, _) in std::mem::take(&mut f.unions) {
                self.widen(&p, kw, Action::Dropped, "not allowed at the root by the dialect: dropped (widening)");
            }
        }
        if !f.unions.is_empty() {
            return self.distribute(f, pi, at);
        }
        for (kw, p) in std::mem::take(&mut f.dropped) {
            let reason = match kw.as_str() {
                "not" | "if" => "cannot be expressed; dropped whole (widening)",
                _ => "cannot be expressed; dropped (widening)",
            };
            self.widen(&p, &kw, Action::Dropped, reason);
        }
        let mut types = f.types;
        if types.is_empty() {
            return Err(Fail::empty(at, "type", "no type is allowed here: the schema accepts no value"));
        }
        let mut literals = None;
        let mut null_branch = false;
        if let Some(lits) = f.literals.take() {
            let lits: Vec<Value> = lits.into_iter().filter(|l| types.admits(l)).collect();
            if lits.is_empty() {
                return Err(Fail::empty(
                    &f.literal_at,
                    "enum",
                    "no literal fits the other constraints: accepts no value",
                ));
            }
            let lit_types = lits.iter().fold(TypeSet::NONE, |t, l| t.union(TypeSet::of_value(l)));
            types = types.intersect(lit_types);
            let (kept, null) = self.literals(lits, &f.literal_at, &mut types);
            literals = kept;
            null_branch = null;
        }
        let mut out = Map::new();
        if self.rules.allows("title")
            && let Some(t) = &f.title
        {
            out.insert("title".to_owned(), t.clone());
        }
        if self.rules.allows("description")
            && let Some(d) = &f.description
        {
            out.insert("description".to_owned(), d.clone());
        }
        if types == TypeSet::ALL {
            if !self.rules.any_value {
                let why = if f.recursion_cut {
                    "a recursive reference, widened where it recurs, leaves a value of any type, which this dialect cannot express"
                } else {
                    "a value of any type cannot be expressed in this dialect"
                };
                return Err(Fail::new(at, "type", why));
            }
        } else {
            out.insert("type".to_owned(), types.to_keyword());
        }
        if let Some(l) = literals {
            out.insert("enum".to_owned(), Value::Array(l));
        }
        if types.string {
            self.strings(&f, &mut out);
        }
        if types.has_numbers() {
            self.numbers(&f, types, &mut out);
        }
        // An untyped node only gets the keywords its facts call for.
        let untyped = types == TypeSet::ALL;
        if types.array && !(untyped && f.array_nodes.is_empty() && f.min_items.is_none() && f.max_items.is_none()) {
            self.arrays(&f, pi, at, &mut out)?;
        }
        if types.object && (!untyped || has_object_facts(&f)) {
            if types == TypeSet::object_only() && self.encodings && !self.rules.maps && is_pure_map(&f) {
                return self.pairs(&f, pi, at, out);
            }
            self.objects(&f, pi, at, &mut out)?;
        }
        if self.locate && out.contains_key("properties") {
            out.insert(super::AT.to_owned(), Value::String(at.to_owned()));
        }
        let node = Value::Object(out);
        if null_branch {
            let mut null = Map::new();
            null.insert("type".to_owned(), Value::String("null".to_owned()));
            return Ok(any_of(vec![node, Value::Object(null)]));
        }
        Ok(node)
    }

    /// `S ∧ (B1 ∨ B2)` = `(S ∧ B1) ∨ (S ∧ B2)`: each branch is lowered with the
    /// siblings merged in, so nothing is lost to a dialect that cannot mix them.
    fn distribute(&mut self, mut f: Facts<'d>, pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        if let Some(v) = self.union_of_locations(&f, pi, at) {
            return v;
        }
        let unions = std::mem::take(&mut f.unions);
        // Annotations describe the whole location: keep them on the union, once.
        let annotations: Vec<(&str, Value)> = [("title", f.title.take()), ("description", f.description.take())]
            .into_iter()
            .filter_map(|(k, v)| v.filter(|_| self.rules.allows(k)).map(|v| (k, v)))
            .collect();
        let mut product = 1usize;
        let mut used = Vec::new();
        for (kw, p, branches) in unions {
            if product.saturating_mul(branches.len()) <= MAX_BRANCHES {
                product *= branches.len().max(1);
                used.push((kw, p, branches));
            } else {
                self.widen(
                    &p,
                    kw,
                    Action::Dropped,
                    "too many branches once distributed over its siblings: dropped (widening)",
                );
            }
        }
        // Each combination remembers which branch of each union it took: its
        // objects close to the keys of those branches (unions close by branch).
        let within = f.types;
        let mut combos: Vec<(Facts<'d>, Vec<(String, usize)>)> = vec![(f, Vec::new())];
        for (kw, p, branches) in used {
            if kw == "oneOf" && branches.len() > 1 {
                if closure::disjoint(self.doc, &branches, within, closure::Purpose::Exact) {
                    self.note(&p, kw, Action::Rewritten, DISJOINT_ONE_OF);
                } else {
                    self.widen(
                        &p,
                        kw,
                        Action::Rewritten,
                        "read as `anyOf` (widening: an answer matching several branches is not excluded)",
                    );
                }
            }
            let mut next = Vec::with_capacity(combos.len() * branches.len());
            for (c, chosen) in &combos {
                for (i, b) in branches.iter().enumerate() {
                    let bf = self.facts(std::slice::from_ref(b), &b.1)?;
                    let mut chosen = chosen.clone();
                    chosen.push((p.clone(), i));
                    next.push((conjoin(c, bf), chosen));
                }
            }
            combos = next;
        }
        let mut outs: Vec<Value> = Vec::with_capacity(combos.len());
        let outer = self.choices.clone();
        for (c, chosen) in combos {
            if c.never.is_some() || c.types.is_empty() {
                continue; // a branch that accepts nothing adds nothing
            }
            if self.readings.by_branch {
                self.choices = outer.iter().cloned().chain(chosen).collect();
            }
            let v = self.build(c, pi, at);
            self.choices.clone_from(&outer);
            push_branch(&mut outs, v?);
        }
        let mut node = union_node(outs, at)?;
        if let Value::Object(m) = &mut node {
            for (k, v) in annotations.into_iter().rev() {
                if !m.contains_key(k) {
                    m.shift_insert(0, k.to_owned(), v);
                }
            }
        }
        Ok(node)
    }

    /// Decides how the literals are sent. Returns the `enum` to send (if any) and
    /// whether `null` must be split off into its own branch.
    fn literals(&mut self, lits: Vec<Value>, at: &str, types: &mut TypeSet) -> (Option<Vec<Value>>, bool) {
        let fits = |v: &Value, kinds: Literals| match kinds {
            Literals::All => true,
            Literals::Scalars => !(v.is_object() || v.is_array()),
            Literals::StringsAndNumbers => v.is_string() || v.is_number(),
            Literals::Strings => v.is_string(),
        };
        let kinds = self.rules.literals;
        let reserved = self.rules.reserved_names;
        if !reserved.is_empty() && lits.iter().any(|l| holds_key(l, reserved)) {
            let keyword = if at.ends_with("/const") { "const" } else { "enum" };
            self.widen(
                at,
                keyword,
                Action::Dropped,
                format!(
                    "a literal holds a key the grammar converter misreads ({}): dropped whole, keeping only its types (widening)",
                    reserved.join(", ")
                ),
            );
            return (None, false);
        }
        if lits.iter().all(|v| fits(v, kinds)) {
            return (Some(lits), false);
        }
        // `null` can always be split off exactly as a `{"type":"null"}` branch.
        let has_null = lits.iter().any(Value::is_null);
        let rest: Vec<Value> = lits.iter().filter(|v| !v.is_null()).cloned().collect();
        if has_null && !rest.is_empty() && rest.iter().all(|v| fits(v, kinds)) {
            types.null = false;
            return (Some(rest), true);
        }
        if has_null && rest.is_empty() {
            return (None, false);
        }
        // Booleans: both values listed means the enum says nothing beyond the type.
        let only_bools = rest.iter().all(Value::is_boolean);
        if only_bools && rest.contains(&Value::Bool(true)) && rest.contains(&Value::Bool(false)) {
            return (None, false);
        }
        let keyword = if at.ends_with("/const") { "const" } else { "enum" };
        self.widen(
            at,
            keyword,
            Action::Dropped,
            "the dialect cannot hold these literals in an `enum`: dropped whole, keeping only their types (widening)",
        );
        (None, false)
    }

    fn strings(&mut self, f: &Facts<'d>, out: &mut Map<String, Value>) {
        for (kw, v) in [("minLength", &f.min_length), ("maxLength", &f.max_length)] {
            if let Some((n, p)) = v {
                if self.rules.allows(kw) {
                    out.insert(kw.to_owned(), Value::from(*n));
                } else {
                    self.widen(p, kw, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
            }
        }
        for (i, (pat, p)) in f.patterns.iter().enumerate() {
            if i > 0 || out.contains_key("pattern") {
                self.widen(
                    p,
                    "pattern",
                    Action::Dropped,
                    "only one pattern per schema can be sent: dropped (widening)",
                );
                continue;
            }
            let anchored = pattern::is_self_anchored(pat);
            let simple = pattern::is_simple(pat);
            match self.rules.pattern {
                PatternRule::RewriteToFullMatch
                    if pattern::has_anchor(if anchored { &pat[1..pat.len() - 1] } else { pat }) =>
                {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "an anchor inside the pattern: the provider matches whole strings and does not document inner anchors; dropped (widening)",
                    );
                }
                PatternRule::RewriteToFullMatch | PatternRule::SearchSimple if !simple => {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "outside the provider's documented regex subset (look-around, back-references, `\\b`, `\\p{…}`, inline flags or large repetitions): dropped (widening)",
                    );
                }
                PatternRule::SearchSimple => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::Search => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::AnchoredOnly if anchored => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::RewriteToFullMatch if anchored => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::RewriteToFullMatch => {
                    out.insert("pattern".to_owned(), Value::String(format!("^[\\s\\S]*(?:{pat})[\\s\\S]*$")));
                    self.note(
                        p,
                        "pattern",
                        Action::Rewritten,
                        "unanchored: sent as `^[\\s\\S]*(?:…)[\\s\\S]*$`, which the provider's whole-string matching reads as JSON Schema's search",
                    );
                }
                PatternRule::AnchoredOnly => self.widen(
                    p,
                    "pattern",
                    Action::Dropped,
                    "not anchored as `^…$`: the provider matches the whole string, which would narrow JSON Schema's search; dropped (widening)",
                ),
                PatternRule::Drop => {
                    self.widen(p, "pattern", Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
                PatternRule::Grammar if pattern::for_grammar(pat).is_some_and(|g| !pattern::json_text_safe(&g)) => {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "the grammar engine matches the pattern against the string as written in JSON, escapes included, so strings holding a quote, a backslash or a control character (which this pattern allows) could not be produced: dropped (widening)",
                    );
                }
                PatternRule::Grammar => match pattern::for_grammar(pat) {
                    Some(g) if g == *pat => {
                        out.insert("pattern".to_owned(), Value::String(g));
                    }
                    Some(g) => {
                        out.insert("pattern".to_owned(), Value::String(g));
                        self.note(
                            p,
                            "pattern",
                            Action::Rewritten,
                            "sent anchored as `^…$`, with `(.|[\\n\\r])*` for each open end: the grammar's whole-string match then reads it as JSON Schema's search",
                        );
                    }
                    None => self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "outside the grammar converter's regex subset (shorthand classes, lookaround, inner anchors or large repetitions): dropped (widening)",
                    ),
                },
            }
        }
        for (fmt, p) in &f.formats {
            if !self.assert_formats {
                self.note(p, "format", Action::Dropped, "an annotation (format assertion is off): not sent");
            } else if self.rules.allows("format")
                && self.rules.formats.contains(&fmt.as_str())
                && !out.contains_key("format")
            {
                out.insert("format".to_owned(), Value::String(fmt.clone()));
            } else {
                self.widen(
                    p,
                    "format",
                    Action::Dropped,
                    format!("format {fmt:?} is not supported by the dialect: dropped (widening)"),
                );
            }
        }
    }

    fn numbers(&mut self, f: &Facts<'d>, types: TypeSet, out: &mut Map<String, Value>) {
        let integer_only = types.integer && !types.number;
        for (bound, lower) in [(&f.minimum, true), (&f.maximum, false)] {
            let Some(Bound { value, exclusive, at }) = bound else { continue };
            let (incl, excl) = if lower { ("minimum", "exclusiveMinimum") } else { ("maximum", "exclusiveMaximum") };
            if self.rules.integral_bounds {
                self.integral_bound(value, *exclusive, at, lower, integer_only, out);
                continue;
            }
            if !exclusive {
                if self.rules.allows(incl) {
                    out.insert(incl.to_owned(), Value::Number(value.clone()));
                } else {
                    self.widen(at, incl, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
                continue;
            }
            if self.rules.allows(excl) {
                out.insert(excl.to_owned(), Value::Number(value.clone()));
                continue;
            }
            if !self.rules.allows(incl) {
                self.widen(at, excl, Action::Dropped, "not supported by the dialect: dropped (widening)");
                continue;
            }
            let v = value.as_f64().unwrap_or(0.0);
            if integer_only && v.is_finite() && v.abs() < EXACT_INT {
                // For integers, `> 2.5` is `>= 3` and `> 2` is `>= 3`: exact.
                let edge = if lower { v.floor() + 1.0 } else { v.ceil() - 1.0 };
                out.insert(incl.to_owned(), int_value(edge));
                self.note(
                    at,
                    excl,
                    Action::Rewritten,
                    format!("sent as `{incl}: {edge}`, the same bound for integers"),
                );
            } else {
                out.insert(incl.to_owned(), Value::Number(value.clone()));
                self.widen(at, excl, Action::Rewritten, format!("sent as the inclusive `{incl}` (widening)"));
            }
        }
        for (i, (n, p)) in f.multiple_of.iter().enumerate() {
            if i == 0 && self.rules.allows("multipleOf") {
                out.insert("multipleOf".to_owned(), Value::Number(n.clone()));
            } else {
                self.widen(p, "multipleOf", Action::Dropped, "not supported by the dialect: dropped (widening)");
            }
        }
    }

    /// A bound for a reader that holds bounds as 64-bit integers and applies
    /// them to integers only: sent as the equivalent whole inclusive bound on
    /// integer-only nodes, dropped elsewhere or when out of range.
    fn integral_bound(
        &mut self,
        value: &Number,
        exclusive: bool,
        at: &str,
        lower: bool,
        integer_only: bool,
        out: &mut Map<String, Value>,
    ) {
        let kw = if lower { "minimum" } else { "maximum" };
        let v = value.as_f64().unwrap_or(f64::NAN);
        if !integer_only || !v.is_finite() || v.abs() >= EXACT_INT {
            let what = if exclusive { if lower { "exclusiveMinimum" } else { "exclusiveMaximum" } } else { kw };
            self.widen(
                at,
                what,
                Action::Dropped,
                "the grammar reads bounds as 64-bit integers on integers only: dropped here (widening)",
            );
            return;
        }
        let edge = match (lower, exclusive) {
            (true, false) => v.ceil(),
            (true, true) => v.floor() + 1.0,
            (false, false) => v.floor(),
            (false, true) => v.ceil() - 1.0,
        };
        out.insert(kw.to_owned(), int_value(edge));
        if exclusive || edge != v {
            let source = match (lower, exclusive) {
                (true, true) => "exclusiveMinimum",
                (false, true) => "exclusiveMaximum",
                _ => kw,
            };
            self.note(
                at,
                source,
                Action::Rewritten,
                format!("sent as the whole bound `{kw}: {edge}`, the same for integers"),
            );
        }
    }

    fn arrays(&mut self, f: &Facts<'d>, pi: &[Src<'d>], at: &str, out: &mut Map<String, Value>) -> Result<(), Fail> {
        let prefix_kw = "prefixItems";
        // Per node: its prefix list and its rest schema (None = any element).
        let mut prefixes: Vec<Vec<Src<'d>>> = Vec::new();
        let mut rests: Vec<Option<Src<'d>>> = Vec::new();
        for (map, p) in &f.array_nodes {
            let prefix: Vec<Src<'d>> = match map.get(prefix_kw) {
                Some(Value::Array(list)) => list
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s, crate::pointer::push_index(&crate::pointer::push(p, prefix_kw), i)))
                    .collect(),
                _ => Vec::new(),
            };
            let rest = map.get("items").map(|v| (v, crate::pointer::push(p, "items")));
            prefixes.push(prefix);
            rests.push(rest);
        }
        let width = prefixes.iter().map(Vec::len).max().unwrap_or(0);
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        // Element count bound from nodes whose rest is `false`.
        let mut max_from_tuple: Option<(u64, String)> = None;
        for (i, r) in rests.iter().enumerate() {
            if let Some((Value::Bool(false), p)) = r {
                let n = prefixes[i].len() as u64;
                if max_from_tuple.as_ref().is_none_or(|(m, _)| n < *m) {
                    max_from_tuple = Some((n, p.clone()));
                }
            }
        }
        // A tuple closed by `maxItems` (Pydantic's fixed-length tuples) takes no
        // element beyond its positions, whatever `items` says.
        if let Some((m, p)) = &f.max_items
            && usize::try_from(*m).is_ok_and(|m| m <= width)
            && max_from_tuple.as_ref().is_none_or(|(t, _)| m < t)
        {
            max_from_tuple = Some((*m, p.clone()));
        }
        let mut positions: Vec<Value> = Vec::with_capacity(width);
        let limit = max_from_tuple.as_ref().map_or(width, |(m, _)| width.min(*m as usize));
        for i in 0..limit {
            let mut srcs: Vec<Src<'d>> = Vec::new();
            for (j, prefix) in prefixes.iter().enumerate() {
                match prefix.get(i) {
                    Some(s) => srcs.push(s.clone()),
                    None => srcs.extend(rests[j].clone()),
                }
            }
            let here = srcs.first().map_or_else(|| at.to_owned(), |s| s.1.clone());
            positions.push(self.location(&srcs, &gathered.for_index(Some(i)), &here)?);
        }
        let rest_srcs: Vec<Src<'d>> = rests.iter().flatten().cloned().collect();
        let rest_forbidden = max_from_tuple.is_some();
        let rest_any = !rest_forbidden && rest_srcs.is_empty();
        let rest_value = if rest_forbidden || rest_any {
            None
        } else {
            let here = rest_srcs[0].1.clone();
            Some(self.location(&rest_srcs, &gathered.for_index(None), &here)?)
        };
        let mut max_items = f.max_items.clone();
        if let Some((n, p)) = &max_from_tuple
            && max_items.as_ref().is_none_or(|(m, _)| n < m)
        {
            max_items = Some((*n, p.clone()));
        }
        if !positions.is_empty() && self.rules.allows("prefixItems") {
            out.insert("prefixItems".to_owned(), Value::Array(positions));
            match (rest_value, rest_forbidden) {
                (Some(v), _) => {
                    out.insert("items".to_owned(), v);
                }
                (None, true) => {
                    out.insert("items".to_owned(), Value::Bool(false));
                }
                (None, false) => {}
            }
        } else {
            let mut branches = positions;
            if !branches.is_empty() {
                self.widen(
                    at,
                    prefix_kw,
                    Action::Rewritten,
                    "tuple positions sent as one union for every element (widening)",
                );
            }
            match rest_value {
                Some(v) => branches.push(v),
                None if rest_any => {
                    if self.rules.arrays_without_items {
                        branches.clear();
                    } else if self.rules.any_value {
                        branches = vec![Value::Object(Map::new())];
                    } else {
                        return Err(Fail::new(
                            at,
                            "items",
                            "array elements of any type cannot be expressed in this dialect",
                        ));
                    }
                }
                None => {}
            }
            let mut unique: Vec<Value> = Vec::new();
            for b in branches {
                if !unique.contains(&b) {
                    unique.push(b);
                }
            }
            match unique.len() {
                0 if rest_forbidden => {
                    // Only the empty array: `maxItems: 0` below says so; elements never occur.
                    if !self.rules.arrays_without_items {
                        return Err(Fail::new(
                            at,
                            "items",
                            "an array that must be empty cannot be expressed in this dialect",
                        ));
                    }
                }
                0 => {}
                1 => {
                    out.insert("items".to_owned(), unique.pop().unwrap_or(Value::Null));
                }
                _ => {
                    out.insert("items".to_owned(), any_of(unique));
                }
            }
        }
        for (kw, v) in [("minItems", &f.min_items), ("maxItems", &max_items)] {
            if let Some((n, p)) = v {
                if self.rules.allows(kw) {
                    out.insert(kw.to_owned(), Value::from(*n));
                } else {
                    self.widen(p, kw, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
            }
        }
        Ok(())
    }

    fn objects(&mut self, f: &Facts<'d>, pi: &[Src<'d>], at: &str, out: &mut Map<String, Value>) -> Result<(), Fail> {
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        if let Some((name, _)) = f.properties.iter().find(|(n, _)| self.rules.reserved_names.contains(&n.as_str())) {
            return Err(Fail::new(
                at,
                "properties",
                format!(
                    "a property named `{name}`: the grammar converter reads that key as one of its own and fails or drops it"
                ),
            ));
        }
        let mut props = Map::new();
        let mut forbidden: HashSet<&str> = HashSet::new();
        for (name, srcs) in &f.properties {
            // An `additionalProperties` schema applies to every key its own node
            // does not declare, even when another merged part declares it.
            let mut srcs = srcs.clone();
            for (a, declared) in f.additional.iter().zip(&f.additional_declared) {
                if !declared.contains(name) {
                    srcs.push(a.clone());
                }
            }
            let srcs = &srcs;
            if let Some((_, p)) = srcs.iter().find(|(s, _)| **s == Value::Bool(false)) {
                if f.required.contains(name) {
                    return Err(Fail::empty(
                        p,
                        "properties",
                        "a required property whose schema is `false`: accepts no value",
                    ));
                }
                forbidden.insert(name.as_str());
                continue;
            }
            let here = srcs.first().map_or_else(|| at.to_owned(), |s| s.1.clone());
            let v = self.location(srcs, &gathered.for_key(name), &here)?;
            props.insert(name.clone(), v);
        }
        let mut closed = f.closed_at.clone();
        let mut additional: &[Src<'d>] = &f.additional;
        if let Some(pp) = &f.pattern_properties {
            if self.rules.open_objects {
                self.widen(
                    pp,
                    "patternProperties",
                    Action::Dropped,
                    "not supported by the dialect: dropped, and the object left open to any other key (widening)",
                );
                closed = None;
                additional = &[];
            } else {
                return Err(Fail::new(pp, "patternProperties", "cannot be expressed in this dialect"));
            }
        }
        for (kw, v) in [("minProperties", &f.min_properties), ("maxProperties", &f.max_properties)] {
            if let Some((n, p)) = v {
                if self.rules.allows(kw) {
                    out.insert(kw.to_owned(), Value::from(*n));
                } else {
                    self.widen(p, kw, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
            }
        }
        let mut required: Vec<String> = f.required.clone();
        if self.rules.fill_defaults && self.readings.fill {
            let filled: Vec<String> = props
                .keys()
                .filter(|k| !required.contains(*k) && gathered.fillable(self.doc, k).is_some())
                .cloned()
                .collect();
            if !filled.is_empty() {
                self.note(
                    at,
                    "required",
                    Action::Rewritten,
                    format!(
                        "{} sent required: each has a default its schema accepts, and an absent property means its default (the projection fills it in)",
                        filled.join(", ")
                    ),
                );
                required.extend(filled);
            }
        }
        let optional = props.keys().filter(|k| !required.contains(*k)).count();
        if optional > self.rules.max_optional {
            return Err(Fail::new(
                at,
                "required",
                format!(
                    "{optional} optional properties: the grammar grows with every optional key, beyond {} it takes too long to build",
                    self.rules.max_optional
                ),
            ));
        }
        if let Some((cat, allowed)) = &closed {
            let allowed: HashSet<&str> = allowed.iter().map(String::as_str).collect();
            if let Some(r) = required.iter().find(|r| !props.contains_key(r.as_str()) && !allowed.contains(r.as_str()))
            {
                return Err(Fail::empty(
                    at,
                    "required",
                    format!("`{r}` is required but the object forbids it: accepts no value"),
                ));
            }
            // A key one part declares but another part closes out is never valid:
            // it is left out (exact).
            let outside: Vec<String> = props.keys().filter(|k| !allowed.contains(k.as_str())).cloned().collect();
            if !outside.is_empty() {
                for k in &outside {
                    props.shift_remove(k);
                }
                self.note(
                    cat,
                    "additionalProperties",
                    Action::Rewritten,
                    format!(
                        "{} declared by one part but closed out by another: never valid, so not sent",
                        outside.join(", ")
                    ),
                );
            }
            if props.is_empty() && !self.rules.empty_objects {
                return Err(Fail::new(
                    at,
                    "properties",
                    "an object without properties cannot be expressed in this dialect",
                ));
            }
            if self.rules.open_objects {
                out.insert("properties".to_owned(), Value::Object(props));
                if !required.is_empty() {
                    out.insert("required".to_owned(), strings(&required));
                }
                out.insert("additionalProperties".to_owned(), Value::Bool(false));
            } else {
                finish_closed(out, props, &required);
            }
            return Ok(());
        }
        if !forbidden.is_empty()
            && (self.rules.open_objects || !additional.is_empty())
            && !self.closes_here(&gathered, &props, &forbidden)
        {
            let mut names: Vec<&str> = forbidden.iter().copied().collect();
            names.sort_unstable();
            self.widen(
                at,
                "properties",
                Action::Dropped,
                format!(
                    "{} must be absent (schema `false`), which an object open to other keys cannot say: not enforced (widening)",
                    names.join(", ")
                ),
            );
        }
        if !additional.is_empty() {
            if !self.rules.maps {
                return Err(Fail::new(
                    &additional[0].1,
                    "additionalProperties",
                    "a map (`additionalProperties` with a schema) cannot be expressed in this dialect",
                ));
            }
            let here = additional[0].1.clone();
            let v = self.location(additional, &undeclared(&gathered), &here)?;
            // A required key no node declares is held by the map's value schema.
            for r in &required {
                if !props.contains_key(r) {
                    props.insert(r.clone(), v.clone());
                }
            }
            out.insert("properties".to_owned(), Value::Object(props));
            if !required.is_empty() {
                out.insert("required".to_owned(), strings(&required));
            }
            out.insert("additionalProperties".to_owned(), v);
            return Ok(());
        }
        if self.rules.open_objects && !self.closes_here(&gathered, &props, &forbidden) {
            if !self.rules.open_with_properties && !props.is_empty() {
                // The converter cannot keep such an object open to every key
                // (it refuses undeclared keys that prefix declared names): the
                // object is sent open, without its properties.
                self.widen(
                    at,
                    "properties",
                    Action::Dropped,
                    "an open object with declared properties: sent as an object open to any key, without them (widening)",
                );
                out.insert("additionalProperties".to_owned(), Value::Bool(true));
                return Ok(());
            }
            add_missing_required(&mut props, &required);
            if !props.is_empty() || self.rules.empty_objects {
                out.insert("properties".to_owned(), Value::Object(props));
            }
            if !required.is_empty() {
                out.insert("required".to_owned(), strings(&required));
            }
            out.insert("additionalProperties".to_owned(), Value::Bool(true));
            return Ok(());
        }
        // The dialect closes every object: only a closable object may be sent, and
        // it must declare every key the projection keeps.
        if !self.readings.close {
            return Err(Fail::new(
                at,
                "additionalProperties",
                "an open object cannot be expressed in this dialect (closed-world projection is off)",
            ));
        }
        if !gathered.is_closable() {
            return Err(Fail::new(
                at,
                "additionalProperties",
                "an open object that is not closable (a map, a free-form object, or one that says more about undeclared keys) cannot be expressed in this dialect",
            ));
        }
        let missing: Vec<&str> =
            gathered.declared().into_iter().filter(|k| !props.contains_key(*k) && !forbidden.contains(k)).collect();
        if !missing.is_empty() {
            return Err(Fail::new(
                at,
                "properties",
                format!("keys declared elsewhere at this spot ({}) cannot all be expressed here", missing.join(", ")),
            ));
        }
        if props.is_empty() {
            return Err(Fail::new(
                at,
                "properties",
                "an object without properties cannot be expressed in this dialect",
            ));
        }
        self.note(
            at,
            "additionalProperties",
            Action::Rewritten,
            "open object closed to its declared properties (closed-world projection)",
        );
        finish_closed(out, props, &required);
        Ok(())
    }
}

/// Keys no node declares, constrained only by `additionalProperties` schemas.
fn is_pure_map(f: &Facts<'_>) -> bool {
    !f.additional.is_empty()
        && f.properties.is_empty()
        && f.required.is_empty()
        && f.pattern_properties.is_none()
        && f.closed_at.is_none()
}

impl<'d> Lowerer<'_, 'd> {
    /// A map sent as an array of `{"key", "value"}` pairs (reshape): `decode`
    /// rebuilds the object, and a repeated key is a decode error.
    fn pairs(&mut self, f: &Facts<'d>, pi: &[Src<'d>], at: &str, mut out: Map<String, Value>) -> Result<Value, Fail> {
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        let here = f.additional[0].1.clone();
        let value = self.location(&f.additional, &undeclared(&gathered), &here)?;
        self.widen(
            at,
            "additionalProperties",
            Action::Rewritten,
            "reshape: a map, sent as an array of {\"key\", \"value\"} pairs; decode rebuilds the object and reports a repeated key (widening: the array may repeat a key)",
        );
        let mut props = Map::new();
        let mut key = Map::new();
        key.insert("type".to_owned(), Value::String("string".to_owned()));
        props.insert("key".to_owned(), Value::Object(key));
        props.insert("value".to_owned(), value);
        let mut item = Map::new();
        item.insert("type".to_owned(), Value::String("object".to_owned()));
        finish_closed(&mut item, props, &["key".to_owned(), "value".to_owned()]);
        out.insert("type".to_owned(), Value::String("array".to_owned()));
        out.insert("items".to_owned(), Value::Object(item));
        let counts =
            [("minProperties", "minItems", &f.min_properties), ("maxProperties", "maxItems", &f.max_properties)];
        for (from, to, v) in counts {
            if let Some((n, p)) = v {
                if self.rules.allows(to) {
                    out.insert(to.to_owned(), Value::from(*n));
                } else {
                    let why =
                        format!("sent as `{to}` of the pairs, which the dialect does not support: dropped (widening)");
                    self.widen(p, from, Action::Dropped, why);
                }
            }
        }
        out.insert(super::PAIRS.to_owned(), Value::Bool(true));
        Ok(Value::Object(out))
    }
}

impl Lowerer<'_, '_> {
    /// A dialect that can keep objects open still closes a closable one when
    /// its rules prefer closed objects (engines that read openness badly).
    fn closes_here(
        &self,
        gathered: &closure::Gathered<'_>,
        props: &Map<String, Value>,
        forbidden: &HashSet<&str>,
    ) -> bool {
        self.rules.prefer_closed
            && self.readings.close
            && !props.is_empty()
            && gathered.is_closable()
            && gathered.declared().iter().all(|k| props.contains_key(*k) || forbidden.contains(k))
    }
}

/// Whether a literal holds one of `keys` as an object key, anywhere.
fn holds_key(v: &Value, keys: &[&str]) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| keys.contains(&k.as_str()) || holds_key(x, keys)),
        Value::Array(a) => a.iter().any(|x| holds_key(x, keys)),
        _ => false,
    }
}

fn has_object_facts(f: &Facts<'_>) -> bool {
    !f.properties.is_empty()
        || !f.required.is_empty()
        || f.closed_at.is_some()
        || !f.additional.is_empty()
        || f.pattern_properties.is_some()
        || f.min_properties.is_some()
        || f.max_properties.is_some()
}

fn finish_closed(out: &mut Map<String, Value>, props: Map<String, Value>, required: &[String]) {
    out.insert("properties".to_owned(), Value::Object(props));
    if !required.is_empty() {
        out.insert("required".to_owned(), strings(required));
    }
    out.insert("additionalProperties".to_owned(), Value::Bool(false));
}

fn add_missing_required(props: &mut Map<String, Value>, required: &[String]) {
    for r in required {
        if !props.contains_key(r) {
            props.insert(r.clone(), Value::Object(Map::new()));
        }
    }
}

fn undeclared<'a>(g: &Gathered<'a>) -> Vec<Src<'a>> {
    g.for_key("\u{0}schemacast: a key no schema declares")
}

fn strings(items: &[String]) -> Value {
    Value::Array(items.iter().map(|s| Value::String(s.clone())).collect())
}

/// The note of a `oneOf` proved disjoint and sent as `anyOf`.
pub(super) const DISJOINT_ONE_OF: &str = "read as `anyOf`: its branches are disjoint (distinct types, distinct literals of a required key, or a key one requires and another forbids), so no answer matches two of them";

/// Adds a lowered branch to a union's branches, splicing a union in.
pub(super) fn push_branch(outs: &mut Vec<Value>, v: Value) {
    match v {
        Value::Object(m) if m.len() == 1 && m.contains_key("anyOf") => {
            if let Some(Value::Array(inner)) = m.get("anyOf") {
                outs.extend(inner.iter().cloned());
            }
        }
        other => outs.push(other),
    }
}

/// The node of a union's lowered branches, duplicates removed: the one
/// branch itself, or their `anyOf`.
pub(super) fn union_node(outs: Vec<Value>, at: &str) -> Result<Value, Fail> {
    let mut unique: Vec<Value> = Vec::with_capacity(outs.len());
    for o in outs {
        if !unique.contains(&o) {
            unique.push(o);
        }
    }
    match unique.len() {
        0 => Err(Fail::empty(at, "anyOf", "no branch accepts a value")),
        1 => Ok(unique.pop().unwrap_or(Value::Null)),
        _ => Ok(any_of(unique)),
    }
}

fn any_of(branches: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("anyOf".to_owned(), Value::Array(branches));
    Value::Object(m)
}

fn int_value(f: f64) -> Value {
    if f >= 0.0 { Value::Number(Number::from(f as u64)) } else { Value::Number(Number::from(f as i64)) }
}
