//! The order checks, pinned down case by case: which commitment is said to
//! have moved, against which neighbour, and that plans the rules allow pass.
//! Each case kills a mutant `cargo mutants --file crates/ctxguard-core/src/verify/order.rs`
//! missed (docs/mutants.md).

mod common;

use common::verify_regions;
use ctxguard::{Policy, Verdict};

/// Verifies `plan` (region ids, kept in this order) against `trace` (kind
/// and key of each region, ids `r0`, `r1`, ...) under `policy`: the verdict
/// and the messages of `order-violated`.
fn run(policy: &str, trace: &[(&str, &str)], plan: &[usize]) -> (Verdict, Vec<String>) {
    let (policy, _) = Policy::from_text("p.policy", policy).expect("a usable policy");
    let regions: Vec<_> = trace
        .iter()
        .enumerate()
        .map(|(i, (kind, key))| serde_json::json!({"id": format!("r{i}"), "kind": kind, "key": key, "text": format!("{kind} {key}")}))
        .collect();
    let keeps: Vec<_> = plan
        .iter()
        .map(|i| serde_json::json!({"keep": format!("r{i}")}))
        .collect();
    let verification = verify_regions(&policy, regions.into(), keeps.into());
    let messages = verification
        .diagnostics
        .iter()
        .filter(|d| d.code.name() == "order-violated")
        .map(|d| d.message.clone())
        .collect();
    (verification.verdict, messages)
}

const PRESERVE: &str = "kind c\npreserve order\n";
const ABCD: [(&str, &str); 4] = [("c", "a"), ("c", "b"), ("c", "c"), ("c", "d")];

#[test]
fn each_commitment_that_moved_is_reported() {
    // Two moved to the front: both are reported, each against its neighbour.
    let (verdict, messages) = run(PRESERVE, &ABCD, &[3, 2, 0, 1]);
    assert_eq!(verdict, Verdict::Reject);
    assert_eq!(
        messages,
        [
            "`c:d` comes before `c:a` in the plan, but after it in the trace",
            "`c:c` comes before `c:a` in the plan, but after it in the trace",
        ]
    );
}

#[test]
fn a_moved_commitment_is_named_against_the_right_neighbour() {
    // `d` moved forward, past `b` and `c`; `a` is where it was.
    let (verdict, messages) = run(PRESERVE, &ABCD, &[0, 3, 1, 2]);
    assert_eq!(verdict, Verdict::Reject);
    assert_eq!(
        messages,
        ["`c:d` comes before `c:b` in the plan, but after it in the trace"]
    );
    // `b` moved back, behind `c` and `d`.
    let (verdict, messages) = run(PRESERVE, &ABCD, &[0, 2, 3, 1]);
    assert_eq!(verdict, Verdict::Reject);
    assert_eq!(
        messages,
        ["`c:d` comes before `c:b` in the plan, but after it in the trace"]
    );
}

const RULE: &str = "kind c\nkind d\nkind v\norder c before d\n";

#[test]
fn a_rule_judges_only_the_kinds_it_names() {
    // No `d` at all: moving a `v` before a `c` breaks no rule.
    let (verdict, messages) = run(RULE, &[("c", "one"), ("v", "x")], &[1, 0]);
    assert_eq!(verdict, Verdict::Compact, "{messages:?}");
}

#[test]
fn a_rule_compares_with_the_latest_b_in_the_trace() {
    // The trace has d1, c1, d2: c1 before d2 holds there. Moving d2 ahead of
    // c1 breaks it, though d1 (already before c1 in the trace) comes first.
    let trace = [("d", "one"), ("c", "one"), ("d", "two")];
    let (verdict, messages) = run(RULE, &trace, &[0, 2, 1]);
    assert_eq!(verdict, Verdict::Reject);
    assert_eq!(
        messages.first().map(String::as_str),
        Some("`d:two` comes before `c:one` in the plan, against `order c before d`")
    );
}
