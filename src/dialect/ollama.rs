//! Ollama `/api/chat` `format`: a JSON Schema compiled by llama.cpp's grammar
//! converter, sent with its traps defused (`providers.md` §6, §7.2).
//!
//! llama.cpp closes objects when `additionalProperties` is absent, reads `{}` as
//! "any object", fails the request on a `pattern` not written `^…$` (and on
//! shorthand escapes), reads numeric bounds as 64-bit integers on integers only,
//! ignores the siblings of `anyOf`/`$ref`, and orders `$defs` badly. The lowering
//! already makes every object's openness explicit, inlines references and
//! distributes unions; this module adds the explicit type union for "any value".

use crate::analysis::{self, Doc};
use crate::emission::{Action, Emission, Enforcement, Note};
use crate::lower::{self, Literals, PatternRule, Rules};
use crate::options::Options;
use serde_json::{Value, json};

pub(crate) static RULES: Rules = Rules {
    keywords: &[
        "minLength",
        "maxLength",
        "pattern",
        "format",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "description",
        "title",
    ],
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
};

/// Every JSON type: llama.cpp expands a type array into a union of copies.
const ANY_TYPE: [&str; 6] = ["string", "number", "boolean", "object", "array", "null"];

pub(crate) fn json(em: &mut Emission, doc: Option<&Doc<'_>>) {
    if let Some(doc) = doc
        && !analysis::accepts_only_objects(doc, doc.root)
    {
        prompt_only(em);
        return;
    }
    json_format(em);
}

pub(crate) fn schema(em: &mut Emission, doc: &Doc<'_>, opts: &Options) {
    match lower::lower(doc, &RULES, opts.closed_world, opts.assert_formats) {
        Ok(lowered) => {
            em.notes.extend(lowered.notes);
            em.body = json!({"format": defuse(&lowered.schema)});
            em.enforcement = if lowered.exact { Enforcement::Exact } else { Enforcement::Widened };
        }
        Err(fail) => {
            em.notes.push(fail.0);
            if analysis::accepts_only_objects(doc, doc.root) {
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Degraded,
                    "the schema cannot be sent as a grammar: falling back to `format: \"json\"`, which is sound because the schema accepts only objects",
                ));
                json_format(em);
            } else {
                prompt_only(em);
            }
        }
    }
}

fn json_format(em: &mut Emission) {
    em.body = json!({"format": "json"});
    em.enforcement = Enforcement::Json;
}

fn prompt_only(em: &mut Emission) {
    em.body = json!({});
    em.enforcement = Enforcement::Prompt;
    em.notes.push(Note::new(
        "",
        "",
        Action::Degraded,
        "the schema accepts values that are not objects, and `format: \"json\"` forces an object: nothing native is sent; ask for the JSON in the prompt and validate locally",
    ));
}

/// Gives every node that says nothing about its type an explicit union of all
/// types (and an open object), so llama.cpp does not read it as "any object".
fn defuse(v: &Value) -> Value {
    let Value::Object(m) = v else { return v.clone() };
    let mut out = lower::map_children(m, &defuse);
    let typed = ["type", "anyOf", "enum", "const", "$ref"].iter().any(|k| out.contains_key(*k));
    if !typed {
        out.insert("type".to_owned(), json!(ANY_TYPE));
        // The object copy must stay open, whatever the reader's default.
        out.entry("additionalProperties").or_insert(Value::Bool(true));
    }
    Value::Object(out)
}
