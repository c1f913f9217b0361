//! The diagnostic: what every check produces and every report renders.

use std::fmt;
use std::sync::Arc;

use crate::diagnostics::{Code, Severity};
use crate::source::{SourceFile, Span};

/// A labelled place in an input file. A diagnostic's first label is its
/// primary location.
#[derive(Clone, Debug)]
pub struct Label {
    /// The file the span is in.
    pub file: Arc<SourceFile>,
    /// Byte range in the file.
    pub span: Span,
    /// What the label says about the place.
    pub message: String,
    /// JSON Pointer of the element the span belongs to, for traces and plans.
    pub pointer: Option<String>,
}

/// One finding: a code, a message in the user's terms, labelled places, help.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Its severity for this run.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Labelled places; the first is the primary location.
    pub labels: Vec<Label>,
    /// What to do about it.
    pub help: Option<String>,
    /// Further facts, shown after the snippet: a diff, what differs.
    pub notes: Vec<String>,
    /// The file a diagnostic without a span is about (an unreadable file).
    pub file: Option<String>,
    /// The identity (`kind:key`) of the commitment it is about.
    pub commitment: Option<String>,
    /// The id of the region it is about.
    pub region: Option<String>,
}

impl Diagnostic {
    /// A finding of `code` with its default severity.
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

    /// Adds a labelled place.
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

    /// Adds a note shown after the snippet.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Names the commitment the finding is about.
    pub fn commitment(mut self, identity: impl Into<String>) -> Self {
        self.commitment = Some(identity.into());
        self
    }

    /// Names the region the finding is about.
    pub fn region(mut self, id: impl Into<String>) -> Self {
        self.region = Some(id.into());
        self
    }

    /// Says what to do.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the severity (a soft kind's loss is a warning).
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Names the file of a finding that has no span.
    pub fn file(mut self, name: impl Into<String>) -> Self {
        self.file = Some(name.into());
        self
    }

    /// The primary label.
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
    /// Errors.
    pub errors: usize,
    /// Warnings.
    pub warnings: usize,
}

impl Tally {
    /// Counts `diagnostics` by severity.
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
