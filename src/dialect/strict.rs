//! The OpenAI-style strict-mode qualifier.
//!
//! A schema qualifies when it lies inside the documented strict subset exactly
//! as written, up to annotation-only edits (annotations such as `default` are
//! removed; they never change what is accepted). The qualifier is an allowlist:
//! anything it does not know keeps the schema out of strict mode. Every reason
//! is reported as a located note.

use crate::analysis::Doc;
use crate::note::{Action, Note};
use crate::pattern;
use crate::pointer;
use crate::profile::StrictRules;
use crate::vocab;
use serde_json::{Map, Value};
use std::collections::HashSet;

mod limits;

/// Reasons listed at most; the rest are counted in one closing note.
const MAX_REASONS: usize = 20;

/// The outcome of qualification.
pub(crate) enum Verdict {
    /// The strict schema to send, and the annotation-only edits made to it.
    Qualifies { schema: Value, edits: Vec<Note> },
    /// Why the schema stays out of strict mode.
    Fails(Vec<Note>),
    /// Inside the subset, but over a count limit (properties, enum values,
    /// characters, depth) that no rewrite lowers: rewrites only widen, merge
    /// nothing the qualifier accepts, and inline references (more, not less).
    /// Returned by [`qualify_fast`] only.
    OverLimits,
}

const BASE_TYPES: &[&str] = &["string", "number", "integer", "boolean", "object", "array", "null"];

/// Structural keywords every strict mode has.
const STRUCTURAL: &[&str] =
    &["type", "properties", "required", "additionalProperties", "items", "anyOf", "$ref", "enum", "const"];

/// Qualifies `schema` under `rules`, listing every reason it fails.
pub(crate) fn qualify(doc: &Doc<'_>, schema: &Value, rules: &StrictRules, assert_formats: bool) -> Verdict {
    run(doc, schema, rules, assert_formats, false)
}

/// As [`qualify`], but stops at the first reason (the only one then reported):
/// for callers that only need the verdict.
pub(crate) fn qualify_fast(doc: &Doc<'_>, schema: &Value, rules: &StrictRules, assert_formats: bool) -> Verdict {
    run(doc, schema, rules, assert_formats, true)
}

fn run(doc: &Doc<'_>, schema: &Value, rules: &StrictRules, assert_formats: bool, fail_fast: bool) -> Verdict {
    let mut q = Qualifier {
        doc,
        rules,
        assert_formats,
        fail_fast,
        fails: Vec::new(),
        edits: Vec::new(),
        properties: 0,
        enum_values: 0,
        chars: 0,
    };
    let out = q.root(schema);
    if fail_fast && !q.fails.is_empty() {
        return Verdict::Fails(q.fails);
    }
    q.limits(schema);
    if fail_fast && !q.fails.is_empty() {
        return Verdict::OverLimits;
    }
    let size = if rules.max_schema_chars == usize::MAX { 0 } else { out.to_string().chars().count() };
    if size > rules.max_schema_chars {
        q.fail(
            "",
            "",
            format!("{size} characters of schema exceed the provider's limit of {}", rules.max_schema_chars),
        );
    }
    let mut seen = HashSet::new();
    q.fails.retain(|n| seen.insert((n.pointer.clone(), n.keyword.clone())));
    if q.fails.is_empty() {
        Verdict::Qualifies { schema: out, edits: q.edits }
    } else {
        let total = q.fails.len();
        let mut fails = q.fails;
        if total > MAX_REASONS {
            fails.truncate(MAX_REASONS);
            fails.push(Note::new("", "", Action::Degraded, format!("and {} more reasons", total - MAX_REASONS)));
        }
        Verdict::Fails(fails)
    }
}

struct Qualifier<'a, 'd> {
    doc: &'a Doc<'d>,
    rules: &'a StrictRules,
    assert_formats: bool,
    /// Stop at the first failure.
    fail_fast: bool,
    fails: Vec<Note>,
    edits: Vec<Note>,
    properties: usize,
    enum_values: usize,
    chars: usize,
}

fn json_len(v: &Value) -> usize {
    match v {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    }
}

impl Qualifier<'_, '_> {
    fn fail(&mut self, at: &str, keyword: &str, reason: impl Into<String>) {
        self.fails.push(Note::new(at, keyword, Action::Degraded, reason));
    }

