//! `ctxguard import` on a session of each runtime, written for these tests
//! from the runtimes' formats (`tests/fixtures/sessions/`), each with the
//! pitfalls its runtime is known for; and on the real sessions of the
//! shared corpus when it is present.

mod common;

use std::path::{Path, PathBuf};

use common::Test;
use serde_json::Value;

const SESSIONS: &str = "tests/fixtures/sessions";

/// Imports `session` into a fresh folder: the JSON report, the human
/// report (the folder written as `OUT`), and the folder.
fn import(session: &str, extra: &[&str]) -> (Value, String, tempfile::TempDir) {
    let out = tempfile::tempdir().expect("temporary directory");
    let path = format!("{SESSIONS}/{session}");
    let out_dir = out.path().join("out");
    let out_arg = out_dir.to_str().expect("a UTF-8 path");
    let json = Test::new()
        .args(&["import", &path, "--out", out_arg, "--format", "json"])
        .args(extra)
        .any_status()
        .run();
    let human = Test::new()
        .args(&["import", &path, "--out", out_arg])
        .args(extra)
        .any_status()
        .run();
    let report = serde_json::from_str(&json.stdout).expect("a JSON report");
    let shown = format!("--- exit {} ---\n{}", human.status, human.stdout).replace(out_arg, "OUT");
    (report, shown, out)
}

