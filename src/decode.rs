//! The answer side: find the answer in a provider's whole response body, parse
//! it, and validate it against the caller's schema (authoritative). Pure
//! functions, no I/O.

use crate::error::Error;
use crate::profile::Envelope;
use serde_json::{Value, json};
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
        }
    }
}

fn list(v: &[Violation]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
}

/// What the response carries before parsing.
enum Raw {
    Text(String),
    Value(Value),
}

/// Finds the answer in a response body of the request shape `envelope`.
fn extract(envelope: Envelope, body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    match envelope {
        Envelope::ChatCompletions => openai(body),
        Envelope::Responses => responses(body),
        Envelope::Gemini => gemini(body),
        Envelope::OllamaFormat => ollama(body),
        Envelope::Cohere => cohere(body),
        Envelope::Anthropic => claude(body),
        Envelope::Converse => converse(body),
    }
}

/// OpenAI Responses: `output[]` items of type `message`, their `output_text`
/// parts (a `refusal` part is a refusal); `status` and `incomplete_details`.
fn responses(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    if body.get("error").is_some_and(|e| !e.is_null()) || body.get("output").is_none() {
        return Err(DecodeError::NoAnswer(
            error_message(body).unwrap_or_else(|| "no `output` in the response".to_owned()),
        ));
    }
    let finish = match body.get("status").and_then(Value::as_str) {
        Some("completed") | None => FinishReason::Stop,
        Some("incomplete") => match dig(body, &["incomplete_details", "reason"]).and_then(Value::as_str) {
            Some("max_output_tokens") => FinishReason::Length,
            Some("content_filter") => FinishReason::ContentFilter,
            Some(other) => FinishReason::Other(other.to_owned()),
            None => FinishReason::Other("incomplete".to_owned()),
        },
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let mut text = String::new();
    let items = body["output"].as_array().map(Vec::as_slice).unwrap_or_default();
    for item in items.iter().filter(|i| i.get("type").and_then(Value::as_str) == Some("message")) {
        for part in item.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
            match part.get("type").and_then(Value::as_str) {
                Some("output_text") => text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default()),
                Some("refusal") => {
                    let why = part.get("refusal").and_then(Value::as_str).unwrap_or("a refusal part");
                    return Err(DecodeError::Refusal(why.to_owned()));
                }
                _ => {}
            }
        }
    }
    finish_text(text, finish)
}

/// Cohere v2: `message.content[]` text parts; `finish_reason`.
fn cohere(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    let Some(message) = body.get("message").filter(|m| m.is_object()) else {
        let why = body.get("message").and_then(Value::as_str).map(str::to_owned);
        return Err(DecodeError::NoAnswer(
            why.or_else(|| error_message(body)).unwrap_or_else(|| "no `message` in the response".to_owned()),
        ));
    };
    let finish = match body.get("finish_reason").and_then(Value::as_str) {
        Some("COMPLETE" | "STOP_SEQUENCE") | None => FinishReason::Stop,
        Some("MAX_TOKENS") => FinishReason::Length,
        Some("TOOL_CALL") => FinishReason::ToolCalls,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let text: String = message
        .get("content")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str).is_none_or(|t| t == "text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    finish_text(text, finish)
}

/// Bedrock Converse: `output.message.content[]` blocks `{text}` or
/// `{toolUse: {name, input}}`; `stopReason`.
fn converse(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    let Some(blocks) = dig(body, &["output", "message", "content"]).and_then(Value::as_array) else {
        let why = body.get("message").and_then(Value::as_str).map(str::to_owned);
        return Err(DecodeError::NoAnswer(
            why.or_else(|| error_message(body))
                .unwrap_or_else(|| "no `output.message.content` in the response".to_owned()),
        ));
    };
    let finish = match body.get("stopReason").and_then(Value::as_str) {
        Some("end_turn" | "stop_sequence") | None => FinishReason::Stop,
        Some("max_tokens" | "model_context_window_exceeded") => FinishReason::Length,
        Some("tool_use") => FinishReason::ToolCalls,
        Some("guardrail_intervened" | "content_filtered") => FinishReason::ContentFilter,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let tool = blocks
        .iter()
        .filter_map(|b| b.get("toolUse"))
        .find(|t| t.get("name").and_then(Value::as_str) == Some(crate::dialect::claude::TOOL));
    if let Some(t) = tool {
        let input = t.get("input").cloned().unwrap_or(Value::Null);
        if finish == FinishReason::Length {
            return Err(DecodeError::Truncated { text: input.to_string() });
        }
        return Ok((Raw::Value(input), finish));
    }
    let text: String = blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect();
    finish_text(text, finish)
}

/// `body` at a path of keys and array indices, without `Value::pointer`'s
/// per-token allocations (decode runs on every answer).
fn dig<'a>(body: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(body, |v, step| match v {
        Value::Array(items) => items.get(step.parse::<usize>().ok()?),
        other => other.get(*step),
    })
}

