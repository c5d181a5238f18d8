//! Where the native schema goes in each provider's request body: the one place
//! that knows the request shapes of the OpenAI-style, Cohere and Ollama fields.

use super::object;
use crate::profile::{Envelope, Profile};
use serde_json::{Map, Value, json};

/// The native schema `schema` in the provider's request shape.
pub(crate) fn schema_fragment(profile: &Profile, name: &str, schema: Value) -> Value {
    let mut fields = Map::new();
    match profile.envelope {
        Envelope::Cohere => {
            object([("response_format", object([("type", json!("json_object")), ("json_schema", schema)]))])
        }
        Envelope::OllamaFormat => object([("format", schema)]),
        Envelope::Responses => {
            fields.insert("type".to_owned(), json!("json_schema"));
            fields.insert("name".to_owned(), json!(name));
            if profile.strict_flag {
                fields.insert("strict".to_owned(), Value::Bool(true));
            }
            fields.insert("schema".to_owned(), schema);
            object([("text", object([("format", Value::Object(fields))]))])
        }
        // Chat Completions (the Gemini, Anthropic and Converse shapes are built by
        // their own dialects and never reach here).
        _ => {
            fields.insert("name".to_owned(), json!(name));
            if profile.strict_flag {
                fields.insert("strict".to_owned(), Value::Bool(true));
            }
            fields.insert("schema".to_owned(), schema);
            object([(
                "response_format",
                object([("type", json!("json_schema")), ("json_schema", Value::Object(fields))]),
            )])
        }
    }
}

/// The provider's plain JSON mode (any object).
pub(crate) fn json_fragment(profile: &Profile) -> Value {
    match profile.envelope {
        Envelope::Responses => json!({"text": {"format": {"type": "json_object"}}}),
        Envelope::OllamaFormat => json!({"format": "json"}),
        _ => json!({"response_format": {"type": "json_object"}}),
    }
}

/// The name of the JSON-mode fragment, for notes.
pub(crate) fn json_name(profile: &Profile) -> &'static str {
    match profile.envelope {
        Envelope::OllamaFormat => "`format: \"json\"`",
        _ => "`json_object`",
    }
}
