//! The budget at its edges: a buffer of exactly the window, commitments of
//! exactly their share, fit; one token more does not. Each case kills a
//! mutant `cargo mutants --file src/verify/verifier.rs` missed
//! (docs/mutants.md).

use ctxguard::{verify, Input, Options, Plan, Policy, Trace, Verdict};

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
    let trace = Trace::read(&Input::value(
        "t.json",
        &serde_json::json!({"version": 1, "regions": regions}),
    ))
    .expect("a trace");
    let plan = Plan::read(&Input::value(
        "p.json",
        &serde_json::json!({"version": 1, "regions": keeps}),
    ))
    .expect("a plan");
    let verification = verify(&policy, &trace, &plan, &Options::default());
    let codes = verification
        .diagnostics
        .iter()
        .map(|d| d.code.name().to_owned())
        .collect();
    (verification.verdict, codes)
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
