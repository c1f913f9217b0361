//! The command line: arguments, formats and every exit status.

mod common;

use common::Test;

#[test]
fn check_of_the_shipped_policies_prints_nothing() {
    Test::new().args(&["check", "policies/"]).stdout("").run();
}

#[test]
fn check_of_the_contract_example_prints_nothing() {
    Test::new()
        .args(&["check", "tests/ui/check/contract-example.policy"])
        .stdout("")
        .run();
}

#[test]
fn check_errors_exit_1() {
    Test::new()
        .args(&["check", "tests/ui/check/three-errors.policy"])
        .stdout_contains("ctxguard::order-cycle")
        .stdout_contains("3 errors and 0 warnings in 1 policy file")
        .status(1)
        .run();
}

#[test]
fn warnings_pass_unless_denied() {
    let path = "tests/ui/check/redundant-order.policy";
    Test::new()
        .args(&["check", path])
        .stdout_contains("redundant-order")
        .run();
    Test::new()
        .args(&["check", "--deny-warnings", path])
        .status(1)
        .run();
}

#[test]
fn an_unreadable_file_exits_2() {
    Test::new()
        .args(&["check", "tests/ui/check/no-such.policy"])
        .stdout_contains("`tests/ui/check/no-such.policy` does not exist")
        .status(2)
        .run();
    Test::new()
        .args(&["check", "tests/ui/check/unreadable-file.policy"])
        .stdout_contains("is not valid UTF-8")
        .stdout_contains("[tests/ui/check/unreadable-file.policy:2:1]")
        .stdout_contains("byte `0xFF` is not UTF-8")
        .status(2)
        .run();
}

#[test]
fn unreadable_wins_over_errors() {
    Test::new()
        .args(&[
            "check",
            "tests/ui/check/three-errors.policy",
            "missing.policy",
        ])
        .status(2)
        .run();
}

#[test]
fn check_json_report() {
    let output = Test::new()
        .args(&[
            "check",
            "--format",
            "json",
            "tests/ui/check/unknown-kind.policy",
            "policies",
            "crates/ctxguard-core/policies",
        ])
        .status(1)
        .run();
    let report: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    assert_eq!(report["files"], 5);
    let diagnostic = &report["diagnostics"][0];
    assert_eq!(diagnostic["code"], "unknown-kind");
    assert_eq!(diagnostic["severity"], "error");
    assert_eq!(diagnostic["file"], "tests/ui/check/unknown-kind.policy");
    assert_eq!(
        (diagnostic["line"].as_u64(), diagnostic["column"].as_u64()),
        (Some(3), Some(25))
    );
}

#[test]
fn check_needs_a_path_and_a_directory_needs_policies() {
    Test::new()
        .args(&["check"])
        .stderr_contains("PATH")
        .status(2)
        .run();
    Test::new()
        .args(&["check", "src"])
        .stderr_contains("error: no `*.policy` file and no runtime config found in `src`")
        .status(2)
        .run();
}

#[test]
fn policies_with_the_same_name_are_reported() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("a.policy"), "policy team\n").expect("write");
    std::fs::write(dir.path().join("b.policy"), "policy team\n").expect("write");
    let path = dir.path().display().to_string();
    Test::new()
        .args(&["check", &path])
        .stdout_contains("policy name `team` is also used by")
        .status(1)
        .run();
}

#[test]
fn explain_a_code() {
    Test::new()
        .args(&["explain", "order-cycle"])
        .stdout_contains("ctxguard::order-cycle (error)")
        .stdout_contains("Fix:")
        .run();
    Test::new()
        .args(&["explain", "ctxguard::syntax"])
        .stdout_contains("Example:")
        .run();
}

#[test]
fn explain_lists_every_code() {
    let output = Test::new().args(&["explain"]).run();
    for code in ctxguard::Code::ALL {
        assert!(output.stdout.contains(code.name()), "{code} missing");
    }
}

