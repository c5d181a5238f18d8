use super::*;
use serde_json::json;

static OPEN: Rules = Rules {
    keywords: &["minLength", "pattern", "minimum", "exclusiveMinimum", "prefixItems"],
    annotations: true,
    formats: &[],
    pattern: PatternRule::RewriteToFullMatch,
    literals: Literals::Scalars,
    any_value: true,
    open_objects: true,
    maps: true,
    empty_objects: true,
    arrays_without_items: true,
    root_unions: true,
    integral_bounds: false,
    refs: false,
    fill_defaults: false,
    prefer_closed: false,
    open_with_properties: true,
    max_optional: usize::MAX,
    reserved_names: &[],
    exact_tuples: false,
    max_count: u64::MAX,
    max_any_of: usize::MAX,
};

#[track_caller]
fn check(schema: Value) -> Result<(Value, bool), String> {
    let doc = Doc { root: &schema };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    lower(&doc, &OPEN, settings)
        .map(|l| (l.schema, l.exact))
        .map_err(|f| f.first().map(ToString::to_string).unwrap_or_default())
}

#[test]
fn ok_allof_and_refs_merge() {
    let s = json!({"$defs": {"N": {"type": "integer", "minimum": 1}},
                   "allOf": [{"$ref": "#/$defs/N"}, {"exclusiveMinimum": 3}]});
    assert_eq!(check(s), Ok((json!({"type": "integer", "exclusiveMinimum": 3}), true)));
}

#[test]
fn ok_union_distributes_over_siblings() {
    let s = json!({"type": "string", "minLength": 2, "anyOf": [{"pattern": "a+"}, {"maxLength": 3}]});
    let (out, exact) = check(s).expect("lowers");
    assert_eq!(out["anyOf"][0], json!({"type": "string", "minLength": 2, "pattern": "^[\\s\\S]*(?:a+)[\\s\\S]*$"}));
    assert_eq!(out["anyOf"][1], json!({"type": "string", "minLength": 2}));
    assert!(!exact, "maxLength is not in the rules: dropped");
}

#[test]
fn ok_recursion_widens_where_it_recurs() {
    let s = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
    let (out, exact) = check(s).expect("lowers");
    assert_eq!(out["properties"]["next"], json!({}));
    assert!(!exact);
}

#[test]
fn ok_a_definition_named_again_beside_its_first_use_is_inlined_again() {
    let s = json!({"definitions": {"s": {"type": "string", "minLength": 1},
            "o": {"type": "object", "properties": {"id": {"type": "string", "minLength": 1}}}},
        "type": "object",
        "properties": {
            // The branch beside the one that named `s` names it again.
            "u": {"oneOf": [{"$ref": "#/definitions/s"},
                {"type": "object", "properties": {"name": {"$ref": "#/definitions/s"}}}]},
            // The property beside the `allOf` part that named `o` names it again.
            "b": {"allOf": [{"$ref": "#/definitions/o"}, {"properties": {"parent": {"$ref": "#/definitions/o"}}}]}},
        "additionalProperties": false});
    let (out, exact) = check(s).expect("lowers");
    assert!(exact, "nothing is cut: {out}");
    let name = &out["properties"]["u"]["anyOf"][1]["properties"]["name"];
    assert_eq!(name, &json!({"type": "string", "minLength": 1}));
    let parent = &out["properties"]["b"]["properties"]["parent"];
    assert_eq!(parent["properties"]["id"], json!({"type": "string", "minLength": 1}));
}

#[test]
fn ok_a_cycle_is_cut_where_it_recurs_whatever_way_it_is_entered() {
    // Mutual recursion entered from a sibling `allOf` part and from a union branch:
    // each reference that closes the cycle lies in what its target reaches.
    let s = json!({"$defs": {
            "A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}},
            "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}},
        "allOf": [{"$ref": "#/$defs/A"}, {"properties": {"c": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}]}}}]});
    let (out, exact) = check(s).expect("lowers");
    assert!(!exact, "a recursion is cut");
    // A → B → (A cut).
    assert_eq!(out["properties"]["b"]["properties"]["a"], json!({}));
    // c: B, entered beside A's own use; its `a` closes the cycle through the A
    // already inlined at the root (A reaches it), so it is cut there.
    let c = &out["properties"]["c"]["anyOf"][0];
    assert_eq!(c["properties"]["a"], json!({}), "{out}");
}

