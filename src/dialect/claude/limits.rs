//! Claude's strict complexity limits (`providers.md` §5.3), as data the
//! strict mechanisms check, and the rewrites that keep a schema within them.

use crate::lower;
use crate::note::{Action, Note};
use serde_json::{Value, json};

/// Most optional properties across all strict schemas of a request.
pub(crate) const MAX_OPTIONAL: usize = 24;
/// Most properties with union types (`anyOf` or a type array).
pub(crate) const MAX_UNION: usize = 16;

/// With reshape, more optional properties than Claude takes: just enough of
/// them are sent required and nullable (the reversible rewrite of contract
/// §5), those whose schema is already a union first (that adds no union-typed
/// property), the rest in document order. Kept only when the result is within
/// both limits; otherwise the schema is left as it was (and falls back).
pub(super) fn fit_optional_limit(ann: &mut Value, notes: &mut Vec<Note>) {
    let (optional, _) = complexity(&lower::strip(ann));
    let Some(need) = optional.checked_sub(MAX_OPTIONAL).filter(|n| *n > 0) else { return };
    let mut candidates = Vec::new();
    optional_properties(ann, "", &mut candidates);
    if candidates.len() < need {
        return;
    }
    // Stable: document order within each cost.
    candidates.sort_by_key(|(_, _, cost)| *cost);
    let chosen: std::collections::HashSet<(String, String)> =
        candidates.into_iter().take(need).map(|(at, name, _)| (at, name)).collect();
    let mut fitted = ann.clone();
    let mut rewritten = Vec::new();
    crate::reshape::optionals_among(&mut fitted, &chosen, &mut rewritten);
    let (o, u) = complexity(&lower::strip(&fitted));
    if o > MAX_OPTIONAL || u > MAX_UNION {
        return;
    }
    *ann = fitted;
    notes.push(Note::new(
        "",
        "required",
        Action::Rewritten,
        format!(
            "reshape: {optional} optional properties exceed Claude's limit of {MAX_OPTIONAL}, so {need} of them are sent required (below, per object); decode undoes it"
        ),
    ));
    notes.extend(rewritten);
}

/// The optional properties [`complexity`] counts, as `(object, name, cost)`:
/// the object's pointer in the annotated schema, and 0 when the property's
/// schema is already a union (rewriting it adds no union-typed property).
fn optional_properties(v: &Value, at: &str, out: &mut Vec<(String, String, u8)>) {
    let Value::Object(m) = v else { return };
    if m.contains_key(lower::JSON_TEXT) {
        return;
    }
    if let Some(Value::Object(props)) = m.get("properties") {
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let base = crate::pointer::push(at, "properties");
        for (name, p) in props {
            if !required.contains(&name.as_str()) {
                out.push((at.to_owned(), name.clone(), u8::from(!is_union(p))));
            }
            optional_properties(p, &crate::pointer::push(&base, name), out);
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(s) = m.get(k) {
            optional_properties(s, &crate::pointer::push(at, k), out);
        }
    }
    if let Some(Value::Array(branches)) = m.get("anyOf") {
        let base = crate::pointer::push(at, "anyOf");
        for (i, s) in branches.iter().enumerate() {
            optional_properties(s, &crate::pointer::push_index(&base, i), out);
        }
    }
}

/// Claude takes `minItems` 0 or 1 only: a larger minimum is sent as 1 (widening).
pub(super) fn cap_min_items(v: &mut Value, at: &str, notes: &mut Vec<Note>, exact: &mut bool) {
    let Value::Object(m) = v else { return };
    if m.get("minItems").and_then(Value::as_u64).is_some_and(|n| n > 1) {
        m.insert("minItems".to_owned(), json!(1));
        *exact = false;
        notes.push(Note::new(
            at,
            "minItems",
            Action::Rewritten,
            "Claude takes `minItems` 0 or 1 only: sent as 1 (widening)",
        ));
    }
    for (k, sub) in m.iter_mut() {
        match (k.as_str(), sub) {
            ("properties", Value::Object(p)) => {
                for (name, s) in p.iter_mut() {
                    cap_min_items(
                        s,
                        &crate::pointer::push(&crate::pointer::push(at, "properties"), name),
                        notes,
                        exact,
                    );
                }
            }
            ("items", s) => cap_min_items(s, &crate::pointer::push(at, "items"), notes, exact),
            ("anyOf", Value::Array(b)) => {
                for (i, s) in b.iter_mut().enumerate() {
                    cap_min_items(s, &crate::pointer::push_index(&crate::pointer::push(at, "anyOf"), i), notes, exact);
                }
            }
            _ => {}
        }
    }
}

/// Optional properties and properties with union types, over the whole schema.
pub(crate) fn complexity(v: &Value) -> (usize, usize) {
    let Value::Object(m) = v else { return (0, 0) };
    let mut optional = 0;
    let mut unions = 0;
    if let Some(Value::Object(props)) = m.get("properties") {
        let required: std::collections::HashSet<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        for (name, p) in props {
            if !required.contains(&name.as_str()) {
                optional += 1;
            }
            if is_union(p) {
                unions += 1;
            }
            let (o, u) = complexity(p);
            optional += o;
            unions += u;
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(s) = m.get(k) {
            let (o, u) = complexity(s);
            optional += o;
            unions += u;
        }
    }
    if let Some(Value::Array(b)) = m.get("anyOf") {
        for s in b {
            let (o, u) = complexity(s);
            optional += o;
            unions += u;
        }
    }
    (optional, unions)
}

/// A property with a union type, as Claude counts them (`anyOf` or a type
/// array): one definition for the limit and for choosing what to rewrite.
fn is_union(p: &Value) -> bool {
    p.get("anyOf").is_some() || p.get("type").and_then(Value::as_array).is_some_and(|a| a.len() > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(n: usize) -> Value {
        let props: serde_json::Map<String, Value> =
            (0..n).map(|i| (format!("p{i:02}"), json!({"type": "string"}))).collect();
        json!({"type": "object", "properties": props, "additionalProperties": false})
    }

    #[test]
    fn ok_just_enough_optionals_are_rewritten() {
        let mut ann = strings(26);
        let mut notes = Vec::new();
        fit_optional_limit(&mut ann, &mut notes);
        assert_eq!(complexity(&lower::strip(&ann)), (MAX_OPTIONAL, 2));
        assert_eq!(ann["required"], json!(["p00", "p01"]));
    }

    #[test]
    fn err_left_alone_when_the_union_limit_would_break() {
        // 60 plain optionals: 36 rewrites would make 36 union-typed properties.
        let mut ann = strings(60);
        let before = ann.clone();
        let mut notes = Vec::new();
        fit_optional_limit(&mut ann, &mut notes);
        assert_eq!(ann, before);
        assert!(notes.is_empty());
    }
}
