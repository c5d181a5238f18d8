//! The laws every emission obeys, as executable checks shared by the property
//! tests and the fuzz targets (`--features laws`). Not part of the stable API.
//!
//! 1. never panics, and is deterministic (byte-identical twice);
//! 2. soundness: every instance the source accepts, projected, is accepted by
//!    [`Emission::native_schema`], and the projection keeps it valid;
//! 3. acceptance: the body passes an independent checker of the provider's
//!    documented rules (fields, keywords, required/additionalProperties, limits,
//!    name patterns);
//! 4. `decode` of an encoded valid instance returns it;
//! 5. streaming: an answer cut into events anywhere ends exactly as `decode`
//!    of the whole response, partial values are prefix-completions of the final
//!    one, and an early error is never followed by a valid answer
//!    ([`check_stream`]).
//! 6. exactness: an emission that claims `exact` admits no answer the source rejects.

mod stream;
pub use stream::{check_stream, check_stream_input, is_prefix_completion};

use crate::profile::{Envelope, profile};
use crate::{ClaudeMechanism, Emission, GeminiDialect, Mode, Options, Provider};
use serde_json::{Value, json};

/// Every option set the laws are checked under.
#[must_use]
pub fn option_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        for m in Mode::ALL {
            out.push(Options::new(*p).with_mode(*m));
        }
    }
    out.push(Options::new(Provider::Gemini).with_gemini_dialect(GeminiDialect::JsonSchema));
    out.push(Options::new(Provider::Gemini).with_closed_world(false));
    out.push(Options::new(Provider::Gemini).with_format_assertion(false));
    out.push(Options::new(Provider::Ollama).with_closed_world(false));
    out.push(Options::new(Provider::Claude).with_mode(Mode::Json).with_claude_json_tool(true));
    for p in [Provider::OpenAi, Provider::Claude] {
        out.push(Options::new(p).with_reshape(true));
    }
    for m in [ClaudeMechanism::StrictTool, ClaudeMechanism::OutputFormat, ClaudeMechanism::OutputFormatBeta] {
        out.push(Options::new(Provider::Claude).with_claude_mechanism(m));
    }
    out.push(Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::StrictTool));
    out.push(Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::Tool));
    out.push(Options::new(Provider::Cerebras).with_reshape(true));
    out.push(Options::new(Provider::Claude).with_claude_mechanism(ClaudeMechanism::OutputFormat).with_reshape(true));
    out.push(Options::new(Provider::Bedrock).with_reshape(true));
    out.push(Options::new(Provider::Gemini).with_reshape(true));
    out.push(Options::new(Provider::OpenAi).with_reshape(true).with_union_closing(false));
    out.push(Options::new(Provider::OpenAi).with_default_filling(false));
    out
}

/// Checks instances against one emission's native model.
#[derive(Debug)]
pub struct Admits {
    native: Option<jsonschema::Validator>,
    constrained: bool,
    emission: Emission,
}

impl Admits {
    /// Compiles the native model of `em`.
    #[must_use]
    pub fn new(em: &Emission) -> Admits {
        let native = em.native_schema();
        let validator = native.as_ref().and_then(|n| {
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .offline()
                .build(n)
                .ok()
        });
        Admits { native: validator, constrained: native.is_some(), emission: em.clone() }
    }

    /// Law 2 for one instance: the provider can return `project(x)`.
    #[must_use]
    pub fn admits(&self, x: &Value) -> bool {
        if !self.constrained {
            return true;
        }
        let Some(v) = &self.native else { return false };
        self.answer_for(x).is_some_and(|y| v.is_valid(&y))
    }

    /// Law 5, exactness: when the emission claims `exact`, every answer `y` the
    /// native constraint admits decodes to a value the source accepts (the
    /// native schema is no wider than the source, within the projection). `Err`
    /// names the answer that breaks the claim.
    ///
    /// # Errors
    ///
    /// The admitted answer the source rejects.
    pub fn exact_holds(&self, validator: &jsonschema::Validator, y: &Value) -> Result<(), String> {
        if self.emission.enforcement() != crate::Enforcement::Exact {
            return Ok(());
        }
        let Some(v) = &self.native else { return Ok(()) };
        if !v.is_valid(y) {
            return Ok(());
        }
        let decoded = self.emission.undo(y.clone()).map_err(|e| format!("{y} admitted but {e}"))?;
        if validator.is_valid(&decoded) {
            Ok(())
        } else {
            Err(format!("`exact` claimed, but the native constraint admits {y}, which the source rejects"))
        }
    }