#[test]
fn explain_an_unknown_code_exits_2() {
    Test::new()
        .args(&["explain", "order-cycles"])
        .stderr_contains("`order-cycles` is not a ctxguard code")
        .status(2)
        .run();
}

#[test]
fn check_never_writes_to_its_inputs() {
    let path = "tests/ui/check/three-errors.policy";
    let before = std::fs::read(path).expect("fixture");
    Test::new().args(&["check", path]).status(1).run();
    assert_eq!(std::fs::read(path).expect("fixture"), before);
}

const TRACE: &str = "tests/scenarios/migration/trace.yaml";

#[test]
fn verify_exit_codes() {
    let plan = |name: &str| format!("tests/scenarios/migration/{name}");
    Test::verify(&plan("plan-good.yaml"))
        .stdout_contains("verdict: compact")
        .run();
    Test::verify(&plan("plan-value-rederived.yaml"))
        .stdout_contains("verdict: reject")
        .status(1)
        .run();
    Test::verify(&plan("plan-good.yaml"))
        .args(&["--policy", &plan("tight.policy")])
        .stdout_contains("verdict: escalate")
        .status(3)
        .run();
    Test::verify("no-such-plan.yaml")
        .stdout_contains("`no-such-plan.yaml` does not exist")
        .status(2)
        .run();
    Test::new()
        .args(&["verify", "--trace", TRACE])
        .stderr_contains("--plan")
        .status(2)
        .run();
}

#[test]
fn verify_budget_override() {
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--budget", "100"])
        .stdout_contains("ctxguard::over-budget")
        .status(1)
        .run();
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--budget", "50"])
        .stdout_contains("ctxguard::budget-unmeetable")
        .status(3)
        .run();
}

#[test]
fn verify_json_report_follows_the_contract() {
    let output = Test::verify("tests/scenarios/migration/plan-constraint-evaporated.yaml")
        .args(&["--format", "json"])
        .status(1)
        .run();
    let report: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    assert_eq!(report["verdict"], "reject");
    let missing = report["diagnostics"]
        .as_array()
        .and_then(|all| all.iter().find(|d| d["code"] == "missing-commitment"))
        .expect("a missing-commitment diagnostic")
        .clone();
    assert_eq!(missing["severity"], "error");
    assert_eq!(missing["commitment"], "constraint:reversible");
    assert_eq!(missing["region"], "r2");
    assert_eq!(missing["file"], TRACE);
    assert_eq!(
        (missing["line"].as_u64(), missing["column"].as_u64()),
        (Some(9), Some(5))
    );
    assert_eq!(missing["pointer"], "/regions/1");
    let stats = &report["stats"];
    for key in [
        "trace_regions",
        "plan_regions",
        "commitments",
        "tokens_before",
        "tokens_after",
        "budget",
    ] {
        assert!(stats[key].is_u64(), "stats.{key}");
    }
    assert_eq!(stats["trace_regions"], 10);
    assert_eq!(stats["commitments"], 5);
    assert_eq!(stats["budget"], 128000);
}

#[test]
fn verify_reads_standard_input() {
    let plan = std::fs::read("tests/scenarios/migration/plan-good.yaml").expect("fixture");
    Test::verify("-")
        .args(&["--input-format", "yaml"])
        .stdin(plan.clone())
        .stdout_contains("verdict: compact")
        .run();
    // Without --input-format, standard input is recognised by its content.
    Test::verify("-")
        .stdin(plan)
        .stdout_contains("verdict: compact")
        .run();
}

#[test]
fn verify_refuses_a_policy_with_errors() {
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--policy", "tests/ui/check/weakened-invariant.policy"])
        .stdout_contains("ctxguard::weakened-invariant")
        .stdout_contains("no verdict")
        .status(2)
        .run();
}

