//! `cargo bench --bench verify`: ctxguard verify against serde_json parsing
//! the same files into typed structs, on traces made by
//! `benches/support/gen_trace.rs` (seed 7) at 10k, 100k and 1M regions (CTXGUARD_BENCH_SIZES overrides,
//! e.g. `10000,100000`). The data is generated under `target/bench-data`
//! and never committed. Each measurement runs in a child process, so its
//! peak memory (VmHWM, Linux) is its own. The parse and the verify run in
//! turn, 5 pairs: times are medians, the ratio the median of the pairs'
//! (a machine slower for a while slows both of a pair).
//! Then a typical 128k-token buffer, in process and as a whole process, and
//! the start-up of a whole process on the README's example, whose regions
//! are counted with `o200k_base` (`CTXGUARD_BENCH_SIZES=typical` runs only
//! these).

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Deserialize;

#[path = "support/gen_trace.rs"]
mod gen_trace;
#[path = "support/measure.rs"]
mod measure;

/// What a parse-only baseline reads: the fields verification needs.
#[allow(dead_code)]
#[derive(Deserialize)]
struct Region {
    id: Option<String>,
    kind: Option<String>,
    key: Option<String>,
    text: Option<String>,
    record: Option<serde_json::Value>,
    tokens: Option<u64>,
    keep: Option<String>,
    covers: Option<Vec<String>>,
    status: Option<String>,
}

#[allow(dead_code)]
#[derive(Deserialize)]
struct Document {
    version: u32,
    regions: Vec<Region>,
}

fn parse_only(trace: &Path, plan: &Path) {
    for path in [trace, plan] {
        let bytes = std::fs::read(path).expect("bench input");
        if path.extension().is_some_and(|e| e == "jsonl") {
            let regions: Vec<Region> = bytes
                .split(|&b| b == b'\n')
                .filter(|line| !line.is_empty())
                .map(|line| serde_json::from_slice(line).expect("a region"))
                .collect();
            std::hint::black_box(regions);
        } else {
            let document: Document = serde_json::from_slice(&bytes).expect("a document");
            std::hint::black_box(document);
        }
    }
}

fn verify(trace: &Path, plan: &Path) {
    let request = ctxguard::VerifyRequest {
        trace: trace.to_path_buf(),
        plan: plan.to_path_buf(),
        options: ctxguard::Options {
            warning_limit: Some(ctxguard::WARNING_LIMIT),
            ..Default::default()
        },
        ..Default::default()
    };
    let report = ctxguard::verify_files(&request);
    // Render as the JSON report, as a CI job would.
    let mut out = Vec::new();
    let style = ctxguard::HumanStyle::plain();
    ctxguard::render(&report, ctxguard::Format::Json, &style, &mut out).expect("render");
    std::hint::black_box(out);
}

/// Median and 99th percentile of `runs`, in whatever unit they are.
fn percentiles(mut runs: Vec<f64>) -> (f64, f64) {
    runs.sort_by(f64::total_cmp);
    (runs[runs.len() / 2], runs[runs.len() * 99 / 100])
}

