//! UI tests: every policy under `tests/ui/check/` is checked and its report
//! rendered exactly as a user sees it in a log (no colour, 80 columns), then
//! stored with its input as one snapshot.

mod common;

use std::path::Path;

use ctxguard::{Format, HumanStyle, Overrides};

fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn render(path: &str, format: Format) -> (String, i32) {
    let report = ctxguard::check(
        &[path.into()],
        &Overrides::default(),
        &ctxguard::Access::default(),
    )
    .expect("the UI paths are files");
    let mut out = Vec::new();
    ctxguard::render(&report, format, &HumanStyle::plain(), &mut out).expect("rendering to memory");
    (
        String::from_utf8_lossy(&out).into_owned(),
        report.status().code(),
    )
}

#[test]
fn check_reports() {
    insta::glob!("ui/check/*.policy", |path| {
        let name = relative(path);
        let input = String::from_utf8_lossy(&std::fs::read(path).expect("fixture")).into_owned();
        let (report, status) = render(&name, Format::Human);
        common::assert_fits(&report, &name);
        let shown = format!("$ ctxguard check {name}\n{input}\n--- exit {status} ---\n{report}");
        insta::assert_snapshot!(shown);
    });
}

#[test]
fn check_json_reports() {
    for name in [
        "three-errors",
        "weakens-parent-window",
        "unreadable-file",
        "contract-example",
    ] {
        let (report, _) = render(&format!("tests/ui/check/{name}.policy"), Format::Json);
        let value: serde_json::Value =
            serde_json::from_str(&report).expect("the JSON report parses");
        insta::assert_json_snapshot!(format!("json-{name}"), value);
    }
}

#[test]
fn every_shipped_policy_is_clean() {
    let report = ctxguard::check(
        &["policies".into(), "crates/ctxguard-core/policies".into()],
        &Overrides::default(),
        &ctxguard::Access::default(),
    )
    .expect("policies/ holds policies");
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    let denied = ctxguard::Overrides::deny_warnings().apply(report.diagnostics.clone());
    assert!(denied.is_empty());
    assert_eq!(report.status(), ctxguard::ExitStatus::Success);
}

#[test]
fn a_directory_without_policies_is_a_usage_error() {
    let error = ctxguard::check(
        &["src".into()],
        &Overrides::default(),
        &ctxguard::Access::default(),
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        error.as_deref(),
        Some("no `*.policy` file and no runtime config found in `src`")
    );
}

#[test]
fn the_three_error_policy_gets_three_diagnostics() {
    let report = ctxguard::check(
        &["tests/ui/check/three-errors.policy".into()],
        &Overrides::default(),
        &ctxguard::Access::default(),
    )
    .expect("file");
    let codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["invalid-pattern", "unknown-kind", "order-cycle"]);
    assert!(report
        .diagnostics
        .iter()
        .all(|d| d.help.is_some() && !d.labels.is_empty()));
    assert_eq!(report.status().code(), 1);
}

/// The gate cannot be switched off: a policy passes `check` exactly when
/// `verify` accepts it, for every policy under `tests/ui/check/`, and no
/// flag lowers an error.
#[test]
fn check_passes_exactly_what_verify_accepts() {
    let mut compared = 0;
    for entry in std::fs::read_dir("tests/ui/check").expect("the UI policies") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "policy") {
            continue;
        }
        let report = ctxguard::check(
            std::slice::from_ref(&path),
            &Overrides::default(),
            &ctxguard::Access::default(),
        )
        .expect("a file");
        let passes = report.status() == ctxguard::ExitStatus::Success;
        let accepted = ctxguard::Policy::load(&path).is_ok();
        assert_eq!(passes, accepted, "{}", path.display());
        compared += 1;
    }
    assert!(compared > 30, "only {compared} policies compared");
    for code in ctxguard::Code::ALL.iter().filter(|c| c.is_mandatory()) {
        let names = [code.name().to_owned()];
        assert!(
            Overrides::new(&names, &[], &[], false).is_err(),
            "-A {code}"
        );
        assert!(
            Overrides::new(&[], &names, &[], false).is_err(),
            "-W {code}"
        );
    }
}
