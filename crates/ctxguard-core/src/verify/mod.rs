//! `ctxguard verify`: a plan against its trace and policy. One pass over the
//! trace (the index), one over the plan, then the checks that need both:
//! what is missing, the order, the budget. Every step is linear in the
//! input, except the preserve-order check (n log n).

pub mod difference;
pub mod dispose;
pub(crate) mod drift;
pub(crate) mod findings;
pub mod index;
mod order;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::document::Input;

    /// A plan of many summaries is asked about them apart from the pass, on
    /// another core: what the pass finds is what it finds asking each in
    /// turn, whichever summaries were asked apart (all but the first, the
    /// last half, those another core reached), when the edit budget of
    /// identifier drift runs out part way through too.
    #[test]
    fn summaries_asked_ahead_are_verified_as_in_turn() {
        // Pinned paths, and summaries of near misses: each summary spends
        // some of the budget; a few thousand of them spend it all.
        let mut trace = Vec::new();
        let mut plan = Vec::new();
        for i in 0..1100 {
            let path = format!("a{:03}/h{}.rs", i % 400, i % 9);
            trace.push(serde_json::json!({"id": format!("p{i}"), "kind": "identifier", "key": format!("k{i}"), "text": path}));
            trace.push(serde_json::json!({"id": format!("n{i}"), "kind": "narrative", "text": "Looked around.", "tokens": 3}));
            plan.push(serde_json::json!({"keep": format!("p{i}")}));
            let words: Vec<String> = (0..12)
                .map(|w| format!("a{:03}/h{}.rz", (i + w) % 400, w % 9))
                .collect();
            let said = if i % 5 == 0 {
                "You must deploy first."
            } else {
                "Read it."
            };
            plan.push(
                serde_json::json!({"kind": "summary", "covers": [format!("n{i}")],
                "text": format!("{said} {}", words.join(" ")), "tokens": 20}),
            );
        }
        let trace = Trace::read(&Input::value(
            "trace.json",
            &serde_json::json!({"version": 1, "regions": trace}),
        ))
        .unwrap_or_else(|d| panic!("{}", d.message));
        let plan = Plan::read(&Input::value(
            "plan.json",
            &serde_json::json!({"version": 1, "regions": plan}),
        ))
        .unwrap_or_else(|d| panic!("{}", d.message));
        let policy = Policy::builtin();
        let options = Options::default();
        // Asked apart from the pass from `from` summaries, those after the
        // `before`th asked before the pass starts.
        let run = |from: usize, before: Option<usize>| {
            let index = TraceIndex::new(&policy, &trace, options.budget.counter(&policy), None);
            let written = written_tokens(index.counter, &plan);
            let asked = verifier::Ahead::new(from);
            if let Some(before) = before {
                asked.ask_from(before, &policy, &index.drift, &plan);
                assert_eq!(asked.answered(), 1099 - before);
            }
            let verification = check(index, &plan, written, &options, asked);
            let found: Vec<(String, String)> = (verification.diagnostics.iter())
                .map(|d| (d.code.name().to_owned(), d.message.clone()))
                .collect();
            (found, verification.stats)
        };
        let (in_turn, stats) = run(usize::MAX, None);
        assert!(
            in_turn
                .iter()
                .any(|(code, message)| code == "identifier-drift" && message.contains("stopped")),
            "the budget runs out: {:?}",
            in_turn
                .iter()
                .map(|(c, _)| c)
                .collect::<std::collections::BTreeSet<_>>()
        );
        assert!(in_turn
            .iter()
            .any(|(code, _)| code == "commitment-in-summary"));
        for before in [Some(0), Some(550), None] {
            assert_eq!(
                run(1, before),
                (in_turn.clone(), stats.clone()),
                "{before:?}"
            );
        }
    }
}
pub mod text;
mod verifier;

use serde::{Deserialize, Serialize};

use crate::buffer::plan::Plan;
use crate::buffer::tokens::{Counter, Tokenizer};
use crate::buffer::trace::Trace;
use crate::diagnostics::{Code, Diagnostic, Overrides, Severity};
use crate::policy::Policy;
use crate::verify::drift::DriftIndex;
use crate::verify::index::{Class, TraceIndex};
use crate::verify::verifier::Verifier;

/// The window and how tokens are counted against it, for one run of
/// `verify` or `plan`; `None` takes the policy's.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Overrides the policy's `budget window`.
    pub window: Option<u64>,
    /// Overrides the policy's `tokenizer`.
    pub tokenizer: Option<Tokenizer>,
    /// Count every region instead of trusting its `tokens`, and report
    /// counts more than 10% off (`token-count-mismatch`).
    pub recount: bool,
}

impl Budget {
    /// The window this run holds a plan to under `policy`: the override,
    /// else the policy's `budget window`; `None` when neither sets one.
    pub fn window_for(&self, policy: &Policy) -> Option<u64> {
        self.window.or(policy.window.as_ref().map(|w| w.value))
    }

    /// How this run counts tokens under `policy`.
    pub fn counter(&self, policy: &Policy) -> Counter {
        Counter {
            tokenizer: self.tokenizer.unwrap_or(policy.tokenizer.value),
            recount: self.recount,
        }
    }
}

/// How `verify` runs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The window and how tokens are counted.
    pub budget: Budget,
    /// Show at most this many advisory warnings of one code, then say the
    /// search stopped; `None` shows every one.
    pub warning_limit: Option<usize>,
    /// `--allow`, `--warn`, `--deny` and `--deny-warnings`, applied before
    /// the verdict is decided.
    pub overrides: Overrides,
}

/// The command line's default for [`Options::warning_limit`].
pub const WARNING_LIMIT: usize = 10;

