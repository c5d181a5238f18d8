//! Stream decoder cases, one class each: reshape inverses during a stream,
//! refusals, repeated names, escaped member names, and the early errors.

use super::{every_cut, run};
use crate::Provider;
use serde_json::{Value, json};

#[test]
fn ok_reshaped_unions_are_undone_when_complete() {
    // Optional members inside union branches come back as `null` and are dropped;
    // the branch is known only once the value is complete.
    let schema = json!({"type": "object", "properties": {
        "a": {"anyOf": [
            {"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "integer"}},
             "required": ["c"], "additionalProperties": false},
            {"type": "array", "items": {"type": "object", "properties": {"d": {"type": "boolean"}},
             "additionalProperties": false}}]},
        "e": {"type": "string"}},
        "required": ["a"], "additionalProperties": false});
    let em = crate::Options::new(Provider::OpenAi).with_reshape(true).compile(&schema).expect("compiles");
    assert!(em.is_reshaped());
    let answers = [
        (json!({"a": {"c": 1}}), true),
        (json!({"a": {"b": "x", "c": 2}, "e": "y"}), false),
        (json!({"a": [{}, {"d": true}]}), true),
    ];
    for (x, nulls) in answers {
        let sent = crate::reshape::forward(&x, em.reshape.as_ref().expect("annotated"), &|at: &str, y: &Value| {
            em.sent_accepts(at, y)
        })
        .expect("carried");
        assert_eq!(sent.to_string().contains("null"), nulls, "{sent}");
        every_cut(&em, &sent.to_string());
        let (_, got) = run(&em, &em.events_for(&x, 2));
        assert_eq!(got.map(crate::Answer::into_value), Ok(x));
    }
}

#[test]
fn ok_wrapped_root_reads_through_value() {
    let schema = json!({"type": "array", "items": {"type": "string"}});
    let em = crate::Options::new(Provider::Claude).with_reshape(true).compile(&schema).expect("compiles");
    let events = em.events_for(&json!(["ab", "c"]), 3);
    let (partials, got) = run(&em, &events);
    assert_eq!(got.map(crate::Answer::into_value), Ok(json!(["ab", "c"])));
    // The tool input `{"value": [...]}` is shown as the array it carries.
    assert!(partials.contains(&"[\"ab\",\"c\"]".to_owned()), "{partials:?}");
    assert!(partials.iter().all(|p| p == "-" || p.starts_with('[')), "{partials:?}");
    every_cut(&em, "{\"value\": [\"ab\", \"c\"]}");
}

#[test]
fn ok_maps_and_json_texts_are_undone_on_the_whole_answer() {
    // A map sent as pairs and a free-form value sent as JSON text: no partial
    // value until the answer is complete, then exactly what `decode` gives.
    let schema = json!({"type": "object", "properties": {
        "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
        "meta": {}},
        "required": ["scores", "meta"], "additionalProperties": false});
    let em = crate::Options::new(Provider::OpenAi).with_reshape(true).compile(&schema).expect("compiles");
    assert!(em.is_reshaped());
    let x = json!({"scores": {"a": 1, "b": 2}, "meta": {"k": [1, "x"]}});
    let events = em.events_for(&x, 5);
    let (partials, got) = run(&em, &events);
    assert_eq!(got.map(crate::Answer::into_value), Ok(x.clone()));
    let first = partials.iter().position(|p| p != "-").expect("the whole answer is shown");
    let whole = x.to_string();
    assert!(first > 0 && partials[first..].iter().all(|p| *p == whole), "{partials:?}");
    let sent = em.sent_for(&x).expect("carried").to_string();
    every_cut(&em, &sent);
    // A repeated key in the pairs fails as `decode` fails.
    let repeated = sent.replacen("\"b\"", "\"a\"", 1);
    let (partials, got) = run(&em, &em.events_of(&[repeated.as_str()]));
    assert_eq!(got.map_err(|e| e.kind()), Err("repeated_key"));
    // Nothing undoes the pairs, so no answer is ever shown (not the pairs as sent).
    assert!(partials.iter().all(|p| p == "-"), "{partials:?}");
}

#[test]
fn ok_a_reader_that_stops_unsure_claims_nothing_about_the_rest() {
    // serde_json decides a lone surrogate; the stream reader is not sure of it,
    // so no early error may say "text after the JSON value".
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let em = crate::emit(&schema, Provider::Claude).expect("compiles");
    let mut stream = em.stream();
    for e in em.events_of(&["{\"a\": \"\\ud800", "x\"}"]) {
        let p = stream.push(&e);
        if let Some(err) = p.error() {
            assert!(!err.to_string().contains("after the JSON value"), "{err}");
        }
    }
    let whole = em.decode(&em.response_for(&json!({"a": "x"})));
    assert!(whole.is_ok(), "the transcript shape itself decodes");
    assert_eq!(stream.finish().map_err(|e| e.kind()), Err("not_json"));
}

