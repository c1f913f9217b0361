//! `ctxguard fmt`: policy files in the canonical layout.

use std::path::PathBuf;

use ctxguard::{Format, UsageError};

use super::args::AccessArgs;
use super::{Env, Said};

/// Lay policy files out in ctxguard's canonical layout, in place.
///
/// Exit 0: all formatted (or, with `--check`, already formatted);
/// 1: `--check` found files to format (their diffs are printed), or a
/// file does not parse; 2: unreadable input.
#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write nothing; print the changes as a diff and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
    /// Say nothing on success (otherwise one line on stderr says what was done).
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub access: AccessArgs,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let report = ctxguard::fmt(&self.paths, self.check, &self.access.access())?;
        Ok(Said::report(report, Format::Human).quiet(self.quiet))
    }
}
