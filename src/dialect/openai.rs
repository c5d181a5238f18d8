//! The OpenAI-style strict dialect (`response_format` / `text.format`), shared
//! by the OpenAI-compatible providers; their differences come from their
//! profiles (strict rules, request shape, JSON mode).

use super::envelope;
use super::strict::{self, Verdict};
use crate::analysis::{self, Doc};
use crate::fragment::Fragment;
use crate::lower::{self, Literals, PatternRule, Rules};
use crate::note::{Action, Enforcement, Note};
use crate::options::Options;
use crate::profile::Profile;
use crate::profile::StrictRules;
use crate::reshape;
use serde_json::{Value, json};

/// `Mode::Json`: `json_object`, unless the schema accepts non-objects.
pub(crate) fn json(em: &mut Fragment, profile: &Profile, doc: Option<&Doc<'_>>) {
    if !profile.json_mode {
        no_json_mode(em, profile);
        return;
    }
    if let Some(doc) = doc
        && !analysis::accepts_only_objects(doc, doc.root)
    {
        prompt_only(em);
        return;
    }
    json_object(em, profile);
}

fn no_json_mode(em: &mut Fragment, profile: &Profile) {
    super::nothing_native(em, &format!("{} documents no JSON mode", profile.label));
}

/// `Mode::Schema`: strict `json_schema` when the schema qualifies, else
/// `json_object` when it accepts only objects, else nothing.
pub(crate) fn schema(em: &mut Fragment, profile: &Profile, doc: &Doc<'_>, opts: &Options) {
    let Some(rules) = profile.strict else {
        em.notes.push(Note::new("", "", Action::Degraded, format!("{} has no strict schema mode", profile.label)));
        fallback(em, profile, doc);
        return;
    };
    // 0. Strict mode needs an object root. Without reshape, a schema that
    //    accepts other values cannot get one (the rewrites only widen), so the
    //    qualifier and the rewrite are not run for it.
    let objects_only = analysis::accepts_only_objects(doc, doc.root);
    if !objects_only && !opts.reshape {
        em.notes.push(Note::new(
            "",
            "type",
            Action::Degraded,
            "strict mode needs an object root, and the schema accepts values that are not objects (`--reshape` wraps them as `{\"value\": …}`)",
        ));
        fallback_known(em, profile, false);
        return;
    }
    // 1. The schema exactly as written (annotations aside): exact, `$defs` and
    //    recursion kept.
    // The first pass stops at the first reason; the full list is gathered
    // only when it is reported (the rewrite fails too).
    match strict::qualify_fast(doc, doc.root, rules, opts.assert_formats) {
        Verdict::Qualifies { schema, edits } => {
            em.notes.extend(edits);
            send_strict(em, profile, opts, schema, Enforcement::Exact);
            return;
        }
        Verdict::OverLimits => {
            if let Verdict::Fails(reasons) = strict::qualify(doc, doc.root, rules, opts.assert_formats) {
                em.notes.extend(reasons);
            }
            fallback(em, profile, doc);
            return;
        }
        Verdict::Fails(_) => {}
    }
    // 2. Rewritten into the subset by the lowering: closable objects closed
    //    (closed-world projection), unsupported keywords dropped (widening),
    //    references inlined, unions distributed; then qualified again.
    match rewrite_or_widen(doc, rules, opts) {
        Ok((schema, exact, notes, annotated)) => {
            em.notes.extend(notes);
            em.reshape = annotated;
            let level = if exact { Enforcement::Exact } else { Enforcement::Widened };
            send_strict(em, profile, opts, schema, level);
        }
        // Only what stops the rewrite is said: the schema as written breaks more
        // rules, which the rewrite lifts (a default filled, a keyword dropped).
        Err(why) => {
            em.notes.extend(why);
            fallback(em, profile, doc);
            if !opts.reshape && rewrite_or_widen(doc, rules, &opts.clone().with_reshape(true)).is_ok() {
                super::reshape_hint(em, "strict `json_schema`");
            }
        }
    }
}

fn send_strict(em: &mut Fragment, profile: &Profile, opts: &Options, schema: serde_json::Value, level: Enforcement) {
    em.body = envelope::schema_fragment(profile, &opts.name, schema);
    em.enforcement = level;
    finish(em, profile);
}

fn fallback(em: &mut Fragment, profile: &Profile, doc: &Doc<'_>) {
    fallback_known(em, profile, analysis::accepts_only_objects(doc, doc.root));
}

