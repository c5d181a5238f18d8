//! Reversible rewrites (contract §5), opt-in with `Options::with_reshape`, and
//! their inverses, applied by `decode`.
//!
//! The emission keeps an **annotated** copy of the schema it sent: the same
//! schema with markers (`$schemacast:…` keys, stripped from what is sent) at
//! every rewritten spot:
//!
//! - an optional property `p: T` sent required as `T | null` ([`NULLABLE`] on
//!   the object, [`OR_NULL`] on the property): `null` means absent;
//! - an optional property whose schema already accepts `null`, sent required
//!   as `null | {"value": T}` ([`PRESENT`]): `null` means absent, `{"value": v}`
//!   means `v`, so both `null` and absence stay expressible;
//! - a map sent as an array of `{"key", "value"}` pairs (`lower::PAIRS`);
//! - a value no native schema can carry sent as a string holding its JSON text
//!   (`lower::JSON_TEXT`);
//! - a root that is not an object wrapped as `{"value": …}` ([`WRAPPED`]).
//!
//! Layer invariant: this module knows schemas and markers, not providers.
//! References in the annotated schema (`#/$defs/…`) are followed, so recursion
//! stays expressible while reshaping.

use crate::lower::{AT, JSON_TEXT, PAIRS};
use crate::note::{Action, Note};
use serde_json::{Map, Value, json};
use std::collections::HashSet;

mod inverse;
pub(crate) mod read;
mod unions;

pub(crate) use inverse::{InverseError, inverse, undo_at};
use inverse::{element, element_node, refers};
pub(crate) use unions::disambiguate;

/// Marks an object whose listed properties were made required and nullable.
const NULLABLE: &str = "$schemacast:nullable";
/// Marks a wrapped root.
const WRAPPED: &str = "$schemacast:wrapped";
/// Marks the `anyOf: [T, null]` a rewritten property became: `decode` picks its
/// branch by whether the value is `null`, without a validator.
const OR_NULL: &str = "$schemacast:or-null";
/// Marks the `anyOf: [null, {"value": T}]` of an optional property whose
/// schema accepts `null`; also the bare `{"value": T}` of a required member
/// that a union's other branch sends behind such a wrapper
/// ([`unions::disambiguate`]), so that both branches undo it alike.
const PRESENT: &str = "$schemacast:present";

/// Where a presence wrapper keeps `T`: below its `{"value"}` branch, or in
/// itself when it is the bare required form.
fn present_value(node: &Value) -> &'static str {
    if node.get("anyOf").is_some() { "/anyOf/1/properties/value" } else { "/properties/value" }
}

/// `{"value": T}`: the object a presence wrapper sends a present value in.
fn value_object(inner: Value) -> Map<String, Value> {
    let mut wrapper = Map::new();
    wrapper.insert("type".to_owned(), json!("object"));
    let mut value = Map::new();
    value.insert("value".to_owned(), inner);
    wrapper.insert("properties".to_owned(), Value::Object(value));
    wrapper.insert("required".to_owned(), json!(["value"]));
    wrapper.insert("additionalProperties".to_owned(), Value::Bool(false));
    wrapper
}

/// Decides whether the value `y`, as sent, satisfies the annotated schema's
/// union branch at a pointer (its stripped form, in the context of the root).
pub(crate) type Accepts<'f> = &'f dyn Fn(&str, &Value) -> bool;

/// Makes every optional property of every object of `ann` (in place, `$defs`
/// included) required: nullable when its schema does not accept `null`, else
/// behind a presence wrapper. A note per object.
pub(crate) fn optionals(ann: &mut Value, notes: &mut Vec<Note>) {
    let snapshot = ann.clone();
    rewrite_optionals(ann, &snapshot, "", notes, 0, None);
}

/// [`optionals`] for the listed properties only: `(object, name)`, the object
/// by its pointer in `ann` (a provider's limit on optional properties is met
/// by rewriting just enough of them).
pub(crate) fn optionals_among(ann: &mut Value, only: &HashSet<(String, String)>, notes: &mut Vec<Note>) {
    let snapshot = ann.clone();
    rewrite_optionals(ann, &snapshot, "", notes, 0, Some(only));
}

