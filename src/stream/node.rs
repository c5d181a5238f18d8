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
/// appended to `out`. The bytes are gathered in a buffer on the stack and
/// appended a block at a time: the pieces of a stream are short and full of
/// escapes, and appending run by run and character by character cost three
/// times as much.
fn unescape_into(raw: &str, out: &mut String) {
    /// Room for a block and the longest character after it.
    const BLOCK: usize = 124;
    let b = raw.as_bytes();
    let mut buf = [0u8; BLOCK + 4];
    let mut n = 0;
    let mut i = 0;
    out.reserve(raw.len());
    while let Some(&c) = b.get(i) {
        // A full block goes out where a character starts (never inside one,
        // so that each block is whole UTF-8).
        if n >= BLOCK && (c & 0xC0) != 0x80 {
            append(buf.get(..n).unwrap_or_default(), out);
            n = 0;
        }
        if c != b'\\' {
            if let Some(slot) = buf.get_mut(n) {
                *slot = c;
            }
            (n, i) = (n + 1, i + 1);
            continue;
        }
        let byte = match b.get(i + 1) {
            Some(b'b') => 0x8,
            Some(b'f') => 0xc,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(b'u') => 0,
            Some(&c) => c,
            None => break,
        };
        if byte != 0 {
            if let Some(slot) = buf.get_mut(n) {
                *slot = byte;
            }
            (n, i) = (n + 1, i + 2);
            continue;
        }
        let (c, len) = match hex4(b, i + 2) {
            Some(high @ 0xD800..=0xDBFF) => {
                let low = hex4(b, i + 8).unwrap_or(0xDC00);
                let c = 0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                (char::from_u32(c).unwrap_or('\u{fffd}'), 12)
            }
            n => (n.and_then(char::from_u32).unwrap_or('\u{fffd}'), 6),
        };
        n += buf.get_mut(n..n + c.len_utf8()).map_or(0, |slot| c.encode_utf8(slot).len());
        i += len;
    }
    append(buf.get(..n).unwrap_or_default(), out);
}

/// Whole UTF-8 from [`unescape_into`]'s buffer, appended.
fn append(bytes: &[u8], out: &mut String) {
    match std::str::from_utf8(bytes) {
        Ok(text) => out.push_str(text),
        Err(_) => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}
