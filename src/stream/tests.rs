//! White-box checks of the decoder's shortcut for events that repeat the last
//! one's envelope ([`Memo`](super::Memo)): the laws compare what it reads with
//! events read parsed; these check that it is taken where it should be.

use crate::{Mode, Options, Provider};
use serde_json::json;

/// A decoder may move to another thread and be shared (the Python package's
/// stream object needs both).
#[test]
fn ok_a_decoder_is_send_and_sync() {
    fn assert_traits<T: Send + Sync>() {}
    assert_traits::<crate::StreamDecoder<'static>>();
    assert_traits::<crate::EventSplitter>();
}

/// Every provider's stream of a long answer, in small pieces: after the first
/// few events of the answer, each is read without its envelope readers.
#[test]
fn ok_repeated_envelopes_are_read_once() {
    let schema = json!({"type": "object", "properties": {"items": {"type": "array", "items": {"type": "string"}}},
        "required": ["items"], "additionalProperties": false});
    let answer = json!({"items": ["north", "sea", "é\"x", "a longer string with some more text in it"]});
    let piece = 5;
    for &p in Provider::ALL {
        for mode in [Mode::Schema, Mode::Json] {
            let em = Options::new(p).with_mode(mode).compile(&schema).expect("compiles");
            let pieces = em.sent(&answer).to_string().len().div_ceil(piece);
            let mut decoder = em.stream();
            let mut shortcut = 0;
            for event in em.events_for(&answer, piece) {
                decoder.push_str(&event.to_string());
                shortcut += usize::from(decoder.memo.is_some());
            }
            assert!(shortcut + 3 >= pieces, "{p:?} {mode:?}: {shortcut} of {pieces} pieces read so");
            assert_eq!(decoder.finish().ok().map(|a| a.value().clone()), Some(answer.clone()), "{p:?} {mode:?}");
        }
    }
}

/// Events read parsed, or that differ in what the readers look at, are read
/// whole: the shortcut is for what the last read showed it may skip.
#[test]
fn ok_the_shortcut_is_dropped_when_the_envelope_matters() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
        "additionalProperties": false});
    let em = crate::emit(&schema, Provider::OpenAi).expect("compiles");
    let event = |content: &str, index: u32, finish: &str| {
        json!({"id": "c1", "choices": [{"index": index, "delta": {"content": content}, "finish_reason": finish}]})
            .to_string()
            .replace("\"finish_reason\":\"\"", "\"finish_reason\":null")
    };
    let mut d = em.stream();
    d.push_str(&event("{\"a\"", 0, ""));
    d.push_str(&event(": \"x", 0, ""));
    assert!(d.memo.is_some());
    // The choice's index is looked at: another index is read whole (and skipped).
    d.push_str(&event("yy", 1, ""));
    assert!(d.memo.is_none());
    d.push_str(&event("y", 0, ""));
    d.push_str(&event("z", 0, ""));
    assert!(d.memo.is_some());
    // A parsed event says nothing of the tape.
    d.push(&serde_json::from_str(&event("w", 0, "")).expect("JSON"));
    assert!(d.memo.is_none());
    d.push_str(&event("\"}", 0, "stop"));
    assert_eq!(d.finish().ok().map(|a| a.value().clone()), Some(json!({"a": "xyzw"})));
}

/// An event's SSE name is part of what the readers read (Bedrock's payloads
/// may come bare, named by it): another name is read whole.
#[test]
fn ok_the_shortcut_keeps_to_the_event_name() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
        "additionalProperties": false});
    let em = crate::emit(&schema, Provider::Bedrock).expect("compiles");
    let event = |name: &str, text: &str| crate::StreamEvent {
        name: Some(name.to_owned()),
        data: json!({"delta": {"text": text}, "contentBlockIndex": 0}).to_string(),
    };
    let mut d = em.stream();
    for (name, text) in [("contentBlockDelta", "{\"a\": \"x"), ("contentBlockDelta", "y"), ("contentBlockDelta", "z")] {
        d.push_event(&event(name, text));
    }
    assert!(d.memo.is_some());
    // Not a delta by its name: nothing of it is the answer.
    d.push_event(&event("metadata", "ignored"));
    assert!(d.memo.is_none());
    assert_eq!(d.push_event(&event("contentBlockDelta", "\"}")).value(), Some(&json!({"a": "xyz"})));
}
