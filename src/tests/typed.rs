//! Typed use: `decode_as` and `finish_as`, and (feature `schemars`) schemas from derived types
//! round-tripped through every provider.

use crate::{DecodeError, Provider};
use serde_json::json;

#[test]
fn err_decode_as_reports_a_type_that_disagrees_with_the_schema() {
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        n: String,
    }
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    let em = crate::emit(&schema, Provider::OpenAi).expect("compiles");
    let got = em.decode_as::<Wrong>(&em.response_for(&json!({"n": 3})));
    match got {
        Err(DecodeError::Deserialize { value, message }) => {
            assert_eq!(value, json!({"n": 3}));
            assert!(message.contains("string"), "{message}");
        }
        other => panic!("expected a deserialisation error, got {other:?}"),
    }
    // An invalid answer is a schema violation before any deserialisation.
    let got = em.decode_as::<Wrong>(&em.response_for(&json!({"n": "x"})));
    assert_eq!(got.map_err(|e| e.kind()).err(), Some("schema_violation"));
}

#[test]
fn err_finish_as_is_decode_as_for_a_stream() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Right {
        n: i64,
    }
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Wrong {
        n: String,
    }
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]});
    for p in Provider::ALL {
        let em = crate::emit(&schema, *p).expect("compiles");
        let streamed = |answer: serde_json::Value| {
            let mut s = em.stream();
            for e in em.events_for(&answer, 3) {
                let _ = s.push(&e);
            }
            s
        };
        assert_eq!(streamed(json!({"n": 3})).finish_as::<Right>().ok(), Some(Right { n: 3 }), "{p:?}");
        match streamed(json!({"n": 3})).finish_as::<Wrong>() {
            Err(DecodeError::Deserialize { value, .. }) => assert_eq!(value, json!({"n": 3}), "{p:?}"),
            other => panic!("{p:?}: expected a deserialisation error, got {other:?}"),
        }
        let invalid = streamed(json!({"n": "x"})).finish_as::<Right>();
        assert_eq!(invalid.map_err(|e| e.kind()).err(), Some("schema_violation"), "{p:?}");
    }
}

#[cfg(feature = "schemars")]
mod derived {
    use crate::laws;
    use std::collections::BTreeMap;

    #[derive(schemars::JsonSchema, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Priority {
        Low,
        High,
    }

    #[derive(schemars::JsonSchema, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Step {
        Call { tool: String, retries: u8 },
        Wait { seconds: f64 },
        Done,
    }

    #[derive(schemars::JsonSchema, serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    struct Task {
        title: String,
        priority: Priority,
        due: Option<String>,
        steps: Vec<Step>,
        labels: BTreeMap<String, i64>,
        parent: Option<Box<Task>>,
    }

    fn tasks() -> Vec<Task> {
        let leaf = Task {
            title: "leaf \"quoted\"".into(),
            priority: Priority::Low,
            due: None,
            steps: vec![],
            labels: BTreeMap::new(),
            parent: None,
        };
        vec![
            leaf.clone(),
            Task {
                title: "root".into(),
                priority: Priority::High,
                due: Some("2026-12-01".into()),
                steps: vec![Step::Call { tool: "search".into(), retries: 2 }, Step::Wait { seconds: 1.5 }, Step::Done],
                labels: BTreeMap::from([("a".to_owned(), 1), ("b-c".to_owned(), -7)]),
                parent: Some(Box::new(leaf)),
            },
        ]
    }

    #[test]
    fn ok_emit_for_is_emit_of_the_derived_schema() {
        let schema = crate::schema_for::<Task>();
        assert!(schema["$defs"].get("Step").is_some(), "{schema}");
        for p in crate::Provider::ALL {
            let typed = crate::emit_for::<Task>(*p).expect("compiles");
            let plain = crate::emit(&schema, *p).expect("compiles");
            assert_eq!(typed.body(), plain.body(), "{p:?}");
            let via_options = crate::Options::new(*p).with_reshape(true).compile_for::<Task>().expect("compiles");
            assert_eq!(
                via_options.is_reshaped(),
                crate::Options::new(*p).with_reshape(true).compile(&schema).expect("compiles").is_reshaped()
            );
        }
    }

    #[test]
    fn ok_derived_types_round_trip_through_every_provider() {
        let mut checked = 0;
        for opts in laws::option_sets() {
            let Ok(em) = opts.compile_for::<Task>() else { continue };
            for task in tasks() {
                let answer = serde_json::to_value(&task).expect("serialises");
                let got: Task =
                    em.decode_as(&em.response_for(&answer)).unwrap_or_else(|e| panic!("{opts:?}: {e} for {answer}"));
                assert_eq!(got, task, "{opts:?}");
                let mut stream = em.stream();
                for e in em.events_for(&answer, 7) {
                    let _ = stream.push(&e);
                }
                let streamed: Task = stream.finish_as().unwrap_or_else(|e| panic!("{opts:?}: {e} streamed"));
                assert_eq!(streamed, task, "{opts:?} streamed");
                checked += 1;
            }
        }
        assert!(checked >= crate::Provider::ALL.len() * 2, "every provider, at least once: {checked}");
    }
}
