use super::*;
use serde_json::json;

fn run(schema: Value) -> Result<Vec<Note>, Error> {
    check(&schema, &Options::new(crate::Provider::OpenAi)).map(|c| c.notes)
}

#[test]
fn ok_drafts_and_booleans() {
    assert!(run(json!(true)).is_ok());
    assert!(run(json!(false)).is_ok());
    assert!(run(json!({"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}]})).is_ok());
    assert!(run(json!({"definitions": {"a": {"type": "string"}}, "$ref": "#/definitions/a"})).is_ok());
    let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": true});
    assert!(run(d4).is_ok());
    let d6 = json!({"$schema": "http://json-schema.org/draft-06/schema#", "const": 1, "if": 3});
    let notes = run(d6).expect("`if` is unknown in draft 6: an annotation");
    assert!(notes.iter().any(|n| n.keyword == "if"), "{notes:?}");
}

#[test]
fn ok_unknown_keywords_are_notes() {
    let notes = run(json!({"type": "object", "x-a": 1, "discriminator": {"propertyName": "k"},
        "properties": {"b": {"_format": "m", "examples": ["x"], "deprecated": true}}}))
    .expect("ok");
    let at: Vec<(&str, &str)> = notes.iter().map(|n| (n.pointer.as_str(), n.keyword.as_str())).collect();
    assert_eq!(at, [("", "x-a"), ("/properties/b", "_format")], "generator annotations are known");
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
    let e = run(json!({"properties": {"a": {"$ref": "other.json"}, "b": {"$ref": "#/$defs/missing"}}})).unwrap_err();
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
    let d4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "exclusiveMinimum": 3});
    let e = run(d4).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidSchema);
    assert!(e.problems().iter().any(|p| p.pointer == "/exclusiveMinimum"), "a boolean in draft 4: {e}");
}

#[test]
fn err_boolean_bound_says_how_to_read_it_as_draft_4() {
    // Zod's `target: "openapi-3.0"`: no `$schema`, so read as 2020-12.
    let openapi = json!({"type": "object", "properties": {"age": {"type": "integer", "maximum": 130,
        "exclusiveMaximum": true}, "n": {"minimum": "0"}}});
    let e = run(openapi.clone()).unwrap_err();
    let hint = |p: &Problem| p.message.contains("--draft 4");
    let at: Vec<(&str, bool)> = e.problems().iter().map(|p| (p.pointer.as_str(), hint(p))).collect();
    assert_eq!(at, [("/properties/age/exclusiveMaximum", true), ("/properties/n/minimum", false)]);
    let d4 = Options::new(crate::Provider::OpenAi).with_default_draft(Draft::Draft4);
    let e = check(&openapi, &d4).map(|_| ()).unwrap_err();
    assert_eq!(e.problems().len(), 1, "only the string minimum is wrong in draft 4: {e}");
    assert!(!hint(&e.problems()[0]));
}

#[test]
fn err_openapi_meta_schema_says_what_it_is() {
    // schemars' `SchemaSettings::openapi3()` writes this `$schema`.
    let oas = json!({"$schema": "https://spec.openapis.org/oas/3.0/schema/2024-10-18#/definitions/Schema",
        "type": "object", "properties": {"a": {"type": "string", "nullable": true}}});
    let e = run(oas).unwrap_err();
    assert_eq!((e.kind(), e.pointer()), (ErrorKind::Unsupported, "/$schema"));
    assert!(e.to_string().contains("OpenAPI 3.0 Schema Object"), "{e}");
    // Other meta-schemas, OpenAPI 3.1's dialect (2020-12 with annotations) among them,
    // get no such hint.
    for uri in ["https://example.com/my-meta", "https://spec.openapis.org/oas/3.1/dialect/base"] {
        let other = run(json!({"$schema": uri})).unwrap_err();
        assert_eq!(other.kind(), ErrorKind::Unsupported);
        assert!(!other.to_string().contains("OpenAPI 3.0"), "only OpenAPI 3.0 gets the hint: {other}");
    }
}

#[test]
fn err_bad_resources() {
    let schema = json!({"$ref": "defs.json"});
    let base = Options::new(crate::Provider::OpenAi);
    let e = check(&schema, &base.clone().with_resource("defs.json", json!(5))).unwrap_err();
    assert_eq!((e.kind(), e.pointer()), (ErrorKind::InvalidSchema, "defs.json#"));
    let two = base.clone().with_resource("defs.json", json!({})).with_resource("json-schema:///defs.json", json!({}));
    assert_eq!(check(&schema, &two).unwrap_err().kind(), ErrorKind::InvalidOption);
    let broken = base.with_resource("defs.json", json!({"type": 7}));
    let e = check(&schema, &broken).unwrap_err();
    assert_eq!((e.kind(), e.pointer()), (ErrorKind::InvalidSchema, "defs.json#/type"));
}

/// Found by `cargo fuzz run emit`: a property named `$schemacast:bark` reached
/// Ollama's body, and the passes that remove internal markers would have taken
/// it out of a strict body (with `additionalProperties: false`, a narrowing).
#[test]
fn err_reserved_marker_prefix() {
    let e = run(
        json!({"type": "object", "properties": {"kind": {"const": "dog"}, "$schemacast:bark": {"type": "string"}}}),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(e.pointer(), "/properties/$schemacast:bark");
    let e = run(json!({"enum": ["a", "$schemacast:json"]})).unwrap_err();
    assert_eq!(e.pointer(), "/enum/1");
    // A marker-like text inside a string is fine.
    assert!(run(json!({"description": "see $schemacast:json", "type": "string"})).is_ok());
}

#[test]
fn err_array_items_says_how_to_read_it_as_draft_7() {
    // TypeBox's `Type.Tuple`: draft-07's tuple form, and no `$schema`.
    let tuple = json!({"type": "object", "properties": {"at": {"type": "array", "items": [{"type": "number"},
        {"type": "number"}], "additionalItems": false, "minItems": 2, "maxItems": 2}, "n": {"maxItems": -1}}});
    let e = run(tuple.clone()).unwrap_err();
    let hint = |p: &Problem| p.message.contains("--draft 7");
    let at: Vec<(&str, bool)> = e.problems().iter().map(|p| (p.pointer.as_str(), hint(p))).collect();
    assert!(at.contains(&("/properties/at/items", true)), "{at:?}");
    assert!(at.iter().all(|(p, h)| *h == p.ends_with("/items")), "only the array `items` gets the hint: {at:?}");
    only_problem_under(&tuple, &[Draft::Draft7, Draft::Draft201909], "/properties/n/maxItems");
}

/// Read as each of `drafts`, `schema`'s only problem is at `pointer`.
#[track_caller]
fn only_problem_under(schema: &Value, drafts: &[Draft], pointer: &str) {
    for draft in drafts {
        let opts = Options::new(crate::Provider::OpenAi).with_default_draft(*draft);
        let e = check(schema, &opts).map(|_| ()).unwrap_err();
        let at: Vec<&str> = e.problems().iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(at, [pointer], "read as {draft:?}");
    }
}

#[test]
fn err_anchor_id_says_how_to_read_it_as_draft_7() {
    // Ajv's and Fastify's schemas name a definition with `"$id": "#name"`
    // (draft 7's anchor) and write no `$schema`.
    let named = json!({"type": "object", "definitions": {"address": {"$id": "#address", "type": "object"},
        "plain": {"$id": "https://example.com/plain", "type": "string"}},
        "properties": {"home": {"$ref": "#address"}, "n": {"minLength": "x"}}});
    let e = run(named.clone()).unwrap_err();
    let at: Vec<(&str, bool)> =
        e.problems().iter().map(|p| (p.pointer.as_str(), p.message.contains("--draft 7"))).collect();
    assert!(at.contains(&("/definitions/address/$id", true)), "{at:?}");
    assert!(at.iter().all(|(p, h)| *h == p.ends_with("/$id")), "only the anchor `$id` gets the hint: {at:?}");
    only_problem_under(&named, &[Draft::Draft6, Draft::Draft7], "/properties/n/minLength");
}

#[test]
fn err_unencoded_reference_says_how_to_write_it() {
    // typescript-json-schema names a generic type's definition as the type reads
    // and refers to it unencoded; the percent-encoded reference compiles.
    let raw = json!({"$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"Record<string,string>": {"type": "object", "additionalProperties": {"type": "string"}},
            "Pair [a]": {"type": "string"}},
        "type": "object", "properties": {"env": {"$ref": "#/definitions/Record<string,string>"},
            "pair": {"$ref": "#/definitions/Pair [a]"}, "n": {"minLength": "x"}}});
    let e = run(raw.clone()).unwrap_err();
    let hints: Vec<(&str, Option<&str>)> =
        e.problems().iter().map(|p| (p.pointer.as_str(), p.message.split("percent-encodes").nth(1))).collect();
    assert!(
        hints.iter().any(|(p, h)| *p == "/properties/env/$ref"
            && h.is_some_and(|h| h.contains("\"#/definitions/Record%3Cstring,string%3E\""))),
        "{hints:?}"
    );
    assert!(
        hints
            .iter()
            .any(|(p, h)| *p == "/properties/pair/$ref"
                && h.is_some_and(|h| h.contains("\"#/definitions/Pair%20%5Ba%5D\""))),
        "{hints:?}"
    );
    assert!(hints.iter().all(|(p, h)| h.is_some() == p.ends_with("/$ref")), "only references get the hint: {hints:?}");
    // Written as the hint says, the references resolve and only the real problem is left.
    let mut encoded = raw.clone();
    encoded["properties"]["env"]["$ref"] = json!("#/definitions/Record%3Cstring,string%3E");
    encoded["properties"]["pair"]["$ref"] = json!("#/definitions/Pair%20%5Ba%5D");
    only_problem_under(&encoded, &[Draft::Draft7], "/properties/n/minLength");
}

#[test]
fn err_a_name_in_id_says_what_to_do() {
    // griptape writes its tool's name there; percent-encoded, it is a URI reference.
    let named = json!({"$schema": "http://json-schema.org/draft-07/schema#", "$id": "CrmTool ToolAction Schema",
        "type": "object", "properties": {"n": {"minLength": "x"}, "d": {"$id": "urn:example:d"}, "$id": "a b"}});
    let e = run(named.clone()).unwrap_err();
    let at: Vec<(&str, bool)> =
        e.problems().iter().map(|p| (p.pointer.as_str(), p.message.contains("move the name to `title`"))).collect();
    assert!(at.contains(&("/$id", true)), "{at:?}");
    assert!(at.iter().all(|(p, h)| *h == (*p == "/$id")), "only the named `$id` gets the hint: {at:?}");
    let mut encoded = named;
    encoded["$id"] = json!("CrmTool%20ToolAction%20Schema");
    encoded["properties"]["$id"] = json!({"type": "string"});
    only_problem_under(&encoded, &[Draft::Draft7], "/properties/n/minLength");
}

#[test]
fn err_python_anchors_in_a_pattern_say_what_to_write() {
    let hinted = |s: Value| {
        let e = run(s).unwrap_err();
        e.problems().iter().map(|p| (p.pointer.clone(), p.message.contains("write `^` and `$`"))).collect::<Vec<_>>()
    };
    // poetry-core writes `\A…\Z`, as Python's `re` reads it.
    let python = json!({"properties": {"d": {"type": "string", "pattern": "\\A[^\\n]*\\Z"}}});
    assert_eq!(hinted(python.clone()), [("/properties/d/pattern".to_owned(), true)]);
    // Found by the meta-schema's `format: regex` (draft 4) or when the validator is built (2020-12).
    let mut draft4 = python;
    draft4["$schema"] = json!("http://json-schema.org/draft-04/schema#");
    assert_eq!(hinted(draft4), [("/properties/d/pattern".to_owned(), true)]);
    // A `patternProperties` key in Python's dialect is hinted at the key, and
    // not at a problem inside its schema.
    let keyed = json!({"patternProperties": {"\\Ax\\Z": {"minLength": "x"}}});
    assert!(!super::hints::foreign_regex(&keyed, "/patternProperties/\\Ax\\Z").is_empty());
    assert!(super::hints::foreign_regex(&keyed, "/patternProperties/\\Ax\\Z/minLength").is_empty());
    // Another broken pattern gets no such hint.
    let broken = json!({"properties": {"d": {"type": "string", "pattern": "([a-z"}}});
    assert_eq!(hinted(broken), [("/properties/d/pattern".to_owned(), false)]);
}
