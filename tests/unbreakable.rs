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
            let output =
                Test::verify_written(("trace.json", &minified_conflict(gap)), ("plan.json", plan))
                    .args(&["--format", format])
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
        let output = Test::verify_written(("trace.json", &trace), ("plan.json", plan))
            .args(&["--format", format])
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
    let trace = |id: &str| {
        serde_json::json!({"version": 1, "regions": [
            {"id": id, "kind": "narrative", "text": "a"},
            {"id": id, "kind": "narrative", "text": "b"},
        ]})
        .to_string()
    };
    let plan = r#"{"version": 1, "regions": []}"#;
    for format in ["human", "json", "sarif", "github"] {
        let report = |id: &str| {
            Test::verify_written(("trace.json", &trace(id)), ("plan.json", plan))
                .args(&["--format", format])
                .status(1)
                .run()
                .stdout
        };
        let (short, long) = (report("r"), report(&"r".repeat(1 << 20)));
        assert!(long.contains("duplicate-region"), "{format}");
        // The report of a 1 MB id is the report of a short one, give or
        // take the echoed start of the id wherever it is named.
        assert!(
            long.len() < short.len() + 20_000,
            "{format}: {} bytes for a 1 MB id, {} for a short one",
            long.len(),
            short.len()
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
    Test::verify_written(("t.json", trace), ("p.json", plan))
        .stdout_contains("budget-unmeetable")
        .status(3)
        .run();

    // A kept region counts as the trace counts it, whatever the plan says.
    let trace = r#"{"version": 1, "regions": [
        {"id": "r1", "kind": "narrative", "text": "A long story.", "tokens": 200000}]}"#;
    let plan = r#"{"version": 1, "regions": [{"keep": "r1", "tokens": 1}]}"#;
    Test::verify_written(("t.json", trace), ("p.json", plan))
        .stdout_contains("over-budget")
        .stdout_contains("token-count-mismatch")
        .status(1)
        .run();

    // Text the plan writes is counted: it cannot claim to be smaller, and
    // the claim is named.
    let trace = r#"{"version": 1, "regions": [{"id": "r1", "kind": "narrative", "text": "a"}]}"#;
    let summary = "word ".repeat(5000);
    let plan = format!(
        r#"{{"version": 1, "regions": [{{"kind": "summary", "covers": ["r1"], "text": "{summary}", "tokens": 1}}]}}"#
    );
    Test::verify_written(("t.json", trace), ("p.json", &plan))
        .args(&["--budget", "1000"])
        .stdout_contains("over-budget")
        .stdout_contains("token-count-mismatch")
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
        Test::verify_written(("t.yaml", &trace), ("p.yaml", &plan))
            .args(&["--format", "json"])
            .stdout_contains("is not a number a trace can hold")
            .status(2)
            .run();
    }

    // A key written twice in a JSON record is refused, not read as its last value.
    let trace = r#"{"version": 1, "regions": [{"id": "r1", "kind": "value", "key": "k", "record": {"a": 1}}]}"#;
    let plan =
        r#"{"version": 1, "regions": [{"kind": "value", "key": "k", "record": {"a": 2, "a": 1}}]}"#;
    Test::verify_written(("t.json", trace), ("p.json", plan))
        .args(&["--format", "json"])
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

