//! JSON Schema equality of literal values.
//!
//! serde_json's `Value` equality is not JSON Schema's: `1` and `1.0` are two
//! different `Value`s but one number, so `enum`, `const` and `uniqueItems`
//! reasoning must compare with [`equal`].

use serde_json::{Number, Value};

/// JSON Schema equality: numbers by mathematical value, objects by their
/// key-value pairs in any order, arrays item by item.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => numbers_equal(x, y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

fn numbers_equal(x: &Number, y: &Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    match (x.as_f64(), y.as_f64()) {
        // An integer beyond f64's exact range against a float: compare exactly
        // when the float is whole, through i128.
        (Some(a), Some(b)) if a == b => match (whole(x), whole(y)) {
            (Some(p), Some(q)) => p == q,
            _ => true,
        },
        _ => false,
    }
}

/// The number as an exact whole `i128`, when it is one.
fn whole(n: &Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 1.7e38).then_some(f as i128)
}

/// Whether `values` holds `v` (JSON Schema equality).
pub(crate) fn contains(values: &[Value], v: &Value) -> bool {
    values.iter().any(|x| equal(x, v))
}

/// `values` without repeats (JSON Schema equality), first occurrences kept.
/// Strings (equal only to the same string) are looked up in a set, so a long
/// `enum` of strings costs linear time; other values are compared pairwise.
pub(crate) fn dedup(values: Vec<Value>) -> Vec<Value> {
    let keep: Vec<bool> = {
        let mut strings: std::collections::HashSet<&str> = std::collections::HashSet::new();
        let mut others: Vec<&Value> = Vec::new();
        values
            .iter()
            .map(|v| match v {
                Value::String(s) => strings.insert(s.as_str()),
                _ if others.iter().any(|o| equal(o, v)) => false,
                _ => {
                    others.push(v);
                    true
                }
            })
            .collect()
    };
    values.into_iter().zip(keep).filter_map(|(v, k)| k.then_some(v)).collect()
}

/// Whether `v` holds an object anywhere inside it.
pub(crate) fn has_object(v: &Value) -> bool {
    match v {
        Value::Object(_) => true,
        Value::Array(a) => a.iter().any(has_object),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ok_numbers_by_value() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(&json!({"a": [1, {"b": 2.0}]}), &json!({"a": [1.0, {"b": 2}]})));
        assert!(equal(&json!(-0.0), &json!(0)));
        assert_eq!(dedup(vec![json!(1), json!(1.0), json!("x")]), vec![json!(1), json!("x")]);
        // Strings by set, the rest pairwise: first occurrences, in order.
        let mixed =
            vec![json!("b"), json!(null), json!("a"), json!("b"), json!([1]), json!(null), json!([1.0]), json!("a")];
        assert_eq!(dedup(mixed), vec![json!("b"), json!(null), json!("a"), json!([1])]);
        assert_eq!(dedup(vec![json!("1"), json!(1)]), vec![json!("1"), json!(1)]);
        assert!(contains(&[json!(1.0), json!("x")], &json!(1)));
    }

    #[test]
    fn err_different_values() {
        assert!(!equal(&json!(1), &json!(1.5)));
        assert!(!equal(&json!(1), &json!("1")));
        assert!(!equal(&json!(true), &json!(1)));
        assert!(!equal(&json!([1, 2]), &json!([2, 1])));
        assert!(!equal(&json!(9_007_199_254_740_993_u64), &json!(9_007_199_254_740_992_u64)));
        assert!(!equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    }
}
