//! What accepts no value. [`FailKind::Empty`] is only ever said when the
//! whole location accepts nothing: a part that accepts nothing (an optional
//! property, an element position, the objects of a location that also allows
//! strings) is caught where the location still accepts values, and what was
//! lowered on the way is undone ([`Lowerer::mark`], [`Lowerer::empty_after`]).
//! So a union may leave out a branch that accepts nothing, exactly.

use super::build::has_object_facts;
use super::facts::Facts;
use super::types::TypeSet;
use super::{Fail, FailKind, Lowerer};
use crate::closure::Src;
use crate::note::Action;
use serde_json::Value;

/// Where a lowering stood ([`Lowerer::mark`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub(super) notes: usize,
    pub(super) exact: bool,
    blockers: usize,
    pub(super) defs: usize,
}

impl<'d> Lowerer<'_, 'd> {
    /// Where the notes, blockers and definitions stand, to go back to with
    /// [`Self::empty_after`].
    pub(crate) fn mark(&self) -> Mark {
        Mark { notes: self.notes.len(), exact: self.exact, blockers: self.blockers.len(), defs: self.defs.len() }
    }

    /// `result`, lowered since `mark`; when it found its location accepts no
    /// value, what it noted, listed and registered on the way is undone and
    /// the answer is `None`. (A mark rather than a closure: no stack frames
    /// are added to the recursion.)
    pub(crate) fn empty_after<T>(&mut self, mark: Mark, result: Result<T, Fail>) -> Result<Option<T>, Fail> {
        match result {
            Ok(v) => Ok(Some(v)),
            Err(Fail(_, FailKind::Empty)) => {
                self.rollback(mark);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Undoes what was noted, listed and registered since `mark`.
    pub(crate) fn rollback(&mut self, mark: Mark) {
        self.notes.truncate(mark.notes);
        self.exact = mark.exact;
        self.blockers.truncate(mark.blockers);
        self.defs.truncate(mark.defs);
    }
}

/// Whether arrays or objects that accept no value would not empty the
/// location of `f`: it allows other types too ([`Lowerer::without_parts`]).
pub(super) fn mixed(f: &Facts<'_>) -> bool {
    let (array, object) = (TypeSet { array: true, ..TypeSet::NONE }, TypeSet::object_only());
    let parts = (f.types.array && (!f.array_nodes.is_empty() || f.min_items.is_some()))
        || (f.types.object && has_object_facts(f));
    parts && f.types != array && f.types != object
}

impl<'d> Lowerer<'_, 'd> {
    /// [`Self::without_parts`] of the location `own`, its facts merged again.
    #[inline(never)]
    pub(super) fn refacts_without_parts(&mut self, own: &[Src<'d>], pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        let whole = self.facts(own, at)?;
        self.without_parts(&whole, pi, at)
    }

    /// A location that allows arrays or objects and other types ([`mixed`]),
    /// found to accept no value: its arrays or objects may be what accepts
    /// nothing, so it is built again without objects, then without arrays,
    /// then without both; the first that builds is the answer. (A reason that
    /// is not theirs stays in each: then the location does accept nothing.)
    #[inline(never)]
    pub(super) fn without_parts(&mut self, whole: &Facts<'d>, pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        for (object, array, gone) in
            [(false, true, "object"), (true, false, "array"), (false, false, "array or object")]
        {
            if whole.types.object == object && whole.types.array == array {
                continue; // nothing left out
            }
            let mut f = Box::new(whole.clone());
            f.types.object &= object;
            f.types.array &= array;
            let mark = self.mark();
            let v = self.build(f, pi, at);
            if let Some(v) = self.empty_after(mark, v)? {
                self.note(
                    at,
                    "type",
                    Action::Rewritten,
                    format!("no {gone} is valid here: only the other types are sent"),
                );
                return Ok(v);
            }
        }
        Err(Fail::empty(at, "type", "no type is allowed here: the schema accepts no value"))
    }
}
