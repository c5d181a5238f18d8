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

use crate::emission::{Action, Note};
use crate::error::{Error, ErrorKind, Problem};
use crate::options::Options;
use crate::vocab::{self, Draft};
use serde_json::Value;

/// The deepest nesting any option may allow; recursive walks stay well inside
/// the stack with this bound.
pub(crate) const MAX_DEPTH_CEILING: usize = 256;

/// A schema that passed preflight.
#[derive(Debug)]
pub(crate) struct Checked {
    pub(crate) draft: Draft,
    /// Notes produced by preflight (unknown keywords).
    pub(crate) notes: Vec<Note>,
    /// Some sub-schema has its own `$id`, which changes how `$ref`s resolve;
    /// emitters then treat references as inexpressible.
    pub(crate) nested_ids: bool,
    /// The authoritative local validator, built now or on first use.
    pub(crate) validator: LazyValidator,
}

/// The authoritative local validator of a schema that passed preflight: built
/// during preflight when its build could fail, else on first use and then
/// kept. Per value, never shared between values: no global state.
#[derive(Debug, Clone)]
pub(crate) struct LazyValidator {
    /// The draft and format setting to build with when `built` is empty.
    draft: Draft,
    assert_formats: bool,
    built: std::sync::OnceLock<Result<jsonschema::Validator, Error>>,
}

impl LazyValidator {
    fn ready(draft: Draft, assert_formats: bool, validator: jsonschema::Validator) -> Self {
        let built = std::sync::OnceLock::new();
        let _ = built.set(Ok(validator));
        LazyValidator { draft, assert_formats, built }
    }

    fn deferred(draft: Draft, assert_formats: bool) -> Self {
        LazyValidator { draft, assert_formats, built: std::sync::OnceLock::new() }
    }

    /// The validator of `schema`, which must be the schema this value was made
    /// for; built at the first call. `Err` only if a build preflight proved
    /// unfailing fails all the same (a bug, reported rather than panicking).
    pub(crate) fn get(&self, schema: &Value) -> Result<&jsonschema::Validator, &Error> {
        self.built.get_or_init(|| build_validator(schema, self.draft, self.assert_formats)).as_ref()
    }
}

/// Runs every preflight check on `schema`.
pub(crate) fn check(schema: &Value, opts: &Options) -> Result<Checked, Error> {
    if !(schema.is_object() || schema.is_boolean()) {
        return Err(Error::new(
            ErrorKind::InvalidSchema,
            "",
            format!("a schema must be a JSON object or a boolean, got {}", kind_of(schema)),
        ));
    }
    check_size(schema, opts)?;
    let draft = Draft::detect(schema).map_err(|uri| {
        Error::new(
            ErrorKind::Unsupported,
            "/$schema",
            format!("unknown `$schema` {uri:?}: only draft 2020-12, 2019-09 and draft-07 are known, and meta-schemas are never fetched"),
        )
    })?;
    let mut walk = Walk {
        draft,
        opts,
        root: schema,
        problems: Vec::new(),
        refs: Vec::new(),
        limit: Vec::new(),
        notes: Vec::new(),
        nested_ids: false,
        nested_schema: false,
        build_may_fail: draft != Draft::Draft202012,
    };
    walk.node(schema, &vocab::Loc::ROOT, true);
    let eager = walk.build_may_fail || !walk.refs.is_empty();
    // When the validator must be built now, build it first: the build
    // meta-validates the schema against the same draft, so a successful build
    // spares a second meta-validation. Embedded resources with their own
    // `$schema` are meta-validated differently by the build, so not then.
    let built = (eager && !walk.nested_schema).then(|| build_validator(schema, draft, opts.assert_formats));
    if !matches!(built, Some(Ok(_))) {
        meta_validate(schema, draft)?;
    }
    if !walk.limit.is_empty() {
        return Err(Error::many(ErrorKind::LimitExceeded, walk.limit));
    }
    if !walk.problems.is_empty() {
        return Err(Error::many(ErrorKind::Unsupported, walk.problems));
    }
    if !eager {
        let validator = LazyValidator::deferred(draft, opts.assert_formats);
        return Ok(Checked { draft, notes: walk.notes, nested_ids: walk.nested_ids, validator });
    }
    // The validator, built offline, is the judge of whether every reference
    // resolves inside the document (embedded `$id` resources included). When it
    // fails, list every reference we can name, not just the first.
    match built.unwrap_or_else(|| build_validator(schema, draft, opts.assert_formats)) {
        Ok(v) => {
            let validator = LazyValidator::ready(draft, opts.assert_formats, v);
            Ok(Checked { draft, notes: walk.notes, nested_ids: walk.nested_ids, validator })
        }
        Err(e) if !walk.refs.is_empty() => {
            let _ = e;
            Err(Error::many(ErrorKind::Unsupported, walk.refs))
        }
        Err(e) => Err(e),
    }
}

