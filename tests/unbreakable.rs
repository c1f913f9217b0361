//! Hostile inputs that once broke ctxguard: each gives a clean report
//! within its limits, never a panic and never a wrong verdict.

mod common;

use common::Test;

/// A minified trace whose two conflicting commitments stand `gap` bytes
/// apart on its one line.
fn minified_conflict(gap: usize) -> String {
    serde_json::json!({"version": 1, "regions": [
        {"id": "r1", "kind": "constraint", "key": "k", "text": "Do not drop columns."},
        {"id": "r2", "kind": "narrative", "text": "x".repeat(gap)},
        {"id": "r3", "kind": "constraint", "key": "k", "text": "Do drop columns."},
    ]})
    .to_string()
}

/// Two labels more than 64 KiB apart on one line made the renderer panic
/// (miette cannot pad past 65,535 columns). At and past the threshold, in
/// every format, the report is whole and the exit status is the verdict's.
#[test]
fn labels_far_apart_on_one_line_render() {
    let plan = r#"{"version": 1, "regions": [{"keep": "r1"}, {"keep": "r3"}]}"#;
    for gap in [2_000, 65_400, 65_535, 65_600, 140_000] {
        for format in ["human", "json", "sarif", "github"] {
            let output = Test::new()
                .args(&["verify", "--trace", "trace.json", "--plan", "plan.json"])
                .args(&["--format", format])
                .write("trace.json", &minified_conflict(gap))
                .write("plan.json", plan)
                .status(1)
                .run();
            assert!(
                output.stdout.contains("conflicting-commitment"),
                "{gap} {format}: {}",
                output.stdout
            );
        }
    }
    for gap in [65_535, 70_000] {
        let policy = format!("kind a {{ doc \"x\"{} doc \"y\" }}\n", " ".repeat(gap));
        Test::new()
            .args(&["check", "team.policy"])
            .write("team.policy", &policy)
            .stdout_contains("kind `a` sets `doc` twice")
            .stdout_contains("first set here")
            .status(1)
            .run();
    }
}

/// Input reaches a terminal only as inert text: escape sequences, other
/// control characters and bidirectional controls in ids, kinds and text are
/// shown escaped or replaced, in snippets and messages alike.
#[test]
fn no_input_writes_to_the_terminal() {
    let evil = "\u{1b}[2J\u{1b}]0;pwned\u{7}\u{202e}\u{9b}31m";
    let trace = serde_json::json!({"version": 1, "regions": [
        {"id": format!("r{evil}"), "kind": format!("k{evil}"), "key": "a", "text": format!("t{evil}")},
        {"id": format!("r{evil}"), "kind": "narrative", "text": format!("n{evil}")},
    ]})
    .to_string();
    let plan =
        r#"{"version": 1, "regions": [{"kind": "summary", "covers": ["nope"], "text": "x"}]}"#;
    for format in ["human", "github"] {
        let output = Test::new()
            .args(&[
                "verify",
                "--trace",
                "trace.json",
                "--plan",
                "plan.json",
                "--format",
                format,
            ])
            .write("trace.json", &trace)
            .write("plan.json", plan)
            .status(1)
            .run();
        for c in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
            assert!(
                !output.stdout.contains(c),
                "{format} shows {c:?}:\n{}",
                output.stdout
            );
        }
        assert!(output.stdout.contains("unknown-kind"), "{}", output.stdout);
    }
}

/// A 1 MB id is echoed by its start: the report stays small.
#[test]
fn long_values_are_echoed_by_their_start() {
    let id = "r".repeat(1 << 20);
    let trace = serde_json::json!({"version": 1, "regions": [
        {"id": id, "kind": "narrative", "text": "a"},
        {"id": id, "kind": "narrative", "text": "b"},
    ]})
    .to_string();
    let plan = r#"{"version": 1, "regions": []}"#;
    for format in ["human", "json", "sarif", "github"] {
        let output = Test::new()
            .args(&[
                "verify",
                "--trace",
                "trace.json",
                "--plan",
                "plan.json",
                "--format",
                format,
            ])
            .write("trace.json", &trace)
            .write("plan.json", plan)
            .status(1)
            .run();
        assert!(output.stdout.contains("duplicate-region"), "{format}");
        assert!(
            output.stdout.len() < 100_000,
            "{format}: {} bytes",
            output.stdout.len()
        );
    }
}

