//! The answer text around the JSON value, read as it arrives, exactly as
//! `decode` reads a whole text: leading whitespace, one `<think>…</think>`
//! block, one Markdown fence (```` ```json ```` … ```` ``` ````), trailing
//! whitespace. What lies between goes to the JSON [`Reader`].
//!
//! `decode` trims with Unicode whitespace (`str::trim`), so this does too
//! outside the value; inside it, only JSON's four whitespace bytes are allowed.

use super::json::{Reader, Sink};

const THINK_OPEN: &[u8] = b"<think>";
const THINK_CLOSE: &[u8] = b"</think>";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// Before anything but whitespace.
    Lead,
    /// Inside `<think>`: how much of it is read.
    ThinkOpen(u8),
    /// Inside the think block: how much of `</think>` is matched.
    Think(u8),
    /// After the think block: whitespace, then a fence or the value.
    AfterThink,
    /// Inside the opening backticks: how many are read.
    Ticks(u8),
    /// On the fence's first line (the info string); `blank` while it is only whitespace.
    Info {
        blank: bool,
    },
    /// After the fence's first line: whitespace, then the value.
    FenceBody,
    /// Inside the value.
    Json,
    /// After the value: whitespace, and the closing backticks when fenced (how many read).
    Trail {
        ticks: u8,
    },
    Failed,
}

/// The answer text's state between pieces.
#[derive(Debug)]
pub(crate) struct Front {
    st: St,
    fenced: bool,
    failure: Option<&'static str>,
}

impl Front {
    pub(crate) fn new() -> Front {
        Front { st: St::Lead, fenced: false, failure: None }
    }

