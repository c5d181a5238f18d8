//! Golden snapshots: every fixture × every provider × every mode.
//!
//! One snapshot per fixture and provider, at
//! `snapshots/<provider>/<group>__<case>.snap`, showing each mode's emission
//! (enforcement, body, headers, notes) or error. CI never writes snapshots.

use crate::{ClaudeMechanism, GeminiDialect, Mode, Options, Provider};
use serde_json::Value;
use std::fmt::Write as _;

/// Bodies longer than this are shown as a size and a digest.
const MAX_SHOWN_BODY: usize = 16 * 1024;

/// Every snapshot target: a folder name under `snapshots/` and its options
/// (the mode is set per section). Each provider, plus option variants that
/// change what is emitted.
pub(crate) fn targets() -> Vec<(String, Options)> {
    let mut out: Vec<(String, Options)> =
        Provider::ALL.iter().map(|p| (p.name().to_owned(), Options::new(*p))).collect();
    out.push((
        "gemini-json-schema".to_owned(),
        Options::new(Provider::Gemini).with_gemini_dialect(GeminiDialect::JsonSchema),
    ));
    out.push(("openai-reshape".to_owned(), Options::new(Provider::OpenAi).with_reshape(true)));
    out.push(("claude-reshape".to_owned(), Options::new(Provider::Claude).with_reshape(true)));
    for m in [ClaudeMechanism::StrictTool, ClaudeMechanism::OutputFormat, ClaudeMechanism::OutputFormatBeta] {
        out.push((format!("claude-{}", m.name()), Options::new(Provider::Claude).with_claude_mechanism(m)));
    }
    out.push((
        "bedrock-strict-tool".to_owned(),
        Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::StrictTool),
    ));
    out.push(("gemini-reshape".to_owned(), Options::new(Provider::Gemini).with_reshape(true)));
    out.push((
        "claude-output-format-reshape".to_owned(),
        Options::new(Provider::Claude).with_claude_mechanism(ClaudeMechanism::OutputFormat).with_reshape(true),
    ));
    out.push(("claude-thinking".to_owned(), Options::new(Provider::Claude).with_claude_thinking(true)));
    out
}

/// The fixtures of group `resources` may name the documents in
/// `fixtures/resources/documents/`: each is supplied under its path in the group
/// (`documents/<file>`, as the CLI registers it beside the root file) and under
/// its `$id`.
pub(crate) fn with_documents(group: &str, mut options: Options) -> Options {
    if group != "resources" {
        return options;
    }
    let dir = super::root().join("fixtures/resources/documents");
    for f in super::entries(&dir) {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("readable")).expect("a JSON document");
        if let Some(id) = doc.get("$id").and_then(Value::as_str) {
            options = options.with_resource(id.to_owned(), doc.clone());
        }
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        options = options.with_resource(format!("documents/{name}"), doc);
    }
    options
}

pub(crate) fn render_mode(schema: &Value, options: &Options, mode: Mode) -> String {
    let mut out = String::new();
    match options.clone().with_mode(mode).compile(schema) {
        Ok(em) => {
            let _ = writeln!(out, "enforcement: {}", em.enforcement());
            let body = serde_json::to_string_pretty(em.body()).unwrap_or_default();
            if body.len() > MAX_SHOWN_BODY {
                let _ = writeln!(
                    out,
                    "body: ({} bytes, fnv1a-64 {:016x}; too large to show)",
                    body.len(),
                    fnv1a(body.as_bytes())
                );
            } else {
                let _ = writeln!(out, "body: {body}");
            }
            for (k, v) in em.headers() {
                let _ = writeln!(out, "header: {k}: {v}");
            }
            for note in em.notes() {
                let _ = writeln!(out, "- {note}");
            }
        }
        Err(e) => {
            let _ = writeln!(out, "error: {}", e.kind());
            for p in e.problems() {
                let _ = writeln!(out, "- {p}");
            }
        }
    }
    out
}

/// All modes for one provider; consecutive modes with identical output are merged.
pub(crate) fn render(schema: &Value, options: &Options) -> String {
    let mut sections: Vec<(Vec<&str>, String)> = Vec::new();
    for mode in Mode::ALL {
        let text = render_mode(schema, options, *mode);
        match sections.last_mut() {
            Some((names, last)) if *last == text => names.push(mode.name()),
            _ => sections.push((vec![mode.name()], text)),
        }
    }
    let mut out = String::new();
    for (names, text) in sections {
        let _ = writeln!(out, "== {}", names.join(", "));
        out.push_str(&text);
        out.push('\n');
    }
    out
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[test]
fn golden() {
    let mut failed = Vec::new();
    let fixtures = super::fixtures();
    assert!(fixtures.len() >= 40, "expected the fixture set, found {}", fixtures.len());
    for (group, case, path) in fixtures {
        let text = std::fs::read_to_string(&path).expect("fixture is readable");
        let schema: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failed.push(format!("{group}/{case}: not JSON: {e}"));
                continue;
            }
        };
        for (target, options) in targets() {
            let options = with_documents(&group, options);
            let rendered = render(&schema, &options);
            let name = format!("{group}__{case}");
            let description = format!("fixtures/{group}/{case}.json × {target}");
            if !super::snapshot(&target, &name, Some(description), &rendered) {
                failed.push(format!("{target}: {group}/{case}"));
            }
        }
    }
    assert!(failed.is_empty(), "{} snapshot(s) differ or are missing:\n{}", failed.len(), failed.join("\n"));
}

