//! The front end: a schema of any draft, with the documents it references,
//! becomes one **working form** with the same meaning, read by every later pass.
//!
//! Layer invariant: after this pass nothing reads a draft. The working form
//! uses the 2020-12 vocabulary, holds no identifiers or anchors, and every
//! reference in it is a `#/…` JSON Pointer into itself; referenced documents
//! and targets outside schema positions are bundled under its root `$defs`.
//! References resolve exactly as the local validator resolves them (the same
//! `referencing` registry, schema positions only). The validator itself is
//! still built from the caller's schema as written.
//!
//! Rewrites with the same meaning (each noted where it changes what a reader
//! would see): draft ≤ 7 keywords beside `$ref` dropped (the validator ignores
//! them), draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` → numeric,
//! `items` arrays → `prefixItems` and `additionalItems` → `items`,
//! `dependencies` → `dependentRequired`/`dependentSchemas`, `$recursiveRef` and
//! `$dynamicRef` → `$ref` where their target is static (else an opaque marker,
//! widened where it is used), keywords the draft does not know dropped; and,
//! on the working form, maps whose `propertyNames` lists their keys → closed
//! objects (`keys.rs`).

mod keys;
mod walk;

use crate::error::{Error, ErrorKind, Problem};
use crate::note::Note;
use crate::vocab::{self, Draft};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;

/// The documents a schema may reference, and the base URI of the root.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Documents<'a> {
    /// `(absolute URI, document)` pairs supplied by the caller.
    pub(crate) resources: &'a [(String, Value)],
    /// The root document's base URI (else its `$id`, else `json-schema:///`).
    pub(crate) base_uri: Option<&'a str>,
    /// The draft of supplied documents without `$schema`.
    pub(crate) default_draft: Draft,
}

/// The working form of a schema.
#[derive(Debug)]
pub(crate) struct Work<'a> {
    /// 2020-12 vocabulary, `#/…` references only.
    pub(crate) root: Cow<'a, Value>,
    /// Where working-form schema nodes came from, when the working form is not
    /// the source itself (empty: every pointer is the source's own).
    origins: HashMap<String, Origin>,
    /// Located remarks on rewrites that a reader of the source should know of.
    pub(crate) notes: Vec<Note>,
}

/// The source location of a working-form schema node.
#[derive(Debug, Clone)]
struct Origin {
    /// `None`: the root document; else the URI of the document.
    document: Option<String>,
    pointer: String,
    /// Working keyword → source keyword, for keywords renamed at this node.
    renames: Vec<(&'static str, &'static str)>,
}

impl Work<'_> {
    /// The working form of a schema that is one already.
    fn as_is(root: &Value) -> Work<'_> {
        Work { root: Cow::Borrowed(root), origins: HashMap::new(), notes: Vec::new() }
    }

    /// The source location of a working-form pointer: a JSON Pointer into the
    /// caller's schema, or `<uri>#<pointer>` inside a supplied document.
    pub(crate) fn source_pointer(&self, working: &str) -> String {
        match self.locate(working) {
            (None, pointer) => pointer,
            (Some(uri), pointer) => format!("{uri}#{pointer}"),
        }
    }

    /// The document (`None`: the root one) and the pointer in it that a
    /// working-form pointer stands for.
    fn locate(&self, working: &str) -> (Option<String>, String) {
        if self.origins.is_empty() {
            return (None, working.to_owned());
        }
        let mut prefix = working;
        let mut rest: Vec<&str> = Vec::new();
        loop {
            if let Some(origin) = self.origins.get(prefix) {
                let mut out = origin.pointer.clone();
                for (i, token) in rest.iter().rev().enumerate() {
                    let renamed = if i == 0 {
                        origin.renames.iter().find(|(w, _)| w == token).map_or(*token, |(_, s)| *s)
                    } else {
                        token
                    };
                    out.push('/');
                    out.push_str(renamed);
                }
                return (origin.document.clone(), out);
            }
            match prefix.rfind('/') {
                Some(i) => {
                    rest.push(&prefix[i + 1..]);
                    prefix = &prefix[..i];
                }
                None => return (None, working.to_owned()),
            }
        }
    }

    /// Rewrites the pointers of `notes` (working form) into source pointers.
    pub(crate) fn translate(&self, notes: &mut [Note]) {
        if self.origins.is_empty() {
            return;
        }
        for n in notes {
            // A keyword renamed at that node is named as the caller wrote it
            // (draft-07 `dependencies` for the working `dependentRequired`).
            let renames = self.origins.get(&n.pointer).map_or(&[][..], |o| &o.renames[..]);
            if let Some((_, written)) = renames.iter().find(|(w, _)| *w == n.keyword) {
                n.keyword = (*written).to_owned();
            }
            n.pointer = self.source_pointer(&n.pointer);
        }
    }
}

/// Turns `source` (read under `draft`) into its working form.
///
/// # Errors
///
/// `Unsupported` listing every reference that resolves to nothing (nothing is
/// fetched), and `InvalidSchema`/`InvalidOption` for documents or URIs the
/// reference resolution cannot take.
pub(crate) fn normalize<'a>(source: &'a Value, draft: Draft, docs: Documents<'_>) -> Result<Work<'a>, Error> {
    let mut work = if draft == Draft::Draft202012 && is_working_form(source) {
        Work::as_is(source)
    } else {
        walk::normalize(source, draft, docs)?
    };
    keys::read_universal_patterns(&mut work);
    keys::close_enum_keyed_maps(&mut work);
    Ok(work)
}

/// The cheap check: a 2020-12 document whose references are all `#` or `#/…`
/// pointers landing on schemas, with no identifiers below the root, no
/// anchors, dynamic references, `dependencies` or `additionalItems`, and none
/// of the working form's reserved keywords, is its own working form.
fn is_working_form(root: &Value) -> bool {
    let mut stack: Vec<(&Value, bool)> = vec![(root, true)];
    while let Some((v, is_root)) = stack.pop() {
        let Value::Object(map) = v else { continue };
        for (k, value) in map {
            let plain = match k.as_str() {
                "$id" | "$schema" => is_root,
                "$anchor" | "$dynamicAnchor" | "$dynamicRef" | "dependencies" | "additionalItems" => false,
                "$ref" => value.as_str().is_some_and(|r| local_pointer(root, r)),
                k => !k.starts_with("$schemacast:"),
            };
            if !plain {
                return false;
            }
        }
        vocab::for_each_child_in(Draft::Draft202012, map, |c| stack.push((c.schema, false)));
    }
    true
}

/// `#` or a `#/…` JSON Pointer that lands on a schema (an object or a boolean).
pub(crate) fn local_pointer(root: &Value, reference: &str) -> bool {
    reference == "#"
        || (reference.starts_with("#/")
            && crate::pointer::resolve_fragment(root, reference).is_some_and(|(t, _)| t.is_object() || t.is_boolean()))
}

/// A located error for each reference in `problems`.
fn unresolved(problems: Vec<Problem>) -> Error {
    Error::many(ErrorKind::Unsupported, problems)
}

#[cfg(test)]
mod tests;
