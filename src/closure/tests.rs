//! The projection: closing, closing by branch, default filling, and the
//! contexts that forbid each.

use super::*;
use crate::types::TypeSet;
use serde_json::{Value, json};

fn project(schema: &Value, value: &Value) -> Value {
    project_with(schema, value, Readings::ALL)
}

/// π with branch acceptance decided by a validator of the branch, in context.
fn project_with(schema: &Value, value: &Value, readings: Readings) -> Value {
    let map = jsonschema::options().offline().build_map(schema).expect("builds");
    let accepts = |at: &str, v: &Value| map.get(&format!("#{at}")).is_some_and(|val| val.is_valid(v));
    project_value(&Doc { root: schema }, value, readings, &accepts)
}

#[test]
fn ok_drops_undeclared_keys_of_closable_objects() {
    let s = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}}}});
    assert_eq!(project(&s, &json!({"a": {"b": 1, "c": 2}, "z": 3})), json!({"a": {"b": 1}}));
}

#[test]
fn ok_branches_and_refs_count_as_declared() {
    let s = json!({"properties": {"a": {}}, "anyOf": [{"properties": {"b": {}}}], "allOf": [{"$ref": "#/$defs/C"}],
                   "$defs": {"C": {"properties": {"c": {}}}}});
    assert_eq!(project(&s, &json!({"a": 1, "b": 2, "c": 3, "d": 4})), json!({"a": 1, "b": 2, "c": 3}));
}

#[test]
fn ok_arrays_project_their_elements() {
    let s = json!({"type": "array", "items": {"properties": {"a": {}}}});
    assert_eq!(project(&s, &json!([{"a": 1, "b": 2}, 3])), json!([{"a": 1}, 3]));
}

#[test]
fn ok_unions_close_by_branch() {
    let s = json!({"anyOf": [
        {"type": "object", "properties": {"kind": {"const": "cat"}, "meows": {"type": "boolean"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "dog"}, "barks": {"type": "boolean"}}, "required": ["kind"]}]});
    let cat = json!({"kind": "cat", "meows": true, "barks": false, "x": 1});
    assert_eq!(project(&s, &cat), json!({"kind": "cat", "meows": true}));
    let dog = json!({"kind": "dog", "meows": true, "barks": false});
    assert_eq!(project(&s, &dog), json!({"kind": "dog", "barks": false}));
    let wide = Readings { by_branch: false, ..Readings::ALL };
    assert_eq!(project_with(&s, &cat, wide), json!({"kind": "cat", "meows": true, "barks": false}));
}

/// Whether the branches of `s`'s `oneOf` are disjoint for `purpose` at a
/// location whose values have a type in `within` (and the keys `s` requires
/// beside the `oneOf`).
fn one_of_disjoint(s: &Value, within: TypeSet, purpose: Purpose) -> bool {
    let doc = Doc { root: s };
    let n = s["oneOf"].as_array().map_or(0, Vec::len);
    let branches: Vec<_> = (0..n).map(|i| (&s["oneOf"][i], format!("/oneOf/{i}"))).collect();
    let beside = disjoint::required_of(&doc, &[(s, String::new())]);
    disjoint(&doc, &branches, within, &beside, purpose)
}

fn exact(s: &Value) -> bool {
    one_of_disjoint(s, TypeSet::ALL, Purpose::Exact)
}

#[test]
fn ok_disjoint_one_of_reads_as_any_of() {
    let s = json!({"type": "object", "oneOf": [
        {"properties": {"t": {"const": "a"}, "x": {}}, "required": ["t"]},
        {"properties": {"t": {"enum": ["b", "c"]}, "y": {}}, "required": ["t"]}]});
    assert!(one_of_disjoint(&s, TypeSet::object_only(), Purpose::Exact));
    assert_eq!(project(&s, &json!({"t": "b", "x": 1, "y": 2})), json!({"t": "b", "y": 2}));
    let overlapping = json!({"oneOf": [{"type": "object", "properties": {"t": {"enum": ["a", 1]}}, "required": ["t"]},
                                      {"type": "object", "properties": {"t": {"enum": [1.0]}}, "required": ["t"]}]});
    assert!(!exact(&overlapping), "1 and 1.0 are one value");
    assert!(exact(&json!({"oneOf": [{"type": "string"}, {"type": "object"}]})));
}

