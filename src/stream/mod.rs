//! Streaming answers: a decoder fed one provider event at a time, which keeps
//! the answer read so far and ends exactly as `decode` of the whole response.
//!
//! Layer 7 (the answer side): it reads what the emission recorded (envelope,
//! forced tool, rewrites, source schema), never a dialect's constants. Pure: no
//! I/O, no clock; every byte of the answer is read once.

mod events;
mod json;
mod memo;
mod node;
mod read;
mod shape;
mod tape;
mod text;
mod tree;
pub(crate) mod write;

pub use events::{EventSplitter, StreamEvent};

use crate::decode::{self, Answer, DecodeError, Raw};
use crate::emission::Emission;
use crate::profile::Envelope;
use json::Reader;
use memo::Memo;
use node::Json;
use read::{Acc, Piece};
use serde_json::Value;
use tape::{Node, Tape};
use text::Front;
use tree::Tree;

/// The kind of a value, known from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "a boolean",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// What the reader reports, in document order.
pub(crate) trait Sink {
    /// A value starts (its first byte was read). Strings, arrays and objects
    /// are open from here on; numbers and literals come whole in [`Sink::scalar`].
    fn start(&mut self, kind: Kind);
    /// More of the string value being read (never of a member name).
    fn chunk(&mut self, text: &str);
    /// A member name, read whole.
    fn key(&mut self, key: &str);
    /// A number, `true`, `false` or `null`, read whole.
    fn scalar(&mut self, value: Value);
    /// The open string, array or object ends.
    fn end(&mut self);
}

/// Why a streamed answer can already no longer be valid: the caller may cancel
/// the request. Reported only when certain; [`StreamDecoder::finish`] still
/// gives the final [`DecodeError`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EarlyError {
    /// The stream carries an error instead of an answer.
    #[error("no answer: {0}")]
    NoAnswer(String),
    /// The model refused.
    #[error("the model refused: {0}")]
    Refusal(String),
    /// The text can no longer be JSON.
    #[error("at {}: not JSON: {message}", shown(pointer))]
    NotJson {
        /// JSON Pointer of the innermost value being read when it broke.
        pointer: String,
        /// What was found.
        message: String,
    },
    /// A value can no longer satisfy the schema: a kind the schema does not allow
    /// there, a string no `enum` or `const` value starts with, a member a closed object
    /// (`additionalProperties: false`) does not declare.
    #[error("at {}: {message}", shown(pointer))]
    Invalid {
        /// JSON Pointer into the answer.
        pointer: String,
        /// What is wrong.
        message: String,
    },
}

fn shown(pointer: &str) -> &str {
    if pointer.is_empty() { "(root)" } else { pointer }
}

impl EarlyError {
    /// The same stable names as [`DecodeError::kind`]: `no_answer`, `refusal`,
    /// `not_json`, `schema_violation`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            EarlyError::NoAnswer(_) => "no_answer",
            EarlyError::Refusal(_) => "refusal",
            EarlyError::NotJson { .. } => "not_json",
            EarlyError::Invalid { .. } => "schema_violation",
        }
    }

    /// The instance pointer, for `not_json` and `schema_violation`.
    #[must_use]
    pub fn pointer(&self) -> Option<&str> {
        match self {
            EarlyError::NotJson { pointer, .. } | EarlyError::Invalid { pointer, .. } => Some(pointer),
            _ => None,
        }
    }
}

/// Which pieces of the stream are the answer's JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Channel {
    /// The answer text (think block and fence around it).
    Text,
    /// The forced tool's input.
    Tool,
}

/// Decodes a streamed answer, one provider event at a time (made by
/// [`Emission::stream`]).
///
/// After each event, [`Partial`] shows the answer read so far; [`finish`]
/// returns exactly what [`Emission::decode`] returns for the whole response.
///
/// [`finish`]: StreamDecoder::finish
#[derive(Debug)]
pub struct StreamDecoder<'e> {
    emission: &'e Emission,
    envelope: Envelope,
    channel: Channel,
    acc: Acc,
    /// The answer text, and the forced tool's input text, as received.
    text: String,
    tool: String,
    front: Front,
    reader: Reader,
    tree: Tree<'e>,
    /// Something other than JSON whitespace followed the tool input's value.
    tool_tail: bool,
    early: Option<EarlyError>,
    /// Where an event given as text is read (kept: it allocates once).
    /// (Boxed: it is moved out and back at every event, and a pointer moves
    /// for less than the tape.)
    tape: Option<Box<Tape>>,
    /// What the last event read in place was to its envelope readers.
    memo: Option<Memo>,
}