    /// Law 2b: the projection keeps a valid instance valid (it only applies
    /// the readings that do), so the answer the provider sends for it passes
    /// the caller's validation.
    #[must_use]
    pub fn projection_valid(&self, validator: &jsonschema::Validator, x: &Value) -> bool {
        validator.is_valid(&self.emission.project(x))
    }

    /// What the provider sends for the answer `x`: projected, then reshaped.
    #[must_use]
    pub fn answer_for(&self, x: &Value) -> Option<Value> {
        self.emission.sent_for(x)
    }
}

/// Candidate instances drawn from a schema's own literals, plus simple values.
#[must_use]
pub fn candidates(schema: &Value) -> Vec<Value> {
    let mut out = vec![json!({}), json!([]), json!(null), json!(0), json!(""), json!(true), json!(1.5)];
    collect_literals(schema, &mut out, 0);
    out.truncate(64);
    out
}

fn collect_literals(v: &Value, out: &mut Vec<Value>, depth: usize) {
    if depth > 32 || out.len() > 64 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, sub) in m {
                match (k.as_str(), sub) {
                    ("const" | "default", lit) => out.push(lit.clone()),
                    ("enum" | "examples", Value::Array(items)) => out.extend(items.iter().take(8).cloned()),
                    _ => collect_literals(sub, out, depth + 1),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_literals(i, out, depth + 1)),
        _ => {}
    }
}

/// Laws 1–3 for `schema` under every option set, over `instances`.
///
/// # Errors
///
/// A description of the first broken law.
pub fn check(schema: &Value, instances: &[Value]) -> Result<(), String> {
    for opts in option_sets() {
        let first = opts.compile(schema);
        let again = opts.compile(schema);
        let a = first.as_ref().map(|e| e.to_json().to_string()).map_err(ToString::to_string);
        let b = again.as_ref().map(|e| e.to_json().to_string()).map_err(ToString::to_string);
        if a != b {
            return Err(format!("not deterministic: {opts:?}"));
        }
        let Ok(em) = first else { continue };
        acceptance(&em).map_err(|e| format!("rejected body for {opts:?}: {e}\nbody = {}", em.body()))?;
        let validator =
            em.local_validator().map_err(|e| format!("deferred validator build failed for {opts:?}: {e}"))?;
        if let Some(v) = validator {
            let check = Admits::new(&em);
            for y in instances {
                check.exact_holds(v, y).map_err(|e| format!("{e}: {opts:?}\nbody = {}", em.body()))?;
            }
            for x in instances.iter().filter(|x| v.is_valid(x)) {
                if !check.admits(x) {
                    return Err(format!("narrowing for {opts:?}: instance {x}\nbody = {}", em.body()));
                }
                if !check.projection_valid(v, x) {
                    return Err(format!("projection breaks validity for {opts:?}: {x} -> {}", em.project(x)));
                }
            }
        }
    }
    Ok(())
}

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
        Envelope::Converse => converse(body),
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
    if body["tool_choice"] != json!({"type": "tool", "name": name}) {
        return Err("tool_choice must force the one tool".into());
    }
    if tool.get("strict") == Some(&json!(true)) {
        return claude_strict_schema(&tool["input_schema"]);
    }
    Ok(())
}

fn claude_output_format(f: &Value) -> Result<(), String> {
    if f["type"] != "json_schema" {
        return Err("format type must be json_schema".into());
    }
    claude_strict_schema(&f["schema"])
}

