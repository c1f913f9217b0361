//! `ctxguard plan`: read the trace and the policy and write a safe plan.

use std::path::PathBuf;

use crate::report::{Planned, Report, Subject};
use ctxguard_core::buffer::document::{self, InputFormat};
use ctxguard_core::buffer::trace::Trace;
use ctxguard_core::compact::{compact, CompactOptions, Outcome};
use ctxguard_core::policy::load::policy_for_use;
use ctxguard_core::source::Access;

#[derive(Clone, Debug, Default)]
/// What `ctxguard plan` was asked to read and write.
pub struct PlanRequest {
    /// The trace file, or `-` for standard input.
    pub trace: PathBuf,
    /// `None`: the built-in default policy.
    pub policy: Option<PathBuf>,
    /// Overrides the format the file extension says.
    pub input_format: Option<InputFormat>,
    /// What may be read: the size limit and the root `extends` stays in.
    pub access: Access,
    /// The plan's format; the trace's when absent.
    pub output_format: Option<InputFormat>,
    /// How to compact.
    pub options: CompactOptions,
}

/// Reads the trace and the policy and compacts: a report holding the plan
/// to write, or why there is none.
pub fn plan_file(request: &PlanRequest) -> Report {
    let report = |diagnostics, outcome| Report {
        subject: Subject::Plan(outcome),
        diagnostics,
    };
    let (policy, mut warnings) = match policy_for_use(request.policy.as_deref(), &request.access) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            let explained = diagnostics
                .into_iter()
                .map(|d| super::recognize::explain(super::recognize::Role::Policy, d))
                .collect();
            return report(explained, Planned::Failed);
        }
    };
    let input = match document::open(&request.trace, request.input_format, &request.access) {
        Ok(input) => input,
        Err(diagnostic) => return report(vec![*diagnostic], Planned::Failed),
    };
    let format = request.output_format.unwrap_or(input.format);
    let trace = match Trace::read(&input) {
        Ok(trace) => trace,
        Err(diagnostic) => {
            let explained = super::recognize::explain(super::recognize::Role::Trace, *diagnostic);
            return report(vec![explained], Planned::Failed);
        }
    };
    match compact(&policy, &trace, &request.options) {
        Outcome::Plan(plan, found, folded) => {
            warnings.extend(found);
            report(warnings, Planned::Written(plan, format, folded))
        }
        Outcome::Escalate(diagnostics) => report(diagnostics, Planned::Escalated),
        Outcome::Failed(diagnostics) => report(diagnostics, Planned::Failed),
    }
}
