//! JSON Schema vocabularies: which keywords each draft knows and where
//! sub-schemas sit, as the local validator (jsonschema 0.61) reads them.
//!
//! Layer invariant: the per-draft tables are read only by the front end and
//! preflight, which walk the caller's documents. Every later pass reads the
//! working form, whose vocabulary is 2020-12 ([`for_each_child_in`], [`slot`]).

use serde_json::{Map, Value};
use std::fmt;
use std::str::FromStr;

/// The deepest nesting any option may allow; recursive walks stay well inside
/// the stack with this bound.
pub(crate) const MAX_DEPTH_CEILING: usize = 256;

/// A JSON Schema draft: how a document is read.
///
/// Chosen by the document's `$schema`; a document without one is read with
/// the default draft of the options ([`Draft::Draft202012`] unless told otherwise).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Draft {
    /// Draft 4 (`http://json-schema.org/draft-04/schema#`).
    Draft4,
    /// Draft 6 (`http://json-schema.org/draft-06/schema#`).
    Draft6,
    /// Draft 7 (`http://json-schema.org/draft-07/schema#`).
    Draft7,
    /// Draft 2019-09 (`https://json-schema.org/draft/2019-09/schema`).
    Draft201909,
    /// Draft 2020-12 (`https://json-schema.org/draft/2020-12/schema`), the default.
    Draft202012,
}

impl Draft {
    /// Every draft, oldest first.
    pub const ALL: &'static [Draft] =
        &[Draft::Draft4, Draft::Draft6, Draft::Draft7, Draft::Draft201909, Draft::Draft202012];

    /// The CLI name (`4`, `6`, `7`, `2019-09`, `2020-12`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Draft::Draft4 => "4",
            Draft::Draft6 => "6",
            Draft::Draft7 => "7",
            Draft::Draft201909 => "2019-09",
            Draft::Draft202012 => "2020-12",
        }
    }

    /// The draft a `$schema` URI names (`http` or `https`, with or without the
    /// trailing `#`), or `None` for any other URI.
    #[must_use]
    pub fn from_uri(uri: &str) -> Option<Draft> {
        Some(match meta_schema_path(uri)? {
            "json-schema.org/draft/2020-12/schema" => Draft::Draft202012,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft201909,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            _ => return None,
        })
    }

    /// Whether a `$schema` URI is the meta-schema's version-less alias,
    /// `http://json-schema.org/schema#` ("the latest draft"; genson and other
    /// schema generators still write it), which names no draft of its own.
    pub(crate) fn is_latest_alias(uri: &str) -> bool {
        meta_schema_path(uri) == Some("json-schema.org/schema")
    }

    /// The draft of `schema`: its `$schema` if it has one, else `default`
    /// (also for the version-less alias, as validators read it: the draft the
    /// caller chose, 2020-12 unless told otherwise). `Err` carries an unknown
    /// `$schema` URI.
    pub(crate) fn detect(schema: &Value, default: Draft) -> Result<Draft, String> {
        match schema.get("$schema") {
            Some(Value::String(uri)) if Draft::is_latest_alias(uri) => Ok(default),
            Some(Value::String(uri)) => Draft::from_uri(uri).ok_or_else(|| uri.clone()),
            _ => Ok(default),
        }
    }

    pub(crate) fn to_jsonschema(self) -> jsonschema::Draft {
        match self {
            Draft::Draft4 => jsonschema::Draft::Draft4,
            Draft::Draft6 => jsonschema::Draft::Draft6,
            Draft::Draft7 => jsonschema::Draft::Draft7,
            Draft::Draft201909 => jsonschema::Draft::Draft201909,
            Draft::Draft202012 => jsonschema::Draft::Draft202012,
        }
    }

    /// The keyword that gives a schema its URI (`id` in draft 4).
    pub(crate) fn id_keyword(self) -> &'static str {
        if self == Draft::Draft4 { "id" } else { "$id" }
    }
}