fn converse(body: &serde_json::Map<String, Value>) -> Result<(), String> {
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
    if tc["toolChoice"] != json!({"tool": {"name": name}}) {
        return Err("toolChoice must force the one tool".into());
    }
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

/// Applies `f` to each sub-schema under `properties`, `items`, `anyOf`, `allOf`,
/// `prefixItems` and a schema-valued `additionalProperties`.
fn walk_children(
    m: &serde_json::Map<String, Value>,
    at: &str,
    f: &dyn Fn(&Value, &str) -> Result<(), String>,
) -> Result<(), String> {
    for (k, sub) in m {
        match (k.as_str(), sub) {
            ("properties", Value::Object(p)) => {
                for (name, s) in p {
                    f(s, &format!("{at}/properties/{name}"))?;
                }
            }
            ("items" | "additionalProperties", s @ Value::Object(_)) => f(s, &format!("{at}/{k}"))?,
            ("anyOf" | "allOf" | "prefixItems", Value::Array(b)) => {
                for (i, s) in b.iter().enumerate() {
                    f(s, &format!("{at}/{k}/{i}"))?;
                }
            }
            _ => {}
        }
    }
    Ok(())
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

/// None of `banned` anywhere in the schema.
fn no_keywords(v: &Value, banned: &[&str], at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Ok(()) };
    if let Some(k) = m.keys().find(|k| banned.contains(&k.as_str())) {
        return Err(format!("{at}: `{k}` is not supported"));
    }
    if let Some(Value::Object(defs)) = m.get("$defs") {
        for (name, d) in defs {
            no_keywords(d, banned, &format!("{at}/$defs/{name}"))?;
        }
    }
    walk_children(m, at, &|s, here| no_keywords(s, banned, here))
}

/// Cerebras: no type arrays, `anyOf` ≤ 5, no references, no informational
/// fields, at most 5,000 characters.
fn cerebras_schema(s: &Value) -> Result<(), String> {
    let size = s.to_string().chars().count();
    if size > 5000 {
        return Err(format!("{size} characters (limit 5000)"));
    }
    no_keywords(s, &["$ref", "$defs", "description", "title"], "")?;
    cerebras_node(s, "")
}

fn cerebras_node(v: &Value, at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Ok(()) };
    if m.get("type").is_some_and(Value::is_array) {
        return Err(format!("{at}: type array"));
    }
    if m.get("anyOf").and_then(Value::as_array).is_some_and(|b| b.len() > 5) {
        return Err(format!("{at}: anyOf with more than 5 branches"));
    }
    walk_children(m, at, &cerebras_node)
}

/// xAI: patterns whole-string (`^…$`) and simple, every object's openness
/// explicit, no boolean property schemas, no empty `enum`/`anyOf`, no
/// `minContains`/`maxContains`, no array-form `items`, no references.
fn xai_schema(v: &Value, at: &str) -> Result<(), String> {
    let m = v.as_object().ok_or(format!("{at}: boolean schema"))?;
    for k in ["$ref", "$defs", "minContains", "maxContains", "allOf", "oneOf", "not", "if"] {
        if m.contains_key(k) {
            return Err(format!("{at}: `{k}`"));
        }
    }
    if m.get("type").is_some_and(Value::is_array) {
        return Err(format!("{at}: a type array (xAI documents `anyOf`)"));
    }
    if let Some(p) = m.get("pattern").and_then(Value::as_str)
        && !(crate::pattern::is_self_anchored(p) && crate::pattern::is_simple(p))
    {
        return Err(format!("{at}: pattern {p:?} is not a simple whole-string pattern"));
    }
    let is_object =
        m.get("type").is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object"))));
    if is_object && !m.contains_key("additionalProperties") {
        return Err(format!("{at}: an object must state additionalProperties (xAI closes it otherwise)"));
    }
    if m.get("items").is_some_and(Value::is_array) {
        return Err(format!("{at}: items as an array"));
    }
    for k in ["enum", "anyOf"] {
        if m.get(k).and_then(Value::as_array).is_some_and(Vec::is_empty) {
            return Err(format!("{at}: empty `{k}`"));
        }
    }
    if let Some(Value::Object(p)) = m.get("properties")
        && let Some((name, _)) = p.iter().find(|(_, s)| s.is_boolean())
    {
        return Err(format!("{at}/properties/{name}: a boolean property schema"));
    }
    walk_children(m, at, &xai_schema)
}

