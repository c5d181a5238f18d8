//! Closed-world projection (contract §3), and the facts it rests on.
//!
//! Layer invariant: reads the working form only (see `front`), provider-neutral.
//!
//! At one instance location, every schema node that *may* apply is gathered:
//! the node reached by the path, and everything reachable from it through
//! in-place applicators (`$ref`, `allOf`, `anyOf`, `oneOf`, `if`/`then`/`else`,
//! `not`, `dependentSchemas`). Gathering too much only makes the projection drop
//! less, so the gathering errs on the side of including. A union (`anyOf`, or a
//! `oneOf` whose branches are provably disjoint) may be read **by branch**:
//! given a choice, only the chosen branch is gathered.
//!
//! The location is **closable** when some gathered node declares a property, no
//! gathered node says anything else about undeclared keys, every `required`
//! name (and every name a `dependentRequired` with a declared trigger
//! requires) is declared, and nothing
//! at or above it reads the whole value (a literal holding an object,
//! `uniqueItems` over the elements, `not`, an `if` that reads more than
//! declared members' kinds and scalars, an exclusive `oneOf`). The projection
//! drops, at closable locations, every key that no gathered node declares, and
//! **fills** an absent declared property with its `default` where
//! [`Gathered::fillable`] proves that keeps the value valid. Emitters that
//! close objects, or require defaulted properties, check the same facts, so
//! what they send is exactly what the projection allows.

mod conditional;
mod disjoint;
mod prove;

pub(crate) use disjoint::{Purpose, apart_once_closed, disjoint, overlapping};

use crate::analysis::Doc;
use crate::vocab;
use serde_json::{Map, Value};
use std::collections::HashSet;

use conditional::reads_declared_scalars;
pub(crate) use prove::proves;

/// A schema reached at some location, with its pointer in the working form.
pub(crate) type Src<'a> = (&'a Value, String);

/// Marker sources carried to the locations below: a negative or exclusive
/// context (`not`, `if`, a `oneOf` not known to be disjoint), and a context
/// that reads the whole value (a literal holding objects, `uniqueItems`).
static MARKER: Value = Value::Null;
const NEGATIVE_AT: &str = "\u{0}negative context";
const FROZEN_AT: &str = "\u{0}frozen context";

/// Bound on gathered nodes at one location (a guard against pathological documents).
const MAX_GATHERED: usize = 4096;

/// The chosen branch of each union read by branch at one location, keyed by
/// the union's pointer (`…/anyOf`).
pub(crate) type Choices = [(String, usize)];

pub(crate) use crate::options::Readings;

/// A union met while gathering: its pointer, whether it is a `oneOf`, and its branches.
#[derive(Debug, Clone)]
pub(crate) struct Union<'a> {
    pub(crate) at: String,
    pub(crate) branches: Vec<Src<'a>>,
}

/// Every schema node that may apply at one instance location.
#[derive(Debug, Default)]
pub(crate) struct Gathered<'a> {
    pub(crate) nodes: Vec<(&'a Map<String, Value>, String)>,
    /// Something could not be seen through (an unresolvable or dynamic reference,
    /// or the gathering bound was hit).
    pub(crate) opaque: bool,
    /// Some gathered schema sits under `not`, `if` or an exclusive `oneOf` (here or
    /// at an enclosing location): dropping keys could flip it.
    pub(crate) negative: bool,
    /// A literal holding objects, or `uniqueItems`, reads the whole value here
    /// or above: the value must stay exactly as it is.
    pub(crate) frozen: bool,
    /// An `if` applies here: filling a default could flip it, so none is filled.
    conditional: bool,
    /// Unions that may be read by branch, met here and not chosen.
    pub(crate) unions: Vec<Union<'a>>,
    /// The names some gathered node requires (one lookup per key, however
    /// wide the object).
    required: HashSet<&'a str>,
}