#[test]
fn ok_recursion_through_a_union_of_references_is_kept() {
    static REFS: Rules = Rules { refs: true, ..OPEN };
    let s = json!({"type": "object", "properties": {"e": {"$ref": "#/$defs/E"}}, "required": ["e"],
        "$defs": {"E": {"oneOf": [
            {"$ref": "#/$defs/Num"},
            {"type": "object", "properties": {"k": {"const": "neg"}, "of": {"$ref": "#/$defs/E"}}, "required": ["k", "of"]}]},
            "Num": {"type": "object", "properties": {"k": {"const": "num"}}, "required": ["k"]}}});
    let doc = Doc { root: &s };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let lowered = lower(&doc, &REFS, settings)
        .map_err(|f| f.first().map(ToString::to_string).unwrap_or_default())
        .expect("lowers");
    assert!(lowered.exact, "nothing is cut: {:?}", lowered.notes);
    let e = &lowered.schema["$defs"]["E"]["anyOf"];
    assert_eq!(e[0], json!({"$ref": "#/$defs/Num"}));
    assert_eq!(e[1]["properties"]["of"], json!({"$ref": "#/$defs/E"}));
    // Read by branch only when the union stands alone: a sibling assertion distributes it.
    let s2 = json!({"type": "object", "properties": {"e": {"anyOf": [{"$ref": "#/$defs/N"}], "required": ["k"]}},
        "$defs": {"N": {"type": "object", "properties": {"k": {"type": "string"}}}}});
    let doc = Doc { root: &s2 };
    let lowered = lower(&doc, &REFS, settings)
        .map_err(|f| f.first().map(ToString::to_string).unwrap_or_default())
        .expect("lowers");
    assert_eq!(lowered.schema["properties"]["e"]["required"], json!(["k"]));
}