#[test]
fn plan_writes_a_plan_that_verifies() {
    let output = Test::new()
        .args(&["plan", "--trace", TRACE, "--output-format", "json"])
        .run();
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("plan.json");
    std::fs::write(&path, &output.stdout).expect("write plan");
    Test::verify(&path.display().to_string())
        .stdout_contains("verdict: compact")
        .run();
}

#[test]
fn plan_exit_codes() {
    Test::new()
        .args(&[
            "plan",
            "--trace",
            TRACE,
            "--policy",
            "tests/scenarios/migration/tight.policy",
        ])
        .stdout("")
        .stderr_contains("ctxguard::budget-unmeetable")
        .status(3)
        .run();
    Test::new()
        .args(&["plan", "--trace", TRACE, "--summarizer", "exit 4"])
        .stdout("")
        .stderr_contains("`exit 4` exited with status 4")
        .status(2)
        .run();
    Test::new()
        .args(&["plan", "--trace", TRACE, "--summarizer", "cat >/dev/null"])
        .stdout("")
        .stderr_contains("printed nothing")
        .status(2)
        .run();
    Test::new()
        .args(&[
            "plan",
            "--trace",
            "tests/ui/verify/malformed-json/trace.json",
        ])
        .stderr_contains("ctxguard::invalid-input")
        .status(2)
        .run();
}

#[test]
fn plan_uses_the_summarizer_once_per_narrative_run() {
    let output = Test::new()
        .args(&[
            "plan",
            "--trace",
            TRACE,
            "--summarizer",
            "tr a-z A-Z | head -c 20",
        ])
        .stdout_contains("summarizer: tr a-z A-Z | head -c 20")
        .run();
    assert!(
        output.stdout.contains("text: PLEASE WRITE A DATAB"),
        "{}",
        output.stdout
    );
    assert_eq!(output.stdout.matches("kind: summary").count(), 5);
}

#[test]
fn repeated_warnings_fold_unless_all_are_asked_for() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let regions: String = (0..15)
        .map(|i| format!("  - id: r{i}\n    kind: narrative\n    role: user\n    text: \"You must never touch table t{i}.\"\n"))
        .collect();
    std::fs::write(
        dir.path().join("trace.yaml"),
        format!("version: 1\nregions:\n{regions}"),
    )
    .expect("write");
    let keeps: String = (0..15).map(|i| format!("  - keep: r{i}\n")).collect();
    std::fs::write(
        dir.path().join("plan.yaml"),
        format!("version: 1\nregions:\n{keeps}"),
    )
    .expect("write");
    let trace = dir.path().join("trace.yaml").display().to_string();
    let plan = dir.path().join("plan.yaml").display().to_string();
    // (warnings shown, the fold: shown and more) of a JSON report.
    let count = |stdout: &str| {
        let report: serde_json::Value = serde_json::from_str(stdout).expect("JSON");
        let shown = report["diagnostics"].as_array().map_or(0, |all| {
            all.iter()
                .filter(|d| d["code"] == "untagged-candidate")
                .count()
        });
        let fold = &report["stats"]["folded"][0];
        (shown, fold["shown"].as_u64(), fold["more"].as_u64())
    };
    let folded = Test::new()
        .args(&[
            "verify", "--format", "json", "--trace", &trace, "--plan", &plan,
        ])
        .run();
    // The true total: 10 shown, 5 more counted; the fold is no diagnostic.
    assert_eq!(count(&folded.stdout), (10, Some(10), Some(5)));
    let all = Test::new()
        .args(&[
            "verify",
            "--format",
            "json",
            "--all-warnings",
            "--trace",
            &trace,
            "--plan",
            &plan,
        ])
        .run();
    assert_eq!(count(&all.stdout), (15, None, None));
    // A person reads the total, and how to see the rest.
    let human = Test::new()
        .args(&["verify", "--trace", &trace, "--plan", &plan])
        .run();
    assert!(
        common::flat(&human.stdout).contains(
            "note: 10 of 15 `untagged-candidate` warnings shown; `--all-warnings` shows every one"
        ),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains("verdict: compact (0 errors and 15 warnings, 10 shown);"),
        "{}",
        human.stdout
    );
    // `plan` folds the warnings on the plan it writes alike.
    let warned = |stderr: &str| stderr.matches("ctxguard::untagged-candidate").count();
    let planned = Test::new().args(&["plan", "--trace", &trace]).run();
    assert_eq!(warned(&planned.stderr), 10, "{}", planned.stderr);
    assert!(
        common::flat(&planned.stderr).contains(
            "note: 10 of 15 `untagged-candidate` warnings shown; `--all-warnings` shows every one"
        ),
        "{}",
        planned.stderr
    );
    let every = Test::new()
        .args(&["plan", "--all-warnings", "--trace", &trace])
        .run();
    assert_eq!(warned(&every.stderr), 15, "{}", every.stderr);
    assert!(!every.stderr.contains("warnings shown"), "{}", every.stderr);
    assert_eq!(planned.stdout, every.stdout);
}

