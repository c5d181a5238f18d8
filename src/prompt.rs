//! Prompt text for the answer side: the instruction that asks for JSON, and the
//! one repair round-trip message.

use crate::decode::DecodeError;
use serde_json::Value;
use std::fmt::Write as _;

/// The prompt text that asks for JSON conforming to `schema`.
///
/// It contains the word "JSON", which OpenAI's JSON mode requires in the
/// messages. Use it whatever the enforcement: with `prompt` it is the only
/// guidance the model gets.
///
/// # Example
///
/// ```
/// let schema = serde_json::json!({"type": "array", "items": {"type": "string"}});
/// let text = schemacast::instruction(&schema);
/// assert!(text.contains("JSON") && text.contains("\"items\""));
/// ```
#[must_use]
pub fn instruction(schema: &Value) -> String {
    let pretty = serde_json::to_string_pretty(schema).unwrap_or_else(|_| schema.to_string());
    format!(
        "Answer with JSON only: one JSON value that conforms to the JSON Schema below. \
         Do not wrap it in Markdown and do not add any other text.\n\nJSON Schema:\n{pretty}"
    )
}

/// The message for one repair round trip: what was wrong with `bad_output`, and
/// the instruction again.
///
/// # Example
///
/// ```
/// use schemacast::{Mode, Provider};
/// let schema = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
/// let emission = schemacast::compile(&schema, Provider::Ollama, Mode::Schema)?;
/// let body = serde_json::json!({"message": {"role": "assistant", "content": "{\"n\": \"two\"}"}, "done_reason": "stop"});
/// let err = emission.decode(&body).unwrap_err();
/// let message = schemacast::repair(&schema, "{\"n\": \"two\"}", &err);
/// assert!(message.contains("at /n:"));
/// # Ok::<(), schemacast::Error>(())
/// ```
#[must_use]
pub fn repair(schema: &Value, bad_output: &str, error: &DecodeError) -> String {
    let mut out = String::from("Your previous answer does not conform to the required JSON Schema.\n\nProblems:\n");
    match error {
        DecodeError::Invalid { violations, .. } => {
            for v in violations {
                let _ = writeln!(out, "- {v}");
            }
        }
        other => {
            let _ = writeln!(out, "- {other}");
        }
    }
    let _ = write!(out, "\nYour previous answer:\n{bad_output}\n\n{}", instruction(schema));
    out
}