/// A reference with a title or description beside it, or wrapped in a
/// one-part `allOf` (drafts before 2019-09 ignore `$ref`'s siblings, so
/// generators wrap it), keeps a recursion as a plain reference does; where it
/// does not recur it is inlined with its annotations.
#[test]
fn ok_recursion_through_a_described_or_wrapped_reference_is_kept() {
    static REFS: Rules = Rules { refs: true, ..OPEN };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let holders = [
        json!({"$ref": "#/$defs/N", "description": "the next one"}),
        json!({"$ref": "#/$defs/N", "title": "Next"}),
        json!({"allOf": [{"$ref": "#/$defs/N"}]}),
        json!({"allOf": [{"$ref": "#/$defs/N"}], "description": "the next one"}),
        json!({"allOf": [{"allOf": [{"$ref": "#/$defs/N", "description": "inner"}]}], "title": "Next"}),
    ];
    for holder in holders {
        for place in
            [json!({"anyOf": [holder.clone(), {"type": "null"}]}), json!({"type": "array", "items": holder.clone()})]
        {
            let s = json!({"$defs": {"N": {"type": "object", "properties": {"v": {"type": "integer"}, "next": place},
                    "required": ["v", "next"]}},
                "type": "object", "properties": {"head": {"$ref": "#/$defs/N", "description": "the first one"}},
                "required": ["head"]});
            let doc = Doc { root: &s };
            let lowered = lower(&doc, &REFS, settings)
                .map_err(|f| f.first().map(ToString::to_string).unwrap_or_default())
                .expect("lowers");
            assert!(lowered.exact, "{holder}: nothing is cut: {:?}", lowered.notes);
            let out = lowered.schema.to_string();
            assert!(out.contains(r##"{"$ref":"#/$defs/N"}"##), "{holder}: the recursion is a reference: {out}");
            // Not recursive where it first stands: inlined, its description kept.
            assert_eq!(lowered.schema["properties"]["head"]["description"], json!("the first one"), "{out}");
        }
    }
    // A one-part `allOf` with an assertion beside it (one the rules keep, so
    // nothing else widens) is not a holder: inlined, and cut where it recurs.
    let s = json!({"type": "object", "properties": {"next": {"allOf": [{"$ref": "#"}], "required": ["next"]}}});
    let doc = Doc { root: &s };
    let lowered = lower(&doc, &REFS, settings).map_err(|f| f.first().map(ToString::to_string)).expect("lowers");
    let out = lowered.schema.to_string();
    assert!(!out.contains("$ref"), "inlined, not referenced: {out}");
    assert_eq!(lowered.schema["properties"]["next"]["required"], json!(["next"]), "{out}");
    assert!(lowered.notes.iter().any(|n| n.reason.contains("where it recurs")), "cut: {:?}", lowered.notes);
    assert!(!lowered.exact, "{out}");
}

#[test]
fn ok_literals_filtered_by_type() {
    let s = json!({"type": "string", "enum": ["a", 1, null]});
    assert_eq!(check(s), Ok((json!({"type": "string", "enum": ["a"]}), true)));
}

#[test]
fn err_accepts_nothing() {
    assert!(check(json!({"type": "string", "enum": [1]})).is_err());
    assert!(check(json!({"allOf": [{"type": "string"}, {"type": "integer"}]})).is_err());
    assert!(check(json!(false)).is_err());
}

#[test]
fn ok_generated_definition_names_never_collide() {
    let rules = Rules { refs: true, ..OPEN };
    let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/ref1"}, "b": {"$ref": "#/$defs/x.y"}},
        "$defs": {"ref1": {"type": "string"}, "x.y": {"type": "integer"}}});
    let doc = Doc { root: &s };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let out = lower(&doc, &rules, settings).expect("lowers").schema;
    let (a, b) = (&out["properties"]["a"]["$ref"], &out["properties"]["b"]["$ref"]);
    assert_ne!(a, b, "{out}");
    let target =
        |r: &Value| crate::pointer::resolve_fragment(&out, r.as_str().unwrap_or_default()).map(|t| t.0.clone());
    assert_eq!(target(a), Some(json!({"type": "string"})));
    assert_eq!(target(b), Some(json!({"type": "integer"})));
}

#[test]
fn err_deep_inlining_is_bounded() {
    let mut defs = serde_json::Map::new();
    for i in 0..200 {
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"x": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
        );
    }
    defs.insert("d200".into(), json!({"type": "string"}));
    let s = json!({"$defs": defs, "$ref": "#/$defs/d0"});
    assert!(check(s).unwrap_err().contains("too deeply"));
}

#[test]
fn err_lists_each_inexpressible_location_up_to_the_cap() {
    static NO_MAPS: Rules = Rules { maps: false, ..OPEN };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let with = |n: usize| {
        let props: Map<String, Value> = (0..n)
            .map(|i| (format!("m{i}"), json!({"type": "object", "additionalProperties": {"type": "integer"}})))
            .collect();
        json!({"type": "object", "properties": props})
    };
    let pointers = |schema: &Value| match lower(&Doc { root: schema }, &NO_MAPS, settings) {
        Ok(_) => Vec::new(),
        Err(b) => b.0.into_iter().map(|n| n.pointer).collect::<Vec<_>>(),
    };
    assert_eq!(pointers(&with(2)), ["/properties/m0/additionalProperties", "/properties/m1/additionalProperties"]);
    // Past the cap: the first eight, then a note that more may follow.
    let many = pointers(&with(12));
    assert_eq!(many.len(), MAX_BLOCKERS + 1, "{many:?}");
    assert_eq!(many[7], "/properties/m7/additionalProperties");
    assert_eq!(many[8], "");
    // With encodings, the same schema lowers (each map sent as pairs).
    let enc = Settings { encodings: true, ..settings };
    assert!(lower(&Doc { root: &with(12) }, &NO_MAPS, enc).is_ok());
}

