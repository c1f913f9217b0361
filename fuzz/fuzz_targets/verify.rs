//! Structured traces and plans (`arbitrary`) through `verify` under the
//! built-in policy: no panic, and the verdict agrees with the findings
//! (compact without errors, reject with one, escalate with
//! `budget-unmeetable`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

#[derive(Arbitrary, Debug)]
struct Region {
    kind: u8,
    key: u8,
    text: String,
    tokens: Option<u16>,
    discharged: bool,
}

#[derive(Arbitrary, Debug)]
enum Entry {
    Keep(u8),
    Summary(Vec<u8>, String),
    Written(u8, String),
}

#[derive(Arbitrary, Debug)]
struct Case {
    regions: Vec<Region>,
    plan: Vec<Entry>,
    window: Option<u32>,
}

const KINDS: [&str; 8] = [
    "narrative",
    "unclassified",
    "constraint",
    "decision",
    "identifier",
    "value",
    "ordering",
    "made-up",
];

fuzz_target!(|case: Case| {
    let n = case.regions.len().min(64);
    let regions: Vec<_> = case.regions[..n]
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut region = json!({"id": format!("r{i}"), "kind": KINDS[r.kind as usize % KINDS.len()], "key": format!("k{}", r.key % 8), "text": r.text});
            if let Some(tokens) = r.tokens {
                region["tokens"] = json!(tokens);
            }
            if r.discharged {
                region["status"] = json!("discharged");
            }
            region
        })
        .collect();
    let id = |i: u8| format!("r{}", i as usize % n.max(1));
    let plan: Vec<_> = case
        .plan
        .iter()
        .take(64)
        .map(|entry| match entry {
            Entry::Keep(i) => json!({"keep": id(*i)}),
            Entry::Summary(covers, text) => json!({"kind": "summary", "covers": covers.iter().take(8).map(|i| id(*i)).collect::<Vec<_>>(), "text": text}),
            Entry::Written(i, text) => json!({"kind": "constraint", "key": format!("k{}", i % 8), "text": text}),
        })
        .collect();
    let trace = json!({"version": 1, "regions": regions}).to_string();
    let plan = json!({"version": 1, "regions": plan}).to_string();
    let (Ok(trace), Ok(plan)) = (
        ctxguard::Trace::read(&ctxguard::Input::text(
            "t.json",
            ctxguard::InputFormat::Json,
            trace,
        )),
        ctxguard::Plan::read(&ctxguard::Input::text(
            "p.json",
            ctxguard::InputFormat::Json,
            plan,
        )),
    ) else {
        return;
    };
    let options = ctxguard::Options {
        budget: ctxguard::Budget {
            window: case.window.map(u64::from),
            tokenizer: Some(ctxguard::Tokenizer::Approx),
            recount: false,
        },
        ..Default::default()
    };
    static POLICY: std::sync::OnceLock<std::sync::Arc<ctxguard::Policy>> =
        std::sync::OnceLock::new();
    let policy = POLICY.get_or_init(ctxguard::Policy::builtin);
    let verification = ctxguard::verify(policy, &trace, &plan, &options);
    let errors = verification
        .diagnostics
        .iter()
        .any(|d| d.severity == ctxguard::Severity::Error);
    match verification.verdict {
        ctxguard::Verdict::Compact => assert!(!errors),
        ctxguard::Verdict::Reject => assert!(errors),
        ctxguard::Verdict::Escalate => assert!(verification
            .diagnostics
            .iter()
            .any(|d| d.code == ctxguard::Code::BudgetUnmeetable)),
    }
    for diagnostic in &verification.diagnostics {
        let _ = ctxguard::render_diagnostic(diagnostic, &ctxguard::HumanStyle::plain());
    }
});
