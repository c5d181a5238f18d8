//! The crate's one error type.

use std::fmt;

/// What kind of problem stopped the compilation.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The schema is not a well-formed JSON Schema (meta-validation failed, or the
    /// local validator could not be built from it).
    InvalidSchema,
    /// The schema is well formed but uses something the local validator cannot
    /// enforce without I/O (a non-local `$ref`, an unknown `$schema`), or an
    /// unknown keyword while unknown keywords are denied.
    Unsupported,
    /// The schema exceeds one of the configured preflight limits (nesting depth,
    /// node count, enum size).
    LimitExceeded,
    /// An option is invalid (for example a `name` outside `[A-Za-z0-9_-]{1,64}`), or
    /// the option does not fit the provider or mode.
    InvalidOption,
    /// A schema given as text is not JSON ([`Error::not_json`]). The compiler
    /// takes values, so only readers of text meet it: the CLI, the Python package.
    InvalidJson,
}

impl ErrorKind {
    /// The stable lower-case name used in CLI output (`invalid_schema`, …).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidSchema => "invalid_schema",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::InvalidOption => "invalid_option",
            ErrorKind::InvalidJson => "invalid_json",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One located problem: a JSON Pointer into the source schema and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// RFC 6901 JSON Pointer into the source schema (`""` is the root).
    pub pointer: String,
    /// What is wrong at that spot, lower-case, no trailing period.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "at {at}: {}", self.message)
    }
}

/// The error returned by [`compile`](crate::compile) and friends.
///
/// It always carries at least one [`Problem`]; preflight reports every offending
/// location it found, not just the first.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {}", render(problems))]
pub struct Error {
    kind: ErrorKind,
    problems: Vec<Problem>,
}

fn render(problems: &[Problem]) -> String {
    let mut out = String::new();
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        out.push_str(&p.to_string());
    }
    out
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Error { kind, problems: vec![Problem { pointer: pointer.into(), message: message.into() }] }
    }

    /// A schema text that did not parse as JSON: [`ErrorKind::InvalidJson`] at
    /// the root, with the parser's message.
    #[must_use]
    pub fn not_json(e: &serde_json::Error) -> Self {
        Error::new(ErrorKind::InvalidJson, "", format!("the schema is not JSON: {e}"))
    }

    /// Builds an error from several problems; `problems` must not be empty.
    pub(crate) fn many(kind: ErrorKind, problems: Vec<Problem>) -> Self {
        debug_assert!(!problems.is_empty());
        if problems.is_empty() {
            return Error::new(kind, "", "unspecified problem");
        }
        Error { kind, problems }
    }

    /// The kind of problem.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The JSON Pointer of the first offending spot (`""` is the root).
    #[must_use]
    pub fn pointer(&self) -> &str {
        self.problems.first().map_or("", |p| p.pointer.as_str())
    }

    /// The message of the first problem.
    #[must_use]
    pub fn message(&self) -> &str {
        self.problems.first().map_or("", |p| p.message.as_str())
    }

    /// Every located problem, in document order.
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn err_a_schema_text_that_is_not_json() {
        let Err(e) = serde_json::from_str::<serde_json::Value>("{nope") else { panic!("parsed") };
        let err = Error::not_json(&e);
        assert_eq!(err.kind(), ErrorKind::InvalidJson);
        assert_eq!(err.pointer(), "");
        assert!(err.to_string().starts_with("invalid_json: at (root): the schema is not JSON: "), "{err}");
    }
}
