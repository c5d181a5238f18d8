//! What each provider enforces, read from its profile: the data behind
//! `schemacast providers` and the README's provider table.

use crate::dialect::{claude, gemini};
use crate::lower::{PatternRule, Rules};
use crate::options::Provider;
use crate::profile::{self, Dialect, Envelope, Profile, Reading, StrictRules};

/// A description of one provider's structured-output support, derived from
/// the same profile the compiler reads (so it cannot drift from behaviour).
///
/// # Example
///
/// ```
/// use schemacast::Provider;
/// let info = Provider::Cerebras.info();
/// assert_eq!(info.name, "cerebras");
/// assert!(info.limits.contains("5000 characters"));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderInfo {
    /// The CLI name.
    pub name: &'static str,
    /// Other accepted CLI names.
    pub aliases: &'static [&'static str],
    /// The API.
    pub api: &'static str,
    /// The request field(s) of mode `schema`.
    pub schema_request: String,
    /// The request field of mode `json` (plain JSON mode), or why there is none.
    pub json_request: String,
    /// How the provider reads what it is sent (what is enforced).
    pub enforces: String,
    /// Assertion keywords that may be sent natively (the rest are dropped,
    /// widening, or keep the schema out of the native mode).
    pub keywords: String,
    /// Documented limits honoured by the compiler.
    pub limits: String,
    /// Options that change what is sent.
    pub options: String,
}

impl ProviderInfo {
    /// The same fields as a JSON object, keyed by their names (what bindings
    /// and tools print).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "aliases": self.aliases,
            "api": self.api,
            "schema_request": self.schema_request,
            "json_request": self.json_request,
            "enforces": self.enforces,
            "keywords": self.keywords,
            "limits": self.limits,
            "options": self.options,
        })
    }
}

impl Provider {
    /// What this provider enforces and how it is asked, from its profile.
    #[must_use]
    pub fn info(self) -> ProviderInfo {
        info(profile::profile(self))
    }
}

fn info(p: &'static Profile) -> ProviderInfo {
    ProviderInfo {
        name: p.provider.name(),
        aliases: p.provider.aliases(),
        api: p.label,
        schema_request: schema_request(p),
        json_request: json_request(p),
        enforces: enforces(p),
        keywords: keywords(p),
        limits: limits(p),
        options: options(p),
    }
}

fn strict_word(p: &Profile) -> &'static str {
    if p.strict_flag { " `strict: true`" } else { "" }
}

fn schema_request(p: &Profile) -> String {
    match (p.dialect, p.envelope) {
        (Dialect::OpenAiStrict, _) if p.strict.is_none() => "none (no schema mode)".to_owned(),
        (_, Envelope::ChatCompletions) => format!("`response_format` `json_schema`{}", strict_word(p)),
        (_, Envelope::Responses) => format!("`text.format` `json_schema` (flattened){}", strict_word(p)),
        (_, Envelope::Cohere) => "`response_format` `json_object` with `json_schema`".to_owned(),
        (_, Envelope::OllamaFormat) => "`format`: the schema".to_owned(),
        (_, Envelope::Gemini) => {
            "`generationConfig.responseSchema` (or `responseJsonSchema`) with the JSON mime type".to_owned()
        }
        (_, Envelope::Anthropic) => format!(
            "mechanisms: forced `tools` tool, `strict` tool, `output_config.format`, beta `output_format` (default: {})",
            p.claude_default.name()
        ),
        (_, Envelope::Converse) => format!(
            "mechanisms: `outputConfig.textFormat` (schema as a JSON string), forced `toolConfig` tool, `strict` tool (default: {})",
            p.claude_default.name()
        ),
    }
}

fn json_request(p: &Profile) -> String {
    if !p.json_mode {
        return match p.envelope {
            Envelope::Anthropic => "none (`--claude-json-tool`: a forced tool taking any object)".to_owned(),
            _ => "none".to_owned(),
        };
    }
    let field = match p.envelope {
        Envelope::Responses => "`text.format` `json_object`",
        Envelope::OllamaFormat => "`format: \"json\"`",
        Envelope::Gemini => "`responseMimeType: application/json`",
        _ => "`response_format` `json_object`",
    };
    let word = if p.json_word_required { "; the messages must say \"json\"" } else { "" };
    format!("{field} (objects only){word}")
}

fn enforces(p: &Profile) -> String {
    let reading = reading(p);
    match p.grammar.map(|g| g.checked).filter(|c| !c.is_empty()) {
        Some(engines) => format!("{reading}; checked against {engines}"),
        None => reading,
    }
}

