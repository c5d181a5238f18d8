//! The values the engine cases try: instances synthesised from a schema's
//! shape where its fixture has none, string probes substituted into valid
//! values, and the spellings of a value's JSON text a grammar engine may
//! generate (native key order, compact or spaced).

use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// A few instances built from the schema's shape (every property, then the
/// required ones only), for fixtures whose literals give no valid instance.
pub(super) fn synthesise(schema: &Value) -> Vec<Value> {
    [true, false].into_iter().filter_map(|all| sample(schema, schema, all, 0)).collect()
}

/// `node` with local `$ref`s followed.
fn resolve<'a>(node: &'a Value, root: &'a Value, depth: usize) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) if r.starts_with('#') && depth < 16 => match root.pointer(&r[1..]) {
            Some(t) => resolve(t, root, depth + 1),
            None => node,
        },
        _ => node,
    }
}

fn sample(node: &Value, root: &Value, all: bool, depth: usize) -> Option<Value> {
    if depth > 12 {
        return None;
    }
    let node = resolve(node, root, 0);
    let Value::Object(m) = node else {
        return if *node == json!(false) { None } else { Some(json!("x")) };
    };
    if let Some(c) = m.get("const") {
        return Some(c.clone());
    }
    for k in ["enum", "examples"] {
        if let Some(x) = m.get(k).and_then(Value::as_array).and_then(|e| e.first()) {
            return Some(x.clone());
        }
    }
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(k) {
            return bs.iter().find_map(|b| sample(b, root, all, depth + 1));
        }
    }
    if let Some(Value::Array(bs)) = m.get("allOf") {
        let mut merged = Map::new();
        for b in bs {
            if let Some(Value::Object(o)) = sample(b, root, all, depth + 1) {
                merged.extend(o);
            }
        }
        if !merged.is_empty() {
            return Some(Value::Object(merged));
        }
    }
    let ty = match m.get("type") {
        Some(Value::String(t)) => t.as_str(),
        // Every property: the first type; required ones only: `null` where allowed.
        Some(Value::Array(ts)) if !all && ts.contains(&json!("null")) => "null",
        Some(Value::Array(ts)) => ts.iter().find_map(Value::as_str).unwrap_or("null"),
        _ if m.contains_key("properties") => "object",
        _ if m.contains_key("items") || m.contains_key("prefixItems") => "array",
        _ => "string",
    };
    Some(match ty {
        "object" => {
            let required: BTreeSet<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut o = Map::new();
            if let Some(Value::Object(props)) = m.get("properties") {
                for (k, s) in props {
                    if all || required.contains(k.as_str()) {
                        o.insert(k.clone(), sample(s, root, all, depth + 1)?);
                    }
                }
            }
            Value::Object(o)
        }
        "array" => {
            let mut a = Vec::new();
            if let Some(Value::Array(prefix)) = m.get("prefixItems") {
                for s in prefix {
                    a.push(sample(s, root, all, depth + 1)?);
                }
            } else if let Some(items) = m.get("items") {
                let n = m.get("minItems").and_then(Value::as_u64).unwrap_or(1).clamp(1, 3);
                for _ in 0..n {
                    a.extend(sample(items, root, all, depth + 1));
                }
            }
            Value::Array(a)
        }
        "integer" => json!(m.get("minimum").and_then(Value::as_i64).unwrap_or(0)),
        "number" => m.get("minimum").cloned().unwrap_or(json!(0.5)),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ if m.contains_key("format") => json!(match m.get("format").and_then(Value::as_str) {
            Some("email") => "a@example.com",
            Some("date") => "2024-01-02",
            Some("date-time") => "2024-01-02T03:04:05Z",
            Some("time") => "03:04:05Z",
            Some("uuid") => "123e4567-e89b-12d3-a456-426614174000",
            Some("ipv4") => "192.0.2.1",
            Some("ipv6") => "2001:db8::1",
            Some("hostname") => "example.com",
            Some("uri" | "url") => "https://example.com/a",
            _ => "s",
        }),
        _ => {
            let n = m.get("minLength").and_then(Value::as_u64).unwrap_or(1).clamp(1, 8);
            json!("s".repeat(usize::try_from(n).unwrap_or(1)))
        }
    })
}

/// `v` with every string leaf replaced by `probe`, then with each of its first
/// four string leaves replaced alone.
pub(super) fn probe_variants(v: &Value, probe: &str) -> Vec<Value> {
    let mut out = vec![replace_strings(v, probe, None, &mut 0)];
    for i in 0..count_strings(v).min(4) {
        out.push(replace_strings(v, probe, Some(i), &mut 0));
    }
    out.retain(|x| x != v);
    out
}

