use super::*;
use crate::stream::node::Json;

/// What serde_json makes of `text`.
fn serde(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

fn tape(text: &str) -> Option<Value> {
    Tape::default().read(text).map(Node::to_value_deep)
}

#[test]
fn ok_accepts_what_serde_json_accepts() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let cases = [
        r#"{"a": [1, -2.5e3, true, false, null, "x"], "b": {}}"#,
        " \t\n{}\r\n ",
        r#""\u00e9\ud83d\ude00 \"\\\/\b\f\n\r\t""#,
        r#""\ud83d""#,
        r#""\ude00""#,
        r#""\ud83d\u0041""#,
        r#""\ud83dx""#,
        r#""\x""#,
        "\"a\u{1}b\"",
        "\"tab\there\"",
        "01",
        "-",
        "-0",
        "1.",
        ".5",
        "1e",
        "1e+",
        "1E-2",
        "1e400",
        "-1e400",
        "0e99999999999999999999",
        "1e-400",
        "18446744073709551616",
        &"9".repeat(400),
        "[1,]",
        "{\"a\":1,}",
        "{,}",
        "{\"a\" 1}",
        "{1: 2}",
        "[1 2]",
        "tru",
        "nulls",
        "[] []",
        "",
        "   ",
        "[DONE]",
        "{\"a\":1}}",
        &deep(127),
        &deep(128),
        &format!("{}1{}", "{\"a\":[".repeat(63), "]}".repeat(63)),
        &format!("{}1{}", "{\"a\":[".repeat(64), "]}".repeat(64)),
    ];
    for text in cases {
        assert_eq!(tape(text), serde(text), "{text:?}");
    }
}

#[test]
fn ok_members_read_as_a_value_holds_them() {
    let text = r#"{"type": "one", "ty\u0070e": "two", "n": 7, "f": 7.0, "neg": -7, "big": 18446744073709551616,
        "list": [1, {"index": 0}], "s": "a\"b"}"#;
    let mut t = Tape::default();
    let node = t.read(text).expect("JSON");
    let v: Value = serde_json::from_str(text).expect("JSON");
    // A repeated name (escaped or not): its last value, as in a `Value`.
    let [kind, n, f, neg, big, s] = node.fields(["type", "n", "f", "neg", "big", "s"]);
    assert_eq!(kind.and_then(Json::str).as_deref(), Some("two"));
    assert_eq!(kind.and_then(Json::str), (&v).at("type").and_then(Json::str));
    for (key, got) in [("n", n), ("f", f), ("neg", neg), ("big", big)] {
        assert_eq!(got.and_then(Json::as_u64), v[key].as_u64(), "{key}");
    }
    assert_eq!(s.and_then(Json::str).as_deref(), Some("a\"b"));
    assert_eq!(node.at("list").map(|l| l.items().count()), Some(2));
    assert_eq!(node.at("missing").map(Json::to_value), None);
    let found = node.find_member(|k| k.starts_with("ty")).map(|(k, v)| (k.into_owned(), v.to_value()));
    assert_eq!(found, Some(("type".to_owned(), Value::from("two"))));
    assert_eq!(node.to_value(), v);
}

#[test]
fn ok_unescaping_matches_serde_json() {
    for text in [r#""plain""#, r#""\"{\\\"a\\\":1}\"""#, r#""\u00e9\u4e2d\ud83d\ude00\b\f\n\r\t\/\\""#, r#""é\n""#] {
        let mut out = String::new();
        let mut t = Tape::default();
        let node = t.read(text).expect("JSON");
        node.text().expect("a string").push_to(&mut out);
        assert_eq!(Value::String(out), serde(text).expect("JSON"), "{text}");
    }
}

