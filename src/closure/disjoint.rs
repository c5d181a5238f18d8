//! Disjointness of union branches: when a `oneOf` may be read as `anyOf`.

use super::{Doc, MAX_GATHERED, Src, resolve};
use crate::types::TypeSet;
use crate::vocab;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// Whether the branches of a `oneOf` are provably disjoint, so that reading
/// it as `anyOf` changes nothing: pairwise disjoint types, or a property every
/// branch requires and pins to pairwise disjoint scalar literals (a
/// discriminator). Only what every instance of a branch must satisfy counts:
/// its own node, `allOf` parts and `$ref` targets; a nested union contributes
/// the union of its branches' types, never an intersection.
pub(crate) fn disjoint<'a>(doc: &Doc<'a>, branches: &[Src<'a>]) -> bool {
    if branches.len() < 2 {
        return true;
    }
    let types: Vec<TypeSet> = branches.iter().map(|b| type_bound(doc, std::slice::from_ref(b), 0)).collect();
    let by_type = types.iter().enumerate().all(|(i, a)| types[i + 1..].iter().all(|b| a.intersect(*b).is_empty()));
    if by_type {
        return true;
    }
    let musts: Vec<Must<'a>> = branches.iter().map(|b| must(doc, std::slice::from_ref(b))).collect();
    let Some(first) = musts.first() else { return true };
    first.required().into_iter().any(|key| {
        let sets: Option<Vec<Vec<Value>>> = musts.iter().map(|m| m.required_literals(doc, key)).collect();
        let Some(sets) = sets else { return false };
        sets.iter()
            .enumerate()
            .all(|(i, a)| sets[i + 1..].iter().all(|b| a.iter().all(|x| !crate::literal::contains(b, x))))
    })
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
/// keywords intersected over what must hold, each union's branches joined.
fn type_bound<'a>(doc: &Doc<'a>, srcs: &[Src<'a>], depth: usize) -> TypeSet {
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
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(kw) {
                let base = crate::pointer::push(at, kw);
                let joined = branches.iter().enumerate().fold(TypeSet::NONE, |acc, (i, b)| {
                    acc.union(type_bound(doc, &[(b, crate::pointer::push_index(&base, i))], depth + 1))
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

    /// The scalar literals required property `key` is pinned to by what must
    /// hold at `properties/key` (`const`/`enum`, intersected): every value of
    /// the key is among them.
    fn required_literals(&self, doc: &Doc<'a>, key: &str) -> Option<Vec<Value>> {
        if self.unknown || !self.required().contains(&key) {
            return None;
        }
        let mut at_key = Vec::new();
        for (map, at) in &self.nodes {
            if let Some(Value::Object(props)) = map.get("properties")
                && let Some(s) = props.get(key)
            {
                at_key.push((s, crate::pointer::push(&crate::pointer::push(at, "properties"), key)));
            }
        }
        let here = must(doc, &at_key);
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
