//! Preflight: everything checked before any emission.
//!
//! 1. the document is a schema (an object or a boolean) within the size limits;
//! 2. `$schema` names a draft the local validator knows (2020-12 by default);
//! 3. meta-validation against that draft, every error reported;
//! 4. every `$ref` is local and resolves, every offending one reported;
//! 5. unknown keywords become notes (or errors when denied), enums are bounded;
//! 6. the local validator builds without I/O.
//!
//! Step 6 is the expensive one. It runs here only when the build could fail
//! (patterns, anchors, dynamic or unusual references, keywords outside a small
//! safe list, other drafts); otherwise the build cannot fail after steps 1–5,
//! and it is left to the first answer that needs the validator
//! ([`LazyValidator`]), so compiling a schema for a request stays cheap.

use crate::error::{Error, ErrorKind, Problem};
use crate::front::{self, Documents, Work};
use crate::note::{Action, Note};
use crate::options::Options;
use crate::vocab::{self, Draft};
use hints::percent_encoded;
use input::{check_reserved, check_size, kind_of};
use serde_json::Value;
use std::sync::Arc;

mod hints;
mod input;

/// A schema that passed preflight.
#[derive(Debug)]
pub(crate) struct Checked<'a> {
    /// The working form every later pass reads.
    pub(crate) work: Work<'a>,
    /// Notes produced by preflight and the front end (source pointers).
    pub(crate) notes: Vec<Note>,
    /// The authoritative local validator, built now or on first use.
    pub(crate) validator: LazyValidator,
}

/// What the local validator is built from besides the schema: its draft, the
/// format setting, and the documents references may name.
#[derive(Debug, Clone)]
pub(crate) struct Build {
    pub(crate) draft: Draft,
    pub(crate) assert_formats: bool,
    pub(crate) resources: Arc<Vec<(String, Value)>>,
    pub(crate) base_uri: Option<String>,
}

impl Build {
    pub(crate) fn of(draft: Draft, opts: &Options) -> Build {
        Build {
            draft,
            assert_formats: opts.assert_formats,
            resources: Arc::clone(&opts.resources),
            base_uri: opts.base_uri.clone(),
        }
    }

    /// No documents, formats asserted: how tests build a reference validator.
    #[cfg(test)]
    pub(crate) fn plain(draft: Draft) -> Build {
        Build { draft, assert_formats: true, resources: Arc::new(Vec::new()), base_uri: None }
    }

    /// The documents, as the front end takes them.
    pub(crate) fn documents(&self) -> Documents<'_> {
        Documents { resources: &self.resources, base_uri: self.base_uri.as_deref(), default_draft: self.draft }
    }
}

/// The authoritative local validator of a schema that passed preflight: built
/// during preflight when its build could fail, else on first use and then
/// kept. Per value, never shared between values: no global state.
#[derive(Debug, Clone)]
pub(crate) struct LazyValidator {
    build: Build,
    built: std::sync::OnceLock<Result<jsonschema::Validator, Error>>,
}

impl LazyValidator {
    fn ready(build: Build, validator: jsonschema::Validator) -> Self {
        let built = std::sync::OnceLock::new();
        let _ = built.set(Ok(validator));
        LazyValidator { build, built }
    }

    fn deferred(build: Build) -> Self {
        LazyValidator { build, built: std::sync::OnceLock::new() }
    }

    /// The validator of `schema`, which must be the schema this value was made
    /// for; built at the first call. `Err` only if a build preflight proved
    /// unfailing fails all the same (a bug, reported rather than panicking).
    pub(crate) fn get(&self, schema: &Value) -> Result<&jsonschema::Validator, &Error> {
        self.built.get_or_init(|| build_validator(schema, &self.build)).as_ref()
    }
}

