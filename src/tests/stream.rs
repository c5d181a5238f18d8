//! The stream decoder: transcripts per provider (snapshots of the partial
//! sequence) and its properties.

use crate::laws;
use serde_json::{Value, json};

mod cases;

/// Pushes every event, returns the partial values (as text) and the final result.
fn run(em: &crate::Emission, events: &[Value]) -> (Vec<String>, Result<crate::Answer, crate::DecodeError>) {
    let mut stream = em.stream();
    let mut partials = Vec::new();
    for e in events {
        let p = stream.push(e);
        partials.push(p.value().map_or_else(|| "-".to_owned(), Value::to_string));
    }
    (partials, stream.finish())
}

#[test]
fn ok_events_for_decode_like_the_whole_response() {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}, "celsius": {"type": "number"}},
        "required": ["city", "celsius"], "additionalProperties": false});
    let x = json!({"city": "Oslo \"é\" 😀", "celsius": -3.5});
    for opts in laws::option_sets() {
        let Ok(em) = opts.compile(&schema) else { continue };
        for len in [1, 2, 3, 7, 100] {
            let (partials, got) = run(&em, &em.events_for(&x, len));
            let want = em.decode(&em.response_for(&x));
            assert!(want.is_ok(), "{opts:?}: the answer is valid: {want:?}");
            assert_eq!(got, want, "{opts:?} len {len}: {partials:?}");
        }
    }
}

use super::strategies;
use crate::Provider;
use proptest::prelude::*;

/// A few steps of xorshift: the property's own cheap randomness.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// An instance shaped by `schema` (its types, properties, items, enums and
/// branches), often valid: the validator decides.
fn sample(schema: &Value, root: &Value, seed: &mut u64, depth: usize) -> Value {
    let pick = |seed: &mut u64, n: usize| usize::try_from(next(seed) % n.max(1) as u64).unwrap_or(0);
    let Value::Object(m) = schema else { return json!(next(seed) % 3) };
    if depth > 6 {
        return Value::Null;
    }
    if let Some(r) = m.get("$ref").and_then(Value::as_str)
        && let Some((target, _)) = crate::pointer::resolve_fragment(root, r)
    {
        return sample(target, root, seed, depth + 1);
    }
    for key in ["enum", "anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = m.get(key).filter(|o| o.as_array().is_some_and(|a| !a.is_empty())) {
            let chosen = &options[pick(seed, options.len())];
            return if key == "enum" { chosen.clone() } else { sample(chosen, root, seed, depth + 1) };
        }
    }
    if let Some(c) = m.get("const") {
        return c.clone();
    }
    if let Some(Value::Array(parts)) = m.get("allOf")
        && let Some(first) = parts.first()
    {
        return sample(first, root, seed, depth + 1);
    }
    let ty = match m.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(ts)) if !ts.is_empty() => ts[pick(seed, ts.len())].as_str().unwrap_or("null"),
        _ if m.contains_key("properties") => "object",
        _ if m.contains_key("items") || m.contains_key("prefixItems") => "array",
        _ => ["string", "integer", "object", "null"][pick(seed, 4)],
    };
    match ty {
        "object" => {
            let mut out = serde_json::Map::new();
            if let Some(Value::Object(props)) = m.get("properties") {
                for (k, sub) in props {
                    if !next(seed).is_multiple_of(4) {
                        out.insert(k.clone(), sample(sub, root, seed, depth + 1));
                    }
                }
            }
            Value::Object(out)
        }
        "array" => {
            let mut out: Vec<Value> = match m.get("prefixItems") {
                Some(Value::Array(parts)) => parts.iter().map(|p| sample(p, root, seed, depth + 1)).collect(),
                _ => Vec::new(),
            };
            if let Some(items) = m.get("items") {
                out.extend((0..pick(seed, 4)).map(|_| sample(items, root, seed, depth + 1)));
            }
            Value::Array(out)
        }
        "string" => json!(["", "a", "cat", "Oslo \"é\" 😀", "2020-01-01T00:00:00Z", "a@b.co"][pick(seed, 6)]),
        "integer" => json!(i64::try_from(next(seed) % 20).unwrap_or(0) - 5),
        "number" => json!([2.5, -1.0, 0.25, 1e-7, 3.0][pick(seed, 5)]),
        "boolean" => json!(next(seed).is_multiple_of(2)),
        _ => Value::Null,
    }
}

/// The answer's text as models write it: compact, pretty, fenced, after a think block.
fn dressed(text: &str, pretty: &str, how: u8) -> String {
    match how % 5 {
        0 | 1 => text.to_owned(),
        2 => pretty.to_owned(),
        3 => format!("```json\n{pretty}\n```\n"),
        _ => format!(" <think>a {{ \"half: [</think>\n{text}"),
    }
}

/// JSON text as models write it, escapes and odd numbers included (member
/// names may repeat).
fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(
            &["0", "-1", "2.5e3", "1E+2", "-0.0", "12345678901234567890", "1e400", "true", "false", "null"][..]
        )
        .prop_map(str::to_owned),
        prop::collection::vec(
            prop::sample::select(&["a", "Oslo", "\\\"", "\\u00e9", "\\ud83d\\ude00", "é", "\\n", "\\/", " "][..]),
            0..4
        )
        .prop_map(|parts| format!("\"{}\"", parts.concat())),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        let ws = prop::sample::select(&["", " ", "\n  ", "\t"][..]);
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), ws.clone())
                .prop_map(|(items, ws)| format!("[{ws}{}{ws}]", items.join(&format!(",{ws}")))),
            (prop::collection::vec((prop::sample::select(&["a", "city", "value", "b"][..]), inner), 0..4), ws)
                .prop_map(|(members, ws)| {
                    let members: Vec<String> = members.iter().map(|(k, v)| format!("\"{k}\":{ws}{v}")).collect();
                    format!("{{{ws}{}{ws}}}", members.join(&format!(",{ws}")))
                }),
        ]
    })
}

