//! What one alternative of a shape allows (a conjunction of schema objects),
//! and how the alternatives add up to a [`Shape`].

use super::{ALL, Conj, Kind, Shape, bit, kind_of, kinds_of_type, tuple};
use crate::literal;
use crate::types::TypeSet;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// Keeps what both restrictions allow (`None`: no restriction).
fn meet<T: PartialEq>(a: Option<Vec<T>>, b: Option<Vec<T>>) -> Option<Vec<T>> {
    meet_by(a, b, |x, y| x == y)
}

/// [`meet`] with `eq` for equality.
fn meet_by<T>(a: Option<Vec<T>>, b: Option<Vec<T>>, eq: impl Fn(&T, &T) -> bool) -> Option<Vec<T>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.into_iter().filter(|x| b.iter().any(|y| eq(x, y))).collect()),
        (a, None) => a,
        (None, b) => b,
    }
}

pub(super) fn alt_kinds(alt: &Conj<'_>) -> u8 {
    alt.iter().fold(ALL, |k, m| {
        let mut k = k;
        if let Some(t) = m.get("type") {
            k &= kinds_of_type(t);
        }
        if let Some(Value::Array(members)) = m.get("enum") {
            k &= members.iter().map(kind_of).fold(0, |a, b| a | b);
        }
        if let Some(c) = m.get("const") {
            k &= kind_of(c);
        }
        k
    })
}

fn alt_strings<'e>(alt: &Conj<'e>) -> Option<Vec<&'e str>> {
    alt.iter().fold(None, |acc, m| {
        let mut acc = acc;
        if let Some(Value::Array(members)) = m.get("enum") {
            acc = meet(acc, Some(members.iter().filter_map(Value::as_str).collect()));
        }
        if let Some(c) = m.get("const") {
            acc = meet(acc, Some(c.as_str().into_iter().collect()));
        }
        acc
    })
}

/// The numbers, booleans and nulls `enum`/`const` allow in `alt`, if they restrict them.
fn alt_scalars<'e>(alt: &Conj<'e>) -> Option<Vec<&'e Value>> {
    let scalar = |v: &&Value| matches!(v, Value::Null | Value::Bool(_) | Value::Number(_));
    alt.iter().fold(None, |acc, m| {
        let mut acc = acc;
        if let Some(Value::Array(members)) = m.get("enum") {
            acc = meet_by(acc, Some(members.iter().filter(scalar).collect()), |a, b| literal::equal(a, b));
        }
        if let Some(c) = m.get("const") {
            acc = meet_by(acc, Some(Some(c).filter(scalar).into_iter().collect()), |a, b| literal::equal(a, b));
        }
        acc
    })
}

/// Numbers in `alt` must be whole: some `type` allows integers but not every number.
fn alt_integers(alt: &Conj<'_>) -> bool {
    alt.iter().any(|m| m.get("type").and_then(TypeSet::from_keyword).is_some_and(|t| t.integer && !t.number))
}

/// The lowest and highest number `alt` allows (exclusive bounds read as
/// inclusive: only a number beyond them is sure to fail).
fn alt_bounds(alt: &Conj<'_>) -> (f64, f64) {
    let num = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_f64);
    alt.iter().fold((f64::NEG_INFINITY, f64::INFINITY), |(lo, hi), m| {
        let lo = [num(m, "minimum"), num(m, "exclusiveMinimum")].into_iter().flatten().fold(lo, f64::max);
        let hi = [num(m, "maximum"), num(m, "exclusiveMaximum")].into_iter().flatten().fold(hi, f64::min);
        (lo, hi)
    })
}

