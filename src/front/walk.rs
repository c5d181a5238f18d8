//! The front end's full path: reference resolution through the validator's own
//! `referencing` registry, and the per-draft rewrites, node by node.

use super::{Documents, Origin, Work, unresolved};
use crate::error::{Error, ErrorKind, Problem};
use crate::note::{Action, Note};
use crate::pointer;
use crate::vocab::{self, Draft, Slot};
use referencing::{Registry, Resolver, ResourceRef, Retrieve, Uri};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

mod links;

/// The base URI the validator uses for a root without `$id`.
const DEFAULT_BASE: &str = "json-schema:///";

/// Records what the registry would have fetched, and fetches nothing: every
/// such document stands in as `true` so that the registry builds and each
/// reference to it can be reported where it is written.
#[derive(Debug, Default, Clone)]
struct Unfetched(Arc<Mutex<HashSet<String>>>);

impl Retrieve for Unfetched {
    fn retrieve(&self, uri: &Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        if let Ok(mut seen) = self.0.lock() {
            seen.insert(uri.as_str().trim_end_matches('#').to_owned());
        }
        Ok(Value::Bool(true))
    }
}

pub(super) fn normalize<'a>(source: &'a Value, draft: Draft, docs: Documents<'_>) -> Result<Work<'a>, Error> {
    let base = base_uri(source, draft, docs)?;
    let mut seen_uris = HashSet::new();
    seen_uris.insert(base.as_str().to_owned());
    let mut parsed = Vec::with_capacity(docs.resources.len());
    for (uri, doc) in docs.resources {
        let u = referencing::uri::from_str(uri.trim_end_matches('#'))
            .map_err(|e| Error::new(ErrorKind::InvalidOption, "", format!("resource URI {uri:?} is not a URI: {e}")))?;
        if !seen_uris.insert(u.as_str().to_owned()) {
            return Err(Error::new(
                ErrorKind::InvalidOption,
                "",
                format!("two documents are registered under one URI {:?}", u.as_str()),
            ));
        }
        parsed.push((u, doc));
    }
    let unfetched = Unfetched::default();
    let mut builder = Registry::new()
        .draft(docs.default_draft.to_jsonschema())
        .retriever(unfetched.clone())
        .add(base.as_str(), ResourceRef::new(source, draft.to_jsonschema()))
        .map_err(|e| Error::new(ErrorKind::InvalidSchema, "", format!("the schema's URIs do not resolve: {e}")))?;
    for (u, doc) in &parsed {
        let d = Draft::detect(doc, docs.default_draft).unwrap_or(docs.default_draft);
        builder = builder.add(u.as_str(), ResourceRef::new(doc, d.to_jsonschema())).map_err(|e| {
            Error::new(ErrorKind::InvalidOption, "", format!("resource {:?} cannot be registered: {e}", u.as_str()))
        })?;
    }
    let registry = builder
        .prepare()
        .map_err(|e| Error::new(ErrorKind::InvalidSchema, "", format!("references cannot be resolved: {e}")))?;
    let unfetched: HashSet<String> = unfetched.0.lock().map(|s| s.clone()).unwrap_or_default();
    let root_resolver = registry.resolver(base.clone());
    let root_resolver = root_resolver
        .in_subresource(ResourceRef::new(source, draft.to_jsonschema()))
        .unwrap_or_else(|_| root_resolver.clone());
    let documents: Vec<(Option<String>, &Value)> =
        std::iter::once((None, source)).chain(parsed.iter().map(|(u, d)| (Some(u.as_str().to_owned()), *d))).collect();
    let mut w = Walker {
        source,
        documents,
        unfetched,
        placed: HashMap::new(),
        origins: HashMap::new(),
        notes: Vec::new(),
        problems: Vec::new(),
        pending: Vec::new(),
        defs: Vec::new(),
    };
    let mut root = w.node(source, draft, &root_resolver, "", &Src { doc: None, pointer: String::new() }, true);
    // Bundle every target that is not a schema position of the working form.
    let mut links: Vec<(String, String)> = Vec::new();
    let mut bundled = 0usize;
    while let Some(p) = w.pending.pop() {
        let addr = address(p.target);
        let to = match w.placed.get(&addr) {
            Some(at) => at.clone(),
            None => {
                let taken: HashSet<String> = match &root {
                    Value::Object(m) => m.get("$defs").and_then(Value::as_object).map(|d| d.keys().cloned().collect()),
                    _ => None,
                }
                .unwrap_or_default();
                let mut name = format!("schemacast-{bundled}");
                while taken.contains(&name) || w.defs.iter().any(|(n, _)| *n == name) {
                    bundled += 1;
                    name = format!("schemacast-{bundled}");
                }
                bundled += 1;
                let at = pointer::push("/$defs", &name);
                let src = w.locate(p.target);
                let value = w.node(p.target, p.draft, &p.resolver, &at, &src, true);
                w.defs.push((name, value));
                at
            }
        };
        links.push((p.holder, to));
    }
    if !w.problems.is_empty() {
        return Err(unresolved(w.problems));
    }
    if !w.defs.is_empty() {
        let Value::Object(m) = &mut root else {
            return Err(Error::new(ErrorKind::InvalidSchema, "", "references need an object root"));
        };
        let defs = m.entry("$defs").or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(d) = defs {
            d.extend(w.defs);
        }
    }
    for (holder, to) in links {
        if let Some(Value::Object(m)) = root.pointer_mut(&holder) {
            m.insert("$ref".to_owned(), Value::String(pointer::to_fragment(&to)));
        }
    }
    Ok(Work { root: Cow::Owned(root), origins: w.origins, notes: w.notes })
}

