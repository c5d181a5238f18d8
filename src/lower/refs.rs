//! References kept as references: a plain `$ref`, and a union whose branches
//! are plain `$ref`s, lowered once into `$defs` (recursion kept) when the
//! dialect resolves references. And where inlining them recurs.

use super::facts::Facts;
use super::types::TypeSet;
use super::unions::{DISJOINT_ONCE_CLOSED, DISJOINT_ONE_OF, EMPTY_BRANCH, push_branch, union_node};
use super::{Fail, Lowerer};
use crate::closure::{self, Src};
use crate::note::Action;
use crate::pointer;
use serde_json::{Map, Value};

impl<'d> Lowerer<'_, 'd> {
    /// Whether following the reference at `at` to `target` (at `ptr`), already
    /// being inlined on this path, recurs: only when `at` lies in what `target`
    /// reaches (its subtree, and those its references lead to). A target met
    /// again elsewhere (a sibling `allOf` part, the branch beside the one that
    /// followed it) is inlined again; a real cycle is still cut, at the latest
    /// when one of its references is met the second time.
    pub(super) fn recurs(&mut self, target: &'d Value, ptr: &str, at: &str) -> bool {
        if !self.reach.contains_key(ptr) {
            let roots = reach(self.doc, target, ptr);
            self.reach.insert(ptr.to_owned(), roots);
        }
        self.reach.get(ptr).is_none_or(|roots| roots.iter().any(|r| pointer::below(at, r).is_some()))
    }

    /// A location held by one plain `$ref` (nothing beside it but annotations
    /// and definitions), where the projection sees nothing else, is sent as a
    /// reference when the dialect resolves them: its target is lowered once,
    /// in the same context (the projection's view of the target is the target).
    pub(super) fn pass_through(&mut self, own: &[Src<'d>], pi: &[Src<'d>], at: &str) -> Option<Result<Value, Fail>> {
        if !self.rules.refs || at.is_empty() || own.len() != 1 || pi.len() != 1 || own[0].1 != pi[0].1 {
            return None;
        }
        let Value::Object(map) = own[0].0 else { return None };
        let (r, aside) = held_ref(map)?;
        let (target, ptr) = crate::closure::resolve(self.doc, r)?;
        // A title or description beside the reference, or a wrapper around it,
        // is kept by inlining the target; only where inlining would cut a
        // recursion is the bare reference sent instead (a dialect that resolves
        // references refuses keywords beside them).
        if aside {
            if !self.recurs(target, &ptr, at) {
                return None;
            }
            self.note(at, "$ref", Action::Rewritten, RECURSION_KEPT);
        }
        if let Some((_, name, _)) = self.defs.iter().find(|(p, _, _)| *p == ptr) {
            return Some(Ok(reference(name)));
        }
        let name = def_name(&ptr, self.defs.len(), &self.defs);
        self.defs.push((ptr.clone(), name.clone(), None));
        let src = (target, ptr.clone());
        let lowered = self.location(std::slice::from_ref(&src), std::slice::from_ref(&src), &ptr);
        match lowered {
            Ok(v) => {
                if let Some(slot) = self.defs.iter_mut().find(|(p, _, _)| *p == ptr) {
                    slot.2 = Some(v);
                }
                Some(Ok(reference(&name)))
            }
            Err(e) => Some(Err(e)),
        }
    }

    /// A location that is one union and nothing else (annotations aside),
    /// read by branch, where the projection sees nothing else either: each
    /// branch is its own location, so a branch that is a plain `$ref` stays a
    /// reference ([`Self::pass_through`]) and recursion through a union of
    /// references (Pydantic's recursive discriminated unions) is kept instead
    /// of cut. `None` when the location is not such a union.
    pub(super) fn union_of_locations(
        &mut self,
        f: &Facts<'d>,
        pi: &[Src<'d>],
        at: &str,
    ) -> Option<Result<Value, Fail>> {
        let [(kw, p, branches)] = f.unions.as_slice() else { return None };
        if !self.rules.refs
            || !self.readings.by_branch
            || pi.len() != 1
            || pi[0].1 != at
            || !f.only_unions()
            || !branches.iter().any(|b| holds_ref(b.0))
        {
            return None;
        }
        if *kw == "oneOf" {
            let beside: Vec<&str> = f.required.iter().map(String::as_str).collect();
            if closure::disjoint(self.doc, branches, TypeSet::ALL, &beside, closure::Purpose::Exact) {
                self.note(p, kw, Action::Rewritten, DISJOINT_ONE_OF);
            } else if !self.rules.open_objects && self.closed_branches_apart(pi, p, branches, (TypeSet::ALL, &beside)) {
                self.note(p, kw, Action::Rewritten, DISJOINT_ONCE_CLOSED);
            } else {
                return None;
            }
        }
        let mut outs: Vec<Value> = Vec::with_capacity(branches.len());
        for b in branches {
            let one = std::slice::from_ref(b);
            let mark = self.mark();
            let v = self.location(one, one, &b.1);
            match self.empty_after(mark, v) {
                Ok(Some(v)) => push_branch(&mut outs, v),
                Ok(None) => self.note(&b.1, kw, Action::Rewritten, EMPTY_BRANCH),
                Err(e) => return Some(Err(e)),
            }
        }
        let mut node = match union_node(outs, at) {
            Ok(node) => node,
            Err(e) => return Some(Err(e)),
        };
        if let Value::Object(m) = &mut node {
            for (k, v) in [("description", &f.description), ("title", &f.title)] {
                if let Some(v) = v.clone().filter(|_| self.rules.allows(k))
                    && !m.contains_key(k)
                {
                    m.shift_insert(0, k.to_owned(), v);
                }
            }
        }
        Some(Ok(node))
    }
}

