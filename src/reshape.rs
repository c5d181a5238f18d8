//! Reversible rewrites (contract §5), opt-in with `Options::with_reshape`:
//! an optional property `p: T` becomes required `p: T | null`, and a root that is
//! not an object is wrapped in `{"value": …}`. `decode` applies the inverse.
//!
//! The emission keeps an annotated copy of the sent schema that marks what was
//! rewritten; the markers are never sent.

use crate::emission::{Action, Note};
use serde_json::{Map, Value, json};

/// Marks an object whose listed properties were made required and nullable.
const NULLABLE: &str = "$schemacast:nullable";
/// Marks a wrapped root.
const WRAPPED: &str = "$schemacast:wrapped";
/// Marks the `anyOf: [T, null]` a rewritten property became: `decode` picks its
/// branch by whether the value is `null`, without a validator.
const OR_NULL: &str = "$schemacast:or-null";

/// Makes every optional property of every object required and nullable.
/// Returns the schema to send, its annotated copy, and a note per object.
/// Fails where a property's schema already accepts `null`: `null` could then
/// mean "absent" or "null", and the rewrite would not be reversible.
pub(crate) fn optionals(schema: &Value, at: &str, notes: &mut Vec<Note>) -> Result<(Value, Value), Note> {
    let Value::Object(m) = schema else { return Ok((schema.clone(), schema.clone())) };
    let mut sent = Map::new();
    let mut ann = Map::new();
    for (k, sub) in m {
        let (s, a) = match k.as_str() {
            "properties" => {
                let Value::Object(p) = sub else { return Ok((schema.clone(), schema.clone())) };
                let (mut sp, mut ap) = (Map::new(), Map::new());
                for (name, v) in p {
                    let (s, a) = optionals(v, &format!("{at}/properties/{name}"), notes)?;
                    sp.insert(name.clone(), s);
                    ap.insert(name.clone(), a);
                }
                (Value::Object(sp), Value::Object(ap))
            }
            "items" | "additionalProperties" => optionals(sub, &format!("{at}/{k}"), notes)?,
            "anyOf" | "prefixItems" => {
                let Value::Array(a) = sub else { return Ok((schema.clone(), schema.clone())) };
                let mut s = Vec::new();
                let mut an = Vec::new();
                for (i, v) in a.iter().enumerate() {
                    let (x, y) = optionals(v, &format!("{at}/{k}/{i}"), notes)?;
                    s.push(x);
                    an.push(y);
                }
                (Value::Array(s), Value::Array(an))
            }
            _ => (sub.clone(), sub.clone()),
        };
        sent.insert(k.clone(), s);
        ann.insert(k.clone(), a);
    }
    // Taken out in place (not removed), so every key keeps its position.
    if !matches!(sent.get("properties"), Some(Value::Object(_))) {
        return Ok((Value::Object(sent), Value::Object(ann)));
    }
    let Some(Value::Object(mut props)) = sent.get_mut("properties").map(std::mem::take) else {
        return Ok((Value::Object(sent), Value::Object(ann)));
    };
    let required: std::collections::HashSet<&str> = match sent.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => std::collections::HashSet::new(),
    };
    let optional: Vec<String> = props.keys().filter(|k| !required.contains(k.as_str())).cloned().collect();
    if optional.is_empty() {
        sent.insert("properties".to_owned(), Value::Object(props));
        return Ok((Value::Object(sent), Value::Object(ann)));
    }
    let mut ann_props = match ann.get_mut("properties").map(std::mem::take) {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    let or_null = |node: Value| {
        let mut null = Map::new();
        null.insert("type".to_owned(), json!("null"));
        let mut m = Map::new();
        m.insert("anyOf".to_owned(), Value::Array(vec![node, Value::Object(null)]));
        m
    };
    for name in &optional {
        let Some(node) = props.get_mut(name) else { continue };
        if admits_null(node) {
            return Err(Note::new(
                format!("{at}/properties/{name}"),
                "required",
                Action::Degraded,
                "optional, and its schema already accepts null: required-and-nullable would not be reversible",
            ));
        }
        let taken = std::mem::take(node);
        *node = Value::Object(or_null(taken));
        let ann_node = ann_props.get_mut(name).map(std::mem::take).unwrap_or(Value::Null);
        let mut wrapped = or_null(ann_node);
        wrapped.insert(OR_NULL.to_owned(), Value::Bool(true));
        ann_props.insert(name.clone(), Value::Object(wrapped));
    }
    let all: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
    sent.insert("properties".to_owned(), Value::Object(props));
    sent.insert("required".to_owned(), Value::Array(all.clone()));
    ann.insert("properties".to_owned(), Value::Object(ann_props));
    ann.insert("required".to_owned(), Value::Array(all));
    ann.insert(NULLABLE.to_owned(), json!(optional));
    notes.push(Note::new(
        at,
        "required",
        Action::Rewritten,
        format!("reshape: optional {} sent as required and nullable; decode drops them when null", optional.join(", ")),
    ));
    Ok((Value::Object(sent), Value::Object(ann)))
}