/// A tag required beside the `oneOf` (draft-04 configuration schemas put
/// `required` on the parent, the literals in each branch) separates branches
/// that pin it, as if each branch required it; without it, they overlap.
#[test]
fn ok_a_tag_required_beside_the_union_separates_its_branches() {
    let s = json!({"type": "object", "required": ["type"], "oneOf": [
        {"properties": {"type": {"enum": ["NFC", "NFD"]}}},
        {"properties": {"type": {"enum": ["Strip"]}, "left": {"type": "boolean"}}, "required": ["left"]}]});
    let objects = |s: &Value| one_of_disjoint(s, TypeSet::object_only(), Purpose::Exact);
    assert!(objects(&s));
    let mut untagged = s.clone();
    untagged["required"] = json!([]);
    assert!(!objects(&untagged), "{{\"left\": true}} satisfies both");
    let mut shared = s.clone();
    shared["oneOf"][1]["properties"]["type"] = json!({"enum": ["Strip", "NFC"]});
    assert!(!objects(&shared), "{{\"type\": \"NFC\", \"left\": true}} satisfies both");
}

#[test]
fn err_a_key_does_not_separate_branches_that_admit_other_types() {
    // "x" satisfies both branches: `required` says nothing about a string.
    let untyped = json!({"oneOf": [
        {"properties": {"t": {"const": "a"}}, "required": ["t"]},
        {"properties": {"t": {"const": "b"}}, "required": ["t"]}]});
    assert!(!exact(&untyped));
    assert!(one_of_disjoint(&untyped, TypeSet::object_only(), Purpose::Exact), "the location's own type decides");
    // The projection never changes a scalar, but it does change arrays.
    let scalars = TypeSet { array: false, ..TypeSet::ALL };
    assert!(one_of_disjoint(&untyped, scalars, Purpose::Projection));
    assert!(!one_of_disjoint(&untyped, TypeSet::ALL, Purpose::Projection));
}

#[test]
fn ok_a_key_one_branch_requires_and_another_forbids_separates_them() {
    // serde's externally tagged enum, as schemars writes it.
    let tagged = json!({"oneOf": [
        {"type": "string", "enum": ["Point"]},
        {"type": "object", "properties": {"Circle": {"type": "object"}}, "required": ["Circle"], "additionalProperties": false},
        {"type": "object", "properties": {"Label": {"type": "string"}}, "required": ["Label"], "additionalProperties": false}]});
    assert!(exact(&tagged));
    // Forbidding through a `$ref`'d closed object, or by a `false` property.
    let s = json!({"oneOf": [{"$ref": "#/$defs/A"}, {"type": "object", "properties": {"a": false, "b": {}}, "required": ["b"]}],
        "$defs": {"A": {"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": false}}});
    assert!(exact(&s));
    // One closed branch is enough: it forbids the key the other requires.
    let one_closed = json!({"oneOf": [
        {"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": false},
        {"type": "object", "properties": {"b": {}}, "required": ["b"]}]});
    assert!(exact(&one_closed));
    // Not forbidden: both are open, or a pattern may admit the key.
    let open = json!({"oneOf": [
        {"type": "object", "properties": {"a": {}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {}}, "required": ["b"]}]});
    assert!(!exact(&open), "{{\"a\":1,\"b\":1}} satisfies both");
    let patterned = json!({"oneOf": [
        {"type": "object", "properties": {"a": {}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {}}, "required": ["b"], "patternProperties": {"^a": {}}, "additionalProperties": false}]});
    assert!(!exact(&patterned), "{{\"a\":1,\"b\":1}} satisfies both");
    // Pairwise: every pair needs its own reason, and one pair without one fails the whole.
    let three = json!({"oneOf": [
        {"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": false},
        {"type": "object", "properties": {"b": {}}, "required": ["b"], "additionalProperties": false},
        {"type": "object", "properties": {"a": {}, "b": {}}, "additionalProperties": false}]});
    assert!(!exact(&three), "{{\"a\":1}} satisfies the first and the third");
}

