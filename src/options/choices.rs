//! The public choices a compilation is made for: [`Provider`], [`Mode`],
//! [`GeminiDialect`] and [`ClaudeMechanism`], with their names as the CLI and
//! the bindings spell them.

use crate::error::{Error, ErrorKind};
use std::fmt;
use std::str::FromStr;

/// An LLM provider API whose structured-output dialect schemacast speaks.
///
/// Each variant is backed by a profile (data: request shape, keyword subset,
/// limits); see the README's provider table.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    /// OpenAI Chat Completions (`response_format`).
    OpenAi,
    /// Groq (OpenAI-compatible `response_format`).
    Groq,
    /// Mistral La Plateforme (OpenAI-compatible `response_format`).
    Mistral,
    /// OpenRouter (OpenAI-compatible `response_format`, routed to many backends).
    OpenRouter,
    /// Google Gemini API (`generationConfig.responseSchema` or `responseJsonSchema`).
    Gemini,
    /// Ollama `/api/chat` (`format`).
    Ollama,
    /// Anthropic Messages API (a forced tool).
    Claude,
    /// Azure OpenAI (OpenAI's `response_format` with Azure's smaller strict subset and limits).
    AzureOpenAi,
    /// DeepSeek (JSON mode only).
    DeepSeek,
    /// OpenAI Responses API (`text.format`, the json_schema fields flattened).
    OpenAiResponses,
    /// xAI Grok (`response_format`; full-match patterns, objects closed unless opened).
    Xai,
    /// Cerebras (OpenAI strict shape; no type arrays, `anyOf` ≤ 5, 5,000 characters).
    Cerebras,
    /// Together AI (OpenAI `json_schema` shape, undocumented subset).
    Together,
    /// Fireworks AI (`response_format`; objects with `properties` closed).
    Fireworks,
    /// Perplexity Sonar (`json_schema` with `name` and `schema`).
    Perplexity,
    /// vLLM's OpenAI-compatible server (xgrammar / guidance).
    Vllm,
    /// llama.cpp server (`response_format`, its JSON-Schema-to-grammar converter).
    LlamaCpp,
    /// Cohere v2 chat (`response_format: {type: json_object, json_schema}`).
    Cohere,
    /// AWS Bedrock Converse (`outputConfig.textFormat`, schema as a JSON string, or a forced tool).
    Bedrock,
    /// Google Vertex AI Gemini (`generationConfig`, as the Gemini API).
    Vertex,
}

impl Provider {
    /// Every provider, in table order.
    pub const ALL: &'static [Provider] = &[
        Provider::OpenAi,
        Provider::Groq,
        Provider::Mistral,
        Provider::OpenRouter,
        Provider::Gemini,
        Provider::Ollama,
        Provider::Claude,
        Provider::AzureOpenAi,
        Provider::DeepSeek,
        Provider::OpenAiResponses,
        Provider::Xai,
        Provider::Cerebras,
        Provider::Together,
        Provider::Fireworks,
        Provider::Perplexity,
        Provider::Vllm,
        Provider::LlamaCpp,
        Provider::Cohere,
        Provider::Bedrock,
        Provider::Vertex,
    ];

    /// The CLI name (`openai`, `groq`, …).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Groq => "groq",
            Provider::Mistral => "mistral",
            Provider::OpenRouter => "openrouter",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
            Provider::Claude => "claude",
            Provider::AzureOpenAi => "azure",
            Provider::DeepSeek => "deepseek",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Xai => "xai",
            Provider::Cerebras => "cerebras",
            Provider::Together => "together",
            Provider::Fireworks => "fireworks",
            Provider::Perplexity => "perplexity",
            Provider::Vllm => "vllm",
            Provider::LlamaCpp => "llamacpp",
            Provider::Cohere => "cohere",
            Provider::Bedrock => "bedrock",
            Provider::Vertex => "vertex",
        }
    }

    /// Other names the CLI and `FromStr` accept (`anthropic` for `claude`, …).
    #[must_use]
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Provider::Gemini => &["google"],
            Provider::Claude => &["anthropic"],
            Provider::AzureOpenAi => &["azure-openai"],
            Provider::OpenAiResponses => &["responses"],
            Provider::Xai => &["grok"],
            Provider::Together => &["together-ai"],
            Provider::Perplexity => &["sonar"],
            Provider::LlamaCpp => &["llama.cpp", "llama-server"],
            Provider::Bedrock => &["aws-bedrock"],
            Provider::Vertex => &["vertex-ai"],
            // No other spelling: each new provider decides here.
            Provider::OpenAi
            | Provider::Groq
            | Provider::Mistral
            | Provider::OpenRouter
            | Provider::Ollama
            | Provider::DeepSeek
            | Provider::Cerebras
            | Provider::Fireworks
            | Provider::Vllm
            | Provider::Cohere => &[],
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Provider {
    type Err = Error;

    /// Parses a CLI name or alias, case-insensitively.
    fn from_str(s: &str) -> Result<Self, Error> {
        let wanted = s.to_ascii_lowercase();
        Provider::ALL.iter().copied().find(|p| p.name() == wanted || p.aliases().contains(&wanted.as_str())).ok_or_else(
            || {
                let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
                let aliases = Provider::ALL.iter().flat_map(|p| p.aliases().iter().copied());
                let all: Vec<&str> = names.iter().copied().chain(aliases).collect();
                Error::new(
                    ErrorKind::InvalidOption,
                    "",
                    format!(
                        "unknown provider `{s}`{} (known: {})",
                        crate::suggest::did_you_mean(&wanted, &all),
                        names.join(", ")
                    ),
                )
            },
        )
    }
}