/// Every limit gives a clear finding, not gigabytes or minutes.
#[test]
fn limits_are_findings() {
    // An `order` selector's `*` pattern of 200,000 characters.
    let glob = format!(
        "kind a\nkind b\norder \"a:{}\" before b\n",
        "*x".repeat(100_000)
    );
    Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write("team.policy", &glob)
        .stdout_contains("this `*` pattern is 200000 characters long; at most 256 are read")
        .status(1)
        .run();

    // More than 256 hints.
    let hints: String = (0..300).map(|i| format!("  hint /word{i}/\n")).collect();
    Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write("team.policy", &format!("kind a {{\n{hints}}}\n"))
        .stdout_contains("this policy has more than 256 hints")
        .status(1)
        .run();

    // More than 2,048 `order` statements: too many to compare pairwise, and
    // a policy whose cycles are not checked is refused, by `verify` too.
    let orders: String = (0..2049)
        .map(|i| format!("order \"a:x{i}\" before b\n"))
        .collect();
    let policy = format!("kind a\nkind b\n{orders}");
    Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write("team.policy", &policy)
        .stdout_contains("this policy has more than 2048 `order` statements")
        .status(1)
        .run();
    Test::verify_written(
        ("t.yaml", "version: 1\nregions: []\n"),
        ("p.yaml", "version: 1\nregions: []\n"),
    )
    .write("team.policy", &policy)
    .args(&["--policy", "team.policy"])
    .stdout_contains("more than 2048 `order` statements")
    .status(2)
    .run();

    // Layers of `order` statements none of which is implied: the search for
    // redundant ones stops at its limit, says so, and the policy still passes.
    let orders: String = (0..2000)
        .map(|i| format!("order \"k{}:*\" before \"k{}:z{i}\"\n", i % 4, i % 4 + 1))
        .collect();
    Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write(
            "team.policy",
            &format!("kind k0\nkind k1\nkind k2\nkind k3\nkind k4\n{orders}"),
        )
        .stdout_contains("stopped looking for redundant `order` statements after 20000000 steps; this statement and the 1947 after it were not checked")
        // The statement it stopped at: the 53rd, on line 58.
        .stdout_contains("\"line\": 58")
        .status(0)
        .run();

    // An `extends` chain deeper than 32.
    let mut test = Test::new().args(&["check", "--format", "json", "p0.policy"]);
    for i in 0..40 {
        test = test.write(
            &format!("p{i}.policy"),
            &format!("extends \"p{}.policy\"\nkind k{i}\n", i + 1),
        );
    }
    test.write("p40.policy", "kind last\n")
        .stdout_contains("the `extends` chain is already 32 policies deep")
        .status(1)
        .run();

    // YAML aliases that would expand to gigabytes.
    let laughs: String = (1..10)
        .map(|i| {
            format!(
                "      l{i}: &l{i} [{}]\n",
                vec![format!("*l{}", i - 1); 10].join(",")
            )
        })
        .collect();
    let trace = format!(
        "version: 1\nregions:\n  - id: r1\n    kind: value\n    key: k\n    record:\n      l0: &l0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n{laughs}"
    );
    Test::verify_written(
        ("t.yaml", &trace),
        ("p.yaml", "version: 1\nregions:\n  - keep: r1\n"),
    )
    .args(&["--format", "json"])
    .stdout_contains("its aliases expand to more than 67108864 bytes")
    .status(2)
    .run();

    // Identifier drift: many pinned paths against many near-miss words.
    let pinned: Vec<serde_json::Value> = (0..3000)
        .map(|i| serde_json::json!({"id": format!("i{i}"), "kind": "identifier", "key": format!("p{i}"), "text": format!("src/module{i}/file_v{i}.py")}))
        .chain([serde_json::json!({"id": "n", "kind": "narrative", "text": "story"})])
        .collect();
    let words: Vec<String> = (0..3000)
        .map(|i| format!("src/modulx{i}/file_w{i}.pyy"))
        .collect();
    let keeps: Vec<serde_json::Value> = (0..3000)
        .map(|i| serde_json::json!({"keep": format!("i{i}")}))
        .chain([serde_json::json!({"kind": "summary", "covers": ["n"], "text": words.join(" ")})])
        .collect();
    let trace = serde_json::json!({"version": 1, "regions": pinned}).to_string();
    let plan = serde_json::json!({"version": 1, "regions": keeps}).to_string();
    Test::verify_written(("t.json", &trace), ("p.json", &plan))
        .args(&["--format", "json"])
        .args(&["--budget", "100000000", "--all-warnings"])
        .stdout_contains("stopped comparing summary words with pinned identifiers")
        .run();
}

/// Human output and JSON agree on columns: both count characters.
#[test]
fn columns_count_characters_everywhere() {
    let policy = "kind a { doc \"ééé — 日本\" doc \"x\" }\n";
    let json = Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write("team.policy", policy)
        .status(1)
        .run();
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let column = report["diagnostics"][0]["column"]
        .as_u64()
        .expect("a column");
    Test::new()
        .args(&["check", "team.policy"])
        .write("team.policy", policy)
        .stdout_contains(&format!("[team.policy:1:{column}]"))
        .status(1)
        .run();
    // A file whose lines end in a lone CR is located by line too.
    let json = Test::new()
        .args(&["check", "--format", "json", "team.policy"])
        .write("team.policy", "kind a\rkind a\r")
        .status(1)
        .run();
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    assert_eq!(report["diagnostics"][0]["line"], 2, "{}", json.stdout);
}