fn rewrite_optionals(
    v: &mut Value,
    root: &Value,
    at: &str,
    notes: &mut Vec<Note>,
    depth: usize,
    only: Option<&HashSet<(String, String)>>,
) {
    let Value::Object(m) = v else { return };
    if depth > crate::vocab::MAX_DEPTH_CEILING || m.contains_key(JSON_TEXT) {
        return;
    }
    crate::lower::for_each_child_at_mut(m, at, &mut |s, here| {
        rewrite_optionals(s, root, &here, notes, depth + 1, only);
    });
    rewrite_optionals_here(m, root, at, notes, only);
}

/// [`rewrite_optionals`] of one node, its children done. (Its own function,
/// so that the recursion keeps a small stack frame.)
#[inline(never)]
fn rewrite_optionals_here(
    m: &mut Map<String, Value>,
    root: &Value,
    at: &str,
    notes: &mut Vec<Note>,
    only: Option<&HashSet<(String, String)>>,
) {
    // Sets: wide objects stay linear.
    let required: HashSet<String> = match m.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => HashSet::new(),
    };
    let chosen = |k: &String| only.is_none_or(|o| o.contains(&(at.to_owned(), k.clone())));
    // Notes name the source location the lowering recorded, else the spot in the sent schema.
    let at = m.get(AT).and_then(Value::as_str).unwrap_or(at).to_owned();
    let at = at.as_str();
    let Some(Value::Object(props)) = m.get_mut("properties") else { return };
    let optional: Vec<String> = props.keys().filter(|k| !required.contains(*k) && chosen(k)).cloned().collect();
    if optional.is_empty() {
        return;
    }
    let is_optional: HashSet<&str> = optional.iter().map(String::as_str).collect();
    let mut nullable = Vec::new();
    let mut present = Vec::new();
    for name in &optional {
        let Some(node) = props.get_mut(name) else { continue };
        let inner = std::mem::take(node);
        if admits_null(&inner, root, 0) {
            let mut out = Map::new();
            out.insert(
                "anyOf".to_owned(),
                Value::Array(vec![json!({"type": "null"}), Value::Object(value_object(inner))]),
            );
            out.insert(PRESENT.to_owned(), Value::Bool(true));
            *node = Value::Object(out);
            present.push(name.clone());
        } else {
            let mut out = Map::new();
            out.insert("anyOf".to_owned(), Value::Array(vec![inner, json!({"type": "null"})]));
            out.insert(OR_NULL.to_owned(), Value::Bool(true));
            *node = Value::Object(out);
            nullable.push(name.clone());
        }
    }
    // Required now: what was, and what was rewritten (in the properties' order).
    let all: Vec<Value> = props
        .keys()
        .filter(|k| required.contains(*k) || is_optional.contains(k.as_str()))
        .map(|k| Value::String(k.clone()))
        .collect();
    m.insert("required".to_owned(), Value::Array(all));
    if !nullable.is_empty() {
        notes.push(Note::new(
            at,
            "required",
            Action::Rewritten,
            format!(
                "reshape: optional {} sent required and nullable; decode drops them when null",
                nullable.join(", ")
            ),
        ));
        m.insert(NULLABLE.to_owned(), json!(nullable));
    }
    if !present.is_empty() {
        notes.push(Note::new(
            at,
            "required",
            Action::Rewritten,
            format!(
                "reshape: optional {} (whose schemas accept null) sent required as `null` (absent) or `{{\"value\": …}}` (present); decode undoes it",
                present.join(", ")
            ),
        ));
    }
}

