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

/// Every committed snapshot belongs to a fixture and a provider: nothing stale.
#[test]
fn no_orphan_snapshots() {
    let mut expected: std::collections::HashSet<String> = super::fixtures()
        .iter()
        .flat_map(|(g, c, _)| targets().into_iter().map(move |(t, _)| format!("{t}/{g}__{c}.snap")))
        .collect();
    expected.extend(super::decode::expected_snapshots());
    expected.extend(super::stream::expected_snapshots());
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
