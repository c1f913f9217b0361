//! A command line that cannot be carried out (exit 2): each message, worded
//! here like every other message ctxguard gives. A usage error is one line
//! on standard error; what a file holds wrongly is a diagnostic instead.

use std::fmt::Display;
use std::path::Path;

use super::codes::echo;
use super::suggest::did_you_mean;
use super::{Code, UsageError};

/// A file or folder that cannot be written.
pub fn cannot_write(path: &Path, error: impl Display) -> UsageError {
    UsageError(format!("cannot write `{}`: {error}", path.display()))
}

/// Standard output that cannot be written (a closed pipe is not this).
pub fn cannot_write_output(error: impl Display) -> UsageError {
    UsageError(format!("cannot write the output: {error}"))
}

/// `explain NAME` of no code: the closest code, or where they are listed.
pub fn not_a_code(name: &str) -> UsageError {
    let names = Code::ALL.iter().map(|c| c.name());
    let hint = match did_you_mean(name.trim_start_matches("ctxguard::"), names) {
        Some(code) => format!("did you mean `{code}`?"),
        None => "`ctxguard explain` lists them all".to_owned(),
    };
    UsageError(format!("`{}` is not a ctxguard code; {hint}", echo(name)))
}

/// `--summarizer-timeout` that is no duration.
pub fn not_seconds(seconds: f64) -> UsageError {
    UsageError(format!(
        "`--summarizer-timeout {seconds}` is not a number of seconds"
    ))
}

/// `CTXGUARD_MAX_LEDGER_BYTES` that is no number.
pub fn not_bytes(variable: &str, value: &str) -> UsageError {
    UsageError(format!(
        "`{variable}={}` is not a number of bytes",
        echo(value)
    ))
}

/// `init --local` of a runtime whose settings have no such scope.
pub fn no_local_settings(runtime: &str, arg: &str) -> UsageError {
    UsageError(format!(
        "{runtime} has no settings of one checkout only: `init {arg}` writes into the project, or with `--user` for every project"
    ))
}

/// `init --user` without a home to find the runtime's settings in.
pub fn no_home(variable: &str, runtime: &str) -> UsageError {
    UsageError(format!(
        "`--user` needs `HOME` or `{variable}` to find {runtime}'s settings"
    ))
}

/// `check DIR` of a folder holding nothing to check.
pub fn nothing_to_check(dir: &Path) -> UsageError {
    UsageError(format!(
        "no `*.policy` file and no runtime config found in `{}`",
        dir.display()
    ))
}

/// `fmt DIR` of a folder holding no policy.
pub fn no_policies(dir: &Path) -> UsageError {
    UsageError(format!("no `*.policy` files found in `{}`", dir.display()))
}

/// `report --from FILE` of a file that is no saved report.
pub fn not_a_saved_report(path: &Path, error: impl Display) -> UsageError {
    UsageError(format!(
        "`{}` is not a report saved with `--format json`: {error}",
        path.display()
    ))
}

/// `import --out DIR` of a folder that holds something else (`why`).
pub fn import_folder_taken(out: &Path, why: &str) -> UsageError {
    UsageError(format!(
        "`{}` {why}; ctxguard imports into an empty folder or one an earlier import wrote. Name a new folder",
        out.display()
    ))
}

/// A ledger id that names no commitment (`ids`: empty), or several.
pub fn no_such_commitment(name: &str, ledger: &str, session: &str, ids: &[&str]) -> UsageError {
    let name = echo(name);
    UsageError(match ids.len() {
        0 => format!(
            "no commitment `{name}` in `{ledger}`: `ctxguard ledger list --session {session}` shows their ids"
        ),
        n => format!(
            "`{name}` names {n} commitments ({}): give more of the id",
            ids.join(", ")
        ),
    })
}

/// `ledger pin KIND` of a kind the policy does not declare.
pub fn no_such_kind<'k>(kind: &str, kinds: impl Iterator<Item = &'k str> + Clone) -> UsageError {
    let hint = match did_you_mean(kind, kinds.clone()) {
        Some(name) => format!("did you mean `{name}`?"),
        None => format!(
            "its kinds are {}",
            kinds
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    UsageError(format!(
        "the policy declares no kind `{}`: {hint}",
        echo(kind)
    ))
}

/// `ledger pin KIND` with no text.
pub fn empty_pin() -> UsageError {
    UsageError("a pin needs the commitment's text".to_owned())
}

/// `ledger discharge|unpin ID` of a commitment that no longer binds.
pub fn already(id: &str, unpinned: bool) -> UsageError {
    let state = if unpinned { "unpinned" } else { "discharged" };
    UsageError(format!("{id} is already {state}"))
}

/// `ledger --session ID` with no ledger; `known`: the sessions there are.
pub fn no_session_ledger(session: &str, dir: &Path, known: &str) -> UsageError {
    UsageError(format!(
        "no ledger for session `{}` in `{}`{known}",
        echo(session),
        dir.display()
    ))
}

/// `ledger` in a folder that holds no ledger.
pub fn no_ledger(dir: &Path) -> UsageError {
    UsageError(format!(
        "no ledger in `{}`: the hooks write one per session once installed (`ctxguard init claude-code`); name another folder with `--ledger-dir`",
        dir.display()
    ))
}
