//! Findings: what every check produces and every report renders.

use std::fmt;
use std::sync::Arc;

use crate::diagnostics::{Code, Severity};
use crate::source::{SourceFile, Span};

/// A labelled place in an input file. A diagnostic's first label is its
/// primary location.
#[derive(Clone, Debug)]
pub struct Label {
    pub file: Arc<SourceFile>,
    pub span: Span,
    pub message: String,
    /// JSON Pointer of the element the span belongs to, for traces and plans.
    pub pointer: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    /// Further facts, shown after the snippet: a diff, what differs.
    pub notes: Vec<String>,
    /// The file a diagnostic without a span is about (an unreadable file).
    pub file: Option<String>,
    pub commitment: Option<String>,
    pub region: Option<String>,
}

impl Diagnostic {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            message: message.into(),
            labels: Vec::new(),
            help: None,
            notes: Vec::new(),
            file: None,
            commitment: None,
            region: None,
        }
    }

    pub fn label(mut self, file: &Arc<SourceFile>, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            file: Arc::clone(file),
            span,
            message: message.into(),
            pointer: None,
        });
        self
    }

    /// A label on an element of a trace or plan, with its JSON Pointer.
    pub fn label_at(
        mut self,
        file: &Arc<SourceFile>,
        span: Span,
        pointer: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        self.labels.push(Label {
            file: Arc::clone(file),
            span,
            message: message.into(),
            pointer,
        });
        self
    }

    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub fn commitment(mut self, identity: impl Into<String>) -> Self {
        self.commitment = Some(identity.into());
        self
    }

    pub fn region(mut self, id: impl Into<String>) -> Self {
        self.region = Some(id.into());
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn file(mut self, name: impl Into<String>) -> Self {
        self.file = Some(name.into());
        self
    }

    pub fn primary(&self) -> Option<&Label> {
        self.labels.first()
    }

    /// The file the diagnostic is about, by name.
    pub fn file_name(&self) -> Option<&str> {
        self.primary()
            .map(|label| label.file.name())
            .or(self.file.as_deref())
    }

    /// Identity used to report a finding once even when it is reached twice
    /// (a parent policy checked on its own and through a child).
    pub fn identity(&self) -> (Code, String, Option<String>, Option<Span>) {
        (
            self.code,
            self.message.clone(),
            self.file_name().map(str::to_owned),
            self.primary().map(|label| label.span.clone()),
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ctxguard::{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Counts for a summary line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub errors: usize,
    pub warnings: usize,
}

impl Tally {
    pub fn of<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> Tally {
        let mut tally = Tally::default();
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => tally.errors += 1,
                Severity::Warning => tally.warnings += 1,
            }
        }
        tally
    }
}
