//! Cases for the engine conformance suite (`.ci/engines/`): for every fixture
//! with the instances committed beside it (`<case>.instances.jsonl`, as the
//! application schemas have) and every case of the vendored
//! JSON-Schema-Test-Suite (all five drafts, remote documents supplied), and for
//! each grammar-engine provider (vLLM, llama.cpp server, Ollama), the native
//! schema schemacast sends and the JSON texts of the schema's valid instances
//! after the emission's own projection, spelled the ways a grammar engine may
//! generate them.
//!
//! With `SCHEMACAST_ENGINE_CASES=FILE`, `engine_cases` writes them to `FILE`
//! as JSON lines, one per provider and distinct native schema:
//!
//! ```text
//! {"provider","source","sources","enforcement","notes","native","values","texts","groups","group_sources"}
//! ```
//!
//! `values[i]` is a projected valid instance and `groups[i]` the indices into
//! `texts` of its spellings (native key order compact and spaced, instance
//! order compact); `group_sources[i]` indexes `sources`, the schemas the
//! value came from (identical native schemas are merged). The harness
//! (`.ci/engines/run_conformance.py`) adds engine-specific spellings and runs
//! every engine. Without the variable the test checks the writer on one fixture.

use super::{corpus, golden};
use crate::{Draft, Emission, Options, Provider};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

/// The grammar-engine providers and their names in the cases.
const PROVIDERS: [Provider; 3] = [Provider::Vllm, Provider::LlamaCpp, Provider::Ollama];

/// Strings that make an engine's string rule handle escapes, controls and
/// non-ASCII text: each replaces string leaves of valid values, kept when the
/// result is still valid.
const PROBES: [&str; 7] = ["a\"b\\c\nd\te\u{e9}", "\"", "\\", "\n", "\t", "\u{e9}\u{4e2d}", "x\u{1}y"];

/// Values per schema and provider, and per merged case.
const MAX_VALUES: usize = 40;
const MAX_MERGED_VALUES: usize = 160;
/// Native schemas longer than this get fewer values, down to [`MIN_VALUES`]:
/// an engine reads each value's text byte by byte, and the largest fixtures
/// have values of 100 KB.
const LARGE_NATIVE: usize = 16 * 1024;
const MIN_VALUES: usize = 4;

/// Where a schema comes from, and so how it is compiled.
enum Origin {
    /// A fixture of `group`, read as the golden snapshots read it.
    Fixture { group: String },
    /// A case of the suite, read as the sweep reads it.
    Suite { draft: Draft, resources: Vec<(String, Value)> },
}

/// One schema with the instances to try.
struct Source {
    label: String,
    schema: Value,
    origin: Origin,
    instances: Vec<Value>,
}

impl Source {
    fn options(&self, provider: Provider) -> Options {
        match &self.origin {
            Origin::Fixture { group } => golden::with_documents(group, Options::new(provider)),
            Origin::Suite { draft, resources } => {
                let case = corpus::Case {
                    name: String::new(),
                    schema: Value::Null,
                    instances: Vec::new(),
                    resources: resources.clone(),
                };
                corpus::case_options(&case, *draft, provider)
            }
        }
    }
}

/// Every fixture (the suite's files excepted), with the instances committed
/// beside it (`<case>.instances.jsonl`: the application schemas' and a few
/// others'), then every case of the suite's five drafts.
fn sources() -> Vec<Source> {
    let mut out = Vec::new();
    for (group, case, path) in super::fixtures() {
        if group == "json-schema-test-suite" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("fixture is readable");
        let Ok(schema) = serde_json::from_str::<Value>(&text) else { continue };
        let mut instances = super::instances(&path);
        instances.extend(crate::laws::candidates(&schema));
        instances.extend(synthesise(&schema));
        out.push(Source {
            label: format!("fixtures/{group}/{case}.json"),
            schema,
            origin: Origin::Fixture { group },
            instances,
        });
    }
    for draft in Draft::ALL {
        for case in corpus::suite(*draft) {
            out.push(Source {
                label: format!("suite {}/{}", corpus::folder(*draft), case.name),
                schema: case.schema,
                origin: Origin::Suite { draft: *draft, resources: case.resources },
                instances: case.instances,
            });
        }
    }
    out
}

