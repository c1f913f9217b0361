//! Severity control for one run: `-A`/`--allow`, `-W`/`--warn` and
//! `-D`/`--deny` remap a code, `--deny-warnings` makes every warning an
//! error. A code that decides a verdict cannot be allowed away or lowered.

use crate::diagnostics::UsageError;
use crate::diagnostics::{Code, Family};
use crate::diagnostics::{Diagnostic, Severity};

/// What `-A`, `-W` and `-D` make of a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `-A`: not reported.
    Allow,
    /// `-W`: reported as a warning.
    Warn,
    /// `-D`: reported as an error.
    Deny,
}

impl Level {
    fn flag(self) -> &'static str {
        match self {
            Level::Allow => "--allow",
            Level::Warn => "--warn",
            Level::Deny => "--deny",
        }
    }
}

impl Code {
    /// An error code: it makes a policy unusable, decides a verdict, or
    /// says an input cannot be used. It cannot be allowed, lowered to a
    /// warning, or silenced by a `ctxguard-ignore` comment, so that `check`
    /// passes a policy exactly when `verify` accepts it and no flag turns a
    /// reject into a compact. Only warnings can be waved away.
    pub fn is_mandatory(self) -> bool {
        self.default_severity() == Severity::Error
    }

    /// Why a mandatory code cannot be waved away, in a user's terms.
    pub(crate) fn why_mandatory(self) -> &'static str {
        match self.family() {
            Family::Input => "an input that cannot be used cannot be judged; fix the input instead",
            Family::Policy => {
                "it makes the policy unusable (`verify` refuses it); fix the policy instead"
            }
            Family::Verify => {
                "a plan that fails it is not safe to apply; fix the plan or the input instead"
            }
            Family::Import => {
                "a session that cannot be read cannot be audited; name a session file instead"
            }
            Family::Runtime => {
                "the runtime would run a compaction the policy forbids, or without the guard; fix the config instead"
            }
            Family::Hook => {
                "a commitment that cannot be recorded is lost; make room in the ledger instead"
            }
        }
    }
}

/// Severity overrides for one run: `-A`/`-W`/`-D` and `--deny-warnings`.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    levels: Vec<(Code, Level)>,
    deny_warnings: bool,
}

impl Overrides {
    /// From the command line's code names; refuses unknown codes, a code
    /// given two levels, and lowering a code that decides a verdict.
    pub fn new(
        allow: &[String],
        warn: &[String],
        deny: &[String],
        deny_warnings: bool,
    ) -> Result<Self, UsageError> {
        let mut levels: Vec<(Code, Level)> = Vec::new();
        for (names, level) in [
            (allow, Level::Allow),
            (warn, Level::Warn),
            (deny, Level::Deny),
        ] {
            for name in names {
                let code = Code::from_name(name).ok_or_else(|| {
                    let names = Code::ALL.iter().map(|c| c.name());
                    match crate::diagnostics::suggest::did_you_mean(name, names) {
                        Some(suggestion) => UsageError(format!(
                            "`{name}` is not a ctxguard code; did you mean `{suggestion}`?"
                        )),
                        None => UsageError(format!(
                            "`{name}` is not a ctxguard code; `ctxguard explain` lists them all"
                        )),
                    }
                })?;
                if level != Level::Deny && code.is_mandatory() {
                    return Err(UsageError(format!(
                        "`{code}` is an error and cannot be given to `{}`: {}",
                        level.flag(),
                        code.why_mandatory()
                    )));
                }
                if let Some((_, other)) = levels.iter().find(|(c, l)| *c == code && *l != level) {
                    return Err(UsageError(format!(
                        "`{code}` is given to both `{}` and `{}`",
                        other.flag(),
                        level.flag()
                    )));
                }
                levels.push((code, level));
            }
        }
        Ok(Overrides {
            levels,
            deny_warnings,
        })
    }

    /// `--deny-warnings` alone.
    pub fn deny_warnings() -> Self {
        Overrides {
            levels: Vec::new(),
            deny_warnings: true,
        }
    }

    /// Whether this run does not report `code` (`-A CODE`): its fixes are
    /// not made either.
    pub fn allows(&self, code: Code) -> bool {
        self.levels
            .iter()
            .any(|(c, level)| *c == code && *level == Level::Allow)
    }

    /// The findings as this run reports them: allowed codes removed, levels changed.
    pub fn apply(&self, diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
        diagnostics
            .into_iter()
            .filter_map(|mut diagnostic| {
                match self
                    .levels
                    .iter()
                    .find(|(code, _)| *code == diagnostic.code)
                {
                    Some((_, Level::Allow)) => return None,
                    Some((_, Level::Warn)) => diagnostic.severity = Severity::Warning,
                    Some((_, Level::Deny)) => diagnostic.severity = Severity::Error,
                    None => {}
                }
                if self.deny_warnings {
                    diagnostic.severity = Severity::Error;
                }
                Some(diagnostic)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn verdict_codes_cannot_be_lowered() {
        let error = Overrides::new(&names(&["missing-commitment"]), &[], &[], false)
            .err()
            .map(|e| e.0);
        assert!(error.is_some_and(|e| e.contains("is an error and cannot be given to `--allow`")));
        assert!(Overrides::new(&names(&["order-cycle"]), &[], &[], false).is_err());
        assert!(Overrides::new(&[], &names(&["syntax"]), &[], false).is_err());
        assert!(Overrides::new(&[], &names(&["invalid-input"]), &[], false).is_err());
        assert!(Overrides::new(
            &[],
            &[],
            &names(&["missing-commitment", "identifier-drift"]),
            false
        )
        .is_ok());
        assert!(Overrides::new(
            &names(&["redundant-order", "untagged-candidate"]),
            &[],
            &[],
            false
        )
        .is_ok());
    }

    #[test]
    fn unknown_and_conflicting_codes_are_refused() {
        let error = Overrides::new(&names(&["redundant-orders"]), &[], &[], false)
            .err()
            .map(|e| e.0);
        assert_eq!(
            error.as_deref(),
            Some("`redundant-orders` is not a ctxguard code; did you mean `redundant-order`?")
        );
        assert!(Overrides::new(
            &names(&["redundant-order"]),
            &[],
            &names(&["redundant-order"]),
            false
        )
        .is_err());
    }

    #[test]
    fn levels_apply() {
        let overrides = Overrides::new(
            &names(&["redundant-order"]),
            &[],
            &names(&["identifier-drift"]),
            false,
        )
        .unwrap_or_default();
        let found = overrides.apply(vec![
            Diagnostic::new(Code::RedundantOrder, "a"),
            Diagnostic::new(Code::IdentifierDrift, "b"),
            Diagnostic::new(Code::UntaggedCandidate, "c"),
        ]);
        let shown: Vec<(Code, Severity)> = found.iter().map(|d| (d.code, d.severity)).collect();
        assert_eq!(
            shown,
            [
                (Code::IdentifierDrift, Severity::Error),
                (Code::UntaggedCandidate, Severity::Warning)
            ]
        );
    }
}
