//! Proptest strategies: bounded schemas over every keyword preflight accepts,
//! and candidate instances drawn from the schema's own vocabulary.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

const NAMES: &[&str] = &["a", "b", "c", "strict", "items", "x-1"];
const STRINGS: &[&str] = &[
    "",
    "a",
    "abc",
    "cat",
    "2020-01-01T00:00:00Z",
    "a@b.co",
    "123",
    "x-1",
    "a\"b",
    "back\\slash",
    "new\nline\t",
    "é中",
];

fn literal() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..5).prop_map(Value::from),
        Just(json!(2.5)),
        prop::sample::select(STRINGS).prop_map(Value::from),
        Just(json!({})),
        Just(json!([1])),
        Just(json!({"a": 1})),
        Just(json!([{"a": 1, "b": 2}])),
    ]
}

fn type_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&["string", "number", "integer", "boolean", "null", "object", "array"][..])
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => type_name().prop_map(|t| json!({"type": t})),
        1 => (type_name(), type_name()).prop_map(|(a, b)| if a == b { json!({"type": a}) } else { json!({"type": [a, b]}) }),
        1 => Just(json!(true)),
        1 => Just(json!(false)),
        1 => Just(json!({})),
        2 => prop::collection::vec(literal(), 1..4).prop_map(|v| json!({"enum": v})),
        1 => literal().prop_map(|v| json!({"const": v})),
        2 => (0u64..3, 1u64..6, prop::sample::select(&["", "^a", "^[a-z]+$", "b", "^(a|c)", "[0-9]{2}"][..]),
              prop::sample::select(&["", "date-time", "email", "uri", "date"][..]))
            .prop_map(|(min, max, pat, fmt)| {
                let mut m = Map::new();
                m.insert("type".into(), json!("string"));
                m.insert("minLength".into(), json!(min));
                m.insert("maxLength".into(), json!(min + max));
                if !pat.is_empty() { m.insert("pattern".into(), json!(pat)); }
                if !fmt.is_empty() { m.insert("format".into(), json!(fmt)); }
                Value::Object(m)
            }),
        2 => (prop::sample::select(&["number", "integer"][..]), prop::sample::select(&["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"][..]),
              prop::sample::select(vec![json!(0), json!(1), json!(2.5), json!(-1)]))
            .prop_map(|(t, k, v)| {
                let v = if k == "multipleOf" && v.as_f64().is_some_and(|f| f <= 0.0) { json!(2) } else { v };
                json!({"type": t, k: v})
            }),
        1 => Just(json!({"$ref": "#/$defs/D"})),
        1 => Just(json!({"$ref": "#"})),
    ]
}

fn object(inner: impl Strategy<Value = Value> + Clone) -> impl Strategy<Value = Value> {
    (
        prop::collection::vec((prop::sample::select(NAMES), inner.clone()), 0..4),
        prop::collection::vec(prop::sample::select(NAMES), 0..3),
        prop::sample::select(&[0u8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10][..]),
        inner,
        any::<bool>(),
    )
        .prop_map(|(props, required, extra, sub, typed)| {
            let mut m = Map::new();
            if typed {
                m.insert("type".into(), json!("object"));
            }
            let mut p = Map::new();
            for (k, v) in props {
                p.insert(k.to_owned(), v);
            }
            let declared: Vec<String> = p.keys().cloned().collect();
            if !p.is_empty() {
                m.insert("properties".into(), Value::Object(p));
            }
            // Mostly declared names, sometimes a ghost.
            let req: Vec<&str> =
                required.into_iter().filter(|r| declared.iter().any(|d| d == r) || *r == "x-1").collect();
            if !req.is_empty() {
                let mut uniq: Vec<&str> = Vec::new();
                for r in req {
                    if !uniq.contains(&r) {
                        uniq.push(r);
                    }
                }
                m.insert("required".into(), json!(uniq));
            }
            match extra {
                1 => {
                    m.insert("additionalProperties".into(), json!(false));
                }
                2 => {
                    m.insert("additionalProperties".into(), sub);
                }
                3 => {
                    m.insert("patternProperties".into(), json!({"^x-": sub}));
                }
                4 => {
                    m.insert("minProperties".into(), json!(1));
                }
                5 => {
                    m.insert("additionalProperties".into(), json!(true));
                }
                // A literal above: the value must stay exactly as it is.
                6 => {
                    m.insert("enum".into(), json!([{"a": 1, "b": [1]}, {"c": {"a": 1, "x-1": null}}, {}]));
                }
                // Dependencies: on declared names, or on a ghost (closing must
                // then keep what they read).
                7 => {
                    let trigger = declared.first().map_or("x-1", String::as_str);
                    let needs = declared.get(1).map_or("x-1", String::as_str);
                    m.insert("dependentRequired".into(), json!({trigger: [needs]}));
                }
                8 => {
                    let trigger = declared.last().map_or("x-1", String::as_str);
                    m.insert("dependentSchemas".into(), json!({trigger: sub}));
                }
                // A ghost trigger (undeclared unless a property is named so):
                // closing drops it, and its dependency with it.
                10 => {
                    let needs = declared.first().map_or("a", String::as_str);
                    m.insert("dependentRequired".into(), json!({"x-1": [needs, "b"]}));
                }
                _ => {}
            }
            Value::Object(m)
        })
}