/// The smallest `key` (a count) in `alt`, if any says one.
fn alt_count(alt: &Conj<'_>, key: &str) -> Option<usize> {
    alt.iter()
        .filter_map(|m| m.get(key).and_then(Value::as_u64))
        .min()
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The largest `key` (a count) in `alt`: what it needs at least (0 if nothing).
fn alt_least(alt: &Conj<'_>, key: &str) -> usize {
    alt.iter()
        .filter_map(|m| m.get(key).and_then(Value::as_u64))
        .max()
        .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The member names `alt` requires (`required`, every object of the conjunction).
fn alt_required<'e>(alt: &Conj<'e>) -> Vec<&'e str> {
    let mut names: Vec<&str> = alt
        .iter()
        .filter_map(|m| m.get("required").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// The larger of two limits (`None`: no limit).
fn wider(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    Some(a?.max(b?))
}

fn alt_keys<'e>(alt: &Conj<'e>) -> Option<Vec<&'e str>> {
    alt.iter().fold(None, |acc, m| {
        let closed = m.get("additionalProperties") == Some(&Value::Bool(false)) && !m.contains_key("patternProperties");
        if !closed {
            return acc;
        }
        let declared = match m.get("properties") {
            Some(Value::Object(p)) => p.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        meet(acc, Some(declared))
    })
}

/// Allows what either restriction allows (`None`: no restriction).
fn join<T, C: Extend<T>>(all: Option<C>, these: Option<Vec<T>>) -> Option<C> {
    let (mut all, these) = (all?, these?);
    all.extend(these);
    Some(all)
}

pub(super) fn summarise(alts: Vec<Conj<'_>>) -> Shape<'_> {
    let tuple_len = alts.iter().flatten().filter_map(|m| tuple(m).map(<[Value]>::len)).max().unwrap_or(0);
    let mut kinds = 0;
    let mut strings: Option<Vec<&str>> = Some(Vec::new());
    let mut scalars: Option<Vec<&Value>> = Some(Vec::new());
    let mut integers = true;
    let mut bounds = Vec::new();
    let (mut max_len, mut max_items) = (Some(0), Some(0));
    let (mut min_len, mut min_items) = (usize::MAX, usize::MAX);
    let mut needed: Option<Vec<&str>> = None;
    let mut keys: Option<Vec<&str>> = Some(Vec::new());
    let other = bit(Kind::Null) | bit(Kind::Bool) | bit(Kind::Number);
    for alt in &alts {
        let k = alt_kinds(alt);
        kinds |= k;
        if k & bit(Kind::String) != 0 {
            strings = join(strings, alt_strings(alt));
            max_len = wider(max_len, alt_count(alt, "maxLength"));
            min_len = min_len.min(alt_least(alt, "minLength"));
        }
        if k & bit(Kind::Array) != 0 {
            max_items = wider(max_items, alt_count(alt, "maxItems"));
            min_items = min_items.min(alt_least(alt, "minItems"));
        }
        if k & other != 0 {
            scalars = join(scalars, alt_scalars(alt));
        }
        if k & bit(Kind::Number) != 0 {
            integers &= alt_integers(alt);
            bounds.push(alt_bounds(alt));
        }
        if k & bit(Kind::Object) != 0 {
            keys = join(keys, alt_keys(alt));
            // A name is needed when every alternative requires it.
            let names = alt_required(alt);
            needed = Some(match needed {
                None => names,
                Some(so_far) => so_far.into_iter().filter(|n| names.contains(n)).collect(),
            });
        }
    }
    if let Some(k) = keys.as_mut() {
        k.sort_unstable();
        k.dedup();
    }
    Shape {
        alts,
        kinds,
        strings,
        scalar_checks: scalars.is_some()
            || integers && kinds & bit(Kind::Number) != 0
            || bounds.iter().any(|(lo, hi)| lo.is_finite() || hi.is_finite()),
        scalars,
        integers,
        bounds,
        max_len,
        max_items,
        min_len: if min_len == usize::MAX { 0 } else { min_len },
        min_items: if min_items == usize::MAX { 0 } else { min_items },
        needed: needed.unwrap_or_default(),
        keys,
        tuple_len,
        members: Vec::new(),
        more_members: HashMap::new(),
        undeclared: None,
        elements: HashMap::new(),
        rest: None,
    }
}