    fn root(&mut self, schema: &Value) -> Value {
        let Value::Object(map) = schema else {
            self.fail("", "type", "strict mode needs an object schema with `type: \"object\"` at the root");
            return Value::Null;
        };
        if map.get("type").and_then(Value::as_str) != Some("object") {
            self.fail(
                "",
                "type",
                "strict mode needs `type: \"object\"` at the root (not a type array, `anyOf` or `$ref`)",
            );
        }
        let mut out = self.node(map, "", true);
        // Definitions constrain nothing by themselves: empty ones (typia writes
        // `"$defs": {}`), or any where the provider takes no references (its
        // references fail below and are inlined by the rewrite), are not sent.
        let defs = map.get("$defs").filter(|d| self.rules.refs && d.as_object().is_none_or(|d| !d.is_empty()));
        if defs.is_none() && map.get("$defs").and_then(Value::as_object).is_some_and(|d| !d.is_empty()) {
            self.edits.push(Note::new(
                "",
                "$defs",
                Action::Dropped,
                "definitions the schema never references: not sent, since the provider takes no references (it does not change what is accepted)",
            ));
        }
        if let Some(defs) = defs {
            let mut cleaned = Map::new();
            if let Value::Object(defs) = defs {
                for (name, def) in defs {
                    self.chars += name.chars().count();
                    let at = pointer::push("/$defs", name);
                    match def {
                        Value::Object(d) => {
                            let c = self.node(d, &at, false);
                            cleaned.insert(name.clone(), c);
                        }
                        _ => self.fail(&at, "$defs", "boolean schemas are not in the strict subset"),
                    }
                }
            }
            if let Value::Object(o) = &mut out {
                o.insert("$defs".to_owned(), Value::Object(cleaned));
            }
        }
        out
    }

    /// Checks one schema object and returns its cleaned copy.
    fn node(&mut self, map: &Map<String, Value>, at: &str, is_root: bool) -> Value {
        if self.fail_fast && !self.fails.is_empty() {
            return Value::Null;
        }
        let mut out = Map::new();
        let mut kept: Vec<&str> = Vec::new();
        for (keyword, value) in map {
            let kw = keyword.as_str();
            if vocab::slot(kw).is_none() {
                continue; // unknown keyword: an annotation, noted by preflight
            }
            if kw == "$defs" && is_root {
                continue; // handled by `root`
            }
            if kw == "description" || kw == "title" {
                if value.is_string() && self.rules.annotations {
                    out.insert(keyword.clone(), value.clone());
                } else if !self.rules.annotations {
                    self.edits.push(Note::new(
                        at,
                        kw,
                        Action::Dropped,
                        "the provider does not accept informational fields: removed (it does not change what is accepted)",
                    ));
                }
                continue;
            }
            let strippable =
                vocab::is_annotation(kw) || (kw == "$id" && is_root) || (kw == "format" && !self.assert_formats);
            if strippable {
                self.edits.push(Note::new(
                    at,
                    kw,
                    Action::Dropped,
                    "annotation: not part of the strict subset, and removing it does not change what is accepted",
                ));
                continue;
            }
            if !(STRUCTURAL.contains(&kw) || self.rules.keywords.contains(&kw)) {
                self.fail(at, kw, format!("`{kw}` is not in the documented strict subset"));
                continue;
            }
            kept.push(kw);
            // Sub-schema containers are replaced by their cleaned copies below
            // (or the schema fails): hold their place without copying them.
            let copy = if matches!(kw, "properties" | "items" | "anyOf") { Value::Null } else { value.clone() };
            out.insert(keyword.clone(), copy);
        }

        if kept.contains(&"$ref") {
            self.reference(map, at, &kept, &out);
            return Value::Object(out);
        }
        let types = self.types(map, at, &kept);
        if kept.contains(&"anyOf") {
            self.any_of(map, at, is_root, &mut out);
            return Value::Object(out);
        }
        let Some(types) = types else { return Value::Object(out) };
        self.type_specific(map, at, &kept, &types);
        if let Some(v) = map.get("enum") {
            self.literals(at, "enum", v, &types);
        }
        if let Some(v) = map.get("const") {
            self.literals(at, "const", &Value::Array(vec![v.clone()]), &types);
        }
        if types.contains(&"object") {
            out = self.object(map, at, out);
        }
        if types.contains(&"array") {
            out = self.array(map, at, out);
        }
        Value::Object(out)
    }

