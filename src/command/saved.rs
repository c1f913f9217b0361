//! `ctxguard report --from`: a report saved with `--format json`, read back
//! to be rendered again.

use std::path::Path;

use crate::diagnostics::UsageError;
use crate::report::{JsonReport, Report, Subject};

/// A report saved with `--format json`, read back to be rendered again.
pub fn saved_report(path: &Path) -> Result<Report, UsageError> {
    let source = crate::source::read::read(path, &crate::source::Access::default())
        .map_err(|unread| UsageError(crate::diagnostics::Diagnostic::from(*unread).message))?;
    let saved: JsonReport = serde_json::from_str(source.text()).map_err(|error| {
        UsageError(format!(
            "`{}` is not a report saved with `--format json`: {error}",
            path.display()
        ))
    })?;
    Ok(Report {
        subject: Subject::Saved(saved),
        diagnostics: Vec::new(),
    })
}
