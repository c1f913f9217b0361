//! Human output: miette's graphical report. On a terminal it has colour and
//! the terminal's width; anywhere else it is plain, 80 columns wide and
//! byte-for-byte deterministic, which is also what the snapshots show.

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::{Report, Subject};
use ctxguard_core::diagnostics::{Diagnostic, Label, Severity, Tally};
use ctxguard_core::source::{Snippets, SourceFile};
use ctxguard_core::verify::Folded;

mod sessions;
#[cfg(test)]
mod tests;

use sessions::{audited, imported, skipped_files};

/// Narrowest a label is cut to, in columns.
const MIN_LABEL: usize = 8;

/// Columns between a label's middle and its text: `╰── `.
const LABEL_LEAD: usize = 4;

/// Narrowest a label's text is wrapped to, in columns.
const MIN_LABEL_TEXT: usize = 16;

/// Columns miette draws left of a quoted line besides its number: ` `, then
/// ` │ `, then room for the rails of labels that span lines.
const GUTTER: usize = 8;

/// Labels whose starts are at most this many bytes apart share a snippet;
/// farther ones get snippets of their own, so no snippet is drawn wider than
/// a terminal can show (miette cannot pad past 65,535 columns).
const NEAR: usize = 2048;

/// How human output looks.
#[derive(Clone, Copy, Debug)]
pub struct HumanStyle {
    /// ANSI colours.
    pub color: bool,
    /// Columns to wrap at.
    pub width: usize,
}

impl HumanStyle {
    /// No colour, 80 columns: logs, pipes and tests.
    pub fn plain() -> Self {
        HumanStyle {
            color: false,
            width: 80,
        }
    }

    fn handler(&self) -> GraphicalReportHandler {
        let theme = if self.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        GraphicalReportHandler::new_themed(theme)
            .with_width(self.width)
            .with_links(false)
            .with_context_lines(1)
            // Wrap at spaces only: never split `tests-first` or a path.
            .with_word_separator(textwrap::WordSeparator::AsciiSpace)
            .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
    }
}

pub(super) fn render(report: &Report, style: &HumanStyle, out: &mut dyn Write) -> io::Result<()> {
    if let Subject::Check { fixes, .. } = &report.subject {
        for fix in fixes {
            writeln!(out, "{}", fix.trim_end())?;
        }
    }
    for diagnostic in &report.diagnostics {
        out.write_all(render_diagnostic(diagnostic, style).as_bytes())?;
    }
    let tally = Tally::of(&report.diagnostics);
    match &report.subject {
        Subject::Check { files, configs, .. } if tally != Tally::default() => {
            let what = match configs {
                0 => plural(*files, "policy file", "policy files"),
                _ => plural(*files, "file", "files"),
            };
            writeln!(out, "{} in {what}", count(tally))?;
        }
        Subject::Check { .. } => {}
        Subject::Verify(Some((verdict, stats))) => {
            let budget = stats.budget.map_or(String::new(), |budget| {
                format!(" of a {budget}-token window")
            });
            out.write_all(folded_notes(&stats.folded, style.width).as_bytes())?;
            let more: usize = stats.folded.iter().map(|f| f.more).sum();
            let counted = match more {
                0 => count(tally),
                more => {
                    let at_least = if stats.folded.iter().all(|f| f.complete) {
                        ""
                    } else {
                        "at least "
                    };
                    format!(
                        "{} and {at_least}{}, {} shown",
                        plural(tally.errors, "error", "errors"),
                        plural(tally.warnings + more, "warning", "warnings"),
                        tally.warnings
                    )
                }
            };
            let line = format!(
                "{} ({counted}); {} tokens before, {} after{budget}",
                verdict.name(),
                stats.tokens_before,
                stats.tokens_after
            );
            writeln!(out, "{}", wrapped("verdict: ", &line, style.width))?;
        }
        Subject::Verify(None) => writeln!(out, "no verdict: {}", count(tally))?,
        Subject::Import(sessions) => {
            for session in sessions {
                imported(session, style.width, out)?;
            }
        }
        Subject::Audit { streamed: true, .. } => {}
        Subject::Audit {
            events,
            sessions,
            set_apart,
            skipped,
            ..
        } => {
            audited(events, *sessions, *set_apart, style.width, out)?;
            skipped_files(*skipped, style.width, out)?;
        }
        Subject::Plan(_) | Subject::Fmt { .. } | Subject::Saved(_) | Subject::Text(_) => {}
    }
    Ok(())
}

