//! `ctxguard check`: lint policy files, and the runtime configs beside
//! them against the team's policy; `--fix` applies the safe fixes.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::report::{Report, Subject};
use ctxguard_core::diagnostics::codes::input as codes;
use ctxguard_core::diagnostics::{Diagnostic, Overrides, UsageError};
use ctxguard_core::policy::lint::shared_names;
use ctxguard_core::policy::load::{policy_for_use, Loader};
use ctxguard_core::source::write::Backup;
use ctxguard_core::source::Access;
use ctxguard_runtimes::runtime::{self, Kind};

/// How `check` treats runtime configs.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Read every file named as this runtime's config.
    pub runtime: Option<Kind>,
    /// The team policy configs are checked against; `None`: the one
    /// policy file checked, if there is exactly one, else the default.
    pub policy: Option<PathBuf>,
    /// Apply the safe fixes (timeout units, ctxguard's missing hooks).
    pub fix: bool,
    /// With `fix`: write nothing, show the diffs.
    pub dry_run: bool,
    /// The runtimes installed here, whose versions decide some findings.
    pub installed: ctxguard_runtimes::runtime::Installed,
    /// The command asked for its `--version` (`claude`) when a Claude Code
    /// config is checked and `installed` names no version; `None`: none is
    /// asked.
    pub ask_claude: Option<std::ffi::OsString>,
}

/// Checks every policy file named, searching directories for `*.policy`,
/// reading under `access`, with `overrides` applied to what it finds.
pub fn check(
    paths: &[PathBuf],
    overrides: &Overrides,
    access: &Access,
) -> Result<Report, UsageError> {
    check_with(paths, &CheckOptions::default(), overrides, access)
}

/// Checks the policy files and runtime configs named (directories: every
/// one at its conventional place below), configs against the team policy.
pub fn check_with(
    paths: &[PathBuf],
    options: &CheckOptions,
    overrides: &Overrides,
    access: &Access,
) -> Result<Report, UsageError> {
    let (files, configs, problems) = inputs(paths, options.runtime)?;
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
    // A policy checked on its own that bounds nothing: said once, of the
    // file named (a parent without a window is the child's business).
    for policy in &policies {
        let text = policy.file.text();
        let first = text
            .lines()
            .scan(0, |at, line| {
                let start = *at;
                *at += line.len() + 1;
                Some((start, line))
            })
            .find(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
        // Errors are fixed first; then this is worth a word.
        let errors = diagnostics
            .iter()
            .any(|d| d.severity == ctxguard_core::diagnostics::Severity::Error);
        if let (None, Some((start, line)), false) = (&policy.window, first, errors) {
            let span = start..start + line.trim_end().len();
            diagnostics.push(
                ctxguard_core::diagnostics::codes::policy::no_budget().label(
                    &policy.file,
                    span,
                    "no `budget window` here or in what it extends",
                ),
            );
        }
    }
    diagnostics.extend(problems);
    let mut fixes = Vec::new();
    if !configs.is_empty() {
        let team = match (&options.policy, &policies[..]) {
            (Some(path), _) => policy_for_use(Some(path), access).map(|(p, _)| p),
            (None, [one]) => Ok(Arc::clone(one)),
            (None, _) => policy_for_use(None, access).map(|(p, _)| p),
        };
        let mut options = options.clone();
        let claude = configs.iter().any(|(_, r)| *r == Kind::ClaudeCode);
        if let (true, Some(program), None) =
            (claude, &options.ask_claude, &options.installed.claude_code)
        {
            options.installed.claude_code = super::installed::claude_code(None, program)
                .ok()
                .and_then(|found| found.version().cloned());
        }
        let options = &options;
        match team {
            Ok(policy) => {
                for (path, runtime) in &configs {
                    let (found, fixed) =
                        config(path, *runtime, &policy, options, overrides, access);
                    diagnostics.extend(found);
                    fixes.extend(fixed);
                }
            }
            Err(found) => diagnostics.extend(found),
        }
    }
    Ok(Report {
        subject: Subject::Check {
            files: files.len() + configs.len(),
            configs: configs.len(),
            fixes,
        },
        diagnostics: overrides.apply(diagnostics),
    })
}

/// One config checked, and fixed when asked: its findings after the fix,
/// and what was fixed (a diff with `dry_run`).
fn config(
    path: &Path,
    runtime: Kind,
    policy: &ctxguard_core::policy::Policy,
    options: &CheckOptions,
    overrides: &Overrides,
    access: &Access,
) -> (Vec<Diagnostic>, Vec<String>) {
    let file = match ctxguard_core::source::read::read(path, access) {
        Ok(file) => file,
        Err(unread) => return (vec![Diagnostic::from(*unread)], Vec::new()),
    };
    let mut checked = runtime::check_installed(&file, runtime, policy, &options.installed);
    checked.edits.retain(|edit| !overrides.allows(edit.code));
    if !options.fix || (checked.edits.is_empty() && !checked.missing_guard) {
        return (checked.diagnostics, Vec::new());
    }
    let mut text = runtime::apply(file.text(), &checked.edits);
    let mut what = Vec::new();
    if !checked.edits.is_empty() {
        what.push(format!(
            "{} hook timeout{} in the runtime's unit",
            checked.edits.len(),
            if checked.edits.len() == 1 { "" } else { "s" }
        ));
    }
    let guarded = match runtime {
        Kind::ClaudeCode => Some(ctxguard_runtimes::hook::Guarded::ClaudeCode),
        Kind::CodexHooks => Some(ctxguard_runtimes::hook::Guarded::Codex),
        Kind::GeminiCli => Some(ctxguard_runtimes::hook::Guarded::GeminiCli),
        _ => None,
    };
    if let (true, Some(guarded)) = (checked.missing_guard, guarded) {
        if let Ok(merged) = ctxguard_runtimes::hook::init::merge_text(
            guarded,
            &text,
            options.installed.claude_code.clone(),
        ) {
            text = merged;
            what.push("ctxguard's hooks merged in".to_owned());
        }
    }
    let name = file.name().to_owned();
    let said = if options.dry_run {
        similar::TextDiff::from_lines(file.text(), &text)
            .unified_diff()
            .header(&name, &name)
            .to_string()
    } else {
        // Written beside it and renamed over it, the original backed up:
        // never half a file, never the only copy lost.
        match ctxguard_core::source::write::write_file(path, text.as_bytes(), Backup::Keep) {
            Ok(written) => {
                if let Some(backup) = written.backup {
                    what.push(format!("the original is in {}", backup.display()));
                }
            }
            Err(error) => {
                let d = codes::unreadable(&name, error.reason);
                let mut found = checked.diagnostics;
                found.push(d);
                return (found, Vec::new());
            }
        }
        format!("fixed {name}: {}", what.join("; "))
    };
    // What remains is what the file now says.
    let after = ctxguard_core::source::SourceFile::new(name, text.as_str());
    let remaining =
        runtime::check_installed(&after, runtime, policy, &options.installed).diagnostics;
    (remaining, vec![said])
}

/// The policy files and runtime configs named, directories searched, and
/// what could not be walked: an unreadable directory, a link out of the
/// directory named.
#[allow(clippy::type_complexity)]
fn inputs(
    paths: &[PathBuf],
    runtime: Option<Kind>,
) -> Result<(Vec<PathBuf>, Vec<(PathBuf, Kind)>, Vec<Diagnostic>), UsageError> {
    let mut files = Vec::new();
    let mut configs = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len() + configs.len() + problems.len();
            collect_policies(path, &mut files, &mut problems);
            collect_configs(path, &mut configs);
            if files.len() + configs.len() + problems.len() == before {
                return Err(ctxguard_core::diagnostics::usage::nothing_to_check(path));
            }
        } else if let Some(runtime) = runtime {
            configs.push((path.clone(), runtime));
        } else if path.extension().is_some_and(|e| e == "policy") {
            files.push(path.clone());
        } else {
            let head = read_head(path);
            match Kind::recognize(path, &head) {
                Some(runtime) => configs.push((path.clone(), runtime)),
                None => files.push(path.clone()),
            }
        }
    }
    Ok((files, configs, problems))
}

