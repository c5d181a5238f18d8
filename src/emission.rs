//! The result of a compilation: the body fragment and what it means.

use crate::options::{Mode, Provider};
use serde_json::{Map, Value, json};

pub use crate::note::{Action, Enforcement, Note};

/// A compiled request-body fragment for one provider and mode.
///
/// Deep-merge [`body`](Emission::body) into the provider request body and add
/// [`headers`](Emission::headers) to the request. Keep the emission to
/// [`decode`](Emission::decode) the response: it holds the local validator of
/// the source schema, compiled at the first `decode` and kept for the next ones.
#[derive(Debug, Clone)]
pub struct Emission {
    pub(crate) provider: Provider,
    pub(crate) mode: Mode,
    pub(crate) body: Value,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) enforcement: Enforcement,
    pub(crate) notes: Vec<Note>,
    /// The caller's schema, kept for local validation of the answer.
    pub(crate) source: Option<Value>,
    /// The authoritative local validator of `source`, built on first use
    /// (preflight builds it at once when the build could fail).
    pub(crate) validator: Option<crate::preflight::LazyValidator>,
    /// The annotated sent schema when reversible rewrites were applied.
    pub(crate) reshape: Option<Value>,
    /// The name of the tool the request forces, when the answer comes back as
    /// that tool's input (Claude's and Bedrock's tool mechanisms).
    pub(crate) tool: Option<String>,
    /// The request turns on Claude's extended thinking: a tool is offered, never
    /// forced (read by the acceptance law).
    #[cfg_attr(not(any(test, feature = "laws")), allow(dead_code))]
    pub(crate) claude_thinking: bool,
    /// The front end's working form of `source`, when it is not `source` itself
    /// (another draft, identifiers, supplied documents).
    pub(crate) work: Option<Value>,
    /// The projection's readings, from the options.
    pub(crate) readings: crate::closure::Readings,
    /// Whether formats are asserted (for the projection's branch validators).
    pub(crate) assert_formats: bool,
    /// Validators of the working form's sub-schemas, built at the first
    /// [`project`](Emission::project) that meets a union (shared by clones).
    pub(crate) branches: std::sync::Arc<std::sync::OnceLock<Option<jsonschema::ValidatorMap>>>,
    /// Validators of the sent schema's sub-schemas (reshaped emissions): how
    /// `decode` tells which union branch an answer took.
    pub(crate) sent_branches: std::sync::Arc<std::sync::OnceLock<Option<jsonschema::ValidatorMap>>>,
}

impl Emission {
    /// Whether reversible rewrites (contract §5) shape this emission's answers:
    /// [`decode`](Emission::decode) undoes them.
    #[must_use]
    pub fn is_reshaped(&self) -> bool {
        self.reshape.is_some()
    }

    /// The local validator of the source schema, built at the first call.
    pub(crate) fn local_validator(&self) -> Result<Option<&jsonschema::Validator>, &crate::Error> {
        match (&self.validator, &self.source) {
            (Some(v), Some(source)) => v.get(source).map(Some),
            _ => Ok(None),
        }
    }

    /// The provider this emission is for.
    #[must_use]
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The mode asked for.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The JSON object to deep-merge into the provider request body.
    #[must_use]
    pub fn body(&self) -> &Value {
        &self.body
    }

    /// HTTP headers to add to the request (usually none).
    #[must_use]
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// How strongly the provider enforces the schema with this fragment.
    #[must_use]
    pub fn enforcement(&self) -> Enforcement {
        self.enforcement
    }

    /// Located notes: every keyword dropped or rewritten, every fallback and why,
    /// and what the request needs besides the fragment.
    #[must_use]
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// What the provider may return for this emission, as a JSON Schema: the
    /// crate's statement of what each provider enforces, read back from the body
    /// alone under the conservative readings of the contract. `None` when nothing
    /// native constrains the answer (`prompt`, `none`).
    ///
    /// How each body is read:
    ///
    /// - OpenAI-family strict `json_schema`: the schema as sent, every object closed;
    ///   `json_object`: any object (`{"type":"object"}`).
    /// - Gemini `responseSchema`: the OpenAPI schema as JSON Schema, every OBJECT
    ///   closed to its `properties`, `nullable` adding `null`; `responseJsonSchema`: as
    ///   sent, objects without `additionalProperties` closed; the mime type alone: any object.
    /// - Ollama `format: {…}`: llama.cpp's reading, objects without
    ///   `additionalProperties` closed and `{}` meaning any object; `format: "json"`: any object.
    /// - Claude forced (non-strict) tool: any object.
    ///
    /// Every instance the source schema accepts, once [`project`](crate::project)ed,
    /// validates against this schema: that is the crate's promise, checked by
    /// property tests, the JSON-Schema-Test-Suite sweep and the fuzzers.
    ///
    /// # Example
    ///
    /// ```
    /// let schema = serde_json::json!({"type": "object", "additionalProperties": {"type": "integer"}});
    /// let emission = schemacast::emit(&schema, schemacast::Provider::Gemini)?;
    /// assert_eq!(emission.native_schema(), Some(serde_json::json!({"type": "object"})));
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    #[must_use]
    pub fn native_schema(&self) -> Option<Value> {
        crate::native::native_schema(self.provider, &self.body)
    }

