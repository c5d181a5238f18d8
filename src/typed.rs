//! Typed use from Rust: answers (whole or streamed) deserialised into the caller's types, and
//! (feature `schemars`) schemas taken from types that derive `JsonSchema`.
//!
//! Layer invariant: sits on top of emission and decode; adds no behaviour of
//! its own beyond serde's.

use crate::{DecodeError, Emission, StreamDecoder};
use serde_json::Value;

impl Emission {
    /// [`decode`](Emission::decode), then deserialises the validated answer
    /// into `T`. The answer is validated against the source schema first, so
    /// `T` only has to agree with that schema.
    ///
    /// # Errors
    ///
    /// Every error of [`decode`](Emission::decode), and
    /// [`DecodeError::Deserialize`] when the valid answer is not a `T`.
    ///
    /// # Example
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct City { name: String, population: u64 }
    ///
    /// let schema = serde_json::json!({"type": "object", "properties": {
    ///     "name": {"type": "string"}, "population": {"type": "integer", "minimum": 0}},
    ///     "required": ["name", "population"], "additionalProperties": false});
    /// let emission = schemacast::emit(&schema, schemacast::Provider::Gemini)?;
    /// let response = emission.response_for(&serde_json::json!({"name": "Oslo", "population": 717710}));
    /// let city: City = emission.decode_as(&response).expect("a valid city");
    /// assert_eq!(city, City { name: "Oslo".into(), population: 717_710 });
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    pub fn decode_as<T: serde::de::DeserializeOwned>(&self, response_body: &Value) -> Result<T, DecodeError> {
        let value = self.decode(response_body)?.into_value();
        T::deserialize(&value).map_err(|e| DecodeError::Deserialize { message: e.to_string(), value })
    }
}

impl StreamDecoder<'_> {
    /// [`finish`](StreamDecoder::finish), then deserialises the validated
    /// answer into `T`: the streaming [`decode_as`](Emission::decode_as).
    ///
    /// # Errors
    ///
    /// Every error of [`finish`](StreamDecoder::finish), and
    /// [`DecodeError::Deserialize`] when the valid answer is not a `T`.
    ///
    /// # Example
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug, PartialEq)]
    /// struct City { name: String }
    ///
    /// let schema = serde_json::json!({"type": "object", "properties": {"name": {"type": "string"}},
    ///     "required": ["name"], "additionalProperties": false});
    /// let emission = schemacast::emit(&schema, schemacast::Provider::Claude)?;
    /// let mut stream = emission.stream();
    /// for event in emission.events_for(&serde_json::json!({"name": "Oslo"}), 4) {
    ///     stream.push(&event); // each event as the provider's stream gives it
    /// }
    /// let city: City = stream.finish_as().expect("a valid city");
    /// assert_eq!(city, City { name: "Oslo".into() });
    /// # Ok::<(), schemacast::Error>(())
    /// ```
    pub fn finish_as<T: serde::de::DeserializeOwned>(self) -> Result<T, DecodeError> {
        let value = self.finish()?.into_value();
        T::deserialize(&value).map_err(|e| DecodeError::Deserialize { message: e.to_string(), value })
    }
}

/// The JSON Schema of `T` as schemars generates it (draft 2020-12, the
/// generator's default settings).
#[cfg(feature = "schemars")]
#[must_use]
pub fn schema_for<T: schemars::JsonSchema>() -> Value {
    schemars::SchemaGenerator::default().into_root_schema_for::<T>().to_value()
}

/// Compiles the schema of `T` (see [`schema_for`]) for `provider` with default
/// options: `emit(&schema_for::<T>(), provider)`.
///
/// # Errors
///
/// See [`compile`](crate::compile).
///
/// # Example
///
/// ```
/// #[derive(schemars::JsonSchema, serde::Deserialize)]
/// struct Answer { verdict: bool, reasons: Vec<String> }
///
/// let emission = schemacast::emit_for::<Answer>(schemacast::Provider::OpenAi)?;
/// assert_eq!(emission.enforcement(), schemacast::Enforcement::Exact);
/// # Ok::<(), schemacast::Error>(())
/// ```
#[cfg(feature = "schemars")]
pub fn emit_for<T: schemars::JsonSchema>(provider: crate::Provider) -> Result<Emission, crate::Error> {
    crate::Options::new(provider).compile_for::<T>()
}

#[cfg(feature = "schemars")]
impl crate::Options {
    /// Compiles the schema of `T` (see [`schema_for`]) with these options.
    ///
    /// # Errors
    ///
    /// See [`compile`](crate::compile).
    pub fn compile_for<T: schemars::JsonSchema>(&self) -> Result<Emission, crate::Error> {
        self.compile(&schema_for::<T>())
    }
}