/// The native schema of a grammar-engine emission, as the engine receives it:
/// `response_format.json_schema.schema` (vLLM, llama.cpp server) or Ollama's
/// `format` object. `None` for JSON mode.
fn native(em: &Emission) -> Option<Value> {
    crate::native::sent_schema(em.provider(), em.body())
}

/// One line of the output: a provider and a distinct native schema.
struct Case {
    provider: &'static str,
    enforcement: &'static str,
    notes: Vec<String>,
    native: Value,
    sources: Vec<String>,
    values: Vec<(usize, Value)>,
    seen: BTreeSet<String>,
}

/// What [`write_cases`] did, for the log and the checks.
#[derive(Debug, Default)]
struct Stats {
    lines: usize,
    values: usize,
    emissions: usize,
    without_native: usize,
    errors: BTreeMap<String, usize>,
    /// Lines per provider.
    per_provider: BTreeMap<&'static str, usize>,
    /// Values per provider: what the engines are asked to accept.
    values_per_provider: BTreeMap<&'static str, usize>,
}

/// At most `max` projected valid values of one source under one emission:
/// its instances first, then their escape-heavy variants.
fn valid_values(em: &Emission, source: &Source, max: usize) -> Vec<Value> {
    let Ok(Some(validator)) = em.local_validator() else { return Vec::new() };
    let mut seen = BTreeSet::new();
    let mut values = Vec::new();
    for x in &source.instances {
        if validator.is_valid(x) {
            let y = canonical_numbers(&em.project(x));
            if seen.insert(y.to_string()) {
                values.push(y);
            }
        }
    }
    values.truncate(max);
    let mut variants = Vec::new();
    for v in &values {
        for probe in PROBES {
            if values.len() + variants.len() >= max {
                break;
            }
            for variant in probe_variants(v, probe) {
                if validator.is_valid(&variant) {
                    let y = canonical_numbers(&em.project(&variant));
                    if seen.insert(y.to_string()) {
                        variants.push(y);
                    }
                }
            }
        }
    }
    values.extend(variants);
    values.truncate(max);
    values
}

/// Compiles every source for every provider and writes the cases to `out`.
fn write_cases(sources: &[Source], out: &mut impl Write) -> Stats {
    let mut stats = Stats::default();
    let mut cases: Vec<Case> = Vec::new();
    let mut index: BTreeMap<(&'static str, String), usize> = BTreeMap::new();
    for source in sources {
        for provider in PROVIDERS {
            let em = match source.options(provider).compile(&source.schema) {
                Ok(em) => em,
                Err(e) => {
                    *stats.errors.entry(format!("{} {}", provider.name(), e.kind())).or_default() += 1;
                    continue;
                }
            };
            stats.emissions += 1;
            let Some(native) = native(&em) else {
                stats.without_native += 1;
                continue;
            };
            let text = native.to_string();
            let max = match text.len() {
                n if n > LARGE_NATIVE => (MAX_VALUES * LARGE_NATIVE / n).max(MIN_VALUES),
                _ => MAX_VALUES,
            };
            let values = valid_values(&em, source, max);
            let key = (provider.name(), text);
            let at = *index.entry(key).or_insert_with(|| {
                cases.push(Case {
                    provider: provider.name(),
                    enforcement: em.enforcement().as_str(),
                    notes: em.notes().iter().map(ToString::to_string).collect(),
                    native,
                    sources: Vec::new(),
                    values: Vec::new(),
                    seen: BTreeSet::new(),
                });
                cases.len() - 1
            });
            let case = &mut cases[at];
            let source_at = case.sources.len();
            case.sources.push(source.label.clone());
            for v in values {
                if case.values.len() < MAX_MERGED_VALUES && case.seen.insert(v.to_string()) {
                    case.values.push((source_at, v));
                }
            }
        }
    }
    for case in &cases {
        let line = case_line(case);
        writeln!(out, "{line}").expect("the cases file is writable");
        stats.lines += 1;
        stats.values += case.values.len();
        *stats.per_provider.entry(case.provider).or_default() += 1;
        *stats.values_per_provider.entry(case.provider).or_default() += case.values.len();
    }
    out.flush().expect("the cases file is writable");
    stats
}

/// A case as its JSON line, with the texts of its values.
fn case_line(case: &Case) -> Value {
    let mut texts: Vec<String> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (_, v) in &case.values {
        let ordered = order_keys(v, &case.native, &case.native, 0);
        let mut group = Vec::new();
        for t in [compact(&ordered), spaced(&ordered), compact(v)] {
            let i = texts.iter().position(|x| *x == t).unwrap_or_else(|| {
                texts.push(t);
                texts.len() - 1
            });
            if !group.contains(&i) {
                group.push(i);
            }
        }
        groups.push(group);
    }
    json!({
        "provider": case.provider,
        "source": case.sources[0],
        "sources": case.sources,
        "enforcement": case.enforcement,
        "notes": case.notes,
        "native": case.native,
        "values": case.values.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>(),
        "texts": texts,
        "groups": groups,
        "group_sources": case.values.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
    })
}

/// A few instances built from the schema's shape (every property, then the
/// required ones only), for fixtures whose literals give no valid instance.
fn synthesise(schema: &Value) -> Vec<Value> {
    [true, false].into_iter().filter_map(|all| sample(schema, schema, all, 0)).collect()
}

/// `node` with local `$ref`s followed.
fn resolve<'a>(node: &'a Value, root: &'a Value, depth: usize) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str) {
        Some(r) if r.starts_with('#') && depth < 16 => match root.pointer(&r[1..]) {
            Some(t) => resolve(t, root, depth + 1),
            None => node,
        },
        _ => node,
    }
}

