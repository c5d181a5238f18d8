//! Unions that `decode` can undo: a union whose rewritten branch sends values
//! another branch also accepts is decodable only when both branches undo
//! every such value alike ([`alike`]); otherwise it is sent as JSON text
//! ([`disambiguate`]).

use super::inverse::element_node;
use super::{AT, NULLABLE, OR_NULL, PAIRS, PRESENT, admits_null};
use crate::analysis::Doc;
use crate::note::{Action, Note};
use crate::types::TypeSet;
use serde_json::{Map, Value};

/// How deep [`alike`] follows two schemas side by side before it gives up
/// (and says they may undo otherwise).
const MAX_ALIKE_DEPTH: usize = 64;
/// How many pairs one union's proof may compare (unions of unions multiply):
/// past it, the branches are taken to undo otherwise.
const MAX_ALIKE_STEPS: usize = 4096;

/// Makes every union of `ann` decodable: a union whose branch carries a
/// rewrite, where that branch's sent values may also satisfy another branch,
/// could not tell `decode` which inverse to apply (a pairs array and a plain
/// array, an optional's `null` and a `null`-valued branch). Such a union is sent
/// as a string holding its JSON text instead, which is unambiguous. Returns
/// whether anything was replaced (a widening, noted).
///
/// # Errors
///
/// The root itself is such a union: sent as one string of JSON text, the
/// whole answer would promise less than JSON mode, so it is not sent.
pub(crate) fn disambiguate(ann: &mut Value, notes: &mut Vec<Note>) -> Result<bool, Note> {
    let snapshot = ann.clone();
    if let Value::Object(m) = ann
        && ambiguous(m, &snapshot)
    {
        if let Some((out, more)) = harmonised(m, &snapshot, "") {
            *m = out;
            notes.extend(more);
            let snapshot = ann.clone();
            let mut changed = false;
            settle(ann, &snapshot, "", notes, &mut changed, 0);
            return Ok(changed);
        }
        return Err(Note::new(
            "",
            "anyOf",
            Action::Degraded,
            "reshape: a branch of the root union is rewritten, and its sent values could satisfy another branch, so decode could not tell them apart; reshape never sends the whole answer as a string of JSON text, which would promise less than JSON mode",
        ));
    }
    let mut changed = false;
    settle(ann, &snapshot, "", notes, &mut changed, 0);
    Ok(changed)
}

/// `m`'s union with its branches' members sent alike where that makes it
/// decodable ([`uniform`]), or `None` when it stays ambiguous.
fn harmonised(m: &Map<String, Value>, root: &Value, at: &str) -> Option<(Map<String, Value>, Vec<Note>)> {
    let mut out = m.clone();
    let mut notes = Vec::new();
    (uniform(&mut out, at, &mut notes) && !ambiguous(&out, root)).then_some((out, notes))
}

/// Sends each member alike in every object branch of the union `m`: where
/// one branch sends it behind a presence wrapper (optional there, its schema
/// accepting `null`) and another requires it plainly, the required one is
/// sent as `{"value": …}` as well (exact: a required member is always there).
/// Then both branches undo it alike, and the union needs no JSON text.
/// Returns whether anything changed.
fn uniform(m: &mut Map<String, Value>, at: &str, notes: &mut Vec<Note>) -> bool {
    let Some(Value::Array(branches)) = m.get_mut("anyOf") else { return false };
    let props = |b: &Value| b.get("properties").and_then(Value::as_object).cloned().unwrap_or_default();
    let wrapped: Vec<String> = branches
        .iter()
        .flat_map(|b| props(b).into_iter().filter(|(_, s)| s.get(PRESENT).is_some()).map(|(k, _)| k))
        .collect();
    let mut done: Vec<String> = Vec::new();
    for b in branches.iter_mut() {
        let Value::Object(bm) = b else { continue };
        let required: Vec<String> = match bm.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
            _ => continue,
        };
        let Some(Value::Object(ps)) = bm.get_mut("properties") else { continue };
        for (k, s) in ps.iter_mut() {
            if wrapped.contains(k) && required.contains(k) && s.get(PRESENT).is_none() {
                let mut bare = super::value_object(std::mem::take(s));
                bare.insert(PRESENT.to_owned(), Value::Bool(true));
                *s = Value::Object(bare);
                if !done.contains(k) {
                    done.push(k.clone());
                    notes.push(Note::new(
                        at,
                        "anyOf",
                        Action::Rewritten,
                        format!(
                            "reshape: {k}, required in some branches of this union and optional in others, is sent as `{{\"value\": …}}` in every branch where it is present, so that decode reads the branches alike; decode undoes it"
                        ),
                    ));
                }
            }
        }
    }
    !done.is_empty()
}

