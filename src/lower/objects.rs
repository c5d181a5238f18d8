//! Building the object keywords of one location: properties, closing,
//! default filling, and maps as key/value pairs.

use super::facts::Facts;
use super::{Fail, FailKind, Lowerer};
use crate::closure::{self, Gathered, Src};
use crate::note::Action;
use serde_json::{Map, Value};
use std::collections::HashSet;

impl<'d> Lowerer<'_, 'd> {
    pub(super) fn objects(
        &mut self,
        f: &Facts<'d>,
        pi: &[Src<'d>],
        at: &str,
        out: &mut Map<String, Value>,
    ) -> Result<(), Fail> {
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        if let Some((name, _)) = f.properties.iter().find(|(n, _)| self.rules.reserved_names.contains(&n.as_str())) {
            return Err(Fail::new(
                at,
                "properties",
                format!(
                    "a property named `{name}`: the grammar converter reads that key as one of its own and fails or drops it"
                ),
            ));
        }
        let mut props = Map::new();
        let mut forbidden: HashSet<&str> = HashSet::new();
        // Looked up once per property: sets, so that wide objects stay linear.
        let additional_declared: Vec<HashSet<&str>> =
            f.additional_declared.iter().map(|d| d.iter().map(String::as_str).collect()).collect();
        for (name, srcs) in &f.properties {
            // An `additionalProperties` schema applies to every key its own node
            // does not declare, even when another merged part declares it.
            let mut srcs = srcs.clone();
            for (a, declared) in f.additional.iter().zip(&additional_declared) {
                if !declared.contains(name.as_str()) {
                    srcs.push(a.clone());
                }
            }
            let srcs = &srcs;
            if let Some((_, p)) = srcs.iter().find(|(s, _)| **s == Value::Bool(false)) {
                if f.required.contains(name) {
                    return Err(Fail::empty(
                        p,
                        "properties",
                        "a required property whose schema is `false`: accepts no value",
                    ));
                }
                forbidden.insert(name.as_str());
                continue;
            }
            let here = srcs.first().map_or_else(|| at.to_owned(), |s| s.1.clone());
            let for_key = gathered.for_key(name);
            match self.property(srcs, &for_key, &here, (name, &f.required))? {
                Some(v) => {
                    props.insert(name.clone(), v);
                }
                None => {
                    forbidden.insert(name.as_str());
                }
            }
        }
        self.close_object(f, at, out, &gathered, props, &forbidden)
    }

    /// The rest of [`Self::objects`], once its properties are lowered: closing,
    /// default filling, maps. (Its own function, off the recursion through
    /// properties, so that each level of it keeps a small stack frame.)
    #[inline(never)]
    fn close_object(
        &mut self,
        f: &Facts<'d>,
        at: &str,
        out: &mut Map<String, Value>,
        gathered: &Gathered<'d>,
        mut props: Map<String, Value>,
        forbidden: &HashSet<&str>,
    ) -> Result<(), Fail> {
        let mut closed = f.closed_at.clone();
        let mut additional: &[Src<'d>] = &f.additional;
        if let Some(pp) = &f.pattern_properties {
            if self.rules.open_objects {
                self.widen(
                    pp,
                    "patternProperties",
                    Action::Dropped,
                    "not supported by the dialect: dropped, and the object left open to any other key (widening)",
                );
                closed = None;
                additional = &[];
            } else {
                return Err(Fail::new(pp, "patternProperties", "cannot be expressed in this dialect"));
            }
        }
        for (kw, v) in [("minProperties", &f.min_properties), ("maxProperties", &f.max_properties)] {
            if let Some((n, p)) = v {
                if self.rules.allows(kw) {
                    out.insert(kw.to_owned(), Value::from(*n));
                } else {
                    self.widen(p, kw, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
            }
        }
        let mut required: Vec<String> = f.required.clone();
        let mut is_required: HashSet<String> = required.iter().cloned().collect();
        if self.rules.fill_defaults && self.readings.fill {
            let filled: Vec<String> = props
                .keys()
                .filter(|k| !is_required.contains(*k) && gathered.fillable(self.doc, k).is_some())
                .cloned()
                .collect();
            if !filled.is_empty() {
                self.note(
                    at,
                    "required",
                    Action::Rewritten,
                    format!(
                        "{} sent required: each has a default its schema accepts, and an absent property means its default (the projection fills it in)",
                        filled.join(", ")
                    ),
                );
                is_required.extend(filled.iter().cloned());
                required.extend(filled);
            }
        }
        let optional = props.keys().filter(|k| !is_required.contains(*k)).count();
        if optional > self.rules.max_optional {
            return Err(Fail::new(
                at,
                "required",
                format!(
                    "{optional} optional properties: the grammar grows with every optional key, beyond {} it takes too long to build",
                    self.rules.max_optional
                ),
            ));
        }
        if let Some((cat, allowed)) = &closed {
            let allowed: HashSet<&str> = allowed.iter().map(String::as_str).collect();
            // Declared by another part or not, a key the closing part does not
            // declare is never valid: required, it leaves no object valid.
            if let Some(r) = required.iter().find(|r| !allowed.contains(r.as_str())) {
                return Err(Fail::empty(
                    at,
                    "required",
                    format!("`{r}` is required but the object forbids it: accepts no value"),
                ));
            }
            // A key one part declares but another part closes out is never valid:
            // it is left out (exact).
            let outside: Vec<String> = props.keys().filter(|k| !allowed.contains(k.as_str())).cloned().collect();
            if !outside.is_empty() {
                for k in &outside {
                    props.shift_remove(k);
                }
                self.note(
                    cat,
                    "additionalProperties",
                    Action::Rewritten,
                    format!(
                        "{} declared by one part but closed out by another: never valid, so not sent",
                        outside.join(", ")
                    ),
                );
            }
            if props.is_empty() && !self.rules.empty_objects {
                return Err(Fail::new(
                    at,
                    "properties",
                    "an object without properties cannot be expressed in this dialect",
                ));
            }
            if self.rules.open_objects {
                out.insert("properties".to_owned(), Value::Object(props));
                if !required.is_empty() {
                    out.insert("required".to_owned(), strings(&required));
                }
                out.insert("additionalProperties".to_owned(), Value::Bool(false));
            } else {
                finish_closed(out, props, &required);
            }
            return Ok(());
        }
        if !forbidden.is_empty()
            && (self.rules.open_objects || !additional.is_empty())
            && !self.closes_here(gathered, &props, forbidden)
        {
            let mut names: Vec<&str> = forbidden.iter().copied().collect();
            names.sort_unstable();
            self.widen(
                at,
                "properties",
                Action::Dropped,
                format!(
                    "{} must be absent (schema `false`), which an object open to other keys cannot say: not enforced (widening)",
                    names.join(", ")
                ),
            );
        }
        if !additional.is_empty() {
            if !self.rules.maps {
                return Err(Fail::new(
                    &additional[0].1,
                    "additionalProperties",
                    "a map (`additionalProperties` with a schema) cannot be expressed in this dialect",
                ));
            }
            let here = additional[0].1.clone();
            // Values that accept nothing leave only the declared keys: not said here.
            let v = self.location(additional, &undeclared(gathered), &here).map_err(Fail::not_empty)?;
            // A required key no node declares is held by the map's value schema.
            for r in &required {
                if !props.contains_key(r) {
                    props.insert(r.clone(), v.clone());
                }
            }
            out.insert("properties".to_owned(), Value::Object(props));
            if !required.is_empty() {
                out.insert("required".to_owned(), strings(&required));
            }
            out.insert("additionalProperties".to_owned(), v);
            return Ok(());
        }
        if self.rules.open_objects && !self.closes_here(gathered, &props, forbidden) {
            if !self.rules.open_with_properties && !props.is_empty() {
                // The converter cannot keep such an object open to every key
                // (it refuses undeclared keys that prefix declared names): the
                // object is sent open, without its properties.
                self.widen(
                    at,
                    "properties",
                    Action::Dropped,
                    "an open object with declared properties: sent as an object open to any key, without them (widening)",
                );
                out.insert("additionalProperties".to_owned(), Value::Bool(true));
                return Ok(());
            }
            add_missing_required(&mut props, &required);
            if !props.is_empty() || self.rules.empty_objects {
                out.insert("properties".to_owned(), Value::Object(props));
            }
            if !required.is_empty() {
                out.insert("required".to_owned(), strings(&required));
            }
            out.insert("additionalProperties".to_owned(), Value::Bool(true));
            return Ok(());
        }
        // The dialect closes every object: only a closable object may be sent, and
        // it must declare every key the projection keeps.
        if !self.readings.close {
            return Err(Fail::new(
                at,
                "additionalProperties",
                "an open object cannot be expressed in this dialect (closed-world projection is off)",
            ));
        }
        if !gathered.is_closable() {
            return Err(Fail::new(
                at,
                "additionalProperties",
                "an open object that is not closable (a map, a free-form object, or one that says more about undeclared keys) cannot be expressed in this dialect",
            ));
        }
        let missing: Vec<&str> =
            gathered.declared().into_iter().filter(|k| !props.contains_key(*k) && !forbidden.contains(k)).collect();
        if !missing.is_empty() {
            return Err(Fail::new(
                at,
                "properties",
                format!("keys declared elsewhere at this spot ({}) cannot all be expressed here", missing.join(", ")),
            ));
        }
        if props.is_empty() {
            return Err(Fail::new(
                at,
                "properties",
                "an object without properties cannot be expressed in this dialect",
            ));
        }
        self.note(
            at,
            "additionalProperties",
            Action::Rewritten,
            "open object closed to its declared properties (closed-world projection)",
        );
        finish_closed(out, props, &required);
        Ok(())
    }
}

/// What a pairs' `key` may say beside `type: "string"`: a string's own
/// keywords (no reference, no union, which strict subsets refuse beside `type`).
const KEY_WORDS: [&str; 9] =
    ["type", "pattern", "minLength", "maxLength", "format", "enum", "const", "title", "description"];

impl<'d> Lowerer<'_, 'd> {
    /// The pairs' `key`: a string, and what the map's `propertyNames` says of
    /// it where the dialect can state that (a key is a string: its other
    /// types never apply); else a plain string, `propertyNames` dropped.
    fn pair_key(&mut self, f: &Facts<'d>) -> Map<String, Value> {
        let string = |mut m: Map<String, Value>| {
            m.insert("type".to_owned(), Value::String("string".to_owned()));
            m
        };
        let Some((_, at)) = f.property_names.first() else { return string(Map::new()) };
        let mark = self.mark();
        // Read as a string (a `propertyNames` without `type` says nothing of
        // other values, and a key is never one), without the encodings.
        let encodings = std::mem::replace(&mut self.encodings, false);
        self.key_location = true;
        let key = self.location(&f.property_names, &[], at);
        (self.encodings, self.key_location) = (encodings, false);
        match key {
            Ok(Value::Object(m))
                if m.get("type").is_none_or(|t| t == "string") && m.keys().all(|k| KEY_WORDS.contains(&k.as_str())) =>
            {
                string(m)
            }
            _ => {
                self.rollback(mark);
                for (_, p) in &f.property_names {
                    let node = p.strip_suffix("/propertyNames").unwrap_or(p);
                    self.widen(node, "propertyNames", Action::Dropped, "cannot be expressed; dropped (widening)");
                }
                string(Map::new())
            }
        }
    }

    /// A map sent as an array of `{"key", "value"}` pairs (reshape): `decode`
    /// rebuilds the object, and a repeated key is a decode error.
    pub(super) fn pairs(
        &mut self,
        f: &Facts<'d>,
        pi: &[Src<'d>],
        at: &str,
        mut out: Map<String, Value>,
    ) -> Result<Value, Fail> {
        let gathered = closure::gather_with(self.doc, pi, &self.choices);
        let here = f.additional[0].1.clone();
        let value = self.location(&f.additional, &undeclared(&gathered), &here).map_err(Fail::not_empty)?;
        self.widen(
            at,
            "additionalProperties",
            Action::Rewritten,
            "reshape: a map, sent as an array of {\"key\", \"value\"} pairs; decode rebuilds the object and reports a repeated key (widening: the array may repeat a key)",
        );
        let mut props = Map::new();
        props.insert("key".to_owned(), Value::Object(self.pair_key(f)));
        props.insert("value".to_owned(), value);
        let mut item = Map::new();
        item.insert("type".to_owned(), Value::String("object".to_owned()));
        finish_closed(&mut item, props, &["key".to_owned(), "value".to_owned()]);
        out.insert("type".to_owned(), Value::String("array".to_owned()));
        out.insert("items".to_owned(), Value::Object(item));
        let counts =
            [("minProperties", "minItems", &f.min_properties), ("maxProperties", "maxItems", &f.max_properties)];
        for (from, to, v) in counts {
            if let Some((n, p)) = v {
                if self.rules.allows(to) {
                    out.insert(to.to_owned(), Value::from(*n));
                } else {
                    let why =
                        format!("sent as `{to}` of the pairs, which the dialect does not support: dropped (widening)");
                    self.widen(p, from, Action::Dropped, why);
                }
            }
        }
        out.insert(super::PAIRS.to_owned(), Value::Bool(true));
        Ok(Value::Object(out))
    }
}

impl<'d> Lowerer<'_, 'd> {
    /// A property's location. An optional property that accepts no value can
    /// only be absent, as if its schema were `false`: `None`, and the object
    /// still accepts values. (Its own function, so that `objects`' stack frame
    /// stays as small as it was.)
    #[inline(never)]
    fn property(
        &mut self,
        own: &[Src<'d>],
        pi: &[Src<'d>],
        at: &str,
        (name, required): (&str, &[String]),
    ) -> Result<Option<Value>, Fail> {
        let mark = self.mark();
        match self.location(own, pi, at) {
            Ok(v) => Ok(Some(v)),
            // `required` is only read here: a linear scan per property would
            // cost a large object quadratic time.
            Err(Fail(_, FailKind::Empty)) if !required.iter().any(|r| r == name) => {
                self.rollback(mark);
                self.absent(at);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    #[cold]
    fn absent(&mut self, at: &str) {
        self.note(
            at,
            "properties",
            Action::Rewritten,
            "an optional property whose schema accepts no value: it must be absent, as if its schema were `false`",
        );
    }

    /// A dialect that can keep objects open still closes a closable one when
    /// its rules prefer closed objects (engines that read openness badly).
    fn closes_here(
        &self,
        gathered: &closure::Gathered<'_>,
        props: &Map<String, Value>,
        forbidden: &HashSet<&str>,
    ) -> bool {
        self.rules.prefer_closed
            && self.readings.close
            && !props.is_empty()
            && gathered.is_closable()
            && gathered.declared().iter().all(|k| props.contains_key(*k) || forbidden.contains(k))
    }
}

fn finish_closed(out: &mut Map<String, Value>, props: Map<String, Value>, required: &[String]) {
    out.insert("properties".to_owned(), Value::Object(props));
    if !required.is_empty() {
        out.insert("required".to_owned(), strings(required));
    }
    out.insert("additionalProperties".to_owned(), Value::Bool(false));
}

fn add_missing_required(props: &mut Map<String, Value>, required: &[String]) {
    for r in required {
        if !props.contains_key(r) {
            props.insert(r.clone(), Value::Object(Map::new()));
        }
    }
}

fn undeclared<'a>(g: &Gathered<'a>) -> Vec<Src<'a>> {
    g.for_key("\u{0}schemacast: a key no schema declares")
}

fn strings(items: &[String]) -> Value {
    Value::Array(items.iter().map(|s| Value::String(s.clone())).collect())
}