#[test]
fn ok_a_nested_union_is_apart_when_each_of_its_branches_is() {
    // Pydantic's nested discriminated union: cats split by `color` inside a
    // union split by `pet_type`.
    let cat = |color: &str| {
        json!({"type": "object", "properties": {"pet_type": {"const": "cat"}, "color": {"const": color}},
            "required": ["pet_type", "color"]})
    };
    let s = json!({"oneOf": [
        {"oneOf": [cat("black"), cat("white")]},
        {"type": "object", "properties": {"pet_type": {"const": "dog"}}, "required": ["pet_type"]},
        {"type": "object", "properties": {"pet_type": {"enum": ["lizard", "reptile"]}}, "required": ["pet_type"]}]});
    assert!(one_of_disjoint(&s, TypeSet::object_only(), Purpose::Exact));
    assert!(one_of_disjoint(&s, TypeSet::object_only(), Purpose::Projection));
    let x = json!({"pet_type": "cat", "color": "white", "whiskers": 12});
    assert_eq!(project(&s, &x), json!({"pet_type": "cat", "color": "white"}));
    // One branch of the nested union that meets the dog is enough to refuse.
    let s = json!({"oneOf": [
        {"anyOf": [cat("black"), {"type": "object", "properties": {"name": {}}, "required": ["name"]}]},
        {"type": "object", "properties": {"pet_type": {"const": "dog"}}, "required": ["pet_type"]}]});
    assert!(!one_of_disjoint(&s, TypeSet::object_only(), Purpose::Exact), "{{\"name\":1,\"pet_type\":\"dog\"}}");
}

#[test]
fn ok_a_required_key_of_distinct_types_tells_open_branches_apart() {
    let with = |t: Value| json!({"type": "object", "properties": {"k": {"type": t}}, "required": ["k"]});
    assert!(exact(&json!({"oneOf": [with(json!("integer")), with(json!("string"))]})));
    assert!(!exact(&json!({"oneOf": [with(json!("integer")), with(json!("number"))]})), "1 is both");
    assert!(!exact(&json!({"oneOf": [with(json!("integer")), with(json!(["string", "integer"]))]})));
    // The other branch must declare the key: an open object holds any value there.
    let open = json!({"type": "object", "properties": {"j": {}}, "required": ["j"]});
    assert!(!exact(&json!({"oneOf": [with(json!("integer")), open]})), "{{\"k\":1,\"j\":0}} is both");
    // Declared without being required is enough: absent or a string, never an integer.
    let optional = json!({"type": "object", "properties": {"k": {"type": "string"}}});
    assert!(exact(&json!({"oneOf": [with(json!("integer")), optional]})));
}

#[test]
fn ok_a_branch_whose_literals_have_no_type_left_is_apart_from_all() {
    let s = json!({"oneOf": [{"type": "integer"}, {"type": "integer", "enum": ["x", null]}]});
    assert!(exact(&s), "the second branch accepts nothing");
    let s = json!({"oneOf": [{"type": "integer"}, {"enum": [1, "x"]}]});
    assert!(!exact(&s), "1 satisfies both");
    let s = json!({"oneOf": [{"type": "string"}, {"const": 2.5}]});
    assert!(exact(&s));
}

