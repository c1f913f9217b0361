//! Exit statuses, and the one function that decides them.

use ctxguard_core::diagnostics::{Code, Family, Severity};
use ctxguard_core::verify::Verdict;

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
    /// The process exit code.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The exit status of every command, from what it found:
    ///
    /// - 2 when an input could not be used (`unusable`, or any finding of
    ///   the input family: an unreadable file, malformed input, a failing
    ///   summarizer);
    /// - with a verdict: 0 compact, 1 reject, 3 escalate;
    /// - without one: 1 when a finding is an error (warnings count once
    ///   `--deny-warnings` made them errors), else 0.
    pub(crate) fn of<'a>(
        verdict: Option<Verdict>,
        unusable: bool,
        findings: impl IntoIterator<Item = (Option<Code>, Severity)> + Clone + 'a,
    ) -> ExitStatus {
        let input_error = findings.clone().into_iter().any(|(code, _)| {
            code.is_some_and(|c| c.family() == Family::Input || c == Code::UnknownSession)
        });
        if unusable || input_error {
            return ExitStatus::Usage;
        }
        match verdict {
            Some(Verdict::Compact) => ExitStatus::Success,
            Some(Verdict::Reject) => ExitStatus::Failure,
            Some(Verdict::Escalate) => ExitStatus::Escalate,
            None if findings
                .into_iter()
                .any(|(_, severity)| severity == Severity::Error) =>
            {
                ExitStatus::Failure
            }
            None => ExitStatus::Success,
        }
    }
}
