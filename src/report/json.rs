//! `--format json`: CONTRACT §7.

use std::io::{self, Write};

use serde::Serialize;

use super::{Report, Subject};
use crate::diagnostic::{Diagnostic, Label};
use crate::verify::{Stats, Verdict};

/// One diagnostic in the JSON report.
#[derive(Debug, Serialize)]
pub struct JsonDiagnostic {
    pub code: String,
    pub severity: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<JsonLabel>,
}

#[derive(Debug, Serialize)]
pub struct JsonLabel {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
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
            severity: diagnostic.severity.name(),
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

#[derive(Serialize)]
struct CheckJson {
    files: usize,
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Serialize)]
struct VerifyJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<Verdict>,
    diagnostics: Vec<JsonDiagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
}

pub(super) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let diagnostics = report.diagnostics.iter().map(JsonDiagnostic::new).collect();
    match &report.subject {
        Subject::Check { files } => serde_json::to_writer_pretty(
            &mut *out,
            &CheckJson {
                files: *files,
                diagnostics,
            },
        )?,
        Subject::Verify(outcome) => serde_json::to_writer_pretty(
            &mut *out,
            &VerifyJson {
                verdict: outcome.as_ref().map(|(verdict, _)| *verdict),
                diagnostics,
                stats: outcome.as_ref().map(|(_, stats)| stats),
            },
        )?,
    }
    writeln!(out)
}
