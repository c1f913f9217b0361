//! `ctxguard audit`: what each compaction of real sessions did to what
//! the user said.

use std::path::PathBuf;

use clap::ValueEnum;
use ctxguard::{audit, fleet, usage, Format, Subject, UsageError};

use super::args::{read_from, AccessArgs, ReadFrom};
use super::{Env, Said};

/// Audit what each compaction of real sessions did to what the user
/// said: for each user commitment, verbatim, paraphrased, altered or
/// lost, and what the summary invented. A folder: every session below
/// it, on all cores.
///
/// Exit 0: nothing altered, lost or invented; 1: something was; 2: a
/// file named cannot be read or is no session; 3: nothing was lost that
/// can be seen, but a compaction could not be audited (an encrypted or
/// missing summary).
#[derive(clap::Args)]
pub struct Args {
    /// Session files, and folders to search for them.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The runtime that wrote them; `auto` recognizes each.
    #[arg(long, default_value = "auto", value_parser = read_from())]
    pub from: ReadFrom,
    /// The team policy: kinds, hints, severities.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// `jsonl`: one line of JSON per compaction, as each is audited.
    #[arg(long, value_enum, default_value_t = AuditFormatArg::Human)]
    pub format: AuditFormatArg,
    /// Also write the audit as one self-contained HTML page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write what compaction did across all the sessions: by
    /// commitment kind, identifier sort, runtime and version, trigger,
    /// compaction number and day. `FILE.html`: a page with charts and
    /// filters (and the worst sessions' audits beside it);
    /// `FILE.json`: the summary (`ctxguard schema fleet`).
    #[arg(long, value_name = "FILE")]
    pub fleet_report: Option<PathBuf>,
    /// With `--fleet-report`: no user text and no file name in it, to
    /// share beyond the people whose sessions it shows.
    #[arg(long, requires = "fleet_report")]
    pub redact: bool,
    /// List, per compaction, what the user typed that does not bind
    /// (questions, acknowledgements, remarks, pasted output), not only
    /// count it.
    #[arg(long)]
    pub set_apart: bool,
    #[command(flatten)]
    pub access: AccessArgs,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let stream = self.format == AuditFormatArg::Jsonl;
        let request = audit::Request {
            paths: self.paths,
            from: self.from.0,
            policy: self.policy,
            access: self.access.access(),
            stream: stream && self.html.is_none(),
            fleet: self.fleet_report.is_some(),
            fleet_pages: !self.redact
                && self.fleet_report.as_deref().and_then(fleet::Format::of)
                    == Some(fleet::Format::Html),
        };
        // Both pages are refused before any session is read.
        if let Some(page) = &self.html {
            ctxguard::html_target(page).map_err(|error| usage::cannot_write(page, error))?;
        }
        if let Some(target) = &self.fleet_report {
            fleet::target(target).map_err(|error| usage::cannot_write(target, error))?;
        }
        let progress = ctxguard::Progress::on_terminal();
        let on_event = |event: &audit::EventAudit| {
            if stream {
                // A closed pipe ends the stream; the report says the rest.
                let _ = ctxguard::write_audit_line(event);
            }
        };
        let mut report = audit::audit_paths(&request, &on_event, &progress);
        progress.finish();
        if let Subject::Audit { set_apart, .. } = &mut report.subject {
            *set_apart = self.set_apart;
        }
        if let (Some(path), Subject::Audit { events, .. }) = (&self.html, &report.subject) {
            ctxguard::write_html(path, events).map_err(|error| usage::cannot_write(path, error))?;
        }
        if let (
            Some(path),
            Subject::Audit {
                fleet: Some(fleet), ..
            },
        ) = (&self.fleet_report, &report.subject)
        {
            fleet::write(path, fleet, self.redact)
                .map_err(|error| usage::cannot_write(path, error))?;
        }
        Ok(match self.format {
            AuditFormatArg::Human => Said::report(report, Format::Human),
            AuditFormatArg::Json => Said::report(report, Format::Json),
            AuditFormatArg::Jsonl => {
                // The events are out; what remains is the findings, on stderr.
                if let Subject::Audit { streamed, .. } = &mut report.subject {
                    *streamed = true;
                }
                Said::report(report, Format::Human)
            }
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormatArg {
    Human,
    Json,
    Jsonl,
}
