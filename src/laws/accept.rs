//! Law 3, acceptance: the body an emission produces, checked against each
//! provider's documented request rules (fields, flags, names), without looking
//! at how it was produced. The schema subsets are in `subsets.rs`.

use super::subsets::{
    GEMINI_JSON_KEYWORDS, cerebras_schema, cohere_schema, fireworks_schema, gemini_schema_problems, json_schema_subset,
    llama_cpp_schema, no_keywords, strict_schema, vllm_schema, walk_children, xai_schema,
};
use crate::profile::{Envelope, profile};
use crate::{Emission, Provider};
use serde_json::{Value, json};

fn name_ok(name: &str, max: usize) -> bool {
    !name.is_empty() && name.len() <= max && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Law 3: the body passes the provider's documented rules, checked without
/// looking at how it was produced.
///
/// # Errors
///
/// The first rule broken.
pub fn acceptance(em: &Emission) -> Result<(), String> {
    let body = em.body().as_object().ok_or("the body is not an object")?;
    if em.body().to_string().contains("\"$schemacast:") {
        return Err("an internal `$schemacast:` marker reached the body".into());
    }
    if body.is_empty() {
        return Ok(());
    }
    let prof = profile(em.provider());
    match prof.envelope {
        Envelope::ChatCompletions => {
            let rf = body.get("response_format").ok_or("no response_format")?;
            match rf["type"].as_str() {
                Some("json_object") if prof.json_mode => Ok(()),
                Some("json_schema") => {
                    let js = &rf["json_schema"];
                    json_schema_field(em.provider(), js, prof.strict_flag)
                }
                _ => Err(format!("response_format not accepted by {}: {rf}", prof.provider.name())),
            }
        }
        Envelope::Responses => {
            let f = body.get("text").and_then(|t| t.get("format")).ok_or("no text.format")?;
            match f["type"].as_str() {
                Some("json_object") => Ok(()),
                Some("json_schema") => json_schema_field(em.provider(), f, true),
                _ => Err(format!("unknown text.format {f}")),
            }
        }
        Envelope::Cohere => {
            let rf = body.get("response_format").ok_or("no response_format")?;
            if rf["type"] != "json_object" {
                return Err("Cohere takes response_format type json_object".into());
            }
            match rf.get("json_schema") {
                Some(s) => cohere_schema(s),
                None => Ok(()),
            }
        }
        Envelope::OllamaFormat => {
            let f = body.get("format").ok_or("no format")?;
            if f == "json" { Ok(()) } else { llama_cpp_schema(f, "") }
        }
        Envelope::Gemini => {
            let gc = body.get("generationConfig").ok_or("no generationConfig")?;
            if gc["responseMimeType"] != json!("application/json") {
                return Err("responseMimeType must be application/json".into());
            }
            if let Some(s) = gc.get("responseSchema") {
                let mut problems = Vec::new();
                gemini_schema_problems(s, "", &mut problems);
                return if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) };
            }
            if let Some(s) = gc.get("responseJsonSchema") {
                return json_schema_subset(s, GEMINI_JSON_KEYWORDS, "");
            }
            Ok(())
        }
        Envelope::Anthropic => anthropic(em, body),
        Envelope::Converse => converse(em, body),
    }
}

/// A `json_schema` object (Chat `json_schema`, or the flattened Responses
/// `format`): the name, the `strict` flag, and the schema under the provider's rules.
fn json_schema_field(provider: Provider, js: &Value, strict_flag: bool) -> Result<(), String> {
    if !js["name"].as_str().is_some_and(|n| name_ok(n, 64)) {
        return Err("json_schema.name outside [A-Za-z0-9_-]{1,64}".into());
    }
    if (js.get("strict") == Some(&json!(true))) != strict_flag {
        return Err(format!("`strict` must be {}", if strict_flag { "true" } else { "absent" }));
    }
    let schema = &js["schema"];
    match provider {
        Provider::Xai => xai_schema(schema, ""),
        Provider::Fireworks => fireworks_schema(schema, ""),
        Provider::Vllm => vllm_schema(schema, ""),
        Provider::LlamaCpp => llama_cpp_schema(schema, ""),
        Provider::Cerebras => {
            strict_schema(schema)?;
            cerebras_schema(schema)
        }
        Provider::AzureOpenAi => {
            strict_schema(schema)?;
            no_keywords(schema, AZURE_UNSUPPORTED, "")
        }
        _ => strict_schema(schema),
    }
}

fn anthropic(em: &Emission, body: &serde_json::Map<String, Value>) -> Result<(), String> {
    let beta = em.headers().iter().any(|(k, v)| k == "anthropic-beta" && v == "structured-outputs-2025-11-13");
    if let Some(f) = body.get("output_config") {
        if beta {
            return Err("output_config needs no beta header".into());
        }
        return claude_output_format(&f["format"]);
    }
    if let Some(f) = body.get("output_format") {
        if !beta {
            return Err("output_format needs the anthropic-beta header structured-outputs-2025-11-13".into());
        }
        return claude_output_format(f);
    }
    let tools = body.get("tools").and_then(Value::as_array).ok_or("no tools")?;
    let [tool] = tools.as_slice() else { return Err("exactly one tool expected".into()) };
    let name = tool["name"].as_str().unwrap_or_default();
    if !name_ok(name, 64) {
        return Err("tool name outside [a-zA-Z0-9_-]{1,64}".into());
    }
    let input = tool["input_schema"].as_object().ok_or("input_schema is not an object")?;
    if input.get("type") != Some(&json!("object")) {
        return Err("input_schema root must be type object".into());
    }
    if ["anyOf", "oneOf", "allOf"].iter().any(|k| input.contains_key(*k)) {
        return Err("input_schema does not support oneOf, allOf, or anyOf at the top level".into());
    }
    tool_choice(em, &body["tool_choice"], &json!({"type": "tool", "name": name}), &json!({"type": "auto"}))?;
    if tool.get("strict") == Some(&json!(true)) {
        return claude_strict_schema(&tool["input_schema"]);
    }
    Ok(())
}