fn base_uri(source: &Value, draft: Draft, docs: Documents<'_>) -> Result<Uri<String>, Error> {
    let own = source
        .get(draft.id_keyword())
        .and_then(Value::as_str)
        .filter(|id| !id.starts_with('#') && (draft >= Draft::Draft201909 || source.get("$ref").is_none()));
    let base = docs.base_uri.or(own).unwrap_or(DEFAULT_BASE);
    referencing::uri::from_str(base.trim_end_matches('#'))
        .map_err(|e| Error::new(ErrorKind::InvalidOption, "", format!("base URI {base:?} is not a URI: {e}")))
}

fn address(v: &Value) -> usize {
    std::ptr::from_ref(v) as usize
}

/// A source location: the document (`None`: the root one) and a pointer.
struct Src {
    doc: Option<String>,
    pointer: String,
}

impl Src {
    fn push(&self, token: &str) -> Src {
        Src { doc: self.doc.clone(), pointer: pointer::push(&self.pointer, token) }
    }

    fn push_index(&self, i: usize) -> Src {
        Src { doc: self.doc.clone(), pointer: pointer::push_index(&self.pointer, i) }
    }

    fn display(&self) -> String {
        match &self.doc {
            None => self.pointer.clone(),
            Some(u) => format!("{u}#{}", self.pointer),
        }
    }
}

/// A reference still to be linked: the working pointer of the node that holds
/// the `$ref`, and its resolved target.
struct Pending<'r> {
    holder: String,
    target: &'r Value,
    resolver: Resolver<'r>,
    draft: Draft,
}

struct Walker<'r> {
    source: &'r Value,
    documents: Vec<(Option<String>, &'r Value)>,
    unfetched: HashSet<String>,
    /// Address of a source schema → its working pointer.
    placed: HashMap<usize, String>,
    origins: HashMap<String, Origin>,
    notes: Vec<Note>,
    problems: Vec<Problem>,
    pending: Vec<Pending<'r>>,
    defs: Vec<(String, Value)>,
}

/// What a reference keyword leads to.
enum Link<'r> {
    To(&'r Value, Resolver<'r>, Draft),
    Opaque(String),
    Broken,
}

