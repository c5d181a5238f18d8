//! Regular-expression facts needed to keep `pattern` sound across matching rules.
//!
//! JSON Schema's `pattern` searches anywhere in the string; grammar engines match
//! the whole string. A pattern means the same under both readings when it is
//! anchored at both ends with no top-level alternation.

/// `true` when `pattern` is `^…$` with no top-level `|`, so that searching for it
/// and matching it against the whole string accept the same strings.
pub(crate) fn is_self_anchored(pattern: &str) -> bool {
    let Some(body) = pattern.strip_prefix('^') else { return false };
    let Some(body) = body.strip_suffix('$') else { return false };
    // The final `$` must not be escaped: count the backslashes before it.
    let trailing_backslashes = body.bytes().rev().take_while(|&b| b == b'\\').count();
    if trailing_backslashes % 2 == 1 {
        return false;
    }
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
}
