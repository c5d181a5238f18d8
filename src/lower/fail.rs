//! Why a location, or a whole lowering, fails.

use crate::note::{Action, Note};

/// A location the dialect cannot express, or one that accepts no value.
#[derive(Debug)]
pub(crate) struct Fail(pub(crate) Note, pub(crate) FailKind);

/// Why a location failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailKind {
    /// The dialect cannot say it (a reversible rewrite may carry it instead).
    Inexpressible,
    /// The location accepts no value at all. Only ever said when certain: a
    /// part that accepts nothing (an optional property, an element position)
    /// is caught where the location still accepts values, so that a union may
    /// leave such a branch out.
    Empty,
    /// The output grew past the lowering's size or nesting limit (inlined
    /// references): nothing further is worth lowering.
    Limit,
}

/// Why a whole lowering failed: every location the dialect cannot express
/// (up to [`MAX_BLOCKERS`](super::MAX_BLOCKERS), in document order), or the one failure that
/// stopped it (a location accepting nothing, a limit).
#[derive(Debug)]
pub(crate) struct Blocked(pub(crate) Vec<Note>);

impl From<Fail> for Blocked {
    fn from(f: Fail) -> Blocked {
        Blocked(vec![f.0])
    }
}

impl Blocked {
    /// The first reason.
    #[cfg(test)]
    pub(crate) fn first(&self) -> Option<&Note> {
        self.0.first()
    }
}

impl Fail {
    /// This failure, unless it says the location accepts no value: then the
    /// same reason as one the dialect cannot express. For a part of a location
    /// (its objects, a map's values) whose emptiness does not empty the whole,
    /// so that [`FailKind::Empty`] always means the whole location.
    pub(crate) fn not_empty(self) -> Fail {
        match self {
            Fail(why, FailKind::Empty) => Fail(why, FailKind::Inexpressible),
            other => other,
        }
    }

    pub(crate) fn new(at: &str, keyword: &str, reason: impl Into<String>) -> Fail {
        Fail(Note::new(at, keyword, Action::Degraded, reason), FailKind::Inexpressible)
    }

    /// A location that accepts no value.
    pub(crate) fn empty(at: &str, keyword: &str, reason: impl Into<String>) -> Fail {
        Fail(Note::new(at, keyword, Action::Degraded, reason), FailKind::Empty)
    }

    pub(super) fn limit(at: &str, reason: &str) -> Fail {
        Fail(Note::new(at, "", Action::Degraded, reason), FailKind::Limit)
    }
}
