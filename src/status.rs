//! Exit statuses (CONTRACT §2) and usage errors.

/// How a command ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// No errors; for `verify`, the verdict is compact.
    Success = 0,
    /// Errors found; for `verify`, the verdict is reject.
    Failure = 1,
    /// Unreadable or unparseable input, or bad usage.
    Usage = 2,
    /// `verify` and `plan`: no plan can meet the budget; a person must decide.
    Escalate = 3,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// A command line that cannot be carried out; exits 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);
