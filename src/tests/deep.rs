//! The deepest schemas the options allow compile, emit and decode on a thread
//! with the standard library's default stack for spawned threads (2 MiB), in
//! the test build (unoptimised, where frames are largest): deep input gets an
//! answer or a typed error, never a stack overflow.

use crate::{Options, Provider};
use serde_json::{Value, json};

type Wrap = fn(Value) -> Value;

/// A kind of nesting: how a schema and a matching answer wrap one level.
struct Nesting {
    schema: Wrap,
    answer: Wrap,
}

fn nest(levels: usize, leaf: Value, wrap: Wrap) -> Value {
    (0..levels).fold(leaf, |inner, _| wrap(inner))
}

fn member(v: Value) -> Value {
    json!({"a": v})
}

fn element(v: Value) -> Value {
    json!([v])
}

fn same(v: Value) -> Value {
    v
}

/// Nestings written inline (their depth counts against `max_depth`).
const INLINE: &[Nesting] = &[
    Nesting { schema: |v| json!({"type": "object", "properties": {"a": v}, "required": ["a"]}), answer: member },
    Nesting { schema: |v| json!({"type": "object", "properties": {"a": v}}), answer: member },
    Nesting { schema: |v| json!({"type": "array", "items": v}), answer: element },
    Nesting { schema: |v| json!({"anyOf": [v, {"type": "integer"}]}), answer: same },
    Nesting {
        schema: |v| json!({"anyOf": [{"type": "object", "properties": {"a": v}}, {"type": "null"}]}),
        answer: member,
    },
    Nesting { schema: |v| json!({"oneOf": [v, {"type": "null"}]}), answer: same },
    Nesting { schema: |v| json!({"allOf": [v, {"minLength": 1}]}), answer: same },
    Nesting { schema: |v| json!({"not": v}), answer: same },
    Nesting { schema: |v| json!({"if": v, "then": {"type": "string"}}), answer: same },
    Nesting { schema: |v| json!({"type": "object", "additionalProperties": v}), answer: |v| json!({"k": v}) },
    Nesting { schema: |v| json!({"type": "array", "prefixItems": [v], "maxItems": 1}), answer: element },
];

/// Nestings through `$defs` (no input depth limit: the lowering's own
/// nesting limit stops them once references are inlined). A union of two
/// references doubles once inlined: the node limit stops that
/// (`lower::tests::err_deep_inlining_is_bounded`), long before the stack matters.
const CHAINED: &[Nesting] = &[
    Nesting { schema: |v| json!({"type": "object", "properties": {"a": v}, "required": ["a"]}), answer: member },
    Nesting { schema: |v| json!({"type": "object", "properties": {"a": v}}), answer: member },
    Nesting {
        schema: |v| json!({"anyOf": [{"type": "object", "properties": {"a": v}, "required": ["a"]}, {"type": "null"}]}),
        answer: member,
    },
    Nesting { schema: |v| json!({"type": "array", "items": v}), answer: element },
];

/// `levels` definitions, each referring to the next.
fn chain(levels: usize, wrap: Wrap) -> Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next =
            if i + 1 == levels { json!({"type": "string"}) } else { json!({"$ref": format!("#/$defs/d{}", i + 1)}) };
        defs.insert(format!("d{i}"), wrap(next));
    }
    json!({"$defs": defs, "$ref": "#/$defs/d0"})
}

/// Compiles for every provider, with and without reshape, and decodes the
/// answer; returns how many compiled.
fn run_all(schema: &Value, answer: &Value, max_depth: usize) -> usize {
    let mut compiled = 0;
    for p in Provider::ALL {
        for reshape in [false, true] {
            let options = Options::new(*p).with_max_depth(max_depth).with_reshape(reshape);
            if let Ok(em) = options.compile(schema) {
                compiled += 1;
                // Valid or not, the answer is judged, not a crash.
                let _ = em.decode(&em.response_for(answer));
            }
        }
    }
    compiled
}

#[test]
fn the_deepest_schemas_fit_a_two_mib_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut compiled = 0;
            let depth = crate::vocab::MAX_DEPTH_CEILING;
            // Each inline level is two to five JSON levels deep: the deepest that
            // passes preflight for the shallowest nestings, and one beyond.
            for levels in [depth / 2, depth / 2 + 1] {
                for n in INLINE {
                    let (schema, answer) =
                        (nest(levels, json!({"type": "string"}), n.schema), nest(levels, json!("x"), n.answer));
                    compiled += run_all(&schema, &answer, depth);
                }
            }
            // Both sides of the lowering's nesting limit (96 locations).
            for levels in [95, 97] {
                for n in CHAINED {
                    compiled += run_all(&chain(levels, n.schema), &nest(levels, json!("x"), n.answer), 64);
                }
            }
            compiled
        })
        .expect("a thread");
    // The thread ending at all is the point; most of these compile somewhere.
    assert!(handle.join().expect("no panic") > 100);
}
