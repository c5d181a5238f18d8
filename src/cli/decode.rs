//! `schemacast decode` and `schemacast validate`.

use super::{Args, Io};
use serde_json::Value;

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
    let transcript = match io.read_input(args.input.as_deref().unwrap_or("-")) {
        Ok(t) => t,
        Err(e) => {
            io.eprint(&format!("error: {e}"));
            return 2;
        }
    };
    let mut split = schemacast::EventSplitter::new();
    let mut events = split.feed(transcript.as_bytes());
    events.extend(split.finish());
    let mut decoder = emission.stream();
    let mut last = String::new();
    let mut told = false;
    for event in &events {
        let partial = decoder.push_event(event);
        if let Some(v) = partial.value() {
            let line = v.to_string();
            if line != last {
                io.print(&line);
                last = line;
            }
        }
        if let Some(e) = partial.error().filter(|_| !told) {
            told = true;
            io.eprint(&format!("early error: {}: {e}", e.kind()));
        }
    }
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
    match schemacast::validate(&schema, &instance) {
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
