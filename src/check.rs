//! `ctxguard check`: lint policy files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use crate::code::{Code, Family};
use crate::diagnostic::{Diagnostic, Severity};
use crate::load::Loader;
use crate::policy::{Origin, Policy};
use crate::report::{Report, Subject};
use crate::status::{ExitStatus, UsageError};

/// Checks every policy file named, searching directories for `*.policy`.
pub fn check(paths: &[PathBuf]) -> Result<Report, UsageError> {
    let files = policy_files(paths)?;
    let mut loader = Loader::new();
    let policies: Vec<_> = files
        .iter()
        .filter_map(|file| loader.load_path(file).policy.clone())
        .collect();
    let mut seen = HashSet::new();
    let mut diagnostics: Vec<Diagnostic> = loader
        .diagnostics()
        .filter(|diagnostic| seen.insert(diagnostic.identity()))
        .cloned()
        .collect();
    diagnostics.extend(shared_names(policies.iter().map(|policy| &**policy)));
    Ok(Report {
        subject: Subject::Check { files: files.len() },
        diagnostics,
    })
}

/// Policies checked together that share a name: reports about one would be
/// read as being about the other.
pub fn shared_names<'a>(policies: impl IntoIterator<Item = &'a Policy>) -> Vec<Diagnostic> {
    let mut first_by_name: Vec<(&str, &Origin)> = Vec::new();
    let mut diagnostics = Vec::new();
    for policy in policies {
        let (Some(name), Some(origin)) = (&policy.name, &policy.name_origin) else {
            continue;
        };
        match first_by_name.iter().find(|(seen, _)| seen == name) {
            Some((_, first)) if !Arc::ptr_eq(&first.file, &origin.file) => diagnostics.push(
                Diagnostic::new(Code::DuplicatePolicyName, format!("policy name `{name}` is also used by `{}`", first.file.name()))
                    .label(&origin.file, origin.span.clone(), "named here")
                    .label(&first.file, first.span.clone(), "and here")
                    .help("give each policy its own name, so reports about one are not read as about the other"),
            ),
            Some(_) => {}
            None => first_by_name.push((name, origin)),
        }
    }
    diagnostics
}

/// 2 when a file could not be read, 1 for errors, else 0. Warnings count
/// as errors once `--deny-warnings` made them so.
pub fn status(report: &Report) -> ExitStatus {
    let diagnostics = &report.diagnostics;
    if diagnostics.iter().any(|d| d.code.family() == Family::Input) {
        ExitStatus::Usage
    } else if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// The files named, with directories replaced by every `*.policy` below them.
pub fn policy_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, UsageError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            collect_policies(path, &mut files);
            if files.len() == before {
                return Err(UsageError(format!(
                    "no `*.policy` files found in `{}`",
                    path.display()
                )));
            }
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Every `*.policy` below `directory`, in a stable order. Symbolic links to
/// directories are not followed, so a link loop cannot trap the walk.
fn collect_policies(directory: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(directory) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let path = entry.path();
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_dir() {
            collect_policies(&path, files);
        } else if path.extension().is_some_and(|ext| ext == "policy") {
            files.push(path);
        }
    }
}
