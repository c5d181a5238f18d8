//! The answer side of an [`Emission`]: decoding a whole response body, and
//! the response bodies and sent forms its tests and the stream decoder use.
//! (Layer: decode sits above emission, so these methods live here.)

use super::{Answer, DecodeError, Raw, extract, parse_text, response_body, validated};
use crate::Emission;
use serde_json::Value;

impl Emission {
    /// Finds the answer in the provider's whole response body, removes one
    /// wrapping Markdown fence, parses it, and validates it against the source
    /// schema (authoritative).
    ///
    /// Where the answer is, per provider: OpenAI-compatible `choices[0].message.content`
    /// (`refusal` reported as [`DecodeError::Refusal`]); Gemini the text parts of
    /// `candidates[0].content.parts`, thought parts skipped; Claude the forced
    /// tool's `tool_use.input`, or the text blocks when no tool was used; Ollama
    /// `message.content`.
    ///
    /// # Errors
    ///
    /// Every way an answer can fail is a [`DecodeError`] variant: no answer,
    /// refusal, truncated (finish reason `length`), not JSON, or schema violations
    /// (all of them, each with its pointer into the answer).
    ///
    /// # Example
    ///
    /// ```
    /// use schemacast::{FinishReason, Provider};
    /// let schema = serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}},
    ///     "required": ["city"], "additionalProperties": false});
    /// let emission = schemacast::emit(&schema, Provider::OpenAi)?;
    /// let response = serde_json::json!({"choices": [{"index": 0, "finish_reason": "stop",
    ///     "message": {"role": "assistant", "content": "{\"city\": \"Oslo\"}"}}]});
    /// let answer = emission.decode(&response).expect("a valid answer");
    /// assert_eq!(answer.value()["city"], "Oslo");
    /// assert_eq!(answer.finish_reason(), &FinishReason::Stop);
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    pub fn decode(&self, response_body: &Value) -> Result<Answer, DecodeError> {
        let envelope = crate::profile::profile(self.provider).envelope;
        let validator = self.local_validator().map_err(|e| DecodeError::Schema(e.clone()))?;
        let (raw, finish) = extract(envelope, self.tool.as_deref(), response_body)?;
        let value = match raw {
            Raw::Value(v) => v,
            Raw::Text(t) => parse_text(&t)?,
        };
        validated(self.undo(value)?, finish, validator)
    }

    /// Checks `value` against the source schema with the local validator
    /// [`decode`](Emission::decode) uses, so with the draft, the documents and
    /// the format assertion this emission was compiled with ([`crate::validate`]
    /// takes the default options). The value is taken as it is: no fence is
    /// removed and no reshape undone. Compiled without a schema, every value passes.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Invalid`] with every violation, or [`DecodeError::Schema`]
    /// when the validator cannot be built.
    pub fn validate(&self, value: &Value) -> Result<(), DecodeError> {
        match self.local_validator().map_err(|e| DecodeError::Schema(e.clone()))? {
            Some(validator) => super::check(validator, value),
            None => Ok(()),
        }
    }

    /// Undoes this emission's reversible rewrites on an answer as sent
    /// (nothing to undo without `--reshape`).
    pub(crate) fn undo(&self, value: Value) -> Result<Value, DecodeError> {
        match &self.reshape {
            Some(ann) => Ok(crate::reshape::inverse(value, ann, &|at: &str, y: &Value| self.sent_accepts(at, y))?),
            None => Ok(value),
        }
    }

    /// What the provider sends for the answer `x`: `x` reshaped when the
    /// emission reshapes (as it is when the reshape has no form for it).
    pub(crate) fn sent<'x>(&self, x: &'x Value) -> std::borrow::Cow<'x, Value> {
        match self.forward(x) {
            Some(v) => std::borrow::Cow::Owned(v),
            None => std::borrow::Cow::Borrowed(x),
        }
    }

    /// What the provider sends for the answer `x`: projected, then reshaped.
    /// `None` when the reshape has no form for it.
    #[cfg(any(test, feature = "laws"))]
    pub(crate) fn sent_for(&self, x: &Value) -> Option<Value> {
        let projected = self.project(x);
        if self.reshape.is_none() {
            return Some(projected);
        }
        self.forward(&projected)
    }

    /// A minimal successful response body of this provider's shape that carries
    /// `answer` (reshaped first when the emission reshapes), so that
    /// [`decode`](Emission::decode) returns it: for testing client code without
    /// the network, and for benchmarks.
    ///
    /// ```
    /// use schemacast::{Provider, emit};
    /// let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}});
    /// for provider in Provider::ALL {
    ///     let emission = emit(&schema, *provider)?;
    ///     let body = emission.response_for(&serde_json::json!({"a": 1}));
    ///     assert_eq!(emission.decode(&body).expect("decodes").value()["a"], 1);
    /// }
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    #[must_use]
    pub fn response_for(&self, answer: &Value) -> Value {
        let envelope = crate::profile::profile(self.provider).envelope;
        response_body(envelope, self.tool.as_deref(), &self.sent(answer))
    }
}
