//! Codes of verification (`ctxguard verify` and `plan`). Each code's
//! explanation and the constructors of its diagnostics (message and help)
//! live together here; the checks that report them are in `src/verify/`.

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic};

// `missing-commitment`

pub(crate) const MISSING_COMMITMENT: Explanation = Explanation {
    code: Code::MissingCommitment,
    summary: "a commitment in the trace is not in the plan",
    details: "Every active commitment must survive compaction byte for byte. A plan that neither keeps it (`keep: ID`) nor writes it out unchanged loses it, and the agent will act as if it had never been said. Discharged commitments (already carried out) may be dropped.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Add `keep: ID` for the commitment, where it stands in trace order.",
};

/// An active commitment no plan region keeps. `covered`: a summary covers it.
pub(crate) fn missing_commitment(identity: &str, region: &str, covered: bool) -> Diagnostic {
    let identity: &str = &echo(identity);
    let region: &str = &echo(region);
    let help = if covered {
        format!("take `{region}` out of the summary's `covers` and add `keep: {region}` where it stands in trace order")
    } else {
        format!("add `keep: {region}` to the plan, where it stands in trace order")
    };
    Diagnostic::new(
        Code::MissingCommitment,
        format!("commitment `{identity}` is missing from the plan"),
    )
    .help(help)
    .commitment(identity)
    .region(region)
}

// `altered-commitment`

pub(crate) const ALTERED_COMMITMENT: Explanation = Explanation {
    code: Code::AlteredCommitment,
    summary: "the plan writes a commitment out with different content",
    details: "A commitment written out in the plan must equal the trace's byte for byte (a `record` structurally, key order ignored). A paraphrase is a different rule: `do not drop columns` is not `avoid dropping columns`. The diagnostic shows a word diff, and names differences that cannot be seen: whitespace, CRLF against LF, Unicode normalization, zero-width or non-breaking characters.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - kind: constraint\n    key: reversible\n    text: \"Keep the migration reversible.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Replace the rewritten copy with `keep: ID`.",
};

/// A commitment written out with other content than the trace's region `region`.
pub(crate) fn altered_commitment(identity: &str, region: &str) -> Diagnostic {
    let identity: &str = &echo(identity);
    let region: &str = &echo(region);
    Diagnostic::new(
        Code::AlteredCommitment,
        format!("commitment `{identity}` is altered in the plan"),
    )
    .help(format!(
        "replace the rewritten copy with `keep: {region}`: commitments survive byte for byte"
    ))
    .commitment(identity)
    .region(region)
}

// `altered-narrative`

pub(crate) const ALTERED_NARRATIVE: Explanation = Explanation {
    code: Code::AlteredNarrative,
    summary: "a plan marks a narrative region kept but changes its text",
    details: "`kind: narrative` with `from: ID` claims to keep a trace region verbatim. If its text differs, the plan says one thing and does another; a shortened narrative is a summary and must say so.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: narrative\n    from: r1\n    text: \"Looked at users.\"\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Write it as a `summary` that covers the region, or keep it with `keep: ID`.",
};

/// A `narrative` entry whose text differs from the trace region `region`.
pub(crate) fn altered_narrative(region: &str) -> Diagnostic {
    let region: &str = &echo(region);
    Diagnostic::new(
        Code::AlteredNarrative,
        format!("narrative region `{region}` is marked kept, but its text differs"),
    )
    .help(format!(
        "to shorten it, write a `summary` with `covers: [{region}]`; to keep it, use `keep: {region}`"
    ))
    .region(region)
}

// `summary-covers-commitment`

pub(crate) const SUMMARY_COVERS_COMMITMENT: Explanation = Explanation {
    code: Code::SummaryCoversCommitment,
    summary: "a summary covers a commitment or an unclassified region",
    details: "A summary may replace narrative only. Covering a commitment folds it into prose, where a summarizer paraphrases it: the compaction failure ctxguard exists to catch. Unclassified content counts as a commitment. The covered commitment is usually also missing.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1, r2]\n    text: \"Inspected the users table for a reversible migration.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Take the commitment out of `covers` and keep it with `keep: ID`.",
};

