//! Reports: the only code that writes to standard output and standard
//! error. A command hands back a [`Report`]; [`emit`] writes it in the
//! format asked for, and [`Report::status`] says how the process exits.
//! Each format is one module that turns findings into text; none of them
//! reads a file or decides a verdict.

pub mod fleet;
mod github;
pub(crate) mod hook;
pub(crate) mod html;
mod human;
mod json;
mod sarif;
pub(crate) mod schema;
mod status;
#[cfg(test)]
mod stream_tests;

use serde::{Deserialize, Serialize};
use std::io::{self, IsTerminal, Write};

use ctxguard_core::buffer::document::InputFormat;
use ctxguard_core::buffer::plan::Plan;
use ctxguard_core::diagnostics::{Code, Diagnostic, UsageError};
use ctxguard_core::verify::{Folded, Stats, Verdict};

pub(crate) use human::render_diagnostic;
pub use human::HumanStyle;
pub use json::{JsonDiagnostic, JsonLabel, JsonReport};
pub use status::ExitStatus;

/// Most characters of a message, help or note that a text report shows.
const MAX_SHOWN: usize = 4000;

/// Text from a diagnostic as a text report shows it: at most [`MAX_SHOWN`]
/// characters, and every control character (but line ends and tabs) and
/// bidirectional control escaped, so no input reaches the terminal as a
/// command.
pub(crate) fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    ctxguard_core::source::escaped(text, MAX_SHOWN, " …", |c| c == '\n' || c == '\t')
}

/// An output format for findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// miette's report: coloured on a terminal, plain 80-column text elsewhere.
    Human,
    /// The JSON report, also the model the CI formats render from.
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

/// What a command found, ready to render.
#[derive(Debug)]
pub struct Report {
    /// Which command, and its result.
    pub subject: Subject,
    /// Every finding, in report order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Which command a report is from, with what it produced.
#[derive(Debug)]
pub enum Subject {
    /// `ctxguard check` over this many policy files and runtime configs.
    Check {
        /// Files checked, policies and configs.
        files: usize,
        /// Of them, runtime configs.
        configs: usize,
        /// `--fix`: what was fixed in each file, or the diffs (`--dry-run`).
        fixes: Vec<String>,
    },
    /// `ctxguard verify`; no verdict when an input could not be used.
    Verify(Option<(Verdict, Stats)>),
    /// `ctxguard plan`.
    Plan(Planned),
    /// `ctxguard fmt`.
    Fmt {
        /// Policy files read.
        files: usize,
        /// Files whose layout changed (written, or with `--check` diffed).
        changed: usize,
        /// `--check`: nothing was written.
        check: bool,
        /// Unified diffs of the changes, with `--check`.
        diffs: String,
    },
    /// A report saved with `--format json`, to render again.
    Saved(JsonReport),
    /// `ctxguard import`: the sessions read and the events written.
    Import(Vec<ImportedSession>),
    /// `ctxguard audit`: every compaction of every session audited.
    Audit {
        /// Every event, by session file and event number.
        events: Vec<ctxguard_runtimes::audit::EventAudit>,
        /// Sessions read.
        sessions: usize,
        /// The events were written as they came (`--format jsonl`): the
        /// report shows only what else it found.
        streamed: bool,
        /// List what each compaction set apart as not binding, not only
        /// count it.
        set_apart: bool,
        /// Every compaction's verdict counted, kept or streamed.
        tally: fleet::Verdicts,
        /// The sessions summed, when a fleet report was asked for.
        fleet: Option<Box<fleet::Fleet>>,
        /// Files below the folders named that were not read as sessions.
        skipped: Skipped,
    },
    /// Text printed as it is: `explain`, `schema`.
    Text(String),
}

/// Files below the folders an audit was given that it did not read as
/// sessions, counted so the report can say so.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// `.jsonl`, `.json` or `.traj` files that no runtime ctxguard reads wrote.
    pub not_sessions: usize,
    /// Files of other kinds, not opened.
    pub other_files: usize,
}

/// A session `ctxguard import` read.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ImportedSession {
    /// The session file, as named.
    pub file: String,
    /// `claude-code`, `codex`, `pi`, `openhands` or `swe-agent`.
    pub runtime: String,
    /// Whether the runtime was recognized from the content.
    pub detected: bool,
    /// One per compaction, in file order.
    pub events: Vec<ImportedEvent>,
}

