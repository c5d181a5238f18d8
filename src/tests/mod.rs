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
    let mut out = Vec::new();
    let dir = root().join("fixtures");
    let mut groups: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    groups.sort();
    for g in groups {
        let group = file_stem(&g);
        let mut cases: Vec<PathBuf> = std::fs::read_dir(&g)
            .expect("group folder is readable")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        cases.sort();
        for c in cases {
            out.push((group.clone(), file_stem(&c), c));
        }
    }
    out
}

fn file_stem(p: &Path) -> String {
    p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned()
}
