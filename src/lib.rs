//! schemacast compiles a JSON Schema into the fragment of an LLM provider's
//! request body that asks for structured output, in that provider's dialect.
//!
//! Its promise: **native constraints are never stronger than the caller's
//! schema.** Where a provider cannot express a keyword, the emission widens or
//! falls back a rung (`exact` → `widened` → `json` → `prompt`) and says why in a
//! located note; it never sends something that would block a valid answer or
//! that the provider would reject.
//!
//! The library does no I/O, reads no environment or clock, keeps no global
//! state and never panics on any input. `$ref`s are resolved inside the
//! document only.
//!
//! # Example
//!
//! ```
//! use schemacast::{Enforcement, Provider, emit};
//! let schema = serde_json::json!({
//!     "type": "object",
//!     "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
//!     "required": ["city", "celsius"],
//!     "additionalProperties": false
//! });
//! let emission = emit(&schema, Provider::OpenAi)?;
//! assert_eq!(emission.enforcement(), Enforcement::Exact);
//! assert_eq!(emission.body()["response_format"]["type"], "json_schema");
//!
//! // An array root can't use `json_object` (it forces an object): nothing native is sent.
//! let list = serde_json::json!({"type": "array", "items": {"type": "string"}});
//! assert_eq!(emit(&list, Provider::OpenAi)?.enforcement(), Enforcement::Prompt);
//! # Ok::<(), schemacast::Error>(())
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![warn(missing_debug_implementations)]

mod analysis;
mod closure;
mod decode;
mod dialect;
mod emission;
mod error;
mod fragment;
mod front;
mod info;
mod literal;
mod lower;

#[cfg(any(test, feature = "laws"))]
#[doc(hidden)]
pub mod laws;
mod native;
mod note;
mod options;
mod pattern;
mod pipeline;
mod pointer;
mod preflight;
mod profile;
mod prompt;
mod reshape;
mod stream;
mod suggest;
mod typed;
mod types;
mod vocab;

#[cfg(test)]
mod tests;

/// The README's code blocks run as doctests, so its examples stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub use decode::{Answer, DecodeError, FinishReason, Violation};
pub use emission::{Action, Emission, Enforcement, Note};
pub use error::{Error, ErrorKind, Problem};
pub use info::ProviderInfo;
pub use options::{ClaudeMechanism, GeminiDialect, Mode, Options, Provider};
pub use prompt::{instruction, repair};
pub use stream::{EarlyError, EventSplitter, Partial, StreamDecoder, StreamEvent};
#[cfg(feature = "schemars")]
pub use typed::{emit_for, schema_for};
pub use vocab::Draft;

use serde_json::Value;

/// Compiles `schema` for `provider` in [`Mode::Schema`] with default options.
///
/// # Errors
///
/// See [`compile`].
///
/// # Example
///
/// ```
/// let schema = serde_json::json!({"enum": ["yes", "no"]});
/// let emission = schemacast::emit(&schema, schemacast::Provider::Groq)?;
/// assert_eq!(emission.body(), &serde_json::json!({}));
/// # Ok::<(), schemacast::Error>(())
/// ```
pub fn emit(schema: &Value, provider: Provider) -> Result<Emission, Error> {
    Options::new(provider).compile(schema)
}

/// Compiles `schema` for `provider` in `mode` with default options.
///
/// # Errors
///
/// - [`ErrorKind::InvalidSchema`]: not a well-formed schema (every meta-validation
///   error is listed with its pointer), or the local validator cannot be built.
/// - [`ErrorKind::Unsupported`]: a non-local or dangling `$ref`, an unknown
///   `$schema`, or an unknown keyword while they are denied.
/// - [`ErrorKind::LimitExceeded`]: depth, node count or enum size over the limits.
///
/// # Example
///
/// ```
/// use schemacast::{ErrorKind, Mode, Provider};
/// let bad = serde_json::json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}});
/// let err = schemacast::compile(&bad, Provider::OpenAi, Mode::Schema).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Unsupported);
/// assert_eq!(err.pointer(), "/properties/a/$ref");
/// ```
pub fn compile(schema: &Value, provider: Provider, mode: Mode) -> Result<Emission, Error> {
    Options::new(provider).with_mode(mode).compile(schema)
}

