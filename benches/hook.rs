//! `cargo bench --bench hook`: how long each Claude Code hook takes, as
//! Claude Code runs it (a new process, the payload on stdin), on a session
//! whose ledger already holds 10,000 commitments (or
//! `CTXGUARD_HOOK_COMMITMENTS`). Prints p50, p99 and the slowest of
//! `CTXGUARD_HOOK_RUNS` runs per event (default 100); `CTXGUARD_HOOK_ONLY`
//! times only the events whose label contains it (to profile one). The
//! ledger and transcript are generated under `target/bench-data/hook`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::json;

/// How many commitments the ledger holds unless `CTXGUARD_HOOK_COMMITMENTS`
/// says otherwise.
const COMMITMENTS: usize = 10_000;

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let runs: usize = std::env::var("CTXGUARD_HOOK_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);
    let commitments: usize = std::env::var("CTXGUARD_HOOK_COMMITMENTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(COMMITMENTS);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data/hook");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench folder");
    let ledger_dir = dir.join("ledger");
    let ledger = ctxguard::ledger::Ledger::new(&ledger_dir, "bench", u64::MAX);
    let entries: Vec<ctxguard::ledger::Entry> = (0..commitments)
        .map(|n| {
            let (kind, derived, key) = match n % 10 {
                0 => (
                    ctxguard::RegionKind::Commitment("constraint".into()),
                    ctxguard::Derived::Pin,
                    Some(format!("rule-{n}")),
                ),
                1 => (
                    ctxguard::RegionKind::Commitment("decision".into()),
                    ctxguard::Derived::Answer,
                    None,
                ),
                _ => (
                    ctxguard::RegionKind::Unclassified,
                    ctxguard::Derived::Sentence,
                    None,
                ),
            };
            let text = format!("Commitment {n}: keep the importer at src/import/mod_{n}.rs and never drop its tests.");
            // As the hooks record them: counted once, with the policy's tokenizer.
            let commitment = ctxguard::ledger::Commitment::new(&kind, key, text, derived, ctxguard::ledger::Source::default())
                .counted(ctxguard::Tokenizer::O200kBase);
            match derived {
                ctxguard::Derived::Pin => ctxguard::ledger::Entry::Pinned(commitment),
                ctxguard::Derived::Answer => ctxguard::ledger::Entry::Confirmed(commitment),
                _ => ctxguard::ledger::Entry::Derived(commitment),
            }
        })
        .collect();
    ledger.append(entries).expect("ledger written");
    let size = std::fs::metadata(&ledger.path).map_or(0, |m| m.len());
    // A transcript of 400 prompts and replies (~1 MB).
    let transcript = dir.join("transcript.jsonl");
    let mut lines = String::new();
    let mut parent = serde_json::Value::Null;
    let mut prompts = Vec::new();
    for n in 0..400 {
        prompts.push(format!(
            "Prompt {n}: run the tests before applying patch {n}."
        ));
        let user = format!("u{n}");
        let assistant = format!("a{n}");
        lines.push_str(&json!({"parentUuid": parent, "isSidechain": false, "sessionId": "bench", "version": "2.1.226", "type": "user", "uuid": user, "message": {"role": "user", "content": prompts[n]}}).to_string());
        lines.push('\n');
        lines.push_str(&json!({"parentUuid": user, "isSidechain": false, "sessionId": "bench", "version": "2.1.226", "type": "assistant", "uuid": assistant, "message": {"id": format!("m{n}"), "role": "assistant", "content": [{"type": "text", "text": "Done. ".repeat(400)}]}}).to_string());
        lines.push('\n');
        parent = json!(assistant);
    }
    std::fs::write(&transcript, lines).expect("transcript");
    // The hooks were installed before the session began: the prompt hook
    // heard every prompt the transcript holds.
    let heard: Vec<&str> = prompts.iter().map(String::as_str).collect();
    ledger.hear(&heard).expect("prompts marked heard");
    let heard_file = ledger.heard_path();
    let marks = std::fs::read(&heard_file).expect("the marks read");
    let summary = "Summary:\n1. Primary Request: keep the importers and their tests.\n".repeat(200);
    let t = transcript.display().to_string();
    let events: Vec<(&str, String)> = vec![
        ("UserPromptSubmit", String::new()),
        ("PostToolUse", json!({"session_id": "bench", "tool_name": "AskUserQuestion", "tool_response": {"answers": {"Which key?": "uuid"}}}).to_string()),
        // A session's first compaction reads the whole transcript, and
        // judges what the prompt hook did not hear: nothing, or (the hooks
        // installed mid-session) every prompt. A later one reads what was
        // written since the one before.
        ("PreCompact (first)", json!({"session_id": "bench", "transcript_path": t, "trigger": "auto", "custom_instructions": ""}).to_string()),
        ("PreCompact (installed late)", json!({"session_id": "bench", "transcript_path": t, "trigger": "auto", "custom_instructions": ""}).to_string()),
        ("PreCompact (later)", json!({"session_id": "bench", "transcript_path": t, "trigger": "auto", "custom_instructions": ""}).to_string()),
        ("PostCompact", json!({"session_id": "bench", "trigger": "auto", "compact_summary": summary}).to_string()),
        ("SessionStart", json!({"session_id": "bench", "source": "compact"}).to_string()),
    ];
    println!(
        "ledger: {commitments} commitments, {} KiB; transcript 800 records, {} KiB; {runs} runs per event, each a new process",
        size / 1024,
        std::fs::metadata(&transcript).map_or(0, |m| m.len()) / 1024
    );
    println!(
        "{:28} {:>9} {:>9} {:>9}",
        "event", "p50 ms", "p99 ms", "max ms"
    );
    // The ledger as written, for the runs that start from it.
    let pristine = std::fs::read(&ledger.path).expect("the ledger reads");
    let only = std::env::var("CTXGUARD_HOOK_ONLY").unwrap_or_default();
    for (label, payload) in events {
        if !label.contains(&only) {
            continue;
        }
        let event = label.split(' ').next().unwrap_or(label);
        let mut times: Vec<f64> = (0..runs)
            .map(|n| {
                if label.ends_with("(first)") || label.ends_with("(installed late)") {
                    std::fs::write(&ledger.path, &pristine).expect("the ledger restored");
                }
                if label.ends_with("(installed late)") {
                    let _ = std::fs::remove_file(&heard_file);
                } else if label.ends_with("(first)") {
                    std::fs::write(&heard_file, &marks).expect("the marks restored");
                }
                let payload = if event == "UserPromptSubmit" {
                    json!({"session_id": "bench", "prompt": format!("pin value port-{n}: 54{n:02}\nPlease keep going. Never drop the users table.")}).to_string()
                } else {
                    payload.clone()
                };
                let start = Instant::now();
                let mut child = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
                    .args(["hook", "claude-code", event, "--ledger-dir"])
                    .arg(&ledger_dir)
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("ctxguard runs");
                if let Some(mut stdin) = child.stdin.take() {
                    let _ = stdin.write_all(payload.as_bytes());
                }
                let output = child.wait_with_output().expect("ctxguard finishes");
                let elapsed = start.elapsed().as_secs_f64() * 1000.0;
                // A hook that failed is not timed as a fast one: each event
                // must answer as it does when it works.
                let (status, said) = expected(event, commitments);
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&output.stdout),
                    String::from_utf8_lossy(&output.stderr)
                );
                assert!(
                    output.status.code() == Some(status) && text.contains(said),
                    "{event} exited {:?} (expected {status}, saying {said:?}):\n{text}",
                    output.status.code()
                );
                elapsed
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let at =
            |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
        println!(
            "{label:28} {:>9.1} {:>9.1} {:>9.1}",
            at(0.5),
            at(0.99),
            times[times.len() - 1]
        );
    }
}

/// How each event answers when it works on this workload: its exit status
/// and words its output holds. The ledger's commitments take about 25
/// tokens each: 1,000 fit a compaction's budget and it goes on, the
/// compactor asked to keep them; 10,000 do not, and it is refused.
fn expected(event: &str, commitments: usize) -> (i32, &'static str) {
    match event {
        "UserPromptSubmit" => (0, ""),
        "PostToolUse" => (0, ""),
        "PreCompact" if commitments <= 2_000 => (0, "ctxguard: the user set or confirmed"),
        "PreCompact" => (2, "blocked this compaction"),
        "PostCompact" => (2, "lost"),
        "SessionStart" => (0, "re-injected after compaction"),
        _ => (0, ""),
    }
}
