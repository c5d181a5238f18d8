//! CLI tests through `run`, with captured streams.

use super::{Io, run};
use serde_json::Value;

mod answers;

struct Outcome {
    code: i32,
    out: String,
    err: String,
}

fn cli(args: &[&str], stdin: &str) -> Outcome {
    // Nothing piped in reads as a terminal, as an interactive run would.
    cli_with_terminal(args, stdin, stdin.is_empty())
}

/// [`cli`] with standard input a terminal or not as `stdin_terminal` says
/// (`< /dev/null` is empty but no terminal).
fn cli_with_terminal(args: &[&str], stdin: &str, stdin_terminal: bool) -> Outcome {
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    let mut input = stdin.as_bytes();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = {
        let mut io = Io { stdin: &mut input, out: &mut out, err: &mut err, stdin_terminal };
        run(&args, &mut io)
    };
    Outcome { code, out: String::from_utf8(out).unwrap_or_default(), err: String::from_utf8(err).unwrap_or_default() }
}

/// A fresh folder for one test (`tag` keeps tests apart), holding `schema`
/// as `schema.json`: the folder, to remove at the end, and the file's path.
fn schema_file(tag: &str, schema: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("schemacast-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("schema.json");
    std::fs::write(&path, schema).expect("write");
    (dir, path.to_string_lossy().into_owned())
}

#[test]
fn ok_emit_bundled_example() {
    let o = cli(&["emit", "--provider", "openai"], "");
    assert_eq!(o.code, 0, "{}", o.err);
    let v: Value = serde_json::from_str(&o.out).expect("one JSON object");
    assert_eq!(v["provider"], "openai");
    assert_eq!(v["mode"], "schema");
    assert_eq!(v["enforcement"], "exact");
    assert_eq!(v["body"]["response_format"]["json_schema"]["schema"]["title"], "ticket_triage");
    assert!(o.err.contains("quickstart.json"), "says which schema it used: {}", o.err);
    let keys: Vec<&str> = v.as_object().map(|m| m.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(keys, ["provider", "mode", "enforcement", "body", "headers", "notes"]);
}

#[test]
fn ok_emit_body_only_from_stdin() {
    let o = cli(&["emit", "-p", "mistral", "--mode", "json", "--body", "-"], r#"{"type":"object"}"#);
    assert_eq!(o.code, 0);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v, serde_json::json!({"response_format": {"type": "json_object"}}));
}

#[test]
fn ok_emit_name_option() {
    let o = cli(&["emit", "-p", "openai", "--name=triage"], "");
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["body"]["response_format"]["json_schema"]["name"], "triage");
}

#[test]
fn err_emit_bad_name_is_located_error() {
    let o = cli(&["emit", "-p", "openai", "--name", "has space"], "");
    assert_eq!(o.code, 1);
    assert!(o.err.contains("invalid_option"), "{}", o.err);
}

#[test]
fn err_emit_usage() {
    assert_eq!(cli(&["emit"], "").code, 2);
    assert_eq!(cli(&["emit", "-p", "nope"], "").code, 2);
    assert_eq!(cli(&["emit", "-p", "openai", "--frobnicate"], "").code, 2);
    assert_eq!(cli(&["emit", "-p", "openai", "/nonexistent/schema.json"], "").code, 2);
    assert_eq!(cli(&["frobnicate"], "").code, 2);
    assert_eq!(cli(&[], "").code, 2);
}

#[test]
fn err_emit_schema_problem_goes_to_stderr() {
    let o = cli(&["emit", "-p", "openai", "-"], r#"{"type": 5}"#);
    assert_eq!(o.code, 1);
    assert!(o.out.is_empty());
    assert!(o.err.contains("at /type:"), "{}", o.err);
}

#[test]
fn ok_lines_one_output_per_input_and_continues() {
    let input = "{\"type\":\"object\"}\nnot json\n\n{\"type\":\"strng\"}\n{\"enum\":[1]}\n";
    let o = cli(&["emit", "-p", "openrouter", "--lines", "-"], input);
    assert_eq!(o.code, 1, "a failed line makes the run fail");
    let lines: Vec<Value> = o.out.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["enforcement"], "json");
    assert_eq!(lines[1]["error"]["kind"], "invalid_json");
    assert_eq!(lines[2]["error"]["kind"], "invalid_json");
    assert_eq!(lines[3]["error"]["kind"], "invalid_schema");
    assert_eq!(lines[3]["error"]["pointer"], "/type");
    assert_eq!(lines[4]["enforcement"], "prompt");
}

#[test]
fn ok_lines_thousands_of_schemas() {
    let fixtures = [
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#,
        r#"{"type":"array","items":{"type":"integer"}}"#,
        r#"{"type":"object","additionalProperties":{"type":"number"}}"#,
    ];
    let input: String = (0..3000).map(|i| format!("{}\n", fixtures[i % 3])).collect();
    let o = cli(&["emit", "-p", "openai", "--lines", "-"], &input);
    assert_eq!(o.code, 0, "{}", o.err);
    let enforcement: Vec<String> = o
        .out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON")["enforcement"].as_str().unwrap_or("?").to_owned())
        .collect();
    assert_eq!(enforcement.len(), 3000);
    assert_eq!(enforcement[..3], ["exact", "prompt", "json"]);
    assert_eq!(enforcement[2997..], ["exact", "prompt", "json"]);
}

#[test]
fn ok_check_clean_and_notes() {
    let o = cli(&["check", "-"], r#"{"type":"object","x-ui":1}"#);
    assert_eq!(o.code, 0);
    assert!(o.out.contains("note: (root): `x-ui` ignored"), "{}", o.out);
    assert!(o.out.contains("ok:"));
}

#[test]
fn err_check_lists_every_problem() {
    let o = cli(&["check", "-"], r#"{"properties":{"a":{"$ref":"https://x/a"},"b":{"$ref":"https://x/b"}}}"#);
    assert_eq!(o.code, 1);
    assert!(o.out.contains("/properties/a/$ref") && o.out.contains("/properties/b/$ref"), "{}", o.out);
    let o = cli(&["check", "--deny-unknown-keywords", "-"], r#"{"requried":["a"]}"#);
    assert_eq!(o.code, 1);
    assert!(o.out.contains("/requried"), "{}", o.out);
}

#[test]
fn ok_gemini_dialects_and_closed_world_flag() {
    let schema = r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#;
    let o = cli(&["emit", "-p", "gemini", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["generationConfig"]["responseSchema"]["type"], "OBJECT");
    let o = cli(&["emit", "-p", "gemini", "--gemini-dialect", "json-schema", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["generationConfig"]["responseJsonSchema"]["additionalProperties"], true);
    let o = cli(&["emit", "-p", "gemini", "--no-closed-world", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["enforcement"], "json", "an open object cannot be closed without the projection");
    assert_eq!(cli(&["emit", "-p", "gemini", "--gemini-dialect", "yaml", "-"], schema).code, 2);
}

#[test]
fn ok_claude_json_tool_flag() {
    let o = cli(&["emit", "-p", "claude", "--mode", "json", "--body", "-"], r#"{"type":"object"}"#);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({}));
    let o = cli(
        &["emit", "-p", "anthropic", "--mode", "json", "--claude-json-tool", "--body", "-"],
        r#"{"type":"object"}"#,
    );
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["tools"][0]["input_schema"], serde_json::json!({"type": "object"}));
    assert_eq!(v["tool_choice"]["name"], "emit_structured_output");
    let o =
        cli(&["emit", "-p", "claude", "--mode", "json", "--claude-json-tool", "--body", "-"], r#"{"type":"array"}"#);
    assert_eq!(serde_json::from_str::<Value>(&o.out).expect("JSON"), serde_json::json!({}), "never for non-objects");
}

#[test]
fn ok_claude_thinking_flag_offers_the_tool() {
    let schema =
        r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}"#;
    let o = cli(&["emit", "-p", "claude", "--claude-mechanism", "strict-tool", "--claude-thinking", "-"], schema);
    assert_eq!(o.code, 0);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["body"]["tool_choice"], serde_json::json!({"type": "auto"}));
    assert_eq!(v["enforcement"], "prompt");
    let o = cli(&["emit", "-p", "bedrock", "--claude-mechanism", "tool", "--claude-thinking", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["toolConfig"]["toolChoice"], serde_json::json!({"auto": {}}));
}

#[test]
fn ok_explain_adds_native_schema() {
    let o = cli(
        &["emit", "-p", "gemini", "--explain", "-"],
        r#"{"type":"object","additionalProperties":{"type":"integer"}}"#,
    );
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["native_schema"], serde_json::json!({"type": "object"}));
    let o = cli(&["emit", "-p", "openai", "--explain", "-"], r#"{"type":"array"}"#);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["native_schema"], Value::Null, "nothing native");
}

#[test]
fn ok_providers_prints_the_table() {
    let o = cli(&["providers"], "");
    assert_eq!(o.code, 0);
    let rows: Vec<&str> = o.out.lines().collect();
    assert_eq!(rows.len(), schemacast::Provider::ALL.len() + 2, "header, rule, one row per provider");
    for p in schemacast::Provider::ALL {
        assert!(o.out.contains(&format!("| `{}`", p.name())), "{p:?} has a row");
    }
    assert!(rows.iter().all(|r| r.starts_with('|') && r.ends_with('|')));
}

#[test]
fn ok_readme_provider_table_is_generated() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let start = readme.find("<!-- providers:start -->\n").expect("start marker") + "<!-- providers:start -->\n".len();
    let end = readme.find("\n<!-- providers:end -->").expect("end marker");
    assert_eq!(
        &readme[start..end],
        super::providers_table(),
        "the README's provider table differs from `schemacast providers`: paste its output between the markers"
    );
}

#[test]
fn ok_claude_mechanism_flag() {
    let schema = r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#;
    let o = cli(&["emit", "-p", "claude", "--claude-mechanism", "output-format-beta", "-"], schema);
    assert_eq!(o.code, 0, "{}", o.err);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    assert_eq!(v["body"]["output_format"]["type"], "json_schema");
    assert_eq!(v["headers"]["anthropic-beta"], "structured-outputs-2025-11-13");
    assert_eq!(v["enforcement"], "exact");
    let o = cli(&["emit", "-p", "bedrock", "--body", "-"], schema);
    let v: Value = serde_json::from_str(&o.out).expect("JSON");
    let sent =
        v.pointer("/outputConfig/textFormat/structure/jsonSchema/schema").and_then(Value::as_str).expect("string");
    let parsed: Value = serde_json::from_str(sent).expect("the schema travels as a JSON string");
    assert_eq!(parsed["additionalProperties"], false);
    let o = cli(&["emit", "-p", "claude", "--claude-mechanism", "strict", "-"], schema);
    assert_eq!(o.code, 2);
    assert!(o.err.contains("unknown Claude mechanism"), "{}", o.err);
}

#[test]
fn ok_bench_prints_its_columns() {
    let dir = std::env::temp_dir().join(format!("schemacast-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let plain = dir.join("plain.json");
    std::fs::write(&plain, r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#)
        .expect("write");
    // A JSON-Schema-Test-Suite file: its valid instances are the answers to decode.
    let suite = dir.join("suite.json");
    std::fs::write(
        &suite,
        r#"[{"description":"d","schema":{"type":"array","items":{"type":"integer"}},
            "tests":[{"description":"ok","data":[1,2],"valid":true},{"description":"no","data":["x"],"valid":false}]}]"#,
    )
    .expect("write");
    let (plain, suite) = (plain.to_string_lossy().into_owned(), suite.to_string_lossy().into_owned());
    let o = cli(&["bench", "--rounds", "1", "--provider", "gemini", &plain, &suite], "");
    assert_eq!(o.code, 0, "{}", o.err);
    assert!(o.out.contains("files: 2 schemas"), "{}", o.out);
    assert!(o.out.contains("provider         mode       schemas/s    ns/schema"), "{}", o.out);
    assert!(o.out.contains("peak RSS"), "{}", o.out);
    let tables = o.out.split("\nscaling:").next().unwrap_or_default();
    let rows: Vec<&str> = tables.lines().filter(|l| l.starts_with("gemini ")).collect();
    assert_eq!(rows.len(), 4, "one row per mode, one for decode: {}", o.out);
    assert!(rows.iter().take(3).all(|r| r.contains("x clone")), "{}", o.out);
    assert!(o.out.contains("files: 1 valid answers"), "{}", o.out);
    assert!(rows[3].contains("x parse"), "{}", o.out);
    assert!(o.out.contains("slowest emission:"), "{}", o.out);
    assert!(o.out.contains("scaling: emission time per unit"), "{}", o.out);
    for unit in ["properties", "enum members", "definitions", "anyOf branches"] {
        let row = o.out.lines().find(|l| l.starts_with("gemini ") && l.contains(unit));
        let row = row.unwrap_or_else(|| panic!("a gemini {unit} row: {}", o.out));
        assert!(row.trim_end().ends_with('x'), "two sizes and the growth: {row}");
    }
    assert!(o.err.is_empty(), "every valid answer decodes: {}", o.err);
    let o = cli(&["bench", "--stream", "--rounds", "1", "--provider", "ollama"], "");
    assert_eq!(o.code, 0, "{}", o.err);
    let row = o.out.lines().find(|l| l.starts_with("ollama")).unwrap_or_else(|| panic!("an ollama row: {}", o.out));
    assert_eq!(
        row.split_whitespace().count(),
        12,
        "provider, events, four times, four ratios, peak and its unit: {row}"
    );
    assert!(o.out.contains("largest net ratio"), "{}", o.out);
    assert!(o.out.contains("largest text ratio"), "{}", o.out);
    assert!(o.out.contains("scaling (ollama)"), "{}", o.out);
    for shape in ["records", "long enum string", "map members", "nested arrays"] {
        let row = o.out.lines().find(|l| l.starts_with(shape)).unwrap_or_else(|| panic!("a {shape} row: {}", o.out));
        let figures: Vec<&str> = row[shape.len()..].split_whitespace().collect();
        assert!(figures.len() == 3 && figures[2].ends_with('x'), "two sizes and the growth: {row}");
    }
    assert_eq!(cli(&["bench", "--rounds", "0"], "").code, 2);
    assert_eq!(cli(&["bench", "/nonexistent/schema.json"], "").code, 2);
    assert_eq!(cli(&["emit", "-p", "openai", "a", "b", "c"], "").code, 2, "only bench takes many files");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ok_piped_schema_is_read_without_file() {
    let schema = r#"{"type": "object", "properties": {"piped": {"type": "string"}}, "required": ["piped"]}"#;
    let o = cli(&["emit", "-p", "openai", "--body"], schema);
    assert_eq!(o.code, 0, "{}", o.err);
    assert!(o.out.contains("piped"), "the piped schema, not the bundled example: {}", o.out);
    assert!(!o.err.contains("bundled"), "{}", o.err);
    let o = cli(&["emit", "-p", "gemini", "--lines", "--body"], "{\"type\": \"string\"}\n{\"type\": \"integer\"}\n");
    assert_eq!(o.code, 0, "{}", o.err);
    assert_eq!(o.out.lines().count(), 2, "{}", o.out);
    assert!(o.out.contains("INTEGER"), "{}", o.out);
    let o = cli(&["check"], r#"{"type": "strin"}"#);
    assert_eq!(o.code, 1, "the piped schema is checked: {}", o.out);
    // Standard input that is not a terminal but empty (`< /dev/null`): the example too.
    let o = cli_with_terminal(&["emit", "-p", "openai"], "", false);
    assert_eq!(o.code, 0, "{}", o.err);
    assert!(o.err.contains("bundled"), "{}", o.err);
    // Nothing piped (a terminal): emit compiles the example, --lines and check need FILE.
    let o = cli(&["emit", "-p", "openai"], "");
    assert!(o.code == 0 && o.err.contains("bundled"), "{}", o.err);
    assert_eq!(cli(&["emit", "-p", "openai", "--lines"], "").code, 2);
    assert_eq!(cli(&["check"], "").code, 2);
}

#[test]
fn ok_help_per_subcommand_and_suggestions() {
    let o = cli(&["--help"], "");
    assert_eq!(o.code, 0, "{}", o.err);
    for sub in ["emit", "check", "decode", "validate", "coverage", "bench", "providers", "completions"] {
        assert!(o.out.contains(sub), "{sub} is listed: {}", o.out);
        let h = cli(&[sub, "--help"], "");
        assert_eq!(h.code, 0, "{sub}: {}", h.err);
        assert!(h.out.contains(&format!("Usage: schemacast {sub}")), "{sub}: {}", h.out);
    }
    assert!(cli(&["decode", "--help"], "").out.contains("--stream"));
    let o = cli(&["emit", "-p", "openai", "--bodyy"], "");
    assert_eq!(o.code, 2);
    assert!(o.err.contains("--body"), "a similar flag is suggested: {}", o.err);
    let o = cli(&["emit", "-p", "gemni"], "");
    assert_eq!(o.code, 2);
    assert!(o.err.contains("did you mean `gemini`?"), "{}", o.err);
    let o = cli(&["emt"], "");
    assert_eq!(o.code, 2);
    assert!(o.err.contains("emit"), "a similar subcommand is suggested: {}", o.err);
    assert_eq!(cli(&[], "").code, 2, "no subcommand: usage on stderr");
    let v = cli(&["--version"], "");
    assert!(v.code == 0 && v.out.contains(env!("CARGO_PKG_VERSION")), "{}", v.out);
}

#[test]
fn ok_completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = cli(&["completions", shell], "");
        assert_eq!(o.code, 0, "{shell}: {}", o.err);
        assert!(o.out.contains("schemacast") && o.out.contains("provider"), "{shell}: {}", o.out);
    }
    assert_eq!(cli(&["completions", "tcsh"], "").code, 2);
}

#[test]
fn ok_coverage_for_one_provider_lists_what_stops_each_schema() {
    let o = cli(&["coverage", "-p", "openai", "fixtures/apps"], "");
    assert_eq!(o.code, 0, "{}", o.err);
    let rows: Vec<&str> = o.out.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| provider")).collect();
    assert_eq!(rows.len(), 1, "one provider's row: {}", o.out);
    assert!(rows[0].starts_with("| openai |"));
    // A map stops it, and reshape would send it.
    let map = "- fixtures/apps/pydantic-knowledge-graph.json: json (native with `--reshape`)\n  - /properties/aliases/additionalProperties: a map";
    assert!(o.out.contains(map), "{}", o.out);
    // A root that is not an object: nothing native, and reshape wraps it.
    assert!(
        o.out.contains("- fixtures/apps/gemini-docs-recipe-list.json: prompt (native with `--reshape`)"),
        "{}",
        o.out
    );
    // A schema sent strict is not listed.
    assert!(!o.out.contains("openai-docs-ui-generation.json"), "{}", o.out);
    let listed = o.out.lines().filter(|l| l.starts_with("- ")).count();
    assert!(o.out.contains(&format!("not sent a native schema ({listed} of 60)")), "{}", o.out);
    // With reshape, every one is sent natively: no list.
    let o = cli(&["coverage", "-p", "openai", "--reshape", "fixtures/apps"], "");
    assert!(!o.out.contains("not sent a native schema"), "{}", o.out);
}
