//! Verdicts at their edges: a buffer of exactly the window fits, a tag
//! written when its region was is not late, a repeated identity is carried
//! by either copy, a trace with errors is not compacted. Each case kills a
//! mutant `cargo mutants` missed in `crates/ctxguard-core/src/verify/verifier.rs` or
//! `crates/ctxguard-core/src/verify/index.rs` (docs/mutants.md).

mod common;

use common::{verdict_and_codes, verify_regions};
use ctxguard::{
    compact, compact::Options as CompactOptions, compact::Outcome, Input, Policy, Trace, Verdict,
};

fn trace(regions: serde_json::Value) -> Trace {
    Trace::read(&Input::value(
        "t.json",
        &serde_json::json!({"version": 1, "regions": regions}),
    ))
    .expect("a trace")
}

/// The verdict and codes of a plan (regions as JSON) against a trace.
fn judge(
    trace_regions: serde_json::Value,
    plan_regions: serde_json::Value,
) -> (Verdict, Vec<String>) {
    verdict_and_codes(&verify_regions(
        &Policy::builtin(),
        trace_regions,
        plan_regions,
    ))
}

#[test]
fn a_tag_is_late_only_when_written_after_its_region() {
    let region = |at: u64, tagged_at: u64| serde_json::json!([{"id": "c", "kind": "constraint", "key": "k", "text": "Never push.", "at": at, "tagged_at": tagged_at}]);
    let keep = serde_json::json!([{"keep": "c"}]);
    for (at, tagged_at) in [(5, 5), (5, 3)] {
        assert_eq!(
            judge(region(at, tagged_at), keep.clone()),
            (Verdict::Compact, vec![]),
            "at {at}, tagged at {tagged_at}"
        );
    }
    let (_, codes) = judge(region(5, 6), keep);
    assert_eq!(codes, ["retrofitted-tag"]);
}

#[test]
fn a_repeated_commitment_is_carried_by_either_copy() {
    let regions = serde_json::json!([
        {"id": "c1", "kind": "constraint", "key": "k", "text": "Never push."},
        {"id": "n", "kind": "narrative", "text": "story"},
        {"id": "c2", "kind": "constraint", "key": "k", "text": "Never push."}
    ]);
    let plan = serde_json::json!([
        {"kind": "summary", "covers": ["n"], "text": "A story."},
        {"keep": "c2"}
    ]);
    assert_eq!(judge(regions, plan), (Verdict::Compact, vec![]));
}

#[test]
fn a_trace_with_errors_is_not_compacted() {
    let regions = serde_json::json!([
        {"id": "r", "kind": "narrative", "text": "one"},
        {"id": "r", "kind": "narrative", "text": "two"}
    ]);
    let Outcome::Failed(diagnostics) = compact(
        &Policy::builtin(),
        &trace(regions),
        &CompactOptions::default(),
    ) else {
        panic!("a trace with a repeated id was compacted");
    };
    let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["duplicate-region"]);
}

/// Verifies a plan that keeps every region of a trace of commitments with
/// these token counts, plus one narrative region of `narrative` tokens
/// (kept too), under a window of 1,000 tokens and a commitment share of
/// `share` percent.
fn run(share: u32, commitments: &[u64], narrative: u64) -> (Verdict, Vec<String>) {
    let policy = format!("kind c\nbudget window 1000\nbudget commitments {share}%\n");
    let (policy, _) = Policy::from_text("p.policy", &policy).expect("a usable policy");
    let mut regions: Vec<_> = commitments
        .iter()
        .enumerate()
        .map(|(i, tokens)| serde_json::json!({"id": format!("c{i}"), "kind": "c", "key": format!("k{i}"), "text": format!("rule {i}"), "tokens": tokens}))
        .collect();
    regions.push(
        serde_json::json!({"id": "n", "kind": "narrative", "text": "story", "tokens": narrative}),
    );
    let keeps: Vec<_> = regions
        .iter()
        .map(|region| serde_json::json!({"keep": region["id"]}))
        .collect();
    verdict_and_codes(&verify_regions(&policy, regions.into(), keeps.into()))
}

