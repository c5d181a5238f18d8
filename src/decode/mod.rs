//! The answer side: find the answer in a provider's whole response body, parse
//! it, and validate it against the caller's schema (authoritative). Pure
//! functions, no I/O.

mod answer;
mod body;
mod extract;
mod json;

pub(crate) use body::response_body;
#[cfg(any(test, feature = "laws"))]
pub(crate) use body::text_body;
pub(crate) use extract::{Raw, anthropic_refusal, error_text, extract, responses_refusal};
pub(crate) use json::{parse as parse_json, repeated};

use crate::error::Error;
use serde_json::Value;
use std::fmt;

/// Why the provider stopped, normalised across providers.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum FinishReason {
    /// A natural end (`stop`, `end_turn`, `STOP`, …).
    Stop,
    /// The output limit was hit (`length`, `max_tokens`, `MAX_TOKENS`).
    Length,
    /// The model ended by calling a tool (`tool_calls`, `tool_use`).
    ToolCalls,
    /// A safety or content filter ended the answer.
    ContentFilter,
    /// The model refused.
    Refusal,
    /// Anything else, as the provider spelled it.
    Other(String),
}

impl FinishReason {
    /// The normalised name (`stop`, `length`, `tool_calls`, `content_filter`,
    /// `refusal`), or the raw value.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::ToolCalls => "tool_calls",
            FinishReason::ContentFilter => "content_filter",
            FinishReason::Refusal => "refusal",
            FinishReason::Other(s) => s,
        }
    }
}

impl fmt::Display for FinishReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validated answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub(crate) value: Value,
    pub(crate) finish: FinishReason,
}

impl Answer {
    /// The answer, valid under the caller's schema.
    #[must_use]
    pub fn value(&self) -> &Value {
        &self.value
    }

    /// Takes the answer.
    #[must_use]
    pub fn into_value(self) -> Value {
        self.value
    }

    /// Why the provider stopped.
    #[must_use]
    pub fn finish_reason(&self) -> &FinishReason {
        &self.finish
    }
}

/// One schema violation of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// JSON Pointer into the answer.
    pub pointer: String,
    /// JSON Pointer into the schema (the keyword that failed).
    pub schema_pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "at {at}: {}", self.message)
    }
}

/// Why no valid answer could be taken from a response.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Nothing where the answer should be (an error body, no candidates, a
    /// blocked prompt, an empty message).
    #[error("no answer found: {0}")]
    NoAnswer(String),
    /// The model refused (`refusal`).
    #[error("the model refused: {0}")]
    Refusal(String),
    /// The output limit cut the answer off (finish reason `length`).
    #[error("the answer was cut off by the output limit")]
    Truncated {
        /// What came back before the cut.
        text: String,
    },
    /// The answer is not JSON.
    #[error("the answer is not JSON: {message}")]
    NotJson {
        /// The text that failed to parse (one Markdown fence already removed).
        text: String,
        /// The parser's message.
        message: String,
    },
    /// The answer is JSON but violates the schema; every violation is listed.
    #[error("the answer violates the schema: {}", list(violations))]
    Invalid {
        /// The parsed answer.
        value: Value,
        /// Every violation, with its pointer into the answer.
        violations: Vec<Violation>,
    },
    /// The schema itself did not pass preflight.
    #[error("{0}")]
    Schema(Error),
    /// A map sent as `{"key", "value"}` pairs (reshape) repeats a key.
    #[error("at {pointer}: the key {key:?} is repeated in the pairs that carry a map")]
    RepeatedKey {
        /// JSON Pointer into the answer as sent: the pair that repeats the key.
        pointer: String,
        /// The repeated key.
        key: String,
    },
    /// [`Emission::decode_as`](crate::Emission::decode_as): the answer is valid
    /// against the schema, but does not deserialise into the requested type
    /// (the type and the schema disagree).
    #[error("the valid answer does not deserialise into the requested type: {message}")]
    Deserialize {
        /// The validated answer.
        value: Value,
        /// serde's message.
        message: String,
    },
}

impl From<crate::reshape::InverseError> for DecodeError {
    fn from(e: crate::reshape::InverseError) -> DecodeError {
        match e {
            crate::reshape::InverseError::NotJson { text, message } => DecodeError::NotJson { text, message },
            crate::reshape::InverseError::RepeatedKey { pointer, key } => DecodeError::RepeatedKey { pointer, key },
        }
    }
}