/// Compiles without a schema: [`Mode::Json`] gives the provider's plain JSON mode,
/// [`Mode::Text`] an empty fragment.
///
/// # Errors
///
/// [`ErrorKind::InvalidOption`] for [`Mode::Schema`].
///
/// # Example
///
/// ```
/// use schemacast::{Mode, Provider};
/// let emission = schemacast::compile_without_schema(Provider::OpenAi, Mode::Json)?;
/// assert_eq!(emission.body(), &serde_json::json!({"response_format": {"type": "json_object"}}));
/// # Ok::<(), schemacast::Error>(())
/// ```
pub fn compile_without_schema(provider: Provider, mode: Mode) -> Result<Emission, Error> {
    Options::new(provider).with_mode(mode).compile_without_schema()
}

/// The closed-world projection `π(value)` of contract §3, with default
/// options: drops from `value` every key that a closable object of `schema`
/// does not declare, closing unions by the first branch the value satisfies,
/// and fills in absent properties whose `default` provably keeps it valid,
/// recursively.
///
/// This is what dialects that close objects (Gemini's `responseSchema`, strict
/// modes) may return for an answer without narrowing: every instance `x` the
/// schema accepts stays valid after projection, and the provider can produce
/// `project(schema, x)`. An object is closable when it declares at least one
/// property, every `required` name is declared, and nothing else it (or any
/// schema applying at the same spot) says concerns other keys. `project` does
/// not validate the schema (use [`compile`] or [`validate`] for that); it reads
/// the draft and resolves references, and builds validators of the union
/// branches only when it meets a union. [`Emission::project`] reads the schema
/// as an emission did (its options, documents and default draft) and keeps
/// those validators. A document that is not a schema (not an object or a
/// boolean, or over the default size limits) is treated as saying nothing.
///
/// # Example
///
/// ```
/// let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}});
/// let projected = schemacast::project(&schema, &serde_json::json!({"a": 1, "extra": true}));
/// assert_eq!(projected, serde_json::json!({"a": 1}));
/// let map = serde_json::json!({"type": "object", "additionalProperties": {"type": "integer"}});
/// assert_eq!(schemacast::project(&map, &serde_json::json!({"x": 1})), serde_json::json!({"x": 1}));
/// ```
#[must_use]
pub fn project(schema: &Value, value: &Value) -> Value {
    let opts = Options::new(Provider::OpenAi);
    let Some(work) = preflight::light(schema, &opts) else {
        return value.clone();
    };
    let branches = std::sync::OnceLock::new();
    let accepts = |at: &str, v: &Value| {
        let map = branches.get_or_init(|| preflight::branch_validators(&work.root, true));
        map.as_ref().and_then(|m| m.get(&format!("#{at}"))).is_some_and(|val| val.is_valid(v))
    };
    closure::project_value(&analysis::Doc { root: &work.root }, value, closure::Readings::ALL, &accepts)
}

/// Validates `value` against `schema` with the local validator, for callers that
/// parse answers themselves.
///
/// # Errors
///
/// [`DecodeError::Invalid`] lists every violation with its pointer into `value`;
/// [`DecodeError::Schema`] when the schema fails preflight.
///
/// # Example
///
/// ```
/// let schema = serde_json::json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
/// assert!(schemacast::validate(&schema, &serde_json::json!({"n": 1})).is_ok());
/// let err = schemacast::validate(&schema, &serde_json::json!({"n": "one"})).unwrap_err();
/// assert_eq!(err.kind(), "schema_violation");
/// ```
pub fn validate(schema: &Value, value: &Value) -> Result<(), DecodeError> {
    let checked = preflight::check(schema, &Options::new(Provider::OpenAi)).map_err(DecodeError::Schema)?;
    let validator = checked.validator.get(schema).map_err(|e| DecodeError::Schema(e.clone()))?;
    decode::check(validator, value)
}