#[test]
fn commitments_that_fill_the_window_exactly_fit() {
    assert_eq!(run(100, &[600, 400], 0), (Verdict::Compact, vec![]));
    let (verdict, codes) = run(100, &[600, 401], 0);
    assert_eq!(verdict, Verdict::Escalate, "{codes:?}");
}

#[test]
fn commitments_of_exactly_their_share_fit() {
    assert_eq!(run(50, &[300, 200], 0), (Verdict::Compact, vec![]));
    let (verdict, codes) = run(50, &[300, 201], 0);
    assert_eq!(verdict, Verdict::Escalate, "{codes:?}");
}

#[test]
fn a_buffer_of_exactly_the_window_fits() {
    assert_eq!(run(50, &[300], 700), (Verdict::Compact, vec![]));
    let (verdict, codes) = run(50, &[300], 701);
    assert_eq!(verdict, Verdict::Reject, "{codes:?}");
    assert_eq!(codes, ["over-budget"]);
}

/// A child policy in a folder with its parent: the child's verdict-relevant
/// result (`Policy::load`), as `verify --policy child.policy` reads it.
fn child_of(
    parent: &str,
    child: &str,
) -> Result<(std::sync::Arc<Policy>, Vec<ctxguard::Diagnostic>), Vec<ctxguard::Diagnostic>> {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("parent.policy"), parent).expect("write");
    std::fs::write(
        dir.path().join("child.policy"),
        format!("extends \"parent.policy\"\n{child}"),
    )
    .expect("write");
    Policy::load(&dir.path().join("child.policy"))
}

#[test]
fn restating_a_kinds_severity_is_not_lowering_it() {
    let (_, warnings) = child_of(
        "kind c {\n  severity warning\n}\n",
        "kind c {\n  severity warning\n}\n",
    )
    .expect("a usable policy");
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn a_child_raising_a_kinds_severity_makes_losing_it_an_error() {
    let (policy, _) = child_of(
        "kind c {\n  severity warning\n}\n",
        "kind c {\n  severity error\n}\n",
    )
    .expect("a usable policy");
    let c = policy.kinds.iter().find(|k| k.name == "c").expect("kind c");
    assert_eq!(c.severity.value, ctxguard::Severity::Error);
}

#[test]
fn past_the_hint_limit_one_finding_and_no_more_hints() {
    let hints: String = (0..300).map(|i| format!("  hint /word{i}/\n")).collect();
    let mut loader = ctxguard::Loader::new();
    let loaded = loader.load_source(
        ctxguard::SourceFile::new("p.policy", format!("kind a {{\n{hints}}}\n")),
        None,
    );
    let found: Vec<_> = loader
        .diagnostics()
        .filter(|d| d.message.contains("more than 256 hints"))
        .collect();
    assert_eq!(found.len(), 1);
    let policy = loaded.policy.as_ref().expect("a policy");
    assert_eq!(policy.kinds[0].hints.len(), 256);
}

#[test]
fn a_child_restating_its_parents_window_does_not_raise_it() {
    let (_, warnings) =
        child_of("budget window 1000\n", "budget window 1000\n").expect("a usable policy");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(child_of("budget window 1000\n", "budget window 1001\n").is_err());
}

#[test]
fn a_commitment_share_is_more_than_nothing() {
    assert!(Policy::from_text("p.policy", "budget commitments 0%\n").is_err());
    assert!(Policy::from_text("p.policy", "budget commitments 0.5%\n").is_ok());
}

#[test]
fn an_order_pattern_may_be_exactly_the_longest() {
    let policy = |length: usize| {
        format!(
            "kind a\nkind b\norder \"a:{}*\" before b\n",
            "x".repeat(length - 1)
        )
    };
    assert!(Policy::from_text("p.policy", &policy(256)).is_ok());
    assert!(Policy::from_text("p.policy", &policy(257)).is_err());
}

#[test]
fn a_policy_named_twice_shares_its_name_with_no_one() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("team.policy");
    std::fs::write(&file, "policy team\nkind a\nbudget window 64000\n").expect("write");
    // By its path, and again in its folder.
    let paths = [file.clone(), dir.path().to_path_buf()];
    let report = ctxguard::check(
        &paths,
        &ctxguard::Overrides::default(),
        &ctxguard::Access::default(),
    )
    .expect("checked");
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.name()).collect();
    assert!(codes.is_empty(), "{codes:?}");
}
