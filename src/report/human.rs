//! Human output: miette's graphical report. On a terminal it has colour and
//! the terminal's width; anywhere else it is plain, 80 columns wide and
//! byte-for-byte deterministic, which is also what the snapshots show.

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::{Report, Subject};
use crate::diagnostics::{Diagnostic, Label, Severity, Tally};
use crate::source::SourceFile;

/// Widest label, in bytes.
const MAX_LABEL: usize = 160;

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
            // Warnings past each code's limit were counted, not shown.
            for fold in &stats.folded {
                let total = fold.shown + fold.more;
                let at_least = if fold.complete { "" } else { "at least " };
                writeln!(
                    out,
                    "note: {} of {at_least}{total} `{}` warnings shown; `--all-warnings` shows every one",
                    fold.shown, fold.code
                )?;
            }
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
            writeln!(
                out,
                "verdict: {} ({counted}); {} tokens before, {} after{budget}",
                verdict.name(),
                stats.tokens_before,
                stats.tokens_after
            )?;
        }
        Subject::Verify(None) => writeln!(out, "no verdict: {}", count(tally))?,
        Subject::Import(sessions) => {
            for session in sessions {
                imported(session, out)?;
            }
        }
        Subject::Audit { streamed: true, .. } => {}
        Subject::Audit {
            events, sessions, ..
        } => audited(events, *sessions, out)?,
        Subject::Plan(_) | Subject::Fmt { .. } | Subject::Saved(_) | Subject::Text(_) => {}
    }
    Ok(())
}

/// One line for the session, then one per compaction.
fn imported(session: &super::ImportedSession, out: &mut dyn Write) -> io::Result<()> {
    let how = if session.detected {
        "recognized from its records"
    } else {
        "as asked"
    };
    let file = crate::source::escaped(&session.file, 200, "…", |_| false);
    if session.events.is_empty() {
        return writeln!(
            out,
            "{file}: {} ({how}): no compaction; nothing written",
            session.runtime
        );
    }
    writeln!(
        out,
        "{file}: {} ({how}): {}",
        session.runtime,
        plural(session.events.len(), "compaction", "compactions")
    )?;
    for event in &session.events {
        let tokens = match (
            event.compaction.tokens_before,
            event.compaction.tokens_after,
        ) {
            (Some(before), Some(after)) => format!("{before} -> {after} tok"),
            (Some(before), None) => format!("{before} tok before"),
            (None, Some(after)) => format!("{after} tok after"),
            (None, None) => "no tok count".to_owned(),
        };
        let carried = if event.opaque {
            "summary encrypted".to_owned()
        } else {
            format!(
                "{}/{} commitments carried",
                event.carried, event.commitments
            )
        };
        writeln!(
            out,
            "  {}  line {}  {}  {tokens}  {} -> {} regions  {carried}  {}",
            event.compaction.event,
            event.compaction.compaction_line,
            event.compaction.trigger.as_deref().unwrap_or("-"),
            event.regions_in,
            event.regions_out,
            event.out
        )?;
        for note in &event.notes {
            writeln!(out, "{}", wrapped("     note: ", note))?;
        }
    }
    if session.events.iter().all(|event| event.pinned == 0) {
        let note = "nothing in this session is pinned (`pin KIND [KEY]: TEXT`): its commitments were classified after the fact, from hints and sentences, so what it finds are candidates, not proofs";
        writeln!(out, "{}", wrapped("  note: ", note))?;
    }
    Ok(())
}