/// The fallback when whether the schema accepts only objects is known.
fn fallback_known(em: &mut Fragment, profile: &Profile, objects_only: bool) {
    if !profile.json_mode {
        no_json_mode(em, profile);
    } else if objects_only {
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

/// [`rewrite`], and when that fails, again with the root's unions dropped
/// (widening): strict mode takes no `anyOf` at the root, and a root union that
/// only adds conditions to the root's own properties (`anyOf` of `required`
/// lists, "at least one of these") costs less dropped than the whole schema
/// does. A union whose branches declare properties of their own cannot be
/// dropped this way (the lowering refuses to close an object over keys it does
/// not send), so the retry never sends less than the schema allows. The first
/// attempt's reasons are the ones reported.
fn rewrite_or_widen(doc: &Doc<'_>, rules: &StrictRules, opts: &Options) -> Result<Rewritten, Vec<Note>> {
    // Only a root with an applicator can have unions to drop; without one the
    // second attempt would repeat the first.
    const APPLICATORS: [&str; 11] = [
        "anyOf",
        "oneOf",
        "allOf",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "dependencies",
    ];
    let may_have_unions = doc.root.as_object().is_some_and(|m| APPLICATORS.iter().any(|k| m.contains_key(*k)));
    rewrite(doc, rules, opts, true)
        .or_else(|why| if may_have_unions { rewrite(doc, rules, opts, false).map_err(|_| why) } else { Err(why) })
}

/// The lowering rules of a strict mode: what its subset expresses.
fn lowering_rules(rules: &StrictRules, root_unions: bool) -> Rules {
    Rules {
        keywords: rules.keywords,
        annotations: rules.annotations,
        formats: rules.formats,
        // A subset without `pattern` (Azure's) gets patterns dropped (widening),
        // not kept for the subset check to refuse the whole schema.
        pattern: if rules.keywords.contains(&"pattern") { PatternRule::AnchoredOnly } else { PatternRule::Drop },
        literals: Literals::Scalars,
        any_value: false,
        open_objects: false,
        maps: false,
        empty_objects: false,
        arrays_without_items: false,
        root_unions,
        integral_bounds: false,
        // Strict mode resolves `$defs` (and recursion) where the rules say so;
        // the reshape inverse follows references too.
        refs: rules.refs,
        fill_defaults: true,
        prefer_closed: false,
        open_with_properties: true,
        max_optional: usize::MAX,
        reserved_names: &[],
        exact_tuples: false,
        max_count: u64::MAX,
        max_any_of: rules.max_any_of,
    }
}

/// Lowers the schema into the strict subset and checks the result with the same
/// qualifier, so nothing outside the documented subset is ever sent.
/// The rewritten schema, whether it is exact, its notes, and the annotated copy
/// for `decode` when reshaped.
type Rewritten = (serde_json::Value, bool, Vec<Note>, Option<serde_json::Value>);

/// Fails with every reason found: each location the lowering cannot express,
/// or each rule the rewritten schema still breaks.
fn rewrite(doc: &Doc<'_>, rules: &StrictRules, opts: &Options, root_unions: bool) -> Result<Rewritten, Vec<Note>> {
    // Objects record where they came from: the notes of the passes below name source pointers.
    let settings = lower::Settings { locate: true, ..lower::Settings::of(opts, true) };
    let lowered = lower::lower(doc, &lowering_rules(rules, root_unions), settings).map_err(|b| b.0)?;
    let mut ann = lowered.schema;
    lower::split_type_arrays(&mut ann, rules.type_arrays);
    let mut reshape_notes = Vec::new();
    let mut exact = lowered.exact;
    if !opts.reshape {
        super::optional::expand(&mut ann, rules.max_any_of, &mut reshape_notes);
    }
    if opts.reshape {
        reshape::optionals(&mut ann, &mut reshape_notes);
        exact &= !reshape::disambiguate(&mut ann, &mut reshape_notes).map_err(|n| vec![n])?;
        if ann.get("type") != Some(&json!("object")) {
            ann = reshape::wrap(ann, &mut reshape_notes);
        }
    }
    let schema = lower::strip(&ann);
    let annotated = reshape::has_markers(&ann).then_some(ann);
    let out_doc = Doc { root: &schema };
    match strict::qualify_fast(&out_doc, &schema, rules, opts.assert_formats) {
        Verdict::Qualifies { schema, .. } => {
            let mut notes = lowered.notes;
            notes.extend(reshape_notes);
            notes.push(Note::new(
                "",
                "",
                Action::Rewritten,
                "rewritten into the strict subset (see the notes above for each keyword)",
            ));
            Ok((schema, exact, notes, annotated))
        }
        Verdict::OverLimits => {
            // Which limits: the full pass names each.
            let limits = match strict::qualify(&out_doc, &schema, rules, opts.assert_formats) {
                Verdict::Fails(all) if !all.is_empty() => all,
                _ => Vec::new(),
            };
            let said: Vec<String> = limits.into_iter().map(|n| n.reason).collect();
            let reason = if said.is_empty() {
                "even rewritten, the schema exceeds the strict limits".to_owned()
            } else {
                format!("even rewritten, the schema exceeds the strict limits: {}", said.join("; "))
            };
            Err(vec![Note::new("", "", Action::Degraded, reason)])
        }
        Verdict::Fails(first) => {
            // The fast pass stops at the first reason; the caller is told all of them.
            let reasons = match strict::qualify(&out_doc, &schema, rules, opts.assert_formats) {
                Verdict::Fails(all) if !all.is_empty() => all,
                _ => first,
            };
            Err(reasons
                .into_iter()
                .map(|r| {
                    let reason = format!("even rewritten, the schema stays outside the strict subset: {}", r.reason);
                    Note::new(r.pointer, r.keyword, Action::Degraded, reason)
                })
                .collect())
        }
    }
}

fn json_object(em: &mut Fragment, profile: &Profile) {
    em.body = envelope::json_fragment(profile);
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

fn prompt_only(em: &mut Fragment) {
    super::nothing_native(em, "the schema accepts values that are not objects, and `json_object` forces an object");
}

fn finish(em: &mut Fragment, profile: &Profile) {
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
