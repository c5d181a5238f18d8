//! `schemacast bench --stream`: a 100 KB answer streamed in 16-byte events,
//! next to one `decode` of the whole response, per provider.
//!
//! Each event is met as a client meets it: split from the raw SSE bytes and
//! parsed, then pushed (reading the partial value after each). *net* is what
//! the decoder adds to reading the events (stream − read), against `decode`
//! of the already parsed body, the footing of `decode`'s own bench. *whole*
//! is end to end: the raw stream against parsing the whole body's text and
//! decoding it. *text* is the same, with each event's text lent by the
//! splitter (`feed_each`) to the decoder (`push_event`), which reads it in place. *fed* is the decoder
//! alone: the same events parsed beforehand, pushed and finished, against the
//! same `decode`.

use super::{Io, with_peak};
use schemacast::{Emission, EventSplitter, Mode, Options, Provider};
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::Instant;

/// The answer's size, and the size of each event's piece of it.
pub(super) const ANSWER_BYTES: usize = 100 * 1024;
pub(super) const PIECE_BYTES: usize = 16;

pub(super) fn schema() -> Value {
    json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "object",
        "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}}, "score": {"type": "number"},
            "kind": {"enum": ["alpha", "beta", "gamma"]}},
        "required": ["id", "name", "tags", "score", "kind"], "additionalProperties": false}}},
        "required": ["items"], "additionalProperties": false})
}

/// A valid answer of about `bytes` of JSON text.
pub(super) fn answer(bytes: usize) -> Value {
    let mut items = Vec::new();
    let mut len = 0;
    let mut i: u32 = 0;
    while len < bytes {
        let kind = ["alpha", "beta", "gamma"][(i % 3) as usize];
        let item = json!({"id": i, "name": format!("record {i} \u{e9}t\u{e9} \"quoted\""),
            "tags": ["north", "sea"], "score": f64::from(i) / 7.0, "kind": kind});
        len += item.to_string().len() + 1;
        items.push(item);
        i += 1;
    }
    json!({"items": items})
}

/// The decoder alone: `events` (already parsed) pushed one by one, the
/// partial value read after each, then finished.
pub(super) fn pushed(em: &Emission, events: &[Value]) -> usize {
    let mut s = em.stream();
    let mut n = 0;
    for e in events {
        n += usize::from(black_box(s.push(e).value()).is_some());
    }
    n + usize::from(s.finish().is_ok())
}

/// The median time in nanoseconds of each of `work`, timed one after the other
/// in each of `rounds` rounds (after one warm-up round).
fn interleaved<const N: usize>(rounds: usize, work: &mut [&mut dyn FnMut() -> usize; N]) -> [f64; N] {
    let mut times: [Vec<f64>; N] = std::array::from_fn(|_| Vec::with_capacity(rounds));
    for round in 0..=rounds {
        for (w, t) in work.iter_mut().zip(times.iter_mut()) {
            let start = Instant::now();
            black_box(w());
            if round > 0 {
                t.push(start.elapsed().as_nanos() as f64);
            }
        }
    }
    times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t.get(t.len() / 2).copied().unwrap_or(0.0)
    })
}

pub(super) fn table(io: &mut Io<'_>, rounds: usize, providers: &[Provider]) {
    let (schema, answer) = (schema(), answer(ANSWER_BYTES));
    let text_len = answer.to_string().len();
    io.print(&format!(
        "\nstream: a {text_len}-byte answer in {PIECE_BYTES}-byte events, against one decode of the whole response (mode schema)"
    ));
    io.print(&format!(
        "{:<16} {:>6} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8} {:>8} {:>8} {:>10}",
        "provider", "events", "decode ns", "read ns", "stream ns", "net ns", "net", "fed", "whole", "text", "peak RSS"
    ));
    let mut worst: Option<(f64, Provider)> = None;
    let mut worst_text: Option<(f64, Provider)> = None;
    for p in providers {
        let Ok(em) = Options::new(*p).with_mode(Mode::Schema).compile(&schema) else { continue };
        let body = em.response_for(&answer);
        let body_text = body.to_string();
        let events = em.events_for(&answer, PIECE_BYTES);
        let sse: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
        if em.decode(&body).is_err() {
            io.eprint(&format!("notice: {p} does not decode the bench answer; skipping it"));
            continue;
        }
        // Each event as a client meets it: split from the raw bytes (network-sized
        // chunks cut events anywhere) and parsed, then (or not) pushed.
        let run = |push: bool| {
            let mut s = em.stream();
            let mut split = EventSplitter::new();
            let mut n = 0;
            for chunk in sse.as_bytes().chunks(4096) {
                for e in split.feed(chunk) {
                    let Ok(v) = serde_json::from_str::<Value>(&e.data) else { continue };
                    if push {
                        n += usize::from(black_box(s.push(&v).value()).is_some());
                    } else {
                        n += usize::from(black_box(&v).is_object());
                    }
                }
            }
            n + usize::from(push && s.finish().is_ok())
        };
        // The decoder alone: the events already parsed.
        let fed = || pushed(&em, &events);
        // End to end with the events' text given to the decoder.
        let text = || {
            let mut s = em.stream();
            let mut split = EventSplitter::new();
            let mut n = 0;
            for chunk in sse.as_bytes().chunks(4096) {
                split.feed_each(chunk, |e| n += usize::from(black_box(s.push_event(e).value()).is_some()));
            }
            n + usize::from(s.finish().is_ok())
        };
        let whole = || {
            let v: Value = serde_json::from_str(&body_text).unwrap_or(Value::Null);
            usize::from(em.decode(&v).is_ok())
        };
        // The six are timed in turn within each round, so that the load of a
        // shared machine weighs on them alike; medians of the rounds.
        let (times, peak) = with_peak(|| {
            interleaved(
                rounds * 5,
                &mut [
                    &mut || usize::from(em.decode(&body).is_ok()),
                    &mut || run(false),
                    &mut || run(true),
                    &mut { fed },
                    &mut { whole },
                    &mut { text },
                ],
            )
        });
        let [decode, read, stream, fed, whole, text] = times;
        let net = (stream - read).max(0.0);
        let ratio = net / decode.max(f64::MIN_POSITIVE);
        io.print(&format!(
            "{:<16} {:>6} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>7.2}x {:>7.2}x {:>7.2}x {:>7.2}x {:>10}",
            p.name(),
            events.len(),
            decode,
            read,
            stream,
            net,
            ratio,
            fed / decode.max(f64::MIN_POSITIVE),
            stream / whole.max(f64::MIN_POSITIVE),
            text / whole.max(f64::MIN_POSITIVE),
            peak
        ));
        if worst.is_none_or(|(r, _)| ratio > r) {
            worst = Some((ratio, *p));
        }
        let text_ratio = text / whole.max(f64::MIN_POSITIVE);
        if worst_text.is_none_or(|(r, _)| text_ratio > r) {
            worst_text = Some((text_ratio, *p));
        }
    }
    if let Some((r, p)) = worst {
        io.print(&format!("largest net ratio: {r:.2}x decode ({p})"));
    }
    if let Some((r, p)) = worst_text {
        io.print(&format!("largest text ratio: {r:.2}x a whole response's text decoded ({p})"));
    }
}
