//! `ctxguard report`: a saved report rendered again.

use std::path::PathBuf;

use clap::ValueEnum;
use ctxguard::{Format, UsageError};

use super::{Env, Said};

/// Render a report saved with `--format json` again, as SARIF, GitHub
/// commands or JSON, with the exit status of the run that made it.
#[derive(clap::Args)]
pub struct Args {
    /// The saved report.
    #[arg(long, value_name = "FILE")]
    pub from: PathBuf,
    /// The format to render the saved report in.
    #[arg(long, value_enum)]
    pub format: SavedFormatArg,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        Ok(Said::report(
            ctxguard::saved_report(&self.from)?,
            self.format.into(),
        ))
    }
}

/// The formats a saved report is rendered in again: it was saved as JSON,
/// and the human report needs the inputs it no longer has.
#[derive(Clone, Copy, ValueEnum)]
pub enum SavedFormatArg {
    Json,
    Sarif,
    Github,
}

impl From<SavedFormatArg> for Format {
    fn from(format: SavedFormatArg) -> Format {
        match format {
            SavedFormatArg::Json => Format::Json,
            SavedFormatArg::Sarif => Format::Sarif,
            SavedFormatArg::Github => Format::Github,
        }
    }
}
