//! The layers only import downwards: every top-level module names (through
//! `crate::…`, `super::…` that reaches the root, or a root re-export such as
//! `crate::Emission`) only modules placed before it in [`ORDER`]. A new module
//! must be placed there; an import that goes up fails here with the line that
//! does it.
//!
//! The files are read with a small lexer: comments, string and character
//! literals and `#[cfg(test)]` modules are left out; `use` trees are followed
//! across lines and into nested groups.

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

/// `text` with comments, string and character literals blanked out (line
/// breaks kept, so that line numbers stay).
fn strip(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let blank = |out: &mut String, s: &[u8]| out.extend(s.iter().map(|&c| if c == b'\n' { '\n' } else { ' ' }));
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n)
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            j
        } else if rest.starts_with(b"r\"") || rest.starts_with(b"r#") || rest.starts_with(b"br\"") {
            let start = i + usize::from(rest[0] == b'b') + 1;
            let hashes = b[start..].iter().take_while(|&&c| c == b'#').count();
            if b.get(start + hashes) != Some(&b'"') {
                out.push(char::from(b[i]));
                i += 1;
                continue;
            }
            let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            let body = start + hashes + 1;
            b[body..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |n| body + n + close.len())
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            j + 1
        } else if rest[0] == b'\'' {
            // A character literal (`'x'`, `'\n'`, `'é'`), not a lifetime.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|n| n + 3)
            } else {
                text[i + 1..].chars().next().map(|c| c.len_utf8() + 1).filter(|&n| rest.get(n) == Some(&b'\''))
            };
            match len {
                Some(n) => i + n + 1,
                None => {
                    out.push('\'');
                    i += 1;
                    continue;
                }
            }
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
            continue;
        };
        let end = end.min(b.len());
        blank(&mut out, &b[i..end]);
        i = end;
    }
    out
}

/// `code` without its `#[cfg(test)]` modules (their braces matched).
fn without_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let item = after["#[cfg(test)]".len()..].trim_start();
        if !item.starts_with("mod ") {
            out.push_str("#[cfg(test)]");
            rest = &after["#[cfg(test)]".len()..];
            continue;
        }
        let Some(open) = after.find(['{', ';']) else { break };
        if after.as_bytes()[open] == b';' {
            rest = &after[open + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = after.len();
        for (j, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.extend(after[..end].chars().filter(|&c| c == '\n'));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

fn ident(s: &str) -> &str {
    let n = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..n]
}

/// The paths a `use` tree (or a plain path) starting at `s` names, each as its
/// segments (`a::{b, c::{d as e}}` → `a::b`, `a::c::e`; a rename gives its new name).
fn paths(s: &str) -> Vec<Vec<String>> {
    fn tree(s: &str, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
        let mut i = 0;
        let mut path = prefix.to_vec();
        loop {
            i += s[i..].len() - s[i..].trim_start().len();
            if s[i..].starts_with('{') {
                i += 1;
                loop {
                    i += s[i..].len() - s[i..].trim_start().len();
                    if s[i..].starts_with('}') {
                        return i + 1;
                    }
                    if s[i..].is_empty() {
                        return i;
                    }
                    i += tree(&s[i..], &path, out);
                    i += s[i..].len() - s[i..].trim_start().len();
                    if s[i..].starts_with(',') {
                        i += 1;
                    }
                }
            }
            let word = ident(&s[i..]);
            if word.is_empty() {
                out.push(path);
                return i;
            }
            i += word.len();
            let gap = s[i..].len() - s[i..].trim_start().len();
            if s[i + gap..].starts_with("as ") {
                let j = i + gap + "as ".len();
                let j = j + (s[j..].len() - s[j..].trim_start().len());
                let alias = ident(&s[j..]);
                path.push(alias.to_owned());
                out.push(path);
                return j + alias.len();
            }
            path.push(word.to_owned());
            if s[i..].starts_with("::") {
                i += 2;
            } else {
                out.push(path);
                return i;
            }
        }
    }
    let mut out = Vec::new();
    tree(s, &[], &mut out);
    out
}

/// `name -> module` for the root re-exports (`pub use module::{A, B};`, over any lines).
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let code = strip(lib);
    let mut out = BTreeMap::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("pub use ") {
        rest = &rest[i + "pub use ".len()..];
        let stmt = rest.split(';').next().unwrap_or_default();
        for p in paths(stmt) {
            if let (Some(module), Some(name)) = (p.first(), p.last())
                && p.len() > 1
            {
                out.insert(name.clone(), module.clone());
            }
        }
    }
    out
}

/// The top-level module (or root item) each crate-rooted path in `code` starts
/// with, and the line it is on. `depth` is the file's module depth below the
/// root (`a.rs`, `a/mod.rs`: 1; `a/b.rs`: 2), for `super::` paths.
fn named(code: &str, depth: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let lines: Vec<&str> = code.lines().collect();
    let line_of = |at: usize| {
        let n = code[..at].matches('\n').count();
        lines.get(n).map_or("", |l| l.trim()).to_owned()
    };
    let boundary = |at: usize| at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':');
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(i) = rest.find(['c', 's']) else { break };
        let here = at + i;
        let tail = &code[here..];
        let rooted = if !boundary(here) {
            None
        } else if let Some(r) = tail.strip_prefix("crate::") {
            Some(r)
        } else if tail.starts_with("super::") {
            let mut r = tail;
            let mut ups = 0;
            while let Some(next) = r.strip_prefix("super::") {
                r = next.trim_start();
                ups += 1;
            }
            (ups >= depth).then_some(r)
        } else {
            None
        };
        match rooted {
            Some(r) => {
                for p in paths(r) {
                    if let Some(first) = p.first() {
                        out.push((first.clone(), line_of(here)));
                    }
                }
                at = code.len() - r.len();
            }
            None => at = here + 1,
        }
    }
    out
}

