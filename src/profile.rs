//! Provider profiles: every difference between providers, as data.
//!
//! Code outside this module never asks which provider it is serving; it reads
//! the profile: which dialect shapes the request, which keywords and limits the
//! native schema mode has, and what the request needs besides the fragment.

use crate::lower::Rules;
use crate::options::{ClaudeMechanism, Provider};

/// Which emitter turns a checked schema into the provider's native schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// An OpenAI-style strict `json_schema` mode ([`Profile::strict`]), or JSON mode only.
    OpenAiStrict,
    /// Gemini `generationConfig` (`responseSchema` / `responseJsonSchema`).
    Gemini,
    /// A plain JSON Schema compiled into a grammar ([`Profile::grammar`]): every
    /// object's openness stated, "any value" spelled out.
    Grammar,
    /// Claude's mechanisms ([`ClaudeMechanism`]): a forced
    /// tool, a strict tool, or native JSON outputs.
    Claude,
}

/// Where the fragment goes in the request body, and where the answer comes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Envelope {
    /// Chat Completions `response_format` (`json_schema` / `json_object`);
    /// answer in `choices[0].message.content`.
    ChatCompletions,
    /// OpenAI Responses `text.format` (flattened); answer in `output[]`.
    Responses,
    /// Gemini `generationConfig`; answer in `candidates[0].content.parts`.
    Gemini,
    /// Ollama `format`; answer in `message.content`.
    OllamaFormat,
    /// Cohere v2 `response_format: {type: json_object, json_schema}`; answer in
    /// `message.content[0].text`.
    Cohere,
    /// Anthropic Messages (`tools` / `output_config`); answer in `content[]`.
    Anthropic,
    /// Bedrock Converse (`toolConfig` / `outputConfig`); answer in
    /// `output.message.content[]`.
    Converse,
}

/// How the provider reads a schema it was sent (contract §2, conservative
/// readings): what [`Emission::native_schema`](crate::Emission::native_schema)
/// reports, independently of the emitters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Every object closed, whatever it says (OpenAI-style strict), and patterns
    /// matched against the whole string.
    Strict,
    /// Objects without `additionalProperties` closed; patterns matched against
    /// the whole string.
    ClosedByDefault,
    /// llama.cpp's converter: as [`Reading::ClosedByDefault`], and a schema that
    /// says nothing is any object.
    LlamaCpp,
    /// An object with `properties` closed whatever `additionalProperties` says
    /// (Fireworks).
    PropertiesClose,
    /// Gemini's fields (read by field).
    Gemini,
    /// Claude: a non-strict tool is any object; strict tools and JSON outputs
    /// are read as [`Reading::Strict`].
    Claude,
}

/// A grammar-compiled JSON Schema dialect: the lowering rules and the syntax of
/// its "any value" node.
#[derive(Debug)]
pub(crate) struct Grammar {
    pub(crate) rules: &'static Rules,
    /// The schema field is documented for object roots only: other roots are not sent.
    pub(crate) object_root: bool,
    /// Type arrays are documented (llama.cpp expands them into unions): "any
    /// value" is then written as one. Else every type array, and "any value",
    /// is sent as an `anyOf` with one branch per type.
    pub(crate) type_arrays: bool,
    /// Every node that may be an array spells `items` (xgrammar reads a missing
    /// `items` beside another keyword as "no items").
    pub(crate) array_items: bool,
    /// The engines (and versions) whose compiler and matcher the conformance
    /// suite (`.ci/engines/`) runs over every emission; empty when the provider's
    /// engine is not available to run.
    pub(crate) checked: &'static str,
}

/// Rules of an OpenAI-style strict `json_schema` mode: the documented subset and limits.
#[derive(Debug)]
pub(crate) struct StrictRules {
    /// Assertion keywords the strict subset supports (besides the structural
    /// `type`, `properties`, `required`, `additionalProperties`, `items`, `anyOf`,
    /// `$ref`, `$defs`, `enum`, `const`, which every strict mode has).
    pub(crate) keywords: &'static [&'static str],
    /// `format` values the strict subset accepts.
    pub(crate) formats: &'static [&'static str],
    /// Most object properties in the whole schema.
    pub(crate) max_properties: usize,
    /// Most nesting levels (object and array schemas both counted: the
    /// documentation does not say whether arrays count, so the stricter reading).
    pub(crate) max_depth: usize,
    /// Most enum values across all enums.
    pub(crate) max_enum_values: usize,
    /// Most characters of property names, definition names, enum and const values.
    pub(crate) max_total_chars: usize,
    /// An enum with more values than this …
    pub(crate) large_enum_values: usize,
    /// … may have at most this many characters in its values.
    pub(crate) large_enum_chars: usize,
    /// Type arrays `[T, "null"]` are accepted (else every type array becomes `anyOf`).
    pub(crate) type_arrays: bool,
    /// Most branches of one `anyOf`.
    pub(crate) max_any_of: usize,
    /// `$ref` into `$defs` (and recursion) is accepted (else references are inlined).
    pub(crate) refs: bool,
    /// `description` and `title` are accepted (else they are removed).
    pub(crate) annotations: bool,
    /// Most characters of the serialised schema.
    pub(crate) max_schema_chars: usize,
}

mod rules;
mod table;

#[cfg(test)]
pub(crate) use rules::OPENAI_STRICT;
use table::PROFILES;

/// Everything schemacast knows about one provider.
#[derive(Debug)]
pub(crate) struct Profile {
    pub(crate) provider: Provider,
    /// Human name of the API.
    pub(crate) label: &'static str,
    pub(crate) dialect: Dialect,
    pub(crate) envelope: Envelope,
    pub(crate) reading: Reading,
    /// The strict schema mode, if the provider has one ([`Dialect::OpenAiStrict`]).
    pub(crate) strict: Option<&'static StrictRules>,
    /// The grammar dialect ([`Dialect::Grammar`]).
    pub(crate) grammar: Option<&'static Grammar>,
    /// `strict: true` is sent inside `json_schema` (else the field is left out:
    /// the provider does not document it).
    pub(crate) strict_flag: bool,
    /// The provider has a plain JSON mode (`json_object`, `format: "json"`, the
    /// JSON mime type), read as objects only.
    pub(crate) json_mode: bool,
    /// JSON mode needs the word "json" in the messages (else HTTP 400).
    pub(crate) json_word_required: bool,
    /// Add `provider.require_parameters: true` so the router only picks backends
    /// that honour `response_format` (OpenRouter).
    pub(crate) require_parameters: bool,
    /// The Claude mechanism used unless the options name one.
    pub(crate) claude_default: ClaudeMechanism,
    /// Caveats attached to every native emission for this provider.
    pub(crate) caveats: &'static [&'static str],
}

/// The profile of `provider`.
pub(crate) fn profile(provider: Provider) -> &'static Profile {
    PROFILES.iter().find(|p| p.provider == provider).unwrap_or(&PROFILES[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_every_provider_has_one_profile() {
        for p in Provider::ALL {
            assert_eq!(PROFILES.iter().filter(|x| x.provider == *p).count(), 1, "{p:?}");
            assert_eq!(profile(*p).provider, *p);
        }
        assert_eq!(PROFILES.len(), Provider::ALL.len());
    }
}
