//! What a compilation says about itself: the enforcement rung and the located
//! notes. Layer 0: every pass writes notes, so they sit below all of them
//! (re-exported from `emission`, where the public API has them).

use serde_json::{Value, json};
use std::fmt;

/// How strongly the provider will enforce the schema, strongest first.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Enforcement {
    /// A native schema that accepts exactly what the source schema accepts
    /// (after closed-world projection and reversible rewrites).
    Exact,
    /// A native schema that accepts more than the source schema (never less).
    Widened,
    /// The provider's plain JSON mode only: syntactically valid JSON, shape unchecked.
    Json,
    /// Nothing native: the caller should ask in the prompt (see the notes) and
    /// rely on local validation.
    Prompt,
    /// Plain text was asked for ([`Mode::Text`](crate::Mode::Text)).
    None,
}

impl Enforcement {
    /// The stable lower-case name (`exact`, `widened`, `json`, `prompt`, `none`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Enforcement::Exact => "exact",
            Enforcement::Widened => "widened",
            Enforcement::Json => "json",
            Enforcement::Prompt => "prompt",
            Enforcement::None => "none",
        }
    }
}

impl fmt::Display for Enforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an emitter did at a spot of the source schema.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// The keyword was left out of the native schema (widening or annotation-only).
    Dropped,
    /// The keyword was rewritten into an equivalent or weaker form.
    Rewritten,
    /// A stronger mechanism was not used here; the emission fell back a rung.
    Degraded,
    /// An unknown keyword was read as an annotation.
    Ignored,
    /// Information for the caller (requirements of the request, caveats).
    Info,
}

impl Action {
    /// The stable lower-case name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Dropped => "dropped",
            Action::Rewritten => "rewritten",
            Action::Degraded => "degraded",
            Action::Ignored => "ignored",
            Action::Info => "info",
        }
    }
}

/// One located remark about an emission.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Note {
    /// JSON Pointer into the source schema (`""` is the root).
    pub pointer: String,
    /// The keyword concerned (empty for remarks about the whole request).
    pub keyword: String,
    /// What was done.
    pub action: Action,
    /// Why, in plain words.
    pub reason: String,
}

impl Note {
    pub(crate) fn new(
        pointer: impl Into<String>,
        keyword: impl Into<String>,
        action: Action,
        reason: impl Into<String>,
    ) -> Self {
        Note { pointer: pointer.into(), keyword: keyword.into(), action, reason: reason.into() }
    }

    /// The note as a JSON object `{"pointer","keyword","action","reason"}`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({"pointer": self.pointer, "keyword": self.keyword, "action": self.action.as_str(), "reason": self.reason})
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        if self.keyword.is_empty() {
            write!(f, "{at}: {}: {}", self.action.as_str(), self.reason)
        } else {
            write!(f, "{at}: `{}` {}: {}", self.keyword, self.action.as_str(), self.reason)
        }
    }
}