fn read(dir: &Path, event: usize, which: &str) -> Value {
    let path: PathBuf = dir
        .join("out")
        .join(event.to_string())
        .join(format!("{which}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).expect("written")).expect("JSON")
}

/// `(id, kind, derived, text)` of each trace region.
fn regions(trace: &Value) -> Vec<(String, String, String, String)> {
    trace["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or("").to_owned();
            (s("id"), s("kind"), s("derived"), s("text"))
        })
        .collect()
}

fn lines(report: &Value) -> Vec<u64> {
    report["sessions"][0]["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["compaction_line"].as_u64().expect("a line"))
        .collect()
}

/// The code of each finding of a JSON report.
fn codes(report: &Value) -> Vec<&str> {
    report["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["code"].as_str())
        .collect()
}

fn plan_entries(plan: &Value) -> Vec<String> {
    plan["regions"]
        .as_array()
        .expect("regions")
        .iter()
        .map(|r| match r["keep"].as_str() {
            Some(id) => format!("keep {id}"),
            None => format!("summary quoting {}", r["quotes"]),
        })
        .collect()
}

#[test]
fn claude_code() {
    let (report, shown, out) = import("claude-code.jsonl", &[]);
    common::assert_fits(&shown, "import");
    insta::assert_snapshot!(shown);
    assert_eq!(report["sessions"][0]["runtime"], "claude-code");
    // The title record on line 1 is no compaction; both boundaries are.
    assert_eq!(lines(&report), [13, 22]);
    // The cut-off last line is reported, with its line.
    assert_eq!(codes(&report), ["session-record"]);

    let trace = regions(&read(out.path(), 1, "trace"));
    let find = |text: &str| trace.iter().find(|r| r.3 == text).cloned();
    // The pin, a hinted identifier, the answer to a question, an ordering.
    assert_eq!(
        find("Do not drop columns.").map(|r| (r.1, r.2)),
        Some(("constraint".into(), "pin".into()))
    );
    assert_eq!(
        find("Keep the parser at src/legacy/parser_v2.py for now.").map(|r| r.1),
        Some("identifier".into())
    );
    assert_eq!(
        find("Which primary key? → uuid").map(|r| (r.1, r.2)),
        Some(("decision".into(), "answer".into()))
    );
    assert_eq!(
        find("Run the tests before applying the patch.").map(|r| r.1),
        Some("ordering".into())
    );
    // One API message written as three records (thinking, text, tool call) is one region.
    assert!(trace.iter().any(
        |r| r.3 == "I will look at the schema first.\n[Bash] {\"command\":\"cat schema.sql\"}"
    ));
    // Sidechains are not the main buffer.
    assert!(trace.iter().all(|r| !r.3.contains("Subagent")));
    // The summary quotes the pin exactly; the rest is lost.
    assert_eq!(
        plan_entries(&read(out.path(), 1, "plan")),
        ["summary quoting [\"l3.2\"]"]
    );

    // The second buffer starts with the first summary, then the `/compact`
    // echoes written after it (with earlier timestamps), as the chain says.
    let trace = regions(&read(out.path(), 2, "trace"));
    let ids: Vec<&str> = trace.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        ids,
        ["l14", "l15", "l16", "l17", "l18", "l18.2", "l19", "l20", "l20.2", "l21"]
    );
    assert_eq!(
        trace[1].1, "narrative",
        "a caveat the runtime wrote is no commitment"
    );
    assert_eq!(
        (trace[4].1.as_str(), trace[4].3.as_str()),
        ("value", "https://api.example.com/v2")
    );
    // The preserved segment (2.1.x) is kept after the summary.
    assert_eq!(
        plan_entries(&read(out.path(), 2, "plan")),
        ["summary quoting null", "keep l20", "keep l20.2", "keep l21"]
    );
}

#[test]
fn imported_findings_point_into_the_session() {
    let (_, _, out) = import("claude-code.jsonl", &[]);
    let dir = out.path().join("out/1");
    let trace = dir.join("trace.json");
    let plan = dir.join("plan.json");
    Test::new()
        .args(&[
            "verify",
            "--format",
            "json",
            "--trace",
            trace.to_str().expect("utf-8"),
            "--plan",
            plan.to_str().expect("utf-8"),
        ])
        .stdout_contains("\"code\": \"missing-commitment\"")
        .stdout_contains("comes from tests/fixtures/sessions/claude-code.jsonl:11 (record u-0008)")
        .status(1)
        .run();
}

#[test]
fn pi() {
    let (report, shown, out) = import("pi.jsonl", &[]);
    insta::assert_snapshot!(shown);
    assert_eq!(lines(&report), [11, 16]);
    let first = regions(&read(out.path(), 1, "trace"));
    // Only the path from the last entry counts: the abandoned branch does not.
    assert!(first.iter().all(|r| !r.3.contains("abandoned")));
    assert!(first
        .iter()
        .any(|r| r.3 == "Only write e2e tests for AgentSession." && r.2 == "pin"));
    // The second buffer: the first summary, then from the first compaction's
    // first kept entry (line 8) on; only what follows the first compaction
    // was summarized again.
    let second = regions(&read(out.path(), 2, "trace"));
    assert!(second[0]
        .3
        .starts_with("The conversation history before this point was compacted"));
    assert_eq!(second[1].3, "i reviewed what we have, it's good. continue");
    assert_eq!(
        plan_entries(&read(out.path(), 2, "plan")),
        ["summary quoting null", "keep l14", "keep l15"]
    );
}

#[test]
fn codex() {
    let (report, shown, out) = import("codex.jsonl", &[]);
    insta::assert_snapshot!(shown);
    assert_eq!(lines(&report), [9, 18]);
    let events = &report["sessions"][0]["events"];
    assert_eq!(events[0]["tokens_before"], 4100);
    assert_eq!(events[1]["opaque"], true);
    assert!(
        events[1].get("tokens_before").is_none(),
        "a count from before the first compaction"
    );
    assert_eq!(codes(&report), ["opaque-summary"]);
    // The message-only compaction keeps the environment and the user's message.
    let first = regions(&read(out.path(), 1, "trace"));
    assert_eq!(
        first[0].1, "narrative",
        "the environment context is the runtime's"
    );
    assert!(first
        .iter()
        .any(|r| r.3 == "Never edit vendor/." && r.1 == "constraint"));
    // The rolled-back turn is gone; the pin is there.
    let second = regions(&read(out.path(), 2, "trace"));
    assert!(second.iter().all(|r| r.3 != "Actually, undo that."));
    assert!(second
        .iter()
        .any(|r| r.3 == "-lfoo_static" && r.1 == "value" && r.2 == "pin"));
}

#[test]
fn openhands() {
    let (report, shown, out) = import("openhands-v0.json", &[]);
    insta::assert_snapshot!("openhands_v0", shown);
    assert_eq!(lines(&report), [71, 95]);
    // V0 shows only the latest summary; forgotten events are gone.
    let plan = read(out.path(), 2, "plan");
    let text = plan.to_string();
    assert!(text.contains("The agent read src/api.py.") && !text.contains("listed the repository"));

    let (report, shown, out) = import("openhands-v1.jsonl", &[]);
    insta::assert_snapshot!("openhands_v1", shown);
    assert_eq!(lines(&report), [5, 7]);
    // V1 applies each condensation in order: the second forgets the user's message.
    let second = regions(&read(out.path(), 2, "trace"));
    assert!(second
        .iter()
        .any(|r| r.3 == "Deploy to staging first, then to production."));
    assert!(!read(out.path(), 2, "plan")
        .to_string()
        .contains("\"keep\":\"l2\""));
}

#[test]
fn swe_agent() {
    let (report, shown, out) = import("swe-agent.traj", &[]);
    insta::assert_snapshot!(shown);
    // Steps 1 and 3 elide more than before; step 2 elides nothing new.
    assert_eq!(
        report["sessions"][0]["events"].as_array().map(Vec::len),
        Some(2)
    );
    let trace = regions(&read(out.path(), 2, "trace"));
    assert!(trace
        .iter()
        .any(|r| r.3 == "Do not modify tests/." && r.1 == "constraint"));
}

#[test]
fn no_compaction_and_unknown_files() {
    let (_, shown, _) = import("pi.jsonl", &["--from", "claude-code"]);
    assert!(shown.starts_with("--- exit 0 ---"), "{shown}");
    assert!(
        common::flat(&shown).contains("no compaction; nothing written"),
        "{shown}"
    );
    Test::new()
        .args(&["import", "Cargo.toml", "--out", "unused"])
        .stdout_contains("ctxguard::unknown-session")
        .status(2)
        .run();
}

/// `ctxguard import --format json` of a session at `path`: the report.
fn import_path(path: &Path) -> Value {
    let out = tempfile::tempdir().expect("temporary directory");
    let output = Test::new()
        .args(&[
            "import",
            path.to_str().expect("utf-8"),
            "--out",
            out.path().to_str().expect("utf-8"),
            "--format",
            "json",
        ])
        .run();
    serde_json::from_str(&output.stdout).expect("JSON")
}

/// The real sessions: the compaction lines their PROVENANCE files give.
#[test]
fn shared_corpus() {
    let Some(corpus) = common::shared_corpus("real", "the shared corpus of real sessions") else {
        return;
    };
    for (folder, expected) in [
        ("mclaude-cosmic-applet-compact", vec![749]),
        ("mclaude-router-ssh-compact", vec![138]),
        ("pi-mono-before-compaction", vec![360, 629]),
        ("pi-mono-large-session", vec![]),
    ] {
        let session = std::fs::read_dir(corpus.join(folder))
            .expect("a folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .expect("a session file");
        assert_eq!(lines(&import_path(&session)), expected, "{folder}");
    }
    let report = import_path(
        &corpus.join("swe-agent-marshmallow-1867/marshmallow-code__marshmallow-1867.traj"),
    );
    // Steps 5 to 12 each elide one more old observation.
    assert_eq!(
        report["sessions"][0]["events"].as_array().map(Vec::len),
        Some(8)
    );
}

#[test]
fn a_letta_export_is_said_to_hold_no_before() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("agent.af");
    // Multi-byte text around the 64 KiB mark the check looks at.
    let filler = "é".repeat(40_000);
    std::fs::write(&file, format!("{{\"agents\": [{{\"messages\": [], \"in_context_message_ids\": [], \"note\": \"{filler}\"}}]}}\n")).expect("write");
    Test::new()
        .args(&["import", file.to_str().expect("utf-8"), "--out", "unused"])
        .stdout_contains("looks like a Letta agent export")
        .status(2)
        .run();
}