/// The one tool is forced, except beside extended thinking, which the API
/// refuses with a forced tool ("Thinking may not be enabled when tool_choice
/// forces tool use"): then it is offered.
fn tool_choice(em: &Emission, choice: &Value, forced: &Value, offered: &Value) -> Result<(), String> {
    match (em.claude_thinking, choice == forced, choice == offered) {
        (false, true, _) | (true, _, true) => Ok(()),
        (true, true, _) => Err("thinking may not be enabled when tool_choice forces tool use".into()),
        _ => Err(format!("tool choice {choice} neither forces the one tool nor offers it beside thinking")),
    }
}

fn claude_output_format(f: &Value) -> Result<(), String> {
    if f["type"] != "json_schema" {
        return Err("format type must be json_schema".into());
    }
    claude_strict_schema(&f["schema"])
}

fn converse(em: &Emission, body: &serde_json::Map<String, Value>) -> Result<(), String> {
    if let Some(oc) = body.get("outputConfig") {
        let tf = &oc["textFormat"];
        if tf["type"] != "json_schema" {
            return Err("textFormat type must be json_schema".into());
        }
        let js = &tf["structure"]["jsonSchema"];
        if !js["name"].as_str().is_some_and(|n| name_ok(n, 64)) {
            return Err("jsonSchema.name outside [A-Za-z0-9_-]{1,64}".into());
        }
        let text = js["schema"].as_str().ok_or("jsonSchema.schema must be a JSON string")?;
        let schema: Value = serde_json::from_str(text).map_err(|e| format!("jsonSchema.schema is not JSON: {e}"))?;
        return claude_strict_schema(&schema);
    }
    let tc = body.get("toolConfig").ok_or("no outputConfig or toolConfig")?;
    let tools = tc["tools"].as_array().ok_or("toolConfig.tools is not an array")?;
    let [tool] = tools.as_slice() else { return Err("exactly one tool expected".into()) };
    let spec = &tool["toolSpec"];
    let name = spec["name"].as_str().unwrap_or_default();
    if !name_ok(name, 64) {
        return Err("toolSpec.name outside [a-zA-Z0-9_-]{1,64}".into());
    }
    tool_choice(em, &tc["toolChoice"], &json!({"tool": {"name": name}}), &json!({"auto": {}}))?;
    let input = &spec["inputSchema"]["json"];
    if input["type"] != "object" {
        return Err("inputSchema.json root must be type object".into());
    }
    if spec.get("strict") == Some(&json!(true)) { claude_strict_schema(input) } else { Ok(()) }
}

const CLAUDE_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "description",
    "title",
    "default",
    "pattern",
    "format",
    "minItems",
];
const CLAUDE_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

/// Claude's JSON-outputs and strict-tool subset (`providers.md` §5.3).
fn claude_strict_schema(s: &Value) -> Result<(), String> {
    if s["type"] != "object" {
        return Err("Claude's strict root must be type object".into());
    }
    claude_node(s, "")?;
    let (optional, unions) = crate::dialect::claude::complexity(s);
    if optional > 24 {
        return Err(format!("{optional} optional properties (limit 24)"));
    }
    if unions > 16 {
        return Err(format!("{unions} union-typed properties (limit 16)"));
    }
    Ok(())
}

fn claude_node(v: &Value, at: &str) -> Result<(), String> {
    let m = v.as_object().ok_or(format!("{at}: boolean schema"))?;
    for k in m.keys() {
        if !CLAUDE_KEYWORDS.contains(&k.as_str()) {
            return Err(format!("{at}: `{k}` outside Claude's subset"));
        }
    }
    let is_object =
        m.get("type").is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object"))));
    if (is_object || m.contains_key("properties")) && m.get("additionalProperties") != Some(&json!(false)) {
        return Err(format!("{at}: additionalProperties must be explicitly false"));
    }
    if m.get("minItems").is_some_and(|n| n.as_u64().is_none_or(|n| n > 1)) {
        return Err(format!("{at}: minItems other than 0 or 1"));
    }
    if let Some(f) = m.get("format")
        && !f.as_str().is_some_and(|f| CLAUDE_FORMATS.contains(&f))
    {
        return Err(format!("{at}: format {f}"));
    }
    if let Some(p) = m.get("pattern").and_then(Value::as_str)
        && !crate::pattern::is_simple(p)
    {
        return Err(format!("{at}: pattern {p:?} is not simple"));
    }
    for k in ["enum", "const"] {
        let lits: Vec<&Value> = match m.get(k) {
            Some(Value::Array(a)) if k == "enum" => a.iter().collect(),
            Some(v) => vec![v],
            None => Vec::new(),
        };
        if lits.iter().any(|l| l.is_object() || l.is_array()) {
            return Err(format!("{at}: `{k}` with complex values"));
        }
    }
    walk_children(m, at, &claude_node)
}

const AZURE_UNSUPPORTED: &[&str] = &[
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
];