fn sample(node: &Value, root: &Value, all: bool, depth: usize) -> Option<Value> {
    if depth > 12 {
        return None;
    }
    let node = resolve(node, root, 0);
    let Value::Object(m) = node else {
        return if *node == json!(false) { None } else { Some(json!("x")) };
    };
    if let Some(c) = m.get("const") {
        return Some(c.clone());
    }
    for k in ["enum", "examples"] {
        if let Some(x) = m.get(k).and_then(Value::as_array).and_then(|e| e.first()) {
            return Some(x.clone());
        }
    }
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(k) {
            return bs.iter().find_map(|b| sample(b, root, all, depth + 1));
        }
    }
    if let Some(Value::Array(bs)) = m.get("allOf") {
        let mut merged = Map::new();
        for b in bs {
            if let Some(Value::Object(o)) = sample(b, root, all, depth + 1) {
                merged.extend(o);
            }
        }
        if !merged.is_empty() {
            return Some(Value::Object(merged));
        }
    }
    let ty = match m.get("type") {
        Some(Value::String(t)) => t.as_str(),
        // Every property: the first type; required ones only: `null` where allowed.
        Some(Value::Array(ts)) if !all && ts.contains(&json!("null")) => "null",
        Some(Value::Array(ts)) => ts.iter().find_map(Value::as_str).unwrap_or("null"),
        _ if m.contains_key("properties") => "object",
        _ if m.contains_key("items") || m.contains_key("prefixItems") => "array",
        _ => "string",
    };
    Some(match ty {
        "object" => {
            let required: BTreeSet<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let mut o = Map::new();
            if let Some(Value::Object(props)) = m.get("properties") {
                for (k, s) in props {
                    if all || required.contains(k.as_str()) {
                        o.insert(k.clone(), sample(s, root, all, depth + 1)?);
                    }
                }
            }
            Value::Object(o)
        }
        "array" => {
            let mut a = Vec::new();
            if let Some(Value::Array(prefix)) = m.get("prefixItems") {
                for s in prefix {
                    a.push(sample(s, root, all, depth + 1)?);
                }
            } else if let Some(items) = m.get("items") {
                let n = m.get("minItems").and_then(Value::as_u64).unwrap_or(1).clamp(1, 3);
                for _ in 0..n {
                    a.extend(sample(items, root, all, depth + 1));
                }
            }
            Value::Array(a)
        }
        "integer" => json!(m.get("minimum").and_then(Value::as_i64).unwrap_or(0)),
        "number" => m.get("minimum").cloned().unwrap_or(json!(0.5)),
        "boolean" => json!(true),
        "null" => Value::Null,
        _ if m.contains_key("format") => json!(match m.get("format").and_then(Value::as_str) {
            Some("email") => "a@example.com",
            Some("date") => "2024-01-02",
            Some("date-time") => "2024-01-02T03:04:05Z",
            Some("time") => "03:04:05Z",
            Some("uuid") => "123e4567-e89b-12d3-a456-426614174000",
            Some("ipv4") => "192.0.2.1",
            Some("ipv6") => "2001:db8::1",
            Some("hostname") => "example.com",
            Some("uri" | "url") => "https://example.com/a",
            _ => "s",
        }),
        _ => {
            let n = m.get("minLength").and_then(Value::as_u64).unwrap_or(1).clamp(1, 8);
            json!("s".repeat(usize::try_from(n).unwrap_or(1)))
        }
    })
}