/// Wraps a root that is not an object in `{"value": …}`.
pub(crate) fn wrap(sent: Value, ann: Value, notes: &mut Vec<Note>) -> (Value, Value) {
    notes.push(Note::new(
        "",
        "",
        Action::Rewritten,
        "reshape: the root is wrapped as `{\"value\": …}`; decode unwraps it",
    ));
    let envelope = |inner: Value| {
        let mut props = Map::new();
        props.insert("value".to_owned(), inner);
        let mut m = Map::new();
        m.insert("type".to_owned(), json!("object"));
        m.insert("properties".to_owned(), Value::Object(props));
        m.insert("required".to_owned(), json!(["value"]));
        m.insert("additionalProperties".to_owned(), Value::Bool(false));
        Value::Object(m)
    };
    let mut a = envelope(ann);
    if let Value::Object(m) = &mut a {
        m.insert(WRAPPED.to_owned(), Value::Bool(true));
    }
    (envelope(sent), a)
}

/// Whether `node` accepts `null`: read from its keywords when they are the
/// lowering's plain ones (type-specific assertions never apply to `null`), else
/// asked of a validator.
fn admits_null(node: &Value) -> bool {
    let Value::Object(m) = node else { return node != &Value::Bool(false) };
    let plain = m.keys().all(|k| {
        matches!(k.as_str(), "type" | "enum" | "const" | "anyOf" | "title" | "description")
            || crate::lower::keyword_type(k).is_some()
    });
    if !plain {
        return jsonschema::options().offline().build(node).map_or(true, |v| v.is_valid(&Value::Null));
    }
    let type_ok = match m.get("type") {
        None => Some(true),
        Some(Value::String(t)) => Some(t == "null"),
        Some(Value::Array(ts)) => Some(ts.iter().any(|t| t == "null")),
        Some(_) => None,
    };
    let enum_ok = match m.get("enum") {
        None => Some(true),
        Some(Value::Array(lits)) => Some(lits.contains(&Value::Null)),
        Some(_) => None,
    };
    let const_ok = m.get("const").is_none_or(Value::is_null);
    let any_ok = match m.get("anyOf") {
        None => Some(true),
        Some(Value::Array(b)) => Some(b.iter().any(admits_null)),
        Some(_) => None,
    };
    match (type_ok, enum_ok, any_ok) {
        (Some(t), Some(e), Some(a)) => t && e && a && const_ok,
        _ => jsonschema::options().offline().build(node).map_or(true, |v| v.is_valid(&Value::Null)),
    }
}

/// The schema of array element `i`: its `prefixItems` position, else `items`.
pub(crate) fn element(ann: &Value, i: usize) -> Option<&Value> {
    ann.get("prefixItems").and_then(|p| p.get(i)).or_else(|| ann.get("items"))
}