fn error_message(body: &Value) -> Option<String> {
    let e = body.get("error")?;
    Some(e.get("message").and_then(Value::as_str).map_or_else(|| e.to_string(), str::to_owned))
}

fn openai(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    let Some(choice) = dig(body, &["choices", "0"]) else {
        return Err(DecodeError::NoAnswer(
            error_message(body).unwrap_or_else(|| "no `choices[0]` in the response".to_owned()),
        ));
    };
    let message = &choice["message"];
    if let Some(r) = message.get("refusal").and_then(Value::as_str).filter(|r| !r.is_empty()) {
        return Err(DecodeError::Refusal(r.to_owned()));
    }
    let finish = match choice.get("finish_reason").and_then(Value::as_str) {
        Some("stop") | None => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some("tool_calls" | "function_call") => FinishReason::ToolCalls,
        Some("content_filter") => FinishReason::ContentFilter,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let text = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    };
    finish_text(text, finish)
}

fn gemini(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    let Some(candidate) = dig(body, &["candidates", "0"]) else {
        if let Some(reason) = dig(body, &["promptFeedback", "blockReason"]).and_then(Value::as_str) {
            return Err(DecodeError::NoAnswer(format!("the prompt was blocked ({reason})")));
        }
        return Err(DecodeError::NoAnswer(
            error_message(body).unwrap_or_else(|| "no `candidates[0]` in the response".to_owned()),
        ));
    };
    let finish = match candidate.get("finishReason").and_then(Value::as_str) {
        Some("STOP") | None => FinishReason::Stop,
        Some("MAX_TOKENS") => FinishReason::Length,
        Some("SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY") => {
            FinishReason::ContentFilter
        }
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let text: String = dig(candidate, &["content", "parts"])
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p.get("thought") != Some(&Value::Bool(true)))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    finish_text(text, finish)
}

