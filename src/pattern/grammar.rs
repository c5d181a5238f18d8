//! Patterns for llama.cpp's grammar converter: rewritten to match whole strings,
//! spelled so that both pinned versions' grammar parsers take them, and kept
//! only while their repetitions stay within what those parsers accept.

use super::{has_unsafe_escape, repeat_over};

/// Largest repetition count a grammar converter is trusted with.
const MAX_REPEAT: u32 = 1000;

/// The pattern rewritten for a grammar engine that matches whole strings, has no
/// `[\s\S]` and no `(?…)` groups (llama.cpp): anchored as `^…$`, with any
/// unanchored end opened by `(.|[\n\r])*` (`.` there is every character but
/// `\n` and `\r`). `None` when the pattern uses anything outside that subset.
pub(crate) fn for_grammar(pattern: &str) -> Option<String> {
    const ANY: &str = "(.|[\\n\\r])*";
    let (start, rest) = match pattern.strip_prefix('^') {
        Some(r) => (true, r),
        None => (false, pattern),
    };
    let trailing_backslashes = rest.strip_suffix('$').map(|r| r.bytes().rev().take_while(|&b| b == b'\\').count());
    let (end, body) = match trailing_backslashes {
        Some(n) if n % 2 == 0 => (true, &rest[..rest.len() - 1]),
        _ => (false, rest),
    };
    if has_unsafe_escape(body) || body.contains("(?") || large_repeat(body) {
        return None;
    }
    // No anchors may remain inside, and an anchored end needs no top-level `|`.
    let mut depth = 0usize;
    let mut in_class = false;
    let mut top_alternation = false;
    let mut chars = body.chars().peekable();
    let mut class_start = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => {
                in_class = true;
                class_start = true;
                continue;
            }
            '^' if in_class && class_start => continue,
            // `[]…]` and `[^]…]`: a regex engine may read that `]` as a member,
            // the converter ends the class there. Not sent.
            ']' if in_class && class_start => return None,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.checked_sub(1)?,
            '|' if !in_class && depth == 0 => top_alternation = true,
            '^' | '$' if !in_class => return None,
            _ => {}
        }
        class_start = false;
    }
    if depth != 0 || in_class || ((start || end) && top_alternation) {
        return None;
    }
    let body = plain_escapes(body)?;
    if start && end {
        return Some(format!("^{body}$"));
    }
    Some(format!("^{}({body}){}$", if start { "" } else { ANY }, if end { "" } else { ANY }))
}

/// `body` with the escapes the older llama.cpp converter copies into its grammar
/// verbatim, where its grammar parser refuses them (llama.cpp as Ollama pins
/// it), spelled without the backslash: `\/` and `\-` outside a class, and
/// inside a class every escaped character but `\\`, `\[`, `\]`, `\n`, `\r`
/// and `\t` (an escaped `-` moves to the end of its class, where it is a
/// literal). The same characters match. `None` for an escaped `^` first in a
/// class, which has no such spelling.
fn plain_escapes(body: &str) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    // The class being read: its text so far, and whether it holds an escaped `-`.
    let mut class: Option<(String, bool)> = None;
    while let Some(c) = chars.next() {
        match (&mut class, c) {
            (None, '\\') => match chars.next()? {
                e @ ('/' | '-') => out.push(e),
                e => {
                    out.push('\\');
                    out.push(e);
                }
            },
            (None, '[') => {
                let mut text = String::from("[");
                if body_next_is(&mut chars, '^') {
                    text.push('^');
                }
                class = Some((text, false));
            }
            (None, c) => out.push(c),
            (Some((text, dash)), '\\') => match chars.next()? {
                e @ ('\\' | '[' | ']' | 'n' | 'r' | 't') => {
                    text.push('\\');
                    text.push(e);
                }
                '-' => *dash = true,
                '^' if text == "[" => return None,
                e => text.push(e),
            },
            (Some((text, dash)), ']') => {
                if *dash {
                    text.push('-');
                }
                text.push(']');
                out.push_str(text);
                class = None;
            }
            (Some((text, _)), c) => text.push(c),
        }
    }
    // An unclosed class was refused before.
    class.is_none().then_some(out)
}

/// Consumes the next character when it is `want`.
fn body_next_is(chars: &mut std::str::Chars<'_>, want: char) -> bool {
    let mut ahead = chars.clone();
    if ahead.next() == Some(want) {
        *chars = ahead;
        return true;
    }
    false
}

/// Deepest nesting of groups read (a pattern nested deeper is not sent).
const MAX_GROUP_DEPTH: usize = 32;

/// Whether llama.cpp's grammar parser could refuse the repetitions of `body`:
/// a count above [`MAX_REPEAT`], or a repetition whose count times the rules
/// its operand creates passes it. (The parser refuses a repetition when that
/// product reaches 2,000, and a group's rules include every rule a repetition
/// inside it creates; so `(a{0,900}b{0,900})?` is refused, `a{0,900}` is not.)
fn large_repeat(body: &str) -> bool {
    repeat_over(body, MAX_REPEAT) || {
        let mut chars = body.chars().peekable();
        group_rules(&mut chars, 0).is_none()
    }
}

