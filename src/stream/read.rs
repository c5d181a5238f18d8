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
//!
//! The readers are written once for any [`Json`] event: a parsed `Value`, or
//! an event's text read in place.

use super::node::{Json, Str};
use crate::decode;
use crate::profile::Envelope;
use serde_json::{Value, json};
use std::collections::HashMap;

/// A piece of the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece<'v> {
    /// More answer text.
    Text(Str<'v>),
    /// More of the forced tool's input (JSON text).
    Tool(Str<'v>),
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
#[derive(Debug, Default, Clone, PartialEq)]
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

    fn set_error<'v>(&mut self, e: impl Json<'v>) {
        if self.error.is_none() {
            self.error = Some(e.to_value());
        }
    }
}

/// A member that is present and not `null`, copied.
fn set<'v>(v: Option<impl Json<'v>>) -> Option<Value> {
    v.filter(|v| !v.is_null()).map(Json::to_value)
}

/// Whether an entry of a `choices`/`candidates` array stands for the first one
/// (`index` 0, or no index).
fn is_first<'v, J: Json<'v>>(index: Option<J>) -> bool {
    index.and_then(J::as_u64).is_none_or(|i| i == 0)
}

/// Reads one event (`name`: its SSE `event:` field, if any) into `acc`, and
/// the answer pieces it carries into `out`.
pub(crate) fn read<'v>(
    envelope: Envelope,
    tool: Option<&str>,
    acc: &mut Acc,
    name: Option<&str>,
    event: impl Json<'v>,
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

