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

impl Node<'_> {
    /// The value rebuilt member by member (not through `serde_json`), to
    /// check what the tape recorded.
    fn to_value_deep(self) -> Value {
        match self.kind() {
            Some(Kind::Object) => {
                let mut m = serde_json::Map::new();
                for (k, v) in self.members() {
                    m.insert(k.into_owned(), v.to_value_deep());
                }
                Value::Object(m)
            }
            Some(Kind::Array) => Value::Array(self.children().map(Node::to_value_deep).collect()),
            _ => self.to_value(),
        }
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

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
    }
}
