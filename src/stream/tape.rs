//! One event's JSON text read where it lies. A validating pass records where
//! each value is (a tape, kept from event to event so that it allocates once),
//! and the envelope readers look members up on it: no `Value` is built for the
//! ids, model names and indexes around each piece of the answer.
//!
//! It accepts exactly the texts `serde_json` parses into a `Value` (its nesting
//! limit and number range included), and reads from them what that `Value`
//! holds: a repeated member name means its last value, as in a `Value`.
//!
//! A stream's events mostly differ from the one before only in the text of one
//! string (the piece of the answer) and a counter or two: the tape tells so
//! ([`Changed`]) and reads them without a pass, and tells what the envelope
//! readers looked at ([`Node::passed_through`]), so that the decoder can skip
//! reading an envelope it has read before (`same`).

use super::json::plain_run;
use super::node::{Json, Str, hex4};
pub(crate) use seen::Changed;
use seen::Seen;
use serde_json::Value;
use std::borrow::Cow;

mod same;
mod seen;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    True,
    False,
    Number,
    /// A string without escapes.
    Plain,
    /// A string with at least one escape.
    Escaped,
    Array,
    Object,
}

/// One value: its text (a string's content between the quotes), the index
/// of the token after it and everything in it, and, for a member, its name's
/// content (the name is not a token of its own).
#[derive(Debug, Clone, Copy)]
struct Tok {
    kind: Kind,
    /// The name has an escape.
    name_escaped: bool,
    start: u32,
    end: u32,
    next: u32,
    name_start: u32,
    name_end: u32,
}

/// A member's name as read, waiting for its value's token.
#[derive(Debug, Clone, Copy, Default)]
struct Name {
    start: u32,
    end: u32,
    escaped: bool,
}

/// `serde_json` refuses a 128th level of nesting.
const MAX_DEPTH: usize = 127;

/// The tokens of the last text read.
#[derive(Debug, Default)]
pub(crate) struct Tape {
    toks: Vec<Tok>,
    /// The containers open while reading: their tokens' indexes, shifted
    /// left by one, the low bit set for an object.
    open: Vec<u32>,
    /// The text read last, when it was JSON (`toks` are its tokens); else empty.
    last: Vec<u8>,
    /// How the text read last differs from the one before.
    changed: Changed,
    /// What was looked at in the text read last.
    seen: Seen,
}

impl Tape {
    /// Reads `text`: its root value, or `None` when `serde_json` would not
    /// parse it (or it is longer than 4 GiB, which the caller parses itself).
    pub(crate) fn read<'t>(&'t mut self, text: &'t str) -> Option<Node<'t>> {
        u32::try_from(text.len()).ok()?;
        self.seen = Seen::default();
        self.changed = self.compare(text);
        match self.changed {
            Changed::Only { count: 0, .. } => {}
            Changed::Only { .. } => {
                self.last.clear();
                self.last.extend_from_slice(text.as_bytes());
            }
            Changed::More => {
                self.toks.clear();
                self.open.clear();
                self.last.clear();
                parse(text, &mut self.toks, &mut self.open)?;
                self.last.extend_from_slice(text.as_bytes());
            }
        }
        Some(Node { tape: self, text, at: 0 })
    }
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Adds a token (offsets fit: the text's length does).
#[inline(always)]
fn push(toks: &mut Vec<Tok>, kind: Kind, start: usize, end: usize, name: Name) {
    let next = (toks.len() + 1) as u32;
    toks.push(Tok {
        kind,
        name_escaped: name.escaped,
        start: start as u32,
        end: end as u32,
        next,
        name_start: name.start,
        name_end: name.end,
    });
}

/// One pass, no recursion: the open containers are a stack of token indexes.
fn parse(text: &str, toks: &mut Vec<Tok>, open: &mut Vec<u32>) -> Option<()> {
    let b = text.as_bytes();
    let mut i = ws(b, 0);
    let mut name = Name::default();
    loop {
        // A value starts at `i` (a member's, named `name`).
        match *b.get(i)? {
            c @ (b'{' | b'[') => {
                if open.len() == MAX_DEPTH {
                    return None;
                }
                let object = c == b'{';
                open.push(((toks.len() as u32) << 1) | u32::from(object));
                push(toks, if object { Kind::Object } else { Kind::Array }, i, i, name);
                i = ws(b, i + 1);
                let close = if object { b'}' } else { b']' };
                if b.get(i) != Some(&close) {
                    if object {
                        (i, name) = member_name(b, i)?;
                    }
                    continue;
                }
                // Empty: closed below.
            }
            b'"' => {
                let (end, escaped) = string(b, i)?;
                push(toks, if escaped { Kind::Escaped } else { Kind::Plain }, i + 1, end, name);
                i = end + 1;
            }
            b't' => i = literal(b, i, "true", Kind::True, toks, name)?,
            b'f' => i = literal(b, i, "false", Kind::False, toks, name)?,
            b'n' => i = literal(b, i, "null", Kind::Null, toks, name)?,
            b'-' | b'0'..=b'9' => i = number(text, i, toks, name)?,
            _ => return None,
        }
        // A value ended before `i` (or an empty container opened): what follows.
        loop {
            let Some(&top) = open.last() else {
                return (ws(b, i) == b.len()).then_some(());
            };
            let object = top & 1 == 1;
            i = ws(b, i);
            match *b.get(i)? {
                b',' => {
                    i = ws(b, i + 1);
                    if object {
                        (i, name) = member_name(b, i)?;
                    }
                    break;
                }
                c if c == if object { b'}' } else { b']' } => {
                    i += 1;
                    let next = toks.len() as u32;
                    let tok = toks.get_mut((top >> 1) as usize)?;
                    (tok.end, tok.next) = (i as u32, next);
                    open.pop();
                }
                _ => return None,
            }
        }
    }
}

/// A member's name and its colon, from `i`: where its value starts, and the name.
#[inline(always)]
fn member_name(b: &[u8], i: usize) -> Option<(usize, Name)> {
    (b.get(i) == Some(&b'"')).then_some(())?;
    let (end, escaped) = string(b, i)?;
    let name = Name { start: (i + 1) as u32, end: end as u32, escaped };
    let i = ws(b, end + 1);
    (b.get(i) == Some(&b':')).then(|| (ws(b, i + 1), name))
}

fn literal(b: &[u8], i: usize, word: &str, kind: Kind, toks: &mut Vec<Tok>, name: Name) -> Option<usize> {
    b.get(i..)?.starts_with(word.as_bytes()).then_some(())?;
    push(toks, kind, i, i + word.len(), name);
    Some(i + word.len())
}

/// A string, its opening quote at `i`: where its closing quote is, and
/// whether it has an escape.
#[inline(always)]
fn string(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let mut i = i + 1;
    let mut escaped = false;
    loop {
        i = plain_run(b, i);
        match *b.get(i)? {
            b'"' => return Some((i, escaped)),
            b'\\' => {
                escaped = true;
                i = match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'n') => i + 2,
                    _ => escape(b, i + 1)?,
                };
            }
            _ => return None,
        }
    }
}

