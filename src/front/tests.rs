//! The front end: each rewrite keeps the meaning the validator gives the source.

use super::*;
use serde_json::json;

fn docs(default_draft: Draft) -> Documents<'static> {
    Documents { resources: &[], base_uri: None, default_draft }
}

fn work(schema: &Value, draft: Draft) -> Result<Value, Error> {
    work_with(schema, draft, &[])
}

fn work_with(schema: &Value, draft: Draft, resources: &[(String, Value)]) -> Result<Value, Error> {
    let docs = Documents { resources, base_uri: None, default_draft: draft };
    normalize(schema, draft, docs).map(|w| w.root.into_owned())
}

/// Every instance agrees between the validator on the source and a 2020-12
/// validator on the working form.
#[track_caller]
fn same_meaning(schema: &Value, draft: Draft, instances: &[Value]) {
    let source = crate::preflight::build_validator(schema, &crate::preflight::Build::plain(draft)).expect("builds");
    let w = work(schema, draft).expect("normalizes");
    let working = crate::preflight::build_validator(&w, &crate::preflight::Build::plain(Draft::Draft202012))
        .expect("the working form builds");
    for x in instances {
        assert_eq!(source.is_valid(x), working.is_valid(x), "{x} under {schema} vs working form {w}");
    }
}

#[test]
fn ok_2020_12_is_its_own_working_form() {
    let s = json!({"$id": "https://x.test/s", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}});
    let w = normalize(&s, Draft::Draft202012, docs(Draft::Draft202012)).expect("ok");
    assert!(matches!(w.root, Cow::Borrowed(_)));
}

#[test]
fn ok_draft7_ref_siblings_are_dropped() {
    let s = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"a": {"type": "string"}},
        "properties": {"x": {"$ref": "#/definitions/a", "maxLength": 3}}});
    let w = work(&s, Draft::Draft7).expect("ok");
    assert_eq!(w["properties"]["x"], json!({"$ref": "#/definitions/a"}));
    same_meaning(&s, Draft::Draft7, &[json!({"x": "abcdef"}), json!({"x": 1})]);
    let root = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/S",
        "type": "object", "definitions": {"S": {"type": "string"}}});
    let w = work(&root, Draft::Draft7).expect("ok");
    assert_eq!(w.get("type"), None, "the root's sibling `type` is ignored: {w}");
    same_meaning(&root, Draft::Draft7, &[json!("s"), json!({})]);
}

#[test]
fn ok_draft4_exclusive_bounds_become_numbers() {
    let s = json!({"minimum": 1, "exclusiveMinimum": true, "maximum": 5, "exclusiveMaximum": false});
    let w = work(&s, Draft::Draft4).expect("ok");
    assert_eq!(w, json!({"exclusiveMinimum": 1, "maximum": 5}));
    same_meaning(&s, Draft::Draft4, &[json!(1), json!(1.5), json!(5), json!(6)]);
}

#[test]
fn ok_tuples_and_dependencies_take_2020_12_names() {
    let s = json!({"items": [{"type": "string"}], "additionalItems": {"type": "integer"},
        "dependencies": {"a": ["b"], "c": {"required": ["d"]}}});
    let w = work(&s, Draft::Draft7).expect("ok");
    assert_eq!(w["prefixItems"], json!([{"type": "string"}]));
    assert_eq!(w["items"], json!({"type": "integer"}));
    assert_eq!(w["dependentRequired"], json!({"a": ["b"]}));
    assert_eq!(w["dependentSchemas"], json!({"c": {"required": ["d"]}}));
    same_meaning(
        &s,
        Draft::Draft7,
        &[json!(["a", 1]), json!(["a", "b"]), json!({"a": 1}), json!({"a": 1, "b": 2}), json!({"c": 1})],
    );
}

#[test]
fn ok_unknown_keywords_of_the_draft_are_dropped() {
    let s = json!({"const": 1, "if": {"type": "string"}, "then": false, "prefixItems": [false]});
    let w = work(&s, Draft::Draft4).expect("ok");
    assert_eq!(w, json!({}));
    same_meaning(&s, Draft::Draft4, &[json!(2), json!("s"), json!([1])]);
}

#[test]
fn ok_anchors_resolve_in_schema_positions_only() {
    let s = json!({"x-a": {"$anchor": "t", "type": "integer"},
        "$defs": {"t": {"$anchor": "t", "type": "string"}},
        "properties": {"p": {"$ref": "#t"}}});
    let w = work(&s, Draft::Draft202012).expect("ok");
    assert_eq!(w["properties"]["p"], json!({"$ref": "#/$defs/t"}));
    same_meaning(&s, Draft::Draft202012, &[json!({"p": "s"}), json!({"p": 1})]);
}

