//! How a text differs from the one read before, and what the envelope readers
//! looked at in it: what the decoder needs to know that reading an event's
//! envelope again would do what it did for the last one.
//!
//! When the new text is the last one with a few strings' contents or numbers
//! replaced (each still a string or a number, the same bytes around them), its
//! parse is the last one's with those tokens changed and the positions after
//! them moved: no pass is needed.

use super::seen::{Changed, MOST};
use super::{Kind, Node, Tape, number_end, string};
use crate::stream::node::Str;

/// A value that changed: its token, where it ended in the last text, and how
/// far the positions right after it move (by it and every change before it).
#[derive(Debug, Clone, Copy, Default)]
struct Moved {
    token: usize,
    old_end: usize,
    shift: isize,
    escaped: bool,
}

impl Tape {
    /// How `text` differs from the last text; when only in a few strings and
    /// numbers, the tokens are set for `text` here.
    pub(super) fn compare(&mut self, text: &str) -> Changed {
        let mut moved = [Moved::default(); MOST];
        let Some(count) = self.differences(text, &mut moved) else { return Changed::More };
        let moved = moved.get(..count).unwrap_or_default();
        self.apply(moved);
        let mut tokens = [0; MOST];
        for (t, m) in tokens.iter_mut().zip(moved) {
            *t = m.token;
        }
        Changed::Only { tokens, count }
    }

    /// The values that differ (into `moved`; how many), when the texts differ
    /// only inside strings and numbers (each the same kind of value still)
    /// and in at most [`MOST`].
    fn differences(&self, text: &str, moved: &mut [Moved; MOST]) -> Option<usize> {
        let (old, new) = (self.last.as_slice(), text.as_bytes());
        if old.is_empty() {
            return None;
        }
        let mut count = 0;
        let (mut i, mut j) = (0, 0);
        // (The values holding the differences come in order, and events have
        // few: a scan beats a binary search.)
        let mut at = 0;
        loop {
            let same = common_prefix(old.get(i..)?, new.get(j..)?);
            (i, j) = (i + same, j + same);
            if i == old.len() && j == new.len() {
                return Some(count);
            }
            // The value holding the difference: a string (its content, or its
            // closing quote) or a number (or the byte after it); a later one
            // than the last that changed.
            let first = at;
            while self.toks.get(at + 1).is_some_and(|t| t.start as usize <= i) {
                at += 1;
            }
            let t = self.toks.get(at)?;
            let (start, end) = (t.start as usize, t.end as usize);
            if i < start || i > end || count == MOST || (count > 0 && at == first) {
                return None;
            }
            let earlier = count.checked_sub(1).and_then(|c| moved.get(c)).map_or(0, |m| m.shift);
            let from = start.checked_add_signed(earlier)?;
            let (new_end, escaped) = match t.kind {
                Kind::Plain | Kind::Escaped => string(new, from - 1)?,
                Kind::Number => (number_end(text, from)?, false),
                _ => return None,
            };
            let shift = new_end as isize - end as isize;
            *moved.get_mut(count)? = Moved { token: at, old_end: end, shift, escaped };
            count += 1;
            (i, j) = (end, new_end);
        }
    }

    /// Sets the tokens for the new text: the changed ones end where they now
    /// end, and the positions after each move by the shifts so far.
    fn apply(&mut self, moved: &[Moved]) {
        // Each change moves what lies after it by its own difference; nothing
        // but a changed value's own end lies at its old end.
        let mut after = [(0, 0isize); MOST];
        let mut before = 0;
        for (a, m) in after.iter_mut().zip(moved) {
            *a = (m.old_end, m.shift - before);
            before = m.shift;
        }
        let after = after.get(..moved.len()).unwrap_or_default();
        let place = |x: u32| {
            let shift: isize = after.iter().map(|&(end, d)| if x as usize > end { d } else { 0 }).sum();
            (x as usize).wrapping_add_signed(shift) as u32
        };
        let by = |x: u32, shift: isize| (x as usize).wrapping_add_signed(shift) as u32;
        // Tokens lie in the order their values start: a token between two
        // changed ones moves by the shift of the first, but a container's end
        // may lie after later changes.
        let mut shift = 0;
        let mut from = 0;
        for m in moved.iter().map(Some).chain([None]) {
            let upto = m.map_or(self.toks.len(), |m| m.token);
            for tok in self.toks.get_mut(from..upto).unwrap_or_default() {
                let end =
                    if matches!(tok.kind, Kind::Array | Kind::Object) { place(tok.end) } else { by(tok.end, shift) };
                (tok.start, tok.end, tok.name_start, tok.name_end) =
                    (by(tok.start, shift), end, by(tok.name_start, shift), by(tok.name_end, shift));
            }
            let Some(m) = m else { break };
            if let Some(tok) = self.toks.get_mut(m.token) {
                (tok.start, tok.name_start, tok.name_end) =
                    (by(tok.start, shift), by(tok.name_start, shift), by(tok.name_end, shift));
                tok.end = by(m.old_end as u32, m.shift);
                if tok.kind != Kind::Number {
                    tok.kind = if m.escaped { Kind::Escaped } else { Kind::Plain };
                }
            }
            (shift, from) = (m.shift, m.token + 1);
        }
    }
}

impl Node<'_> {
    /// How this text differs from the one read before it.
    pub(crate) fn changed(self) -> Changed {
        self.tape.changed
    }

    /// The tokens the readers looked at (all, past the first 128 or when they
    /// read a container whole).
    pub(crate) fn looked_at(self) -> u128 {
        self.tape.seen.looked()
    }

    /// The readers inspected this value.
    pub(super) fn looked(self) {
        self.tape.seen.look(self.at);
    }

    /// The token of the string `s` took its text from, if one of this text's.
    pub(crate) fn token_of(self, s: Str<'_>) -> Option<usize> {
        let (Str::Plain(raw) | Str::Json(raw)) = s;
        let offset = (raw.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        self.tape.toks.iter().position(|t| {
            matches!(t.kind, Kind::Plain | Kind::Escaped)
                && t.start as usize == offset
                && t.end as usize == offset + raw.len()
        })
    }

    /// The readers took one string as text, token `at`'s, and looked at
    /// nothing else in it: what they did depends on where it lies, not on
    /// what it says.
    pub(crate) fn passed_through(self, at: usize) -> bool {
        self.tape.seen.passed_through(at)
    }
}

/// How many bytes `a` and `b` begin with alike.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut i = 0;
    while let (Some(x), Some(y)) = (a.get(i..i + 16), b.get(i..i + 16)) {
        let word = |w: &[u8]| u128::from_le_bytes(w.try_into().unwrap_or_default());
        let diff = word(x) ^ word(y);
        if diff != 0 {
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 16;
    }
    let (a, b) = (a.get(i..).unwrap_or_default(), b.get(i..).unwrap_or_default());
    i + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}
