//! The incremental reader against serde_json.

use super::*;

/// Records what the reader reports, as text.
#[derive(Default)]
struct Log(Vec<String>);

impl Sink for Log {
    fn start(&mut self, kind: Kind) {
        self.0.push(format!("start {kind:?}"));
    }
    fn chunk(&mut self, text: &str) {
        match self.0.last_mut() {
            Some(last) if last.starts_with("chunk ") => last.push_str(text),
            _ => self.0.push(format!("chunk {text}")),
        }
    }
    fn key(&mut self, key: &str) {
        self.0.push(format!("key {key}"));
    }
    fn scalar(&mut self, value: Value) {
        self.0.push(format!("scalar {value}"));
    }
    fn end(&mut self) {
        self.0.push("end".to_owned());
    }
}

/// Feeds `text` one byte (or whole character) at a time.
fn read(text: &str) -> (Reader, Vec<String>, usize) {
    let mut r = Reader::new();
    let mut log = Log::default();
    let mut used = 0;
    for (i, c) in text.char_indices() {
        used += r.feed(&text[i..i + c.len_utf8()], &mut log);
    }
    r.end_of_input(&mut log);
    (r, log.0, used)
}

#[test]
fn ok_events_in_order() {
    let text = r#"{"a": [1, -2.5e3, "x\"y\u00e9\ud83d\ude00"], "b": {"c": null, "d": true}} tail"#;
    let (r, log, used) = read(text);
    assert!(r.is_done());
    assert_eq!(used, text.len() - " tail".len());
    assert_eq!(
        log,
        [
            "start Object",
            "key a",
            "start Array",
            "start Number",
            "scalar 1",
            "start Number",
            "scalar -2500.0",
            "start String",
            "chunk x\"yé😀",
            "end",
            "end",
            "key b",
            "start Object",
            "key c",
            "start Null",
            "scalar null",
            "key d",
            "start Bool",
            "scalar true",
            "end",
            "end"
        ]
    );
}

#[test]
fn ok_root_number_ends_with_the_input() {
    let (r, log, _) = read("  42");
    assert!(r.is_done());
    assert_eq!(log, ["start Number", "scalar 42"]);
    let (r, _, _) = read("-");
    assert!(!r.is_done() && r.failure().is_none());
}

#[test]
fn ok_numbers_are_serde_json_numbers() {
    for n in [
        "0",
        "-0",
        "7",
        "-1",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "2.5",
        "1e2",
        "-0.0",
        "1E-7",
        "0.1",
        "0.30000000000000004",
        "1.7976931348623157e308",
        "2.2250738585072014e-308",
        "5e-324",
        "1e-400",
        "123456789012345678901234567890",
        "-123456789012345678901234567890.5e-3",
    ] {
        let (_, log, _) = read(&format!("[{n}]"));
        let ours: Value = serde_json::from_str(log[2].trim_start_matches("scalar ")).expect("JSON");
        let theirs: Value = serde_json::from_str(n).expect("JSON");
        assert_eq!(log[2], format!("scalar {theirs}"), "{n}");
        assert_eq!(
            (ours.is_u64(), ours.is_i64(), ours.is_f64()),
            (theirs.is_u64(), theirs.is_i64(), theirs.is_f64()),
            "{n}"
        );
    }
}

#[test]
fn err_grammar_is_certain() {
    for bad in ["{a", "[1,]", "[1 2]", "{\"a\" 1}", "[01]", "[1.]", "-x", "trux", "nul]", "\"\u{1}\"", "\"\\x\"", "{]"]
    {
        let (r, _, _) = read(bad);
        let f = r.failure().unwrap_or_else(|| panic!("{bad} is rejected"));
        assert!(f.certain, "{bad}: {f:?}");
        assert!(serde_json::from_str::<Value>(bad).is_err(), "serde_json rejects {bad} too");
    }
}

#[test]
fn err_unsure_cases_give_up_without_certainty() {
    let deep = "[".repeat(200);
    for unsure in ["\"\\ud800x\"", "\"\\udc00\"", "1e999", deep.as_str()] {
        let (r, _, _) = read(unsure);
        assert_eq!(r.failure().map(|f| f.certain), Some(false), "{unsure}");
    }
}

#[test]
fn ok_plain_run_finds_the_first_quote_backslash_or_control_byte() {
    let slow = |b: &[u8], i: usize| (i..b.len()).find(|&j| matches!(b[j], b'"' | b'\\' | 0..=0x1f)).unwrap_or(b.len());
    // Every special byte at every offset of a word, after every other kind of
    // byte (ASCII, bytes of UTF-8 sequences, 0xff, 0x7f, and the neighbours of the
    // special bytes: 0x20, 0x21, 0x23, 0x5b, 0x5d).
    let fillers: [u8; 10] = [b'a', 0xc3, 0xa9, 0xff, 0x7f, 0x20, 0x21, 0x23, 0x5b, 0x5d];
    for special in [b'"', b'\\', 0x00, 0x01, 0x1f] {
        for filler in fillers {
            for len in 0..20 {
                for at in 0..=len {
                    let mut b = vec![filler; len];
                    if at < len {
                        b[at] = special;
                    }
                    // A second special byte after the first must not matter.
                    b.push(b'"');
                    for start in 0..=at.min(3) {
                        assert_eq!(plain_run(&b, start), slow(&b, start), "{b:?} from {start}");
                    }
                }
            }
        }
    }
}

#[test]
fn ok_string_text_reaches_the_sink_once_per_piece_and_before_the_piece_ends() {
    // A chunk-counting sink: how many times, and with what, the text arrives.
    #[derive(Default)]
    struct Chunks(Vec<String>);
    impl Sink for Chunks {
        fn start(&mut self, _: Kind) {}
        fn chunk(&mut self, text: &str) {
            self.0.push(text.to_owned());
        }
        fn key(&mut self, _: &str) {}
        fn scalar(&mut self, _: Value) {}
        fn end(&mut self) {
            self.0.push("<end>".to_owned());
        }
    }
    let mut r = Reader::new();
    let mut sink = Chunks::default();
    // One piece with escapes and a plain run: one chunk, given before `feed` returns.
    r.feed(r#"["ab\"c\u00e9d\n"#, &mut sink);
    assert_eq!(sink.0, ["ab\"céd\n"]);
    // The string ends in the next piece: its rest, then the end, in that order.
    r.feed(r#"ef", "g"]"#, &mut sink);
    assert_eq!(sink.0, ["ab\"céd\n", "ef", "<end>", "g", "<end>", "<end>"]);
    assert!(r.is_done());
    // A failure mid-piece still gives what was read before it.
    let mut r = Reader::new();
    let mut sink = Chunks::default();
    r.feed("\"xy\u{1}z", &mut sink);
    assert_eq!(sink.0, ["xy"]);
    assert_eq!(r.failure().map(|f| f.certain), Some(true));
}
