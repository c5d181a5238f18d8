//! Each envelope's streaming events, read into what the whole response body
//! would have carried: the answer's text (or the forced tool's input text), a
//! refusal, the finish reason as the provider spells it, an error. At the end
//! the stream is folded back into that body, which `decode` reads like any
//! other, so a stream ends exactly as its whole response would.
//!
//! | envelope | answer pieces | end and errors |
//! |---|---|---|
//! | Chat Completions | `choices[i=0].delta.content`; `delta.refusal` | `finish_reason`; `{"error"}` |
//! | Responses | `response.output_text.delta`; `response.refusal.delta` | `response.completed`/`incomplete`/`failed` (`status`, `incomplete_details`); `error` |
//! | Gemini | `candidates[i=0].content.parts[].text` without `thought: true` | `finishReason`; `promptFeedback.blockReason`; `{"error"}` |
//! | Ollama | `message.content` | `done_reason`; `{"error"}` |
//! | Cohere v2 | `content-delta` `delta.message.content.text` | `message-end` `delta.finish_reason` (`delta.error`) |
//! | Anthropic | `content_block_delta` `text_delta` of text blocks; `input_json_delta` of the forced tool's block (`content_block_start` names it) | `message_delta` `delta.stop_reason`; `error` |
//! | Converse | `contentBlockDelta` `delta.text`; `delta.toolUse.input` of the forced tool's block (`contentBlockStart` names it) | `messageStop` `stopReason`; `*Exception` events |
//!
//! Thinking (`thinking_delta`, `thought` parts, `reasoningContent`,
//! `reasoning_content`, Ollama's `message.thinking`, Cohere's `thinking`) is skipped.

use crate::decode;
use crate::profile::Envelope;
use serde_json::{Value, json};
use std::collections::HashMap;

/// A piece of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'v> {
    /// More answer text.
    Text(&'v str),
    /// More of the forced tool's input (JSON text).
    Tool(&'v str),
}

/// A content block of an Anthropic or Converse stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    Text,
    /// The forced tool's block (the first one).
    Tool,
    Other,
}

/// Everything the stream said that the whole body would carry.
#[derive(Debug, Default)]
pub(crate) struct Acc {
    /// The forced tool's block started.
    tool: bool,
    refusal: Option<String>,
    /// The finish reason as the provider spells it.
    finish: Option<Value>,
    /// An error event's payload: the response is that error.
    pub(crate) error: Option<Value>,
    /// A message, choice or candidate was seen.
    started: bool,
    /// Gemini's `promptFeedback`.
    feedback: Option<Value>,
    /// Responses: `status` and `incomplete_details` of the last response event.
    status: Option<Value>,
    incomplete: Option<Value>,
    /// Content blocks by index (Anthropic, Converse).
    blocks: HashMap<u64, Block>,
    /// The block the last delta went to: deltas come in runs to one block,
    /// and comparing an index costs less than hashing it at every event.
    last_block: Option<(u64, Block)>,
    /// The forced tool block's `input` as its start event gives it (Anthropic
    /// sends `{}` there, then the input in deltas, which may be none at all).
    tool_start: Option<Value>,
}

/// `v[key]`. Events are small objects, and scanning their few members beats
/// hashing the key (`Value::get`), which cost more than reading the answer.
/// Inlined, so that comparing with a constant name needs no `memcmp` call.
#[inline(always)]
fn at<'v>(v: &'v Value, key: &str) -> Option<&'v Value> {
    match v {
        Value::Object(m) if m.len() <= 16 => m.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v),
        other => other.get(key),
    }
}

/// `[v[keys[0]], v[keys[1]], …]` in one pass over `v`'s members (inlined, as [`at`]).
#[inline(always)]
fn fields<'v, const N: usize>(v: &'v Value, keys: [&str; N]) -> [Option<&'v Value>; N] {
    let mut out = [None; N];
    if let Value::Object(m) = v {
        if m.len() > 16 {
            return keys.map(|k| m.get(k));
        }
        for (k, v) in m {
            if let Some(i) = keys.iter().position(|key| k == key) {
                out[i] = Some(v);
            }
        }
    }
    out
}

fn s(v: &Value) -> Option<&str> {
    v.as_str()
}

impl Acc {
    pub(crate) fn tool_started(&self) -> bool {
        self.tool
    }

    fn block(&mut self, index: Option<u64>) -> Option<Block> {
        let index = index.unwrap_or(u64::MAX);
        // (A block keeps its first kind: a cached entry never goes stale.)
        if let Some((_, b)) = self.last_block.filter(|(i, _)| *i == index) {
            return Some(b);
        }
        let block = self.blocks.get(&index).copied();
        self.last_block = block.map(|b| (index, b));
        block
    }

