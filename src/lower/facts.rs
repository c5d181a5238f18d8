//! Gathering the conjunctive schemas of one location and merging their keywords.

use super::types::TypeSet;
use super::{Fail, Lowerer};
use crate::closure::{self, Src};
use crate::note::Action;
use crate::pointer;
use crate::vocab;
use serde_json::{Map, Number, Value};
use std::collections::HashSet;

mod merge;
pub(crate) use merge::conjoin;
use merge::{close, merge_bound, tighter_max, tighter_min};

/// A numeric bound: the value, whether it is exclusive, and where it came from.
#[derive(Debug, Clone)]
pub(crate) struct Bound {
    pub(crate) value: Number,
    pub(crate) exclusive: bool,
    pub(crate) at: String,
}

/// Everything the conjunctive schemas of one location say, merged.
#[derive(Debug, Clone)]
pub(crate) struct Facts<'a> {
    pub(crate) types: TypeSet,
    pub(crate) literals: Option<Vec<Value>>,
    pub(crate) literal_at: String,
    pub(crate) min_length: Option<(u64, String)>,
    pub(crate) max_length: Option<(u64, String)>,
    pub(crate) patterns: Vec<(String, String)>,
    pub(crate) formats: Vec<(String, String)>,
    pub(crate) minimum: Option<Bound>,
    pub(crate) maximum: Option<Bound>,
    pub(crate) multiple_of: Vec<(Number, String)>,
    /// Conjunctive nodes that say something about array elements.
    pub(crate) array_nodes: Vec<(&'a Map<String, Value>, String)>,
    pub(crate) min_items: Option<(u64, String)>,
    pub(crate) max_items: Option<(u64, String)>,
    /// Object properties in first-seen order, with every schema that applies.
    pub(crate) properties: Vec<(String, Vec<Src<'a>>)>,
    pub(crate) required: Vec<String>,
    /// `additionalProperties: false` seen: its pointer and the properties its
    /// node declares (the only keys it allows).
    pub(crate) closed_at: Option<(String, Vec<String>)>,
    /// `additionalProperties` schemas (maps), `{}`/`true` excluded.
    pub(crate) additional: Vec<Src<'a>>,
    /// For each of `additional`, the properties its own node declares: the
    /// schema applies to every other key, declared elsewhere or not.
    pub(crate) additional_declared: Vec<Vec<String>>,
    pub(crate) pattern_properties: Option<String>,
    /// `propertyNames` schemas (also in `dropped`: a map sent as pairs states
    /// them on its `key` instead).
    pub(crate) property_names: Vec<Src<'a>>,
    pub(crate) min_properties: Option<(u64, String)>,
    pub(crate) max_properties: Option<(u64, String)>,
    /// Unions still to distribute: (keyword, pointer, branches).
    pub(crate) unions: Vec<(&'static str, String, Vec<Src<'a>>)>,
    /// Keywords that constrain but are dropped whole (widening): (keyword, pointer).
    pub(crate) dropped: Vec<(String, String)>,
    pub(crate) description: Option<Value>,
    pub(crate) title: Option<Value>,
    /// A conjunct that accepts nothing.
    pub(crate) never: Option<String>,
    /// A recursive reference was widened away here.
    pub(crate) recursion_cut: bool,
}

impl Facts<'_> {
    /// The location lists literals and none of them has a type it allows: it
    /// accepts no value (an `enum` is a conjunct like any other).
    pub(crate) fn no_literal_fits(&self) -> bool {
        self.literals.as_ref().is_some_and(|l| !l.iter().any(|x| self.types.admits(x)))
    }

    /// The location says nothing but its unions (annotations aside). Every
    /// field is named, so a new kind of fact must say whether it counts.
    pub(crate) fn only_unions(&self) -> bool {
        let Facts {
            types,
            literals,
            literal_at: _,
            min_length,
            max_length,
            patterns,
            formats,
            minimum,
            maximum,
            multiple_of,
            array_nodes,
            min_items,
            max_items,
            properties,
            required,
            closed_at,
            additional,
            additional_declared: _,
            pattern_properties,
            property_names: _,
            min_properties,
            max_properties,
            unions: _,
            dropped,
            description: _,
            title: _,
            never,
            recursion_cut,
        } = self;
        *types == TypeSet::ALL
            && literals.is_none()
            && min_length.is_none()
            && max_length.is_none()
            && patterns.is_empty()
            && formats.is_empty()
            && minimum.is_none()
            && maximum.is_none()
            && multiple_of.is_empty()
            && array_nodes.is_empty()
            && min_items.is_none()
            && max_items.is_none()
            && properties.is_empty()
            && required.is_empty()
            && closed_at.is_none()
            && additional.is_empty()
            && pattern_properties.is_none()
            && min_properties.is_none()
            && max_properties.is_none()
            && dropped.is_empty()
            && never.is_none()
            && !recursion_cut
    }

    fn new(at: &str) -> Self {
        let _ = at;
        Facts {
            types: TypeSet::ALL,
            literals: None,
            literal_at: String::new(),
            min_length: None,
            max_length: None,
            patterns: Vec::new(),
            formats: Vec::new(),
            minimum: None,
            maximum: None,
            multiple_of: Vec::new(),
            array_nodes: Vec::new(),
            min_items: None,
            max_items: None,
            properties: Vec::new(),
            required: Vec::new(),
            closed_at: None,
            additional: Vec::new(),
            additional_declared: Vec::new(),
            pattern_properties: None,
            property_names: Vec::new(),
            min_properties: None,
            max_properties: None,
            unions: Vec::new(),
            dropped: Vec::new(),
            description: None,
            title: None,
            never: None,
            recursion_cut: false,
        }
    }
}