/// What to do with a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Safe to apply.
    Compact,
    /// The plan loses or alters a commitment.
    Reject,
    /// No plan can meet the budget without truncating a commitment.
    Escalate,
}

impl Verdict {
    /// `compact`, `reject` or `escalate`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Compact => "compact",
            Verdict::Reject => "reject",
            Verdict::Escalate => "escalate",
        }
    }
}

/// Counts of a verification.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Regions in the trace.
    pub trace_regions: usize,
    /// Regions in the plan.
    pub plan_regions: usize,
    /// Commitments in the trace.
    pub commitments: usize,
    /// Tokens of the trace.
    pub tokens_before: u64,
    /// Tokens of the plan.
    pub tokens_after: u64,
    /// The window, if there is one.
    pub budget: Option<u64>,
    /// Advisory warnings past the limit of each code: counted, not shown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub folded: Vec<findings::Folded>,
}

/// The result of [`verify`].
#[derive(Debug)]
pub struct Verification {
    /// Compact, reject or escalate.
    pub verdict: Verdict,
    /// Every finding, in report order.
    pub diagnostics: Vec<Diagnostic>,
    /// Counts and tokens.
    pub stats: Stats,
}

/// Escalate wins over reject; warnings never change the verdict.
pub fn verdict_of(diagnostics: &[Diagnostic]) -> Verdict {
    if diagnostics.iter().any(|d| d.code == Code::BudgetUnmeetable) {
        Verdict::Escalate
    } else if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        Verdict::Reject
    } else {
        Verdict::Compact
    }
}

/// Verifies `plan` against `trace` under `policy`: the verdict, every finding, the counts.
pub fn verify(policy: &Policy, trace: &Trace, plan: &Plan, options: &Options) -> Verification {
    let counter = options.budget.counter(policy);
    let index = TraceIndex::new(policy, trace, counter, options.warning_limit);
    let written = written_tokens(counter, plan);
    verify_index(index, plan, written, options)
}

pub use findings::Folded;
/// The tokens of every plan region's written text that is counted, which
/// [`verify_index`] is given: the plan's own work, done while the trace is
/// still being read.
pub use verifier::written_tokens;

/// Verifies `plan` against a trace already indexed (in memory, or read as
/// it streamed) with `options`' counter and warning limit.
pub fn verify_index(
    index: TraceIndex<'_>,
    plan: &Plan,
    written: Vec<Option<u64>>,
    options: &Options,
) -> Verification {
    let asked = verifier::Ahead::new(verifier::AHEAD);
    check(index, plan, written, options, asked)
}

/// [`verify_index`], summaries asked apart from the pass as `asked` says
/// (some may have been asked already).
fn check(
    mut index: TraceIndex<'_>,
    plan: &Plan,
    written: Vec<Option<u64>>,
    options: &Options,
    asked: verifier::Ahead,
) -> Verification {
    let findings = std::mem::take(&mut index.findings);
    let n = index.len();
    // The pinned identifiers' index is shared with the summaries asked
    // apart from the pass, on another core.
    let drift = std::mem::replace(&mut index.drift, DriftIndex::new(Vec::new()));
    let policy = index.policy;
    let pass = || {
        let mut next_protected = vec![verifier::narrow(n); n + 1];
        for i in (0..n).rev() {
            next_protected[i] = if index.class[i].is_protected() {
                verifier::narrow(i)
            } else {
                next_protected[i + 1]
            };
        }
        let mut verifier = Verifier {
            index,
            plan,
            findings,
            used_by: vec![None; n],
            represented: vec![false; n],
            altered: vec![false; n],
            kept: vec![false; n],
            next_protected,
            sequence: Vec::new(),
            tokens_after: 0,
            drift_stopped: false,
            claimed: Vec::new(),
            written,
            near: 0,
            drift: &drift,
            ahead: &asked,
            summaries: 0,
        };
        for (p, region) in plan.regions.iter().enumerate() {
            verifier.entry(p, region);
        }
        asked.over();
        verifier
    };
    // A small plan is passed over alone (and no thread pool is started).
    let mut verifier = match asked.asks(plan) {
        true => rayon::in_place_scope(|scope| {
            let (drift, asked) = (&drift, &asked);
            scope.spawn(move |_| asked.ask(policy, drift, plan));
            pass()
        }),
        false => pass(),
    };
    verifier.missing();
    verifier.preserve_order();
    verifier.order_rules();
    let budget = verifier.budget(options);
    let index = &verifier.index;
    let stats = Stats {
        trace_regions: n,
        plan_regions: plan.regions.len(),
        commitments: index
            .class
            .iter()
            .filter(|c| matches!(c, Class::Commitment(_)))
            .count(),
        tokens_before: index
            .tokens
            .iter()
            .fold(0, |total: u64, &tokens| total.saturating_add(tokens)),
        tokens_after: verifier.tokens_after,
        budget,
        folded: Vec::new(),
    };
    let Verifier {
        index,
        findings,
        used_by,
        represented,
        altered,
        kept,
        next_protected,
        sequence,
        claimed,
        written,
        ..
    } = verifier;
    dispose::later(
        (
            index.leftovers(),
            (used_by, represented, altered, kept, next_protected),
            (sequence, claimed, written, asked, drift),
        ),
        n >= dispose::LARGE,
    );
    let (found, folded) = findings.finish();
    let diagnostics = options.overrides.apply(found);
    // A code allowed for the run is not counted either.
    let kept: std::collections::HashSet<&str> = diagnostics.iter().map(|d| d.code.name()).collect();
    let stats = Stats {
        folded: folded
            .into_iter()
            .filter(|f| kept.contains(f.code.as_str()))
            .collect(),
        ..stats
    };
    Verification {
        verdict: verdict_of(&diagnostics),
        diagnostics,
        stats,
    }
}