    fn reference(&mut self, map: &Map<String, Value>, at: &str, kept: &[&str], out: &Map<String, Value>) {
        let here = pointer::push(at, "$ref");
        if !self.rules.refs {
            self.fail(
                &here,
                "$ref",
                "the provider's strict mode does not take references (or recursion): they are inlined instead",
            );
            return;
        }
        if kept.len() > 1 || out.contains_key("description") || out.contains_key("title") {
            self.fail(at, "$ref", "strict mode rejects keywords beside `$ref`");
        }
        let Some(r) = map.get("$ref").and_then(Value::as_str) else { return };
        let target_ok = r == "#"
            || r.strip_prefix("#/$defs/").is_some_and(|name| {
                !name.contains('/')
                    && crate::pointer::resolve_fragment(self.doc.root, r).is_some()
                    && !name.contains('~')
                    && !name.contains('%')
            });
        if !target_ok {
            self.fail(
                &here,
                "$ref",
                format!("strict mode resolves only `#` and `#/$defs/<name>` references, got {r:?}"),
            );
        }
    }

    /// Reads `type`; `None` when the node has no usable type (a failure is recorded
    /// unless the node is an `anyOf`).
    fn types(&mut self, map: &Map<String, Value>, at: &str, kept: &[&str]) -> Option<Vec<&'static str>> {
        let base = |s: &str| BASE_TYPES.iter().copied().find(|b| *b == s);
        match map.get("type") {
            None => {
                if !kept.contains(&"anyOf") {
                    self.fail(at, "type", "strict mode needs `type` on every schema that is not `anyOf` or `$ref`");
                }
                None
            }
            Some(Value::String(s)) => match base(s) {
                Some(t) => Some(vec![t]),
                None => {
                    self.fail(at, "type", format!("unknown type {s:?}"));
                    None
                }
            },
            Some(Value::Array(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                let nullable_pair =
                    names.len() == 2 && ts.len() == 2 && names.contains(&"null") && names[0] != names[1];
                match (nullable_pair, names.iter().map(|n| base(n)).collect::<Option<Vec<_>>>()) {
                    (true, Some(v)) if self.rules.type_arrays => Some(v),
                    (true, Some(v)) => {
                        self.fail(at, "type", "the provider rejects type arrays (even `[T, \"null\"]`): use `anyOf`");
                        Some(v)
                    }
                    _ => {
                        self.fail(at, "type", "strict mode documents type arrays only as `[T, \"null\"]`");
                        None
                    }
                }
            }
            Some(_) => None,
        }
    }

    fn any_of(&mut self, map: &Map<String, Value>, at: &str, is_root: bool, out: &mut Map<String, Value>) {
        if is_root {
            self.fail(at, "anyOf", "strict mode rejects `anyOf` at the root");
        }
        if out.keys().any(|k| !matches!(k.as_str(), "anyOf" | "description" | "title")) {
            self.fail(at, "anyOf", "strict mode documents `anyOf` without sibling assertions");
        }
        match map.get("anyOf") {
            Some(Value::Array(branches)) if !branches.is_empty() => {
                if branches.len() > self.rules.max_any_of {
                    self.fail(
                        at,
                        "anyOf",
                        format!("{} branches exceed the provider's limit of {}", branches.len(), self.rules.max_any_of),
                    );
                }
                let mut cleaned = Vec::with_capacity(branches.len());
                for (i, b) in branches.iter().enumerate() {
                    let bp = pointer::push_index(&pointer::push(at, "anyOf"), i);
                    match b {
                        Value::Object(bm) => cleaned.push(self.node(bm, &bp, false)),
                        _ => self.fail(&bp, "anyOf", "boolean schemas are not in the strict subset"),
                    }
                }
                out.insert("anyOf".to_owned(), Value::Array(cleaned));
            }
            _ => self.fail(at, "anyOf", "`anyOf` must be a non-empty array"),
        }
    }

