//! Optional properties in a strict mode that needs every property required.
//!
//! An object below the root whose optional properties are few is sent as an
//! `anyOf` of closed objects, one per set of optional properties present, each
//! requiring exactly its own keys. This is exact, not a reshape: every answer
//! keeps the caller's shape, and an answer's keys pick the one branch it
//! matches (each branch is closed and requires a key set no other branch
//! allows). The root stays an object, since strict modes refuse `anyOf` there.

use crate::lower::{AT, for_each_child_at_mut};
use crate::note::{Action, Note};
use serde_json::{Map, Value};

/// Most branches one object is expanded into (three optional properties).
const MAX_BRANCHES: usize = 8;

/// Expands, below the root of the lowered schema `v`, every closed object with
/// at least one required property and between one and
/// `log2(min(MAX_BRANCHES, max_any_of))` optional ones.
/// Returns whether anything was expanded; each expansion is noted at its spot
/// in the sent schema.
pub(crate) fn expand(v: &mut Value, max_any_of: usize, notes: &mut Vec<Note>) -> bool {
    let cap = MAX_BRANCHES.min(max_any_of);
    let max_optional = (0..usize::BITS as usize).take_while(|k| 1usize << k <= cap).last().unwrap_or(0);
    if max_optional == 0 {
        return false;
    }
    let mut changed = false;
    if let Value::Object(m) = v {
        // The root itself is never expanded: only what lies below it.
        for_each_child_at_mut(m, "", &mut |c, at| walk(c, &at, max_optional, max_any_of, notes, &mut changed, 1));
    }
    changed
}

fn walk(
    v: &mut Value,
    at: &str,
    max_optional: usize,
    max_any_of: usize,
    notes: &mut Vec<Note>,
    changed: &mut bool,
    depth: usize,
) {
    let Value::Object(m) = v else { return };
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return;
    }
    for_each_child_at_mut(m, at, &mut |c, here| walk(c, &here, max_optional, max_any_of, notes, changed, depth + 1));
    splice(m, max_any_of);
    let Some(optional) = optional_of(m, max_optional) else { return };
    // Notes name the source location the lowering recorded, else the spot in the sent schema.
    let at = m.get(AT).and_then(Value::as_str).unwrap_or(at).to_owned();
    let mut annotations = Map::new();
    for k in ["title", "description"] {
        if let Some(x) = m.remove(k) {
            annotations.insert(k.to_owned(), x);
        }
    }
    let Some(Value::Object(props)) = m.get("properties") else { return };
    let mut branches = Vec::with_capacity(1 << optional.len());
    // Most keys first: the branch with every optional property leads.
    let mut masks: Vec<usize> = (0..(1usize << optional.len())).collect();
    masks.sort_by_key(|m| m.count_ones());
    for absent_mask in masks {
        let absent = |name: &str| optional.iter().position(|o| o == name).is_some_and(|i| absent_mask & (1 << i) != 0);
        let kept: Map<String, Value> =
            props.iter().filter(|(k, _)| !absent(k)).map(|(k, s)| (k.clone(), s.clone())).collect();
        let required: Vec<Value> = kept.keys().map(|k| Value::String(k.clone())).collect();
        let mut branch = m.clone();
        branch.insert("properties".to_owned(), Value::Object(kept));
        branch.insert("required".to_owned(), Value::Array(required));
        branches.push(Value::Object(branch));
    }
    annotations.insert("anyOf".to_owned(), Value::Array(branches));
    notes.push(Note::new(
        at,
        "required",
        Action::Rewritten,
        format!(
            "optional {} sent as `anyOf` of the {} closed objects with and without {} (exact: an answer's keys pick its branch)",
            optional.join(", "),
            1usize << optional.len(),
            if optional.len() == 1 { "it" } else { "each" }
        ),
    ));
    *v = Value::Object(annotations);
    *changed = true;
}

/// A branch of an `anyOf` that is itself a bare `anyOf` (an expanded object
/// in a union) is spliced into it when the branch count allows: the strict
/// subset documents no `anyOf` directly inside another.
fn splice(m: &mut Map<String, Value>, max_any_of: usize) {
    let Some(Value::Array(branches)) = m.get_mut("anyOf") else { return };
    let bare = |b: &Value| matches!(b, Value::Object(o) if o.len() == 1 && o.contains_key("anyOf"));
    if !branches.iter().any(bare) {
        return;
    }
    let total: usize =
        branches.iter().map(|b| if bare(b) { b["anyOf"].as_array().map_or(1, Vec::len) } else { 1 }).sum();
    if total > max_any_of {
        return;
    }
    let mut out = Vec::with_capacity(total);
    for b in branches.drain(..) {
        match b {
            Value::Object(mut o) if o.len() == 1 && o.contains_key("anyOf") => match o.remove("anyOf") {
                Some(Value::Array(inner)) => out.extend(inner),
                Some(other) => out.push(other),
                None => {}
            },
            other => out.push(other),
        }
    }
    *branches = out;
}

