//! What the envelope readers ask of an event, whether the caller parsed it
//! (`&Value`) or gave its text (read in place by `tape`, which builds on this
//! module: its strings are [`Str`]s, undone here).

use serde_json::Value;
use std::borrow::Cow;

/// A string of an event: as it is, or as JSON writes it (escapes not yet undone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Str<'v> {
    Plain(&'v str),
    /// A string's content between its quotes, escapes and all (valid).
    Json(&'v str),
}

impl<'v> Str<'v> {
    /// Appends the string to `out`, escapes undone.
    pub(crate) fn push_to(self, out: &mut String) {
        match self {
            Str::Plain(s) => out.push_str(s),
            Str::Json(raw) => unescape_into(raw, out),
        }
    }

    pub(crate) fn cow(self) -> Cow<'v, str> {
        match self {
            Str::Plain(s) => Cow::Borrowed(s),
            Str::Json(_) => {
                let mut out = String::new();
                self.push_to(&mut out);
                Cow::Owned(out)
            }
        }
    }
}

/// A JSON value of an event, read without copying it.
pub(crate) trait Json<'v>: Copy {
    /// `[self[keys[0]], self[keys[1]], …]` in one pass over the members (a
    /// repeated name: its last value).
    fn fields<const N: usize>(self, keys: [&str; N]) -> [Option<Self>; N];
    fn text(self) -> Option<Str<'v>>;
    fn as_u64(self) -> Option<u64>;
    fn is_null(self) -> bool;
    fn is_true(self) -> bool;
    fn is_object(self) -> bool;
    /// An array's items (none for any other value).
    fn items(self) -> impl Iterator<Item = Self>;
    /// The first member (in the order of first appearance) whose name `pick`
    /// accepts: its name and value.
    fn find_member(self, pick: impl Fn(&str) -> bool) -> Option<(Cow<'v, str>, Self)>;
    /// An owned copy.
    fn to_value(self) -> Value;

    /// `self[key]`.
    #[inline(always)]
    fn at(self, key: &str) -> Option<Self> {
        let [v] = self.fields([key]);
        v
    }

    /// The string, escapes undone.
    fn str(self) -> Option<Cow<'v, str>> {
        self.text().map(Str::cow)
    }
}

impl<'v> Json<'v> for &'v Value {
    /// Events are small objects, and scanning their few members beats hashing
    /// the key (`Value::get`), which cost more than reading the answer.
    /// Inlined, so that comparing with a constant name needs no `memcmp` call.
    #[inline(always)]
    fn fields<const N: usize>(self, keys: [&str; N]) -> [Option<Self>; N] {
        let mut out = [None; N];
        if let Value::Object(m) = self {
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

    fn text(self) -> Option<Str<'v>> {
        self.as_str().map(Str::Plain)
    }

    fn as_u64(self) -> Option<u64> {
        Value::as_u64(self)
    }

    fn is_null(self) -> bool {
        Value::is_null(self)
    }

    fn is_true(self) -> bool {
        self == &Value::Bool(true)
    }

    fn is_object(self) -> bool {
        Value::is_object(self)
    }

    fn items(self) -> impl Iterator<Item = Self> {
        self.as_array().into_iter().flatten()
    }

    fn find_member(self, pick: impl Fn(&str) -> bool) -> Option<(Cow<'v, str>, Self)> {
        self.as_object()?.iter().find(|(k, _)| pick(k)).map(|(k, v)| (Cow::Borrowed(k.as_str()), v))
    }

    fn to_value(self) -> Value {
        self.clone()
    }
}

/// Four hex digits at `i`, as a `\u` escape writes them.
pub(super) fn hex4(b: &[u8], i: usize) -> Option<u32> {
    let digits = std::str::from_utf8(b.get(i..i + 4)?).ok()?;
    digits.bytes().all(|c| c.is_ascii_hexdigit()).then(|| u32::from_str_radix(digits, 16).ok())?
}

/// A string's content (between its quotes, valid) with its escapes undone,
/// appended to `out`. (A plain loop: the pieces are short, and `memchr`'s
/// start-up cost more than it saved.)
fn unescape_into(raw: &str, out: &mut String) {
    // Short ASCII runs are pushed byte by byte: a call to copy a few bytes
    // costs more than the bytes.
    let push_run = |out: &mut String, run: &str| {
        if run.len() <= 16 && run.is_ascii() {
            run.bytes().for_each(|b| out.push(char::from(b)));
        } else {
            out.push_str(run);
        }
    };
    out.reserve(raw.len());
    let b = raw.as_bytes();
    let mut from = 0;
    let mut at = 0;
    while at < b.len() {
        if b[at] != b'\\' {
            at += 1;
            continue;
        }
        push_run(out, raw.get(from..at).unwrap_or_default());
        let (c, len) = match b.get(at + 1) {
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => match hex4(b, at + 2) {
                Some(high @ 0xD800..=0xDBFF) => {
                    let low = hex4(b, at + 8).unwrap_or(0xDC00);
                    let c = 0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                    (char::from_u32(c).unwrap_or('\u{fffd}'), 12)
                }
                n => (n.and_then(char::from_u32).unwrap_or('\u{fffd}'), 6),
            },
            Some(&c) => (char::from(c), 2),
            None => break,
        };
        out.push(c);
        at += len;
        from = at;
    }
    push_run(out, raw.get(from..).unwrap_or_default());
}
