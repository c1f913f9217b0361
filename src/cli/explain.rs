//! `ctxguard explain`: what a diagnostic code means and what to do.

use ctxguard::{usage, Code, Format, Report, UsageError};

use super::{Env, Said};

/// Explain a diagnostic code; without a code, list them all.
#[derive(clap::Args)]
pub struct Args {
    /// The code; without one, every code is listed.
    pub code: Option<String>,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let Some(name) = self.code else {
            return Ok(Said::report(
                Report::text(ctxguard::explain_all()),
                Format::Human,
            ));
        };
        let code = Code::from_name(&name).ok_or_else(|| usage::not_a_code(&name))?;
        Ok(Said::report(
            Report::text(ctxguard::explain(code)),
            Format::Human,
        ))
    }
}