/// The cheap part of preflight, for readers that do not validate (projection):
/// the document's shape and size, its draft, and whether any sub-schema has its
/// own `$id`. `None` when the document is not a schema within the size limits.
pub(crate) fn light(schema: &Value, opts: &Options) -> Option<(Draft, bool)> {
    if !(schema.is_object() || schema.is_boolean()) || check_size(schema, opts).is_err() {
        return None;
    }
    let draft = Draft::detect(schema).ok()?;
    let mut stack = vec![(schema, true)];
    let mut nested_ids = false;
    while let Some((v, is_root)) = stack.pop() {
        let Value::Object(map) = v else { continue };
        if !is_root && map.contains_key("$id") {
            nested_ids = true;
            break;
        }
        vocab::for_each_child(draft, map, |c| stack.push((c.schema, false)));
    }
    Some((draft, nested_ids))
}

/// Builds the authoritative local validator (no I/O: `.offline()` and no
/// resolver features).
pub(crate) fn build_validator(
    schema: &Value,
    draft: Draft,
    assert_formats: bool,
) -> Result<jsonschema::Validator, Error> {
    jsonschema::options()
        .with_draft(draft.to_jsonschema())
        .should_validate_formats(assert_formats)
        .offline()
        .build(schema)
        .map_err(|e| {
            let pointer = e.instance_path().to_string();
            Error::new(ErrorKind::InvalidSchema, pointer, format!("the local validator cannot be built: {e}"))
        })
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Depth and node count, without recursion.
fn check_size(schema: &Value, opts: &Options) -> Result<(), Error> {
    // The common case, without building a pointer per value; the slow walk
    // below repeats it with pointers only to name the spot of a failure.
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut nodes = 0usize;
    while let Some((v, depth)) = stack.pop() {
        nodes += 1;
        if nodes > opts.max_nodes || depth > opts.max_depth {
            return check_size_located(schema, opts);
        }
        match v {
            Value::Object(m) => stack.extend(m.values().rev().map(|c| (c, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().rev().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

fn check_size_located(schema: &Value, opts: &Options) -> Result<(), Error> {
    let mut stack: Vec<(&Value, usize, String)> = vec![(schema, 0, String::new())];
    let mut nodes = 0usize;
    while let Some((v, depth, at)) = stack.pop() {
        nodes += 1;
        if nodes > opts.max_nodes {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                "",
                format!("the schema document has more than {} JSON values (option `max_nodes`)", opts.max_nodes),
            ));
        }
        if depth > opts.max_depth {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                at,
                format!("the schema document nests deeper than {} levels (option `max_depth`)", opts.max_depth),
            ));
        }
        match v {
            Value::Object(m) => {
                for (k, c) in m.iter().rev() {
                    stack.push((c, depth + 1, crate::pointer::push(&at, k)));
                }
            }
            Value::Array(items) => {
                for (i, c) in items.iter().enumerate().rev() {
                    stack.push((c, depth + 1, crate::pointer::push_index(&at, i)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn meta_validate(schema: &Value, draft: Draft) -> Result<(), Error> {
    let valid = match draft {
        Draft::Draft202012 => jsonschema::draft202012::meta::validator().is_valid(schema),
        Draft::Draft201909 => jsonschema::draft201909::meta::validator().is_valid(schema),
        Draft::Draft7 => jsonschema::draft7::meta::validator().is_valid(schema),
    };
    if valid {
        return Ok(());
    }
    // Only an invalid schema pays for collecting every error.
    let problems: Vec<Problem> = match draft {
        Draft::Draft202012 => collect(jsonschema::draft202012::meta::validator().iter_errors(schema)),
        Draft::Draft201909 => collect(jsonschema::draft201909::meta::validator().iter_errors(schema)),
        Draft::Draft7 => collect(jsonschema::draft7::meta::validator().iter_errors(schema)),
    };
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
    draft: Draft,
    opts: &'a Options,
    root: &'a Value,
    problems: Vec<Problem>,
    /// References that are non-local or do not resolve by JSON Pointer.
    refs: Vec<Problem>,
    limit: Vec<Problem>,
    notes: Vec<Note>,
    nested_ids: bool,
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

/// A `$ref` whose target the local validator resolves exactly as preflight
/// does: `#`, a JSON-Pointer fragment `#/…` that lands on a schema (an object
/// or a boolean), or the 2020-12 meta-schema. (A document with a `$id` is
/// always built eagerly, so fragments resolve against the root here.)
fn certified_ref(root: &Value, reference: &str) -> bool {
    if reference == "#" || reference == META_2020_12 {
        return true;
    }
    reference.starts_with("#/")
        && crate::pointer::resolve_fragment(root, reference).is_some_and(|(t, _)| t.is_object() || t.is_boolean())
}

impl Walk<'_> {
    fn node(&mut self, schema: &Value, loc: &vocab::Loc<'_>, is_root: bool) {
        let Value::Object(map) = schema else { return };
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
            let here = || crate::pointer::push(&loc.pointer(), keyword);
            if vocab::slot(self.draft, keyword).is_none() {
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
                        "unknown keyword, read as an annotation: not enforced locally, not sent natively",
                    ));
                }
                continue;
            }
            match keyword.as_str() {
                "$id" if !is_root => self.nested_ids = true,
                "$ref" | "$dynamicRef" | "$recursiveRef" => {
                    if let Some(r) = value.as_str() {
                        self.reference(keyword, r, loc);
                    }
                }
                "enum" => {
                    if let Some(items) = value.as_array()
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
                _ => {}
            }
        }
        let draft = self.draft;
        vocab::for_each_child(draft, map, |child| {
            self.node(child.schema, &loc.child(&child), false);
        });
    }

    fn reference(&mut self, keyword: &str, reference: &str, loc: &vocab::Loc<'_>) {
        if keyword != "$ref" {
            // Dynamic references resolve within the document by anchors; the
            // validator build decides whether they are enforceable.
            return;
        }
        if reference == META_2020_12 && self.draft == Draft::Draft202012 {
            // Resolved offline from jsonschema's own copy.
        } else if !reference.starts_with('#') {
            self.refs.push(Problem {
                pointer: crate::pointer::push(&loc.pointer(), keyword),
                message: format!(
                    "reference {reference:?} does not resolve inside the document: only local references are resolved, nothing is fetched"
                ),
            });
        } else if crate::pointer::resolve_fragment(self.root, reference).is_none() {
            self.refs.push(Problem {
                pointer: crate::pointer::push(&loc.pointer(), keyword),
                message: format!("reference {reference:?} does not resolve inside the document"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value) -> Result<Checked, Error> {
        check(&schema, &Options::new(crate::Provider::OpenAi))
    }

    #[test]
    fn ok_drafts_and_booleans() {
        assert!(run(json!(true)).is_ok());
        assert!(run(json!(false)).is_ok());
        let d7 = run(json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]}));
        assert_eq!(d7.map(|c| c.draft).ok(), Some(Draft::Draft7));
        assert!(run(json!({"definitions": {"a": {"type": "string"}}, "$ref": "#/definitions/a"})).is_ok());
    }

    #[test]
    fn ok_unknown_keywords_are_notes() {
        let c = run(json!({"type": "object", "x-a": 1, "properties": {"b": {"_format": "m"}}})).expect("ok");
        let at: Vec<(&str, &str)> = c.notes.iter().map(|n| (n.pointer.as_str(), n.keyword.as_str())).collect();
        assert_eq!(at, [("", "x-a"), ("/properties/b", "_format")]);
    }

    #[test]
    fn err_unknown_keywords_denied() {
        let opts = Options::new(crate::Provider::OpenAi).with_deny_unknown_keywords(true);
        let e = check(&json!({"requried": ["a"], "properties": {"a": {"x-b": 1}}}), &opts).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        let at: Vec<&str> = e.problems().iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(at, ["/requried", "/properties/a/x-b"]);
    }

    #[test]
    fn err_every_bad_ref_listed() {
        let e =
            run(json!({"properties": {"a": {"$ref": "other.json"}, "b": {"$ref": "#/$defs/missing"}}})).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Unsupported);
        let at: Vec<&str> = e.problems().iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(at, ["/properties/a/$ref", "/properties/b/$ref"]);
    }

    #[test]
    fn err_limits_without_recursion() {
        let mut deep = json!({"type": "string"});
        for _ in 0..300 {
            deep = json!({"items": deep});
        }
        let e = run(deep).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::LimitExceeded);
        let opts = Options::new(crate::Provider::OpenAi).with_max_enum(2);
        let e = check(&json!({"enum": [1, 2, 3]}), &opts).unwrap_err();
        assert_eq!((e.kind(), e.pointer()), (ErrorKind::LimitExceeded, "/enum"));
        let opts = Options::new(crate::Provider::OpenAi).with_max_nodes(3);
        assert_eq!(check(&json!({"a": [1, 2, 3]}), &opts).unwrap_err().kind(), ErrorKind::LimitExceeded);
    }

    #[test]
    fn err_meta_validation_lists_all() {
        let e = run(json!({"type": "strng", "minimum": "0", "required": "a"})).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidSchema);
        let at: Vec<&str> = e.problems().iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(at, ["/minimum", "/required", "/type"]);
        assert_eq!(run(json!(5)).unwrap_err().kind(), ErrorKind::InvalidSchema);
        assert_eq!(run(json!({"$schema": "https://example.com/s"})).unwrap_err().pointer(), "/$schema");
    }
}