/// Runs every preflight check on `schema`, and the front end.
pub(crate) fn check<'a>(schema: &'a Value, opts: &Options) -> Result<Checked<'a>, Error> {
    if !(schema.is_object() || schema.is_boolean()) {
        return Err(Error::new(
            ErrorKind::InvalidSchema,
            "",
            format!("a schema must be a JSON object or a boolean, got {}", kind_of(schema)),
        ));
    }
    check_size(schema, opts)?;
    check_reserved(schema, "")?;
    let draft = Draft::detect(schema, opts.default_draft).map_err(|uri| {
        // schemars' `SchemaSettings::openapi3()` names the OpenAPI 3.0 Schema Object,
        // whose `nullable` no JSON Schema draft reads. (Zod's OpenAPI target writes no
        // `$schema`; its boolean bounds get their own hint below.)
        let hint = if uri.contains("spec.openapis.org/oas/3.0") {
            "; this one is an OpenAPI 3.0 Schema Object, which is not JSON Schema (`nullable`, boolean bounds): ask the generator for a JSON Schema draft instead (schemars: `SchemaSettings::draft2020_12()`)"
        } else {
            ""
        };
        Error::new(
            ErrorKind::Unsupported,
            "/$schema",
            format!("unknown `$schema` {uri:?}: schemacast reads drafts 4, 6, 7, 2019-09 and 2020-12; custom meta-schemas (and their vocabularies) are not supported, and nothing is fetched{hint}"),
        )
    })?;
    let build = Build::of(draft, opts);
    check_resources(opts)?;
    let mut walk = Walk {
        opts,
        root: schema,
        problems: Vec::new(),
        limit: Vec::new(),
        notes: Vec::new(),
        nested_schema: false,
        build_may_fail: draft != Draft::Draft202012 || !opts.resources.is_empty() || opts.base_uri.is_some(),
    };
    walk.node(schema, draft, &vocab::Loc::ROOT, true);
    let eager = walk.build_may_fail;
    // When the validator must be built now, build it first: the build
    // meta-validates the schema against the same draft, so a successful build
    // spares a second meta-validation. Embedded resources with their own
    // `$schema` are meta-validated differently by the build, so not then.
    let built = (eager && !walk.nested_schema).then(|| build_validator(schema, &build));
    if !matches!(built, Some(Ok(_))) {
        meta_validate(schema, draft, "")?;
    }
    if !walk.limit.is_empty() {
        return Err(Error::many(ErrorKind::LimitExceeded, walk.limit));
    }
    if !walk.problems.is_empty() {
        return Err(Error::many(ErrorKind::Unsupported, walk.problems));
    }
    // References resolve here, every unresolvable one located; the front end
    // reads the caller's documents exactly as the validator does.
    let work = front::normalize(schema, draft, build.documents())?;
    let mut notes = walk.notes;
    notes.extend(work.notes.iter().cloned());
    if !eager {
        return Ok(Checked { work, notes, validator: LazyValidator::deferred(build) });
    }
    match built.unwrap_or_else(|| build_validator(schema, &build)) {
        Ok(v) => Ok(Checked { work, notes, validator: LazyValidator::ready(build, v) }),
        Err(e) => Err(e),
    }
}

/// Every supplied document is a schema within the size limits, meta-valid
/// under its own draft.
fn check_resources(opts: &Options) -> Result<(), Error> {
    for (uri, doc) in opts.resources.iter() {
        let at = |p: &str| format!("{uri}#{p}");
        if !(doc.is_object() || doc.is_boolean()) {
            return Err(Error::new(
                ErrorKind::InvalidSchema,
                at(""),
                format!("the document {uri:?} is not a schema (a JSON object or a boolean), got {}", kind_of(doc)),
            ));
        }
        check_size(doc, opts).map_err(|e| Error::new(e.kind(), at(e.pointer()), e.message()))?;
        check_reserved(doc, &at(""))?;
        let draft = Draft::detect(doc, opts.default_draft).map_err(|u| {
            Error::new(
                ErrorKind::Unsupported,
                at("/$schema"),
                format!("unknown `$schema` {u:?} in the document {uri:?}"),
            )
        })?;
        meta_validate(doc, draft, &at(""))?;
    }
    Ok(())
}

/// The working form of `schema` for readers that do not validate (the
/// projection): its draft read with `opts`, references resolved. `None` when
/// the document is not a schema within the size limits, or a reference does
/// not resolve.
pub(crate) fn light<'a>(schema: &'a Value, opts: &Options) -> Option<Work<'a>> {
    if !(schema.is_object() || schema.is_boolean()) || check_size(schema, opts).is_err() {
        return None;
    }
    let draft = Draft::detect(schema, opts.default_draft).ok()?;
    front::normalize(schema, draft, Build::of(draft, opts).documents()).ok()
}

