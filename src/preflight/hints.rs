//! Hints added to errors where the cause is a known habit of another tool.

use serde_json::Value;

/// `reference` with every byte a URI fragment does not allow percent-encoded
/// (RFC 3986: unreserved, sub-delimiters, `:`, `@`, `/`, `?` and escapes
/// stay), when it is a same-document reference that needs any.
pub(super) fn percent_encoded(reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    let keep = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b);
    if fragment.bytes().all(keep) {
        return None;
    }
    let mut out = String::from("#");
    for b in fragment.bytes() {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Some(out)
}

/// A pattern written for Python's or Perl's regular expressions, whose `\A`,
/// `\Z` and `\z` anchors ECMA-262 (the dialect JSON Schema patterns use) does
/// not have: what to write instead (`""` for any other pattern).
pub(super) fn foreign_regex(schema: &Value, at: &str) -> &'static str {
    let foreign = |p: &str| ["\\A", "\\Z", "\\z"].iter().any(|a| p.contains(a));
    let pattern = at.ends_with("/pattern").then(|| schema.pointer(at)).flatten().and_then(Value::as_str);
    // A `patternProperties` key is the pattern itself, when the pointer ends at
    // it (one further down names a problem inside that key's schema).
    let key = at.rsplit_once("/patternProperties/").map(|(_, k)| k).filter(|k| !k.contains('/'));
    if pattern.is_some_and(foreign) || key.is_some_and(foreign) {
        " (`\\A`, `\\Z` and `\\z` anchor Python's and Perl's patterns, not ECMA-262's, which JSON Schema patterns use: write `^` and `$`)"
    } else {
        ""
    }
}
