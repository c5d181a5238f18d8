//! Provider-neutral facts about a schema, proved conservatively.

use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// A working-form document (see `front`): 2020-12 vocabulary, every `$ref` a
/// `#/…` pointer into `root`.
#[derive(Clone, Copy)]
pub(crate) struct Doc<'a> {
    pub(crate) root: &'a Value,
}

/// `true` only when every value `schema` accepts is a JSON object (vacuously true
/// for a schema that accepts nothing). `false` means "not proved".
pub(crate) fn accepts_only_objects(doc: &Doc<'_>, schema: &Value) -> bool {
    let mut refs = Refs::default();
    only_objects(doc, schema, 0, &mut refs)
}

/// Reference targets: results known, and targets being examined (a cycle proves nothing).
#[derive(Default)]
struct Refs {
    known: HashMap<String, bool>,
    active: HashSet<String>,
}

fn only_objects(doc: &Doc<'_>, schema: &Value, depth: usize, refs: &mut Refs) -> bool {
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return false;
    }
    let map = match schema {
        Value::Bool(b) => return !b,
        Value::Object(m) => m,
        _ => return false,
    };
    if let Some(t) = map.get("type") {
        match t {
            Value::String(s) if s == "object" => return true,
            Value::Array(ts) if !ts.is_empty() && ts.iter().all(|t| t == "object") => return true,
            Value::Array(ts) if ts.is_empty() => return true,
            _ => {}
        }
    }
    if let Some(Value::Array(members)) = map.get("enum")
        && members.iter().all(Value::is_object)
    {
        return true;
    }
    if let Some(c) = map.get("const")
        && c.is_object()
    {
        return true;
    }
    if let Some(Value::Array(parts)) = map.get("allOf")
        && parts.iter().any(|p| only_objects(doc, p, depth + 1, refs))
    {
        return true;
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(parts)) = map.get(key)
            && !parts.is_empty()
            && parts.iter().all(|p| only_objects(doc, p, depth + 1, refs))
        {
            return true;
        }
    }
    if let (Some(then), Some(otherwise)) = (map.get("then"), map.get("else"))
        && map.contains_key("if")
        && only_objects(doc, then, depth + 1, refs)
        && only_objects(doc, otherwise, depth + 1, refs)
    {
        return true;
    }
    if let Some(Value::String(r)) = map.get("$ref")
        && let Some((target, at)) = crate::pointer::resolve_fragment(doc.root, r)
    {
        if let Some(known) = refs.known.get(&at) {
            return *known;
        }
        if !refs.active.insert(at.clone()) {
            return false;
        }
        let result = only_objects(doc, target, depth + 1, refs);
        refs.active.remove(&at);
        refs.known.insert(at, result);
        return result;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: &Value) -> bool {
        let doc = Doc { root: schema };
        accepts_only_objects(&doc, schema)
    }

    #[test]
    fn ok_objects_only() {
        assert!(check(&json!({"type": "object"})));
        assert!(check(&json!({"type": ["object"]})));
        assert!(check(&json!({"enum": [{}, {"a": 1}]})));
        assert!(check(&json!({"allOf": [{"minProperties": 1}, {"type": "object"}]})));
        assert!(check(&json!({"anyOf": [{"type": "object"}, {"const": {}}]})));
        assert!(check(&json!({"$defs": {"o": {"type": "object"}}, "$ref": "#/$defs/o"})));
        assert!(check(&json!(false)));
    }

    #[test]
    fn err_not_only_objects() {
        assert!(!check(&json!({})));
        assert!(!check(&json!(true)));
        assert!(!check(&json!({"enum": ["a", "b"]})));
        assert!(!check(&json!({"type": ["object", "null"]})));
        assert!(!check(&json!({"properties": {"a": {}}, "required": ["a"]})));
        assert!(!check(&json!({"anyOf": [{"type": "object"}, {"type": "array"}]})));
        assert!(!check(&json!({"anyOf": []})));
        assert!(!check(&json!({"$ref": "#"})));
    }
}