fn reading(p: &Profile) -> String {
    match p.reading {
        Reading::Strict => "strict grammar: every object closed and fully required; only schemas inside the subset (as written, or rewritten exactly or wider) are sent".to_owned(),
        Reading::ClosedByDefault => "grammar: objects closed unless they say `additionalProperties`; patterns match the whole string; openness is always sent explicitly".to_owned(),
        Reading::LlamaCpp => "llama.cpp grammar: objects closed unless opened, `{}` read as any object, patterns `^…$` only; all spelled out explicitly".to_owned(),
        Reading::PropertiesClose => "grammar: an object with `properties` is closed whatever it says; open objects only via closed-world closing".to_owned(),
        Reading::Gemini => "constrained decoding of an OpenAPI subset: every object closed (open objects only via closed-world closing)".to_owned(),
        Reading::Claude => "tool: guidance only (any object, validated locally); strict tool and JSON outputs: grammar with every object closed; patterns match the whole string".to_owned(),
    }
}

fn assertions(keywords: &[&str]) -> Vec<&'static str> {
    const ANNOTATIONS: [&str; 2] = ["description", "title"];
    let all = [
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
        "uniqueItems",
        "prefixItems",
        "minProperties",
        "maxProperties",
    ];
    all.into_iter().filter(|k| keywords.contains(k) && !ANNOTATIONS.contains(k)).collect()
}

fn rules_keywords(r: &Rules) -> String {
    let mut kws = assertions(r.keywords);
    if r.pattern == PatternRule::Drop {
        kws.retain(|k| *k != "pattern");
    }
    let mut out = if kws.is_empty() { "structure only".to_owned() } else { kws.join(", ") };
    if kws.contains(&"format") {
        out.push_str(&format!(" (formats: {})", r.formats.join(", ")));
    }
    out
}

fn keywords(p: &Profile) -> String {
    match (p.dialect, p.strict, p.grammar) {
        (Dialect::OpenAiStrict, Some(s), _) => {
            let kws = assertions(s.keywords);
            let mut out = if kws.is_empty() { "structure only".to_owned() } else { kws.join(", ") };
            if kws.contains(&"format") {
                out.push_str(&format!(" (formats: {})", s.formats.join(", ")));
            }
            out
        }
        (Dialect::Grammar, _, Some(g)) => rules_keywords(g.rules),
        (Dialect::Gemini, _, _) => format!("responseSchema: {}", rules_keywords(&gemini::RESPONSE_SCHEMA)),
        (Dialect::Claude, _, _) => format!("strict: {}", rules_keywords(&claude::STRICT_RULES)),
        _ => "none".to_owned(),
    }
}

fn strict_limits(s: &StrictRules) -> String {
    let mut out = format!(
        "{} properties, {} levels, {} enum values, {} characters of names and values",
        s.max_properties, s.max_depth, s.max_enum_values, s.max_total_chars
    );
    if !s.type_arrays {
        out.push_str("; no type arrays");
    }
    if s.max_any_of < usize::MAX {
        out.push_str(&format!("; `anyOf` ≤ {}", s.max_any_of));
    }
    if !s.refs {
        out.push_str("; no references or recursion");
    }
    if s.max_schema_chars < usize::MAX {
        out.push_str(&format!("; {} characters of schema", s.max_schema_chars));
    }
    out
}

fn limits(p: &Profile) -> String {
    match (p.dialect, p.strict) {
        (Dialect::OpenAiStrict, Some(s)) => strict_limits(s),
        (Dialect::Claude, _) => format!(
            "strict: {} optional and {} union-typed properties, no recursion, `minItems` 0 or 1",
            claude::MAX_OPTIONAL,
            claude::MAX_UNION
        ),
        (Dialect::Grammar, _) if p.reading == Reading::LlamaCpp => "numbers of at most 16 digits".to_owned(),
        _ => "none documented".to_owned(),
    }
}

fn options(p: &Profile) -> String {
    let mut out = vec!["`--no-closed-world`"];
    match p.dialect {
        Dialect::Gemini => out.extend(["`--gemini-dialect`", "`--reshape`"]),
        Dialect::Claude => {
            out.push("`--claude-mechanism`");
            if p.envelope == Envelope::Anthropic {
                out.push("`--claude-json-tool`");
            }
            out.extend(["`--claude-thinking`", "`--reshape`"]);
        }
        Dialect::OpenAiStrict if p.strict.is_some() => out.push("`--reshape`"),
        _ => {}
    }
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_every_provider_described() {
        for p in Provider::ALL {
            let i = p.info();
            assert_eq!(i.name, p.name());
            assert!(!i.schema_request.is_empty() && !i.enforces.is_empty(), "{p:?}");
        }
        assert!(Provider::DeepSeek.info().schema_request.starts_with("none"));
        assert!(Provider::AzureOpenAi.info().keywords.contains("structure only"));
        assert!(Provider::Claude.info().options.contains("--claude-mechanism"));
    }

    #[test]
    fn ok_the_json_form_has_every_field() {
        let i = Provider::Gemini.info();
        let j = i.to_json();
        let keys: Vec<&str> = j.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
        assert_eq!(
            keys,
            ["name", "aliases", "api", "schema_request", "json_request", "enforces", "keywords", "limits", "options"]
        );
        assert_eq!(j["name"], "gemini");
        assert_eq!(j["aliases"], serde_json::json!(i.aliases));
        assert_eq!(j["limits"], i.limits.as_str());
    }
}
