//! Lowering: a checked schema → a normalised JSON Schema inside one dialect's
//! capabilities, widening only.
//!
//! The output is plain JSON Schema in a normal form: references inlined (a
//! recursive reference is widened where it recurs), `allOf` merged, `anyOf` /
//! `oneOf` distributed over their siblings, explicit `type`s, literals as `enum`,
//! and only the keywords the dialect's [`Rules`] allow. Every keyword that is
//! dropped or weakened gets a located note. A location the dialect cannot express
//! at all fails the whole lowering ([`Fail`]), since dropping it would narrow.
//! Each dialect then only has a small syntax step (`dialect/*.rs`).

mod arrays;
mod build;
mod empty;
mod facts;
mod fail;
mod objects;
mod refs;
mod scalars;
mod unions;
pub(crate) use crate::types;

use crate::analysis::Doc;
use crate::closure::Src;
use crate::note::{Action, Note};
use serde_json::{Map, Value};

pub(crate) use fail::{Blocked, Fail, FailKind, json_text_node};

/// Which literals an `enum` of the dialect may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literals {
    /// Strings only (Gemini `responseSchema`).
    Strings,
    /// Strings and numbers (Gemini `responseJsonSchema`).
    StringsAndNumbers,
    /// Strings, numbers, booleans and null.
    Scalars,
    /// Any JSON value.
    All,
}

/// How a dialect's decoder reads `pattern`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PatternRule {
    /// Not supported: dropped (widening).
    Drop,
    /// Matched against the whole string: kept only when anchored as `^…$`
    /// (searching and whole-string matching then agree), else dropped.
    AnchoredOnly,
    /// Matched against the whole string by an engine with a small regex subset
    /// (`pattern::is_simple`): an unanchored `p` is sent as
    /// `^[\s\S]*(?:p)[\s\S]*$`, `^p` as `^(?:p)[\s\S]*$` and `p$` as
    /// `^[\s\S]*(?:p)$` (`pattern::whole_string`), which mean the same under both
    /// readings; a pattern outside the subset, or with an anchor elsewhere, is dropped.
    RewriteToFullMatch,
    /// Matched against the whole string by a grammar converter with a small
    /// regex subset (llama.cpp): rewritten by `pattern::for_grammar`, or dropped.
    Grammar,
    /// JSON Schema's own search semantics.
    Search,
}

/// What a dialect can express: data, read by the lowering.
#[derive(Debug)]
pub(crate) struct Rules {
    /// Assertion keywords kept when present: any of `minLength`, `maxLength`,
    /// `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`,
    /// `exclusiveMaximum`, `multipleOf`, `minItems`, `maxItems`, `uniqueItems`,
    /// `prefixItems`, `minProperties`, `maxProperties`.
    pub(crate) keywords: &'static [&'static str],
    /// `description` and `title` are kept.
    pub(crate) annotations: bool,
    /// `format` values kept (when formats are asserted locally).
    pub(crate) formats: &'static [&'static str],
    pub(crate) pattern: PatternRule,
    pub(crate) literals: Literals,
    /// The dialect has a node meaning "any value" (`{}`).
    pub(crate) any_value: bool,
    /// `additionalProperties: true` is honoured, so open objects are expressible.
    pub(crate) open_objects: bool,
    /// `additionalProperties: <schema>` is honoured (maps).
    pub(crate) maps: bool,
    /// An object node may have no properties.
    pub(crate) empty_objects: bool,
    /// An array node may omit `items` (any element).
    pub(crate) arrays_without_items: bool,
    /// `anyOf`/`oneOf` may stand at the root (else they are dropped there: widening).
    pub(crate) root_unions: bool,
    /// Numeric bounds are read as 64-bit integers (llama.cpp): bounds on integers
    /// are sent as whole numbers, bounds the reader cannot hold are dropped.
    pub(crate) integral_bounds: bool,
    /// The dialect resolves `$ref` into root `$defs` (a `$ref` alone, no
    /// siblings): a plain reference is passed through, its target lowered once
    /// into `$defs`, and recursion is kept instead of widened.
    pub(crate) refs: bool,
    /// A property whose default the projection fills in is sent required (the
    /// dialect needs every property required, or counts optional ones).
    pub(crate) fill_defaults: bool,
    /// A closable object is sent closed even though open objects are
    /// expressible (engines whose open objects cost or narrow).
    pub(crate) prefer_closed: bool,
    /// An open object may list its properties (else it is sent open without
    /// them: llama.cpp's converter refuses undeclared keys that prefix declared names).
    pub(crate) open_with_properties: bool,
    /// Most optional properties in one object (a grammar's size grows with
    /// them; `usize::MAX`: no limit).
    pub(crate) max_optional: usize,
    /// `prefixItems` is read as a tuple of exactly its length, whatever else
    /// the node says, and `items` wins when both are present (llama.cpp's
    /// converter): a tuple the schema fixes at exactly its length is sent as
    /// `prefixItems` alone (exact); any other tuple is sent as without
    /// `prefixItems`. Only for dialects whose `keywords` lack `prefixItems`.
    pub(crate) exact_tuples: bool,
    /// The largest `minLength`, `maxLength`, `minItems` or `maxItems` sent
    /// (`u64::MAX`: any); a larger one is dropped (widening). llama.cpp's grammar
    /// parser refuses a repetition whose count times the rules it copies reaches
    /// 2,000, and reads a larger maximum as none.
    pub(crate) max_count: u64,
    /// The most branches an `anyOf` may have (`usize::MAX`: any). Under
    /// reshape, a value of any type that says what its objects are goes as
    /// one branch per type (six) only where that fits; else as JSON text.
    pub(crate) max_any_of: usize,
    /// Property names the converter misreads (llama.cpp reads any `$ref` key as
    /// a reference and hoists `$defs`): an object declaring one is not sent,
    /// and `enum`/`const` literals holding such a key are dropped.
    pub(crate) reserved_names: &'static [&'static str],
}

