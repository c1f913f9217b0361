//! The acceptance scenarios (`tests/scenarios/migration/`, from the shared
//! examples): every plan gets the verdict and the codes its README gives.

use std::path::PathBuf;

use ctxguard::ExitStatus;
use ctxguard::{verify_files, VerifyRequest};

fn verify(plan: &str, policy: Option<&str>) -> (ExitStatus, Vec<String>) {
    let dir = PathBuf::from("tests/scenarios/migration");
    let request = VerifyRequest {
        trace: dir.join("trace.yaml"),
        plan: dir.join(plan),
        policy: policy.map(|p| dir.join(p)),
        ..VerifyRequest::default()
    };
    let report = verify_files(&request);
    let status = report.status();
    let codes = report
        .diagnostics
        .iter()
        .filter(|d| {
            d.severity == ctxguard::Severity::Error || d.code == ctxguard::Code::IdentifierDrift
        })
        .map(|d| match &d.commitment {
            Some(identity) => format!("{} {identity}", d.code),
            None => d.code.to_string(),
        })
        .collect();
    (status, codes)
}

#[test]
fn plan_good_is_compact() {
    assert_eq!(
        verify("plan-good.yaml", None),
        (ExitStatus::Success, vec![])
    );
}

#[test]
fn plan_constraint_evaporated_is_rejected() {
    assert_eq!(
        verify("plan-constraint-evaporated.yaml", None),
        (
            ExitStatus::Failure,
            vec![
                "summary-covers-commitment constraint:reversible".to_owned(),
                "missing-commitment constraint:reversible".to_owned()
            ]
        )
    );
}

#[test]
fn plan_identifier_drift_is_rejected() {
    assert_eq!(
        verify("plan-identifier-drift.yaml", None),
        (
            ExitStatus::Failure,
            vec![
                "identifier-drift identifier:parser".to_owned(),
                "altered-commitment identifier:parser".to_owned()
            ]
        )
    );
}

#[test]
fn plan_value_rederived_is_rejected() {
    assert_eq!(
        verify("plan-value-rederived.yaml", None),
        (
            ExitStatus::Failure,
            vec!["altered-commitment value:api-base".to_owned()]
        )
    );
}

#[test]
fn plan_ordering_merged_is_rejected() {
    assert_eq!(
        verify("plan-ordering-merged.yaml", None),
        (
            ExitStatus::Failure,
            vec![
                "order-violated decision:primary-key".to_owned(),
                "altered-commitment ordering:tests-first".to_owned()
            ]
        )
    );
}

#[test]
fn every_plan_escalates_under_the_tight_policy() {
    for plan in [
        "plan-good.yaml",
        "plan-constraint-evaporated.yaml",
        "plan-identifier-drift.yaml",
        "plan-value-rederived.yaml",
        "plan-ordering-merged.yaml",
    ] {
        let (status, codes) = verify(plan, Some("tight.policy"));
        assert_eq!(status, ExitStatus::Escalate, "{plan}");
        assert!(
            codes.contains(&"budget-unmeetable".to_owned()),
            "{plan}: {codes:?}"
        );
    }
}

#[test]
fn the_reference_plan_of_the_trace_is_compact() {
    let request = ctxguard::PlanRequest {
        trace: "tests/scenarios/migration/trace.yaml".into(),
        ..Default::default()
    };
    let report = ctxguard::plan_file(&request);
    assert_eq!(report.status(), ExitStatus::Success);
    let ctxguard::Subject::Plan(ctxguard::Planned::Written(plan, _, _)) = &report.subject else {
        panic!("a plan: {:?}", report.diagnostics);
    };
    let kept: Vec<String> = plan
        .regions
        .iter()
        .filter_map(|r| match &r.entry {
            ctxguard::Entry::Keep { id } => Some(id.node.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(kept, ["r2", "r4", "r6", "r7", "r9"]);
}

#[test]
fn the_closing_note_report_is_stable() {
    let request = VerifyRequest {
        trace: "tests/scenarios/migration/trace.yaml".into(),
        plan: "tests/scenarios/migration/plan-identifier-drift.yaml".into(),
        ..VerifyRequest::default()
    };
    let report = verify_files(&request);
    let mut out = Vec::new();
    ctxguard::render(
        &report,
        ctxguard::Format::Human,
        &ctxguard::HumanStyle::plain(),
        &mut out,
    )
    .expect("render");
    insta::assert_snapshot!(String::from_utf8_lossy(&out));
}
