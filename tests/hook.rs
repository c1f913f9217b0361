//! `ctxguard hook claude-code EVENT`, `ctxguard ledger` and `ctxguard init`
//! through the binary, with payloads in the shapes Claude Code documents
//! (`tests/fixtures/hooks/claude-code/`), and whole sessions replayed
//! through the hooks: this repository's fixture, and the real Claude Code
//! sessions of the shared corpus when it is present.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{shared_corpus, Output, Test};
use serde_json::{json, Value};

const FIXTURES: &str = "tests/fixtures/hooks/claude-code";

/// A session's hooks, run against a ledger folder of their own.
struct Session {
    dir: tempfile::TempDir,
    transcript: PathBuf,
    policy: Option<PathBuf>,
}

impl Session {
    fn new() -> Session {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let transcript = dir.path().join("transcript.jsonl");
        Session {
            dir,
            transcript,
            policy: None,
        }
    }

    fn ledger_dir(&self) -> PathBuf {
        self.dir.path().join("ledger")
    }

    fn with_policy(mut self, text: &str) -> Session {
        let path = self.dir.path().join("team.policy");
        std::fs::write(&path, text).expect("policy written");
        self.policy = Some(path);
        self
    }

    fn with_transcript(self, fixture: &str) -> Session {
        std::fs::copy(Path::new(FIXTURES).join(fixture), &self.transcript).expect("copied");
        self
    }

    /// Runs `event` with `payload` (its `TRANSCRIPT` replaced by the transcript's path).
    fn hook(&self, event: &str, payload: &str, extra: &[&str]) -> Output {
        self.hook_as("claude-code", event, payload, extra)
    }

    /// [`Session::hook`] for `runtime` (`codex`).
    fn hook_as(&self, runtime: &str, event: &str, payload: &str, extra: &[&str]) -> Output {
        let payload = payload.replace("TRANSCRIPT", &self.transcript.display().to_string());
        let dir = self.ledger_dir().display().to_string();
        let mut args = vec!["hook", runtime, event, "--ledger-dir", &dir];
        let policy = self.policy.as_ref().map(|p| p.display().to_string());
        if let Some(policy) = &policy {
            args.extend(["--policy", policy]);
        }
        args.extend(extra);
        Test::new().args(&args).stdin(payload).any_status().run()
    }

    fn fixture(&self, name: &str) -> Output {
        let payload = std::fs::read_to_string(Path::new(FIXTURES).join(format!("{name}.json")))
            .expect("fixture");
        let event = name.split('-').next().expect("an event");
        self.hook(event, &payload, &[])
    }

    fn ledger(&self, args: &[&str]) -> Output {
        let dir = self.ledger_dir().display().to_string();
        // Before the subcommand: `pin`'s text takes the rest of the line.
        let mut all = vec!["ledger", "--ledger-dir", &dir];
        all.extend(args);
        Test::new().args(&all).any_status().run()
    }

    /// The commitments, as `ledger list --all --format json` gives them.
    fn commitments(&self) -> Vec<Value> {
        let output = self.ledger(&["list", "--all", "--format", "json"]);
        if output.status != 0 {
            return Vec::new();
        }
        let list: Value = serde_json::from_str(&output.stdout).expect("JSON");
        list["commitments"].as_array().cloned().unwrap_or_default()
    }

