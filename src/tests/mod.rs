//! The test harness (only built for `cargo test`): golden snapshots over
//! `fixtures/` and shared helpers.

mod apps;
mod corpus;
mod decode;
mod deep;
mod engine_cases;
mod fuzz_seeds;
mod golden;
mod layers;
mod native;
mod notes;
mod props;
mod strategies;
mod stream;
mod thinking;
mod transcripts;
mod typed;

use crate::{Emission, Options, Provider};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The crate root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every fixture as `(group, case, path)`, sorted.
pub(crate) fn fixtures() -> Vec<(String, String, PathBuf)> {
    grouped_json(&root().join("fixtures"))
}

/// Compares `rendered` with `snapshots/<folder>/<name>.snap` (explicit names,
/// no module prefix); `false` when it differs or is missing, so a test can list
/// every difference before it fails.
pub(crate) fn snapshot(folder: &str, name: &str, description: Option<String>, rendered: &str) -> bool {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root().join("snapshots").join(folder));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    if let Some(d) = description {
        settings.set_description(d);
    }
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(name, rendered));
    }))
    .is_ok()
}

/// The entries of `dir`, sorted (a test folder that cannot be read fails the test).
pub(crate) fn entries(dir: &Path) -> Vec<PathBuf> {
    let read = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()));
    let mut out: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    out.sort();
    out
}

/// The `.json` files of `dir`, sorted.
pub(crate) fn json_files(dir: &Path) -> Vec<PathBuf> {
    entries(dir).into_iter().filter(|p| p.extension().is_some_and(|x| x == "json")).collect()
}

/// The `.json` files under `dir` and its subfolders, sorted by path.
pub(crate) fn json_files_recursive(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in entries(dir) {
        if p.is_dir() {
            out.extend(json_files_recursive(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out
}

/// `(folder, stem, path)` for every `dir/<folder>/<stem>.json`, sorted.
pub(crate) fn grouped_json(dir: &Path) -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for g in entries(dir).into_iter().filter(|p| p.is_dir()) {
        let group = file_stem(&g);
        out.extend(json_files(&g).into_iter().map(|c| (group.clone(), file_stem(&c), c)));
    }
    out
}

pub(crate) fn file_stem(p: &Path) -> String {
    p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned()
}

/// The valid instances committed beside the fixture `<case>.json`, one JSON
/// value a line of `<case>.instances.jsonl` (blank lines skipped); none
/// without the file. The fixture listing reads `.json` files only, so the
/// instance files are never fixtures themselves.
pub(crate) fn instances(fixture: &Path) -> Vec<Value> {
    let file = fixture.with_extension("instances.jsonl");
    let Ok(text) = std::fs::read_to_string(&file) else { return Vec::new() };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: not a JSON value: {e}", file.display(), i + 1))
        })
        .collect()
}

/// The emission a response or transcript fixture names: its `schema`, under
/// `provider` with its `mode` (default `schema`), `reshape`, Claude's
/// `mechanism` and `thinking`.
pub(crate) fn fixture_emission(spec: &Value, provider: Provider) -> Emission {
    let mode: crate::Mode = spec.get("mode").and_then(Value::as_str).unwrap_or("schema").parse().expect("mode");
    let mut opts = Options::new(provider)
        .with_mode(mode)
        .with_reshape(spec["reshape"] == true)
        .with_claude_thinking(spec["thinking"] == true);
    if let Some(m) = spec.get("mechanism").and_then(Value::as_str) {
        opts = opts.with_claude_mechanism(m.parse().expect("mechanism"));
    }
    opts.compile(&spec["schema"]).expect("the fixture schema compiles")
}
