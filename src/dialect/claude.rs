//! Claude (Anthropic Messages API, and Claude's rules on Bedrock Converse):
//! four mechanisms (`providers.md` §5, §7.3).
//!
//! - `tool`: one forced tool whose input schema is guidance, not a grammar, so
//!   the provider is read as returning any object (contract §2);
//! - `strict-tool`: the same tool with `strict: true`, constrained decoding;
//! - `output-format` / `output-format-beta`: native JSON outputs
//!   (`output_config.format`, or the legacy `output_format` with its beta header;
//!   on Bedrock `outputConfig.textFormat` with the schema as a JSON string).
//!
//! The last three share Claude's JSON-Schema limits (§5.3): every object closed
//! (`additionalProperties: false`, so open objects only via closed-world
//! closing), no recursion, no numeric, length or most array constraints, at most
//! 24 optional and 16 union-typed properties, simple patterns. A schema outside
//! them falls back to the guidance tool.

use super::object;
use crate::analysis::{self, Doc};
use crate::fragment::Fragment;
use crate::lower::{self, Literals, PatternRule, Rules};
use crate::note::{Action, Enforcement, Note};
use crate::options::{ClaudeMechanism, Options};
use crate::profile::{Envelope, Profile};
use serde_json::{Map, Value, json};

mod limits;
pub(crate) use limits::{MAX_OPTIONAL, MAX_UNION, complexity};
use limits::{cap_min_items, fit_optional_limit};

/// The beta header of the legacy `output_format` field.
pub(crate) const BETA_HEADER: (&str, &str) = ("anthropic-beta", "structured-outputs-2025-11-13");

/// Claude's strict grammar (JSON outputs and strict tools, `providers.md` §5.3).
pub(crate) static STRICT_RULES: Rules = Rules {
    keywords: &["pattern", "format", "minItems"],
    annotations: true,
    formats: &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"],
    pattern: PatternRule::RewriteToFullMatch,
    literals: Literals::Scalars,
    any_value: false,
    open_objects: false,
    maps: false,
    empty_objects: true,
    arrays_without_items: false,
    root_unions: false,
    integral_bounds: false,
    refs: false,
    fill_defaults: true,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};

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
    ],
    annotations: true,
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
    fill_defaults: false,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};

pub(crate) fn json(em: &mut Fragment, profile: &Profile, doc: Option<&Doc<'_>>, opts: &Options) {
    let objects_only = doc.is_none_or(|d| analysis::accepts_only_objects(d, d.root));
    if opts.claude_json_tool && objects_only {
        forced_tool(em, profile, opts, json!({"type": "object"}), None, false);
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

pub(crate) fn schema(em: &mut Fragment, profile: &Profile, doc: &Doc<'_>, opts: &Options) {
    let mechanism = opts.claude_mechanism.unwrap_or(profile.claude_default);
    // Beside extended thinking a tool is only offered: nothing native is promised
    // whatever its schema, and an answer in text comes in the caller's shape, so
    // the tool's schema is not reshaped.
    let unreshaped;
    let tool_opts = if opts.claude_thinking && opts.reshape {
        unreshaped = opts.clone().with_reshape(false);
        &unreshaped
    } else {
        opts
    };
    let offered = opts.claude_thinking && matches!(mechanism, ClaudeMechanism::Tool | ClaudeMechanism::StrictTool);
    if mechanism != ClaudeMechanism::Tool {
        match strict_schema(doc, if offered { tool_opts } else { opts }) {
            Ok((schema, exact, notes, annotated)) => {
                em.notes.extend(notes);
                em.reshape = annotated;
                send_strict(em, profile, opts, mechanism, schema, doc);
                if offered {
                    not_reshaped(em, opts);
                } else {
                    em.enforcement = if exact { Enforcement::Exact } else { Enforcement::Widened };
                }
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Info,
                    "Claude does not guarantee the letter case of `enum` and `const` strings, and a refusal or the output limit may end the answer early: validate it (`decode` does)",
                ));
                return;
            }
            Err(why) => {
                em.notes.extend(why);
                em.notes.push(Note::new(
                    "",
                    "",
                    Action::Degraded,
                    format!(
                        "outside Claude's strict subset: falling back from `{}` to the guidance tool",
                        mechanism.name()
                    ),
                ));
                // (A root that is not an object already has its note naming `--reshape`;
                // an offered tool is never native.)
                if !opts.reshape
                    && !offered
                    && analysis::accepts_only_objects(doc, doc.root)
                    && strict_schema(doc, &opts.clone().with_reshape(true)).is_ok()
                {
                    super::reshape_hint(em, &format!("`{}`", mechanism.name()));
                }
            }
        }
    }
    tool_schema(em, profile, doc, tool_opts);
    if opts.claude_thinking && em.tool.is_some() {
        not_reshaped(em, opts);
    }
}

