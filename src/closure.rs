//! Closed-world projection (contract §3), and the facts it rests on.
//!
//! At one instance location, every schema node that *may* apply is gathered:
//! the node reached by the path, and everything reachable from it through
//! in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`,
//! `not`, `dependentSchemas`). Gathering too much only makes the projection drop
//! less, so the gathering errs on the side of including.
//!
//! The location is **closable** when some gathered node declares a property, no
//! gathered node says anything else about undeclared keys
//! (`additionalProperties` other than absent, `true` or `{}`,
//! `patternProperties`, `propertyNames`, `minProperties`, `dependentRequired`,
//! `dependentSchemas`, `unevaluatedProperties`, draft-07 `dependencies`, or a
//! reference that cannot be followed), and every `required` name is declared.
//! The projection drops, at closable locations, every key that no gathered node
//! declares. Emitters that close objects check the same facts, so what they
//! close is exactly what the projection allows them to close.

use crate::analysis::Doc;
use crate::vocab;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// A schema reached at some location, with its pointer in the source document.
pub(crate) type Src<'a> = (&'a Value, String);

/// A marker source: the location is reached through a negative or exclusive
/// context (`not`, `if`, `oneOf`), where dropping a key can change validity.
static NEGATIVE: Value = Value::Null;
const NEGATIVE_AT: &str = "\u{0}negative context";

/// Bound on gathered nodes at one location (a guard against pathological documents).
const MAX_GATHERED: usize = 4096;

/// Every schema node that may apply at one instance location.
#[derive(Debug, Default)]
pub(crate) struct Gathered<'a> {
    pub(crate) nodes: Vec<(&'a Map<String, Value>, String)>,
    /// Something could not be seen through (an unresolvable or dynamic reference,
    /// or the gathering bound was hit).
    pub(crate) opaque: bool,
    /// Some gathered schema sits under `not`, `if` or `oneOf` (here or at an
    /// enclosing location): dropping keys could flip it.
    pub(crate) negative: bool,
}

/// Gathers every node that may apply where `starts` apply.
pub(crate) fn gather<'a>(doc: &Doc<'a>, starts: &[Src<'a>]) -> Gathered<'a> {
    let mut out = Gathered::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut work: Vec<Src<'a>> = starts.iter().rev().cloned().collect();
    while let Some((schema, at)) = work.pop() {
        if at == NEGATIVE_AT {
            out.negative = true;
            continue;
        }
        let Value::Object(map) = schema else { continue };
        if !seen.insert(at.clone()) {
            continue;
        }
        if out.nodes.len() >= MAX_GATHERED {
            out.opaque = true;
            break;
        }
        out.nodes.push((map, at.clone()));
        if map.contains_key(vocab::OPAQUE) {
            out.opaque = true;
        }
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            match resolve(doc, r) {
                Some(target) => work.push(target),
                None => out.opaque = true,
            }
        }
        let mut children = Vec::new();
        let mut negative = false;
        vocab::for_each_child(map, |c| {
            if is_in_place(c.tokens[0]) {
                negative |= matches!(c.tokens[0], vocab::Token::Key("not" | "if" | "oneOf"));
                children.push((c.schema, c.pointer(&at)));
            }
        });
        out.negative |= negative;
        work.extend(children.into_iter().rev());
    }
    out
}

fn is_in_place(token: vocab::Token<'_>) -> bool {
    matches!(
        token,
        vocab::Token::Key("allOf" | "anyOf" | "oneOf" | "if" | "then" | "else" | "not" | "dependentSchemas")
    )
}

/// Resolves a working-form `$ref` (a `#/…` pointer).
pub(crate) fn resolve<'a>(doc: &Doc<'a>, reference: &str) -> Option<Src<'a>> {
    crate::pointer::resolve_fragment(doc.root, reference)
}