impl DecodeError {
    /// A stable lower-case name (`no_answer`, `refusal`, `truncated`, `not_json`,
    /// `schema_violation`, `invalid_schema`…).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            DecodeError::NoAnswer(_) => "no_answer",
            DecodeError::Refusal(_) => "refusal",
            DecodeError::Truncated { .. } => "truncated",
            DecodeError::NotJson { .. } => "not_json",
            DecodeError::Invalid { .. } => "schema_violation",
            DecodeError::Schema(e) => e.kind().as_str(),
            DecodeError::RepeatedKey { .. } => "repeated_key",
            DecodeError::Deserialize { .. } => "deserialize",
        }
    }
}

fn list(v: &[Violation]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// Removes a leading `<think>…</think>` block (reasoning models on Fireworks,
/// Together, vLLM without a reasoning parser).
fn strip_think(text: &str) -> &str {
    let t = text.trim_start();
    match t.strip_prefix("<think>").and_then(|rest| rest.find("</think>").map(|i| &rest[i + "</think>".len()..])) {
        Some(after) => after,
        None => text,
    }
}

/// Removes one Markdown fence wrapping the whole text (```` ```json … ``` ````).
fn strip_fence(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else { return t };
    let Some(body) = rest.strip_suffix("```") else { return t };
    match body.find('\n') {
        // The first line is the info string (`json`, or nothing).
        Some(i) if !body[..i].contains(['{', '[', '"']) => body[i + 1..].trim(),
        _ => body.trim(),
    }
}

/// Collects every violation of `value` against `validator`, in answer order.
pub(crate) fn violations(validator: &jsonschema::Validator, value: &Value) -> Vec<Violation> {
    // The common case, a valid answer, skips building error reports.
    if validator.is_valid(value) {
        return Vec::new();
    }
    let mut out: Vec<Violation> = validator
        .iter_errors(value)
        .map(|e| Violation {
            pointer: e.instance_path().to_string(),
            schema_pointer: e.schema_path().to_string(),
            message: e.to_string(),
        })
        .collect();
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer).then_with(|| a.schema_pointer.cmp(&b.schema_pointer)));
    out
}

/// The answer text's JSON value: a leading `<think>` block and one wrapping
/// fence removed, then parsed (a repeated member name is not JSON here).
pub(crate) fn parse_text(text: &str) -> Result<Value, DecodeError> {
    let inner = strip_fence(strip_think(text));
    parse_json(inner).map_err(|e| DecodeError::NotJson { text: inner.to_owned(), message: e.to_string() })
}

/// The answer, once validated (rewrites already undone).
/// `value` against `validator`: every violation, or none.
pub(crate) fn check(validator: &jsonschema::Validator, value: &Value) -> Result<(), DecodeError> {
    let found = violations(validator, value);
    if found.is_empty() { Ok(()) } else { Err(DecodeError::Invalid { value: value.clone(), violations: found }) }
}

pub(crate) fn validated(
    value: Value,
    finish: FinishReason,
    validator: Option<&jsonschema::Validator>,
) -> Result<Answer, DecodeError> {
    if let Some(v) = validator {
        let found = violations(v, &value);
        if !found.is_empty() {
            return Err(DecodeError::Invalid { value, violations: found });
        }
    }
    Ok(Answer { value, finish })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_strip_fence() {
        assert_eq!(strip_fence("```json\n{\"a\":1}\n```"), "{\"a\":1}");
        assert_eq!(strip_fence("  ```\n[1]\n```  "), "[1]");
        assert_eq!(strip_fence("```{\"a\":1}```"), "{\"a\":1}");
        assert_eq!(strip_fence("{\"a\":1}"), "{\"a\":1}");
        assert_eq!(strip_fence("```json\n{}"), "```json\n{}");
    }

    #[test]
    fn ok_strip_think() {
        assert_eq!(strip_think("<think>a {b}</think>\n{\"a\":1}").trim(), "{\"a\":1}");
        assert_eq!(strip_think("{\"a\":1}"), "{\"a\":1}");
        assert_eq!(strip_think("<think>never closed {}"), "<think>never closed {}");
    }
}
