//! Regular-expression facts needed to keep `pattern` sound across matching rules.
//!
//! JSON Schema's `pattern` searches anywhere in the string; grammar engines match
//! the whole string. A pattern means the same under both readings when it is
//! anchored at both ends with no top-level alternation.

mod grammar;

pub(crate) use grammar::for_grammar;

/// `true` when `pattern` is `^…$` with no top-level `|`, so that searching for it
/// and matching it against the whole string accept the same strings.
pub(crate) fn is_self_anchored(pattern: &str) -> bool {
    let Some(body) = pattern.strip_prefix('^') else { return false };
    strip_end_anchor(body).is_some_and(one_branch)
}

/// `body` without its final `$`, when that `$` is an anchor (not escaped).
fn strip_end_anchor(body: &str) -> Option<&str> {
    let body = body.strip_suffix('$')?;
    // The final `$` must not be escaped: count the backslashes before it.
    let trailing_backslashes = body.bytes().rev().take_while(|&b| b == b'\\').count();
    (trailing_backslashes % 2 == 0).then_some(body)
}

/// `true` when `body` is balanced and has no top-level `|`, so that an anchor
/// written before or after it binds all of it.
fn one_branch(body: &str) -> bool {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return false,
            '\\' => {}
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => {
                if depth == 0 {
                    return false;
                }
                depth -= 1;
            }
            '|' if !in_class && depth == 0 => return false,
            _ => {}
        }
    }
    depth == 0 && !in_class
}

/// `pattern` written for an engine that matches the whole string, accepting
/// exactly the strings JSON Schema's search accepts: `^…$` as it is, `^p` as
/// `^(?:p)[\s\S]*$`, `p$` as `^[\s\S]*(?:p)$`, and an unanchored `p` as
/// `^[\s\S]*(?:p)[\s\S]*$`. `None` when an anchor stands anywhere else (inside
/// a branch or a group), whose meaning the rewrite would not keep.
pub(crate) fn whole_string(pattern: &str) -> Option<String> {
    if is_self_anchored(pattern) {
        return Some(pattern.to_owned());
    }
    if !has_anchor(pattern) {
        return Some(format!("^[\\s\\S]*(?:{pattern})[\\s\\S]*$"));
    }
    let (start, body) = match pattern.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, pattern),
    };
    let (end, body) = match strip_end_anchor(body) {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    if has_anchor(body) || !one_branch(body) {
        return None;
    }
    let any = "[\\s\\S]*";
    Some(format!("^{}(?:{body}){}$", if start { "" } else { any }, if end { "" } else { any }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ok_self_anchored() {
        assert!(is_self_anchored("^[0-9]{3}$"));
        assert!(is_self_anchored("^(a|b)$"));
        assert!(is_self_anchored("^[|]$"));
        assert!(is_self_anchored(r"^a\\$"));
    }

    #[test]
    fn err_not_self_anchored() {
        assert!(!is_self_anchored("[0-9]{3}"));
        assert!(!is_self_anchored("^a|b$"));
        assert!(!is_self_anchored("^abc"));
        assert!(!is_self_anchored(r"^abc\$"));
        assert!(!is_self_anchored("^(a$"));
    }

    /// The whole-string form accepts exactly what JSON Schema's search of the
    /// original accepts (both read by the validator the crate uses), for
    /// patterns anchored at neither, one or both ends; inner anchors give `None`.
    #[test]
    fn ok_whole_string_means_the_search() {
        let strings = ["", "/", "/a", "/a\nb", "a/", "x\n/", "ab123cd", "123", "x\n999", "a$", "^a", "ba", "b\n"];
        for p in ["[0-9]{3}", r"^\/.*", "^/", "a$", r"\.json$", "^(a|b)c", "(a|b)$", r"^a\$", "^[0-9]+$", "a|b", "^"] {
            let w = whole_string(p).unwrap_or_else(|| panic!("{p} has a whole-string form"));
            assert!(is_self_anchored(&w), "{p} -> {w}");
            let search = jsonschema::validator_for(&serde_json::json!({"pattern": p})).expect("builds");
            let whole = jsonschema::validator_for(&serde_json::json!({"pattern": w})).expect("builds");
            for s in strings {
                let s = serde_json::json!(s);
                assert_eq!(search.is_valid(&s), whole.is_valid(&s), "{p} as {w} on {s}");
            }
        }
        for p in ["^a|b", "a|b$", "(^a)", "a^b", "x$|y"] {
            assert_eq!(whole_string(p), None, "{p}: an anchor the rewrite cannot keep");
        }
    }
}

/// Largest repetition count trusted to a "simple regex" subset (Claude, xAI).
const MAX_SIMPLE_REPEAT: u32 = 100;

/// `true` when `pattern` stays inside the small ECMA-262 subset that xAI and
/// Claude document: classes, `.`, groups (plain and `(?:…)`), alternation,
/// quantifiers and small `{n,m}`, `\d \w \s` and their negations, common
/// escapes. No look-around, back-references, `\b`, `\p{…}`, inline flags or
/// large repetitions.
pub(crate) fn is_simple(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) if "dDwWsS\\/.^$|?*+()[]{}-nrtfv".contains(e) => {}
                _ => return false,
            },
            '(' if chars.peek() == Some(&'?') => {
                chars.next();
                if chars.next() != Some(':') {
                    return false;
                }
            }
            _ => {}
        }
    }
    !repeat_over(pattern, MAX_SIMPLE_REPEAT)
}