/// Fireworks: no `oneOf`, lengths, item counts or patterns; objects with
/// `properties` are closed by the provider, so they must say so.
fn fireworks_schema(v: &Value, at: &str) -> Result<(), String> {
    let m = v.as_object().ok_or(format!("{at}: boolean schema"))?;
    for k in ["oneOf", "minLength", "maxLength", "minItems", "maxItems", "pattern", "$ref", "allOf"] {
        if m.contains_key(k) {
            return Err(format!("{at}: `{k}` is not supported"));
        }
    }
    if m.contains_key("properties") && m.get("additionalProperties") != Some(&json!(false)) {
        return Err(format!("{at}: an object with properties is closed by Fireworks: it must be sent closed"));
    }
    if m.get("type").is_some_and(Value::is_array) {
        return Err(format!("{at}: a type array (Fireworks documents `anyOf`)"));
    }
    walk_children(m, at, &fireworks_schema)
}

/// Cohere v2: an object root; no `allOf`, `oneOf`, `not`, numeric, length or
/// count keywords, `uniqueItems`; patterns without anchors or look-ahead;
/// formats `date-time`, `uuid`, `date`, `time`.
fn cohere_schema(s: &Value) -> Result<(), String> {
    if s["type"] != "object" && s.get("anyOf").is_none() {
        return Err("Cohere's schema root must be an object".into());
    }
    no_keywords(
        s,
        &[
            "allOf",
            "oneOf",
            "not",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "minItems",
            "maxItems",
            "minLength",
            "maxLength",
            "uniqueItems",
            "$ref",
            "$defs",
        ],
        "",
    )?;
    cohere_node(s, "")
}

fn cohere_node(v: &Value, at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Ok(()) };
    if m.get("type").is_some_and(Value::is_array) {
        return Err(format!("{at}: a type array (Cohere documents `anyOf`)"));
    }
    if let Some(p) = m.get("pattern").and_then(Value::as_str)
        && (p.contains('^') || p.contains('$') || p.contains("?=") || p.contains("?!"))
    {
        return Err(format!("{at}: pattern {p:?} with anchors or look-ahead"));
    }
    if let Some(f) = m.get("format")
        && !f.as_str().is_some_and(|f| ["date-time", "uuid", "date", "time"].contains(&f))
    {
        return Err(format!("{at}: format {f}"));
    }
    walk_children(m, at, &cohere_node)
}

const STRICT_KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$defs",
    "$ref",
    "description",
    "title",
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
const STRICT_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

fn strict_schema(s: &Value) -> Result<(), String> {
    if s["type"] != json!("object") {
        return Err("strict root must be type object".into());
    }
    let mut props = 0;
    strict_node(s, "", &mut props)?;
    if let Some(Value::Object(defs)) = s.get("$defs") {
        for (k, d) in defs {
            strict_node(d, &format!("/$defs/{k}"), &mut props)?;
        }
    }
    if props > 5000 { Err("more than 5000 properties".into()) } else { Ok(()) }
}

fn strict_node(v: &Value, at: &str, props: &mut usize) -> Result<(), String> {
    let m = v.as_object().ok_or(format!("{at}: boolean schema"))?;
    for k in m.keys() {
        if !STRICT_KEYWORDS.contains(&k.as_str()) || (k == "$defs" && !at.is_empty()) {
            return Err(format!("{at}: `{k}` outside the strict subset"));
        }
    }
    if m.contains_key("$ref") && m.len() > 1 {
        return Err(format!("{at}: keywords beside $ref"));
    }
    if let Some(f) = m.get("format")
        && !f.as_str().is_some_and(|f| STRICT_FORMATS.contains(&f))
    {
        return Err(format!("{at}: format {f}"));
    }
    let is_object =
        m.get("type").is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.contains(&json!("object"))));
    if is_object {
        let p = m.get("properties").and_then(Value::as_object).ok_or(format!("{at}: object without properties"))?;
        if m.get("additionalProperties") != Some(&json!(false)) {
            return Err(format!("{at}: additionalProperties must be false"));
        }
        let req: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if req.len() != p.len() || !p.keys().all(|k| req.contains(&k.as_str())) {
            return Err(format!("{at}: required must list every property"));
        }
        *props += p.len();
        for (k, sub) in p {
            strict_node(sub, &format!("{at}/properties/{k}"), props)?;
        }
    }
    if let Some(items) = m.get("items") {
        strict_node(items, &format!("{at}/items"), props)?;
    }
    if let Some(Value::Array(b)) = m.get("anyOf") {
        for (i, sub) in b.iter().enumerate() {
            strict_node(sub, &format!("{at}/anyOf/{i}"), props)?;
        }
    }
    Ok(())
}

