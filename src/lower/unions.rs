//! Unions: `anyOf`/`oneOf` distributed over their siblings, each combination
//! of branches built as its own location part (`S ∧ (B1 ∨ B2)` =
//! `(S ∧ B1) ∨ (S ∧ B2)`), and the union node of what was built.

use super::build::any_of;
use super::facts::{Facts, conjoin};
use super::types::TypeSet;
use super::{Fail, FailKind, Lowerer, MAX_BRANCHES, empty};
use crate::closure::{self, Src};
use crate::note::Action;
use serde_json::Value;

impl<'d> Lowerer<'_, 'd> {
    /// `S ∧ (B1 ∨ B2)` = `(S ∧ B1) ∨ (S ∧ B2)`: each branch is lowered with the
    /// siblings merged in, so nothing is lost to a dialect that cannot mix them.
    pub(super) fn distribute(&mut self, f: Box<Facts<'d>>, pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        if let Some(v) = self.union_of_locations(&f, pi, at) {
            return v;
        }
        let Union { combos, if_closed, annotations } = self.combinations(f, pi)?;
        let mut outs: Vec<Value> = Vec::with_capacity(combos.len());
        let outer = self.choices.clone();
        for (c, chosen) in combos {
            // A branch that accepts nothing adds nothing: a `false` schema, no
            // type left, or literals none of which has a type left (OpenAPI's
            // `{"type": "string", "nullable": true, "enum": [null]}` read as draft 4).
            if c.never.is_some() || c.types.is_empty() || c.no_literal_fits() {
                continue;
            }
            // The note of a left-out branch names it: the last union's branch taken.
            let branch = chosen.last().map(|(p, i)| (crate::pointer::push_index(p, *i), union_keyword(p)));
            if self.readings.by_branch {
                self.choices = outer.iter().cloned().chain(chosen).collect();
            }
            // A branch found to accept nothing while built adds nothing either
            // (when only its arrays or objects accept nothing, the rest is kept).
            let whole = empty::mixed(&c).then(|| c.clone());
            let mark = self.mark();
            let v = match (self.build(c, pi, at), whole) {
                (Err(Fail(_, FailKind::Empty)), Some(whole)) => {
                    self.rollback(mark);
                    self.without_parts(&whole, pi, at)
                }
                (v, _) => v,
            };
            self.choices.clone_from(&outer);
            match self.empty_after(mark, v)? {
                Some(v) => push_branch(&mut outs, v),
                None => {
                    let (p, kw) = branch.unwrap_or_else(|| (at.to_owned(), "anyOf"));
                    self.note(&p, kw, Action::Rewritten, EMPTY_BRANCH);
                }
            }
        }
        self.union_of(outs, if_closed, annotations, at)
    }

    /// The combinations of branches [`Self::distribute`] builds, each with the
    /// branches it took. (Its own function, like [`Self::union_of`], so that
    /// the recursion through unions keeps a small stack frame.)
    #[inline(never)]
    fn combinations(&mut self, mut f: Box<Facts<'d>>, pi: &[Src<'d>]) -> Result<Union<'d>, Fail> {
        let unions = std::mem::take(&mut f.unions);
        // Annotations describe the whole location: keep them on the union, once.
        let annotations: Vec<(&str, Value)> = [("title", f.title.take()), ("description", f.description.take())]
            .into_iter()
            .filter_map(|(k, v)| v.filter(|_| self.rules.allows(k)).map(|v| (k, v)))
            .collect();
        let mut product = 1usize;
        let mut used = Vec::new();
        for (kw, p, branches) in unions {
            // One union alone multiplies nothing: it keeps every branch (the
            // output's size limit still holds). The product of several is bounded.
            if used.is_empty() || product.saturating_mul(branches.len()) <= MAX_BRANCHES {
                product *= branches.len().max(1);
                used.push((kw, p, branches));
            } else {
                self.widen(
                    &p,
                    kw,
                    Action::Dropped,
                    "too many branches once distributed over its siblings: dropped (widening)",
                );
            }
        }
        // Each combination remembers which branch of each union it took: its
        // objects close to the keys of those branches (unions close by branch).
        let within = f.types;
        // Keys required beside the unions: each branch's instances have them too.
        let required = f.required.clone();
        let beside: Vec<&str> = required.iter().map(String::as_str).collect();
        let mut combos: Vec<Combo<'d>> = vec![(f, Vec::new())];
        // `oneOf`s apart once closed, in a dialect that may send an object open:
        // exact only if every branch sent is closed (known once they are built).
        let mut if_closed: Vec<(String, &str)> = Vec::new();
        for (kw, p, branches) in used {
            if kw == "oneOf" && branches.len() > 1 {
                if closure::disjoint(self.doc, &branches, within, &beside, closure::Purpose::Exact) {
                    self.note(&p, kw, Action::Rewritten, DISJOINT_ONE_OF);
                } else if self.closed_branches_apart(pi, &p, &branches, (within, &beside)) {
                    if self.rules.open_objects {
                        if_closed.push((p.clone(), kw));
                    } else {
                        self.note(&p, kw, Action::Rewritten, DISJOINT_ONCE_CLOSED);
                    }
                } else {
                    self.widen(&p, kw, Action::Rewritten, ONE_OF_AS_ANY_OF);
                }
            }
            let mut next = Vec::with_capacity(combos.len() * branches.len());
            for (c, chosen) in &combos {
                for (i, b) in branches.iter().enumerate() {
                    let bf = self.facts(std::slice::from_ref(b), &b.1)?;
                    let mut chosen = chosen.clone();
                    chosen.push((p.clone(), i));
                    next.push((Box::new(conjoin(c, bf)), chosen));
                }
            }
            combos = next;
        }
        Ok(Union { combos, if_closed, annotations })
    }

    /// The union node of the branches built.
    #[inline(never)]
    fn union_of(
        &mut self,
        outs: Vec<Value>,
        if_closed: Vec<(String, &str)>,
        annotations: Vec<(&str, Value)>,
        at: &str,
    ) -> Result<Value, Fail> {
        let closed = outs.iter().all(|o| {
            o.get("type").and_then(Value::as_str) == Some("object")
                && o.get("additionalProperties") == Some(&Value::Bool(false))
        });
        for (p, kw) in if_closed {
            if closed {
                self.note(&p, kw, Action::Rewritten, DISJOINT_ONCE_CLOSED);
            } else {
                self.widen(&p, kw, Action::Rewritten, ONE_OF_AS_ANY_OF);
            }
        }
        let mut node = union_node(outs, at)?;
        if let Value::Object(m) = &mut node {
            for (k, v) in annotations.into_iter().rev() {
                if !m.contains_key(k) {
                    m.shift_insert(0, k.to_owned(), v);
                }
            }
        }
        Ok(node)
    }
}

