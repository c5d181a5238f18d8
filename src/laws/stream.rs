//! Law 5, streaming: an answer text cut into events anywhere decodes exactly as
//! the whole response carrying it; every partial value is a prefix-completion
//! of the final one; every completed pointer already holds its final value;
//! an early error means the final result is an error.

use crate::decode::{DecodeError, response_body, text_body};
use crate::profile::profile;
use crate::{Answer, EarlyError, Emission, Partial};
use serde_json::Value;

/// `text` cut at `cuts` (byte offsets, moved forward to character boundaries).
fn pieces<'t>(text: &'t str, cuts: &[usize]) -> Vec<&'t str> {
    let mut at: Vec<usize> = cuts
        .iter()
        .map(|c| {
            let mut c = (*c).min(text.len());
            while !text.is_char_boundary(c) {
                c += 1;
            }
            c
        })
        .collect();
    at.push(text.len());
    at.sort_unstable();
    at.dedup();
    let mut start = 0;
    let mut out = Vec::new();
    for end in at {
        if end > start {
            out.push(&text[start..end]);
            start = end;
        }
    }
    out
}

/// What `decode` returns for the whole response whose answer (text, or the
/// forced tool's input) is `text`.
fn whole(em: &Emission, text: &str) -> Result<Answer, DecodeError> {
    let envelope = profile(em.provider()).envelope;
    match em.tool.as_deref() {
        Some(tool) => match crate::decode::parse_json(text) {
            // No input delta at all: a block that opens with an input (Anthropic's
            // `{}`) keeps it, and the whole message carries that.
            Err(_)
                if text.trim().is_empty()
                    && let Some(start) = crate::stream::write::tool_opening_input(envelope) =>
            {
                em.decode(&response_body(envelope, Some(tool), &start))
            }
            Ok(v) => em.decode(&response_body(envelope, Some(tool), &v)),
            Err(e) => {
                // A whole response always carries the tool input as JSON; the stream
                // reports text that is not JSON as such (after the schema check).
                em.local_validator().map_err(|s| DecodeError::Schema(s.clone()))?;
                Err(DecodeError::NotJson { text: text.to_owned(), message: e.to_string() })
            }
        },
        None => em.decode(&text_body(envelope, text.to_owned())),
    }
}

/// Whether `p` is `f` with its end not read yet: equal, except that the last
/// element or member (recursively) may be a prefix-completion, a string a prefix.
#[must_use]
pub fn is_prefix_completion(p: &Value, f: &Value) -> bool {
    match (p, f) {
        _ if p == f => true,
        (Value::String(a), Value::String(b)) => b.starts_with(a.as_str()),
        (Value::Array(a), Value::Array(b)) => {
            a.len() <= b.len()
                && a.split_last().is_none_or(|(last, init)| {
                    init.iter().zip(b).all(|(x, y)| x == y) && is_prefix_completion(last, &b[init.len()])
                })
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() <= b.len() && {
                let n = a.len();
                a.iter().zip(b.iter()).enumerate().all(|(i, ((ka, va), (kb, vb)))| {
                    ka == kb && if i + 1 == n { is_prefix_completion(va, vb) } else { va == vb }
                })
            }
        }
        _ => false,
    }
}

/// What a push shows: the value, the completed pointers, the early error.
type Seen = (Option<Value>, Vec<String>, Option<EarlyError>);

fn seen_after(p: Partial<'_>) -> Seen {
    (p.value().cloned(), p.completed().map(str::to_owned).collect(), p.error().cloned())
}