    /// The text can no longer be one JSON value as `decode` reads it (a certain failure).
    pub(crate) fn failure(&self) -> Option<&'static str> {
        self.failure
    }

    /// The text read so far is exactly one complete JSON value as `decode` reads it.
    pub(crate) fn is_whole(&self, reader: &Reader) -> bool {
        reader.is_done() && self.st == St::Trail { ticks: if self.fenced { 3 } else { 0 } }
    }

    #[cold]
    fn fail(&mut self, why: &'static str) {
        self.st = St::Failed;
        self.failure = Some(why);
    }

    /// Reads one piece of the answer text.
    pub(crate) fn feed(&mut self, text: &str, reader: &mut Reader, sink: &mut impl Sink) {
        let mut rest = text;
        while !rest.is_empty() {
            if self.st == St::Json {
                let used = reader.feed(rest, sink);
                // The reader stops on a character boundary unless it failed (mid-character).
                match rest.get(used..) {
                    Some(after) if reader.failure().is_none() => rest = after,
                    _ => {
                        self.st = St::Failed;
                        return;
                    }
                }
                if reader.is_done() {
                    self.st = St::Trail { ticks: 0 };
                }
                continue;
            }
            let Some(c) = rest.chars().next() else { return };
            self.char(c);
            match self.st {
                St::Failed => return,
                // The value starts at `c`: the reader reads it.
                St::Json => {}
                _ => rest = &rest[c.len_utf8()..],
            }
        }
    }

    /// One character outside the value (the state becomes [`St::Json`] when
    /// the value starts at it).
    fn char(&mut self, c: char) {
        let byte = u8::try_from(c).unwrap_or(0);
        match self.st {
            St::Lead | St::AfterThink | St::FenceBody | St::Trail { ticks: 0 | 3 } if c.is_whitespace() => {}
            St::Lead if c == '<' => self.st = St::ThinkOpen(1),
            St::Lead | St::AfterThink if c == '`' => {
                self.fenced = true;
                self.st = St::Ticks(1);
            }
            St::Lead | St::AfterThink | St::FenceBody => self.st = St::Json,
            St::ThinkOpen(n) if THINK_OPEN.get(usize::from(n)) == Some(&byte) => {
                self.st = if usize::from(n) + 1 == THINK_OPEN.len() { St::Think(0) } else { St::ThinkOpen(n + 1) };
            }
            St::ThinkOpen(_) => self.fail("text before the JSON value"),
            St::Think(n) if THINK_CLOSE.get(usize::from(n)) == Some(&byte) => {
                self.st = if usize::from(n) + 1 == THINK_CLOSE.len() { St::AfterThink } else { St::Think(n + 1) };
            }
            // `</think>` repeats no part of itself, so a mismatch restarts at `<` or nothing.
            St::Think(_) => self.st = St::Think(u8::from(c == '<')),
            St::Ticks(n) if c == '`' => self.st = if n == 2 { St::Info { blank: true } } else { St::Ticks(n + 1) },
            St::Ticks(_) => self.fail("text before the JSON value"),
            St::Info { .. } if c == '\n' => self.st = St::FenceBody,
            // The value starts on the fence's first line: `decode` reads it from the
            // backticks on, so anything but whitespace before it is not JSON.
            St::Info { blank: true } if matches!(c, '{' | '[' | '"') => self.st = St::Json,
            St::Info { blank: false } if matches!(c, '{' | '[' | '"') => self.fail("text before the JSON value"),
            St::Info { blank } => self.st = St::Info { blank: blank && c.is_whitespace() },
            St::Trail { ticks } if self.fenced && ticks < 3 && c == '`' => self.st = St::Trail { ticks: ticks + 1 },
            St::Trail { .. } => self.fail("text after the JSON value"),
            St::Json | St::Failed => {}
        }
    }

    /// The text ended (a number at its very end is whole now).
    pub(crate) fn end(&mut self, reader: &mut Reader, sink: &mut impl Sink) {
        if self.st == St::Json {
            reader.end_of_input(sink);
            if reader.is_done() {
                self.st = St::Trail { ticks: 0 };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::json::Kind;
    use serde_json::Value;

    struct Quiet;
    impl Sink for Quiet {
        fn start(&mut self, _: Kind) {}
        fn chunk(&mut self, _: &str) {}
        fn key(&mut self, _: &str) {}
        fn scalar(&mut self, _: Value) {}
        fn end(&mut self) {}
    }

    /// Reads `text` one character at a time: (whole, certain failure).
    fn read(text: &str) -> (bool, bool) {
        let (mut front, mut reader) = (Front::new(), Reader::new());
        for (i, c) in text.char_indices() {
            front.feed(&text[i..i + c.len_utf8()], &mut reader, &mut Quiet);
        }
        front.end(&mut reader, &mut Quiet);
        let certain = front.failure().is_some() || reader.failure().is_some_and(|f| f.certain);
        (front.is_whole(&reader), certain)
    }

    #[test]
    fn ok_whole_where_decode_parses() {
        for text in [
            "{}",
            " \u{a0}[1]\u{3000}\n",
            "```json\n{\"a\": 1}\n```",
            "``` {\"a\": 1}```",
            "  ```\r\n42\n```  ",
            "<think>{ \"half: [ </think>\n{}",
            "<think>a</think>```json\n\"x\"\n```",
            "7",
        ] {
            assert_eq!(read(text), (true, false), "{text:?}");
            assert!(crate::decode::parse_text(text).is_ok(), "decode parses {text:?}");
        }
    }

    #[test]
    fn err_certain_where_decode_cannot_parse() {
        for text in ["{} x", "```js {}```", "<thinking>{}", "```json\n{}\n``` ```", "{}\n````", "`{}`", "{\u{a0}}"] {
            assert_eq!(read(text), (false, true), "{text:?}");
            assert!(crate::decode::parse_text(text).is_err(), "decode rejects {text:?}");
        }
    }

    #[test]
    fn ok_unsure_is_left_to_decode() {
        // No newline on the fence's first line and no bracket: decode trims and parses.
        let text = "``` 42 ```";
        assert_eq!(read(text), (false, false));
        assert!(crate::decode::parse_text(text).is_ok());
    }
}
