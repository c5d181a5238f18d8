//! Golden snapshots of `decode` over realistic response bodies
//! (`src/tests/responses/<provider>/<case>.json`: the schema, optionally the
//! mode, Claude's mechanism and `reshape`, and the provider's whole response
//! body), and the decode properties.

use super::{native, strategies};
use crate::Provider;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::fmt::Write as _;

fn cases() -> Vec<(String, String, Value)> {
    super::grouped_json(&super::root().join("src/tests/responses"))
        .into_iter()
        .map(|(pname, case, f)| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("readable"))
                .expect("response fixture is JSON");
            (pname, case, v)
        })
        .collect()
}

fn render(case: &Value, provider: Provider) -> String {
    let em = super::fixture_emission(case, provider);
    let mut out = format!("enforcement: {}\n", em.enforcement());
    match em.decode(&case["body"]) {
        Ok(a) => {
            let _ = writeln!(out, "ok, finish_reason: {}", a.finish_reason());
            let _ = writeln!(out, "value: {}", a.value());
        }
        Err(e) => {
            let _ = writeln!(out, "error: {}", e.kind());
            match &e {
                crate::DecodeError::Invalid { violations, value } => {
                    let _ = writeln!(out, "value: {value}");
                    for v in violations {
                        let _ = writeln!(out, "- {v} [schema {}]", v.schema_pointer);
                    }
                }
                other => {
                    let _ = writeln!(out, "- {other}");
                }
            }
        }
    }
    out
}

#[test]
fn decode_golden() {
    let mut failed = Vec::new();
    let all = cases();
    assert!(all.len() >= 20, "response fixtures present");
    for (pname, case, v) in all {
        let provider: Provider = pname.parse().expect("folder names a provider");
        let rendered = render(&v, provider);
        let name = format!("{pname}__{case}");
        if !super::snapshot("decode", &name, Some(format!("src/tests/responses/{pname}/{case}.json")), &rendered) {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "decode snapshots differ:\n{}", failed.join("\n"));
}

/// The names of the decode snapshots the fixtures call for.
pub(crate) fn expected_snapshots() -> Vec<String> {
    cases().into_iter().map(|(p, c, _)| format!("decode/{p}__{c}.snap")).collect()
}

use crate::laws::encode;

pub(crate) fn arbitrary_body() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        prop::sample::select(
            &[
                "",
                "{",
                "```json\n{}\n```",
                "[1]",
                "stop",
                "length",
                "tool_use",
                "emit_structured_output",
                "STOP",
                "text"
            ][..]
        )
        .prop_map(Value::from),
    ];
    let keys = prop::sample::select(
        &[
            "choices",
            "message",
            "content",
            "refusal",
            "finish_reason",
            "candidates",
            "parts",
            "text",
            "thought",
            "finishReason",
            "type",
            "name",
            "input",
            "stop_reason",
            "done_reason",
            "error",
            "promptFeedback",
            "0",
        ][..],
    );
    leaf.prop_recursive(4, 48, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..5)
                .prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

proptest! {
    #![proptest_config(super::props::config())]

    /// `decode(encode(x)) == x` for every valid `x`, where the emission can carry it.
    #[test]
    fn prop_decode_round_trip(schema in strategies::schema(), xs in prop::collection::vec(strategies::instance(), 16)) {
        for opts in crate::laws::option_sets() {
            let Ok(em) = opts.compile(&schema) else { continue };
            // A deferred validator build must never fail once compiling succeeded.
            let validator = em.local_validator();
            prop_assert!(validator.is_ok(), "deferred validator build failed: {:?}\nschema = {}", validator.err(), schema);
            let Ok(Some(validator)) = validator else { continue };
            let check = native::Admits::new(&em);
            for x in xs.iter().filter(|x| validator.is_valid(x)) {
                let Some(sent) = check.answer_for(x) else { continue };
                // A forced tool only carries objects; other shapes come back as text.
                if em.body().get("tools").is_some() && !sent.is_object() {
                    continue;
                }
                let expected = em.project(x);
                let decoded = em.decode(&encode(&em, &sent));
                prop_assert_eq!(decoded.as_ref().map(crate::Answer::value), Ok(&expected), "{:?} schema = {}", opts, schema);
            }
        }
    }

    /// `decode` of arbitrary JSON never panics.
    #[test]
    fn prop_decode_never_panics(body in arbitrary_body()) {
        let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        for p in Provider::ALL {
            let em = crate::emit(&schema, *p).expect("compiles");
            let _ = em.decode(&body);
        }
    }
}

/// `Emission::validate` reads the schema as the emission does (its draft and
/// its format assertion), where `validate` takes the default options.
#[test]
fn ok_emission_validate_reads_with_the_emission_options() {
    use crate::{DecodeError, Draft, Mode, Options};
    // Draft 4 without `$schema`: a boolean `exclusiveMaximum` makes 5 invalid.
    let schema = json!({"type": "integer", "maximum": 5, "exclusiveMaximum": true});
    let em = Options::new(Provider::OpenAi).with_default_draft(Draft::Draft4).compile(&schema).expect("compiles");
    assert!(em.validate(&json!(4)).is_ok());
    assert!(matches!(em.validate(&json!(5)), Err(DecodeError::Invalid { .. })), "{:?}", em.validate(&json!(5)));
    assert!(matches!(em.validate(&json!(4.5)), Err(DecodeError::Invalid { .. })), "not an integer");

    // `format: time` is RFC 3339's full-time, offset included, unless formats are annotations.
    let schema = json!({"type": "string", "format": "time"});
    let naive = json!("18:30:00");
    let asserted = Options::new(Provider::Gemini).compile(&schema).expect("compiles");
    assert!(matches!(asserted.validate(&naive), Err(DecodeError::Invalid { .. })));
    assert!(asserted.validate(&json!("18:30:00Z")).is_ok());
    assert_eq!(crate::validate(&schema, &naive).is_ok(), asserted.validate(&naive).is_ok(), "the default options");
    let annotation = Options::new(Provider::Gemini).with_format_assertion(false).compile(&schema).expect("compiles");
    assert!(annotation.validate(&naive).is_ok());

    // Without a schema every value passes.
    let none = Options::new(Provider::OpenAi).with_mode(Mode::Json).compile_without_schema().expect("compiles");
    assert!(none.validate(&json!([1, "x"])).is_ok());
}
