//! `ctxguard audit`: import each session named (a folder: every session
//! file below it, on all cores) and audit each compaction in it.

use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::report::fleet::{Fleet, Verdicts};
use crate::report::{Progress, Report, Skipped, Subject};
use ctxguard_core::diagnostics::Diagnostic;
use ctxguard_core::facts::Runtime;
use ctxguard_core::policy::load::policy_for_use;
use ctxguard_core::source::Access;
use ctxguard_runtimes::audit::{self, EventAudit};
use ctxguard_runtimes::import;

/// One session's events and the problems of reading it; `None` for a file
/// in a folder that is no session.
type Audited = Result<Option<(Vec<EventAudit>, Vec<Diagnostic>)>, Box<Diagnostic>>;

/// What each thread of an audit gathers: the fleet of its sessions, and
/// each session's result with its place in the list.
type Gathered = (Fleet, Verdicts, Vec<(usize, Audited)>);

/// What `ctxguard audit` was asked to read.
#[derive(Clone, Debug, Default)]
pub struct AuditRequest {
    /// Session files, and folders to search for them.
    pub paths: Vec<PathBuf>,
    /// The runtime that wrote them; `None`: recognize each from its content.
    pub from: Option<Runtime>,
    /// The team policy: kinds, hints, severities. `None`: the default.
    pub policy: Option<PathBuf>,
    /// What may be read.
    pub access: Access,
    /// Hand each event to the caller as it comes and keep none in the
    /// report (`--format jsonl`): memory stays by the session, not the
    /// fleet.
    pub stream: bool,
    /// Sum the sessions into a [`Fleet`] (`--fleet-report`), with the
    /// audits of its worst sessions when `fleet_pages` is set too.
    pub fleet: bool,
    /// With `fleet`, keep the worst sessions' audits to write their pages.
    pub fleet_pages: bool,
}

/// Audits every session: the report, with every event (none when the
/// request streams them), every verdict counted and, when asked, the
/// fleet summed. `on_event` sees each event as soon as its session is
/// audited (in no set order), so a caller can stream them; `progress` is
/// told how many sessions there are and when each is done. Each thread
/// sums the sessions it audits into a fleet of its own, and the fleets
/// merge.
pub fn audit_paths(
    request: &AuditRequest,
    on_event: &(dyn Fn(&EventAudit) + Sync),
    progress: &Progress,
) -> Report {
    let report = |diagnostics, events, sessions, tally, fleet, skipped| Report {
        subject: Subject::Audit {
            events,
            sessions,
            streamed: false,
            set_apart: false,
            tally,
            fleet,
            skipped,
        },
        diagnostics,
    };
    let (policy, mut diagnostics) = match policy_for_use(request.policy.as_deref(), &request.access)
    {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            let (events, tally) = (Vec::new(), Verdicts::default());
            return report(diagnostics, events, 0, tally, None, Skipped::default());
        }
    };
    let (files, named, unreadable, other_files) = sessions(&request.paths);
    diagnostics.extend(unreadable);
    progress.start(files.len());
    let empty = || -> Gathered {
        (
            Fleet::new(request.fleet_pages),
            Verdicts::default(),
            Vec::new(),
        )
    };
    // The largest sessions first, each taken by the next thread free: the
    // last to finish are the smallest, so no core waits long on another.
    let mut order: Vec<(usize, &PathBuf, u64)> = files
        .iter()
        .enumerate()
        .map(|(at, path)| (at, path, std::fs::metadata(path).map_or(0, |m| m.len())))
        .collect();
    order.sort_by_key(|&(at, _, len)| (std::cmp::Reverse(len), at));
    // More than one session: one thread compiles the judgment's patterns
    // while the others start on the largest sessions.
    let many = order.len() > 1;
    let (_, (fleet, tally, mut results)) = rayon::join(
        || {
            if many {
                audit::prepare()
            }
        },
        || {
            order
                .into_iter()
                .par_bridge()
                .fold(
                    empty,
                    |(mut fleet, mut tally, mut results), (at, path, _)| {
                        let mut result = audit_file(&policy, path, request, named.contains(path));
                        if let Ok(Some((events, _))) = &mut result {
                            events.iter().for_each(on_event);
                            events.iter().for_each(|e| tally.count(e.verdict));
                            if request.fleet {
                                fleet.add_session(&path.display().to_string(), events);
                            }
                            if request.stream {
                                *events = Vec::new();
                            }
                        }
                        progress.advance();
                        results.push((at, result));
                        (fleet, tally, results)
                    },
                )
                .reduce(
                    empty,
                    |(mut fleet, mut tally, mut results), (more, counted, found)| {
                        fleet.merge(more);
                        tally.merge(&counted);
                        results.extend(found);
                        (fleet, tally, results)
                    },
                )
        },
    );
    results.sort_by_key(|(at, _)| *at);
    let mut events = Vec::new();
    let mut sessions = 0;
    let mut skipped = Skipped {
        not_sessions: 0,
        other_files,
    };
    for (_, result) in results {
        match result {
            Ok(None) => skipped.not_sessions += 1,
            Ok(Some((found, problems))) => {
                sessions += 1;
                events.extend(found);
                diagnostics.extend(problems);
            }
            Err(diagnostic) => diagnostics.push(*diagnostic),
        }
    }
    let fleet = request.fleet.then(|| Box::new(fleet));
    report(diagnostics, events, sessions, tally, fleet, skipped)
}

/// The files to audit, in path order: those named, and below each folder
/// every `.jsonl`, `.json` and `.traj` file (links out of it not followed);
/// what below a folder could not be read; and how many files below the
/// folders were of other kinds.
fn sessions(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<PathBuf>, Vec<Diagnostic>, usize) {
    let mut files = Vec::new();
    let mut named = Vec::new();
    let mut unreadable = Vec::new();
    let mut other_files = 0;
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            named.push(path.clone());
            continue;
        }
        let walk = ignore::WalkBuilder::new(path)
            .standard_filters(false)
            .follow_links(false)
            .build();
        let mut found: Vec<PathBuf> = walk
            .filter_map(|entry| {
                entry
                    .map_err(|error| unreadable.push(super::unreadable_below(path, &error)))
                    .ok()
            })
            .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
            .map(|entry| entry.into_path())
            .filter(|p| {
                let read =
                    (p.extension()).is_some_and(|e| e == "jsonl" || e == "json" || e == "traj");
                other_files += usize::from(!read);
                read
            })
            .collect();
        found.sort();
        files.extend(found);
    }
    (files, named, unreadable, other_files)
}

/// One session: its events audited, and what could not be read. A file
/// found in a folder that is no session is skipped quietly; one named is
/// an error.
fn audit_file(
    policy: &ctxguard_core::policy::Policy,
    path: &Path,
    request: &AuditRequest,
    named: bool,
) -> Audited {
    let file = ctxguard_core::source::read::read_session(path, &request.access)?;
    let session = match import::import(&file, request.from) {
        Ok(session) => session,
        Err(_) if !named => return Ok(None),
        Err(diagnostic) => return Err(diagnostic),
    };
    let events = audit::audit(policy, &session);
    Ok(Some((events, session.problems)))
}