impl<'r> Walker<'r> {
    /// The working form of the schema `v` found at working pointer `at`.
    fn node(
        &mut self,
        v: &'r Value,
        draft: Draft,
        resolver: &Resolver<'r>,
        at: &str,
        src: &Src,
        resource_root: bool,
    ) -> Value {
        let Value::Object(map) = v else {
            self.placed.entry(address(v)).or_insert_with(|| at.to_owned());
            return v.clone();
        };
        let id = map.get(draft.id_keyword()).and_then(Value::as_str).filter(|id| !id.starts_with('#'));
        let draft = match map.get("$schema").and_then(Value::as_str) {
            Some(uri) if resource_root || id.is_some() => Draft::from_uri(uri).unwrap_or(draft),
            _ => draft,
        };
        let resolver =
            &resolver.in_subresource(ResourceRef::new(v, draft.to_jsonschema())).unwrap_or_else(|_| resolver.clone());
        self.placed.entry(address(v)).or_insert_with(|| at.to_owned());
        let mut out = Map::new();
        let mut renames: Vec<(&'static str, &'static str)> = Vec::new();
        let mut links: Vec<Link<'r>> = Vec::new();
        let legacy_ref = draft <= Draft::Draft7 && map.contains_key("$ref");
        if legacy_ref {
            let ignored: Vec<&str> = map
                .keys()
                .map(String::as_str)
                .filter(|k| {
                    !matches!(*k, "$ref" | "definitions" | "$defs")
                        && vocab::source_slot(draft, k).is_some()
                        && !vocab::is_annotation(k)
                        && !matches!(*k, "id" | "$id" | "$schema")
                })
                .collect();
            for k in ignored {
                self.notes.push(Note::new(
                    src.display(),
                    k,
                    Action::Dropped,
                    "beside `$ref`: ignored in draft 7 and earlier, by the validator too; not applied, not sent",
                ));
            }
        }
        let tuple = draft < Draft::Draft202012 && map.get("items").is_some_and(Value::is_array);
        for (k, value) in map {
            let kw = k.as_str();
            let Some(slot) = vocab::source_slot(draft, kw) else { continue };
            if legacy_ref && !matches!(kw, "$ref" | "definitions" | "$defs") {
                continue;
            }
            match kw {
                "$schema" | "$id" | "id" | "$anchor" | "$dynamicAnchor" | "$recursiveAnchor" | "$vocabulary" => {}
                "$ref" => links.push(self.link(value, resolver, draft, src, kw)),
                "$dynamicRef" => links.push(self.dynamic(value, resolver, draft, src)),
                "$recursiveRef" => links.push(self.recursive(resolver, draft, src)),
                "items" if tuple => {
                    let list = self.list(value, draft, resolver, &pointer::push(at, "prefixItems"), &src.push(kw));
                    out.insert("prefixItems".to_owned(), list);
                    renames.push(("prefixItems", "items"));
                }
                "additionalItems" if tuple => {
                    let one = self.node(value, draft, resolver, &pointer::push(at, "items"), &src.push(kw), false);
                    out.insert("items".to_owned(), one);
                    renames.push(("items", "additionalItems"));
                }
                "additionalItems" => {} // applies only beside an `items` array
                "dependencies" => self.dependencies(value, draft, resolver, at, src, &mut out, &mut renames),
                "minimum" | "maximum" if draft == Draft::Draft4 => {
                    let exclusive = if kw == "minimum" { "exclusiveMinimum" } else { "exclusiveMaximum" };
                    if map.get(exclusive) == Some(&Value::Bool(true)) {
                        out.insert(exclusive.to_owned(), value.clone());
                    } else {
                        out.insert(kw.to_owned(), value.clone());
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" if draft == Draft::Draft4 => {} // with the bound
                "contentMediaType" | "contentEncoding" if draft <= Draft::Draft7 => {
                    push_assert(&mut out, kw);
                }
                "format" => match value.as_str().map(|name| (name, vocab::format_reading(draft, name))) {
                    Some((name, vocab::FormatReading::Annotation)) => self.notes.push(Note::new(
                        src.display(),
                        kw,
                        Action::Ignored,
                        format!(
                            "format {name:?} is not defined in draft {}: an annotation there, which the validator does not check; not sent",
                            draft.name()
                        ),
                    )),
                    Some((_, vocab::FormatReading::Looser)) => push_assert(&mut out, kw),
                    _ => {
                        out.insert(k.clone(), value.clone());
                    }
                },
                "type" if draft == Draft::Draft4 => {
                    out.insert(kw.to_owned(), value.clone());
                    let integers = crate::types::TypeSet::from_keyword(value).is_some_and(|t| t.integer && !t.number);
                    if integers {
                        push_assert(&mut out, "integer");
                    }
                }
                _ => {
                    let child = match slot {
                        Slot::One | Slot::OneOrList => {
                            self.node(value, draft, resolver, &pointer::push(at, kw), &src.push(kw), false)
                        }
                        Slot::List => self.list(value, draft, resolver, &pointer::push(at, kw), &src.push(kw)),
                        Slot::Map | Slot::Dependencies => match value {
                            Value::Object(m) => {
                                let base = pointer::push(at, kw);
                                let sbase = src.push(kw);
                                let mut o = Map::new();
                                for (name, sub) in m {
                                    let w = self.node(
                                        sub,
                                        draft,
                                        resolver,
                                        &pointer::push(&base, name),
                                        &sbase.push(name),
                                        false,
                                    );
                                    o.insert(name.clone(), w);
                                }
                                Value::Object(o)
                            }
                            other => other.clone(),
                        },
                        Slot::None => value.clone(),
                    };
                    out.insert(k.clone(), child);
                }
            }
        }
        self.attach(links, &mut out, at);
        self.origins.insert(at.to_owned(), Origin { document: src.doc.clone(), pointer: src.pointer.clone(), renames });
        Value::Object(out)
    }

    fn list(&mut self, value: &'r Value, draft: Draft, resolver: &Resolver<'r>, at: &str, src: &Src) -> Value {
        match value {
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, s)| self.node(s, draft, resolver, &pointer::push_index(at, i), &src.push_index(i), false))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// `dependencies` → `dependentRequired` (name lists) and `dependentSchemas`.
    #[allow(clippy::too_many_arguments)]
    fn dependencies(
        &mut self,
        value: &'r Value,
        draft: Draft,
        resolver: &Resolver<'r>,
        at: &str,
        src: &Src,
        out: &mut Map<String, Value>,
        renames: &mut Vec<(&'static str, &'static str)>,
    ) {
        let Value::Object(m) = value else { return };
        let sbase = src.push("dependencies");
        for (name, dep) in m {
            match dep {
                Value::Array(names) => {
                    let slot = out.entry("dependentRequired").or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(dr) = slot {
                        let list = dr.entry(name.clone()).or_insert_with(|| Value::Array(Vec::new()));
                        if let Value::Array(l) = list {
                            for n in names {
                                if !l.contains(n) {
                                    l.push(n.clone());
                                }
                            }
                        }
                    }
                    renames.push(("dependentRequired", "dependencies"));
                }
                schema => {
                    let taken = out.get("dependentSchemas").and_then(|d| d.get(name)).is_some();
                    let here = pointer::push(&pointer::push(at, "dependentSchemas"), name);
                    let here = if taken { pointer::push(&pointer::push(&here, "allOf"), "1") } else { here };
                    let w = self.node(schema, draft, resolver, &here, &sbase.push(name), false);
                    let slot = out.entry("dependentSchemas").or_insert_with(|| Value::Object(Map::new()));
                    if let Value::Object(ds) = slot {
                        match ds.remove(name) {
                            Some(prev) => {
                                ds.insert(name.clone(), Value::Object(one("allOf", Value::Array(vec![prev, w]))));
                            }
                            None => {
                                ds.insert(name.clone(), w);
                            }
                        }
                    }
                    renames.push(("dependentSchemas", "dependencies"));
                }
            }
        }
    }
}

fn one(k: &str, v: Value) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(k.to_owned(), v);
    m
}

fn push_assert(out: &mut Map<String, Value>, keyword: &str) {
    let list = out.entry(vocab::ASSERTS).or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(l) = list {
        l.push(Value::String(keyword.to_owned()));
    }
}
