//! `schemacast emit`.

use super::{Args, Io};
use schemacast::{Emission, Error};
use serde_json::{Value, json};

pub(crate) fn run(args: &Args, io: &mut Io<'_>) -> i32 {
    let Some(provider) = args.provider else {
        return super::usage_error(io, "`emit` needs --provider (see `schemacast providers`)");
    };
    let options = args.options(provider);
    // Piped input counts as FILE `-`.
    let input = args.input.as_deref().or(Some("-").filter(|_| !io.stdin_terminal));
    let text = match input {
        Some(path) => match io.read_input(path) {
            // Standard input that is not a terminal but carries nothing (`< /dev/null`,
            // a CI runner) is read as no input at all.
            Ok(t) if args.input.is_none() && t.trim().is_empty() && !args.lines => {
                io.eprint("note: no FILE given and nothing piped, compiling the bundled example schema (fixtures/examples/quickstart.json)");
                super::EXAMPLE_SCHEMA.to_owned()
            }
            Ok(t) => t,
            Err(e) => {
                io.eprint(&format!("error: {e}"));
                return 2;
            }
        },
        None if args.lines => return super::usage_error(io, "`--lines` needs FILE or `-`"),
        None => {
            io.eprint("note: no FILE given, compiling the bundled example schema (fixtures/examples/quickstart.json)");
            super::EXAMPLE_SCHEMA.to_owned()
        }
    };
    if args.lines {
        return lines(args, &options, &text, io);
    }
    let schema: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            io.eprint(&format!("error: the input is not JSON: {e}"));
            return 1;
        }
    };
    match options.compile(&schema) {
        Ok(em) => {
            io.print(&serde_json::to_string_pretty(&output(args, &em)).unwrap_or_default());
            0
        }
        Err(e) => {
            report(&e, io);
            1
        }
    }
}

fn output(args: &Args, em: &Emission) -> Value {
    if args.body_only {
        return em.body().clone();
    }
    let mut out = em.to_json();
    if args.explain
        && let Value::Object(m) = &mut out
    {
        m.insert("native_schema".to_owned(), em.native_schema().unwrap_or(Value::Null));
    }
    out
}

fn lines(args: &Args, options: &schemacast::Options, text: &str, io: &mut Io<'_>) -> i32 {
    let mut failed = false;
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.lines() {
        let compiled = serde_json::from_str::<Value>(line)
            .map_err(|e| Error::not_json(&e))
            .and_then(|schema| options.compile(&schema));
        let result = compiled.map(|em| output(args, &em)).unwrap_or_else(|e| {
            failed = true;
            json!({"error": {"kind": e.kind().as_str(), "pointer": e.pointer(), "message": e.message()}})
        });
        out.push_str(&result.to_string());
        out.push('\n');
    }
    if out.ends_with('\n') {
        out.pop();
    }
    if !out.is_empty() {
        io.print(&out);
    }
    i32::from(failed)
}

/// Prints an error in plain words, one problem per line.
pub(crate) fn report(e: &Error, io: &mut Io<'_>) {
    io.eprint(&format!("error: {}", e.kind()));
    for p in e.problems() {
        io.eprint(&format!("  {p}"));
    }
}
