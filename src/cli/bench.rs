//! `schemacast bench`: how much emission and decoding cost, next to their
//! natural floors, measured in the same run.
//!
//! All timing lives here, in the command line: the library reads no clock.
//!
//! - **Emission** is `compile` plus serialising the body, per schema, for every
//!   provider × mode. Its floor is cloning the schema and serialising the clone.
//! - **Decoding** is `Emission::decode` on a whole response body of the
//!   provider's own shape (`Emission::response_for`; extract,
//!   parse, validate), per answer. Its floor is `serde_json::from_str` plus
//!   validation with a validator built beforehand.
//!
//! - **Streaming** (`--stream`, [`stream`]): a 100 KB answer in 16-byte events
//!   through `StreamDecoder`, against one `decode` of the whole response.
//!
//! Each figure is the median of `--rounds` rounds. A round repeats its work
//! until it lasts at least [`ROUND_TARGET`], so short corpora are timed
//! reliably. Peak memory is the process's peak resident set (`VmHWM`), reset
//! before each row through `/proc/self/clear_refs` on Linux, so each row shows
//! its own peak; elsewhere it prints `n/a`.

mod scaling;
mod stream;

use super::{Args, Io};
use schemacast::{Emission, Mode, Provider};
use serde_json::Value;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The default corpora, relative to the working directory.
const DEFAULT_CORPORA: [&str; 2] = ["fixtures", "fixtures/json-schema-test-suite/draft2020-12"];

/// The shortest round; work is repeated within a round to reach it.
const ROUND_TARGET: Duration = Duration::from_millis(20);

/// Rounds when `--rounds` is not given.
const DEFAULT_ROUNDS: usize = 7;

/// A named set of schemas, with the instances the suite ships for them.
struct Corpus {
    name: String,
    schemas: Vec<Value>,
    /// `(index into schemas, instance)` for every instance marked valid.
    answers: Vec<(usize, Value)>,
}

impl Corpus {
    fn new(name: String) -> Self {
        Corpus { name, schemas: Vec::new(), answers: Vec::new() }
    }

    /// Adds a file: a plain schema, or a JSON-Schema-Test-Suite file (an array
    /// of `{"schema", "tests"}` cases).
    fn add_file(&mut self, path: &Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let text = super::io::without_bom(text);
        let v: Value = serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        match v {
            Value::Array(cases)
                if !cases.is_empty() && cases.iter().all(|c| c.get("schema").is_some() && c.get("tests").is_some()) =>
            {
                for mut case in cases {
                    let index = self.schemas.len();
                    self.schemas.push(case["schema"].take());
                    for t in case["tests"].as_array_mut().into_iter().flatten() {
                        if t.get("valid") == Some(&Value::Bool(true)) {
                            self.answers.push((index, t["data"].take()));
                        }
                    }
                }
            }
            other => self.schemas.push(other),
        }
        Ok(())
    }

    /// Adds every `.json` file under `dir`, in path order.
    fn add_dir(&mut self, dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != super::coverage::OWN_CORPUS) {
                    self.add_dir(&p);
                }
            } else if p.extension().is_some_and(|x| x == "json") {
                // A file that is not JSON is not a schema; skip it like `coverage` does.
                let _ = self.add_file(&p);
            }
        }
    }
}

/// The corpora named on the command line: one per folder, one for all files.
fn corpora(args: &Args, io: &mut Io<'_>) -> Result<Vec<Corpus>, String> {
    let named: Vec<&str> = args.input.iter().chain(&args.second).chain(&args.extra).map(String::as_str).collect();
    let mut out = Vec::new();
    if named.is_empty() {
        for dir in DEFAULT_CORPORA {
            if Path::new(dir).is_dir() {
                let mut c = Corpus::new(dir.to_owned());
                c.add_dir(Path::new(dir));
                out.push(c);
            } else {
                io.eprint(&format!("notice: {dir} is absent; skipping it"));
            }
        }
        if out.is_empty() {
            return Err("no default corpus here: run from the repository, or name folders or files".to_owned());
        }
        return Ok(out);
    }
    let mut files = Corpus::new("files".to_owned());
    for path in named {
        let p = Path::new(path);
        if p.is_dir() {
            let mut c = Corpus::new(path.to_owned());
            c.add_dir(p);
            out.push(c);
        } else {
            files.add_file(p)?;
        }
    }
    if !files.schemas.is_empty() {
        out.push(files);
    }
    Ok(out)
}