/// Where an audit's evidence lines start, under a commitment's outcome.
const EVIDENCE: usize = 14;

/// A note for each code whose warnings past the limit were counted, not shown.
pub(super) fn folded_notes(folded: &[Folded], width: usize) -> String {
    let mut notes = String::new();
    for fold in folded {
        let total = fold.shown + fold.more;
        let at_least = if fold.complete { "" } else { "at least " };
        let note = format!(
            "{} of {at_least}{total} `{}` warnings shown; `--all-warnings` shows every one",
            fold.shown, fold.code
        );
        notes.push_str(&wrapped("note: ", &note, width));
        notes.push('\n');
    }
    notes
}

/// `text` after `label`, wrapped to `width` with its further lines under
/// its first word.
fn wrapped(label: &str, text: &str, width: usize) -> String {
    hanging(label, text, label.chars().count(), width)
}

/// `text` after `lead`, wrapped to `width` with its further lines indented
/// by `indent` columns; a word wider than that is left whole, and a lead
/// too wide for the text's first word (a long path) has a line of its own.
pub(super) fn hanging(lead: &str, text: &str, indent: usize, width: usize) -> String {
    let first_word = text.split(' ').next().unwrap_or_default();
    let lead_width = lead.chars().count();
    // Only a lead wider than the indent gains by a line of its own: under
    // the indent, a word wider than the line stays whole where it is.
    if lead_width > indent && lead_width + first_word.chars().count() > width {
        let indent = " ".repeat(indent);
        let rest = hanging(&indent, text, indent.len(), width);
        return format!("{}\n{rest}", lead.trim_end());
    }
    let indent = " ".repeat(indent);
    let options = textwrap::Options::new(width)
        .initial_indent(lead)
        .subsequent_indent(&indent)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .break_words(false);
    textwrap::fill(text, options)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn count(tally: Tally) -> String {
    format!(
        "{} and {}",
        plural(tally.errors, "error", "errors"),
        plural(tally.warnings, "warning", "warnings")
    )
}

/// One diagnostic as miette draws it, followed by a blank line.
pub(crate) fn render_diagnostic(diagnostic: &Diagnostic, style: &HumanStyle) -> String {
    let view = View::new(diagnostic, style.width);
    let mut text = String::new();
    let mut handler = style.handler();
    if !diagnostic.notes.is_empty() {
        // miette prints a footer after `help` and before related reports.
        let notes: Vec<String> = diagnostic
            .notes
            .iter()
            .map(|note| format!("note: {}", super::printable(note)))
            .collect();
        handler = handler.with_footer(notes.join("\n"));
    }
    if handler.render_report(&mut text, &view).is_err() {
        text = format!("{}: {}\n", diagnostic.code, diagnostic.message);
    }
    // miette pads its last lines; trailing spaces are noise in logs and snapshots.
    let mut trimmed: String = text
        .lines()
        .map(|line| line.trim_end().to_owned() + "\n")
        .collect();
    trimmed.push('\n');
    trimmed
}

/// A diagnostic as miette sees it: labels near the primary one are drawn on
/// its snippet; labels in other files, or too far away in the same file to
/// share a snippet (two places on one minified line), become related
/// reports, each with a snippet of its own.
struct View<'a> {
    diagnostic: &'a Diagnostic,
    code: String,
    source: Option<Snippets>,
    labels: Vec<&'a Label>,
    related: Vec<Related<'a>>,
}