/// A summary covers region `region`: a commitment (`identity`) or unclassified.
pub(crate) fn summary_covers_commitment(identity: Option<&str>, region: &str) -> Diagnostic {
    let region: &str = &echo(region);
    let identity = identity.map(echo);
    let identity = identity.as_deref();
    let what = protected(identity, region);
    let diagnostic = Diagnostic::new(
        Code::SummaryCoversCommitment,
        format!("a summary covers {what}"),
    )
    .help(format!("take `{region}` out of `covers` and keep it with `keep: {region}`; a summary may replace narrative only"))
    .region(region);
    match identity {
        Some(identity) => diagnostic.commitment(identity),
        None => diagnostic,
    }
}

/// "commitment `kind:key`" or "unclassified region `id`".
fn protected(identity: Option<&str>, region: &str) -> String {
    match identity {
        Some(identity) => format!("commitment `{identity}`"),
        None => format!("unclassified region `{region}`"),
    }
}

// `summary-spans-commitment`

pub(crate) const SUMMARY_SPANS_COMMITMENT: Explanation = Explanation {
    code: Code::SummarySpansCommitment,
    summary: "a summary covers narrative on both sides of a commitment",
    details: "A summary that replaces narrative before and after a commitment moves that narrative across it: what was said after the rule now reads as if said before it. Each run of narrative between commitments gets its own summary.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: narrative\n    text: \"Drafted the profiles table.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1, r3]\n    text: \"Inspected users; drafted profiles.\"\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Split the summary: one for the narrative before the commitment, one for the narrative after it.",
};

/// A summary covers narrative on both sides of region `region`.
pub(crate) fn summary_spans_commitment(identity: Option<&str>, region: &str) -> Diagnostic {
    let region: &str = &echo(region);
    let identity = identity.map(echo);
    let identity = identity.as_deref();
    let what = protected(identity, region);
    Diagnostic::new(
        Code::SummarySpansCommitment,
        format!("a summary covers narrative on both sides of {what}"),
    )
    .help(format!(
        "split the summary so it does not span `{region}`: one summary for the narrative before it, another for the narrative after it"
    ))
    .region(region)
}

// `invented-commitment`

pub(crate) const INVENTED_COMMITMENT: Explanation = Explanation {
    code: Code::InventedCommitment,
    summary: "the plan holds a commitment the trace does not",
    details: "A compaction may only keep what the trace commits to. A commitment that appears during compaction (a summarizer that turned a suggestion into a rule) is one the agent would obey although nobody asked for it.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - kind: decision\n    key: orm\n    text: \"Use SQLAlchemy for the migration.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Remove the commitment from the plan.",
};

/// The plan writes out a commitment the trace does not have.
pub(crate) fn invented_commitment(identity: &str) -> Diagnostic {
    let identity: &str = &echo(identity);
    Diagnostic::new(
        Code::InventedCommitment,
        format!("the plan holds commitment `{identity}`, which the trace does not"),
    )
    .help("remove it: a compaction may only keep what the trace commits to, and a commitment nobody made is one the agent would obey")
    .commitment(identity)
}

// `unclassified-dropped`

pub(crate) const UNCLASSIFIED_DROPPED: Explanation = Explanation {
    code: Code::UnclassifiedDropped,
    summary: "an unclassified region is not kept",
    details: "Content nobody classified may hold a commitment, so under `on unclassified keep` it is kept verbatim like one. A plan that drops it may drop a rule nobody tagged.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    text: \"maybe keep the old flag around?\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Add `keep: ID` for the region, or classify it in the trace (`kind: narrative` if it is one).",
};

/// Unclassified region `region` is not kept.
pub(crate) fn unclassified_dropped(region: &str) -> Diagnostic {
    let region: &str = &echo(region);
    Diagnostic::new(
        Code::UnclassifiedDropped,
        format!("unclassified region `{region}` is not kept"),
    )
    .help(format!("add `keep: {region}`: content nobody classified may hold a commitment, so it is kept (`on unclassified keep`)"))
    .region(region)
}

// `order-violated`

