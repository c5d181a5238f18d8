//! Replays the committed fuzz seeds (and any crash artifacts) through the same
//! checks as the fuzz targets, so `cargo test` covers them on stable without
//! cargo-fuzz. Every crash a fuzzer finds becomes a fixture or a seed.

use crate::laws;
use serde_json::Value;
use std::path::PathBuf;

/// The committed seeds of a fuzz target, then its crash artifacts (a folder
/// that only exists once a fuzzer found something), each folder sorted.
fn files(target: &str) -> Vec<PathBuf> {
    ["seeds", "artifacts"]
        .iter()
        .map(|folder| super::root().join("fuzz").join(folder).join(target))
        .filter(|dir| dir.is_dir())
        .flat_map(|dir| super::entries(&dir))
        .collect()
}

/// The files of a fuzz target that are JSON.
fn inputs(target: &str) -> Vec<(String, Value)> {
    files(target)
        .into_iter()
        .filter_map(|p| {
            let v = serde_json::from_slice::<Value>(&std::fs::read(&p).ok()?).ok()?;
            Some((p.display().to_string(), v))
        })
        .collect()
}

#[test]
fn fuzz_seeds_keep_the_laws() {
    let seeds = inputs("emit");
    assert!(seeds.len() > 100, "the emit seeds are committed");
    for (name, schema) in seeds {
        let instances = laws::candidates(&schema);
        if let Err(broken) = laws::check(&schema, &instances) {
            panic!("{name}: {broken}");
        }
    }
}

#[test]
fn fuzz_decode_seeds_never_panic() {
    let schema =
        serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    for (_, body) in inputs("decode") {
        for p in crate::Provider::ALL {
            let em = crate::emit(&schema, *p).expect("compiles");
            if let Ok(a) = em.decode(&body) {
                assert!(crate::validate(&schema, a.value()).is_ok());
            }
        }
    }
}

#[test]
fn fuzz_stream_seeds_keep_law_5() {
    let paths = files("stream");
    for p in &paths {
        let bytes = std::fs::read(p).expect("readable");
        if let Err(broken) = laws::check_stream_input(&bytes) {
            panic!("{}: {broken}", p.display());
        }
    }
    assert!(paths.len() > 40, "the stream seeds are committed");
}
