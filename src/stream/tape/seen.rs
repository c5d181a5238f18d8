//! What a text changed since the last one, and what the envelope readers
//! looked at in it (`same` finds the one, the tape's nodes note the other).

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};

/// Most values that may differ from the last text for it to be read so.
pub(super) const MOST: usize = 4;

/// How the text read last differs from the one read before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Changed {
    /// Only in these strings' contents and numbers (none: not at all).
    Only { tokens: [usize; MOST], count: usize },
    /// Otherwise (or there was no text before).
    #[default]
    More,
}

impl Changed {
    /// Nothing changed but the string of token `piece` and values of tokens
    /// the readers did not look at (`looked`).
    pub(crate) fn within(self, piece: usize, looked: u128) -> bool {
        let Changed::Only { tokens, count } = self else { return false };
        tokens
            .iter()
            .take(count)
            .all(|&t| t == piece || 1u128.checked_shl(t as u32).is_some_and(|bit| looked & bit == 0))
    }
}

/// What the readers looked at in a text: the tokens whose values they
/// inspected (the first 128; any later, or any container read whole, counts
/// as everything), and how many strings they took as text. (Atomics only so
/// that a decoder stays `Sync`: one thread writes them, within one push.)
#[derive(Debug, Default)]
pub(super) struct Seen {
    looked: [AtomicU64; 2],
    everything: AtomicBool,
    texts: AtomicU32,
}

impl Seen {
    pub(super) fn everything(&self) {
        self.everything.store(true, Relaxed);
    }

    pub(super) fn text(&self) {
        self.texts.store(self.texts.load(Relaxed).saturating_add(1), Relaxed);
    }

    /// Token `at`'s value was inspected.
    pub(super) fn look(&self, at: usize) {
        match self.looked.get(at / 64) {
            Some(word) => word.store(word.load(Relaxed) | 1 << (at % 64), Relaxed),
            None => self.everything(),
        }
    }

    /// The tokens looked at (all of them, past the first 128 or when a
    /// container was read whole).
    pub(super) fn looked(&self) -> u128 {
        if self.everything.load(Relaxed) {
            return u128::MAX;
        }
        let [low, high] = &self.looked;
        u128::from(low.load(Relaxed)) | u128::from(high.load(Relaxed)) << 64
    }

    /// One string was taken as text, and token `at`'s value was not looked at.
    pub(super) fn passed_through(&self, at: usize) -> bool {
        let bit = u32::try_from(at).ok().and_then(|at| 1u128.checked_shl(at)).unwrap_or(u128::MAX);
        self.texts.load(Relaxed) == 1 && self.looked() & bit == 0
    }
}