/// `v` with every string leaf replaced by `probe`, then with each of its first
/// four string leaves replaced alone.
fn probe_variants(v: &Value, probe: &str) -> Vec<Value> {
    let mut out = vec![replace_strings(v, probe, None, &mut 0)];
    for i in 0..count_strings(v).min(4) {
        out.push(replace_strings(v, probe, Some(i), &mut 0));
    }
    out.retain(|x| x != v);
    out
}

fn count_strings(v: &Value) -> usize {
    match v {
        Value::String(_) => 1,
        Value::Array(a) => a.iter().map(count_strings).sum(),
        Value::Object(o) => o.values().map(count_strings).sum(),
        _ => 0,
    }
}

fn replace_strings(v: &Value, probe: &str, only: Option<usize>, seen: &mut usize) -> Value {
    match v {
        Value::String(s) => {
            let i = *seen;
            *seen += 1;
            Value::String(if only.is_none_or(|o| o == i) { probe.to_owned() } else { s.clone() })
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| replace_strings(x, probe, only, seen)).collect()),
        Value::Object(o) => {
            Value::Object(o.iter().map(|(k, x)| (k.clone(), replace_strings(x, probe, only, seen))).collect())
        }
        other => other.clone(),
    }
}

/// Integral floats (`1.0`) written as integers, as a grammar for `integer`
/// spells them (the harness adds the `1.0` spelling back).
fn canonical_numbers(v: &Value) -> Value {
    match v {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            #[allow(clippy::cast_possible_truncation)]
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => json!(f as i64),
            _ => v.clone(),
        },
        Value::Array(a) => Value::Array(a.iter().map(canonical_numbers).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), canonical_numbers(x))).collect()),
        other => other.clone(),
    }
}

fn type_fits(node: &Value, v: &Value) -> bool {
    let name = match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let ok = |t: &str| t == name || (t == "number" && name == "integer");
    match node.get("type") {
        Some(Value::String(t)) => ok(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(ok),
        _ => true,
    }
}

/// How well a union branch fits a value: type, `const`/`enum`, declared keys.
fn fit_score(branch: &Value, root: &Value, v: &Value) -> i64 {
    let b = resolve(branch, root, 0);
    if !type_fits(b, v) {
        return -1000;
    }
    let mut score = 0;
    if let Some(c) = b.get("const") {
        score += if c == v { 50 } else { -500 };
    }
    if let Some(Value::Array(e)) = b.get("enum") {
        score += if e.contains(v) { 50 } else { -500 };
    }
    if let (Value::Object(o), Some(Value::Object(props))) = (v, b.get("properties")) {
        for (k, x) in o {
            score += match props.get(k) {
                Some(s) => 10 + fit_score(s, root, x).min(0) / 10,
                None if b.get("additionalProperties") == Some(&json!(false)) => -100,
                None => -1,
            };
        }
    }
    score
}

/// `v` with object keys in the native schema's `properties` order (the order
/// grammar engines generate), undeclared keys last.
fn order_keys(v: &Value, node: &Value, root: &Value, depth: usize) -> Value {
    if depth > 64 {
        return v.clone();
    }
    let node = resolve(node, root, 0);
    for k in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = node.get(k)
            && let Some(top) = bs.iter().map(|b| fit_score(b, root, v)).max()
            && let Some(first) = bs.iter().find(|b| fit_score(b, root, v) == top)
        {
            return order_keys(v, first, root, depth + 1);
        }
    }
    match v {
        Value::Object(o) => {
            let mut props: Vec<(&String, &Value)> = Vec::new();
            let parts = std::iter::once(node).chain(node.get("allOf").and_then(Value::as_array).into_iter().flatten());
            for part in parts {
                if let Some(Value::Object(p)) = resolve(part, root, 0).get("properties") {
                    for (k, s) in p {
                        if !props.iter().any(|(x, _)| *x == k) {
                            props.push((k, s));
                        }
                    }
                }
            }
            let any = json!({});
            let extra = node.get("additionalProperties").filter(|s| s.is_object()).unwrap_or(&any);
            let mut m = Map::new();
            for (k, s) in &props {
                if let Some(x) = o.get(*k) {
                    m.insert((*k).clone(), order_keys(x, s, root, depth + 1));
                }
            }
            for (k, x) in o {
                if !m.contains_key(k) {
                    m.insert(k.clone(), order_keys(x, extra, root, depth + 1));
                }
            }
            Value::Object(m)
        }
        Value::Array(a) => {
            let prefix = node.get("prefixItems").and_then(Value::as_array);
            let any = json!({});
            let items = node.get("items").unwrap_or(&any);
            let at = |i: usize| prefix.and_then(|p| p.get(i)).unwrap_or(items);
            Value::Array(a.iter().enumerate().map(|(i, x)| order_keys(x, at(i), root, depth + 1)).collect())
        }
        other => other.clone(),
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).expect("a JSON value serialises")
}