#[test]
fn a_share_written_as_a_fraction_is_read_as_the_percentage_meant() {
    Test::new()
        .args(&["check", "team.policy"])
        .write("team.policy", "extends default\nbudget commitments 0.4\n")
        .stdout_contains("help: a commitment share is a percentage: write `40%`")
        .status(1)
        .run();
    // A share below 1% is valid, and almost surely a fraction: a warning.
    Test::new()
        .args(&["check", "team.policy"])
        .write("team.policy", "extends default\nbudget commitments 0.4%\n")
        .stdout_contains("did you mean `40%`?")
        .status(0)
        .run();
}

#[test]
fn the_version_names_the_commit() {
    let output = Test::new().args(&["--version"]).run();
    let version = output.stdout.trim();
    let (release, commit) = version
        .strip_prefix("ctxguard ")
        .and_then(|v| v.split_once(" (commit "))
        .expect("`ctxguard X.Y.Z (commit HASH)`");
    assert_eq!(release, env!("CARGO_PKG_VERSION"));
    let hash = commit.trim_end_matches(')').trim_end_matches("-dirty");
    assert!(
        hash == "unknown" || (hash.len() == 12 && hash.chars().all(|c| c.is_ascii_hexdigit())),
        "{version}"
    );
}

#[test]
fn help_fits_80_columns_when_piped_and_every_option_says_what_it_does() {
    let commands = [
        "", "check", "verify", "plan", "import", "audit", "report", "fmt", "schema", "explain",
        "hook", "ledger", "init",
    ];
    for command in commands {
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.push("--help");
        let output = Test::new().args(&args).run();
        let lines: Vec<&str> = output.stdout.lines().collect();
        for line in &lines {
            assert!(line.chars().count() <= 80, "`{command} --help`: {line}");
        }
        for (n, line) in lines.iter().enumerate() {
            let option = line.trim_start();
            let indent = line.len() - option.len();
            let is_option = (2..=6).contains(&indent) && option.starts_with('-');
            if !is_option || option.starts_with("-h, --help") {
                continue;
            }
            // Long help: the text is on the next line; short: after the name.
            let same_line = option.split("  ").filter(|p| !p.trim().is_empty()).count() > 1;
            let next = lines.get(n + 1).map_or("", |l| l.trim());
            let said =
                same_line || (!next.is_empty() && !next.starts_with('[') && !next.starts_with('-'));
            assert!(said, "`{command} --help`: `{option}` has no help");
        }
    }
    // `report` re-renders a saved JSON report in the formats the others
    // write, `human` first and by default.
    let help = Test::new().args(&["report", "--help"]).run().stdout;
    assert!(
        help.contains("[default: human]") && help.contains("human, json, sarif, github]"),
        "{help}"
    );
}

