//! The JSON-Schema-Test-Suite sweep over the vendored suite
//! (`fixtures/json-schema-test-suite/`): all five drafts, each folder read
//! with its draft as the default draft, the suite's remote documents supplied
//! as resources where a case references them.
//!
//! Every schema of every case runs through every provider × mode: nothing may
//! panic, no body may break the provider's documented rules, and every instance
//! the local validator accepts must be admitted by the native constraint as the
//! test model reads it (zero narrowings).

use super::native;
use crate::{Draft, Mode, Options, Provider};
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::OnceLock;

/// One test case of the suite.
pub(crate) struct Case {
    pub(crate) name: String,
    pub(crate) schema: Value,
    pub(crate) instances: Vec<Value>,
    /// The remote documents the case needs, as `(URI, document)`.
    pub(crate) resources: Vec<(String, Value)>,
}

/// The vendored suite.
pub(crate) fn suite_root() -> PathBuf {
    super::root().join("fixtures/json-schema-test-suite")
}

/// The folder of `draft`'s tests.
pub(crate) fn folder(draft: Draft) -> &'static str {
    match draft {
        Draft::Draft4 => "draft4",
        Draft::Draft6 => "draft6",
        Draft::Draft7 => "draft7",
        Draft::Draft201909 => "draft2019-09",
        _ => "draft2020-12",
    }
}

/// The suite's remote documents under the URIs the suite gives them.
fn remotes() -> &'static BTreeMap<String, Value> {
    static REMOTES: OnceLock<BTreeMap<String, Value>> = OnceLock::new();
    REMOTES.get_or_init(|| {
        let dir = suite_root().join("remotes");
        super::json_files_recursive(&dir)
            .into_iter()
            .filter_map(|f| {
                let rel = f.strip_prefix(&dir).ok()?.to_string_lossy().replace('\\', "/");
                let doc = serde_json::from_str(&std::fs::read_to_string(&f).ok()?).ok()?;
                Some((format!("http://localhost:1234/{rel}"), doc))
            })
            .collect()
    })
}

/// The URI of a document that compiling `schema` reported missing.
fn missing_document(e: &crate::Error) -> Option<String> {
    e.problems().iter().find_map(|p| {
        let rest = p.message.split("needs the document \"").nth(1)?;
        Some(rest.split('"').next()?.to_owned())
    })
}

/// The remote documents `schema` needs under `draft`: added one by one while
/// compiling names another missing one that the suite has.
fn needed(schema: &Value, draft: Draft) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for _ in 0..16 {
        let mut opts = Options::new(Provider::OpenAi).with_default_draft(draft);
        for (u, d) in &out {
            opts = opts.with_resource(u.clone(), d.clone());
        }
        let Err(e) = opts.compile(schema) else { break };
        let Some(uri) = missing_document(&e) else { break };
        match remotes().get(&uri) {
            Some(doc) if !out.iter().any(|(u, _)| *u == uri) => out.push((uri, doc.clone())),
            _ => break,
        }
    }
    out
}

/// Every case of `draft`'s suite.
pub(crate) fn suite(draft: Draft) -> Vec<Case> {
    let dir = suite_root().join(folder(draft));
    let mut cases = Vec::new();
    for f in super::json_files_recursive(&dir) {
        let rel = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
        let text = std::fs::read_to_string(&f).expect("suite file is readable");
        let Ok(Value::Array(groups)) = serde_json::from_str::<Value>(&text) else { continue };
        for (i, g) in groups.into_iter().enumerate() {
            let description = g["description"].as_str().unwrap_or_default().to_owned();
            let instances =
                g["tests"].as_array().map(|t| t.iter().map(|t| t["data"].clone()).collect()).unwrap_or_default();
            let schema = g["schema"].clone();
            let resources = if text.contains("localhost:1234") { needed(&schema, draft) } else { Vec::new() };
            cases.push(Case { name: format!("{rel}#{i} {description}"), schema, instances, resources });
        }
    }
    cases
}

/// The options of a case: its draft, its documents.
pub(crate) fn case_options(case: &Case, draft: Draft, provider: Provider) -> Options {
    let mut opts = Options::new(provider).with_default_draft(draft);
    for (u, d) in &case.resources {
        opts = opts.with_resource(u.clone(), d.clone());
    }
    opts
}

fn sweep(draft: Draft) {
    let cases = suite(draft);
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
        let reference = case_options(case, draft, Provider::OpenAi).compile(&case.schema).ok();
        let validator = reference.as_ref().and_then(|em| em.local_validator().ok().flatten());
        for provider in Provider::ALL {
            for mode in Mode::ALL {
                let opts = case_options(case, draft, *provider).with_mode(*mode);
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
                    if let Err(e) = check.exact_holds(v, x) {
                        narrowings.push(format!("{provider}/{mode}: {}: {e}", case.name));
                    }
                    if v.is_valid(x) && !check.admits(x) {
                        narrowings.push(format!("{provider}/{mode}: {} instance {x}", case.name));
                    }
                    if v.is_valid(x) && !check.projection_valid(v, x) {
                        narrowings.push(format!("{provider}/{mode}: {} projection of {x} is invalid", case.name));
                    }
                }
            }
        }
    }
    let with_documents = cases.iter().filter(|c| !c.resources.is_empty()).count();
    let mut summary = format!(
        "{} cases of JSON-Schema-Test-Suite {}, read as draft {draft} ({with_documents} with the suite's remote documents supplied)\n",
        cases.len(),
        folder(draft)
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
    assert!(cases.len() > 150, "the suite has its cases ({})", cases.len());
    // Per provider and mode, how many schemas reach each enforcement level: a
    // coverage change shows in review as a changed count.
    assert!(super::snapshot("suite", folder(draft), None, &summary), "snapshots/suite/{}.snap differs", folder(draft));
}

#[test]
fn suite_sweep_draft4() {
    sweep(Draft::Draft4);
}

#[test]
fn suite_sweep_draft6() {
    sweep(Draft::Draft6);
}

#[test]
fn suite_sweep_draft7() {
    sweep(Draft::Draft7);
}

#[test]
fn suite_sweep_draft2019_09() {
    sweep(Draft::Draft201909);
}

#[test]
fn suite_sweep_draft2020_12() {
    sweep(Draft::Draft202012);
}

/// Snapshots the sweeps write.
pub(crate) fn expected_snapshots() -> Vec<String> {
    Draft::ALL.iter().map(|d| format!("suite/{}.snap", folder(*d))).collect()
}

/// Preflight defers the local validator's build only where the build cannot
/// fail: for every fixture that compiles, the deferred build succeeds, and it
/// agrees with an eager build.
#[test]
fn ok_deferred_validator_builds_for_every_fixture() {
    let files: Vec<PathBuf> = super::fixtures()
        .into_iter()
        .map(|(_, _, p)| p)
        .chain(super::json_files_recursive(&suite_root().join("remotes")))
        .collect();
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
