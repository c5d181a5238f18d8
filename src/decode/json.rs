//! Parsing an answer's JSON text: serde_json's own `Value`, except that an
//! object naming a member twice is an error. serde_json keeps the last value,
//! silently; RFC 8259 calls such objects unpredictable, and validating the last
//! value would hide the first from the caller's schema.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// The JSON value of `text`; a repeated member name is an error.
pub(crate) fn parse(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Unique.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

/// The message of a repeated member name (also used by the stream decoder).
pub(crate) fn repeated(name: &str) -> String {
    format!("member {} is repeated", Value::String(name.to_owned()))
}

/// Builds a `Value` exactly as serde_json's own visitor does.
struct Unique;

impl<'de> DeserializeSeed<'de> for Unique {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Unique)
    }
}

impl<'de> Visitor<'de> for Unique {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Unique.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(Unique)? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(repeated(&key)));
            }
            let v = map.next_value_seed(Unique)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_same_value_as_serde_json() {
        for text in
            ["{\"a\":[1,-2,2.5,1e300,12345678901234567890,-0.0],\"b\":{\"c\":null,\"é\":\"\\ud83d\\ude00\"}}", " 7 "]
        {
            let ours = parse(text).expect("parses");
            let theirs: Value = serde_json::from_str(text).expect("parses");
            assert_eq!(ours.to_string(), theirs.to_string());
        }
    }

    #[test]
    fn err_repeated_member() {
        let e = parse("{\"a\": [], \"b\": {\"a\": 1}, \"a\": 0}").expect_err("repeated");
        assert_eq!(e.to_string(), "member \"a\" is repeated at line 1 column 28"); // the repeated name's closing quote
        assert!(parse("[1] x").is_err());
    }
}
