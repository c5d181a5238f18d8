//! Building the string and number keywords of one location.

use super::facts::{Bound, Facts};
use super::types::TypeSet;
use super::{Lowerer, PatternRule};
use crate::note::Action;
use crate::pattern;
use serde_json::{Map, Number, Value};

/// Integers whose `f64` is exact.
const EXACT_INT: f64 = 9_007_199_254_740_992.0;

impl<'d> Lowerer<'_, 'd> {
    /// Sends count bounds (`minLength`/`maxLength`, `minItems`/`maxItems`) the
    /// dialect has and can hold; drops the others (widening).
    pub(super) fn counts(&mut self, bounds: [(&str, &Option<(u64, String)>); 2], out: &mut Map<String, Value>) {
        for (kw, v) in bounds {
            let Some((n, p)) = v else { continue };
            if !self.rules.allows(kw) {
                self.widen(p, kw, Action::Dropped, "not supported by the dialect: dropped (widening)");
            } else if *n > self.rules.max_count {
                let why = format!(
                    "above {}: the grammar parser refuses repetitions this long, or reads them as unbounded: dropped (widening)",
                    self.rules.max_count
                );
                self.widen(p, kw, Action::Dropped, why);
            } else {
                out.insert(kw.to_owned(), Value::from(*n));
            }
        }
    }

    pub(super) fn strings(&mut self, f: &Facts<'d>, out: &mut Map<String, Value>) {
        self.counts([("minLength", &f.min_length), ("maxLength", &f.max_length)], out);
        for (i, (pat, p)) in f.patterns.iter().enumerate() {
            if i > 0 || out.contains_key("pattern") {
                self.widen(
                    p,
                    "pattern",
                    Action::Dropped,
                    "only one pattern per schema can be sent: dropped (widening)",
                );
                continue;
            }
            let anchored = pattern::is_self_anchored(pat);
            let simple = pattern::is_simple(pat);
            let whole = match self.rules.pattern {
                PatternRule::RewriteToFullMatch => pattern::whole_string(pat),
                _ => None,
            };
            match self.rules.pattern {
                PatternRule::RewriteToFullMatch if whole.is_none() => {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "an anchor inside the pattern: the provider matches whole strings and does not document inner anchors; dropped (widening)",
                    );
                }
                PatternRule::RewriteToFullMatch if !simple => {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "outside the provider's documented regex subset (look-around, back-references, `\\b`, `\\p{…}`, inline flags or large repetitions): dropped (widening)",
                    );
                }
                PatternRule::Search => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::AnchoredOnly if anchored => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::RewriteToFullMatch if anchored => {
                    out.insert("pattern".to_owned(), Value::String(pat.clone()));
                }
                PatternRule::RewriteToFullMatch => {
                    let unanchored = !pattern::has_anchor(pat);
                    out.insert("pattern".to_owned(), Value::String(whole.unwrap_or_default()));
                    let why = if unanchored {
                        "unanchored: sent as `^[\\s\\S]*(?:…)[\\s\\S]*$`, which the provider's whole-string matching reads as JSON Schema's search"
                    } else {
                        "anchored at one end only: the open end sent as `[\\s\\S]*` (`^(?:…)[\\s\\S]*$` or `^[\\s\\S]*(?:…)$`), which the provider's whole-string matching reads as JSON Schema's search"
                    };
                    self.note(p, "pattern", Action::Rewritten, why);
                }
                PatternRule::AnchoredOnly => self.widen(
                    p,
                    "pattern",
                    Action::Dropped,
                    "not anchored as `^…$`: the provider matches the whole string, which would narrow JSON Schema's search; dropped (widening)",
                ),
                PatternRule::Drop => {
                    self.widen(p, "pattern", Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
                PatternRule::Grammar if pattern::for_grammar(pat).is_some_and(|g| !pattern::json_text_safe(&g)) => {
                    self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "the grammar engine matches the pattern against the string as written in JSON, escapes included, so strings holding a quote, a backslash or a control character (which this pattern allows) could not be produced: dropped (widening)",
                    );
                }
                PatternRule::Grammar => match pattern::for_grammar(pat) {
                    Some(g) if g == *pat => {
                        out.insert("pattern".to_owned(), Value::String(g));
                    }
                    Some(g) => {
                        out.insert("pattern".to_owned(), Value::String(g));
                        self.note(
                            p,
                            "pattern",
                            Action::Rewritten,
                            "sent anchored as `^…$`, with `(.|[\\n\\r])*` for each open end: the grammar's whole-string match then reads it as JSON Schema's search",
                        );
                    }
                    None => self.widen(
                        p,
                        "pattern",
                        Action::Dropped,
                        "outside the grammar converter's regex subset (shorthand classes, lookaround, inner anchors, a class starting with `]`, or repetitions the grammar parser refuses): dropped (widening)",
                    ),
                },
            }
        }
        for (fmt, p) in &f.formats {
            if !self.assert_formats {
                self.note(p, "format", Action::Dropped, "an annotation (format assertion is off): not sent");
            } else if self.rules.allows("format")
                && self.rules.formats.contains(&fmt.as_str())
                && !out.contains_key("format")
            {
                out.insert("format".to_owned(), Value::String(fmt.clone()));
            } else {
                self.widen(
                    p,
                    "format",
                    Action::Dropped,
                    format!("format {fmt:?} is not supported by the dialect: dropped (widening)"),
                );
            }
        }
    }

    pub(super) fn numbers(&mut self, f: &Facts<'d>, types: TypeSet, out: &mut Map<String, Value>) {
        let integer_only = types.integer && !types.number;
        for (bound, lower) in [(&f.minimum, true), (&f.maximum, false)] {
            let Some(Bound { value, exclusive, at }) = bound else { continue };
            let (incl, excl) = if lower { ("minimum", "exclusiveMinimum") } else { ("maximum", "exclusiveMaximum") };
            if self.rules.integral_bounds {
                self.integral_bound(value, *exclusive, at, lower, integer_only, out);
                continue;
            }
            if !exclusive {
                if self.rules.allows(incl) {
                    out.insert(incl.to_owned(), Value::Number(value.clone()));
                } else {
                    self.widen(at, incl, Action::Dropped, "not supported by the dialect: dropped (widening)");
                }
                continue;
            }
            if self.rules.allows(excl) {
                out.insert(excl.to_owned(), Value::Number(value.clone()));
                continue;
            }
            if !self.rules.allows(incl) {
                self.widen(at, excl, Action::Dropped, "not supported by the dialect: dropped (widening)");
                continue;
            }
            let v = value.as_f64().unwrap_or(0.0);
            if integer_only && v.is_finite() && v.abs() < EXACT_INT {
                // For integers, `> 2.5` is `>= 3` and `> 2` is `>= 3`: exact.
                let edge = if lower { v.floor() + 1.0 } else { v.ceil() - 1.0 };
                out.insert(incl.to_owned(), int_value(edge));
                self.note(
                    at,
                    excl,
                    Action::Rewritten,
                    format!("sent as `{incl}: {edge}`, the same bound for integers"),
                );
            } else {
                out.insert(incl.to_owned(), Value::Number(value.clone()));
                self.widen(at, excl, Action::Rewritten, format!("sent as the inclusive `{incl}` (widening)"));
            }
        }
        for (i, (n, p)) in f.multiple_of.iter().enumerate() {
            if i == 0 && self.rules.allows("multipleOf") {
                out.insert("multipleOf".to_owned(), Value::Number(n.clone()));
            } else {
                self.widen(p, "multipleOf", Action::Dropped, "not supported by the dialect: dropped (widening)");
            }
        }
    }

    /// A bound for a reader that holds bounds as 64-bit integers and applies
    /// them to integers only: sent as the equivalent whole inclusive bound on
    /// integer-only nodes, dropped elsewhere or when out of range.
    fn integral_bound(
        &mut self,
        value: &Number,
        exclusive: bool,
        at: &str,
        lower: bool,
        integer_only: bool,
        out: &mut Map<String, Value>,
    ) {
        let kw = if lower { "minimum" } else { "maximum" };
        let v = value.as_f64().unwrap_or(f64::NAN);
        if !integer_only || !v.is_finite() || v.abs() >= EXACT_INT {
            let what = if exclusive { if lower { "exclusiveMinimum" } else { "exclusiveMaximum" } } else { kw };
            self.widen(
                at,
                what,
                Action::Dropped,
                "the grammar reads bounds as 64-bit integers on integers only: dropped here (widening)",
            );
            return;
        }
        let edge = match (lower, exclusive) {
            (true, false) => v.ceil(),
            (true, true) => v.floor() + 1.0,
            (false, false) => v.floor(),
            (false, true) => v.ceil() - 1.0,
        };
        out.insert(kw.to_owned(), int_value(edge));
        if exclusive || edge != v {
            let source = match (lower, exclusive) {
                (true, true) => "exclusiveMinimum",
                (false, true) => "exclusiveMaximum",
                _ => kw,
            };
            self.note(
                at,
                source,
                Action::Rewritten,
                format!("sent as the whole bound `{kw}: {edge}`, the same for integers"),
            );
        }
    }
}

fn int_value(f: f64) -> Value {
    if f >= 0.0 { Value::Number(Number::from(f as u64)) } else { Value::Number(Number::from(f as i64)) }
}
