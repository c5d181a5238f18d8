//! The native model: what a provider may return for an emission, read back from
//! the emitted body alone, under the conservative readings of contract §2.
//!
//! This is the crate's statement of what each provider enforces. It is written
//! independently of the emitters (it knows request shapes and provider
//! readings, nothing about how the emitters chose what to send), so the
//! soundness law "every valid instance, projected, is accepted by the native
//! model" checks the emitters against it.

use crate::profile::{Envelope, Reading};
use serde_json::{Map, Value, json};

/// What the body asks the provider for, found by request shape alone.
enum Sent<'a> {
    /// A schema the provider enforces (read as [`Profile::reading`](crate::profile::Profile::reading) says).
    Schema(std::borrow::Cow<'a, Value>),
    /// A Gemini field (`responseSchema` is read as OpenAPI).
    Gemini(&'a Value, bool),
    /// Plain JSON mode or a guidance tool: any object.
    AnyObject,
    /// Something the read-back does not know: read as accepting nothing.
    Unknown,
}

/// The native constraint as a JSON Schema (objects closed where the provider
/// closes them), or `None` when nothing native constrains the answer.
pub(crate) fn native_schema(provider: crate::options::Provider, body: &Value) -> Option<Value> {
    let profile = crate::profile::profile(provider);
    let sent = find(profile.envelope, body)?;
    Some(match sent {
        Sent::AnyObject => json!({"type": "object"}),
        Sent::Unknown => json!(false),
        Sent::Gemini(s, true) => openapi(s),
        Sent::Gemini(s, false) => close_absent(s),
        Sent::Schema(s) => match profile.reading {
            Reading::Strict => anchor(&close_all(&s)),
            Reading::ClosedByDefault => anchor(&close_absent(&s)),
            Reading::LlamaCpp => anchor(&llama_cpp(&s)),
            Reading::PropertiesClose => close_declared(&s),
            Reading::Claude => anchor(&close_absent(&s)),
            Reading::Gemini => json!(false),
        },
    })
}

/// The schema as sent in `body` (before any reading of it), when the body
/// sends one: what a grammar engine compiles (the engine conformance cases).
#[cfg(test)]
pub(crate) fn sent_schema(provider: crate::options::Provider, body: &Value) -> Option<Value> {
    match find(crate::profile::profile(provider).envelope, body)? {
        Sent::Schema(s) => Some(s.into_owned()),
        Sent::Gemini(s, _) => Some(s.clone()),
        Sent::AnyObject | Sent::Unknown => None,
    }
}

/// Locates the native request in the body of `envelope`; `None` when the body
/// asks for nothing.
fn find(envelope: Envelope, body: &Value) -> Option<Sent<'_>> {
    use std::borrow::Cow;
    let schema = |v: &Value| Sent::Schema(Cow::Owned(v.clone()));
    match envelope {
        Envelope::ChatCompletions => {
            let rf = body.get("response_format")?;
            Some(match rf.get("type").and_then(Value::as_str) {
                Some("json_schema") => schema(&rf["json_schema"]["schema"]),
                Some("json_object") => Sent::AnyObject,
                _ => Sent::Unknown,
            })
        }
        Envelope::Responses => {
            let f = body.pointer("/text/format")?;
            Some(match f.get("type").and_then(Value::as_str) {
                Some("json_schema") => schema(&f["schema"]),
                Some("json_object") => Sent::AnyObject,
                _ => Sent::Unknown,
            })
        }
        Envelope::Cohere => {
            let rf = body.get("response_format")?;
            Some(match (rf.get("type").and_then(Value::as_str), rf.get("json_schema")) {
                (Some("json_object"), Some(s)) => schema(s),
                (Some("json_object"), None) => Sent::AnyObject,
                _ => Sent::Unknown,
            })
        }
        Envelope::OllamaFormat => {
            let f = body.get("format")?;
            Some(if f == "json" { Sent::AnyObject } else { schema(f) })
        }
        Envelope::Gemini => {
            let gc = body.get("generationConfig")?;
            Some(match (gc.get("responseSchema"), gc.get("responseJsonSchema")) {
                (Some(s), _) => Sent::Gemini(s, true),
                (None, Some(s)) => Sent::Gemini(s, false),
                (None, None) => Sent::AnyObject,
            })
        }
        Envelope::Anthropic => {
            if let Some(s) =
                body.pointer("/output_config/format/schema").or_else(|| body.pointer("/output_format/schema"))
            {
                return Some(schema(s));
            }
            let choice = body.get("tool_choice")?;
            // An offered tool (extended thinking): the answer may come as text.
            if choice["type"] == "auto" {
                return None;
            }
            if choice["type"] != "tool" {
                return Some(Sent::Unknown);
            }
            let tool = &body["tools"][0];
            Some(if tool["strict"] == true { schema(&tool["input_schema"]) } else { Sent::AnyObject })
        }
        Envelope::Converse => {
            if let Some(text) = body.pointer("/outputConfig/textFormat/structure/jsonSchema/schema") {
                return Some(match text.as_str().and_then(|t| serde_json::from_str::<Value>(t).ok()) {
                    Some(v) => Sent::Schema(Cow::Owned(v)),
                    None => Sent::Unknown,
                });
            }
            let tc = body.get("toolConfig")?;
            let spec = &tc["tools"][0]["toolSpec"];
            if tc.pointer("/toolChoice/auto").is_some() {
                return None;
            }
            if tc.pointer("/toolChoice/tool/name") != spec.get("name") {
                return Some(Sent::Unknown);
            }
            Some(if spec["strict"] == true { schema(&spec["inputSchema"]["json"]) } else { Sent::AnyObject })
        }
    }
}

