//! CLI tests of the commands that read answers and schemas from files:
//! `decode` (whole and `--stream`), `validate`, reshape round trips,
//! resources between files, the draft flag, the projection switches and
//! format assertion.

use super::{cli, schema_file};
use serde_json::Value;

#[test]
fn ok_decode_and_validate() {
    let (dir, schema) =
        schema_file("cli", r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#);
    let ok = r#"{"message":{"role":"assistant","content":"{\"n\": 2}"},"done_reason":"stop"}"#;
    let o = cli(&["decode", "--provider", "ollama", "--schema", &schema, "-"], ok);
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({"n": 2}));
    assert!(o.err.contains("finish_reason: stop"));
    let bad = r#"{"choices":[{"message":{"content":"{\"n\": \"two\"}"},"finish_reason":"stop"}]}"#;
    let o = cli(&["decode", "-p", "openai", "--schema", &schema, "-"], bad);
    assert_eq!(o.code, 1);
    assert!(o.err.contains("schema_violation") && o.err.contains("at /n:"), "{}", o.err);
    assert_eq!(cli(&["decode", "-p", "openai", "-"], bad).code, 2, "--schema is required");

    let instance = dir.join("instance.json");
    std::fs::write(&instance, r#"{"n": 1.5}"#).expect("write");
    let o = cli(&["validate", &schema, &instance.to_string_lossy()], "");
    assert_eq!(o.code, 1);
    assert!(o.err.contains("at /n:"), "{}", o.err);
    std::fs::write(&instance, r#"{"n": 1}"#).expect("write");
    let o = cli(&["validate", &schema, &instance.to_string_lossy()], "");
    assert_eq!((o.code, o.out.trim()), (0, "valid"));
    let _ = std::fs::remove_dir_all(&dir);

    // A schema without `$schema` read as draft 4, as `decode --draft 4` reads it.
    let (dir, schema) = schema_file("validate-draft", r#"{"type": "integer", "maximum": 5, "exclusiveMaximum": true}"#);
    let o = cli(&["validate", "--draft", "4", &schema, "-"], "5");
    assert_eq!(o.code, 1, "{}{}", o.out, o.err);
    assert!(o.err.contains("schema_violation"), "{}", o.err);
    let o = cli(&["validate", "--draft", "4", &schema, "-"], "4");
    assert_eq!((o.code, o.out.trim()), (0, "valid"), "{}", o.err);
    let o = cli(&["validate", &schema, "-"], "5");
    assert_ne!(o.out.trim(), "valid", "2020-12 has no boolean `exclusiveMaximum`: {}", o.err);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ok_reshape_round_trip() {
    let schema = r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}"#;
    let plain = cli(&["emit", "-p", "openai", "-"], schema);
    assert_eq!(serde_json::from_str::<Value>(&plain.out).expect("JSON")["enforcement"], "json");
    let o = cli(&["emit", "-p", "openai", "--reshape", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["enforcement"], "exact");
    let sent = &v["body"]["response_format"]["json_schema"]["schema"];
    assert_eq!(sent["required"], serde_json::json!(["a", "b"]));
    assert_eq!(sent["properties"]["b"], serde_json::json!({"anyOf": [{"type": "integer"}, {"type": "null"}]}));
    assert!(o.out.contains("reshape: optional b sent required and nullable"), "the output says which rewrites applied");

    let (dir, path) = schema_file("reshape", schema);
    let response = r#"{"choices":[{"message":{"content":"{\"a\":\"x\",\"b\":null}"},"finish_reason":"stop"}]}"#;
    let o = cli(&["decode", "-p", "openai", "--reshape", "--schema", &path, "-"], response);
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({"a": "x"}));
    let o = cli(&["decode", "-p", "openai", "--schema", &path, "-"], response);
    assert_eq!(o.code, 1, "without --reshape the null is a violation");

    let array = r#"{"type":"array","items":{"type":"string"}}"#;
    let o = cli(&["emit", "-p", "claude", "--reshape", "--body", "-"], array);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["tools"][0]["input_schema"]["properties"]["value"]["type"], "array");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ok_decode_stream_prints_partials_then_the_answer() {
    let (dir, schema) = schema_file(
        "cli-stream",
        r#"{"type":"object","properties":{"n":{"type":"integer"},"s":{"enum":["ab","cd"]}}}"#,
    );
    let chunk = |content: &str| {
        let e = serde_json::json!({"choices": [{"index": 0, "delta": {"content": content}}]});
        format!("data: {e}\n\n")
    };
    let done = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
    let transcript = [chunk("{\"s\": \"a"), chunk("b\", \"n\": 4"), chunk("2}"), done.to_owned()].concat();
    let o = cli(&["decode", "--stream", "-p", "groq", "--schema", &schema, "-"], &transcript);
    assert_eq!(o.code, 0, "{}", o.err);
    let lines: Vec<&str> = o.out.lines().collect();
    assert_eq!(lines, [r#"{"s":"a"}"#, r#"{"s":"ab"}"#, r#"{"s":"ab","n":42}"#, r#"{"s":"ab","n":42}"#]);
    assert!(o.err.contains("finish_reason: stop"), "{}", o.err);

    // NDJSON (Ollama), and an enum no member of which starts with "x": said early, failed at the end.
    let ndjson = "{\"message\":{\"content\":\"{\\\"s\\\": \\\"x\"},\"done\":false}\n{\"message\":{\"content\":\"\\\"}\"},\"done\":true,\"done_reason\":\"stop\"}\n";
    let o = cli(&["decode", "--stream", "-p", "ollama", "--schema", &schema, "-"], ndjson);
    assert_eq!(o.code, 1);
    assert!(
        o.err.starts_with("early error: schema_violation: at /s: no `enum` or `const` value starts with \"x\""),
        "{}",
        o.err
    );
    assert!(o.err.contains("error: schema_violation"), "{}", o.err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Files saved with a byte order mark (Windows PowerShell's `Out-File` writes
/// one): a schema, a response, a resource and a streamed transcript.
#[test]
fn ok_byte_order_marks_are_skipped() {
    const BOM: &str = "\u{feff}";
    let schema =
        r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}"#;
    let (dir, path) = schema_file("cli-bom", &format!("{BOM}{schema}"));
    let o = cli(&["emit", "-p", "openai", &path], "");
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON")["enforcement"], "exact");
    let o = cli(&["emit", "-p", "openai", "-"], &format!("{BOM}{schema}"));
    assert_eq!(o.code, 0, "standard input too: {}", o.err);

    let response = r#"{"choices":[{"message":{"content":"{\"n\": 2}"},"finish_reason":"stop"}]}"#;
    let o = cli(&["decode", "-p", "openai", "--schema", &path, "-"], &format!("{BOM}{response}"));
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({"n": 2}));
    let e = serde_json::json!({"choices": [{"index": 0, "delta": {"content": "{\"n\": 2}"}, "finish_reason": "stop"}]});
    let o = cli(&["decode", "--stream", "-p", "openai", "--schema", &path, "-"], &format!("{BOM}data: {e}\n\n"));
    assert_eq!((o.code, o.out.lines().last()), (0, Some(r#"{"n":2}"#)), "{}", o.err);

    let resource = dir.join("common.json");
    std::fs::write(&resource, format!("{BOM}{{\"$id\": \"https://example.com/n\", \"type\": \"integer\"}}"))
        .expect("write");
    let uses = r#"{"type":"object","properties":{"n":{"$ref":"https://example.com/n"}},"required":["n"]}"#;
    let o = cli(&["emit", "-p", "ollama", "--resource", &resource.to_string_lossy(), "-"], uses);
    assert_eq!(o.code, 0, "{}", o.err);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ok_resources_between_files_of_one_folder() {
    let doc = "fixtures/resources/documents/common.json";
    let root = "fixtures/resources/relative-reference.json";
    let o = cli(&["emit", "-p", "gemini", "--resource", doc, root], "");
    assert_eq!(o.code, 0, "{}", o.err);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    let home = &v["body"]["generationConfig"]["responseSchema"]["properties"]["home"];
    assert_eq!(home["type"], "STRING", "the referenced document is inlined: {}", v["body"]);
    assert!(!v["body"].to_string().contains("file://"), "no URI reaches the provider: {}", v["body"]);
    let notes = v["notes"].to_string();
    assert!(
        notes.contains("documents/common.json#/definitions/path/pattern"),
        "notes point into the document: {notes}"
    );
    let by_id = cli(
        &[
            "emit",
            "-p",
            "openai",
            "--resource",
            "fixtures/resources/documents/money.json",
            "fixtures/resources/reference-by-id.json",
        ],
        "",
    );
    assert_eq!(by_id.code, 0, "registered under its `$id` too: {}", by_id.err);
    let missing = cli(&["emit", "-p", "openai", root], "");
    assert_eq!(missing.code, 1);
    assert!(missing.err.contains("not supplied"), "{}", missing.err);
}

#[test]
fn err_resource_not_json() {
    let o = cli(&["emit", "-p", "openai", "--resource", "README.md", "fixtures/resources/relative-reference.json"], "");
    assert_eq!(o.code, 1, "{}", o.err);
    assert!(o.err.contains("invalid_json") && o.err.contains("README.md"), "{}", o.err);
    let o = cli(&["emit", "-p", "openai", "--resource", "no-such-file.json", "-"], "{}");
    assert_eq!(o.code, 2, "{}", o.err);
}

#[test]
fn ok_draft_flag_reads_schemas_without_schema_uri() {
    let tuple = r#"{"type": "array", "items": [{"type": "string"}], "additionalItems": false}"#;
    let o = cli(&["emit", "-p", "vllm", "--draft", "7", "-"], tuple);
    assert_eq!(o.code, 0, "{}", o.err);
    let o = cli(&["emit", "-p", "vllm", "-"], tuple);
    assert_eq!(o.code, 1, "an `items` array is not a 2020-12 schema: {}", o.err);
    let o = cli(&["emit", "-p", "vllm", "--draft", "5", "-"], tuple);
    assert_eq!(o.code, 2, "{}", o.err);
}

#[test]
fn ok_projection_switches() {
    let tagged = r#"{"type": "object", "properties": {"pet": {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "cat"}, "meows": {"type": "boolean"}}, "required": ["kind", "meows"]},
        {"type": "object", "properties": {"kind": {"const": "dog"}, "barks": {"type": "boolean"}}, "required": ["kind", "barks"]}]},
        "n": {"type": "integer", "default": 1}}, "required": ["pet"], "additionalProperties": false}"#;
    let on = cli(&["emit", "-p", "openai", "-"], tagged);
    let v: Value = serde_json::from_str(&on.out).expect("JSON");
    assert_eq!(v["enforcement"], "exact", "{}", on.out);
    let required = &v["body"]["response_format"]["json_schema"]["schema"]["required"];
    assert_eq!(required, &serde_json::json!(["pet", "n"]), "the defaulted `n` is sent required");
    let off = cli(&["emit", "-p", "openai", "--no-default-filling", "-"], tagged);
    let v: Value = serde_json::from_str(&off.out).expect("JSON");
    assert_eq!(v["enforcement"], "json", "without filling, `n` stays optional: {}", off.out);
    let off = cli(
        &["emit", "-p", "openai", "--no-union-closing", "-"],
        r#"{"type": "object", "properties": {"pet": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}]}}, "required": ["pet"]}"#,
    );
    let v: Value = serde_json::from_str(&off.out).expect("JSON");
    assert_eq!(v["enforcement"], "json", "each branch would need the other's keys: {}", off.out);
}

#[test]
fn ok_no_format_assertion_reads_format_as_an_annotation() {
    let schema = r#"{"type": "object", "properties": {"at": {"type": "string", "format": "time"}},
        "required": ["at"], "additionalProperties": false}"#;
    let on = cli(&["emit", "-p", "openai", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&on.out).expect("JSON");
    assert_eq!(v["response_format"]["json_schema"]["schema"]["properties"]["at"]["format"], "time", "{}", on.out);
    let off = cli(&["emit", "-p", "openai", "--no-format-assertion", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&off.out).expect("JSON");
    assert_eq!(
        v["response_format"]["json_schema"]["schema"]["properties"]["at"],
        serde_json::json!({"type": "string"})
    );

    let (dir, path) = schema_file("format", schema);
    // A naive time, as Pydantic writes `datetime.time`: RFC 3339 wants an offset.
    let response = r#"{"choices":[{"message":{"content":"{\"at\":\"18:30:00\"}"},"finish_reason":"stop"}]}"#;
    let o = cli(&["decode", "-p", "openai", "--schema", &path, "-"], response);
    assert_eq!(o.code, 1, "`format` asserted: {}", o.out);
    let o = cli(&["decode", "-p", "openai", "--no-format-assertion", "--schema", &path, "-"], response);
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({"at": "18:30:00"}));
    // `validate` reads it the same way.
    let o = cli(&["validate", &path, "-"], r#"{"at": "18:30:00"}"#);
    assert_eq!(o.code, 1, "{}", o.out);
    let o = cli(&["validate", "--no-format-assertion", &path, "-"], r#"{"at": "18:30:00"}"#);
    assert_eq!((o.code, o.out.trim()), (0, "valid"), "{}", o.err);
    let _ = std::fs::remove_dir_all(&dir);
}
