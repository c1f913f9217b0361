//! The policy as written: one node per statement, each with its span.

use std::sync::Arc;

pub use crate::buffer::tokens::Tokenizer;
pub use crate::diagnostics::Severity;
pub use crate::source::Spanned;
use crate::source::{SourceFile, Span};

#[derive(Debug)]
pub struct PolicyAst {
    pub source: Arc<SourceFile>,
    pub statements: Vec<Statement>,
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub span: Span,
    pub node: StatementKind,
}

#[derive(Clone, Debug)]
pub enum StatementKind {
    Policy(Spanned<String>),
    Extends(Spanned<ParentRef>),
    Kind(KindDecl),
    Order {
        before: Spanned<Selector>,
        after: Spanned<Selector>,
    },
    PreserveOrder,
    Tokenizer(Spanned<Tokenizer>),
    /// `None` when the number does not fit in 64 bits.
    Window(Spanned<Option<u64>>),
    Commitments(Spanned<f64>),
    On(Spanned<OnRule>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParentRef {
    /// `extends default`: the policy built into ctxguard.
    Builtin,
    /// `extends "path"`, relative to the file that says it.
    Path(String),
}

#[derive(Clone, Debug)]
pub struct KindDecl {
    pub name: Spanned<String>,
    /// The `{ ... }` block, when there is one.
    pub block: Option<Span>,
    pub docs: Vec<Spanned<String>>,
    pub hints: Vec<HintDecl>,
    pub severities: Vec<Spanned<Severity>>,
}

#[derive(Clone, Debug)]
pub struct HintDecl {
    /// The whole `/body/flags` token.
    pub span: Span,
    /// The pattern between the slashes, exactly as written.
    pub body: Spanned<String>,
    pub flags: Spanned<String>,
}

/// What an `order` statement names: every commitment of a kind, or
/// commitments whose `kind:key` identity matches a `*` glob.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selector {
    Kind(String),
    Identity { kind: String, key: String },
}

impl Selector {
    pub fn kind(&self) -> &str {
        match self {
            Selector::Kind(kind) | Selector::Identity { kind, .. } => kind,
        }
    }
}

impl std::fmt::Display for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selector::Kind(kind) => f.write_str(kind),
            Selector::Identity { kind, key } => write!(f, "{kind}:{key}"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnRule {
    Mismatch(MismatchAction),
    Unclassified(UnclassifiedAction),
    OverBudget(OverBudgetAction),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MismatchAction {
    Reject,
    Warn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnclassifiedAction {
    Keep,
    Drop,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverBudgetAction {
    Escalate,
    Truncate,
}

impl OnRule {
    /// The safe setting for each rule; anything else weakens an invariant.
    pub fn is_weakened(self) -> bool {
        matches!(
            self,
            OnRule::Mismatch(MismatchAction::Warn)
                | OnRule::Unclassified(UnclassifiedAction::Drop)
                | OnRule::OverBudget(OverBudgetAction::Truncate)
        )
    }

    pub fn subject(self) -> &'static str {
        match self {
            OnRule::Mismatch(_) => "mismatch",
            OnRule::Unclassified(_) => "unclassified",
            OnRule::OverBudget(_) => "over-budget",
        }
    }

    pub fn action(self) -> &'static str {
        match self {
            OnRule::Mismatch(MismatchAction::Reject) => "reject",
            OnRule::Mismatch(MismatchAction::Warn) => "warn",
            OnRule::Unclassified(UnclassifiedAction::Keep) => "keep",
            OnRule::Unclassified(UnclassifiedAction::Drop) => "drop",
            OnRule::OverBudget(OverBudgetAction::Escalate) => "escalate",
            OnRule::OverBudget(OverBudgetAction::Truncate) => "truncate",
        }
    }

    /// The setting that keeps the invariant.
    pub fn safe(self) -> OnRule {
        match self {
            OnRule::Mismatch(_) => OnRule::Mismatch(MismatchAction::Reject),
            OnRule::Unclassified(_) => OnRule::Unclassified(UnclassifiedAction::Keep),
            OnRule::OverBudget(_) => OnRule::OverBudget(OverBudgetAction::Escalate),
        }
    }
}