fn as_count(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1e18).map(|f| f as u64))
}

impl<'d> Lowerer<'_, 'd> {
    /// Gathers the conjuncts of `own` (following `$ref` and `allOf`) and merges them.
    pub(crate) fn facts(&mut self, own: &[Src<'d>], at: &str) -> Result<Facts<'d>, Fail> {
        let mut facts = Facts::new(at);
        let mut work: Vec<Src<'d>> = own.iter().rev().cloned().collect();
        let mut seen = std::collections::HashSet::new();
        while let Some((schema, here)) = work.pop() {
            match schema {
                Value::Bool(true) => {}
                Value::Bool(false) if facts.never.is_none() => facts.never = Some(here),
                Value::Bool(false) => {}
                Value::Object(map) => {
                    if !seen.insert(here.clone()) {
                        continue;
                    }
                    self.merge_node(&mut facts, map, &here, &mut work)?;
                }
                _ => {}
            }
        }
        Ok(facts)
    }

    fn merge_node(
        &mut self,
        f: &mut Facts<'d>,
        map: &'d Map<String, Value>,
        at: &str,
        work: &mut Vec<Src<'d>>,
    ) -> Result<(), Fail> {
        let here = |kw: &str| pointer::push(at, kw);
        for (keyword, value) in map {
            let kw = keyword.as_str();
            if vocab::slot(kw).is_none() {
                continue; // unknown keyword: an annotation (noted by preflight)
            }
            match kw {
                "type" => {
                    if let Some(t) = TypeSet::from_keyword(value) {
                        f.types = f.types.intersect(t);
                    }
                }
                "enum" | "const" => {
                    let values: Vec<Value> = match (kw, value) {
                        ("enum", Value::Array(items)) => items.clone(),
                        ("const", v) => vec![v.clone()],
                        _ => continue,
                    };
                    f.literals = Some(match f.literals.take() {
                        None => {
                            f.literal_at = here(kw);
                            crate::literal::dedup(values)
                        }
                        // JSON Schema equality: `1` and `1.0` are one value.
                        Some(prev) => prev.into_iter().filter(|p| crate::literal::contains(&values, p)).collect(),
                    });
                }
                "minLength" => {
                    if let Some(n) = as_count(value) {
                        tighter_min(&mut f.min_length, n, &here(kw));
                    }
                }
                "maxLength" => {
                    if let Some(n) = as_count(value) {
                        tighter_max(&mut f.max_length, n, &here(kw));
                    }
                }
                "pattern" => {
                    if let Some(p) = value.as_str() {
                        f.patterns.push((p.to_owned(), here(kw)));
                    }
                }
                "format" => {
                    if let Some(p) = value.as_str() {
                        f.formats.push((p.to_owned(), here(kw)));
                    }
                }
                "minimum" | "exclusiveMinimum" | "maximum" | "exclusiveMaximum" => {
                    if let Value::Number(n) = value {
                        let b = Bound { value: n.clone(), exclusive: kw.starts_with("exclusive"), at: here(kw) };
                        let lower = kw.ends_with("inimum");
                        merge_bound(if lower { &mut f.minimum } else { &mut f.maximum }, b, lower);
                    }
                }
                "multipleOf" => {
                    if let Value::Number(n) = value {
                        f.multiple_of.push((n.clone(), here(kw)));
                    }
                }
                "items" | "prefixItems" if !f.array_nodes.iter().any(|(_, p)| p == at) => {
                    f.array_nodes.push((map, at.to_owned()));
                }
                "minItems" => {
                    if let Some(n) = as_count(value) {
                        tighter_min(&mut f.min_items, n, &here(kw));
                    }
                }
                "maxItems" => {
                    if let Some(n) = as_count(value) {
                        tighter_max(&mut f.max_items, n, &here(kw));
                    }
                }
                "properties" => {
                    if let Value::Object(props) = value {
                        let base = here(kw);
                        // The keys of one object are distinct: a first list needs no search.
                        let fresh = f.properties.is_empty();
                        for (name, sub) in props {
                            let src = (sub, pointer::push(&base, name));
                            let known = if fresh { None } else { f.properties.iter_mut().find(|(n, _)| n == name) };
                            match known {
                                Some((_, list)) => list.push(src),
                                None => f.properties.push((name.clone(), vec![src])),
                            }
                        }
                    }
                }
                "required" => {
                    if let Value::Array(names) = value {
                        let mut seen: HashSet<&str> = f.required.iter().map(String::as_str).collect();
                        let new: Vec<String> = names
                            .iter()
                            .filter_map(Value::as_str)
                            .filter(|n| seen.insert(n))
                            .map(str::to_owned)
                            .collect();
                        f.required.extend(new);
                    }
                }
                "additionalProperties" => match value {
                    Value::Bool(false) => {
                        let declared = match map.get("properties") {
                            Some(Value::Object(p)) => p.keys().cloned().collect(),
                            _ => Vec::new(),
                        };
                        close(&mut f.closed_at, here(kw), declared);
                    }
                    Value::Bool(true) => {}
                    Value::Object(m) if m.is_empty() => {}
                    other => {
                        f.additional.push((other, here(kw)));
                        f.additional_declared.push(match map.get("properties") {
                            Some(Value::Object(p)) => p.keys().cloned().collect(),
                            _ => Vec::new(),
                        });
                    }
                },
                "patternProperties" => f.pattern_properties = Some(here(kw)),
                "minProperties" => {
                    if let Some(n) = as_count(value) {
                        tighter_min(&mut f.min_properties, n, &here(kw));
                    }
                }
                "maxProperties" => {
                    if let Some(n) = as_count(value) {
                        tighter_max(&mut f.max_properties, n, &here(kw));
                    }
                }
                "allOf" => {
                    if let Value::Array(parts) = value {
                        let base = here(kw);
                        for (i, p) in parts.iter().enumerate().rev() {
                            work.push((p, pointer::push_index(&base, i)));
                        }
                    }
                }
                "anyOf" | "oneOf" => {
                    // A union of one branch is that branch: read as a part of
                    // the node, as `allOf` is (so a title beside a one-branch
                    // `oneOf` of a reference, or such a root, is not a union).
                    if let Value::Array(parts) = value
                        && let [part] = parts.as_slice()
                    {
                        work.push((part, pointer::push_index(&here(kw), 0)));
                    } else if let Value::Array(parts) = value {
                        let base = here(kw);
                        let branches =
                            parts.iter().enumerate().map(|(i, p)| (p, pointer::push_index(&base, i))).collect();
                        f.unions.push((if kw == "anyOf" { "anyOf" } else { "oneOf" }, base, branches));
                    }
                }
                "$ref" => {
                    let Some(r) = value.as_str() else { continue };
                    match closure::resolve(self.doc, r) {
                        Some((target, ptr)) => {
                            if self.ref_stack.contains(&ptr) && self.recurs(target, &ptr, at) {
                                f.recursion_cut = true;
                                self.widen(
                                    at,
                                    "$ref",
                                    Action::Dropped,
                                    format!("recursive reference {r:?}: widened to no constraint where it recurs"),
                                );
                            } else {
                                self.ref_stack.push(ptr.clone());
                                work.push((target, ptr));
                            }
                        }
                        None => return Err(Fail::new(at, "$ref", format!("reference {r:?} cannot be inlined"))),
                    }
                }
                vocab::OPAQUE => {
                    f.recursion_cut = true;
                    let what = value.as_str().unwrap_or("a dynamic reference");
                    self.widen(
                        at,
                        "$dynamicRef",
                        Action::Dropped,
                        format!("{what}: its target depends on the path taken; widened to no constraint here"),
                    );
                }
                vocab::ASSERTS => {
                    for name in value.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        let (keyword, reason) = if name == "format" {
                            (
                                "format",
                                "`hostname` in draft 4 and 6 is checked by RFC 1034 alone, looser than the later drafts' reading a native schema gets: dropped (widening)",
                            )
                        } else if name == "integer" {
                            (
                                "type",
                                "read as `integer` of later drafts: draft-04 integers exclude numbers written with a fraction (`1.0`), which a native `integer` admits (widening)",
                            )
                        } else {
                            (
                                name,
                                "asserted by the validator in this draft, which no native schema can state: dropped (widening)",
                            )
                        };
                        let action = if name == "integer" { Action::Rewritten } else { Action::Dropped };
                        self.widen(at, keyword, action, reason);
                    }
                }
                "description" if f.description.is_none() && value.is_string() => {
                    f.description = Some(value.clone());
                }
                "title" if f.title.is_none() && value.is_string() => f.title = Some(value.clone()),
                "not"
                | "if"
                | "then"
                | "else"
                | "dependentSchemas"
                | "dependentRequired"
                | "propertyNames"
                | "unevaluatedProperties"
                | "unevaluatedItems"
                | "contains"
                | "minContains"
                | "maxContains"
                | "uniqueItems" => {
                    if kw == "uniqueItems" && value == &Value::Bool(false) {
                        continue;
                    }
                    if kw == "then" || kw == "else" {
                        continue; // reported with `if`
                    }
                    if kw == "propertyNames" {
                        f.property_names.push((value, here(kw)));
                    }
                    f.dropped.push((kw.to_owned(), at.to_owned()));
                }
                _ => {} // annotations and identifiers
            }
        }
        Ok(())
    }
}
