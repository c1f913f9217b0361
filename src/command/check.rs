//! `ctxguard check`: lint policy files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::diagnostics::codes::input as codes;
use crate::diagnostics::{Diagnostic, Overrides, UsageError};
use crate::policy::lint::shared_names;
use crate::policy::load::Loader;
use crate::report::{Report, Subject};
use crate::source::Access;

/// Checks every policy file named, searching directories for `*.policy`,
/// reading under `access`, with `overrides` applied to what it finds.
pub fn check(
    paths: &[PathBuf],
    overrides: &Overrides,
    access: &Access,
) -> Result<Report, UsageError> {
    let (files, problems) = policy_files(paths)?;
    let mut loader = Loader::with_access(access.clone());
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
    diagnostics.extend(problems);
    Ok(Report {
        subject: Subject::Check { files: files.len() },
        diagnostics: overrides.apply(diagnostics),
    })
}

/// The files named, with directories replaced by every `*.policy` below
/// them, and what could not be walked: an unreadable directory, a link out
/// of the directory named.
pub fn policy_files(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<Diagnostic>), UsageError> {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len() + problems.len();
            collect_policies(path, &mut files, &mut problems);
            if files.len() + problems.len() == before {
                return Err(UsageError(format!(
                    "no `*.policy` files found in `{}`",
                    path.display()
                )));
            }
        } else {
            files.push(path.clone());
        }
    }
    Ok((files, problems))
}

/// Every `*.policy` below `directory`, in a stable order: files `.gitignore`
/// excludes and `.git/` are skipped, links to directories are not followed
/// (a link loop cannot trap the walk), and a `*.policy` link whose target is
/// outside `directory` is reported, not read.
fn collect_policies(directory: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<Diagnostic>) {
    let root = std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
    let walk = ignore::WalkBuilder::new(directory)
        .hidden(false)
        .require_git(false)
        .git_global(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| entry.file_name() != ".git")
        .build();
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                let name = match &error {
                    ignore::Error::WithPath { path, .. } => path.display().to_string(),
                    _ => directory.display().to_string(),
                };
                problems.push(codes::unreadable(
                    &name,
                    format!("`{name}` cannot be read: {error}"),
                ));
                continue;
            }
        };
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "policy") {
            continue;
        }
        let Some(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_symlink() {
            let inside = std::fs::canonicalize(path).is_ok_and(|target| target.starts_with(&root));
            if !inside {
                let name = path.display().to_string();
                problems.push(codes::link_outside(&name, &directory.display().to_string()));
                continue;
            }
        } else if file_type.is_dir() {
            continue;
        }
        files.push(path.to_path_buf());
    }
}
