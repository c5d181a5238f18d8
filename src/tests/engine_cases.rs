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
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

mod values;
use values::{canonical_numbers, compact, order_keys, probe_variants, spaced, synthesise};

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