/// `ctxguard verify` as a whole process, `runs` times: milliseconds each.
fn processes(runs: usize, trace: &Path, plan: &Path, format: &str) -> Vec<f64> {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_ctxguard"))
                .args(["verify", "--format", format, "--trace"])
                .arg(trace)
                .arg("--plan")
                .arg(plan)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("ctxguard runs");
            assert!(status.success(), "{} verifies", plan.display());
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

/// The README's first command (`ctxguard verify` of the migration example,
/// its regions counted with `o200k_base`, human output) as 50 whole
/// processes started from a child of this bench, which then prints their
/// median and p99 milliseconds and the highest peak memory any of them
/// reached (`getrusage` of its children, KiB).
fn startup_child() {
    let scenario = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/migration");
    let runs = processes(
        50,
        &scenario.join("trace.yaml"),
        &scenario.join("plan-good.yaml"),
        "human",
    );
    let (median, p99) = percentiles(runs);
    println!("{median} {p99} {}", children_peak_kib());
}

/// The highest peak memory of this process's finished children, KiB.
#[cfg(unix)]
fn children_peak_kib() -> i64 {
    use nix::sys::resource::{getrusage, UsageWho};
    getrusage(UsageWho::RUSAGE_CHILDREN).map_or(0, |usage| usage.max_rss())
}

/// Not measured off Unix.
#[cfg(not(unix))]
fn children_peak_kib() -> i64 {
    0
}

/// Runs one measurement in this process and prints `seconds peak_kib`.
fn child(mode: &str, trace: &Path, plan: &Path) {
    let start = Instant::now();
    match mode {
        "parse" => parse_only(trace, plan),
        _ => verify(trace, plan),
    }
    println!("{} {}", start.elapsed().as_secs_f64(), measure::peak_kib());
}

/// The parse and the verify of `trace` and `plan`, run in turn `runs`
/// times: (parse s, verify s, verify / parse, parse peak KiB, verify peak
/// KiB), times and ratio the medians.
fn paired(runs: usize, trace: &Path, plan: &Path) -> (f64, f64, f64, u64, u64) {
    let args = |mode: &'static str| [OsStr::new(mode), trace.as_os_str(), plan.as_os_str()];
    let pairs: Vec<((f64, u64), (f64, u64))> = (0..runs)
        .map(|_| (measure::once(args("parse")), measure::once(args("verify"))))
        .collect();
    let parse = measure::median(pairs.iter().map(|(p, _)| p.0).collect());
    let verify = measure::median(pairs.iter().map(|(_, v)| v.0).collect());
    let ratio = measure::median(pairs.iter().map(|(p, v)| v.0 / p.0).collect());
    let parse_peak = pairs.iter().map(|(p, _)| p.1).max().unwrap_or(0);
    let verify_peak = pairs.iter().map(|(_, v)| v.1).max().unwrap_or(0);
    (parse, verify, ratio, parse_peak, verify_peak)
}

fn generate(regions: usize) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-data").join(regions.to_string());
    if !dir.join("plan-alter.json").exists() {
        gen_trace::generate(&dir, regions, 7).expect("the bench data is written");
    }
    dir
}

/// A typical buffer at a 128k-token window: 500 regions whose `tokens`
/// are given (480 narrative of 267, 20 constraints of 8: 128,320 tokens),
/// and the plan that keeps every constraint and summarizes each run of
/// narrative between them.
fn typical_buffer() -> (String, String) {
    let mut regions = Vec::new();
    let mut plan = Vec::new();
    let mut covered = Vec::new();
    let summary = |covered: &mut Vec<String>| {
        serde_json::json!({"kind": "summary", "text": "Read the schemas.",
            "covers": std::mem::take(covered), "tokens": 4})
    };
    for i in 0..500 {
        if i % 25 == 0 {
            if !covered.is_empty() {
                plan.push(summary(&mut covered));
            }
            regions.push(serde_json::json!({"id": format!("c{i}"), "kind": "constraint",
                "key": format!("rule-{i}"), "text": format!("Do not touch table t{i}."), "tokens": 8}));
            plan.push(serde_json::json!({"keep": format!("c{i}")}));
        } else {
            regions.push(
                serde_json::json!({"id": format!("n{i}"), "kind": "narrative",
                "text": format!("Step {i}: read the schema of table t{i} and noted its columns."),
                "tokens": 267}),
            );
            covered.push(format!("n{i}"));
        }
    }
    plan.push(summary(&mut covered));
    let document = |regions| serde_json::json!({"version": 1, "regions": regions}).to_string();
    (document(regions), document(plan))
}

