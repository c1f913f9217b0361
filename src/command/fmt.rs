//! `ctxguard fmt`: lay policy files out canonically, in place, or with
//! `--check` only say what would change.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::command::check::policy_files;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::{Diagnostic, UsageError};
use crate::policy::fmt::format_source;
use crate::report::{Report, Subject};
use crate::source::read as input;
use crate::source::Access;

/// Formats the policies named (a directory: every `*.policy` below it).
pub fn fmt(paths: &[PathBuf], check: bool, access: &Access) -> Result<Report, UsageError> {
    let (files, mut problems) = policy_files(paths)?;
    let formatted = fmt_files(&files, check, access);
    problems.extend(formatted.diagnostics);
    Ok(Report {
        subject: Subject::Fmt {
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

/// Formats every policy named (directories: every `*.policy` below them).
/// Without `check`, a changed file is replaced atomically: written to a
/// temporary file beside it and renamed over it, keeping its permissions,
/// so a failure leaves the original as it was.
fn fmt_files(files: &[PathBuf], check: bool, access: &Access) -> Formatted {
    let mut result = Formatted::default();
    for path in files {
        let source = match input::read(path, access) {
            Ok(source) => source,
            Err(diagnostic) => {
                result.diagnostics.push(*diagnostic);
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
        } else if let Err(error) = write_atomically(path, &formatted) {
            let name = path.display().to_string();
            let reason = format!("`{name}` cannot be written: {error}");
            result.diagnostics.push(codes::unreadable(&name, reason));
            continue;
        }
        result.changed.push(path.clone());
    }
    result
}

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let directory = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(path)?.permissions();
    let mut temporary = tempfile::NamedTempFile::new_in(directory)?;
    temporary.write_all(text.as_bytes())?;
    temporary.as_file().sync_all()?;
    std::fs::set_permissions(temporary.path(), permissions)?;
    temporary.persist(path).map_err(|error| error.error)?;
    Ok(())
}