#[test]
fn ok_ids_and_relative_references() {
    let s = json!({"$id": "https://x.test/root.json",
        "properties": {"a": {"$ref": "item.json"}, "b": {"$ref": "https://x.test/item.json#/properties/n"}},
        "$defs": {"i": {"$id": "item.json", "type": "object", "properties": {"n": {"type": "integer"}}}}});
    let w = work(&s, Draft::Draft202012).expect("ok");
    assert_eq!(w["properties"]["a"], json!({"$ref": "#/$defs/i"}));
    assert_eq!(w["properties"]["b"], json!({"$ref": "#/$defs/i/properties/n"}));
    same_meaning(
        &s,
        Draft::Draft202012,
        &[json!({"a": {"n": 1}, "b": 2}), json!({"a": {"n": "x"}}), json!({"b": "x"})],
    );
}

#[test]
fn ok_supplied_documents_are_bundled() {
    let base = json!({"definitions": {"path": {"type": "string", "pattern": "^/"}}});
    let s = json!({"properties": {"p": {"$ref": "base.json#/definitions/path"}, "q": {"$ref": "base.json#/definitions/path"}}});
    let w = work_with(&s, Draft::Draft7, &[("base.json".to_owned(), base)]).expect("ok");
    assert_eq!(w["properties"]["p"], w["properties"]["q"], "one target, bundled once: {w}");
    let r = w["properties"]["p"]["$ref"].as_str().expect("a reference");
    assert_eq!(
        crate::pointer::resolve_fragment(&w, r).map(|t| t.0.clone()),
        Some(json!({"type": "string", "pattern": "^/"}))
    );
}

#[test]
fn ok_recursive_and_dynamic_references() {
    let s = json!({"$recursiveAnchor": true, "type": "object", "properties": {"next": {"$recursiveRef": "#"}}});
    let w = work(&s, Draft::Draft201909).expect("ok");
    assert_eq!(w["properties"]["next"], json!({"$ref": "#"}));
    let d = json!({"$dynamicAnchor": "node", "type": "object", "properties": {"kids": {"items": {"$dynamicRef": "#node"}}}});
    let w = work(&d, Draft::Draft202012).expect("ok");
    assert_eq!(w["properties"]["kids"]["items"], json!({"$ref": "#"}));
}

#[test]
fn ok_source_pointers_follow_renames() {
    let s = json!({"items": [{"type": "string"}], "additionalItems": false});
    let w = normalize(&s, Draft::Draft7, docs(Draft::Draft7)).expect("ok");
    assert_eq!(w.source_pointer("/prefixItems/0/type"), "/items/0/type");
    assert_eq!(w.source_pointer("/items"), "/additionalItems");
    assert_eq!(w.source_pointer("/prefixItems"), "/items");
}

#[test]
fn ok_notes_name_keywords_as_the_caller_wrote_them() {
    use crate::note::{Action, Note};
    let s = json!({"properties": {"t": {"items": [{"type": "string"}], "additionalItems": false,
        "dependencies": {"a": ["b"], "c": {"required": ["d"]}}, "maxItems": 1}}});
    let w = normalize(&s, Draft::Draft7, docs(Draft::Draft7)).expect("ok");
    let mut notes: Vec<Note> = ["prefixItems", "items", "dependentRequired", "dependentSchemas", "maxItems"]
        .into_iter()
        .map(|k| Note::new("/properties/t", k, Action::Dropped, "r"))
        .collect();
    // A pointer into the node's subschema keeps its keyword (no rename there).
    notes.push(Note::new("/properties/t/prefixItems/0", "type", Action::Dropped, "r"));
    w.translate(&mut notes);
    let named: Vec<(&str, &str)> = notes.iter().map(|n| (n.pointer.as_str(), n.keyword.as_str())).collect();
    assert_eq!(
        named,
        [
            ("/properties/t", "items"),
            ("/properties/t", "additionalItems"),
            ("/properties/t", "dependencies"),
            ("/properties/t", "dependencies"),
            ("/properties/t", "maxItems"),
            ("/properties/t/items/0", "type"),
        ]
    );
}

#[test]
fn err_unresolvable_references_are_located() {
    let s = json!({"properties": {"a": {"$ref": "other.json#/x"}, "b": {"$ref": "#/$defs/none"}}});
    let e = work(&s, Draft::Draft202012).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    let at: Vec<&str> = e.problems().iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(at, ["/properties/a/$ref", "/properties/b/$ref"]);
    assert!(e.problems()[0].message.contains("not supplied"), "{}", e.problems()[0].message);
}