/// Per event: the verdict and the counts, then each commitment that was not
/// kept byte for byte, with its line and the evidence, and each invented
/// requirement; with more than one session, a table at the end.
fn audited(
    events: &[crate::audit::EventAudit],
    sessions: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    use crate::audit::Outcome;
    for event in events {
        let file = crate::source::escaped(&event.source_file, 200, "…", |_| false);
        let counts: Vec<String> = Outcome::ALL
            .iter()
            .map(|&o| (o, event.count(o)))
            .filter(|&(o, n)| n > 0 || matches!(o, Outcome::Verbatim | Outcome::Lost))
            .map(|(o, n)| format!("{n} {}", o.name()))
            .collect();
        writeln!(
            out,
            "{file}: compaction {} (line {}, {}): verdict {}",
            event.compaction.event,
            event.compaction.compaction_line,
            event.runtime,
            event.verdict.name()
        )?;
        writeln!(
            out,
            "  {}: {}; {} invented",
            plural(
                event.commitments.len(),
                "user commitment",
                "user commitments"
            ),
            counts.join(", "),
            event.invented.len()
        )?;
        for commitment in &event.commitments {
            if matches!(commitment.outcome, Outcome::Verbatim | Outcome::Unauditable) {
                continue;
            }
            let line = commitment
                .source_line
                .map_or(String::new(), |l| format!("line {l}"));
            let text = crate::diagnostics::codes::echo(&commitment.text);
            writeln!(
                out,
                "  {:<11} {line:<10} {}: \"{text}\"",
                commitment.outcome.name(),
                commitment.kind
            )?;
            if let Some(evidence) = &commitment.evidence {
                let sentence = crate::diagnostics::codes::echo(&evidence.sentence);
                writeln!(
                    out,
                    "              closest ({:.2}): \"{sentence}\"",
                    evidence.similarity
                )?;
                // What the closest sentence changes says why a commitment is
                // altered; beside a lost one it is noise.
                let changes = match commitment.outcome {
                    Outcome::Altered => evidence.changes.as_slice(),
                    _ => &[],
                };
                for change in changes {
                    writeln!(out, "              {change}")?;
                }
                if let Some(diff) = &evidence.diff {
                    writeln!(out, "{}", wrapped("              words: ", diff))?;
                }
            }
        }
        for invented in &event.invented {
            let text = crate::diagnostics::codes::echo(&invented.text);
            writeln!(
                out,
                "  invented    line {:<5} the summary says \"{text}\"; no user text before it says so (support {:.2})",
                invented.line, invented.support
            )?;
        }
        if event.pinned == 0 {
            writeln!(out, "{}", wrapped("  note: ", "nothing here was pinned: commitments were classified after the fact, so these are candidates, not proofs"))?;
        }
        writeln!(out)?;
    }
    if sessions > 1 || events.len() > 1 {
        writeln!(out, "{:<12} {:>8}", "outcome", "count")?;
        for outcome in Outcome::ALL {
            let n: usize = events.iter().map(|e| e.count(outcome)).sum();
            writeln!(out, "{:<12} {n:>8}", outcome.name())?;
        }
        let invented: usize = events.iter().map(|e| e.invented.len()).sum();
        writeln!(out, "{:<12} {invented:>8}", "invented")?;
        writeln!(
            out,
            "{} and {} audited",
            plural(sessions, "session", "sessions"),
            plural(events.len(), "compaction", "compactions")
        )?;
    }
    Ok(())
}

/// A note under an event, wrapped at 80 columns below its label.
fn wrapped(label: &str, note: &str) -> String {
    let indent = " ".repeat(label.len());
    let options = textwrap::Options::new(80)
        .initial_indent(label)
        .subsequent_indent(&indent)
        .word_separator(textwrap::WordSeparator::AsciiSpace);
    textwrap::fill(note, options)
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
    let view = View::new(diagnostic);
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
    file: Option<Arc<SourceFile>>,
    labels: Vec<&'a Label>,
    related: Vec<Related<'a>>,
}

impl<'a> View<'a> {
    fn new(diagnostic: &'a Diagnostic) -> Self {
        let primary = diagnostic.primary();
        let file = primary.map(|label| Arc::clone(&label.file));
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
                }),
            }
        }
        View {
            diagnostic,
            code: format!("ctxguard::{}", diagnostic.code),
            file,
            labels,
            related,
        }
    }
}

fn labeled<'a>(
    labels: &'a [&'a Label],
    primary: bool,
) -> Box<dyn Iterator<Item = LabeledSpan> + 'a> {
    Box::new(labels.iter().enumerate().map(move |(i, label)| {
        let text =
            (!label.message.is_empty()).then(|| super::printable(&label.message).into_owned());
        // A label is drawn under its text; past a few lines of width it says nothing more.
        let source = label.file.text();
        let mut end = label
            .span
            .end
            .min(label.span.start + MAX_LABEL)
            .min(source.len());
        while !source.is_char_boundary(end) {
            end -= 1;
        }
        let span = (label.span.start, end.saturating_sub(label.span.start));
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
        self.file.as_deref().map(|file| file as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        (!self.labels.is_empty()).then(|| labeled(&self.labels, true))
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
        Some(&*self.file as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(labeled(&self.labels, false))
    }
}