/// Says that `--reshape` was not applied to a tool offered beside thinking.
fn not_reshaped(em: &mut Fragment, opts: &Options) {
    if opts.reshape {
        em.notes.push(Note::new(
            "",
            "tool_choice",
            Action::Info,
            "reshape is not applied to a tool offered beside extended thinking: nothing native is promised either way, and an answer in text comes in the schema's own shape",
        ));
    }
}

/// Claude's strict grammar for a root wrapped by reshape: unions are fine there.
static STRICT_RULES_WRAPPED: Rules = Rules { root_unions: true, ..STRICT_RULES };

/// The schema, whether it is exact, its notes, and the reshape annotation.
type Strict = (Value, bool, Vec<Note>, Option<Value>);

/// The schema lowered into Claude's strict subset and checked against its
/// complexity limits. With reshape, a root that is not an object travels as
/// `{"value": …}`.
fn strict_schema(doc: &Doc<'_>, opts: &Options) -> Result<Strict, Vec<Note>> {
    let objects_only = analysis::accepts_only_objects(doc, doc.root);
    if !objects_only && !opts.reshape {
        return Err(vec![Note::new(
            "",
            "type",
            Action::Degraded,
            "Claude's strict schemas are documented for object roots only (`--reshape` wraps other roots)",
        )]);
    }
    let rules = if objects_only { &STRICT_RULES } else { &STRICT_RULES_WRAPPED };
    let settings = lower::Settings::of(opts, true);
    let lowered = match lower::lower(doc, rules, settings) {
        // A root union of objects the strict subset cannot take at the root
        // (its branches' parts lost with it) goes wrapped, as other roots do.
        Err(first) if opts.reshape && objects_only => {
            lower::lower(doc, &STRICT_RULES_WRAPPED, settings).map_err(|_| first.0)?
        }
        other => other.map_err(|b| b.0)?,
    };
    let mut notes = lowered.notes;
    let mut exact = lowered.exact;
    let mut ann = lowered.schema;
    cap_min_items(&mut ann, "", &mut notes, &mut exact);
    if opts.reshape {
        fit_optional_limit(&mut ann, &mut notes);
    }
    exact &= !crate::reshape::disambiguate(&mut ann, &mut notes).map_err(|n| vec![n])?;
    if ann.get("type") != Some(&json!("object")) {
        if !opts.reshape {
            return Err(vec![Note::new(
                "",
                "type",
                Action::Degraded,
                "the root does not lower to one object schema, which Claude's strict schemas need",
            )]);
        }
        ann = crate::reshape::wrap(ann, &mut notes);
    }
    let schema = lower::strip(&ann);
    let annotated = crate::reshape::has_markers(&ann).then_some(ann);
    let (optional, unions) = complexity(&schema);
    if optional > MAX_OPTIONAL {
        return Err(vec![Note::new(
            "",
            "required",
            Action::Degraded,
            format!("{optional} optional properties exceed Claude's limit of {MAX_OPTIONAL}"),
        )]);
    }
    if unions > MAX_UNION {
        return Err(vec![Note::new(
            "",
            "anyOf",
            Action::Degraded,
            format!("{unions} properties with union types exceed Claude's limit of {MAX_UNION}"),
        )]);
    }
    Ok((schema, exact, notes, annotated))
}

fn send_strict(
    em: &mut Fragment,
    profile: &Profile,
    opts: &Options,
    mechanism: ClaudeMechanism,
    schema: Value,
    doc: &Doc<'_>,
) {
    let description = doc.root.get("description").and_then(Value::as_str).map(str::to_owned);
    match (mechanism, profile.envelope) {
        (ClaudeMechanism::StrictTool | ClaudeMechanism::Tool, _) => {
            forced_tool(em, profile, opts, schema, description, true);
        }
        (_, Envelope::Converse) => {
            let mut js = Map::new();
            js.insert("schema".to_owned(), Value::String(schema.to_string()));
            js.insert("name".to_owned(), json!(opts.name));
            if let Some(d) = description {
                js.insert("description".to_owned(), json!(d));
            }
            let format =
                object([("type", json!("json_schema")), ("structure", object([("jsonSchema", Value::Object(js))]))]);
            em.body = object([("outputConfig", object([("textFormat", format)]))]);
            em.notes.push(Note::new(
                "",
                "outputConfig",
                Action::Info,
                "Bedrock takes the schema as a JSON string; native structured output needs a supporting model (Claude 4.5 and later, select open-weight models)",
            ));
        }
        (ClaudeMechanism::OutputFormatBeta, _) => {
            em.body = object([("output_format", object([("type", json!("json_schema")), ("schema", schema)]))]);
            em.headers.push((BETA_HEADER.0.to_owned(), BETA_HEADER.1.to_owned()));
            em.notes.push(Note::new(
                "",
                "output_format",
                Action::Info,
                "the legacy beta field is accepted for a transition period; `output-format` sends the GA `output_config.format`",
            ));
        }
        _ => {
            let format = object([("type", json!("json_schema")), ("schema", schema)]);
            em.body = object([("output_config", object([("format", format)]))]);
        }
    }
    if mechanism != ClaudeMechanism::StrictTool {
        em.notes.push(Note::new(
            "",
            "",
            Action::Info,
            "JSON outputs need a supporting model (Claude Sonnet 4.5, Opus 4.5, Haiku 4.5 and later) and cannot be combined with citations or a prefilled assistant turn",
        ));
    }
}

