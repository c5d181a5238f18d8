//! `schemacast coverage`: the share of schemas at each enforcement level per
//! provider (`Mode::Schema`), as a Markdown table.

use super::{Args, Io};
use schemacast::{Enforcement, Provider};
use serde_json::Value;
use std::path::Path;

/// The vendored JSON-Schema-Test-Suite is its own corpus: a walk below a named
/// folder does not enter it (name it to measure it).
pub(crate) const OWN_CORPUS: &str = "json-schema-test-suite";

/// Every schema under `dir` with its name (the file's path; `path#i` for the
/// `schema` of case `i` of a JSON-Schema-Test-Suite file).
fn schemas(dir: &Path, out: &mut Vec<(String, Value)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != OWN_CORPUS) {
                schemas(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "json")
            && let Ok(text) = std::fs::read_to_string(&p)
            && let Ok(v) = serde_json::from_str::<Value>(&super::io::without_bom(text))
        {
            let name = p.display().to_string();
            match v {
                Value::Array(cases) if cases.iter().all(|c| c.get("schema").is_some() && c.get("tests").is_some()) => {
                    out.extend(
                        cases
                            .into_iter()
                            .enumerate()
                            .filter_map(|(i, mut c)| Some((format!("{name}#{i}"), c.get_mut("schema")?.take()))),
                    );
                }
                other => out.push((name, other)),
            }
        }
    }
}

pub(crate) fn run(args: &Args, io: &mut Io<'_>) -> i32 {
    let Some(dir) = args.input.as_deref() else {
        return super::usage_error(io, "`coverage` needs a folder of schemas");
    };
    let mut all = Vec::new();
    schemas(Path::new(dir), &mut all);
    if all.is_empty() {
        io.eprint(&format!("error: no JSON schemas under {dir}"));
        return 2;
    }
    let levels = [Enforcement::Exact, Enforcement::Widened, Enforcement::Json, Enforcement::Prompt];
    io.print(&format!(
        "{} schemas, mode `schema`{}{}\n\n| provider | exact | widened | json | prompt | error |\n|---|---|---|---|---|---|",
        all.len(),
        if args.reshape { ", `--reshape`" } else { "" },
        args.draft.map(|d| format!(", read as draft {d} where `$schema` is absent")).unwrap_or_default()
    ));
    let providers = args.provider.as_ref().map_or(Provider::ALL, std::slice::from_ref);
    for p in providers {
        let options = args.options(*p);
        let mut counts = [0usize; 5];
        for (_, s) in &all {
            match options.compile(s) {
                Ok(em) => {
                    if let Some(i) = levels.iter().position(|l| *l == em.enforcement()) {
                        counts[i] += 1;
                    }
                }
                Err(_) => counts[4] += 1,
            }
        }
        let pct: Vec<String> = counts.iter().map(|c| format!("{:.1}%", 100.0 * *c as f64 / all.len() as f64)).collect();
        io.print(&format!("| {p} | {} |", pct.join(" | ")));
    }
    if let Some(p) = args.provider {
        list_fallbacks(&all, &args.options(p), args.reshape, io);
    }
    0
}

/// For one provider: each schema not sent a native schema, with what stops it
/// (its `degraded` notes but the fallback's own) and, unless `reshaped`,
/// whether `--reshape` would send one (compiled again to know).
fn list_fallbacks(all: &[(String, Value)], options: &schemacast::Options, reshaped: bool, io: &mut Io<'_>) {
    let mut lines = Vec::new();
    for (name, s) in all {
        let line = match options.compile(s) {
            Ok(em) if matches!(em.enforcement(), Enforcement::Exact | Enforcement::Widened) => continue,
            Ok(em) => {
                let notes = em.notes();
                // The last degraded note says what was sent instead; the ones
                // before it say why.
                let degraded: Vec<_> = notes.iter().filter(|n| n.action == schemacast::Action::Degraded).collect();
                let why: Vec<String> = degraded
                    .iter()
                    .take(degraded.len().saturating_sub(1))
                    .map(|n| format!("{}: {}", if n.pointer.is_empty() { "(root)" } else { &n.pointer }, n.reason))
                    .collect();
                let hint = !reshaped
                    && options
                        .clone()
                        .with_reshape(true)
                        .compile(s)
                        .is_ok_and(|r| matches!(r.enforcement(), Enforcement::Exact | Enforcement::Widened));
                format!(
                    "- {name}: {}{}\n{}",
                    em.enforcement(),
                    if hint { " (native with `--reshape`)" } else { "" },
                    why.iter().map(|w| format!("  - {w}")).collect::<Vec<_>>().join("\n")
                )
            }
            Err(e) => format!("- {name}: error: {e}"),
        };
        lines.push(line.trim_end().to_owned());
    }
    if !lines.is_empty() {
        io.print(&format!("\nnot sent a native schema ({} of {}):\n{}", lines.len(), all.len(), lines.join("\n")));
    }
}