/// A meta-schema URI without its scheme (`http` or `https`) and trailing `#`.
fn meta_schema_path(uri: &str) -> Option<&str> {
    let trimmed = uri.trim_end_matches('#');
    trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"))
}

impl fmt::Display for Draft {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Draft {
    type Err = crate::Error;

    /// Parses `4`, `6`, `7`, `2019-09` or `2020-12` (a `draft-` or `draft` prefix is allowed).
    fn from_str(s: &str) -> Result<Self, crate::Error> {
        let bare = s.trim_start_matches("draft").trim_start_matches('-');
        let bare = bare.strip_prefix('0').filter(|b| b.len() == 1).unwrap_or(bare);
        Draft::ALL.iter().copied().find(|d| d.name() == bare).ok_or_else(|| {
            crate::Error::new(
                crate::ErrorKind::InvalidOption,
                "",
                format!("unknown draft `{s}` (known: 4, 6, 7, 2019-09, 2020-12)"),
            )
        })
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
    /// `dependencies`: values are schemas or arrays of names.
    Dependencies,
    /// No sub-schemas (an assertion, an identifier or an annotation).
    None,
}

/// The slot of `keyword` in a document of `draft`, as the local validator
/// reads it, or `None` when the validator does not know the keyword there (an
/// annotation by the specification's rules). `definitions` and `$defs` are
/// containers in every draft: they apply nothing, but references point into them.
pub(crate) fn source_slot(draft: Draft, keyword: &str) -> Option<Slot> {
    use Draft::{Draft4, Draft6, Draft7, Draft201909, Draft202012};
    use Slot::{Dependencies, List, Map, None as Leaf, One, OneOrList};
    let slot = match keyword {
        // Every draft (jsonschema applies `dependencies` and `additionalItems` in all of them).
        "additionalProperties" | "not" | "additionalItems" => One,
        "properties" | "patternProperties" | "definitions" | "$defs" => Map,
        "allOf" | "anyOf" | "oneOf" => List,
        "dependencies" => Dependencies,
        "items" if draft == Draft202012 => One,
        "items" => OneOrList,
        "$schema" | "$ref" | "type" | "enum" | "multipleOf" | "maximum" | "exclusiveMaximum" | "minimum"
        | "exclusiveMinimum" | "maxLength" | "minLength" | "pattern" | "maxItems" | "minItems" | "uniqueItems"
        | "maxProperties" | "minProperties" | "required" | "format" | "title" | "description" | "default" => Leaf,
        "id" if draft == Draft4 => Leaf,
        "$id" | "const" | "examples" if draft >= Draft6 => Leaf,
        "contains" | "propertyNames" if draft >= Draft6 => One,
        "contentMediaType" | "contentEncoding" if draft >= Draft6 => Leaf,
        "if" | "then" | "else" if draft >= Draft7 => One,
        "$comment" | "readOnly" | "writeOnly" if draft >= Draft7 => Leaf,
        "dependentSchemas" if draft >= Draft201909 => Map,
        "unevaluatedItems" | "unevaluatedProperties" | "contentSchema" if draft >= Draft201909 => One,
        "$anchor" | "$vocabulary" | "maxContains" | "minContains" | "dependentRequired" | "deprecated"
            if draft >= Draft201909 =>
        {
            Leaf
        }
        "$recursiveRef" | "$recursiveAnchor" if draft == Draft201909 => Leaf,
        "prefixItems" if draft == Draft202012 => List,
        "$dynamicRef" | "$dynamicAnchor" if draft == Draft202012 => Leaf,
        _ => return Option::None,
    };
    let _ = Draft7;
    Some(slot)
}

/// The slot of `keyword` in the working form (2020-12, plus the containers and
/// the front end's internal markers).
pub(crate) fn slot(keyword: &str) -> Option<Slot> {
    match keyword {
        OPAQUE | ASSERTS => Some(Slot::None),
        k => source_slot(Draft::Draft202012, k),
    }
}

/// Working-form marker: a reference the front end cannot follow statically (a
/// dynamic reference whose target depends on the path taken). Read as "any
/// value", never seen through.
pub(crate) const OPAQUE: &str = "$schemacast:opaque";
/// Working-form marker: assertions the validator makes that the working
/// vocabulary cannot state (draft 6/7 `contentMediaType`), listed by name.
/// Read as constraints that can only be dropped (widening).
pub(crate) const ASSERTS: &str = "$schemacast:asserts";

/// How the local validator reads `format: name` in a draft, against the
/// 2020-12 reading the working form (and every provider) gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FormatReading {
    /// Checked the same way.
    Same,
    /// Not a format of this draft: an annotation the validator does not check.
    Annotation,
    /// Checked by this draft's looser rule (draft-04/06 `hostname`: RFC 1034 alone).
    Looser,
}

/// jsonschema's own table of which formats each draft asserts (checked
/// against the crate by a test, so an upgrade that moves it is caught).
pub(crate) fn format_reading(draft: Draft, name: &str) -> FormatReading {
    use Draft::{Draft6, Draft7, Draft201909};
    match name {
        "duration" | "uuid" if draft < Draft201909 => FormatReading::Annotation,
        "iri" | "iri-reference" | "relative-json-pointer" if draft < Draft7 => FormatReading::Annotation,
        // jsonschema is built without its `idna` feature.
        "idn-hostname" | "idn-email" => FormatReading::Annotation,
        "json-pointer" | "uri-reference" | "uri-template" if draft < Draft6 => FormatReading::Annotation,
        "hostname" if draft <= Draft6 => FormatReading::Looser,
        _ => FormatReading::Same,
    }
}

/// Annotations that schema generators and OpenAPI emit beside the standard
/// ones (Pydantic's `discriminator`, OpenAPI's `example`, `xml`,
/// `externalDocs`): known, so they get no "unknown keyword" note, and never
/// sent natively.
pub(crate) fn is_generator_annotation(keyword: &str) -> bool {
    matches!(
        keyword,
        "discriminator"
            | "example"
            | "examples"
            | "xml"
            | "externalDocs"
            | "propertyOrdering"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "$comment"
            | "contentMediaType"
            | "contentEncoding"
            | "contentSchema"
            | "title"
            | "description"
            | "default"
    )
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

/// Calls `f` for every direct sub-schema of `node` in a document of `draft`,
/// in document order. Keywords unknown to `draft` are annotations and are not entered.
pub(crate) fn for_each_child_in<'a>(draft: Draft, node: &'a Map<String, Value>, f: impl FnMut(Child<'a>)) {
    children(node, |k| source_slot(draft, k), f);
}

fn children<'a>(node: &'a Map<String, Value>, slot_of: impl Fn(&str) -> Option<Slot>, mut f: impl FnMut(Child<'a>)) {
    for (keyword, value) in node {
        let Some(slot) = slot_of(keyword) else { continue };
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
            | "$id"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `format_reading` is jsonschema's table: for every format a provider
    /// may be sent and every draft, a string the 2020-12 reading rejects is
    /// rejected by the draft's validator exactly when the table says `Same`;
    /// and where it says `Looser`, a string only the later reading rejects
    /// passes the draft's validator.
    #[test]
    fn format_reading_is_the_validators_table() {
        let probes: &[(&str, &str)] = &[
            ("date-time", "yesterday"),
            ("date", "2023-02-29"),
            ("time", "25:00:00Z"),
            ("duration", "PT0.5S"),
            ("email", "nobody"),
            ("hostname", "-bad-.example"),
            ("uri", "no scheme"),
            ("uri-reference", "\\\\x"),
            ("iri", "no scheme"),
            ("iri-reference", "\\\\x"),
            ("ipv4", "256.0.0.1"),
            ("ipv6", "::g"),
            ("uuid", "not-a-uuid"),
            ("json-pointer", "no-slash"),
            ("relative-json-pointer", "/x"),
            ("uri-template", "{unclosed"),
            ("regex", "("),
        ];
        let accepts = |draft: Draft, name: &str, value: &str| {
            jsonschema::options()
                .with_draft(draft.to_jsonschema())
                .should_validate_formats(true)
                .build(&json!({"format": name}))
                .expect("builds")
                .is_valid(&json!(value))
        };
        for &(name, bad) in probes {
            assert!(!accepts(Draft::Draft202012, name, bad), "{name}: the probe {bad:?} is valid in 2020-12");
            for &draft in Draft::ALL {
                let reading = format_reading(draft, name);
                let checked = !accepts(draft, name, bad);
                assert_eq!(checked, reading != FormatReading::Annotation, "{name} in draft {}", draft.name());
            }
        }
        for name in ["idn-hostname", "idn-email"] {
            for &draft in Draft::ALL {
                assert!(accepts(draft, name, "-bad-@-.") && format_reading(draft, name) == FormatReading::Annotation);
            }
        }
        // A hostname RFC 1034 allows and the later reading refuses (`--` in
        // the third and fourth place outside an A-label).
        for &draft in Draft::ALL {
            let looser = accepts(draft, "hostname", "ab--cd.example");
            assert_eq!(looser, format_reading(draft, "hostname") == FormatReading::Looser, "draft {}", draft.name());
        }
    }

    #[test]
    fn the_version_less_alias_is_read_as_the_default_draft() {
        for uri in ["http://json-schema.org/schema#", "https://json-schema.org/schema", "http://json-schema.org/schema"]
        {
            let schema = serde_json::json!({"$schema": uri, "type": "object"});
            assert_eq!(Draft::detect(&schema, Draft::Draft7), Ok(Draft::Draft7), "{uri}");
            assert_eq!(Draft::detect(&schema, Draft::Draft202012), Ok(Draft::Draft202012), "{uri}");
        }
        let other = serde_json::json!({"$schema": "http://json-schema.org/schema-extended#"});
        assert!(Draft::detect(&other, Draft::Draft202012).is_err());
    }

    #[test]
    fn ok_draft_names_and_uris() {
        for d in Draft::ALL {
            assert_eq!(d.name().parse::<Draft>().ok(), Some(*d));
        }
        assert_eq!("draft-07".parse::<Draft>().ok(), Some(Draft::Draft7));
        assert_eq!("04".parse::<Draft>().ok(), Some(Draft::Draft4));
        assert_eq!(Draft::from_uri("http://json-schema.org/draft-04/schema#"), Some(Draft::Draft4));
        assert_eq!(Draft::from_uri("https://json-schema.org/draft/2019-09/schema"), Some(Draft::Draft201909));
        assert_eq!(Draft::detect(&json!({}), Draft::Draft6), Ok(Draft::Draft6));
    }

    #[test]
    fn err_unknown_drafts() {
        assert!("5".parse::<Draft>().is_err());
        assert_eq!(Draft::detect(&json!({"$schema": "https://example.com/s"}), Draft::Draft7).ok(), None);
    }

    #[test]
    fn ok_vocabulary_follows_the_validator() {
        assert_eq!(source_slot(Draft::Draft4, "const"), None);
        assert_eq!(source_slot(Draft::Draft6, "if"), None);
        assert_eq!(source_slot(Draft::Draft7, "if"), Some(Slot::One));
        assert_eq!(source_slot(Draft::Draft7, "prefixItems"), None);
        assert_eq!(source_slot(Draft::Draft202012, "dependencies"), Some(Slot::Dependencies));
        assert_eq!(source_slot(Draft::Draft202012, "$recursiveRef"), None);
        assert_eq!(source_slot(Draft::Draft201909, "items"), Some(Slot::OneOrList));
    }
}
