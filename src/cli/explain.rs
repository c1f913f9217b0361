//! `ctxguard explain`: what a diagnostic code means and what to do.

use ctxguard::{Code, Format, Report, UsageError};

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
        let code = Code::from_name(&name).ok_or_else(|| {
            let names = Code::ALL.iter().map(|c| c.name());
            let hint = match ctxguard::did_you_mean(name.trim_start_matches("ctxguard::"), names) {
                Some(code) => format!("did you mean `{code}`?"),
                None => "`ctxguard explain` lists them all".to_owned(),
            };
            UsageError(format!("`{name}` is not a ctxguard code; {hint}"))
        })?;
        Ok(Said::report(
            Report::text(ctxguard::explain(code)),
            Format::Human,
        ))
    }
}
