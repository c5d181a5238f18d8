//! The inverse of the reshape: what `decode` applies before validating.

use super::{Accepts, Cx, NULLABLE, OR_NULL, PRESENT, has_markers};
use crate::lower::{JSON_TEXT, PAIRS};
use serde_json::{Map, Value};

/// Why an answer as sent has no inverse; `decode` reports each as its own
/// `DecodeError` (this layer sits below decode and does not know it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum InverseError {
    /// A string that carries a value as JSON text does not parse.
    NotJson { text: String, message: String },
    /// A map's `{"key", "value"}` pairs repeat a key.
    RepeatedKey { pointer: String, key: String },
}

/// The inverse, applied by `decode` before validating: unwrap, rebuild maps,
/// parse JSON texts, drop the `null`s that mean absent.
///
/// # Errors
///
/// A repeated key in a map's pairs, or a JSON text that does not parse.
pub(crate) fn inverse(y: Value, ann: &Value, accepts: Accepts<'_>) -> Result<Value, InverseError> {
    let cx = Cx { root: ann, accepts };
    if super::read::is_wrapped(ann) {
        return match y {
            Value::Object(mut m) if m.contains_key("value") => {
                let inner = ann.pointer("/properties/value").unwrap_or(&Value::Null);
                undo(m.remove("value").unwrap_or(Value::Null), inner, "/properties/value", "", &cx, 0)
            }
            other => Ok(other),
        };
    }
    undo(y, ann, "", "", &cx, 0)
}

fn undo(y: Value, node: &Value, at: &str, here: &str, cx: &Cx<'_, '_>, depth: usize) -> Result<Value, InverseError> {
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return Ok(y);
    }
    let (node, at) = cx.follow(node, at);
    if node.get(JSON_TEXT).is_some() {
        return match y {
            Value::String(text) => serde_json::from_str(&text).map_err(|e| InverseError::NotJson {
                message: format!("at {}: the string that carries this value is not JSON: {e}", shown(here)),
                text,
            }),
            other => Ok(other),
        };
    }
    if node.get(PAIRS).is_some() {
        let Value::Array(items) = y else { return Ok(y) };
        let value_node = node.pointer("/items/properties/value").unwrap_or(&Value::Null);
        let value_at = format!("{at}/items/properties/value");
        let mut out = Map::new();
        for (i, item) in items.into_iter().enumerate() {
            let Value::Object(mut pair) = item else { continue };
            let (Some(Value::String(key)), Some(v)) = (pair.remove("key"), pair.remove("value")) else { continue };
            if out.contains_key(&key) {
                return Err(InverseError::RepeatedKey { pointer: crate::pointer::push_index(here, i), key });
            }
            let here_k = crate::pointer::push(here, &key);
            let v = undo(v, value_node, &value_at, &here_k, cx, depth + 1)?;
            out.insert(key, v);
        }
        return Ok(Value::Object(out));
    }
    if node.get(OR_NULL).is_some() {
        return match (&y, node.pointer("/anyOf/0")) {
            (Value::Null, _) | (_, None) => Ok(y),
            (_, Some(inner)) => undo(y, inner, &format!("{at}/anyOf/0"), here, cx, depth + 1),
        };
    }
    if node.get(PRESENT).is_some() {
        return match y {
            Value::Object(mut m) if m.contains_key("value") => {
                let suffix = super::present_value(node);
                let inner = node.pointer(suffix).unwrap_or(&Value::Null);
                let v = m.remove("value").unwrap_or(Value::Null);
                undo(v, inner, &format!("{at}{suffix}"), here, cx, depth + 1)
            }
            other => Ok(other),
        };
    }
    if node.get("anyOf").is_some() {
        if !has_markers(node) && !refers(node) {
            return Ok(y);
        }
        return match cx.branch(node, &at, &y) {
            Some((b, p)) => undo(y, b, &p, here, cx, depth + 1),
            None => Ok(y),
        };
    }
    match y {
        Value::Object(m) => {
            let dropped: Vec<&str> = node
                .get(NULLABLE)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let props = node.get("properties").and_then(Value::as_object);
            let mut out = Map::new();
            for (k, v) in m {
                let sub = props.and_then(|p| p.get(&k));
                let means_absent =
                    v.is_null() && (dropped.contains(&k.as_str()) || sub.is_some_and(|s| s.get(PRESENT).is_some()));
                if means_absent {
                    continue;
                }
                let v = match sub {
                    Some(s) => {
                        let p = crate::pointer::push(&crate::pointer::push(&at, "properties"), &k);
                        undo(v, s, &p, &crate::pointer::push(here, &k), cx, depth + 1)?
                    }
                    None => v,
                };
                out.insert(k, v);
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, v) in items.into_iter().enumerate() {
                let here_i = crate::pointer::push_index(here, i);
                out.push(match element(node, &at, i) {
                    Some((sub, p)) => undo(v, sub, &p, &here_i, cx, depth + 1)?,
                    None => v,
                });
            }
            Ok(Value::Array(out))
        }
        other => Ok(other),
    }
}

/// Whether a node holds a `$ref` (its target may hold markers).
pub(super) fn refers(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("$ref") || m.values().any(refers),
        Value::Array(a) => a.iter().any(refers),
        _ => false,
    }
}

fn shown(pointer: &str) -> &str {
    if pointer.is_empty() { "(root)" } else { pointer }
}

/// The schema of array element `i`: its `prefixItems` position (`true`), else `items`.
pub(super) fn element_node(node: &Value, i: usize) -> Option<(&Value, bool)> {
    match node.get("prefixItems").and_then(|p| p.get(i)) {
        Some(p) => Some((p, true)),
        None => node.get("items").map(|s| (s, false)),
    }
}

/// The schema of array element `i`, and its pointer.
pub(super) fn element<'a>(node: &'a Value, at: &str, i: usize) -> Option<(&'a Value, String)> {
    element_node(node, i)
        .map(|(s, prefix)| (s, if prefix { format!("{at}/prefixItems/{i}") } else { format!("{at}/items") }))
}

/// The inverse of the part of an answer that `node` (a node inside the
/// annotated schema `root`) annotates, for the stream decoder's partial values:
/// `y` unchanged where the inverse fails (the final decode reports that).
pub(crate) fn undo_at(y: Value, node: &Value, root: &Value, accepts: super::Accepts<'_>) -> Value {
    let Some(at) = pointer_of(root, node, String::new(), 0) else { return y };
    let cx = Cx { root, accepts };
    undo(y.clone(), node, &at, "", &cx, 0).unwrap_or(y)
}

/// Where `node` sits inside `v` (by identity).
fn pointer_of(v: &Value, node: &Value, at: String, depth: usize) -> Option<String> {
    if std::ptr::eq(v, node) {
        return Some(at);
    }
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return None;
    }
    match v {
        Value::Object(m) => m.iter().find_map(|(k, c)| pointer_of(c, node, crate::pointer::push(&at, k), depth + 1)),
        Value::Array(a) => {
            a.iter().enumerate().find_map(|(i, c)| pointer_of(c, node, crate::pointer::push_index(&at, i), depth + 1))
        }
        _ => None,
    }
}
