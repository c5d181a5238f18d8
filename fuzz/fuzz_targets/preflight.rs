//! bytes → JSON → preflight (through `Mode::Text`) and projection: no panic,
//! a located error or a clean pass, and `project` never panics either.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let opts = schemacast::Options::new(schemacast::Provider::OpenAi).with_mode(schemacast::Mode::Text);
    match opts.compile(&schema) {
        Ok(_) => {
            let _ = schemacast::project(&schema, &schema);
            let _ = schemacast::validate(&schema, &serde_json::json!({"a": [1, {"b": null}]}));
        }
        Err(e) => assert!(!e.problems().is_empty(), "an error without a located problem"),
    }
    let _ = opts.clone().with_deny_unknown_keywords(true).compile(&schema);
});
