//! The application schemas of `fixtures/apps/` with their valid instances
//! (`<case>.instances.jsonl`): under every option set, no instance is narrowed,
//! the projection keeps it valid, every body passes the provider's rules, a
//! provider-shaped response carrying it decodes back to its projection (every
//! reshape undone), and so does the provider's stream of it cut into small
//! events, with no early error on the way (law 5).

use crate::{Emission, laws};
use serde_json::Value;
use std::path::Path;

/// Every application schema with its instances.
pub(crate) fn apps(dir: &Path) -> Vec<(String, Value, Vec<Value>)> {
    let mut out = Vec::new();
    for f in super::json_files(dir) {
        let name = super::file_stem(&f);
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("readable")).expect("JSON");
        let instances = super::instances(&f);
        out.push((name, schema, instances));
    }
    out
}

/// The size of the events a streamed instance is cut into (odd, so that the
/// cuts fall at every kind of place in the text).
const STREAM_PIECE: usize = 7;

/// The laws over one folder of application schemas.
pub(crate) fn check_folder(dir: &Path) -> Vec<String> {
    let mut broken = Vec::new();
    for (name, schema, instances) in apps(dir) {
        if let Err(e) = laws::check(&schema, &instances) {
            broken.push(format!("{name}: {e}"));
        }
        for opts in laws::option_sets() {
            let Ok(em) = opts.compile(&schema) else { continue };
            let Ok(Some(validator)) = em.local_validator() else { continue };
            for x in instances.iter().filter(|x| validator.is_valid(x)) {
                if let Err(e) = round_trip(&em, x) {
                    broken.push(format!("{name}: {opts:?}: {e}"));
                }
                if let Some(sent) = em.sent_for(x) {
                    let text = sent.to_string();
                    let cuts: Vec<usize> = (1..text.len()).step_by(STREAM_PIECE).collect();
                    if let Err(e) = laws::check_stream(&em, &text, &cuts) {
                        broken.push(format!("{name}: {opts:?}: streamed: {e}"));
                    }
                }
            }
        }
    }
    broken
}

/// A provider-shaped response carrying the valid instance `x` decodes back
/// to its projection, every reshape undone (a forced tool only carries
/// objects: other shapes come back as text, and are not tried).
///
/// # Errors
///
/// What `x` decodes to instead, or that it has no sent form.
pub(crate) fn round_trip(em: &Emission, x: &Value) -> Result<(), String> {
    let Some(sent) = em.sent_for(x) else { return Err(format!("no sent form for {x}")) };
    if em.body().get("tools").is_some() && !sent.is_object() {
        return Ok(());
    }
    let decoded = em.decode(&laws::encode(em, &sent));
    if decoded.as_ref().map(crate::Answer::value) == Ok(&em.project(x)) {
        Ok(())
    } else {
        Err(format!("{x} decodes to {decoded:?}"))
    }
}

#[test]
fn apps_keep_the_laws() {
    let dir = super::root().join("fixtures/apps");
    let all = apps(&dir);
    assert!(all.len() >= 40, "the application schemas are there ({})", all.len());
    assert!(all.iter().all(|(_, _, xs)| xs.len() >= 3), "every schema has its instances");
    let broken = check_folder(&dir);
    assert!(broken.is_empty(), "{} law(s) broken:\n{}", broken.len(), broken.join("\n"));
}

/// Every instance committed beside a schema is valid under it (the local
/// validator agrees with the generators' own checks).
#[test]
fn apps_instances_are_valid() {
    for (name, schema, instances) in apps(&super::root().join("fixtures/apps")) {
        let em = crate::emit(&schema, crate::Provider::OpenAi).expect("compiles");
        let v = em.local_validator().expect("builds").expect("a validator");
        for x in &instances {
            assert!(v.is_valid(x), "{name}: {x}");
        }
    }
}

/// The same checks over a folder of your own, laid out as `fixtures/apps/`
/// (`<case>.json` beside `<case>.instances.jsonl`): fresh generator output kept
/// out of the repository, so that it stays unseen by the code it tests.
/// `HOLDOUT=DIR cargo test --all-features --lib -- --ignored holdout`.
#[test]
#[ignore = "reads the folder HOLDOUT names"]
fn holdout_keeps_the_laws() {
    let dir = std::env::var_os("HOLDOUT").expect("HOLDOUT names a folder of schemas and instances");
    let dir = Path::new(&dir);
    let all = apps(dir);
    assert!(!all.is_empty(), "no `<case>.json` in {}", dir.display());
    let broken = check_folder(dir);
    eprintln!(
        "{} schemas, {} instances, {} law(s) broken",
        all.len(),
        all.iter().map(|a| a.2.len()).sum::<usize>(),
        broken.len()
    );
    assert!(broken.is_empty(), "{} law(s) broken:\n{}", broken.len(), broken.join("\n"));
}
