//! Every code has a complete explanation. Each example is run through the
//! real binary, once, by `tests/ui_verify.rs` (`documented_examples`).

use ctxguard::Code;

#[test]
fn explanations_are_complete() {
    for &code in Code::ALL {
        let text = ctxguard::explain(code);
        for part in ["Example:", "Fix:", &format!("ctxguard::{code}")] {
            assert!(text.contains(part), "{code}: {part} missing");
        }
        let explanation = code.explanation();
        assert_eq!(
            explanation.code, code,
            "{code} is explained as another code"
        );
        assert!(
            !explanation.summary.ends_with('.'),
            "{code}: summaries are lowercase fragments"
        );
        assert!(explanation.details.len() > 60, "{code}: say why it matters");
    }
}

#[test]
fn all_codes() {
    let all = ctxguard::explain_all();
    for line in all.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
    insta::assert_snapshot!(all);
}

#[test]
fn explain_order_cycle() {
    insta::assert_snapshot!(ctxguard::explain(Code::OrderCycle));
}

#[test]
fn explain_altered_commitment() {
    insta::assert_snapshot!(ctxguard::explain(Code::AlteredCommitment));
}