impl<'a> View<'a> {
    fn new(diagnostic: &'a Diagnostic, width: usize) -> Self {
        let primary = diagnostic.primary();
        let near = |a: &Label, b: &Label| {
            Arc::ptr_eq(&a.file, &b.file) && a.span.start.abs_diff(b.span.start) <= NEAR
        };
        let mut labels = Vec::new();
        let mut related: Vec<Related> = Vec::new();
        for label in &diagnostic.labels {
            if primary.is_some_and(|primary| near(primary, label)) {
                labels.push(label);
                continue;
            }
            match related
                .iter_mut()
                .find(|r| r.labels.first().is_some_and(|first| near(first, label)))
            {
                Some(group) => group.labels.push(label),
                None => related.push(Related {
                    file: Arc::clone(&label.file),
                    labels: vec![label],
                    source: None,
                }),
            }
        }
        let source = primary.map(|primary| snippets(&primary.file, &labels, width));
        for group in &mut related {
            group.source = Some(snippets(&group.file, &group.labels, width));
        }
        View {
            diagnostic,
            code: format!("ctxguard::{}", diagnostic.code),
            source,
            labels,
            related,
        }
    }
}

/// `file` quoted to fit `width` with `labels` drawn under it: a label's
/// text is drawn from its middle, so the widest text is kept room for.
fn snippets(file: &Arc<SourceFile>, labels: &[&Label], width: usize) -> Snippets {
    // The line index answers how many lines there are without a scan.
    let (lines, _) = file.line_col(file.len());
    let columns = width.saturating_sub(GUTTER + lines.max(1).ilog10() as usize + 1);
    // A text longer than half the columns is wrapped instead.
    let reserve = labels
        .iter()
        .map(|label| LABEL_LEAD + super::printable(&label.message).chars().count())
        .max()
        .unwrap_or(0)
        .min(columns / 2);
    Snippets::new(Arc::clone(file), columns, reserve)
}

fn labeled<'a>(
    labels: &'a [&'a Label],
    source: &'a Snippets,
    primary: bool,
) -> Box<dyn Iterator<Item = LabeledSpan> + 'a> {
    Box::new(labels.iter().enumerate().map(move |(i, label)| {
        // A label wider than a quoted line could be is cut: it still shows
        // where its span starts.
        let most = source.columns().saturating_sub(2).max(MIN_LABEL);
        let file = &label.file;
        let start = label.span.start.min(file.len());
        let end = label.span.end.clamp(start, file.len());
        let mut width = 0;
        let cut = file
            .chars(start..end)
            .find(|&(_, c)| {
                width += ctxguard_core::source::column_width(c).max(1);
                width > most
            })
            .map_or(end, |(at, _)| at);
        let span = (start, cut - start);
        // The text, drawn from the label's middle, wrapped to what is left.
        let room = source
            .columns()
            .saturating_sub(source.label_middle(start, cut) + LABEL_LEAD)
            .max(MIN_LABEL_TEXT);
        let text = (!label.message.is_empty()).then(|| {
            let options = textwrap::Options::new(room)
                .word_separator(textwrap::WordSeparator::AsciiSpace)
                .word_splitter(textwrap::WordSplitter::NoHyphenation);
            textwrap::fill(&super::printable(&label.message), options)
        });
        if primary && i == 0 {
            LabeledSpan::new_primary_with_span(text, span)
        } else {
            LabeledSpan::new_with_span(text, span)
        }
    }))
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::printable(&self.diagnostic.message))
    }
}

impl std::error::Error for View<'_> {}

impl miette::Diagnostic for View<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic
            .help
            .as_ref()
            .map(|help| Box::new(super::printable(help)) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|source| source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let source = self.source.as_ref()?;
        (!self.labels.is_empty()).then(|| labeled(&self.labels, source, true))
    }

    fn related<'b>(&'b self) -> Option<Box<dyn Iterator<Item = &'b dyn miette::Diagnostic> + 'b>> {
        (!self.related.is_empty()).then(|| {
            Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic))
                as Box<dyn Iterator<Item = &'b dyn miette::Diagnostic>>
        })
    }
}

/// Labels of one diagnostic that stand in another file.
struct Related<'a> {
    file: Arc<SourceFile>,
    labels: Vec<&'a Label>,
    source: Option<Snippets>,
}

impl fmt::Debug for Related<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in {}", self.file.name())
    }
}

impl fmt::Display for Related<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "in `{}`", self.file.name())
    }
}

impl std::error::Error for Related<'_> {}

impl miette::Diagnostic for Related<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        Some(miette::Severity::Advice)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|source| source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(labeled(&self.labels, self.source.as_ref()?, false))
    }
}
