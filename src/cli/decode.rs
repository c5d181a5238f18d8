//! `schemacast decode` and `schemacast validate`.

use super::{Args, Io};
use serde_json::Value;
use std::io::Write;

fn read_json(io: &mut Io<'_>, path: &str, what: &str) -> Result<Value, i32> {
    let text = io.read_input(path).map_err(|e| {
        io.eprint(&format!("error: {e}"));
        2
    })?;
    serde_json::from_str(&text).map_err(|e| {
        io.eprint(&format!("error: the {what} is not JSON: {e}"));
        2
    })
}

/// Prints a decode error in plain words, one problem per line.
fn report(io: &mut Io<'_>, e: &schemacast::DecodeError) {
    io.eprint(&format!("error: {}", e.kind()));
    match e {
        schemacast::DecodeError::Invalid { violations, .. } => {
            for v in violations {
                io.eprint(&format!("  {v}"));
            }
        }
        schemacast::DecodeError::Schema(err) => {
            for p in err.problems() {
                io.eprint(&format!("  {p}"));
            }
        }
        other => io.eprint(&format!("  {other}")),
    }
}

pub(crate) fn decode(args: &Args, io: &mut Io<'_>) -> i32 {
    let Some(provider) = args.provider else {
        return super::usage_error(io, "`decode` needs --provider");
    };
    let Some(schema_path) = args.schema.as_deref() else {
        return super::usage_error(io, "`decode` needs --schema FILE");
    };
    let schema = match read_json(io, schema_path, "schema") {
        Ok(v) => v,
        Err(code) => return code,
    };
    let emission = match args.options(provider).compile(&schema) {
        Ok(e) => e,
        Err(e) => {
            super::emit::report(&e, io);
            return 1;
        }
    };
    if args.stream {
        return stream(&emission, args, io);
    }
    let response = match read_json(io, args.input.as_deref().unwrap_or("-"), "response") {
        Ok(v) => v,
        Err(code) => return code,
    };
    match emission.decode(&response) {
        Ok(answer) => {
            io.print(&serde_json::to_string_pretty(answer.value()).unwrap_or_default());
            io.eprint(&format!("finish_reason: {}", answer.finish_reason()));
            0
        }
        Err(e) => {
            report(io, &e);
            1
        }
    }
}

/// `decode --stream`: one line per event that changed the answer so far (the
/// partial value, compact), an early error on stderr once, then the answer.
fn stream(emission: &schemacast::Emission, args: &Args, io: &mut Io<'_>) -> i32 {
    let path = args.input.as_deref().unwrap_or("-");
    // Read as it arrives (a live pipe shows partials and early errors as soon
    // as they are known): standard input in chunks, a file likewise.
    let Io { stdin, out, err, .. } = io;
    let mut source = match super::io::open_input(&mut **stdin, path) {
        Ok(s) => s,
        Err(why) => {
            let _ = writeln!(err, "error: {why}");
            return 2;
        }
    };
    let mut split = schemacast::EventSplitter::new();
    let mut decoder = emission.stream();
    let mut last = String::new();
    let mut told = false;
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match source.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = writeln!(err, "error: {}", super::io::read_error(path, &e));
                return 2;
            }
        };
        split.feed_each(&buf[..n], |event| {
            show(&mut decoder, event, &mut last, &mut told, (&mut **out, &mut **err));
        });
    }
    split.finish_each(|event| show(&mut decoder, event, &mut last, &mut told, (&mut **out, &mut **err)));
    drop(source);
    match decoder.finish() {
        Ok(answer) => {
            io.print(&answer.value().to_string());
            io.eprint(&format!("finish_reason: {}", answer.finish_reason()));
            0
        }
        Err(e) => {
            report(io, &e);
            1
        }
    }
}

/// Pushes one event; prints the answer so far when it changed, and the first
/// early error.
fn show(
    decoder: &mut schemacast::StreamDecoder<'_>,
    event: &schemacast::StreamEvent,
    last: &mut String,
    told: &mut bool,
    (out, err): (&mut dyn Write, &mut dyn Write),
) {
    let partial = decoder.push_event(event);
    if let Some(v) = partial.value() {
        let line = v.to_string();
        if line != *last {
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
            *last = line;
        }
    }
    if let Some(e) = partial.error().filter(|_| !*told) {
        *told = true;
        let _ = writeln!(err, "early error: {}: {e}", e.kind());
    }
}

pub(crate) fn validate(args: &Args, io: &mut Io<'_>) -> i32 {
    let (Some(schema_path), Some(instance_path)) = (args.input.as_deref(), args.second.as_deref()) else {
        return super::usage_error(io, "`validate` needs SCHEMA and INSTANCE");
    };
    let schema = match read_json(io, schema_path, "schema") {
        Ok(v) => v,
        Err(code) => return code,
    };
    let instance = match read_json(io, instance_path, "instance") {
        Ok(v) => v,
        Err(code) => return code,
    };
    // Read as `decode` reads it (draft, documents, format assertion); the
    // provider does not matter to the local validator.
    let emission = match args.options(schemacast::Provider::OpenAi).compile(&schema) {
        Ok(e) => e,
        Err(e) => {
            super::emit::report(&e, io);
            return 1;
        }
    };
    match emission.validate(&instance) {
        Ok(()) => {
            io.print("valid");
            0
        }
        Err(e) => {
            report(io, &e);
            1
        }
    }
}
