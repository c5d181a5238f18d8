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
    let Some(Value::Object(props)) = sent.get("properties").cloned() else {
        return Ok((Value::Object(sent), Value::Object(ann)));
    };
    let required: Vec<String> = match sent.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => Vec::new(),
    };
    let optional: Vec<String> = props.keys().filter(|k| !required.contains(k)).cloned().collect();
    if optional.is_empty() {
        return Ok((Value::Object(sent), Value::Object(ann)));
    }
    let mut new_props = props.clone();
    let mut ann_props = ann.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    for name in &optional {
        let node = &props[name];
        if admits_null(node) {
            return Err(Note::new(
                format!("{at}/properties/{name}"),
                "required",
                Action::Degraded,
                "optional, and its schema already accepts null: required-and-nullable would not be reversible",
            ));
        }
        let nullable = json!({"anyOf": [node, {"type": "null"}]});
        new_props.insert(name.clone(), nullable.clone());
        let ann_node = ann_props.get(name).cloned().unwrap_or(Value::Null);
        ann_props.insert(name.clone(), json!({"anyOf": [ann_node, {"type": "null"}]}));
    }
    let all: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
    sent.insert("properties".to_owned(), Value::Object(new_props));
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

fn admits_null(node: &Value) -> bool {
    jsonschema::options().offline().build(node).map_or(true, |v| v.is_valid(&Value::Null))
}

/// The schema of array element `i`: its `prefixItems` position, else `items`.
fn element(ann: &Value, i: usize) -> Option<&Value> {
    ann.get("prefixItems").and_then(|p| p.get(i)).or_else(|| ann.get("items"))
}

fn strip(ann: &Value) -> Value {
    match ann {
        Value::Object(m) => Value::Object(
            m.iter().filter(|(k, _)| *k != NULLABLE && *k != WRAPPED).map(|(k, v)| (k.clone(), strip(v))).collect(),
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

fn undo(y: Value, ann: &Value) -> Value {
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
