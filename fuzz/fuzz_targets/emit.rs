//! bytes → JSON schema → every provider × mode and option variant: laws 1–3
//! (no panic, deterministic, acceptance, soundness over the schema's own literals).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    let instances = schemacast::laws::candidates(&schema);
    if let Err(broken) = schemacast::laws::check(&schema, &instances) {
        panic!("law broken: {broken}\nschema = {schema}");
    }
});
