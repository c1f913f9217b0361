//! The commands as library functions: each reads its inputs, runs the
//! checks and hands back a [`Report`](crate::report::Report): what to show
//! and, through [`Report::status`](crate::report::Report::status), how to
//! exit. Nothing here prints; the binary passes the report to `report`.

pub(crate) mod audit;
pub(crate) mod check;
pub(crate) mod fmt;
pub(crate) mod import;
pub(crate) mod installed;
pub(crate) mod ledger;
pub(crate) mod plan;
pub(crate) mod recognize;
pub(crate) mod saved;
pub(crate) mod verify;

/// What a walk of `directory` could not read (a folder without permission,
/// a file gone while walking), as an `unreadable-file` error that names
/// it: nothing below it was looked at, so no verdict is whole.
fn unreadable_below(
    directory: &std::path::Path,
    error: &ignore::Error,
) -> ctxguard_core::diagnostics::Diagnostic {
    let mut at = error;
    let mut path = None;
    loop {
        match at {
            ignore::Error::WithPath { path: p, err } => {
                path = Some(p.clone());
                at = err;
            }
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                at = err
            }
            _ => break,
        }
    }
    let name = path
        .unwrap_or_else(|| directory.to_path_buf())
        .display()
        .to_string();
    let why = match at {
        ignore::Error::Io(io) if io.kind() == std::io::ErrorKind::PermissionDenied => {
            "permission denied".to_owned()
        }
        other => other.to_string(),
    };
    ctxguard_core::diagnostics::codes::input::unreadable(
        &name,
        format!(
            "`{}` cannot be read ({why}): nothing below it was read",
            ctxguard_core::diagnostics::codes::echo(&name)
        ),
    )
}
