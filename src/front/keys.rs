//! Maps whose keys are listed: an object whose `propertyNames` is an `enum` (or
//! `const`) of strings accepts only those keys, so it means the same as a
//! closed object with one property per key, each holding the map's value
//! schema (Zod's `z.record(z.enum([…]), V)`, Pydantic's `dict[Literal[…], V]`
//! and `dict[SomeEnum, V]`, whose `propertyNames` is a `$ref` to the enum). The
//! working form says it that way, so every later pass reads a plain closed
//! object: the projection closes it, the dialects send it exactly, no reshape
//! is needed.
//!
//! Same meaning, node by node: with `propertyNames: {enum: K}`, `properties: P`
//! (every name of `P` in `K`) and `additionalProperties: V`, an object is
//! accepted when its keys are in `K`, a key of `P` holds `P[k]` and another key
//! holds `V`; the rewrite `properties: P ∪ {k: V for k in K \ P}`,
//! `additionalProperties: false` accepts exactly the same objects, and
//! non-objects alike. Left alone: `patternProperties` beside it (a key may match
//! a pattern as well), `additionalProperties: false`, a declared property
//! outside `K`, any other keyword inside `propertyNames`, and every schema of a
//! document that uses `unevaluatedProperties` anywhere (which keys count as
//! evaluated would change).
//!
//! A pattern every name matches (Effect's `patternProperties: {"": V}`, a
//! hand-written `".*"`) holds for every key, so when it is the object's only
//! pattern and no property is declared, `patternProperties: {p: V}` means
//! `additionalProperties: V` (a key matching a pattern is never "additional":
//! an `additionalProperties` beside it never applied and goes). The working form
//! says it that way, so a map keyed by a universal pattern is read as any other
//! map (and, with listed keys, as a closed object, below).
//!
//! Neither rewrite touches a node a reference lands inside of (at or below its
//! `propertyNames`, `additionalProperties` or `patternProperties`): the keyword
//! it names would be gone or replaced under it.

use super::{Origin, Work};
use crate::note::{Action, Note};
use crate::pointer;
use crate::vocab::{self, Draft};
use serde_json::{Map, Value};