impl Rules {
    pub(crate) fn allows(&self, keyword: &str) -> bool {
        self.keywords.contains(&keyword) || (self.annotations && matches!(keyword, "description" | "title"))
    }
}

/// The type a type-specific keyword of the normal form applies to (`number`
/// covers `integer`), for dialect syntax passes that split multi-type nodes.
pub(crate) fn keyword_type(kw: &str) -> Option<&'static str> {
    Some(match kw {
        "minLength" | "maxLength" | "pattern" | "format" | "enum" => "string",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "items" | "prefixItems" | "minItems" | "maxItems" => "array",
        "properties" | "required" | "additionalProperties" | "minProperties" | "maxProperties" => "object",
        _ => return None,
    })
}

/// Applies `f` in place to every direct sub-schema of a normal-form node
/// (`properties`, `$defs`, `items`, `additionalProperties`, `anyOf`,
/// `prefixItems`), leaving every other keyword as it is: the walk the dialect
/// syntax passes share.
pub(crate) fn for_each_child_mut(m: &mut Map<String, Value>, f: &mut dyn FnMut(&mut Value)) {
    for_each_child_at_mut(m, "", &mut |v, _| f(v));
}

/// [`for_each_child_mut`], with each sub-schema's pointer below `at`: the only
/// places a lowered schema holds sub-schemas.
pub(crate) fn for_each_child_at_mut(m: &mut Map<String, Value>, at: &str, f: &mut dyn FnMut(&mut Value, String)) {
    for (k, sub) in m.iter_mut() {
        match (k.as_str(), sub) {
            ("properties" | "$defs", Value::Object(p)) => {
                let base = crate::pointer::push(at, k);
                for (name, v) in p.iter_mut() {
                    f(v, crate::pointer::push(&base, name));
                }
            }
            ("items" | "additionalProperties", v) => f(v, crate::pointer::push(at, k)),
            ("anyOf" | "prefixItems", Value::Array(a)) => {
                let base = crate::pointer::push(at, k);
                for (i, v) in a.iter_mut().enumerate() {
                    f(v, crate::pointer::push_index(&base, i));
                }
            }
            _ => {}
        }
    }
}

