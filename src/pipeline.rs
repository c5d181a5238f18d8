//! The one place that orders the passes: options → preflight (checks, then
//! the front end's working form) → dialect (lowering, request shape) →
//! notes written back into source pointers.
//!
//! Architecture invariant: nothing here or below does I/O, reads the
//! environment or the clock, or keeps global state. The input is borrowed and
//! never changed; the output is a fresh value.

use crate::analysis::Doc;
use crate::dialect;
use crate::emission::Emission;
use crate::error::{Error, ErrorKind};
use crate::fragment::Fragment;
use crate::note::{Action, Enforcement, Note};
use crate::options::{Mode, Options};
use crate::preflight;
use crate::profile::{self, Dialect};
use serde_json::Value;
use std::borrow::Cow;

pub(crate) fn compile(schema: Option<&Value>, opts: &Options) -> Result<Emission, Error> {
    opts.validate()?;
    let profile = profile::profile(opts.provider);
    let mut em = Fragment::default();
    let checked = match schema {
        Some(s) => Some(preflight::check(s, opts)?),
        None if opts.mode == Mode::Schema => {
            return Err(Error::new(ErrorKind::InvalidOption, "", "mode `schema` needs a schema"));
        }
        None => None,
    };
    // Notes from here on point into the working form; they are written back
    // into source pointers below.
    let mut validator = None;
    let work = checked.map(|c| {
        em.notes.extend(c.notes);
        validator = Some(c.validator);
        c.work
    });
    let first_working_note = em.notes.len();
    let doc = work.as_ref().map(|w| Doc { root: &w.root });
    match opts.mode {
        Mode::Text => {
            em.enforcement = Enforcement::None;
        }
        Mode::Json => match profile.dialect {
            Dialect::OpenAiStrict => dialect::openai::json(&mut em, profile, doc.as_ref()),
            Dialect::Gemini => dialect::gemini::json(&mut em, doc.as_ref()),
            Dialect::Grammar => dialect::grammar::json(&mut em, profile, doc.as_ref()),
            Dialect::Claude => dialect::claude::json(&mut em, profile, doc.as_ref(), opts),
        },
        Mode::Schema => {
            let Some(doc) = doc.as_ref() else {
                return Err(Error::new(ErrorKind::InvalidOption, "", "mode `schema` needs a schema"));
            };
            match profile.dialect {
                Dialect::OpenAiStrict => dialect::openai::schema(&mut em, profile, doc, opts),
                Dialect::Gemini => dialect::gemini::schema(&mut em, doc, opts),
                Dialect::Grammar => dialect::grammar::schema(&mut em, profile, doc, opts),
                Dialect::Claude => dialect::claude::schema(&mut em, profile, doc, opts),
            }
        }
    }
    let mut working = None;
    if let Some(w) = work {
        w.translate(&mut em.notes[first_working_note..]);
        if let Cow::Owned(root) = w.root {
            working = Some(root);
        }
        // A working-form node copied from one source node (the value schema of
        // a map whose keys are listed) is lowered once per copy: say it once.
        let mut seen = std::collections::HashSet::new();
        em.notes.retain(|n| seen.insert((n.pointer.clone(), n.keyword.clone(), n.action, n.reason.clone())));
    }
    if matches!(em.enforcement, Enforcement::Exact | Enforcement::Widened | Enforcement::Json) {
        for caveat in profile.caveats {
            em.notes.push(Note::new("", "", Action::Info, *caveat));
        }
    }
    let Fragment { body, headers, enforcement, notes, reshape, tool } = em;
    Ok(Emission {
        provider: opts.provider,
        mode: opts.mode,
        body,
        headers,
        enforcement,
        notes,
        source: schema.cloned(),
        validator,
        reshape,
        tool,
        claude_thinking: opts.claude_thinking,
        work: working,
        readings: opts.readings(),
        assert_formats: opts.assert_formats,
        branches: std::sync::Arc::default(),
        sent_branches: std::sync::Arc::default(),
    })
}

impl Options {
    /// Compiles `schema` with these options.
    ///
    /// # Errors
    ///
    /// See [`compile`](crate::compile).
    pub fn compile(&self, schema: &serde_json::Value) -> Result<crate::Emission, Error> {
        compile(Some(schema), self)
    }

    /// Compiles without a schema: [`Mode::Json`] gives the provider's plain JSON
    /// mode (any object), [`Mode::Text`] gives an empty fragment.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidOption`] for [`Mode::Schema`], which needs a schema.
    pub fn compile_without_schema(&self) -> Result<crate::Emission, Error> {
        compile(None, self)
    }
}
