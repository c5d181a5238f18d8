//! `schemacast check`: the preflight report.

use super::{Args, Io};
use schemacast::{Mode, Provider};
use serde_json::Value;

pub(crate) fn run(args: &Args, io: &mut Io<'_>) -> i32 {
    let Some(path) = args.input.as_deref().or(Some("-").filter(|_| !io.stdin_terminal)) else {
        return super::usage_error(io, "`check` needs FILE, `-` or a schema piped to standard input");
    };
    let text = match io.read_input(path) {
        Ok(t) => t,
        Err(e) => {
            io.eprint(&format!("error: {e}"));
            return 2;
        }
    };
    let schema: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            io.print(&format!("problem: the input is not JSON: {e}"));
            return 1;
        }
    };
    // Preflight does not depend on the provider; text mode runs it alone.
    let mut options = args.options(Provider::OpenAi).with_mode(Mode::Text);
    if let Some(n) = &args.name {
        options = options.with_name(n.clone());
    }
    match options.compile(&schema) {
        Ok(em) => {
            for note in em.notes() {
                io.print(&format!("note: {note}"));
            }
            io.print("ok: the schema passed preflight");
            0
        }
        Err(e) => {
            io.print(&format!("problems ({}):", e.kind()));
            for p in e.problems() {
                io.print(&format!("  {p}"));
            }
            1
        }
    }
}
