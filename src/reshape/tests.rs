//! Each rewrite's inverse undoes it exactly, and the markers never reach the provider.

use super::*;
use serde_json::json;

/// Forward then inverse, branch choices made by validators of the stripped schema.
#[track_caller]
fn round_trip(ann: &Value, x: &Value) -> Value {
    let sent = crate::lower::strip(ann);
    let map = jsonschema::options().offline().build_map(&sent).expect("the sent schema builds");
    let accepts = |at: &str, y: &Value| map.get(&format!("#{at}")).is_some_and(|v| v.is_valid(y));
    let y = forward(x, ann, &accepts).expect("a sent form");
    let whole = jsonschema::options().offline().build(&sent).expect("builds");
    assert!(whole.is_valid(&y), "the sent form {y} is valid under the sent schema {sent}");
    inverse(y, ann, &accepts).expect("decodes")
}

fn optional_object() -> Value {
    let mut ann = json!({"type": "object", "properties": {
        "a": {"type": "string"},
        "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "c": {"type": "boolean"}}, "required": ["c"], "additionalProperties": false});
    optionals(&mut ann, &mut Vec::new());
    ann
}

#[test]
fn ok_optionals_round_trip() {
    let ann = optional_object();
    assert_eq!(ann["required"], json!(["a", "b", "c"]));
    assert!(ann["properties"]["b"].get(PRESENT).is_some(), "b accepts null: a presence wrapper");
    for x in
        [json!({"c": true}), json!({"c": true, "a": "x"}), json!({"c": false, "b": null}), json!({"c": true, "b": 3})]
    {
        assert_eq!(round_trip(&ann, &x), x);
    }
}

#[test]
fn ok_pairs_json_text_and_wrap_round_trip() {
    let ann = json!({"type": "object", "properties": {
        "m": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"},
              "value": {"type": "integer"}}, "required": ["key", "value"], "additionalProperties": false},
              "$schemacast:pairs": true},
        "any": {"type": "string", "$schemacast:json": true}},
        "required": ["m", "any"], "additionalProperties": false});
    let x = json!({"m": {"x": 1, "y \"q\"": 2}, "any": {"deep": [1, "two", null, {"k": "a\nb"}]}});
    assert_eq!(round_trip(&ann, &x), x);
    let wrapped =
        wrap(json!({"type": "array", "items": {"type": "string", "$schemacast:json": true}}), &mut Vec::new());
    let x = json!([{"a": 1}, [2], "s"]);
    assert_eq!(round_trip(&wrapped, &x), x);
}

#[test]
fn ok_references_are_followed() {
    let mut ann = json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "required": ["root"],
        "additionalProperties": false,
        "$defs": {"Node": {"type": "object", "properties": {"name": {"type": "string"},
            "meta": {"type": "string", "$schemacast:json": true},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["name", "kids"], "additionalProperties": false}}});
    optionals(&mut ann, &mut Vec::new());
    let x = json!({"root": {"name": "a", "kids": [{"name": "b", "kids": [], "meta": {"x": 1}}]}});
    assert_eq!(round_trip(&ann, &x), x);
}

#[test]
fn ok_union_branches_with_markers() {
    let ann = json!({"type": "object", "properties": {"v": {"anyOf": [
        {"type": "object", "properties": {"kind": {"type": "string", "enum": ["map"]},
            "m": {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"},
                  "value": {"type": "string"}}, "required": ["key", "value"], "additionalProperties": false},
                  "$schemacast:pairs": true}}, "required": ["kind", "m"], "additionalProperties": false},
        {"type": "object", "properties": {"kind": {"type": "string", "enum": ["raw"]},
            "m": {"type": "string", "$schemacast:json": true}}, "required": ["kind", "m"], "additionalProperties": false}]}},
        "required": ["v"], "additionalProperties": false});
    for x in [json!({"v": {"kind": "map", "m": {"a": "b"}}}), json!({"v": {"kind": "raw", "m": [1, 2]}})] {
        assert_eq!(round_trip(&ann, &x), x);
    }
}