/// `true` when `pattern` has an unescaped `^` or `$` outside a character class:
/// an anchor inside the pattern, which whole-string engines with a small regex
/// subset (xAI) do not document.
pub(crate) fn has_anchor(pattern: &str) -> bool {
    let mut chars = pattern.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '^' | '$' if !in_class => return true,
            _ => {}
        }
    }
    false
}

/// `true` when the local validator's build (jsonschema 0.61) is known to
/// accept `pattern` without compiling it: a short pattern in the simple subset
/// ([`is_simple`]) with at most one counted repetition (so the compiled program
/// stays far below the regex engine's size limit), which jsonschema's own
/// ECMA-262 translation accepts.
pub(crate) fn builds_without_fail(pattern: &str) -> bool {
    pattern.len() <= 512
        && pattern.matches('{').count() <= 1
        && is_simple(pattern)
        && jsonschema_regex::to_rust_regex(pattern).is_ok()
}

/// Escapes that grammar converters (llama.cpp) are known to mishandle: shorthand
/// classes, word boundaries, back-references, property classes, code points.
fn has_unsafe_escape(body: &str) -> bool {
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e) if "\\/.^$|?*+()[]{}-nrt".contains(e) => {}
                _ => return true,
            }
        }
    }
    false
}

/// `true` when no string the pattern matches holds a character that JSON text
/// must escape (`"`, `\`, a control character) or one beyond U+FFFF.
///
/// Grammar engines (llama.cpp's converter, xgrammar) match a pattern against
/// the characters between the quotes as generated, escapes included: a valid
/// string holding `"` is written `\"` in JSON, which such a pattern can never
/// produce. So these engines may only be sent patterns whose language avoids
/// those characters. Conservative: anything not read here (`.`, negated classes,
/// `\s`, control escapes, non-BMP characters) makes it `false`.
pub(crate) fn json_text_safe(pattern: &str) -> bool {
    let unsafe_char = |c: char| c == '"' || c == '\\' || (c as u32) < 0x20 || c == '\u{7f}' || (c as u32) > 0xFFFF;
    let mut chars = pattern.chars().peekable();
    let mut in_class = false;
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(e) = chars.next() else { return false };
                let literal = match e {
                    'd' | 'w' => None,
                    e if "/.^$|?*+()[]{}-".contains(e) => Some(e),
                    _ => return false,
                };
                prev = literal;
                continue;
            }
            '[' if !in_class => {
                if chars.peek() == Some(&'^') {
                    return false;
                }
                in_class = true;
                prev = None;
                continue;
            }
            ']' if in_class => in_class = false,
            '-' if in_class && prev.is_some() && chars.peek().is_some_and(|n| *n != ']') => {
                let lo = prev.unwrap_or('\0');
                let Some(hi) = chars.next() else { return false };
                let hi = if hi == '\\' {
                    match chars.next() {
                        Some(e) if "/.^$|?*+()[]{}-".contains(e) => e,
                        _ => return false,
                    }
                } else {
                    hi
                };
                if ["\"", "\\", "\u{7f}"].iter().any(|x| x.chars().all(|x| (lo..=hi).contains(&x)))
                    || lo < ' '
                    || unsafe_char(hi)
                {
                    return false;
                }
                prev = None;
                continue;
            }
            '.' if !in_class => return false,
            c if unsafe_char(c) => return false,
            _ => {}
        }
        prev = Some(c);
    }
    !in_class
}

fn repeat_over(body: &str, max: u32) -> bool {
    let mut rest = body;
    while let Some(i) = rest.find('{') {
        let after = &rest[i + 1..];
        let digits: String = after.chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
        if digits.split(',').any(|d| d.parse::<u32>().is_ok_and(|n| n > max)) {
            return true;
        }
        rest = after;
    }
    false
}

#[cfg(test)]
mod simple_tests {
    use super::{builds_without_fail, is_simple};

    #[test]
    fn ok_builds_without_fail_only_when_certain() {
        assert!(builds_without_fail("^[a-z]+$"));
        assert!(builds_without_fail(r"\d{3}-x"));
        for p in ["[a-", "(a", "a{2}b{3}", "(?=a)", r"\p{L}"] {
            assert!(!builds_without_fail(p), "{p}");
        }
        for p in ["[a-", "(a"] {
            assert!(jsonschema::options().offline().build(&serde_json::json!({"pattern": p})).is_err(), "{p}");
        }
    }

    #[test]
    fn ok_has_anchor() {
        assert!(super::has_anchor("a|^b"));
        assert!(super::has_anchor("a$"));
        assert!(!super::has_anchor(r"[$^]\$x"));
        assert!(!super::has_anchor("[0-9]{3}"));
    }

    #[test]
    fn ok_simple() {
        for p in ["^[a-z]+$", r"\d{3}-\d{4}", "(?:ab|cd)*", r"a\.b", "x{2,10}"] {
            assert!(is_simple(p), "{p}");
        }
    }

    #[test]
    fn err_not_simple() {
        for p in ["(?=a)", "(?!a)", "(?<=a)b", r"(a)\1", r"\bword", r"\p{L}", "(?i)a", "a{1,500}", "\\"] {
            assert!(!is_simple(p), "{p}");
        }
    }
}