    /// The closed-world projection `π(value)` (contract §3) of this emission:
    /// what the provider may return for `value`, before any reversible rewrite.
    /// Reads the schema as this emission read it (its draft, supplied documents
    /// and options): undeclared keys of closable objects dropped, unions closed
    /// by the first branch the value satisfies, absent properties with a
    /// provably valid `default` filled in. Without a schema, `value` unchanged.
    /// The first call, when the schema has unions, builds validators of its
    /// branches, kept for the next calls.
    ///
    /// ```
    /// let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    /// let emission = schemacast::emit(&schema, schemacast::Provider::Gemini)?;
    /// assert_eq!(emission.project(&serde_json::json!({"a": 1, "b": 2})), serde_json::json!({"a": 1}));
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    #[must_use]
    pub fn project(&self, value: &Value) -> Value {
        let Some(root) = self.work.as_ref().or(self.source.as_ref()) else { return value.clone() };
        let build = || crate::preflight::branch_validators(root, self.assert_formats);
        // Built before the walk rather than deep inside it, where building
        // (itself recursive) would stack on top of the walk.
        if has_union(root) {
            self.branches.get_or_init(build);
        }
        let accepts = |at: &str, v: &Value| {
            let map = self.branches.get_or_init(build);
            map.as_ref().and_then(|m| m.get(&format!("#{at}"))).is_some_and(|val| val.is_valid(v))
        };
        crate::closure::project_value(&crate::analysis::Doc { root }, value, self.readings, &accepts)
    }

    /// The validators of the reshaped schema's branches, as sent
    /// ([`Emission::sent_accepts`]); `None` without a reshape.
    pub(crate) fn sent_validators(&self) -> Option<&jsonschema::ValidatorMap> {
        let ann = self.reshape.as_ref()?;
        self.sent_branches.get_or_init(|| crate::preflight::branch_validators(&crate::lower::strip(ann), true)).as_ref()
    }

    /// Whether the sent schema's union branch at `at` (a pointer into the
    /// annotated schema) accepts `y`: validators of the sent schema's
    /// sub-schemas, built once, at the first need.
    pub(crate) fn sent_accepts(&self, at: &str, y: &Value) -> bool {
        self.sent_validators().and_then(|m| m.get(&format!("#{at}"))).is_some_and(|v| v.is_valid(y))
    }

    /// The reshaped answer `x` as sent ([`crate::reshape::forward`]), the
    /// validators of its unions built before the walk, not deep inside it
    /// (see [`Emission::project`]). `None` without a reshape, or when no form fits.
    pub(crate) fn forward(&self, x: &Value) -> Option<Value> {
        let ann = self.reshape.as_ref()?;
        if has_union(ann) {
            self.sent_validators();
        }
        crate::reshape::forward(x, ann, &|at: &str, y: &Value| self.sent_accepts(at, y))
    }

    /// The caller's schema this emission was compiled from, if any.
    #[must_use]
    pub fn source_schema(&self) -> Option<&Value> {
        self.source.as_ref()
    }

    /// The whole emission as one JSON object
    /// `{"provider","mode","enforcement","body","headers","notes"}` (the CLI's output).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let headers: Map<String, Value> =
            self.headers.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        json!({
            "provider": self.provider.name(),
            "mode": self.mode.name(),
            "enforcement": self.enforcement.as_str(),
            "body": self.body,
            "headers": headers,
            "notes": self.notes.iter().map(Note::to_json).collect::<Vec<_>>(),
        })
    }
}

/// Whether `schema` has an `anyOf` or `oneOf` anywhere (a member named so
/// counts too: it only makes validators be built early).
fn has_union(schema: &Value) -> bool {
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if m.contains_key("anyOf") || m.contains_key("oneOf") {
                    return true;
                }
                stack.extend(m.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod thread_tests {
    #[test]
    fn ok_emission_is_clone_send_sync() {
        fn assert_traits<T: Clone + Send + Sync>() {}
        assert_traits::<super::Emission>();
    }
}
