//! `ctxguard report`: a saved report rendered again.

use std::path::PathBuf;

use ctxguard::UsageError;

use super::args::FindingsFormat;
use super::{Env, Said};

/// Render a report saved with `--format json` again, as the human report
/// (where each finding is, without the snippet), SARIF, GitHub commands or
/// JSON, with the exit status of the run that made it.
#[derive(clap::Args)]
pub struct Args {
    /// The saved report.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    #[command(flatten)]
    pub format: FindingsFormat,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        Ok(Said::report(
            ctxguard::saved_report(&self.from)?,
            self.format.into_format(),
        ))
    }
}
