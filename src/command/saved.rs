//! `ctxguard report --from`: a report saved with `--format json`, read back
//! to be rendered again.

use std::path::Path;

use crate::report::{JsonReport, Report, Subject};
use ctxguard_core::diagnostics::UsageError;

/// A report saved with `--format json`, read back to be rendered again.
pub fn saved_report(path: &Path) -> Result<Report, UsageError> {
    let source = ctxguard_core::source::read::read(path, &ctxguard_core::source::Access::default())
        .map_err(|unread| {
            UsageError(ctxguard_core::diagnostics::Diagnostic::from(*unread).message)
        })?;
    let saved: JsonReport = serde_json::from_str(source.text())
        .map_err(|error| ctxguard_core::diagnostics::usage::not_a_saved_report(path, error))?;
    Ok(Report {
        subject: Subject::Saved(saved),
        diagnostics: Vec::new(),
    })
}
