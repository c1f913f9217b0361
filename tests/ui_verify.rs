//! UI tests for `verify`: each case under `tests/ui/verify/` (a trace, a
//! plan, maybe a policy) is verified by the real binary, and its inputs and
//! report are stored as one snapshot. Every code's documented example is
//! snapshotted the same way, so the documentation is checked against what
//! users really see.

use std::path::Path;
use std::process::Command;

use ctxguard::Code;

fn run(args: &[String], dir: &Path) -> (String, i32) {
    let output = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
        .args(args)
        .current_dir(dir)
        .env_remove("COLUMNS")
        .output()
        .expect("ctxguard runs");
    let mut shown = String::from_utf8_lossy(&output.stdout).into_owned();
    shown.push_str(&String::from_utf8_lossy(&output.stderr));
    (shown, output.status.code().unwrap_or(-1))
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
        let (report, status) = run(&args, root);
        let mut shown = format!("$ ctxguard {}\n", args.join(" "));
        for input in &inputs {
            shown.push_str(&show_file(
                &relative(input),
                &std::fs::read(input).expect("input"),
            ));
        }
        shown.push_str(&format!("--- exit {status} ---\n{report}"));
        insta::assert_snapshot!(shown);
    });
}

#[test]
fn documented_examples() {
    for &code in Code::ALL {
        let explanation = code.explanation();
        let dir = tempfile::tempdir().expect("temporary directory");
        let mut shown = format!("$ ctxguard {}\n", explanation.run);
        for (name, text) in explanation.example {
            if !text.is_empty() {
                std::fs::write(dir.path().join(name), text).expect("write example");
                shown.push_str(&show_file(name, text.as_bytes()));
            }
        }
        let args: Vec<String> = explanation
            .run
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let (report, status) = run(&args, dir.path());
        shown.push_str(&format!("--- exit {status} ---\n{report}"));
        insta::assert_snapshot!(format!("example-{code}"), shown);
    }
}
