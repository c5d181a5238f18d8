//! Providers, modes and the [`Options`] builder.

mod choices;

pub use choices::{ClaudeMechanism, GeminiDialect, Mode, Provider};

use crate::error::{Error, ErrorKind};

/// Which readings the projection applies (contract §3; each has an off switch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Readings {
    /// Undeclared keys of closable objects are dropped.
    pub(crate) close: bool,
    /// Unions close by branch: only the first branch the value satisfies declares keys.
    pub(crate) by_branch: bool,
    /// Absent properties with a provably valid `default` are filled in.
    pub(crate) fill: bool,
}

impl Readings {
    /// Every reading on (the default options).
    pub(crate) const ALL: Readings = Readings { close: true, by_branch: true, fill: true };
}

/// Settings for a compilation. Build with [`Options::new`] and the `with_*` methods.
///
/// Defaults (as [`Options::new`] sets them):
///
/// | setting | default |
/// |---|---|
/// | mode | [`Mode::Schema`] |
/// | name | `structured_output` |
/// | deny unknown keywords | `false` (unknown keywords are annotations, with a note) |
/// | format assertion | `true` (`format` is checked locally, so it may be sent natively) |
/// | closed world | `true` (closable objects may be closed: contract §3) |
/// | union closing | `true` (unions close by branch; disjoint `oneOf` is `anyOf` exactly) |
/// | default filling | `true` (absent properties with a provably valid default read as that default) |
/// | Gemini dialect | [`GeminiDialect::ResponseSchema`] |
/// | Claude JSON tool | `false` ([`Mode::Json`] sends nothing to Claude) |
/// | Claude mechanism | the provider's own: [`ClaudeMechanism::Tool`] for Claude, [`ClaudeMechanism::OutputFormat`] for Bedrock |
/// | Claude thinking | `false` (a tool, when one is sent, is forced) |
/// | reshape | `false` (no reversible rewrites) |
/// | default draft | [`Draft::Draft202012`](crate::Draft::Draft202012), for schemas without `$schema` |
/// | resources | none (references to other documents are errors: nothing is fetched) |
/// | base URI | the root's `$id`, else `json-schema:///` |
/// | max depth | 64 levels of JSON nesting in the schema document |
/// | max nodes | 100,000 JSON values in the schema document |
/// | max enum | 4,096 members in one `enum` |
///
/// # Example
///
/// ```
/// use schemacast::{Mode, Options, Provider};
/// let schema = serde_json::json!({"type": "object", "properties": {"a": {"type": "string"}},
///     "required": ["a"], "additionalProperties": false});
/// let emission = Options::new(Provider::OpenAi).with_name("answer").compile(&schema)?;
/// assert_eq!(emission.body()["response_format"]["json_schema"]["name"], "answer");
/// # Ok::<(), schemacast::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub(crate) provider: Provider,
    pub(crate) mode: Mode,
    pub(crate) name: String,
    pub(crate) deny_unknown_keywords: bool,
    pub(crate) assert_formats: bool,
    pub(crate) closed_world: bool,
    pub(crate) union_closing: bool,
    pub(crate) default_filling: bool,
    pub(crate) gemini_dialect: GeminiDialect,
    pub(crate) claude_json_tool: bool,
    pub(crate) claude_mechanism: Option<ClaudeMechanism>,
    pub(crate) claude_thinking: bool,
    pub(crate) reshape: bool,
    pub(crate) default_draft: crate::Draft,
    /// Documents that references may name, keyed by URI (never fetched).
    pub(crate) resources: std::sync::Arc<Vec<(String, serde_json::Value)>>,
    pub(crate) base_uri: Option<String>,
    pub(crate) max_depth: usize,
    pub(crate) max_nodes: usize,
    pub(crate) max_enum: usize,
}

impl Options {
    /// Default settings for `provider`.
    #[must_use]
    pub fn new(provider: Provider) -> Self {
        Options {
            provider,
            mode: Mode::Schema,
            name: "structured_output".to_owned(),
            deny_unknown_keywords: false,
            assert_formats: true,
            closed_world: true,
            union_closing: true,
            default_filling: true,
            gemini_dialect: GeminiDialect::ResponseSchema,
            claude_json_tool: false,
            claude_mechanism: None,
            claude_thinking: false,
            reshape: false,
            default_draft: crate::Draft::Draft202012,
            resources: std::sync::Arc::new(Vec::new()),
            base_uri: None,
            max_depth: 64,
            max_nodes: 100_000,
            max_enum: 4096,
        }
    }

