//! Replays the committed fuzz seeds (and any crash artifacts) through the same
//! checks as the fuzz targets, so `cargo test` covers them on stable without
//! cargo-fuzz. Every crash a fuzzer finds becomes a fixture or a seed.

use crate::laws;
use serde_json::Value;

fn inputs(target: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for dir in [format!("fuzz/seeds/{target}"), format!("fuzz/artifacts/{target}")] {
        let Ok(entries) = std::fs::read_dir(super::root().join(&dir)) else { continue };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let Ok(bytes) = std::fs::read(&p) else { continue };
            if let Ok(v) = serde_json::from_slice::<Value>(&bytes) {
                out.push((p.display().to_string(), v));
            }
        }
    }
    out
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
    let mut n = 0;
    for dir in ["fuzz/seeds/stream", "fuzz/artifacts/stream"] {
        let Ok(entries) = std::fs::read_dir(super::root().join(dir)) else { continue };
        let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let bytes = std::fs::read(&p).expect("readable");
            if let Err(broken) = laws::check_stream_input(&bytes) {
                panic!("{}: {broken}", p.display());
            }
            n += 1;
        }
    }
    assert!(n > 40, "the stream seeds are committed");
}