#[test]
fn ok_an_optional_property_that_accepts_nothing_must_be_absent() {
    static CLOSED: Rules = Rules { open_objects: false, ..OPEN };
    let doc =
        json!({"type": "object", "properties": {"a": {"type": "string"}, "x": {"type": "integer", "enum": ["s"]}}});
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let l = lower(&Doc { root: &doc }, &CLOSED, settings).expect("the object still accepts values");
    assert_eq!(l.schema["properties"], json!({"a": {"type": "string"}}), "x is never sent");
    assert!(l.exact);
    // Required, it empties the object: the failure says so.
    let doc = json!({"type": "object", "properties": {"x": {"type": "integer", "enum": ["s"]}}, "required": ["x"]});
    assert!(check(doc).unwrap_err().contains("accepts no value"));
}

#[test]
fn ok_a_union_keeps_what_a_branch_accepts_besides_objects_that_accept_nothing() {
    // The first branch accepts every non-object; its objects accept nothing.
    let s = json!({"anyOf": [{"required": ["a"], "additionalProperties": false}, {"type": "object"}]});
    let (out, exact) = check(s).expect("lowers");
    assert_eq!(out["anyOf"][0]["type"], json!(["string", "number", "boolean", "array", "null"]));
    assert_eq!(out["anyOf"][1]["type"], json!("object"));
    assert!(exact);
    // A branch that accepts nothing at all is left out.
    let s = json!({"anyOf": [{"type": "array", "items": {"enum": [1], "type": "string"}, "minItems": 1}, {"type": "string"}]});
    assert_eq!(check(s), Ok((json!({"type": "string"}), true)));
}

#[test]
fn ok_an_element_position_that_accepts_nothing_ends_the_array() {
    static TUPLES: Rules = Rules { keywords: &["prefixItems", "maxItems"], ..OPEN };
    let doc = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "enum": ["s"]}]});
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let l = lower(&Doc { root: &doc }, &TUPLES, settings).expect("lowers");
    assert_eq!(l.schema, json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false, "maxItems": 1}));
    assert!(l.exact);
}

/// Lowers `schema` under `rules`: the schema sent and whether it is exact.
fn lowered(rules: &Rules, schema: &Value) -> (Value, bool) {
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: false, locate: false };
    let l = lower(&Doc { root: schema }, rules, settings).expect("lowers");
    (l.schema, l.exact)
}

#[test]
fn ok_exact_tuples_only_at_exactly_their_length() {
    // llama.cpp's reading: `prefixItems` alone is exactly its positions.
    static EXACT: Rules =
        Rules { keywords: &["minItems", "maxItems"], exact_tuples: true, arrays_without_items: false, ..OPEN };
    let pair = json!([{"type": "integer"}, {"type": "string"}]);
    for fixed in [
        json!({"type": "array", "prefixItems": pair, "minItems": 2, "maxItems": 2}),
        json!({"type": "array", "prefixItems": pair, "items": false, "minItems": 2}),
    ] {
        assert_eq!(lowered(&EXACT, &fixed), (json!({"type": "array", "prefixItems": pair}), true), "{fixed}");
    }
    // Fewer elements allowed: a union of the element types (widening).
    for shorter in [
        json!({"type": "array", "prefixItems": pair, "items": false, "minItems": 1}),
        json!({"type": "array", "prefixItems": pair, "items": false}),
    ] {
        let (out, exact) = lowered(&EXACT, &shorter);
        assert_eq!(out["items"], json!({"anyOf": pair}), "{shorter}");
        assert!(out.get("prefixItems").is_none() && !exact, "{shorter}: {out}");
    }
    // More allowed (any rest): any element (widening).
    let longer = json!({"type": "array", "prefixItems": pair, "minItems": 2});
    assert_eq!(lowered(&EXACT, &longer), (json!({"type": "array", "items": {}, "minItems": 2}), false));
}

