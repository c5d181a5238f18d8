//! The schema rules of each provider's native mode, as data: OpenAI-style
//! strict subsets and limits, and the grammar dialects' lowering rules
//! (`providers.md` gives the sources).

use super::{Grammar, StrictRules};
use crate::lower::{Literals, PatternRule, Rules};

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
pub(super) static AZURE_STRICT: StrictRules = StrictRules {
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
pub(super) static CEREBRAS_STRICT: StrictRules = StrictRules {
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
pub(super) static LLAMA_CPP_RULES: Rules = Rules {
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
    exact_tuples: true,
    max_count: 1_000,
    max_any_of: usize::MAX,
};

pub(super) static OLLAMA: Grammar = Grammar {
    rules: &LLAMA_CPP_RULES,
    object_root: false,
    type_arrays: true,
    array_items: false,
    checked: "llama.cpp's own converter and matcher at 0c1e57098 (llama-server; llama-cpp-python 0.3.36) and 4df29be4f (Ollama's b10488; 0.3.35), llguidance 1.9.1",
};
pub(super) static LLAMACPP: Grammar = Grammar {
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
/// `items` always spelled (beside `prefixItems` too, which both engines then
/// read as JSON Schema does), closable objects closed.
static VLLM_RULES: Rules = Rules {
    keywords: &[
        "prefixItems",
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
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};
pub(super) static VLLM: Grammar = Grammar {
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
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};
// xAI, Fireworks and Cohere list their types one by one and document `anyOf`,
// not type arrays: unions are sent as `anyOf`.
pub(super) static XAI: Grammar =
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
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};
pub(super) static FIREWORKS: Grammar =
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
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};
pub(super) static COHERE: Grammar =
    Grammar { rules: &COHERE_RULES, object_root: true, type_arrays: false, array_items: false, checked: "" };
