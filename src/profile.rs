//! Provider profiles: every difference between providers, as data.
//!
//! Code outside this module never asks which provider it is serving; it reads
//! the profile: which dialect shapes the request, which keywords and limits the
//! native schema mode has, and what the request needs besides the fragment.

use crate::lower::{Literals, PatternRule, Rules};
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
    /// Claude's mechanisms ([`ClaudeMechanism`](crate::ClaudeMechanism)): a forced
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

/// The assertion keywords of OpenAI's strict subset (`providers.md` §1.2).
const OPENAI_ASSERTIONS: &[&str] = &[
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// The `format` values of OpenAI's strict subset.
const OPENAI_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// OpenAI strict mode (`providers.md` §1.2–1.3).
pub(crate) static OPENAI_STRICT: StrictRules = StrictRules {
    keywords: OPENAI_ASSERTIONS,
    formats: OPENAI_FORMATS,
    max_properties: 5000,
    max_depth: 10,
    max_enum_values: 1000,
    max_total_chars: 120_000,
    large_enum_values: 250,
    large_enum_chars: 15_000,
    type_arrays: true,
    max_any_of: usize::MAX,
    refs: true,
    annotations: true,
    max_schema_chars: usize::MAX,
};

/// Azure OpenAI strict mode (`providers.md` §2): OpenAI's shape, the older and
/// smaller limits, and no string, number or array assertions.
pub(crate) static AZURE_STRICT: StrictRules = StrictRules {
    keywords: &[],
    formats: &[],
    max_properties: 100,
    max_depth: 5,
    max_enum_values: 500,
    max_total_chars: 15_000,
    large_enum_values: 250,
    large_enum_chars: 7_500,
    type_arrays: true,
    max_any_of: usize::MAX,
    refs: true,
    annotations: true,
    max_schema_chars: usize::MAX,
};

/// Cerebras strict mode (`providers.md` §3.6): OpenAI's shape without type
/// arrays, recursion or informational fields; `anyOf` up to 5 branches; 5,000
/// characters of schema.
pub(crate) static CEREBRAS_STRICT: StrictRules = StrictRules {
    keywords: OPENAI_ASSERTIONS,
    formats: OPENAI_FORMATS,
    max_properties: 500,
    max_depth: 10,
    max_enum_values: 500,
    max_total_chars: 5_000,
    large_enum_values: 250,
    large_enum_chars: 7_500,
    type_arrays: false,
    max_any_of: 5,
    refs: false,
    annotations: false,
    max_schema_chars: 5_000,
};

/// The llama.cpp converter (Ollama and llama.cpp server, `providers.md` §6, §7.2).
pub(crate) static LLAMA_CPP_RULES: Rules = Rules {
    keywords: &["minLength", "maxLength", "pattern", "format", "minimum", "maximum", "minItems", "maxItems"],
    annotations: true,
    // `date-time` and `time` are stricter in llama.cpp than RFC 3339 (upper-case
    // `T`, exactly three fraction digits); `uuid`'s letter case is undocumented.
    formats: &["date"],
    pattern: PatternRule::Grammar,
    literals: Literals::All,
    any_value: true,
    open_objects: true,
    maps: true,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    integral_bounds: true,
    refs: false,
    fill_defaults: false,
    // Closable objects closed: an explicit `additionalProperties: true` beside
    // many declared keys builds a huge exclusion rule in the converter.
    prefer_closed: true,
    // The converter refuses undeclared keys that prefix a declared name.
    open_with_properties: false,
    // Every optional key multiplies the grammar: 400 take 4 s, 1,000 take 100 s to build.
    max_optional: 128,
    // Ollama's converter reads a `$ref` key as a reference and hoists `$defs`.
    reserved_names: &["$ref", "$defs"],
};

static OLLAMA: Grammar = Grammar {
    rules: &LLAMA_CPP_RULES,
    object_root: false,
    type_arrays: true,
    array_items: false,
    checked: "llama.cpp's own converter and matcher at 0c1e57098 (llama-server; llama-cpp-python 0.3.36) and 4df29be4f (Ollama's b10488; 0.3.35), llguidance 1.9.1",
};
static LLAMACPP: Grammar = Grammar {
    rules: &LLAMA_CPP_RULES,
    object_root: false,
    type_arrays: true,
    array_items: false,
    checked: "llama.cpp's own converter and matcher at 0c1e57098 (llama-server; llama-cpp-python 0.3.36) and 4df29be4f (Ollama's b10488; 0.3.35), llguidance 1.9.1",
};

/// vLLM (`providers.md` §7.1), checked against xgrammar 0.2.9 (its default
/// engine) and llguidance 1.9.1 (its fallback): xgrammar closes objects and
/// tuples that do not open themselves, reads an array without `items` beside
/// another structural keyword as empty, refuses escaped characters in strings
/// with length bounds and in patterns, and bounds numbers to 6 decimals. So:
/// no length bounds, JSON-text-safe patterns only, bounds on integers only,
/// `items` always spelled, closable objects closed.
static VLLM_RULES: Rules = Rules {
    keywords: &[
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    ],
    annotations: true,
    formats: &["date", "ipv4"],
    pattern: PatternRule::Grammar,
    literals: Literals::Scalars,
    any_value: true,
    open_objects: true,
    maps: true,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    // xgrammar bounds a `number` to 6 decimals and no exponent, and rejects
    // fractional and 64-bit-overflowing bounds: bounds only on integers, whole.
    integral_bounds: true,
    refs: false,
    fill_defaults: false,
    prefer_closed: true,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
};
static VLLM: Grammar = Grammar {
    rules: &VLLM_RULES,
    object_root: false,
    type_arrays: false,
    array_items: true,
    checked: "xgrammar 0.2.9 (the default backend) and llguidance 1.9.1 (its fallback)",
};

/// xAI (`providers.md` §3.4): objects closed unless `additionalProperties: true`,
/// patterns matched whole (rewritten), no recursion, no boolean sub-schemas.
static XAI_RULES: Rules = Rules {
    keywords: &[
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    ],
    annotations: true,
    formats: &["date", "ipv4"],
    pattern: PatternRule::RewriteToFullMatch,
    literals: Literals::Scalars,
    any_value: true,
    open_objects: true,
    maps: false,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    integral_bounds: false,
    refs: false,
    fill_defaults: false,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
};
// xAI, Fireworks and Cohere list their types one by one and document `anyOf`,
// not type arrays: unions are sent as `anyOf`.
static XAI: Grammar =
    Grammar { rules: &XAI_RULES, object_root: false, type_arrays: false, array_items: false, checked: "" };

/// Fireworks (`providers.md` §3.8): an object with `properties` is closed
/// whatever it says; `pattern`, lengths and item counts are not supported yet.
static FIREWORKS_RULES: Rules = Rules {
    keywords: &[],
    annotations: true,
    formats: &[],
    pattern: PatternRule::Drop,
    literals: Literals::Scalars,
    any_value: true,
    open_objects: false,
    maps: false,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    integral_bounds: false,
    refs: false,
    fill_defaults: false,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
};
static FIREWORKS: Grammar =
    Grammar { rules: &FIREWORKS_RULES, object_root: false, type_arrays: false, array_items: false, checked: "" };

/// Cohere v2 (`providers.md` §7.4): no numeric, length or count keywords, no
/// anchors in patterns (dropped: their matching rule is undocumented), object roots.
static COHERE_RULES: Rules = Rules {
    keywords: &["format"],
    annotations: true,
    formats: &["date"],
    pattern: PatternRule::Drop,
    literals: Literals::Scalars,
    any_value: true,
    open_objects: true,
    maps: true,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    integral_bounds: false,
    refs: false,
    fill_defaults: false,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
};
static COHERE: Grammar =
    Grammar { rules: &COHERE_RULES, object_root: true, type_arrays: false, array_items: false, checked: "" };

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

static PROFILES: &[Profile] = &[
    Profile {
        provider: Provider::OpenAi,
        label: "OpenAI Chat Completions",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::Groq,
        label: "Groq (OpenAI-compatible)",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "Groq enforces `strict: true` only on models that support it (openai/gpt-oss-20b, openai/gpt-oss-120b); other models reject `json_schema` or treat it as best effort",
        ],
    },
    Profile {
        provider: Provider::Mistral,
        label: "Mistral La Plateforme",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::OpenRouter,
        label: "OpenRouter",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: true,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::Gemini,
        label: "Google Gemini API",
        dialect: Dialect::Gemini,
        envelope: Envelope::Gemini,
        reading: Reading::Gemini,
        strict: None,
        grammar: None,
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::Ollama,
        label: "Ollama /api/chat",
        dialect: Dialect::Grammar,
        envelope: Envelope::OllamaFormat,
        reading: Reading::LlamaCpp,
        strict: None,
        grammar: Some(&OLLAMA),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "llama.cpp's number grammar allows at most 16 integral and 16 fraction digits: longer numbers cannot be produced (a provider limit)",
            "some Ollama runners and Ollama Cloud ignore `format`: validate the answer",
        ],
    },
    Profile {
        provider: Provider::Claude,
        label: "Anthropic Messages API",
        dialect: Dialect::Claude,
        envelope: Envelope::Anthropic,
        reading: Reading::Claude,
        strict: None,
        grammar: None,
        strict_flag: false,
        json_mode: false,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::AzureOpenAi,
        label: "Azure OpenAI",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&AZURE_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &["structured outputs need api-version 2024-08-01-preview or later"],
    },
    Profile {
        provider: Provider::DeepSeek,
        label: "DeepSeek",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: None,
        grammar: None,
        strict_flag: false,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "when the output cannot be read as JSON, DeepSeek replaces it with spaces: an empty answer is reported as no answer",
        ],
    },
    Profile {
        provider: Provider::OpenAiResponses,
        label: "OpenAI Responses API",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::Responses,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: true,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[],
    },
    Profile {
        provider: Provider::Xai,
        label: "xAI Grok",
        dialect: Dialect::Grammar,
        envelope: Envelope::ChatCompletions,
        reading: Reading::ClosedByDefault,
        strict: None,
        grammar: Some(&XAI),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &["structured outputs together with tools need a Grok 4 model"],
    },
    Profile {
        provider: Provider::Cerebras,
        label: "Cerebras Inference",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&CEREBRAS_STRICT),
        grammar: None,
        strict_flag: true,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &["Cerebras structured outputs do not combine with function calling"],
    },
    Profile {
        provider: Provider::Together,
        label: "Together AI",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "Together documents no keyword subset: only schemas inside OpenAI's strict subset are sent natively (every object closed, every property required), so no reading of it can narrow them",
        ],
    },
    Profile {
        provider: Provider::Fireworks,
        label: "Fireworks AI",
        dialect: Dialect::Grammar,
        envelope: Envelope::ChatCompletions,
        reading: Reading::PropertiesClose,
        strict: None,
        grammar: Some(&FIREWORKS),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &["reasoning models may put `<think>…</think>` before the JSON; `decode` skips it"],
    },
    Profile {
        provider: Provider::Perplexity,
        label: "Perplexity Sonar",
        dialect: Dialect::OpenAiStrict,
        envelope: Envelope::ChatCompletions,
        reading: Reading::Strict,
        strict: Some(&OPENAI_STRICT),
        grammar: None,
        strict_flag: false,
        json_mode: false,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "the first request with a new schema may take 10-30 s while Perplexity prepares it",
            "Perplexity documents no keyword subset: only schemas inside OpenAI's strict subset are sent natively",
        ],
    },
    Profile {
        provider: Provider::Vllm,
        label: "vLLM OpenAI-compatible server",
        dialect: Dialect::Grammar,
        envelope: Envelope::ChatCompletions,
        reading: Reading::ClosedByDefault,
        strict: None,
        grammar: Some(&VLLM),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "with a reasoning parser, vLLM returns the reasoning in `reasoning_content` and the JSON in `content`",
        ],
    },
    Profile {
        provider: Provider::LlamaCpp,
        label: "llama.cpp server",
        dialect: Dialect::Grammar,
        envelope: Envelope::ChatCompletions,
        reading: Reading::LlamaCpp,
        strict: None,
        grammar: Some(&LLAMACPP),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "llama.cpp's number grammar allows at most 16 integral and 16 fraction digits: longer numbers cannot be produced (a provider limit)",
        ],
    },
    Profile {
        provider: Provider::Cohere,
        label: "Cohere v2 Chat",
        dialect: Dialect::Grammar,
        envelope: Envelope::Cohere,
        reading: Reading::ClosedByDefault,
        strict: None,
        grammar: Some(&COHERE),
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "JSON mode needs an instruction to answer in JSON in the messages",
            "structured outputs need Command R (08-2024) or later; older models reject `response_format`",
        ],
    },
    Profile {
        provider: Provider::Bedrock,
        label: "AWS Bedrock Converse",
        dialect: Dialect::Claude,
        envelope: Envelope::Converse,
        reading: Reading::Claude,
        strict: None,
        grammar: None,
        strict_flag: false,
        json_mode: false,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::OutputFormat,
        caveats: &[
            "Bedrock applies the model family's own subset; schemacast sends Claude's (the smallest documented one)",
        ],
    },
    Profile {
        provider: Provider::Vertex,
        label: "Google Vertex AI Gemini",
        dialect: Dialect::Gemini,
        envelope: Envelope::Gemini,
        reading: Reading::Gemini,
        strict: None,
        grammar: None,
        strict_flag: false,
        json_mode: true,
        json_word_required: false,
        require_parameters: false,
        claude_default: ClaudeMechanism::Tool,
        caveats: &[
            "Vertex AI accepts the Gemini API subset sent here; its extra fields (`additionalProperties`, `ref`/`defs`) are not used",
        ],
    },
];

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
