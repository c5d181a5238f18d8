//! The streams a command reads and writes; injected so tests can capture them.

use std::io::{Read, Write};

/// Standard input, output and error of one run.
pub(crate) struct Io<'a> {
    pub(crate) stdin: &'a mut dyn Read,
    pub(crate) out: &'a mut dyn Write,
    pub(crate) err: &'a mut dyn Write,
    /// Standard input is a terminal: nothing is piped in.
    pub(crate) stdin_terminal: bool,
}

impl Io<'_> {
    /// Writes a line to standard output; a closed pipe is not an error.
    pub(crate) fn print(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
    }

    /// Writes a line to standard error.
    pub(crate) fn eprint(&mut self, text: &str) {
        let _ = writeln!(self.err, "{text}");
    }

    /// Reads FILE, or standard input for `-`.
    pub(crate) fn read_input(&mut self, path: &str) -> Result<String, String> {
        let mut s = String::new();
        open_input(&mut *self.stdin, path)?.read_to_string(&mut s).map_err(|e| read_error(path, &e))?;
        Ok(without_bom(s))
    }
}

/// A file's text without the byte order mark some editors write first
/// (RFC 8259 lets a JSON reader ignore it; serde_json does not).
pub(crate) fn without_bom(mut text: String) -> String {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    text
}

/// FILE, or standard input for `-`, opened to be read as it arrives.
pub(crate) fn open_input<'s>(stdin: &'s mut dyn Read, path: &str) -> Result<Box<dyn Read + 's>, String> {
    if path == "-" {
        return Ok(Box::new(stdin));
    }
    match std::fs::File::open(path) {
        Ok(f) => Ok(Box::new(f)),
        Err(e) => Err(read_error(path, &e)),
    }
}

/// Why FILE (or standard input, `-`) could not be read.
pub(crate) fn read_error(path: &str, e: &std::io::Error) -> String {
    if path == "-" { format!("cannot read standard input: {e}") } else { format!("cannot read {path}: {e}") }
}
