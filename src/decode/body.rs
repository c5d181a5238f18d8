//! Minimal provider-shaped response bodies carrying an answer
//! ([`Emission::response_for`](crate::Emission::response_for)).

use crate::profile::Envelope;
use serde_json::{Value, json};

/// A minimal successful response body of the request shape `envelope`
/// carrying `x` as the answer: as the input of `tool` when the request forced
/// one, else as text.
pub(crate) fn response_body(envelope: Envelope, tool: Option<&str>, x: &Value) -> Value {
    match (envelope, tool) {
        (Envelope::Anthropic, Some(tool)) => {
            json!({"type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": tool, "input": x}], "stop_reason": "tool_use"})
        }
        (Envelope::Converse, Some(tool)) => {
            json!({"output": {"message": {"role": "assistant",
            "content": [{"toolUse": {"toolUseId": "t", "name": tool, "input": x}}]}}, "stopReason": "tool_use"})
        }
        _ => text_body(envelope, x.to_string()),
    }
}

/// A minimal successful response body of the request shape `envelope` whose
/// answer text is `text`.
pub(crate) fn text_body(envelope: Envelope, text: String) -> Value {
    match envelope {
        Envelope::Gemini => {
            json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]})
        }
        Envelope::OllamaFormat => {
            json!({"model": "m", "message": {"role": "assistant", "content": text}, "done_reason": "stop", "done": true})
        }
        Envelope::Anthropic => json!({"type": "message", "role": "assistant",
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn"}),
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