pub(crate) const ORDER_VIOLATED: Explanation = Explanation {
    code: Code::OrderViolated,
    summary: "commitments stand in the wrong order in the plan",
    details: "Under `preserve order` commitments keep their trace order; `order A before B` requires every commitment matching A to stand before every one matching B. `run the tests before applying the patch` placed after the patch decision reads as the opposite instruction. The diagnostic names both commitments, their plan positions and the policy statement.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: ordering\n    key: tests-first\n    text: \"Run the test suite before applying the patch.\"\n  - id: r2\n    kind: decision\n    key: primary-key\n    text: \"Use (tenant_id, id) as the primary key.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r1\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Move the commitment as the help says, back into trace order.",
};

/// `preserve order`: `a` comes before `b` in the plan but after it in the
/// trace; `a_moved` says which of the two is outside the in-order run.
pub(crate) fn order_moved(a: &str, b: &str, a_moved: bool) -> Diagnostic {
    let a: &str = &echo(a);
    let b: &str = &echo(b);
    let (help, moved) = if a_moved {
        (format!("move `{a}` after `{b}`"), a)
    } else {
        (format!("move `{b}` before `{a}`"), b)
    };
    Diagnostic::new(
        Code::OrderViolated,
        format!("`{a}` comes before `{b}` in the plan, but after it in the trace"),
    )
    .help(help)
    .commitment(moved)
}

/// `order A before B` (`rule`): the plan puts `b` before `a`, which the trace
/// has in the required order.
pub(crate) fn order_rule_inverted(a: &str, b: &str, rule: &str) -> Diagnostic {
    let a: &str = &echo(a);
    let b: &str = &echo(b);
    let rule: &str = &echo(rule);
    Diagnostic::new(
        Code::OrderViolated,
        format!("`{b}` comes before `{a}` in the plan, against `{rule}`"),
    )
    .help(format!("move `{b}` after `{a}`, as in the trace"))
    .commitment(b)
}

/// The trace itself has `b` before `a`, against `rule`: a warning, since
/// compaction keeps trace order.
pub(crate) fn order_inverted_in_trace(a: &str, b: &str, rule: &str) -> Diagnostic {
    let a: &str = &echo(a);
    let b: &str = &echo(b);
    let rule: &str = &echo(rule);
    Diagnostic::new(
        Code::OrderViolated,
        format!("the trace itself has `{b}` before `{a}`, against `{rule}`"),
    )
    .severity(crate::diagnostics::Severity::Warning)
    .help(format!("compaction keeps trace order, so no plan can fix this; if the rule should hold, the runtime must restate `{b}` after `{a}`"))
    .commitment(a)
}

// `over-budget`

pub(crate) const OVER_BUDGET: Explanation = Explanation {
    code: Code::OverBudget,
    summary: "the plan holds more tokens than the window",
    details: "The compacted buffer must fit the policy's `budget window` (or `--budget`). The commitments fit, so the plan can: summarize or drop more narrative. Token counts come from each region's `tokens`, or the policy's tokenizer.",
    example: &[("team.policy", "extends default\nbudget window 30\nbudget commitments 60%\ntokenizer approx\n"), ("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: narrative\n    text: \"A long account of every column in the users table, with its type, its default and its history.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n  - keep: r2\n  - kind: narrative\n    from: r3\n")],
    run: "verify --trace trace.yaml --plan plan.yaml --policy team.policy",
    fix: "Summarize or drop narrative until the plan fits.",
};

/// The plan holds `tokens`, more than the `window`; commitments need `required`.
pub(crate) fn over_budget(tokens: u64, window: u64, required: u64) -> Diagnostic {
    Diagnostic::new(
        Code::OverBudget,
        format!("the plan holds {tokens} tokens; the window holds {window}"),
    )
    .help(format!(
        "summarize or drop {} more tokens of narrative; the commitments need only {required}",
        tokens.saturating_sub(window)
    ))
}

// `unknown-region`

pub(crate) const UNKNOWN_REGION: Explanation = Explanation {
    code: Code::UnknownRegion,
    summary: "the plan names a region the trace does not have",
    details: "`keep`, `covers` and `from` name trace regions by id. An id the trace does not have means the plan was made for another trace, or an id was mistyped, and what the plan meant to keep is not kept.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - keep: r12\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Correct the id.",
};

/// The plan names region `id`, which the trace lacks.
pub(crate) fn unknown_region(id: &str) -> Diagnostic {
    let id: &str = &echo(id);
    Diagnostic::new(
        Code::UnknownRegion,
        format!("the plan names region `{id}`, which the trace does not have"),
    )
    .help("a plan can only keep, cover or rewrite regions of its trace; check the id")
    .region(id)
}