/// The parts of a decoder that the pieces of the answer go to.
struct Sinks<'a, 'e> {
    channel: Channel,
    text: &'a mut String,
    tool: &'a mut String,
    front: &'a mut Front,
    reader: &'a mut Reader,
    tree: &'a mut Tree<'e>,
    tail: &'a mut bool,
}

impl Sinks<'_, '_> {
    /// A piece of the answer (or of the forced tool's input) is read.
    /// (Inlined: the fields are then the decoder's own, not read through
    /// pointers kept aside.)
    #[inline(always)]
    fn take(&mut self, piece: Piece<'_>) {
        match piece {
            Piece::Text(t) => {
                let start = self.text.len();
                t.push_to(self.text);
                if self.channel == Channel::Text {
                    self.front.feed(self.text.get(start..).unwrap_or_default(), self.reader, self.tree);
                }
            }
            Piece::Tool(t) => {
                let start = self.tool.len();
                t.push_to(self.tool);
                if self.channel == Channel::Tool {
                    let piece = self.tool.get(start..).unwrap_or_default();
                    let used = self.reader.feed(piece, self.tree);
                    // Text after a complete value; a reader that stopped unsure
                    // (a failure serde_json decides) says nothing about the rest.
                    *self.tail |= self.reader.is_done()
                        && !piece.as_bytes()[used..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
                }
            }
        }
    }
}

/// The answer so far, after one event.
#[derive(Debug, Clone, Copy)]
pub struct Partial<'a> {
    decoder: &'a StreamDecoder<'a>,
}

impl<'a> Partial<'a> {
    /// The answer's JSON completed as far as it is known: open strings, arrays
    /// and objects closed; an unfinished member name, number or literal left
    /// out; reversible rewrites undone where already decidable. `None` before
    /// any of it is known.
    #[must_use]
    pub fn value(&self) -> Option<&'a Value> {
        self.decoder.tree.value()
    }

    /// The JSON Pointers of the values this event completed, children before
    /// their parents. Together they name every complete part of
    /// [`value`](Partial::value): all of it except [`open`](Partial::open) and
    /// the values around it.
    pub fn completed(&self) -> impl Iterator<Item = &'a str> + use<'a> {
        self.decoder.tree.completed()
    }

    /// The pointer of the innermost value still being read (`None` when
    /// nothing of the answer is open).
    #[must_use]
    pub fn open(&self) -> Option<String> {
        self.decoder.tree.open()
    }

    /// The first certain early error, if any (it stays once found).
    #[must_use]
    pub fn error(&self) -> Option<&'a EarlyError> {
        self.decoder.early.as_ref()
    }
}

impl Emission {
    /// A decoder for this emission's answer streamed by the provider: feed it
    /// each event's JSON (the `data:` of one server-sent event, or one line of
    /// newline-delimited JSON; [`EventSplitter`] cuts raw bytes into events).
    ///
    /// ```
    /// use schemacast::{FinishReason, Provider};
    /// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}},
    ///     "required": ["city"], "additionalProperties": false});
    /// let emission = schemacast::emit(&schema, Provider::OpenAi)?;
    /// let mut stream = emission.stream();
    /// for piece in ["{\"ci", "ty\": \"Os", "lo\"}"] {
    ///     let event = serde_json::json!({"choices": [{"index": 0, "delta": {"content": piece}}]});
    ///     let partial = stream.push(&event);
    ///     println!("{:?}", partial.value()); // None, then {"city":"Os"}, then {"city":"Oslo"}
    /// }
    /// stream.push(&serde_json::json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    /// let answer = stream.finish().expect("a valid answer");
    /// assert_eq!(answer.value()["city"], "Oslo");
    /// assert_eq!(answer.finish_reason(), &FinishReason::Stop);
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    #[must_use]
    pub fn stream(&self) -> StreamDecoder<'_> {
        let envelope = crate::profile::profile(self.provider).envelope;
        StreamDecoder {
            emission: self,
            envelope,
            channel: if self.tool.is_some() { Channel::Tool } else { Channel::Text },
            acc: Acc::default(),
            text: String::new(),
            tool: String::new(),
            front: Front::new(),
            reader: Reader::new(),
            tree: Tree::new(self),
            tool_tail: false,
            early: None,
            tape: None,
            memo: None,
        }
    }

    /// This provider's streaming events for a response carrying `answer`
    /// (reshaped first when the emission reshapes), its JSON text cut into
    /// pieces of at most `piece_len` bytes: for testing client code without the
    /// network, and for benchmarks. Fed to [`stream`](Emission::stream), they
    /// decode to `answer`.
    #[must_use]
    pub fn events_for(&self, answer: &Value, piece_len: usize) -> Vec<Value> {
        self.events_of(&write::cut(&self.sent(answer).to_string(), piece_len))
    }

    /// The events of a stream whose answer arrives in `pieces`.
    pub(crate) fn events_of(&self, pieces: &[&str]) -> Vec<Value> {
        write::events(crate::profile::profile(self.provider).envelope, self.tool.as_deref(), pieces)
    }
}

