//! RFC 6901 JSON Pointers: building, escaping and resolving.

use serde_json::Value;

/// Appends one reference token to `base`, escaping `~` and `/`.
pub(crate) fn push(base: &str, token: &str) -> String {
    let mut out = String::with_capacity(base.len() + token.len() + 1);
    out.push_str(base);
    out.push('/');
    escape_into(&mut out, token);
    out
}

/// Whether `token` changes when escaped (it holds `~` or `/`).
pub(crate) fn needs_escape(token: &str) -> bool {
    token.bytes().any(|b| b == b'~' || b == b'/')
}

/// Writes `token` escaped (`~` → `~0`, `/` → `~1`) at the end of `out`.
pub(crate) fn escape_into(out: &mut String, token: &str) {
    if !needs_escape(token) {
        return out.push_str(token);
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// What follows `root` in `at` when `at` is `root` or a pointer below it
/// (`""` or `/…`); `None` elsewhere (`/a/bc` is not below `/a/b`).
pub(crate) fn below<'a>(at: &'a str, root: &str) -> Option<&'a str> {
    at.strip_prefix(root).filter(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Appends an array index to `base`.
pub(crate) fn push_index(base: &str, index: usize) -> String {
    let mut out = base.to_owned();
    index_into(&mut out, index);
    out
}

/// Writes `/index` at the end of `out` (without the formatting machinery: the
/// stream decoder writes one per element).
pub(crate) fn index_into(out: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut n = index;
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push('/');
    // ASCII digits only.
    out.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Decodes one reference token (`~1` → `/`, `~0` → `~`); `None` when malformed.
fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Percent-decodes a URI fragment (as used in `$ref`); `None` when malformed.
fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_owned());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Resolves a JSON-Pointer `$ref` of the working form (`#`, `#/a/b`, percent-encoded)
/// against `root`. Returns the target and its normalised pointer; `None` when
/// the reference is not such a pointer or does not resolve. (Anchors and URIs
/// are resolved by the front end, which leaves only pointers.)
pub(crate) fn resolve_fragment<'a>(root: &'a Value, reference: &str) -> Option<(&'a Value, String)> {
    let fragment = reference.strip_prefix('#')?;
    let fragment = percent_decode(fragment)?;
    if fragment.is_empty() {
        return Some((root, String::new()));
    }
    let path = fragment.strip_prefix('/')?;
    let mut node = root;
    let mut pointer = String::new();
    for raw in path.split('/') {
        let token = unescape(raw)?;
        node = match node {
            Value::Object(map) => map.get(&token)?,
            Value::Array(items) => {
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
        pointer = push(&pointer, &token);
    }
    Some((node, pointer))
}

/// The `$ref` that points at `pointer`: `#` and the pointer, with every
/// character a URI fragment cannot hold percent-encoded (`%` included).
pub(crate) fn to_fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len() + 1);
    out.push('#');
    for b in pointer.bytes() {
        let plain = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
        if plain {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ok_indices_and_escapes_written_in_place() {
        for i in [0, 7, 10, 1234, usize::MAX] {
            assert_eq!(push_index("/a", i), format!("/a/{i}"));
        }
        let mut out = String::from("/x");
        escape_into(&mut out, "a/b~c");
        assert_eq!(out, "/xa~1b~0c");
    }

    #[test]
    fn ok_escape_round_trip() {
        let root = json!({"$defs": {"a/b": 1, "c~d": 2, "e f": 3}});
        assert_eq!(push("", "a/b"), "/a~1b");
        assert_eq!(resolve_fragment(&root, "#/$defs/a~1b").map(|x| x.0), Some(&json!(1)));
        assert_eq!(resolve_fragment(&root, "#/$defs/c~0d").map(|x| x.0), Some(&json!(2)));
        assert_eq!(resolve_fragment(&root, "#/$defs/e%20f").map(|x| x.0), Some(&json!(3)));
        assert_eq!(resolve_fragment(&root, "#").map(|x| x.1), Some(String::new()));
        for key in ["a b", "50%", "é", "x\"y", "t~1"] {
            let root = json!({"$defs": {key: 7}});
            let frag = to_fragment(&push("/$defs", key));
            assert_eq!(resolve_fragment(&root, &frag).map(|x| x.0), Some(&json!(7)), "{frag}");
        }
    }

    #[test]
    fn ok_below_is_by_whole_tokens() {
        assert_eq!(below("/a/b", "/a/b"), Some(""));
        assert_eq!(below("/a/b/c", "/a/b"), Some("/c"));
        assert_eq!(below("/a/bc", "/a/b"), None);
        assert_eq!(below("/a", "/a/b"), None);
        assert_eq!(below("/anything", ""), Some("/anything"));
    }

    #[test]
    fn err_unresolvable() {
        let root = json!({"a": [1]});
        assert!(resolve_fragment(&root, "#/b").is_none());
        assert!(resolve_fragment(&root, "#/a/01").is_none());
        assert!(resolve_fragment(&root, "#/a/~2").is_none());
        assert!(resolve_fragment(&root, "https://x/y").is_none());
    }
}