/// One compaction `ctxguard import` wrote as a trace and a plan.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ImportedEvent {
    /// Which compaction (N, from 1: the folder `OUT/N/`), where, and its tokens.
    #[serde(flatten)]
    pub compaction: ctxguard_runtimes::import::Compaction,
    /// Regions of the trace (the buffer before).
    pub regions_in: usize,
    /// Regions of the plan (the buffer after).
    pub regions_out: usize,
    /// Commitments and unclassified regions in the trace.
    pub commitments: usize,
    /// Of those, how many the summary quotes exactly or the plan keeps.
    pub carried: usize,
    /// Of those, how many the user pinned when writing them; the others
    /// were classified after the fact.
    pub pinned: usize,
    /// The summary is encrypted: nothing it says can be checked.
    pub opaque: bool,
    /// The folder the trace and plan were written to.
    pub out: String,
    /// What the importer could not be sure of.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// What `ctxguard plan` produced.
#[derive(Debug)]
pub enum Planned {
    /// A plan that verifies as compact, to write in this format; the
    /// warnings of each code past the limit, counted.
    Written(Plan, InputFormat, Vec<Folded>),
    /// No plan fits the budget: a person must decide.
    Escalated,
    /// The trace cannot be compacted safely, or an input or the summarizer failed.
    Failed,
}

impl Report {
    /// A report of text printed as it is, exit 0.
    pub fn text(text: impl Into<String>) -> Report {
        Report {
            subject: Subject::Text(text.into()),
            diagnostics: Vec::new(),
        }
    }

    /// The exit status of the command that made this report: the one
    /// mapping, `ExitStatus::of`, for every command.
    pub fn status(&self) -> ExitStatus {
        let findings = self.diagnostics.iter().map(|d| (Some(d.code), d.severity));
        match &self.subject {
            Subject::Verify(outcome) => ExitStatus::of(
                outcome.as_ref().map(|(verdict, _)| *verdict),
                outcome.is_none(),
                findings,
            ),
            Subject::Plan(Planned::Written(..)) => {
                ExitStatus::of(Some(Verdict::Compact), false, findings)
            }
            Subject::Plan(Planned::Escalated) => {
                ExitStatus::of(Some(Verdict::Escalate), false, findings)
            }
            Subject::Plan(Planned::Failed) => ExitStatus::of(None, true, findings),
            Subject::Fmt { changed, check, .. } => {
                let changes = (*check && *changed > 0).then_some((None, crate::Severity::Error));
                ExitStatus::of(None, false, findings.chain(changes))
            }
            Subject::Check { .. } | Subject::Import(_) | Subject::Text(_) => {
                ExitStatus::of(None, false, findings)
            }
            Subject::Audit { tally, .. } => {
                // A compaction that lost, altered or invented anything fails
                // the audit; one that cannot be judged needs a person (3).
                let failed = tally.lost > 0;
                let status = ExitStatus::of(
                    None,
                    false,
                    findings.chain(failed.then_some((None, crate::Severity::Error))),
                );
                let unauditable = tally.unauditable > 0;
                if status == ExitStatus::Success && unauditable {
                    ExitStatus::Escalate
                } else {
                    status
                }
            }
            Subject::Saved(saved) => {
                let findings = saved.diagnostics.iter().map(|d| {
                    let severity = if d.severity == "error" {
                        crate::Severity::Error
                    } else {
                        crate::Severity::Warning
                    };
                    (Code::from_name(&d.code), severity)
                });
                // A saved verify report without a verdict: an input was unusable.
                let unusable = saved.verdict.is_none() && saved.files.is_none();
                ExitStatus::of(saved.verdict, unusable, findings)
            }
        }
    }
}

/// Where output goes: whether stdout and stderr are terminals, and the
/// style of human output on each.
#[derive(Clone, Copy, Debug)]
pub struct Terminal {
    /// Human output on standard output.
    pub stdout: HumanStyle,
    /// Human output on standard error.
    pub stderr: HumanStyle,
}

