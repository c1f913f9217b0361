//! `ctxguard plan`: a safe plan for a trace.

use std::path::PathBuf;

use ctxguard::{compact, usage, Format, PlanRequest, UsageError, WARNING_LIMIT};

use super::args::{tokens, AccessArgs, Counting, InputFormatArg};
use super::{Env, Said};

/// Write a safe plan for a trace to stdout: commitments verbatim, each
/// run of narrative between them summarized, and, if still over budget,
/// the oldest summaries dropped.
///
/// Exit 0: plan written (it verifies as compact); 3: escalate (the
/// commitments alone do not fit); 2: unreadable input, a trace that
/// cannot be compacted safely, or a failing summarizer.
#[derive(clap::Args)]
pub struct Args {
    /// The buffer to compact (JSON, YAML or JSON Lines; `-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub trace: PathBuf,
    /// The policy; the built-in default when absent.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// A shell command run once per narrative run, with the run's text on
    /// stdin; its stdout is the summary. Without it, the first sentence
    /// of each region stands in (marked `summarizer: extractive`).
    #[arg(long, value_name = "CMD")]
    pub summarizer: Option<String>,
    /// Stop a summarizer that runs longer than this, with every process
    /// it started, and fail (`summarizer-failed`).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub summarizer_timeout: f64,
    /// Override the policy's `budget window` for this run (`64000` or `64_000`).
    #[arg(long, value_name = "TOKENS", value_parser = tokens)]
    pub budget: Option<u64>,
    /// Read the trace as this format, whatever its extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormatArg>,
    /// The plan's format; the trace's format when absent.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<InputFormatArg>,
    /// Show every warning; by default each advisory code shows 10.
    #[arg(long)]
    pub all_warnings: bool,
    #[command(flatten)]
    pub counting: Counting,
    #[command(flatten)]
    pub access: AccessArgs,
}

impl Args {
    pub fn run(self, _env: &Env) -> Result<Said, UsageError> {
        let seconds = self.summarizer_timeout;
        let timeout = std::time::Duration::try_from_secs_f64(seconds)
            .map_err(|_| usage::not_seconds(seconds))?;
        let request = PlanRequest {
            access: self.access.access(),
            trace: self.trace,
            policy: self.policy,
            input_format: self.input_format.map(Into::into),
            output_format: self.output_format.map(Into::into),
            options: compact::Options {
                summarizer: (self.summarizer)
                    .map(|command| compact::Summarizer::Command { command, timeout }),
                budget: self.counting.budget(self.budget),
                warning_limit: (!self.all_warnings).then_some(WARNING_LIMIT),
            },
        };
        Ok(Said::report(ctxguard::plan_file(&request), Format::Human))
    }
}