#[test]
fn token_counts_take_underscores_as_the_policy_language_does() {
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--budget", "64_000"])
        .stdout_contains("of a 64000-token window")
        .run();
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--budget", "64__000"])
        .stderr_contains("is not a number of tokens (write `64000` or `64_000`)")
        .status(2)
        .run();
}

#[test]
fn explain_suggests_the_code_meant() {
    Test::new()
        .args(&["explain", "order-cycl"])
        .stderr_contains("`order-cycl` is not a ctxguard code; did you mean `order-cycle`?")
        .status(2)
        .run();
    Test::new()
        .args(&["explain", "banana"])
        .stderr_contains("`ctxguard explain` lists them all")
        .status(2)
        .run();
}

#[test]
fn a_file_in_the_wrong_place_is_named_for_what_it_is() {
    let trace = std::fs::read_to_string("tests/scenarios/migration/trace.yaml").expect("trace");
    let plan = std::fs::read_to_string("tests/scenarios/migration/plan-good.yaml").expect("plan");
    let session =
        std::fs::read_to_string("tests/fixtures/sessions/claude-code.jsonl").expect("session");
    let policy = "policy team\nextends default\nbudget window 64000\n";
    let cases: [(&[&str], &str, &str); 6] = [
        (
            &["verify", "--trace", "team.policy", "--plan", "plan.yaml"],
            "`team.policy` is a ctxguard policy, not a trace",
            "pass it as `--policy team.policy`",
        ),
        (
            &[
                "verify",
                "--trace",
                "trace.yaml",
                "--plan",
                "plan.yaml",
                "--policy",
                "trace.yaml",
            ],
            "`trace.yaml` is a trace, not a policy",
            "pass it as `--trace trace.yaml`",
        ),
        (
            &["verify", "--trace", "plan.yaml", "--plan", "trace.yaml"],
            "`plan.yaml` is a plan, not a trace",
            "pass it as `--plan plan.yaml`",
        ),
        (
            &["verify", "--trace", "trace.json", "--plan", "plan.yaml"],
            "`trace.json` is not valid JSON",
            "it reads as YAML: add `--input-format yaml` to `--trace trace.json`",
        ),
        (
            &["verify", "--trace", "session.jsonl", "--plan", "plan.yaml"],
            "`session.jsonl` is a Claude Code session log, not a trace",
            "ctxguard import session.jsonl --out imported",
        ),
        (
            &["plan", "--trace", "session.jsonl"],
            "`session.jsonl` is a Claude Code session log, not a trace",
            "ctxguard audit session.jsonl",
        ),
    ];
    for (args, message, help) in cases {
        let output = Test::new()
            .args(args)
            .write("team.policy", policy)
            .write("trace.yaml", &trace)
            .write("trace.json", &trace)
            .write("plan.yaml", &plan)
            .write("session.jsonl", &session)
            .any_status()
            .run();
        let all = format!("{}{}", output.stdout, output.stderr);
        let flat = all.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(output.status, 2, "{args:?}");
        assert!(flat.contains(message), "{args:?}: {all}");
        assert!(flat.contains(help), "{args:?}: {all}");
    }
}

#[test]
fn check_and_fmt_say_one_line_on_success_and_nothing_when_quiet() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("team.policy"), "extends default\n").expect("written");
    let path = dir.path().join("team.policy");
    let report = ctxguard::check(
        std::slice::from_ref(&path),
        &ctxguard::Overrides::default(),
        &ctxguard::Access::default(),
    )
    .expect("checked");
    assert_eq!(
        ctxguard::success_line(&report).as_deref(),
        Some("checked 1 policy file: no problems")
    );
    let report = ctxguard::fmt(&[path], true, &ctxguard::Access::default()).expect("formatted");
    assert_eq!(
        ctxguard::success_line(&report).as_deref(),
        Some("1 policy file already formatted")
    );
    // Piped (as here) too, on standard error: silence would read as
    // nothing done. With --quiet, nothing is said.
    for (quiet, said) in [
        (&[][..], "checked 1 policy file: no problems\n"),
        (&["--quiet"][..], ""),
    ] {
        let mut args = vec!["check", "team.policy"];
        args.extend(quiet);
        let output = Test::new().args(&args).current_dir(dir.path()).run();
        assert_eq!((output.stdout.as_str(), output.stderr.as_str()), ("", said));
    }
    for (quiet, said) in [
        (&[][..], "1 policy file already formatted\n"),
        (&["--quiet"][..], ""),
    ] {
        let mut args = vec!["fmt", "--check", "team.policy"];
        args.extend(quiet);
        let output = Test::new().args(&args).current_dir(dir.path()).run();
        assert_eq!((output.stdout.as_str(), output.stderr.as_str()), ("", said));
    }
}