impl Terminal {
    /// Colour (unless `color` is false: `NO_COLOR` is set) and the
    /// terminal's width where a stream is a terminal, plain 80-column text
    /// elsewhere. `columns` (`COLUMNS`, as clap reads it for `--help`) comes
    /// before the width the terminal reports.
    pub fn detect(color: bool, columns: Option<usize>) -> Terminal {
        let style = |terminal: bool, size: Option<(terminal_size::Width, _)>| {
            if terminal {
                HumanStyle {
                    color,
                    width: columns
                        .or(size.map(|(width, _)| usize::from(width.0)))
                        .unwrap_or(80)
                        .max(40),
                }
            } else {
                HumanStyle::plain()
            }
        };
        Terminal {
            stdout: style(
                io::stdout().is_terminal(),
                terminal_size::terminal_size_of(io::stdout()),
            ),
            stderr: style(
                io::stderr().is_terminal(),
                terminal_size::terminal_size_of(io::stderr()),
            ),
        }
    }
}

/// Writes `report` in `format` to standard output (a plan or a diff goes
/// there too, with its diagnostics on standard error) and returns the exit
/// status. Output that cannot be written is an error, exit 2; a reader that
/// closed the pipe early is not.
pub fn emit(report: &Report, format: Format, terminal: &Terminal) -> ExitStatus {
    let written = {
        // Standard output flushes at every line it is given; a report of
        // many findings is written in blocks instead.
        let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
        write(report, format, terminal, &mut out).and_then(|()| out.flush())
    };
    match written {
        Ok(()) => report.status(),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => report.status(),
        Err(error) if error.kind() == io::ErrorKind::Unsupported => {
            usage_error(&UsageError(error.to_string()))
        }
        Err(error) => usage_error(&ctxguard_core::diagnostics::usage::cannot_write_output(
            error,
        )),
    }
}

/// The one line `check` and `fmt` say when they found nothing to report,
/// for a person at a terminal: what was checked, what changed.
pub fn success_line(report: &Report) -> Option<String> {
    if !report.diagnostics.is_empty() {
        return None;
    }
    let files = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match &report.subject {
        Subject::Check {
            files: n, configs, ..
        } => Some(match configs {
            0 => format!("checked {}: no problems", files(*n, "policy file")),
            c => format!(
                "checked {} and {}: no problems",
                files(n - c, "policy file"),
                files(*c, "runtime config")
            ),
        }),
        Subject::Fmt {
            files: n,
            changed,
            check: false,
            ..
        } => Some(format!(
            "formatted {}: {changed} changed",
            files(*n, "policy file")
        )),
        Subject::Fmt {
            files: n,
            changed: 0,
            check: true,
            ..
        } => Some(format!("{} already formatted", files(*n, "policy file"))),
        _ => None,
    }
}

/// Says why a command line cannot be carried out, on standard error: exit 2.
pub fn usage_error(error: &UsageError) -> ExitStatus {
    let _ = writeln!(io::stderr().lock(), "error: {error}");
    ExitStatus::Usage
}

/// Renders `report` to `out`; diagnostics beside a plan or a diff go to
/// standard error.
pub fn write(
    report: &Report,
    format: Format,
    terminal: &Terminal,
    out: &mut dyn Write,
) -> io::Result<()> {
    match &report.subject {
        // The events went to stdout as they came; findings go beside them.
        Subject::Audit { streamed: true, .. } => {
            write_diagnostics(&report.diagnostics, &terminal.stderr)
        }
        Subject::Check { .. } | Subject::Verify(_) | Subject::Import(_) | Subject::Audit { .. } => {
            render(report, format, &terminal.stdout, out)
        }
        Subject::Saved(_) => render(report, format, &terminal.stdout, out),
        Subject::Plan(planned) => {
            write_diagnostics(&report.diagnostics, &terminal.stderr)?;
            match planned {
                Planned::Written(plan, plan_format, folded) => {
                    let notes = human::folded_notes(folded, terminal.stderr.width);
                    io::stderr().lock().write_all(notes.as_bytes())?;
                    plan.write(*plan_format, out)
                }
                Planned::Escalated | Planned::Failed => Ok(()),
            }
        }
        Subject::Fmt { diffs, .. } => {
            out.write_all(diffs.as_bytes())?;
            // The diffs stand before the diagnostics after them.
            out.flush()?;
            write_diagnostics(&report.diagnostics, &terminal.stderr)
        }
        Subject::Text(text) => out.write_all(text.as_bytes()),
    }
}

