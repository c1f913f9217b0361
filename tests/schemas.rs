//! The JSON Schemas of the trace and plan formats: the committed copies in
//! `schemas/` are what the types generate, and every shipped example, and
//! every plan `ctxguard plan` writes, validates against them.

use ctxguard::Schema as Which;

fn validator(which: Which) -> jsonschema::Validator {
    let schema: serde_json::Value =
        serde_json::from_str(&which.json()).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn assert_valid(validator: &jsonschema::Validator, name: &str, value: &serde_json::Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
}

#[test]
fn committed_schemas_match_the_types() {
    for (which, path) in [
        (Which::Trace, "schemas/trace.schema.json"),
        (Which::Plan, "schemas/plan.schema.json"),
        (Which::Audit, "schemas/audit.schema.json"),
        (Which::Fleet, "schemas/fleet.schema.json"),
    ] {
        let committed = std::fs::read_to_string(path).expect("committed schema");
        assert!(
            committed == which.json(),
            "{path} is out of date: run `cargo run -- schema {} > {path}`",
            match which {
                Which::Trace => "trace",
                Which::Plan => "plan",
                Which::Audit => "audit",
                Which::Fleet => "fleet",
            }
        );
    }
}

#[test]
fn shipped_examples_validate() {
    let (trace, plan) = (validator(Which::Trace), validator(Which::Plan));
    let mut checked = 0;
    for entry in std::fs::read_dir("tests/scenarios/migration")
        .expect("the scenarios")
        .flatten()
    {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("scenario");
        let value: serde_json::Value = serde_yaml::from_str(&text).expect("scenario YAML");
        let name = path.display().to_string();
        if name.ends_with("trace.yaml") {
            assert_valid(&trace, &name, &value);
        } else {
            assert_valid(&plan, &name, &value);
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn the_schemas_refuse_what_the_readers_refuse() {
    let trace = validator(Which::Trace);
    for bad in [
        serde_json::json!({"version": 2, "regions": []}),
        serde_json::json!({"regions": []}),
        serde_json::json!({"version": 1, "regions": [{"id": "r1"}]}),
        serde_json::json!({"version": 1, "regions": [{"id": "r1", "text": "a", "record": {}}]}),
        serde_json::json!({"version": 1, "regions": [{"id": "r1", "text": "a", "kind": null}]}),
        serde_json::json!({"version": 1, "regions": [{"id": "r1", "text": "a", "status": "done"}]}),
    ] {
        assert!(!trace.is_valid(&bad), "{bad}");
    }
}

#[test]
fn written_plans_validate() {
    let request = ctxguard::PlanRequest {
        trace: "tests/scenarios/migration/trace.yaml".into(),
        ..Default::default()
    };
    let report = ctxguard::plan_file(&request);
    let ctxguard::Subject::Plan(ctxguard::Planned::Written(plan, _, _)) = &report.subject else {
        panic!("a plan: {:?}", report.diagnostics);
    };
    let value = serde_json::to_value(plan).expect("a plan serializes");
    assert_valid(&validator(Which::Plan), "the reference plan", &value);
}