// `conflicting-commitment`

pub(crate) const CONFLICTING_COMMITMENT: Explanation = Explanation {
    code: Code::ConflictingCommitment,
    summary: "one commitment identity has two different contents in the trace",
    details: "A commitment's identity is `kind:key`. Two regions with one identity and different content leave no way to tell which one holds, so no plan can be verified as keeping it: a person must decide.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n  - id: r3\n    kind: constraint\n    key: reversible\n    text: \"The migration may drop the legacy columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r3\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Give one of them another key, or mark the stale one `status: discharged`.",
};

/// One identity with two contents in the trace; `region` is the second.
pub(crate) fn conflicting_commitment(identity: &str, region: &str) -> Diagnostic {
    let identity: &str = &echo(identity);
    let region: &str = &echo(region);
    Diagnostic::new(
        Code::ConflictingCommitment,
        format!("commitment `{identity}` has two different contents in the trace"),
    )
    .help("a person must decide which one holds: give the other its own key, or mark it `status: discharged`")
    .commitment(identity)
    .region(region)
}

// `duplicate-region`

pub(crate) const DUPLICATE_REGION: Explanation = Explanation {
    code: Code::DuplicateRegion,
    summary: "a region id is used twice in the trace, or a trace region twice in the plan",
    details: "Regions are named by id; two trace regions with one id make `keep: ID` ambiguous, and a plan that keeps or covers one region twice duplicates it in the buffer.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Give every trace region its own id; use each trace region once in a plan.",
};

/// Region id `id` is used twice in the trace.
pub(crate) fn duplicate_trace_id(id: &str) -> Diagnostic {
    let id: &str = &echo(id);
    Diagnostic::new(
        Code::DuplicateRegion,
        format!("region id `{id}` is used twice in the trace"),
    )
    .help("give every region its own id; a plan names regions by id")
    .region(id)
}

/// Trace region `id` is used twice by the plan.
pub(crate) fn duplicate_plan_use(id: &str) -> Diagnostic {
    let id: &str = &echo(id);
    Diagnostic::new(
        Code::DuplicateRegion,
        format!("trace region `{id}` appears twice in the plan"),
    )
    .help("each trace region is kept, covered or rewritten once; remove the second use")
    .region(id)
}

// `status-changed`

pub(crate) const STATUS_CHANGED: Explanation = Explanation {
    code: Code::StatusChanged,
    summary: "the plan changes whether a commitment is active or discharged",
    details: "A discharged commitment is an instruction already carried out. A plan that revives it as active gets a finished step run twice; a plan that marks an active one discharged gets it skipped. Only the runtime changes a status.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: ordering\n    key: migrate\n    status: discharged\n    text: \"Run the migration on staging.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: ordering\n    key: migrate\n    text: \"Run the migration on staging.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Keep the trace's status (`status: discharged`), or drop the discharged commitment.",
};

/// The plan gives commitment `identity` (region `region`) another status
/// than the trace: `revived` a discharged one, or discharged an active one.
pub(crate) fn status_changed(identity: &str, region: &str, revived: bool) -> Diagnostic {
    let identity: &str = &echo(identity);
    let region: &str = &echo(region);
    let (message, help) = match revived {
        true => (
            format!("the plan revives discharged commitment `{identity}` as active"),
            "keep it `status: discharged`, or drop it: an instruction already carried out would be carried out again",
        ),
        false => (
            format!("the plan marks active commitment `{identity}` as discharged"),
            "only the runtime discharges a commitment, when it is carried out; keep it `active`",
        ),
    };
    Diagnostic::new(Code::StatusChanged, message)
        .help(help)
        .commitment(identity)
        .region(region)
}

// `budget-unmeetable`

