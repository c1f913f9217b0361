//! `ctxguard plan`: the reference compactor. It keeps every commitment (and
//! every unclassified region) with `keep:`, replaces each maximal run of
//! narrative between them by one summary, and, while over budget, drops the
//! oldest summaries, then the oldest discharged commitments. The result is
//! verified before it is returned: a plan that does not verify is never
//! written.

use crate::buffer::plan::{Entry, Plan, PlanRegion, SummaryKind};
use crate::buffer::trace::{Role, Status, Trace};
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::policy::Policy;
use crate::source::Spanned;
use crate::verify::index::{Class, TraceIndex};
use crate::verify::{verify, Budget, Folded, Options, Verdict};

mod summarizer;

pub use summarizer::{SummarizeFn, Summarizer, DEFAULT_TIMEOUT, MAX_SUMMARY_BYTES};

/// How `plan` compacts.
#[derive(Clone, Debug, Default)]
pub struct CompactOptions {
    /// A shell command run once per narrative run, the run's text on its
    /// standard input; its standard output is the summary. `None`: the
    /// first sentence of each region stands in.
    pub summarizer: Option<Summarizer>,
    /// The window and how tokens are counted.
    pub budget: Budget,
    /// Warnings shown per advisory code (the rest counted); `None`: all.
    pub warning_limit: Option<usize>,
}

impl CompactOptions {
    /// The verification every written plan passes.
    fn verify_options(&self) -> Options {
        Options {
            budget: self.budget.clone(),
            warning_limit: self.warning_limit,
            overrides: Default::default(),
        }
    }
}

/// What the compactor produced.
#[derive(Debug)]
pub enum Outcome {
    /// A plan that verifies as compact, with the warnings the verifier
    /// gave, and those of each code past `warning_limit`, counted.
    Plan(Plan, Vec<Diagnostic>, Vec<Folded>),
    /// No plan fits the budget: a person must decide.
    Escalate(Vec<Diagnostic>),
    /// The trace cannot be compacted safely as it is, or the summarizer failed.
    Failed(Vec<Diagnostic>),
}

