//! `ctxguard verify`: read the trace, the plan and the policy, verify, and
//! hand back the report; the exit status follows from it.

use std::path::PathBuf;

use super::recognize::{self, Role};
use crate::report::{Report, Subject};
use ctxguard_core::buffer::document::{self, Input, InputFormat};
use ctxguard_core::buffer::plan::Plan;
use ctxguard_core::buffer::stream::Streaming;
use ctxguard_core::buffer::tokens::Counter;
use ctxguard_core::buffer::trace::Trace;
use ctxguard_core::diagnostics::codes::input as codes;
use ctxguard_core::diagnostics::Diagnostic;
use ctxguard_core::policy::load::policy_for_use;
use ctxguard_core::policy::Policy;
use ctxguard_core::source::Access;
use ctxguard_core::verify::index::TraceIndex;
use ctxguard_core::verify::{dispose, verify_index, written_tokens, Options};

#[derive(Clone, Debug, Default)]
/// What `ctxguard verify` was asked to read.
pub struct VerifyRequest {
    /// The trace file, or `-` for standard input.
    pub trace: PathBuf,
    /// The plan file, or `-` for standard input.
    pub plan: PathBuf,
    /// `None`: the built-in default policy.
    pub policy: Option<PathBuf>,
    /// Overrides the format the file extensions say.
    pub input_format: Option<InputFormat>,
    /// What may be read: the size limit and the root `extends` stays in.
    pub access: Access,
    /// How to verify.
    pub options: Options,
}

fn unusable(diagnostics: Vec<Diagnostic>) -> Report {
    Report {
        subject: Subject::Verify(None),
        diagnostics,
    }
}

/// Reads the three inputs and verifies: a report with a verdict, or, when
/// an input cannot be used, without one.
pub fn verify_files(request: &VerifyRequest) -> Report {
    let (policy, policy_warnings) = match policy_for_use(request.policy.as_deref(), &request.access)
    {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            return unusable(
                diagnostics
                    .into_iter()
                    .map(|d| recognize::explain(Role::Policy, d))
                    .collect(),
            )
        }
    };
    if request.trace.as_os_str() == "-" && request.plan.as_os_str() == "-" {
        return unusable(vec![codes::both_from_stdin()]);
    }
    // Two independent files: the plan is read (and its written texts
    // counted) while the trace is.
    let counter = request.options.budget.counter(&policy);
    let (trace, plan) = std::thread::scope(|scope| {
        let plan = scope.spawn(|| {
            document::open(&request.plan, request.input_format, &request.access)
                .and_then(|input| Plan::read(&input))
                .map(|plan| counted(counter, plan))
        });
        let trace = read_trace(request, &policy);
        // The readers do not panic; if one ever did, say so rather than crash.
        let plan = plan
            .join()
            .unwrap_or_else(|_| Err(Box::new(codes::invalid_input("the plan could not be read"))));
        (trace, plan)
    });
    verified(&policy, policy_warnings, trace, plan, &request.options)
}

/// A trace as `verify` reads it: whole, or, a JSON or JSON Lines file,
/// indexed as it streams.
enum Read<'p> {
    Whole(Trace),
    Indexed(Box<TraceIndex<'p>>),
}

/// Reads the trace: a JSON or JSON Lines file as it streams, its narrative
/// left on disk; anything else (and a file that does not stream: see
/// [`Streaming`]) whole.
fn read_trace<'p>(
    request: &VerifyRequest,
    policy: &'p Policy,
) -> Result<Read<'p>, Box<Diagnostic>> {
    let format = request
        .input_format
        .or_else(|| InputFormat::named(&request.trace));
    let streaming =
        format.and_then(|format| Streaming::open(&request.trace, format, &request.access));
    if let Some(streaming) = streaming {
        let counter = request.options.budget.counter(policy);
        let limit = request.options.warning_limit;
        if let Ok(index) = TraceIndex::streamed(policy, streaming, counter, limit) {
            return Ok(Read::Indexed(Box::new(index)));
        }
    }
    document::open(&request.trace, request.input_format, &request.access)
        .and_then(|input| Trace::read(&input))
        .map(Read::Whole)
}

/// Verifies a trace and a plan an embedder holds in memory (`Input::text`,
/// `Input::value`) under `policy`: the report [`verify_files`] gives for
/// the same text, policy warnings first.
pub fn verify_inputs(
    policy: &Policy,
    policy_warnings: Vec<Diagnostic>,
    trace: &Input,
    plan: &Input,
    options: &Options,
) -> Report {
    let counter = options.budget.counter(policy);
    let plan = Plan::read(plan).map(|plan| counted(counter, plan));
    verified(
        policy,
        policy_warnings,
        Trace::read(trace).map(Read::Whole),
        plan,
        options,
    )
}

/// A plan read, and the tokens of its written texts counted.
type Counted = (Plan, Vec<Option<u64>>);

fn counted(counter: Counter, plan: Plan) -> Counted {
    let written = written_tokens(counter, &plan);
    (plan, written)
}

fn verified(
    policy: &Policy,
    policy_warnings: Vec<Diagnostic>,
    trace: Result<Read<'_>, Box<Diagnostic>>,
    plan: Result<Counted, Box<Diagnostic>>,
    options: &Options,
) -> Report {
    let (trace, plan) = match (trace, plan) {
        (Ok(trace), Ok(plan)) => (trace, plan),
        (trace, plan) => {
            let diagnostics = [
                trace.err().map(|d| recognize::explain(Role::Trace, *d)),
                plan.err().map(|d| recognize::explain(Role::Plan, *d)),
            ]
            .into_iter()
            .flatten()
            .collect();
            return unusable(diagnostics);
        }
    };
    let (plan, written) = plan;
    let verification = match trace {
        Read::Whole(trace) => {
            let counter = options.budget.counter(policy);
            let index = TraceIndex::new(policy, &trace, counter, options.warning_limit);
            let verification = verify_index(index, &plan, written, options);
            let large = trace.regions.len() >= dispose::LARGE;
            dispose::later(trace, large);
            verification
        }
        Read::Indexed(index) => verify_index(*index, &plan, written, options),
    };
    let large = plan.regions.len() >= dispose::LARGE;
    dispose::later(plan, large);
    let mut diagnostics = policy_warnings;
    diagnostics.extend(verification.diagnostics);
    Report {
        subject: Subject::Verify(Some((verification.verdict, verification.stats))),
        diagnostics,
    }
}