#[test]
fn ok_enum_keyed_maps_become_closed_objects_with_the_same_meaning() {
    let value = json!({"type": "number", "minimum": 0});
    let cases = [
        // Zod's `z.record(z.enum([…]), V)`: every key required.
        json!({"type": "object", "propertyNames": {"type": "string", "enum": ["p50", "p90"]},
               "additionalProperties": value, "required": ["p50", "p90"]}),
        // Pydantic's `dict[Literal[…], V]`, a declared key with its own schema, a `const` key.
        json!({"type": "object", "propertyNames": {"enum": ["p50", "p90", 7]}, "additionalProperties": value}),
        json!({"propertyNames": {"enum": ["p50", "p90"]}, "properties": {"p50": {"type": "string"}},
               "additionalProperties": value}),
        json!({"propertyNames": {"const": "p50", "title": "Key"}}),
        // Pydantic's `dict[SomeEnum, V]`: the keys listed by a referenced enum.
        json!({"$defs": {"K": {"enum": ["p50", "p90"], "type": "string", "title": "K"}},
               "propertyNames": {"$ref": "#/$defs/K"}, "additionalProperties": value}),
        // Nested: a map keyed by a list whose values are maps keyed by a list.
        json!({"propertyNames": {"enum": ["p50"]},
               "additionalProperties": {"propertyNames": {"enum": ["p90"]}, "additionalProperties": value}}),
    ];
    let instances = [
        json!({}),
        json!({"p50": 1}),
        json!({"p50": 1, "p90": 2}),
        json!({"p50": "x", "p90": 2}),
        json!({"p50": -1}),
        json!({"p99": 1}),
        json!({"p50": {"p90": 1}}),
        json!({"p50": {"p90": -1}}),
        json!({"p50": {"p99": 1}}),
        json!("p50"),
        json!(3),
    ];
    for s in &cases {
        let w = work(s, Draft::Draft202012).expect("normalizes");
        assert!(!w.to_string().contains("propertyNames"), "rewritten: {w}");
        same_meaning(s, Draft::Draft202012, &instances);
    }
    let w = work(&cases[2], Draft::Draft202012).expect("normalizes");
    assert_eq!(w["properties"], json!({"p50": {"type": "string"}, "p90": value}));
    assert_eq!(w["additionalProperties"], json!(false));

    // Left as maps: a pattern beside them, closed already, a declared key
    // outside the list, keys read otherwise, `unevaluatedProperties` in the
    // document; and draft 4, which has no `propertyNames`.
    for s in [
        json!({"propertyNames": {"enum": ["a"]}, "patternProperties": {"^a": {"type": "string"}}}),
        json!({"propertyNames": {"enum": ["a"]}, "additionalProperties": false, "properties": {"a": {}}}),
        json!({"propertyNames": {"enum": ["a"]}, "properties": {"b": {}}}),
        json!({"propertyNames": {"enum": ["a"], "maxLength": 3}}),
        json!({"propertyNames": {"pattern": "^a"}}),
        json!({"$defs": {"K": {"pattern": "^p"}}, "propertyNames": {"$ref": "#/$defs/K"}}),
        json!({"$defs": {"K": {"enum": [1, 2], "type": "integer"}}, "propertyNames": {"$ref": "#/$defs/K"}}),
        json!({"allOf": [{"propertyNames": {"enum": ["a"]}}], "unevaluatedProperties": false}),
    ] {
        let w = work(&s, Draft::Draft202012).expect("normalizes");
        assert!(w.to_string().contains("propertyNames"), "kept: {w}");
        same_meaning(&s, Draft::Draft202012, &instances);
    }
    let d4 = json!({"propertyNames": {"enum": ["a"]}, "additionalProperties": {"type": "integer"}});
    let w = work(&d4, Draft::Draft4).expect("normalizes");
    assert!(w.get("properties").is_none(), "draft 4 reads no `propertyNames`: {w}");
    same_meaning(&d4, Draft::Draft4, &[json!({"b": 1}), json!({"b": "x"})]);
}

#[test]
fn ok_enum_keyed_map_notes_point_into_the_source() {
    let s = json!({"$defs": {"M": {"propertyNames": {"enum": ["a", "b"]},
                   "additionalProperties": {"type": "integer", "multipleOf": 3}}},
                   "properties": {"m": {"$ref": "#/$defs/M"}}});
    let w = normalize(&s, Draft::Draft202012, docs(Draft::Draft202012)).expect("normalizes");
    assert_eq!(w.source_pointer("/$defs/M/properties/b/multipleOf"), "/$defs/M/additionalProperties/multipleOf");
    assert!(
        w.notes.iter().any(|n| n.pointer == "/$defs/M/propertyNames" && n.action == crate::note::Action::Rewritten)
    );
    let d7 = json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"M": {
                    "propertyNames": {"enum": ["a"]}, "additionalProperties": {"items": [{"type": "integer"}]}}},
                    "properties": {"m": {"$ref": "#/definitions/M"}}});
    let w = normalize(&d7, Draft::Draft7, docs(Draft::Draft7)).expect("normalizes");
    let at = w.root.pointer("/properties/m/$ref").and_then(Value::as_str).expect("a reference").trim_start_matches('#');
    let copy = format!("{at}/properties/a/prefixItems/0");
    assert!(w.root.pointer(&copy).is_some(), "{}", w.root);
    assert_eq!(w.source_pointer(&copy), "/definitions/M/additionalProperties/items/0");
}