    /// How many checks of a summary the ledger of `id` holds.
    fn checks(&self, id: &str) -> usize {
        std::fs::read_to_string(self.ledger_dir().join(format!("{id}.jsonl")))
            .expect("ledger")
            .lines()
            .filter(|l| l.contains(r#""event":"verified""#))
            .count()
    }

    fn texts(&self, derived: &str) -> Vec<String> {
        self.commitments()
            .iter()
            .filter(|c| c["derived"] == derived)
            .map(|c| c["text"].as_str().unwrap_or("").to_owned())
            .collect()
    }
}

/// What the hook tells the user (`systemMessage`).
fn system_message(output: &Output) -> String {
    let reply: Value = serde_json::from_str(&output.stdout).expect("JSON");
    reply["systemMessage"].as_str().unwrap_or("").to_owned()
}

#[test]
fn every_documented_payload_is_handled_and_never_fails_the_session() {
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    let mut names: Vec<String> = std::fs::read_dir(FIXTURES)
        .expect("fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".json").map(str::to_owned))
        .collect();
    names.sort();
    // In the order a session meets them.
    let order = [
        "UserPromptSubmit",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SessionStart",
    ];
    names.sort_by_key(|n| order.iter().position(|o| n.starts_with(o)));
    let mut seen = Vec::new();
    for name in &names {
        let output = session.fixture(name);
        // Only PostCompact reports a loss with exit 2 (its stderr reaches the user).
        let expected = if name == "PostCompact" { 2 } else { 0 };
        assert_eq!(output.status, expected, "{name}: {}", output.stderr);
        if name.starts_with("PreCompact") {
            // Plain text, which Claude Code appends to the compaction's
            // instructions: the commitments recorded so far.
            assert!(
                output
                    .stdout
                    .starts_with("ctxguard: the user set or confirmed")
                    && output
                        .stdout
                        .contains("- We need a migration for the users table.\n"),
                "{name}: {}",
                output.stdout
            );
        } else if !output.stdout.trim().is_empty() {
            serde_json::from_str::<Value>(&output.stdout)
                .unwrap_or_else(|e| panic!("{name}: stdout is not JSON ({e}): {}", output.stdout));
        }
        seen.push(name.split('-').next().unwrap_or("").to_owned());
    }
    for event in order {
        assert!(seen.iter().any(|s| s == event), "no fixture for {event}");
    }
}

#[test]
fn a_prompt_records_pins_hints_and_sentences_once() {
    let session = Session::new();
    for _ in 0..2 {
        assert_eq!(session.fixture("UserPromptSubmit").status, 0);
    }
    let commitments = session.commitments();
    let summary: Vec<(String, String, String)> = commitments
        .iter()
        .map(|c| {
            (
                c["derived"].as_str().unwrap_or("").to_owned(),
                c["kind"].as_str().unwrap_or("").to_owned(),
                c["text"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    let expect = |d: &str, k: &str, t: &str| (d.to_owned(), k.to_owned(), t.to_owned());
    assert_eq!(
        summary,
        [
            expect(
                "sentence",
                "unclassified",
                "We need a migration for the users table."
            ),
            expect("pin", "constraint", "Do not drop columns."),
            expect(
                "hint",
                "ordering",
                "Run the tests before applying the patch."
            ),
            // `identifier` is declared before `value`: its hint matches first.
            expect(
                "hint",
                "identifier",
                "The API lives at https://api.internal.example/v2"
            ),
        ],
        "a prompt typed twice is recorded once"
    );
    assert_eq!(commitments[1]["key"], "no-drop");
    assert_eq!(
        commitments[1]["source"]["prompt_id"],
        "0b7c2a4e-61f0-4d4b-9a57-2f5d3c1e8a90"
    );
    let hash = commitments[1]["hash"].as_str().unwrap_or("");
    assert!(hash.starts_with("sha256:") && hash.len() == 7 + 64);
}

#[test]
fn slash_commands_and_other_tools_record_nothing() {
    let session = Session::new();
    session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"/compact keep the API notes"}"#,
        &[],
    );
    session.fixture("PostToolUse-Bash");
    assert!(session.commitments().is_empty());
}

#[test]
fn echo_restates_new_pins_to_the_model_and_a_wrong_kind_to_the_user() {
    let session = Session::new();
    let output = session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin constraint: Never push to main.\npin constrant x: Keep the logs."}"#,
        &["--echo"],
    );
    assert_eq!(output.status, 0);
    let reply: Value = serde_json::from_str(&output.stdout).expect("JSON");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("");
    assert!(
        context.contains("- constraint: Never push to main."),
        "{context}"
    );
    let message = reply["systemMessage"].as_str().unwrap_or("");
    assert!(
        message.contains("`pin constrant` (did you mean `constraint`?)"),
        "{message}"
    );
    // Without --echo, the model is told nothing.
    let quiet = session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin value port: 5432"}"#,
        &[],
    );
    assert_eq!(quiet.stdout, "");
}

#[test]
fn choices_are_confirmed_commitments_in_every_shape() {
    let session = Session::new();
    for name in [
        "PostToolUse-AskUserQuestion",
        "PostToolUse-AskUserQuestion-text",
        "PostToolUse-ExitPlanMode",
    ] {
        assert_eq!(session.fixture(name).status, 0);
    }
    assert_eq!(
        session.texts("answer"),
        [
            "Which primary key type? → uuid (Recommended)",
            "Deploy when? → Monday",
            "1. Add the nullable column.\n2. Backfill in batches of 1000.\n3. Run the tests before applying the patch.",
        ]
    );
    // A plan approved later replaces the earlier one.
    let payload =
        std::fs::read_to_string(Path::new(FIXTURES).join("PostToolUse-ExitPlanMode.json"))
            .expect("fixture")
            .replace("batches of 1000", "batches of 500");
    session.hook("PostToolUse", &payload, &[]);
    let plans: Vec<Value> = session
        .commitments()
        .into_iter()
        .filter(|c| c["key"] == "approved-plan")
        .collect();
    assert_eq!(plans.len(), 1);
    assert!(plans[0]["text"]
        .as_str()
        .unwrap_or("")
        .contains("batches of 500"));
}

/// A policy whose commitments get 20 tokens.
const TIGHT: &str = "extends default\nbudget window 40\nbudget commitments 50%\ntokenizer approx\n";

#[test]
fn pre_compact_blocks_what_cannot_fit_and_says_whether_the_block_holds() {
    let long = "pin constraint audit: Every migration must keep an audit row for each change it makes, with the old and the new value, forever.";
    let payload = format!(r#"{{"session_id":"5e55-0001","prompt":"{long}"}}"#);
    let mut shown = String::new();
    for (transcript, label) in [
        (Some("transcript-2.1.226.jsonl"), "2.1.226 (blocks)"),
        (Some("transcript-2.0.76.jsonl"), "2.0.76 (cannot block)"),
        (None, "version unknown"),
    ] {
        let mut session = Session::new().with_policy(TIGHT);
        if let Some(transcript) = transcript {
            session = session.with_transcript(transcript);
        }
        session.hook("UserPromptSubmit", &payload, &[]);
        let output = session.fixture("PreCompact-manual");
        assert_eq!(output.status, 2, "{label}");
        assert_eq!(
            output.stdout, "",
            "{label}: a refused compaction is asked nothing"
        );
        shown.push_str(&format!("--- {label} ---\n{}", output.stderr));
        // The snapshot is in the ledger, marked blocked.
        let ledger =
            std::fs::read_to_string(session.ledger_dir().join("5e55-0001.jsonl")).expect("ledger");
        let snapshot: Value = ledger
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|r| r["event"] == "compacted")
            .expect("a snapshot");
        assert_eq!(snapshot["blocked"], true);
    }
    insta::assert_snapshot!("pre_compact_blocked", shown);
    // The transcript not written yet (Claude Code writes it a moment
    // behind): the version the hooks were written for says whether the
    // block holds.
    let session = Session::new().with_policy(TIGHT);
    session.hook("UserPromptSubmit", &payload, &[]);
    let payload = std::fs::read_to_string(Path::new(FIXTURES).join("PreCompact-manual.json"))
        .expect("fixture");
    let output = session.hook("PreCompact", &payload, &["--claude-version", "2.0.76"]);
    assert_eq!(output.status, 2);
    assert!(
        output
            .stderr
            .contains("ctxguard cannot stop this compaction (Claude Code 2.0.76 compacts anyway"),
        "{}",
        output.stderr
    );
    // What fits is not blocked.
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    session.fixture("UserPromptSubmit");
    let output = session.fixture("PreCompact-auto");
    assert_eq!(output.status, 0, "{}", output.stderr);
}

#[test]
fn pre_compact_asks_the_compactor_to_keep_every_active_commitment_word_for_word() {
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"5e55-0001","prompt":"pin constraint no-drop: Do not drop columns.\npin identifier parser: src/legacy/parser_v2.py"}"#,
        &[],
    );
    let output = session.fixture("PreCompact-manual");
    assert_eq!(output.status, 0, "{}", output.stderr);
    // Plain text (Claude Code appends standard output to the compaction's
    // instructions), each commitment on a line of its own, as typed.
    for line in [
        "- [no-drop] Do not drop columns.\n",
        "- [parser] src/legacy/parser_v2.py\n",
        "- Keep the parser at src/legacy/parser_v2.py for now.\n",
    ] {
        assert!(output.stdout.contains(line), "{line}: {}", output.stdout);
    }
    insta::assert_snapshot!("pre_compact_instructions", output.stdout);
}

#[test]
fn pre_compact_catches_up_with_the_transcript() {
    // Installed mid-session: the prompt typed before is in the transcript only.
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    let commitments = session.commitments();
    assert_eq!(commitments.len(), 1);
    assert_eq!(
        commitments[0]["text"],
        "Keep the parser at src/legacy/parser_v2.py for now."
    );
    assert_eq!(commitments[0]["kind"], "identifier");
    assert_eq!(commitments[0]["source"]["line"], 1);
}

#[test]
fn the_catch_up_judges_only_what_the_prompt_hook_did_not_hear() {
    // Heard as typed under the default policy: an identifier.
    let mut session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    let parser = "Keep the parser at src/legacy/parser_v2.py for now.";
    let prompt = format!(
        r#"{{"session_id":"5e55-0001","transcript_path":"TRANSCRIPT","prompt":"{parser}"}}"#
    );
    assert_eq!(session.hook("UserPromptSubmit", &prompt, &[]).status, 0);
    // A prompt typed while no hook ran is in the transcript only.
    let linter = "Always run the linter before a commit.";
    let mut transcript = std::fs::read_to_string(&session.transcript).expect("transcript");
    transcript.push_str(&json!({"parentUuid": "a-1", "type": "user", "sessionId": "5e55-0001", "version": "2.1.226", "message": {"role": "user", "content": linter}, "uuid": "u-2", "timestamp": "2026-08-18T18:01:00.000Z"}).to_string());
    transcript.push('\n');
    std::fs::write(&session.transcript, transcript).expect("written");
    // The compaction's hook runs under a policy that would read the heard
    // prompt as a constraint: judged again, it would be recorded twice.
    session = session.with_policy("kind constraint {\n  hint /\\b(keep|always)\\b/i\n}\n");
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    let recorded: Vec<(String, String)> = session
        .commitments()
        .iter()
        .map(|c| {
            let field = |f: &str| c[f].as_str().unwrap_or("").to_owned();
            (field("text"), field("kind"))
        })
        .collect();
    assert_eq!(
        recorded,
        [
            (parser.to_owned(), "identifier".to_owned()),
            (linter.to_owned(), "constraint".to_owned())
        ]
    );
    // Without the marks, the compaction's hook judges every prompt again.
    std::fs::remove_file(session.ledger_dir().join("5e55-0001.heard")).expect("the marks");
    std::fs::write(session.ledger_dir().join("5e55-0001.jsonl"), "").expect("emptied");
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    assert_eq!(session.commitments().len(), 2);
    assert!(session
        .commitments()
        .iter()
        .all(|c| c["kind"] == "constraint"));
}

#[test]
fn a_discharge_or_unpin_outlasts_the_catch_up_and_saying_it_again_holds_again() {
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    let parser = "Keep the parser at src/legacy/parser_v2.py for now.";
    // Recorded as typed, then discharged: the blocked compaction's advice.
    session.hook(
        "UserPromptSubmit",
        &format!(
            r#"{{"session_id":"5e55-0001","transcript_path":"TRANSCRIPT","prompt":"{parser}"}}"#
        ),
        &[],
    );
    let pinned = r#"{"session_id":"5e55-0001","transcript_path":"TRANSCRIPT","prompt":"pin constraint no-drop: Do not drop columns."}"#;
    session.hook("UserPromptSubmit", pinned, &[]);
    let id = session
        .commitments()
        .iter()
        .find(|c| c["text"] == parser)
        .and_then(|c| c["id"].as_str().map(str::to_owned))
        .expect("recorded");
    // The transcript also carries the pin, typed before it was unpinned.
    let mut transcript = std::fs::read_to_string(&session.transcript).expect("transcript");
    transcript.push_str(
        r#"{"parentUuid":"a-1","type":"user","sessionId":"5e55-0001","version":"2.1.226","message":{"role":"user","content":"pin constraint no-drop: Do not drop columns."},"uuid":"u-2","timestamp":"2026-08-18T18:01:00.000Z"}"#,
    );
    transcript.push('\n');
    std::fs::write(&session.transcript, transcript).expect("written");
    assert_eq!(session.ledger(&["discharge", &id]).status, 0);
    assert_eq!(session.ledger(&["unpin", "no-drop"]).status, 0);
    let records = || {
        session
            .ledger(&["list", "--all", "--format", "json"])
            .stdout
    };
    let before = records();
    // The catch-up reads both again from the transcript and records neither.
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    assert_eq!(
        records(),
        before,
        "the catch-up undid a discharge or an unpin"
    );
    let start = session.fixture("SessionStart-compact");
    assert!(!start.stdout.contains(parser), "{}", start.stdout);
    assert!(
        !start.stdout.contains("Do not drop columns."),
        "{}",
        start.stdout
    );
    let post = session.hook(
        "PostCompact",
        r#"{"session_id":"5e55-0001","compact_summary":"We talked about the parser."}"#,
        &[],
    );
    assert_eq!((post.status, post.stderr.as_str()), (0, ""));
    // Said again, it holds again.
    session.hook("UserPromptSubmit", pinned, &[]);
    let active: Vec<Value> = session
        .commitments()
        .into_iter()
        .filter(|c| c["status"] == "active")
        .collect();
    assert_eq!(active.len(), 1, "{active:?}");
    assert_eq!(active[0]["key"], "no-drop");
}

#[test]
fn a_paste_is_material_not_forty_thousand_commitments() {
    // 40,000 lines of prose that reads like requests, with two pins in it.
    let verbs = ["Keep", "Use", "Never drop", "Always run", "Move"];
    let mut prompt = String::from("pin constraint no-drop: Do not drop columns.\n");
    for i in 0..40_000 {
        prompt.push_str(&format!(
            "{} the table t{i} before the migration step {i}.\n",
            verbs[i % verbs.len()]
        ));
        if i == 20_000 {
            prompt.push_str("pin identifier parser: src/legacy/parser_v2.py\n");
        }
    }
    let session = Session::new();
    let payload = json!({"session_id": "s1", "prompt": prompt}).to_string();
    let output = session.hook("UserPromptSubmit", &payload, &[]);
    assert_eq!(output.status, 0, "{}", output.stderr);
    let said = system_message(&output);
    assert!(
        said.contains("40000 statements") && said.contains("pin what must hold"),
        "{said}"
    );
    let mut recorded: Vec<String> = session
        .commitments()
        .iter()
        .map(|c| c["text"].as_str().unwrap_or("").to_owned())
        .collect();
    recorded.sort();
    assert_eq!(
        recorded,
        ["Do not drop columns.", "src/legacy/parser_v2.py"]
    );
    // So a compaction is not refused for what no one asked to keep.
    let output = session.hook("PreCompact", r#"{"session_id":"s1","trigger":"auto"}"#, &[]);
    assert_eq!(output.status, 0, "{}", output.stderr);
    // A message of a few dozen requests is still read request by request.
    let session = Session::new();
    let prompt: String = (0..MATERIAL)
        .map(|i| format!("Keep the table t{i} before the migration.\n\n"))
        .collect();
    let payload = json!({"session_id": "s2", "prompt": prompt}).to_string();
    assert_eq!(session.hook("UserPromptSubmit", &payload, &[]).status, 0);
    assert_eq!(session.commitments().len(), MATERIAL);
}

/// The most statements one message binds without pins.
const MATERIAL: usize = 64;

#[test]
fn a_transcript_pinning_a_key_twice_catches_up_with_its_last_text() {
    let session = Session::new().with_transcript("transcript-2.1.226.jsonl");
    let mut transcript = std::fs::read_to_string(&session.transcript).expect("transcript");
    for (n, text) in ["Keep every column.", "Keep every column and index."]
        .iter()
        .enumerate()
    {
        transcript.push_str(&format!(
            r#"{{"type":"user","sessionId":"5e55-0001","version":"2.1.226","message":{{"role":"user","content":"pin constraint columns: {text}"}},"uuid":"p-{n}","timestamp":"2026-08-18T18:0{n}:30.000Z"}}"#
        ));
        transcript.push('\n');
    }
    std::fs::write(&session.transcript, transcript).expect("written");
    // The later pin reached the ledger through the prompt hook; the earlier
    // one was typed before the hooks were installed.
    session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"5e55-0001","prompt":"pin constraint columns: Keep every column and index."}"#,
        &[],
    );
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    let pins: Vec<Value> = session
        .commitments()
        .into_iter()
        .filter(|c| c["key"] == "columns")
        .collect();
    assert_eq!(pins.len(), 1);
    assert_eq!(pins[0]["text"], "Keep every column and index.");
}

