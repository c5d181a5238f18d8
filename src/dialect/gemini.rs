//! Google Gemini `generationConfig`: `responseSchema` (an OpenAPI-flavoured
//! subset) or `responseJsonSchema` (a JSON Schema subset), both widening-only.

use crate::analysis::{self, Doc};
use crate::fragment::Fragment;
use crate::lower::{self, Literals, PatternRule, Rules};
use crate::note::{Action, Enforcement, Note};
use crate::options::{GeminiDialect, Options};
use serde_json::{Map, Value, json};

/// What `responseSchema` expresses (`providers.md` §4.2): upper-case single types
/// with `nullable`, string-only enums, closed objects with non-empty
/// `properties`, arrays with `items`, `anyOf`, and a few bounds.
pub(crate) static RESPONSE_SCHEMA: Rules = Rules {
    keywords: &[
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "minProperties",
        "maxProperties",
    ],
    annotations: true,
    formats: &["date-time"],
    pattern: PatternRule::AnchoredOnly,
    literals: Literals::Strings,
    any_value: false,
    open_objects: false,
    maps: false,
    empty_objects: false,
    arrays_without_items: false,
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

/// What `responseJsonSchema` expresses (`providers.md` §4.3). Keywords the model
/// ignores are not sent either (less to go wrong; dropping them widens).
pub(crate) static RESPONSE_JSON_SCHEMA: Rules = Rules {
    keywords: &["format", "minimum", "maximum", "minItems", "maxItems", "prefixItems"],
    annotations: true,
    formats: &["date-time", "date", "time"],
    pattern: PatternRule::Drop,
    literals: Literals::StringsAndNumbers,
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

const MIME: &str = "application/json";

pub(crate) fn json(em: &mut Fragment, doc: Option<&Doc<'_>>) {
    if let Some(doc) = doc
        && !analysis::accepts_only_objects(doc, doc.root)
    {
        prompt_only(em);
        return;
    }
    mime_only(em);
}

/// The schema lowered for `rules`, unless it constrains nothing the dialect can say.
fn lowered(doc: &Doc<'_>, rules: &Rules, opts: &Options, reshape: bool) -> Result<lower::Lowered, lower::Blocked> {
    let mut l = lower::lower(doc, rules, lower::Settings::of(opts, reshape))?;
    if crate::reshape::has_markers(&l.schema) {
        l.exact &= !crate::reshape::disambiguate(&mut l.schema, &mut l.notes).map_err(|n| lower::Blocked(vec![n]))?;
    }
    // A root that constrains nothing is not worth sending.
    let unconstrained = l.schema.as_object().is_some_and(|m| m.keys().all(|k| k == "title" || k == "description"));
    if unconstrained {
        return Err(lower::Fail::new("", "", "the schema constrains nothing the dialect can express").into());
    }
    Ok(l)
}

pub(crate) fn schema(em: &mut Fragment, doc: &Doc<'_>, opts: &Options) {
    let (rules, field) = match opts.gemini_dialect {
        GeminiDialect::ResponseSchema => (&RESPONSE_SCHEMA, "responseSchema"),
        GeminiDialect::JsonSchema => (&RESPONSE_JSON_SCHEMA, "responseJsonSchema"),
    };
    // `--reshape` carries maps as pairs, and what `responseSchema` cannot say as JSON text.
    let reshape = opts.gemini_dialect == GeminiDialect::ResponseSchema;
    match lowered(doc, rules, opts, reshape) {
        Ok(lowered) => {
            if crate::reshape::has_markers(&lowered.schema) {
                em.reshape = Some(lowered.schema.clone());
            }
            em.notes.extend(lowered.notes);
            let native = match opts.gemini_dialect {
                GeminiDialect::ResponseSchema => to_openapi(&lower::strip(&lowered.schema)),
                GeminiDialect::JsonSchema => {
                    let mut s = lowered.schema;
                    with_ordering(&mut s);
                    s
                }
            };
            em.body = super::object([(
                "generationConfig",
                super::object([("responseMimeType", json!(MIME)), (field, native)]),
            )]);
            em.enforcement = if lowered.exact { Enforcement::Exact } else { Enforcement::Widened };
        }
        Err(fail) => {
            em.notes.extend(fail.0);
            if analysis::accepts_only_objects(doc, doc.root) {
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Degraded,
                    format!("`{field}` cannot express the schema: sending the JSON mime type alone, which is sound because the schema accepts only objects"),
                ));
                mime_only(em);
            } else {
                prompt_only(em);
            }
            if reshape && !opts.reshape && lowered(doc, rules, &opts.clone().with_reshape(true), true).is_ok() {
                super::reshape_hint(em, &format!("`{field}`"));
            }
        }
    }
}

