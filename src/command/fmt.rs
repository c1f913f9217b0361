//! `ctxguard fmt`: lay policy files out canonically, in place, or with
//! `--check` only say what would change.

use std::path::{Path, PathBuf};

use crate::command::check::policy_files;
use crate::report::{Report, Subject};
use ctxguard_core::diagnostics::codes::input as codes;
use ctxguard_core::diagnostics::{Diagnostic, UsageError};
use ctxguard_core::policy::fmt::format_source;
use ctxguard_core::source::read as input;
use ctxguard_core::source::Access;

/// Formats the policies named (a directory: every `*.policy` below it).
pub fn fmt(paths: &[PathBuf], check: bool, access: &Access) -> Result<Report, UsageError> {
    let (files, mut problems) = policy_files(paths)?;
    let formatted = fmt_files(&files, check, access);
    problems.extend(formatted.diagnostics);
    Ok(Report {
        subject: Subject::Fmt {
            files: files.len(),
            changed: formatted.changed.len(),
            check,
            diffs: formatted.diffs,
        },
        diagnostics: problems,
    })
}

/// What `ctxguard fmt` did.
#[derive(Debug, Default)]
struct Formatted {
    /// Files whose layout changed (written, or with `--check` only diffed).
    pub changed: Vec<PathBuf>,
    /// Unified diffs of the changes, for `--check`.
    pub diffs: String,
    /// Files that could not be read or parsed.
    pub diagnostics: Vec<Diagnostic>,
}

/// Formats every policy named. Without `check`, a changed file is edited
/// in place ([`edit`]); with it, nothing is written and the diffs are kept.
fn fmt_files(files: &[PathBuf], check: bool, access: &Access) -> Formatted {
    let mut result = Formatted::default();
    for path in files {
        let source = match input::read(path, access) {
            Ok(source) => source,
            Err(unread) => {
                result.diagnostics.push(Diagnostic::from(*unread));
                continue;
            }
        };
        let formatted = match format_source(&source) {
            Ok(formatted) => formatted,
            Err(diagnostics) => {
                result.diagnostics.extend(diagnostics);
                continue;
            }
        };
        if formatted == source.text() {
            continue;
        }
        if check {
            let name = path.display().to_string();
            let diff = similar::TextDiff::from_lines(source.text(), &formatted);
            result.diffs.push_str(
                &diff
                    .unified_diff()
                    .header(&name, &format!("{name} (formatted)"))
                    .to_string(),
            );
        } else if let Err(diagnostic) = edit(path, &formatted) {
            result.diagnostics.push(*diagnostic);
            continue;
        }
        result.changed.push(path.clone());
    }
    result
}

/// Writes `text` into the file at `path`, in place: a link is followed to
/// its target and stays a link, the file keeps its inode (so its hard links,
/// owner and mode), and a read-only file is refused, not made writable.
fn edit(path: &Path, text: &str) -> Result<(), Box<Diagnostic>> {
    let name = path.display().to_string();
    let failed = |error: std::io::Error| {
        Box::new(codes::unreadable(
            &name,
            format!("`{name}` cannot be written: {error}"),
        ))
    };
    let metadata = std::fs::metadata(path).map_err(failed)?;
    if metadata.permissions().readonly() {
        return Err(Box::new(codes::read_only(&name)));
    }
    ctxguard_core::source::write::write_file(
        path,
        text.as_bytes(),
        ctxguard_core::source::write::Backup::None,
    )
    .map(|_| ())
    .map_err(|e| Box::new(codes::unreadable(&name, e.reason)))
}
