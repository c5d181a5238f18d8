//! An incremental JSON reader: fed text in pieces cut anywhere, it reads each
//! byte once and tells a [`Sink`] what it found (a value starts, more of a
//! string, a member name, a number or literal, a container or string ends).
//!
//! It accepts exactly serde_json's grammar. Where it is not sure to agree with
//! serde_json (surrogate escapes, numbers out of range, deep nesting) it stops
//! with an *uncertain* failure, and the caller falls back to serde_json on the
//! whole text; a *certain* failure is one serde_json also reports.

pub(crate) use super::{Kind, Sink};
use serde_json::Value;

/// Why reading stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    /// serde_json rejects the text too (a grammar error).
    pub(crate) certain: bool,
    pub(crate) message: String,
}

/// Nesting beyond this gives up (serde_json's own limit is 128).
const MAX_DEPTH: usize = 127;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// A value is expected (the root, after `:`, after `,` in an array).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a member name or `}`.
    KeyOrClose,
    /// After `,` in an object: a member name.
    Key,
    /// After a member name: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    CommaOrClose,
    /// Inside a string (a member name when `key`).
    Str {
        key: bool,
    },
    /// Inside a number.
    Num(Num),
    /// Inside `true`, `false` or `null`: the word and how much is read.
    Lit {
        word: &'static [u8],
        read: u8,
    },
    /// The root value is complete.
    Done,
    Failed,
}

/// Where a number is in `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Minus,
    Zero,
    Int,
    Dot,
    Frac,
    Exp,
    ExpSign,
    ExpDigits,
}

impl Num {
    fn is_whole(self) -> bool {
        matches!(self, Num::Zero | Num::Int | Num::Frac | Num::ExpDigits)
    }

    fn next(self, b: u8) -> Option<Num> {
        Some(match (self, b) {
            (Num::Minus, b'0') => Num::Zero,
            (Num::Minus, b'1'..=b'9') | (Num::Int, b'0'..=b'9') => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Dot | Num::Frac, b'0'..=b'9') => Num::Frac,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
            (Num::Exp, b'+' | b'-') => Num::ExpSign,
            (Num::Exp | Num::ExpSign | Num::ExpDigits, b'0'..=b'9') => Num::ExpDigits,
            _ => return None,
        })
    }
}

/// An escape sequence being read inside a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Esc {
    None,
    /// After `\`.
    Backslash,
    /// After `\u` and `read` hex digits worth `acc`.
    Hex {
        read: u8,
        acc: u32,
    },
}

/// The reader's state between pieces.
#[derive(Debug)]
pub(crate) struct Reader {
    st: St,
    /// Open containers, innermost last: `true` for an object.
    stack: Vec<bool>,
    esc: Esc,
    /// A high surrogate waiting for its low half.
    high: Option<u32>,
    /// The member name or number being read.
    scratch: String,
    /// The string value's text read in this piece, given to the sink once
    /// (when the string ends, or the piece does) rather than run by run.
    text: String,
    failure: Option<Failure>,
}