impl<'a> Gathered<'a> {
    /// A negative context carries over to the locations below.
    fn inherited(&self) -> Vec<Src<'a>> {
        if self.negative { vec![(&NEGATIVE, NEGATIVE_AT.to_owned())] } else { Vec::new() }
    }

    /// Property names declared by any gathered node, in first-seen order.
    pub(crate) fn declared(&self) -> Vec<&'a str> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (map, _) in &self.nodes {
            if let Some(Value::Object(props)) = map.get("properties") {
                for k in props.keys() {
                    if seen.insert(k.as_str()) {
                        out.push(k.as_str());
                    }
                }
            }
        }
        out
    }

    /// Does any gathered node say something about undeclared keys?
    pub(crate) fn speaks_of_undeclared(&self) -> bool {
        self.opaque
            || self.nodes.iter().any(|(map, _)| {
                let additional = match map.get("additionalProperties") {
                    None | Some(Value::Bool(true)) => false,
                    Some(Value::Object(m)) => !m.is_empty(),
                    Some(_) => true,
                };
                additional
                    || [
                        "patternProperties",
                        "propertyNames",
                        "minProperties",
                        "dependentRequired",
                        "dependentSchemas",
                        "unevaluatedProperties",
                    ]
                    .iter()
                    .any(|k| map.contains_key(*k))
            })
    }

    /// Contract §3: may undeclared keys be dropped here?
    pub(crate) fn is_closable(&self) -> bool {
        let declared: HashSet<&str> = self.declared().into_iter().collect();
        let object_literals = self.nodes.iter().any(|(map, _)| {
            map.get("const").is_some_and(Value::is_object)
                || map.get("enum").and_then(Value::as_array).is_some_and(|e| e.iter().any(Value::is_object))
        });
        !declared.is_empty()
            && !self.negative
            && !object_literals
            && !self.speaks_of_undeclared()
            && self.nodes.iter().all(|(map, _)| match map.get("required") {
                Some(Value::Array(names)) => names.iter().all(|n| n.as_str().is_some_and(|n| declared.contains(n))),
                _ => true,
            })
    }

    /// Schemas that may apply to the value of key `key`.
    pub(crate) fn for_key(&self, key: &str) -> Vec<Src<'a>> {
        let mut out = self.inherited();
        for (map, at) in &self.nodes {
            if let Some(Value::Object(props)) = map.get("properties")
                && let Some(s) = props.get(key)
            {
                out.push((s, crate::pointer::push(&crate::pointer::push(at, "properties"), key)));
            }
            if let Some(Value::Object(pp)) = map.get("patternProperties") {
                for (p, s) in pp {
                    out.push((s, crate::pointer::push(&crate::pointer::push(at, "patternProperties"), p)));
                }
            }
            for kw in ["additionalProperties", "unevaluatedProperties"] {
                if let Some(s) = map.get(kw) {
                    out.push((s, crate::pointer::push(at, kw)));
                }
            }
        }
        out
    }

    /// Schemas that may apply to array element `index` (`None`: any element).
    pub(crate) fn for_index(&self, index: Option<usize>) -> Vec<Src<'a>> {
        let mut out = self.inherited();
        for (map, at) in &self.nodes {
            if let Some(Value::Array(prefix)) = map.get("prefixItems") {
                let base = crate::pointer::push(at, "prefixItems");
                for (i, s) in prefix.iter().enumerate() {
                    if index.is_none_or(|want| want == i) {
                        out.push((s, crate::pointer::push_index(&base, i)));
                    }
                }
            }
            for kw in ["items", "contains", "unevaluatedItems"] {
                if let Some(s) = map.get(kw) {
                    out.push((s, crate::pointer::push(at, kw)));
                }
            }
        }
        out
    }
}

/// The closed-world projection `π(value)` under the schema `doc.root`.
pub(crate) fn project_value(doc: &Doc<'_>, value: &Value) -> Value {
    project_at(doc, &[(doc.root, String::new())], value, 0)
}

fn project_at(doc: &Doc<'_>, starts: &[Src<'_>], value: &Value, depth: usize) -> Value {
    if depth > crate::preflight::MAX_DEPTH_CEILING || starts.is_empty() {
        return value.clone();
    }
    match value {
        Value::Object(obj) => {
            let here = gather(doc, starts);
            let keep: Option<HashSet<&str>> =
                if here.is_closable() { Some(here.declared().into_iter().collect()) } else { None };
            let mut out = Map::new();
            for (k, v) in obj {
                if keep.as_ref().is_some_and(|keep| !keep.contains(k.as_str())) {
                    continue;
                }
                out.insert(k.clone(), project_at(doc, &here.for_key(k), v, depth + 1));
            }
            Value::Object(out)
        }
        Value::Array(items) => {
            let here = gather(doc, starts);
            Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| project_at(doc, &here.for_index(Some(i)), v, depth + 1))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn project(schema: &Value, value: &Value) -> Value {
        let doc = Doc { root: schema };
        project_value(&doc, value)
    }

    #[test]
    fn ok_drops_undeclared_keys_of_closable_objects() {
        let s = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}}}});
        assert_eq!(project(&s, &json!({"a": {"b": 1, "c": 2}, "z": 3})), json!({"a": {"b": 1}}));
    }

    #[test]
    fn ok_branches_and_refs_count_as_declared() {
        let s = json!({"properties": {"a": {}}, "anyOf": [{"properties": {"b": {}}}], "allOf": [{"$ref": "#/$defs/C"}],
                       "$defs": {"C": {"properties": {"c": {}}}}});
        assert_eq!(project(&s, &json!({"a": 1, "b": 2, "c": 3, "d": 4})), json!({"a": 1, "b": 2, "c": 3}));
    }

    #[test]
    fn ok_arrays_project_their_elements() {
        let s = json!({"type": "array", "items": {"properties": {"a": {}}}});
        assert_eq!(project(&s, &json!([{"a": 1, "b": 2}, 3])), json!([{"a": 1}, 3]));
    }

    #[test]
    fn err_not_closable_keeps_everything() {
        let keep = json!({"a": 1, "x": 2});
        for s in [
            json!({"type": "object"}),
            json!({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
            json!({"properties": {"a": {}}, "required": ["ghost"]}),
            json!({"properties": {"a": {}}, "patternProperties": {"^x": {}}}),
            json!({"properties": {"a": {}}, "minProperties": 2}),
            json!({"properties": {"a": {}}, "anyOf": [{"additionalProperties": false}]}),
            json!({"properties": {"a": {}}, "$ref": "#/nowhere"}),
            json!({"anyOf": [{"not": {"enum": [{}]}}, {"properties": {"a": {}}}]}),
            json!({"oneOf": [{"properties": {"a": {}}}, {"maxProperties": 0}]}),
            json!({"properties": {"a": {}}, "enum": [{"a": 1, "x": 2}]}),
            json!({"not": {"properties": {"p": {"properties": {"q": {}}}}}, "properties": {"p": {}}}),
        ] {
            assert_eq!(project(&s, &keep), keep, "{s}");
        }
    }
}
