//! UI tests for `verify`: each case under `tests/ui/verify/` (a trace, a
//! plan, maybe a policy) is verified by the real binary, and its inputs and
//! report are stored as one snapshot. Every code's documented example is
//! snapshotted the same way, so the documentation is checked against what
//! users really see.

mod common;

use std::path::Path;

use common::Test;
use ctxguard::Code;

/// What a user sees: standard output, then standard error; and the status.
fn run(test: Test) -> (String, i32) {
    let output = test.any_status().run();
    (output.stdout + &output.stderr, output.status)
}

fn show_file(name: &str, bytes: &[u8]) -> String {
    format!("--- {name}\n{}", String::from_utf8_lossy(bytes))
}

#[test]
fn verify_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    insta::glob!("ui/verify/*/plan.*", |plan| {
        let case = plan.parent().expect("a case directory");
        let relative = |path: &Path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        let find = |stem: &str| {
            ["yaml", "json", "jsonl"]
                .iter()
                .map(|ext| case.join(format!("{stem}.{ext}")))
                .find(|path| path.exists())
                .expect("every case has a trace")
        };
        let trace = find("trace");
        let mut args = vec![
            "verify".to_owned(),
            "--trace".to_owned(),
            relative(&trace),
            "--plan".to_owned(),
            relative(plan),
        ];
        let mut inputs = vec![trace.clone(), plan.to_path_buf()];
        let policy = case.join("policy.policy");
        if policy.exists() {
            args.extend(["--policy".to_owned(), relative(&policy)]);
            inputs.insert(0, policy);
        }
        let arguments: Vec<&str> = args.iter().map(String::as_str).collect();
        let (report, status) = run(Test::new().args(&arguments).current_dir(root));
        let mut shown = format!("$ ctxguard {}\n", args.join(" "));
        for input in &inputs {
            shown.push_str(&show_file(
                &relative(input),
                &std::fs::read(input).expect("input"),
            ));
        }
        common::assert_fits(&report, &args.join(" "));
        shown.push_str(&format!("--- exit {status} ---\n{report}"));
        insta::assert_snapshot!(shown);
    });
}

/// Every code's documented example, run once through the real binary: it
/// must report its code (an error code must fail the command), and what the
/// user sees is snapshotted.
#[test]
fn documented_examples() {
    for &code in Code::ALL {
        let explanation = code.explanation();
        assert_eq!(
            explanation.code, code,
            "{code} has no explanation of its own"
        );
        let mut shown = format!("$ ctxguard {}\n", explanation.run);
        let mut test = Test::new().command_line(explanation.run);
        for (name, text) in explanation.example {
            if !text.is_empty() {
                test = test.write(name, text);
                shown.push_str(&show_file(name, text.as_bytes()));
            }
        }
        // An example whose files are all missing still runs in a directory of its own.
        let (report, status) = run(test.write(".keep", ""));
        assert!(
            report.contains(&format!("ctxguard::{code}")),
            "`ctxguard {}` for {code} shows:\n{report}",
            explanation.run
        );
        if code.default_severity() == ctxguard::Severity::Error {
            assert_ne!(status, 0, "an error fails the command: {code}");
        }
        common::assert_fits(&report, &format!("`ctxguard {}`", explanation.run));
        shown.push_str(&format!("--- exit {status} ---\n{report}"));
        insta::assert_snapshot!(format!("example-{code}"), shown);
    }
}
