//! The test model of what a provider may return for an emission, read back from
//! the emitted body alone (written independently of the emitters).

use crate::Emission;
use serde_json::Value;

/// `true` when the provider, read conservatively, can return `x` for this emission.
pub(crate) fn admits(em: &Emission, x: &Value) -> bool {
    let body = em.body();
    if let Some(rf) = body.get("response_format") {
        return match rf.get("type").and_then(Value::as_str) {
            Some("json_object") => x.is_object(),
            Some("json_schema") => {
                let schema = &rf["json_schema"]["schema"];
                // Strict mode closes every object; the sent schema must already say so.
                let strict = rf["json_schema"]["strict"] == Value::Bool(true);
                strict && all_objects_closed(schema) && validates(schema, x)
            }
            _ => false,
        };
    }
    // No native constraint at all.
    body.as_object().is_some_and(serde_json::Map::is_empty)
}

fn validates(schema: &Value, x: &Value) -> bool {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .offline()
        .build(schema)
        .is_ok_and(|v| v.is_valid(x))
}

/// Every schema object with `type` object (or `properties`) says `additionalProperties: false`.
fn all_objects_closed(schema: &Value) -> bool {
    match schema {
        Value::Object(m) => {
            let is_object = m
                .get("type")
                .is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.iter().any(|t| t == "object")));
            if (is_object || m.contains_key("properties")) && m.get("additionalProperties") != Some(&Value::Bool(false))
            {
                return false;
            }
            m.iter().all(|(k, v)| matches!(k.as_str(), "enum" | "const") || all_objects_closed(v))
        }
        Value::Array(items) => items.iter().all(all_objects_closed),
        _ => true,
    }
}
