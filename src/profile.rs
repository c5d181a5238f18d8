//! Provider profiles: every difference between providers, as data.
//!
//! Code outside this module never asks which provider it is serving; it reads
//! the profile: which dialect shapes the request, which keywords and limits the
//! native schema mode has, and what the request needs besides the fragment.

use crate::options::Provider;

/// The request shape a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// OpenAI Chat Completions `response_format` (`json_schema` / `json_object`).
    OpenAiChat,
    /// Gemini `generationConfig` (`responseSchema` / `responseJsonSchema`).
    Gemini,
    /// Ollama `/api/chat` `format`.
    Ollama,
    /// Anthropic Messages API forced tool.
    ClaudeTool,
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
    /// What the lowering may keep when it rewrites a schema into the subset:
    /// `keywords` plus the annotations the subset accepts.
    pub(crate) lower_keywords: &'static [&'static str],
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
}

/// OpenAI strict mode (`providers.md` §1.2–1.3).
pub(crate) static OPENAI_STRICT: StrictRules = StrictRules {
    keywords: &[
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
    ],
    formats: &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
    lower_keywords: &[
        "pattern",
        "format",
        "multipleOf",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minItems",
        "maxItems",
        "description",
        "title",
    ],
    max_properties: 5000,
    max_depth: 10,
    max_enum_values: 1000,
    max_total_chars: 120_000,
    large_enum_values: 250,
    large_enum_chars: 15_000,
};

/// Azure OpenAI strict mode (`providers.md` §2): OpenAI's shape, the older and
/// smaller limits, and no string, number or array assertions.
pub(crate) static AZURE_STRICT: StrictRules = StrictRules {
    keywords: &[],
    formats: &[],
    lower_keywords: &["description", "title"],
    max_properties: 100,
    max_depth: 5,
    max_enum_values: 500,
    max_total_chars: 15_000,
    large_enum_values: 250,
    large_enum_chars: 7_500,
};

/// Everything schemacast knows about one provider.
#[derive(Debug)]
pub(crate) struct Profile {
    pub(crate) provider: Provider,
    /// CLI name.
    pub(crate) name: &'static str,
    /// Other accepted CLI names.
    pub(crate) aliases: &'static [&'static str],
    /// Human name of the API.
    pub(crate) label: &'static str,
    pub(crate) dialect: Dialect,
    /// The strict schema mode, if the provider has one.
    pub(crate) strict: Option<&'static StrictRules>,
    /// JSON mode needs the word "json" in the messages (else HTTP 400).
    pub(crate) json_word_required: bool,
    /// Add `provider.require_parameters: true` so the router only picks backends
    /// that honour `response_format` (OpenRouter).
    pub(crate) require_parameters: bool,
    /// Caveats attached to every native emission for this provider.
    pub(crate) caveats: &'static [&'static str],
}

static PROFILES: &[Profile] = &[
    Profile {
        provider: Provider::OpenAi,
        name: "openai",
        aliases: &[],
        label: "OpenAI Chat Completions",
        dialect: Dialect::OpenAiChat,
        strict: Some(&OPENAI_STRICT),
        json_word_required: true,
        require_parameters: false,
        caveats: &[],
    },
    Profile {
        provider: Provider::Groq,
        name: "groq",
        aliases: &[],
        label: "Groq (OpenAI-compatible)",
        dialect: Dialect::OpenAiChat,
        strict: Some(&OPENAI_STRICT),
        json_word_required: true,
        require_parameters: false,
        caveats: &[
            "Groq enforces `strict: true` only on models that support it (openai/gpt-oss-20b, openai/gpt-oss-120b); other models reject `json_schema` or treat it as best effort",
        ],
    },
    Profile {
        provider: Provider::Mistral,
        name: "mistral",
        aliases: &[],
        label: "Mistral La Plateforme",
        dialect: Dialect::OpenAiChat,
        // Mistral documents no keyword subset; OpenAI's is the conservative reading.
        strict: Some(&OPENAI_STRICT),
        json_word_required: true,
        require_parameters: false,
        caveats: &[],
    },
    Profile {
        provider: Provider::OpenRouter,
        name: "openrouter",
        aliases: &[],
        label: "OpenRouter",
        dialect: Dialect::OpenAiChat,
        // The routed backend's subset applies; OpenAI's is the conservative reading.
        strict: Some(&OPENAI_STRICT),
        json_word_required: true,
        require_parameters: true,
        caveats: &[],
    },
    Profile {
        provider: Provider::Gemini,
        name: "gemini",
        aliases: &["google"],
        label: "Google Gemini API",
        dialect: Dialect::Gemini,
        strict: None,
        json_word_required: false,
        require_parameters: false,
        caveats: &[],
    },
    Profile {
        provider: Provider::Ollama,
        name: "ollama",
        aliases: &[],
        label: "Ollama /api/chat",
        dialect: Dialect::Ollama,
        strict: None,
        json_word_required: false,
        require_parameters: false,
        caveats: &[
            "llama.cpp's number grammar allows at most 16 integral and 16 fraction digits: longer numbers cannot be produced (a provider limit)",
            "some Ollama runners and Ollama Cloud ignore `format`: validate the answer",
        ],
    },
    Profile {
        provider: Provider::Claude,
        name: "claude",
        aliases: &["anthropic"],
        label: "Anthropic Messages API",
        dialect: Dialect::ClaudeTool,
        strict: None,
        json_word_required: false,
        require_parameters: false,
        caveats: &[],
    },
    Profile {
        provider: Provider::AzureOpenAi,
        name: "azure",
        aliases: &["azure-openai"],
        label: "Azure OpenAI",
        dialect: Dialect::OpenAiChat,
        strict: Some(&AZURE_STRICT),
        json_word_required: true,
        require_parameters: false,
        caveats: &["structured outputs need api-version 2024-08-01-preview or later"],
    },
    Profile {
        provider: Provider::DeepSeek,
        name: "deepseek",
        aliases: &[],
        label: "DeepSeek",
        dialect: Dialect::OpenAiChat,
        strict: None,
        json_word_required: true,
        require_parameters: false,
        caveats: &[
            "when the output cannot be read as JSON, DeepSeek replaces it with spaces: an empty answer is reported as no answer",
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
