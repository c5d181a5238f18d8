//! The native model: what a provider may return for an emission, read back from
//! the emitted body alone, under the conservative readings of contract §2.
//!
//! This is the crate's statement of what each provider enforces. It is written
//! independently of the emitters (it knows request shapes and provider
//! readings, nothing about how the emitters chose what to send), so the
//! soundness law "every valid instance, projected, is accepted by the native
//! model" checks the emitters against it.

use crate::Emission;
use serde_json::{Map, Value, json};

/// The native constraint as a JSON Schema (objects closed where the provider
/// closes them), or `None` when nothing native constrains the answer.
pub(crate) fn native_schema(em: &Emission) -> Option<Value> {
    let body = em.body();
    if let Some(rf) = body.get("response_format") {
        return Some(match rf.get("type").and_then(Value::as_str) {
            Some("json_schema") if rf["json_schema"]["strict"] == Value::Bool(true) => {
                close_all(&rf["json_schema"]["schema"])
            }
            Some("json_object") => json!({"type": "object"}),
            _ => json!(false),
        });
    }
    if let Some(gc) = body.get("generationConfig") {
        if let Some(s) = gc.get("responseSchema") {
            return Some(openapi(s));
        }
        if let Some(s) = gc.get("responseJsonSchema") {
            return Some(close_absent(s));
        }
        return Some(json!({"type": "object"}));
    }
    if let Some(f) = body.get("format") {
        return Some(if f == "json" { json!({"type": "object"}) } else { llama_cpp(f) });
    }
    if let Some(choice) = body.get("tool_choice") {
        // A forced non-strict tool: its input is any object.
        return Some(if choice["type"] == "tool" { json!({"type": "object"}) } else { json!(true) });
    }
    None
}

/// llama.cpp's reading of a schema: objects without `additionalProperties` are
/// closed, and `{}` is any object.
fn llama_cpp(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        let keywords = m.keys().filter(|k| !matches!(k.as_str(), "title" | "description")).count();
        if keywords == 0 {
            m.insert("type".to_owned(), json!("object"));
        }
        let is_object = m.contains_key("properties")
            || m.get("type")
                .is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object"))));
        if is_object && !m.contains_key("additionalProperties") {
            m.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    })
}

/// Strict mode: every object is closed whatever the schema says.
fn close_all(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        if m.contains_key("properties") || m.get("type") == Some(&json!("object")) {
            m.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    })
}

/// A JSON Schema dialect whose default for a missing `additionalProperties` is
/// not documented: read as closed.
fn close_absent(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        let is_object = m.contains_key("properties")
            || m.get("type")
                .is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object"))));
        if is_object && !m.contains_key("additionalProperties") {
            m.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    })
}

fn walk(v: &Value, f: &dyn Fn(&mut Map<String, Value>)) -> Value {
    match v {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, sub) in m {
                let converted = match k.as_str() {
                    "enum" | "const" | "default" | "examples" => sub.clone(),
                    "properties" | "$defs" | "patternProperties" => match sub {
                        Value::Object(p) => Value::Object(p.iter().map(|(k, v)| (k.clone(), walk(v, f))).collect()),
                        other => other.clone(),
                    },
                    _ => walk(sub, f),
                };
                out.insert(k.clone(), converted);
            }
            f(&mut out);
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| walk(x, f)).collect()),
        other => other.clone(),
    }
}

/// Gemini's OpenAPI `Schema` read as JSON Schema: every OBJECT closed to its
/// `properties`, `nullable` adding `null`, unknown fields meaning nothing.
fn openapi(v: &Value) -> Value {
    let Value::Object(m) = v else { return json!(false) };
    let mut out = Map::new();
    let ty = m.get("type").and_then(Value::as_str).map(str::to_ascii_lowercase);
    if let Some(t) = &ty {
        out.insert("type".into(), json!(t));
    }
    for k in [
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
        "enum",
    ] {
        if let Some(x) = m.get(k) {
            out.insert(k.into(), x.clone());
        }
    }
    if m.get("format") == Some(&json!("date-time")) {
        out.insert("format".into(), json!("date-time"));
    }
    if let Some(Value::Array(b)) = m.get("anyOf") {
        out.insert("anyOf".into(), Value::Array(b.iter().map(openapi).collect()));
    }
    if let Some(items) = m.get("items") {
        out.insert("items".into(), openapi(items));
    }
    if ty.as_deref() == Some("object") {
        let props: Map<String, Value> = match m.get("properties") {
            Some(Value::Object(p)) => p.iter().map(|(k, v)| (k.clone(), openapi(v))).collect(),
            _ => Map::new(),
        };
        out.insert("properties".into(), Value::Object(props));
        if let Some(r) = m.get("required") {
            out.insert("required".into(), r.clone());
        }
        out.insert("additionalProperties".into(), json!(false));
    }
    let node = Value::Object(out);
    if m.get("nullable") == Some(&json!(true)) { json!({"anyOf": [node, {"type": "null"}]}) } else { node }
}