/// Whether `m` is a union one of whose rewritten branches sends values that
/// another branch also accepts and undoes otherwise.
pub(super) fn ambiguous(m: &Map<String, Value>, root: &Value) -> bool {
    match m.get("anyOf") {
        Some(Value::Array(branches)) if !m.contains_key(OR_NULL) && !m.contains_key(PRESENT) => {
            let marks: Vec<bool> = branches.iter().map(|b| marked(b, root, &mut Vec::new())).collect();
            marks.contains(&true) && {
                // Whether no value satisfies two sent branches: the projection's
                // own proof over the annotated schema, each branch read once.
                let srcs: Vec<(&Value, String)> =
                    branches.iter().enumerate().map(|(i, b)| (b, crate::pointer::push_index("", i))).collect();
                let overlap = crate::closure::overlapping(&Doc { root }, &srcs, TypeSet::ALL);
                marks.iter().zip(overlap).enumerate().any(|(i, (marked, overlaps))| {
                    // Only a branch it overlaps that undoes otherwise confuses it.
                    *marked
                        && overlaps
                        && branches.iter().enumerate().any(|(j, b)| {
                            let mut steps = MAX_ALIKE_STEPS;
                            j != i && !alike(&branches[i], b, root, 0, &mut steps)
                        })
                })
            }
        }
        _ => false,
    }
}

/// Whether no value satisfies both `a` and `b` (the projection's proof).
fn apart(a: &Value, b: &Value, root: &Value) -> bool {
    let pair = [(a, "/0".to_owned()), (b, "/1".to_owned())];
    !crate::closure::overlapping(&Doc { root }, &pair, TypeSet::ALL)[0]
}

/// The node a `$ref` leads to, or the node itself (`None`: a reference that
/// does not resolve, one with a marker beside it, or a chain too long).
fn follow<'a>(mut v: &'a Value, root: &'a Value) -> Option<&'a Value> {
    for _ in 0..MAX_ALIKE_DEPTH {
        match v.get("$ref").and_then(Value::as_str) {
            Some(_) if v.as_object().is_some_and(|m| own_markers(m).next().is_some()) => return None,
            Some(r) => v = crate::pointer::resolve_fragment(root, r)?.0,
            None => return Some(v),
        }
    }
    None
}

/// `a == b`, but for the source pointers the lowering recorded ([`AT`]),
/// which are for notes only.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = |m: &Map<String, Value>| m.keys().filter(|k| k.as_str() != AT).count();
            keys(x) == keys(y)
                && x.iter().filter(|(k, _)| k.as_str() != AT).all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same(v, w)),
        _ => a == b,
    }
}

/// The markers a node carries itself, but for [`AT`] (and [`NULLABLE`],
/// which [`alike_objects`] reads member by member).
fn own_markers(m: &Map<String, Value>) -> impl Iterator<Item = &str> {
    m.keys().map(String::as_str).filter(|k| k.starts_with("$schemacast:") && *k != AT && *k != NULLABLE)
}