/// Streams `text` cut at `cuts` as this emission's provider would, and checks
/// law 5 (each event pushed parsed, and as text). `Err` says which part broke.
pub fn check_stream(em: &Emission, text: &str, cuts: &[usize]) -> Result<(), String> {
    let events = em.events_of(&pieces(text, cuts));
    let mut stream = em.stream();
    // The same events given as text, read in place: the same partials.
    let mut texts = em.stream();
    let mut seen = Vec::new();
    let mut early = None;
    for (i, e) in events.iter().enumerate() {
        let p = seen_after(stream.push(e));
        let q = seen_after(texts.push_str(&e.to_string()));
        if p != q {
            return Err(format!("event {i} pushed as text gives {q:?}\nparsed, {p:?}\ntext: {text:?}"));
        }
        if early.is_none() {
            early = p.2.clone();
        }
        seen.push((p.0, p.1));
    }
    let got = stream.finish();
    let as_text = texts.finish();
    if got != as_text {
        return Err(format!("the events as text end with {as_text:?}\nparsed, with {got:?}\ntext: {text:?}"));
    }
    let want = whole(em, text);
    if got != want {
        return Err(format!("stream ended with {got:?}\nthe whole response decodes to {want:?}\ntext: {text:?}"));
    }
    if let Some(e) = &early
        && got.is_ok()
    {
        return Err(format!("early error {e} but the answer is valid\ntext: {text:?}"));
    }
    let last = match &got {
        Ok(a) => Some(a.value()),
        Err(DecodeError::Invalid { value, .. }) => Some(value),
        Err(_) => None,
    };
    let Some(last) = last else { return Ok(()) };
    for (i, (partial, completed)) in seen.iter().enumerate() {
        if let Some(p) = partial
            && !is_prefix_completion(p, last)
        {
            return Err(format!("partial {p} after event {i} is not a prefix-completion of {last}\ntext: {text:?}"));
        }
        for c in completed {
            let now = partial.as_ref().and_then(|p| p.pointer(c));
            if now.is_none() || now != last.pointer(c) {
                return Err(format!(
                    "pointer {c:?} completed after event {i} holds {now:?}, finally {:?}\ntext: {text:?}",
                    last.pointer(c)
                ));
            }
        }
    }
    Ok(())
}

/// The schemas the stream fuzz target and its seed replay check against.
fn fuzz_emissions() -> Vec<(Value, Emission)> {
    let schemas = [
        serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}, "n": {"type": "integer"},
            "sky": {"enum": ["clear", "rain"]}}, "required": ["city"], "additionalProperties": false}),
        serde_json::json!({"type": "array", "items": {"type": ["string", "null"]}}),
        serde_json::json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false},
            {"type": "boolean"}]}),
    ];
    let mut out = Vec::new();
    for schema in schemas {
        for opts in crate::Provider::ALL.iter().map(|p| crate::Options::new(*p)).chain([
            crate::Options::new(crate::Provider::OpenAi).with_reshape(true),
            crate::Options::new(crate::Provider::Claude).with_reshape(true),
        ]) {
            if let Ok(em) = opts.compile(&schema) {
                out.push((schema.clone(), em));
            }
        }
    }
    out
}

/// The stream fuzz target's check. The first byte chooses: even, the rest is
/// a raw transcript (SSE or NDJSON) fed in chunks of the second byte's size,
/// which must never panic, must show the same partials and end whether each
/// event is read as text or parsed by serde_json first, and an answer it gives
/// must be valid; odd, bytes 1 to 8 are cut points and the rest is an answer
/// text, which must keep law 5 ([`check_stream`]) for every provider.
///
/// # Errors
///
/// What broke.
pub fn check_stream_input(data: &[u8]) -> Result<(), String> {
    let Some((&mode, rest)) = data.split_first() else { return Ok(()) };
    let emissions = fuzz_emissions();
    if mode % 2 == 0 {
        let Some((&size, transcript)) = rest.split_first() else { return Ok(()) };
        for (schema, em) in &emissions {
            let mut split = crate::EventSplitter::new();
            let mut stream = em.stream();
            // Each event also parsed by serde_json and pushed as a `Value`
            // (one that does not parse is skipped by both): the same partials.
            let mut parsed = em.stream();
            let mut events: Vec<_> = transcript.chunks(usize::from(size.max(1))).flat_map(|c| split.feed(c)).collect();
            events.extend(split.finish());
            for e in &events {
                let p = seen_after(stream.push_event(e));
                let q = match serde_json::from_str::<Value>(e.data.trim()) {
                    Ok(v) => seen_after(parsed.push_named(e.name.as_deref(), &v)),
                    // (Nothing completes at a skipped event.)
                    Err(_) => (parsed.partial().value().cloned(), Vec::new(), parsed.partial().error().cloned()),
                };
                if p != q {
                    return Err(format!(
                        "{}: event {:?} read as text gives {p:?}, parsed {q:?}",
                        em.provider(),
                        e.data
                    ));
                }
            }
            let got = stream.finish();
            if got != parsed.finish() {
                return Err(format!("{}: the transcript ends otherwise read as text than parsed", em.provider()));
            }
            if let Ok(answer) = got
                && crate::validate(schema, answer.value()).is_err()
            {
                return Err(format!("{}: a streamed answer is invalid: {}", em.provider(), answer.value()));
            }
        }
        return Ok(());
    }
    let (cuts, text) = rest.split_at(rest.len().min(8));
    let cuts: Vec<usize> = cuts.iter().map(|c| usize::from(*c)).collect();
    let text = String::from_utf8_lossy(text);
    for (_, em) in &emissions {
        check_stream(em, &text, &cuts).map_err(|e| format!("{}: {e}", em.provider()))?;
    }
    Ok(())
}