#[test]
fn ok_positions_that_all_say_the_same_are_one_items() {
    static NO_TUPLES: Rules = Rules { keywords: &["minItems", "maxItems"], arrays_without_items: false, ..OPEN };
    let same =
        json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "minItems": 2, "maxItems": 2});
    assert_eq!(
        lowered(&NO_TUPLES, &same),
        (json!({"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}), true)
    );
    // The rest says something else: a union (widening).
    let rest = json!({"type": "array", "prefixItems": [{"type": "number"}], "items": {"type": "string"}});
    let (out, exact) = lowered(&NO_TUPLES, &rest);
    assert_eq!(out["items"], json!({"anyOf": [{"type": "number"}, {"type": "string"}]}));
    assert!(!exact);
}

#[test]
fn ok_count_bounds_above_the_limit_are_dropped() {
    static COUNTS: Rules =
        Rules { keywords: &["minLength", "maxLength", "minItems", "maxItems"], max_count: 1_000, ..OPEN };
    let s = json!({"type": "string", "minLength": 1000, "maxLength": 1001});
    assert_eq!(lowered(&COUNTS, &s), (json!({"type": "string", "minLength": 1000}), false));
    let a = json!({"type": "array", "items": {"type": "integer"}, "minItems": 2000, "maxItems": 1000});
    let (out, exact) = lowered(&COUNTS, &a);
    assert_eq!(out, json!({"type": "array", "items": {"type": "integer"}, "maxItems": 1000}));
    assert!(!exact);
}

#[test]
fn ok_a_map_sent_as_pairs_states_its_key_names_on_the_key() {
    static NO_MAPS: Rules = Rules { maps: false, keywords: &["minLength", "pattern"], ..OPEN };
    let settings =
        Settings { readings: crate::closure::Readings::ALL, assert_formats: true, encodings: true, locate: false };
    let key = |names: Value| {
        let s = json!({"$defs": {"K": {"type": "string", "minLength": 2}, "U": {"anyOf": [{"pattern": "^a"},
            {"pattern": "^b"}]}}, "type": "object", "additionalProperties": {"type": "integer"},
            "propertyNames": names});
        let l = lower(&Doc { root: &s }, &NO_MAPS, settings).expect("lowers as pairs");
        let dropped = l.notes.iter().any(|n| n.keyword == "propertyNames" && n.action == crate::note::Action::Dropped);
        (l.schema["items"]["properties"]["key"].clone(), dropped)
    };
    // Zod's `z.record(z.string().regex(…), V)`, Pydantic's `dict[constr(…), V]`: the
    // pattern travels (untyped, it says nothing of other values: a key is a string).
    assert_eq!(key(json!({"pattern": "^[a-z]+$"})), (json!({"type": "string", "pattern": "^[a-z]+$"}), false));
    assert_eq!(key(json!({"$ref": "#/$defs/K"})), (json!({"type": "string", "minLength": 2}), false));
    // What the key cannot say here (a union) is dropped, as before, and noted.
    assert_eq!(key(json!({"$ref": "#/$defs/U"})), (json!({"type": "string"}), true));
}

#[test]
fn ok_a_split_type_array_keeps_its_definitions_where_references_find_them() {
    // Split into one branch per type, a root keeps `$defs` beside the branches
    // (a reference `#/$defs/N` resolves from the root), and an object's source
    // pointer goes with the object branch.
    let mut v = json!({"type": ["object", "string"], "title": "T", "minLength": 2,
        "properties": {"a": {"$ref": "#/$defs/N"}}, "required": ["a"], "additionalProperties": false,
        "$schemacast:at": "", "$defs": {"N": {"type": "string"}}});
    split_type_arrays(&mut v, false);
    assert_eq!(
        v,
        json!({"title": "T", "$defs": {"N": {"type": "string"}}, "anyOf": [
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/N"}}, "required": ["a"],
             "additionalProperties": false, "$schemacast:at": ""},
            {"type": "string", "minLength": 2}]})
    );
}
