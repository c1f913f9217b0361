//! Properties of the verifier and the reference compactor, on random traces
//! read through the real JSON reader:
//! - `plan`'s output always verifies as compact;
//! - every single mutation of a planned buffer that loses a commitment is
//!   rejected with the right code;
//! - the verifier agrees with a deliberately naive oracle on random plans.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use ctxguard::Loader;
use ctxguard::Plan;
use ctxguard::SourceFile;
use ctxguard::Trace;
use ctxguard::{compact, compact::Outcome};
use ctxguard::{verify, Options, Verdict};
use ctxguard::{Code, Policy};
use ctxguard::{Input, InputFormat};
use proptest::prelude::*;
use serde_json::{json, Value};

const KINDS: [&str; 7] = [
    "narrative",
    "unclassified",
    "constraint",
    "decision",
    "identifier",
    "value",
    "ordering",
];

fn policy(window: u64) -> Arc<Policy> {
    let text = format!(
        "kind constraint\nkind decision\nkind identifier\nkind value\nkind ordering\n\
         preserve order\norder constraint before decision\ntokenizer approx\n\
         budget window {window}\nbudget commitments 60%\n"
    );
    let mut loader = Loader::new();
    let loaded = loader.load_source(SourceFile::new("test.policy", text), None);
    assert!(!loaded.has_errors(), "{:?}", loaded.diagnostics);
    loaded.policy.clone().expect("the test policy parses")
}

#[derive(Clone, Debug)]
struct Spec {
    kind: usize,
    text: String,
    record: bool,
    discharged: bool,
    tokens: u64,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        0..KINDS.len(),
        "[a-z]{1,6}( [a-zé]{1,6}){0,4}",
        any::<bool>(),
        prop::bool::weighted(0.2),
        1..40u64,
    )
        .prop_map(|(kind, text, record, discharged, tokens)| Spec {
            kind,
            text,
            record,
            discharged,
            tokens,
        })
}

/// A trace as JSON: commitments get unique keys; some carry records.
fn trace_json(specs: &[Spec]) -> Value {
    let regions: Vec<Value> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut region = json!({"id": format!("r{i}"), "tokens": s.tokens});
            if s.kind != 1 {
                region["kind"] = json!(KINDS[s.kind]);
            }
            if s.kind >= 2 {
                region["key"] = json!(format!("k{i}"));
                if s.discharged {
                    region["status"] = json!("discharged");
                }
            }
            if s.kind >= 2 && s.record {
                region["record"] = json!({"value": s.text, "n": i});
            } else {
                region["text"] = json!(s.text);
            }
            region
        })
        .collect();
    json!({"version": 1, "regions": regions})
}

fn read_trace(value: &Value) -> Trace {
    let file = SourceFile::new("trace.json", value.to_string());
    Trace::read(&Input {
        file,
        format: InputFormat::Json,
    })
    .expect("a valid trace")
}

fn read_plan(value: &Value) -> Plan {
    let file = SourceFile::new("plan.json", value.to_string());
    Plan::read(&Input {
        file,
        format: InputFormat::Json,
    })
    .expect("a valid plan")
}

fn codes(policy: &Policy, trace: &Trace, plan: &Value) -> (Verdict, Vec<Code>) {
    let verification = verify(policy, trace, &read_plan(plan), &Options::default());
    let errors = verification
        .diagnostics
        .iter()
        .filter(|d| d.severity == ctxguard::Severity::Error)
        .map(|d| d.code)
        .collect();
    (verification.verdict, errors)
}

