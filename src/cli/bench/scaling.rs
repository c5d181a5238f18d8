//! The scaling tables: time per unit at two sizes, for the shapes where work
//! that grows faster than the input could hide. `bench --stream`: the stream
//! decoder's time per answer byte (a long `enum` string, many map members,
//! nested arrays, records). `bench`: emission's time per property, `enum`
//! member, definition or `anyOf` branch of one wide schema. Linear work keeps
//! the figure flat: *growth* near 1.

use super::Io;
use super::stream::{PIECE_BYTES, answer, pushed, schema};
use schemacast::{Mode, Options, Provider};
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::Instant;

/// The fastest of `rounds` rounds (after one) of each of two runs, timed in
/// turn within each round: the figures least disturbed by other work on the
/// machine.
fn fastest(rounds: usize, runs: &mut [&mut dyn FnMut(); 2]) -> [f64; 2] {
    let mut best = [f64::INFINITY; 2];
    for _ in 0..=rounds {
        for (run, best) in runs.iter_mut().zip(best.iter_mut()) {
            let start = Instant::now();
            run();
            *best = best.min(start.elapsed().as_nanos() as f64);
        }
    }
    best
}

/// The two answer sizes compared.
const SMALL: usize = 50 * 1024;
const LARGE: usize = 200 * 1024;

/// A schema and a valid answer of about `bytes` of JSON text.
fn shape(name: &str, bytes: usize) -> (Value, Value) {
    match name {
        "long enum string" => {
            let long: String = (0..bytes).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let schema = json!({"type": "object", "properties": {"s": {"enum": [format!("{long}!"), long]}},
                "required": ["s"], "additionalProperties": false});
            (schema, json!({"s": long}))
        }
        "map members" => {
            let members = (0..bytes / 12).map(|i| (format!("key{i}"), json!(i))).collect();
            (
                json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}),
                Value::Object(members),
            )
        }
        "nested arrays" => {
            let leaves: Vec<&str> = (0..bytes / 5).map(|i| if i % 2 == 0 { "ab" } else { "cd" }).collect();
            let schema = json!({"type": "array", "items": {"type": "array", "items": {"type": "array",
                "items": {"enum": ["ab", "cd"]}}}});
            (schema, json!([[leaves]]))
        }
        _ => (schema(), answer(bytes)),
    }
}

pub(super) fn table(io: &mut Io<'_>, rounds: usize, provider: Provider) {
    io.print(&format!(
        "\nscaling ({provider}): stream decoder time per answer byte, {PIECE_BYTES}-byte events pushed and finished (fastest round)"
    ));
    io.print(&format!("{:<18} {:>12} {:>12} {:>8}", "answer", "50 KB ns/B", "200 KB ns/B", "growth"));
    for name in ["records", "long enum string", "map members", "nested arrays"] {
        let mut runs = Vec::new();
        for bytes in [SMALL, LARGE] {
            let (schema, answer) = shape(name, bytes);
            let Ok(em) = Options::new(provider).with_mode(Mode::Schema).compile(&schema) else { break };
            let events = em.events_for(&answer, PIECE_BYTES);
            runs.push((em, events, answer.to_string().len()));
        }
        let [(small, small_events, small_len), (large, large_events, large_len)] = runs.as_slice() else {
            io.eprint(&format!("notice: {name}: the schema does not compile for {provider}; skipping it"));
            continue;
        };
        let stream = |em: &schemacast::Emission, events: &[Value]| {
            black_box(pushed(em, events));
        };
        let best = fastest(rounds, &mut [&mut || stream(small, small_events), &mut || stream(large, large_events)]);
        let per_byte = [best[0] / (*small_len).max(1) as f64, best[1] / (*large_len).max(1) as f64];
        let growth = per_byte[1] / per_byte[0].max(f64::MIN_POSITIVE);
        io.print(&format!("{name:<18} {:>12.1} {:>12.1} {:>7.2}x", per_byte[0], per_byte[1], growth));
    }
}