#[test]
fn ok_nested_unions_join_their_branches_when_proving_disjointness() {
    // An array matches both branches: the nested union admits arrays too.
    let s = json!({"oneOf": [{"type": "array"},
        {"anyOf": [{"type": ["array", "string"]}, {"type": "string", "maxLength": 1}]}]});
    assert!(!exact(&s));
    // A key that only one branch of a nested union requires is no discriminator.
    let s = json!({"oneOf": [
        {"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]},
        {"anyOf": [{"properties": {"t": {"const": "b"}}, "required": ["t"]}, {"type": "object"}]}]});
    assert!(!exact(&s));
    // A literal under a pattern that may not apply does not pin the key.
    let s = json!({"oneOf": [
        {"type": "object", "properties": {"t": {"enum": [1, 2]}}, "patternProperties": {"^z": {"const": 1}}, "required": ["t"]},
        {"type": "object", "properties": {"t": {"const": 2}}, "required": ["t"]}]});
    assert!(!exact(&s));
    // Through allOf and $ref the facts must hold, and still prove it.
    let s = json!({"oneOf": [{"allOf": [{"$ref": "#/$defs/S"}]}, {"anyOf": [{"type": "integer"}, {"type": "null"}]}],
        "$defs": {"S": {"type": "string"}}});
    assert!(exact(&s));
}

#[test]
fn ok_defaults_fill_in() {
    let s = json!({"type": "object", "properties": {
        "x": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null},
        "tags": {"type": "array", "items": {"type": "string"}, "default": []},
        "mode": {"enum": ["a", "b"], "default": "a"},
        "p": {"$ref": "#/$defs/P", "default": "low"},
        "pat": {"type": "string", "pattern": "^z", "default": "zz"},
        "bad": {"type": "string", "pattern": "^z", "default": "a"}},
        "$defs": {"P": {"enum": ["low", "high"]}}});
    let got = project(&s, &json!({"mode": "b"}));
    assert_eq!(
        got,
        json!({"mode": "b", "x": null, "tags": [], "p": "low", "pat": "zz"}),
        "a default its pattern accepts fills in; one it refuses does not"
    );
    let closed = json!({"type": "object", "properties": {"d": {"type": "boolean", "default": false}}, "additionalProperties": false});
    assert_eq!(project(&closed, &json!({})), json!({"d": false}), "a closed object still fills its declared keys");
    let off = Readings { fill: false, ..Readings::ALL };
    assert_eq!(project_with(&s, &json!({"mode": "b"}), off), json!({"mode": "b"}));
}

#[test]
fn err_defaults_not_filled_where_they_could_break_the_value() {
    for s in [
        json!({"properties": {"a": {"default": 1}}, "maxProperties": 0}),
        json!({"properties": {"a": {"type": "string", "default": 1}}}),
        json!({"properties": {"a": {"default": 1}}, "dependentRequired": {"a": ["b"]}}),
        json!({"allOf": [{"properties": {"a": {"default": 1}}}, {"additionalProperties": false}]}),
        json!({"properties": {"a": {"default": 1}}, "not": {"required": ["a"]}}),
        json!({"properties": {"a": {"default": 1}, "b": {"properties": {"a": {"default": 2}}}}, "enum": [{}]}),
        json!({"properties": {"a": {"allOf": [{"default": 1}, {"default": 2}]}}}),
        json!({"properties": {"a": {"default": 1}}, "allOf": [{"properties": {"a": {"type": "string"}}}]}),
    ] {
        let v = json!({});
        assert_eq!(project(&s, &v), v, "{s}");
    }
    let endless =
        json!({"type": "object", "properties": {"items": {"$ref": "#", "default": {}}, "n": {"type": "integer"}}});
    assert_eq!(
        project(&endless, &json!({"n": 1})),
        json!({"n": 1}),
        "a default that would need filling again is not filled"
    );
    let nested = json!({"type": "object", "properties": {"sub": {"type": "object",
        "properties": {"a": {"type": "integer", "default": 1}}, "default": {"a": 1}}}});
    assert_eq!(project(&nested, &json!({})), json!({"sub": {"a": 1}}), "a complete default is filled");
    let unique = json!({"type": "array", "uniqueItems": true, "items": {"properties": {"a": {"default": 1}}}});
    assert_eq!(project(&unique, &json!([{}, {"a": 1}])), json!([{}, {"a": 1}]), "filling would make two items equal");
}