fn tool_schema(em: &mut Fragment, profile: &Profile, doc: &Doc<'_>, opts: &Options) {
    if !analysis::accepts_only_objects(doc, doc.root) && opts.reshape {
        let inner = match lower::lower(doc, &RULES_WRAPPED, lower::Settings::of(opts, false)) {
            Ok(lowered) => {
                em.notes.extend(lowered.notes);
                lowered.schema
            }
            Err(fail) => {
                em.notes.extend(fail.0);
                json!({})
            }
        };
        let annotated = crate::reshape::wrap(inner, &mut em.notes);
        let sent = lower::strip(&annotated);
        em.reshape = Some(annotated);
        forced_tool(em, profile, opts, sent, None, false);
        return;
    }
    if !analysis::accepts_only_objects(doc, doc.root) {
        super::nothing_native(
            em,
            "the schema accepts values that are not objects, and a tool input is always an object",
        );
        return;
    }
    let description = doc.root.get("description").and_then(Value::as_str).map(str::to_owned);
    match lower::lower(doc, &RULES, lower::Settings::of(opts, false)) {
        Ok(lowered) => {
            em.notes.extend(lowered.notes);
            let mut input = lowered.schema;
            if let Value::Object(m) = &mut input {
                // Every accepted value is an object, so saying so is exact; the API
                // needs it at the root.
                m.insert("type".to_owned(), json!("object"));
            }
            forced_tool(em, profile, opts, input, description, false);
        }
        Err(fail) => {
            em.notes.extend(fail.0);
            em.notes.push(Note::new(
                "",
                "",
                Action::Degraded,
                "the schema cannot be sent as the tool input: the tool takes any object instead (still sound: the schema accepts only objects)",
            ));
            forced_tool(em, profile, opts, json!({"type": "object"}), description, false);
        }
    }
}

/// The one tool whose input is the answer: forced, or offered (`auto`) when the
/// request turns on extended thinking, which the API refuses beside a forced tool.
fn forced_tool(
    em: &mut Fragment,
    profile: &Profile,
    opts: &Options,
    input_schema: Value,
    description: Option<String>,
    strict: bool,
) {
    let offered = opts.claude_thinking;
    let mut text = "Respond by calling this tool exactly once; its input is the answer.".to_owned();
    if let Some(d) = description {
        text.push(' ');
        text.push_str(&d);
    }
    em.body = if profile.envelope == Envelope::Converse {
        let mut spec = Map::new();
        spec.insert("name".to_owned(), json!(TOOL));
        spec.insert("description".to_owned(), json!(text));
        spec.insert("inputSchema".to_owned(), object([("json", input_schema)]));
        if strict {
            spec.insert("strict".to_owned(), Value::Bool(true));
        }
        let tools = Value::Array(vec![object([("toolSpec", Value::Object(spec))])]);
        let choice = if offered { json!({"auto": {}}) } else { json!({"tool": {"name": TOOL}}) };
        object([("toolConfig", object([("tools", tools), ("toolChoice", choice)]))])
    } else {
        let mut tool = Map::new();
        tool.insert("name".to_owned(), json!(TOOL));
        tool.insert("description".to_owned(), json!(text));
        tool.insert("input_schema".to_owned(), input_schema);
        if strict {
            tool.insert("strict".to_owned(), Value::Bool(true));
        }
        object([
            ("tools", Value::Array(vec![Value::Object(tool)])),
            ("tool_choice", if offered { json!({"type": "auto"}) } else { json!({"type": "tool", "name": TOOL}) }),
        ])
    };
    em.tool = Some(TOOL.to_owned());
    em.enforcement = Enforcement::Json;
    if !strict {
        em.notes.push(Note::new(
            "",
            "tools",
            Action::Info,
            "a non-strict tool input is guidance, not a grammar: Claude may return any object, so the answer is validated locally",
        ));
    }
    if offered {
        // The model may answer in text instead of calling the tool: nothing
        // native holds for the answer (`decode` reads the input or the text).
        em.enforcement = Enforcement::Prompt;
        em.notes.push(Note::new(
            "",
            "tool_choice",
            Action::Degraded,
            "extended thinking cannot be combined with forced tool use, so the tool is offered (`auto`), not forced: the model may answer in text instead, so ask for the tool call in the prompt; decode reads the tool's input or the text (an `output-format` mechanism keeps native enforcement with thinking, on models that support it)",
        ));
    } else {
        em.notes.push(Note::new(
            "",
            "tool_choice",
            Action::Info,
            "forced tool use cannot be combined with extended thinking (the API rejects it)",
        ));
    }
}
