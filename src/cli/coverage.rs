//! `schemacast coverage`: the share of schemas at each enforcement level per
//! provider (`Mode::Schema`), as a Markdown table.

use super::{Args, Io};
use schemacast::{Enforcement, Provider};
use serde_json::Value;
use std::path::Path;

/// The vendored JSON-Schema-Test-Suite is its own corpus: a walk below a named
/// folder does not enter it (name it to measure it).
pub(crate) const OWN_CORPUS: &str = "json-schema-test-suite";

/// Every schema under `dir`: plain schema files, and the `schema` of each case
/// of JSON-Schema-Test-Suite files.
fn schemas(dir: &Path, out: &mut Vec<Value>) {
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
            match v {
                Value::Array(cases) if cases.iter().all(|c| c.get("schema").is_some() && c.get("tests").is_some()) => {
                    out.extend(cases.into_iter().filter_map(|mut c| c.get_mut("schema").map(Value::take)));
                }
                other => out.push(other),
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
    for p in Provider::ALL {
        let options = args.options(*p);
        let mut counts = [0usize; 5];
        for s in &all {
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
    0
}
