//! `cargo bench --bench hostile`: the hostile inputs that once took minutes
//! or gigabytes, each run in a child process (best of 3, peak memory from
//! Linux `VmHWM`), so a regression back to quadratic time or unbounded
//! memory shows as a number. `CTXGUARD_HOSTILE_SCALE=0.1` runs every case at
//! a tenth of its size; `CTXGUARD_HOSTILE_ONLY=NAME` runs the cases whose
//! name holds NAME. The inputs are generated under
//! `target/bench-data/hostile` and never committed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::json;

#[path = "support/measure.rs"]
mod measure;

#[path = "../tests/support/hostile_sessions.rs"]
mod hostile_sessions;

/// One case: what it feeds ctxguard, which command runs on it, and what
/// that command must find (so a case that fails early is not timed as a
/// fast one).
struct Case {
    name: &'static str,
    what: String,
    files: Vec<(String, String)>,
    run: Run,
    /// The codes reported, sorted and joined with `,` (`-` for none); for
    /// an import, `held`: some regions held; for a prompt, `exit=0`.
    /// Alternatives are joined with `|`: a check bounded in steps says
    /// where it stopped at full size and finishes at a small one.
    expect: &'static str,
}

enum Run {
    /// `ctxguard check FILE`.
    Check(&'static str),
    /// `ctxguard verify --trace T --plan P`, rendered for a person.
    Verify(&'static str, &'static str),
    /// `ctxguard audit SESSION`, rendered for a person.
    Audit(&'static str),
    /// `ctxguard import SESSION`: each compaction read and classified (not
    /// written).
    Import(&'static str),
    /// `ctxguard hook claude-code UserPromptSubmit` with this payload,
    /// into a new ledger.
    Prompt(&'static str),
}

/// A `verify` case over a JSON trace and plan.
fn verify_case(
    name: &'static str,
    what: String,
    trace: String,
    plan: String,
    expect: &'static str,
) -> Case {
    Case {
        name,
        what,
        files: vec![("t.json".into(), trace), ("p.json".into(), plan)],
        run: Run::Verify("t.json", "p.json"),
        expect,
    }
}

/// A trace or plan document holding `regions`.
fn document(regions: Vec<serde_json::Value>) -> String {
    json!({"version": 1, "regions": regions}).to_string()
}

/// `n` pinned identifiers (`path(i)`) and a narrative region; the plan
/// keeps them all and summarizes the narrative as `summary`.
fn pinned_paths(n: usize, path: impl Fn(usize) -> String, summary: &str) -> (String, String) {
    let pinned: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("i{i}"), "kind": "identifier", "key": format!("p{i}"), "text": path(i)}))
        .chain([json!({"id": "n", "kind": "narrative", "text": "story"})])
        .collect();
    let plan: Vec<_> = (0..n)
        .map(|i| json!({"keep": format!("i{i}")}))
        .chain([json!({"kind": "summary", "covers": ["n"], "text": summary})])
        .collect();
    (document(pinned), document(plan))
}

fn scaled(n: usize) -> usize {
    let scale: f64 = std::env::var("CTXGUARD_HOSTILE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    ((n as f64 * scale) as usize).max(2)
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let n = scaled(100_000);
    cases.push(Case {
        name: "kind-lines",
        what: format!("{n} `kind` lines"),
        files: vec![(
            "p.policy".into(),
            (0..n).map(|i| format!("kind k{i}\n")).collect(),
        )],
        run: Run::Check("p.policy"),
        expect: "no-budget",
    });
    let n = scaled(2_000);
    let orders: String = (0..n / 2)
        .map(|i| format!("order \"a:x{i}*\" before \"b:*\"\norder \"b:y{i}*\" before \"a:*z\"\n"))
        .collect();
    cases.push(Case {
        name: "order-statements",
        what: format!("{n} overlapping `order` statements on a cycle"),
        files: vec![("p.policy".into(), format!("kind a\nkind b\n{orders}"))],
        run: Run::Check("p.policy"),
        expect: "order-cycle",
    });
    let n = scaled(2_000);
    let orders: String = (0..n)
        .map(|i| format!("order \"k{}:*\" before \"k{}:z{i}\"\n", i % 4, i % 4 + 1))
        .collect();
    cases.push(Case {
        name: "order-redundancy",
        what: format!("{n} `order` statements in layers, none implied"),
        files: vec![(
            "p.policy".into(),
            format!("kind k0\nkind k1\nkind k2\nkind k3\nkind k4\n{orders}"),
        )],
        run: Run::Check("p.policy"),
        expect: "no-budget|no-budget,redundant-order",
    });
    let n = scaled(20_000);
    let orders: String = (0..n)
        .map(|i| format!("order \"a:x{i}*\" before \"a:*\"\n"))
        .collect();
    cases.push(Case {
        name: "order-count",
        what: format!("{n} `order` statements that all overlap"),
        files: vec![("p.policy".into(), format!("kind a\n{orders}"))],
        run: Run::Check("p.policy"),
        expect: "order-cycle",
    });
    let n = scaled(100_000);
    cases.push(Case {
        name: "order-glob",
        what: format!("a {} KB `*` pattern", 2 * n / 1000),
        files: vec![(
            "p.policy".into(),
            format!(
                "kind a\nkind b\norder \"a:{}\" before \"b:{}\"\n",
                "*x".repeat(n),
                "x*".repeat(n)
            ),
        )],
        run: Run::Check("p.policy"),
        expect: "invalid-pattern",
    });
    let n = scaled(2_000);
    let hints: String = (0..n)
        .map(|i| format!("  hint /\\b(word{i}|other{i})\\w+\\b/i\n"))
        .collect();
    cases.push(Case {
        name: "hints",
        what: format!("{n} hints"),
        files: vec![("p.policy".into(), format!("kind a {{\n{hints}}}\n"))],
        run: Run::Check("p.policy"),
        expect: "no-budget|invalid-pattern",
    });
    let n = scaled(5_000);
    cases.push(Case {
        name: "extends-chain",
        what: format!("an `extends` chain {n} deep"),
        files: (0..n)
            .map(|i| {
                let parent = if i + 1 < n {
                    format!("extends \"p{}.policy\"\n", i + 1)
                } else {
                    String::new()
                };
                (format!("p{i}.policy"), format!("{parent}kind k{i}\n"))
            })
            .collect(),
        run: Run::Check("p0.policy"),
        expect: "forbidden-parent",
    });
    let n = scaled(300_000);
    let regions: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("r{i}"), "kind": "constraint", "key": format!("k{i}"), "text": "x", "tokens": 1}))
        .collect();
    let keeps: Vec<_> = (0..n)
        .rev()
        .map(|i| json!({"keep": format!("r{i}")}))
        .collect();
    cases.push(verify_case(
        "preserve-order-reversed",
        format!("{n} commitments, plan reversed"),
        document(regions),
        document(keeps),
        "order-violated",
    ));
    let n = scaled(60_000);
    let mut seed = 7u64;
    let mut word = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ["a", "b", "c", "d", "e", "f", "g", "h"][(seed >> 60) as usize % 8]
    };
    let old: Vec<&str> = (0..n).map(|_| word()).collect();
    let new: Vec<&str> = (0..n).map(|_| word()).collect();
    cases.push(verify_case(
        "word-diff",
        format!("{} KB of text altered everywhere", 2 * n / 1000),
        document(vec![
            json!({"id": "r1", "kind": "constraint", "key": "k", "text": old.join(" ")}),
        ]),
        document(vec![
            json!({"kind": "constraint", "key": "k", "text": new.join(" ")}),
        ]),
        "altered-commitment",
    ));
    let n = scaled(10_000);
    let words: Vec<String> = (0..n)
        .map(|i| format!("src/modulx{i}/file_w{i}.pyy"))
        .collect();
    let (trace, plan) = pinned_paths(
        n,
        |i| format!("src/module{i}/file_v{i}.py"),
        &words.join(" "),
    );
    cases.push(verify_case(
        "identifier-drift",
        format!("{n} pinned paths × {n} near-miss words"),
        trace,
        plan,
        "commitment-in-summary|commitment-in-summary,identifier-drift",
    ));
    let n = scaled(10_000);
    let regions: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("r{i}"), "kind": "constraint", "key": format!("k{i}"), "text": format!("Do not drop columns in table {i}")}))
        .collect();
    cases.push(verify_case(
        "human-report",
        format!("{n} errors rendered for a person"),
        serde_json::to_string_pretty(&json!({"version": 1, "regions": &regions}))
            .unwrap_or_default(),
        document(Vec::new()),
        "missing-commitment",
    ));
    // The same regions, the trace written as one line.
    cases.push(verify_case(
        "human-report-one-line",
        format!("{n} errors rendered for a person, the trace on one 1 MB line"),
        document(regions),
        document(Vec::new()),
        "missing-commitment",
    ));
    let n = scaled(100_000);
    let deep: String = (0..70).map(|j| format!("dir{j}/")).collect();
    let (trace, plan) = pinned_paths(n, |i| format!("{deep}f{i}.py"), "f1.py dir5/dir6");
    cases.push(verify_case(
        "deep-paths",
        format!("{n} pinned paths 70 directories deep"),
        trace,
        plan,
        "commitment-in-summary",
    ));
    let n = scaled(10_000);
    let anchor = "x".repeat(1 << 16);
    let aliases = vec!["*a"; n].join(", ");
    cases.push(Case {
        name: "yaml-aliases",
        what: format!("a 64 KiB anchor aliased {n} times"),
        files: vec![
            ("t.yaml".into(), format!("version: 1\nregions:\n  - id: r1\n    kind: value\n    key: k\n    record:\n      a: &a \"{anchor}\"\n      b: [{aliases}]\n")),
            ("p.yaml".into(), "version: 1\nregions:\n  - keep: r1\n".into()),
        ],
        run: Run::Verify("t.yaml", "p.yaml"),
        expect: "-|invalid-input",
    });
    // Session files that once made an importer quadratic or cubic, at 20,000
    // records (the OpenHands shape at 2,000: it was cubic).
    for shape in hostile_sessions::SHAPES {
        let n = scaled(if shape.name.starts_with("openhands") {
            2_000
        } else {
            20_000
        });
        cases.push(Case {
            name: shape.name,
            what: format!("{n}: {}", shape.what),
            files: vec![("s.jsonl".into(), (shape.session)(n))],
            run: Run::Import("s.jsonl"),
            expect: "held",
        });
    }
    let n = scaled(700_000);
    let words = [
        "keep",
        "the",
        "parser",
        "never",
        "src/app/main.rs",
        "columns",
        "42",
    ];
    let sentence: Vec<&str> = (0..n).map(|i| words[i % words.len()]).collect();
    let record = |i: usize, parent: Option<&str>, kind: &str, content: serde_json::Value| {
        json!({"parentUuid": parent, "isSidechain": false, "type": kind, "uuid": format!("u{i}"),
               "sessionId": "s", "version": "2.1.42", "message": {"role": kind, "content": content}})
    };
    let session = [
        record(1, None, "user", json!(sentence.join(" "))),
        record(
            2,
            Some("u1"),
            "assistant",
            json!([{"type": "text", "text": "ok"}]),
        ),
        json!({"parentUuid": null, "logicalParentUuid": "u2", "type": "system",
               "subtype": "compact_boundary", "uuid": "b1", "sessionId": "s",
               "compactMetadata": {"trigger": "auto"}}),
        json!({"parentUuid": "b1", "type": "user", "uuid": "u3", "sessionId": "s",
               "isCompactSummary": true, "message": {"role": "user", "content": "We worked."}}),
    ];
    cases.push(Case {
        name: "one-long-message",
        what: format!("a user message of one sentence, {n} words"),
        files: vec![(
            "s.jsonl".into(),
            session.iter().map(|r| format!("{r}\n")).collect(),
        )],
        run: Run::Audit("s.jsonl"),
        expect: "-",
    });
    let n = scaled(40_000);
    let prompt: String = (0..n)
        .map(|i| format!("Keep the table t{i} before the migration step {i}.\n"))
        .collect();
    cases.push(Case {
        name: "prompt-paste",
        what: format!("UserPromptSubmit: a prompt of {n} lines of requests"),
        files: vec![(
            "payload.json".into(),
            json!({"session_id": "s", "prompt": prompt}).to_string(),
        )],
        run: Run::Prompt("payload.json"),
        expect: "exit=0",
    });
    cases
}

