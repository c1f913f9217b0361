//! `--format json` (`docs/formats.md`). The JSON report is also the model the CI
//! formats render from, so a saved report can be rendered again
//! (`ctxguard report --from`) without the inputs it was made from.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

use super::{Report, Subject};
use ctxguard_core::diagnostics::{Code, Diagnostic, Label, Severity};
use ctxguard_core::verify::{Stats, Verdict};

/// One diagnostic in the JSON report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonDiagnostic {
    /// The code's name.
    pub code: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The message.
    pub message: String,
    /// The commitment's identity, `kind:key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// The region's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// The file of the primary location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of the primary location.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column, in characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// Where the primary span ends: line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// Where the primary span ends: column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    /// JSON Pointer of the region (`/regions/3`), in JSON and YAML files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// What to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Further facts: a diff, what differs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Every labelled place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<JsonLabel>,
}

/// One labelled place in the JSON report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonLabel {
    /// The file.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Line where the span ends.
    pub end_line: usize,
    /// Column where the span ends.
    pub end_column: usize,
    /// JSON Pointer of the region, in JSON and YAML files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// What the label says.
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
    /// The JSON form of a diagnostic.
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

impl JsonDiagnostic {
    /// The diagnostic again, for the human format: where it was, as a
    /// note (`at FILE:LINE:COLUMN`), not as a snippet, since a saved report
    /// holds places, not text (and the files it names are not read again).
    /// `None`: a code this version does not know.
    pub(super) fn revived(&self) -> Option<Diagnostic> {
        let code = Code::from_name(&self.code)?;
        let severity = match self.severity.as_str() {
            "error" => Severity::Error,
            _ => Severity::Warning,
        };
        let mut diagnostic = Diagnostic::new(code, self.message.clone()).severity(severity);
        diagnostic.commitment = self.commitment.clone();
        diagnostic.region = self.region.clone();
        diagnostic.help = self.help.clone();
        if let Some(file) = &self.file {
            diagnostic = diagnostic.file(file.clone());
        }
        let place = |file: &str, line: usize, column: usize| format!("{file}:{line}:{column}");
        for (n, label) in self.labels.iter().enumerate() {
            let at = place(&label.file, label.line, label.column);
            diagnostic = diagnostic.note(match (n, label.message.is_empty()) {
                (0, true) => format!("at {at}"),
                (0, false) => format!("at {at}: {}", label.message),
                (_, true) => format!("and at {at}"),
                (_, false) => format!("and at {at}: {}", label.message),
            });
        }
        if self.labels.is_empty() {
            if let (Some(file), Some(line), Some(column)) = (&self.file, self.line, self.column) {
                diagnostic = diagnostic.note(format!("at {}", place(file, line, column)));
            }
        }
        for note in &self.notes {
            diagnostic = diagnostic.note(note.clone());
        }
        Some(diagnostic)
    }
}

impl JsonReport {
    /// The report as the command that saved it made it, for the human
    /// format; an error names a code this version does not know.
    pub(super) fn revived(&self) -> io::Result<Report> {
        let mut diagnostics = Vec::with_capacity(self.diagnostics.len());
        for saved in &self.diagnostics {
            let revived = saved.revived().ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "the saved report has the code `{}`, which this version of ctxguard does not know; render it as json, sarif or github",
                        saved.code
                    ),
                )
            })?;
            diagnostics.push(revived);
        }
        let subject = if let Some(events) = &self.events {
            let mut tally = super::fleet::Verdicts::default();
            for event in events {
                tally.count(event.verdict);
            }
            let files: std::collections::HashSet<&str> =
                events.iter().map(|e| e.source_file.as_str()).collect();
            Subject::Audit {
                events: events.clone(),
                sessions: files.len(),
                streamed: false,
                set_apart: false,
                tally,
                fleet: None,
                skipped: super::Skipped::default(),
            }
        } else if let Some(sessions) = &self.sessions {
            Subject::Import(sessions.clone())
        } else if let Some(files) = self.files {
            Subject::Check {
                files,
                configs: 0,
                fixes: Vec::new(),
            }
        } else {
            Subject::Verify(
                self.verdict
                    .map(|verdict| (verdict, self.stats.clone().unwrap_or_default())),
            )
        };
        Ok(Report {
            subject,
            diagnostics,
        })
    }
}

/// The whole report: `{"files", "diagnostics"}` from `check`,
/// `{"verdict", "diagnostics", "stats"}` from `verify`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct JsonReport {
    /// `verify`: the verdict; absent when an input could not be used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// `check`: how many policy files were checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<usize>,
    /// Every finding.
    pub diagnostics: Vec<JsonDiagnostic>,
    /// `verify`: counts and tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// `import`: the sessions read and the events written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions: Option<Vec<super::ImportedSession>>,
    /// `audit`: every compaction audited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<ctxguard_runtimes::audit::EventAudit>>,
}

impl JsonReport {
    /// The JSON form of a report.
    pub fn new(report: &Report) -> Self {
        let diagnostics = report.diagnostics.iter().map(JsonDiagnostic::new).collect();
        match &report.subject {
            Subject::Check { files, .. } => JsonReport {
                verdict: None,
                files: Some(*files),
                diagnostics,
                stats: None,
                sessions: None,
                events: None,
            },
            Subject::Verify(outcome) => JsonReport {
                verdict: outcome.as_ref().map(|(verdict, _)| *verdict),
                files: None,
                diagnostics,
                stats: outcome.as_ref().map(|(_, stats)| stats.clone()),
                sessions: None,
                events: None,
            },
            Subject::Saved(saved) => saved.clone(),
            Subject::Import(sessions) => JsonReport {
                verdict: None,
                files: None,
                diagnostics,
                stats: None,
                sessions: Some(sessions.clone()),
                events: None,
            },
            Subject::Audit { events, .. } => JsonReport {
                verdict: None,
                files: None,
                diagnostics,
                stats: None,
                sessions: None,
                events: Some(events.clone()),
            },
            Subject::Plan(_) | Subject::Fmt { .. } | Subject::Text(_) => JsonReport {
                verdict: None,
                files: None,
                diagnostics,
                stats: None,
                sessions: None,
                events: None,
            },
        }
    }
}

pub(super) fn render(report: &JsonReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report)?;
    writeln!(out)
}