    fn open_block(&mut self, index: Option<u64>, block: Block) {
        let block = if block == Block::Tool && self.tool { Block::Other } else { block };
        self.tool |= block == Block::Tool;
        // A later start for the same index is another block (the first keeps its kind).
        self.blocks.entry(index.unwrap_or(u64::MAX)).or_insert(block);
    }

    fn set_error(&mut self, e: &Value) {
        if self.error.is_none() {
            self.error = Some(e.clone());
        }
    }
}

/// The entries of a `choices`/`candidates` array that stand for the first one
/// (`index` 0, or no index).
fn first(list: Option<&Value>) -> impl Iterator<Item = &Value> {
    list.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|c| at(c, "index").and_then(Value::as_u64).is_none_or(|i| i == 0))
}

/// Reads one event (`name`: its SSE `event:` field, if any) into `acc`, and
/// the answer pieces it carries into `out`.
pub(crate) fn read<'v>(
    envelope: Envelope,
    tool: Option<&str>,
    acc: &mut Acc,
    name: Option<&str>,
    event: &'v Value,
    out: &mut impl FnMut(Piece<'v>),
) {
    match envelope {
        Envelope::ChatCompletions => chat(acc, event, out),
        Envelope::Responses => responses(acc, event, out),
        Envelope::Gemini => gemini(acc, event, out),
        Envelope::OllamaFormat => ollama(acc, event, out),
        Envelope::Cohere => cohere(acc, event, out),
        Envelope::Anthropic => anthropic(acc, tool, event, out),
        Envelope::Converse => converse(acc, tool, name, event, out),
    }
}

fn chat<'v>(acc: &mut Acc, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    let [error, choices] = fields(event, ["error", "choices"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    for choice in first(choices) {
        acc.started = true;
        let [delta, message, finish] = fields(choice, ["delta", "message", "finish_reason"]);
        let [content, refusal] = delta.or(message).map_or([None; 2], |d| fields(d, ["content", "refusal"]));
        match content {
            Some(Value::String(t)) => out(Piece::Text(t)),
            // A list of chunks (Mistral's reasoning models): the text of each
            // that has one, as `decode` reads `message.content`; `thinking`
            // chunks hold theirs deeper and are skipped.
            Some(Value::Array(parts)) => {
                parts.iter().filter_map(|p| at(p, "text").and_then(s)).for_each(|t| out(Piece::Text(t)))
            }
            _ => {}
        }
        if let Some(r) = refusal.and_then(s) {
            acc.refusal.get_or_insert_with(String::new).push_str(r);
        }
        if let Some(f) = finish.filter(|f| !f.is_null()) {
            acc.finish = Some(f.clone());
        }
    }
}

fn responses<'v>(acc: &mut Acc, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    let kind = at(event, "type").and_then(s).unwrap_or_default();
    match kind {
        "response.output_text.delta" => {
            acc.started = true;
            if let Some(t) = at(event, "delta").and_then(s) {
                out(Piece::Text(t));
            }
        }
        "response.refusal.delta" | "response.refusal.done" => {
            acc.started = true;
            let r = acc.refusal.get_or_insert_with(String::new);
            if kind.ends_with("delta") {
                r.push_str(at(event, "delta").and_then(s).unwrap_or_default());
            } else if let Some(whole) = at(event, "refusal").and_then(s) {
                // `done` carries the whole refusal (also when no delta came).
                whole.clone_into(r);
            }
        }
        "error" => acc.set_error(event),
        _ if kind.starts_with("response.") => {
            let Some(r) = at(event, "response") else { return };
            acc.started = true;
            if let Some(e) = at(r, "error").filter(|e| !e.is_null()) {
                acc.set_error(e);
            }
            if let Some(st) = at(r, "status") {
                acc.status = Some(st.clone());
            }
            if let Some(d) = at(r, "incomplete_details").filter(|d| !d.is_null()) {
                acc.incomplete = Some(d.clone());
            }
        }
        _ => {}
    }
}

