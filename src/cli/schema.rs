//! `ctxguard schema`: the JSON Schemas of ctxguard's formats.

use clap::ValueEnum;
use ctxguard::{Format, Report, Schema, UsageError};

use super::{Env, Said};

/// Print the JSON Schema of the trace or the plan format, for editors
/// and CI, or of an audited compaction (`audit --format json|jsonl`);
/// also in `schemas/`.
#[derive(clap::Args)]
pub struct Args {
    #[arg(value_enum)]
    pub which: SchemaArg,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let which = match self.which {
            SchemaArg::Trace => Schema::Trace,
            SchemaArg::Plan => Schema::Plan,
            SchemaArg::Audit => Schema::Audit,
            SchemaArg::Fleet => Schema::Fleet,
        };
        Ok(Said::report(Report::text(which.json()), Format::Human))
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum SchemaArg {
    Trace,
    Plan,
    Audit,
    Fleet,
}