#[test]
fn err_literals_and_unique_items_above_freeze_the_value() {
    let s = json!({"type": "object", "properties": {"l": {"type": "array",
        "items": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"]},
        "const": [{"k": "a", "v": 1}]}}, "required": ["l"], "additionalProperties": false});
    let v = json!({"l": [{"k": "a", "v": 1}]});
    assert_eq!(project(&s, &v), v);
    let u = json!({"type": "array", "uniqueItems": true, "items": {"type": "object", "properties": {"id": {}}}});
    let v = json!([{"id": 1, "n": "a"}, {"id": 1, "n": "b"}]);
    assert_eq!(project(&u, &v), v);
}

#[test]
fn err_not_closable_keeps_everything() {
    let keep = json!({"a": 1, "x": 2});
    for s in [
        json!({"type": "object"}),
        json!({"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
        json!({"properties": {"a": {}}, "required": ["ghost"]}),
        json!({"properties": {"a": {}}, "patternProperties": {"^x": {}}}),
        json!({"properties": {"a": {}}, "minProperties": 2}),
        json!({"properties": {"a": {}}, "anyOf": [{"additionalProperties": false}]}),
        json!({"anyOf": [{"not": {"enum": [{}]}}, {"properties": {"a": {}}}]}),
        json!({"oneOf": [{"properties": {"a": {}}}, {"maxProperties": 0}]}),
        json!({"properties": {"a": {}}, "enum": [{"a": 1, "x": 2}]}),
        json!({"not": {"properties": {"p": {"properties": {"q": {}}}}}, "properties": {"p": {}}}),
    ] {
        assert_eq!(project(&s, &keep), keep, "{s}");
    }
}

#[test]
fn ok_a_one_of_of_open_models_closes_by_branch_when_required_fields_tell_them_apart() {
    // Pydantic's `Union[Cat, Dog]` with a callable discriminator: open models,
    // no literal tag, each with a required field the other does not declare.
    let model = |own: &str| {
        json!({"type": "object", "properties": {own: {"type": "integer"}, "name": {"type": "string"}},
            "required": [own, "name"]})
    };
    let s = json!({"type": "object", "properties": {"pet": {"oneOf": [model("meows"), model("barks")]}}});
    let cat = json!({"pet": {"meows": 1, "name": "a", "barks": "loud", "x": 1}});
    assert_eq!(project(&s, &cat), json!({"pet": {"meows": 1, "name": "a"}}));
    let dog = json!({"pet": {"barks": 1, "name": "a", "meows": "never"}});
    assert_eq!(project(&s, &dog), json!({"pet": {"barks": 1, "name": "a"}}));
    // Location-wide, every branch's keys stay.
    let wide = Readings { by_branch: false, ..Readings::ALL };
    assert_eq!(project_with(&s, &cat, wide), json!({"pet": {"meows": 1, "name": "a", "barks": "loud"}}));
    // A branch that requires only shared keys is not told apart: the oneOf
    // stays exclusive and nothing closes.
    let both = json!({"type": "object", "properties": {"pet": {"oneOf": [model("meows"),
        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}]}}});
    let x = json!({"pet": {"meows": 1, "name": "a", "x": 1}});
    assert_eq!(project(&both, &x), x, "{{\"name\":\"a\"}} would satisfy both");
    // A branch that says more about undeclared keys is not closable: no proof
    // rests on what it would drop.
    // Exact: the closed branches exclude each other, but only when the
    // branches meet in objects alone (a string satisfies both here).
    let closed_apart = |s: &Value, purpose: Purpose| {
        let doc = Doc { root: s };
        let at = "/properties/pet";
        let pet = &s["properties"]["pet"];
        let branches: Vec<Src<'_>> = (0..2).map(|i| (&pet["oneOf"][i], format!("{at}/oneOf/{i}"))).collect();
        let within = disjoint::type_bound(&doc, &[(pet, at.to_owned())], 0);
        let base = format!("{at}/oneOf");
        apart_once_closed(&doc, &[(pet, at.to_owned())], &[], (&base, &branches), (within, &[]), purpose)
    };
    assert!(closed_apart(&s, Purpose::Exact) && closed_apart(&s, Purpose::Projection));
    let mut loose = s.clone();
    for i in 0..2 {
        loose["properties"]["pet"]["oneOf"][i]["type"] = json!(["object", "string"]);
    }
    assert!(!closed_apart(&loose, Purpose::Exact), "\"x\" satisfies both");
    assert!(closed_apart(&loose, Purpose::Projection), "the projection never changes a string");
    let mut open = model("barks");
    open["minProperties"] = json!(2);
    let s = json!({"type": "object", "properties": {"pet": {"oneOf": [model("meows"), open]}}});
    assert_eq!(project(&s, &cat), cat);
}

#[test]
fn ok_additional_properties_never_applies_to_a_key_its_node_declares() {
    let schema = json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false,
        "allOf": [{"additionalProperties": {"type": "string"}}]});
    let doc = Doc { root: &schema };
    let g = gather(&doc, &[(&schema, String::new())]);
    let at: Vec<String> = g.for_key("a").into_iter().map(|s| s.1).collect();
    // The root's own `false` does not apply to `a`; the `allOf` part, which
    // declares nothing, does.
    assert_eq!(at, ["/properties/a", "/allOf/0/additionalProperties"]);
    let at: Vec<String> = g.for_key("b").into_iter().map(|s| s.1).collect();
    assert_eq!(at, ["/additionalProperties", "/allOf/0/additionalProperties"]);
}