/// For dialects that take type arrays only as `[T, "null"]` (OpenAI strict), or
/// not at all (`nullable_pairs` false): any other type array becomes an `anyOf`
/// with one branch per type, each carrying the keywords of its type (exact:
/// type-specific keywords only ever apply to their type) and the members of
/// its `enum` of that type; a type no member has gets no branch. Its
/// annotations and definitions stay on the node around the branches.
pub(crate) fn split_type_arrays(v: &mut serde_json::Value, nullable_pairs: bool) {
    use serde_json::{Map, Value};
    let Value::Object(out) = v else { return };
    for_each_child_mut(out, &mut |c| split_type_arrays(c, nullable_pairs));
    let names: Vec<String> = match out.get("type") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => return,
    };
    let non_null: Vec<&String> = names.iter().filter(|n| *n != "null").collect();
    let pair_ok = nullable_pairs && non_null.len() <= 1;
    if pair_ok {
        return;
    }
    if let [only] = names.as_slice() {
        out.insert("type".to_owned(), Value::String(only.clone()));
        return;
    }
    let mut branches = Vec::new();
    for t in &names {
        let family = if t == "integer" { "number" } else { t.as_str() };
        let mut b = Map::new();
        b.insert("type".to_owned(), Value::String(t.clone()));
        for (k, sub) in out.iter() {
            // (An object's source pointer, for notes, goes with its object.)
            let marker = family == "object" && k == AT;
            if (keyword_type(k) == Some(family) && k != "enum") || marker {
                b.insert(k.clone(), sub.clone());
            }
        }
        if let Some(Value::Array(lits)) = out.get("enum") {
            let mine: Vec<Value> = lits.iter().filter(|l| literal_type(l, t)).cloned().collect();
            if mine.is_empty() {
                continue;
            }
            // `null` is the type's only value: the branch says it without a list.
            if t != "null" {
                b.insert("enum".to_owned(), Value::Array(mine));
            }
        }
        branches.push(Value::Object(b));
    }
    let mut node = Map::new();
    // The root's definitions stay at the root, where references find them.
    for k in ["title", "description", "$defs"] {
        if let Some(v) = out.get(k) {
            node.insert(k.to_owned(), v.clone());
        }
    }
    node.insert("anyOf".to_owned(), Value::Array(branches));
    *v = Value::Object(node);
}

/// `true` when the literal `l` is of JSON type `t`.
fn literal_type(l: &Value, t: &str) -> bool {
    match t {
        "null" => l.is_null(),
        "boolean" => l.is_boolean(),
        "string" => l.is_string(),
        "integer" => l.as_f64().is_some_and(|f| f.fract() == 0.0),
        "number" => l.is_number(),
        "object" => l.is_object(),
        "array" => l.is_array(),
        _ => false,
    }
}

/// Most inexpressible locations one lowering lists before it stops.
const MAX_BLOCKERS: usize = 8;

/// A successful lowering.
#[derive(Debug)]
pub(crate) struct Lowered {
    pub(crate) schema: Value,
    pub(crate) exact: bool,
    pub(crate) notes: Vec<Note>,
}

/// Most output nodes before giving up (inlined references can multiply a schema).
const MAX_OUTPUT_NODES: usize = 20_000;
/// Most bytes of output (as JSON text) before giving up. Inlining a schema whose
/// definitions refer to each other at many places (openapi-pydantic's
/// `Operation`, 69 KB) repeats them at every use: 2.4 MB for vLLM, which
/// llguidance refuses ("schema too large") and xgrammar does not compile within
/// a minute, while the largest output the engine suite saw compile everywhere
/// is 454 KB (knip's configuration schema).
const MAX_OUTPUT_BYTES: usize = 512 * 1024;
/// Deepest nesting of output locations (keeps recursion well inside the stack).
const MAX_NESTING: usize = 96;
/// Most combinations the unions of one location may grow to once distributed
/// (the first union is always kept whole: alone it multiplies nothing).
pub(crate) const MAX_BRANCHES: usize = 16;