/// Rewrites every enum-keyed map of `work` as a closed object, noting each.
pub(super) fn close_enum_keyed_maps(work: &mut Work<'_>) {
    let mut found = Vec::new();
    if !mentions_unevaluated_properties(&work.root) {
        candidates(&work.root, &work.root, "", 0, &mut found);
    }
    let targets = reference_targets(&work.root);
    found.retain(|(at, _)| !rewritten_under_a_reference(&targets, at));
    if found.is_empty() {
        return;
    }
    // Innermost first: a map inside another map's value schema is rewritten
    // before that schema is copied into the outer map's properties.
    found.sort_by_key(|(at, _)| std::cmp::Reverse(at.matches('/').count()));
    for (at, keys) in found {
        let value_at = pointer::push(&at, "additionalProperties");
        let names_at = pointer::push(&at, "propertyNames");
        let root = work.root.to_mut();
        let Some(Value::Object(node)) = root.pointer_mut(&at) else { continue };
        let value = match node.get("additionalProperties") {
            Some(v @ Value::Object(_)) => Some(v.clone()),
            _ => None,
        };
        let properties = node.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(properties) = properties else { continue };
        let mut added = Vec::new();
        for k in &keys {
            if !properties.contains_key(k) {
                properties.insert(k.clone(), value.clone().unwrap_or_else(|| Value::Object(Map::new())));
                added.push(k.clone());
            }
        }
        node.remove("propertyNames");
        node.insert("additionalProperties".to_owned(), Value::Bool(false));
        let note_at = work.source_pointer(&names_at);
        let from = if value.is_some() { value_at } else { names_at };
        for k in &added {
            work.copy_origins(&from, &pointer::push(&pointer::push(&at, "properties"), k));
        }
        work.notes.push(Note::new(
            note_at,
            "propertyNames",
            Action::Rewritten,
            format!(
                "the keys are listed ({}): read as a closed object with one property per key, each holding the map's value schema (same meaning)",
                keys.iter().map(|k| format!("{k:?}")).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
}

/// Rewrites every map keyed by a universal pattern as `additionalProperties`,
/// noting each.
pub(super) fn read_universal_patterns(work: &mut Work<'_>) {
    let mut found = Vec::new();
    if !mentions_unevaluated_properties(&work.root) {
        universal_nodes(&work.root, "", 0, &mut found);
    }
    if !found.is_empty() {
        let targets = reference_targets(&work.root);
        found.retain(|(at, _)| !rewritten_under_a_reference(&targets, at));
    }
    // Innermost first, so that every pointer still names its node.
    found.sort_by_key(|(at, _)| std::cmp::Reverse(at.matches('/').count()));
    for (at, pattern) in found {
        let from = pointer::push(&pointer::push(&at, "patternProperties"), &pattern);
        let to = pointer::push(&at, "additionalProperties");
        let root = work.root.to_mut();
        let Some(Value::Object(node)) = root.pointer_mut(&at) else { continue };
        let Some(Value::Object(mut patterns)) = node.remove("patternProperties") else { continue };
        let Some(value) = patterns.remove(&pattern) else { continue };
        let had_additional = node.insert("additionalProperties".to_owned(), value).is_some();
        work.origins.retain(|p, _| pointer::below(p, &to).is_none());
        work.copy_origins(&from, &to);
        let beside = if had_additional { "; the `additionalProperties` beside it never applied" } else { "" };
        work.notes.push(Note::new(
            work.source_pointer(&pointer::push(&at, "patternProperties")),
            "patternProperties",
            Action::Rewritten,
            format!(
                "every name matches {pattern:?}: read as the schema of every key (`additionalProperties`), same meaning{beside}"
            ),
        ));
    }
}

/// Whether `pattern` (ECMA 262, searched anywhere in the name) matches every
/// string, by its spelling: an optional `^`, then something that matches the
/// empty string with no `$` after it (`""`, `.*`, `(.*)`), or `[\s\S]*`
/// (which also crosses line breaks, unlike `.`) before an optional `$`.
fn is_universal(pattern: &str) -> bool {
    let body = pattern.strip_prefix('^').unwrap_or(pattern);
    let (body, anchored) = match body.strip_suffix('$') {
        Some(b) if !b.ends_with('\\') => (b, true),
        _ => (body, false),
    };
    let body =
        body.strip_prefix("(?:").or_else(|| body.strip_prefix('(')).and_then(|b| b.strip_suffix(')')).unwrap_or(body);
    let any = matches!(body, "[\\s\\S]*" | "[\\S\\s]*" | "[\\s\\S]*?" | "[\\S\\s]*?");
    any || (!anchored && matches!(body, "" | ".*" | ".*?"))
}

/// Every object node whose one pattern is universal and that declares no
/// property, with its pointer and the pattern.
fn universal_nodes(v: &Value, at: &str, depth: usize, out: &mut Vec<(String, String)>) {
    let Value::Object(node) = v else { return };
    if depth > vocab::MAX_DEPTH_CEILING {
        return;
    }
    let declares = node.get("properties").is_some_and(|p| p.as_object().is_none_or(|m| !m.is_empty()));
    if let Some(Value::Object(patterns)) = node.get("patternProperties")
        && patterns.len() == 1
        && !declares
        && let Some(p) = patterns.keys().next().filter(|p| is_universal(p))
    {
        out.push((at.to_owned(), p.clone()));
    }
    vocab::for_each_child_in(Draft::Draft202012, node, |c| {
        universal_nodes(c.schema, &c.pointer(at), depth + 1, out);
    });
}

/// The listed keys of a map at this node, when the rewrite keeps its meaning.
fn listed_keys(node: &Map<String, Value>, root: &Value) -> Option<Vec<String>> {
    let Some(Value::Object(names)) = node.get("propertyNames") else { return None };
    if node.contains_key("patternProperties") || node.get("additionalProperties") == Some(&Value::Bool(false)) {
        return None;
    }
    let keys = key_list(names, root, 0)?;
    let declared_outside = match node.get("properties") {
        Some(Value::Object(p)) => p.keys().any(|name| !keys.contains(name)),
        Some(_) => true,
        None => false,
    };
    (!declared_outside).then_some(keys)
}

/// The strings a `propertyNames` schema lists: an `enum` (its string members:
/// another never names a key) or a `const`, beside at most `type: "string"`
/// and annotations, or a reference to such a schema (Pydantic's
/// `dict[SomeEnum, V]` writes `{"$ref": "#/$defs/SomeEnum"}`).
fn key_list(names: &Map<String, Value>, root: &Value, depth: usize) -> Option<Vec<String>> {
    let mut keys: Option<Vec<String>> = None;
    for (kw, v) in names {
        let listed = match (kw.as_str(), v) {
            ("enum", Value::Array(members)) => {
                let mut out: Vec<String> = Vec::new();
                for m in members.iter().filter_map(Value::as_str) {
                    if !out.iter().any(|k| k == m) {
                        out.push(m.to_owned());
                    }
                }
                out
            }
            ("const", Value::String(s)) => vec![s.clone()],
            ("$ref", Value::String(r)) if depth < 8 => match pointer::resolve_fragment(root, r) {
                Some((Value::Object(target), _)) => key_list(target, root, depth + 1)?,
                _ => return None,
            },
            ("type", t) if t == "string" => continue,
            (k, _) if vocab::is_annotation(k) => continue,
            _ => return None,
        };
        if keys.is_some() {
            return None; // two lists: left to the general reading
        }
        keys = Some(listed);
    }
    keys.filter(|k| !k.is_empty())
}

/// Every node of the working form with listed keys, with its pointer.
fn candidates(root: &Value, v: &Value, at: &str, depth: usize, out: &mut Vec<(String, Vec<String>)>) {
    let Value::Object(node) = v else { return };
    if depth > vocab::MAX_DEPTH_CEILING {
        return;
    }
    if let Some(keys) = listed_keys(node, root) {
        out.push((at.to_owned(), keys));
    }
    vocab::for_each_child_in(Draft::Draft202012, node, |c| {
        candidates(root, c.schema, &c.pointer(at), depth + 1, out);
    });
}

/// The pointer every `$ref` of the working form lands on.
fn reference_targets(root: &Value) -> Vec<String> {
    fn walk(root: &Value, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref")
                    && let Some((_, at)) = pointer::resolve_fragment(root, r)
                {
                    out.push(at);
                }
                m.values().for_each(|c| walk(root, c, out));
            }
            Value::Array(a) => a.iter().for_each(|c| walk(root, c, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// Whether a reference lands inside what a rewrite of the map at `at` removes
/// or replaces.
fn rewritten_under_a_reference(targets: &[String], at: &str) -> bool {
    ["propertyNames", "additionalProperties", "patternProperties"].iter().any(|kw| {
        let changed = pointer::push(at, kw);
        targets.iter().any(|t| pointer::below(t, &changed).is_some())
    })
}

/// `true` when the key `unevaluatedProperties` appears anywhere in the document.
fn mentions_unevaluated_properties(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.iter().any(|(k, v)| k == "unevaluatedProperties" || mentions_unevaluated_properties(v)),
        Value::Array(a) => a.iter().any(mentions_unevaluated_properties),
        _ => false,
    }
}

impl Work<'_> {
    /// Makes the working-form subtree at `to` (a copy of the one at `from`)
    /// point back to `from`'s source.
    fn copy_origins(&mut self, from: &str, to: &str) {
        let below: Vec<(String, Origin)> = self
            .origins
            .iter()
            .filter_map(|(p, o)| {
                let rest = pointer::below(p, from)?;
                Some((format!("{to}{rest}"), o.clone()))
            })
            .collect();
        if below.iter().all(|(p, _)| p != to) {
            let (document, pointer) = self.locate(from);
            self.origins.insert(to.to_owned(), Origin { document, pointer, renames: Vec::new() });
        }
        self.origins.extend(below);
    }
}
