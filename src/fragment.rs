//! What a dialect writes: the request-body fragment and what it means. The
//! pipeline turns it into the public [`Emission`](crate::Emission), which sits
//! above the dialects and is never written by them.

use crate::note::{Enforcement, Note};
use serde_json::{Map, Value};

/// A dialect's output for one provider and mode.
#[derive(Debug)]
pub(crate) struct Fragment {
    pub(crate) body: Value,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) enforcement: Enforcement,
    pub(crate) notes: Vec<Note>,
    /// The annotated sent schema when reversible rewrites were applied.
    pub(crate) reshape: Option<Value>,
    /// The name of the tool the request forces (the answer is its input).
    pub(crate) tool: Option<String>,
}

impl Default for Fragment {
    fn default() -> Self {
        Fragment {
            body: Value::Object(Map::new()),
            headers: Vec::new(),
            enforcement: Enforcement::None,
            notes: Vec::new(),
            reshape: None,
            tool: None,
        }
    }
}
