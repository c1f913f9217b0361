//! The CI formats: SARIF that validates against the official 2.1.0 schema,
//! GitHub workflow commands, and reports saved as JSON rendered again.

mod common;

use common::Test;

const TRACE: &str = "tests/scenarios/migration/trace.yaml";
const DRIFT: &str = "tests/scenarios/migration/plan-identifier-drift.yaml";

fn validate_sarif(text: &str) {
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/sarif-schema-2.1.0.json"))
            .expect("the schema parses");
    let validator = jsonschema::draft4::new(&schema).expect("the schema compiles");
    let log: serde_json::Value = serde_json::from_str(text).expect("SARIF is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn check_sarif_validates() {
    for policy in [
        "tests/ui/check/three-errors.policy",
        "tests/ui/check/weakens-parent-window.policy",
        "tests/ui/check/unreadable-file.policy",
        "tests/ui/check/no-such.policy",
    ] {
        let status = if policy.contains("unreadable") || policy.contains("no-such") {
            2
        } else {
            1
        };
        let output = Test::new()
            .args(&["check", "--format", "sarif", policy])
            .status(status)
            .run();
        validate_sarif(&output.stdout);
    }
    let output = Test::new()
        .args(&[
            "check",
            "--format",
            "sarif",
            "tests/ui/check/three-errors.policy",
        ])
        .status(1)
        .run();
    let log: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    let results = log["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let ids: Vec<&str> = results
        .iter()
        .filter_map(|r| r["ruleId"].as_str())
        .collect();
    assert_eq!(ids, ["invalid-pattern", "unknown-kind", "order-cycle"]);
    let region = &results[0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(4), Some(11))
    );
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(rules, ctxguard::Code::ALL.len());
}

#[test]
fn verify_sarif_validates() {
    for plan in [
        "plan-good.yaml",
        "plan-identifier-drift.yaml",
        "plan-ordering-merged.yaml",
        "plan-constraint-evaporated.yaml",
    ] {
        let plan = format!("tests/scenarios/migration/{plan}");
        let status = if plan.ends_with("good.yaml") { 0 } else { 1 };
        let output = Test::verify(&plan)
            .args(&["--format", "sarif"])
            .status(status)
            .run();
        validate_sarif(&output.stdout);
    }
}

#[test]
fn github_annotations_for_a_failing_plan() {
    let output = Test::verify(DRIFT)
        .args(&["--format", "github"])
        .status(1)
        .run();
    insta::assert_snapshot!(output.stdout);
}

#[test]
fn a_saved_report_renders_as_if_run_again() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let saved = dir.path().join("report.json");
    let json = Test::verify(DRIFT)
        .args(&["--format", "json"])
        .status(1)
        .run();
    std::fs::write(&saved, &json.stdout).expect("save the report");
    let saved = saved.display().to_string();
    for format in ["sarif", "github", "json"] {
        let direct = Test::verify(DRIFT)
            .args(&["--format", format])
            .status(1)
            .run();
        Test::new()
            .args(&["report", "--from", &saved, "--format", format])
            .stdout(&direct.stdout)
            .status(1)
            .run();
    }
    // The human report again (the default format, as everywhere): each
    // finding with its code, message and place, the snippet left out (the
    // saved report holds places, not text), and the same verdict line.
    let human = Test::new()
        .args(&["report", "--from", &saved])
        .status(1)
        .run()
        .stdout;
    let direct = Test::verify(DRIFT).status(1).run().stdout;
    let verdict = |text: &str| text[text.find("verdict: ").expect("a verdict line")..].to_owned();
    assert_eq!(verdict(&human), verdict(&direct));
    let report: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let findings = report["diagnostics"].as_array().expect("diagnostics");
    assert!(findings.len() >= 2);
    for finding in findings {
        let code = format!("ctxguard::{}", finding["code"].as_str().expect("code"));
        let place = format!(
            "at {}:{}:{}",
            finding["file"].as_str().expect("file"),
            finding["line"],
            finding["column"]
        );
        assert!(human.contains(&code), "{code}: {human}");
        assert!(human.contains(&place), "{place}: {human}");
    }
    assert!(!human.contains("╭─["), "no snippet: {human}");
    Test::new()
        .args(&["report", "--from", "README.md", "--format", "sarif"])
        .stderr_contains("is not a report saved with `--format json`")
        .status(2)
        .run();
}

/// Every exit status survives a saved report, including 2 for a `verify`
/// whose policy could not be used (no verdict) and 3 for escalate.
#[test]
fn a_saved_report_keeps_its_exit_status() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let saved = dir.path().join("report.json").display().to_string();
    let cases: [(&[&str], i32); 3] = [
        (
            &[
                "--plan",
                DRIFT,
                "--policy",
                "tests/ui/check/order-cycle.policy",
            ],
            2,
        ),
        (
            &[
                "--plan",
                DRIFT,
                "--policy",
                "tests/scenarios/migration/tight.policy",
            ],
            3,
        ),
        (&["--plan", "tests/scenarios/migration/plan-good.yaml"], 0),
    ];
    for (args, status) in cases {
        let mut run = vec!["verify", "--format", "json", "--trace", TRACE];
        run.extend_from_slice(args);
        let json = Test::new().args(&run).status(status).run();
        std::fs::write(&saved, &json.stdout).expect("save the report");
        Test::new()
            .args(&["report", "--from", &saved, "--format", "sarif"])
            .status(status)
            .run();
    }
}

#[test]
fn sarif_locations_are_relative_to_the_repository_whatever_the_folder() {
    // Run from `tests/`, naming the file through `..`: the URI is the same.
    let repository = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    if !repository.join(".git").exists() {
        eprintln!("SKIPPED: not a git checkout, so the repository root is the folder run in");
        return;
    }
    let dir = repository.join("tests");
    let output = Test::new()
        .args(&[
            "check",
            "--format",
            "sarif",
            "../tests/ui/check/budget-range-share.policy",
        ])
        .current_dir(&dir)
        .any_status()
        .run();
    let sarif: serde_json::Value = serde_json::from_str(&output.stdout).expect("SARIF");
    let run = &sarif["runs"][0];
    let artifact = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(artifact["uri"], "tests/ui/check/budget-range-share.policy");
    assert_eq!(artifact["uriBaseId"], "%SRCROOT%");
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap_or("");
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
}
