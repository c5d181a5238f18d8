//! Dialects: each turns a checked schema into one provider family's request shape.

pub(crate) mod gemini;
pub(crate) mod openai;
pub(crate) mod strict;