#[test]
fn post_compact_names_what_the_summary_lost_altered_and_invented() {
    let session = Session::new();
    session.fixture("UserPromptSubmit");
    session.fixture("PostToolUse-AskUserQuestion");
    let output = session.fixture("PostCompact");
    assert_eq!(output.status, 2);
    insta::assert_snapshot!("post_compact_block", output.stderr);
    let ledger =
        std::fs::read_to_string(session.ledger_dir().join("5e55-0001.jsonl")).expect("ledger");
    let check: Value = ledger
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|r| r["event"] == "verified")
        .expect("a check");
    assert_eq!(check["invented"].as_array().map(Vec::len), Some(1));
    assert!(
        !ledger.contains("tabs over spaces"),
        "the summary's text is the model's: only its hash is stored"
    );
    // A summary that keeps everything says nothing.
    let quiet = Session::new();
    quiet.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin constraint: Never push to main."}"#,
        &[],
    );
    let output = quiet.hook(
        "PostCompact",
        r#"{"session_id":"s1","compact_summary":"Rules: Never push to main."}"#,
        &[],
    );
    assert_eq!((output.status, output.stderr.as_str()), (0, ""));
}

#[test]
fn session_start_after_compaction_reinjects_word_for_word() {
    let session = Session::new();
    session.fixture("UserPromptSubmit");
    session.fixture("PostToolUse-AskUserQuestion");
    let output = session.fixture("SessionStart-compact");
    assert_eq!(output.status, 0);
    let reply: Value = serde_json::from_str(&output.stdout).expect("JSON");
    assert_eq!(reply["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("");
    for c in session.commitments() {
        assert!(context.contains(c["text"].as_str().unwrap_or("?")), "{c}");
    }
    insta::assert_snapshot!("session_start_context", context);
    // Discharged commitments are not re-injected; other sources get nothing.
    let out = session.ledger(&["discharge", "no-drop"]);
    assert_eq!(out.status, 0, "{}", out.stderr);
    let output = session.fixture("SessionStart-compact");
    assert!(!output.stdout.contains("Do not drop columns."));
    assert_eq!(session.fixture("SessionStart-startup").stdout, "");
}

#[test]
fn the_output_cap_never_cuts_a_commitment() {
    let session = Session::new();
    let ledger = ctxguard::ledger::Ledger::new(
        &session.ledger_dir(),
        "s1",
        ctxguard::ledger::DEFAULT_MAX_BYTES,
    );
    let mut entries = Vec::new();
    for n in 0..300 {
        let kind = ctxguard::RegionKind::Unclassified;
        let text = format!("Sentence {n:03}: keep the \"legacy\" importer reachable from the CLI.");
        entries.push(ctxguard::ledger::Entry::Derived(
            ctxguard::ledger::Commitment::new(
                &kind,
                None,
                text,
                ctxguard::Derived::Sentence,
                ctxguard::ledger::Source::default(),
            ),
        ));
    }
    for n in 0..5 {
        let kind = ctxguard::RegionKind::Commitment("constraint".into());
        entries.push(ctxguard::ledger::Entry::Pinned(
            ctxguard::ledger::Commitment::new(
                &kind,
                Some(format!("rule-{n}")),
                format!("Rule {n} holds."),
                ctxguard::Derived::Pin,
                ctxguard::ledger::Source::default(),
            ),
        ));
    }
    ledger.append(entries).expect("appended");
    let output = session.hook(
        "SessionStart",
        r#"{"session_id":"s1","source":"compact"}"#,
        &[],
    );
    assert_eq!(output.status, 0);
    let stdout = output.stdout.trim_end();
    assert!(
        stdout.chars().count() <= ctxguard::hook::OUTPUT_CAP,
        "{} characters",
        stdout.chars().count()
    );
    let reply: Value = serde_json::from_str(stdout).expect("JSON");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("");
    for n in 0..5 {
        assert!(
            context.contains(&format!("- [rule-{n}] Rule {n} holds.\n")),
            "pins first"
        );
    }
    // Every sentence is there whole, or not at all; the rest are counted.
    let whole = (0..300)
        .filter(|n| {
            context.contains(&format!(
                "- Sentence {n:03}: keep the \"legacy\" importer reachable from the CLI.\n"
            ))
        })
        .count();
    let partial = (0..300)
        .filter(|n| context.contains(&format!("Sentence {n:03}:")))
        .count();
    assert_eq!(whole, partial);
    let more = 300 - whole;
    assert!(more > 0 && whole > 50, "{whole} whole");
    assert!(
        context.contains(&format!("{more} more commitments did not fit")),
        "{context}"
    );
    assert!(context.contains("ctxguard ledger list --session s1"));
    let warning = reply["systemMessage"].as_str().unwrap_or("");
    assert!(
        warning.contains(&format!("{more} did not fit")),
        "{warning}"
    );
    assert!(output.stderr.contains("did not fit"));
}

#[test]
fn what_goes_wrong_inside_a_hook_is_said_and_only_a_compaction_is_refused() {
    let session = Session::new();
    let cases = [
        ("PreCompact", "compact, please", "is not JSON"),
        ("PreCompact", "[1, 2]", "not an object"),
        ("PreCompact", "", "is empty"),
        (
            "UserPromptSubmit",
            r#"{"prompt":"hi"}"#,
            "names no `session_id`",
        ),
        (
            "PreCompact",
            r#"{"session_id":"s1","hook_event_name":"PostCompact"}"#,
            "is for PostCompact",
        ),
    ];
    for (event, payload, says) in cases {
        let output = session.hook(event, payload, &[]);
        // A guard that cannot decide refuses the compaction; a prompt is
        // never blocked.
        let expected = if event == "PreCompact" { 2 } else { 0 };
        assert_eq!(output.status, expected, "{payload}");
        assert!(
            output.stderr.contains("ctxguard::hook-input"),
            "{payload}: {}",
            output.stderr
        );
        assert!(output.stderr.contains(says), "{payload}: {}", output.stderr);
    }
    // A ledger folder that cannot be made: said on stderr and to the user, exit 0.
    let blocked = session.dir.path().join("file");
    std::fs::write(&blocked, "").expect("written");
    let dir = blocked.join("ledger").display().to_string();
    let output = Test::new()
        .args(&[
            "hook",
            "claude-code",
            "UserPromptSubmit",
            "--ledger-dir",
            &dir,
        ])
        .stdin(r#"{"session_id":"s1","prompt":"pin constraint: Never push to main."}"#)
        .any_status()
        .run();
    assert_eq!(output.status, 0);
    assert!(
        output.stderr.contains("could not use its ledger"),
        "{}",
        output.stderr
    );
    assert!(system_message(&output).contains("could not use its ledger"));
    // The same at PreCompact refuses the compaction and says why.
    let output = Test::new()
        .args(&["hook", "claude-code", "PreCompact", "--ledger-dir", &dir])
        .stdin(r#"{"session_id":"s1","trigger":"manual"}"#)
        .any_status()
        .run();
    assert_eq!(output.status, 2);
    assert!(
        output.stderr.contains("ctxguard refused this compaction"),
        "{}",
        output.stderr
    );
    // Arguments the hook does not know: a prompt goes through, a
    // compaction is refused.
    for (event, status) in [
        ("UserPromptSubmit", 0),
        ("SessionStart", 0),
        ("PreCompact", 2),
    ] {
        let output = Test::new()
            .args(&["hook", "claude-code", event, "--no-such-flag"])
            .stdin(r#"{"session_id":"s1"}"#)
            .any_status()
            .run();
        assert_eq!(output.status, status, "{event}: {}", output.stderr);
        assert!(
            output.stderr.contains("could not start"),
            "{}",
            output.stderr
        );
    }
}

#[test]
fn a_full_ledger_refuses_the_append_and_tells_the_user() {
    let session = Session::new();
    session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin constraint: Never push to main."}"#,
        &[],
    );
    let output = session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin constraint: Never force-push."}"#,
        &["--max-ledger-bytes", "400"],
    );
    assert_eq!(output.status, 0);
    assert!(
        output.stderr.contains("ctxguard::ledger-full"),
        "{}",
        output.stderr
    );
    assert!(system_message(&output).contains("were not recorded"));
    assert_eq!(session.texts("pin"), ["Never push to main."]);
    // At the cap, PostCompact still says what the summary lost (exit 2,
    // shown to the user) and that its check was not recorded.
    let output = session.hook(
        "PostCompact",
        r#"{"session_id":"s1","compact_summary":"The user is migrating the orders table."}"#,
        &["--max-ledger-bytes", "400"],
    );
    assert_eq!(output.status, 2, "{}", output.stderr);
    assert!(output.stderr.contains("lost 1"), "{}", output.stderr);
    assert!(
        output.stderr.contains("Never push to main."),
        "{}",
        output.stderr
    );
    assert!(
        output.stderr.contains("ctxguard::ledger-full"),
        "{}",
        output.stderr
    );
    // And PreCompact refuses: it cannot record the commitments it guards.
    let output = session.hook(
        "PreCompact",
        r#"{"session_id":"s1","trigger":"auto"}"#,
        &["--max-ledger-bytes", "240"],
    );
    assert_eq!(output.status, 2, "{}", output.stderr);
    assert!(
        output.stderr.contains("refused this compaction"),
        "{}",
        output.stderr
    );
}

#[test]
fn concurrent_hooks_lose_nothing() {
    let session = Session::new();
    let dir = session.ledger_dir();
    let binary = env!("CARGO_BIN_EXE_ctxguard");
    let writers = 12;
    let each = 20;
    std::thread::scope(|scope| {
        for w in 0..writers {
            let dir = &dir;
            scope.spawn(move || {
                for n in 0..each {
                    let payload = json!({"session_id": "s1", "prompt": format!("pin value w{w}-{n}: writer {w} prompt {n}")});
                    let mut child = Command::new(binary)
                        .args(["hook", "claude-code", "UserPromptSubmit", "--ledger-dir"])
                        .arg(dir)
                        .stdin(Stdio::piped())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .spawn()
                        .expect("spawned");
                    use std::io::Write;
                    let mut stdin = child.stdin.take().expect("stdin");
                    stdin.write_all(payload.to_string().as_bytes()).expect("written");
                    drop(stdin);
                    assert!(child.wait().expect("waited").success());
                }
            });
        }
    });
    let text = std::fs::read_to_string(dir.join("s1.jsonl")).expect("ledger");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), writers * each);
    for line in lines {
        serde_json::from_str::<Value>(line).expect("every line a whole record");
    }
    assert_eq!(session.texts("pin").len(), writers * each);
}

#[test]
fn a_torn_last_line_is_reported_and_skipped() {
    let session = Session::new();
    session.hook(
        "UserPromptSubmit",
        r#"{"session_id":"s1","prompt":"pin constraint: Never push to main."}"#,
        &[],
    );
    let path = session.ledger_dir().join("s1.jsonl");
    let mut text = std::fs::read_to_string(&path).expect("ledger");
    text.push_str(r#"{"at":"2026-11-30T10:01:00.000Z","event":"pinned","id":"c0"#);
    std::fs::write(&path, text).expect("torn");
    let output = session.ledger(&["list", "--session", "s1"]);
    assert_eq!(output.status, 0);
    assert!(output.stdout.contains("Never push to main."));
    assert!(output.stderr.contains("ctxguard::ledger-record"));
    assert!(output.stderr.contains("line 2"), "{}", output.stderr);
}

#[test]
fn a_person_lists_shows_pins_discharges_unpins_and_exports() {
    let session = Session::new();
    session.fixture("UserPromptSubmit");
    let pinned = session.ledger(&[
        "pin",
        "--session",
        "5e55-0001",
        "--key",
        "api",
        "value",
        "https://api.internal.example/v3",
    ]);
    assert_eq!(pinned.status, 0, "{}", pinned.stderr);
    let wrong = session.ledger(&["pin", "constrant", "Keep", "logs."]);
    assert_eq!(wrong.status, 2);
    assert!(
        wrong.stderr.contains("did you mean `constraint`?"),
        "{}",
        wrong.stderr
    );
    let shown = session.ledger(&["show", "api"]);
    assert!(
        shown.stdout.contains("https://api.internal.example/v3"),
        "{}",
        shown.stdout
    );
    assert!(shown.stdout.contains("pinned"));
    assert_eq!(session.ledger(&["unpin", "api"]).status, 0);
    let again = session.ledger(&["unpin", "api"]);
    assert_eq!(again.status, 2);
    assert!(again.stderr.contains("already unpinned"));
    let list = session.ledger(&["list"]);
    insta::assert_snapshot!(
        "ledger_list",
        list.stdout
            .replace(&session.ledger_dir().display().to_string(), "LEDGER")
    );
    let export = session.ledger(&["export"]);
    let trace: Value = serde_json::from_str(&export.stdout).expect("a trace");
    assert_eq!(trace["version"], 1);
    let regions = trace["regions"].as_array().expect("regions");
    assert_eq!(regions.len(), 4);
    // The export is a trace `verify` reads: keeping every region is compact.
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(dir.path().join("trace.json"), &export.stdout).expect("written");
    let keeps: Vec<Value> = regions.iter().map(|r| json!({"keep": r["id"]})).collect();
    std::fs::write(
        dir.path().join("plan.json"),
        json!({"version": 1, "regions": keeps}).to_string(),
    )
    .expect("written");
    Test::new()
        .args(&["verify", "--trace", "trace.json", "--plan", "plan.json"])
        .current_dir(dir.path())
        .status(0)
        .run();
    let missing = session.ledger(&["list", "--session", "nope"]);
    assert_eq!(missing.status, 2);
    assert!(
        missing.stderr.contains("recent sessions: 5e55-0001"),
        "{}",
        missing.stderr
    );
}

// `ctxguard init claude-code`

const SETTINGS: &str = r#"{
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PreCompact": [
      { "matcher": "auto", "hooks": [{ "type": "command", "command": "./save-notes.sh", "timeout": 5 }] }
    ]
  }
}
"#;

