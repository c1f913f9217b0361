//! `cargo bench --bench fleet`: a folder audit as a team runs it on its
//! sessions — `ctxguard audit --format jsonl DIR`, a whole process on all
//! cores — paired against the floor of merely parsing every JSON record of
//! the same files into `serde_json::Value` on all cores. The folder is the
//! real sessions of `tests/corpus` copied `CTXGUARD_FLEET_COPIES` times
//! (default 4: 200 files, some 350 MB) under `target/bench-data/fleet`;
//! `CTXGUARD_FLEET_RUNS` pairs are run (default 3). Prints each side's
//! median and the median of the pairs' ratios.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use rayon::prelude::*;

#[path = "support/measure.rs"]
mod measure;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "--child") {
        let dir = PathBuf::from(&args[at + 1]);
        let start = Instant::now();
        let records = floor(&dir);
        println!(
            "{} {} {records}",
            start.elapsed().as_secs_f64(),
            measure::peak_kib()
        );
        return;
    }
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let copies = env("CTXGUARD_FLEET_COPIES", 4);
    let runs = env("CTXGUARD_FLEET_RUNS", 3).max(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-data/fleet");
    let (files, bytes) = fill(&root.join("tests/corpus"), &dir, copies);
    println!(
        "fleet: {files} session files ({} MB, the corpus's real sessions copied {copies}x), {runs} paired runs",
        bytes / 1_000_000
    );
    let mut audits = Vec::new();
    let mut floors = Vec::new();
    let mut said = None;
    for _ in 0..runs {
        let start = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
            .args(["audit", "--format", "jsonl"])
            .arg(&dir)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .expect("ctxguard runs");
        audits.push(start.elapsed().as_secs_f64());
        // A folder with compactions that lost something exits 1; any other
        // status, or another count of records, is a failed run, not a fast one.
        let lines = output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        assert!(
            matches!(output.status.code(), Some(0 | 1)) && lines > 0,
            "the audit failed: {:?}, {lines} records",
            output.status.code()
        );
        assert!(
            said.is_none_or(|n| n == lines),
            "the audit said {lines} records, then another count"
        );
        said = Some(lines);
        let (seconds, _, _) = measure::once_said([dir.as_os_str()]);
        floors.push(seconds);
    }
    let ratios: Vec<f64> = audits.iter().zip(&floors).map(|(a, f)| a / f).collect();
    let median = |values: &[f64]| measure::median(values.to_vec());
    println!("{:28} {:>9}", "", "median s");
    println!("{:28} {:>9.2}", "audit --format jsonl DIR", median(&audits));
    println!(
        "{:28} {:>9.2}",
        "floor: parse every record",
        median(&floors)
    );
    println!(
        "audit / floor, pair by pair: median {:.1}x ({} compactions audited)",
        median(&ratios),
        said.unwrap_or(0)
    );
}

/// `copies` copies of every session file of the corpus in `dir`, made
/// anew; how many files, and their bytes.
fn fill(corpus: &Path, dir: &Path, copies: usize) -> (usize, u64) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("bench folder");
    let mut sessions: Vec<PathBuf> = std::fs::read_dir(corpus)
        .expect("tests/corpus")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .flat_map(|e| std::fs::read_dir(e.path()).expect("a session folder"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    sessions.sort();
    let (mut files, mut bytes) = (0, 0);
    for copy in 0..copies {
        for (n, session) in sessions.iter().enumerate() {
            let to = dir.join(format!("{copy}-{n}.jsonl"));
            bytes += std::fs::copy(session, to).expect("copied");
            files += 1;
        }
    }
    (files, bytes)
}

/// The floor: every line of every file in `dir` parsed into a
/// `serde_json::Value`, on all cores; how many records parsed.
fn floor(dir: &Path) -> usize {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("bench folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files
        .par_iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("a session file");
            bytes
                .split(|&b| b == b'\n')
                .filter(|line| !line.is_empty())
                .filter(|line| serde_json::from_slice::<serde_json::Value>(line).is_ok())
                .count()
        })
        .sum()
}