pub(crate) const BUDGET_UNMEETABLE: Explanation = Explanation {
    code: Code::BudgetUnmeetable,
    summary: "the commitments alone do not fit the budget",
    details: "When the commitments (and unclassified regions) need more than the window, or more than `budget commitments` of it, no plan can fit without truncating one. ctxguard escalates (exit 3): a person must decide. Escalate wins over reject; errors are still listed.",
    example: &[("team.policy", "extends default\nbudget window 10\ntokenizer approx\n"), ("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml --policy team.policy",
    fix: "Raise the budget, discharge commitments already carried out, or split the task.",
};

const ESCALATE_HELP: &str = "a person must decide: raise the budget, discharge commitments already carried out, or split the task";

/// The commitments alone need `required` tokens, more than the `window`.
pub(crate) fn over_window(required: u64, window: u64) -> Diagnostic {
    Diagnostic::new(
        Code::BudgetUnmeetable,
        format!("the commitments alone need {required} tokens; the window holds {window}"),
    )
    .help(ESCALATE_HELP)
}

/// The commitments need `required` tokens, more than their `share`% of the
/// window, `budget` tokens.
pub(crate) fn over_share(required: u64, share: f64, budget: u64) -> Diagnostic {
    Diagnostic::new(
        Code::BudgetUnmeetable,
        format!("the commitments need {required} tokens, more than their {share}% of the window ({budget} tokens)"),
    )
    .help(ESCALATE_HELP)
}

// `retrofitted-tag`

pub(crate) const RETROFITTED_TAG: Explanation = Explanation {
    code: Code::RetrofittedTag,
    summary: "a commitment was tagged after it was written",
    details: "`tagged_at` later than `at` means the region was classified after the fact. A compaction that ran in between saw it as narrative and may already have summarized it, so the tag may guard a paraphrase. A warning: it never changes the verdict.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: constraint\n    key: reversible\n    at: 2\n    tagged_at: 9\n    text: \"Do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Tag commitments when they are written.",
};

/// Commitment `identity` (region `region`) was tagged at `tagged_at`, after `at`.
pub(crate) fn retrofitted_tag(identity: &str, region: &str, tagged_at: u64, at: u64) -> Diagnostic {
    let identity: &str = &echo(identity);
    let region: &str = &echo(region);
    Diagnostic::new(
        Code::RetrofittedTag,
        format!("commitment `{identity}` was tagged at {tagged_at}, after it was written at {at}"),
    )
    .help("tag commitments when they are written: a compaction that ran in between may already have lost or paraphrased it")
    .commitment(identity)
    .region(region)
}

// `untagged-candidate`

pub(crate) const UNTAGGED_CANDIDATE: Explanation = Explanation {
    code: Code::UntaggedCandidate,
    summary: "a narrative or unclassified region matches a kind's hint",
    details: "The policy's `hint` patterns describe what commitments look like. A narrative region that matches one may be a commitment the runtime failed to tag at write time; as narrative it may be summarized away. A warning: hints never decide a verdict.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"You must never drop columns in this migration.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "If it is a commitment, tag it when it is written (`kind` and `key`).",
};

/// A `what` (narrative or unclassified) region looks like a commitment of `kind`.
pub(crate) fn untagged_candidate(what: &str, region: &str, kind: &str) -> Diagnostic {
    let what: &str = &echo(what);
    let region: &str = &echo(region);
    let kind: &str = &echo(kind);
    Diagnostic::new(
        Code::UntaggedCandidate,
        format!("{what} region `{region}` looks like a commitment of kind `{kind}`"),
    )
    .help(format!(
        "if it is one, tag it when it is written (`kind: {kind}` with a `key`); as {what} it may be summarized away"
    ))
    .region(region)
}

// `commitment-in-summary`

pub(crate) const COMMITMENT_IN_SUMMARY: Explanation = Explanation {
    code: Code::CommitmentInSummary,
    summary: "a summary matches a kind's hint",
    details: "A summary that reads like a commitment may be a paraphrase of one, or an invention by the summarizer; either way the agent may follow it. Check it against the trace. A warning: hints never decide a verdict.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"The user said we must never touch the users table.\"\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Make the summary describe only narrative; keep commitments with `keep: ID`.",
};

/// A summary reads like a commitment of `kind`.
pub(crate) fn commitment_in_summary(kind: &str) -> Diagnostic {
    let kind: &str = &echo(kind);
    Diagnostic::new(
        Code::CommitmentInSummary,
        format!("this summary reads like a commitment of kind `{kind}`"),
    )
    .help(format!("check it against the trace: the summarizer may have paraphrased or invented a commitment of kind `{kind}`; keep commitments themselves with `keep: ID`"))
}

// `identifier-drift`

pub(crate) const IDENTIFIER_DRIFT: Explanation = Explanation {
    code: Code::IdentifierDrift,
    summary: "a summary names a variant of a pinned identifier",
    details: "A path or id fixed earlier (`src/legacy/parser_v2.py`) that reappears in a summary as `parser.py`, `legacy/parser_v2.py`, `parser_v3.py` or a near-miss spelling is how an agent ends up editing the wrong file. Pinned identifiers are commitments whose text is a single token.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: identifier\n    key: parser\n    text: \"src/legacy/parser_v2.py\"\n  - id: r2\n    kind: narrative\n    text: \"Read the parser; it normalizes every field.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n  - kind: summary\n    covers: [r2]\n    text: \"parser.py normalizes every field.\"\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Write the identifier exactly as pinned, or leave it out of the summary.",
};

/// The edit-distance rule stopped after comparing `budget` character pairs.
pub(crate) fn drift_stopped(budget: u64) -> Diagnostic {
    Diagnostic::new(
        Code::IdentifierDrift,
        format!("stopped comparing summary words with pinned identifiers after {budget} character pairs; variants 1 or 2 characters away may be missed"),
    )
    .help("summaries this long, against this many pinned identifiers, are better checked a part at a time")
}

/// A summary names `word`, a variant of `pinned` (commitment `identity`).
pub(crate) fn identifier_drift(word: &str, pinned: &str, identity: &str) -> Diagnostic {
    let word: &str = &echo(word);
    let pinned: &str = &echo(pinned);
    let identity: &str = &echo(identity);
    Diagnostic::new(
        Code::IdentifierDrift,
        format!("this summary names `{word}`, a variant of pinned identifier `{pinned}`"),
    )
    .help(format!(
        "write the identifier exactly as pinned, `{pinned}`, or leave it out of the summary"
    ))
    .commitment(identity)
}

// `token-count-mismatch`

pub(crate) const TOKEN_COUNT_MISMATCH: Explanation = Explanation {
    code: Code::TokenCountMismatch,
    summary: "a region's `tokens` is more than 10% off its real count",
    details: "With `--recount`, every region is counted with the policy's tokenizer instead of trusting its `tokens`, and a given count more than 10% away from the real one is reported. A runtime with stale counts makes its compaction decisions (when to compact, what fits) on wrong numbers.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    tokens: 2\n    text: \"Looked at the users table; it has 14 columns, three of them unused since the last migration.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n"), ("plan.yaml", "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"Inspected the users table.\"\n  - keep: r2\n")],
    run: "verify --trace trace.yaml --plan plan.yaml --recount",
    fix: "Have the runtime count with the same tokenizer as the policy, or leave `tokens` out and let ctxguard count.",
};