/// `{"a": 1, "b": [1, 2]}`: one space after every `:` and `,`.
fn spaced(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("[{}]", a.iter().map(spaced).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter().map(|(k, x)| format!("{}: {}", compact(&json!(k)), spaced(x))).collect::<Vec<_>>().join(", ")
        ),
        other => compact(other),
    }
}

/// With `SCHEMACAST_ENGINE_CASES=FILE`: writes every case to `FILE` (run by
/// `.ci/run`'s engine conformance step). Without it: the writer on the
/// bundled example, checked line by line.
#[test]
fn engine_cases() {
    if let Some(path) = std::env::var_os("SCHEMACAST_ENGINE_CASES") {
        let all = sources();
        let file = std::fs::File::create(&path).expect("the cases file can be created");
        let stats = write_cases(&all, &mut std::io::BufWriter::new(file));
        eprintln!("engine cases: {} schemas -> {stats:?}", all.len());
        assert!(all.len() > 1_500, "every fixture and suite case is read ({})", all.len());
        for p in PROVIDERS {
            assert!(stats.per_provider.get(p.name()).is_some_and(|n| *n > 250), "{p} has its cases: {stats:?}");
            // A case without values only checks that the engine compiles its schema.
            assert!(
                stats.values_per_provider.get(p.name()).is_some_and(|n| *n > 3_000),
                "{p} has values to check: {stats:?}"
            );
        }
        return;
    }
    let path = super::root().join("fixtures/examples/quickstart.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON");
    let source = Source {
        label: "fixtures/examples/quickstart.json".to_owned(),
        instances: crate::laws::candidates(&schema).into_iter().chain(synthesise(&schema)).collect(),
        schema,
        origin: Origin::Fixture { group: "examples".to_owned() },
    };
    let mut out = Vec::new();
    let stats = write_cases(std::slice::from_ref(&source), &mut out);
    let lines: Vec<Value> = std::str::from_utf8(&out)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "one line per provider: {stats:?}");
    for (line, provider) in lines.iter().zip(PROVIDERS) {
        assert_eq!(line["provider"], provider.name());
        assert_eq!(line["source"], source.label);
        let em = source.options(provider).compile(&source.schema).expect("compiles");
        // Where each server documents the schema it hands its engine.
        let documented = match provider {
            Provider::Ollama => em.body().get("format"),
            _ => em.body().pointer("/response_format/json_schema/schema"),
        };
        assert_eq!(Some(&line["native"]), documented, "{provider}: the schema the engine receives");
        let validator = em.local_validator().expect("builds").expect("a validator");
        let values = line["values"].as_array().expect("values");
        let groups = line["groups"].as_array().expect("groups");
        let texts = line["texts"].as_array().expect("texts");
        assert!(values.len() >= 3 && values.len() == groups.len(), "{provider}: values {values:?}");
        for (v, g) in values.iter().zip(groups) {
            assert!(validator.is_valid(v), "{provider}: {v} is valid");
            assert_eq!(em.project(v), *v, "{provider}: {v} is projected");
            for i in g.as_array().expect("a group") {
                let text = texts[usize::try_from(i.as_u64().expect("an index")).expect("small")].as_str();
                let parsed: Value = serde_json::from_str(text.expect("a text")).expect("a JSON text");
                assert_eq!(parsed, *v, "{provider}: every spelling is the value");
            }
        }
        // The escape-heavy probe reached a string of the answer.
        assert!(
            texts.iter().any(|t| t.as_str().is_some_and(|t| t.contains(r#"a\"b\\c\nd\te"#))),
            "{provider}: an escape-heavy spelling: {texts:?}"
        );
    }
}