/// Text near JSON: a value dressed as models dress it (whitespace of every
/// kind, a think block, a fence), sometimes with a piece taken out or put in.
fn near_json() -> impl Strategy<Value = String> {
    let before = prop::sample::select(
        &["", " ", "\u{a0}", "\n\n", "<think>{x</think>", "```json\n", "```\n", "```", "<thi"][..],
    );
    let after = prop::sample::select(&["", "\n", "\u{3000}", "\n```", "```", " x", "``` ```", "````"][..]);
    let bit = prop::sample::select(&["", "", "{", "}", "\"", ",", "\\", "\u{a0}", "x", "1", "```"][..]);
    (before, json_text(), after, bit, any::<prop::sample::Index>(), any::<bool>()).prop_map(
        |(before, value, after, bit, at, cut)| {
            let mut text = format!("{before}{value}{after}");
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            if cut {
                text.insert_str(i, bit);
            } else if let Some(c) = text[i..].chars().next().filter(|_| bit.is_empty()) {
                text.replace_range(i..i + c.len_utf8(), "");
            }
            text
        },
    )
}

fn cuts() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..160, 0..8)
}

/// Cases per property: `STREAM_CASES` raises it for long runs.
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("STREAM_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(64))]

    /// For every valid answer, dressed as models write it, and every way of cutting
    /// its text into events: the stream ends exactly as `decode` of the whole
    /// response, partial values are prefix-completions, completed parts are final.
    #[test]
    fn prop_stream_equals_decode(schema in prop_oneof![3 => strategies::schema(), 1 => strategies::legacy_schema()], xs in prop::collection::vec(strategies::instance(), 4),
                                 seed in 1u64.., cuts in cuts(), how in any::<u8>()) {
        let mut seed = seed;
        let mut xs = xs;
        xs.extend((0..8).map(|_| sample(&schema, &schema, &mut seed, 0)));
        for opts in laws::option_sets() {
            let Ok(em) = opts.compile(&schema) else { continue };
            let Ok(Some(validator)) = em.local_validator() else { continue };
            for x in xs.iter().filter(|x| validator.is_valid(x)) {
                let sent = em.sent(x);
                let compact = sent.to_string();
                let pretty = serde_json::to_string_pretty(&sent).unwrap_or_default();
                let text = if em.tool.is_some() { compact.clone() } else { dressed(&compact, &pretty, how) };
                if let Err(broken) = laws::check_stream(&em, &text, &cuts) {
                    return Err(TestCaseError::fail(format!("{opts:?}\nschema = {schema}\n{broken}")));
                }
            }
        }
    }

}

proptest! {
    #![proptest_config(config(256))]

    /// Any text near JSON, cut anywhere, for every provider: the same result as
    /// the whole response, and an early error only when the result is an error.
    #[test]
    fn prop_stream_arbitrary_text(text in near_json(), cuts in cuts()) {
        let schemas = [
            json!({"type": "object", "properties": {"a": {"type": "integer"}, "city": {"enum": ["Oslo", "Bergen"]}},
                "additionalProperties": false}),
            json!({"type": "array", "items": {"type": ["string", "null"]}}),
            json!({}),
        ];
        for schema in &schemas {
            for p in Provider::ALL {
                let Ok(em) = crate::emit(schema, *p) else { continue };
                if let Err(broken) = laws::check_stream(&em, &text, &cuts) {
                    return Err(TestCaseError::fail(format!("{p}\nschema = {schema}\n{broken}")));
                }
            }
        }
    }

    /// Arbitrary events never make the decoder panic; an early error is only
    /// said of a stream that ends in an error, and an early refusal in the same
    /// words as the end.
    #[test]
    fn prop_stream_never_panics(events in prop::collection::vec(super::decode::arbitrary_body(), 0..6)) {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        for p in Provider::ALL {
            let em = crate::emit(&schema, *p).expect("compiles");
            let mut stream = em.stream();
            for e in &events {
                let _ = stream.push(e);
            }
            let early = stream.partial().error().cloned();
            let end = stream.finish();
            if let Some(early) = early {
                prop_assert!(end.is_err(), "{p}: early {early} but the stream ends well");
                if let (crate::EarlyError::Refusal(a), Err(crate::DecodeError::Refusal(b))) = (&early, &end) {
                    prop_assert_eq!(a, b, "{}: the refusal's words", p);
                }
            }
        }
    }
}

/// Every cut of every answer, one event per character and at every boundary pair.
fn every_cut(em: &crate::Emission, text: &str) {
    let n = text.len();
    let all: Vec<usize> = (0..=n).collect();
    laws::check_stream(em, text, &all).unwrap_or_else(|e| panic!("{e}"));
    for i in 0..=n {
        for j in (i..=n).step_by(3) {
            laws::check_stream(em, text, &[i, j]).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
