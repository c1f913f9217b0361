//! The session files real runtimes wrote in `tests/runtimes` (kept in
//! `tests/fixtures/runtimes/RUNTIME-VERSION/`): each is clean of the
//! runtime's own text, imports with every compaction at its line, and
//! drives the hooks as the real client did.

mod common;
#[path = "support/scrub.rs"]
mod scrub;

use std::path::{Path, PathBuf};

use common::Test;
use serde_json::Value;

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/runtimes");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/fixtures/runtimes")
        .flatten()
        .flat_map(|dir| {
            std::fs::read_dir(dir.path())
                .expect("a fixture folder")
                .flatten()
        })
        .map(|entry| entry.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    found.sort();
    found
}

fn sessions() -> Vec<PathBuf> {
    fixtures()
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".ledger.jsonl"))
        .collect()
}

#[test]
fn every_runtime_in_the_matrix_left_a_session() {
    let names: Vec<String> = sessions()
        .iter()
        .filter_map(|p| p.parent()?.file_name()?.to_str().map(str::to_owned))
        .collect();
    for runtime in ["claude-code-2.0.76", "claude-code-2.1.332", "codex-", "pi-"] {
        assert!(
            names.iter().any(|n| n.starts_with(runtime)),
            "no fixture of {runtime}: {names:?}"
        );
    }
}

#[test]
fn fixtures_hold_none_of_the_runtimes_own_text() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("fixture");
        if let Some(why) = scrub::clean(&text) {
            panic!("{} is not clean: {why}", path.display());
        }
        assert!(
            !text.contains(env!("CARGO_MANIFEST_DIR")) && !text.contains("/tmp/"),
            "{} names a folder of the machine it was made on",
            path.display()
        );
    }
}

/// The lines of `path` that record a compaction, as its runtime writes one.
fn compaction_lines(path: &Path) -> Vec<u64> {
    std::fs::read_to_string(path)
        .expect("fixture")
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let record: Value = serde_json::from_str(line).unwrap_or(Value::Null);
            record["subtype"] == "compact_boundary"
                || record["type"] == "compacted"
                || record["type"] == "compaction"
        })
        .map(|(i, _)| i as u64 + 1)
        .collect()
}

#[test]
fn each_session_imports_with_every_compaction_at_its_line() {
    for path in sessions() {
        let expected = compaction_lines(&path);
        // The `session` and Claude Code `guard` trials compact twice; the
        // Codex and pi guards, once.
        assert!(!expected.is_empty(), "{}: no compaction", path.display());
        let output = Test::new()
            .args(&["audit", "--format", "json", &path.to_string_lossy()])
            .any_status()
            .run();
        let report: Value = serde_json::from_str(&output.stdout).expect("audit JSON");
        assert_eq!(
            report["diagnostics"],
            Value::Array(vec![]),
            "{}",
            path.display()
        );
        let lines: Vec<u64> = report["events"]
            .as_array()
            .expect("events")
            .iter()
            .filter_map(|e| e["compaction_line"].as_u64())
            .collect();
        assert_eq!(lines, expected, "{}", path.display());
        // The first summary of every session drops "Do not drop columns.".
        let first = &report["events"][0]["commitments"];
        let lost = first.as_array().expect("commitments").iter().any(|c| {
            c["text"]
                .as_str()
                .is_some_and(|t| t.contains("Do not drop columns."))
                && c["outcome"] == "lost"
        });
        assert!(
            lost,
            "{}: the dropped constraint is not lost: {first}",
            path.display()
        );
        assert_eq!(output.status, 1, "{}: something was lost", path.display());
    }
}

/// SessionStart on `resume` of the guarded session in `dir`, as Claude
/// Code calls it: what the hook prints.
fn resumed(dir: &str, written_for: Option<&str>) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/runtimes")
        .join(dir);
    let transcript = root.join("guard.jsonl");
    let session = std::fs::read_to_string(&transcript)
        .expect("fixture")
        .lines()
        .find_map(|line| {
            let record: Value = serde_json::from_str(line).ok()?;
            record["sessionId"].as_str().map(str::to_owned)
        })
        .expect("a session id");
    let ledgers = tempfile::tempdir().expect("dir");
    std::fs::copy(
        root.join("guard.ledger.jsonl"),
        ledgers.path().join(format!("{session}.jsonl")),
    )
    .expect("ledger");
    let payload = serde_json::json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": "/offline/project",
        "hook_event_name": "SessionStart",
        "source": "resume",
    });
    let mut args = vec![
        "hook".to_owned(),
        "claude-code".to_owned(),
        "SessionStart".to_owned(),
        "--ledger-dir".to_owned(),
        ledgers.path().display().to_string(),
    ];
    if let Some(version) = written_for {
        args.extend(["--claude-version".to_owned(), version.to_owned()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    Test::new()
        .args(&args)
        .stdin(payload.to_string())
        .status(0)
        .run()
        .stdout
}

#[test]
fn a_resumed_session_gets_the_commitments_the_client_did_not_keep() {
    // 2.0.76 kept the context given after the compaction only in memory.
    let old = resumed("claude-code-2.0.76", Some("2.0.76"));
    assert!(
        old.contains("word for word from ctxguard's ledger"),
        "{old}"
    );
    assert!(old.contains("Do not drop columns."), "{old}");
    // 2.1.332 keeps it in the transcript: nothing to add.
    assert_eq!(resumed("claude-code-2.1.332", Some("2.1.332")), "");
}

#[test]
fn a_version_that_changes_what_the_guard_can_do_is_named() {
    let said = resumed("claude-code-2.1.332", Some("2.0.76"));
    let output: Value = serde_json::from_str(&said).expect("JSON");
    let message = output["systemMessage"].as_str().expect("a message");
    assert!(
        message.contains("written for Claude Code 2.0.76, and 2.1.332 is running"),
        "{message}"
    );
    assert!(message.contains("Run `ctxguard init claude-code` again"));
}