/// Compacts `trace` under `policy`: a plan that verifies as compact, or
/// why there is none.
///
/// ```
/// use ctxguard_core::buffer::{document::{Input, InputFormat}, trace::Trace};
/// use ctxguard_core::compact::{compact, CompactOptions, Outcome};
/// use ctxguard_core::policy::Policy;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let trace = Trace::read(&Input::text("trace.yaml", InputFormat::Yaml, "
/// version: 1
/// regions:
///   - {id: r1, kind: narrative, text: Looked at the users table. It has 40 columns.}
///   - {id: r2, kind: constraint, key: reversible, text: Do not drop columns.}
/// "))?;
/// let Outcome::Plan(plan, _warnings, _) = compact(&Policy::builtin(), &trace, &CompactOptions::default()) else {
///     panic!("the commitments fit");
/// };
/// let mut written = Vec::new();
/// plan.write(InputFormat::Json, &mut written)?;
/// assert!(String::from_utf8(written)?.contains(r#""keep": "r2""#));
/// # Ok(())
/// # }
/// ```
pub fn compact(policy: &Policy, trace: &Trace, options: &CompactOptions) -> Outcome {
    // Only the trace's errors matter here; its warnings come with the verification below.
    let counter = options.budget.counter(policy);
    let index = TraceIndex::new(policy, trace, counter, Some(0));
    if index.has_errors() {
        return Outcome::Failed(index.findings.errors().cloned().collect());
    }
    let mut entries: Vec<(Entry, u64, Option<usize>)> = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    for (t, region) in trace.regions.iter().enumerate() {
        if index.class[t] == Class::Narrative {
            run.push(t);
            continue;
        }
        if let Err(diagnostic) = flush(&mut entries, &mut run, trace, options) {
            return Outcome::Failed(vec![*diagnostic]);
        }
        let discharged =
            matches!(index.class[t], Class::Commitment(_)) && region.status == Status::Discharged;
        entries.push((
            Entry::Keep {
                id: Spanned::unplaced(region.id.as_str().into()),
            },
            index.tokens[t],
            discharged.then_some(t),
        ));
    }
    if let Err(diagnostic) = flush(&mut entries, &mut run, trace, options) {
        return Outcome::Failed(vec![*diagnostic]);
    }
    // Every summary counted at once, on every core when there are many.
    let summaries: Vec<&str> = (entries.iter())
        .filter_map(|(entry, _, _)| match entry {
            Entry::Summary { text, .. } => Some(text.node.as_str()),
            _ => None,
        })
        .collect();
    let mut counts = counter.count_all(&summaries).into_iter();
    for (entry, tokens, _) in &mut entries {
        if let Entry::Summary { .. } = entry {
            *tokens = counts.next().unwrap_or(0);
        }
    }

    if let Some(window) = options.budget.window_for(policy) {
        let mut total = entries.iter().fold(0, |total: u64, (_, tokens, _)| {
            total.saturating_add(*tokens)
        });
        // Oldest summaries first, then oldest discharged commitments.
        let droppable: Vec<usize> = (0..entries.len())
            .filter(|&i| matches!(entries[i].0, Entry::Summary { .. }))
            .chain((0..entries.len()).filter(|&i| entries[i].2.is_some()))
            .collect();
        let mut dropped = vec![false; entries.len()];
        for i in droppable {
            if total <= window {
                break;
            }
            dropped[i] = true;
            total = total.saturating_sub(entries[i].1);
        }
        let mut keep = dropped.iter().map(|d| !d);
        entries.retain(|_| keep.next().unwrap_or(true));
    }

    let plan = Plan::unplaced(
        entries
            .into_iter()
            .enumerate()
            .map(|(index, (entry, _, _))| PlanRegion::unplaced(index, entry))
            .collect(),
    );
    let verification = verify(policy, trace, &plan, &options.verify_options());
    match verification.verdict {
        Verdict::Compact => {
            Outcome::Plan(plan, verification.diagnostics, verification.stats.folded)
        }
        Verdict::Escalate => Outcome::Escalate(
            verification
                .diagnostics
                .into_iter()
                .filter(|d| d.code == Code::BudgetUnmeetable)
                .collect(),
        ),
        Verdict::Reject => Outcome::Failed(
            verification
                .diagnostics
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .collect(),
        ),
    }
}

/// Replaces the pending narrative run by one summary, its tokens not yet
/// counted.
fn flush(
    entries: &mut Vec<(Entry, u64, Option<usize>)>,
    run: &mut Vec<usize>,
    trace: &Trace,
    options: &CompactOptions,
) -> Result<(), Box<Diagnostic>> {
    if run.is_empty() {
        return Ok(());
    }
    let texts: Vec<String> = run
        .iter()
        .map(|&t| trace.regions[t].content.as_text().into_owned())
        .collect();
    let (text, summarizer) = match &options.summarizer {
        Some(summarizer) => (
            summarizer::summarize(summarizer, texts.join("\n\n"), run, trace)?,
            summarizer.name().to_owned(),
        ),
        None => {
            // Tool output's first line is a command, not what happened.
            let prose: Vec<String> = run
                .iter()
                .zip(&texts)
                .filter(|(&t, _)| trace.regions[t].role != Some(Role::Tool))
                .map(|(_, text)| text.clone())
                .collect();
            let text = match prose.is_empty() {
                true => match run.len() {
                    1 => "Tool output, not kept.".to_owned(),
                    n => format!("Tool output ({n} regions), not kept."),
                },
                false => summarizer::extract(&prose),
            };
            (text, "extractive".to_owned())
        }
    };
    let covers = run
        .iter()
        .map(|&t| Spanned::unplaced(trace.regions[t].id.as_str().into()))
        .collect();
    entries.push((
        Entry::Summary {
            kind: SummaryKind::Summary,
            covers,
            quotes: Vec::new(),
            text: Spanned::unplaced(text.into()),
            summarizer: Some(summarizer),
        },
        0,
        None,
    ));
    run.clear();
    Ok(())
}