#[test]
fn ok_an_if_reading_declared_scalars_lets_the_object_close() {
    // jupyter_server's event schemas: `if` tests a declared member's literal.
    let s = json!({"type": "object", "properties": {"kind": {"enum": ["file", "url"]}, "path": {"type": "string"},
        "url": {"type": "string"}, "opts": {"type": "object", "properties": {"deep": {}}}},
        "required": ["kind"],
        "if": {"properties": {"kind": {"const": "file"}, "opts": {"type": "object"}}, "required": ["kind"]},
        "then": {"required": ["path"]}, "else": {"required": ["url"]}});
    let v = json!({"kind": "file", "path": "a", "x": 1, "opts": {"deep": 1, "y": 2}});
    assert_eq!(project(&s, &v), json!({"kind": "file", "path": "a", "opts": {"deep": 1}}));
    // Its verdict is the same after the projection, under `then` and `else`.
    let valid = jsonschema::options().offline().build(&s).expect("builds");
    for v in [v, json!({"kind": "url", "url": "u", "z": [1]})] {
        assert!(valid.is_valid(&v) && valid.is_valid(&project(&s, &v)), "{v}");
    }
    // A key only the `if` names is declared by it, so kept: dropping it would
    // change the `if`'s verdict (true here, false without it).
    let own = json!({"type": "object", "properties": {"n": {"type": "integer"}},
        "if": {"properties": {"legacy": {"const": true}}, "required": ["legacy"]},
        "then": {"properties": {"n": {"maximum": 5}}}});
    assert_eq!(project(&own, &json!({"n": 3, "legacy": true, "x": 1})), json!({"n": 3, "legacy": true}));
    // No default is filled where an `if` applies: filling could flip it.
    let d = json!({"properties": {"a": {"default": 1}}, "if": {"properties": {"a": {"const": 1}}}, "then": false});
    assert_eq!(project(&d, &json!({})), json!({}));
}