fn ollama(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    if let Some(e) = body.get("error") {
        return Err(DecodeError::NoAnswer(e.as_str().map_or_else(|| e.to_string(), str::to_owned)));
    }
    let finish = match body.get("done_reason").and_then(Value::as_str) {
        Some("stop") | None => FinishReason::Stop,
        Some("length") => FinishReason::Length,
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let Some(text) = dig(body, &["message", "content"]).and_then(Value::as_str) else {
        return Err(DecodeError::NoAnswer("no `message.content` in the response".to_owned()));
    };
    finish_text(text.to_owned(), finish)
}

fn claude(body: &Value) -> Result<(Raw, FinishReason), DecodeError> {
    if body.get("type").and_then(Value::as_str) == Some("error") || body.get("content").is_none() {
        return Err(DecodeError::NoAnswer(
            error_message(body).unwrap_or_else(|| "no `content` in the response".to_owned()),
        ));
    }
    let blocks: &[Value] = body["content"].as_array().map_or(&[], Vec::as_slice);
    let text: String = blocks
        .iter()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .collect();
    let finish = match body.get("stop_reason").and_then(Value::as_str) {
        Some("end_turn" | "stop_sequence") | None => FinishReason::Stop,
        Some("max_tokens" | "model_context_window_exceeded") => FinishReason::Length,
        Some("tool_use") => FinishReason::ToolCalls,
        Some("refusal") => {
            return Err(DecodeError::Refusal(if text.is_empty() { "stop_reason `refusal`".to_owned() } else { text }));
        }
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let tool = blocks.iter().find(|b| {
        b.get("type").and_then(Value::as_str) == Some("tool_use")
            && b.get("name").and_then(Value::as_str) == Some(crate::dialect::claude::TOOL)
    });
    if let Some(t) = tool {
        if finish == FinishReason::Length {
            return Err(DecodeError::Truncated { text: t["input"].to_string() });
        }
        return Ok((Raw::Value(t["input"].clone()), finish));
    }
    finish_text(text, finish)
}

fn finish_text(text: String, finish: FinishReason) -> Result<(Raw, FinishReason), DecodeError> {
    match finish {
        FinishReason::Length => Err(DecodeError::Truncated { text }),
        FinishReason::ContentFilter if text.trim().is_empty() => {
            Err(DecodeError::NoAnswer("a content filter stopped the answer".to_owned()))
        }
        _ if text.trim().is_empty() => Err(DecodeError::NoAnswer("the answer is empty".to_owned())),
        _ => Ok((Raw::Text(text), finish)),
    }
}

/// A minimal successful response body of the request shape `envelope`
/// carrying `x` as the answer to the request `request`.
pub(crate) fn response_body(envelope: Envelope, request: &Value, x: &Value) -> Value {
    let text = x.to_string();
    let tool = crate::dialect::claude::TOOL;
    match envelope {
        Envelope::Gemini => {
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]})
        }
        Envelope::OllamaFormat => {
            json!({"model": "m", "message": {"role": "assistant", "content": text}, "done_reason": "stop", "done": true})
        }
        Envelope::Anthropic if request.get("tools").is_some() => {
            json!({"type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": tool, "input": x}], "stop_reason": "tool_use"})
        }
        Envelope::Anthropic => json!({"type": "message", "role": "assistant",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn"}),
        Envelope::Converse if request.get("toolConfig").is_some() => {
            json!({"output": {"message": {"role": "assistant",
            "content": [{"toolUse": {"toolUseId": "t", "name": tool, "input": x}}]}}, "stopReason": "tool_use"})
        }
        Envelope::Converse => json!({"output": {"message": {"role": "assistant", "content": [{"text": text}]}},
            "stopReason": "end_turn"}),
        Envelope::Responses => json!({"object": "response", "status": "completed", "error": null, "output": [
            {"type": "reasoning", "summary": []},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]}]}),
        Envelope::Cohere => json!({"id": "c", "finish_reason": "COMPLETE",
            "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}),
        Envelope::ChatCompletions => {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}]})
        }
    }
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

/// The whole decode: extract, unwrap, parse, undo the reshape, validate.
pub(crate) fn decode(
    envelope: Envelope,
    validator: Option<&jsonschema::Validator>,
    reshape: Option<(&Value, crate::reshape::Accepts<'_>)>,
    body: &Value,
) -> Result<Answer, DecodeError> {
    let (raw, finish) = extract(envelope, body)?;
    let value = match raw {
        Raw::Value(v) => v,
        Raw::Text(t) => {
            let inner = strip_fence(strip_think(&t));
            serde_json::from_str(inner)
                .map_err(|e| DecodeError::NotJson { text: inner.to_owned(), message: e.to_string() })?
        }
    };
    let value = match reshape {
        Some((ann, accepts)) => crate::reshape::inverse(value, ann, accepts)?,
        None => value,
    };
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
