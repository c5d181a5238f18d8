//! Merging facts: the stronger of two bounds, the keys two closing nodes both
//! allow, and a union branch's facts joined to the facts of its location.

use super::{Bound, Facts};

pub(super) fn tighter_min(cur: &mut Option<(u64, String)>, v: u64, at: &str) {
    if cur.as_ref().is_none_or(|(c, _)| v > *c) {
        *cur = Some((v, at.to_owned()));
    }
}

pub(super) fn tighter_max(cur: &mut Option<(u64, String)>, v: u64, at: &str) {
    if cur.as_ref().is_none_or(|(c, _)| v < *c) {
        *cur = Some((v, at.to_owned()));
    }
}

/// A count bound and where it was said.
type Count = Option<(u64, String)>;

/// A branch's lower and upper bound of a count, each kept where it is stronger.
fn tighten(cur: (&mut Count, &mut Count), branch: (Count, Count)) {
    if let Some((n, at)) = branch.0 {
        tighter_min(cur.0, n, &at);
    }
    if let Some((n, at)) = branch.1 {
        tighter_max(cur.1, n, &at);
    }
}

/// Keeps the stronger of two lower (`lower = true`) or upper bounds.
pub(super) fn merge_bound(cur: &mut Option<Bound>, new: Bound, lower: bool) {
    let replace = match cur {
        None => true,
        Some(c) => {
            let (a, b) = (c.value.as_f64().unwrap_or(0.0), new.value.as_f64().unwrap_or(0.0));
            if a == b {
                new.exclusive && !c.exclusive
            } else if lower {
                b > a
            } else {
                b < a
            }
        }
    };
    if replace {
        *cur = Some(new);
    }
}

/// Adds a closing node: only the keys every closing node declares stay allowed.
pub(super) fn close(closed: &mut Option<(String, Vec<String>)>, at: String, allowed: Vec<String>) {
    match closed {
        None => *closed = Some((at, allowed)),
        Some((_, prev)) => prev.retain(|k| allowed.contains(k)),
    }
}

/// Merges the facts of a union branch into a copy of the outer facts.
pub(crate) fn conjoin<'a>(outer: &Facts<'a>, inner: Facts<'a>) -> Facts<'a> {
    let mut f = outer.clone();
    f.types = f.types.intersect(inner.types);
    if let Some(lits) = inner.literals {
        f.literals = Some(match f.literals.take() {
            None => {
                f.literal_at = inner.literal_at;
                lits
            }
            Some(prev) => prev.into_iter().filter(|p| crate::literal::contains(&lits, p)).collect(),
        });
    }
    tighten((&mut f.min_length, &mut f.max_length), (inner.min_length, inner.max_length));
    f.patterns.extend(inner.patterns);
    f.formats.extend(inner.formats);
    if let Some(b) = inner.minimum {
        merge_bound(&mut f.minimum, b, true);
    }
    if let Some(b) = inner.maximum {
        merge_bound(&mut f.maximum, b, false);
    }
    f.multiple_of.extend(inner.multiple_of);
    for n in inner.array_nodes {
        if !f.array_nodes.iter().any(|(_, p)| *p == n.1) {
            f.array_nodes.push(n);
        }
    }
    tighten((&mut f.min_items, &mut f.max_items), (inner.min_items, inner.max_items));
    for (name, srcs) in inner.properties {
        match f.properties.iter_mut().find(|(n, _)| *n == name) {
            Some((_, list)) => list.extend(srcs),
            None => f.properties.push((name, srcs)),
        }
    }
    for r in inner.required {
        if !f.required.contains(&r) {
            f.required.push(r);
        }
    }
    if let Some((at, allowed)) = inner.closed_at {
        close(&mut f.closed_at, at, allowed);
    }
    f.additional.extend(inner.additional);
    f.additional_declared.extend(inner.additional_declared);
    if f.pattern_properties.is_none() {
        f.pattern_properties = inner.pattern_properties;
    }
    tighten((&mut f.min_properties, &mut f.max_properties), (inner.min_properties, inner.max_properties));
    f.unions.extend(inner.unions);
    f.dropped.extend(inner.dropped);
    if f.description.is_none() {
        f.description = inner.description;
    }
    if f.title.is_none() {
        f.title = inner.title;
    }
    if f.never.is_none() {
        f.never = inner.never;
    }
    f.recursion_cut |= inner.recursion_cut;
    f
}