/// The median time of one repetition of `work`, over `rounds` rounds.
fn measure(rounds: usize, mut work: impl FnMut() -> usize) -> Duration {
    let start = Instant::now();
    black_box(work());
    let once = start.elapsed().max(Duration::from_micros(1));
    let reps = u32::try_from(ROUND_TARGET.as_nanos().div_ceil(once.as_nanos())).unwrap_or(u32::MAX).clamp(1, 10_000);
    let mut times: Vec<Duration> = (0..rounds.max(1))
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                black_box(work());
            }
            start.elapsed() / reps
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The process's peak resident set since the last reset, in bytes (Linux only).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// Resets the peak resident set to the current one; `false` where unsupported.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Runs `f` and returns its result with the peak resident set while it ran.
fn with_peak<T>(f: impl FnOnce() -> T) -> (T, String) {
    let resettable = reset_peak();
    let out = f();
    let peak = if resettable { peak_rss().map_or_else(|| "n/a".to_owned(), mib) } else { "n/a".to_owned() };
    (out, peak)
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn per_item(t: Duration, n: usize) -> f64 {
    t.as_nanos() as f64 / n.max(1) as f64
}

/// One table row: name, throughput, time per item, ratio to the floor, peak.
fn row(io: &mut Io<'_>, name: &str, mode: &str, ns: f64, floor_ns: f64, floor: &str, peak: &str) {
    let per_second = if ns > 0.0 { 1e9 / ns } else { 0.0 };
    let ratio = if floor_ns > 0.0 { ns / floor_ns } else { 0.0 };
    io.print(&format!(
        "{name:<16} {mode:<7} {:>12} {:>12} {:>9} {floor:<6} {peak:>10}",
        group(per_second),
        group(ns),
        format!("{ratio:.2}x")
    ));
}

/// A number rounded and with thousands separators.
fn group(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(crate) fn run(args: &Args, io: &mut Io<'_>) -> i32 {
    let rounds = args.rounds.unwrap_or(DEFAULT_ROUNDS);
    let providers: Vec<Provider> = match args.provider {
        Some(p) => vec![p],
        None => Provider::ALL.to_vec(),
    };
    let modes: Vec<Mode> = match args.mode {
        Some(m) => vec![m],
        None => Mode::ALL.to_vec(),
    };
    if args.stream {
        io.print(&format!("{rounds} rounds, median; a round lasts at least {} ms", ROUND_TARGET.as_millis()));
        stream::table(io, rounds, &providers);
        scaling::table(io, rounds, providers.first().copied().unwrap_or(Provider::OpenAi));
        return 0;
    }
    let corpora = match corpora(args, io) {
        Ok(c) => c,
        Err(e) => {
            io.eprint(&format!("error: {e}"));
            return 2;
        }
    };
    io.print(&format!("{rounds} rounds, median; a round lasts at least {} ms", ROUND_TARGET.as_millis()));
    for corpus in &corpora {
        if corpus.schemas.is_empty() {
            io.eprint(&format!("notice: no JSON schemas under {}; skipping it", corpus.name));
            continue;
        }
        emission_table(args, io, corpus, rounds, &providers, &modes);
        decode_table(args, io, corpus, rounds, &providers);
    }
    // The wide shapes for a provider of each dialect family (or the one asked for).
    let scaled: Vec<Provider> = match args.provider {
        Some(p) => vec![p],
        None => vec![Provider::OpenAi, Provider::Gemini, Provider::Claude, Provider::LlamaCpp],
    };
    scaling::emission_table(io, rounds, &scaled);
    0
}

fn emission_table(
    args: &Args,
    io: &mut Io<'_>,
    corpus: &Corpus,
    rounds: usize,
    providers: &[Provider],
    modes: &[Mode],
) {
    let n = corpus.schemas.len();
    let failing = corpus.schemas.iter().filter(|s| args.options(Provider::ALL[0]).compile(s).is_err()).count();
    io.print(&format!(
        "\n{}: {n} schemas ({failing} fail preflight, timed too), emission = compile + serialise the body",
        corpus.name
    ));
    io.print(&format!(
        "{:<16} {:<7} {:>12} {:>12} {:>16} {:>10}",
        "provider", "mode", "schemas/s", "ns/schema", "ratio", "peak RSS"
    ));
    let (floor, peak) = with_peak(|| {
        measure(rounds, || {
            corpus.schemas.iter().map(|s| serde_json::to_string(&s.clone()).map_or(0, |t| t.len())).sum()
        })
    });
    let floor_ns = per_item(floor, n);
    row(io, "clone+ser", "-", floor_ns, floor_ns, "clone", &peak);
    let mut worst: Option<(f64, Provider, Mode)> = None;
    for p in providers {
        for m in modes {
            let options = args.options(*p).with_mode(*m);
            let (t, peak) = with_peak(|| {
                measure(rounds, || {
                    corpus
                        .schemas
                        .iter()
                        .map(|s| match options.compile(s) {
                            Ok(em) => serde_json::to_string(em.body()).map_or(0, |t| t.len()),
                            Err(e) => e.problems().len(),
                        })
                        .sum()
                })
            });
            let ns = per_item(t, n);
            row(io, p.name(), m.name(), ns, floor_ns, "clone", &peak);
            let ratio = ns / floor_ns.max(f64::MIN_POSITIVE);
            if worst.is_none_or(|(r, ..)| ratio > r) {
                worst = Some((ratio, *p, *m));
            }
        }
    }
    if let Some((r, p, m)) = worst {
        io.print(&format!("slowest emission: {r:.2}x clone ({p}, {m})"));
    }
}

fn decode_table(args: &Args, io: &mut Io<'_>, corpus: &Corpus, rounds: usize, providers: &[Provider]) {
    if corpus.answers.is_empty() {
        io.print(&format!("{}: no answers to decode (only JSON-Schema-Test-Suite files ship instances)", corpus.name));
        return;
    }
    // Answers whose schema compiles for every provider, so every row decodes
    // the same answers as the floor.
    let compiles: Vec<bool> = corpus
        .schemas
        .iter()
        .map(|s| providers.iter().all(|p| args.options(*p).with_mode(Mode::Schema).compile(s).is_ok()))
        .collect();
    let floor_validators: Vec<Option<jsonschema::Validator>> = corpus
        .schemas
        .iter()
        .zip(&compiles)
        .map(
            |(s, ok)| {
                if *ok { jsonschema::options().should_validate_formats(true).offline().build(s).ok() } else { None }
            },
        )
        .collect();
    let answers: Vec<(usize, String, &Value)> = corpus
        .answers
        .iter()
        .filter(|(i, _)| floor_validators[*i].is_some())
        .map(|(i, v)| (*i, v.to_string(), v))
        .collect();
    if answers.is_empty() {
        io.print(&format!("{}: no answers to decode (only JSON-Schema-Test-Suite files ship instances)", corpus.name));
        return;
    }
    let n = answers.len();
    io.print(&format!("\n{}: {n} valid answers, decode = extract + parse + validate (mode schema)", corpus.name));
    io.print(&format!(
        "{:<16} {:<7} {:>12} {:>12} {:>16} {:>10}",
        "provider", "mode", "answers/s", "ns/answer", "ratio", "peak RSS"
    ));
    let (floor, peak) = with_peak(|| {
        measure(rounds, || {
            answers
                .iter()
                .filter(|(i, text, _)| {
                    let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
                    floor_validators[*i].as_ref().is_some_and(|val| val.is_valid(&v))
                })
                .count()
        })
    });
    let floor_ns = per_item(floor, n);
    row(io, "parse+valid", "-", floor_ns, floor_ns, "parse", &peak);
    for p in providers {
        let options = args.options(*p).with_mode(Mode::Schema);
        let emissions: Vec<Option<Emission>> = corpus
            .schemas
            .iter()
            .zip(&compiles)
            .map(|(s, ok)| if *ok { options.compile(s).ok() } else { None })
            .collect();
        // Each answer in a response body of this provider's own shape.
        let bodies: Vec<Option<Value>> =
            answers.iter().map(|(i, _, answer)| emissions[*i].as_ref().map(|em| em.response_for(answer))).collect();
        let mut accepted = 0;
        let (t, peak) = with_peak(|| {
            measure(rounds, || {
                accepted = answers
                    .iter()
                    .zip(&bodies)
                    .filter(|((i, _, _), body)| {
                        emissions[*i].as_ref().zip(body.as_ref()).is_some_and(|(em, b)| em.decode(b).is_ok())
                    })
                    .count();
                accepted
            })
        });
        row(io, p.name(), "schema", per_item(t, n), floor_ns, "parse", &peak);
        if accepted != n {
            io.eprint(&format!(
                "notice: {p} accepted {accepted} of the {n} answers the corpus marks valid (formats are asserted by default)"
            ));
        }
    }
}
