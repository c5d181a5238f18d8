//! The layers only import downwards: every top-level module names (through
//! `crate::…`, or a root re-export such as `crate::Emission`) only modules
//! placed before it in [`ORDER`]. A new module must be placed there; an import
//! that goes up fails here with the line that does it.

use std::collections::BTreeMap;
use std::path::Path;

/// Bottom first: the pipeline's order (contract and architecture), with the
/// shared vocabulary below everything and the CLI and bindings outside.
const ORDER: &[&str] = &[
    "error",
    "pointer",
    "vocab",
    "note",
    "types",
    "literal",
    "pattern",
    "suggest",
    "options",
    "fragment",
    "analysis",
    "front",
    "preflight",
    "closure",
    "lower",
    "profile",
    "reshape",
    "native",
    "dialect",
    "info",
    "emission",
    "pipeline",
    "decode",
    "prompt",
    "stream",
    "typed",
    "laws",
];

/// Root items that are functions of `lib.rs` (the public entry points), not modules.
const ROOT_FNS: &[&str] =
    &["compile", "compile_without_schema", "emit", "project", "validate", "emit_for", "schema_for"];

/// `name -> module` for the root re-exports (`pub use module::{A, B};`).
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lib.lines().map(str::trim).filter(|l| l.starts_with("pub use ")) {
        let rest = &line["pub use ".len()..];
        let Some((module, items)) = rest.split_once("::") else { continue };
        for item in items.trim_matches(|c| c == '{' || c == '}' || c == ';').split(',') {
            let item = item.trim();
            if !item.is_empty() {
                out.insert(item.to_owned(), module.to_owned());
            }
        }
    }
    out
}

/// The code of a file without comment lines and without its `#[cfg(test)] mod tests { … }` tail.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]\nmod tests {").next().unwrap_or_default();
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::name` (and `use crate::{a, b::…}`) in `code`, with the line it is on.
fn named(code: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in code.lines() {
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or_default();
                for part in inner.split(',') {
                    let word: String = part.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    if !word.is_empty() {
                        out.push((word, line.trim().to_owned()));
                    }
                }
            } else {
                let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                out.push((word, line.trim().to_owned()));
            }
        }
    }
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable").filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn layers_only_import_downwards() {
    let src = super::root().join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let reexports = reexports(&lib);
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut upward = Vec::new();
    for path in all {
        let rel = path.strip_prefix(&src).expect("below src");
        let top = rel.iter().next().and_then(|c| c.to_str()).unwrap_or_default().trim_end_matches(".rs").to_owned();
        let is_test = rel.file_name().is_some_and(|f| f == "tests.rs") || rel.iter().any(|c| c == "tests");
        if matches!(top.as_str(), "lib" | "main" | "cli" | "tests") || is_test {
            continue;
        }
        let Some(own) = rank(&top) else {
            upward.push(format!("{}: module `{top}` has no place in ORDER", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("readable");
        for (word, line) in named(&code(&text)) {
            let module = reexports.get(&word).cloned().unwrap_or(word);
            if module == top || ROOT_FNS.contains(&module.as_str()) || module.starts_with(char::is_uppercase) {
                continue;
            }
            match rank(&module) {
                Some(r) if r < own => {}
                _ => upward.push(format!("{}: `{top}` names `{module}`: {line}", rel.display())),
            }
        }
    }
    assert!(upward.is_empty(), "imports that go up the layers (see ORDER):\n{}", upward.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import() {
    let text = "use crate::emission::Emission;\n// crate::stream in a comment\nfn f() { crate::decode::x(); }\n";
    let got: Vec<String> = named(&code(text)).into_iter().map(|(w, _)| w).collect();
    assert_eq!(got, ["emission", "decode"]);
    let grouped: Vec<String> = named("use crate::{decode::Raw, note::Note};").into_iter().map(|(w, _)| w).collect();
    assert_eq!(grouped, ["decode", "note"]);
    let lib = "pub use emission::{Action, Emission};\npub use vocab::Draft;\n";
    assert_eq!(reexports(lib).get("Emission").map(String::as_str), Some("emission"));
    assert_eq!(reexports(lib).get("Draft").map(String::as_str), Some("vocab"));
}