    /// The mode to compile for.
    #[must_use]
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// The schema name sent to providers that need one (OpenAI-family
    /// `json_schema.name`). Must match `[A-Za-z0-9_-]{1,64}`; checked when compiling.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// A schema name made from any text, such as a model or type name
    /// (`Page[Item]` gives `Page_Item_`): characters outside `[A-Za-z0-9_-]`
    /// become `_`, and it is cut to 64 characters. An empty text leaves the name
    /// as it was.
    #[must_use]
    pub fn with_name_from(self, text: &str) -> Self {
        let cleaned: String = text.chars().map(|c| if name_char(c) { c } else { '_' }).take(64).collect();
        if cleaned.is_empty() { self } else { self.with_name(cleaned) }
    }

    /// Turns unknown keywords (`x-…`, `_format`, typos) from annotations with a
    /// note into [`ErrorKind::Unsupported`] errors.
    #[must_use]
    pub fn with_deny_unknown_keywords(mut self, yes: bool) -> Self {
        self.deny_unknown_keywords = yes;
        self
    }

    /// Whether `format` is asserted by the local validator (default `true`).
    /// With `false`, formats are annotations (JSON Schema 2020-12's own default)
    /// and are never sent natively, since a provider would enforce them.
    #[must_use]
    pub fn with_format_assertion(mut self, yes: bool) -> Self {
        self.assert_formats = yes;
        self
    }

    /// Whether closable objects may be closed (contract §3, default `true`): an
    /// object that declares its properties and says nothing else about other keys
    /// is read as not wanting other keys, so dialects that close every object can
    /// still express it. `decode` drops such keys before validating
    /// ([`project`](crate::project) shows what is dropped). With `false`, only
    /// objects the schema closes itself are closed.
    #[must_use]
    pub fn with_closed_world(mut self, yes: bool) -> Self {
        self.closed_world = yes;
        self
    }

    /// Whether unions close by branch (contract §3, default `true`): in an
    /// `anyOf`, or a `oneOf` whose branches are provably disjoint, only the first
    /// branch a value satisfies declares keys, so a tagged union of open objects
    /// closes branch by branch, and such a `oneOf` is sent as `anyOf` exactly.
    /// With `false`, every branch's keys count at the location.
    #[must_use]
    pub fn with_union_closing(mut self, yes: bool) -> Self {
        self.union_closing = yes;
        self
    }

    /// Whether defaults fill in (contract §3, default `true`): a property whose
    /// `default` provably keeps the value valid reads, when absent, as present
    /// with that default, so strict dialects may send it required (Pydantic's
    /// `x: int | None = None`). With `false`, defaults are annotations only.
    #[must_use]
    pub fn with_default_filling(mut self, yes: bool) -> Self {
        self.default_filling = yes;
        self
    }

    /// Which Gemini field carries the schema (default `responseSchema`).
    #[must_use]
    pub fn with_gemini_dialect(mut self, dialect: GeminiDialect) -> Self {
        self.gemini_dialect = dialect;
        self
    }

    /// Claude has no JSON mode; with `true`, [`Mode::Json`] forces a tool whose
    /// input is any object instead (default `false`: nothing native).
    #[must_use]
    pub fn with_claude_json_tool(mut self, yes: bool) -> Self {
        self.claude_json_tool = yes;
        self
    }

    /// How Claude is asked (Anthropic, and Bedrock, which reads `tool` and
    /// `strict-tool` as its forced `toolConfig` tool and both output formats as
    /// `outputConfig.textFormat`). Ignored by other providers.
    #[must_use]
    pub fn with_claude_mechanism(mut self, mechanism: ClaudeMechanism) -> Self {
        self.claude_mechanism = Some(mechanism);
        self
    }

