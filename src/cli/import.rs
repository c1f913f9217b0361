//! `ctxguard import`: a runtime's session file as traces and plans.

use std::path::PathBuf;

use ctxguard::{import, UsageError};

use super::args::{read_from, AccessArgs, FindingsFormat, ReadFrom};
use super::{Env, Said};

/// Read an agent runtime's session file and write each compaction in it
/// as a trace and a plan: `OUT/1/trace.json`, `OUT/1/plan.json`, ...
///
/// User text is classified as it was written: `pin KIND [KEY]: TEXT`
/// lines are commitments of that kind; other user sentences are
/// commitments when a kind's hint matches, otherwise unclassified.
///
/// Exit 0: imported (also when the file holds no compaction); 2: the file
/// cannot be read or is no session of a runtime ctxguard knows.
#[derive(clap::Args)]
pub struct Args {
    /// The session file.
    #[arg(value_name = "FILE")]
    pub session: PathBuf,
    /// The runtime that wrote it; `auto` recognizes it from its records.
    #[arg(long, default_value = "auto", value_parser = read_from())]
    pub from: ReadFrom,
    /// The folder to write each compaction's trace and plan into.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The policy whose kinds and hints classify user text.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    #[command(flatten)]
    pub format: FindingsFormat,
    #[command(flatten)]
    pub access: AccessArgs,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let request = import::Request {
            session: self.session,
            from: self.from.0,
            out: self.out,
            policy: self.policy,
            access: self.access.access(),
        };
        Ok(Said::report(
            ctxguard::import::import_file(&request)?,
            self.format.into_format(),
        ))
    }
}