/// What the caller asks the provider for.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// Plain text: no structured-output fragment at all.
    Text,
    /// Plain JSON mode (any JSON object), where the provider has one and the
    /// schema (if given) accepts only objects.
    Json,
    /// The strongest sound native enforcement of the schema.
    Schema,
}

impl Mode {
    /// Every mode.
    pub const ALL: &'static [Mode] = &[Mode::Schema, Mode::Json, Mode::Text];

    /// The CLI name (`text`, `json`, `schema`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Mode::Text => "text",
            Mode::Json => "json",
            Mode::Schema => "schema",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        Mode::ALL.iter().copied().find(|m| m.name() == s).ok_or_else(|| {
            let hint = crate::suggest::did_you_mean(s, &["schema", "json", "text"]);
            Error::new(ErrorKind::InvalidOption, "", format!("unknown mode `{s}`{hint} (known: schema, json, text)"))
        })
    }
}

/// Which Gemini field carries the schema.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GeminiDialect {
    /// `responseSchema`: Gemini's OpenAPI-flavoured `Schema` (the default).
    #[default]
    ResponseSchema,
    /// `responseJsonSchema`: a JSON Schema subset (maps and open objects expressible).
    JsonSchema,
}

impl FromStr for GeminiDialect {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "response-schema" => Ok(GeminiDialect::ResponseSchema),
            "json-schema" => Ok(GeminiDialect::JsonSchema),
            _ => Err(Error::new(
                ErrorKind::InvalidOption,
                "",
                format!(
                    "unknown Gemini dialect `{s}`{} (known: response-schema, json-schema)",
                    crate::suggest::did_you_mean(s, &["response-schema", "json-schema"])
                ),
            )),
        }
    }
}

/// How a request asks Claude (Anthropic Messages API, and Claude-family rules
/// on Bedrock) for structured output.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaudeMechanism {
    /// A forced tool whose input schema is guidance (every Claude model).
    Tool,
    /// A forced tool with `strict: true`: constrained decoding of the input.
    StrictTool,
    /// Native JSON outputs: `output_config.format` (GA; Bedrock: `outputConfig.textFormat`).
    OutputFormat,
    /// Native JSON outputs through the legacy beta field `output_format` and the
    /// `anthropic-beta: structured-outputs-2025-11-13` header.
    OutputFormatBeta,
}

impl ClaudeMechanism {
    /// Every mechanism.
    pub const ALL: &'static [ClaudeMechanism] = &[
        ClaudeMechanism::Tool,
        ClaudeMechanism::StrictTool,
        ClaudeMechanism::OutputFormat,
        ClaudeMechanism::OutputFormatBeta,
    ];

    /// The CLI name (`tool`, `strict-tool`, `output-format`, `output-format-beta`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ClaudeMechanism::Tool => "tool",
            ClaudeMechanism::StrictTool => "strict-tool",
            ClaudeMechanism::OutputFormat => "output-format",
            ClaudeMechanism::OutputFormatBeta => "output-format-beta",
        }
    }
}

impl FromStr for ClaudeMechanism {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        ClaudeMechanism::ALL.iter().copied().find(|m| m.name() == s).ok_or_else(|| {
            let names: Vec<&str> = ClaudeMechanism::ALL.iter().map(|m| m.name()).collect();
            Error::new(
                ErrorKind::InvalidOption,
                "",
                format!(
                    "unknown Claude mechanism `{s}`{} (known: {})",
                    crate::suggest::did_you_mean(s, &names),
                    names.join(", ")
                ),
            )
        })
    }
}