/// Readers say what is wrong first: a file that is not JSON at all gets
/// the syntax error, not a shape error found before it; several YAML
/// documents are one too many.
#[test]
fn readers_report_the_real_problem() {
    let plan = "tests/scenarios/migration/plan-good.yaml";
    for (name, text, says) in [
        (
            "t.json",
            "[1, 2",
            "is not valid JSON: the file ends inside a list",
        ),
        (
            "t.json",
            "{\"regions\": 3, \"version\": 1 ,,}",
            "is not valid JSON",
        ),
        (
            "t.yaml",
            "version: 1\nregions: []\n---\nversion: 1\n",
            "holds more than one YAML document",
        ),
    ] {
        let trace =
            std::env::temp_dir().join(format!("ctxguard-readers-{}-{name}", std::process::id()));
        std::fs::write(&trace, text).expect("write");
        Test::new()
            .args(&["verify", "--format", "json", "--plan", plan, "--trace"])
            .args(&[trace.to_str().unwrap_or_default()])
            .stdout_contains(says)
            .status(2)
            .run();
        let _ = std::fs::remove_file(&trace);
    }
}

/// With `--recount`, a plan's own stale `tokens` is reported, as a trace's is.
#[test]
fn recount_reports_stale_plan_counts() {
    let plan = "version: 1\nregions:\n  - kind: summary\n    covers: [r1]\n    text: \"a short summary of the first region\"\n    tokens: 900\n";
    Test::new()
        .args(&["verify", "--trace", "tests/scenarios/migration/trace.yaml"])
        .args(&[
            "--plan",
            "-",
            "--input-format",
            "yaml",
            "--recount",
            "--format",
            "json",
        ])
        .stdin(plan)
        .stdout_contains("token-count-mismatch")
        .status(1)
        .run();
}

#[test]
fn a_summarizer_function_that_fails_panics_or_returns_nothing_fails_the_plan() {
    use std::sync::Arc;
    let trace = serde_json::json!({"version": 1, "regions": [
        {"id": "r1", "kind": "narrative", "text": "Looked at the users table."},
        {"id": "r2", "kind": "constraint", "key": "k", "text": "Do not drop columns."},
    ]});
    let trace = ctxguard::Trace::read(&ctxguard::Input::value("t.json", &trace)).expect("a trace");
    let policy = ctxguard::Policy::builtin();
    let plan_with = |call: Arc<ctxguard::compact::SummarizeFn>| {
        let options = ctxguard::compact::Options {
            summarizer: Some(ctxguard::compact::Summarizer::Function {
                name: "model".to_owned(),
                call,
            }),
            budget: ctxguard::Budget::default(),
            warning_limit: None,
        };
        ctxguard::compact(&policy, &trace, &options)
    };
    let failed = |outcome: ctxguard::compact::Outcome| match outcome {
        ctxguard::compact::Outcome::Failed(found) => {
            assert_eq!(found[0].code, ctxguard::Code::SummarizerFailed);
            found[0].message.clone()
        }
        other => panic!("expected a failed plan, got {other:?}"),
    };
    let said = failed(plan_with(Arc::new(|_| Err("the model is down".to_owned()))));
    assert!(said.contains("`model` failed: the model is down"), "{said}");
    let said = failed(plan_with(Arc::new(|_| panic!("a bug in the embedder"))));
    assert!(said.contains("`model` panicked"), "{said}");
    let said = failed(plan_with(Arc::new(|_| Ok("  \n".to_owned()))));
    assert!(said.contains("`model` returned nothing"), "{said}");
    match plan_with(Arc::new(|text| {
        Ok(format!("Summary of {} bytes.", text.len()))
    })) {
        ctxguard::compact::Outcome::Plan(plan, _, _) => {
            let mut out = Vec::new();
            plan.write(ctxguard::InputFormat::Json, &mut out)
                .expect("written");
            let written = String::from_utf8_lossy(&out);
            assert!(written.contains("\"summarizer\": \"model\""), "{written}");
            assert!(written.contains("Summary of 26 bytes."), "{written}");
        }
        other => panic!("expected a plan, got {other:?}"),
    }
}
