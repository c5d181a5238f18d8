//! The test model of what a provider may return for an emission, read back from
//! the emitted body alone. Written independently of the emitters: it knows the
//! request shapes and the conservative provider readings of contract §2, and
//! nothing about how the emitters chose what to send.

use crate::Emission;
use serde_json::{Map, Value, json};

/// The native constraint as a JSON Schema (objects closed where the provider
/// closes them), or `None` when nothing native constrains the answer.
pub(crate) fn read_back(em: &Emission) -> Option<Value> {
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

/// Checks instances against one emission's native constraint.
pub(crate) struct Admits {
    native: Option<jsonschema::Validator>,
    constrained: bool,
    source: Option<Value>,
}

impl Admits {
    pub(crate) fn new(em: &Emission) -> Admits {
        let native = read_back(em);
        let validator = native.as_ref().and_then(|n| {
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .offline()
                .build(n)
                .ok()
        });
        Admits { native: validator, constrained: native.is_some(), source: em.source_schema().cloned() }
    }

    /// `true` when the provider, read conservatively, can return `x` once the
    /// answer is projected (contract §3).
    pub(crate) fn admits(&self, x: &Value) -> bool {
        if !self.constrained {
            return true;
        }
        let Some(v) = &self.native else { return false };
        let projected = match &self.source {
            Some(s) => crate::project(s, x),
            None => x.clone(),
        };
        v.is_valid(&projected)
    }
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
pub(crate) fn openapi(v: &Value) -> Value {
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

/// Gemini `responseSchema` acceptance: only the documented fields, upper-case
/// single types, non-empty `properties` on every OBJECT, string-only enums,
/// `required` within `properties`, `format` only `date-time` on STRING.
pub(crate) fn gemini_schema_problems(v: &Value, at: &str, out: &mut Vec<String>) {
    const FIELDS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "anyOf",
        "propertyOrdering",
        "minimum",
        "maximum",
    ];
    const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];
    let Value::Object(m) = v else {
        out.push(format!("{at}: not an object"));
        return;
    };
    for k in m.keys() {
        if !FIELDS.contains(&k.as_str()) {
            out.push(format!("{at}: unknown field {k}"));
        }
    }
    let ty = m.get("type").and_then(Value::as_str);
    match (ty, m.get("anyOf")) {
        (Some(t), None) if TYPES.contains(&t) => {}
        (None, Some(Value::Array(b))) if !b.is_empty() => {}
        _ => out.push(format!("{at}: needs one upper-case `type` or a non-empty `anyOf`")),
    }
    if let Some(e) = m.get("enum")
        && !(ty == Some("STRING") && e.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string)))
    {
        out.push(format!("{at}: enum must be non-empty strings on STRING"));
    }
    if let Some(f) = m.get("format")
        && !(ty == Some("STRING") && f == "date-time")
    {
        out.push(format!("{at}: format {f}"));
    }
    if ty == Some("OBJECT") {
        match m.get("properties") {
            Some(Value::Object(p)) if !p.is_empty() => {
                if let Some(Value::Array(r)) = m.get("required") {
                    for name in r {
                        if !name.as_str().is_some_and(|n| p.contains_key(n)) {
                            out.push(format!("{at}: required {name} not in properties"));
                        }
                    }
                }
                for (k, sub) in p {
                    gemini_schema_problems(sub, &format!("{at}/properties/{k}"), out);
                }
            }
            _ => out.push(format!("{at}: OBJECT without non-empty properties")),
        }
    } else if m.contains_key("properties") || m.contains_key("required") {
        out.push(format!("{at}: properties/required on a non-OBJECT"));
    }
    if ty == Some("ARRAY") {
        match m.get("items") {
            Some(items) => gemini_schema_problems(items, &format!("{at}/items"), out),
            None => out.push(format!("{at}: ARRAY without items")),
        }
    } else if m.contains_key("items") {
        out.push(format!("{at}: items on a non-ARRAY"));
    }
    if let Some(Value::Array(b)) = m.get("anyOf") {
        for (i, sub) in b.iter().enumerate() {
            gemini_schema_problems(sub, &format!("{at}/anyOf/{i}"), out);
        }
    }
}
