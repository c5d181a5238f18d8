//! Arbitrary response bodies against a few fixture schemas, for every provider:
//! `decode` never panics, and a value it returns is valid under the schema.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let Ok(body) = serde_json::from_slice::<Value>(data) else { return };
    let schemas = [
        json!({"type": "object", "properties": {"city": {"type": "string"}, "n": {"type": "integer"}}, "required": ["city"]}),
        json!({"type": "array", "items": {"type": "string"}}),
        json!({"enum": ["a", "b", null]}),
    ];
    for schema in &schemas {
        for p in schemacast::Provider::ALL {
            let Ok(em) = schemacast::emit(schema, *p) else { continue };
            if let Ok(answer) = em.decode(&body) {
                assert!(schemacast::validate(schema, answer.value()).is_ok(), "decoded an invalid value");
            }
        }
    }
});
