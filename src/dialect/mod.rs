//! Dialects: each turns a checked schema into one provider family's request shape.

pub(crate) mod claude;
pub(crate) mod envelope;
pub(crate) mod gemini;
pub(crate) mod grammar;
pub(crate) mod openai;
mod optional;
pub(crate) mod strict;

use crate::fragment::Fragment;
use crate::note::{Action, Enforcement, Note};

/// The bottom rung: nothing native is sent, and the note says why (`why`
/// ends where "nothing native is sent" begins).
pub(crate) fn nothing_native(em: &mut Fragment, why: &str) {
    em.body = serde_json::json!({});
    em.enforcement = Enforcement::Prompt;
    em.notes.push(Note::new(
        "",
        "",
        Action::Degraded,
        format!("{why}: nothing native is sent; ask for the JSON in the prompt and validate locally"),
    ));
}

/// Tells a caller who did not ask for `--reshape` that it would get the
/// schema sent natively (`what`): said only when the reshaped attempt succeeds.
pub(crate) fn reshape_hint(em: &mut Fragment, what: &str) {
    em.notes.push(Note::new(
        "",
        "",
        Action::Info,
        format!(
            "with `--reshape` (`Options::with_reshape(true)`), {what} is sent for this schema: the parts above travel in reversible forms that `decode` undoes"
        ),
    ));
}

/// A JSON object from `(key, value)` pairs, moving the values. (`json!` copies
/// an interpolated value through its serializer: a deep copy of the schema.)
pub(crate) fn object<const N: usize>(pairs: [(&str, serde_json::Value); N]) -> serde_json::Value {
    serde_json::Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}
