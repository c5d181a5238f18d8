//! The laws every emission obeys, as executable checks shared by the property
//! tests and the fuzz targets (`--features laws`). Not part of the stable API.
//!
//! 1. never panics, and is deterministic (byte-identical twice);
//! 2. soundness: every instance the source accepts, projected, is accepted by
//!    [`Emission::native_schema`], and the projection keeps it valid;
//! 3. acceptance: the body passes an independent checker of the provider's
//!    documented rules (fields, keywords, required/additionalProperties, limits,
//!    name patterns);
//! 4. `decode` of an encoded valid instance returns it;
//! 5. streaming: an answer cut into events anywhere ends exactly as `decode`
//!    of the whole response, partial values are prefix-completions of the final
//!    one, and an early error is never followed by a valid answer
//!    ([`check_stream`]).
//! 6. exactness: an emission that claims `exact` admits no answer the source rejects.

mod accept;
mod stream;
mod subsets;
pub use accept::acceptance;
pub use stream::{check_stream, check_stream_input, is_prefix_completion};
pub use subsets::gemini_schema_problems;

use crate::{ClaudeMechanism, Emission, GeminiDialect, Mode, Options, Provider};
use serde_json::{Value, json};

/// Every option set the laws are checked under.
#[must_use]
pub fn option_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for p in Provider::ALL {
        for m in Mode::ALL {
            out.push(Options::new(*p).with_mode(*m));
        }
    }
    out.push(Options::new(Provider::Gemini).with_gemini_dialect(GeminiDialect::JsonSchema));
    out.push(Options::new(Provider::Gemini).with_closed_world(false));
    out.push(Options::new(Provider::Gemini).with_format_assertion(false));
    out.push(Options::new(Provider::Ollama).with_closed_world(false));
    out.push(Options::new(Provider::Claude).with_mode(Mode::Json).with_claude_json_tool(true));
    for p in [Provider::OpenAi, Provider::Claude] {
        out.push(Options::new(p).with_reshape(true));
    }
    for m in [ClaudeMechanism::StrictTool, ClaudeMechanism::OutputFormat, ClaudeMechanism::OutputFormatBeta] {
        out.push(Options::new(Provider::Claude).with_claude_mechanism(m));
    }
    out.push(Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::StrictTool));
    out.push(Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::Tool));
    out.push(Options::new(Provider::Cerebras).with_reshape(true));
    out.push(Options::new(Provider::Claude).with_claude_mechanism(ClaudeMechanism::OutputFormat).with_reshape(true));
    out.push(Options::new(Provider::Bedrock).with_reshape(true));
    out.push(Options::new(Provider::Gemini).with_reshape(true));
    out.push(Options::new(Provider::OpenAi).with_reshape(true).with_union_closing(false));
    out.push(Options::new(Provider::OpenAi).with_default_filling(false));
    // Extended thinking: every tool offered, never forced.
    out.push(Options::new(Provider::Claude).with_claude_thinking(true));
    out.push(
        Options::new(Provider::Claude)
            .with_claude_mechanism(ClaudeMechanism::StrictTool)
            .with_claude_thinking(true)
            .with_reshape(true),
    );
    out.push(
        Options::new(Provider::Claude).with_mode(Mode::Json).with_claude_json_tool(true).with_claude_thinking(true),
    );
    out.push(
        Options::new(Provider::Bedrock).with_claude_mechanism(ClaudeMechanism::StrictTool).with_claude_thinking(true),
    );
    out
}

/// Checks instances against one emission's native model.
#[derive(Debug)]
pub struct Admits {
    native: Option<jsonschema::Validator>,
    constrained: bool,
    emission: Emission,
}

impl Admits {
    /// Compiles the native model of `em`.
    #[must_use]
    pub fn new(em: &Emission) -> Admits {
        let native = em.native_schema();
        let validator = native.as_ref().and_then(|n| {
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .offline()
                .build(n)
                .ok()
        });
        Admits { native: validator, constrained: native.is_some(), emission: em.clone() }
    }

    /// Law 2 for one instance: the provider can return `project(x)`.
    #[must_use]
    pub fn admits(&self, x: &Value) -> bool {
        if !self.constrained {
            return true;
        }
        let Some(v) = &self.native else { return false };
        self.answer_for(x).is_some_and(|y| v.is_valid(&y))
    }