#[test]
fn err_repeated_keys_and_bad_json_text() {
    let ann = json!({"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"},
        "value": {"type": "string", "$schemacast:json": true}}}, "$schemacast:pairs": true});
    let never = |_: &str, _: &Value| false;
    let twice = json!([{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]);
    let e = inverse(twice, &ann, &never).unwrap_err();
    assert_eq!(e, InverseError::RepeatedKey { pointer: "/1".into(), key: "a".into() });
    let bad = json!([{"key": "a", "value": "{not json"}]);
    match inverse(bad, &ann, &never).unwrap_err() {
        InverseError::NotJson { text, message } => {
            assert_eq!(text, "{not json");
            assert!(message.contains("at /a"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn ok_admits_null_reads_keywords_and_references() {
    let root = json!({"$defs": {"N": {"type": ["string", "null"]}, "S": {"type": "string"}}});
    for (node, expected) in [
        (json!({}), true),
        (json!(true), true),
        (json!(false), false),
        (json!({"type": "string", "minLength": 2}), false),
        (json!({"type": ["string", "null"], "maxLength": 1}), true),
        (json!({"enum": ["a", null]}), true),
        (json!({"type": "string", "enum": ["a"]}), false),
        (json!({"const": null}), true),
        (json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}), true),
        (json!({"anyOf": [{"type": "integer"}, {"type": "boolean"}]}), false),
        (json!({"$ref": "#/$defs/N"}), true),
        (json!({"$ref": "#/$defs/S"}), false),
    ] {
        assert_eq!(admits_null(&node, &root, 0), expected, "{node}");
    }
}

#[test]
fn ok_ambiguous_unions_become_json_text() {
    // A pairs branch beside a plain array branch: `[]` would mean both.
    let union = json!({"anyOf": [
        {"type": "array", "items": {"type": "integer"}},
        {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"},
            "value": {"type": "integer"}}, "required": ["key", "value"], "additionalProperties": false},
            "$schemacast:pairs": true}]});
    let mut ann = json!({"type": "object", "properties": {"m": union.clone()}, "required": ["m"]});
    assert_eq!(disambiguate(&mut ann, &mut Vec::new()), Ok(true));
    assert_eq!(ann["properties"]["m"], json!({"type": "string", "$schemacast:json": true}));
    // At the root, the whole answer would be one string: not sent at all.
    let mut root = union;
    let why = disambiguate(&mut root, &mut Vec::new()).expect_err("a root union is never sent as JSON text");
    assert_eq!((why.pointer.as_str(), why.keyword.as_str()), ("", "anyOf"));
    assert!(root["anyOf"].is_array(), "left as it was");
    // Issue 14's case: an optional's `null` against a branch whose key is `null`.
    let mut ann = json!({"type": "object", "properties": {"x": {"anyOf": [
        {"type": "object", "properties": {"p": {"type": "string"}}, "additionalProperties": false},
        {"type": "object", "properties": {"p": {"type": "null"}}, "required": ["p"], "additionalProperties": false}]}},
        "required": ["x"], "additionalProperties": false});
    optionals(&mut ann, &mut Vec::new());
    assert_eq!(disambiguate(&mut ann, &mut Vec::new()), Ok(true));
    let x = json!({"x": {"p": null}});
    assert_eq!(round_trip(&ann, &x), x);
    assert_eq!(round_trip(&ann, &json!({"x": {}})), json!({"x": {}}));
    // Tagged branches stay as they are.
    let mut tagged = json!({"anyOf": [
        {"type": "object", "properties": {"k": {"enum": ["a"]}, "m": {"type": "string", "$schemacast:json": true}},
         "required": ["k", "m"]},
        {"type": "object", "properties": {"k": {"enum": ["b"]}}, "required": ["k"]}]});
    assert_eq!(disambiguate(&mut tagged, &mut Vec::new()), Ok(false));
}

#[test]
fn ok_alternatives_that_differ_only_in_required_members_undo_alike() {
    // `oneOf: [{"required": ["email"]}, {"required": ["phone"]}]` reshaped: each
    // branch sends the other's member as `anyOf: [string, null]`. A value both
    // accept has both members non-null, and either branch undoes it alike.
    let mut ann = json!({"anyOf": [
        {"type": "object", "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
         "required": ["email"], "additionalProperties": false},
        {"type": "object", "properties": {"email": {"type": "string"}, "phone": {"type": "string"}},
         "required": ["phone"], "additionalProperties": false}]});
    optionals(&mut ann, &mut Vec::new());
    assert_eq!(disambiguate(&mut ann, &mut Vec::new()), Ok(false), "sent as it is: {ann}");
    for v in [json!({"email": "a"}), json!({"phone": "b"}), json!({"email": "a", "phone": "b"})] {
        assert_eq!(round_trip(&ann, &v), v);
    }
    // A member whose schema takes `null` goes behind a presence wrapper where
    // it is optional; where it is required it goes as `{"value": …}` too, so
    // that `null` means absent in every branch and the branches undo alike.
    let reshaped = || {
        let mut ann = json!({"anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": ["string", "null"]}},
             "required": ["a"], "additionalProperties": false},
            {"type": "object", "properties": {"a": {"type": "string"}, "n": {"type": ["string", "null"]}},
             "required": ["n"], "additionalProperties": false}]});
        optionals(&mut ann, &mut Vec::new());
        ann
    };
    let mut ann = reshaped();
    let mut notes = Vec::new();
    assert_eq!(disambiguate(&mut ann, &mut notes), Ok(false), "sent as a union: {ann}");
    assert!(notes.iter().any(|n| n.reason.contains("n, required in some branches")), "{notes:?}");
    assert_eq!(ann.pointer("/anyOf/1/properties/n/required"), Some(&json!(["value"])), "{ann}");
    for v in [
        json!({"a": "x"}),
        json!({"n": null}),
        json!({"n": "y"}),
        json!({"a": "x", "n": null}),
        json!({"a": "x", "n": "y"}),
    ] {
        assert_eq!(round_trip(&ann, &v), v);
    }
    // Without the rewrite, `{"a": "x", "n": null}` as sent for the first
    // branch (`"n": null`, absent) reads as `{"a": "x", "n": null}` in the
    // second: proved ambiguous, so the rewrite is needed.
    let plain = reshaped();
    let Value::Object(m) = &plain else { unreachable!() };
    assert!(super::unions::ambiguous(m, &plain));
}

