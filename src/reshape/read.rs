//! Reading the annotation one place at a time, as a streamed answer arrives:
//! the stream decoder applies the inverse where it is already decidable.

pub(crate) use super::has_markers;
use super::{NULLABLE, OR_NULL, PRESENT, WRAPPED};
use crate::lower::{JSON_TEXT, PAIRS};
use serde_json::Value;

/// The root was wrapped in `{"value": …}`.
pub(crate) fn is_wrapped(ann: &Value) -> bool {
    ann.get(WRAPPED) == Some(&Value::Bool(true))
}

/// Whether some rewrite can only be undone on a whole value: a map sent as
/// pairs, a value sent as JSON text, a presence wrapper, or a reference (whose
/// target the place-by-place reading does not follow). The stream decoder then
/// reads the whole answer before undoing anything.
pub(crate) fn needs_whole(ann: &Value) -> bool {
    match ann {
        Value::Object(m) => {
            m.contains_key(JSON_TEXT)
                || m.contains_key(PAIRS)
                || m.contains_key(PRESENT)
                || m.contains_key("$ref")
                || m.values().any(needs_whole)
        }
        Value::Array(a) => a.iter().any(needs_whole),
        _ => false,
    }
}

/// The annotation of member `key` of an object annotated by `ann`.
pub(crate) fn member<'a>(ann: &'a Value, key: &str) -> Option<&'a Value> {
    ann.get("properties")?.get(key)
}

/// The annotation of element `i` of an array annotated by `ann`.
pub(crate) fn element(ann: &Value, i: usize) -> Option<&Value> {
    super::element_node(ann, i).map(|(node, _)| node)
}

/// Whether member `key` is dropped when it comes back `null`.
pub(crate) fn drops_null(ann: &Value, key: &str) -> bool {
    ann.get(NULLABLE).and_then(Value::as_array).is_some_and(|a| a.iter().any(|n| n == key))
}

/// For a rewritten `[T, null]` union: `T`'s annotation.
pub(crate) fn or_null(ann: &Value) -> Option<&Value> {
    if ann.get(OR_NULL).is_some() { ann.pointer("/anyOf/0") } else { None }
}

/// A union whose branch the inverse chooses by validating the whole value.
pub(crate) fn is_union(ann: &Value) -> bool {
    ann.get(OR_NULL).is_none() && matches!(ann.get("anyOf"), Some(Value::Array(_)))
}