fn number(text: &str, start: usize, toks: &mut Vec<Tok>, name: Name) -> Option<usize> {
    let i = number_end(text, start)?;
    push(toks, Kind::Number, start, i, name);
    Some(i)
}

/// Where the number starting at `start` ends, if `serde_json` takes it.
fn number_end(text: &str, start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let digits = |mut i: usize| {
        while matches!(b.get(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        i
    };
    let mut i = start + usize::from(b.get(start) == Some(&b'-'));
    i = match b.get(i)? {
        b'0' => i + 1,
        b'1'..=b'9' => digits(i + 1),
        _ => return None,
    };
    let mut integer = true;
    if b.get(i) == Some(&b'.') {
        integer = false;
        let from = i + 1;
        i = digits(from);
        (i > from).then_some(())?;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        integer = false;
        let from = i + 1 + usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        i = digits(from);
        (i > from).then_some(())?;
    }
    // `serde_json` refuses a number beyond `f64`'s range; an integer of up
    // to 18 digits is always within it.
    if (!integer || i - start > 18) && !text.get(start..i)?.parse::<f64>().is_ok_and(f64::is_finite) {
        return None;
    }
    Some(i)
}

/// An escape whose backslash is just before `i`: where it ends, or `None` for
/// one `serde_json` refuses (an unknown letter, a lone surrogate).
fn escape(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(i + 1),
        b'u' => match hex4(b, i + 1)? {
            0xDC00..=0xDFFF => None,
            0xD800..=0xDBFF => {
                (b.get(i + 5..i + 7) == Some(b"\\u")).then_some(())?;
                (0xDC00..=0xDFFF).contains(&hex4(b, i + 7)?).then_some(i + 11)
            }
            _ => Some(i + 5),
        },
        _ => None,
    }
}

/// A value on a [`Tape`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node<'t> {
    tape: &'t Tape,
    text: &'t str,
    at: usize,
}

impl<'t> Node<'t> {
    fn tok(self) -> Option<Tok> {
        self.tape.toks.get(self.at).copied()
    }

    fn kind(self) -> Option<Kind> {
        self.tok().map(|t| t.kind)
    }

