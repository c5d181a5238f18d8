//! JSON Schema vocabularies per draft: which keywords exist and where sub-schemas sit.

use serde_json::{Map, Value};

/// The JSON Schema draft a document is read under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Draft {
    Draft7,
    Draft201909,
    Draft202012,
}

impl Draft {
    /// Detects the draft from `$schema`; `Err` carries the unknown URI.
    pub(crate) fn detect(schema: &Value) -> Result<Draft, String> {
        let Some(uri) = schema.get("$schema").and_then(Value::as_str) else {
            return Ok(Draft::Draft202012);
        };
        let trimmed = uri.trim_end_matches('#');
        let trimmed = trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"));
        match trimmed {
            Some("json-schema.org/draft/2020-12/schema") => Ok(Draft::Draft202012),
            Some("json-schema.org/draft/2019-09/schema") => Ok(Draft::Draft201909),
            Some("json-schema.org/draft-07/schema") => Ok(Draft::Draft7),
            _ => Err(uri.to_owned()),
        }
    }

    pub(crate) fn to_jsonschema(self) -> jsonschema::Draft {
        match self {
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft201909 => jsonschema::Draft::Draft201909,
            Draft::Draft202012 => jsonschema::Draft::Draft202012,
        }
    }
}

/// How a keyword's value holds sub-schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// The value is one schema.
    One,
    /// The value is an object whose values are schemas.
    Map,
    /// The value is an array of schemas.
    List,
    /// `items` before 2020-12: one schema or an array of schemas.
    OneOrList,
    /// draft-07 `dependencies`: values are schemas or arrays of names.
    Dependencies,
    /// No sub-schemas (an assertion or an annotation).
    None,
}

/// The sub-schema slot of `keyword` under `draft`, or `None` when the keyword is
/// unknown to that draft (an annotation by the specification's rules).
pub(crate) fn slot(draft: Draft, keyword: &str) -> Option<Slot> {
    use Slot::{Dependencies, List, Map, None as Leaf, One, OneOrList};
    let common = match keyword {
        "additionalProperties" | "propertyNames" | "contains" | "if" | "then" | "else" | "not" => One,
        "properties" | "patternProperties" => Map,
        "allOf" | "anyOf" | "oneOf" => List,
        // Accepted in every draft as a place to keep definitions (draft-07 style).
        "definitions" => Map,
        "$schema" | "$id" | "$ref" | "$comment" | "type" | "enum" | "const" | "multipleOf" | "maximum"
        | "exclusiveMaximum" | "minimum" | "exclusiveMinimum" | "maxLength" | "minLength" | "pattern" | "maxItems"
        | "minItems" | "uniqueItems" | "maxProperties" | "minProperties" | "required" | "format" | "title"
        | "description" | "default" | "readOnly" | "writeOnly" | "examples" | "contentMediaType"
        | "contentEncoding" => Leaf,
        _ => {
            return match (draft, keyword) {
                (Draft::Draft7, "items") => Some(OneOrList),
                (Draft::Draft7, "additionalItems") => Some(One),
                (Draft::Draft7, "dependencies") => Some(Dependencies),
                (Draft::Draft7, _) => Option::None,
                (_, "$defs" | "dependentSchemas") => Some(Map),
                (_, "unevaluatedItems" | "unevaluatedProperties" | "contentSchema") => Some(One),
                (_, "$anchor" | "$vocabulary" | "maxContains" | "minContains" | "dependentRequired" | "deprecated") => {
                    Some(Leaf)
                }
                (Draft::Draft201909, "items") => Some(OneOrList),
                (Draft::Draft201909, "additionalItems") => Some(One),
                (Draft::Draft201909, "$recursiveRef" | "$recursiveAnchor") => Some(Leaf),
                (Draft::Draft202012, "items") => Some(One),
                (Draft::Draft202012, "prefixItems") => Some(List),
                (Draft::Draft202012, "$dynamicRef" | "$dynamicAnchor") => Some(Leaf),
                _ => Option::None,
            };
        }
    };
    Some(common)
}

/// A sub-schema found in a keyword of a schema object.
pub(crate) struct Child<'a> {
    /// Pointer tokens below the schema object (`["properties", "a"]`).
    pub(crate) tokens: [Token<'a>; 2],
    pub(crate) schema: &'a Value,
}

/// One pointer token, or nothing.
#[derive(Clone, Copy)]
pub(crate) enum Token<'a> {
    Key(&'a str),
    Index(usize),
    Empty,
}

/// A location below the root, kept as a chain of child tokens and written out
/// as a JSON Pointer only when a message needs it.
#[derive(Clone, Copy)]
pub(crate) struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    tokens: [Token<'a>; 2],
}

impl<'a> Loc<'a> {
    /// The root.
    pub(crate) const ROOT: Loc<'static> = Loc { parent: None, tokens: [Token::Empty, Token::Empty] };

    /// The location of `child` below this one.
    pub(crate) fn child(&'a self, child: &Child<'a>) -> Loc<'a> {
        Loc { parent: Some(self), tokens: child.tokens }
    }

    /// The JSON Pointer of this location.
    pub(crate) fn pointer(&self) -> String {
        let base = self.parent.map(Loc::pointer).unwrap_or_default();
        Child { tokens: self.tokens, schema: &Value::Null }.pointer(&base)
    }
}

impl Child<'_> {
    /// The pointer of this child, given the pointer of its parent.
    pub(crate) fn pointer(&self, parent: &str) -> String {
        let mut out = parent.to_owned();
        for t in self.tokens {
            out = match t {
                Token::Key(k) => crate::pointer::push(&out, k),
                Token::Index(i) => crate::pointer::push_index(&out, i),
                Token::Empty => out,
            };
        }
        out
    }
}

/// Calls `f` for every direct sub-schema of `node` under `draft`, in document order.
/// Keywords unknown to `draft` are annotations and are not entered.
pub(crate) fn for_each_child<'a>(draft: Draft, node: &'a Map<String, Value>, mut f: impl FnMut(Child<'a>)) {
    for (keyword, value) in node {
        let Some(slot) = slot(draft, keyword) else { continue };
        let kw = keyword.as_str();
        match (slot, value) {
            (Slot::One, v) | (Slot::OneOrList, v @ (Value::Object(_) | Value::Bool(_))) => {
                f(Child { tokens: [Token::Key(kw), Token::Empty], schema: v });
            }
            (Slot::Map, Value::Object(m)) => {
                for (k, v) in m {
                    f(Child { tokens: [Token::Key(kw), Token::Key(k)], schema: v });
                }
            }
            (Slot::Dependencies, Value::Object(m)) => {
                for (k, v) in m {
                    if v.is_object() || v.is_boolean() {
                        f(Child { tokens: [Token::Key(kw), Token::Key(k)], schema: v });
                    }
                }
            }
            (Slot::List | Slot::OneOrList, Value::Array(items)) => {
                for (i, v) in items.iter().enumerate() {
                    f(Child { tokens: [Token::Key(kw), Token::Index(i)], schema: v });
                }
            }
            _ => {}
        }
    }
}

/// Keywords that carry no constraint on the instance (annotations). Emitters may
/// drop them without changing what is accepted.
pub(crate) fn is_annotation(keyword: &str) -> bool {
    matches!(
        keyword,
        "$schema"
            | "$comment"
            | "title"
            | "description"
            | "default"
            | "examples"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "contentMediaType"
            | "contentEncoding"
            | "contentSchema"
            | "$anchor"
            | "$dynamicAnchor"
            | "$recursiveAnchor"
            | "$vocabulary"
    )
}