#[test]
fn ok_unions_of_option_tuples_undo_element_by_element() {
    // ESLint's rule options: `["always"]` or `["always", {…}]`, the object's
    // members optional. Both branches accept `["always"]` and `[]`, and undo
    // them alike: element by element, the same enum, and the object only one
    // of them can hold at that position.
    let choice = json!({"type": "string", "enum": ["always", "never"]});
    let options = json!({"type": "object", "properties": {"max": {"type": "integer"}}, "additionalProperties": false});
    // As dialects without `prefixItems` send tuples: a union of the element
    // types, bounded; and as those with it send them.
    let spread = json!({"anyOf": [
        {"type": "array", "items": choice, "maxItems": 1},
        {"type": "array", "items": {"anyOf": [choice, options]}, "maxItems": 2}]});
    let positional = json!({"anyOf": [
        {"type": "array", "prefixItems": [choice], "items": false},
        {"type": "array", "prefixItems": [choice, options], "items": false}]});
    for union in [spread, positional] {
        let mut ann = union.clone();
        optionals(&mut ann, &mut Vec::new());
        assert_eq!(disambiguate(&mut ann, &mut Vec::new()), Ok(false), "sent as it is: {ann}");
        for v in [json!([]), json!(["always"]), json!(["never", {}]), json!(["never", {"max": 3}])] {
            assert_eq!(round_trip(&ann, &v), v);
        }
    }
    // Where one branch leaves an element as it is and the other undoes it, a
    // value both accept could come back two ways: still refused at the root.
    let refused = [
        // an open object beside one whose optional member is sent or-null: `[{"max": null}]`
        json!({"anyOf": [
            {"type": "array", "items": options},
            {"type": "array", "items": {"type": "object"}}]}),
        // a second position one tuple says nothing of (any value), the other rewrites
        json!({"anyOf": [
            {"type": "array", "prefixItems": [choice]},
            {"type": "array", "prefixItems": [choice, options], "items": false}]}),
        // JSON text beside a plain string
        json!({"anyOf": [
            {"type": "array", "items": {"type": "string", "$schemacast:json": true}},
            {"type": "array", "items": {"type": "string"}}]}),
    ];
    for union in refused {
        let mut ann = union.clone();
        optionals(&mut ann, &mut Vec::new());
        assert!(disambiguate(&mut ann, &mut Vec::new()).is_err(), "{ann}");
    }
}
