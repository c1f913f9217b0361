//! What every check produces and every report renders: the stable codes
//! with their severity and family, the diagnostic type, `-A`/`-W`/`-D`
//! overrides, the explanations behind `ctxguard explain`, and "did you
//! mean" suggestions.

mod code;
pub mod codes;
mod diagnostic;
pub mod explain;
mod overrides;
pub mod suggest;
pub mod usage;

pub use code::{Code, Family, Severity};
pub use diagnostic::{Diagnostic, Label, Tally};
pub use explain::Explanation;
pub use overrides::{Level, Overrides};

/// A command line that cannot be carried out; exits 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// serde's wording in a user's terms.
pub fn friendly_serde(reason: &str) -> String {
    reason
        .replace("invalid type: ", "found ")
        .replace("EOF while parsing", "the file ends inside")
        .replace("found map", "found a mapping")
        .replace("found sequence", "found a list")
        .replace("expected a sequence", "expected a list")
        .replace("found integer", "found the number")
        .replace("found floating point", "found the number")
        .replace("found string", "found the string")
        .replace("found boolean", "found")
}