/// A used tape reads a text as a fresh one does, and says how it differs
/// from the last: only in one string's content (read without a pass), not at
/// all, or otherwise.
#[test]
fn ok_a_used_tape_reads_as_a_fresh_one_and_says_what_changed() {
    let one = |at| Changed::Only { tokens: [at, 0, 0, 0], count: 1 };
    let two = |a, b| Changed::Only { tokens: [a, b, 0, 0], count: 2 };
    let cases = [
        (r#"{"a":"xy","b":[1]}"#, r#"{"a":"xyz","b":[1]}"#, one(1)),
        (r#"{"a":"xy","b":[1]}"#, r#"{"a":"x","b":[1]}"#, one(1)),
        (r#"{"a":"xy","b":[1]}"#, r#"{"a":"","b":[1]}"#, one(1)),
        (r#"{"a":"","b":[1]}"#, r#"{"a":"\n\u00e9\"","b":[1]}"#, one(1)),
        (r#"{"a":"x\"y"}"#, r#"{"a":"xy"}"#, one(1)),
        (r#"["a","b"]"#, r#"["a","c","b"]"#, Changed::More),
        (r#"["a","b"]"#, r#"["a","b"]"#, Changed::Only { tokens: [0; 4], count: 0 }),
        (r#"["ab"]"#, r#"["a\"]"#, Changed::More),
        (r#"["ab"]"#, r#"["a\\"]"#, one(1)),
        (r#"["ab"]"#, "[\"a\u{1}\"]", Changed::More),
        (r#"["a","b"]"#, r#"["a""b"]"#, Changed::More),
        (r#"{"k":"v"}"#, r#"{"kk":"v"}"#, Changed::More),
        (r#"{"k":"v","n":1}"#, r#"{"k":"vv","n":12}"#, two(1, 2)),
        (r#"[1]"#, r#"[2]"#, one(1)),
        (r#"[1,2]"#, r#"[1.5,2]"#, one(1)),
        (r#"[12,3]"#, r#"[1234]"#, Changed::More),
        (r#"[12,3]"#, r#"[1,23]"#, two(1, 2)),
        (r#"[1]"#, r#"[1e999]"#, Changed::More),
        (r#"[1]"#, r#"[01]"#, Changed::More),
        (r#"[1]"#, r#"[a]"#, Changed::More),
        (r#""\u0000""#, r#"\u0000""#, Changed::More),
        (r#""ab""#, r#"xab""#, Changed::More),
        (r#"1"#, r#"-1"#, one(0)),
        (r#"[1,2]"#, r#"[-,2]"#, Changed::More),
        (r#"[1]"#, r#"["1"]"#, Changed::More),
        (r#"[true]"#, r#"[false]"#, Changed::More),
        (r#"["ab","cd"]"#, r#"["xb",1234]"#, Changed::More),
        (r#"["ab","cd"]"#, r#"["xb","cx"]"#, two(1, 2)),
        (r#"["a","b","c","d","e"]"#, r#"["A","B","C","D","e"]"#, Changed::Only { tokens: [1, 2, 3, 4], count: 4 }),
        (r#"["a","b","c","d","e"]"#, r#"["A","B","C","D","E"]"#, Changed::More),
        (r#"{"a":1,"s":"x"}"#, r#"{"a":10,"s":"xy"}"#, two(1, 2)),
        (r#"{"a":10,"s":"xy"}"#, r#"{"a":1,"s":"x"}"#, two(1, 2)),
        (r#"{"a":1,"s":"x","t":5}"#, r#"{"a":10,"s":"xy","t":5}"#, two(1, 2)),
    ];
    for (first, next, changed) in cases {
        let mut t = Tape::default();
        assert_eq!(t.read(first).map(Node::to_value_deep), serde(first), "{first}");
        let got = t.read(next).map(|n| (n.changed(), n.to_value_deep()));
        match serde(next) {
            Some(v) => assert_eq!(got, Some((changed, v)), "{next} after {first}"),
            None => assert_eq!(got, None, "{next} after {first}"),
        }
        assert_eq!(t.read(first).map(Node::to_value_deep), serde(first), "{first} after {next}");
    }
}

/// What the readers looked at in a text is told: a string taken once as text
/// and never compared is passed through; a value compared, counted or read
/// whole is looked at.
#[test]
fn ok_what_the_readers_looked_at_is_told() {
    let text = r#"{"type":"delta","n":3,"delta":"piece","list":[1,2]}"#;
    let mut t = Tape::default();
    let node = t.read(text).expect("JSON");
    let [kind, n, delta] = node.fields(["type", "n", "delta"]);
    assert_eq!(kind.and_then(Json::str).as_deref(), Some("delta"));
    let piece = delta.and_then(Json::text).expect("a string");
    assert_eq!(node.token_of(piece), Some(3));
    assert_eq!(node.token_of(Str::Plain("piece")), None, "not this text's");
    assert!(node.passed_through(3));
    assert!(!node.passed_through(1), "compared");
    assert_eq!(node.looked_at(), 0b11, "the root (members) and `type`");
    assert_eq!(n.and_then(Json::as_u64), Some(3));
    assert_eq!(node.looked_at(), 0b111);
    let only = |tokens: &[usize]| {
        let mut all = [0; 4];
        all[..tokens.len()].copy_from_slice(tokens);
        Changed::Only { tokens: all, count: tokens.len() }
    };
    assert!(only(&[3]).within(3, node.looked_at()));
    assert!(only(&[]).within(3, node.looked_at()));
    assert!(only(&[3, 5]).within(3, node.looked_at()), "the list's items were not looked at");
    assert!(!only(&[2, 3]).within(3, node.looked_at()), "`n` was");
    assert!(!Changed::More.within(3, node.looked_at()));
    // A second text taken, or a container read whole: no string is passed through.
    delta.and_then(Json::text);
    assert!(!node.passed_through(3));
    let node = t.read(text).expect("JSON");
    node.at("delta").and_then(Json::text);
    node.at("list").map(Json::to_value);
    assert!(!node.passed_through(3));
    assert_eq!(node.looked_at(), u128::MAX);
}

impl Node<'_> {
    /// The value rebuilt member by member (not through `serde_json`), to
    /// check what the tape recorded.
    /// (A container's text is checked too: it reads back to the same value.)
    fn to_value_deep(self) -> Value {
        let v = match self.kind() {
            Some(Kind::Object) => {
                let mut m = serde_json::Map::new();
                for (k, v) in self.members() {
                    m.insert(k.into_owned(), v.to_value_deep());
                }
                Value::Object(m)
            }
            Some(Kind::Array) => Value::Array(self.children().map(Node::to_value_deep).collect()),
            _ => return self.to_value(),
        };
        assert_eq!(self.to_value(), v, "the text of {v}");
        v
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// Replaces the `n`th value of `v` (in document order, the root first)
    /// with `w`, counting `n` down; past the last, nothing changes.
    fn replace_value(v: &mut Value, n: &mut usize, w: &Value) {
        if *n == 0 {
            *v = w.clone();
            *n = usize::MAX;
            return;
        }
        *n -= 1;
        let children: Vec<&mut Value> = match v {
            Value::Array(a) => a.iter_mut().collect(),
            Value::Object(m) => m.values_mut().collect(),
            _ => Vec::new(),
        };
        for child in children {
            if *n == usize::MAX {
                return;
            }
            replace_value(child, n, w);
        }
    }

    fn json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "(\\PC|[\"\\\\\u{0}-\u{1f}])*".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-c\"\\\\é]{0,3}", inner), 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        // (No regression files: the project keeps none at its top level.)
        #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

        /// A value's text, compact or pretty, reads back to the value.
        #[test]
        fn ok_written_values_read_back(v in json(), pretty in any::<bool>()) {
            let text = if pretty { serde_json::to_string_pretty(&v) } else { serde_json::to_string(&v) }.expect("text");
            prop_assert_eq!(tape(&text), Some(v));
        }

        /// A string's text, however long and however escaped (escapes and
        /// characters of every length on either side of the unescaper's
        /// block ends), undone as serde_json undoes it.
        #[test]
        fn ok_long_strings_unescape_as_serde_json_does(parts in prop::collection::vec(prop::sample::select(vec![
            "a", "é", "中", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9", "\\u4e2d", "\\ud83d\\ude00", "\\u0000",
        ]), 0..400)) {
            let text = format!("\"{}\"", parts.concat());
            let mut out = String::new();
            let mut t = Tape::default();
            t.read(&text).and_then(|node| node.text()).expect("a string").push_to(&mut out);
            prop_assert_eq!(Some(Value::String(out)), serde(&text), "{}", text);
        }

        /// Any text, or a value's text with one byte changed, cut or
        /// repeated: read when serde_json parses it, to the same value.
        #[test]
        fn ok_agrees_with_serde_json_on_damaged_text(v in json(), at in any::<prop::sample::Index>(),
            byte in prop::sample::select(b"{}[]\",:\\ 0123456789.eE+-tfnulrasx\x01".to_vec()), how in 0..4u8) {
            let mut text = serde_json::to_string(&v).expect("text").into_bytes();
            let i = at.index(text.len() + 1);
            match how {
                0 => text.insert(i, byte),
                1 if i < text.len() => text[i] = byte,
                2 => text.truncate(i),
                _ => { let tail = text[i..].to_vec(); text.extend(tail); }
            }
            if let Ok(text) = String::from_utf8(text) {
                prop_assert_eq!(tape(&text), serde(&text), "{:?}", text);
            }
        }

        /// A tape that read one text reads the next as a fresh one does:
        /// one with a value replaced (a string by a string, mostly: stream
        /// events differ so), or the first text damaged.
        #[test]
        fn ok_a_used_tape_reads_as_a_fresh_one(v in json(), w in json(), s in "(\\PC|[\"\\\\\u{0}-\u{1f}])*",
            at in any::<prop::sample::Index>(), byte in prop::sample::select(b"{}[]\",:\\ 0123456789.eE+-tfnulrasx".to_vec()),
            string in any::<bool>(), pretty in any::<bool>()) {
            let write = |v: &Value| if pretty { serde_json::to_string_pretty(v) } else { serde_json::to_string(v) }.expect("text");
            let first = write(&v);
            let mut i = at.index(first.len() + 1);
            while !first.is_char_boundary(i) { i -= 1; }
            let mut replaced = v.clone();
            replace_value(&mut replaced, &mut at.index(64), &if string { Value::String(s) } else { w });
            let nexts = [
                write(&replaced),
                first.clone(),
                format!("{}{}{}", &first[..i], byte as char, &first[i..]),
                format!("{}{}", &first[..i], first[i..].get(1..).unwrap_or_default()),
            ];
            let mut t = Tape::default();
            for next in &nexts {
                prop_assert_eq!(t.read(&first).map(Node::to_value_deep), serde(&first));
                let got = t.read(next).map(Node::to_value_deep);
                prop_assert_eq!(got, serde(next), "{:?} after {:?}", next, first);
                prop_assert_eq!(t.read(next).map(Node::to_value_deep), serde(next), "{:?} again", next);
                prop_assert_eq!(t.read(&first).map(Node::to_value_deep), serde(&first), "{:?} after {:?}", first, next);
            }
        }
    }
}