/// The valid instances committed beside a fixture
/// (`fixtures/<group>/<case>.instances.jsonl`, read by [`super::instances`])
/// check the snapshots against something other than the emitter's own reading
/// of the schema: under every snapshot target and mode, each instance is valid
/// under the fixture, the native constraint admits it as the provider sends it,
/// its projection stays valid, and a response carrying it decodes back to its
/// projection; an `exact` claim admits none of the instances and the schema's
/// own literals that the fixture rejects.
#[test]
fn fixture_instances_keep_the_laws_under_every_target() {
    let mut broken = std::collections::BTreeSet::new();
    let (mut fixtures, mut admitted, mut exact) = (0, 0, 0);
    for (group, case, path) in super::fixtures() {
        let instances = super::instances(&path);
        if instances.is_empty() {
            continue;
        }
        fixtures += 1;
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("the fixture is JSON");
        let probes: Vec<Value> = instances.iter().cloned().chain(crate::laws::candidates(&schema)).collect();
        let mut constrained = 0;
        for (target, options) in targets() {
            let options = with_documents(&group, options);
            for mode in Mode::ALL {
                let at = format!("{group}/{case} × {target}/{mode}");
                let Ok(em) = options.clone().with_mode(*mode).compile(&schema) else { continue };
                let validator = match em.local_validator() {
                    Ok(Some(v)) => v,
                    Ok(None) => {
                        broken.insert(format!("{at}: no local validator to check the instances with"));
                        continue;
                    }
                    Err(e) => {
                        broken.insert(format!("{at}: the deferred validator build failed: {e}"));
                        continue;
                    }
                };
                let check = super::native::Admits::new(&em);
                constrained += usize::from(em.native_schema().is_some());
                for x in &instances {
                    if !validator.is_valid(x) {
                        broken.insert(format!("{group}/{case}: {x} is not valid under the fixture"));
                        continue;
                    }
                    if check.admits(x) {
                        admitted += 1;
                    } else {
                        let sent = check.answer_for(x).map_or_else(|| "nothing".to_owned(), |y| y.to_string());
                        broken.insert(format!("{at}: the native constraint refuses {x} (sent as {sent})"));
                    }
                    if !check.projection_valid(validator, x) {
                        broken.insert(format!("{at}: the projection of {x} is invalid: {}", em.project(x)));
                    }
                    if let Err(e) = super::apps::round_trip(&em, x) {
                        broken.insert(format!("{at}: {e}"));
                    }
                }
                if em.enforcement() == crate::Enforcement::Exact {
                    exact += 1;
                    for y in &probes {
                        if let Err(e) = check.exact_holds(validator, y) {
                            broken.insert(format!("{at}: {e}"));
                        }
                    }
                }
            }
        }
        if constrained == 0 {
            broken.insert(format!("{group}/{case}: no target sends a native schema to check the instances against"));
        }
    }
    println!("{fixtures} fixtures with instances: {admitted} admissions checked, {exact} exact emissions probed");
    assert!(fixtures > 40, "the fixtures' instance files are there ({fixtures})");
    assert!(
        broken.is_empty(),
        "{} law(s) broken:\n{}",
        broken.len(),
        broken.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// Every instance file (`<case>.instances.jsonl`) sits beside its fixture
/// (`<case>.json`): a renamed fixture does not silently lose its instances.
#[test]
fn no_orphan_instances() {
    let mut orphans = Vec::new();
    for group in super::entries(&super::root().join("fixtures")).into_iter().filter(|p| p.is_dir()) {
        for f in super::entries(&group) {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if let Some(case) = name.strip_suffix(".instances.jsonl")
                && !group.join(format!("{case}.json")).is_file()
            {
                orphans.push(f.display().to_string());
            }
        }
    }
    assert!(orphans.is_empty(), "instance files without a fixture:\n{}", orphans.join("\n"));
}

/// Every committed snapshot belongs to a fixture and a provider: nothing stale.
#[test]
fn no_orphan_snapshots() {
    let mut expected: std::collections::HashSet<String> = super::fixtures()
        .iter()
        .flat_map(|(g, c, _)| targets().into_iter().map(move |(t, _)| format!("{t}/{g}__{c}.snap")))
        .collect();
    expected.extend(super::decode::expected_snapshots());
    expected.extend(super::transcripts::expected_snapshots());
    // Written by the suite sweeps.
    expected.extend(super::corpus::expected_snapshots());
    let mut orphans = Vec::new();
    let dir = super::root().join("snapshots");
    for provider_dir in std::fs::read_dir(&dir).expect("snapshots/ exists").filter_map(Result::ok) {
        let pname = provider_dir.file_name().to_string_lossy().into_owned();
        if !provider_dir.path().is_dir() {
            orphans.push(pname);
            continue;
        }
        for f in std::fs::read_dir(provider_dir.path()).expect("readable").filter_map(Result::ok) {
            let file = f.file_name().to_string_lossy().into_owned();
            // Pending `.snap.new` files are insta's own business (and never exist in CI).
            if !file.ends_with(".snap") {
                continue;
            }
            let key = format!("{pname}/{file}");
            if !expected.contains(&key) {
                orphans.push(key);
            }
        }
    }
    orphans.sort();
    assert!(
        orphans.is_empty(),
        "snapshots without a fixture or provider (delete them, or review the pending ones):\n{}",
        orphans.join("\n")
    );
}