/// The rules the grammar parser creates for a sequence up to a closing `)` (or
/// the end), read from `chars`; `None` when a repetition in it loads more
/// than [`MAX_REPEAT`] rules, or groups nest deeper than [`MAX_GROUP_DEPTH`].
fn group_rules(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, depth: usize) -> Option<u64> {
    if depth > MAX_GROUP_DEPTH {
        return None;
    }
    let mut rules: u64 = 0;
    while let Some(c) = chars.next() {
        // The operand: its own rules (a group is one, plus what it holds).
        let operand = match c {
            ')' => return Some(rules),
            '(' => group_rules(chars, depth + 1)?.saturating_add(1),
            '[' => {
                // The class ends at its first unescaped `]` (`for_grammar`
                // refuses a class that starts with one).
                while let Some(k) = chars.next() {
                    match k {
                        '\\' => {
                            chars.next();
                        }
                        ']' => break,
                        _ => {}
                    }
                }
                0
            }
            '\\' => {
                chars.next();
                0
            }
            _ => 0,
        };
        // Its repetition, if any: how many times the parser copies it, and the
        // rules that adds.
        let (times, added) = match chars.peek() {
            Some('*' | '+' | '?') => {
                chars.next();
                (1, 1)
            }
            Some('{') => {
                chars.next();
                let mut spec = String::new();
                for k in chars.by_ref() {
                    if k == '}' {
                        break;
                    }
                    spec.push(k);
                }
                let mut bounds = spec.split(',').map(|d| d.trim().parse::<u64>().ok());
                let min = bounds.next().flatten().unwrap_or(0);
                let max = bounds.next().unwrap_or(Some(min));
                match max {
                    Some(max) => (max.max(1), max.saturating_sub(min).max(1)),
                    None => (min.max(1), 1),
                }
            }
            _ => (0, 0),
        };
        if times > 0 && operand.max(1).saturating_mul(times) > u64::from(MAX_REPEAT) {
            return None;
        }
        rules = rules.saturating_add(operand).saturating_add(added);
    }
    Some(rules)
}

#[cfg(test)]
mod grammar_tests {
    use super::for_grammar;

    #[test]
    fn ok_for_grammar() {
        assert_eq!(for_grammar("^[0-9]{3}$").as_deref(), Some("^[0-9]{3}$"));
        assert_eq!(for_grammar("[0-9]{3}").as_deref(), Some("^(.|[\\n\\r])*([0-9]{3})(.|[\\n\\r])*$"));
        assert_eq!(for_grammar("^ab").as_deref(), Some("^(ab)(.|[\\n\\r])*$"));
        assert_eq!(for_grammar("cat|dog").as_deref(), Some("^(.|[\\n\\r])*(cat|dog)(.|[\\n\\r])*$"));
        assert_eq!(for_grammar("^[^a-z]$").as_deref(), Some("^[^a-z]$"));
        for p in ["^a{0,1000}$", "^(a{0,400}b{0,400})?$", "^([a-z]{2,300}-){3}$", "^[a-z]{1,1000}(x|y)*$"] {
            assert_eq!(for_grammar(p).as_deref(), Some(p), "{p}");
        }
    }

    #[test]
    fn ok_plain_escapes_for_old_llama_cpp() {
        for (p, want) in [
            (r"^[a-z]+\/[a-z0-9.+-]+$", r"^[a-z]+/[a-z0-9.+-]+$"),
            (r"^a\-b$", "^a-b$"),
            (r"^[A-Za-z0-9_'+\-]+$", r"^[A-Za-z0-9_'+-]+$"),
            (r"^[\-a]$", "^[a-]$"),
            (r"^[^\.\-x]$", "^[^.x-]$"),
            (r"^[\]\[\\\n]$", r"^[\]\[\\\n]$"),
            (r"^[a\$\|\?\*\+\(\)\{\}\/\^]$", "^[a$|?*+(){}/^]$"),
            (r"^\.\$\(x\)$", r"^\.\$\(x\)$"),
        ] {
            assert_eq!(for_grammar(p).as_deref(), Some(want), "{p}");
        }
        for p in [r"^[\^a]$", "^[]a]$", "^[^]a]$", "^a[]$"] {
            assert_eq!(for_grammar(p), None, "{p}");
        }
    }

    #[test]
    fn ok_json_text_safe() {
        for p in ["^[a-z]+$", "^[0-9]{3}-[0-9]{4}$", r"^\d+\.\d+$", "^[A-Za-z_][A-Za-z0-9_]*$", "^é+$", r"^\w+@\w+$"] {
            assert!(crate::pattern::json_text_safe(p), "{p}");
        }
    }

    #[test]
    fn err_json_text_unsafe() {
        for p in [
            "^a.b$",
            "^[^a]$",
            r"^\s+$",
            r"^\t$",
            "^[ -~]+$",
            "^[!-#]$",
            "^\"$",
            r"^a\\b$",
            "^(.|[\n\r])*(x)(.|[\n\r])*$",
            "^\u{1F432}$",
        ] {
            assert!(!crate::pattern::json_text_safe(p), "{p}");
        }
    }

    #[test]
    fn err_for_grammar() {
        for p in [
            r"^\S+$",
            r"\d{3}",
            "^a|b$",
            "(?=a)",
            "a{1,65536}",
            "a^b",
            r"\bword",
            "(a",
            "^(a{0,900}b{0,900})?$",
            "^([a-z]{2,600}-){2}$",
            &format!("^{}a{}$", "(".repeat(100_000), ")".repeat(100_000)),
        ] {
            assert_eq!(for_grammar(p), None, "{p}");
        }
    }
}
