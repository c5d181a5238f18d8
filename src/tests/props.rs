//! Property tests over generated schemas. `PROPTEST_CASES` raises the case count
//! for long runs (the default is kept fast for `cargo test`).

use super::strategies;
use crate::laws;
use crate::{Options, Provider};
use proptest::prelude::*;
use serde_json::Value;

/// 256 cases, or `PROPTEST_CASES` when set (the literal alone would override it).
pub(super) fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

fn option_sets() -> Vec<Options> {
    laws::option_sets()
}

proptest! {
    #![proptest_config(config())]

    /// Soundness: every instance the source accepts, projected, is admitted by
    /// the native constraint as read back from the body alone.
    #[test]
    fn prop_sound(schema in strategies::schema(), xs in prop::collection::vec(strategies::instance(), 24)) {
        for opts in option_sets() {
            let Ok(em) = opts.compile(&schema) else { continue };
            // Validity as this emission's options read the schema (formats asserted or not).
            // A deferred validator build must never fail once compiling succeeded.
            let validator = em.local_validator();
            prop_assert!(validator.is_ok(), "deferred validator build failed: {:?}\nschema = {}", validator.err(), schema);
            let Ok(Some(validator)) = validator else { continue };
            let check = laws::Admits::new(&em);
            for y in &xs {
                let exact = check.exact_holds(validator, y);
                prop_assert!(exact.is_ok(), "{:?}: {}\nschema = {schema}\nbody = {}", opts, exact.err().unwrap_or_default(), em.body());
            }
            for x in xs.iter().filter(|x| validator.is_valid(x)) {
                prop_assert!(check.admits(x),
                    "narrowing: {:?}/{:?}\nschema = {schema}\ninstance = {x}\nbody = {}", opts.provider(), opts.mode(), em.body());
                prop_assert!(check.projection_valid(validator, x),
                    "the projection breaks validity: {:?}\nschema = {schema}\ninstance = {x}\nprojected = {}", opts, em.project(x));
            }
        }
    }

    /// Soundness and acceptance for schemas of older drafts: each is read
    /// with its own meaning (the validator, built for the draft, decides what
    /// is valid), and nothing it accepts may be narrowed.
    #[test]
    fn prop_sound_older_drafts(schema in strategies::legacy_schema(), xs in prop::collection::vec(strategies::instance(), 24)) {
        for opts in option_sets() {
            let Ok(em) = opts.compile(&schema) else { continue };
            let verdict = laws::acceptance(&em);
            prop_assert!(verdict.is_ok(), "{:?}: {:?}\nschema = {schema}\nbody = {}", opts, verdict, em.body());
            let validator = em.local_validator();
            prop_assert!(validator.is_ok(), "validator build failed: {:?}\nschema = {}", validator.err(), schema);
            let Ok(Some(validator)) = validator else { continue };
            let check = laws::Admits::new(&em);
            for x in xs.iter().filter(|x| validator.is_valid(x)) {
                prop_assert!(check.admits(x),
                    "narrowing: {:?}/{:?}\nschema = {schema}\ninstance = {x}\nbody = {}", opts.provider(), opts.mode(), em.body());
            }
        }
    }

    /// Acceptance: every body passes the independent checker of the provider's
    /// documented rules (and Gemini `responseSchema` in particular uses only its
    /// documented fields and shapes).
    #[test]
    fn prop_accepted(schema in strategies::schema()) {
        for opts in option_sets() {
            if let Ok(em) = opts.compile(&schema) {
                let verdict = laws::acceptance(&em);
                prop_assert!(verdict.is_ok(), "{:?}: {:?}\nschema = {schema}\nbody = {}", opts, verdict, em.body());
            }
        }
    }

    /// Never panics, and the same input gives byte-identical output.
    #[test]
    fn prop_deterministic(schema in strategies::schema()) {
        for opts in option_sets() {
            let a = opts.compile(&schema).map(|e| e.to_json().to_string()).map_err(|e| e.to_string());
            let b = opts.compile(&schema).map(|e| e.to_json().to_string()).map_err(|e| e.to_string());
            prop_assert_eq!(a, b);
        }
    }
}

/// The generator must reach both outcomes, or the soundness law says little.
#[test]
fn generators_reach_valid_instances() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut compiled, mut valid) = (0, 0);
    for _ in 0..200 {
        let schema: Value = strategies::schema().new_tree(&mut runner).expect("tree").current();
        let Ok(v) = crate::preflight::build_validator(
            &schema,
            &crate::preflight::Build::plain(crate::vocab::Draft::Draft202012),
        ) else {
            continue;
        };
        if crate::emit(&schema, Provider::Gemini).is_ok() {
            compiled += 1;
        }
        for _ in 0..24 {
            let x: Value = strategies::instance().new_tree(&mut runner).expect("tree").current();
            if v.is_valid(&x) {
                valid += 1;
            }
        }
    }
    assert!(compiled > 100 && valid > 500, "compiled {compiled}, valid instances {valid}");
    let mut legacy = 0;
    for _ in 0..200 {
        let schema: Value = strategies::legacy_schema().new_tree(&mut runner).expect("tree").current();
        if crate::emit(&schema, Provider::Ollama).is_ok_and(|e| e.native_schema().is_some()) {
            legacy += 1;
        }
    }
    assert!(legacy > 100, "older-draft schemas that reach a native schema: {legacy} of 200");
}
