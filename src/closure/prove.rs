//! A conservative prover: does a literal value satisfy a working-form schema?
//!
//! `true` only when every keyword that could reject the value is one this
//! module evaluates exactly and none rejects it; anything it does not know
//! (`not`, conditionals, exclusive unions, markers) makes it answer `false`,
//! which only costs a default that is not filled. The keywords that read the
//! value alone (`pattern`, `format`, a fractional `multipleOf`) are asked of
//! the validator `decode` uses, on a schema of that one keyword, so a regular
//! expression or a format means here exactly what it means there.

use super::Src;
use crate::analysis::Doc;
use crate::types::TypeSet;
use serde_json::{Map, Value};

/// Most schema nodes one proof visits (references can multiply them).
const BUDGET: usize = 2_000;

/// Whether `value` is valid under every schema of `srcs` (marker sources skipped).
pub(crate) fn proves(doc: &Doc<'_>, srcs: &[Src<'_>], value: &Value) -> bool {
    let mut budget = BUDGET;
    srcs.iter().filter(|(_, at)| !at.starts_with('\u{0}')).all(|(s, _)| valid(doc, s, value, &mut budget))
}

fn valid(doc: &Doc<'_>, schema: &Value, value: &Value, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let map = match schema {
        Value::Bool(b) => return *b,
        Value::Object(m) => m,
        _ => return false,
    };
    map.iter().all(|(k, v)| keyword(doc, map, k, v, value, budget))
}

fn count(v: &Value) -> Option<u64> {
    v.as_u64()
}

/// A number whose `f64` is exact (beyond 2^53 the comparison is not proved).
fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|f| f.abs() <= 9_007_199_254_740_992.0)
}

/// Whether the schema `{k: v}` accepts `value`, asked of jsonschema as the
/// local validator is built (offline; the working form's draft). Formats are
/// asserted, so a value passes only if it is valid whether or not the caller
/// asserts them. A keyword that does not build (never, after preflight) proves
/// nothing.
fn alone(k: &str, v: &Value, value: &Value) -> bool {
    let mut one = Map::new();
    one.insert(k.to_owned(), v.clone());
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .offline()
        .build(&Value::Object(one))
        .is_ok_and(|validator| validator.is_valid(value))
}

