//! The `verify` command as a function: read the three inputs, verify, and
//! hand back a report and an exit status. The binary only renders them.

use std::path::PathBuf;

use crate::compact::{compact, CompactOptions, Outcome, PlanDocument};
use crate::document::{self, InputFormat};
use crate::load::policy_for_use;
use crate::plan::Plan;
use crate::report::{Report, Subject};
use crate::status::{ExitStatus, UsageError};
use crate::trace::Trace;
use crate::verify::{verify, Options, Verdict};

#[derive(Clone, Debug, Default)]
pub struct VerifyRequest {
    pub trace: PathBuf,
    pub plan: PathBuf,
    /// `None`: the built-in default policy.
    pub policy: Option<PathBuf>,
    /// Overrides the format the file extensions say.
    pub input_format: Option<InputFormat>,
    pub options: Options,
}

fn unusable(diagnostics: Vec<crate::Diagnostic>) -> (Report, ExitStatus) {
    let report = Report {
        subject: Subject::Verify(None),
        diagnostics,
    };
    (report, ExitStatus::Usage)
}

pub fn verify_files(request: &VerifyRequest) -> (Report, ExitStatus) {
    let (policy, policy_warnings) = match policy_for_use(request.policy.as_deref()) {
        Ok(loaded) => loaded,
        Err(diagnostics) => return unusable(diagnostics),
    };
    if request.trace.as_os_str() == "-" && request.plan.as_os_str() == "-" {
        let usage = crate::Diagnostic::new(
            crate::Code::InvalidInput,
            "the trace and the plan cannot both be read from standard input",
        )
        .help("give one of `--trace` and `--plan` as a file");
        return unusable(vec![usage]);
    }
    // Two independent files: the plan is read while the trace is.
    let (trace, plan) = std::thread::scope(|scope| {
        let plan = scope.spawn(|| {
            document::open(&request.plan, request.input_format).and_then(|input| Plan::read(&input))
        });
        let trace = document::open(&request.trace, request.input_format)
            .and_then(|input| Trace::read(&input));
        // The readers do not panic; if one ever did, say so rather than crash.
        let plan = plan.join().unwrap_or_else(|_| {
            Err(Box::new(crate::Diagnostic::new(
                crate::Code::InvalidInput,
                "the plan could not be read",
            )))
        });
        (trace, plan)
    });
    let (trace, plan) = match (trace, plan) {
        (Ok(trace), Ok(plan)) => (trace, plan),
        (trace, plan) => {
            let diagnostics = [trace.err(), plan.err()]
                .into_iter()
                .flatten()
                .map(|d| *d)
                .collect();
            return unusable(diagnostics);
        }
    };
    let verification = verify(&policy, &trace, &plan, &request.options);
    let status = match verification.verdict {
        Verdict::Compact => ExitStatus::Success,
        Verdict::Reject => ExitStatus::Failure,
        Verdict::Escalate => ExitStatus::Escalate,
    };
    let mut diagnostics = policy_warnings;
    diagnostics.extend(verification.diagnostics);
    let report = Report {
        subject: Subject::Verify(Some((verification.verdict, verification.stats))),
        diagnostics,
    };
    (report, status)
}

#[derive(Clone, Debug, Default)]
pub struct PlanRequest {
    pub trace: PathBuf,
    pub policy: Option<PathBuf>,
    pub input_format: Option<InputFormat>,
    /// The plan's format; the trace's when absent.
    pub output_format: Option<InputFormat>,
    pub options: CompactOptions,
}

/// What `plan` produced: a plan to write (exit 0), or diagnostics and the status to exit with.
pub struct Planned {
    pub plan: Option<(PlanDocument, InputFormat)>,
    pub diagnostics: Vec<crate::Diagnostic>,
    pub status: ExitStatus,
}

pub fn plan_file(request: &PlanRequest) -> Planned {
    let failed = |diagnostics, status| Planned {
        plan: None,
        diagnostics,
        status,
    };
    let (policy, mut warnings) = match policy_for_use(request.policy.as_deref()) {
        Ok(loaded) => loaded,
        Err(diagnostics) => return failed(diagnostics, ExitStatus::Usage),
    };
    let input = match document::open(&request.trace, request.input_format) {
        Ok(input) => input,
        Err(diagnostic) => return failed(vec![*diagnostic], ExitStatus::Usage),
    };
    let format = request.output_format.unwrap_or(input.format);
    let trace = match Trace::read(&input) {
        Ok(trace) => trace,
        Err(diagnostic) => return failed(vec![*diagnostic], ExitStatus::Usage),
    };
    match compact(&policy, &trace, &request.options) {
        Outcome::Plan(plan, found) => {
            warnings.extend(found);
            Planned {
                plan: Some((plan, format)),
                diagnostics: warnings,
                status: ExitStatus::Success,
            }
        }
        Outcome::Escalate(diagnostics) => failed(diagnostics, ExitStatus::Escalate),
        Outcome::Failed(diagnostics) => failed(diagnostics, ExitStatus::Usage),
    }
}

/// A report saved with `--format json`, read back to be rendered again.
pub fn saved_report(path: &std::path::Path) -> Result<crate::report::JsonReport, UsageError> {
    let source = crate::input::read(path).map_err(|diagnostic| UsageError(diagnostic.message))?;
    serde_json::from_str(source.text()).map_err(|error| {
        UsageError(format!(
            "`{}` is not a report saved with `--format json`: {error}",
            path.display()
        ))
    })
}

/// The exit status the command that made a saved report had.
pub fn saved_status(report: &crate::report::JsonReport) -> ExitStatus {
    let code = |d: &crate::report::JsonDiagnostic| crate::Code::from_name(&d.code);
    if report
        .diagnostics
        .iter()
        .any(|d| code(d).is_some_and(|c| c.family() == crate::code::Family::Input))
    {
        return ExitStatus::Usage;
    }
    match report.verdict {
        Some(Verdict::Compact) => ExitStatus::Success,
        Some(Verdict::Reject) => ExitStatus::Failure,
        Some(Verdict::Escalate) => ExitStatus::Escalate,
        None if report.diagnostics.iter().any(|d| d.severity == "error") => ExitStatus::Failure,
        None => ExitStatus::Success,
    }
}