/// Region `id` gives `given` tokens; `tokenizer` counts `real`.
pub(crate) fn token_count_mismatch(id: &str, given: u64, real: u64, tokenizer: &str) -> Diagnostic {
    let id: &str = &echo(id);
    let tokenizer: &str = &echo(tokenizer);
    Diagnostic::new(
        Code::TokenCountMismatch,
        format!("region `{id}` gives {given} tokens; `{tokenizer}` counts {real}"),
    )
    .help(
        "the runtime's counts are stale or from another tokenizer; budgets here use the real count",
    )
    .region(id)
}

/// Every explanation of this family, in code order.
pub(crate) const ALL: &[&Explanation] = &[
    &MISSING_COMMITMENT,
    &ALTERED_COMMITMENT,
    &ALTERED_NARRATIVE,
    &SUMMARY_COVERS_COMMITMENT,
    &SUMMARY_SPANS_COMMITMENT,
    &INVENTED_COMMITMENT,
    &UNCLASSIFIED_DROPPED,
    &ORDER_VIOLATED,
    &OVER_BUDGET,
    &UNKNOWN_REGION,
    &CONFLICTING_COMMITMENT,
    &DUPLICATE_REGION,
    &STATUS_CHANGED,
    &BUDGET_UNMEETABLE,
    &RETROFITTED_TAG,
    &UNTAGGED_CANDIDATE,
    &COMMITMENT_IN_SUMMARY,
    &IDENTIFIER_DRIFT,
    &TOKEN_COUNT_MISMATCH,
];