/// Whether two sent schemas undo alike every value both accept, so that
/// `decode`, choosing either, gives the same answer. Proved, not guessed:
///
/// - the same schema (source pointers aside), or two schemas without a
///   rewrite (both inverses leave the value as it is), or two that no value
///   satisfies together;
/// - a union beside a schema: each of its branches beside that schema
///   (whichever branch `decode` picks, the value satisfies it);
/// - two objects whose members undo alike, where a member's `null` means
///   "absent" in one only if the other refuses `null` ([`alike_objects`]);
/// - two arrays whose elements undo alike, position by position, as far as
///   both can reach ([`alike_arrays`]).
///
/// Anything else (a presence wrapper beside another form, a reference that
/// does not resolve, nesting past [`MAX_ALIKE_DEPTH`]) may undo otherwise.
fn alike(a: &Value, b: &Value, root: &Value, depth: usize, steps: &mut usize) -> bool {
    if depth > MAX_ALIKE_DEPTH || *steps == 0 {
        return false;
    }
    *steps -= 1;
    if same(a, b) {
        return true;
    }
    let (Some(a), Some(b)) = (follow(a, root), follow(b, root)) else { return false };
    if same(a, b) || (!marked(a, root, &mut Vec::new()) && !marked(b, root, &mut Vec::new())) || apart(a, b, root) {
        return true;
    }
    let (Value::Object(ma), Value::Object(mb)) = (a, b) else { return false };
    if own_markers(ma).any(|k| k != PAIRS) || own_markers(mb).any(|k| k != PAIRS) {
        // JSON text, a presence wrapper, an or-null member outside an object:
        // only the same schema is known to undo alike.
        return false;
    }
    match (ma.get("anyOf"), mb.get("anyOf")) {
        (Some(Value::Array(xs)), _) => return xs.iter().all(|x| alike(x, b, root, depth + 1, steps)),
        (_, Some(Value::Array(ys))) => return ys.iter().all(|y| alike(a, y, root, depth + 1, steps)),
        (Some(_), _) | (_, Some(_)) => return false,
        (None, None) => {}
    }
    if ma.contains_key(PAIRS) != mb.contains_key(PAIRS) {
        return false;
    }
    match (ma.get("type").and_then(Value::as_str), mb.get("type").and_then(Value::as_str)) {
        (Some("object"), Some("object")) => alike_objects(ma, mb, root, depth, steps),
        (Some("array"), Some("array")) => alike_arrays(a, b, root, depth, steps),
        _ => false,
    }
}

/// [`alike`] for two objects, member by member. A member only one declares is
/// left as it is by the other: alike when its schema has no rewrite, or when
/// the other object is closed (no value both accept has it). A member whose
/// `null` means "absent" in one (an optional sent `T | null`) is alike a plain
/// member only when that one refuses `null`, so that no value both accept is
/// `null` there.
fn alike_objects(
    a: &Map<String, Value>,
    b: &Map<String, Value>,
    root: &Value,
    depth: usize,
    steps: &mut usize,
) -> bool {
    let empty = Map::new();
    let props = |m: &Map<String, Value>| m.get("properties").and_then(Value::as_object).unwrap_or(&empty).clone();
    let (pa, pb) = (props(a), props(b));
    let drops = |m: &Map<String, Value>, k: &str| {
        m.get(NULLABLE).and_then(Value::as_array).is_some_and(|d| d.iter().any(|n| n == k))
    };
    let closed = |m: &Map<String, Value>| m.get("additionalProperties") == Some(&Value::Bool(false));
    let one_sided = |p: &Map<String, Value>, other: &Map<String, Value>, other_obj: &Map<String, Value>| {
        p.iter()
            .filter(|(k, _)| !other.contains_key(*k))
            .all(|(_, x)| closed(other_obj) || !marked(x, root, &mut Vec::new()))
    };
    if !one_sided(&pa, &pb, b) || !one_sided(&pb, &pa, a) {
        return false;
    }
    pa.iter().filter_map(|(k, x)| pb.get(k).map(|y| (k, x, y))).all(|(k, x, y)| {
        if same(x, y) && drops(a, k) == drops(b, k) {
            return true;
        }
        if x.get(PRESENT).is_some() || y.get(PRESENT).is_some() {
            // Two presence wrappers (optional or required) undo alike when
            // their values do: `null` is absent in both, `{"value": v}` is `v`.
            let value = |v: &Value| v.get(PRESENT).and_then(|_| v.pointer(super::present_value(v)).cloned());
            let (Some(ix), Some(iy)) = (value(x), value(y)) else { return false };
            return alike(&ix, &iy, root, depth + 1, steps);
        }
        // The member as it is when not `null`-for-absent.
        let inner = |m: &Map<String, Value>, v: &Value| -> Option<Value> {
            if !drops(m, k) {
                return Some(v.clone());
            }
            v.get(OR_NULL)?;
            v.pointer("/anyOf/0").cloned()
        };
        let (Some(ix), Some(iy)) = (inner(a, x), inner(b, y)) else { return false };
        let nulls_agree = match (drops(a, k), drops(b, k)) {
            (true, false) => !admits_null(&iy, root, 0),
            (false, true) => !admits_null(&ix, root, 0),
            _ => true,
        };
        nulls_agree && alike(&ix, &iy, root, depth + 1, steps)
    })
}