#[test]
fn init_merges_keeps_the_rest_is_idempotent_and_removes_cleanly() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
    let path = dir.path().join(".claude/settings.json");
    std::fs::write(&path, SETTINGS).expect("written");
    let init = |args: &[&str]| {
        let mut all = vec!["init", "claude-code", "--claude-version", "2.1.332"];
        all.extend(args);
        Test::new()
            .args(&all)
            .current_dir(dir.path())
            .any_status()
            .run()
    };
    let dry = init(&["--dry-run"]);
    assert_eq!(dry.status, 0);
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        SETTINGS,
        "a dry run writes nothing"
    );
    insta::assert_snapshot!("init_dry_run", dry.stdout);
    let first = init(&[]);
    assert!(
        first.stdout.contains("installed the ctxguard hooks in"),
        "{}",
        first.stdout
    );
    let installed = std::fs::read_to_string(&path).expect("read");
    assert!(installed.starts_with("{\n  \"permissions\": { \"allow\": [\"Bash(npm test)\"] },"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(".claude/settings.json.ctxguard.bak"))
            .expect("backup"),
        SETTINGS
    );
    let second = init(&[]);
    assert!(second.stdout.contains("already installed; nothing changed"));
    assert_eq!(std::fs::read_to_string(&path).expect("read"), installed);
    // What it wrote is what Claude Code reads: every hook a command, timeouts in seconds.
    let value: Value =
        serde_json::from_str(&installed).expect("strict JSON, as Claude Code reads it");
    for event in [
        "UserPromptSubmit",
        "PostToolUse",
        "PreCompact",
        "PostCompact",
        "SessionStart",
    ] {
        let groups = value["hooks"][event].as_array().expect(event);
        let ours = groups
            .iter()
            .filter_map(|g| g["hooks"].as_array())
            .flatten()
            .filter(|h| {
                h["command"]
                    .as_str()
                    .unwrap_or("")
                    .contains("hook claude-code")
            })
            .count();
        assert_eq!(ours, 1, "{event}");
        for group in groups {
            for handler in group["hooks"].as_array().expect("handlers") {
                assert_eq!(handler["type"], "command");
                assert!(
                    handler["timeout"].as_u64().expect("timeout") < 1000,
                    "seconds"
                );
            }
        }
    }
    assert_eq!(
        value["hooks"]["SessionStart"][0]["matcher"],
        "compact|resume"
    );
    let removed = init(&["--remove"]);
    assert_eq!(removed.status, 0);
    let after: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
    let before: Value = serde_json::from_str(SETTINGS).expect("JSON");
    assert_eq!(after, before, "--remove takes out exactly what init put in");
}

#[test]
fn init_writes_what_the_claude_code_version_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let init = |args: &[&str]| {
        let mut all = vec!["init", "claude-code"];
        all.extend(args);
        Test::new()
            .args(&all)
            .current_dir(dir.path())
            .any_status()
            .run()
    };
    let events = || -> Vec<String> {
        let text = std::fs::read_to_string(dir.path().join(".claude/settings.json")).expect("read");
        let value: Value = serde_json::from_str(&text).expect("JSON");
        value["hooks"]
            .as_object()
            .expect("hooks")
            .keys()
            .cloned()
            .collect()
    };
    // 2.0.76 runs no hook of a file that names PostCompact.
    let old = init(&["--claude-version", "2.0.76"]);
    assert_eq!(old.status, 0, "{}", old.stderr);
    assert!(!events().contains(&"PostCompact".to_owned()));
    // Where no PostCompact hook checks summaries, SessionStart and the
    // next prompt do.
    let commands =
        || std::fs::read_to_string(dir.path().join(".claude/settings.json")).expect("read");
    assert_eq!(commands().matches(" --check-summary").count(), 2);
    insta::assert_snapshot!(
        "init_for_2_0_76",
        old.stdout.replace(&dir.path().display().to_string(), "DIR")
    );
    let new = init(&["--claude-version", "2.1.332"]);
    assert!(
        events().contains(&"PostCompact".to_owned()),
        "{}",
        new.stdout
    );
    assert!(!commands().contains("--check-summary"));
    // Not known: what every version runs.
    let unknown = init(&[]);
    assert!(!events().contains(&"PostCompact".to_owned()));
    assert!(
        unknown.stdout.contains("the version is not known"),
        "{}",
        unknown.stdout
    );
    let too_old = init(&["--claude-version", "1.0.40"]);
    assert_eq!(too_old.status, 2);
    assert!(
        too_old.stderr.contains("older than the guard can run on"),
        "{}",
        too_old.stderr
    );
    let bad = init(&["--claude-version", "latest"]);
    assert_eq!(bad.status, 2);
    assert!(bad.stderr.contains("is not a version"), "{}", bad.stderr);
}