/// Builds the authoritative local validator (no I/O: `.offline()`, no
/// resolver features, and the supplied documents in an in-memory registry).
pub(crate) fn build_validator(schema: &Value, build: &Build) -> Result<jsonschema::Validator, Error> {
    let fail = |e: &dyn std::fmt::Display, pointer: String| {
        Error::new(ErrorKind::InvalidSchema, pointer, format!("the local validator cannot be built: {e}"))
    };
    let mut options =
        jsonschema::options().with_draft(build.draft.to_jsonschema()).should_validate_formats(build.assert_formats);
    if let Some(base) = &build.base_uri {
        options = options.with_base_uri(base.clone());
    }
    let registry;
    if !build.resources.is_empty() {
        let mut builder = jsonschema::Registry::new();
        for (uri, doc) in build.resources.iter() {
            let draft = Draft::detect(doc, build.draft).unwrap_or(build.draft);
            builder = builder
                .add(uri, referencing::ResourceRef::new(doc, draft.to_jsonschema()))
                .map_err(|e| fail(&e, String::new()))?;
        }
        registry = builder.prepare().map_err(|e| fail(&e, String::new()))?;
        options = options.with_registry(&registry);
    }
    options.offline().build(schema).map_err(|e| {
        let at = e.instance_path().to_string();
        fail(&format!("{e}{}", hints::foreign_regex(schema, &at)), at)
    })
}

/// Validators for every sub-schema of a working form, keyed `#<pointer>`: how
/// the projection tells which union branch a value satisfies. `None` when the
/// working form does not build (then every union is read location-wide).
pub(crate) fn branch_validators(work: &Value, assert_formats: bool) -> Option<jsonschema::ValidatorMap> {
    if !(work.is_object() || work.is_boolean()) {
        return None;
    }
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(assert_formats)
        .offline()
        .build_map(work)
        .ok()
}

