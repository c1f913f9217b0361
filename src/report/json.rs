//! `--format json`: CONTRACT §7. The JSON report is also the model the CI
//! formats render from, so a saved report can be rendered again
//! (`ctxguard report --from`) without the inputs it was made from.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::{Report, Subject};
use crate::diagnostics::{Diagnostic, Label};
use crate::verify::{Stats, Verdict};

/// One diagnostic in the JSON report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonDiagnostic {
    pub code: String,
    pub severity: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<JsonLabel>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonLabel {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    pub message: String,
}

impl JsonLabel {
    fn new(label: &Label) -> Self {
        let (line, column) = label.file.line_col(label.span.start);
        let (end_line, end_column) = label.file.line_col(label.span.end);
        JsonLabel {
            file: label.file.name().to_owned(),
            line,
            column,
            end_line,
            end_column,
            pointer: label.pointer.clone(),
            message: label.message.clone(),
        }
    }
}

impl JsonDiagnostic {
    pub fn new(diagnostic: &Diagnostic) -> Self {
        let labels: Vec<JsonLabel> = diagnostic.labels.iter().map(JsonLabel::new).collect();
        let primary = labels.first();
        JsonDiagnostic {
            code: diagnostic.code.name().to_owned(),
            severity: diagnostic.severity.name().to_owned(),
            message: diagnostic.message.clone(),
            commitment: diagnostic.commitment.clone(),
            region: diagnostic.region.clone(),
            file: diagnostic.file_name().map(str::to_owned),
            line: primary.map(|l| l.line),
            column: primary.map(|l| l.column),
            end_line: primary.map(|l| l.end_line),
            end_column: primary.map(|l| l.end_column),
            pointer: primary.and_then(|l| l.pointer.clone()),
            help: diagnostic.help.clone(),
            notes: diagnostic.notes.clone(),
            labels,
        }
    }
}

/// The whole report: `{"files", "diagnostics"}` from `check`,
/// `{"verdict", "diagnostics", "stats"}` from `verify`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonReport {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<usize>,
    pub diagnostics: Vec<JsonDiagnostic>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

impl JsonReport {
    pub fn new(report: &Report) -> Self {
        let diagnostics = report.diagnostics.iter().map(JsonDiagnostic::new).collect();
        match &report.subject {
            Subject::Check { files } => JsonReport {
                verdict: None,
                files: Some(*files),
                diagnostics,
                stats: None,
            },
            Subject::Verify(outcome) => JsonReport {
                verdict: outcome.as_ref().map(|(verdict, _)| *verdict),
                files: None,
                diagnostics,
                stats: outcome.as_ref().map(|(_, stats)| stats.clone()),
            },
            Subject::Saved(saved) => saved.clone(),
            Subject::Plan(_) | Subject::Fmt { .. } | Subject::Text(_) => JsonReport {
                verdict: None,
                files: None,
                diagnostics,
                stats: None,
            },
        }
    }
}

pub(super) fn render(report: &JsonReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