impl<'e> StreamDecoder<'e> {
    /// Reads one event: the parsed JSON of one SSE `data:` field or one NDJSON line.
    pub fn push(&mut self, event: &Value) -> Partial<'_> {
        self.push_named(None, event)
    }

    /// Reads one event given as text. `[DONE]`, blank data and data that is
    /// not JSON are skipped. The text is read where it lies: no `Value` is
    /// built for the event, which costs less than parsing it first.
    pub fn push_str(&mut self, data: &str) -> Partial<'_> {
        self.push_text(None, data)
    }

    /// Reads one event from [`EventSplitter`] (its SSE name matters for Bedrock
    /// payloads given without their `{"contentBlockDelta": …}` wrapper).
    pub fn push_event(&mut self, event: &StreamEvent) -> Partial<'_> {
        self.push_text(event.name.as_deref(), &event.data)
    }

    fn push_text(&mut self, name: Option<&str>, data: &str) -> Partial<'_> {
        let data = data.trim();
        let mut tape = self.tape.take().unwrap_or_default();
        match tape.read(data) {
            Some(event) => self.read_in_place(name, event),
            None => {
                self.memo = None;
                // Beyond 4 GiB the tape's offsets do not reach: parsed instead.
                let beyond = u32::try_from(data.len()).is_err();
                match beyond.then(|| serde_json::from_str::<Value>(data).ok()).flatten() {
                    Some(v) => {
                        self.read(name, &v);
                    }
                    None => self.tree.clear_completed(),
                }
            }
        }
        self.tape = Some(tape);
        self.partial()
    }

    /// The answer so far.
    #[must_use]
    pub fn partial(&self) -> Partial<'_> {
        Partial { decoder: self }
    }

    /// [`push`](StreamDecoder::push) with the event's SSE name (what
    /// [`push_event`](StreamDecoder::push_event) reads from text).
    pub(crate) fn push_named(&mut self, name: Option<&str>, event: &Value) -> Partial<'_> {
        self.memo = None;
        self.read(name, event);
        self.partial()
    }

    /// An event read in place: as the last one was, when it is the same but
    /// for the content of the string the last one's piece was ([`Memo`]).
    fn read_in_place(&mut self, name: Option<&str>, event: Node<'_>) {
        let memo = self.memo.take();
        if let Some(piece) = memo.as_ref().and_then(|m| m.piece(event, name)) {
            self.tree.clear_completed();
            self.parts().1.take(piece);
            self.check_early();
            self.memo = memo;
            return;
        }
        let before = Memo::worth_trying(event).then(|| self.acc.clone());
        let piece = self.read(name, event);
        self.memo = before.and_then(|before| Memo::of(event, name, before == self.acc, piece));
    }

    /// Reads an event; the piece of the answer it carried, if it carried one.
    fn read<'v>(&mut self, name: Option<&str>, event: impl Json<'v>) -> Option<Piece<'v>> {
        self.tree.clear_completed();
        let (emission, envelope) = (self.emission, self.envelope);
        let (acc, mut sinks) = self.parts();
        let mut pieces = (0, None);
        read::read(envelope, emission.tool.as_deref(), acc, name, event, &mut |piece| {
            pieces = (pieces.0 + 1, Some(piece));
            sinks.take(piece);
        });
        self.check_early();
        pieces.1.filter(|_| pieces.0 == 1)
    }

    /// The envelope readers' record, and where the pieces go.
    #[inline(always)]
    fn parts(&mut self) -> (&mut Acc, Sinks<'_, 'e>) {
        let sinks = Sinks {
            channel: self.channel,
            text: &mut self.text,
            tool: &mut self.tool,
            front: &mut self.front,
            reader: &mut self.reader,
            tree: &mut self.tree,
            tail: &mut self.tool_tail,
        };
        (&mut self.acc, sinks)
    }

    fn check_early(&mut self) {
        if self.early.is_none() {
            self.early = self.certain_failure();
        }
    }

    /// What already rules out a valid answer, if anything.
    fn certain_failure(&self) -> Option<EarlyError> {
        if let Some(e) = &self.acc.error {
            return Some(EarlyError::NoAnswer(decode::error_text(e)));
        }
        if let Some(why) = read::refused(self.envelope, &self.acc, &self.text) {
            return Some(EarlyError::Refusal(why));
        }
        if let Some((pointer, message)) = &self.tree.violation {
            return Some(EarlyError::Invalid { pointer: pointer.clone(), message: message.clone() });
        }
        if let Some((pointer, name)) = &self.tree.repeated {
            return Some(EarlyError::NotJson { pointer: pointer.clone(), message: decode::repeated(name) });
        }
        let pointer = || self.tree.open().unwrap_or_default();
        if let Some(f) = self.reader.failure().filter(|f| f.certain) {
            return Some(EarlyError::NotJson { pointer: pointer(), message: f.message.clone() });
        }
        if let Some(why) = self.front.failure() {
            return Some(EarlyError::NotJson { pointer: String::new(), message: why.to_owned() });
        }
        if self.tool_tail {
            return Some(EarlyError::NotJson {
                pointer: String::new(),
                message: "text after the JSON value".to_owned(),
            });
        }
        None
    }

    /// The stream ended: the validated answer, or why there is none — exactly
    /// what [`Emission::decode`] returns for the whole response the stream
    /// stands for.
    ///
    /// # Errors
    ///
    /// The [`DecodeError`] `decode` gives. A forced tool's input that is cut
    /// off or is not JSON is reported with its text as received.
    pub fn finish(mut self) -> Result<Answer, DecodeError> {
        let em = self.emission;
        match self.channel {
            Channel::Text => self.front.end(&mut self.reader, &mut self.tree),
            Channel::Tool => self.reader.end_of_input(&mut self.tree),
        }
        let validator = em.local_validator().map_err(|e| DecodeError::Schema(e.clone()))?;
        let tool = em.tool.as_deref();
        let tool_started = self.acc.tool_started();
        let body = read::assemble(self.envelope, tool, self.acc, std::mem::take(&mut self.text));
        let (raw, finish) = match decode::extract(self.envelope, tool, &body) {
            Err(DecodeError::Truncated { .. }) if tool_started => {
                return Err(DecodeError::Truncated { text: self.tool });
            }
            other => other?,
        };
        drop(body);
        // Rewrites undone on the whole answer are undone again below, where a
        // repeated key or a JSON text that does not parse is an error.
        let whole = self.reader.failure().is_none()
            && !self.tree.whole()
            && self.tree.repeated.is_none()
            && match (&raw, self.channel) {
                (Raw::Text(_), Channel::Text) => self.front.is_whole(&self.reader),
                (Raw::Value(_), Channel::Tool) => self.reader.is_done() && !self.tool_tail,
                _ => false,
            };
        let value = match raw {
            // Read once already, rewrites undone in place.
            _ if whole => self.tree.into_value().unwrap_or(Value::Null),
            Raw::Text(t) => em.undo(decode::parse_text(&t)?)?,
            // A tool block whose input never came in deltas: the block's own
            // `input` (Anthropic opens every tool block with `{}`), as `decode`
            // of the whole message reads it.
            Raw::Value(start) if self.tool.trim().is_empty() && !start.is_null() => em.undo(start)?,
            Raw::Value(_) => {
                let v = decode::parse_json(&self.tool)
                    .map_err(|e| DecodeError::NotJson { text: self.tool.clone(), message: e.to_string() })?;
                em.undo(v)?
            }
        };
        decode::validated(value, finish, validator)
    }
}

#[cfg(test)]
mod tests;