    fn type_specific(&mut self, map: &Map<String, Value>, at: &str, kept: &[&str], types: &[&str]) {
        let has = |t: &str| types.contains(&t);
        for kw in kept {
            let fits = match *kw {
                "pattern" | "format" => has("string"),
                "multipleOf" | "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    has("number") || has("integer")
                }
                "items" | "minItems" | "maxItems" => has("array"),
                "properties" | "required" | "additionalProperties" => has("object"),
                _ => true,
            };
            if !fits {
                self.fail(
                    at,
                    kw,
                    format!("`{kw}` does not apply to type {types:?}; the strict subset does not document it there"),
                );
            }
        }
        if let Some(f) = map.get("format").and_then(Value::as_str)
            && self.assert_formats
            && !self.rules.formats.contains(&f)
        {
            self.fail(at, "format", format!("format {f:?} is not in the strict allowlist"));
        }
        if let Some(p) = map.get("pattern").and_then(Value::as_str)
            && !pattern::is_self_anchored(p)
        {
            self.fail(
                at,
                "pattern",
                "the pattern is not anchored as `^…$`: a grammar matches it against the whole string, which would narrow JSON Schema's search",
            );
        }
    }

    fn literals(&mut self, at: &str, keyword: &str, values: &Value, types: &[&str]) {
        let Value::Array(items) = values else { return };
        let matches_type = |v: &Value| match v {
            Value::Null => types.contains(&"null"),
            Value::Bool(_) => types.contains(&"boolean"),
            Value::String(_) => types.contains(&"string"),
            Value::Number(n) => types.contains(&"number") || (types.contains(&"integer") && is_integer(n)),
            _ => false,
        };
        if !items.iter().all(matches_type) {
            self.fail(at, keyword, format!("every `{keyword}` value must be a scalar of the node's `type`"));
        }
        if keyword == "enum" {
            self.enum_values += items.len();
            let chars: usize = items.iter().map(json_len).sum();
            self.chars += chars;
            if items.len() > self.rules.large_enum_values && chars > self.rules.large_enum_chars {
                self.fail(
                    at,
                    "enum",
                    format!(
                        "an enum with more than {} values may have at most {} characters (has {chars})",
                        self.rules.large_enum_values, self.rules.large_enum_chars
                    ),
                );
            }
        } else {
            self.chars += items.iter().map(json_len).sum::<usize>();
        }
    }

    fn object(&mut self, map: &Map<String, Value>, at: &str, mut out: Map<String, Value>) -> Map<String, Value> {
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            self.fail(at, "additionalProperties", "strict mode needs `additionalProperties: false` on every object");
        }
        let props = match map.get("properties") {
            Some(Value::Object(p)) if !p.is_empty() => p,
            _ => {
                self.fail(at, "properties", "strict mode needs a non-empty `properties` on every object");
                return out;
            }
        };
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let unique: HashSet<&str> = required.iter().copied().collect();
        let all_required = unique.len() == required.len()
            && required.len() == props.len()
            && props.keys().all(|k| unique.contains(k.as_str()));
        if !all_required {
            let missing: Vec<&str> = props.keys().map(String::as_str).filter(|k| !unique.contains(k)).collect();
            let reason = if missing.is_empty() {
                "`required` must list exactly the keys of `properties`".to_owned()
            } else {
                format!("strict mode needs every property required; optional: {}", missing.join(", "))
            };
            self.fail(at, "required", reason);
        }
        let mut cleaned = Map::new();
        let base = pointer::push(at, "properties");
        for (name, sub) in props {
            self.properties += 1;
            self.chars += name.chars().count();
            let sp = pointer::push(&base, name);
            match sub {
                Value::Object(sm) => {
                    cleaned.insert(name.clone(), self.node(sm, &sp, false));
                }
                _ => self.fail(&sp, "properties", "boolean schemas are not in the strict subset"),
            }
        }
        out.insert("properties".to_owned(), Value::Object(cleaned));
        out
    }

    fn array(&mut self, map: &Map<String, Value>, at: &str, mut out: Map<String, Value>) -> Map<String, Value> {
        match map.get("items") {
            Some(Value::Object(im)) => {
                let c = self.node(im, &pointer::push(at, "items"), false);
                out.insert("items".to_owned(), c);
            }
            Some(_) => self.fail(at, "items", "strict mode needs `items` to be one object schema"),
            None => self.fail(at, "items", "strict mode needs `items` on every array"),
        }
        out
    }
}

fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

#[cfg(test)]
mod tests;
