//! The one place that orders the passes: options → preflight → dialect.
//!
//! Architecture invariant: nothing here or below does I/O, reads the
//! environment or the clock, or keeps global state. The input is borrowed and
//! never changed; the output is a fresh value.

use crate::analysis::Doc;
use crate::dialect;
use crate::emission::{Action, Emission, Enforcement, Note};
use crate::error::{Error, ErrorKind};
use crate::options::{Mode, Options};
use crate::preflight;
use crate::profile::{self, Dialect};
use serde_json::Value;

pub(crate) fn compile(schema: Option<&Value>, opts: &Options) -> Result<Emission, Error> {
    opts.validate()?;
    let profile = profile::profile(opts.provider);
    let mut em = Emission::new(opts.provider, opts.mode, schema);
    let checked = match schema {
        Some(s) => Some(preflight::check(s, opts)?),
        None if opts.mode == Mode::Schema => {
            return Err(Error::new(ErrorKind::InvalidOption, "", "mode `schema` needs a schema"));
        }
        None => None,
    };
    let doc = match (schema, checked) {
        (Some(root), Some(c)) => {
            em.notes.extend(c.notes);
            em.validator = Some(c.validator);
            em.reading = Some((c.draft, !c.nested_ids));
            Some(Doc { root, draft: c.draft, refs_resolvable: !c.nested_ids })
        }
        _ => None,
    };
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
    if matches!(em.enforcement, Enforcement::Exact | Enforcement::Widened | Enforcement::Json) {
        for caveat in profile.caveats {
            em.notes.push(Note::new("", "", Action::Info, *caveat));
        }
    }
    Ok(em)
}