/// A schema with `n` units of one kind (the unit counted per row).
fn wide(name: &str, n: usize) -> Value {
    match name {
        "properties" => {
            let props: serde_json::Map<String, Value> = (0..n)
                .map(|i| {
                    (format!("field_{i}"), json!({"type": ["string", "null"], "description": format!("field {i}")}))
                })
                .collect();
            // One in eight optional: at 4n still within llama.cpp's 128 optional keys.
            let required: Vec<String> = (0..n).filter(|i| i % 8 != 0).map(|i| format!("field_{i}")).collect();
            json!({"type": "object", "properties": props, "required": required})
        }
        "enum members" => {
            json!({"type": "object", "properties": {"code": {"enum": (0..n).map(|i| format!("code-{i}")).collect::<Vec<_>>()}},
                "required": ["code"]})
        }
        "definitions" => {
            // Each definition referred to by a property of its own: references
            // kept, or inlined where the dialect has none.
            let defs: serde_json::Map<String, Value> = (0..n)
                .map(|i| {
                    (
                        format!("Def{i}"),
                        json!({"type": "object", "properties": {"id": {"type": "integer"},
                        "label": {"type": "string"}}, "required": ["id", "label"], "additionalProperties": false}),
                    )
                })
                .collect();
            let props: serde_json::Map<String, Value> =
                (0..n).map(|i| (format!("field_{i}"), json!({"$ref": format!("#/$defs/Def{i}")}))).collect();
            let required: Vec<String> = (0..n).map(|i| format!("field_{i}")).collect();
            json!({"type": "object", "properties": props, "required": required, "additionalProperties": false,
                "$defs": defs})
        }
        _ => {
            let branches: Vec<Value> = (0..n)
                .map(|i| json!({"type": "object", "properties": {"kind": {"const": format!("k{i}")}, "x": {"type": "integer"}},
                    "required": ["kind"], "additionalProperties": false}))
                .collect();
            json!({"type": "object", "properties": {"event": {"anyOf": branches}}, "required": ["event"]})
        }
    }
}

/// `bench`'s scaling table: emission (compile and serialise the body) per unit
/// of one wide schema, at `n` and `4n` units, for a few providers (sizes within
/// every provider's limits, so that both take the same path).
pub(super) fn emission_table(io: &mut Io<'_>, rounds: usize, providers: &[Provider]) {
    const ROWS: [(&str, usize); 4] =
        [("properties", 250), ("enum members", 200), ("definitions", 100), ("anyOf branches", 25)];
    io.print("\nscaling: emission time per unit of one wide schema at n and 4n units (fastest round)");
    io.print(&format!(
        "{:<16} {:<16} {:>6} {:>12} {:>12} {:>8}",
        "provider", "unit", "n", "n: us/unit", "4n: us/unit", "growth"
    ));
    for p in providers {
        for (name, n) in ROWS {
            let schemas = [wide(name, n), wide(name, 4 * n)];
            // Both sizes must take the same path (a limit met at one size only
            // would make the comparison meaningless): said when they do not.
            let levels: Vec<String> = schemas
                .iter()
                .map(|s| {
                    Options::new(*p)
                        .compile(s)
                        .map_or_else(|e| format!("error {:?}", e.kind()), |e| e.enforcement().to_string())
                })
                .collect();
            if levels[0] != levels[1] {
                io.eprint(&format!("notice: {p} {name}: {} at n, {} at 4n", levels[0], levels[1]));
            }
            let compile = |schema: &Value| {
                black_box(Options::new(*p).compile(schema).map(|e| e.body().to_string().len()).unwrap_or(0));
            };
            let best = fastest(rounds, &mut [&mut || compile(&schemas[0]), &mut || compile(&schemas[1])]);
            let [small, large] = [best[0] / n as f64 / 1e3, best[1] / (4 * n) as f64 / 1e3];
            let growth = large / small.max(f64::MIN_POSITIVE);
            io.print(&format!("{:<16} {name:<16} {n:>6} {small:>12.2} {large:>12.2} {growth:>7.2}x", p.name()));
        }
    }
}
