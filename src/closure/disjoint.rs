//! Disjointness of union branches: when a `oneOf` may be read as `anyOf`.

use super::{Choices, Doc, MAX_GATHERED, Src, resolve};
use crate::types::TypeSet;
use crate::vocab;
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// What a disjointness proof must establish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// No value satisfies two branches, so reading the `oneOf` as `anyOf`
    /// changes nothing.
    Exact,
    /// Projecting a valid instance by the one branch it satisfies cannot make
    /// it satisfy a second: the projection never changes a scalar, so only
    /// objects and arrays need telling apart.
    Projection,
}

/// Pairwise beyond this many branches is not attempted (no proof, no claim).
const MAX_PAIRWISE: usize = 128;

/// Whether the branches of a `oneOf`, at a location whose values have a type
/// in `within`, are provably disjoint for `purpose`. Two branches are apart
/// when their possible types do not meet, or when they meet only in objects
/// and a key tells them apart: both require it and pin it to disjoint scalar
/// literals (a discriminator), or one requires it and the other forbids it
/// (a closed object that does not declare it: serde's externally tagged
/// enums). Only what every instance of a branch must satisfy counts: its own
/// node, `allOf` parts and `$ref` targets; a nested union contributes the
/// union of its branches' types, never an intersection. `required` says
/// nothing about a value that is not an object, so a key never separates
/// branches that both admit some other type.
///
/// `beside` are the keys the location requires outside the union (a tag
/// required beside a `oneOf` whose branches pin it): every instance of every
/// branch there has them too.
pub(crate) fn disjoint<'a>(
    doc: &Doc<'a>,
    branches: &[Src<'a>],
    within: TypeSet,
    beside: &[&'a str],
    purpose: Purpose,
) -> bool {
    if branches.len() < 2 {
        return true;
    }
    if branches.len() > MAX_PAIRWISE {
        return false;
    }
    let facts: Vec<Branch<'a>> = branches.iter().map(|b| Branch::of(doc, b, 0, beside)).collect();
    let compared = match purpose {
        Purpose::Exact => within,
        Purpose::Projection => within.intersect(TypeSet { object: true, array: true, ..TypeSet::NONE }),
    };
    facts.iter().enumerate().all(|(i, a)| facts[i + 1..].iter().all(|b| apart(a, b, compared)))
}

/// For each of `branches`, whether some other branch may share a value with
/// it ([`disjoint`]'s proof, pair by pair; each branch read once, so no bound
/// on how many: the answer for a pair is the one [`disjoint`] gives for it).
pub(crate) fn overlapping<'a>(doc: &Doc<'a>, branches: &[Src<'a>], within: TypeSet) -> Vec<bool> {
    let facts: Vec<Branch<'a>> = branches.iter().map(|b| Branch::of(doc, b, 0, &[])).collect();
    (0..facts.len()).map(|i| (0..facts.len()).any(|j| i != j && !apart(&facts[i], &facts[j], within))).collect()
}

/// Whether closing by branch tells apart the branches `srcs` of the `oneOf` at
/// `base`, met gathering `starts` with `choices` ([`apart_with_declared`]):
/// for [`Purpose::Projection`], it may be read by branch; for
/// [`Purpose::Exact`], a dialect that sends each branch closed sends an
/// exclusive union. It needs, for each branch, the keys the location declares
/// when the union is read by that branch, if it is then closable. Those
/// gatherings prove nothing themselves (every other `oneOf` there reads as
/// exclusive, so the location is not closable), which also keeps the proof
/// from recursing.
pub(crate) fn apart_once_closed<'a>(
    doc: &Doc<'a>,
    starts: &[Src<'a>],
    choices: &Choices,
    (base, srcs): (&str, &[Src<'a>]),
    (within, beside): (crate::types::TypeSet, &[&'a str]),
    purpose: Purpose,
) -> bool {
    let declared: Vec<Option<HashSet<&'a str>>> = (0..srcs.len())
        .map(|i| {
            let mut supposed: Vec<(String, usize)> = choices.iter().filter(|(p, _)| p != base).cloned().collect();
            supposed.push((base.to_owned(), i));
            let here = super::gather_inner(doc, starts, &supposed, false);
            here.is_closable().then(|| here.declared().into_iter().collect())
        })
        .collect();
    apart_with_declared(doc, srcs, within, beside, &declared, purpose)
}

/// As [`disjoint`], also using what closing by branch drops. `declared[i]`
/// holds the keys declared at the location when the union is read by branch
/// `i` and that location is closable (`None` otherwise): projecting an
/// instance of branch `i` removes every other key, so a branch that requires
/// one of them cannot accept the projection. Two branches are apart when this
/// holds both ways (each projection fails the other branch), or when
/// [`disjoint`]'s own proof tells them apart. Unions of open models with no
/// literal tag (Pydantic's callable discriminator, Zod's `z.xor` of loose
/// objects) are told apart by their required fields this way.
///
/// For [`Purpose::Exact`] the closed branches themselves are compared: no value
/// with only the keys one branch declares satisfies another, the question a
/// dialect that sends every object closed asks.
fn apart_with_declared<'a>(
    doc: &Doc<'a>,
    branches: &[Src<'a>],
    within: TypeSet,
    beside: &[&'a str],
    declared: &[Option<HashSet<&'a str>>],
    purpose: Purpose,
) -> bool {
    if branches.len() < 2 {
        return true;
    }
    if branches.len() > MAX_PAIRWISE || declared.len() != branches.len() {
        return false;
    }
    let facts: Vec<Branch<'a>> = branches.iter().map(|b| Branch::of(doc, b, 0, beside)).collect();
    let compared = match purpose {
        Purpose::Exact => within,
        Purpose::Projection => within.intersect(TypeSet { object: true, array: true, ..TypeSet::NONE }),
    };
    // The projection of an instance of `b` (keys `kept`) fails `a`: `a`
    // requires a key the projection cannot carry.
    let fails = |a: &Branch<'_>, b: &Branch<'_>, kept: &Option<HashSet<&str>>| {
        a.pinned.iter().any(|(key, _)| {
            b.must.forbids(key) || types_apart(a, b, key) || kept.as_ref().is_some_and(|k| !k.contains(key))
        })
    };
    facts.iter().enumerate().all(|(i, a)| {
        facts.iter().enumerate().skip(i + 1).all(|(j, b)| {
            if apart(a, b, compared) {
                return true;
            }
            let shared = a.types.intersect(b.types).intersect(compared);
            shared == TypeSet::object_only()
                && !(a.must.unknown || b.must.unknown)
                && fails(a, b, &declared[j])
                && fails(b, a, &declared[i])
        })
    })
}

/// What one branch's instances must satisfy, read once for every pair.
struct Branch<'a> {
    types: TypeSet,
    must: Must<'a>,
    /// Each required key with the scalar literals it is pinned to, if any.
    pinned: Vec<(&'a str, Option<Vec<Value>>)>,
    /// Each key some node declares, with the types its value may have.
    key_types: Vec<(&'a str, TypeSet)>,
    /// The branches of a union every instance must satisfy (a nested
    /// `oneOf`/`anyOf`, as Pydantic writes a discriminated union inside
    /// another): each instance satisfies one of them.
    alternatives: Vec<Branch<'a>>,
}

/// Nested unions are looked into this deep.
const MAX_NESTED: usize = 3;

impl<'a> Branch<'a> {
    /// `beside`: keys the location requires outside the branch.
    fn of(doc: &Doc<'a>, src: &Src<'a>, depth: usize, beside: &[&'a str]) -> Branch<'a> {
        let types = type_bound(doc, std::slice::from_ref(src), 0);
        let must = must(doc, std::slice::from_ref(src));
        let mut pinned = Vec::new();
        let mut alternatives = Vec::new();
        let mut key_types = Vec::new();
        if !must.unknown {
            key_types = must.key_types(doc);
            let mut keys = must.required();
            keys.extend_from_slice(beside);
            keys.sort_unstable();
            keys.dedup();
            pinned = keys.into_iter().map(|k| (k, must.required_literals(doc, k))).collect();
            let union = must.nodes.iter().find_map(|(m, at)| {
                ["oneOf", "anyOf"].into_iter().find_map(|kw| match m.get(kw) {
                    Some(Value::Array(bs)) if !bs.is_empty() && bs.len() <= MAX_PAIRWISE => {
                        Some((bs, crate::pointer::push(at, kw)))
                    }
                    _ => None,
                })
            });
            if let Some((bs, base)) = union.filter(|_| depth < MAX_NESTED) {
                alternatives = bs
                    .iter()
                    .enumerate()
                    .map(|(i, b)| Branch::of(doc, &(b, crate::pointer::push_index(&base, i)), depth + 1, beside))
                    .collect();
            }
        }
        Branch { types, must, pinned, key_types, alternatives }
    }
}

/// No value satisfies both (or, for the projection, no projected value): told
/// apart by type or by a key, or, when one must satisfy a nested union, every
/// branch of that union is apart from the other.
fn apart(a: &Branch<'_>, b: &Branch<'_>, within: TypeSet) -> bool {
    let shared = a.types.intersect(b.types).intersect(within);
    if shared.is_empty() {
        return true;
    }
    if a.must.unknown || b.must.unknown {
        return false;
    }
    if shared == TypeSet::object_only() && (keyed_apart(a, b) || keyed_apart(b, a)) {
        return true;
    }
    let all_apart =
        |alts: &[Branch<'_>], other: &Branch<'_>| !alts.is_empty() && alts.iter().all(|alt| apart(alt, other, within));
    all_apart(&a.alternatives, b) || all_apart(&b.alternatives, a)
}

/// A key `a` requires that `b` forbids, that both pin to disjoint literals, or
/// whose value has no type in common with what `b` allows there.
fn keyed_apart(a: &Branch<'_>, b: &Branch<'_>) -> bool {
    a.pinned.iter().any(|(key, lits)| {
        if b.must.forbids(key) || types_apart(a, b, key) {
            return true;
        }
        let other = b.pinned.iter().find(|(k, _)| k == key).and_then(|(_, l)| l.as_ref());
        match (lits, other) {
            (Some(x), Some(y)) => x.iter().all(|v| !crate::literal::contains(y, v)),
            _ => false,
        }
    })
}

/// The value of `key` (which `a` requires) has no type that `b` allows there:
/// `b` declares it, so its instances lack the key or hold a value of its types
/// (the projection never changes a value's type).
fn types_apart(a: &Branch<'_>, b: &Branch<'_>, key: &str) -> bool {
    let of = |x: &Branch<'_>| x.key_types.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
    matches!((of(a), of(b)), (Some(ta), Some(tb)) if ta.intersect(tb).is_empty())
}

/// The keys every instance of `srcs` has (`required`, through `allOf` and
/// `$ref`; none when something could not be read).
pub(super) fn required_of<'a>(doc: &Doc<'a>, srcs: &[Src<'a>]) -> Vec<&'a str> {
    let m = must(doc, srcs);
    if m.unknown { Vec::new() } else { m.required() }
}

/// The nodes every instance of `starts` must satisfy: the nodes themselves,
/// their `allOf` parts and `$ref` targets (bounded; `None` when unknown
/// territory was met, a `$ref` that does not resolve or too many nodes).
struct Must<'a> {
    nodes: Vec<(&'a Map<String, Value>, String)>,
    /// A `false` schema is among them: nothing is valid.
    never: bool,
    /// Something could not be read: no claim may rest on these nodes.
    unknown: bool,
}

fn must<'a>(doc: &Doc<'a>, starts: &[Src<'a>]) -> Must<'a> {
    let mut out = Must { nodes: Vec::new(), never: false, unknown: false };
    let mut seen: HashSet<String> = HashSet::new();
    let mut work: Vec<Src<'a>> = starts.to_vec();
    while let Some((schema, at)) = work.pop() {
        let map = match schema {
            Value::Object(m) => m,
            Value::Bool(false) => {
                out.never = true;
                continue;
            }
            _ => continue,
        };
        if !seen.insert(at.clone()) {
            continue;
        }
        if out.nodes.len() >= MAX_GATHERED || map.contains_key(vocab::OPAQUE) {
            out.unknown = true;
            break;
        }
        out.nodes.push((map, at.clone()));
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            match resolve(doc, r) {
                Some(target) => work.push(target),
                None => out.unknown = true,
            }
        }
        if let Some(Value::Array(parts)) = map.get("allOf") {
            let base = crate::pointer::push(&at, "allOf");
            work.extend(parts.iter().enumerate().map(|(i, p)| (p, crate::pointer::push_index(&base, i))));
        }
    }
    out
}

/// The types an instance of `srcs` may have (an over-approximation): `type`
/// keywords and the types of `const`/`enum` literals intersected over what
/// must hold, each union's branches joined.
pub(super) fn type_bound<'a>(doc: &Doc<'a>, srcs: &[Src<'a>], depth: usize) -> TypeSet {
    type_bound_in(doc, srcs, depth, &mut HashMap::new())
}

/// [`type_bound`], each union branch's bound computed once per depth (`memo`):
/// unions of references back to their own schema would otherwise be read once
/// per path, exponentially many.
fn type_bound_in<'a>(
    doc: &Doc<'a>,
    srcs: &[Src<'a>],
    depth: usize,
    memo: &mut HashMap<(String, usize), TypeSet>,
) -> TypeSet {
    let m = must(doc, srcs);
    if m.never {
        return TypeSet::NONE;
    }
    if m.unknown || depth > 8 {
        return TypeSet::ALL;
    }
    let mut t = TypeSet::ALL;
    for (map, at) in &m.nodes {
        if let Some(x) = map.get("type").and_then(TypeSet::from_keyword) {
            t = t.intersect(x);
        }
        let literals = match (map.get("const"), map.get("enum")) {
            (Some(c), _) => Some(TypeSet::of_value(c)),
            (None, Some(Value::Array(e))) => Some(e.iter().fold(TypeSet::NONE, |u, l| u.union(TypeSet::of_value(l)))),
            _ => None,
        };
        if let Some(x) = literals {
            t = t.intersect(x);
        }
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(kw) {
                let base = crate::pointer::push(at, kw);
                let joined = branches.iter().enumerate().fold(TypeSet::NONE, |acc, (i, b)| {
                    let at = crate::pointer::push_index(&base, i);
                    let key = (at.clone(), depth + 1);
                    let bound = match memo.get(&key) {
                        Some(t) => *t,
                        None => {
                            let t = type_bound_in(doc, &[(b, at)], depth + 1, memo);
                            memo.insert(key, t);
                            t
                        }
                    };
                    acc.union(bound)
                });
                t = t.intersect(joined);
            }
        }
    }
    t
}

impl<'a> Must<'a> {
    /// Names some node requires (so every instance has them).
    fn required(&self) -> Vec<&'a str> {
        let mut out = Vec::new();
        for (m, _) in &self.nodes {
            if let Some(Value::Array(r)) = m.get("required") {
                out.extend(r.iter().filter_map(Value::as_str));
            }
        }
        out
    }

    /// The keys some node declares, each with the types its value may have
    /// (every declaring node's schema applies to it).
    fn key_types(&self, doc: &Doc<'a>) -> Vec<(&'a str, TypeSet)> {
        let mut keys: Vec<&'a str> = self
            .nodes
            .iter()
            .filter_map(|(m, _)| m.get("properties").and_then(Value::as_object))
            .flat_map(|p| p.keys().map(String::as_str))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter().map(|k| (k, type_bound(doc, &super::property_schemas(&self.nodes, k), 1))).collect()
    }

    /// Whether some node closes the object without declaring `key` (or
    /// declares it `false`): no instance that is an object has it.
    fn forbids(&self, key: &str) -> bool {
        !self.unknown
            && self.nodes.iter().any(|(m, _)| {
                let declared = m.get("properties").and_then(Value::as_object).and_then(|p| p.get(key));
                matches!(declared, Some(Value::Bool(false)))
                    || (declared.is_none()
                        && matches!(m.get("additionalProperties"), Some(Value::Bool(false)))
                        && !m.contains_key("patternProperties"))
            })
    }

    /// The scalar literals a required property `key` (the caller knows every
    /// instance has it) is pinned to by what must hold at `properties/key`
    /// (`const`/`enum`, intersected): every value of the key is among them.
    fn required_literals(&self, doc: &Doc<'a>, key: &str) -> Option<Vec<Value>> {
        if self.unknown {
            return None;
        }
        let here = must(doc, &super::property_schemas(&self.nodes, key));
        if here.unknown {
            return None;
        }
        if here.never {
            return Some(Vec::new());
        }
        let mut set: Option<Vec<Value>> = None;
        for (m, _) in &here.nodes {
            let lits: Vec<Value> = match (m.get("const"), m.get("enum")) {
                (Some(c), _) => vec![c.clone()],
                (None, Some(Value::Array(e))) => e.clone(),
                _ => continue,
            };
            if lits.iter().any(|l| l.is_object() || l.is_array()) {
                return None;
            }
            set = Some(match set {
                None => lits,
                Some(prev) => prev.into_iter().filter(|p| crate::literal::contains(&lits, p)).collect(),
            });
        }
        set
    }
}