/// Gathers every node that may apply where `starts` apply.
pub(crate) fn gather<'a>(doc: &Doc<'a>, starts: &[Src<'a>]) -> Gathered<'a> {
    gather_with(doc, starts, &[])
}

/// As [`gather`], reading the unions named in `choices` by their chosen branch.
pub(crate) fn gather_with<'a>(doc: &Doc<'a>, starts: &[Src<'a>], choices: &Choices) -> Gathered<'a> {
    gather_inner(doc, starts, choices, true)
}

/// The gathering; `disjointness` off reads every `oneOf` as exclusive (no
/// proof attempted), which keeps the proofs themselves from recursing.
fn gather_inner<'a>(doc: &Doc<'a>, starts: &[Src<'a>], choices: &Choices, disjointness: bool) -> Gathered<'a> {
    let mut out = Gathered::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut work: Vec<Src<'a>> = starts.iter().rev().cloned().collect();
    while let Some((schema, at)) = work.pop() {
        if at == NEGATIVE_AT {
            out.negative = true;
            continue;
        }
        if at == FROZEN_AT {
            out.frozen = true;
            continue;
        }
        let Value::Object(map) = schema else { continue };
        if !seen.insert(at.clone()) {
            continue;
        }
        if out.nodes.len() >= MAX_GATHERED {
            out.opaque = true;
            break;
        }
        out.nodes.push((map, at.clone()));
        if let Some(Value::Array(names)) = map.get("required") {
            out.required.extend(names.iter().filter_map(Value::as_str));
        }
        if map.contains_key(vocab::OPAQUE) {
            out.opaque = true;
        }
        if ["const", "enum"].iter().any(|k| map.get(*k).is_some_and(crate::literal::has_object)) {
            out.frozen = true;
        }
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            match resolve(doc, r) {
                Some(target) => work.push(target),
                None => out.opaque = true,
            }
        }
        let mut children = Vec::new();
        for (kw, value) in map {
            let kw = kw.as_str();
            match (kw, value) {
                ("allOf" | "if" | "then" | "else" | "not" | "dependentSchemas" | "anyOf" | "oneOf", _) => {}
                _ => continue,
            }
            let base = crate::pointer::push(&at, kw);
            match (kw, value) {
                ("anyOf" | "oneOf", Value::Array(branches)) => {
                    let srcs: Vec<Src<'a>> =
                        branches.iter().enumerate().map(|(i, b)| (b, crate::pointer::push_index(&base, i))).collect();
                    let readable = kw == "anyOf"
                        || (disjointness && {
                            let within = disjoint::type_bound(doc, &[(schema, at.clone())], 0);
                            let beside = disjoint::required_of(doc, starts);
                            disjoint(doc, &srcs, within, &beside, Purpose::Projection)
                                || apart_once_closed(
                                    doc,
                                    starts,
                                    choices,
                                    (&base, &srcs),
                                    (within, &beside),
                                    Purpose::Projection,
                                )
                        });
                    match choices.iter().find(|(p, _)| *p == base) {
                        // A proof's own gathering reads by branch every union it is
                        // given a choice for: the one it supposes, and the caller's.
                        // A caller's choice of a union that is not readable only
                        // matters where that union already makes the location
                        // negative (not closable, and nothing closes below), so a
                        // proof resting on it has no effect.
                        Some((_, i)) if readable || !disjointness => children.extend(srcs.get(*i).cloned()),
                        _ => {
                            out.negative |= !readable;
                            if readable && srcs.len() > 1 {
                                out.unions.push(Union { at: base, branches: srcs.clone() });
                            }
                            children.extend(srcs);
                        }
                    }
                }
                ("allOf", Value::Array(parts)) => {
                    children.extend(parts.iter().enumerate().map(|(i, p)| (p, crate::pointer::push_index(&base, i))));
                }
                ("dependentSchemas", Value::Object(m)) => {
                    children.extend(m.iter().map(|(k, s)| (s, crate::pointer::push(&base, k))));
                }
                ("if" | "then" | "else" | "not", s) => {
                    // An `if` that reads only declared members' kinds and scalars
                    // keeps its verdict when undeclared keys go: not negative.
                    out.negative |= kw == "not" || (kw == "if" && !reads_declared_scalars(s));
                    out.conditional |= kw == "if";
                    children.push((s, base));
                }
                _ => {}
            }
        }
        work.extend(children.into_iter().rev());
    }
    out
}

/// The `properties/key` schemas of `nodes`, with their pointers.
pub(super) fn property_schemas<'a>(nodes: &[(&'a Map<String, Value>, String)], key: &str) -> Vec<Src<'a>> {
    nodes
        .iter()
        .filter_map(|(map, at)| {
            let s = map.get("properties")?.get(key)?;
            Some((s, crate::pointer::push(&crate::pointer::push(at, "properties"), key)))
        })
        .collect()
}