fn gemini<'v>(acc: &mut Acc, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    let [error, feedback, candidates] = fields(event, ["error", "promptFeedback", "candidates"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    if let Some(f) = feedback {
        acc.feedback = Some(f.clone());
    }
    for candidate in first(candidates) {
        acc.started = true;
        let [content, finish] = fields(candidate, ["content", "finishReason"]);
        let parts = content.and_then(|c| at(c, "parts")).and_then(Value::as_array);
        for part in parts.into_iter().flatten() {
            let [thought, text] = fields(part, ["thought", "text"]);
            if thought != Some(&Value::Bool(true))
                && let Some(t) = text.and_then(s)
            {
                out(Piece::Text(t));
            }
        }
        if let Some(f) = finish.filter(|f| !f.is_null()) {
            acc.finish = Some(f.clone());
        }
    }
}

fn ollama<'v>(acc: &mut Acc, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    let [error, message, done] = fields(event, ["error", "message", "done_reason"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    if let Some(m) = message {
        acc.started = true;
        if let Some(t) = at(m, "content").and_then(s) {
            out(Piece::Text(t));
        }
    }
    if let Some(f) = done.filter(|f| !f.is_null()) {
        acc.finish = Some(f.clone());
    }
}

fn cohere<'v>(acc: &mut Acc, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    match at(event, "type").and_then(s) {
        Some("message-start" | "content-start") => acc.started = true,
        Some("content-delta") => {
            acc.started = true;
            let content = at(event, "delta").and_then(|d| at(d, "message")).and_then(|m| at(m, "content"));
            if let Some(t) = content.and_then(|c| at(c, "text")).and_then(s) {
                out(Piece::Text(t));
            }
        }
        Some("message-end") => {
            let delta = at(event, "delta");
            if let Some(e) = delta.and_then(|d| at(d, "error")).filter(|e| !e.is_null()) {
                acc.set_error(e);
            }
            if let Some(f) = delta.and_then(|d| at(d, "finish_reason")).filter(|f| !f.is_null()) {
                acc.finish = Some(f.clone());
            }
        }
        _ => {}
    }
}

fn anthropic<'v>(acc: &mut Acc, tool: Option<&str>, event: &'v Value, out: &mut impl FnMut(Piece<'v>)) {
    let index = at(event, "index").and_then(Value::as_u64);
    match at(event, "type").and_then(s) {
        Some("message_start") => acc.started = true,
        Some("content_block_start") => {
            acc.started = true;
            let block = at(event, "content_block");
            let block = match block.and_then(|b| at(b, "type")).and_then(s) {
                Some("text") => Block::Text,
                Some("tool_use") if tool.is_some() && block.and_then(|b| at(b, "name")).and_then(s) == tool => {
                    Block::Tool
                }
                _ => Block::Other,
            };
            let first_tool = block == Block::Tool && !acc.tool;
            acc.open_block(index, block);
            if first_tool {
                acc.tool_start = event.pointer("/content_block/input").cloned();
            }
        }
        Some("content_block_delta") => {
            let Some(delta) = at(event, "delta") else { return };
            match (at(delta, "type").and_then(s), acc.block(index)) {
                (Some("text_delta"), Some(Block::Text) | None) => {
                    acc.started = true;
                    if let Some(t) = at(delta, "text").and_then(s) {
                        out(Piece::Text(t));
                    }
                }
                (Some("input_json_delta"), Some(Block::Tool)) => {
                    if let Some(t) = at(delta, "partial_json").and_then(s) {
                        out(Piece::Tool(t));
                    }
                }
                _ => {}
            }
        }
        Some("message_delta") => {
            if let Some(r) = at(event, "delta").and_then(|d| at(d, "stop_reason")).filter(|r| !r.is_null()) {
                acc.finish = Some(r.clone());
            }
        }
        Some("error") => acc.set_error(at(event, "error").unwrap_or(event)),
        _ => {}
    }
}