/// [`alike`] for two arrays, element by element: at each position both can
/// reach (neither's schema there is `false`, both bounds allow it), the two
/// element schemas undo alike; where one array says nothing of an element it
/// is left as it is, so the other's schema there must have no rewrite.
fn alike_arrays(a: &Value, b: &Value, root: &Value, depth: usize, steps: &mut usize) -> bool {
    let positions = |v: &Value| v.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
    let bound = |v: &Value| v.get("maxItems").and_then(Value::as_u64).unwrap_or(u64::MAX);
    let reach = bound(a).min(bound(b));
    let unmarked = |v: &Value| !marked(v, root, &mut Vec::new());
    for i in 0..=positions(a).max(positions(b)) {
        if u64::try_from(i).unwrap_or(u64::MAX) >= reach {
            break;
        }
        let (x, y) = (element_node(a, i).map(|e| e.0), element_node(b, i).map(|e| e.0));
        if x == Some(&Value::Bool(false)) || y == Some(&Value::Bool(false)) {
            break;
        }
        let ok = match (x, y) {
            (None, None) => true,
            (Some(e), None) | (None, Some(e)) => unmarked(e),
            (Some(x), Some(y)) => alike(x, y, root, depth + 1, steps),
        };
        if !ok {
            return false;
        }
    }
    true
}

fn settle(v: &mut Value, root: &Value, at: &str, notes: &mut Vec<Note>, changed: &mut bool, depth: usize) {
    let Value::Object(m) = v else { return };
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return;
    }
    if ambiguous(m, root) {
        if let Some((out, more)) = harmonised(m, root, at) {
            *m = out;
            notes.extend(more);
            crate::lower::for_each_child_at_mut(m, at, &mut |s, here| {
                settle(s, root, &here, notes, changed, depth + 1)
            });
            return;
        }
        let mut text = crate::lower::json_text_node();
        if let Value::Object(out) = &mut text {
            for k in ["description", "title"] {
                if let Some(x) = m.get(k) {
                    out.shift_insert(0, k.to_owned(), x.clone());
                }
            }
        }
        *v = text;
        *changed = true;
        notes.push(Note::new(
            at,
            "anyOf",
            Action::Rewritten,
            "reshape: a branch of this union is rewritten, and its sent values could satisfy another branch, so decode could not tell them apart: the union is sent as a string holding its JSON text instead (widening)",
        ));
        return;
    }
    crate::lower::for_each_child_at_mut(m, at, &mut |s, here| settle(s, root, &here, notes, changed, depth + 1));
}

/// Whether a node, or what its references lead to, carries a marker.
fn marked(v: &Value, root: &Value, seen: &mut Vec<String>) -> bool {
    match v {
        Value::Object(m) => {
            if m.keys().any(|k| k.starts_with("$schemacast:") && k != AT) {
                return true;
            }
            if let Some(r) = m.get("$ref").and_then(Value::as_str)
                && !seen.iter().any(|s| s == r)
            {
                seen.push(r.to_owned());
                if let Some((t, _)) = crate::pointer::resolve_fragment(root, r)
                    && marked(t, root, seen)
                {
                    return true;
                }
            }
            m.iter().any(|(k, sub)| !matches!(k.as_str(), "enum" | "const") && marked(sub, root, seen))
        }
        Value::Array(a) => a.iter().any(|x| marked(x, root, seen)),
        _ => false,
    }
}