fn array(inner: impl Strategy<Value = Value> + Clone) -> impl Strategy<Value = Value> {
    (inner.clone(), prop::collection::vec(inner, 0..3), 0u8..6, 0u64..3).prop_map(|(items, prefix, shape, n)| {
        let mut m = Map::new();
        m.insert("type".into(), json!("array"));
        match shape {
            0 => {}
            1 => {
                m.insert("items".into(), items);
            }
            2 => {
                m.insert("prefixItems".into(), Value::Array(prefix));
                m.insert("items".into(), json!(false));
            }
            3 => {
                m.insert("prefixItems".into(), Value::Array(prefix));
                m.insert("items".into(), items);
            }
            4 => {
                m.insert("items".into(), items);
                m.insert("minItems".into(), json!(n));
                m.insert("maxItems".into(), json!(n + 2));
            }
            _ => {
                m.insert("items".into(), items);
                m.insert("uniqueItems".into(), json!(true));
                m.insert("contains".into(), json!({"type": "integer"}));
            }
        }
        Value::Object(m)
    })
}

fn combine(inner: impl Strategy<Value = Value> + Clone) -> impl Strategy<Value = Value> {
    (prop::sample::select(&["anyOf", "oneOf", "allOf"][..]), prop::collection::vec(inner, 1..4))
        .prop_map(|(k, v)| json!({k: v}))
}

/// Merges two schemas' keywords into one node (siblings), the second winning.
fn siblings(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Object(mut x), Value::Object(y)) => {
            for (k, v) in y {
                x.insert(k, v);
            }
            Value::Object(x)
        }
        (a, _) => a,
    }
}

/// A bounded schema document.
pub(crate) fn schema() -> impl Strategy<Value = Value> {
    let node = leaf().prop_recursive(3, 32, 4, |inner| {
        prop_oneof![
            3 => object(inner.clone()),
            2 => array(inner.clone()),
            2 => combine(inner.clone()),
            1 => inner.clone().prop_map(|s| json!({"not": s})),
            1 => (inner.clone(), inner.clone(), inner.clone()).prop_map(|(i, t, e)| json!({"if": i, "then": t, "else": e})),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| siblings(a, b)),
        ]
    });
    (node.clone(), node).prop_map(|(root, def)| match root {
        Value::Object(mut m) => {
            if m.get("$defs").is_none() {
                m.insert("$defs".into(), json!({"D": def}));
            }
            Value::Object(m)
        }
        other => other,
    })
}

/// Candidate instances: JSON built from the names and literals a schema uses.
pub(crate) fn instance() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..12).prop_map(Value::from),
        Just(json!(2.5)),
        prop::sample::select(STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(NAMES), inner), 0..4)
                .prop_map(|kv| { Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()) }),
        ]
    })
}