/// The reference plan for a trace, as JSON.
fn planned(policy: &Policy, trace: &Trace) -> Option<Value> {
    match compact(policy, trace, &Default::default()) {
        Outcome::Plan(document, _, _) => {
            Some(serde_json::to_value(&document).expect("a plan serializes"))
        }
        _ => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_reference_plan_always_verifies(specs in prop::collection::vec(spec(), 0..40)) {
        let policy = policy(100_000);
        let trace = read_trace(&trace_json(&specs));
        let plan = planned(&policy, &trace).expect("a plan fits a large window");
        let (verdict, errors) = codes(&policy, &trace, &plan);
        prop_assert_eq!(verdict, Verdict::Compact, "{:?}", errors);
    }

    #[test]
    fn under_a_tight_window_plan_escalates_or_verifies(specs in prop::collection::vec(spec(), 0..30), window in 10..400u64) {
        let policy = policy(window);
        let trace = read_trace(&trace_json(&specs));
        match compact(&policy, &trace, &Default::default()) {
            Outcome::Plan(document, _, _) => {
                let plan = serde_json::to_value(&document).expect("serializes");
                prop_assert_eq!(codes(&policy, &trace, &plan).0, Verdict::Compact);
            }
            Outcome::Escalate(diagnostics) => {
                prop_assert!(diagnostics.iter().all(|d| d.code == Code::BudgetUnmeetable));
                prop_assert!(!diagnostics.is_empty());
            }
            Outcome::Failed(diagnostics) => prop_assert!(false, "{:?}", diagnostics),
        }
    }

    #[test]
    fn every_single_mutation_is_caught(specs in prop::collection::vec(spec(), 1..30), pick in any::<prop::sample::Index>(), mutation in 0..6usize) {
        let policy = policy(100_000);
        let value = trace_json(&specs);
        let trace = read_trace(&value);
        let mut plan = planned(&policy, &trace).expect("a plan");
        let entries = plan["regions"].as_array().cloned().unwrap_or_default();
        // The plan's kept commitments that are active: (plan position, trace index).
        let kept: Vec<(usize, usize)> = entries
            .iter()
            .enumerate()
            .filter_map(|(p, e)| {
                let id = e["keep"].as_str()?;
                let t: usize = id.trim_start_matches('r').parse().ok()?;
                (specs[t].kind >= 2 && !specs[t].discharged).then_some((p, t))
            })
            .collect();
        prop_assume!(!kept.is_empty());
        let (p, t) = kept[pick.index(kept.len())];
        let region = &value["regions"][t];
        let expected = match mutation {
            0 => {
                plan["regions"].as_array_mut().expect("regions").remove(p);
                Code::MissingCommitment
            }
            1 => {
                // One byte of one commitment, written out in full.
                let mut copy = json!({"kind": region["kind"], "key": region["key"]});
                match region.get("text") {
                    Some(Value::String(text)) => copy["text"] = json!(format!("{text}.")),
                    _ => {
                        let mut record = region["record"].clone();
                        record["value"] = json!(format!("{}!", record["value"].as_str().unwrap_or("")));
                        copy["record"] = record;
                    }
                }
                plan["regions"][p] = copy;
                Code::AlteredCommitment
            }
            2 => {
                prop_assume!(kept.len() >= 2);
                let (q, _) = kept[(pick.index(kept.len()) + 1) % kept.len()];
                plan["regions"].as_array_mut().expect("regions").swap(p, q);
                Code::OrderViolated
            }
            3 => {
                plan["regions"][p] = json!({"kind": "summary", "covers": [format!("r{t}")], "text": "all done"});
                Code::SummaryCoversCommitment
            }
            4 => {
                prop_assume!(region.get("record").is_some());
                let mut record = region["record"].clone();
                record["n"] = json!(record["n"].as_u64().unwrap_or(0) + 1);
                plan["regions"][p] = json!({"kind": region["kind"], "key": region["key"], "record": record});
                Code::AlteredCommitment
            }
            _ => {
                plan["regions"][p]["status"] = json!("discharged");
                Code::StatusChanged
            }
        };
        let (verdict, errors) = codes(&policy, &trace, &plan);
        prop_assert_eq!(verdict, Verdict::Reject);
        prop_assert!(errors.contains(&expected), "expected {:?}, got {:?}", expected, errors);
    }

    #[test]
    fn the_verifier_agrees_with_a_naive_oracle(
        specs in prop::collection::vec(spec(), 0..25),
        ops in prop::collection::vec((0..10u8, any::<bool>(), 0..30usize), 0..30),
        window in prop::sample::select(vec![60u64, 300, 100_000]),
    ) {
        let policy = policy(window);
        let trace_value = trace_json(&specs);
        let trace = read_trace(&trace_value);
        let plan = random_plan(&trace_value, &ops);
        let (verdict, errors) = codes(&policy, &trace, &plan);
        let expected = oracle(&trace_value, &plan, window);
        prop_assert_eq!(verdict, expected, "verifier errors {:?}\nplan {}", errors, plan);
    }
}

/// A plan made by random edits of the trace: keep, drop, cover, rewrite,
/// flip a status, name a region that does not exist, swap.
fn random_plan(trace: &Value, ops: &[(u8, bool, usize)]) -> Value {
    let regions = trace["regions"].as_array().cloned().unwrap_or_default();
    let mut plan: Vec<Value> = Vec::new();
    let mut summary: Vec<String> = Vec::new();
    for (i, region) in regions.iter().enumerate() {
        let (op, flag, other) = ops.get(i).copied().unwrap_or((0, false, 0));
        let id = region["id"].clone();
        match op {
            0..=4 => plan.push(json!({"keep": id})),
            5 => {}
            6 => summary.push(id.as_str().unwrap_or("").to_owned()),
            7 if region.get("key").is_some() => {
                let mut copy = json!({"kind": region["kind"], "key": region["key"]});
                for field in ["text", "record"] {
                    if let Some(content) = region.get(field) {
                        copy[field] = if flag && field == "text" {
                            json!(format!("{}?", content.as_str().unwrap_or("")))
                        } else {
                            content.clone()
                        };
                    }
                }
                if let Some(status) = region.get("status") {
                    if !flag {
                        copy["status"] = status.clone();
                    }
                }
                plan.push(copy);
            }
            8 => {
                plan.push(json!({"keep": id, "status": if flag { "active" } else { "discharged" }}))
            }
            _ => plan
                .push(json!({"keep": if flag { json!(format!("r{}", other + 100)) } else { id }})),
        }
        if !summary.is_empty() && (op != 6 || i + 1 == regions.len()) {
            plan.push(json!({"kind": "summary", "covers": summary.clone(), "text": "a summary", "tokens": 3}));
            summary.clear();
        }
    }
    if let Some(&(_, _, swap)) = ops.last() {
        if plan.len() >= 2 && swap % 3 == 0 {
            let (a, b) = (swap % plan.len(), (swap / 3) % plan.len());
            plan.swap(a, b);
        }
    }
    json!({"version": 1, "regions": plan})
}

/// The verdict, the slow and obvious way: maps and loops, nothing clever.
fn oracle(trace: &Value, plan: &Value, window: u64) -> Verdict {
    let regions = trace["regions"].as_array().cloned().unwrap_or_default();
    let entries = plan["regions"].as_array().cloned().unwrap_or_default();
    let kind_of = |r: &Value| r["kind"].as_str().unwrap_or("unclassified").to_owned();
    let is_commitment = |r: &Value| !["narrative", "unclassified"].contains(&kind_of(r).as_str());
    let content = |r: &Value| {
        r.get("text")
            .or(r.get("record"))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let status = |r: &Value| r["status"].as_str().unwrap_or("active").to_owned();
    let position: HashMap<String, usize> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| (r["id"].as_str().unwrap_or("").to_owned(), i))
        .collect();
    let by_identity: HashMap<(String, String), usize> = regions
        .iter()
        .enumerate()
        .filter(|(_, r)| is_commitment(r))
        .map(|(i, r)| ((kind_of(r), r["key"].as_str().unwrap_or("").to_owned()), i))
        .collect();

    let mut error = false;
    let mut used: HashSet<usize> = HashSet::new();
    let mut kept: HashSet<usize> = HashSet::new();
    let mut touched: HashSet<usize> = HashSet::new();
    let mut sequence: Vec<usize> = Vec::new();
    let mut tokens_after = 0;
    for entry in &entries {
        tokens_after += entry["tokens"].as_u64().unwrap_or(0);
        if let Some(id) = entry["keep"].as_str() {
            let Some(&t) = position.get(id) else {
                error = true;
                continue;
            };
            if !used.insert(t) {
                error = true;
                continue;
            }
            tokens_after += regions[t]["tokens"].as_u64().unwrap_or(0);
            kept.insert(t);
            if is_commitment(&regions[t]) {
                touched.insert(t);
                sequence.push(t);
                if let Some(s) = entry["status"].as_str() {
                    if s != status(&regions[t]) {
                        error = true;
                    }
                }
            }
        } else if entry["kind"] == "summary" {
            let mut covered = Vec::new();
            for id in entry["covers"].as_array().cloned().unwrap_or_default() {
                let Some(&t) = position.get(id.as_str().unwrap_or("")) else {
                    error = true;
                    continue;
                };
                if !used.insert(t) {
                    error = true;
                    continue;
                }
                if kind_of(&regions[t]) != "narrative" {
                    error = true;
                } else {
                    covered.push(t);
                }
            }
            if let (Some(&low), Some(&high)) = (covered.iter().min(), covered.iter().max()) {
                for region in regions.iter().take(high).skip(low + 1) {
                    let covered_here = entry["covers"]
                        .as_array()
                        .is_some_and(|c| c.contains(&region["id"]));
                    if kind_of(region) != "narrative" && !covered_here {
                        error = true;
                    }
                }
            }
        } else {
            let identity = (
                entry["kind"].as_str().unwrap_or("").to_owned(),
                entry["key"].as_str().unwrap_or("").to_owned(),
            );
            let Some(&t) = by_identity.get(&identity) else {
                error = true;
                continue;
            };
            if !used.insert(t) {
                error = true;
                continue;
            }
            touched.insert(t);
            sequence.push(t);
            let written = content(entry);
            let original = content(&regions[t]);
            if written != original {
                error = true;
                continue;
            }
            if status(entry) != status(&regions[t]) {
                error = true;
            }
        }
    }
    // Written-out commitments are counted by the verifier with `approx`.
    for entry in &entries {
        if entry.get("keep").is_none() && entry["kind"] != "summary" {
            let text = match content(entry) {
                Value::String(s) => s,
                other => other.to_string(),
            };
            tokens_after += (text.len() as u64).div_ceil(4);
        }
    }
    for (t, region) in regions.iter().enumerate() {
        if is_commitment(region) && status(region) == "active" && !touched.contains(&t) {
            error = true;
        }
        if kind_of(region) == "unclassified" && !kept.contains(&t) {
            error = true;
        }
    }
    for (a, &x) in sequence.iter().enumerate() {
        for &y in &sequence[a + 1..] {
            if y < x {
                error = true;
            }
            // `order constraint before decision`, inverted by the plan (not already in the trace).
            if kind_of(&regions[x]) == "decision" && kind_of(&regions[y]) == "constraint" && y < x {
                error = true;
            }
        }
    }
    let required: u64 = regions
        .iter()
        .filter(|r| (is_commitment(r) && status(r) == "active") || kind_of(r) == "unclassified")
        .map(|r| r["tokens"].as_u64().unwrap_or(0))
        .sum();
    if required > window || required > window * 60 / 100 {
        return Verdict::Escalate;
    }
    if tokens_after > window {
        error = true;
    }
    if error {
        Verdict::Reject
    } else {
        Verdict::Compact
    }
}