/// The first 64 KiB of `path`, for recognizing it; empty when unreadable
/// (reading it for real reports why).
fn read_head(path: &Path) -> String {
    use std::io::Read;
    let mut bytes = Vec::new();
    if let Ok(file) = std::fs::File::open(path) {
        let _ = file.take(64 << 10).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every runtime config at its conventional place below `directory`
/// (`.gitignore` respected, links not followed), and `config.toml` and run
/// YAML files whose content is a runtime's.
fn collect_configs(directory: &Path, configs: &mut Vec<(PathBuf, Kind)>) {
    let walk = walk(directory);
    for entry in walk.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        if let Some(runtime) = Kind::by_place(path) {
            configs.push((path.to_path_buf(), runtime));
            continue;
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let candidate = matches!(name, "config.toml" | "config.template.toml")
            || name.ends_with(".yaml")
            || name.ends_with(".yml");
        if candidate {
            if let Some(runtime) = Kind::recognize(path, &read_head(path)) {
                configs.push((path.to_path_buf(), runtime));
            }
        }
    }
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
                return Err(ctxguard_core::diagnostics::usage::no_policies(path));
            }
        } else {
            files.push(path.clone());
        }
    }
    Ok((files, problems))
}

/// The files below `directory`, in a stable order: what `.gitignore`
/// excludes and `.git/` skipped, links to directories not followed (a link
/// loop cannot trap the walk).
fn walk(directory: &Path) -> ignore::Walk {
    ignore::WalkBuilder::new(directory)
        .hidden(false)
        .require_git(false)
        .git_global(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| entry.file_name() != ".git")
        .build()
}

/// Every `*.policy` below `directory`, in a stable order: files `.gitignore`
/// excludes and `.git/` are skipped, links to directories are not followed
/// (a link loop cannot trap the walk), and a `*.policy` link whose target is
/// outside `directory` is reported, not read.
fn collect_policies(directory: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<Diagnostic>) {
    let root = std::fs::canonicalize(directory).unwrap_or_else(|_| directory.to_path_buf());
    let walk = walk(directory);
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                problems.push(super::unreadable_below(directory, &error));
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