/// The document subtrees inlining `target` (at `ptr`) may walk: its own, and
/// those its references lead to, transitively. Every member is walked, data
/// included: reaching too much only cuts a reference that need not be.
fn reach(doc: &crate::analysis::Doc<'_>, target: &Value, ptr: &str) -> Vec<String> {
    let mut roots = vec![ptr.to_owned()];
    let mut work = vec![target];
    while let Some(v) = work.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref")
                    && let Some((t, p)) = closure::resolve(doc, r)
                    && !roots.iter().any(|root| pointer::below(&p, root).is_some())
                {
                    roots.push(p);
                    work.push(t);
                }
                work.extend(m.values());
            }
            Value::Array(items) => work.extend(items),
            _ => {}
        }
    }
    roots
}

/// Why a described or wrapped reference is sent bare.
const RECURSION_KEPT: &str = "sent as a bare reference to keep the recursion: the title or description \
    beside it, or the one-part `allOf`, `anyOf` or `oneOf` around it, is set aside (annotations only)";

/// A schema that holds one reference: a `$ref` beside annotations only, or a
/// one-part `allOf` (or one-branch `anyOf`/`oneOf`, which means the same)
/// around such a schema, beside annotations only, as generators write a
/// reference with a description beside it for drafts that ignore `$ref`'s
/// siblings. The reference, and whether a title, description
/// or wrapper would be set aside by sending it bare.
fn held_ref(map: &Map<String, Value>) -> Option<(&str, bool)> {
    let mut map = map;
    let mut aside = false;
    loop {
        for k in map.keys() {
            match k.as_str() {
                "title" | "description" => aside = true,
                "allOf" | "anyOf" | "oneOf" => {}
                k if plain_key(k) => {}
                _ => return None,
            }
        }
        let wrapper = ["allOf", "anyOf", "oneOf"].into_iter().filter_map(|k| map.get(k)).collect::<Vec<_>>();
        match (map.get("$ref"), wrapper.as_slice()) {
            (Some(r), []) => return r.as_str().map(|r| (r, aside)),
            (None, [Value::Array(parts)]) => match parts.as_slice() {
                [Value::Object(inner)] => {
                    map = inner;
                    aside = true;
                }
                _ => return None,
            },
            _ => return None,
        }
    }
}

/// A schema that holds one reference, plain or not ([`held_ref`]).
fn holds_ref(v: &Value) -> bool {
    v.as_object().and_then(held_ref).is_some()
}

fn plain_key(k: &str) -> bool {
    matches!(k, "$ref" | "$defs" | "definitions" | "$comment")
        || (crate::vocab::is_annotation(k) && k != "title" && k != "description")
}

fn reference(name: &str) -> Value {
    let mut m = Map::new();
    m.insert("$ref".to_owned(), Value::String(format!("#/$defs/{name}")));
    Value::Object(m)
}

/// A `$defs` name for the target at `ptr`: its own name when it has a plain one.
fn def_name(ptr: &str, n: usize, taken: &[(String, String, Option<Value>)]) -> String {
    let last = ptr.rsplit('/').next().unwrap_or_default();
    let plain = !last.is_empty()
        && last.len() <= 48
        && last.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    let from_defs = ptr.starts_with("/$defs/") || ptr.starts_with("/definitions/");
    let is_taken = |name: &str| taken.iter().any(|(_, t, _)| t == name);
    if plain && from_defs && !is_taken(last) {
        return last.to_owned();
    }
    // A generated name never takes one already given (the caller's own names included).
    (n..).map(|i| format!("ref{i}")).find(|name| !is_taken(name)).unwrap_or_default()
}
