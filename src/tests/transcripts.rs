//! The transcript fixtures (`src/tests/streams/<provider>/<case>.{sse,ndjson}`):
//! each read in 7-byte chunks into `snapshots/stream/`, and each ending as
//! `decode` of the whole response it stands for.

use crate::Provider;
use serde_json::Value;

/// Every transcript fixture: `(provider, case, options and schema, transcript)`.
fn transcripts() -> Vec<(String, String, Value, String)> {
    super::grouped_json(&super::root().join("src/tests/streams"))
        .into_iter()
        .map(|(pname, case, f)| {
            let spec: Value = serde_json::from_str(&std::fs::read_to_string(&f).expect("readable")).expect("JSON");
            let transcript = ["sse", "ndjson"]
                .iter()
                .find_map(|x| std::fs::read_to_string(f.with_extension(x)).ok())
                .unwrap_or_else(|| panic!("{} has a .sse or .ndjson transcript beside it", f.display()));
            (pname, case, spec, transcript)
        })
        .collect()
}

/// A transcript's events, its bytes fed in `chunk`-byte pieces.
fn split_events(transcript: &str, chunk: usize) -> Vec<crate::StreamEvent> {
    let mut split = crate::EventSplitter::new();
    let mut events: Vec<crate::StreamEvent> = transcript.as_bytes().chunks(chunk).flat_map(|c| split.feed(c)).collect();
    events.extend(split.finish());
    events
}

/// The partial sequence and the end of one transcript, read in 7-byte chunks.
fn render_transcript(spec: &Value, provider: Provider, transcript: &str) -> String {
    use std::fmt::Write as _;
    let em = super::fixture_emission(spec, provider);
    let events = split_events(transcript, 7);
    let mut out = format!("enforcement: {}\n", em.enforcement());
    let mut stream = em.stream();
    let mut told = false;
    for (i, e) in events.iter().enumerate() {
        let p = stream.push_event(e);
        let _ = write!(out, "{:>3} {}", i + 1, p.value().map_or_else(|| "-".to_owned(), Value::to_string));
        let done: Vec<&str> = p.completed().collect();
        if !done.is_empty() {
            let _ = write!(out, "  done: {}", done.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join(" "));
        }
        if let Some(open) = p.open() {
            let _ = write!(out, "  open: {open:?}");
        }
        out.push('\n');
        if let Some(err) = p.error().filter(|_| !told) {
            told = true;
            let _ = writeln!(out, "    early error: {}: {err}", err.kind());
        }
    }
    match stream.finish() {
        Ok(a) => {
            let _ = writeln!(out, "end: ok, finish_reason: {}\nvalue: {}", a.finish_reason(), a.value());
        }
        Err(e) => {
            let _ = writeln!(out, "end: error: {}\n- {e}", e.kind());
            if let crate::DecodeError::Truncated { text } = &e {
                let _ = writeln!(out, "- text: {text:?}");
            }
        }
    }
    out
}

#[test]
fn stream_golden() {
    let all = transcripts();
    assert!(all.len() >= 30, "transcript fixtures present");
    let mut failed = Vec::new();
    for (pname, case, spec, transcript) in all {
        let provider: Provider = pname.parse().expect("folder names a provider");
        let rendered = render_transcript(&spec, provider, &transcript);
        let name = format!("{pname}__{case}");
        if !super::snapshot("stream", &name, Some(format!("src/tests/streams/{pname}/{case}.json")), &rendered) {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "stream snapshots differ:\n{}", failed.join("\n"));
}

/// The names of the stream snapshots the transcripts call for.
pub(crate) fn expected_snapshots() -> Vec<String> {
    transcripts().into_iter().map(|(p, c, _, _)| format!("stream/{p}__{c}.snap")).collect()
}

/// Where a fixture also holds `body`, the provider's whole (non-streaming)
/// response for the same answer, written from the provider's documentation and
/// not by this crate: the stream ends exactly as `decode` of that body.
#[test]
fn ok_transcripts_end_as_decode_of_the_whole_response() {
    let mut checked = 0;
    for (pname, case, spec, transcript) in transcripts() {
        let Some(body) = spec.get("body") else { continue };
        let provider: Provider = pname.parse().expect("folder names a provider");
        let em = super::fixture_emission(&spec, provider);
        let want = em.decode(body);
        // What the whole response means, read from the case's name, so that an
        // error on both sides cannot pass for agreement.
        let expected = ["refusal", "truncated", "not-json", "no-answer"].into_iter().find(|k| case.contains(k));
        let got = want.as_ref().err().map(|e| e.kind().replace('_', "-"));
        assert_eq!(got.as_deref(), expected, "{pname}/{case}: decode of the whole response: {want:?}");
        for chunk in [1, 7, 4096] {
            let mut stream = em.stream();
            for e in split_events(&transcript, chunk) {
                stream.push_event(&e);
            }
            assert_eq!(stream.finish(), want, "{pname}/{case}, {chunk}-byte chunks");
        }
        checked += 1;
    }
    assert!(checked >= 6, "whole-response bodies beside the transcripts: {checked}");
}

#[test]
fn ok_every_provider_has_a_transcript() {
    let all = transcripts();
    for p in Provider::ALL {
        assert!(all.iter().any(|(name, ..)| name == p.name()), "{p} has a transcript fixture");
    }
}
