use super::*;
use crate::profile::OPENAI_STRICT;
use serde_json::json;

#[track_caller]
fn check(schema: Value) -> Result<Value, Vec<String>> {
    let doc = Doc { root: &schema };
    match qualify(&doc, &schema, &OPENAI_STRICT, true) {
        Verdict::Qualifies { schema, .. } => Ok(schema),
        Verdict::Fails(notes) => Err(notes.iter().map(|n| format!("{}|{}", n.pointer, n.keyword)).collect()),
        Verdict::OverLimits => Err(vec!["over limits".to_owned()]),
    }
}

fn closed(props: Value) -> Value {
    let keys: Vec<String> = props.as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    json!({"type": "object", "properties": props, "required": keys, "additionalProperties": false})
}

#[test]
fn ok_flat_object_is_sent_unchanged() {
    let s = closed(json!({"b": {"type": "string"}, "a": {"type": ["integer", "null"]}}));
    assert_eq!(check(s.clone()), Ok(s));
}

#[test]
fn ok_annotations_removed_only() {
    let s = closed(json!({"c": {"type": "string", "enum": ["x"], "default": "x", "examples": ["x"]}}));
    let out = check(s).expect("qualifies");
    assert_eq!(out["properties"]["c"], json!({"type": "string", "enum": ["x"]}));
}

#[test]
fn ok_defs_recursion_and_anyof() {
    let s = json!({
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/N"}, "v": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["n", "v"], "additionalProperties": false,
        "$defs": {"N": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]}},
                         "required": ["next"], "additionalProperties": false}}
    });
    assert!(check(s).is_ok());
}

#[test]
fn ok_anchored_pattern_and_allowed_format() {
    let s = closed(json!({"p": {"type": "string", "pattern": "^[a-z]+$"}, "d": {"type": "string", "format": "date"}}));
    assert!(check(s).is_ok());
}

#[test]
fn err_each_rule_names_its_spot() {
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": [], "additionalProperties": false}),
            "|required",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}),
            "|additionalProperties",
        ),
        (json!({"type": "array", "items": {"type": "string"}}), "|type"),
        (json!({"anyOf": [closed(json!({"a": {"type": "string"}}))]}), "|anyOf"),
        (closed(json!({"a": {"type": "string", "minLength": 1}})), "/properties/a|minLength"),
        (closed(json!({"a": {"type": "string", "format": "uri"}})), "/properties/a|format"),
        (closed(json!({"a": {"type": "string", "pattern": "[0-9]"}})), "/properties/a|pattern"),
        (closed(json!({"a": {"type": ["string", "number"]}})), "/properties/a|type"),
        (closed(json!({"a": {"const": "x"}})), "/properties/a|type"),
        (closed(json!({"a": {"type": "string", "enum": ["x", 1]}})), "/properties/a|enum"),
        (closed(json!({"a": {"oneOf": [{"type": "string"}]}})), "/properties/a|oneOf"),
        (closed(json!({"a": {"type": "array"}})), "/properties/a|items"),
        (closed(json!({"a": {"type": "string", "minimum": 1}})), "/properties/a|minimum"),
        (closed(json!({"a": true})), "/properties/a|properties"),
        (closed(json!({"a": {"$ref": "#/$defs/A", "description": "d"}})), "/properties/a|$ref"),
        (closed(json!({"a": {"$ref": "#/properties/b"}, "b": {"type": "string"}})), "/properties/a/$ref|$ref"),
    ];
    for (schema, want) in cases {
        let got = check(schema.clone()).expect_err(&format!("must not qualify: {schema}"));
        assert!(got.iter().any(|g| g == want), "{schema}: wanted {want}, got {got:?}");
    }
}

#[test]
fn err_limits() {
    let props: serde_json::Map<String, Value> =
        (0..5001).map(|i| (format!("p{i}"), json!({"type": "boolean"}))).collect();
    assert!(check(closed(Value::Object(props))).unwrap_err().contains(&"|properties".to_owned()));
    let mut deep = closed(json!({"leaf": {"type": "string"}}));
    for _ in 0..10 {
        deep = closed(json!({"x": deep}));
    }
    assert!(check(deep).unwrap_err().iter().any(|n| n == "|"));
    let values: Vec<String> = (0..251).map(|i| format!("{i:0>60}")).collect();
    let big = closed(json!({"e": {"type": "string", "enum": values}}));
    assert!(check(big).unwrap_err().contains(&"/properties/e|enum".to_owned()));
}