/// The optional property names of a closed object node, when there are
/// between one and `max` of them and nothing else stands in the way.
fn optional_of(m: &Map<String, Value>, max: usize) -> Option<Vec<String>> {
    if m.get("type").and_then(Value::as_str) != Some("object")
        || m.get("additionalProperties") != Some(&Value::Bool(false))
        || m.keys().any(|k| (k.starts_with("$schemacast:") && k != AT) || k == "anyOf" || k == "$ref")
    {
        return None;
    }
    let Some(Value::Object(props)) = m.get("properties") else { return None };
    let required: Vec<&str> = match m.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        None => Vec::new(),
        Some(_) => return None,
    };
    let optional: Vec<String> = props.keys().filter(|k| !required.contains(&k.as_str())).cloned().collect();
    // The branch without any optional property keeps the required ones: strict
    // modes need a non-empty `properties`, so an object with none required stays.
    (!optional.is_empty() && optional.len() <= max && optional.len() < props.len()).then_some(optional)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(props: Value, required: &[&str]) -> Value {
        json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
    }

    #[test]
    fn ok_an_optional_property_below_the_root_becomes_two_branches() {
        let inner = object(json!({"a": {"type": "string"}, "b": {"type": "integer"}}), &["a"]);
        let mut s = object(json!({"x": inner}), &["x"]);
        let mut notes = Vec::new();
        assert!(expand(&mut s, usize::MAX, &mut notes));
        assert_eq!(
            s["properties"]["x"],
            json!({"anyOf": [
                object(json!({"a": {"type": "string"}, "b": {"type": "integer"}}), &["a", "b"]),
                object(json!({"a": {"type": "string"}}), &["a"]),
            ]})
        );
        assert_eq!(notes.len(), 1);
        assert_eq!(notes[0].pointer, "/properties/x");
    }

    #[test]
    fn ok_an_expanded_union_branch_is_spliced_into_its_union() {
        let branch = object(json!({"a": {"type": "string"}, "b": {"type": "string"}}), &["a"]);
        let other = json!({"type": "string"});
        let mut s = object(json!({"x": {"anyOf": [other.clone(), branch]}}), &["x"]);
        expand(&mut s, usize::MAX, &mut Vec::new());
        let x = &s["properties"]["x"]["anyOf"];
        assert_eq!(x.as_array().map(Vec::len), Some(3), "{x}");
        assert_eq!(x[0], other);
        assert_eq!(x[2], object(json!({"a": {"type": "string"}}), &["a"]));
        // Over the provider's branch limit, the union stays nested.
        let branch = object(json!({"a": {}, "b": {}, "c": {}}), &["a"]);
        let mut s = object(json!({"x": {"anyOf": [{"type": "string"}, {"type": "null"}, branch]}}), &["x"]);
        expand(&mut s, 5, &mut Vec::new());
        assert_eq!(s["properties"]["x"]["anyOf"].as_array().map(Vec::len), Some(3));
        assert_eq!(s["properties"]["x"]["anyOf"][2]["anyOf"].as_array().map(Vec::len), Some(4));
    }

    #[test]
    fn ok_key_order_and_annotations_are_kept() {
        let inner = json!({"description": "d", "type": "object",
            "properties": {"z": {"type": "string"}, "a": {"type": "string"}, "m": {"type": "string"}},
            "required": ["z", "m"], "additionalProperties": false});
        let mut s = object(json!({"x": {"type": "array", "items": inner}}), &["x"]);
        expand(&mut s, usize::MAX, &mut Vec::new());
        let node = &s["properties"]["x"]["items"];
        assert_eq!(node["description"], "d");
        let keys: Vec<&String> =
            node["anyOf"][0]["properties"].as_object().map(|p| p.keys().collect()).unwrap_or_default();
        assert_eq!(keys, ["z", "a", "m"]);
        assert!(node["anyOf"][0].get("description").is_none());
    }

    #[test]
    fn err_the_root_open_objects_no_required_key_and_too_many_optionals_stay() {
        let root = object(json!({"a": {"type": "string"}}), &[]);
        let mut s = root.clone();
        assert!(!expand(&mut s, usize::MAX, &mut Vec::new()));
        assert_eq!(s, root, "strict modes refuse `anyOf` at the root");
        let four = object(json!({"a": {}, "b": {}, "c": {}, "d": {}, "e": {}}), &["e"]);
        let none_required = object(json!({"a": {}}), &[]);
        let open = json!({"type": "object", "properties": {"a": {}}});
        let mut s = object(json!({"four": four, "open": open, "none": none_required}), &["four", "open", "none"]);
        let before = s.clone();
        assert!(!expand(&mut s, usize::MAX, &mut Vec::new()));
        assert_eq!(s, before);
        // Cerebras allows five branches: two optional properties, not three.
        let three = object(json!({"a": {}, "b": {}, "c": {}, "r": {}}), &["r"]);
        let two = object(json!({"a": {}, "b": {}, "r": {}}), &["r"]);
        let mut s = object(json!({"three": three, "two": two}), &["three", "two"]);
        assert!(expand(&mut s, 5, &mut Vec::new()));
        assert!(s["properties"]["three"].get("anyOf").is_none());
        assert_eq!(s["properties"]["two"]["anyOf"].as_array().map(Vec::len), Some(4));
    }
}
