//! What the notes of a fallback say: only what stops the native schema, and
//! the `--reshape` hint exactly when reshaping would send one.

use super::golden::{targets, with_documents};
use crate::{Emission, Enforcement, Provider};
use serde_json::{Value, json};

const HINT: &str = "with `--reshape`";

fn native(em: &Emission) -> bool {
    matches!(em.enforcement(), Enforcement::Exact | Enforcement::Widened)
}

fn hinted(em: &Emission) -> bool {
    em.notes().iter().any(|n| n.reason.starts_with(HINT))
}

/// Over every fixture and every target without reshape: the hint is there
/// only when the same options with reshape send a native schema and these do
/// not (it never promises what reshape does not do), and whenever that is so,
/// a note names `--reshape` (the hint, or for a root that is not an object,
/// the note saying that reshape wraps it).
#[test]
fn reshape_hint_is_said_exactly_when_reshape_sends_natively() {
    let mut wrong = Vec::new();
    let mut hints = 0;
    for (group, case, path) in super::fixtures() {
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        for (target, options) in targets().into_iter().filter(|(_, o)| !o.reshape) {
            let options = with_documents(&group, options);
            let (Ok(plain), Ok(reshaped)) =
                (options.compile(&schema), options.clone().with_reshape(true).compile(&schema))
            else {
                continue;
            };
            let helps = !native(&plain) && native(&reshaped);
            let named = plain.notes().iter().any(|n| n.reason.contains("`--reshape`"));
            hints += usize::from(hinted(&plain));
            if (hinted(&plain) && !helps) || (helps && !named) {
                wrong.push(format!("{target}: {group}/{case}: hint {}, reshape helps {helps}", hinted(&plain)));
            }
        }
    }
    assert!(hints > 100, "the hint is exercised ({hints})");
    assert!(wrong.is_empty(), "{} wrong:\n{}", wrong.len(), wrong.join("\n"));
}

/// A Pydantic agent step whose only obstacle is a free-form `arguments: dict`:
/// the notes name it alone (not the defaulted flag, the discriminated union or
/// the open models, which the rewrite handles), on every mechanism that has a
/// schema mode.
#[test]
fn fallback_names_only_the_obstacle() {
    let schema = json!({
        "$defs": {
            "ToolCall": {"type": "object", "properties": {
                "kind": {"const": "tool_call", "type": "string"},
                "arguments": {"type": "object", "additionalProperties": true}},
                "required": ["kind", "arguments"]},
            "Final": {"type": "object", "properties": {
                "kind": {"const": "final", "type": "string"}, "answer": {"type": "string", "minLength": 1}},
                "required": ["kind", "answer"]}},
        "type": "object",
        "properties": {
            "action": {"oneOf": [{"$ref": "#/$defs/ToolCall"}, {"$ref": "#/$defs/Final"}],
                "discriminator": {"propertyName": "kind"}},
            "is_final": {"type": "boolean", "default": false}},
        "required": ["action"]
    });
    for p in [Provider::OpenAi, Provider::Gemini] {
        let em = crate::emit(&schema, p).expect("compiles");
        let degraded: Vec<_> =
            em.notes().iter().filter(|n| n.action == crate::Action::Degraded).map(|n| n.pointer.as_str()).collect();
        assert_eq!(degraded, ["/$defs/ToolCall/properties/arguments", ""], "{p}: {:#?}", em.notes());
        assert!(hinted(&em), "{p}");
    }
}

/// Every location the rewrite cannot express is listed, in document order.
#[test]
fn fallback_lists_every_obstacle() {
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    let schema = json!({"type": "object", "properties": {"a": map, "b": {"type": "string"}, "c": map},
        "required": ["a", "b", "c"], "additionalProperties": false});
    let em = crate::emit(&schema, Provider::OpenAi).expect("compiles");
    let at: Vec<_> =
        em.notes().iter().filter(|n| n.action == crate::Action::Degraded).map(|n| n.pointer.as_str()).collect();
    assert_eq!(
        at,
        ["/properties/a/additionalProperties", "/properties/c/additionalProperties", ""],
        "{:#?}",
        em.notes()
    );
}