/// Converse events as the AWS SDKs give them (`{"contentBlockDelta": {…}}`),
/// or a bare payload named by the SSE `event:` field.
fn converse<'v>(
    acc: &mut Acc,
    tool: Option<&str>,
    name: Option<&str>,
    event: &'v Value,
    out: &mut impl FnMut(Piece<'v>),
) {
    const KINDS: [&str; 5] = ["messageStart", "contentBlockStart", "contentBlockDelta", "messageStop", "metadata"];
    let Some(map) = event.as_object() else { return };
    let (kind, payload) = match map.iter().find(|(k, _)| KINDS.contains(&k.as_str()) || k.ends_with("Exception")) {
        Some((k, v)) => (k.as_str(), v),
        None => match name {
            Some(n) => (n, event),
            None => return,
        },
    };
    let index = at(payload, "contentBlockIndex").and_then(Value::as_u64);
    match kind {
        "messageStart" => acc.started = true,
        "contentBlockStart" => {
            acc.started = true;
            let block = match at(payload, "start").and_then(|st| at(st, "toolUse")) {
                Some(t) if tool.is_some() && at(t, "name").and_then(s) == tool => Block::Tool,
                Some(_) => Block::Other,
                None => Block::Text,
            };
            acc.open_block(index, block);
        }
        "contentBlockDelta" => {
            acc.started = true;
            let Some(delta) = at(payload, "delta") else { return };
            match acc.block(index) {
                Some(Block::Tool) => {
                    if let Some(t) = at(delta, "toolUse").and_then(|t| at(t, "input")).and_then(s) {
                        out(Piece::Tool(t));
                    }
                }
                Some(Block::Other) => {}
                Some(Block::Text) | None => {
                    if let Some(t) = at(delta, "text").and_then(s) {
                        out(Piece::Text(t));
                    }
                }
            }
        }
        "messageStop" => {
            if let Some(r) = at(payload, "stopReason").filter(|r| !r.is_null()) {
                acc.finish = Some(r.clone());
            }
        }
        k if k.ends_with("Exception") => {
            let message = at(payload, "message").cloned().unwrap_or_else(|| Value::String(k.to_owned()));
            acc.set_error(&message);
        }
        _ => {}
    }
}

/// The refusal `decode` will report, once it is certain.
/// (The words are those `decode` gives for the whole response: Anthropic's
/// refusal is the text so far.)
pub(crate) fn refused(envelope: Envelope, acc: &Acc, text: &str) -> Option<String> {
    match envelope {
        Envelope::ChatCompletions => acc.refusal.clone().filter(|r| !r.is_empty()),
        Envelope::Responses => acc.refusal.as_deref().map(|r| decode::responses_refusal(Some(r))),
        Envelope::Anthropic => {
            (acc.finish.as_ref().and_then(Value::as_str) == Some("refusal")).then(|| decode::anthropic_refusal(text))
        }
        _ => None,
    }
}

/// The whole response body the stream stands for. The tool block's `input` is
/// `null`: the stream decoder reads the tool's input from its text.
pub(crate) fn assemble(envelope: Envelope, tool: Option<&str>, acc: Acc, text: String) -> Value {
    let has_tool = acc.tool;
    let Acc { refusal, finish, error, started, feedback, status, incomplete, tool_start, .. } = acc;
    let finish = finish.unwrap_or(Value::Null);
    match envelope {
        Envelope::ChatCompletions => match error {
            Some(e) => json!({"error": e}),
            None if !started => json!({}),
            None => json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": text,
                "refusal": refusal}, "finish_reason": finish}]}),
        },
        Envelope::Responses => match error {
            Some(e) => json!({"error": e}),
            None if !started => json!({}),
            None => {
                let mut content = vec![json!({"type": "output_text", "text": text})];
                if let Some(r) = refusal {
                    content.push(json!({"type": "refusal", "refusal": r}));
                }
                json!({"status": status, "incomplete_details": incomplete,
                    "output": [{"type": "message", "content": content}]})
            }
        },
        Envelope::Gemini => match (error, started) {
            (Some(e), _) => json!({"error": e}),
            (None, false) => json!({"promptFeedback": feedback}),
            (None, true) => json!({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                "finishReason": finish}], "promptFeedback": feedback}),
        },
        Envelope::OllamaFormat => match error {
            Some(e) => json!({"error": e}),
            None if !started => json!({}),
            None => json!({"message": {"role": "assistant", "content": text}, "done_reason": finish}),
        },
        Envelope::Cohere => match error {
            Some(e) => json!({"message": e}),
            None if !started => json!({}),
            None => json!({"message": {"role": "assistant", "content": [{"type": "text", "text": text}]},
                "finish_reason": finish}),
        },
        Envelope::Anthropic => match error {
            Some(e) => json!({"type": "error", "error": e}),
            None if !started => json!({}),
            None => {
                let mut content = vec![json!({"type": "text", "text": text})];
                if let Some(name) = tool.filter(|_| has_tool) {
                    content.push(json!({"type": "tool_use", "name": name, "input": tool_start}));
                }
                json!({"type": "message", "content": content, "stop_reason": finish})
            }
        },
        Envelope::Converse => match error {
            Some(e) => json!({"message": e}),
            None if !started => json!({}),
            None => {
                let mut content = vec![json!({"text": text})];
                if let Some(name) = tool.filter(|_| has_tool) {
                    content.push(json!({"toolUse": {"name": name, "input": null}}));
                }
                json!({"output": {"message": {"role": "assistant", "content": content}}, "stopReason": finish})
            }
        },
    }
}