/// How one lowering runs, besides the dialect's rules.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    /// The projection's readings the dialect may rely on.
    pub(crate) readings: crate::closure::Readings,
    /// Formats are asserted locally (else they are annotations, never sent).
    pub(crate) assert_formats: bool,
    /// Reversible encodings (contract §5, `--reshape`): a map the dialect cannot
    /// hold is sent as `{"key", "value"}` pairs, any other location it cannot
    /// express as a string holding its JSON text; each carries a marker
    /// (`$schemacast:…`) for `decode`, stripped from what is sent.
    pub(crate) encodings: bool,
    /// Objects record the source pointer they were lowered from ([`AT`]) for
    /// the notes of later passes (on with `encodings`); the caller strips it.
    pub(crate) locate: bool,
}

impl Settings {
    /// The settings `opts` ask for; `reshape` says whether this dialect takes
    /// the reversible encodings.
    pub(crate) fn of(opts: &crate::Options, reshape: bool) -> Settings {
        let encodings = reshape && opts.reshape;
        Settings { readings: opts.readings(), assert_formats: opts.assert_formats, encodings, locate: encodings }
    }
}

/// Marks a location sent as a string holding its JSON text.
pub(crate) const JSON_TEXT: &str = "$schemacast:json";
/// Marks a map sent as an array of `{"key", "value"}` pairs.
pub(crate) const PAIRS: &str = "$schemacast:pairs";
/// Records, on an object of an annotated schema, the source pointer it was
/// lowered from (for the notes of later rewrites); not a rewrite itself.
pub(crate) const AT: &str = "$schemacast:at";

/// Lowers the schema at `doc.root` under `rules`.
///
/// # Errors
///
/// Without encodings, a location the dialect cannot express does not stop the
/// lowering: it is noted and the rest is lowered, so that the error lists every
/// such location (up to [`MAX_BLOCKERS`]), not only the first.
pub(crate) fn lower(doc: &Doc<'_>, rules: &Rules, settings: Settings) -> Result<Lowered, Blocked> {
    let mut l = Lowerer {
        doc,
        rules,
        readings: settings.readings,
        encodings: settings.encodings,
        locate: settings.locate || settings.encodings,
        choices: Vec::new(),
        assert_formats: settings.assert_formats,
        notes: Vec::new(),
        exact: true,
        ref_stack: vec![String::new()],
        reach: std::collections::HashMap::new(),
        produced: 0,
        nesting: 0,
        defs: Vec::new(),
        blockers: Vec::new(),
        key_location: false,
    };
    let root: Src<'_> = (doc.root, String::new());
    let lowered = l.location(std::slice::from_ref(&root), std::slice::from_ref(&root), "");
    let mut schema = match lowered {
        Ok(_) if !l.blockers.is_empty() => return Err(Blocked(l.blockers)),
        Ok(schema) => schema,
        Err(f) => {
            // What stopped the lowering comes after the locations listed before it.
            let mut all = l.blockers;
            all.push(f.0);
            return Err(Blocked(all));
        }
    };
    if !l.defs.is_empty() {
        let defs: Map<String, Value> =
            l.defs.into_iter().map(|(_, name, v)| (name, v.unwrap_or(Value::Bool(true)))).collect();
        match &mut schema {
            Value::Object(m) => {
                m.insert("$defs".to_owned(), Value::Object(defs));
            }
            _ => return Err(Fail::new("", "$ref", "references need an object root to hold `$defs`").into()),
        }
    }
    let bytes = json_bytes(&schema);
    if bytes > MAX_OUTPUT_BYTES {
        let reason = format!(
            "the schema grows too large once references are inlined ({} KB, more than {} KB)",
            bytes / 1024,
            MAX_OUTPUT_BYTES / 1024
        );
        return Err(Fail::limit("", &reason).into());
    }
    // Repeated notes (one keyword reached through several paths) are listed once.
    let mut notes = l.notes;
    let mut seen = std::collections::HashSet::new();
    notes.retain(|n| seen.insert(n.clone()));
    Ok(Lowered { schema, exact: l.exact, notes })
}

/// The length of `v` written as compact JSON, counted without building the text.
fn json_bytes(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, v).map_or(usize::MAX, |()| count.0)
}