/// Meta-validates `schema` against its draft, listing every error (pointers
/// prefixed with `at`, for supplied documents).
fn meta_validate(schema: &Value, draft: Draft, at: &str) -> Result<(), Error> {
    use jsonschema::{draft4, draft6, draft7, draft201909, draft202012};
    let valid = match draft {
        Draft::Draft202012 => draft202012::meta::validator().is_valid(schema),
        Draft::Draft201909 => draft201909::meta::validator().is_valid(schema),
        Draft::Draft7 => draft7::meta::validator().is_valid(schema),
        Draft::Draft6 => draft6::meta::validator().is_valid(schema),
        Draft::Draft4 => draft4::meta::validator().is_valid(schema),
    };
    if valid {
        return Ok(());
    }
    // Only an invalid schema pays for collecting every error.
    let mut problems: Vec<Problem> = match draft {
        Draft::Draft202012 => collect(draft202012::meta::validator().iter_errors(schema)),
        Draft::Draft201909 => collect(draft201909::meta::validator().iter_errors(schema)),
        Draft::Draft7 => collect(draft7::meta::validator().iter_errors(schema)),
        Draft::Draft6 => collect(draft6::meta::validator().iter_errors(schema)),
        Draft::Draft4 => collect(draft4::meta::validator().iter_errors(schema)),
    };
    for p in &mut problems {
        // Draft-04's boolean exclusive bounds (and OpenAPI 3.0's, which follows
        // it) in a schema read under a later draft: say how to read it as such.
        let boolean_bound = (p.pointer.ends_with("/exclusiveMinimum") || p.pointer.ends_with("/exclusiveMaximum"))
            && schema.pointer(&p.pointer).is_some_and(Value::is_boolean);
        if boolean_bound && draft != Draft::Draft4 {
            p.message.push_str(&format!(
                " (a boolean bound is draft-04's form, also OpenAPI 3.0's; the schema is read as draft {}: give it `\"$schema\": \"http://json-schema.org/draft-04/schema#\"`, or pass `--draft 4`, `Options::with_default_draft(Draft::Draft4)`)",
                draft.name()
            ));
        }
        // The tuple form of drafts 4 to 2019-09 (TypeBox, typescript-json-schema
        // and zod-to-json-schema write it, TypeBox with no `$schema`) read as 2020-12.
        let array_items = p.pointer.ends_with("/items") && schema.pointer(&p.pointer).is_some_and(Value::is_array);
        if array_items && draft == Draft::Draft202012 {
            p.message.push_str(
                " (an array of schemas under `items` is the tuple form of drafts 4 to 2019-09, which 2020-12 spells `prefixItems`; the schema is read as draft 2020-12: give it `\"$schema\": \"http://json-schema.org/draft-07/schema#\"`, or pass `--draft 7`, `Options::with_default_draft(Draft::Draft7)`)",
            );
        }
        // Drafts 6 and 7 name an anchor with a plain-name fragment in `$id`
        // (`"$id": "#address"`, as Ajv's and Fastify's schemas do), which
        // 2019-09 moved to `$anchor`: read as a later draft, the `$id` is invalid.
        let anchor_id = p.pointer.ends_with("/$id")
            && schema
                .pointer(&p.pointer)
                .and_then(Value::as_str)
                .is_some_and(|id| id.split_once('#').is_some_and(|(_, f)| !f.is_empty()));
        if anchor_id && matches!(draft, Draft::Draft201909 | Draft::Draft202012) {
            p.message.push_str(&format!(
                " (a fragment in `$id` is how drafts 6 and 7 name an anchor, which 2019-09 and later spell `$anchor`; the schema is read as draft {}: give it `\"$schema\": \"http://json-schema.org/draft-07/schema#\"`, or pass `--draft 7`, `Options::with_default_draft(Draft::Draft7)`)",
                draft.name()
            ));
        }
        // A reference whose fragment holds characters a URI must percent-encode
        // (typescript-json-schema names a generic type's definition
        // `Record<string,string>` and refers to it as written).
        let encoded = p.pointer.ends_with("/$ref").then(|| schema.pointer(&p.pointer)).flatten();
        if let Some(encoded) = encoded.and_then(Value::as_str).and_then(percent_encoded) {
            p.message.push_str(&format!(
                " (a `$ref` is a URI reference, whose fragment percent-encodes characters such as `<`, `>` and spaces: {} names the same definition)",
                Value::String(encoded)
            ));
        }
        // A name in `$id` (griptape writes `"$id": "CrmTool ToolAction Schema"`).
        let named_id = p.pointer.ends_with("/$id")
            && p.message.ends_with("is not a \"uri-reference\"")
            && schema.pointer(&p.pointer).and_then(Value::as_str).is_some_and(|id| id.contains(' '));
        if named_id {
            p.message.push_str(" (`$id` is the URI the schema's references resolve against, and a name with spaces is none: the validator cannot be built from it; move the name to `title`, or percent-encode its spaces)");
        }
        // A pattern in Python's dialect (poetry-core writes `\A…\Z`).
        if p.message.ends_with("is not a \"regex\"") {
            p.message.push_str(hints::foreign_regex(schema, &p.pointer));
        }
        p.pointer = format!("{at}{}", p.pointer);
    }
    if problems.is_empty() { Ok(()) } else { Err(Error::many(ErrorKind::InvalidSchema, problems)) }
}

fn collect<'a>(errors: impl Iterator<Item = jsonschema::ValidationError<'a>>) -> Vec<Problem> {
    let mut out: Vec<Problem> =
        errors.map(|e| Problem { pointer: e.instance_path().to_string(), message: e.to_string() }).collect();
    out.sort_by(|a, b| a.pointer.cmp(&b.pointer).then_with(|| a.message.cmp(&b.message)));
    out.dedup();
    out
}

struct Walk<'a> {
    opts: &'a Options,
    root: &'a Value,
    problems: Vec<Problem>,
    limit: Vec<Problem>,
    notes: Vec<Note>,
    /// Some sub-schema has its own `$schema`.
    nested_schema: bool,
    /// Something outside the keywords whose validator build cannot fail once
    /// meta-validation passed: the build must run in preflight.
    build_may_fail: bool,
}

