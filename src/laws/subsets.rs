//! The schema subsets each provider (or engine) accepts, as law 3 checks
//! them: keyword lists, per-node rules and limits, written from the
//! providers' documentation (`providers.md`) and the engines' sources.

use serde_json::{Value, json};

/// Applies `f` to each sub-schema under `properties`, `items`, `anyOf`, `allOf`,
/// `prefixItems` and a schema-valued `additionalProperties`.
pub(super) fn walk_children(
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

/// None of `banned` anywhere in the schema.
pub(super) fn no_keywords(v: &Value, banned: &[&str], at: &str) -> Result<(), String> {
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
pub(super) fn cerebras_schema(s: &Value) -> Result<(), String> {
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
pub(super) fn xai_schema(v: &Value, at: &str) -> Result<(), String> {
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
pub(super) fn fireworks_schema(v: &Value, at: &str) -> Result<(), String> {
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
pub(super) fn cohere_schema(s: &Value) -> Result<(), String> {
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

pub(super) fn strict_schema(s: &Value) -> Result<(), String> {
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

pub(super) const GEMINI_JSON_KEYWORDS: &[&str] = &[
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
pub(super) fn json_schema_subset(v: &Value, allowed: &[&str], at: &str) -> Result<(), String> {
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
pub(super) fn vllm_schema(v: &Value, at: &str) -> Result<(), String> {
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
pub(super) fn llama_cpp_schema(v: &Value, at: &str) -> Result<(), String> {
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