    /// Law 5, exactness: when the emission claims `exact`, every answer `y` the
    /// native constraint admits decodes to a value the source accepts (the
    /// native schema is no wider than the source, within the projection). `Err`
    /// names the answer that breaks the claim.
    ///
    /// # Errors
    ///
    /// The admitted answer the source rejects.
    pub fn exact_holds(&self, validator: &jsonschema::Validator, y: &Value) -> Result<(), String> {
        if self.emission.enforcement() != crate::Enforcement::Exact {
            return Ok(());
        }
        let Some(v) = &self.native else { return Ok(()) };
        if !v.is_valid(y) {
            return Ok(());
        }
        let decoded = self.emission.undo(y.clone()).map_err(|e| format!("{y} admitted but {e}"))?;
        if validator.is_valid(&decoded) {
            Ok(())
        } else {
            Err(format!("`exact` claimed, but the native constraint admits {y}, which the source rejects"))
        }
    }

    /// Law 2b: the projection keeps a valid instance valid (it only applies
    /// the readings that do), so the answer the provider sends for it passes
    /// the caller's validation.
    #[must_use]
    pub fn projection_valid(&self, validator: &jsonschema::Validator, x: &Value) -> bool {
        validator.is_valid(&self.emission.project(x))
    }

    /// What the provider sends for the answer `x`: projected, then reshaped.
    #[must_use]
    pub fn answer_for(&self, x: &Value) -> Option<Value> {
        self.emission.sent_for(x)
    }
}

/// Candidate instances drawn from a schema's own literals, plus simple values.
#[must_use]
pub fn candidates(schema: &Value) -> Vec<Value> {
    let mut out = vec![json!({}), json!([]), json!(null), json!(0), json!(""), json!(true), json!(1.5)];
    collect_literals(schema, &mut out, 0);
    out.truncate(64);
    out
}

fn collect_literals(v: &Value, out: &mut Vec<Value>, depth: usize) {
    if depth > 32 || out.len() > 64 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, sub) in m {
                match (k.as_str(), sub) {
                    ("const" | "default", lit) => out.push(lit.clone()),
                    ("enum" | "examples", Value::Array(items)) => out.extend(items.iter().take(8).cloned()),
                    _ => collect_literals(sub, out, depth + 1),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_literals(i, out, depth + 1)),
        _ => {}
    }
}

/// Laws 1–3 for `schema` under every option set, over `instances`.
///
/// # Errors
///
/// A description of the first broken law.
pub fn check(schema: &Value, instances: &[Value]) -> Result<(), String> {
    for opts in option_sets() {
        let first = opts.compile(schema);
        let again = opts.compile(schema);
        let a = first.as_ref().map(|e| e.to_json().to_string()).map_err(ToString::to_string);
        let b = again.as_ref().map(|e| e.to_json().to_string()).map_err(ToString::to_string);
        if a != b {
            return Err(format!("not deterministic: {opts:?}"));
        }
        let Ok(em) = first else { continue };
        acceptance(&em).map_err(|e| format!("rejected body for {opts:?}: {e}\nbody = {}", em.body()))?;
        let validator =
            em.local_validator().map_err(|e| format!("deferred validator build failed for {opts:?}: {e}"))?;
        if let Some(v) = validator {
            let check = Admits::new(&em);
            for y in instances {
                check.exact_holds(v, y).map_err(|e| format!("{e}: {opts:?}\nbody = {}", em.body()))?;
            }
            for x in instances.iter().filter(|x| v.is_valid(x)) {
                if !check.admits(x) {
                    return Err(format!("narrowing for {opts:?}: instance {x}\nbody = {}", em.body()));
                }
                if !check.projection_valid(v, x) {
                    return Err(format!("projection breaks validity for {opts:?}: {x} -> {}", em.project(x)));
                }
            }
        }
    }
    Ok(())
}

/// A realistic response body that carries `x` as the answer to `em` (law 4),
/// exactly as given (no reshape applied).
#[must_use]
pub fn encode(em: &Emission, x: &Value) -> Value {
    crate::decode::response_body(crate::profile::profile(em.provider()).envelope, em.tool.as_deref(), x)
}