/// The refusal `decode` reads from a whole response is the one the stream
/// reports early, also when the refusal has no text (Responses: a `refusal`
/// part whose text is empty).
#[test]
fn err_an_empty_refusal_reads_alike_early_and_at_the_end() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let em = crate::emit(&schema, Provider::OpenAiResponses).expect("compiles");
    for done in [
        json!({"type": "response.refusal.done", "item_id": "m"}),
        json!({"type": "response.refusal.done", "item_id": "m", "refusal": ""}),
    ] {
        let mut stream = em.stream();
        stream.push(&json!({"type": "response.created", "response": {"status": "in_progress", "output": []}}));
        stream.push(&done);
        stream.push(&json!({"type": "response.completed", "response": {"status": "completed", "output": []}}));
        let early = stream.partial().error().cloned();
        let end = stream.finish();
        assert_eq!(early, Some(crate::EarlyError::Refusal("a refusal part".to_owned())), "{done}");
        assert_eq!(end, Err(crate::DecodeError::Refusal("a refusal part".to_owned())), "{done}");
    }
}

#[test]
fn err_repeated_names_fail_like_decode() {
    // With reshape, a rewritten optional member that comes back `null` is never
    // inserted: a name repeated around it is still seen.
    let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["b"], "additionalProperties": false});
    let em = crate::Options::new(Provider::OpenAi).with_reshape(true).compile(&schema).expect("compiles");
    for text in [
        r#"{"a":1,"b":"x","a":null}"#,
        r#"{"a":null,"b":"x","a":1}"#,
        r#"{"a":null,"a":null,"b":"x"}"#,
        r#"{"b":"x","b":"y","a":null}"#,
        // The repeated member is moved last, where the rest of its text goes.
        r#"{"b":"x","a":1,"b":"yz"}"#,
    ] {
        every_cut(&em, text);
        let (_, got) = run(&em, &em.events_of(&[text]));
        assert_eq!(got.map_err(|e| e.kind()), Err("not_json"), "{text}");
    }
    // After the error the partial value still shows the text as it came: the
    // repeated member last, holding its second value.
    let text = r#"{"b":"x","a":1,"b":"yz"}"#;
    let mut stream = em.stream();
    let mut last = None;
    for e in em.events_of(&[&text[..20], &text[20..]]) {
        last = stream.push(&e).value().cloned();
    }
    assert_eq!(last.map(|v| v.to_string()), Some(r#"{"a":1,"b":"yz"}"#.to_owned()));
}

/// Found by the `stream` fuzz target: a forced tool whose input never came in
/// deltas. The stream reads the block's opening `{}`, as `decode` of the whole
/// message does, and the law must model the same whole message.
#[test]
fn ok_a_tool_block_without_input_deltas_ends_like_the_whole_message() {
    assert_eq!(crate::laws::check_stream_input(b"\x07{\"mes"), Ok(()));
}

#[test]
fn ok_member_names_that_need_escaping_point_right() {
    // A name with `/` or `~` is escaped in the pointers; the others are their own token.
    let schema = json!({"type": "object", "properties": {
        "a/b": {"type": "string"}, "c~d": {"type": "object", "properties": {"e": {"type": "integer"}}},
        "f": {"type": "array", "items": {"type": "string"}}}});
    let em = crate::Options::new(Provider::Gemini).compile(&schema).expect("compiles");
    let text = r#"{"a/b":"xy","c~d":{"e":1},"f":["g"]}"#;
    every_cut(&em, text);
    let mut stream = em.stream();
    let events = em.events_of(&[&text[..9], &text[9..22], &text[22..]]);
    let opened: Vec<Option<String>> = events.iter().map(|e| stream.push(e).open()).collect();
    assert!(opened.contains(&Some("/a~1b".to_owned())), "{opened:?}");
    assert!(opened.contains(&Some("/c~0d".to_owned())), "{opened:?}");
    let mut stream = em.stream();
    let mut done = Vec::new();
    for e in em.events_of(&[text]) {
        done.extend(stream.push(&e).completed().map(str::to_owned));
    }
    assert_eq!(done, ["/a~1b", "/c~0d/e", "/c~0d", "/f/0", "/f", ""]);
}

/// A complete number, boolean or null is checked where the schema lists its
/// values (`enum`, `const`), wants integers or bounds numbers; a string as it
/// grows against `maxLength`, an array against `maxItems`; a complete string,
/// array or object against `minLength`, `minItems` and `required`: said early
/// when certain, never when the value may pass (`1.0` is `1`, and is an
/// integer; a number on an exclusive bound waits; one branch of a union is enough).
#[test]
fn err_values_that_can_no_longer_pass_are_said_early() {
    let early = |schema: Value, text: &str| {
        let em = crate::Options::new(Provider::Ollama).compile(&json!({"type": "object", "properties": {"k": schema}}));
        let em = em.expect("compiles");
        let mut stream = em.stream();
        // The member after `k` ends its number.
        for e in em.events_of(&[&format!(r#"{{"k": {text}, "z": 1"#)]) {
            stream.push(&e);
        }
        stream.partial().error().map(ToString::to_string)
    };
    for (schema, text) in [
        (json!({"enum": [1, 2]}), "1.0"),
        (json!({"enum": [1, 2]}), "2"),
        (json!({"enum": ["a", true, null]}), "true"),
        (json!({"enum": ["a", true, null]}), "null"),
        (json!({"const": 0.5}), "5e-1"),
        (json!({"allOf": [{"enum": [1, 2, 3]}, {"enum": [3.0, 4]}]}), "3"),
        (json!({"type": "integer"}), "3.0"),
        (json!({"type": "integer"}), "1e2"),
        (json!({"anyOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]}), "4.5"),
        (json!({"anyOf": [{"enum": [1]}, {"type": "number"}]}), "7"),
        (json!({"maximum": 10}), "10"),
        (json!({"exclusiveMaximum": 10}), "10.0"),
        (json!({"minimum": -1.5, "maximum": 1e3}), "-1.5"),
        (json!({"anyOf": [{"maximum": 1}, {"minimum": 5}]}), "7"),
        (json!({"anyOf": [{"maximum": 1}, {"type": "string"}]}), "\"a long string\""),
        (json!({"type": "number", "maximum": 9_007_199_254_740_993_u64}), "9007199254740993"),
        (json!({"maxLength": 3}), r#""\u00e9é\u00e9""#),
        (json!({"maxLength": 3}), r#""a\n\"""#),
        (json!({"anyOf": [{"maxLength": 2}, {"maxLength": 4}]}), "\"abcd\""),
        (json!({"maxItems": 2}), "[1, [2, 3, 4]]"),
        (json!({"anyOf": [{"maxItems": 1}, {"type": "array"}]}), "[1, 2, 3]"),
        (json!({"minLength": 2}), r#""\u00e9é""#),
        (json!({"minItems": 2}), "[[], []]"),
        (json!({"required": ["a"]}), r#"{"b": {}, "a": null}"#),
        (json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}), r#"{"b": 1}"#),
        (json!({"anyOf": [{"required": ["a"]}, {"type": "object"}]}), "{}"),
        // Only a name every branch requires is checked: this one waits for the end.
        (json!({"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}), r#"{"c": 1}"#),
        (json!({"type": "array", "items": {"required": ["id"]}}), r#"[{"id": 1}, {"id": 2, "x": {}}]"#),
        // Map members share one shape; what each name requires is still its own.
        (json!({"additionalProperties": {"maximum": 5}}), r#"{"a": 1, "b": 5, "c": -2}"#),
        (json!({"required": ["z"], "additionalProperties": {"type": "integer"}}), r#"{"a": 1, "z": 2}"#),
    ] {
        assert_eq!(early(schema.clone(), text), None, "{schema} {text}");
    }
    for (schema, text, said) in [
        (json!({"enum": [1, 2]}), "3", "3 is not one of the `enum` or `const` values"),
        (json!({"enum": ["a", true, null]}), "false", "false is not one of the `enum` or `const` values"),
        (json!({"enum": [null, 1]}), "0", "0 is not one of the `enum` or `const` values"),
        (
            json!({"allOf": [{"enum": [1, 2, 3]}, {"enum": [3, 4]}]}),
            "2",
            "2 is not one of the `enum` or `const` values",
        ),
        // A `const` is a one-value `enum`, and the message names both.
        (json!({"const": 2}), "3", "at /k: 3 is not one of the `enum` or `const` values"),
        (json!({"const": "abc"}), "\"abd\"", "at /k: no `enum` or `const` value starts with \"abd\""),
        (json!({"const": "abc"}), "\"ab\"", "at /k: \"ab\" is not one of the `enum` or `const` values"),
        (json!({"type": "integer"}), "4.5", "4.5 cannot be valid here: numbers must be integers"),
        (json!({"type": ["integer", "string"]}), "-0.25", "-0.25 cannot be valid here: numbers must be integers"),
        (json!({"type": "integer"}), "\"x\"", "a string cannot be valid here: the schema allows an integer"),
        (json!({"maximum": 10}), "10.5", "10.5 cannot be valid here: it is outside the bounds"),
        (json!({"exclusiveMinimum": 0}), "-1", "-1 cannot be valid here: it is outside the bounds"),
        (json!({"anyOf": [{"maximum": 1}, {"minimum": 5}]}), "3", "3 cannot be valid here: it is outside the bounds"),
        (json!({"maxLength": 3}), r#""\u00e9é\u00e9é"#, "longer than the schema allows (`maxLength`)"),
        (
            json!({"anyOf": [{"maxLength": 2}, {"maxLength": 4}]}),
            "\"abcde",
            "longer than the schema allows (`maxLength`)",
        ),
        (json!({"maxItems": 2}), "[1, [2], 3", "at /k/2: an array here has at most 2 items (`maxItems`)"),
        (json!({"minLength": 3}), r#""a\u00e9""#, "at /k: the string is shorter than the schema requires"),
        (json!({"minItems": 2}), "[[1, 2]]", "at /k: the array ended with 1 of the 2 items"),
        (
            json!({"type": "array", "items": {"required": ["id"]}}),
            r#"[{"id": 1}, {"x": 2}]"#,
            "at /k/1: member \"id\" is missing",
        ),
        (json!({"anyOf": [{"required": ["a", "b"]}, {"required": ["b"]}]}), r#"{"a": 1}"#, "member \"b\" is missing"),
        (json!({"additionalProperties": {"maximum": 5}}), r#"{"a": 1, "b": 9}"#, "at /k/b: 9 cannot be valid here"),
        (
            json!({"required": ["z"], "additionalProperties": {"type": "integer"}}),
            r#"{"a": 1, "b": 2}"#,
            "at /k: member \"z\" is missing",
        ),
        (
            json!({"properties": {"a": {}}, "additionalProperties": false}),
            r#"{"a": 1, "b": 2}"#,
            "member \"b\" is not allowed",
        ),
    ] {
        let got = early(schema.clone(), text);
        assert!(got.as_deref().is_some_and(|g| g.contains(said)), "{schema} {text}: {got:?}");
    }
}

/// An `enum` string is compared piece by piece against the members it may
/// still become, never again from its start (linear however it is cut):
/// members that are prefixes of one another, and a long shared prefix that
/// parts only at its end, cut everywhere. The early error comes exactly with
/// the piece that leaves no member possible.
#[test]
fn err_enum_strings_are_checked_piece_by_piece() {
    let long = "abcdefghij".repeat(30);
    let members = ["ab".to_owned(), "abc".to_owned(), format!("{long}x"), format!("{long}y")];
    let schema = json!({"type": "object", "properties": {"k": {"enum": members}}});
    let em = crate::Options::new(Provider::Ollama).compile(&schema).expect("compiles");
    let cases = [("ab".to_owned(), true), ("abc".to_owned(), true), ("a".to_owned(), false), ("abd".to_owned(), false)];
    let long_cases = [(format!("{long}y"), true), (long.clone(), false), (format!("{long}z"), false)];
    for (value, valid) in cases.into_iter().chain(long_cases) {
        let text = json!({"k": value}).to_string();
        for cut in 0..=text.len() {
            crate::laws::check_stream(&em, &text, &[cut]).unwrap_or_else(|e| panic!("{e}"));
            let mut stream = em.stream();
            for e in em.events_of(&[&text[..cut], &text[cut..]]) {
                stream.push(&e);
            }
            assert_eq!(stream.partial().error().is_none(), valid, "{text} cut at {cut}");
        }
        // One byte at a time: the error, if any, comes with the first byte no
        // member has there (the closing quote, for the start of a member).
        let parted = members.iter().map(|m| m.bytes().zip(value.bytes()).take_while(|(a, b)| a == b).count()).max();
        let parted = parted.filter(|_| !valid);
        let mut stream = em.stream();
        for (i, e) in em.events_of(&text.split_inclusive(|_| true).collect::<Vec<_>>()).iter().enumerate() {
            let early = stream.push(e).error().is_some();
            // `{"k":"` is 6 bytes: byte 6 + j is the string's byte j.
            let past = parted.is_some_and(|p| i >= 6 + p);
            assert_eq!(early, past, "{text}: byte {i}");
        }
    }
}