/// Wraps a root that is not an object in `{"value": …}`.
pub(crate) fn wrap(ann: Value, notes: &mut Vec<Note>) -> Value {
    notes.push(Note::new(
        "",
        "",
        Action::Rewritten,
        "reshape: the root is wrapped as `{\"value\": …}`; decode unwraps it",
    ));
    let mut ann = ann;
    // References into the root's `$defs` move with it to the wrapper's root.
    let defs = ann.as_object_mut().and_then(|m| m.remove("$defs"));
    retarget(&mut ann);
    let mut props = Map::new();
    props.insert("value".to_owned(), ann);
    let mut m = Map::new();
    m.insert("type".to_owned(), json!("object"));
    m.insert("properties".to_owned(), Value::Object(props));
    m.insert("required".to_owned(), json!(["value"]));
    m.insert("additionalProperties".to_owned(), Value::Bool(false));
    if let Some(mut d) = defs {
        retarget(&mut d);
        m.insert("$defs".to_owned(), d);
    }
    m.insert(WRAPPED.to_owned(), Value::Bool(true));
    Value::Object(m)
}

/// A root reference `#` now means the wrapped value: `#/properties/value`.
fn retarget(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("$ref") == Some(&json!("#")) {
                m.insert("$ref".to_owned(), json!("#/properties/value"));
            }
            for (k, sub) in m.iter_mut() {
                if !matches!(k.as_str(), "enum" | "const" | "default" | "examples") {
                    retarget(sub);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(retarget),
        _ => {}
    }
}

/// Whether `node` accepts `null`, read from its keywords (references followed);
/// `true` when unsure (the presence wrapper is reversible either way).
fn admits_null(node: &Value, root: &Value, depth: usize) -> bool {
    let Value::Object(m) = node else { return node != &Value::Bool(false) };
    if depth > 64 {
        return true;
    }
    if m.contains_key(JSON_TEXT) || m.contains_key(PAIRS) {
        return false;
    }
    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
        return match crate::pointer::resolve_fragment(root, r) {
            Some((t, _)) => admits_null(t, root, depth + 1),
            None => true,
        };
    }
    let type_ok = match m.get("type") {
        None => true,
        Some(Value::String(t)) => t == "null",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        Some(_) => true,
    };
    let enum_ok = match m.get("enum") {
        Some(Value::Array(lits)) => lits.contains(&Value::Null),
        _ => true,
    };
    let const_ok = m.get("const").is_none_or(Value::is_null);
    let any_ok = match m.get("anyOf") {
        Some(Value::Array(b)) => b.iter().any(|b| admits_null(b, root, depth + 1)),
        _ => true,
    };
    type_ok && enum_ok && const_ok && any_ok
}

/// Whether `v` holds a reshape marker anywhere (references not followed).
pub(crate) fn has_markers(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, sub)| (k.starts_with("$schemacast:") && k != AT) || has_markers(sub)),
        Value::Array(a) => a.iter().any(has_markers),
        _ => false,
    }
}

struct Cx<'a, 'f> {
    root: &'a Value,
    accepts: Accepts<'f>,
}

impl<'a> Cx<'a, '_> {
    /// The node a `$ref` leads to (with its pointer), or the node itself.
    fn follow(&self, node: &'a Value, at: &str) -> (&'a Value, String) {
        let mut node = node;
        let mut at = at.to_owned();
        for _ in 0..64 {
            match node.get("$ref").and_then(Value::as_str).and_then(|r| crate::pointer::resolve_fragment(self.root, r))
            {
                Some((t, p)) => {
                    node = t;
                    at = p;
                }
                None => break,
            }
        }
        (node, at)
    }

    /// The first branch of a union that accepts the value as sent.
    fn branch(&self, node: &'a Value, at: &str, y: &Value) -> Option<(&'a Value, String)> {
        let Some(Value::Array(branches)) = node.get("anyOf") else { return None };
        branches.iter().enumerate().find_map(|(i, b)| {
            let p = crate::pointer::push_index(&crate::pointer::push(at, "anyOf"), i);
            (self.accepts)(&p, y).then_some((b, p))
        })
    }
}

/// The forward rewrite of an answer (what the provider sends for it): wrap,
/// encode maps and JSON texts, fill absent rewritten properties. `None` when
/// no branch of a union fits.
pub(crate) fn forward(x: &Value, ann: &Value, accepts: Accepts<'_>) -> Option<Value> {
    let cx = Cx { root: ann, accepts };
    if read::is_wrapped(ann) {
        let inner = ann.pointer("/properties/value")?;
        return Some(json!({"value": fill(x, inner, "/properties/value", &cx, 0)?}));
    }
    fill(x, ann, "", &cx, 0)
}