/// Resolves a working-form `$ref` (a `#/…` pointer).
pub(crate) fn resolve<'a>(doc: &Doc<'a>, reference: &str) -> Option<Src<'a>> {
    crate::pointer::resolve_fragment(doc.root, reference)
}

impl<'a> Gathered<'a> {
    /// Negative and frozen contexts carry over to the locations below.
    fn inherited(&self, freeze: bool) -> Vec<Src<'a>> {
        let mut out = Vec::new();
        if self.negative {
            out.push((&MARKER, NEGATIVE_AT.to_owned()));
        }
        if self.frozen || freeze {
            out.push((&MARKER, FROZEN_AT.to_owned()));
        }
        out
    }

    /// Property names declared by any gathered node, in first-seen order.
    pub(crate) fn declared(&self) -> Vec<&'a str> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for (map, _) in &self.nodes {
            if let Some(Value::Object(props)) = map.get("properties") {
                for k in props.keys() {
                    if seen.insert(k.as_str()) {
                        out.push(k.as_str());
                    }
                }
            }
        }
        out
    }

    /// Does any gathered node say something about undeclared keys?
    pub(crate) fn speaks_of_undeclared(&self) -> bool {
        self.opaque
            || self.nodes.iter().any(|(map, _)| {
                let additional = match map.get("additionalProperties") {
                    None | Some(Value::Bool(true)) => false,
                    Some(Value::Object(m)) => !m.is_empty(),
                    Some(_) => true,
                };
                additional
                    || ["patternProperties", "propertyNames", "minProperties", "unevaluatedProperties"]
                        .iter()
                        .any(|k| map.contains_key(*k))
            })
    }

    /// Does every `dependentRequired` here whose trigger is declared require
    /// declared keys only? Its verdict then rests on declared keys alone, which
    /// the projection keeps; one whose trigger is undeclared never applies once
    /// that trigger is dropped. (`dependentSchemas` needs no
    /// check of its own: its schemas are gathered like any in-place
    /// applicator's, and a key whose presence turns one on only removes that
    /// schema's demands when it is dropped.)
    fn dependencies_declared(&self, declared: &HashSet<&str>) -> bool {
        self.nodes.iter().all(|(map, _)| match map.get("dependentRequired") {
            None => true,
            // An undeclared trigger is dropped with the other undeclared keys, so
            // its dependency never applies to what is left.
            Some(Value::Object(deps)) => deps.iter().all(|(trigger, names)| {
                !declared.contains(trigger.as_str())
                    || names
                        .as_array()
                        .is_some_and(|names| names.iter().all(|n| n.as_str().is_some_and(|n| declared.contains(n))))
            }),
            Some(_) => false,
        })
    }

    /// Contract §3: may undeclared keys be dropped here?
    pub(crate) fn is_closable(&self) -> bool {
        let declared: HashSet<&str> = self.declared().into_iter().collect();
        !declared.is_empty()
            && !self.negative
            && !self.frozen
            && !self.speaks_of_undeclared()
            && self.dependencies_declared(&declared)
            && self.nodes.iter().all(|(map, _)| match map.get("required") {
                Some(Value::Array(names)) => names.iter().all(|n| n.as_str().is_some_and(|n| declared.contains(n))),
                _ => true,
            })
    }

    /// Contract §3, defaults: the value an absent declared property `name` is
    /// read as, when filling it in provably keeps every valid value valid: the
    /// location changes nothing else (no literal or `uniqueItems` reading the
    /// whole value, no negative context, no count or key-reading keyword, no
    /// other node that would refuse the key), every schema of the property
    /// agrees on one `default`, and that default is proved valid against them.
    pub(crate) fn fillable(&self, doc: &Doc<'a>, name: &str) -> Option<Value> {
        if self.negative || self.frozen || self.opaque || self.conditional {
            return None;
        }
        for (map, _) in &self.nodes {
            let declares = map.get("properties").and_then(Value::as_object).is_some_and(|p| p.contains_key(name));
            let refuses = match map.get("additionalProperties") {
                None | Some(Value::Bool(true)) => false,
                Some(Value::Object(m)) => !m.is_empty() && !declares,
                Some(_) => !declares,
            };
            let counts =
                ["maxProperties", "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas"]
                    .iter()
                    .any(|k| map.contains_key(*k))
                    || (map.contains_key("unevaluatedProperties") && !declares);
            if refuses || counts {
                return None;
            }
        }
        if self.required.contains(name) {
            return None;
        }
        // Only the `properties` schemas apply to a declared key here: the other
        // nodes' `additionalProperties` were checked to accept it above.
        let srcs = property_schemas(&self.nodes, name);
        let at_key = gather(doc, &srcs);
        let mut default: Option<&Value> = None;
        for (m, _) in &at_key.nodes {
            if let Some(d) = m.get("default") {
                match default {
                    Some(prev) if !crate::literal::equal(prev, d) => return None,
                    _ => default = Some(d),
                }
            }
        }
        let d = default?;
        (proves(doc, &srcs, d) && complete(doc, &srcs, d, 0)).then(|| d.clone())
    }

    /// Schemas that may apply to the value of key `key`. A node's
    /// `additionalProperties` and `unevaluatedProperties` never apply to a key
    /// its own `properties` declares.
    pub(crate) fn for_key(&self, key: &str) -> Vec<Src<'a>> {
        let mut out = self.inherited(false);
        for (map, at) in &self.nodes {
            let mut declared = false;
            if let Some(Value::Object(props)) = map.get("properties")
                && let Some(s) = props.get(key)
            {
                declared = true;
                out.push((s, crate::pointer::push(&crate::pointer::push(at, "properties"), key)));
            }
            if let Some(Value::Object(pp)) = map.get("patternProperties") {
                for (p, s) in pp {
                    out.push((s, crate::pointer::push(&crate::pointer::push(at, "patternProperties"), p)));
                }
            }
            if declared {
                continue;
            }
            for kw in ["additionalProperties", "unevaluatedProperties"] {
                if let Some(s) = map.get(kw) {
                    out.push((s, crate::pointer::push(at, kw)));
                }
            }
        }
        out
    }

    /// Schemas that may apply to array element `index` (`None`: any element).
    pub(crate) fn for_index(&self, index: Option<usize>) -> Vec<Src<'a>> {
        let unique = self.nodes.iter().any(|(m, _)| m.get("uniqueItems") == Some(&Value::Bool(true)));
        let mut out = self.inherited(unique);
        for (map, at) in &self.nodes {
            if let Some(Value::Array(prefix)) = map.get("prefixItems") {
                let base = crate::pointer::push(at, "prefixItems");
                for (i, s) in prefix.iter().enumerate() {
                    if index.is_none_or(|want| want == i) {
                        out.push((s, crate::pointer::push_index(&base, i)));
                    }
                }
            }
            for kw in ["items", "contains", "unevaluatedItems"] {
                if let Some(s) = map.get(kw) {
                    out.push((s, crate::pointer::push(at, kw)));
                }
            }
        }
        out
    }
}

