//! Every code has an explanation, and its example really triggers it.

use ctxguard::{check, explain, Code};

#[test]
fn every_example_reports_its_code() {
    for &code in Code::ALL {
        let explanation = explain::explanation(code);
        assert_eq!(
            explanation.code, code,
            "{code} has no explanation of its own"
        );
        let dir = tempfile::tempdir().expect("temporary directory");
        for (name, text) in explanation.example {
            if !text.is_empty() {
                std::fs::write(dir.path().join(name), text).expect("write example");
            }
        }
        let checked = dir.path().join(explanation.example[0].0);
        let report = check::check(&[checked]).expect("a file path");
        assert!(
            report.diagnostics.iter().any(|d| d.code == code),
            "the example for {code} reports {:?}",
            report
                .diagnostics
                .iter()
                .map(|d| d.code.name())
                .collect::<Vec<_>>()
        );
    }
}

#[test]
fn explanations_are_complete() {
    for &code in Code::ALL {
        let text = explain::render(code);
        for part in ["Example:", "Fix:", &format!("ctxguard::{code}")] {
            assert!(text.contains(part), "{code}: {part} missing");
        }
        let explanation = explain::explanation(code);
        assert!(
            !explanation.summary.ends_with('.'),
            "{code}: summaries are lowercase fragments"
        );
        assert!(explanation.details.len() > 60, "{code}: say why it matters");
    }
}

#[test]
fn all_codes() {
    insta::assert_snapshot!(explain::list());
}

#[test]
fn explain_order_cycle() {
    insta::assert_snapshot!(explain::render(Code::OrderCycle));
}
