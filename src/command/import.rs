//! `ctxguard import`: a runtime's session file to one trace and one plan
//! per compaction, written to `OUT/N/trace.json` and `OUT/N/plan.json`.

use std::path::{Path, PathBuf};

use crate::report::{ImportedEvent, ImportedSession, Report, Subject};
use ctxguard_core::buffer::document::InputFormat;
use ctxguard_core::diagnostics::codes::import as codes;
use ctxguard_core::diagnostics::usage::cannot_write;
use ctxguard_core::diagnostics::{Diagnostic, UsageError};
use ctxguard_core::facts::Runtime;
use ctxguard_core::policy::load::policy_for_use;
use ctxguard_core::source::Access;
use ctxguard_runtimes::import;

/// What `ctxguard import` was asked to read and where to write.
#[derive(Clone, Debug, Default)]
pub struct ImportRequest {
    /// The session file.
    pub session: PathBuf,
    /// The runtime that wrote it; `None`: recognize it from its content.
    pub from: Option<Runtime>,
    /// The folder to write `N/trace.json` and `N/plan.json` into.
    pub out: PathBuf,
    /// The policy whose kinds and hints classify user text; `None`: the default.
    pub policy: Option<PathBuf>,
    /// What may be read.
    pub access: Access,
}

/// Imports the session and writes each compaction's trace and plan.
pub fn import_file(request: &ImportRequest) -> Result<Report, UsageError> {
    let report = |diagnostics: Vec<Diagnostic>, sessions| Report {
        subject: Subject::Import(sessions),
        diagnostics,
    };
    let (policy, mut diagnostics) = match policy_for_use(request.policy.as_deref(), &request.access)
    {
        Ok(loaded) => loaded,
        Err(diagnostics) => return Ok(report(diagnostics, Vec::new())),
    };
    let file = match ctxguard_core::source::read::read_session(&request.session, &request.access) {
        Ok(file) => file,
        Err(unread) => return Ok(report(vec![Diagnostic::from(*unread)], Vec::new())),
    };
    let session = match import::import(&file, request.from) {
        Ok(session) => session,
        Err(diagnostic) => return Ok(report(vec![*diagnostic], Vec::new())),
    };
    diagnostics.extend(session.problems.iter().cloned());
    let name = file.name().to_owned();
    let mut events = Vec::new();
    let compactions = import::compactions(&policy, &session);
    claim(&request.out)?;
    for (n, (event, (compaction, trace, plan, findings))) in
        session.events.iter().zip(compactions).enumerate()
    {
        diagnostics.extend(findings);
        let opaque = event.summary.as_ref().is_some_and(|s| s.opaque);
        if opaque {
            diagnostics.push(codes::opaque_summary(&name, event.line));
        }
        let dir = request.out.join((n + 1).to_string());
        write_event(&dir, &trace, &plan)?;
        let protected: Vec<&str> = trace
            .regions
            .iter()
            .filter(|r| r.kind != ctxguard_core::buffer::trace::RegionKind::Narrative)
            .map(|r| r.id.as_str())
            .collect();
        let carried = plan
            .regions
            .iter()
            .flat_map(|region| match &region.entry {
                ctxguard_core::buffer::plan::Entry::Keep { id } => vec![id.node.as_str()],
                ctxguard_core::buffer::plan::Entry::Summary { quotes, .. } => {
                    quotes.iter().map(|q| q.node.as_str()).collect()
                }
                _ => Vec::new(),
            })
            .filter(|id| protected.contains(id))
            .count();
        let pinned = trace
            .regions
            .iter()
            .filter(|r| r.derived == Some(ctxguard_core::buffer::trace::Derived::Pin))
            .count();
        events.push(ImportedEvent {
            pinned,
            compaction,
            regions_in: trace.regions.len(),
            regions_out: plan.regions.len(),
            commitments: protected.len(),
            carried,
            opaque,
            out: dir.display().to_string(),
            notes: event.notes.clone(),
        });
    }
    write_manifest(&request.out, &name, events.len())?;
    Ok(report(
        diagnostics,
        vec![ImportedSession {
            file: name,
            runtime: session.runtime.arg().to_owned(),
            detected: session.detected,
            events,
        }],
    ))
}

