//! What every check produces and every report renders: the stable codes
//! with their severity and family, the diagnostic type, `-A`/`-W`/`-D`
//! overrides, the explanations behind `ctxguard explain`, and "did you
//! mean" suggestions.

mod code;
pub(crate) mod codes;
mod diagnostic;
pub(crate) mod explain;
mod overrides;
pub(crate) mod suggest;

pub use code::{Code, Family, Severity};
pub use diagnostic::{Diagnostic, Label, Tally};
pub use explain::Explanation;
pub use overrides::{Level, Overrides};

/// A command line that cannot be carried out; exits 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);
