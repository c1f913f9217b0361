//! Reports: the only code that prints. Each format is one module that turns
//! findings into text; none of them reads a file or decides a verdict.

mod github;
mod human;
mod json;
mod sarif;

use std::io::{self, Write};

use crate::diagnostic::Diagnostic;
use crate::verify::{Stats, Verdict};

pub use human::{render_diagnostic, HumanStyle};
pub use json::{JsonDiagnostic, JsonLabel, JsonReport};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
}

/// What a command found, ready to render.
#[derive(Debug)]
pub struct Report {
    pub subject: Subject,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Debug)]
pub enum Subject {
    /// `ctxguard check` over this many policy files.
    Check { files: usize },
    /// `ctxguard verify`; no verdict when an input could not be used.
    Verify(Option<(Verdict, Stats)>),
}

pub fn render(
    report: &Report,
    format: Format,
    style: &HumanStyle,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Human => human::render(report, style, out),
        other => render_saved(&JsonReport::new(report), other, out),
    }
}

/// Renders a report as saved by `--format json`, in a format that needs no
/// source text: JSON again, SARIF or GitHub commands. Human output needs the
/// inputs for its snippets and is refused.
pub fn render_saved(report: &JsonReport, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => json::render(report, out),
        Format::Sarif => sarif::render(report, out),
        Format::Github => github::render(report, out),
        Format::Human => Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a saved report has no source text to show; choose json, sarif or github",
        )),
    }
}