/// Whether no object inside a default `value` (under `srcs`) lacks a declared
/// property that has a default of its own. Filling such a default would call
/// for more filling, and a recursive schema (a default `{}` whose schema is the
/// root) would then require an endless value: only complete defaults are filled.
fn complete<'a>(doc: &Doc<'a>, srcs: &[Src<'a>], value: &Value, depth: usize) -> bool {
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return false;
    }
    match value {
        Value::Object(o) => {
            let here = gather_inner(doc, srcs, &[], false);
            let defaulted = |k: &str| {
                let at_key = gather_inner(doc, &here.for_key(k), &[], false);
                at_key.nodes.iter().any(|(m, _)| m.contains_key("default"))
            };
            here.declared().into_iter().all(|k| o.contains_key(k) || !defaulted(k))
                && o.iter().all(|(k, v)| complete(doc, &here.for_key(k), v, depth + 1))
        }
        Value::Array(items) => {
            let here = gather_inner(doc, srcs, &[], false);
            items.iter().enumerate().all(|(i, v)| complete(doc, &here.for_index(Some(i)), v, depth + 1))
        }
        _ => true,
    }
}

/// Decides, at run time, whether a union branch (its pointer) accepts a value.
pub(crate) type Accepts<'f> = &'f dyn Fn(&str, &Value) -> bool;

