//! Reports: the only code that prints. Each format is one module that turns
//! findings into text; none of them reads a file or decides a verdict.

mod human;
mod json;

use std::io::{self, Write};

use crate::diagnostic::Diagnostic;
use crate::verify::{Stats, Verdict};

pub use human::{render_diagnostic, HumanStyle};
pub use json::JsonDiagnostic;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Json,
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
        Format::Json => json::render(report, out),
    }
}