/// `init` says when git would commit what the hooks record of the user's
/// typing (`.ctxguard/ledger` not ignored in a git work tree), and stops
/// saying it once `.gitignore` covers it; outside git it says nothing.
#[test]
fn init_says_to_ignore_the_ledgers_where_git_would_commit_them() {
    let dir = tempfile::tempdir().expect("dir");
    let init = || {
        Test::new()
            .args(&["init", "claude-code", "--claude-version", "2.1.332"])
            .current_dir(dir.path())
            .run()
    };
    let advice = "add `.ctxguard/` to `.gitignore`";
    assert!(!init().stdout.contains(advice), "not a git work tree");
    std::fs::create_dir(dir.path().join(".git")).expect("dir");
    let said = init().stdout;
    assert!(said.contains(advice), "{said}");
    assert!(said.contains(".ctxguard/ledger"), "{said}");
    std::fs::write(dir.path().join(".gitignore"), "target/\n.ctxguard/\n").expect("written");
    let said = init().stdout;
    assert!(!said.contains(advice), "{said}");
    std::fs::write(dir.path().join(".gitignore"), "/.ctxguard/ledger/\n").expect("written");
    assert!(!init().stdout.contains(advice));
}

#[test]
fn init_refuses_settings_claude_code_would_not_load() {
    // A comment; a raw control character inside a string (found by fuzzing
    // the settings editor: JSON.parse refuses it, a lenient reader does not).
    for (text, line) in [
        (
            "{\n  // Shared with the team.\n  \"permissions\": {}\n}\n",
            ":2:",
        ),
        (
            "{\n  \"permissions\": {},\n  \"model\": \"son\u{14}net\"\n}\n",
            ":3:",
        ),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
        let path = dir.path().join(".claude/settings.json");
        std::fs::write(&path, text).expect("written");
        let output = Test::new()
            .args(&["init", "claude-code"])
            .current_dir(dir.path())
            .any_status()
            .run();
        assert_eq!(output.status, 2);
        assert!(
            output.stderr.contains("Claude Code does not load"),
            "{}",
            output.stderr
        );
        assert!(output.stderr.contains(line), "{line}: {}", output.stderr);
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            text,
            "nothing written"
        );
    }
}

#[test]
fn init_refuses_settings_it_cannot_read_with_the_place() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
    std::fs::write(
        dir.path().join(".claude/settings.local.json"),
        "{\n  \"hooks\": {\n    \"PreCompact\": [1,, ]\n  }\n}\n",
    )
    .expect("written");
    let output = Test::new()
        .args(&["init", "claude-code", "--local"])
        .current_dir(dir.path())
        .any_status()
        .run();
    assert_eq!(output.status, 2);
    assert!(
        output.stderr.contains("ctxguard::invalid-input"),
        "{}",
        output.stderr
    );
    assert!(output.stderr.contains(":3:"), "line 3: {}", output.stderr);
}

// Whole sessions through the hooks.

/// Drives a Claude Code session's first compaction through the hooks as
/// Claude Code would: each user prompt (UserPromptSubmit), each answer
/// (PostToolUse), PreCompact with the transcript as it stood (up to the
/// boundary), PostCompact with the real summary, SessionStart(`compact`).
/// Returns the session, the PostCompact output and the re-injected context.
fn replay(path: &Path) -> (Session, Output, String) {
    let session = Session::new();
    let text = std::fs::read_to_string(path).expect("session");
    let lines: Vec<&str> = text.lines().collect();
    let boundary = lines
        .iter()
        .position(|l| l.contains("\"compact_boundary\""))
        .expect("a compaction");
    std::fs::write(&session.transcript, lines[..boundary].join("\n") + "\n").expect("transcript");
    let boundary_record: Value = serde_json::from_str(lines[boundary]).expect("JSON");
    let trigger = boundary_record["compactMetadata"]["trigger"]
        .as_str()
        .unwrap_or("manual");
    let file = ctxguard::SourceFile::new(path.display().to_string(), text.as_str());
    let imported =
        ctxguard::import::import(&file, Some(ctxguard::Runtime::ClaudeCode)).expect("a session");
    let event = &imported.events[0];
    let id = "replayed";
    for message in &event.trace {
        match message.origin {
            ctxguard::import::Origin::User => {
                let out = session.hook(
                    "UserPromptSubmit",
                    &json!({"session_id": id, "transcript_path": "TRANSCRIPT", "prompt": message.text}).to_string(),
                    &[],
                );
                assert_eq!(out.status, 0, "{}", out.stderr);
            }
            ctxguard::import::Origin::Answer => {
                let (question, answer) = message.text.split_once(" → ").expect("an answer");
                let out = session.hook(
                    "PostToolUse",
                    &json!({"session_id": id, "tool_name": "AskUserQuestion", "tool_response": {"answers": {question: answer}}}).to_string(),
                    &[],
                );
                assert_eq!(out.status, 0, "{}", out.stderr);
            }
            _ => {}
        }
    }
    let pre = session.hook(
        "PreCompact",
        &json!({"session_id": id, "transcript_path": "TRANSCRIPT", "trigger": trigger, "custom_instructions": null}).to_string(),
        &[],
    );
    assert_eq!(pre.status, 0, "{}", pre.stderr);
    let summary = event.summary.as_ref().expect("a summary").text.clone();
    let post = session.hook(
        "PostCompact",
        &json!({"session_id": id, "trigger": trigger, "compact_summary": summary}).to_string(),
        &[],
    );
    let start = session.hook(
        "SessionStart",
        &json!({"session_id": id, "source": "compact"}).to_string(),
        &[],
    );
    assert_eq!(start.status, 0);
    let reply: Value = serde_json::from_str(&start.stdout).expect("JSON");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(start.stdout.trim_end().chars().count() <= ctxguard::hook::OUTPUT_CAP);
    (session, post, context)
}