fn mime_only(em: &mut Fragment) {
    em.body = json!({"generationConfig": {"responseMimeType": MIME}});
    em.enforcement = Enforcement::Json;
}

fn prompt_only(em: &mut Fragment) {
    super::nothing_native(
        em,
        "the schema accepts values that are not objects, and Gemini's JSON mode is read as objects only",
    );
}

/// The normalised JSON Schema → Gemini's OpenAPI-flavoured `Schema`.
pub(crate) fn to_openapi(v: &Value) -> Value {
    let Value::Object(m) = v else { return v.clone() };
    if let Some(Value::Array(branches)) = m.get("anyOf") {
        let mut converted: Vec<Value> = branches.iter().map(to_openapi).collect();
        let null_at = converted.iter().position(is_null_only);
        let mut out = annotations(m);
        match null_at {
            Some(i) if converted.len() > 1 => {
                converted.remove(i);
                if converted.len() == 1 {
                    let mut only = converted.pop().unwrap_or(Value::Null);
                    if let Value::Object(o) = &mut only {
                        o.insert("nullable".to_owned(), Value::Bool(true));
                        for (k, v) in out {
                            o.entry(k).or_insert(v);
                        }
                    }
                    return only;
                }
                out.insert("anyOf".to_owned(), Value::Array(converted));
                out.insert("nullable".to_owned(), Value::Bool(true));
            }
            _ => {
                out.insert("anyOf".to_owned(), Value::Array(converted));
            }
        }
        return Value::Object(out);
    }
    let names: Vec<&str> = match m.get("type") {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let nullable = names.contains(&"null");
    let non_null: Vec<&str> = names.iter().copied().filter(|n| *n != "null").collect();
    if non_null.len() > 1 {
        let branches: Vec<Value> = non_null.iter().map(|t| single(m, t)).collect();
        let mut out = annotations(m);
        out.insert("anyOf".to_owned(), Value::Array(branches));
        if nullable {
            out.insert("nullable".to_owned(), Value::Bool(true));
        }
        return Value::Object(out);
    }
    let t = non_null.first().copied().unwrap_or("null");
    let mut out = single(m, t);
    if nullable
        && t != "null"
        && let Value::Object(o) = &mut out
    {
        o.insert("nullable".to_owned(), Value::Bool(true));
    }
    out
}

/// A branch that accepts only `null`, whatever annotations it carries.
fn is_null_only(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.get("type") == Some(&json!("NULL"))
            && m.keys().all(|k| matches!(k.as_str(), "type" | "title" | "description"))
    })
}

fn annotations(m: &Map<String, Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for k in ["title", "description"] {
        if let Some(v) = m.get(k) {
            out.insert(k.to_owned(), v.clone());
        }
    }
    out
}

/// One Gemini node of type `t` from the keywords of `m` that apply to `t`.
fn single(m: &Map<String, Value>, t: &str) -> Value {
    let mut out = annotations(m);
    out.insert("type".to_owned(), Value::String(t.to_ascii_uppercase()));
    let family = if t == "integer" { "number" } else { t };
    for (k, v) in m {
        if lower::keyword_type(k) != Some(family) {
            continue;
        }
        match k.as_str() {
            "additionalProperties" => {} // every Gemini object is closed
            "properties" => {
                let Value::Object(props) = v else { continue };
                let converted: Map<String, Value> = props.iter().map(|(k, v)| (k.clone(), to_openapi(v))).collect();
                let order: Vec<Value> = props.keys().map(|k| Value::String(k.clone())).collect();
                out.insert("properties".to_owned(), Value::Object(converted));
                out.insert("propertyOrdering".to_owned(), Value::Array(order));
            }
            "items" => {
                out.insert("items".to_owned(), to_openapi(v));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    // Keep `required` after `properties` for readability.
    if let Some(r) = out.remove("required") {
        out.insert("required".to_owned(), r);
    }
    Value::Object(out)
}

/// Adds `propertyOrdering` to every object of a `responseJsonSchema`, so the
/// answer's key order follows the source.
fn with_ordering(v: &mut Value) {
    let Value::Object(m) = v else { return };
    lower::for_each_child_mut(m, &mut with_ordering);
    let order = match m.get("properties") {
        Some(Value::Object(p)) if !p.is_empty() => Value::Array(p.keys().map(|k| Value::String(k.clone())).collect()),
        _ => return,
    };
    // Re-insert in order (moving, not copying) so the ordering follows `properties`.
    let old = std::mem::take(m);
    for (k, sub) in old {
        let is_properties = k == "properties";
        m.insert(k, sub);
        if is_properties {
            m.insert("propertyOrdering".to_owned(), order.clone());
        }
    }
}