/// Where the plain text of a string starting at `i` ends: the first quote,
/// backslash or control byte, or the end. Eight bytes at a time: a byte is
/// flagged when it equals `"` or `\\` (it XORs to zero) or lies below 0x20;
/// borrows only flag bytes above a true match, so the lowest flag is exact.
pub(super) fn plain_run(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x;
    while let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let x = u64::from_le_bytes(word);
        let flags =
            (below(x ^ (ONES * u64::from(b'"')), 1) | below(x ^ (ONES * u64::from(b'\\')), 1) | below(x, 0x20)) & HIGH;
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < bytes.len() && !matches!(bytes[i], b'"' | b'\\' | 0..=0x1f) {
        i += 1;
    }
    i
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn shown(b: u8) -> String {
    if b.is_ascii_graphic() { format!("`{}`", b as char) } else { format!("byte 0x{b:02x}") }
}

impl Reader {
    pub(crate) fn new() -> Reader {
        Reader {
            st: St::Value,
            stack: Vec::new(),
            esc: Esc::None,
            high: None,
            scratch: String::new(),
            text: String::new(),
            failure: None,
        }
    }

    /// The root value has been read whole.
    pub(crate) fn is_done(&self) -> bool {
        self.st == St::Done
    }

    pub(crate) fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    #[cold]
    #[inline(never)]
    fn fail(&mut self, certain: bool, message: String) {
        self.st = St::Failed;
        self.failure = Some(Failure { certain, message });
    }

    /// Reads `input`; returns how many bytes were used: all of them, or up to
    /// the end of the root value (the rest is not JSON's business), or up to a
    /// failure.
    pub(crate) fn feed(&mut self, input: &str, sink: &mut impl Sink) -> usize {
        let used = self.read(input, sink);
        self.flush(sink);
        used
    }

    /// Gives the string value's text read so far to the sink.
    fn flush(&mut self, sink: &mut impl Sink) {
        if !self.text.is_empty() {
            sink.chunk(&self.text);
            self.text.clear();
        }
    }

    fn read(&mut self, input: &str, sink: &mut impl Sink) -> usize {
        let bytes = input.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match self.st {
                St::Done | St::Failed => return i,
                St::Str { key } if self.esc == Esc::None && self.high.is_none() => {
                    let start = i;
                    i = plain_run(bytes, i);
                    // The run ends before an ASCII byte or at the end: a character boundary.
                    if let Some(run) = input.get(start..i).filter(|r| !r.is_empty()) {
                        if key { self.scratch.push_str(run) } else { self.text.push_str(run) }
                    }
                    if i < bytes.len() {
                        self.string_byte(bytes[i], key, sink);
                        i += 1;
                    }
                }
                St::Str { key } => {
                    self.string_byte(bytes[i], key, sink);
                    i += 1;
                }
                _ => {
                    if self.byte(bytes[i], sink) {
                        i += 1;
                    }
                }
            }
        }
        i
    }

    /// The text ended: a number at the very end is whole now.
    pub(crate) fn end_of_input(&mut self, sink: &mut impl Sink) {
        if let St::Num(n) = self.st
            && n.is_whole()
        {
            self.number_done(sink);
        }
    }

    /// One byte outside strings; `false` when it must be read again in the new state.
    fn byte(&mut self, b: u8, sink: &mut impl Sink) -> bool {
        match self.st {
            St::Value | St::ValueOrClose if is_ws(b) => {}
            St::ValueOrClose if b == b']' => self.close(false, sink),
            St::Value | St::ValueOrClose => self.value_start(b, sink),
            St::KeyOrClose | St::Key | St::Colon | St::CommaOrClose if is_ws(b) => {}
            St::KeyOrClose if b == b'}' => self.close(true, sink),
            St::KeyOrClose | St::Key if b == b'"' => {
                self.scratch.clear();
                self.st = St::Str { key: true };
            }
            St::KeyOrClose | St::Key => self.fail(true, format!("expected a member name, found {}", shown(b))),
            St::Colon if b == b':' => self.st = St::Value,
            St::Colon => self.fail(true, format!("expected `:` after a member name, found {}", shown(b))),
            St::CommaOrClose => {
                let object = self.stack.last().copied().unwrap_or(false);
                match b {
                    b',' => self.st = if object { St::Key } else { St::Value },
                    b'}' if object => self.close(true, sink),
                    b']' if !object => self.close(false, sink),
                    _ => {
                        let want = if object { "`,` or `}`" } else { "`,` or `]`" };
                        self.fail(true, format!("expected {want}, found {}", shown(b)));
                    }
                }
            }
            St::Num(n) => match n.next(b) {
                Some(next) => {
                    self.scratch.push(b as char);
                    self.st = St::Num(next);
                }
                None if n.is_whole() => {
                    self.number_done(sink);
                    return false;
                }
                None => self.fail(true, format!("unfinished number `{}`, found {}", self.scratch, shown(b))),
            },
            St::Lit { word, read } => {
                if word.get(usize::from(read)) == Some(&b) {
                    let read = read + 1;
                    if usize::from(read) == word.len() {
                        sink.scalar(match word {
                            b"true" => Value::Bool(true),
                            b"false" => Value::Bool(false),
                            _ => Value::Null,
                        });
                        self.after_value();
                    } else {
                        self.st = St::Lit { word, read };
                    }
                } else {
                    let w = String::from_utf8_lossy(word);
                    self.fail(true, format!("expected `{w}`, found {}", shown(b)));
                }
            }
            St::Str { .. } | St::Done | St::Failed => {}
        }
        true
    }

    fn value_start(&mut self, b: u8, sink: &mut impl Sink) {
        let open = |r: &mut Reader, object: bool| {
            if r.stack.len() >= MAX_DEPTH {
                r.fail(false, format!("nesting deeper than {MAX_DEPTH} levels"));
                return false;
            }
            r.stack.push(object);
            true
        };
        match b {
            b'{' => {
                if open(self, true) {
                    sink.start(Kind::Object);
                    self.st = St::KeyOrClose;
                }
            }
            b'[' => {
                if open(self, false) {
                    sink.start(Kind::Array);
                    self.st = St::ValueOrClose;
                }
            }
            b'"' => {
                sink.start(Kind::String);
                self.st = St::Str { key: false };
            }
            b'-' | b'0'..=b'9' => {
                sink.start(Kind::Number);
                self.scratch.clear();
                self.scratch.push(b as char);
                self.st = St::Num(if b == b'-' {
                    Num::Minus
                } else if b == b'0' {
                    Num::Zero
                } else {
                    Num::Int
                });
            }
            b't' | b'f' | b'n' => {
                let (word, kind): (&'static [u8], _) = match b {
                    b't' => (b"true", Kind::Bool),
                    b'f' => (b"false", Kind::Bool),
                    _ => (b"null", Kind::Null),
                };
                sink.start(kind);
                self.st = St::Lit { word, read: 1 };
            }
            _ => self.fail(true, format!("expected a value, found {}", shown(b))),
        }
    }

    fn close(&mut self, _object: bool, sink: &mut impl Sink) {
        self.stack.pop();
        sink.end();
        self.after_value();
    }

    fn after_value(&mut self) {
        self.st = if self.stack.is_empty() { St::Done } else { St::CommaOrClose };
    }

    fn number_done(&mut self, sink: &mut impl Sink) {
        let t = self.scratch.as_str();
        // Integers as serde_json keeps them (`u64`, or `i64` below zero; `-0` is
        // `-0.0` there); anything else through serde_json's own number parser.
        let int = if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) || t == "-0" {
            None
        } else if t.starts_with('-') {
            t.parse::<i64>().ok().map(Value::from)
        } else {
            t.parse::<u64>().ok().map(Value::from)
        };
        if let Some(v) = int {
            sink.scalar(v);
            return self.after_value();
        }
        // `Number`'s own parser is the one serde_json's `Value` parsing calls,
        // without the deserializer around it.
        match t.parse::<serde_json::Number>() {
            Ok(n) => {
                sink.scalar(Value::Number(n));
                self.after_value();
            }
            Err(e) => self.fail(false, format!("number `{}`: {e}", self.scratch)),
        }
    }

    /// One byte inside a string that is not plain text: a quote, a backslash,
    /// a control character, or anything inside an escape.
    fn string_byte(&mut self, b: u8, key: bool, sink: &mut impl Sink) {
        match self.esc {
            Esc::None if self.high.is_some() && b != b'\\' => {
                self.fail(false, "a high surrogate escape without its low half".to_owned());
            }
            Esc::None => match b {
                b'"' => {
                    if key {
                        sink.key(&self.scratch);
                        self.st = St::Colon;
                    } else {
                        self.flush(sink);
                        sink.end();
                        self.after_value();
                    }
                }
                b'\\' => self.esc = Esc::Backslash,
                _ => self.fail(true, "a control character (U+0000 to U+001F) inside a string".to_owned()),
            },
            Esc::Backslash if self.high.is_some() && b != b'u' => {
                self.fail(false, "a high surrogate escape without its low half".to_owned());
            }
            Esc::Backslash => {
                let c = match b {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        self.esc = Esc::Hex { read: 0, acc: 0 };
                        return;
                    }
                    _ => return self.fail(true, format!("invalid escape `\\{}`", b as char)),
                };
                self.esc = Esc::None;
                self.emit(c, key);
            }
            Esc::Hex { read, acc } => {
                let Some(d) = (b as char).to_digit(16) else {
                    return self.fail(true, format!("invalid `\\u` escape: {} is not a hex digit", shown(b)));
                };
                let acc = acc * 16 + d;
                if read < 3 {
                    self.esc = Esc::Hex { read: read + 1, acc };
                    return;
                }
                self.esc = Esc::None;
                let code = match (self.high.take(), acc) {
                    (None, 0xD800..=0xDBFF) => {
                        self.high = Some(acc);
                        return;
                    }
                    (Some(high), 0xDC00..=0xDFFF) => 0x10000 + ((high - 0xD800) << 10) + (acc - 0xDC00),
                    (None, c) if !(0xDC00..=0xDFFF).contains(&c) => c,
                    _ => return self.fail(false, "an unpaired surrogate escape".to_owned()),
                };
                match char::from_u32(code) {
                    Some(c) => self.emit(c, key),
                    None => self.fail(false, "an escape that is no character".to_owned()),
                }
            }
        }
    }

    fn emit(&mut self, c: char, key: bool) {
        if key { self.scratch.push(c) } else { self.text.push(c) }
    }
}

#[cfg(test)]
mod tests;