/// Every upward name in `files` (`(path below src, text)`), given `lib.rs`.
fn upward(files: &[(String, String)], lib: &str) -> Vec<String> {
    let reexports = reexports(lib);
    let rank = |m: &str| ORDER.iter().position(|o| *o == m);
    let mut found = Vec::new();
    for (rel, text) in files {
        let parts: Vec<&str> = rel.split('/').collect();
        let top = parts[0].trim_end_matches(".rs");
        let is_test = parts.last().is_some_and(|f| *f == "tests.rs") || parts.contains(&"tests");
        if matches!(top, "lib" | "main" | "cli" | "tests") || is_test {
            continue;
        }
        let Some(own) = rank(top) else {
            found.push(format!("{rel}: module `{top}` has no place in ORDER"));
            continue;
        };
        // `a.rs` and `a/mod.rs` sit one level below the root, `a/b.rs` two.
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        for (word, line) in named(&without_tests(&strip(text)), depth) {
            if ROOT_FNS.contains(&word.as_str()) || word == "self" {
                continue;
            }
            let module = match reexports.get(&word) {
                Some(m) => m.clone(),
                None if word.starts_with(char::is_uppercase) => {
                    found.push(format!("{rel}: `{top}` names `crate::{word}`, which is no root re-export: {line}"));
                    continue;
                }
                None => word,
            };
            match rank(&module) {
                Some(_) if module == top => {}
                Some(r) if r < own => {}
                _ => found.push(format!("{rel}: `{top}` names `{module}`: {line}")),
            }
        }
    }
    found
}

fn files(dir: &Path, src: &Path, out: &mut Vec<(String, String)>) {
    for p in super::entries(dir) {
        if p.is_dir() {
            files(&p, src, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(src).expect("below src").iter().map(|c| c.to_string_lossy()).collect::<Vec<_>>();
            out.push((rel.join("/"), std::fs::read_to_string(&p).expect("readable")));
        }
    }
}

#[test]
fn layers_only_import_downwards() {
    let src = super::root().join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut all = Vec::new();
    files(&src, &src, &mut all);
    assert!(all.len() > 50, "the source tree was read ({} files)", all.len());
    let found = upward(&all, &lib);
    assert!(found.is_empty(), "imports that go up the layers (see ORDER):\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_every_form_of_upward_import() {
    let lib = "pub use emission::{Action, Emission};\npub use stream::{\n    EarlyError,\n    StreamDecoder,\n};\n";
    let file = |rel: &str, text: &str| vec![(rel.to_owned(), text.to_owned())];
    let up = |rel: &str, text: &str| !upward(&file(rel, text), lib).is_empty();
    // Each of these names a module above `note`.
    for text in [
        "use crate::emission::Emission;",
        "fn f() { crate::decode::x(); }",
        "use crate::{error::Error, decode::Raw};",
        "use crate::{\n    error::{Error, ErrorKind},\n    stream::X,\n};",
        "use super::stream::X;",
        "fn f(_: crate::Emission) {}",
        "fn f(_: crate::StreamDecoder) {}",
        "fn f(_: crate::Unknown) {}",
        "#[cfg(test)]\nmod tests {\n    use crate::laws;\n}\nfn after(_: crate::decode::Raw) {}",
    ] {
        assert!(up("note.rs", text), "not seen: {text}");
    }
    assert!(up("note/inner.rs", "use super::super::decode::Raw;"));
    assert!(up("newmodule.rs", ""), "a module without a place in ORDER");
    // And none of these does.
    for text in [
        "use crate::error::Error;\nuse crate::{pointer, vocab::Draft};",
        "// crate::stream in a comment\n/* crate::decode */ fn f() {}",
        "const S: &str = \"crate::stream::X\"; const R: &str = r#\"crate::decode\"#; const C: char = '\"';",
        "#[cfg(test)]\nmod tests {\n    use crate::laws;\n}",
        "use super::pointer::escape;",
        "fn f<'a>(x: &'a str) -> &'a str { crate::pointer::x(x) }",
    ] {
        assert!(!up("note.rs", text), "wrongly seen: {text}: {:?}", upward(&file("note.rs", text), lib));
    }
    assert!(!up("note/inner.rs", "use super::sibling::X;"), "`super` inside a module stays in it");
    assert_eq!(reexports(lib).get("StreamDecoder").map(String::as_str), Some("stream"));
}
