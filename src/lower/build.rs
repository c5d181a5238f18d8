//! Building the normalised output node of one location from its merged facts.

use super::facts::Facts;
use super::types::TypeSet;
use super::{Fail, Literals, Lowerer};
use crate::closure::Src;
use crate::note::Action;
use serde_json::{Map, Value};

impl<'d> Lowerer<'_, 'd> {
    /// The output node of one location from its merged facts. It stays on the
    /// path of every nested location, so its own frame is kept small: the
    /// facts come boxed, and the scalar keywords are written by [`Self::head`].
    pub(crate) fn build(&mut self, mut f: Box<Facts<'d>>, pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        if let Some(p) = &f.never {
            return Err(Fail::empty(p, "", "a `false` schema accepts no value"));
        }
        if !f.unions.is_empty() && self.nesting == 1 && !self.rules.root_unions {
            self.drop_root_unions(&mut f);
        }
        if !f.unions.is_empty() {
            return self.distribute(f, pi, at);
        }
        // A map sent as pairs states its `propertyNames` on the pairs' `key`:
        // reported dropped only if it does not become pairs after all.
        let mut names_dropped = Vec::new();
        if self.encodings && !self.rules.maps && is_pure_map(&f) && !f.property_names.is_empty() {
            let (names, rest) = std::mem::take(&mut f.dropped).into_iter().partition(|d| d.0 == "propertyNames");
            (names_dropped, f.dropped) = (names, rest);
        }
        let (mut out, types, null_branch) = self.head(&mut f, at)?;
        // An untyped node only gets the keywords its facts call for.
        // (A dialect without "any value" sends such a node as every type.)
        let untyped = types == TypeSet::ALL && self.rules.any_value;
        if types.array && !(untyped && f.array_nodes.is_empty() && f.min_items.is_none() && f.max_items.is_none()) {
            self.arrays(&f, pi, at, &mut out)?;
        }
        let object = types.object && (!untyped || has_object_facts(&f));
        if object && types == TypeSet::object_only() && self.encodings && !self.rules.maps && is_pure_map(&f) {
            return self.pairs(&f, pi, at, out);
        }
        for (kw, p) in names_dropped {
            self.widen(&p, &kw, Action::Dropped, "cannot be expressed; dropped (widening)");
        }
        if object {
            self.objects(&f, pi, at, &mut out)?;
        }
        Ok(self.tail(out, null_branch, at))
    }

    #[inline(never)]
    fn drop_root_unions(&mut self, f: &mut Facts<'d>) {
        for (kw, p, _) in std::mem::take(&mut f.unions) {
            self.widen(&p, kw, Action::Dropped, "not allowed at the root by the dialect: dropped (widening)");
        }
    }

    /// The node's annotations, type, literals and scalar keywords; the types it
    /// allows; whether `null` is split off into a branch of its own.
    #[inline(never)]
    fn head(&mut self, f: &mut Facts<'d>, at: &str) -> Result<(Map<String, Value>, TypeSet, bool), Fail> {
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
            // Under reshape, a value of any type that says what its objects
            // are (a schema without `type`, as configuration schemas write
            // them) goes as every type: its objects as they say, its arrays'
            // elements as JSON text, the rest as they come; each branch is
            // told apart by its kind, so `decode` reads it back exactly.
            if self.encodings && !self.rules.any_value && has_object_facts(f) && self.rules.max_any_of >= KINDS {
                out.insert("type".to_owned(), types.to_keyword());
            } else if !self.rules.any_value {
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
            self.strings(f, &mut out);
        }
        if types.has_numbers() {
            self.numbers(f, types, &mut out);
        }
        Ok((out, types, null_branch))
    }

    /// The node, located when it has properties, and its `null` branch.
    #[inline(never)]
    fn tail(&self, mut out: Map<String, Value>, null_branch: bool, at: &str) -> Value {
        if self.locate && out.contains_key("properties") {
            out.insert(super::AT.to_owned(), Value::String(at.to_owned()));
        }
        let node = Value::Object(out);
        if null_branch {
            let mut null = Map::new();
            null.insert("type".to_owned(), Value::String("null".to_owned()));
            return any_of(vec![node, Value::Object(null)]);
        }
        node
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
}

/// The JSON kinds a value of any type is sent as, one `anyOf` branch each
/// (null, boolean, number, string, array, object).
const KINDS: usize = 6;

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
pub(super) fn any_of(branches: Vec<Value>) -> Value {
    let mut m = Map::new();
    m.insert("anyOf".to_owned(), Value::Array(branches));
    Value::Object(m)
}
