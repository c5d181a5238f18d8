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
        if path == "-" {
            let mut s = String::new();
            self.stdin.read_to_string(&mut s).map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(s)
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
        }
    }
}