const GEMINI_JSON_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// A JSON Schema subset: only `allowed` keywords, string/number enums.
fn json_schema_subset(v: &Value, allowed: &[&str], at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Ok(()) };
    for (k, sub) in m {
        if !allowed.contains(&k.as_str()) {
            return Err(format!("{at}: `{k}` not in the subset"));
        }
        match (k.as_str(), sub) {
            ("enum", Value::Array(items)) if !items.iter().all(|i| i.is_string() || i.is_number()) => {
                return Err(format!("{at}: enum of other than strings and numbers"));
            }
            ("properties", Value::Object(p)) => {
                for (name, s) in p {
                    json_schema_subset(s, allowed, &format!("{at}/properties/{name}"))?;
                }
            }
            ("items" | "additionalProperties", s) => json_schema_subset(s, allowed, &format!("{at}/{k}"))?,
            ("anyOf" | "prefixItems", Value::Array(b)) => {
                for (i, s) in b.iter().enumerate() {
                    json_schema_subset(s, allowed, &format!("{at}/{k}/{i}"))?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// vLLM (xgrammar 0.2.9 as vLLM calls it, llguidance 1.9.1 as its fallback):
/// what its pre-check or compilers reject (`.ci/engines/` runs the engines).
fn vllm_schema(v: &Value, at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Err(format!("{at}: boolean schema")) };
    for k in ["multipleOf", "uniqueItems", "contains", "not", "if", "dependentRequired", "propertyNames", "$ref"] {
        if m.contains_key(k) {
            return Err(format!("{at}: `{k}` (vLLM's xgrammar pre-check rejects it)"));
        }
    }
    let may_be_array =
        m.get("type").is_some_and(|t| t == "array" || t.as_array().is_some_and(|a| a.contains(&json!("array"))));
    if may_be_array && m.contains_key("minItems") && !m.contains_key("items") && !m.contains_key("prefixItems") {
        return Err(format!("{at}: minItems without items (xgrammar: no additional items allowed)"));
    }
    let integer = m.get("type") == Some(&json!("integer"));
    for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
        if let Some(n) = m.get(k).and_then(Value::as_f64) {
            if integer && (n.fract() != 0.0 || n.abs() >= 9.2e18) {
                return Err(format!("{at}: integer bound {n} (xgrammar: whole, within int64)"));
            }
            if n.abs() >= 1e19 {
                return Err(format!("{at}: bound {n} (llguidance: no float range)"));
            }
        }
    }
    walk_children(m, at, &vllm_schema)
}

/// llama.cpp's converter: patterns written `^…$` without shorthand classes or
/// `(?`, and no node that it would read as "any object" by accident.
fn llama_cpp_schema(v: &Value, at: &str) -> Result<(), String> {
    let Value::Object(m) = v else { return Err(format!("{at}: boolean schema")) };
    if let Some(Value::Object(p)) = m.get("properties") {
        if let Some(name) = p.keys().find(|k| *k == "$ref" || *k == "$defs") {
            return Err(format!("{at}: a property named `{name}` (Ollama's converter misreads it)"));
        }
        let required: Vec<&Value> =
            m.get("required").and_then(Value::as_array).map(|r| r.iter().collect()).unwrap_or_default();
        let optional = p.keys().filter(|k| !required.iter().any(|r| r.as_str() == Some(k.as_str()))).count();
        if optional > 128 {
            return Err(format!("{at}: {optional} optional properties (the grammar takes minutes to build)"));
        }
    }
    if let Some(p) = m.get("pattern").and_then(Value::as_str)
        && p.chars().any(|c| c as u32 > 0xFFFF)
    {
        return Err(format!(
            "{at}: pattern with a character beyond U+FFFF (the converter writes a grammar it cannot parse)"
        ));
    }
    if m.keys().all(|k| k == "title" || k == "description") {
        return Err(format!("{at}: an empty schema reads as any object"));
    }
    if let Some(p) = m.get("pattern").and_then(Value::as_str) {
        let shorthand = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B"].iter().any(|s| p.contains(s));
        if !p.starts_with('^') || !p.ends_with('$') || shorthand || p.contains("(?") {
            return Err(format!("{at}: pattern {p:?} outside llama.cpp's subset"));
        }
    }
    for (k, sub) in m {
        match (k.as_str(), sub) {
            ("properties", Value::Object(p)) => {
                for (name, s) in p {
                    llama_cpp_schema(s, &format!("{at}/properties/{name}"))?;
                }
            }
            ("items", s @ Value::Object(_)) | ("additionalProperties", s @ Value::Object(_)) => {
                llama_cpp_schema(s, &format!("{at}/{k}"))?;
            }
            ("anyOf" | "prefixItems", Value::Array(b)) => {
                for (i, s) in b.iter().enumerate() {
                    llama_cpp_schema(s, &format!("{at}/{k}/{i}"))?;
                }
            }
            ("$ref" | "$defs" | "allOf", _) => return Err(format!("{at}: `{k}` is left to llama.cpp")),
            _ => {}
        }
    }
    Ok(())
}

/// Gemini `responseSchema` acceptance: only the documented fields, upper-case
/// single types, non-empty `properties` on every OBJECT, string-only enums,
/// `required` within `properties`, `format` only `date-time` on STRING.
pub fn gemini_schema_problems(v: &Value, at: &str, out: &mut Vec<String>) {
    const FIELDS: &[&str] = &[
        "type",
        "format",
        "title",
        "description",
        "nullable",
        "enum",
        "items",
        "maxItems",
        "minItems",
        "properties",
        "required",
        "minProperties",
        "maxProperties",
        "minLength",
        "maxLength",
        "pattern",
        "anyOf",
        "propertyOrdering",
        "minimum",
        "maximum",
    ];
    const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];
    let Value::Object(m) = v else {
        out.push(format!("{at}: not an object"));
        return;
    };
    for k in m.keys() {
        if !FIELDS.contains(&k.as_str()) {
            out.push(format!("{at}: unknown field {k}"));
        }
    }
    let ty = m.get("type").and_then(Value::as_str);
    match (ty, m.get("anyOf")) {
        (Some(t), None) if TYPES.contains(&t) => {}
        (None, Some(Value::Array(b))) if !b.is_empty() => {}
        _ => out.push(format!("{at}: needs one upper-case `type` or a non-empty `anyOf`")),
    }
    if let Some(e) = m.get("enum")
        && !(ty == Some("STRING") && e.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_string)))
    {
        out.push(format!("{at}: enum must be non-empty strings on STRING"));
    }
    if let Some(f) = m.get("format")
        && !(ty == Some("STRING") && f == "date-time")
    {
        out.push(format!("{at}: format {f}"));
    }
    if ty == Some("OBJECT") {
        match m.get("properties") {
            Some(Value::Object(p)) if !p.is_empty() => {
                if let Some(Value::Array(r)) = m.get("required") {
                    for name in r {
                        if !name.as_str().is_some_and(|n| p.contains_key(n)) {
                            out.push(format!("{at}: required {name} not in properties"));
                        }
                    }
                }
                for (k, sub) in p {
                    gemini_schema_problems(sub, &format!("{at}/properties/{k}"), out);
                }
            }
            _ => out.push(format!("{at}: OBJECT without non-empty properties")),
        }
    } else if m.contains_key("properties") || m.contains_key("required") {
        out.push(format!("{at}: properties/required on a non-OBJECT"));
    }
    if ty == Some("ARRAY") {
        match m.get("items") {
            Some(items) => gemini_schema_problems(items, &format!("{at}/items"), out),
            None => out.push(format!("{at}: ARRAY without items")),
        }
    } else if m.contains_key("items") {
        out.push(format!("{at}: items on a non-ARRAY"));
    }
    if let Some(Value::Array(b)) = m.get("anyOf") {
        for (i, sub) in b.iter().enumerate() {
            gemini_schema_problems(sub, &format!("{at}/anyOf/{i}"), out);
        }
    }
}

/// A realistic response body that carries `x` as the answer to `em` (law 4),
/// exactly as given (no reshape applied).
#[must_use]
pub fn encode(em: &Emission, x: &Value) -> Value {
    crate::decode::response_body(crate::profile::profile(em.provider()).envelope, em.tool.as_deref(), x)
}