#[test]
fn err_an_if_reading_more_than_declared_scalars_keeps_everything() {
    let keep = json!({"a": {"b": 1, "c": 2}, "x": 2});
    for cond in [
        json!({"properties": {"a": {"properties": {"b": {"const": 1}}}}}),
        json!({"properties": {"a": {"const": {"b": 1}}}}),
        json!({"maxProperties": 1}),
        json!({"additionalProperties": false}),
        json!({"not": {"required": ["a"]}}),
        json!({"$ref": "#/$defs/D"}),
        json!({"allOf": [{"properties": {"a": {"type": "object"}}}]}),
    ] {
        let s = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}}},
            "if": cond, "then": true, "$defs": {"D": {"maxProperties": 1}}});
        assert_eq!(project(&s, &keep), keep, "{s}");
    }
    // An `if` requiring an undeclared key keeps the object open (that key
    // stays); below it, what the `if` does not read may still close.
    let s = json!({"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {}}}},
        "if": {"required": ["x"]}, "then": true});
    assert_eq!(project(&s, &keep), json!({"a": {"b": 1}, "x": 2}));
}

#[test]
fn ok_dependencies_over_declared_members_let_the_object_close() {
    // A checkout form: a card needs a billing address, delivery needs an address.
    let s = json!({"type": "object", "properties": {"card": {"type": "string"}, "billing": {"type": "string"},
        "delivery": {"enum": ["post"]}, "address": {"type": "string"}},
        "dependentRequired": {"card": ["billing"]},
        "dependentSchemas": {"delivery": {"properties": {"address": {"minLength": 5}}, "required": ["address"]}}});
    let valid = jsonschema::options().offline().build(&s).expect("builds");
    for (v, projected) in [
        (json!({"card": "1", "billing": "b", "utm": 1}), json!({"card": "1", "billing": "b"})),
        (json!({"delivery": "post", "address": "1 Road", "x": {}}), json!({"delivery": "post", "address": "1 Road"})),
        (json!({"billing": "b", "x-1": null}), json!({"billing": "b"})),
    ] {
        assert!(valid.is_valid(&v), "{v}");
        assert_eq!(project(&s, &v), projected, "{v}");
        assert!(valid.is_valid(&projected), "the projection keeps the dependencies' verdict: {projected}");
    }
    // An undeclared trigger goes with the other undeclared keys, and its
    // dependency with it, whatever it requires.
    for s in [
        json!({"properties": {"a": {"type": "integer"}}, "dependentRequired": {"country": ["a"]}}),
        json!({"properties": {"a": {"type": "integer"}}, "dependentRequired": {"country": ["zip"]}}),
    ] {
        let valid = jsonschema::options().offline().build(&s).expect("builds");
        let v = json!({"country": "GB", "zip": "N1", "a": 1});
        assert!(valid.is_valid(&v), "{v}");
        assert_eq!(project(&s, &v), json!({"a": 1}), "{s}");
    }
    // A key only a dependent schema declares is declared there: it is kept.
    let own = json!({"type": "object", "properties": {"gift": {"type": "boolean"}},
        "dependentSchemas": {"gift": {"properties": {"note": {"type": "string"}}}}});
    assert_eq!(project(&own, &json!({"gift": true, "note": "hi", "x": 1})), json!({"gift": true, "note": "hi"}));
    assert_eq!(project(&own, &json!({"note": 7, "x": 1})), json!({"note": 7}), "no trigger: any `note` is kept");
}

#[test]
fn err_dependencies_reading_undeclared_keys_keep_everything() {
    for s in [
        // A declared trigger requires a key nobody declares: dropping it breaks the dependency.
        json!({"properties": {"phone": {}}, "dependentRequired": {"phone": ["country"]}}),
        // A dependent schema that speaks of undeclared keys, or requires one.
        json!({"properties": {"a": {}}, "dependentSchemas": {"a": {"minProperties": 3}}}),
        json!({"properties": {"a": {}}, "dependentSchemas": {"a": {"required": ["country"]}}}),
        json!({"properties": {"a": {}}, "dependentSchemas": {"a": {"not": {"required": ["a"]}}}}),
    ] {
        let v = json!({"phone": "1", "country": "GB", "a": 1});
        assert_eq!(project(&s, &v), v, "{s}");
    }
}
