//! The JSON-Schema-Test-Suite sweep over `../shared/corpora` (skipped, with a
//! printed notice, when the corpus is absent, as in a user's clone).
//!
//! Every schema of every case runs through every provider × mode: nothing may
//! panic, and every instance the local validator accepts must be admitted by
//! the native constraint as the test model reads it (zero narrowings).

use super::native;
use crate::{Mode, Options, Provider};
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

/// One test case of the suite.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) schema: Value,
    pub(crate) instances: Vec<Value>,
}

fn suite_dir() -> PathBuf {
    super::root().join("../shared/corpora/json-schema-test-suite/draft2020-12")
}

/// Every case of the draft 2020-12 suite, or `None` (with a notice) when absent.
pub(crate) fn suite() -> Option<Vec<Case>> {
    let dir = suite_dir();
    if !dir.is_dir() {
        println!("notice: {} is absent; skipping the JSON-Schema-Test-Suite sweep", dir.display());
        return None;
    }
    let mut files = Vec::new();
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("suite folder is readable").filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
        let text = std::fs::read_to_string(&f).expect("suite file is readable");
        let Ok(Value::Array(groups)) = serde_json::from_str::<Value>(&text) else { continue };
        for (i, g) in groups.into_iter().enumerate() {
            let description = g["description"].as_str().unwrap_or_default().to_owned();
            let instances =
                g["tests"].as_array().map(|t| t.iter().map(|t| t["data"].clone()).collect()).unwrap_or_default();
            cases.push(Case { name: format!("{rel}#{i} {description}"), schema: g["schema"].clone(), instances });
        }
    }
    Some(cases)
}

#[test]
fn suite_sweep_no_panic_no_narrowing() {
    let Some(cases) = suite() else { return };
    let mut panics = Vec::new();
    let mut narrowings = Vec::new();
    let mut rejections = Vec::new();
    let mut deferred = Vec::new();
    let mut counts: BTreeMap<(String, &str), BTreeMap<String, usize>> = BTreeMap::new();
    use std::fmt::Write as _;
    let trace = std::env::var_os("SCHEMACAST_TRACE").is_some();
    for case in &cases {
        if trace {
            eprintln!("case {}", case.name);
        }
        let validator = crate::preflight::build_validator(
            &case.schema,
            &crate::preflight::Build::plain(crate::vocab::Draft::Draft202012),
        )
        .ok();
        for provider in Provider::ALL {
            for mode in Mode::ALL {
                let opts = Options::new(*provider).with_mode(*mode);
                let result = catch_unwind(AssertUnwindSafe(|| opts.compile(&case.schema)));
                let level = match &result {
                    Err(_) => {
                        panics.push(format!("{provider}/{mode}: {}", case.name));
                        continue;
                    }
                    Ok(Err(e)) => format!("error:{}", e.kind()),
                    Ok(Ok(em)) => em.enforcement().as_str().to_owned(),
                };
                *counts.entry((provider.name().to_owned(), mode.name())).or_default().entry(level).or_default() += 1;
                if let Ok(Ok(em)) = &result
                    && let Err(e) = em.local_validator()
                {
                    deferred.push(format!("{provider}/{mode}: {}: {e}", case.name));
                }
                let (Ok(Ok(em)), Some(v)) = (&result, &validator) else { continue };
                if let Err(e) = crate::laws::acceptance(em) {
                    rejections.push(format!("{provider}/{mode}: {}: {e}", case.name));
                }
                let check = native::Admits::new(em);
                for x in &case.instances {
                    if v.is_valid(x) && !check.admits(x) {
                        narrowings.push(format!("{provider}/{mode}: {} instance {x}", case.name));
                    }
                }
            }
        }
    }
    let mut summary = format!(
        "{} cases of JSON-Schema-Test-Suite draft2020-12 (remote references are errors: nothing is fetched)\n",
        cases.len()
    );
    for ((p, m), levels) in &counts {
        let line: Vec<String> = levels.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(summary, "{p:<11} {m:<6} {}", line.join(", "));
    }
    print!("{summary}");
    assert!(panics.is_empty(), "panics:\n{}", panics.join("\n"));
    assert!(deferred.is_empty(), "deferred validator builds failed:\n{}", deferred.join("\n"));
    assert!(rejections.is_empty(), "{} rejection(s):\n{}", rejections.len(), rejections.join("\n"));
    assert!(narrowings.is_empty(), "{} narrowing(s):\n{}", narrowings.len(), narrowings.join("\n"));
    assert!(cases.len() > 400, "the suite has its cases ({})", cases.len());
    // Per provider and mode, how many schemas reach each enforcement level: a
    // coverage change shows in review as a changed count.
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(super::root().join("snapshots").join("suite"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("summary", summary));
}

/// Preflight defers the local validator's build only where the build cannot
/// fail: for every fixture that compiles, the deferred build succeeds, and it
/// agrees with an eager build.
#[test]
fn ok_deferred_validator_builds_for_every_fixture() {
    let mut files = Vec::new();
    let mut stack = vec![super::root().join("fixtures")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("fixtures are readable").filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 100, "the fixtures are there");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("fixture is readable");
        let Ok(schema) = serde_json::from_str::<Value>(&text) else { continue };
        let Ok(em) = Options::new(Provider::OpenAi).compile(&schema) else { continue };
        let eager = crate::preflight::build_validator(
            &schema,
            &crate::preflight::Build::plain(
                crate::vocab::Draft::detect(&schema, crate::Draft::Draft202012).expect("draft"),
            ),
        );
        assert!(eager.is_ok(), "{}: compiles, but the validator does not build", f.display());
        assert!(em.local_validator().is_ok(), "{}: the deferred build fails", f.display());
    }
}
