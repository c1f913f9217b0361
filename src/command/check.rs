//! `ctxguard check`: lint policy files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Overrides, UsageError};
use crate::policy::lint::shared_names;
use crate::policy::load::Loader;
use crate::report::{Report, Subject};

/// Checks every policy file named, searching directories for `*.policy`,
/// with `overrides` applied to what it finds.
pub fn check(paths: &[PathBuf], overrides: &Overrides) -> Result<Report, UsageError> {
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
        diagnostics: overrides.apply(diagnostics),
    })
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