fn strip(ann: &Value) -> Value {
    match ann {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| *k != NULLABLE && *k != WRAPPED && *k != OR_NULL)
                .map(|(k, v)| (k.clone(), strip(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
        other => other.clone(),
    }
}

fn accepts(ann: &Value, y: &Value) -> bool {
    jsonschema::options().offline().build(&strip(ann)).is_ok_and(|v| v.is_valid(y))
}

/// The inverse, applied by `decode` before validating: unwrap, then drop the
/// `null`s of rewritten properties.
pub(crate) fn inverse(y: Value, ann: &Value) -> Value {
    if ann.get(WRAPPED) == Some(&Value::Bool(true)) {
        let inner = ann.pointer("/properties/value").cloned().unwrap_or(Value::Null);
        return match y {
            Value::Object(mut m) if m.contains_key("value") => undo(m.remove("value").unwrap_or(Value::Null), &inner),
            other => other,
        };
    }
    undo(y, ann)
}

/// The inverse below the root: `y` read at the place `ann` annotates.
pub(crate) fn undo(y: Value, ann: &Value) -> Value {
    if ann.get(OR_NULL) == Some(&Value::Bool(true)) {
        return match (&y, ann.pointer("/anyOf/0")) {
            (Value::Null, _) | (_, None) => y,
            (_, Some(inner)) => undo(y, inner),
        };
    }
    if let Some(Value::Array(branches)) = ann.get("anyOf") {
        return match branches.iter().find(|b| accepts(b, &y)) {
            Some(b) => undo(y, b),
            None => y,
        };
    }
    match y {
        Value::Object(m) => {
            let dropped: Vec<&str> = ann
                .get(NULLABLE)
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let props = ann.get("properties").and_then(Value::as_object);
            let mut out = Map::new();
            for (k, v) in m {
                if v.is_null() && dropped.contains(&k.as_str()) {
                    continue;
                }
                let v = match props.and_then(|p| p.get(&k)) {
                    Some(sub) => undo(v, sub),
                    None => v,
                };
                out.insert(k, v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| match element(ann, i) {
                    Some(sub) => undo(v, sub),
                    None => v,
                })
                .collect(),
        ),
        other => other,
    }
}

/// Reading the annotation one place at a time, as a streamed answer arrives
/// (the stream decoder applies the inverse where it is already decidable).
pub(crate) mod read {
    use super::{NULLABLE, OR_NULL, WRAPPED};
    use serde_json::Value;

    /// The root was wrapped in `{"value": …}`.
    pub(crate) fn is_wrapped(ann: &Value) -> bool {
        ann.get(WRAPPED) == Some(&Value::Bool(true))
    }

    /// The annotation of member `key` of an object annotated by `ann`.
    pub(crate) fn member<'a>(ann: &'a Value, key: &str) -> Option<&'a Value> {
        ann.get("properties")?.get(key)
    }

    /// Whether member `key` is dropped when it comes back `null`.
    pub(crate) fn drops_null(ann: &Value, key: &str) -> bool {
        ann.get(NULLABLE).and_then(Value::as_array).is_some_and(|a| a.iter().any(|n| n == key))
    }

    /// For a rewritten `[T, null]` union: `T`'s annotation.
    pub(crate) fn or_null(ann: &Value) -> Option<&Value> {
        if ann.get(OR_NULL) == Some(&Value::Bool(true)) { ann.pointer("/anyOf/0") } else { None }
    }

    /// A union whose branch the inverse chooses by validating the whole value.
    pub(crate) fn is_union(ann: &Value) -> bool {
        ann.get(OR_NULL).is_none() && matches!(ann.get("anyOf"), Some(Value::Array(_)))
    }

    /// Whether the inverse can change anything below `ann` (a marker sits there).
    pub(crate) fn has_markers(ann: &Value) -> bool {
        match ann {
            Value::Object(m) => {
                m.contains_key(NULLABLE)
                    || m.contains_key(OR_NULL)
                    || m.contains_key(WRAPPED)
                    || m.values().any(has_markers)
            }
            Value::Array(a) => a.iter().any(has_markers),
            _ => false,
        }
    }
}

/// The forward rewrite of an answer (what the provider sends for it): wrap,
/// fill absent rewritten properties with `null`. `None` when no branch of a
/// union fits.
pub(crate) fn forward(x: &Value, ann: &Value) -> Option<Value> {
    if ann.get(WRAPPED) == Some(&Value::Bool(true)) {
        let inner = ann.pointer("/properties/value")?;
        return Some(json!({"value": fill(x, inner)?}));
    }
    fill(x, ann)
}

fn fill(x: &Value, ann: &Value) -> Option<Value> {
    if let Some(Value::Array(branches)) = ann.get("anyOf") {
        return branches.iter().filter_map(|b| fill(x, b).filter(|y| accepts(b, y))).next();
    }
    match x {
        Value::Object(m) => {
            let mut out = m.clone();
            if let Some(Value::Array(names)) = ann.get(NULLABLE) {
                for n in names.iter().filter_map(Value::as_str) {
                    out.entry(n.to_owned()).or_insert(Value::Null);
                }
            }
            if let Some(Value::Object(props)) = ann.get("properties") {
                for (k, sub) in props {
                    if let Some(v) = m.get(k) {
                        out.insert(k.clone(), fill(v, sub)?);
                    }
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| match element(ann, i) {
                Some(sub) => fill(v, sub),
                None => Some(v.clone()),
            })
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        other => Some(other.clone()),
    }
}

#[cfg(test)]
mod null_tests {
    use super::admits_null;
    use serde_json::json;

    #[test]
    fn ok_admits_null_matches_a_validator() {
        for node in [
            json!({}),
            json!(true),
            json!(false),
            json!({"type": "string", "minLength": 2}),
            json!({"type": ["string", "null"], "maxLength": 1}),
            json!({"enum": ["a", null]}),
            json!({"type": "string", "enum": ["a"]}),
            json!({"const": null}),
            json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            json!({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}),
            json!({"type": "object", "properties": {"a": {"type": "null"}}, "required": ["a"]}),
            json!({"not": {"type": "null"}}),
            json!({"allOf": [{"type": ["null", "string"]}]}),
        ] {
            let expected = jsonschema::options().offline().build(&node).is_ok_and(|v| v.is_valid(&json!(null)));
            assert_eq!(admits_null(&node), expected, "{node}");
        }
    }
}