/// Diagnostics beside output that goes to stdout (a plan, a diff) go to stderr.
fn write_diagnostics(diagnostics: &[Diagnostic], style: &HumanStyle) -> io::Result<()> {
    let mut err = io::stderr().lock();
    for diagnostic in diagnostics {
        err.write_all(render_diagnostic(diagnostic, style).as_bytes())?;
    }
    Ok(())
}

/// Renders the findings of `check` or `verify` in `format`.
///
/// ```
/// use ctxguard::{render, verify_files, Format, HumanStyle, VerifyRequest};
///
/// let report = verify_files(&VerifyRequest {
///     trace: "tests/scenarios/migration/trace.yaml".into(),
///     plan: "tests/scenarios/migration/plan-constraint-evaporated.yaml".into(),
///     ..VerifyRequest::default()
/// });
/// let mut out = Vec::new();
/// render(&report, Format::Json, &HumanStyle::plain(), &mut out).expect("written");
/// let json: serde_json::Value = serde_json::from_slice(&out).expect("JSON");
/// assert_eq!(json["verdict"], "reject");
/// assert_eq!(report.status().code(), 1);
/// ```
pub fn render(
    report: &Report,
    format: Format,
    style: &HumanStyle,
    out: &mut dyn Write,
) -> io::Result<()> {
    match (format, &report.subject) {
        (Format::Human, Subject::Saved(saved)) => human::render(&saved.revived()?, style, out),
        (Format::Human, _) => human::render(report, style, out),
        (other, _) => render_saved(&JsonReport::new(report), other, out),
    }
}

/// Renders a report as saved by `--format json`: JSON again, SARIF, GitHub
/// commands, or the human report without snippets (a saved report holds
/// where each finding is, not the text there), in plain style.
pub fn render_saved(report: &JsonReport, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => json::render(report, out),
        Format::Sarif => sarif::render(report, out),
        Format::Github => github::render(report, out),
        Format::Human => human::render(&report.revived()?, &HumanStyle::plain(), out),
    }
}

/// Writes one audited compaction as a line of JSON to standard output, at
/// once: `audit --format jsonl` streams a folder's events as they come.
pub fn write_audit_line(event: &ctxguard_runtimes::audit::EventAudit) -> io::Result<()> {
    let line = serde_json::to_string(event).map_err(io::Error::other)?;
    let mut out = io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}

/// Whether the audit's HTML page may be written to `path` (see
/// [`write_html`]), asked before an audit starts so a long one is not run
/// for nothing.
pub fn html_target(path: &std::path::Path) -> io::Result<()> {
    ours_or_absent(
        path,
        html::is_page,
        "it is not a page `ctxguard audit --html` wrote",
    )
}

/// `Ok` when `path` holds nothing, or a file whose first 512 bytes `ours`
/// knows for one ctxguard wrote (never read through a link); otherwise
/// the refusal, `what` it is not.
fn ours_or_absent(
    path: &std::path::Path,
    ours: impl Fn(&str) -> bool,
    what: &str,
) -> io::Result<()> {
    if let Some((mut file, _)) = ctxguard_core::source::read::open_no_follow(path)? {
        let mut head = Vec::new();
        io::Read::read_to_end(&mut io::Read::take(&mut file, 512), &mut head)?;
        if !ours(&String::from_utf8_lossy(&head)) {
            return Err(io::Error::other(format!(
                "{what}, and ctxguard never overwrites a file it did not write; name a new file"
            )));
        }
    }
    Ok(())
}

/// Writes a report ctxguard makes (a page, a summary) through the one
/// write function, no backup kept.
fn write_report(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    ctxguard_core::source::write::write_file(
        path,
        bytes,
        ctxguard_core::source::write::Backup::None,
    )
    .map(|_| ())
    .map_err(|e| io::Error::other(e.reason))
}

