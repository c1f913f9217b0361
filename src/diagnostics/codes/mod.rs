//! One home per code: for each family, every code's explanation (what
//! `ctxguard explain` prints) and the constructors of its diagnostics
//! (message and help), side by side. Checks call the constructors and add
//! labels on their spans.

pub(crate) mod input;
pub(crate) mod policy;
pub(crate) mod verify;