/// Keywords of draft 2020-12 whose compilation in the local validator cannot
/// fail once the schema is meta-valid (reviewed against jsonschema 0.61). The
/// size keywords also need a value that fits a `u64`, checked in the walk.
/// Anything else (patterns, anchors, dynamic references, `$id`, content
/// keywords, unknown keywords) makes preflight build the
/// validator at once, so that a failing build still fails the compilation.
fn build_cannot_fail(keyword: &str) -> bool {
    matches!(
        keyword,
        "type"
            | "enum"
            | "const"
            | "properties"
            | "required"
            | "additionalProperties"
            | "items"
            | "prefixItems"
            | "allOf"
            | "anyOf"
            | "oneOf"
            | "not"
            | "if"
            | "then"
            | "else"
            | "$defs"
            | "definitions"
            | "title"
            | "description"
            | "default"
            | "examples"
            | "$comment"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "minimum"
            | "maximum"
            | "exclusiveMinimum"
            | "exclusiveMaximum"
            | "multipleOf"
            | "uniqueItems"
            | "dependentRequired"
            | "propertyNames"
            | "dependentSchemas"
            | "contains"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "format"
            | "minProperties"
            | "maxProperties"
            | "minItems"
            | "maxItems"
            | "minLength"
            | "maxLength"
    )
}

/// The draft 2020-12 meta-schema: jsonschema resolves it offline from its own
/// copy, so a reference to it always builds.
const META_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// A `$ref` whose target the local validator resolves exactly as a JSON
/// Pointer into the document: `#`, a `#/…` fragment that lands on a schema,
/// or the 2020-12 meta-schema.
fn certified_ref(root: &Value, reference: &str) -> bool {
    reference == META_2020_12 || front::local_pointer(root, reference)
}

impl Walk<'_> {
    fn node(&mut self, schema: &Value, draft: Draft, loc: &vocab::Loc<'_>, is_root: bool) {
        let Value::Object(map) = schema else { return };
        // An embedded resource may name its own draft.
        let draft = match map.get("$schema").and_then(Value::as_str) {
            Some(uri) if !is_root && map.contains_key(draft.id_keyword()) => Draft::from_uri(uri).unwrap_or(draft),
            _ => draft,
        };
        for (keyword, value) in map {
            if !self.build_may_fail {
                self.build_may_fail = match keyword.as_str() {
                    "$schema" if !is_root => {
                        self.nested_schema = true;
                        true
                    }
                    // The root `$schema` is one of the known draft URIs (checked
                    // above); it only selects the draft the build uses.
                    "$schema" => false,
                    "$ref" => !value.as_str().is_some_and(|r| certified_ref(self.root, r)),
                    "pattern" => !value.as_str().is_some_and(crate::pattern::builds_without_fail),
                    "patternProperties" => {
                        !value.as_object().is_some_and(|m| m.keys().all(|k| crate::pattern::builds_without_fail(k)))
                    }
                    "minProperties" | "maxProperties" | "minItems" | "maxItems" | "minLength" | "maxLength"
                    | "minContains" | "maxContains" => value.as_u64().is_none(),
                    k => !build_cannot_fail(k),
                };
            }
            if !is_root && keyword == "$schema" {
                self.nested_schema = true;
            }
            let here = || crate::pointer::push(&loc.pointer(), keyword);
            if vocab::source_slot(draft, keyword).is_none() {
                if vocab::is_generator_annotation(keyword) {
                    continue;
                }
                if self.opts.deny_unknown_keywords {
                    self.problems.push(Problem {
                        pointer: here(),
                        message: format!("unknown keyword `{keyword}` (unknown keywords are denied)"),
                    });
                } else {
                    self.notes.push(Note::new(
                        loc.pointer(),
                        keyword.as_str(),
                        Action::Ignored,
                        format!("unknown keyword in draft {draft}, read as an annotation: not enforced locally, not sent natively"),
                    ));
                }
                continue;
            }
            if keyword == "enum"
                && let Some(items) = value.as_array()
                && items.len() > self.opts.max_enum
            {
                self.limit.push(Problem {
                    pointer: here(),
                    message: format!(
                        "`enum` has {} members, more than {} (option `max_enum`)",
                        items.len(),
                        self.opts.max_enum
                    ),
                });
            }
        }
        vocab::for_each_child_in(draft, map, |child| {
            self.node(child.schema, draft, &loc.child(&child), false);
        });
    }
}

#[cfg(test)]
mod tests;
