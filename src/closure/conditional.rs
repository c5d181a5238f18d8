//! Which `if` schemas leave an object closable: those whose verdict the
//! projection cannot change.

use serde_json::Value;

/// Whether an `if` schema's verdict on an object depends only on which
/// members it declares are present and on those members' kinds and scalar
/// values: it holds only `required`, `type`, annotations, and `properties`
/// whose schemas say only `type`, scalar literals and string, number or
/// length bounds. Dropping undeclared keys, or keys inside a member's value,
/// cannot change such a verdict (a member it names is declared, so kept; an
/// object or array member is judged by its kind alone).
pub(super) fn reads_declared_scalars(s: &Value) -> bool {
    const NOTES: [&str; 7] = ["title", "description", "$comment", "examples", "deprecated", "readOnly", "writeOnly"];
    let member = |v: &Value| match v {
        Value::Bool(_) => true,
        Value::Object(m) => m.iter().all(|(k, x)| {
            NOTES.contains(&k.as_str())
                || (judges_alone(k) && !(matches!(k.as_str(), "const" | "enum") && crate::literal::has_object(x)))
                || (k == "default")
        }),
        _ => false,
    };
    match s {
        Value::Bool(_) => true,
        Value::Object(m) => m.iter().all(|(k, x)| match k.as_str() {
            "type" | "required" => true,
            "properties" => x.as_object().is_some_and(|p| p.values().all(member)),
            other => NOTES.contains(&other),
        }),
        _ => false,
    }
}

/// Keywords that judge a value by its kind, a scalar's value or an array's
/// length alone, never by an object's members.
fn judges_alone(k: &str) -> bool {
    matches!(k, "type" | "const" | "enum" | "minLength" | "maxLength" | "pattern" | "format" | "minItems" | "maxItems")
        || matches!(k, "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf")
}