pub(crate) struct Lowerer<'a, 'd> {
    pub(crate) doc: &'a Doc<'d>,
    pub(crate) rules: &'a Rules,
    /// The projection's readings (closing, by branch, defaults) the dialect may rely on.
    pub(crate) readings: crate::closure::Readings,
    /// Union branches chosen at the location being built (unions read by branch).
    pub(crate) choices: Vec<(String, usize)>,
    /// Reversible encodings are allowed ([`Settings::encodings`]).
    pub(crate) encodings: bool,
    /// Objects carry [`AT`] ([`Settings::locate`]).
    pub(crate) locate: bool,
    pub(crate) assert_formats: bool,
    pub(crate) notes: Vec<Note>,
    pub(crate) exact: bool,
    /// Reference targets being inlined on the current path.
    pub(crate) ref_stack: Vec<String>,
    /// What each reference target reaches ([`Lowerer::recurs`]), once computed.
    pub(crate) reach: std::collections::HashMap<String, Vec<String>>,
    pub(crate) produced: usize,
    pub(crate) nesting: usize,
    /// Passed-through references: target pointer, `$defs` name, lowered target
    /// (`None` while it is being lowered).
    pub(crate) defs: Vec<(String, String, Option<Value>)>,
    /// Inexpressible locations met so far (without encodings): the lowering
    /// goes on past them to list them all.
    pub(crate) blockers: Vec<Note>,
    /// The next location read is a map's key (`propertyNames` sent on pairs):
    /// only strings are in question there.
    pub(crate) key_location: bool,
}

impl<'d> Lowerer<'_, 'd> {
    /// Records a widening.
    pub(crate) fn widen(&mut self, at: &str, keyword: &str, action: Action, reason: impl Into<String>) {
        self.exact = false;
        self.notes.push(Note::new(at, keyword, action, reason));
    }

    /// Records an edit that does not change what is accepted.
    pub(crate) fn note(&mut self, at: &str, keyword: &str, action: Action, reason: impl Into<String>) {
        self.notes.push(Note::new(at, keyword, action, reason));
    }

    /// Lowers one instance location: `own` are the schemas that apply there
    /// conjunctively, `pi` what the projection sees there; `at` names the spot.
    pub(crate) fn location(&mut self, own: &[Src<'d>], pi: &[Src<'d>], at: &str) -> Result<Value, Fail> {
        // Every nested location passes through here: the frame is kept small
        // (the facts boxed, the limits and the failures handled in their own
        // functions), so that the deepest nesting allowed fits a 2 MiB stack.
        self.within_limits(at)?;
        if let Some(v) = self.pass_through(own, pi, at) {
            return v;
        }
        self.nesting += 1;
        let depth = self.ref_stack.len();
        // Branch choices belong to one location; the locations below choose their own.
        let outer_choices = std::mem::take(&mut self.choices);
        let mark = self.mark();
        let (out, mixed) = match self.boxed_facts(own, at) {
            Ok(f) => {
                let mixed = empty::mixed(&f);
                (self.build(f, pi, at), mixed)
            }
            Err(e) => (Err(e), false),
        };
        let out = self.settle(out, mixed, mark, depth, (own, pi, at));
        self.ref_stack.truncate(depth);
        self.nesting -= 1;
        self.choices = outer_choices;
        out
    }

    #[inline(never)]
    fn within_limits(&mut self, at: &str) -> Result<(), Fail> {
        self.produced += 1;
        if self.produced > MAX_OUTPUT_NODES {
            return Err(Fail::limit(at, "the schema grows too large once references are inlined"));
        }
        if self.nesting >= MAX_NESTING {
            return Err(Fail::limit(at, "the schema nests too deeply once references are inlined"));
        }
        Ok(())
    }

    #[inline(never)]
    fn boxed_facts(&mut self, own: &[Src<'d>], at: &str) -> Result<Box<facts::Facts<'d>>, Fail> {
        let mut f = self.facts(own, at)?;
        if std::mem::take(&mut self.key_location) {
            f.types = f.types.intersect(crate::types::TypeSet { string: true, ..crate::types::TypeSet::NONE });
        }
        Ok(Box::new(f))
    }
}

/// `value` without the reshape markers (`$schemacast:…` keys), as it is sent.
pub(crate) fn strip(value: &Value) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter().filter(|(k, _)| !k.starts_with("$schemacast:")).map(|(k, v)| (k.clone(), strip(v))).collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests;
