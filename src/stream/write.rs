//! Provider-shaped streaming events carrying an answer
//! ([`Emission::events_for`](crate::Emission::events_for)): the inverse of
//! [`read`](super::read), for tests and benchmarks without the network.

use crate::profile::Envelope;
use serde_json::{Value, json};

/// The input a forced tool's block opens with, before any delta: Anthropic's
/// `content_block_start` carries `"input": {}`; Bedrock's `contentBlockStart`
/// carries none. A block that ends without a delta keeps it.
pub(crate) fn tool_opening_input(envelope: Envelope) -> Option<Value> {
    match envelope {
        Envelope::Anthropic => Some(json!({})),
        _ => None,
    }
}

/// The events of a successful stream whose answer text (or, with `tool`, the
/// forced tool's input) arrives in `pieces`.
pub(crate) fn events(envelope: Envelope, tool: Option<&str>, pieces: &[&str]) -> Vec<Value> {
    let whole: String = pieces.concat();
    let mut out = Vec::with_capacity(pieces.len() + 6);
    match envelope {
        Envelope::ChatCompletions => {
            let chunk = |delta: Value, finish: Value| {
                json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1_764_460_800, "model": "m",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
            };
            out.push(chunk(json!({"role": "assistant", "content": ""}), Value::Null));
            out.extend(pieces.iter().map(|p| chunk(json!({"content": p}), Value::Null)));
            out.push(chunk(json!({}), json!("stop")));
        }
        Envelope::Responses => {
            let response = |status: &str, output: Value| {
                json!({"id": "resp_1", "object": "response", "status": status, "error": null,
                    "incomplete_details": null, "output": output})
            };
            out.push(json!({"type": "response.created", "sequence_number": 0, "response": response("in_progress", json!([]))}));
            out.extend(pieces.iter().enumerate().map(|(i, p)| {
                json!({"type": "response.output_text.delta", "sequence_number": i + 1, "item_id": "msg_1",
                    "output_index": 0, "content_index": 0, "delta": p})
            }));
            let message = json!([{"type": "message", "id": "msg_1", "status": "completed", "role": "assistant",
                "content": [{"type": "output_text", "text": whole, "annotations": []}]}]);
            out.push(json!({"type": "response.completed", "sequence_number": pieces.len() + 1,
                "response": response("completed", message)}));
        }
        Envelope::Gemini => {
            out.extend(pieces.iter().map(|p| {
                json!({"candidates": [{"content": {"role": "model", "parts": [{"text": p}]}, "index": 0}],
                    "modelVersion": "m"})
            }));
            out.push(json!({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]},
                "finishReason": "STOP", "index": 0}], "usageMetadata": {"totalTokenCount": 1}, "modelVersion": "m"}));
        }
        Envelope::OllamaFormat => {
            out.extend(
                pieces
                    .iter()
                    .map(|p| json!({"model": "m", "message": {"role": "assistant", "content": p}, "done": false})),
            );
            out.push(json!({"model": "m", "message": {"role": "assistant", "content": ""}, "done": true,
                "done_reason": "stop"}));
        }
        Envelope::Cohere => {
            out.push(json!({"type": "message-start", "id": "c", "delta": {"message": {"role": "assistant"}}}));
            out.push(json!({"type": "content-start", "index": 0,
                "delta": {"message": {"content": {"type": "text", "text": ""}}}}));
            out.extend(
                pieces.iter().map(
                    |p| json!({"type": "content-delta", "index": 0, "delta": {"message": {"content": {"text": p}}}}),
                ),
            );
            out.push(json!({"type": "content-end", "index": 0}));
            out.push(json!({"type": "message-end", "delta": {"finish_reason": "COMPLETE"}}));
        }
        Envelope::Anthropic => {
            out.push(json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
                "role": "assistant", "content": [], "stop_reason": null}}));
            let (block, delta, stop) = match tool {
                Some(name) => (
                    json!({"type": "tool_use", "id": "toolu_1", "name": name,
                        "input": tool_opening_input(envelope).unwrap_or(Value::Null)}),
                    "input_json_delta",
                    "tool_use",
                ),
                None => (json!({"type": "text", "text": ""}), "text_delta", "end_turn"),
            };
            out.push(json!({"type": "content_block_start", "index": 0, "content_block": block}));
            let field = if tool.is_some() { "partial_json" } else { "text" };
            out.extend(
                pieces
                    .iter()
                    .map(|p| json!({"type": "content_block_delta", "index": 0, "delta": {"type": delta, field: p}})),
            );
            out.push(json!({"type": "content_block_stop", "index": 0}));
            out.push(json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": 1}}));
            out.push(json!({"type": "message_stop"}));
        }
        Envelope::Converse => {
            out.push(json!({"messageStart": {"role": "assistant"}}));
            if let Some(name) = tool {
                out.push(json!({"contentBlockStart": {"start": {"toolUse": {"toolUseId": "t", "name": name}},
                    "contentBlockIndex": 0}}));
            }
            out.extend(pieces.iter().map(|p| {
                let delta = if tool.is_some() { json!({"toolUse": {"input": p}}) } else { json!({"text": p}) };
                json!({"contentBlockDelta": {"delta": delta, "contentBlockIndex": 0}})
            }));
            out.push(json!({"contentBlockStop": {"contentBlockIndex": 0}}));
            let stop = if tool.is_some() { "tool_use" } else { "end_turn" };
            out.push(json!({"messageStop": {"stopReason": stop}}));
            out.push(json!({"metadata": {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}}}));
        }
    }
    out
}

/// `text` cut into pieces of at most `len` bytes, on character boundaries.
pub(crate) fn cut(text: &str, len: usize) -> Vec<&str> {
    let len = len.max(1);
    let mut out = Vec::with_capacity(text.len() / len + 1);
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = len.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}