/// The closed-world projection `π(value)` under the working form `doc.root`,
/// applying `readings`; `accepts` tells which union branch a value satisfies.
pub(crate) fn project_value(doc: &Doc<'_>, value: &Value, readings: Readings, accepts: Accepts<'_>) -> Value {
    let p = Projector { doc, readings, accepts };
    p.at(&[(doc.root, String::new())], value, 0)
}

struct Projector<'d, 'f> {
    doc: &'d Doc<'d>,
    readings: Readings,
    accepts: Accepts<'f>,
}

impl<'d> Projector<'d, '_> {
    /// The branch choices at one location for `value`: for each union read by
    /// branch, the first branch that accepts the value (none: the location-wide
    /// reading), repeated for unions inside chosen branches.
    fn choose(&self, starts: &[Src<'d>], value: &Value) -> (Gathered<'d>, Vec<(String, usize)>) {
        let mut choices: Vec<(String, usize)> = Vec::new();
        let mut decided: HashSet<String> = HashSet::new();
        loop {
            let here = gather_with(self.doc, starts, &choices);
            if !self.readings.by_branch {
                return (here, choices);
            }
            let open: Vec<&Union<'d>> = here.unions.iter().filter(|u| !decided.contains(&u.at)).collect();
            if open.is_empty() {
                return (here, choices);
            }
            for u in open {
                decided.insert(u.at.clone());
                if let Some(i) = u.branches.iter().position(|(_, p)| (self.accepts)(p, value)) {
                    choices.push((u.at.clone(), i));
                }
            }
        }
    }

    fn at(&self, starts: &[Src<'d>], value: &Value, depth: usize) -> Value {
        if depth > crate::vocab::MAX_DEPTH_CEILING || starts.is_empty() {
            return value.clone();
        }
        match value {
            Value::Object(obj) => {
                let (here, _) = self.choose(starts, value);
                let keep: Option<HashSet<&str>> =
                    (self.readings.close && here.is_closable()).then(|| here.declared().into_iter().collect());
                let mut out = Map::new();
                for (k, v) in obj {
                    if keep.as_ref().is_some_and(|keep| !keep.contains(k.as_str())) {
                        continue;
                    }
                    out.insert(k.clone(), self.at(&here.for_key(k), v, depth + 1));
                }
                if self.readings.fill {
                    for name in here.declared() {
                        if obj.contains_key(name) {
                            continue;
                        }
                        if let Some(d) = here.fillable(self.doc, name) {
                            let filled = self.at(&here.for_key(name), &d, depth + 1);
                            out.insert(name.to_owned(), filled);
                        }
                    }
                }
                Value::Object(out)
            }
            Value::Array(items) => {
                let (here, _) = self.choose(starts, value);
                Value::Array(
                    items.iter().enumerate().map(|(i, v)| self.at(&here.for_index(Some(i)), v, depth + 1)).collect(),
                )
            }
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
