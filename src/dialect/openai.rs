//! The OpenAI Chat Completions dialect (`response_format`), shared by the
//! OpenAI-compatible providers; their differences come from their profiles.

use super::strict::{self, Verdict};
use crate::analysis::{self, Doc};
use crate::emission::{Action, Emission, Enforcement, Note};
use crate::options::Options;
use crate::profile::Profile;
use serde_json::{Value, json};

/// `Mode::Json`: `json_object`, unless the schema accepts non-objects.
pub(crate) fn json(em: &mut Emission, profile: &Profile, doc: Option<&Doc<'_>>) {
    if let Some(doc) = doc
        && !analysis::accepts_only_objects(doc, doc.root)
    {
        prompt_only(em);
        return;
    }
    json_object(em, profile);
}

/// `Mode::Schema`: strict `json_schema` when the schema qualifies, else
/// `json_object` when it accepts only objects, else nothing.
pub(crate) fn schema(em: &mut Emission, profile: &Profile, doc: &Doc<'_>, opts: &Options) {
    let verdict = match profile.strict {
        Some(rules) => strict::qualify(doc, doc.root, rules, opts.assert_formats),
        None => Verdict::Fails(vec![Note::new(
            "",
            "",
            Action::Degraded,
            format!("{} has no strict schema mode", profile.label),
        )]),
    };
    match verdict {
        Verdict::Qualifies { schema, edits } => {
            em.notes.extend(edits);
            em.body = json!({
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": opts.name, "strict": true, "schema": schema}
                }
            });
            em.enforcement = Enforcement::Exact;
            finish(em, profile);
        }
        Verdict::Fails(reasons) => {
            em.notes.extend(reasons);
            if analysis::accepts_only_objects(doc, doc.root) {
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Degraded,
                    "not in the strict subset: falling back to `json_object`, which is sound because the schema accepts only objects",
                ));
                json_object(em, profile);
            } else {
                prompt_only(em);
            }
        }
    }
}

fn json_object(em: &mut Emission, profile: &Profile) {
    em.body = json!({"response_format": {"type": "json_object"}});
    em.enforcement = Enforcement::Json;
    if profile.json_word_required {
        em.notes.push(Note::new(
            "",
            "",
            Action::Info,
            "JSON mode requires the word \"json\" somewhere in the messages, or the request is rejected (HTTP 400)",
        ));
    }
    finish(em, profile);
}

fn prompt_only(em: &mut Emission) {
    em.body = json!({});
    em.enforcement = Enforcement::Prompt;
    em.notes.push(Note::new(
        "",
        "",
        Action::Degraded,
        "the schema accepts values that are not objects, and `json_object` forces an object: nothing native is sent; ask for the JSON in the prompt and validate locally",
    ));
}

fn finish(em: &mut Emission, profile: &Profile) {
    if profile.require_parameters
        && let Value::Object(body) = &mut em.body
    {
        body.insert("provider".to_owned(), json!({"require_parameters": true}));
        em.notes.push(Note::new(
            "",
            "provider",
            Action::Info,
            "`provider.require_parameters: true` routes only to backends that honour `response_format`, so the enforcement is not silently lost",
        ));
    }
}