fn count_strings(v: &Value) -> usize {
    match v {
        Value::String(_) => 1,
        Value::Array(a) => a.iter().map(count_strings).sum(),
        Value::Object(o) => o.values().map(count_strings).sum(),
        _ => 0,
    }
}

fn replace_strings(v: &Value, probe: &str, only: Option<usize>, seen: &mut usize) -> Value {
    match v {
        Value::String(s) => {
            let i = *seen;
            *seen += 1;
            Value::String(if only.is_none_or(|o| o == i) { probe.to_owned() } else { s.clone() })
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| replace_strings(x, probe, only, seen)).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), replace_strings(x, probe, only, seen))).collect())
        }
        other => other.clone(),
    }
}

/// Integral floats (`1.0`) written as integers, as a grammar for `integer`
/// spells them (the harness adds the `1.0` spelling back).
pub(super) fn canonical_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            #[allow(clippy::cast_possible_truncation)]
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => json!(f as i64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(canonical_numbers).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), canonical_numbers(x))).collect()),
        other => other.clone(),
    }
}

fn type_fits(node: &Value, v: &Value) -> bool {
    let name = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let ok = |t: &str| t == name || (t == "number" && name == "integer");
    match node.get("type") {
        Some(Value::String(t)) => ok(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(ok),
        _ => true,
    }
}

/// How well a union branch fits a value: type, `const`/`enum`, declared keys.
fn fit_score(branch: &Value, root: &Value, v: &Value) -> i64 {
    let b = resolve(branch, root, 0);
    if !type_fits(b, v) {
        return -1000;
    }
    let mut score = 0;
    if let Some(c) = b.get("const") {
        score += if c == v { 50 } else { -500 };
    }
    if let Some(Value::Array(e)) = b.get("enum") {
        score += if e.contains(v) { 50 } else { -500 };
    }
    if let (Value::Object(o), Some(Value::Object(props))) = (v, b.get("properties")) {
        for (k, x) in o {
            score += match props.get(k) {
                Some(s) => 10 + fit_score(s, root, x).min(0) / 10,
                None if b.get("additionalProperties") == Some(&json!(false)) => -100,
                None => -1,
            };
        }
    }
    score
}

/// `v` with object keys in the native schema's `properties` order (the order
/// grammar engines generate), undeclared keys last.
pub(super) fn order_keys(v: &Value, node: &Value, root: &Value, depth: usize) -> Value {
    if depth > 64 {
        return v.clone();
    }
    let node = resolve(node, root, 0);
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = node.get(k)
            && let Some(top) = bs.iter().map(|b| fit_score(b, root, v)).max()
            && let Some(first) = bs.iter().find(|b| fit_score(b, root, v) == top)
        {
            return order_keys(v, first, root, depth + 1);
        }
    }
    match v {
        Value::Object(o) => {
            let mut props: Vec<(&String, &Value)> = Vec::new();
            let parts = std::iter::once(node).chain(node.get("allOf").and_then(Value::as_array).into_iter().flatten());
            for part in parts {
                if let Some(Value::Object(p)) = resolve(part, root, 0).get("properties") {
                    for (k, s) in p {
                        if !props.iter().any(|(x, _)| *x == k) {
                            props.push((k, s));
                        }
                    }
                }
            }
            let any = json!({});
            let extra = node.get("additionalProperties").filter(|s| s.is_object()).unwrap_or(&any);
            let mut m = Map::new();
            for (k, s) in &props {
                if let Some(x) = o.get(*k) {
                    m.insert((*k).clone(), order_keys(x, s, root, depth + 1));
                }
            }
            for (k, x) in o {
                if !m.contains_key(k) {
                    m.insert(k.clone(), order_keys(x, extra, root, depth + 1));
                }
            }
            Value::Object(m)
        }
        Value::Array(a) => {
            let prefix = node.get("prefixItems").and_then(Value::as_array);
            let any = json!({});
            let items = node.get("items").unwrap_or(&any);
            let at = |i: usize| prefix.and_then(|p| p.get(i)).unwrap_or(items);
            Value::Array(a.iter().enumerate().map(|(i, x)| order_keys(x, at(i), root, depth + 1)).collect())
        }
        other => other.clone(),
    }
}

pub(super) fn compact(v: &Value) -> String {
    serde_json::to_string(v).expect("a JSON value serialises")
}

/// `{"a": 1, "b": [1, 2]}`: one space after every `:` and `,`.
pub(super) fn spaced(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("[{}]", a.iter().map(spaced).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter().map(|(k, x)| format!("{}: {}", compact(&json!(k)), spaced(x))).collect::<Vec<_>>().join(", ")
        ),
        other => compact(other),
    }
}