/// The forward rewrite of `x` at `node`. It recurses once per level of the
/// answer, so each kind of node is rewritten by a function of its own and this
/// frame stays small.
fn fill(x: &Value, node: &Value, at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    if depth > crate::vocab::MAX_DEPTH_CEILING {
        return Some(x.clone());
    }
    let (node, at) = cx.follow(node, at);
    if node.get(JSON_TEXT).is_some() {
        return Some(Value::String(x.to_string()));
    }
    if node.get(PAIRS).is_some() {
        return fill_pairs(x, node, &at, cx, depth);
    }
    if node.get(OR_NULL).is_some() {
        return fill_at(x, node, "/anyOf/0", &at, cx, depth);
    }
    if node.get(PRESENT).is_some() {
        let v = fill_at(x, node, present_value(node), &at, cx, depth)?;
        return Some(present(v));
    }
    if let Some(Value::Array(branches)) = node.get("anyOf") {
        if !has_markers(node) && !refers(node) {
            return Some(x.clone());
        }
        return fill_union(x, branches, &at, cx, depth);
    }
    match x {
        Value::Object(m) => fill_object(m, node, &at, cx, depth),
        Value::Array(items) => fill_array(items, node, &at, cx, depth),
        other => Some(other.clone()),
    }
}

/// `{"value": v}`.
#[inline(never)]
fn present(v: Value) -> Value {
    let mut m = Map::new();
    m.insert("value".to_owned(), v);
    Value::Object(m)
}

/// [`fill`] at the node `inner` below `node` (a JSON Pointer suffix).
#[inline(never)]
fn fill_at(x: &Value, node: &Value, inner: &str, at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    let sub = node.pointer(inner)?;
    fill(x, sub, &format!("{at}{inner}"), cx, depth + 1)
}

#[inline(never)]
fn fill_pairs(x: &Value, node: &Value, at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    let Value::Object(m) = x else { return Some(x.clone()) };
    let value_node = node.pointer("/items/properties/value")?;
    let value_at = format!("{at}/items/properties/value");
    let pairs = m
        .iter()
        .map(|(k, v)| {
            let mut pair = Map::new();
            pair.insert("key".to_owned(), Value::String(k.clone()));
            pair.insert("value".to_owned(), fill(v, value_node, &value_at, cx, depth + 1)?);
            Some(Value::Object(pair))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Value::Array(pairs))
}

#[inline(never)]
fn fill_union(x: &Value, branches: &[Value], at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    branches.iter().enumerate().find_map(|(i, b)| {
        let p = format!("{at}/anyOf/{i}");
        fill(x, b, &p, cx, depth + 1).filter(|y| (cx.accepts)(&p, y))
    })
}

#[inline(never)]
fn fill_object(m: &Map<String, Value>, node: &Value, at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    let mut out = m.clone();
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        for (k, sub) in props {
            let p = crate::pointer::push(&crate::pointer::push(at, "properties"), k);
            match m.get(k) {
                Some(v) => {
                    out.insert(k.clone(), fill(v, sub, &p, cx, depth + 1)?);
                }
                // Absent: `null` where that means absent (the bare required
                // wrapper has no `null`: this branch does not fit).
                None if (sub.get(PRESENT).is_some() && sub.get("anyOf").is_some()) || sub.get(OR_NULL).is_some() => {
                    out.insert(k.clone(), Value::Null);
                }
                None => {}
            }
        }
    }
    Some(Value::Object(out))
}

#[inline(never)]
fn fill_array(items: &[Value], node: &Value, at: &str, cx: &Cx<'_, '_>, depth: usize) -> Option<Value> {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| match element(node, at, i) {
            Some((sub, p)) => fill(v, sub, &p, cx, depth + 1),
            None => Some(v.clone()),
        })
        .collect::<Option<Vec<_>>>()
        .map(Value::Array)
}

#[cfg(test)]
mod tests;