/// The replay's verdicts equal `ctxguard audit`'s on the same compaction:
/// every commitment the audit finds lost or altered, the hook names.
fn assert_replay_agrees_with_audit(path: &Path) -> (Output, String) {
    let (session, post, context) = replay(path);
    // Everything pinned or confirmed comes back byte for byte.
    for derived in ["pin", "answer"] {
        for text in session.texts(derived) {
            assert!(
                context.contains(&text),
                "{derived} missing from the re-injection: {text}"
            );
        }
    }
    let path_text = path.display().to_string();
    let audit = Test::new()
        .args(&["audit", "--format", "json", &path_text])
        .any_status()
        .run();
    let report: Value = serde_json::from_str(&audit.stdout).expect("audit JSON");
    let by_outcome = |outcome: &str| -> std::collections::BTreeSet<String> {
        report["events"][0]["commitments"]
            .as_array()
            .expect("commitments")
            .iter()
            .filter(|c| c["outcome"] == outcome)
            .map(|c| c["text"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    let ledger =
        std::fs::read_to_string(session.ledger_dir().join("replayed.jsonl")).expect("ledger");
    let check: Value = ledger
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|r| r["event"] == "verified")
        .expect("a check");
    let commitments = session.commitments();
    let texts = |ids: &Value| -> std::collections::BTreeSet<String> {
        ids.as_array()
            .into_iter()
            .flatten()
            .filter_map(|id| commitments.iter().find(|c| &c["id"] == id))
            .map(|c| c["text"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    assert_eq!(texts(&check["lost"]), by_outcome("lost"), "lost");
    assert_eq!(texts(&check["altered"]), by_outcome("altered"), "altered");
    let lost = by_outcome("lost").len();
    if lost > 0 {
        assert_eq!(post.status, 2);
        assert!(
            post.stderr.contains(&format!("lost {lost} and altered")),
            "{}",
            post.stderr
        );
    }
    (post, context)
}

#[test]
fn a_session_replayed_through_the_hooks() {
    let (post, context) =
        assert_replay_agrees_with_audit(Path::new("tests/fixtures/sessions/claude-code.jsonl"));
    assert!(context.contains("Do not drop columns."));
    insta::assert_snapshot!("replay_fixture_post_compact", post.stderr);
}

#[test]
fn the_real_claude_code_sessions_replayed_through_the_hooks() {
    for (name, file) in [
        (
            "real/mclaude-cosmic-applet-compact",
            "c7d2069e-c561-4759-8adf-b0745be78c29.lines1-787.jsonl",
        ),
        (
            "real/mclaude-router-ssh-compact",
            "97b0ffde-ece9-4977-91cb-5c8cdeabdf3f.jsonl",
        ),
    ] {
        let Some(dir) = shared_corpus(name, "the real Claude Code session") else {
            continue;
        };
        let (post, context) = assert_replay_agrees_with_audit(&dir.join(file));
        eprintln!(
            "--- {name}: PostCompact (exit {}) ---\n{}--- SessionStart ---\n{context}",
            post.status, post.stderr
        );
    }
}

#[test]
fn what_does_not_bind_is_never_given_back_as_a_commitment() {
    let session = Session::new();
    let prompt = json!({
        "session_id": "5e55-0001",
        "transcript_path": "TRANSCRIPT",
        "cwd": "/work/app",
        "hook_event_name": "UserPromptSubmit",
        "prompt": "ok\nwhere we at?\nUse pnpm, never npm, in this repository.\nthanks!"
    });
    assert_eq!(
        session
            .hook("UserPromptSubmit", &prompt.to_string(), &[])
            .status,
        0
    );
    let texts: Vec<String> = session
        .commitments()
        .iter()
        .map(|c| c["text"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(texts, ["Use pnpm, never npm, in this repository."]);
    let output = session.fixture("SessionStart-compact");
    let reply: Value = serde_json::from_str(&output.stdout).expect("JSON");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("");
    assert!(context.contains("Use pnpm, never npm, in this repository."));
    for spent in ["where we at?", "thanks!", "\n- ok\n"] {
        assert!(!context.contains(spent), "{spent:?} re-injected: {context}");
    }
}

/// Where no PostCompact hook checks the summary (the plugin; Claude Code
/// before 2.1.76), SessionStart checks it, or, when the client writes it
/// to the transcript after SessionStart runs (2.0.76 does), the next
/// prompt does: once, and never judging what was said after it.
#[test]
fn without_post_compact_the_summary_is_checked_once_after_the_compaction() {
    let real = std::fs::read_to_string("tests/fixtures/runtimes/claude-code-2.0.76/guard.jsonl")
        .expect("the real 2.0.76 transcript");
    let lines: Vec<&str> = real.lines().collect();
    let session = Session::new();
    let up_to = |n: usize| {
        std::fs::write(&session.transcript, lines[..n].join("\n") + "\n").expect("written");
    };
    let check = ["--check-summary"];
    let prompt = |text: &str| {
        json!({"session_id": "5e55-0001", "transcript_path": "TRANSCRIPT", "hook_event_name": "UserPromptSubmit", "prompt": text}).to_string()
    };
    // The first prompt, and the compaction: line 11 is its boundary, 12 its summary.
    up_to(2);
    let first = lines[1];
    let typed: Value = serde_json::from_str(first).expect("JSON");
    let typed = typed["message"]["content"]
        .as_str()
        .expect("the first prompt");
    assert_eq!(
        session
            .hook("UserPromptSubmit", &prompt(typed), &check)
            .status,
        0
    );
    up_to(10);
    assert_eq!(session.fixture("PreCompact-manual").status, 0);
    let payload = std::fs::read_to_string(Path::new(FIXTURES).join("SessionStart-compact.json"))
        .expect("fixture");
    let checks = || session.checks("5e55-0001");
    // SessionStart before the summary reached the transcript: nothing to
    // check yet, the commitments given back all the same.
    let start = session.hook("SessionStart", &payload, &check);
    assert_eq!(start.status, 0, "{}", start.stderr);
    let reply: Value = serde_json::from_str(&start.stdout).expect("JSON");
    assert!(reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .is_some_and(|c| c.contains("Do not drop columns.")));
    assert!(reply.get("systemMessage").is_none(), "{reply}");
    assert_eq!(checks(), 0);
    // The next prompt: the summary is there; checked, and the user told.
    up_to(17);
    let next = session.hook(
        "UserPromptSubmit",
        &prompt("Add an index on orders.created_at."),
        &check,
    );
    assert_eq!(next.status, 0, "{}", next.stderr);
    let told = system_message(&next);
    assert!(
        told.starts_with("ctxguard: the compaction summary lost 2 and altered 1 of 5 commitments")
            && told.contains("lost     [constraint] Do not drop columns.")
            && told.contains("lost     [decision] Which database should the tests use? → SQLite")
            && told.contains("altered  [identifier] src/legacy/parser_v2.py"),
        "{told}"
    );
    assert!(!told.contains("Add an index"), "{told}");
    assert_eq!(checks(), 1);
    // Once.
    let again = session.hook(
        "UserPromptSubmit",
        &prompt("Now write the migration test."),
        &check,
    );
    assert_eq!(again.stdout, "");
    assert_eq!(checks(), 1);
    // Without the flag (a PostCompact hook checks), the prompt checks nothing.
    let session = Session::new();
    std::fs::write(&session.transcript, lines[..17].join("\n") + "\n").expect("written");
    session.hook("UserPromptSubmit", &prompt(typed), &[]);
    session.fixture("PreCompact-manual");
    std::fs::write(&session.transcript, real.clone()).expect("written");
    let quiet = session.hook("UserPromptSubmit", &prompt("Run the tests."), &[]);
    assert_eq!(quiet.stdout, "");
}

/// PreCompact brings the ledger level with the transcript: a later
/// compaction of the same transcript reads only what was written after the
/// lines the one before read (those are in the ledger already), so each
/// compaction costs what was said since; another transcript is read whole.
#[test]
fn a_later_compaction_catches_up_only_what_came_after_the_last() {
    let record = |n: usize, text: &str| {
        let parent = if n == 1 {
            Value::Null
        } else {
            json!(format!("a{}", n - 1))
        };
        format!(
            "{}\n{}\n",
            json!({"parentUuid": parent, "isSidechain": false, "sessionId": "5e55-0001", "version": "2.1.226", "type": "user", "uuid": format!("u{n}"), "message": {"role": "user", "content": text}}),
            json!({"parentUuid": format!("u{n}"), "isSidechain": false, "sessionId": "5e55-0001", "version": "2.1.226", "type": "assistant", "uuid": format!("a{n}"), "message": {"id": format!("m{n}"), "role": "assistant", "content": [{"type": "text", "text": "Done."}]}}),
        )
    };
    let session = Session::new();
    let texts = || -> Vec<String> {
        session
            .commitments()
            .iter()
            .map(|c| c["text"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    std::fs::write(
        &session.transcript,
        record(1, "Never use tabs in the Makefile."),
    )
    .expect("written");
    assert_eq!(session.fixture("PreCompact-auto").status, 0);
    assert_eq!(texts(), ["Never use tabs in the Makefile."]);
    // The first line rewritten (what was read is not read again), and a
    // new prompt after it.
    let text = record(1, "Never use spaces in the Makefile.")
        + &record(2, "Always run the linter before a commit.");
    std::fs::write(&session.transcript, text).expect("written");
    assert_eq!(session.fixture("PreCompact-auto").status, 0);
    assert_eq!(
        texts(),
        [
            "Never use tabs in the Makefile.",
            "Always run the linter before a commit."
        ]
    );
    // Another transcript (a resumed session's file) is read whole.
    let other = session.dir.path().join("other.jsonl");
    std::fs::copy(&session.transcript, &other).expect("copied");
    let payload = json!({"session_id": "5e55-0001", "transcript_path": other, "hook_event_name": "PreCompact", "trigger": "auto"}).to_string();
    assert_eq!(session.hook("PreCompact", &payload, &[]).status, 0);
    assert!(texts().contains(&"Never use spaces in the Makefile.".to_owned()));
}

/// A reactive or partial compaction of Claude Code 2.1.x keeps a segment of
/// the conversation word for word after the summary, and writes that
/// segment's boundary only after its PostCompact hook has run: PostCompact
/// judges the summary alone, and the next prompt judges it again with the
/// segment, once, and tells the user what it keeps after all.
#[test]
fn the_next_prompt_corrects_what_a_preserved_segment_kept() {
    let session_file =
        std::fs::read_to_string("tests/fixtures/sessions/claude-code.jsonl").expect("fixture");
    let lines: Vec<&str> = session_file.lines().collect();
    let summary: Value = serde_json::from_str(lines[22]).expect("the summary record");
    let summary = summary["message"]["content"].as_str().expect("its text");
    let run = |preserved: bool| {
        let session = Session::new();
        let up_to = |n: usize| {
            let mut text = lines[..n].join("\n") + "\n";
            if !preserved {
                text = text.replace(r#","preservedSegment":{"headUuid":"u-0017","anchorUuid":"c-0020","tailUuid":"a-0018"}"#, "");
            }
            std::fs::write(&session.transcript, text).expect("written");
        };
        let prompt = |text: &str| {
            json!({"session_id": "5e55-0001", "transcript_path": "TRANSCRIPT", "hook_event_name": "UserPromptSubmit", "prompt": text}).to_string()
        };
        // What the user typed, each prompt as it was submitted.
        for line in [3, 11, 18, 20] {
            let record: Value = serde_json::from_str(lines[line - 1]).expect("a prompt");
            let typed = match &record["message"]["content"] {
                Value::String(text) => text.clone(),
                parts => parts[0]["text"].as_str().expect("its text").to_owned(),
            };
            up_to(line);
            let submitted = session.hook("UserPromptSubmit", &prompt(&typed), &[]);
            assert_eq!(submitted.status, 0);
        }
        up_to(21);
        assert_eq!(session.fixture("PreCompact-auto").status, 0);
        // The boundary is not written yet: the summary alone loses the rule.
        let post = json!({"session_id": "5e55-0001", "transcript_path": "TRANSCRIPT", "hook_event_name": "PostCompact", "trigger": "auto", "compact_summary": summary}).to_string();
        let checked = session.hook("PostCompact", &post, &[]);
        assert!(
            checked
                .stderr
                .contains("lost     [constraint] Never push to main.")
                && checked
                    .stderr
                    .contains("altered  [value] https://api.example.com/v2"),
            "{}",
            checked.stderr
        );
        up_to(23);
        let checks = || session.checks("5e55-0001");
        let next = session.hook("UserPromptSubmit", &prompt("Run the tests."), &[]);
        assert_eq!(next.status, 0, "{}", next.stderr);
        assert_eq!(checks(), 2, "judged again once the boundary is written");
        let again = session.hook("UserPromptSubmit", &prompt("Open the pull request."), &[]);
        assert_eq!(again.stdout, "", "once");
        assert_eq!(checks(), 2);
        next.stdout
    };
    let told: Value = serde_json::from_str(&run(true)).expect("JSON");
    assert_eq!(
        told["systemMessage"],
        "ctxguard: of the 6 commitments the last compaction summary was reported to lose or alter, Claude Code kept 1 word for word in the messages it preserved after the summary; 5 still lost or altered: ctxguard ledger list --session 5e55-0001\n  kept     [constraint] Never push to main."
    );
    // A compaction that preserved nothing: judged again, nothing to say.
    assert_eq!(run(false), "");
}

/// Codex's hooks, with the payloads and the rollout the real Codex 0.171
/// gave and wrote (`tests/runtimes`): PostCompact carries no summary, so it
/// is read from the rollout; a message for the user is a JSON
/// `systemMessage` with exit 0 (Codex marks an exit 2 failed); PreCompact
/// cannot refuse.
#[test]
fn codex_hooks_record_check_the_rollout_and_give_back() {
    let real = std::fs::read_to_string("tests/fixtures/runtimes/codex-0.171.0/guard.jsonl")
        .expect("the real Codex rollout");
    let lines: Vec<&str> = real.lines().collect();
    let compacted = lines
        .iter()
        .position(|l| l.contains(r#""type":"compacted""#))
        .expect("a compaction");
    let codex = |session: &Session, name: &str, payload_prompt: Option<&str>, extra: &[&str]| {
        let mut payload =
            std::fs::read_to_string(format!("tests/fixtures/hooks/codex/{name}.json"))
                .expect("fixture");
        if let Some(prompt) = payload_prompt {
            payload = payload.replace("\"PROMPT\"", &serde_json::to_string(prompt).expect("JSON"));
        }
        let event = name.split('-').next().expect("an event");
        session.hook_as("codex", event, &payload, extra)
    };
    let session = Session::new();
    let write = |n: usize| {
        std::fs::write(&session.transcript, lines[..n].join("\n") + "\n").expect("written")
    };
    let first = "pin constraint no-drop: Do not drop columns.\npin identifier legacy-parser: src/legacy/parser_v2.py\n\nMigrate the orders table to the new schema. Use the staging database only for read queries.";
    write(compacted);
    let prompt = codex(&session, "UserPromptSubmit", Some(first), &[]);
    assert_eq!(
        (prompt.status, prompt.stdout.as_str()),
        (0, ""),
        "{}",
        prompt.stderr
    );
    let pre = codex(&session, "PreCompact", None, &[]);
    assert_eq!(
        (pre.status, pre.stdout.as_str()),
        (0, ""),
        "Codex takes nothing from a PreCompact that goes ahead"
    );
    // PostCompact before the rollout holds the summary: nothing to check.
    let early = codex(&session, "PostCompact", None, &[]);
    assert_eq!((early.status, early.stdout.as_str()), (0, ""));
    write(lines.len());
    let post = codex(&session, "PostCompact", None, &[]);
    assert_eq!(post.status, 0, "{}", post.stderr);
    let told = system_message(&post);
    assert!(
        told.starts_with("ctxguard: the compaction summary lost 1 and altered 1 of 4 commitments")
            && told.contains("lost     [constraint] Do not drop columns.")
            && told.contains("altered  [identifier] src/legacy/parser_v2.py"),
        "{told}"
    );
    let start = codex(&session, "SessionStart-compact", None, &[]);
    let reply: Value = serde_json::from_str(&start.stdout).expect("JSON");
    assert_eq!(reply["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or("");
    for kept in [
        "Do not drop columns.",
        "src/legacy/parser_v2.py",
        "The summary lost 1 and altered 1 of them.",
    ] {
        assert!(context.contains(kept), "{kept}: {context}");
    }
    // Codex keeps that context in the rollout: a resume gives nothing again.
    let resume = codex(&session, "SessionStart-resume", None, &[]);
    assert_eq!(resume.stdout, "");
    // Commitments that cannot fit: Codex compacts anyway, and says so.
    let tight = Session::new().with_policy(TIGHT);
    std::fs::write(&tight.transcript, lines[..compacted].join("\n") + "\n").expect("written");
    let long = "pin constraint audit: Every migration must keep an audit row for each change it makes, with the old and the new value, forever.";
    codex(&tight, "UserPromptSubmit", Some(long), &[]);
    let refused = codex(&tight, "PreCompact", None, &[]);
    assert_eq!(refused.status, 0, "{}", refused.stderr);
    assert!(
        system_message(&refused).starts_with(
            "ctxguard cannot stop this compaction (Codex compacts whatever its hooks say)"
        ),
        "{}",
        refused.stdout
    );
}

#[test]
fn init_codex_writes_hooks_json_beside_others_and_takes_them_out() {
    let dir = tempfile::tempdir().expect("dir");
    let codex_dir = dir.path().join(".codex");
    std::fs::create_dir_all(&codex_dir).expect("made");
    let others = "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./notify.sh\"}]}]\n  }\n}\n";
    std::fs::write(codex_dir.join("hooks.json"), others).expect("written");
    let init = |args: &[&str]| {
        let mut all = vec!["init", "codex"];
        all.extend(args);
        Test::new()
            .args(&all)
            .current_dir(dir.path())
            .any_status()
            .run()
    };
    let installed = init(&[]);
    assert_eq!(installed.status, 0, "{}", installed.stderr);
    assert!(
        installed.stdout.contains("which says hooks need review"),
        "{}",
        installed.stdout
    );
    let text = std::fs::read_to_string(codex_dir.join("hooks.json")).expect("read");
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(
        value["hooks"]["Stop"][0]["hooks"][0]["command"],
        "./notify.sh"
    );
    for event in [
        "UserPromptSubmit",
        "PreCompact",
        "PostCompact",
        "SessionStart",
    ] {
        assert_eq!(
            value["hooks"][event][0]["hooks"][0]["command"],
            format!("ctxguard hook codex {event}"),
            "{text}"
        );
    }
    assert_eq!(value["hooks"]["SessionStart"][0]["matcher"], "compact");
    assert!(value["hooks"].get("PostToolUse").is_none());
    // The compaction prompt: Codex's own, then the policy's rules, named
    // in config.toml.
    let prompt =
        std::fs::read_to_string(codex_dir.join("ctxguard-compact-prompt.md")).expect("read");
    assert!(prompt.starts_with(ctxguard::init::CODEX_DEFAULT_PROMPT));
    assert!(
        prompt.contains("- constraint: A rule the user asserted"),
        "{prompt}"
    );
    let config = std::fs::read_to_string(codex_dir.join("config.toml")).expect("read");
    assert_eq!(
        config,
        "experimental_compact_prompt_file = \"ctxguard-compact-prompt.md\"\n"
    );
    assert!(init(&[])
        .stdout
        .contains("already installed; nothing changed"));
    let removed = init(&["--remove"]);
    assert_eq!(removed.status, 0, "{}", removed.stderr);
    assert_eq!(
        std::fs::read_to_string(codex_dir.join("hooks.json")).expect("read"),
        others
    );
    assert!(!codex_dir.join("ctxguard-compact-prompt.md").exists());
    assert_eq!(
        std::fs::read_to_string(codex_dir.join("config.toml")).expect("read"),
        ""
    );
    assert_eq!(init(&["--local"]).status, 2);
    // A prompt of the user's own is left as it is, and said.
    let own = "# mine\ncompact_prompt = \"Keep every constraint word for word.\"\n";
    std::fs::write(codex_dir.join("config.toml"), own).expect("written");
    let left = init(&[]);
    assert!(
        left.stdout
            .contains("sets `compact_prompt`, a compaction prompt of its own"),
        "{}",
        left.stdout
    );
    assert_eq!(
        std::fs::read_to_string(codex_dir.join("config.toml")).expect("read"),
        own
    );
    assert!(!codex_dir.join("ctxguard-compact-prompt.md").exists());
}

/// pi's hooks, as the extension `init pi` installs calls them, with the
/// session file the real pi 0.73 wrote (`tests/runtimes`): the summary
/// comes in the payload, a refusal cancels the compaction, and a new
/// process on a compacted session gives the commitments back once.
#[test]
fn pi_hooks_check_the_summary_cancel_and_give_back_once() {
    let real = std::fs::read_to_string("tests/fixtures/runtimes/pi-0.73.1/guard.jsonl")
        .expect("the real pi session");
    let lines: Vec<&str> = real.lines().collect();
    let at = |kind: &str| {
        lines
            .iter()
            .position(|l| l.contains(&format!(r#""type":"{kind}""#)))
            .expect(kind)
    };
    let compaction = at("compaction");
    let summary: Value = serde_json::from_str(lines[compaction]).expect("JSON");
    let summary = summary["summary"].as_str().expect("a summary").to_owned();
    let session = Session::new();
    let write = |n: usize| {
        std::fs::write(&session.transcript, lines[..n].join("\n") + "\n").expect("written")
    };
    let pi = |session: &Session, event: &str, extra: Value| {
        let mut payload = json!({"session_id": "5e55-0001", "transcript_path": "TRANSCRIPT", "cwd": "/repo", "hook_event_name": event});
        for (key, value) in extra.as_object().expect("an object") {
            payload[key] = value.clone();
        }
        session.hook_as("pi", event, &payload.to_string(), &[])
    };
    let first = "pin constraint no-drop: Do not drop columns.\npin identifier legacy-parser: src/legacy/parser_v2.py\n\nMigrate the orders table to the new schema. Use the staging database only for read queries.";
    write(compaction);
    assert_eq!(
        pi(&session, "UserPromptSubmit", json!({"prompt": first})).status,
        0
    );
    let pre = pi(&session, "PreCompact", json!({"trigger": "auto"}));
    assert_eq!((pre.status, pre.stdout.as_str()), (0, ""), "{}", pre.stderr);
    write(compaction + 1);
    let post = pi(
        &session,
        "PostCompact",
        json!({"trigger": "auto", "compact_summary": summary}),
    );
    assert_eq!(post.status, 2);
    assert!(
        post.stderr
            .contains("lost     [constraint] Do not drop columns."),
        "{}",
        post.stderr
    );
    let given = |output: &Output| -> String {
        if output.stdout.is_empty() {
            return String::new();
        }
        let reply: Value = serde_json::from_str(&output.stdout).expect("JSON");
        reply["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    let back = given(&pi(&session, "SessionStart", json!({"source": "compact"})));
    assert!(
        back.contains("Do not drop columns.") && back.contains("The summary lost 1"),
        "{back}"
    );
    // A new process on the compacted session: given back until the
    // session holds ctxguard's message, then not again.
    assert!(
        given(&pi(&session, "SessionStart", json!({"source": "resume"})))
            .contains("Do not drop columns.")
    );
    write(lines.len());
    assert_eq!(
        given(&pi(&session, "SessionStart", json!({"source": "resume"}))),
        ""
    );
    // The same compaction had pi kept the first prompt unsummarized (its
    // first kept entry that prompt): what pi carried over is kept, not lost.
    let first_prompt = lines
        .iter()
        .find_map(|l| {
            let entry: Value = serde_json::from_str(l).ok()?;
            (entry["message"]["role"] == "user").then(|| entry["id"].as_str().map(str::to_owned))?
        })
        .expect("the first prompt");
    let mut entry: Value = serde_json::from_str(lines[compaction]).expect("JSON");
    entry["firstKeptEntryId"] = json!(first_prompt);
    let kept = Session::new();
    std::fs::write(&kept.transcript, lines[..compaction].join("\n") + "\n").expect("written");
    pi(&kept, "UserPromptSubmit", json!({"prompt": first}));
    pi(&kept, "PreCompact", json!({"trigger": "auto"}));
    let mut moved: Vec<String> = lines[..compaction]
        .iter()
        .map(|l| (*l).to_owned())
        .collect();
    moved.push(entry.to_string());
    std::fs::write(&kept.transcript, moved.join("\n") + "\n").expect("written");
    let checked = pi(
        &kept,
        "PostCompact",
        json!({"trigger": "auto", "compact_summary": summary}),
    );
    assert_eq!(checked.status, 0, "nothing lost: {}", checked.stderr);
    // Commitments that cannot fit: the extension cancels the compaction.
    let tight = Session::new().with_policy(TIGHT);
    std::fs::write(&tight.transcript, lines[..compaction].join("\n") + "\n").expect("written");
    pi(
        &tight,
        "UserPromptSubmit",
        json!({"prompt": "pin constraint audit: Every migration must keep an audit row for each change it makes, with the old and the new value, forever."}),
    );
    let refused = pi(&tight, "PreCompact", json!({"trigger": "auto"}));
    assert_eq!(refused.status, 2);
    assert!(
        refused
            .stderr
            .starts_with("ctxguard cancelled this compaction"),
        "{}",
        refused.stderr
    );
}

#[test]
fn init_pi_writes_the_extension_and_takes_out_only_its_own() {
    let dir = tempfile::tempdir().expect("dir");
    let init = |args: &[&str]| {
        let mut all = vec!["init", "pi"];
        all.extend(args);
        Test::new()
            .args(&all)
            .current_dir(dir.path())
            .any_status()
            .run()
    };
    let path = dir.path().join(".pi/extensions/ctxguard.ts");
    let made = init(&["--command", "/opt/ctxguard", "--policy", "team.policy"]);
    assert_eq!(made.status, 0, "{}", made.stderr);
    let text = std::fs::read_to_string(&path).expect("the extension");
    assert!(
        text.contains(r#"const COMMAND = "/opt/ctxguard";"#),
        "{text}"
    );
    assert!(text.contains(r#"const ARGS: string[] = ["--policy", "team.policy"];"#));
    assert!(text.contains(r#"pi.on("session_before_compact""#));
    assert!(
        init(&["--command", "/opt/ctxguard", "--policy", "team.policy"])
            .stdout
            .contains("nothing changed")
    );
    // Changed since: not taken out.
    std::fs::write(&path, text.replace("cancel: true", "cancel: false")).expect("edited");
    let refused = init(&["--remove"]);
    assert_eq!(refused.status, 2);
    assert!(
        refused.stderr.contains("ctxguard will not remove it"),
        "{}",
        refused.stderr
    );
    assert!(path.exists());
    std::fs::write(&path, &text).expect("put back");
    assert_eq!(init(&["--remove"]).status, 0);
    assert!(!path.exists());
    // `--user`: pi's agent folder.
    let agent = dir.path().join("agent");
    let user = Test::new()
        .args(&["init", "pi", "--user"])
        .env("PI_CODING_AGENT_DIR", agent.to_str().expect("UTF-8"))
        .current_dir(dir.path())
        .any_status()
        .run();
    assert_eq!(user.status, 0, "{}", user.stderr);
    assert!(agent.join("extensions/ctxguard.ts").is_file());
}

/// Gemini CLI's hooks, with the payloads the real 0.61 client sent
/// (`tests/fixtures/hooks/gemini-cli/`): the prompt recorded at
/// BeforeAgent; a request without a summary passes untouched; the first
/// request that carries a compaction's summary has it checked (the user
/// told what it lost) and the commitments added after it; the next
/// request with the same summary gets them again, without a second check.
#[test]
fn gemini_cli_checks_a_summary_once_and_gives_commitments_back_in_each_request() {
    let session = Session::new();
    let fixture = |name: &str| {
        std::fs::read_to_string(Path::new("tests/fixtures/hooks/gemini-cli").join(name))
            .expect("fixture")
    };
    let agent = session.hook_as(
        "gemini-cli",
        "BeforeAgent",
        &fixture("before-agent.json"),
        &[],
    );
    assert_eq!(agent.status, 0, "{}", agent.stderr);
    assert!(session
        .texts("pin")
        .contains(&"Do not drop columns.".to_owned()));
    let plain = session.hook_as(
        "gemini-cli",
        "BeforeModel",
        &fixture("before-model.json"),
        &[],
    );
    assert_eq!(
        (plain.status, plain.stdout.as_str()),
        (0, ""),
        "{}",
        plain.stderr
    );

    let after = fixture("before-model-after-compaction.json");
    let first = session.hook_as("gemini-cli", "BeforeModel", &after, &[]);
    assert_eq!(
        first.status, 0,
        "a Gemini CLI hook never exits 2: {}",
        first.stderr
    );
    let reply: Value = serde_json::from_str(&first.stdout).expect("JSON");
    assert_eq!(reply["hookSpecificOutput"]["hookEventName"], "BeforeModel");
    let messages = reply["hookSpecificOutput"]["llm_request"]["messages"]
        .as_array()
        .expect("the request's first messages");
    assert_eq!(
        messages.len(),
        1,
        "only up to the summary's message: {messages:?}"
    );
    let given = messages[0]["content"].as_str().unwrap_or("");
    let summary =
        "<state_snapshot>The user works on the parser. Constraint: keep columns.</state_snapshot>";
    let at = given.find(summary).expect("the summary stays");
    assert_eq!(
        given[at + summary.len()..]
            .matches("Do not drop columns.")
            .count(),
        1,
        "{given}"
    );
    assert!(system_message(&first).contains("lost     [constraint] Do not drop columns."));

    let again = session.hook_as("gemini-cli", "BeforeModel", &after, &[]);
    assert_eq!(again.status, 0);
    assert_eq!(system_message(&again), "", "checked once");
    assert!(again.stdout.contains("Do not drop columns."));
    let list = session.ledger(&["list", "--all", "--format", "json"]);
    assert!(list.status == 0, "{}", list.stderr);

    // An event Gemini CLI does not have, or another runtime's name for it,
    // is a usage error, not a hook that silently does nothing.
    let wrong = session.hook_as("gemini-cli", "PreCompact", &after, &[]);
    assert_ne!(wrong.status, 0);
    assert!(
        wrong.stderr.contains("BeforeAgent, BeforeModel"),
        "{}",
        wrong.stderr
    );
}

/// OpenClaw's plugin calls, with the messages the real 2026.9.6 gave its
/// `before_prompt_build` after a compaction (`tests/fixtures/hooks/openclaw/`):
/// the summary is checked once, and each call while it stands gives the
/// commitments back as context for the plugin to put before the prompt.
#[test]
fn openclaw_checks_a_summary_once_and_gives_commitments_back_before_each_prompt() {
    let session = Session::new();
    let fixture = |name: &str| {
        std::fs::read_to_string(Path::new("tests/fixtures/hooks/openclaw").join(name))
            .expect("fixture")
    };
    let prompt = session.hook_as(
        "openclaw",
        "UserPromptSubmit",
        &fixture("user-prompt-submit.json"),
        &[],
    );
    assert_eq!(prompt.status, 0, "{}", prompt.stderr);
    let after = fixture("before-model-after-compaction.json");
    let first = session.hook_as("openclaw", "BeforeModel", &after, &[]);
    assert_eq!(first.status, 0, "{}", first.stderr);
    let reply: Value = serde_json::from_str(&first.stdout).expect("JSON");
    let context = reply["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default();
    assert_eq!(
        context.matches("Never log request bodies.").count(),
        1,
        "{context}"
    );
    assert!(
        system_message(&first).contains("lost     [constraint] Never log request bodies."),
        "{}",
        first.stdout
    );
    // The path the summary's kept turns quote word for word is kept.
    assert!(
        !system_message(&first).contains("parser_v2"),
        "{}",
        first.stdout
    );
    let again = session.hook_as("openclaw", "BeforeModel", &after, &[]);
    assert_eq!(system_message(&again), "", "checked once");
    assert!(again.stdout.contains("Never log request bodies."));
}

/// `init openclaw` writes the plugin and enables it in `openclaw.json`
/// (comments kept), changes nothing when run again, and `--remove` gives
/// the configuration back as it was and takes the plugin's files out.
#[test]
fn init_openclaw_installs_the_plugin_and_removes_it_exactly() {
    let dir = tempfile::tempdir().expect("dir");
    let state = dir.path().join(".openclaw");
    std::fs::create_dir_all(&state).expect("dir");
    let config = state.join("openclaw.json");
    let original = "{\n  // the gateway\n  gateway: { port: 18789 },\n}\n";
    std::fs::write(&config, original).expect("written");
    let init = |extra: &[&str]| {
        let mut args = vec!["init", "openclaw", "--command", "/opt/bin/ctxguard"];
        args.extend(extra);
        Test::new()
            .args(&args)
            .env("OPENCLAW_STATE_DIR", state.to_str().expect("utf-8"))
            .current_dir(dir.path())
            .status(0)
            .run()
    };
    init(&[]);
    let after = std::fs::read_to_string(&config).expect("read");
    assert!(
        after.contains("// the gateway") && after.contains("\"ctxguard\""),
        "{after}"
    );
    let script =
        std::fs::read_to_string(state.join("extensions/ctxguard/index.js")).expect("plugin");
    assert!(script.contains(r#"const COMMAND = "/opt/bin/ctxguard";"#));
    for file in ["package.json", "openclaw.plugin.json"] {
        assert!(
            state.join("extensions/ctxguard").join(file).is_file(),
            "{file}"
        );
    }
    init(&[]);
    assert_eq!(
        std::fs::read_to_string(&config).expect("read"),
        after,
        "idempotent"
    );
    init(&["--remove"]);
    let removed = std::fs::read_to_string(&config).expect("read");
    assert_eq!(removed, original);
    assert!(!state.join("extensions").exists());
}
