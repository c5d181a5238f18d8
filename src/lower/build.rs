//! Building the normalised output node of one location from its merged facts.

use super::facts::Facts;
use super::types::TypeSet;
use super::{Fail, Literals, Lowerer};
use crate::closure::{self, Src};
use crate::note::Action;
use serde_json::{Map, Value};

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
        if f.no_literal_fits() {
            return Err(Fail::empty(&f.literal_at, "enum", "no literal fits the other constraints: accepts no value"));
        }
        let mut literals = None;
        let mut null_branch = false;
        if let Some(lits) = f.literals.take() {
            let lits: Vec<Value> = lits.into_iter().filter(|l| types.admits(l)).collect();
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
            // No element can stand here: the array ends before it.
            let mark = self.mark();
            let v = self.location(&srcs, &gathered.for_index(Some(i)), &here);
            match self.empty_after(mark, v)? {
                Some(v) => positions.push(v),
                None => {
                    self.note(&here, prefix_kw, Action::Rewritten, NO_ELEMENT);
                    max_from_tuple = Some((i as u64, here));
                    break;
                }
            }
        }
        let rest_srcs: Vec<Src<'d>> = rests.iter().flatten().cloned().collect();
        let mut rest_forbidden = max_from_tuple.is_some();
        let rest_any = !rest_forbidden && rest_srcs.is_empty();
        let rest_value = if rest_forbidden || rest_any {
            None
        } else {
            let here = rest_srcs[0].1.clone();
            let mark = self.mark();
            let v = self.location(&rest_srcs, &gathered.for_index(None), &here);
            let v = self.empty_after(mark, v)?;
            if v.is_none() {
                self.note(&here, "items", Action::Rewritten, NO_ELEMENT);
                max_from_tuple = Some((positions.len() as u64, here));
                rest_forbidden = true;
            }
            v
        };
        if let (Some((min, p)), Some((max, _))) = (&f.min_items, &max_from_tuple)
            && min > max
        {
            return Err(Fail::empty(p, "minItems", "more elements are required than can be valid: accepts no value"));
        }
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
                    // Only the empty array: `maxItems: 0` below says so; elements never
                    // occur, so a dialect that wants `items` gets any type it can say (and
                    // without `maxItems`, strings widen an array that must be empty).
                    if !self.rules.arrays_without_items {
                        out.insert("items".to_owned(), serde_json::json!({"type": "string"}));
                        if self.rules.allows("maxItems") {
                            self.note(
                                at,
                                "items",
                                Action::Rewritten,
                                "only the empty array is valid here: `items` is sent as strings, which `maxItems: 0` never lets occur",
                            );
                        } else {
                            self.widen(
                                at,
                                "items",
                                Action::Rewritten,
                                "only the empty array is valid here, which the dialect cannot say: `items` is sent as strings (widening)",
                            );
                        }
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
}

/// Keys no node declares, constrained only by `additionalProperties` schemas.
fn is_pure_map(f: &Facts<'_>) -> bool {
    !f.additional.is_empty()
        && f.properties.is_empty()
        && f.required.is_empty()
        && f.pattern_properties.is_none()
        && f.closed_at.is_none()
}

/// Whether a literal holds one of `keys` as an object key, anywhere.
fn holds_key(v: &Value, keys: &[&str]) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, x)| keys.contains(&k.as_str()) || holds_key(x, keys)),
        Value::Array(a) => a.iter().any(|x| holds_key(x, keys)),
        _ => false,
    }
}

pub(super) fn has_object_facts(f: &Facts<'_>) -> bool {
    !f.properties.is_empty()
        || !f.required.is_empty()
        || f.closed_at.is_some()
        || !f.additional.is_empty()
        || f.pattern_properties.is_some()
        || f.min_properties.is_some()
        || f.max_properties.is_some()
}

/// An element position (or every further element) that accepts no value.
const NO_ELEMENT: &str = "no element is valid here: the array ends before it (`maxItems`)";
pub(super) fn any_of(branches: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("anyOf".to_owned(), Value::Array(branches));
    Value::Object(m)
}