/// The file that marks a folder as an import's, and says what it holds.
const MANIFEST: &str = "ctxguard-import.json";

/// What an import wrote into its folder.
#[derive(serde::Serialize, serde::Deserialize)]
struct Manifest {
    /// The session file imported.
    session: String,
    /// How many compactions: folders `1` to `N`.
    compactions: usize,
}

/// Makes `out` ready for an import: a folder that does not exist or is
/// empty, or one an earlier import wrote, whose compactions are taken out
/// first (so none of another session's stays beside the new ones). A
/// folder holding anything else is refused unwritten.
fn claim(out: &Path) -> Result<(), UsageError> {
    let refuse = |why: String| ctxguard_core::diagnostics::usage::import_folder_taken(out, &why);
    let entries: Vec<PathBuf> = match std::fs::read_dir(out) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(refuse(format!("cannot be read ({error})"))),
    };
    if entries.is_empty() {
        return Ok(());
    }
    let manifest_path = out.join(MANIFEST);
    let manifest: Manifest = ctxguard_core::source::read::open_no_follow(&manifest_path)
        .ok()
        .flatten()
        .and_then(|(mut file, _)| {
            ctxguard_core::source::read::read_at_most(&mut file, 1 << 16).ok()
        })
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(|| refuse("is not empty and holds no earlier import".to_owned()))?;
    let ours = |path: &Path| {
        path == manifest_path
            || path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.parse::<usize>().ok())
                .is_some_and(|n| (1..=manifest.compactions).contains(&n))
    };
    if let Some(other) = entries.iter().find(|p| !ours(p)) {
        return Err(refuse(format!(
            "holds `{}`, which no earlier import wrote",
            other.display()
        )));
    }
    for n in 1..=manifest.compactions {
        let dir = out.join(n.to_string());
        for name in ["trace.json", "plan.json"] {
            match std::fs::remove_file(dir.join(name)) {
                Ok(()) => {}
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(refuse(format!("cannot be cleared ({error})"))),
            }
        }
        match std::fs::remove_dir(&dir) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) => {
                return Err(refuse(format!(
                    "holds files in `{}` that no earlier import wrote",
                    dir.display()
                )))
            }
        }
    }
    Ok(())
}

fn write_manifest(out: &Path, session: &str, compactions: usize) -> Result<(), UsageError> {
    std::fs::create_dir_all(out).map_err(|e| cannot_write(out, e))?;
    let path = out.join(MANIFEST);
    let bytes = serde_json::to_vec_pretty(&Manifest {
        session: session.to_owned(),
        compactions,
    })
    .map_err(|e| cannot_write(&path, e))?;
    ctxguard_core::source::write::write_file(
        &path,
        &bytes,
        ctxguard_core::source::write::Backup::None,
    )
    .map(|_| ())
    .map_err(|e| cannot_write(&path, e.reason))
}

fn write_event(
    dir: &Path,
    trace: &ctxguard_core::buffer::trace::Trace,
    plan: &ctxguard_core::buffer::plan::Plan,
) -> Result<(), UsageError> {
    std::fs::create_dir_all(dir).map_err(|e| cannot_write(dir, e))?;
    let write = |name: &str, body: &dyn Fn(&mut dyn std::io::Write) -> std::io::Result<()>| {
        let path = dir.join(name);
        let mut bytes = Vec::new();
        body(&mut bytes).map_err(|e| cannot_write(&path, e))?;
        ctxguard_core::source::write::write_file(
            &path,
            &bytes,
            ctxguard_core::source::write::Backup::None,
        )
        .map(|_| ())
        .map_err(|e| UsageError(e.reason))
    };
    write("trace.json", &|out| trace.write_json(out))?;
    write("plan.json", &|out| plan.write(InputFormat::Json, out))
}