fn chat<'v, J: Json<'v>>(acc: &mut Acc, event: J, out: &mut impl FnMut(Piece<'v>)) {
    let [error, choices] = event.fields(["error", "choices"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    for choice in choices.into_iter().flat_map(J::items) {
        let [index, delta, message, finish] = choice.fields(["index", "delta", "message", "finish_reason"]);
        if !is_first(index) {
            continue;
        }
        acc.started = true;
        let [content, refusal] = delta.or(message).map_or([None; 2], |d| d.fields(["content", "refusal"]));
        if let Some(content) = content {
            match content.text() {
                Some(t) => out(Piece::Text(t)),
                // A list of chunks (Mistral's reasoning models): the text of each
                // that has one, as `decode` reads `message.content`; `thinking`
                // chunks hold theirs deeper and are skipped.
                None => {
                    content.items().filter_map(|p| p.at("text").and_then(J::text)).for_each(|t| out(Piece::Text(t)))
                }
            }
        }
        if let Some(r) = refusal.and_then(J::text) {
            r.push_to(acc.refusal.get_or_insert_with(String::new));
        }
        if let Some(f) = set(finish) {
            acc.finish = Some(f);
        }
    }
}

fn responses<'v, J: Json<'v>>(acc: &mut Acc, event: J, out: &mut impl FnMut(Piece<'v>)) {
    let kind = event.at("type").and_then(J::str).unwrap_or_default();
    match kind.as_ref() {
        "response.output_text.delta" => {
            acc.started = true;
            if let Some(t) = event.at("delta").and_then(J::text) {
                out(Piece::Text(t));
            }
        }
        "response.refusal.delta" | "response.refusal.done" => {
            acc.started = true;
            let r = acc.refusal.get_or_insert_with(String::new);
            if kind.ends_with("delta") {
                if let Some(t) = event.at("delta").and_then(J::text) {
                    t.push_to(r);
                }
            } else if let Some(whole) = event.at("refusal").and_then(J::text) {
                // `done` carries the whole refusal (also when no delta came).
                r.clear();
                whole.push_to(r);
            }
        }
        "error" => acc.set_error(event),
        k if k.starts_with("response.") => {
            let Some(r) = event.at("response") else { return };
            acc.started = true;
            let [error, status, incomplete] = r.fields(["error", "status", "incomplete_details"]);
            if let Some(e) = error.filter(|e| !e.is_null()) {
                acc.set_error(e);
            }
            if let Some(st) = status {
                acc.status = Some(st.to_value());
            }
            if let Some(d) = set(incomplete) {
                acc.incomplete = Some(d);
            }
        }
        _ => {}
    }
}

fn gemini<'v, J: Json<'v>>(acc: &mut Acc, event: J, out: &mut impl FnMut(Piece<'v>)) {
    let [error, feedback, candidates] = event.fields(["error", "promptFeedback", "candidates"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    if let Some(f) = feedback {
        acc.feedback = Some(f.to_value());
    }
    for candidate in candidates.into_iter().flat_map(J::items) {
        let [index, content, finish] = candidate.fields(["index", "content", "finishReason"]);
        if !is_first(index) {
            continue;
        }
        acc.started = true;
        let parts = content.and_then(|c| c.at("parts"));
        for part in parts.into_iter().flat_map(J::items) {
            let [thought, text] = part.fields(["thought", "text"]);
            if !thought.is_some_and(J::is_true)
                && let Some(t) = text.and_then(J::text)
            {
                out(Piece::Text(t));
            }
        }
        if let Some(f) = set(finish) {
            acc.finish = Some(f);
        }
    }
}

fn ollama<'v, J: Json<'v>>(acc: &mut Acc, event: J, out: &mut impl FnMut(Piece<'v>)) {
    let [error, message, done] = event.fields(["error", "message", "done_reason"]);
    if let Some(e) = error.filter(|e| !e.is_null()) {
        return acc.set_error(e);
    }
    if let Some(m) = message {
        acc.started = true;
        if let Some(t) = m.at("content").and_then(J::text) {
            out(Piece::Text(t));
        }
    }
    if let Some(f) = set(done) {
        acc.finish = Some(f);
    }
}

fn cohere<'v, J: Json<'v>>(acc: &mut Acc, event: J, out: &mut impl FnMut(Piece<'v>)) {
    match event.at("type").and_then(J::str).as_deref() {
        Some("message-start" | "content-start") => acc.started = true,
        Some("content-delta") => {
            acc.started = true;
            let content = event.at("delta").and_then(|d| d.at("message")).and_then(|m| m.at("content"));
            if let Some(t) = content.and_then(|c| c.at("text")).and_then(J::text) {
                out(Piece::Text(t));
            }
        }
        Some("message-end") => {
            let delta = event.at("delta");
            if let Some(e) = delta.and_then(|d| d.at("error")).filter(|e| !e.is_null()) {
                acc.set_error(e);
            }
            if let Some(f) = set(delta.and_then(|d| d.at("finish_reason"))) {
                acc.finish = Some(f);
            }
        }
        _ => {}
    }
}

fn anthropic<'v, J: Json<'v>>(acc: &mut Acc, tool: Option<&str>, event: J, out: &mut impl FnMut(Piece<'v>)) {
    let [index, kind] = event.fields(["index", "type"]);
    let index = index.and_then(J::as_u64);
    match kind.and_then(J::str).as_deref() {
        Some("message_start") => acc.started = true,
        Some("content_block_start") => {
            acc.started = true;
            let block = event.at("content_block");
            let block = match block.and_then(|b| b.at("type")).and_then(J::str).as_deref() {
                Some("text") => Block::Text,
                Some("tool_use")
                    if tool.is_some() && block.and_then(|b| b.at("name")).and_then(J::str).as_deref() == tool =>
                {
                    Block::Tool
                }
                _ => Block::Other,
            };
            let first_tool = block == Block::Tool && !acc.tool;
            acc.open_block(index, block);
            if first_tool {
                acc.tool_start = event.at("content_block").and_then(|b| b.at("input")).map(J::to_value);
            }
        }
        Some("content_block_delta") => {
            let Some(delta) = event.at("delta") else { return };
            let [kind, text, partial] = delta.fields(["type", "text", "partial_json"]);
            match (kind.and_then(J::str).as_deref(), acc.block(index)) {
                (Some("text_delta"), Some(Block::Text) | None) => {
                    acc.started = true;
                    if let Some(t) = text.and_then(J::text) {
                        out(Piece::Text(t));
                    }
                }
                (Some("input_json_delta"), Some(Block::Tool)) => {
                    if let Some(t) = partial.and_then(J::text) {
                        out(Piece::Tool(t));
                    }
                }
                _ => {}
            }
        }
        Some("message_delta") => {
            if let Some(r) = set(event.at("delta").and_then(|d| d.at("stop_reason"))) {
                acc.finish = Some(r);
            }
        }
        Some("error") => acc.set_error(event.at("error").unwrap_or(event)),
        _ => {}
    }
}

/// Converse events as the AWS SDKs give them (`{"contentBlockDelta": {…}}`),
/// or a bare payload named by the SSE `event:` field.
fn converse<'v, J: Json<'v>>(
    acc: &mut Acc,
    tool: Option<&str>,
    name: Option<&str>,
    event: J,
    out: &mut impl FnMut(Piece<'v>),
) {
    const KINDS: [&str; 5] = ["messageStart", "contentBlockStart", "contentBlockDelta", "messageStop", "metadata"];
    if !event.is_object() {
        return;
    }
    let (kind, payload) = match event.find_member(|k| KINDS.contains(&k) || k.ends_with("Exception")) {
        Some((k, v)) => (k, v),
        None => match name {
            Some(n) => (n.into(), event),
            None => return,
        },
    };
    let index = payload.at("contentBlockIndex").and_then(J::as_u64);
    match kind.as_ref() {
        "messageStart" => acc.started = true,
        "contentBlockStart" => {
            acc.started = true;
            let block = match payload.at("start").and_then(|st| st.at("toolUse")) {
                Some(t) if tool.is_some() && t.at("name").and_then(J::str).as_deref() == tool => Block::Tool,
                Some(_) => Block::Other,
                None => Block::Text,
            };
            acc.open_block(index, block);
        }
        "contentBlockDelta" => {
            acc.started = true;
            let Some(delta) = payload.at("delta") else { return };
            match acc.block(index) {
                Some(Block::Tool) => {
                    if let Some(t) = delta.at("toolUse").and_then(|t| t.at("input")).and_then(J::text) {
                        out(Piece::Tool(t));
                    }
                }
                Some(Block::Other) => {}
                Some(Block::Text) | None => {
                    if let Some(t) = delta.at("text").and_then(J::text) {
                        out(Piece::Text(t));
                    }
                }
            }
        }
        "messageStop" => {
            if let Some(r) = set(payload.at("stopReason")) {
                acc.finish = Some(r);
            }
        }
        k if k.ends_with("Exception") => {
            let message = payload.at("message").map_or_else(|| Value::String(k.to_owned()), J::to_value);
            if acc.error.is_none() {
                acc.error = Some(message);
            }
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