/// Whole-string matching, written as JSON Schema: every pattern `p` that is not
/// already `^…$` becomes `^(?:p)$`.
fn anchor(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        if let Some(Value::String(p)) = m.get("pattern")
            && !crate::pattern::is_self_anchored(p)
        {
            let anchored = format!("^(?:{p})$");
            m.insert("pattern".to_owned(), Value::String(anchored));
        }
    })
}

/// Fireworks: an object with `properties` is closed whatever it says.
fn close_declared(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        if m.contains_key("properties") {
            m.insert("additionalProperties".to_owned(), Value::Bool(false));
        }
    })
}

/// llama.cpp's reading of a schema: objects without `additionalProperties` are
/// closed, `{}` is any object, and `prefixItems` without `items` is a tuple
/// of exactly its elements (the converter writes them in sequence, none
/// optional, and reads no count bound beside them).
fn llama_cpp(v: &Value) -> Value {
    walk(v, &|m: &mut Map<String, Value>| {
        let keywords = m.keys().filter(|k| !matches!(k.as_str(), "title" | "description")).count();
        if keywords == 0 {
            m.insert("type".to_owned(), json!("object"));
        }
        if !m.contains_key("items")
            && let Some(n) = m.get("prefixItems").and_then(Value::as_array).map(Vec::len)
        {
            m.insert("items".to_owned(), Value::Bool(false));
            m.insert("minItems".to_owned(), json!(n));
            m.remove("maxItems");
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

#[cfg(test)]
mod tests {
    use crate::Provider;
    use serde_json::json;

    /// llama.cpp's converter writes a `prefixItems` without `items` as exactly
    /// its elements: the model of what it generates must say so, or an exact
    /// tuple reads as widened and a shorter one sent in its place as sound.
    #[test]
    fn llama_cpp_reads_prefix_items_alone_as_exactly_its_elements() {
        let schema = json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}],
            "items": false, "minItems": 2});
        for p in [Provider::LlamaCpp, Provider::Ollama] {
            let em = crate::emit(&schema, p).expect("compiles");
            let native = em.native_schema().expect("a native schema");
            let v = jsonschema::validator_for(&native).expect("builds");
            assert!(v.is_valid(&json!([1, "a"])), "{p}: {native}");
            for x in [json!([]), json!([1]), json!([1, "a", 2])] {
                assert!(!v.is_valid(&x), "{p}: {x} cannot be generated: {native}");
            }
        }
    }
}
