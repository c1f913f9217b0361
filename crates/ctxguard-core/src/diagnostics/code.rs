//! The stable diagnostic codes, with their default severity and the family
//! (command) that reports them. A code's name never changes; scripts and
//! CI filters depend on it.

macro_rules! codes {
    ($($variant:ident = $name:literal, $severity:ident, $family:ident;)*) => {
        /// A diagnostic code. Its name never changes: scripts and CI
        /// filters depend on it. `ctxguard explain NAME` explains each.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $(#[doc = concat!("`", $name, "`")] $variant,)* }

        impl Code {
            /// Every code, in the order the documentation lists them.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The kebab-case name shown as `ctxguard::NAME`.
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity a finding with this code has unless a kind's
            /// `severity` lowers it.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// Which command reports the code.
            pub fn family(self) -> Family {
                match self { $(Code::$variant => Family::$family,)* }
            }
        }
    };
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Advice: does not change a verdict or the exit status.
    Warning,
    /// Decides the verdict (reject) or the exit status (1).
    Error,
}

impl Severity {
    /// `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// Which command reports a code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Reading any input file.
    Input,
    /// `ctxguard check`: the policy linter.
    Policy,
    /// `ctxguard verify` and `ctxguard plan`: a plan against its trace.
    Verify,
    /// `ctxguard import` and `ctxguard audit`: agent-runtime sessions.
    Import,
    /// `ctxguard hook` and `ctxguard ledger`: live guarding.
    Hook,
    /// `ctxguard check` on runtime configs.
    Runtime,
}

codes! {
    UnreadableFile = "unreadable-file", Error, Input;
    Syntax = "syntax", Error, Policy;
    DuplicateKind = "duplicate-kind", Error, Policy;
    ReservedKind = "reserved-kind", Error, Policy;
    UnknownKind = "unknown-kind", Error, Policy;
    OrderCycle = "order-cycle", Error, Policy;
    RedundantOrder = "redundant-order", Warning, Policy;
    InvalidPattern = "invalid-pattern", Error, Policy;
    BudgetRange = "budget-range", Error, Policy;
    WeakenedInvariant = "weakened-invariant", Error, Policy;
    DuplicatePolicyName = "duplicate-policy-name", Error, Policy;
    WeakensParent = "weakens-parent", Error, Policy;
    MissingParent = "missing-parent", Error, Policy;
    ExtendsCycle = "extends-cycle", Error, Policy;
    ForbiddenParent = "forbidden-parent", Error, Policy;
    DuplicateSetting = "duplicate-setting", Error, Policy;
    UnusedIgnore = "unused-ignore", Warning, Policy;
    EmptyPolicy = "empty-policy", Warning, Policy;
    NoBudget = "no-budget", Warning, Policy;
    BadIgnore = "bad-ignore", Error, Policy;
    InvalidInput = "invalid-input", Error, Input;
    MissingCommitment = "missing-commitment", Error, Verify;
    AlteredCommitment = "altered-commitment", Error, Verify;
    AlteredNarrative = "altered-narrative", Error, Verify;
    SummaryCoversCommitment = "summary-covers-commitment", Error, Verify;
    SummarySpansCommitment = "summary-spans-commitment", Error, Verify;
    InventedCommitment = "invented-commitment", Error, Verify;
    UnclassifiedDropped = "unclassified-dropped", Error, Verify;
    OrderViolated = "order-violated", Error, Verify;
    OverBudget = "over-budget", Error, Verify;
    UnknownRegion = "unknown-region", Error, Verify;
    ConflictingCommitment = "conflicting-commitment", Error, Verify;
    DuplicateRegion = "duplicate-region", Error, Verify;
    StatusChanged = "status-changed", Error, Verify;
    BudgetUnmeetable = "budget-unmeetable", Error, Verify;
    RetrofittedTag = "retrofitted-tag", Warning, Verify;
    UntaggedCandidate = "untagged-candidate", Warning, Verify;
    CommitmentInSummary = "commitment-in-summary", Warning, Verify;
    IdentifierDrift = "identifier-drift", Warning, Verify;
    TokenCountMismatch = "token-count-mismatch", Warning, Verify;
    SummarizerFailed = "summarizer-failed", Error, Input;
    UnknownSession = "unknown-session", Error, Import;
    SessionRecord = "session-record", Warning, Import;
    UnknownPinKind = "unknown-pin-kind", Warning, Import;
    OpaqueSummary = "opaque-summary", Warning, Import;
    HookInput = "hook-input", Warning, Hook;
    LedgerRecord = "ledger-record", Warning, Hook;
    LedgerFull = "ledger-full", Error, Hook;
    InvalidConfig = "invalid-config", Error, Runtime;
    UnknownConfigKey = "unknown-config-key", Warning, Runtime;
    UnguardedCompaction = "unguarded-compaction", Warning, Runtime;
    HookTimeoutUnits = "hook-timeout-units", Warning, Runtime;
    UnknownHookEvent = "unknown-hook-event", Error, Runtime;
    HookMatcherNeverMatches = "hook-matcher-never-matches", Error, Runtime;
    UnsupportedHookType = "unsupported-hook-type", Error, Runtime;
    TruncatingCompactor = "truncating-compactor", Error, Runtime;
    WindowExceedsPolicy = "window-exceeds-policy", Warning, Runtime;
    WeakenedIdentifierPolicy = "weakened-identifier-policy", Error, Runtime;
    CompactionPromptMissingCommitments = "compaction-prompt-missing-commitments", Warning, Runtime;
    StaleCompactionPrompt = "stale-compaction-prompt", Warning, Runtime;
}

impl Code {
    /// The code named `name` (with or without `ctxguard::`).
    pub fn from_name(name: &str) -> Option<Code> {
        let name = name.strip_prefix("ctxguard::").unwrap_or(name);
        Code::ALL.iter().copied().find(|code| code.name() == name)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
