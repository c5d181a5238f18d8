//! Anthropic Messages API: one forced tool whose `input_schema` is the schema
//! (`providers.md` §5.2). A non-strict tool input is guidance, not a grammar, so
//! the provider is read as returning any object (contract §2).

use crate::analysis::{self, Doc};
use crate::emission::{Action, Emission, Enforcement, Note};
use crate::lower::{self, Literals, PatternRule, Rules};
use crate::options::Options;
use serde_json::{Value, json};

/// The forced tool's name; `decode` looks for its `tool_use` block.
pub(crate) const TOOL: &str = "emit_structured_output";

/// The tool input is guidance: keep what guides, drop only what the API rejects
/// (combinators at the root) or what cannot be inlined.
pub(crate) static RULES: Rules = Rules {
    keywords: &[
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
        "prefixItems",
        "minProperties",
        "maxProperties",
        "description",
        "title",
    ],
    formats: &[
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
        "uri-reference",
        "iri",
        "idn-email",
        "idn-hostname",
        "json-pointer",
        "regex",
    ],
    pattern: PatternRule::Search,
    literals: Literals::All,
    any_value: true,
    open_objects: true,
    maps: true,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: false,
    integral_bounds: false,
    refs: false,
};

pub(crate) fn json(em: &mut Emission, doc: Option<&Doc<'_>>, opts: &Options) {
    let objects_only = doc.is_none_or(|d| analysis::accepts_only_objects(d, d.root));
    if opts.claude_json_tool && objects_only {
        forced_tool(em, json!({"type": "object"}), None);
        return;
    }
    em.body = json!({});
    em.enforcement = Enforcement::Prompt;
    let why = if opts.claude_json_tool {
        "the schema accepts values that are not objects, and a tool input is always an object: nothing native is sent"
    } else {
        "Claude has no JSON mode: nothing native is sent; ask for JSON in the prompt (or opt in to a forced tool with an open object schema)"
    };
    em.notes.push(Note::new("", "", Action::Degraded, why));
}

/// With reshape, a root that is not an object travels as `{"value": …}`, so
/// unions at that inner root are fine.
static RULES_WRAPPED: Rules = Rules { root_unions: true, ..RULES };

pub(crate) fn schema(em: &mut Emission, doc: &Doc<'_>, opts: &Options) {
    if !analysis::accepts_only_objects(doc, doc.root) && opts.reshape {
        let inner = match lower::lower(doc, &RULES_WRAPPED, opts.closed_world, opts.assert_formats) {
            Ok(lowered) => {
                em.notes.extend(lowered.notes);
                lowered.schema
            }
            Err(fail) => {
                em.notes.push(fail.0);
                json!({})
            }
        };
        let (sent, annotated) = crate::reshape::wrap(inner.clone(), inner, &mut em.notes);
        em.reshape = Some(annotated);
        forced_tool(em, sent, None);
        return;
    }
    if !analysis::accepts_only_objects(doc, doc.root) {
        em.body = json!({});
        em.enforcement = Enforcement::Prompt;
        em.notes.push(Note::new(
            "",
            "",
            Action::Degraded,
            "the schema accepts values that are not objects, and a tool input is always an object: nothing native is sent; ask for the JSON in the prompt and validate locally",
        ));
        return;
    }
    let description = doc.root.get("description").and_then(Value::as_str).map(str::to_owned);
    match lower::lower(doc, &RULES, opts.closed_world, opts.assert_formats) {
        Ok(lowered) => {
            em.notes.extend(lowered.notes);
            let mut input = lowered.schema;
            if let Value::Object(m) = &mut input {
                // Every accepted value is an object, so saying so is exact; the API
                // needs it at the root.
                m.insert("type".to_owned(), json!("object"));
            }
            forced_tool(em, input, description);
        }
        Err(fail) => {
            em.notes.push(fail.0);
            em.notes.push(Note::new(
                "",
                "",
                Action::Degraded,
                "the schema cannot be sent as the tool input: the tool takes any object instead (still sound: the schema accepts only objects)",
            ));
            forced_tool(em, json!({"type": "object"}), description);
        }
    }
}

fn forced_tool(em: &mut Emission, input_schema: Value, description: Option<String>) {
    let mut text = "Respond by calling this tool exactly once; its input is the answer.".to_owned();
    if let Some(d) = description {
        text.push(' ');
        text.push_str(&d);
    }
    em.body = json!({
        "tools": [{"name": TOOL, "description": text, "input_schema": input_schema}],
        "tool_choice": {"type": "tool", "name": TOOL}
    });
    em.enforcement = Enforcement::Json;
    em.notes.push(Note::new(
        "",
        "tools",
        Action::Info,
        "a non-strict tool input is guidance, not a grammar: Claude may return any object, so the answer is validated locally",
    ));
    em.notes.push(Note::new(
        "",
        "tool_choice",
        Action::Info,
        "forced tool use cannot be combined with extended thinking (the API rejects it)",
    ));
}