impl<'d> Lowerer<'_, 'd> {
    /// Whether the `oneOf` at `p` (its `branches`, at the location `pi`) is
    /// exclusive once each branch is sent closed: objects close by branch, and
    /// closed this way no value satisfies two branches. (Whether the dialect
    /// sends them closed is the caller's question.)
    pub(super) fn closed_branches_apart(
        &self,
        pi: &[Src<'d>],
        p: &str,
        branches: &[Src<'d>],
        (within, beside): (TypeSet, &[&str]),
    ) -> bool {
        self.readings.by_branch
            && self.readings.close
            && (!self.rules.open_objects || self.rules.prefer_closed)
            && closure::apart_once_closed(
                self.doc,
                pi,
                &self.choices,
                (p, branches),
                (within, beside),
                closure::Purpose::Exact,
            )
    }
}

/// One combination of branches: its merged facts, and the branch it took of
/// each union (the union's pointer, the branch's index).
type Combo<'d> = (Box<Facts<'d>>, Vec<(String, usize)>);

/// The combinations of a location's union branches, to build one by one.
struct Union<'d> {
    combos: Vec<Combo<'d>>,
    /// `oneOf`s exact only if every branch is sent closed.
    if_closed: Vec<(String, &'static str)>,
    /// Annotations of the whole location, kept on the union.
    annotations: Vec<(&'static str, Value)>,
}

/// A union branch (or a combination of branches) found to accept no value.
pub(super) const EMPTY_BRANCH: &str = "a branch that accepts no value adds nothing: left out";
const ONE_OF_AS_ANY_OF: &str = "read as `anyOf` (widening: an answer matching several branches is not excluded)";

/// The note of a `oneOf` of open objects whose closed branches no answer can match twice.
pub(super) const DISJOINT_ONCE_CLOSED: &str = "read as `anyOf`: each branch is sent closed to its own keys, and each requires a key the others do not declare (or give another type), so no answer matches two of them";
/// The note of a `oneOf` proved disjoint and sent as `anyOf`.
pub(super) const DISJOINT_ONE_OF: &str = "read as `anyOf`: its branches are disjoint (distinct types, distinct literals of a required key, or a key one requires and another forbids), so no answer matches two of them";

/// The keyword of the union at pointer `p` (`…/anyOf` or `…/oneOf`).
fn union_keyword(p: &str) -> &'static str {
    if p.ends_with("/oneOf") { "oneOf" } else { "anyOf" }
}

/// Adds a lowered branch to a union's branches, splicing a union in.
pub(super) fn push_branch(outs: &mut Vec<Value>, v: Value) {
    match v {
        Value::Object(m) if m.len() == 1 && m.contains_key("anyOf") => {
            if let Some(Value::Array(inner)) = m.get("anyOf") {
                outs.extend(inner.iter().cloned());
            }
        }
        other => outs.push(other),
    }
}

/// The node of a union's lowered branches, duplicates removed: the one
/// branch itself, or their `anyOf`.
pub(super) fn union_node(outs: Vec<Value>, at: &str) -> Result<Value, Fail> {
    let mut unique: Vec<Value> = Vec::with_capacity(outs.len());
    for o in outs {
        if !unique.contains(&o) {
            unique.push(o);
        }
    }
    match unique.len() {
        0 => Err(Fail::empty(at, "anyOf", "no branch accepts a value")),
        1 => Ok(unique.pop().unwrap_or(Value::Null)),
        _ => Ok(any_of(unique)),
    }
}
