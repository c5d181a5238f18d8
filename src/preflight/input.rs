//! The document's own bounds, checked before anything reads it as a schema:
//! its kind, its size and depth (without recursion), and the reserved
//! marker prefix.

use crate::error::{Error, ErrorKind};
use crate::options::Options;
use serde_json::Value;

pub(super) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The prefix of schemacast's internal markers in annotated schemas.
const RESERVED: &str = "$schemacast:";

/// No key and no string of the schema starts with [`RESERVED`]: the passes
/// that remove markers before sending would take such a property name away
/// (a narrowing), and a body could not be told from an annotated schema.
/// `prefix` goes before the pointer (a supplied document's URI).
pub(super) fn check_reserved(schema: &Value, prefix: &str) -> Result<(), Error> {
    let mut stack = vec![(schema, String::new())];
    while let Some((v, at)) = stack.pop() {
        let found = match v {
            Value::Object(m) => m.iter().find_map(|(k, sub)| {
                let here = crate::pointer::push(&at, k);
                let hit = k.starts_with(RESERVED).then(|| here.clone());
                stack.push((sub, here));
                hit
            }),
            Value::Array(items) => {
                for (i, sub) in items.iter().enumerate() {
                    stack.push((sub, crate::pointer::push_index(&at, i)));
                }
                None
            }
            Value::String(s) if s.starts_with(RESERVED) => Some(at.clone()),
            _ => None,
        };
        if let Some(p) = found {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!("{prefix}{p}"),
                format!(
                    "`{RESERVED}` begins schemacast's internal markers: a key or string starting with it cannot be sent"
                ),
            ));
        }
    }
    Ok(())
}

/// Depth and node count, without recursion.
pub(super) fn check_size(schema: &Value, opts: &Options) -> Result<(), Error> {
    // The common case, without building a pointer per value; the slow walk
    // below repeats it with pointers only to name the spot of a failure.
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 0)];
    let mut nodes = 0usize;
    while let Some((v, depth)) = stack.pop() {
        nodes += 1;
        if nodes > opts.max_nodes || depth > opts.max_depth {
            return check_size_located(schema, opts);
        }
        match v {
            Value::Object(m) => stack.extend(m.values().rev().map(|c| (c, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().rev().map(|c| (c, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

fn check_size_located(schema: &Value, opts: &Options) -> Result<(), Error> {
    let mut stack: Vec<(&Value, usize, String)> = vec![(schema, 0, String::new())];
    let mut nodes = 0usize;
    while let Some((v, depth, at)) = stack.pop() {
        nodes += 1;
        if nodes > opts.max_nodes {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                "",
                format!("the schema document has more than {} JSON values (option `max_nodes`)", opts.max_nodes),
            ));
        }
        if depth > opts.max_depth {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                at,
                format!("the schema document nests deeper than {} levels (option `max_depth`)", opts.max_depth),
            ));
        }
        match v {
            Value::Object(m) => {
                for (k, c) in m.iter().rev() {
                    stack.push((c, depth + 1, crate::pointer::push(&at, k)));
                }
            }
            Value::Array(items) => {
                for (i, c) in items.iter().enumerate().rev() {
                    stack.push((c, depth + 1, crate::pointer::push_index(&at, i)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