/// A keyword a provider's strict subset does not take is dropped by the
/// lowering (widening), never kept for the subset check to refuse the whole
/// schema: over every provider, with and without reshape, a schema that uses
/// every assertion keyword some subset knows never falls back for one of them.
#[test]
fn an_assertion_outside_a_strict_subset_is_dropped_not_a_fallback() {
    let schema = json!({"type": "object", "additionalProperties": false, "required": ["s", "n", "a"],
        "properties": {
            "s": {"type": "string", "pattern": "^a+$", "format": "email", "minLength": 1, "maxLength": 9},
            "n": {"type": "number", "minimum": 0, "maximum": 9, "multipleOf": 0.5, "exclusiveMinimum": -1,
                  "exclusiveMaximum": 10},
            "a": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}}});
    for &p in Provider::ALL {
        for reshape in [false, true] {
            let em = crate::Options::new(p).with_reshape(reshape).compile(&schema).expect("compiles");
            let refused: Vec<String> = em
                .notes()
                .iter()
                .filter(|n| n.reason.contains("not in the documented strict subset"))
                .map(|n| format!("{} {}", n.pointer, n.keyword))
                .collect();
            assert!(refused.is_empty(), "{p} (reshape {reshape}) fell back for {refused:?}");
        }
    }
}

/// A root union that only refines what the root itself declares (bounds or a
/// tag's value per branch, or which of the root's members are required) is
/// dropped where a mechanism takes no union at the root (widening), never a
/// reason to fall back: over every provider, with and without reshape, the
/// schema gets a native schema whenever the same schema without the union does.
#[test]
fn a_root_union_refining_declared_members_never_costs_the_native_schema() {
    let base = json!({"type": "object", "additionalProperties": false, "required": ["kind", "size", "label"],
        "properties": {"kind": {"enum": ["small", "large"]}, "size": {"type": "integer", "minimum": 1},
            "label": {"type": ["string", "null"]}}});
    let unions = [
        json!({"oneOf": [{"properties": {"kind": {"const": "small"}, "size": {"maximum": 10}}},
            {"properties": {"kind": {"const": "large"}, "size": {"minimum": 11}}}]}),
        json!({"anyOf": [{"required": ["kind"]}, {"required": ["label"]}]}),
        json!({"allOf": [{"anyOf": [{"properties": {"size": {"maximum": 3}}}, {"properties": {"label": {"type": "string"}}}]}]}),
    ];
    let mut wrong = Vec::new();
    for union in unions {
        let mut schema = base.clone();
        schema.as_object_mut().expect("object").extend(union.as_object().expect("object").clone());
        for &p in Provider::ALL {
            for reshape in [false, true] {
                let options = crate::Options::new(p).with_reshape(reshape);
                let (Ok(with), Ok(without)) = (options.compile(&schema), options.compile(&base)) else { continue };
                if native(&without) && !native(&with) {
                    wrong.push(format!("{p} (reshape {reshape}): {union}: {:?}", with.enforcement()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} fell back:\n{}", wrong.len(), wrong.join("\n"));
}

/// Definitions that refer to the next one twice are small with references kept,
/// but inlining repeats them at every use. Past the lowering's output budget a
/// mechanism without references falls back with a note naming the size, rather
/// than sending what grammar engines refuse ("schema too large") or take minutes
/// to compile; one that keeps references sends them small.
#[test]
fn inlining_past_the_output_budget_falls_back_with_a_note() {
    let path = super::root().join("fixtures/limits/shared-definitions-inlined-past-the-budget.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("JSON");
    for p in [Provider::Vllm, Provider::LlamaCpp, Provider::Ollama, Provider::Gemini, Provider::Claude] {
        let em = crate::emit(&schema, p).expect("compiles");
        let named =
            em.notes().iter().any(|n| n.reason.starts_with("the schema grows too large once references are inlined"));
        assert!(!native(&em) && named, "{p}: {:?} {:#?}", em.enforcement(), em.notes());
        assert!(em.body().to_string().len() < 4096, "{p}: the fallback is small");
    }
}