    fn raw(self) -> &'t str {
        self.tok().and_then(|t| self.text.get(t.start as usize..t.end as usize)).unwrap_or_default()
    }

    pub(crate) fn nth(self, at: usize) -> Node<'t> {
        Node { at, ..self }
    }

    /// The values inside an array or object, in order.
    fn children(self) -> Children<'t> {
        let (i, end) = match self.tok() {
            Some(t) if matches!(t.kind, Kind::Array | Kind::Object) => (self.at + 1, t.next as usize),
            _ => (0, 0),
        };
        Children { node: self, i, end }
    }

    /// A member's name, unescaped (for a value that is no member: empty).
    fn name(self) -> Cow<'t, str> {
        let Some(t) = self.tok() else { return Cow::Borrowed("") };
        let raw = self.text.get(t.name_start as usize..t.name_end as usize).unwrap_or_default();
        if t.name_escaped { Str::Json(raw).cow() } else { Cow::Borrowed(raw) }
    }

    /// An object's members: (name, value).
    fn members(self) -> impl Iterator<Item = (Cow<'t, str>, Node<'t>)> {
        let object = self.kind() == Some(Kind::Object);
        self.children().filter(move |_| object).map(|v| (v.name(), v))
    }

    /// The string's content, unescaped.
    fn cow(self) -> Option<Cow<'t, str>> {
        self.text_of().map(Str::cow)
    }

    fn text_of(self) -> Option<Str<'t>> {
        match self.kind()? {
            Kind::Plain => Some(Str::Plain(self.raw())),
            Kind::Escaped => Some(Str::Json(self.raw())),
            _ => None,
        }
    }
}

/// The values inside a container.
struct Children<'t> {
    node: Node<'t>,
    i: usize,
    end: usize,
}

impl<'t> Iterator for Children<'t> {
    type Item = Node<'t>;

    #[inline]
    fn next(&mut self) -> Option<Node<'t>> {
        if self.i >= self.end {
            return None;
        }
        let node = self.node.nth(self.i);
        self.i = node.tok().map_or(self.end, |t| t.next as usize);
        Some(node)
    }
}

impl<'t> Json<'t> for Node<'t> {
    #[inline(always)]
    fn fields<const N: usize>(self, keys: [&str; N]) -> [Option<Self>; N] {
        self.looked();
        let mut out = [None; N];
        let end = match self.tok() {
            Some(t) if t.kind == Kind::Object => t.next as usize,
            _ => return out,
        };
        let mut i = self.at + 1;
        while i < end {
            let Some(value) = self.tape.toks.get(i) else { break };
            let raw = self.text.as_bytes().get(value.name_start as usize..value.name_end as usize).unwrap_or_default();
            let found = if value.name_escaped {
                let name = self.nth(i).name();
                keys.iter().position(|k| *k == name)
            } else {
                keys.iter().position(|k| k.as_bytes() == raw)
            };
            if let Some(k) = found {
                // A repeated name: the last value, as in a `Value`.
                out[k] = Some(self.nth(i));
            }
            i = value.next as usize;
        }
        out
    }

    /// (Counted: a text the readers take is the answer's, or the refusal's.)
    fn text(self) -> Option<Str<'t>> {
        self.tape.seen.text();
        self.text_of()
    }

    /// (A string the readers compare is looked at.)
    fn str(self) -> Option<Cow<'t, str>> {
        self.looked();
        self.cow()
    }

    fn as_u64(self) -> Option<u64> {
        self.looked();
        (self.kind()? == Kind::Number).then_some(())?;
        let raw = self.raw();
        match raw.len() {
            // Up to 19 digits cannot overflow; a sign, a fraction or an exponent is no `u64`.
            1..=19 => raw.bytes().try_fold(0u64, |n, d| d.is_ascii_digit().then(|| n * 10 + u64::from(d - b'0'))),
            _ => raw.parse().ok(),
        }
    }

    fn is_null(self) -> bool {
        self.looked();
        self.kind() == Some(Kind::Null)
    }

    fn is_true(self) -> bool {
        self.looked();
        self.kind() == Some(Kind::True)
    }

    fn is_object(self) -> bool {
        self.looked();
        self.kind() == Some(Kind::Object)
    }

    fn items(self) -> impl Iterator<Item = Self> {
        self.looked();
        match self.kind() {
            Some(Kind::Array) => self.children(),
            _ => Children { node: self, i: 0, end: 0 },
        }
    }

    fn find_member(self, pick: impl Fn(&str) -> bool) -> Option<(Cow<'t, str>, Self)> {
        self.looked();
        let name = self.members().map(|(name, _)| name).find(|n| pick(n))?;
        let [value] = self.fields([name.as_ref()]);
        Some((name, value?))
    }

    fn to_value(self) -> Value {
        self.looked();
        if matches!(self.kind(), Some(Kind::Array | Kind::Object)) {
            self.tape.seen.everything();
        }
        let Some(t) = self.tok() else { return Value::Null };
        let text = match t.kind {
            Kind::Plain | Kind::Escaped => return Value::String(self.cow().unwrap_or_default().into_owned()),
            _ => self.raw(),
        };
        serde_json::from_str(text).unwrap_or(Value::Null)
    }
}

#[cfg(test)]
mod tests;