/// Writes the audit's HTML page to `path`: a new file, or one an earlier
/// audit wrote. Any other file (a session, a policy, anything the user
/// keeps there) is refused unwritten: ctxguard never overwrites a file it
/// did not write.
pub fn write_html(
    path: &std::path::Path,
    events: &[ctxguard_runtimes::audit::EventAudit],
) -> io::Result<()> {
    html_target(path)?;
    write_report(path, html::page(events).as_bytes())
}

/// What `audit --fleet-report FILE` writes, by `FILE`'s extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FleetFormat {
    /// `.html`: the page, and the worst sessions' audits beside it.
    Html,
    /// `.json`: the summary.
    Json,
}

impl FleetFormat {
    /// The format `path` names; `None` for an extension that names none.
    pub fn of(path: &std::path::Path) -> Option<FleetFormat> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "html" | "htm" => Some(FleetFormat::Html),
            "json" => Some(FleetFormat::Json),
            _ => None,
        }
    }
}

/// Refuses, before any work, a fleet report target that holds a file
/// ctxguard did not write: a page or summary an earlier run wrote may be
/// replaced, nothing else.
pub fn fleet_target(path: &std::path::Path) -> io::Result<FleetFormat> {
    let format = FleetFormat::of(path).ok_or_else(|| {
        io::Error::other("a fleet report is `.html` (the page) or `.json` (the summary); name a file ending in one of them")
    })?;
    let ours = |head: &str| match format {
        FleetFormat::Html => fleet::is_page(head),
        FleetFormat::Json => head.trim_start().starts_with('{') && head.contains(fleet::FORMAT),
    };
    ours_or_absent(path, ours, "it is not a fleet report ctxguard wrote")?;
    Ok(format)
}

/// Writes the fleet report to `path`: the summary as JSON, or the page;
/// beside a page (unless `redact`), the audit page of each worst session
/// in the folder `NAME-sessions/`, which the page links to.
pub fn write_fleet_report(
    path: &std::path::Path,
    fleet: &fleet::Fleet,
    redact: bool,
) -> io::Result<()> {
    let format = fleet_target(path)?;
    let summary = fleet.summary(redact);
    let bytes = match format {
        FleetFormat::Json => {
            serde_json::to_string_pretty(&summary).map_err(io::Error::other)? + "\n"
        }
        FleetFormat::Html => {
            let mut links = Vec::new();
            if !redact {
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let folder_name = format!("{stem}-sessions");
                let folder = path.with_file_name(&folder_name);
                for (n, (_, events)) in fleet.worst_audits().into_iter().enumerate() {
                    if n == 0 {
                        report_folder(&folder)?;
                    }
                    let name = format!("{:02}.html", n + 1);
                    let page = folder.join(&name);
                    write_html(&page, events)?;
                    links.push(format!("{folder_name}/{name}"));
                }
            }
            fleet::page(&summary, &links)
        }
    };
    write_report(path, bytes.as_bytes())
}

/// Makes `folder` for reports, or takes it as it is: a folder, not a link
/// to one.
fn report_folder(folder: &std::path::Path) -> io::Result<()> {
    match std::fs::symlink_metadata(folder) {
        Ok(metadata) if metadata.file_type().is_dir() => Ok(()),
        Ok(_) => Err(io::Error::other(format!(
            "`{}` is there and is not a folder; ctxguard writes the sessions' pages only into a folder of its own",
            folder.display()
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir(folder),
        Err(e) => Err(e),
    }
}

/// A progress bar of sessions on standard error, drawn only when it is a
/// terminal and there is more than one session.
pub struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    /// A bar on standard error, if it is a terminal.
    pub fn on_terminal() -> Progress {
        let bar = if io::stderr().is_terminal() {
            indicatif::ProgressBar::new(0)
        } else {
            indicatif::ProgressBar::hidden()
        };
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} sessions {per_sec} {eta}")
        {
            bar.set_style(style);
        }
        Progress { bar }
    }

    /// No bar: for embedders and tests.
    pub fn hidden() -> Progress {
        Progress {
            bar: indicatif::ProgressBar::hidden(),
        }
    }

    /// `total` sessions are to be read.
    pub fn start(&self, total: usize) {
        if total < 2 {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        self.bar.set_length(total as u64);
    }

    /// One more session read.
    pub fn advance(&self) {
        self.bar.inc(1);
    }

    /// All read: the bar goes.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