/// A schema of an older draft: a generated schema rewritten into draft 4, 6,
/// 7 or 2019-09 forms (`items` arrays and `additionalItems`, `definitions`,
/// `dependencies`, `$ref` with siblings the draft ignores, draft-04 boolean
/// exclusive bounds, `$recursiveRef`), with its `$schema`.
pub(crate) fn legacy_schema() -> impl Strategy<Value = Value> {
    (
        schema(),
        prop::sample::select(
            &[crate::Draft::Draft4, crate::Draft::Draft6, crate::Draft::Draft7, crate::Draft::Draft201909][..],
        ),
    )
        .prop_map(|(s, draft)| {
            let uri = match draft {
                crate::Draft::Draft4 => "http://json-schema.org/draft-04/schema#",
                crate::Draft::Draft6 => "http://json-schema.org/draft-06/schema#",
                crate::Draft::Draft7 => "http://json-schema.org/draft-07/schema#",
                _ => "https://json-schema.org/draft/2019-09/schema",
            };
            let mut out = to_legacy(s, draft, 0);
            if let Value::Object(m) = &mut out {
                if draft == crate::Draft::Draft201909 {
                    m.insert("$recursiveAnchor".into(), json!(true));
                }
                m.shift_insert(0, "$schema".into(), json!(uri));
            }
            out
        })
}

fn to_legacy(v: Value, draft: crate::Draft, depth: usize) -> Value {
    use crate::Draft;
    let Value::Object(m) = v else { return v };
    let mut out = Map::new();
    let mut prefix = None;
    for (k, sub) in m {
        let sub = match sub {
            Value::Object(_) | Value::Bool(_) => to_legacy(sub, draft, depth + 1),
            Value::Array(a) if matches!(k.as_str(), "anyOf" | "oneOf" | "allOf" | "prefixItems") => {
                Value::Array(a.into_iter().map(|x| to_legacy(x, draft, depth + 1)).collect())
            }
            other => other,
        };
        match k.as_str() {
            "$defs" => {
                out.insert("definitions".into(), legacy_map(sub, draft, depth));
            }
            "prefixItems" => prefix = Some(sub),
            "$ref" => {
                let r = sub.as_str().unwrap_or("#").replace("#/$defs/", "#/definitions/");
                let key = if draft == Draft::Draft201909 && r == "#" { "$recursiveRef" } else { "$ref" };
                out.insert(key.into(), json!(r));
                // A sibling the draft ignores beside `$ref` (2019-09 applies it).
                if !depth.is_multiple_of(2) {
                    out.insert("maxLength".into(), json!(0));
                }
            }
            "exclusiveMinimum" | "exclusiveMaximum" if draft == Draft::Draft4 => {
                let bound = if k == "exclusiveMinimum" { "minimum" } else { "maximum" };
                out.insert(bound.into(), sub);
                out.insert(k, json!(true));
            }
            // 2019-09 has both names; earlier drafts have `dependencies` only,
            // which takes the entries of both.
            "dependentRequired" | "dependentSchemas" if draft != Draft::Draft201909 => {
                merge_dependencies(&mut out, sub);
            }
            _ => {
                out.insert(k, sub);
            }
        }
    }
    if let Some(p) = prefix {
        let rest = out.remove("items");
        out.insert("items".into(), p);
        if let Some(r) = rest {
            out.insert("additionalItems".into(), r);
        }
    }
    if let Some(Value::Object(props)) = out.get("properties")
        && props.len() >= 2
        && depth.is_multiple_of(3)
    {
        let names: Vec<String> = props.keys().cloned().collect();
        merge_dependencies(&mut out, json!({names[0].clone(): [names[1].clone()]}));
    }
    Value::Object(out)
}

/// Adds `entries` to the schema's `dependencies`, keeping any already there
/// (a trigger keeps its first entry).
fn merge_dependencies(schema: &mut Map<String, Value>, entries: Value) {
    let Value::Object(entries) = entries else { return };
    let slot = schema.entry("dependencies").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(deps) = slot {
        for (trigger, dep) in entries {
            deps.entry(trigger).or_insert(dep);
        }
    }
}

fn legacy_map(v: Value, draft: crate::Draft, depth: usize) -> Value {
    match v {
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, s)| (k, to_legacy(s, draft, depth + 1))).collect()),
        other => other,
    }
}
