//! Why a location, or a whole lowering, fails, and what a failed location
//! becomes (rebuilt without its empty parts, a JSON-text string, a blocker).

use super::{JSON_TEXT, Lowerer, MAX_BLOCKERS, empty};
use crate::closure::Src;
use crate::note::{Action, Note};
use serde_json::{Map, Value, json};

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
/// (up to [`MAX_BLOCKERS`], in document order), or the one failure that
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

impl<'d> Lowerer<'_, 'd> {
    /// What a location's failure becomes: the location rebuilt without its
    /// arrays or objects when only they accept nothing, a string holding JSON
    /// text under reshape, or a blocker listed.
    #[inline(never)]
    pub(super) fn settle(
        &mut self,
        out: Result<Value, Fail>,
        mixed: bool,
        mark: empty::Mark,
        depth: usize,
        (own, pi, at): (&[Src<'d>], &[Src<'d>], &str),
    ) -> Result<Value, Fail> {
        // Arrays or objects that accept nothing empty the location only when
        // it allows nothing else.
        let out = match out {
            Err(Fail(_, FailKind::Empty)) if mixed => {
                self.rollback(mark);
                self.ref_stack.truncate(depth);
                self.refacts_without_parts(own, pi, at)
            }
            out => out,
        };
        let out = match out {
            Err(Fail(mut why, kind @ (FailKind::Inexpressible | FailKind::Limit)))
                if self.encodings && at.is_empty() =>
            {
                why.reason.push_str(
                    "; reshape never sends the whole answer as a string of JSON text, which would promise less than JSON mode",
                );
                Err(Fail(why, kind))
            }
            out => out,
        };
        match out {
            // Never the whole answer: a root sent as one string would promise
            // less than JSON mode (the string need not even be JSON).
            Err(Fail(why, FailKind::Inexpressible | FailKind::Limit)) if self.encodings && !at.is_empty() => {
                // What was noted inside is replaced by the string: keep only the
                // reason. Definitions first met inside go too: nothing refers to them.
                self.notes.truncate(mark.notes);
                self.exact = mark.exact;
                self.defs.truncate(mark.defs);
                Ok(self.json_text(at, &why))
            }
            // Without encodings the lowering fails, but first it lists every
            // location it cannot express: this one stands in as a string.
            Err(Fail(why, FailKind::Inexpressible)) if self.blockers.len() + 1 < MAX_BLOCKERS => {
                self.notes.truncate(mark.notes);
                self.exact = mark.exact;
                self.blockers.push(why);
                Ok(json!({"type": "string"}))
            }
            Err(Fail(why, FailKind::Inexpressible)) if !self.blockers.is_empty() => {
                self.blockers.push(why);
                Err(Fail::limit(
                    "",
                    "more locations may follow that the dialect cannot express: only the first are listed",
                ))
            }
            other => other,
        }
    }
}

impl Lowerer<'_, '_> {
    /// The elements of an array that says nothing of them, each sent as a
    /// string holding its JSON text (reshape), where the dialect cannot say
    /// "any value": the array itself stays an array.
    pub(super) fn elements_as_json_text(&mut self, at: &str) -> Value {
        self.widen(
            at,
            "items",
            Action::Rewritten,
            "reshape: array elements of any type cannot be expressed in this dialect, so each is sent as a string holding its JSON text; decode parses each and validates the whole answer (widening: the strings may hold any text)",
        );
        json_text_node()
    }

    /// A location sent as a string holding its JSON text (reshape).
    fn json_text(&mut self, at: &str, why: &Note) -> Value {
        let spot =
            if why.pointer == at || why.pointer.is_empty() { "here".to_owned() } else { format!("at {}", why.pointer) };
        self.widen(
            at,
            "",
            Action::Rewritten,
            format!(
                "reshape: {} ({spot}), so it is sent as a string holding its JSON text; decode parses it and validates the whole answer (widening: the string may hold any text)",
                why.reason
            ),
        );
        json_text_node()
    }
}

/// A string holding a value's JSON text, marked for `decode` ([`JSON_TEXT`]).
pub(crate) fn json_text_node() -> Value {
    let mut m = Map::new();
    m.insert("type".to_owned(), Value::String("string".to_owned()));
    m.insert(JSON_TEXT.to_owned(), Value::Bool(true));
    Value::Object(m)
}
