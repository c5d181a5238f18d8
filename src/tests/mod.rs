//! The test harness (only built for `cargo test`): golden snapshots over
//! `fixtures/` and shared helpers.

mod apps;
mod corpus;
mod decode;
mod engine_cases;
mod fuzz_seeds;
mod golden;
mod layers;
mod native;
mod props;
mod strategies;
mod stream;
mod typed;

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
