//! Where each provider's whole response body carries the answer (one reader
//! per [`Envelope`]), and the finish reason, normalised.

use super::{DecodeError, FinishReason};
use crate::profile::Envelope;
use serde_json::Value;

/// What the response carries before parsing.
pub(crate) enum Raw {
    Text(String),
    Value(Value),
}

/// Finds the answer in a response body of the request shape `envelope`; `tool`
/// is the forced tool whose input is the answer, if the request forced one.
pub(crate) fn extract(
    envelope: Envelope,
    tool: Option<&str>,
    body: &Value,
) -> Result<(Raw, FinishReason), DecodeError> {
    match envelope {
        Envelope::ChatCompletions => openai(body),
        Envelope::Responses => responses(body),
        Envelope::Gemini => gemini(body),
        Envelope::OllamaFormat => ollama(body),
        Envelope::Cohere => cohere(body),
        Envelope::Anthropic => claude(body, tool),
        Envelope::Converse => converse(body, tool),
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
                    return Err(DecodeError::Refusal(responses_refusal(part.get("refusal").and_then(Value::as_str))));
                }
                _ => {}
            }
        }
    }
    finish_text(text, finish)
}

/// The words of a Responses `refusal` part (its text, or that there was one).
/// The stream decoder's early error says the same.
pub(crate) fn responses_refusal(text: Option<&str>) -> String {
    text.filter(|t| !t.is_empty()).unwrap_or("a refusal part").to_owned()
}

/// The words of an Anthropic `stop_reason: refusal` (the text so far, or the reason).
pub(crate) fn anthropic_refusal(text: &str) -> String {
    if text.is_empty() { "stop_reason `refusal`".to_owned() } else { text.to_owned() }
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
fn converse(body: &Value, tool: Option<&str>) -> Result<(Raw, FinishReason), DecodeError> {
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
    let tool = tool.and_then(|name| {
        blocks.iter().filter_map(|b| b.get("toolUse")).find(|t| t.get("name").and_then(Value::as_str) == Some(name))
    });
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
    body.get("error").map(error_text)
}

/// An error payload in words: its `message`, else the payload itself.
pub(crate) fn error_text(e: &Value) -> String {
    e.get("message").and_then(Value::as_str).map_or_else(|| e.to_string(), str::to_owned)
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

fn claude(body: &Value, tool: Option<&str>) -> Result<(Raw, FinishReason), DecodeError> {
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
            return Err(DecodeError::Refusal(anthropic_refusal(&text)));
        }
        Some(other) => FinishReason::Other(other.to_owned()),
    };
    let tool = tool.and_then(|name| {
        blocks.iter().find(|b| {
            b.get("type").and_then(Value::as_str) == Some("tool_use")
                && b.get("name").and_then(Value::as_str) == Some(name)
        })
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
