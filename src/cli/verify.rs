//! `ctxguard verify`: a compaction plan against its trace and the policy.

use std::path::PathBuf;

use ctxguard::{Options, UsageError, VerifyRequest, WARNING_LIMIT};

use super::args::{tokens, AccessArgs, Counting, FindingsFormat, InputFormatArg, SeverityArgs};
use super::{Env, Said};

/// Verify a compaction plan against its trace and the policy.
///
/// Exit 0: compact (safe to apply); 1: reject; 3: escalate (no plan fits
/// the budget: a person must decide); 2: unreadable input or bad usage.
#[derive(clap::Args)]
pub struct Args {
    /// The buffer before compaction (JSON, YAML or JSON Lines; `-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub trace: PathBuf,
    /// The proposed buffer after compaction.
    #[arg(long, value_name = "FILE")]
    pub plan: PathBuf,
    /// The policy; the built-in default when absent.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Read inputs as this format, whatever their extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,
    /// Override the policy's `budget window` for this run (`64000` or `64_000`).
    #[arg(long, value_name = "TOKENS", value_parser = tokens)]
    pub budget: Option<u64>,
    /// Show every warning; by default each advisory code shows 10.
    #[arg(long)]
    pub all_warnings: bool,
    #[command(flatten)]
    pub severity: SeverityArgs,
    #[command(flatten)]
    pub counting: Counting,
    #[command(flatten)]
    pub format: FindingsFormat,
    #[command(flatten)]
    pub access: AccessArgs,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let request = VerifyRequest {
            access: self.access.access(),
            trace: self.trace,
            plan: self.plan,
            policy: self.policy,
            input_format: self.input_format.map(Into::into),
            options: Options {
                budget: self.counting.budget(self.budget),
                warning_limit: (!self.all_warnings).then_some(WARNING_LIMIT),
                overrides: self.severity.overrides()?,
            },
        };
        Ok(Said::report(
            ctxguard::verify_files(&request),
            self.format.into_format(),
        ))
    }
}
