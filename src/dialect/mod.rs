//! Dialects: each turns a checked schema into one provider family's request shape.

pub(crate) mod claude;
pub(crate) mod gemini;
pub(crate) mod ollama;
pub(crate) mod openai;
pub(crate) mod strict;
