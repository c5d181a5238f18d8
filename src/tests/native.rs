//! Re-exports of the law checks for the test modules.

pub(crate) use crate::laws::Admits;