/// Runs one case in this process and prints `seconds peak_kib`.
fn child(dir: &Path, run: &str, first: &str, second: Option<&str>) {
    let start = Instant::now();
    let report = match (run, second) {
        ("check", _) => ctxguard::check(
            &[dir.join(first)],
            &ctxguard::Overrides::default(),
            &ctxguard::Access::default(),
        )
        .expect("a policy file"),
        ("audit", _) => ctxguard::audit::audit_paths(
            &ctxguard::audit::Request {
                paths: vec![dir.join(first)],
                ..Default::default()
            },
            &|_| {},
            &ctxguard::Progress::hidden(),
        ),
        ("import", _) => {
            let path = dir.join(first);
            let text = std::fs::read_to_string(&path).expect("session");
            let file = ctxguard::SourceFile::new(path.display().to_string(), text);
            let session = ctxguard::import::import(&file, None).expect("a session");
            let policy = ctxguard::Policy::builtin();
            let held: usize = ctxguard::import::compactions(&policy, &session)
                .iter()
                .map(|(_, trace, _, _)| trace.regions.len())
                .sum();
            println!(
                "{} {} held={held}",
                start.elapsed().as_secs_f64(),
                measure::peak_kib()
            );
            return;
        }
        ("prompt", _) => {
            let ledger = dir.join("ledger");
            let _ = std::fs::remove_dir_all(&ledger);
            let report = ctxguard::hook::run(&ctxguard::hook::Request {
                runtime: ctxguard::hook::Guarded::ClaudeCode,
                event: ctxguard::hook::Event::UserPromptSubmit,
                input: std::fs::read(dir.join(first)).expect("payload"),
                policy: None,
                ledger_dir: Some(ledger),
                project_dir: None,
                max_ledger_bytes: ctxguard::ledger::DEFAULT_MAX_BYTES,
                echo: false,
                written_for: None,
                check_summary: false,
                access: ctxguard::Access::default(),
            });
            let reply = ctxguard::hook::reply(&report);
            println!(
                "{} {} exit={}",
                start.elapsed().as_secs_f64(),
                measure::peak_kib(),
                reply.exit.code()
            );
            return;
        }
        (_, Some(plan)) => ctxguard::verify_files(&ctxguard::VerifyRequest {
            trace: dir.join(first),
            plan: dir.join(plan),
            options: ctxguard::Options {
                budget: ctxguard::Budget {
                    window: Some(u64::MAX / 2),
                    ..Default::default()
                },
                warning_limit: Some(ctxguard::WARNING_LIMIT),
                ..Default::default()
            },
            ..Default::default()
        }),
        _ => return,
    };
    let mut out = Vec::new();
    let style = ctxguard::HumanStyle::plain();
    ctxguard::render(&report, ctxguard::Format::Human, &style, &mut out).expect("render");
    std::hint::black_box(out);
    let mut codes: Vec<&str> = report.diagnostics.iter().map(|d| d.code.name()).collect();
    codes.sort_unstable();
    codes.dedup();
    println!(
        "{} {} {}",
        start.elapsed().as_secs_f64(),
        measure::peak_kib(),
        if codes.is_empty() {
            "-".to_owned()
        } else {
            codes.join(",")
        }
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        child(
            Path::new(&args[2]),
            &args[3],
            &args[4],
            args.get(5).map(String::as_str),
        );
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/hostile");
    println!("| case | input | input MB | best s | peak MB | found |");
    println!("|---|---|---:|---:|---:|---|");
    let only = std::env::var("CTXGUARD_HOSTILE_ONLY").unwrap_or_default();
    for case in cases()
        .into_iter()
        .filter(|c| c.name.contains(only.as_str()))
    {
        let dir = root.join(case.name);
        std::fs::create_dir_all(&dir).expect("bench data directory");
        let mut bytes = 0;
        for (name, text) in &case.files {
            std::fs::write(dir.join(name), text).expect("bench input");
            bytes += text.len();
        }
        let arguments: Vec<&str> = match &case.run {
            Run::Check(policy) => vec!["check", policy],
            Run::Verify(trace, plan) => vec!["verify", trace, plan],
            Run::Audit(session) => vec!["audit", session],
            Run::Import(session) => vec!["import", session],
            Run::Prompt(payload) => vec!["prompt", payload],
        };
        let mut args = vec![dir.as_os_str()];
        args.extend(arguments.iter().map(OsStr::new));
        let (best, peak, found) = measure::best_of(3, args);
        let held = found
            .strip_prefix("held=")
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| n > 0);
        assert!(
            case.expect.split('|').any(|e| e == found) || (case.expect == "held" && held),
            "{}: found {found:?}, expected {:?}",
            case.name,
            case.expect
        );
        println!(
            "| {} | {} | {:.1} | {best:.3} | {:.0} | {found} |",
            case.name,
            case.what,
            bytes as f64 / 1e6,
            peak as f64 / 1024.0
        );
    }
}
