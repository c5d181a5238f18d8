//! The strict subset's size limits: counts of properties, `enum` values and
//! characters gathered while qualifying, and the nesting depth (following
//! `$ref`s; a cycle adds nothing), each checked against the profile's limit.

use super::Qualifier;
use crate::analysis::Doc;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

impl Qualifier<'_, '_> {
    pub(super) fn limits(&mut self, schema: &Value) {
        let r = self.rules;
        if self.properties > r.max_properties {
            self.fail(
                "",
                "properties",
                format!("{} properties exceed the strict limit of {}", self.properties, r.max_properties),
            );
        }
        if self.enum_values > r.max_enum_values {
            self.fail(
                "",
                "enum",
                format!("{} enum values exceed the strict limit of {}", self.enum_values, r.max_enum_values),
            );
        }
        if self.chars > r.max_total_chars {
            self.fail(
                "",
                "",
                format!(
                    "{} characters of property names, definition names, enum and const values exceed the strict limit of {}",
                    self.chars, r.max_total_chars
                ),
            );
        }
        let mut depth = Depth { doc: self.doc, memo: HashMap::new(), active: HashSet::new() };
        let d = depth.of(schema, 0);
        if d > r.max_depth {
            self.fail("", "", format!("{d} levels of nesting exceed the strict limit of {}", r.max_depth));
        }
    }
}

/// Nesting depth in object and array levels, following `$ref`s (a cycle adds nothing).
struct Depth<'a, 'd> {
    doc: &'a Doc<'d>,
    memo: HashMap<String, usize>,
    active: HashSet<String>,
}

impl Depth<'_, '_> {
    fn of(&mut self, schema: &Value, guard: usize) -> usize {
        let Value::Object(map) = schema else { return 0 };
        if guard > crate::vocab::MAX_DEPTH_CEILING {
            return 0;
        }
        if let Some(r) = map.get("$ref").and_then(Value::as_str) {
            if let Some(d) = self.memo.get(r) {
                return *d;
            }
            if self.active.contains(r) {
                return 0;
            }
            let Some((target, _)) = crate::pointer::resolve_fragment(self.doc.root, r) else { return 0 };
            self.active.insert(r.to_owned());
            let d = self.of(target, guard + 1);
            self.active.remove(r);
            self.memo.insert(r.to_owned(), d);
            return d;
        }
        let level = match map.get("type") {
            Some(Value::String(t)) => usize::from(t == "object" || t == "array"),
            Some(Value::Array(ts)) => usize::from(ts.iter().any(|t| t == "object" || t == "array")),
            _ => 0,
        };
        let mut deepest = 0;
        if let Some(Value::Object(props)) = map.get("properties") {
            for sub in props.values() {
                deepest = deepest.max(self.of(sub, guard + 1));
            }
        }
        if let Some(items) = map.get("items") {
            deepest = deepest.max(self.of(items, guard + 1));
        }
        if let Some(Value::Array(branches)) = map.get("anyOf") {
            for b in branches {
                deepest = deepest.max(self.of(b, guard + 1));
            }
        }
        level + deepest
    }
}