#[test]
fn plan_skips_tool_output_and_points_its_warnings_at_the_trace() {
    let trace = "version: 1\nregions:\n  - id: r1\n    kind: constraint\n    key: no-drop\n    text: \"Do not drop columns.\"\n  - id: r2\n    kind: narrative\n    role: tool\n    text: \"$ cargo test -p gateway\\nrunning 12 tests\"\n  - id: r3\n    kind: narrative\n    role: assistant\n    text: \"Decided to use uuid keys. Then looked at indexes.\"\n  - id: r4\n    kind: constraint\n    key: tests\n    text: \"Never skip the tests.\"\n  - id: r5\n    kind: narrative\n    role: tool\n    text: \"$ git push\"\n";
    let output = Test::new()
        .args(&["plan", "--trace", "trace.yaml"])
        .write("trace.yaml", trace)
        .run();
    // The command line is not what happened: the prose is, and tool output
    // alone is said to be tool output.
    assert!(
        output.stdout.contains("text: Decided to use uuid keys."),
        "{}",
        output.stdout
    );
    assert!(!output.stdout.contains("cargo test"), "{}", output.stdout);
    assert!(
        output.stdout.contains("text: Tool output, not kept."),
        "{}",
        output.stdout
    );
    // The warning on the summary written points into the trace it came from.
    assert!(
        output.stderr.contains("ctxguard::commitment-in-summary"),
        "{}",
        output.stderr
    );
    assert!(
        output.stderr.contains("╭─[trace.yaml:7:5]"),
        "{}",
        output.stderr
    );
    assert!(
        output.stderr.contains("summarized from here"),
        "{}",
        output.stderr
    );
    assert!(output
        .stderr
        .contains("the summary written: \"Decided to use uuid keys.\""));
    assert!(!output.stderr.contains("<plan>"), "{}", output.stderr);
}

#[test]
fn a_snippet_of_a_long_line_is_a_window_that_fits_80_columns() {
    // One 20 KB line of JSON: the plan loses the commitment at its end.
    let narrative: Vec<String> = (0..200)
        .map(|i| format!(r#"{{"id": "n{i}", "kind": "narrative", "text": "Step {i} of the work went as planned."}}"#))
        .collect();
    let trace = format!(
        r#"{{"version": 1, "regions": [{}, {{"id": "c1", "kind": "constraint", "key": "no-drop", "text": "Do not drop columns."}}]}}"#,
        narrative.join(", ")
    );
    let plan = r#"{"version": 1, "regions": [{"kind": "summary", "text": "The work went as planned.", "covers": ["n0"]}]}"#;
    let output = Test::new()
        .write("trace.json", &trace)
        .write("plan.json", plan)
        .args(&["verify", "--trace", "trace.json", "--plan", "plan.json"])
        .status(1)
        .stdout_contains("ctxguard::missing-commitment")
        .run();
    common::assert_fits(&output.stdout, "verify of a one-line trace");
    // The window shows the commitment, marked where the line was cut.
    assert!(
        output
            .stdout
            .contains(r#" 1 │ …"c1", "kind": "constraint", "key": "no-drop""#),
        "{}",
        output.stdout
    );
}