/// Different inputs must not reach the same verdict-relevant value.
#[test]
fn no_wrong_verdicts() {
    // Token sums saturate: u64::MAX + 2 is not 1 token.
    let trace = r#"{"version": 1, "regions": [
        {"id": "r1", "kind": "constraint", "key": "a", "text": "Do not drop columns.", "tokens": 18446744073709551615},
        {"id": "r2", "kind": "constraint", "key": "b", "text": "Keep the API stable.", "tokens": 2}]}"#;
    let plan = r#"{"version": 1, "regions": [{"keep": "r1"}, {"keep": "r2"}]}"#;
    Test::new()
        .args(&["verify", "--trace", "t.json", "--plan", "p.json"])
        .write("t.json", trace)
        .write("p.json", plan)
        .stdout_contains("budget-unmeetable")
        .status(3)
        .run();

    // A kept region counts as the trace counts it, whatever the plan says.
    let trace = r#"{"version": 1, "regions": [
        {"id": "r1", "kind": "narrative", "text": "A long story.", "tokens": 200000}]}"#;
    let plan = r#"{"version": 1, "regions": [{"keep": "r1", "tokens": 1}]}"#;
    Test::new()
        .args(&["verify", "--trace", "t.json", "--plan", "p.json"])
        .write("t.json", trace)
        .write("p.json", plan)
        .stdout_contains("over-budget")
        .stdout_contains("token-count-mismatch")
        .status(1)
        .run();

    // Text the plan writes is counted: it cannot claim to be smaller.
    let trace = r#"{"version": 1, "regions": [{"id": "r1", "kind": "narrative", "text": "a"}]}"#;
    let summary = "word ".repeat(5000);
    let plan = format!(
        r#"{{"version": 1, "regions": [{{"kind": "summary", "covers": ["r1"], "text": "{summary}", "tokens": 1}}]}}"#
    );
    Test::new()
        .args(&[
            "verify", "--trace", "t.json", "--plan", "p.json", "--budget", "1000",
        ])
        .write("t.json", trace)
        .write("p.json", &plan)
        .stdout_contains("over-budget")
        .status(1)
        .run();

    // `.inf`, `.nan` and `null` are not one value; YAML values JSON cannot
    // hold are refused rather than turned into `null`.
    for (traced, planned) in [(".inf", ".nan"), (".inf", "null"), ("-.inf", ".inf")] {
        let trace = format!(
            "version: 1\nregions:\n  - {{id: r1, kind: value, key: k, record: {{x: {traced}}}}}\n"
        );
        let plan = format!(
            "version: 1\nregions:\n  - {{kind: value, key: k, record: {{x: {planned}}}}}\n"
        );
        Test::new()
            .args(&[
                "verify", "--trace", "t.yaml", "--plan", "p.yaml", "--format", "json",
            ])
            .write("t.yaml", &trace)
            .write("p.yaml", &plan)
            .stdout_contains("is not a number a trace can hold")
            .status(2)
            .run();
    }

    // A key written twice in a JSON record is refused, not read as its last value.
    let trace = r#"{"version": 1, "regions": [{"id": "r1", "kind": "value", "key": "k", "record": {"a": 1}}]}"#;
    let plan =
        r#"{"version": 1, "regions": [{"kind": "value", "key": "k", "record": {"a": 2, "a": 1}}]}"#;
    Test::new()
        .args(&[
            "verify", "--trace", "t.json", "--plan", "p.json", "--format", "json",
        ])
        .write("t.json", trace)
        .write("p.json", plan)
        .stdout_contains("written twice")
        .status(2)
        .run();
}

/// A summarizer is bounded: stopped (with what it started) past its
/// timeout or past its output cap, and never deadlocked by printing before
/// it reads.
#[test]
fn summarizers_are_bounded() {
    let trace = serde_json::json!({"version": 1, "regions": [
        {"id": "r1", "kind": "narrative", "text": "n".repeat(1 << 20)},
        {"id": "r2", "kind": "constraint", "key": "k", "text": "Do not drop columns."},
    ]})
    .to_string();
    let plan = |summarizer: &str, timeout: &str| {
        Test::new()
            .args(&["plan", "--trace", "t.json", "--summarizer", summarizer])
            .args(&["--summarizer-timeout", timeout])
            .write("t.json", &trace)
    };
    // Stopped past its timeout, with the processes it started.
    plan("sleep 30 & sleep 30", "0.5")
        .stderr_contains("ran longer than")
        .stderr_contains("0.5 s and was stopped")
        .status(2)
        .run();
    // Stopped past the output cap.
    plan("yes", "60")
        .stderr_contains("printed more than 1048576 bytes")
        .status(2)
        .run();
    // Prints 200 KB before reading 1 MB: both pipes are pumped at once.
    plan(
        "head -c 200000 /dev/zero | tr '\\0' a; cat > /dev/null",
        "60",
    )
    .stdout_contains("\"summarizer\": \"head -c 200000")
    .run();
    Test::new()
        .args(&[
            "plan",
            "--trace",
            "t.json",
            "--summarizer",
            "x",
            "--summarizer-timeout=-1",
        ])
        .write("t.json", &trace)
        .stderr_contains("is not a number of seconds")
        .status(2)
        .run();
}

/// Output that cannot be written is an error, not a silent success.
#[cfg(unix)]
#[test]
fn write_errors_are_errors() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .map(std::process::Stdio::from)
    };
    for args in [
        &["plan", "--trace", "tests/scenarios/migration/trace.yaml"][..],
        &["check", "--format", "sarif", "policies/"][..],
        &["explain"][..],
    ] {
        let Ok(stdout) = full() else { return };
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_ctxguard"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(stdout)
            .output()
            .expect("ctxguard runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("cannot write the output"),
            "{args:?}: {stderr}"
        );
    }
}
