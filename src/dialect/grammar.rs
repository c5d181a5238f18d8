//! Grammar-compiled JSON Schema dialects: Ollama `format`, llama.cpp server,
//! vLLM, xAI, Fireworks and Cohere (`providers.md` §3.4, §3.8, §6, §7).
//!
//! Their engines compile a plain JSON Schema into a grammar and close objects
//! that do not open themselves, so the lowering makes every object's openness
//! explicit, inlines references, distributes unions and keeps only what the
//! profile's rules allow; this module spells out "any value" (llama.cpp reads
//! `{}` as "any object") and puts the result in the provider's request shape.

use super::envelope;
use crate::analysis::{self, Doc};
use crate::fragment::Fragment;
use crate::lower;
use crate::note::{Action, Enforcement, Note};
use crate::options::Options;
use crate::profile::Profile;
use serde_json::{Value, json};

/// Every JSON type, for the spelled-out "any value".
const ANY_TYPE: [&str; 6] = ["string", "number", "boolean", "object", "array", "null"];

pub(crate) fn json(em: &mut Fragment, profile: &Profile, doc: Option<&Doc<'_>>) {
    if let Some(doc) = doc
        && !analysis::accepts_only_objects(doc, doc.root)
    {
        prompt_only(em, profile);
        return;
    }
    json_format(em, profile);
}

pub(crate) fn schema(em: &mut Fragment, profile: &Profile, doc: &Doc<'_>, opts: &Options) {
    let Some(grammar) = profile.grammar else {
        prompt_only(em, profile);
        return;
    };
    let objects_only = analysis::accepts_only_objects(doc, doc.root);
    if grammar.object_root && !objects_only {
        em.notes.push(Note::new(
            "",
            "type",
            Action::Degraded,
            format!("{} documents its schema field for object roots only", profile.label),
        ));
        prompt_only(em, profile);
        return;
    }
    let lowered = lower::lower(doc, grammar.rules, lower::Settings::of(opts, false)).and_then(|l| {
        let object_typed = l.schema.get("type") == Some(&json!("object")) || l.schema.get("anyOf").is_some();
        if grammar.object_root && !object_typed {
            return Err(lower::Fail::new("", "type", "the root does not lower to an object schema").into());
        }
        Ok(l)
    });
    match lowered {
        Ok(lowered) => {
            em.notes.extend(lowered.notes);
            let mut native = lowered.schema;
            if !grammar.type_arrays {
                lower::split_type_arrays(&mut native, false);
            }
            defuse(&mut native, grammar.type_arrays, grammar.array_items);
            em.body = envelope::schema_fragment(profile, &opts.name, native);
            em.enforcement = if lowered.exact { Enforcement::Exact } else { Enforcement::Widened };
        }
        Err(fail) => {
            em.notes.extend(fail.0);
            if objects_only {
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Degraded,
                    format!(
                        "the schema cannot be sent as a grammar: falling back to {}, which is sound because the schema accepts only objects",
                        envelope::json_name(profile)
                    ),
                ));
                json_format(em, profile);
            } else {
                prompt_only(em, profile);
            }
        }
    }
}

fn json_format(em: &mut Fragment, profile: &Profile) {
    em.body = envelope::json_fragment(profile);
    em.enforcement = Enforcement::Json;
}

fn prompt_only(em: &mut Fragment, profile: &Profile) {
    let why = format!(
        "the schema accepts values that are not objects, and {} forces an object",
        envelope::json_name(profile)
    );
    super::nothing_native(em, &why);
}

/// Gives every node that says nothing about its type an explicit union of all
/// types (its object copy open), so no engine reads it as "any object" or
/// rejects an empty schema; where the engine takes no type arrays the union is
/// an `anyOf`, each branch with its type's keywords. With `array_items`, every
/// node that may be an array spells `items`.
fn defuse(v: &mut Value, type_array: bool, array_items: bool) {
    let Value::Object(out) = v else { return };
    lower::for_each_child_mut(out, &mut |c| defuse(c, type_array, array_items));
    let typed = ["type", "anyOf", "enum", "const", "$ref"].iter().any(|k| out.contains_key(*k));
    if !typed {
        out.insert("type".to_owned(), json!(ANY_TYPE));
        // The object copy must stay open, whatever the reader's default.
        out.entry("additionalProperties").or_insert(Value::Bool(true));
        if !type_array {
            // One branch per type, each with its own keywords (no type arrays here).
            lower::split_type_arrays(v, false);
            if let Some(Value::Array(branches)) = v.get_mut("anyOf") {
                for b in branches {
                    spell_items(b, array_items);
                }
            }
            return;
        }
    }
    spell_items(v, array_items);
}

/// Adds `items: {}` to a node that may be an array and says nothing of its
/// elements past its positions, if any (`{}` is any value to the engines that
/// need it: xgrammar reads an array without `items` as empty, and a tuple
/// without `items` as closed).
fn spell_items(v: &mut Value, array_items: bool) {
    let Value::Object(out) = v else { return };
    let may_be_array = match out.get("type") {
        Some(Value::String(t)) => t == "array",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "array"),
        _ => false,
    };
    if array_items && may_be_array && !out.contains_key("items") {
        out.insert("items".to_owned(), Value::Object(serde_json::Map::new()));
    }
}
