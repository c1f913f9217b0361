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
        .stderr_contains("error: no `*.policy` files found in `src`")
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