/// The typical buffer verified in this process (the inputs read once, then
/// only `verify`; and read each time from text), and as a whole `ctxguard
/// verify` process: median and 99th percentile.
fn typical() {
    let (trace_text, plan_text) = typical_buffer();
    let policy = ctxguard::Policy::builtin();
    let options = ctxguard::Options::default();
    let read = || {
        let trace = ctxguard::Input::text(
            "trace.json",
            ctxguard::InputFormat::Json,
            trace_text.as_str(),
        );
        let plan =
            ctxguard::Input::text("plan.json", ctxguard::InputFormat::Json, plan_text.as_str());
        (
            ctxguard::Trace::read(&trace).expect("the typical trace reads"),
            ctxguard::Plan::read(&plan).expect("the typical plan reads"),
        )
    };
    let (trace, plan) = read();
    let verified = ctxguard::verify(&policy, &trace, &plan, &options);
    assert_eq!(verified.verdict, ctxguard::Verdict::Compact);
    let timed = |work: &dyn Fn()| {
        percentiles(
            (0..500)
                .map(|_| {
                    let start = Instant::now();
                    work();
                    start.elapsed().as_secs_f64() * 1e3
                })
                .collect(),
        )
    };
    let (verify_only, verify_p99) = timed(&|| {
        std::hint::black_box(ctxguard::verify(&policy, &trace, &plan, &options));
    });
    let (with_read, with_read_p99) = timed(&|| {
        let (trace, plan) = read();
        std::hint::black_box(ctxguard::verify(&policy, &trace, &plan, &options));
    });
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/typical");
    std::fs::create_dir_all(&dir).expect("bench data folder");
    std::fs::write(dir.join("trace.json"), &trace_text).expect("trace written");
    std::fs::write(dir.join("plan.json"), &plan_text).expect("plan written");
    let (process, process_p99) = percentiles(processes(
        50,
        &dir.join("trace.json"),
        &dir.join("plan.json"),
        "json",
    ));
    let startup = std::process::Command::new(std::env::current_exe().expect("this bench"))
        .arg("--startup")
        .output()
        .expect("the start-up child runs");
    let startup = String::from_utf8_lossy(&startup.stdout);
    let startup: Vec<f64> = startup
        .split_whitespace()
        .filter_map(|field| field.parse().ok())
        .collect();
    let [startup, startup_p99, startup_kib] = startup[..] else {
        panic!("the start-up child prints three numbers");
    };
    println!();
    println!("| typical 128k-token buffer (500 regions, tokens given) | median ms | p99 ms |");
    println!("|---|---:|---:|");
    println!("| `verify` in process, inputs already read | {verify_only:.3} | {verify_p99:.3} |");
    println!(
        "| read both from text and `verify`, in process | {with_read:.3} | {with_read_p99:.3} |"
    );
    println!("| whole `ctxguard verify --format json` process | {process:.2} | {process_p99:.2} |");
    println!();
    println!("| start-up: the README's example, counted with `o200k_base` | median ms | p99 ms | peak MB |");
    println!("|---|---:|---:|---:|");
    println!(
        "| whole `ctxguard verify` process | {startup:.2} | {startup_p99:.2} | {:.1} |",
        startup_kib / 1024.0
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--startup") {
        startup_child();
        return;
    }
    if args.get(1).map(String::as_str) == Some("--child") {
        child(&args[2], Path::new(&args[3]), Path::new(&args[4]));
        return;
    }
    let sizes: Vec<usize> = std::env::var("CTXGUARD_BENCH_SIZES")
        .unwrap_or_else(|_| "10000,100000,1000000".to_owned())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    if std::env::var("CTXGUARD_BENCH_SIZES").as_deref() == Ok("typical") {
        typical();
        return;
    }
    println!("| regions | trace | input MB | parse s | verify s | verify / parse | parse peak MB | verify peak MB | verify µs/region |");
    println!("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
    for regions in sizes {
        let dir = generate(regions);
        for trace in ["trace.json", "trace.jsonl"] {
            for plan in ["plan-good.json", "plan-alter.json"] {
                let (trace_path, plan_path) = (dir.join(trace), dir.join(plan));
                let bytes = std::fs::metadata(&trace_path).map_or(0, |m| m.len())
                    + std::fs::metadata(&plan_path).map_or(0, |m| m.len());
                let (parse_s, verify_s, ratio, parse_kib, verify_kib) =
                    paired(5, &trace_path, &plan_path);
                println!(
                    "| {regions} | {trace} + {plan} | {:.1} | {parse_s:.3} | {verify_s:.3} | {ratio:.2} | {:.0} | {:.0} | {:.2} |",
                    bytes as f64 / 1e6,
                    parse_kib as f64 / 1024.0,
                    verify_kib as f64 / 1024.0,
                    verify_s * 1e6 / regions as f64,
                );
            }
        }
    }
    typical();
}