    /// The request turns on Claude's extended thinking (Anthropic's `thinking`,
    /// Bedrock's `additionalModelRequestFields.thinking`), which the API refuses
    /// beside a forced tool. With `true`, a tool Claude is sent (the `tool` and
    /// `strict-tool` mechanisms, the guidance tool an `output-format` schema falls
    /// back to, the JSON tool) is offered, not forced (`tool_choice: auto`): the
    /// model may answer in text instead, so nothing native is promised
    /// ([`Enforcement::Prompt`](crate::Enforcement::Prompt)) and
    /// [`Emission::decode`](crate::Emission::decode) reads the tool's input or
    /// the text. The output formats are unchanged (they work with thinking).
    /// Ignored by other providers (default `false`).
    #[must_use]
    pub fn with_claude_thinking(mut self, yes: bool) -> Self {
        self.claude_thinking = yes;
        self
    }

    /// Reversible rewrites (contract §5, default `false`): in strict modes an
    /// optional property is sent required and nullable (or behind a presence
    /// wrapper when its schema accepts `null`); a map goes as an array of
    /// `{"key", "value"}` pairs; a part no native schema can carry (`{}`, a
    /// free-form object) goes as a string holding its JSON text, never the
    /// whole answer; and a root that is not an object is wrapped in
    /// `{"value": …}`. [`Emission::decode`](crate::Emission::decode) undoes
    /// each. Off by default: a caller who reads the response without `decode`
    /// must never get another shape than the schema promised.
    #[must_use]
    pub fn with_reshape(mut self, yes: bool) -> Self {
        self.reshape = yes;
        self
    }

    /// The draft a schema without `$schema` is read with (default
    /// [`Draft::Draft202012`](crate::Draft::Draft202012)). A `$schema` naming a
    /// draft always wins.
    #[must_use]
    pub fn with_default_draft(mut self, draft: crate::Draft) -> Self {
        self.default_draft = draft;
        self
    }

    /// Supplies a document that references may name (`"$ref": "defs.json#/…"`),
    /// kept in memory under `uri`; repeatable. Nothing is ever fetched: a
    /// reference to a document that was not supplied is an
    /// [`ErrorKind::Unsupported`] error naming it. A relative `uri` is read
    /// against `json-schema:///`, the base of a root without `$id` or
    /// [`with_base_uri`](Options::with_base_uri). The same documents are given to
    /// the local validator, and the emitted schema carries what it needs of
    /// them, so the provider never sees a URI it would have to fetch.
    #[must_use]
    pub fn with_resource(mut self, uri: impl Into<String>, document: serde_json::Value) -> Self {
        std::sync::Arc::make_mut(&mut self.resources).push((uri.into(), document));
        self
    }

    /// The base URI of the root document, against which its relative references
    /// resolve (default: its `$id`, else `json-schema:///`).
    #[must_use]
    pub fn with_base_uri(mut self, uri: impl Into<String>) -> Self {
        self.base_uri = Some(uri.into());
        self
    }

    /// The deepest JSON nesting accepted in a schema document (at most 256).
    #[must_use]
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The most JSON values accepted in a schema document.
    #[must_use]
    pub fn with_max_nodes(mut self, nodes: usize) -> Self {
        self.max_nodes = nodes;
        self
    }

    /// The most members accepted in one `enum`.
    #[must_use]
    pub fn with_max_enum(mut self, members: usize) -> Self {
        self.max_enum = members;
        self
    }

    /// The provider.
    #[must_use]
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The projection's readings these options allow.
    pub(crate) fn readings(&self) -> Readings {
        Readings {
            close: self.closed_world,
            by_branch: self.closed_world && self.union_closing,
            fill: self.default_filling,
        }
    }

    pub(crate) fn validate(&self) -> Result<(), Error> {
        let name_ok = !self.name.is_empty() && self.name.len() <= 64 && self.name.chars().all(name_char);
        if !name_ok {
            return Err(Error::new(
                ErrorKind::InvalidOption,
                "",
                format!("option `name` must match [A-Za-z0-9_-]{{1,64}}, got {:?}", self.name),
            ));
        }
        if self.max_depth > crate::vocab::MAX_DEPTH_CEILING {
            return Err(Error::new(
                ErrorKind::InvalidOption,
                "",
                format!("option `max_depth` is at most {}", crate::vocab::MAX_DEPTH_CEILING),
            ));
        }
        Ok(())
    }
}

/// A character a schema name may hold: `[A-Za-z0-9_-]`.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

#[cfg(test)]
mod tests;