#[test]
fn ok_a_universal_pattern_reads_as_every_key() {
    let value = json!({"type": "string", "maxLength": 3});
    let cases = [
        // Effect's pattern-keyed `Record`: `""` matches every name.
        json!({"type": "object", "required": [], "properties": {}, "patternProperties": {"": value},
               "propertyNames": {"pattern": "^x-"}}),
        json!({"patternProperties": {"^.*": value}, "additionalProperties": false}),
        json!({"patternProperties": {"(?:.*)": value}, "additionalProperties": {"type": "integer"}}),
        json!({"patternProperties": {"^[\\s\\S]*$": value}}),
        // Then listed keys close it, as for any map.
        json!({"patternProperties": {".*": value}, "propertyNames": {"enum": ["a", "b"]}}),
    ];
    let instances = [
        json!({}),
        json!({"x-a": "abc"}),
        json!({"x-a": "abcd"}),
        json!({"a": "ab", "b": 1}),
        json!({"a\nb": "ab"}),
        json!({"a\nb": 7}),
        json!({"y": "ab"}),
        json!([1]),
    ];
    for s in &cases {
        let w = work(s, Draft::Draft202012).expect("normalizes");
        assert!(!w.to_string().contains("patternProperties"), "rewritten: {w}");
        same_meaning(s, Draft::Draft202012, &instances);
    }
    assert_eq!(work(&cases[1], Draft::Draft202012).expect("normalizes")["additionalProperties"], value);
    let w = normalize(&cases[0], Draft::Draft202012, docs(Draft::Draft202012)).expect("normalizes");
    assert!(w.notes.iter().any(|n| n.pointer == "/patternProperties" && n.keyword == "patternProperties"));

    // Left alone: a pattern `.` cannot cross a line break in (TypeBox's
    // `^(.*)$`), an anchored or a real pattern, two patterns, a declared
    // property (it must match both), `unevaluatedProperties` in the document.
    for s in [
        json!({"patternProperties": {"^(.*)$": value}}),
        json!({"patternProperties": {"^$": value}}),
        json!({"patternProperties": {"^x-": value}}),
        json!({"patternProperties": {"": value, "^x-": {"minLength": 2}}}),
        json!({"properties": {"a": {}}, "patternProperties": {"": value}}),
        json!({"allOf": [{"patternProperties": {"": value}}], "unevaluatedProperties": false}),
    ] {
        let w = work(&s, Draft::Draft202012).expect("normalizes");
        assert!(w.to_string().contains("patternProperties"), "kept: {w}");
        same_meaning(&s, Draft::Draft202012, &instances);
    }
}

#[test]
fn ok_a_map_a_reference_lands_inside_is_left_alone() {
    // A reference to the map's value schema (or its key schema) would land on
    // `false`, or on nothing, once the map is read as a closed object or its
    // pattern as `additionalProperties`.
    let listed = json!({"properties": {"m": {"propertyNames": {"enum": ["a"]},
        "additionalProperties": {"type": "integer"}}, "n": {"$ref": "#/properties/m/additionalProperties"}}});
    let universal = json!({"properties": {"m": {"patternProperties": {"": {"type": "integer"}}},
        "n": {"$ref": "#/properties/m/patternProperties/"}}});
    let instances = [json!({"n": 5}), json!({"n": "x"}), json!({"m": {"a": 1}, "n": 2}), json!({"m": {"b": 1}})];
    for (s, kept) in [(listed, "propertyNames"), (universal, "patternProperties")] {
        let w = work(&s, Draft::Draft202012).expect("normalizes");
        assert!(w["properties"]["m"].get(kept).is_some(), "left alone: {w}");
        same_meaning(&s, Draft::Draft202012, &instances);
    }
    // A reference to the map itself keeps the rewrite (the node means the same).
    let to_map = json!({"properties": {"m": {"patternProperties": {".*": {"type": "integer"}}},
        "n": {"$ref": "#/properties/m"}}});
    let w = work(&to_map, Draft::Draft202012).expect("normalizes");
    assert!(w["properties"]["m"].get("patternProperties").is_none(), "rewritten: {w}");
    same_meaning(&to_map, Draft::Draft202012, &instances);
}