#[allow(clippy::too_many_lines)]
fn keyword(doc: &Doc<'_>, map: &Map<String, Value>, k: &str, v: &Value, value: &Value, budget: &mut usize) -> bool {
    match k {
        "type" => TypeSet::from_keyword(v).is_some_and(|t| t.admits(value)),
        "enum" => v.as_array().is_some_and(|e| crate::literal::contains(e, value)),
        "const" => crate::literal::equal(v, value),
        "allOf" => v.as_array().is_some_and(|parts| parts.iter().all(|p| valid(doc, p, value, budget))),
        "anyOf" => v.as_array().is_some_and(|parts| parts.iter().any(|p| valid(doc, p, value, budget))),
        "oneOf" => v.as_array().is_some_and(|parts| parts.len() == 1 && valid(doc, &parts[0], value, budget)),
        "$ref" => {
            v.as_str().and_then(|r| super::resolve(doc, r)).is_some_and(|(target, _)| valid(doc, target, value, budget))
        }
        "minLength" | "maxLength" => match value {
            Value::String(s) => {
                let n = s.chars().count() as u64;
                count(v).is_some_and(|c| if k == "minLength" { n >= c } else { n <= c })
            }
            _ => true,
        },
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => match (number(value), number(v)) {
            (Some(x), Some(b)) => match k {
                "minimum" => x >= b,
                "maximum" => x <= b,
                "exclusiveMinimum" => x > b,
                _ => x < b,
            },
            (None, _) => !value.is_number(),
            (Some(_), None) => false,
        },
        "multipleOf" => match (value, number(v)) {
            (Value::Number(n), Some(m)) if m > 0.0 => match (n.as_i64(), v.as_i64()) {
                (Some(a), Some(b)) if b > 0 => a % b == 0,
                _ => alone(k, v, value),
            },
            (Value::Number(_), _) => false,
            _ => true,
        },
        "minItems" | "maxItems" => match value {
            Value::Array(a) => {
                let n = a.len() as u64;
                count(v).is_some_and(|c| if k == "minItems" { n >= c } else { n <= c })
            }
            _ => true,
        },
        "uniqueItems" => match value {
            Value::Array(a) if v == &Value::Bool(true) => {
                a.iter().enumerate().all(|(i, x)| a[i + 1..].iter().all(|y| !crate::literal::equal(x, y)))
            }
            _ => true,
        },
        "items" | "prefixItems" => match value {
            Value::Array(a) => {
                let skip =
                    if k == "items" { map.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len) } else { 0 };
                match (k, v) {
                    ("items", schema) => a.iter().skip(skip).all(|x| valid(doc, schema, x, budget)),
                    (_, Value::Array(prefix)) => a.iter().zip(prefix).all(|(x, s)| valid(doc, s, x, budget)),
                    _ => false,
                }
            }
            _ => true,
        },
        "contains" | "minContains" | "maxContains" | "unevaluatedItems" => !value.is_array(),
        "minProperties" | "maxProperties" => match value {
            Value::Object(o) => {
                let n = o.len() as u64;
                count(v).is_some_and(|c| if k == "minProperties" { n >= c } else { n <= c })
            }
            _ => true,
        },
        "required" => match value {
            Value::Object(o) => {
                v.as_array().is_some_and(|r| r.iter().all(|n| n.as_str().is_some_and(|n| o.contains_key(n))))
            }
            _ => true,
        },
        "properties" => match (value, v) {
            (Value::Object(o), Value::Object(props)) => {
                o.iter().all(|(key, x)| props.get(key).is_none_or(|s| valid(doc, s, x, budget)))
            }
            (Value::Object(_), _) => false,
            _ => true,
        },
        "additionalProperties" => match value {
            Value::Object(o) => {
                let declared = map.get("properties").and_then(Value::as_object);
                o.iter()
                    .filter(|(key, _)| declared.is_none_or(|d| !d.contains_key(*key)))
                    .all(|(_, x)| valid(doc, v, x, budget))
            }
            _ => true,
        },
        "patternProperties" | "propertyNames" | "dependentRequired" | "dependentSchemas" | "unevaluatedProperties" => {
            value.as_object().is_none_or(Map::is_empty)
        }
        "pattern" | "format" => !value.is_string() || alone(k, v, value),
        // Annotations and containers never reject.
        k if crate::vocab::is_annotation(k) || matches!(k, "$defs" | "definitions") => true,
        // Unknown keywords are annotations; everything else is not evaluated here.
        k => crate::vocab::slot(k).is_none() && !k.starts_with("$schemacast:"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: &Value, value: &Value) -> bool {
        let doc = Doc { root: schema };
        proves(&doc, &[(schema, String::new())], value)
    }

    #[test]
    fn ok_proves_common_defaults() {
        assert!(check(&json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}), &json!(null)));
        assert!(check(&json!({"type": "array", "items": {"type": "string"}}), &json!([])));
        assert!(check(&json!({"enum": ["a", "b"], "type": "string"}), &json!("a")));
        assert!(check(&json!({"type": "integer", "minimum": 1, "maximum": 7}), &json!(3)));
        let defs = json!({"$defs": {"P": {"enum": ["low", "high"]}}, "$ref": "#/$defs/P"});
        assert!(check(&defs, &json!("low")));
        assert!(check(&json!({"type": "object", "properties": {"a": {"type": "string"}}}), &json!({"a": "x"})));
        assert!(check(&json!({"type": "number", "multipleOf": 2}), &json!(4)));
        // Keywords that read the value alone, asked of the validator.
        assert!(check(&json!({"type": "string", "pattern": "^a"}), &json!("abc")));
        assert!(check(&json!({"type": "string", "pattern": "[A-Za-z_]+(/[A-Za-z_]+)?"}), &json!("UTC")));
        assert!(check(&json!({"type": "string", "format": "email"}), &json!("a@b.c")));
        assert!(check(&json!({"type": "string", "format": "date"}), &json!("2024-02-29")));
        assert!(check(&json!({"type": "number", "multipleOf": 0.5}), &json!(1.5)));
        // As the validator reads it (0.3 is a multiple of 0.1 there, as it should be).
        assert!(check(&json!({"type": "number", "multipleOf": 0.1}), &json!(0.3)));
        assert!(check(&json!({"type": "string", "format": "no-such-format"}), &json!("x")));
    }

    #[test]
    fn err_refuses_what_it_cannot_prove() {
        assert!(!check(&json!({"type": "string", "pattern": "^a"}), &json!("bc")));
        assert!(!check(&json!({"type": "string", "pattern": "^\\d+$"}), &json!("12a")));
        assert!(!check(&json!({"type": "string", "format": "email"}), &json!("nobody")));
        assert!(!check(&json!({"type": "string", "format": "date"}), &json!("2023-02-29")));
        assert!(!check(&json!({"not": {"type": "null"}}), &json!(1)));
        assert!(!check(&json!({"type": "array", "minItems": 1}), &json!([])));
        assert!(!check(&json!({"type": "integer"}), &json!(1.5)));
        assert!(!check(&json!({"enum": [1]}), &json!("1")));
        assert!(!check(&json!({"type": "number", "multipleOf": 0.1}), &json!(0.35)));
        assert!(!check(&json!({"oneOf": [{"type": "null"}, {}]}), &json!(null)));
        assert!(!check(&json!(false), &json!(null)));
    }
}
