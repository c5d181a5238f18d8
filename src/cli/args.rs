//! The flags of a run, as the subcommands read them (parsed by `command.rs`).

use schemacast::{ClaudeMechanism, Draft, GeminiDialect, Mode, Options, Provider};
use serde_json::Value;
use std::path::Path;

/// Parsed flags shared by the subcommands.
#[derive(Debug, Default)]
pub(crate) struct Args {
    pub(crate) provider: Option<Provider>,
    pub(crate) mode: Option<Mode>,
    pub(crate) name: Option<String>,
    pub(crate) body_only: bool,
    pub(crate) explain: bool,
    pub(crate) lines: bool,
    pub(crate) deny_unknown_keywords: bool,
    pub(crate) open_world: bool,
    pub(crate) no_union_closing: bool,
    pub(crate) no_default_filling: bool,
    pub(crate) no_format_assertion: bool,
    pub(crate) gemini_dialect: Option<GeminiDialect>,
    pub(crate) claude_json_tool: bool,
    pub(crate) claude_thinking: bool,
    pub(crate) claude_mechanism: Option<ClaudeMechanism>,
    pub(crate) reshape: bool,
    /// `decode --stream`: the input is an SSE or NDJSON transcript.
    pub(crate) stream: bool,
    pub(crate) schema: Option<String>,
    pub(crate) input: Option<String>,
    /// A second positional argument (`validate SCHEMA INSTANCE`).
    pub(crate) second: Option<String>,
    /// `bench`'s folders and files.
    pub(crate) extra: Vec<String>,
    /// `bench --rounds N`.
    pub(crate) rounds: Option<usize>,
    /// `--draft D`: the draft of schemas without `$schema`.
    pub(crate) draft: Option<Draft>,
    /// `--resource FILE` (repeatable).
    pub(crate) resources: Vec<String>,
    /// The documents of `--resource`, once read, under every URI they answer to.
    pub(crate) documents: Vec<(String, Value)>,
    /// The base URI of the root schema: its file's URI.
    pub(crate) base_uri: Option<String>,
}

impl Args {
    /// Library options for `provider` from the flags.
    pub(crate) fn options(&self, provider: Provider) -> Options {
        let mut o = Options::new(provider)
            .with_mode(self.mode.unwrap_or(Mode::Schema))
            .with_deny_unknown_keywords(self.deny_unknown_keywords)
            .with_closed_world(!self.open_world)
            .with_union_closing(!self.no_union_closing)
            .with_default_filling(!self.no_default_filling)
            .with_format_assertion(!self.no_format_assertion)
            .with_claude_json_tool(self.claude_json_tool)
            .with_claude_thinking(self.claude_thinking)
            .with_reshape(self.reshape);
        if let Some(d) = self.gemini_dialect {
            o = o.with_gemini_dialect(d);
        }
        if let Some(m) = self.claude_mechanism {
            o = o.with_claude_mechanism(m);
        }
        if let Some(n) = &self.name {
            o = o.with_name(n.clone());
        }
        if let Some(d) = self.draft {
            o = o.with_default_draft(d);
        }
        for (uri, doc) in &self.documents {
            o = o.with_resource(uri.clone(), doc.clone());
        }
        if let Some(b) = &self.base_uri {
            o = o.with_base_uri(b.clone());
        }
        o
    }

    /// Reads the `--resource` files, and takes the root schema's file (`root`,
    /// `-` for standard input) as its base URI, so that references between
    /// files of one folder resolve. Each file is registered under its own path
    /// and under its `$id`, if it has one. `Err` carries the exit status after
    /// the message: 2 for a file that cannot be read, 1 for one that is not JSON.
    pub(crate) fn load_documents(&mut self, root: Option<&str>) -> Result<(), (i32, String)> {
        if self.resources.is_empty() {
            return Ok(());
        }
        self.base_uri = Some(match root {
            Some(path) if path != "-" => file_uri(Path::new(path))?,
            _ => file_uri(Path::new("."))? + "/",
        });
        for path in std::mem::take(&mut self.resources) {
            let text = std::fs::read_to_string(&path).map_err(|e| (2, format!("cannot read {path}: {e}")))?;
            let text = super::io::without_bom(text);
            let doc: Value = serde_json::from_str(&text).map_err(|e| {
                (1, format!("{}\n  at {path}: the resource is not JSON: {e}", schemacast::ErrorKind::InvalidJson))
            })?;
            if let Some(id) = doc.get("$id").or_else(|| doc.get("id")).and_then(Value::as_str)
                && !id.starts_with('#')
            {
                self.documents.push((id.to_owned(), doc.clone()));
            }
            self.documents.push((file_uri(Path::new(&path))?, doc));
            self.resources.push(path);
        }
        Ok(())
    }
}

/// `file://` and the absolute path of `path`, percent-encoded where a URI needs it.
fn file_uri(path: &Path) -> Result<String, (i32, String)> {
    let abs = std::fs::canonicalize(path).map_err(|e| (2, format!("cannot read {}: {e}", path.display())))?;
    let mut out = String::from("file://");
    for b in abs.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(out)
}
