//! Every code has an explanation, and its example really triggers it: the
//! example's files are written to a directory and the documented command
//! line runs the real binary there.

use std::process::Command;

use ctxguard::Code;

#[test]
fn every_example_reports_its_code() {
    for &code in Code::ALL {
        let explanation = code.explanation();
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
        let output = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
            .args(explanation.run.split_whitespace())
            .current_dir(dir.path())
            .output()
            .expect("ctxguard runs");
        let shown = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            shown.contains(&format!("ctxguard::{code}")),
            "`ctxguard {}` for {code} shows:\n{shown}",
            explanation.run
        );
        if code.default_severity() == ctxguard::Severity::Error {
            assert_ne!(
                output.status.code(),
                Some(0),
                "an error fails the command: {code}"
            );
        }
    }
}

#[test]
fn explanations_are_complete() {
    for &code in Code::ALL {
        let text = ctxguard::explain(code);
        for part in ["Example:", "Fix:", &format!("ctxguard::{code}")] {
            assert!(text.contains(part), "{code}: {part} missing");
        }
        let explanation = code.explanation();
        assert!(
            !explanation.summary.ends_with('.'),
            "{code}: summaries are lowercase fragments"
        );
        assert!(explanation.details.len() > 60, "{code}: say why it matters");
    }
}

#[test]
fn all_codes() {
    insta::assert_snapshot!(ctxguard::explain_all());
}

#[test]
fn explain_order_cycle() {
    insta::assert_snapshot!(ctxguard::explain(Code::OrderCycle));
}

#[test]
fn explain_altered_commitment() {
    insta::assert_snapshot!(ctxguard::explain(Code::AlteredCommitment));
}
