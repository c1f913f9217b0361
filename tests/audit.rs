//! `ctxguard audit` on the session fixtures: what each compaction did to
//! each thing the user said, and the real corpus when it is present.

mod common;

use common::Test;
use serde_json::Value;

const SESSIONS: &str = "tests/fixtures/sessions";

fn audit_json(paths: &[&str]) -> (Value, i32) {
    let mut args = vec!["audit", "--format", "json"];
    args.extend(paths);
    let output = Test::new().args(&args).any_status().run();
    (
        serde_json::from_str(&output.stdout).expect("a JSON report"),
        output.status,
    )
}

/// `(outcome, text)` of each commitment of event `n` (from 1).
fn outcomes(report: &Value, n: usize) -> Vec<(String, String)> {
    report["events"][n - 1]["commitments"]
        .as_array()
        .expect("commitments")
        .iter()
        .map(|c| {
            (
                c["outcome"].as_str().unwrap_or("").to_owned(),
                c["text"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// The text of each invented requirement of event `n` (from 1).
fn invented(report: &Value, n: usize) -> Vec<&str> {
    report["events"][n - 1]["invented"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|i| i["text"].as_str())
        .collect()
}

/// The lines of the commitments event `n` judged.
fn judged_lines(report: &Value, n: usize) -> Vec<u64> {
    report["events"][n - 1]["commitments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["source_line"].as_u64())
        .collect()
}

fn outcome_of(report: &Value, n: usize, text: &str) -> String {
    outcomes(report, n)
        .into_iter()
        .find(|(_, t)| t == text)
        .map(|(o, _)| o)
        .unwrap_or_else(|| panic!("no commitment {text:?} in event {n}"))
}

#[test]
fn claude_code_outcomes() {
    let (report, status) = audit_json(&[&format!("{SESSIONS}/claude-code.jsonl")]);
    assert_eq!(status, 1, "something was lost");
    // Quoted exactly in the summary.
    assert_eq!(outcome_of(&report, 1, "Do not drop columns."), "verbatim");
    // "before" became "and": the ordering is gone.
    assert_eq!(
        outcome_of(&report, 1, "Run the tests before applying the patch."),
        "altered"
    );
    let altered = &report["events"][0]["commitments"]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["outcome"] == "altered")
        .expect("an altered commitment")["evidence"];
    assert_eq!(altered["sentence"], "Run the tests and apply the patch.");
    assert_eq!(altered["changes"][0], "the ordering word `before` is gone");
    // Nothing in the summary carries the answer or the identifier.
    assert_eq!(outcome_of(&report, 1, "Which primary key? → uuid"), "lost");
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Keep the parser at src/legacy/parser_v2.py for now."
        ),
        "lost"
    );
    // A pinned value the second summary changed: v2 became v3.
    assert_eq!(
        outcome_of(&report, 2, "https://api.example.com/v2"),
        "altered"
    );
    // The preserved segment is carried byte for byte.
    assert_eq!(outcome_of(&report, 2, "Never push to main."), "verbatim");
    // Both pins of the session bind at the second compaction.
    assert_eq!(report["events"][1]["pinned"], 2);
    // The verdict is about the user's commitments, and says why.
    assert_eq!(report["events"][0]["verdict"], "lost");
    assert_eq!(
        report["events"][0]["reason"],
        "2 commitments lost, 1 commitment altered"
    );
    // The second compaction is judged against the whole session: the
    // ordering the first one altered is lost now, with its history.
    let ordering = report["events"][1]["commitments"]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["text"] == "Run the tests before applying the patch.")
        .expect("judged again at the second compaction");
    assert_eq!(ordering["outcome"], "lost");
    assert_eq!(ordering["history"][0]["outcome"], "altered");
}

#[test]
fn invented_requirements_are_found() {
    let (report, _) = audit_json(&[&format!("{SESSIONS}/pi.jsonl")]);
    let invented = invented(&report, 2);
    assert_eq!(invented, ["`npm run check` must pass."]);
    // "Tools live in core" keeps the move but drops the path.
    assert_eq!(
        outcome_of(&report, 2, "Move tools to core/tools."),
        "altered"
    );
}

/// Claude Code 2.1.x can keep the model's failure as the summary (the
/// usage limit's notice, in the shape of a real 2.1.15 session): every
/// commitment is lost, and the report says why.
#[test]
fn a_summary_that_is_a_runtime_notice_is_named_so() {
    let (report, status) = audit_json(&[&format!("{SESSIONS}/claude-code-limit-notice.jsonl")]);
    assert_eq!(status, 1);
    assert_eq!(outcome_of(&report, 1, "Do not drop columns."), "lost");
    let notes = report["events"][0]["notes"].to_string();
    assert!(
        notes.contains("the summary is a notice of the runtime's, not a summary (\\\"You've hit your limit · resets 2am (America/Los_Angeles)\\\")"),
        "{notes}"
    );
    // A real summary is no notice.
    let (report, _) = audit_json(&[&format!("{SESSIONS}/claude-code.jsonl")]);
    assert!(!report["events"]
        .to_string()
        .contains("notice of the runtime"));
}

#[test]
fn an_encrypted_summary_cannot_be_audited() {
    let (report, _) = audit_json(&[&format!("{SESSIONS}/codex.jsonl")]);
    let second = outcomes(&report, 2);
    assert!(
        second
            .iter()
            .any(|(o, t)| o == "unauditable" && t == "Try linking libfoo first."),
        "{second:?}"
    );
    // What the remote compaction carried over verbatim is still verbatim.
    assert!(
        second
            .iter()
            .any(|(o, t)| o == "verbatim" && t == "-lfoo_static"),
        "{second:?}"
    );
}

#[test]
fn human_report() {
    let output = Test::new()
        .args(&[
            "audit",
            &format!("{SESSIONS}/claude-code.jsonl"),
            &format!("{SESSIONS}/pi.jsonl"),
        ])
        .status(1)
        .run();
    common::assert_fits(&output.stdout, "audit");
    insta::assert_snapshot!(output.stdout);
}

#[test]
fn a_folder_streams_one_line_per_compaction() {
    let output = Test::new()
        .args(&["audit", "--format", "jsonl", SESSIONS])
        .status(1)
        .run();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string("schemas/audit.schema.json").expect("schema"),
    )
    .expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let lines: Vec<Value> = output
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    // One line for each compaction the whole report of the same folder
    // holds, however many fixtures the folder gains.
    let (whole, _) = audit_json(&[SESSIONS]);
    let events = whole["events"].as_array().expect("events");
    assert!(events.len() >= 28, "{}", events.len());
    assert_eq!(lines.len(), events.len());
    for line in &lines {
        let errors: Vec<String> = validator.iter_errors(line).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
    // Every session of the folder is in it, whatever order the cores finished in.
    assert_eq!(files_of(&lines), files_of(events));
}

/// The session files audited events come from, each once, in order.
fn files_of(events: &[Value]) -> Vec<&str> {
    let mut files: Vec<&str> = events
        .iter()
        .filter_map(|e| e["source_file"].as_str())
        .collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn real_sessions() {
    let Some(corpus) = common::shared_corpus("real", "the shared corpus of real sessions") else {
        return;
    };
    let pi = corpus.join("pi-mono-before-compaction");
    let (report, _) = audit_json(&[pi.to_str().expect("utf-8")]);
    // A command the second summary adds under "User Preferences" that no
    // user message names ("Git commits after major changes", its other
    // addition, shares its words with what the user asked, and is not found).
    let invented = invented(&report, 2);
    assert!(
        invented.iter().any(|t| t.contains("npm run check")),
        "{invented:?}"
    );
    // A manual compaction whose summary quotes every user message: nothing lost.
    let router = corpus.join("mclaude-router-ssh-compact");
    let (report, status) = audit_json(&[router.to_str().expect("utf-8")]);
    assert_eq!(status, 0, "{report}");
    assert!(outcomes(&report, 1).iter().all(|(o, _)| o == "verbatim"));
}

/// Every real session of the shared corpus, audited in each format and to
/// an HTML page: an answer with a documented status, never a crash. (The
/// human report once recursed without end on a commitment whose first
/// word was wider than its line.)
#[test]
fn every_real_session_audits_in_every_format() {
    let Some(corpus) = common::shared_corpus("real", "the shared corpus of real sessions") else {
        return;
    };
    let mut sessions: Vec<_> = std::fs::read_dir(&corpus)
        .expect("the corpus lists")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_dir())
        .collect();
    sessions.sort();
    assert!(sessions.len() >= 5, "{sessions:?}");
    let page = tempfile::tempdir().expect("a folder for the page");
    for session in &sessions {
        let path = session.to_str().expect("utf-8");
        for format in ["human", "json", "jsonl"] {
            let html = page.path().join("audit.html");
            let mut args = vec!["audit", "--format", format, path];
            let html_arg = html.to_str().expect("utf-8");
            if format == "human" {
                args.extend(["--html", html_arg]);
            }
            let output = Test::new().args(&args).any_status().run();
            assert!(
                [0, 1, 3].contains(&output.status)
                    || (output.status == 2 && output.stderr.contains("ctxguard::")),
                "audit --format {format} {path} exited {}:\n{}{}",
                output.status,
                output.stdout,
                output.stderr
            );
            assert!(
                !output.stderr.contains("panicked") && !output.stderr.contains("overflow"),
                "{}",
                output.stderr
            );
        }
    }
}

#[test]
fn the_html_report_renders_in_a_browser() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let page = dir.path().join("audit.html");
    Test::new()
        .args(&["audit", SESSIONS, "--html", page.to_str().expect("utf-8")])
        .status(1)
        .run();
    let html = std::fs::read_to_string(&page).expect("the page is written");
    // Self-contained: nothing fetched.
    for external in ["<link", "<img", "<script src", "@import", "url("] {
        assert!(!html.contains(external), "an external asset: {external}");
    }
    // Session text is escaped, never markup.
    assert!(!html.contains("<command-name>"));
    let Some(browser) = common::Browser::find(dir.path()) else {
        return;
    };
    let shot = dir.path().join("audit.png");
    let url = format!("file://{}", page.display());
    browser.screenshot(&url, (1200, 1600), &shot);
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("a screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!((info.width, info.height), (1200, 1600));
    // Rendered: text and coloured outcomes, not a blank page.
    let bytes = &pixels[..info.buffer_size()];
    let distinct: std::collections::HashSet<&[u8]> =
        bytes.chunks(info.color_type.samples()).collect();
    assert!(
        distinct.len() > 50,
        "{} colours: a blank page",
        distinct.len()
    );
    // The page as the browser built it, script run: every section, and rows by outcome.
    let dom = browser.dom(&url);
    let (report, _) = audit_json(&[SESSIONS]);
    let events = report["events"].as_array().map_or(0, Vec::len);
    assert!(events > 20, "the folder's compactions: {events}");
    assert_eq!(dom.matches("<section class=\"event\">").count(), events);
    assert!(dom.contains("<tr class=\"altered\">") && dom.contains("<tr class=\"invented\">"));
}

/// The fixtures of each way the audit went wrong on real sessions, one
/// failure class each (`tests/fixtures/sessions/audit/`).
const CLASSES: &str = "tests/fixtures/sessions/audit";

/// Every commitment of event `n` as (outcome, text), and what was set apart.
fn judged(file: &str) -> (Value, i32) {
    audit_json(&[&format!("{CLASSES}/{file}")])
}

/// Asserts that none of `foreign` appears in what event `n` judged or
/// set apart: the runtime's text is never the user's.
fn assert_unheard(report: &Value, n: usize, foreign: &[&str]) {
    let everything = format!("{:?} {:?}", outcomes(report, n), set_apart(report, n));
    for foreign in foreign {
        assert!(!everything.contains(foreign), "{foreign} in {everything}");
    }
}

/// Asserts that each of `expected` is a commitment the audit judged at
/// event `n`.
fn assert_judged(report: &Value, n: usize, expected: &[&str]) {
    let said = outcomes(report, n);
    let texts: Vec<&str> = said.iter().map(|(_, t)| t.as_str()).collect();
    for expected in expected {
        assert!(texts.contains(expected), "{expected:?} not in {texts:?}");
    }
}

fn set_apart(report: &Value, n: usize) -> Vec<(String, String)> {
    report["events"][n - 1]["set_apart"]
        .as_array()
        .expect("set_apart")
        .iter()
        .map(|u| {
            (
                u["why"].as_str().unwrap_or("").to_owned(),
                u["text"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_boundary_whose_logical_parent_is_missing_is_no_silent_pass() {
    let (report, status) = judged("missing-logical-parent.jsonl");
    assert_eq!(status, 1, "{report}");
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Add a /health endpoint that returns the build sha."
        ),
        "verbatim"
    );
    assert_eq!(outcome_of(&report, 1, "Never log request bodies."), "lost");
    let notes = report["events"][0]["notes"].to_string();
    assert!(
        notes.contains("logical parent is not in the file"),
        "{notes}"
    );
}

#[test]
fn every_compaction_is_judged_against_the_whole_session() {
    let (report, _) = judged("two-compactions.jsonl");
    // Kept by the first summary, dropped by the second: lost at the second,
    // with its history.
    let first = "Keep the v1 API routes working until the migration is done.";
    assert_eq!(outcome_of(&report, 1, first), "verbatim");
    assert_eq!(outcome_of(&report, 2, first), "lost");
    let history = &report["events"][1]["commitments"]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["text"] == first)
        .expect("judged at the second")["history"];
    assert_eq!(history[0]["event"], 1);
    assert_eq!(history[0]["outcome"], "verbatim");
    // A prompt interrupted and typed again is one commitment, the later.
    let renames: Vec<u64> = report["events"][0]["commitments"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|c| c["text"] == "Rename the config loader to settings.rs")
        .filter_map(|c| c["source_line"].as_u64())
        .collect();
    assert_eq!(renames, [5]);
    // Taken back ("scratch that"): no longer judged.
    assert!(outcomes(&report, 1)
        .iter()
        .all(|(_, t)| t != "Add a retry loop around the upload."));
}

#[test]
fn words_typed_to_turn_down_one_of_calls_made_side_by_side_are_the_users() {
    let (report, _) = judged("side-by-side-calls-2.1.jsonl");
    // The call turned down is answered off the chain the next message
    // continues (through the last call's answer): its words are still the
    // user's, read with the rest of the message the model saw.
    let words = "At the start of each session, read the files from the last session first.";
    assert_eq!(outcome_of(&report, 1, words), "lost");
}

#[test]
fn words_on_a_branch_forked_by_hook_progress_records_are_judged() {
    let (report, _) = judged("progress-fork-2.1.jsonl");
    // The next message names the last progress record for its parent: the
    // turn it forked off still stands before it, as the model read it.
    let words = "Keep RabbitMQ delayed queues for scheduled announcements.";
    assert_eq!(outcome_of(&report, 1, words), "lost");
}

#[test]
fn words_on_a_branch_forked_by_hook_progress_and_a_stop_hooks_summary_are_judged() {
    // The next message names the stop hook's summary for its parent, and
    // that names the last progress record.
    let (report, _) = judged("progress-fork-stop-hook-2.1.jsonl");
    let words = "Keep RabbitMQ delayed queues for scheduled announcements.";
    assert_eq!(outcome_of(&report, 1, words), "lost");
}

#[test]
fn words_after_another_block_of_the_message_the_progress_records_fork_off_are_judged() {
    // The agent's message is written as a record a block; the progress
    // records hang off its last block, the conversation goes on from the
    // answer to its first.
    let (report, _) = judged("progress-fork-sibling-2.1.jsonl");
    let words = "Keep RabbitMQ delayed queues for scheduled announcements.";
    assert_eq!(outcome_of(&report, 1, words), "lost");
}

#[test]
fn the_user_speaks_in_many_shapes_and_the_runtime_is_not_the_user() {
    let (report, _) = judged("user-shapes.jsonl");
    // The user's words inside an app's wrapper; a choice; a free-text
    // answer to an MCP question tool; the words of a rejected tool call;
    // input queued as an attachment and as a queue operation only.
    assert_judged(
        &report,
        1,
        &[
            "Move the journal into ClickHouse.",
            "Where should the settings live? → Settings page",
            "Which database? → we will remove the local journal, ClickHouse is the only store",
            "use the staging bucket instead",
            "Also bump the chart version to 2.4.0.",
            "Keep the old export command as an alias.",
        ],
    );
    // The option chosen stands in the summary, its question does not: kept.
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Where should the settings live? → Settings page"
        ),
        "verbatim"
    );
    // Runtime text is never the user's.
    assert_unheard(
        &report,
        1,
        &[
            "You are working inside Conductor",
            "task-notification",
            "Unknown slash command",
            "Unknown skill",
            "Request interrupted",
        ],
    );
}

#[test]
fn claude_code_1_0_local_commands_and_what_came_between_them_are_judged() {
    let (report, _) = judged("memory-input-1.0.jsonl");
    // The `#` lines are the user's; the prompts between them and before a
    // slash command, which hang off no chain that goes on, are in the
    // buffer.
    assert_judged(
        &report,
        1,
        &[
            "We are using yarn",
            "Start phase 1 with the CSV reader.",
            "Never add your signature to commit messages",
            "commit all",
            "Push to the fork, not upstream.",
        ],
    );
    assert_unheard(&report, 1, &["no content", "user-memory-input"]);
}

#[test]
fn claude_code_2_0_an_edit_rejected_in_the_editor_carries_the_users_words() {
    let (report, _) = judged("editor-rejection-2.0.jsonl");
    assert_judged(
        &report,
        1,
        &["I don't want changes to the view model files."],
    );
    // The edit tool's own error is not the user's.
    assert_unheard(&report, 1, &["has not been read"]);
}

#[test]
fn claude_code_2_1_a_hooks_refusal_of_an_edit_is_not_the_users_words() {
    let (report, _) = judged("hook-refusal-2.1.jsonl");
    assert_judged(&report, 1, &["Write the review notes to docs/review.md."]);
    assert_unheard(&report, 1, &["Fact-Forcing", "present these facts", "Glob"]);
}

#[test]
fn a_message_is_cut_where_a_person_would_cut_it() {
    let (report, _) = judged("markdown.jsonl");
    let said = outcomes(&report, 1);
    // A list item is one unit; code is never cut at `!=` or `..`.
    assert!(said
        .iter()
        .any(|(_, t)| t == "Reject a config where `retries != 0` and `backoff` is unset"));
    assert!(said
        .iter()
        .any(|(_, t)| t == "Run `cargo test -p core..=api` first."));
    // An identifier that survives byte for byte keeps its commitment, in
    // other words; "first" and "before anything else" keep the order.
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Keep the old parser in `src/legacy/parser_v2.py` for now."
        ),
        "paraphrased"
    );
    assert_eq!(
        outcome_of(&report, 1, "Run `cargo test -p core..=api` first."),
        "paraphrased"
    );
    // A heading and a table header are set apart, not lost.
    let apart = set_apart(&report, 1);
    assert!(
        apart.contains(&("debris".to_owned(), "## Plan".to_owned())),
        "{apart:?}"
    );
}

#[test]
fn a_substring_is_not_survival() {
    let (report, _) = judged("polarity.jsonl");
    // "must never use …" does not keep "use …".
    assert_eq!(
        outcome_of(&report, 1, "use the staging database for the tests"),
        "altered"
    );
    // "No" is not kept by "now".
    assert_eq!(
        outcome_of(&report, 1, "Drop the legacy table? → No"),
        "lost"
    );
    // A faithful quote, line-wrapped or without its final period, is not lost.
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Run the migration before deploying the new workers to production."
        ),
        "paraphrased"
    );
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Always squash commits before merging into main."
        ),
        "paraphrased"
    );
}

#[test]
fn what_does_not_bind_is_set_apart_never_lost() {
    let (report, _) = judged("not-binding.jsonl");
    assert_eq!(
        outcomes(&report, 1),
        [(
            "lost".to_owned(),
            "Use pnpm, never npm, in this repository.".to_owned()
        )]
    );
    let apart = set_apart(&report, 1);
    for (why, text) in [
        ("acknowledgement", "ok"),
        ("question", "where are we?"),
        ("question", "what does the retry flag do?"),
    ] {
        assert!(
            apart.contains(&(why.to_owned(), text.to_owned())),
            "{text:?} not set apart as {why}: {apart:?}"
        );
    }
    assert_eq!(report["events"][0]["reason"], "1 commitment lost");
}

#[test]
fn only_what_no_user_text_supports_is_invented() {
    let (report, _) = judged("invented.jsonl");
    // "commit this" and "push it", two messages, support "committing and
    // pushing"; 20, then 50, then 100 supports "from 20 to 100"; the
    // agent's own choice of cache is presented as the user's.
    assert_eq!(
        invented(&report, 1),
        ["The user chose `redis-7.2` with `allkeys-lru` eviction for the cache."]
    );
    // The value the user moved on from no longer binds.
    assert!(outcomes(&report, 1).iter().all(|(_, t)| t != "make it 50"));
}

#[test]
fn what_the_user_approved_or_said_unrecorded_is_no_invention() {
    let (report, _) = judged("invented-unrecorded.jsonl");
    // The plan the user approved supports "the user asked to implement a
    // plan for …"; a quotation of a message the file does not hold (the
    // prompt that set off the compaction) cannot be told from one the
    // summary made up, and is not reported. The agent's own choice is.
    assert_eq!(
        invented(&report, 1),
        ["The user chose `sqlite-3.45` for the build cache."]
    );
    // The plan is the agent's text: none of its steps is the user's
    // commitment.
    assert!(
        outcomes(&report, 1)
            .iter()
            .all(|(_, t)| !t.contains("resolve_package_arg")),
        "{report}"
    );
}

#[test]
fn the_verdict_is_about_the_users_commitments_and_names_its_reason() {
    // Every commitment carried as written: kept, whatever the imported
    // plan's structure (a summary that spans them).
    let (report, status) = judged("codex-carried.jsonl");
    assert_eq!(status, 0, "{report}");
    assert_eq!(report["events"][0]["verdict"], "kept");
    assert!(report["events"][0]["reason"]
        .as_str()
        .is_some_and(|r| r.starts_with("every commitment is in the buffer after")));
    // An encrypted summary: what it did to the commitments it did not carry
    // cannot be told; a person must look (exit 3), and the reason says why.
    let (report, status) = judged("codex-encrypted.jsonl");
    assert_eq!(status, 3, "{report}");
    assert_eq!(report["events"][0]["verdict"], "unauditable");
    assert_eq!(
        report["events"][0]["reason"],
        "the summary is encrypted: 1 commitment cannot be checked"
    );
}

#[test]
fn a_yes_to_what_the_agent_proposed_makes_it_the_users() {
    // "Shall I update `PERF_PLAN.md` with these findings and then proceed
    // to Phase 2 execution?", answered "yes and then clear the context
    // first.": the summary's "User confirmed: Update PERF_PLAN.md …" is
    // supported. The agent's own choice of cache is still invented.
    let (report, _) = judged("invented-proposal-approved.jsonl");
    assert_eq!(
        invented(&report, 1),
        ["The user chose `redis-7.2` with `allkeys-lru` eviction for the cache."],
        "{report}"
    );
}

#[test]
fn a_summary_that_names_the_project_by_its_folder_invents_nothing() {
    // The session ran in `notebooklm_clone`; the user never typed
    // "NotebookLM", the summary does.
    let (report, _) = judged("project-named-by-folder.jsonl");
    assert_eq!(invented(&report, 1), Vec::<&str>::new(), "{report}");
}

#[test]
fn a_status_card_written_with_no_parent_does_not_cut_the_session_short() {
    // Clawdbot's /status card stands between two turns with no `parentId`:
    // what the user said before it is still the session's, and lost here.
    let (report, _) = judged("openclaw-status-card.jsonl");
    assert_eq!(
        outcome_of(&report, 1, "Never send mail without asking me."),
        "lost",
        "{report}"
    );
    assert_unheard(&report, 1, &["Clawdbot 2026.1.24-3"]);
}

#[test]
fn a_runtimes_notice_on_pis_format_is_not_the_user() {
    let (report, _) = judged("openclaw-notice.jsonl");
    assert_unheard(&report, 1, &["System Message"]);
    // Two instructions joined by "and", each judged.
    assert_eq!(outcome_of(&report, 1, "Review the open PRs"), "verbatim");
    assert_eq!(
        outcome_of(&report, 1, "reply in the #dev channel."),
        "verbatim"
    );
    assert_eq!(outcome_of(&report, 1, "Keep updates concise."), "lost");
}

#[test]
fn a_chat_channels_envelope_and_openclaws_own_messages_are_not_the_users() {
    let (report, _) = judged("openclaw-envelope.jsonl");
    // Delivered twice, said once: where the user first sent it (line 9).
    let store: Vec<&Value> = report["events"][0]["commitments"]
        .as_array()
        .expect("commitments")
        .iter()
        .filter(|c| c["text"] == "Store the digests as HTML files on the desktop.")
        .collect();
    assert_eq!(store.len(), 1, "{report}");
    assert_eq!(store[0]["source_line"], 9, "{report}");
    assert_unheard(
        &report,
        1,
        &[
            "message_id",
            "Feishu",
            "HEARTBEAT",
            "heartbeat poll",
            "untrusted",
            "GMT+8",
            "bar chart",
            "inbound",
            "Queued",
            "SIGTERM",
            "潘神",
            "send an image back",
            "Startup sequence",
            "destructive",
            "saved every prompt",
            "Replying",
            "Give me the chat id",
            "Which do you prefer",
            "[openclaw]",
            "飞书账号授权",
            "Session Startup",
            "1-3 sentences",
            "DigestHelperBot",
        ],
    );
    assert_judged(
        &report,
        1,
        &[
            "Send me the AI news digest every morning at 7.",
            "Store the digests as HTML files on the desktop.",
            "Use this chart layout for the digest.",
            "Keep each digest under a page.",
            "Reply in short answers from now on.",
            "Keep the headlines in Thai.",
            "Translate the course terms with the glossary in terms.md.",
            "Keep the narration in Mandarin.",
            "The chat id is 8409691103, remember it.",
        ],
    );
}

#[test]
fn the_context_openclaws_qq_channel_writes_before_each_message_is_not_the_users() {
    let (report, _) = judged("openclaw-qq.jsonl");
    assert_unheard(
        &report,
        1,
        &["QQ", "qqimg", "qqfile", "会话上下文", "必须遵守", "私聊"],
    );
    assert_judged(
        &report,
        1,
        &[
            "以后所有的交流和文档都使用中文。",
            "请每天晚上十点把交易记录推送到我的仓库。",
        ],
    );
}

#[test]
fn openclaws_subagent_context_and_its_memory_flush_turn_are_not_the_users() {
    let (report, _) = judged("openclaw-internal.jsonl");
    assert_unheard(
        &report,
        1,
        &[
            "runtime context",
            "MCP",
            "Cargo.toml",
            "Structured markdown",
            "Compile Agent",
            "gemma",
            "Viator",
            "debug-nvidia",
            "agents.defaults.models",
            "Queued",
            "Summarize this naturally",
            "memory flush",
            "durable memories",
            "NO_REPLY",
        ],
    );
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Fix the compile errors in the runtime crate first."
        ),
        "verbatim"
    );
}

#[test]
fn what_a_memory_plugin_recalled_of_the_user_is_not_the_users() {
    let (report, _) = judged("openclaw-memory.jsonl");
    assert_unheard(
        &report,
        1,
        &[
            "Reference memory",
            "用户配置心跳系统",
            "最佳实践",
            "猜测配置",
            "MEMORY.md",
            "原始query",
            "memory flush",
            "relevant-memories",
            "old schema",
            "Agora tá claro",
            "Status da memória",
            "HEARTBEAT",
        ],
    );
    assert_eq!(
        outcome_of(&report, 1, "回测结果都要存到 backtest/ 目录下"),
        "verbatim"
    );
    assert_eq!(
        outcome_of(&report, 1, "Save every backtest log under logs/."),
        "verbatim"
    );
}

#[test]
fn openclaws_startup_greeting_and_its_post_compaction_audit_are_not_the_users() {
    let (report, _) = judged("openclaw-startup.jsonl");
    assert_unheard(
        &report,
        1,
        &[
            "new session",
            "greet",
            "persona",
            "1-3 sentences",
            "Post-Compaction Audit",
            "WORKFLOW_AUTO",
            "Read tool",
            "operating protocols",
        ],
    );
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Archive the failed strategy before you start the next one."
        ),
        "verbatim"
    );
}

#[test]
fn openclaws_bootstrap_prompt_hatch_greeting_and_system_events_are_not_the_users() {
    let (report, _) = judged("openclaw-bootstrap.jsonl");
    assert_unheard(
        &report,
        1,
        &[
            "Bootstrap",
            "BOOTSTRAP",
            "Wake up",
            "Retry after",
            "HEARTBEAT",
            "Evening",
            "DISCIPLINE",
            "Replying to",
            "Interactive Card",
            "async command",
            "Current time",
            "Queued",
            "truncat",
            "AGENTS.md",
            "media:",
            "aborted",
            "Resume carefully",
        ],
    );
    assert_judged(
        &report,
        1,
        &["Keep the upgrade log in ~/backups/upgrade.log."],
    );
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Back up the gateway config to ~/backups before every upgrade."
        ),
        "verbatim"
    );
}

#[test]
fn a_branch_openclaw_rewrote_judges_the_users_words_where_they_were_first_written() {
    let (report, _) = judged("openclaw-rewritten-branch.jsonl");
    // Both compactions judge the two messages at the lines the user wrote
    // them on, not at the copies the rewritten branch holds (lines 7, 9).
    assert_eq!(judged_lines(&report, 1), [2, 4]);
    assert_eq!(judged_lines(&report, 2), [2, 4]);
    assert_eq!(
        outcome_of(
            &report,
            2,
            "Keep the nightly backups in ~/backups and never delete the old ones."
        ),
        "lost"
    );
}

#[test]
fn a_message_openclaw_sent_again_after_a_failed_run_is_judged_where_the_user_sent_it() {
    let (report, _) = judged("openclaw-prompt-error.jsonl");
    // Line 2 holds the words the user sent; line 5, OpenClaw's second
    // sending of them: each requirement judged once, at line 2.
    assert_eq!(judged_lines(&report, 1), [2, 2]);
}

#[test]
fn a_pi_session_that_starts_partway_is_read_and_keeps_what_stands_before_its_compaction() {
    // No header; the first entry's parent and the first kept entry are
    // before the file: both messages were kept, and the file is said to
    // start partway.
    let (report, status) = judged("openclaw-headless.jsonl");
    assert_eq!(status, 0, "{report:#}");
    assert_eq!(judged_lines(&report, 1), [2, 4]);
    for said in [
        "Never share my phone number with anyone who messages the Discord bot.",
        "Track every creator account in tracker.xlsx.",
    ] {
        assert_eq!(outcome_of(&report, 1, said), "verbatim");
    }
    let notes = report["events"][0]["notes"].to_string();
    assert!(notes.contains("starts partway"), "{notes}");
}

#[test]
fn codexs_questions_are_answered_by_the_user_and_an_encrypted_summary_leaves_them_unchecked() {
    let (report, status) = judged("codex-question.jsonl");
    assert_eq!(
        outcome_of(
            &report,
            1,
            "What level of tag refactor do you want? → Vault-wide redesign"
        ),
        "unauditable"
    );
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Which tag form is canonical? → Frontmatter tags (Recommended)"
        ),
        "unauditable"
    );
    assert_eq!(report["events"][0]["verdict"], "unauditable");
    assert_ne!(status, 0, "an encrypted summary is never 'nothing lost'");
}

#[test]
fn an_option_named_by_its_number_and_carried_as_typed_beside_an_encrypted_summary_is_kept() {
    // "2" after the agent numbered its options, carried over word for word
    // with a summary no one can read: the reply stands as typed.
    let (report, status) = judged("codex-encrypted-option.jsonl");
    assert_eq!(outcome_of(&report, 1, "2"), "verbatim", "{report}");
    assert_eq!(report["events"][0]["verdict"], "kept");
    assert_eq!(status, 0);
}

#[test]
fn a_codex_question_declined_chooses_nothing_and_the_note_typed_beside_it_is_the_users() {
    let (report, _) = judged("codex-question-note.jsonl");
    assert_eq!(
        outcome_of(
            &report,
            1,
            "Please ask me questions in plain text instead of multiple choice."
        ),
        "lost"
    );
    let judged = outcomes(&report, 1);
    assert!(
        judged
            .iter()
            .all(|(_, text)| !text.contains("None of the above") && !text.contains("user_note")),
        "{judged:?}"
    );
}

#[test]
fn output_pasted_whole_is_the_tools_and_the_words_after_it_are_the_users() {
    let (report, _) = judged("pasted-output.jsonl");
    let apart = set_apart(&report, 1);
    assert!(
        apart
            .iter()
            .any(|(why, text)| why == "pasted" && text.contains("pnpm approve-builds")),
        "{apart:?}"
    );
    assert!(
        apart.iter().filter(|(why, _)| why == "pasted").count() >= 10,
        "{apart:?}"
    );
    // Only the user's own request is judged, a clause at a time.
    let judged: Vec<String> = outcomes(&report, 1)
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert_eq!(
        judged,
        [
            "Fix the type errors in vscode-webview",
            "keep the node engine at 20.19.2."
        ]
    );
}

#[test]
fn a_codex_compaction_without_a_summary_is_judged_by_what_it_carried() {
    let (report, status) = judged("codex-no-summary.jsonl");
    let judged = outcomes(&report, 1);
    assert!(
        judged
            .iter()
            .any(|(o, t)| o == "verbatim" && t.starts_with("Link against libfoo 2.3")),
        "{judged:?}"
    );
    assert!(
        judged
            .iter()
            .any(|(o, t)| o == "lost" && t == "Never edit vendor/."),
        "{judged:?}"
    );
    assert_eq!(status, 1, "a loss, not an unauditable compaction");
}

#[test]
fn a_codex_custom_prompt_is_the_users_words_typed_after_it_cited_where_they_were_typed() {
    let (report, status) = judged("codex-custom-prompt.jsonl");
    assert_judged(
        &report,
        1,
        &["Keep the API stable.", "Do not add a web server."],
    );
    // The prompt file written out around them is the command's.
    assert_unheard(
        &report,
        1,
        &[
            "You are updating the project constitution",
            "Do not create a new template",
        ],
    );
    // Cited on the `user_message` event, where they were typed (line 3),
    // not on the buffer's copy before it.
    for commitment in report["events"][0]["commitments"]
        .as_array()
        .expect("commitments")
    {
        assert_eq!(commitment["source_line"], 3, "{commitment}");
    }
    // Codex carries the recent user messages into the buffer: kept.
    assert_eq!(status, 0);
}

/// `fixture`'s text with its first record made as large as a long paste.
fn opening_with_a_paste(fixture: &str) -> String {
    let text = std::fs::read_to_string(format!("{SESSIONS}/{fixture}")).expect("fixture");
    let paste = "x".repeat(200_000);
    if let Some(array) = text.trim_start().strip_prefix('[') {
        // A JSON array of events: the first one carries the paste.
        let mut events: Vec<Value> = serde_json::from_str(&format!("[{array}")).expect("JSON");
        events[0]["pasted"] = Value::String(paste);
        return serde_json::to_string(&events).expect("JSON");
    }
    let (first, rest) = text.split_once('\n').expect("lines");
    let mut first: Value = serde_json::from_str(first).expect("a JSON line");
    first["pasted"] = Value::String(paste);
    format!("{first}\n{rest}")
}

/// Compactions of each session file in a folder audit, by file name.
fn compactions_by_file(report: &Value) -> std::collections::BTreeMap<String, usize> {
    let mut found = std::collections::BTreeMap::new();
    for event in report["events"].as_array().expect("events") {
        let file = event["source_file"].as_str().unwrap_or("");
        let name = std::path::Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        *found.entry(name).or_insert(0) += 1;
    }
    found
}

#[test]
fn a_session_is_recognized_however_large_its_first_record_and_however_its_tail_is_torn() {
    let fixtures = [
        "claude-code.jsonl",
        "codex.jsonl",
        "pi.jsonl",
        "openhands-v0.json",
        "openhands-v1.jsonl",
    ];
    let dir = tempfile::tempdir().expect("a folder");
    for fixture in fixtures {
        std::fs::write(dir.path().join(fixture), opening_with_a_paste(fixture)).expect("written");
        // Being written as it is read: the last line torn inside `é`.
        if fixture.ends_with(".jsonl") {
            let mut bytes = std::fs::read(format!("{SESSIONS}/{fixture}")).expect("fixture");
            bytes.extend_from_slice(b"{\"type\":\"user\",\"text\":\"caf\xC3");
            std::fs::write(dir.path().join(format!("torn-{fixture}")), bytes).expect("written");
        }
    }
    let folder = dir.path().display().to_string();
    let (report, _) = audit_json(&[&folder]);
    let found = compactions_by_file(&report);
    for fixture in fixtures {
        let (alone, _) = audit_json(&[&format!("{SESSIONS}/{fixture}")]);
        let expected = alone["events"].as_array().map_or(0, Vec::len);
        assert!(expected > 0, "{fixture}");
        assert_eq!(found.get(fixture), Some(&expected), "{fixture}: {found:?}");
        if fixture.ends_with(".jsonl") {
            let torn = format!("torn-{fixture}");
            assert_eq!(found.get(&torn), Some(&expected), "{torn}: {found:?}");
        }
    }
    // The torn line is named, not the file refused.
    let torn = dir.path().join("torn-codex.jsonl").display().to_string();
    let output = Test::new().args(&["audit", &torn]).any_status().run();
    assert_ne!(output.status, 2, "{}", output.stderr);
    assert!(
        !output.stderr.contains("not valid UTF-8"),
        "{}",
        output.stderr
    );
}

#[test]
fn a_folder_below_that_cannot_be_read_is_an_error_not_a_silent_pass() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("mode");
    let session = std::fs::read(format!("{SESSIONS}/claude-code.jsonl")).expect("fixture");
    std::fs::write(dir.path().join("a.jsonl"), &session).expect("written");
    let closed = dir.path().join("team");
    std::fs::create_dir(&closed).expect("a folder");
    std::fs::write(closed.join("b.jsonl"), &session).expect("written");
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).expect("mode");
    let folder = dir.path().display().to_string();
    let output = Test::new()
        .args(&["audit", &folder])
        .unprivileged()
        .any_status()
        .run();
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o755)).expect("mode");
    assert_eq!(output.status, 2, "{}\n{}", output.stdout, output.stderr);
    let said = common::flat(&format!("{}{}", output.stdout, output.stderr));
    assert!(
        said.contains(&format!(
            "`{}` cannot be read (permission denied)",
            closed.display()
        )),
        "{said}"
    );
    // What could be read is still audited.
    assert!(said.contains("a.jsonl"), "{said}");
}

#[test]
fn a_claude_code_1_0_compaction_without_a_boundary_is_found_and_judged() {
    // Claude Code 1.0 writes no `compact_boundary`: the compaction is a
    // summary record that opens a new chain.
    let record = |uuid: &str, parent: Option<&str>, kind: &str, content: Value| {
        serde_json::json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/repo", "sessionId": "s10", "version": "1.0.53", "type": kind, "uuid": uuid,
            "timestamp": "2025-07-20T10:00:00.000Z", "message": {"role": kind, "content": content}})
    };
    let mut summary = record(
        "s1",
        None,
        "user",
        Value::String("This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary: we worked on the parser.".into()),
    );
    summary["isCompactSummary"] = Value::Bool(true);
    let lines = [
        record(
            "u1",
            None,
            "user",
            Value::String("Never drop the users table.".into()),
        ),
        record(
            "a1",
            Some("u1"),
            "assistant",
            serde_json::json!([{"type": "text", "text": "Understood."}]),
        ),
        summary,
        record(
            "a2",
            Some("s1"),
            "assistant",
            serde_json::json!([{"type": "text", "text": "Continuing."}]),
        ),
    ];
    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("session.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, text).expect("written");
    let (report, status) = audit_json(&[&path.display().to_string()]);
    assert_eq!(status, 1, "{report}");
    assert_eq!(
        report["events"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    assert_eq!(
        outcome_of(&report, 1, "Never drop the users table."),
        "lost"
    );
    assert_eq!(report["events"][0]["compaction_line"], 3);
}

#[test]
fn a_rejection_without_words_is_the_runtimes_and_a_command_run_alone_supports_the_summary() {
    let (report, status) = judged("rejection-ide-2.1.jsonl");
    assert_eq!(status, 0, "{report}");
    assert_eq!(
        outcomes(&report, 1),
        [(
            "verbatim".to_owned(),
            "Draft the release notes in docs/RELEASE.md.".to_owned()
        )]
    );
    assert_unheard(&report, 1, &["STOP what you are doing"]);
    // "The user wanted to run `/speckit.plan`": the user did.
    assert!(invented(&report, 1).is_empty(), "{report}");
}

#[test]
fn what_the_runtime_wrote_out_for_a_command_supports_the_summary_and_binds_nothing() {
    let (report, status) = judged("command-expansion-1.0.jsonl");
    assert_eq!(status, 0, "{report}");
    // "The user requested analysis of the codebase and creation of
    // CLAUDE.md": the user ran `/init`, which asks exactly that.
    assert!(invented(&report, 1).is_empty(), "{report}");
    assert_eq!(
        outcomes(&report, 1),
        [(
            "verbatim".to_owned(),
            "Keep the CLI under src/cli/.".to_owned()
        )]
    );
}

#[test]
fn statements_in_a_language_the_audit_does_not_read_are_not_called_safe() {
    let (report, status) = judged("unread-language.jsonl");
    assert_eq!(status, 3, "unauditable, not nothing lost: {report}");
    assert_eq!(report["events"][0]["verdict"], "unauditable");
    let reason = report["events"][0]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("2 statements"), "{reason}");
}

#[test]
fn a_prompt_sent_again_is_judged_once_as_its_later_copy() {
    let (report, _) = judged("sent-again.jsonl");
    let lines = judged_lines(&report, 1);
    // Line 1 was interrupted (line 2) and sent again (line 3).
    assert!(!lines.is_empty(), "{report}");
    assert!(
        lines.iter().all(|&line| line == 3),
        "only the copy sent last is judged: {lines:?}"
    );
}

/// A session never compacted is not an audit that found nothing lost: the
/// report says there was nothing to audit.
#[test]
fn a_session_without_a_compaction_says_so() {
    let dir = tempfile::tempdir().expect("a folder");
    let whole = std::fs::read_to_string(format!("{SESSIONS}/claude-code.jsonl")).expect("read");
    let before: String = whole
        .lines()
        .take(3)
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(
        !before.contains("compact_boundary"),
        "the first lines hold no compaction"
    );
    let session = dir.path().join("s.jsonl");
    std::fs::write(&session, before).expect("written");
    let session = session.to_str().expect("UTF-8");
    let output = Test::new().args(&["audit", session]).status(0).run();
    assert_eq!(
        output.stdout,
        "1 session read: no compaction in it, nothing to audit\n"
    );
    let (report, status) = audit_json(&[session]);
    assert_eq!(
        (report["events"].as_array().map(Vec::len), status),
        (Some(0), 0)
    );
}

/// A folder audit says what it did not read: a `.json` file no runtime
/// wrote, and a file of another kind, beside a session it audited.
#[test]
fn a_folder_audit_says_what_it_skipped() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::copy(format!("{SESSIONS}/pi.jsonl"), dir.path().join("pi.jsonl")).expect("copied");
    std::fs::write(dir.path().join("package.json"), "{\"name\": \"app\"}\n").expect("written");
    std::fs::write(dir.path().join("notes.txt"), "not a session\n").expect("written");
    let folder = dir.path().to_str().expect("UTF-8");
    let output = Test::new().args(&["audit", folder]).any_status().run();
    let said: Vec<&str> = output.stdout.lines().rev().take(2).collect();
    assert_eq!(
        said,
        [
            "  `.traj`",
            "2 files skipped: 1 is no session ctxguard reads, 1 is not `.jsonl`, `.json` or"
        ],
        "{}",
        output.stdout
    );
    // The session itself was audited as it is when named.
    let (alone, _) = audit_json(&[&format!("{SESSIONS}/pi.jsonl")]);
    let (in_folder, _) = audit_json(&[folder]);
    assert_eq!(
        in_folder["events"].as_array().map(Vec::len),
        alone["events"].as_array().map(Vec::len)
    );
}

#[test]
fn a_compaction_on_a_branch_the_pi_session_left_is_judged_along_its_own_branch() {
    let (report, status) = judged("pi-branch.jsonl");
    assert_eq!(status, 1, "the branch left behind lost a commitment");
    let events = report["events"].as_array().expect("events");
    assert_eq!(events.len(), 2, "both compactions are audited");
    assert_eq!(events[0]["compaction_line"], 6);
    assert_eq!(events[1]["compaction_line"], 10);
    assert_eq!(
        outcome_of(&report, 1, "Write the report in French."),
        "lost"
    );
    assert!(events[0]["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .any(|note| note
            .as_str()
            .unwrap_or("")
            .contains("branch the session left")));
    // What was said only on the branch left behind is not the current
    // branch's; what both share is.
    assert!(!outcomes(&report, 2)
        .iter()
        .any(|(_, text)| text.contains("French")));
    assert_ne!(
        outcome_of(&report, 2, "Write the report in German."),
        "lost"
    );
    assert_ne!(
        outcome_of(&report, 2, "Keep the API version at v2."),
        "lost"
    );
}

#[test]
fn records_a_resumed_session_wrote_again_are_read_where_they_were_first_written() {
    let (report, _) = judged("resumed-replay-2.1.jsonl");
    assert_eq!(
        judged_lines(&report, 1),
        [1],
        "only the message before the boundary, where it was first written"
    );
}

#[test]
fn a_document_the_user_said_they_would_paste_in_is_handed_over() {
    let (report, _) = judged("announced-paste.jsonl");
    let apart = set_apart(&report, 1);
    assert!(
        apart
            .iter()
            .any(|(why, text)| why == "pasted" && text.starts_with("1) Identity")),
        "{apart:?}"
    );
    // The announcement and the request after the paste are the user's.
    let judged: Vec<String> = outcomes(&report, 1)
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    assert!(
        judged.iter().all(|text| !text.contains("You prefer")),
        "{judged:?}"
    );
    assert!(
        judged
            .iter()
            .any(|text| text.contains("Keep my notes in memory/profile.md")),
        "{judged:?}"
    );
}

#[test]
fn what_the_user_set_aside_all_of_or_by_its_topic_binds_no_more() {
    let (report, _) = judged("reset.jsonl");
    // A pasted prompt that tells its bot to ignore all previous
    // instructions sets nothing aside.
    assert!(
        outcomes(&report, 1)
            .iter()
            .any(|(_, t)| t == "Use Postgres for the job queue."),
        "{report}"
    );
    let judged: Vec<String> = outcomes(&report, 2).into_iter().map(|(_, t)| t).collect();
    for earlier in [
        "Use Postgres for the job queue.",
        "Keep the retries at 5.",
        "Add a calendar sync to the dashboard.",
    ] {
        assert!(
            !judged.iter().any(|t| t == earlier),
            "{earlier}: {judged:?}"
        );
    }
    assert!(
        judged.iter().any(|t| t == "Use SQLite for the job queue."),
        "{judged:?}"
    );
}

#[test]
fn a_prompt_openclaw_composed_itself_is_not_the_users_and_a_cron_jobs_message_is() {
    let (report, _) = judged("openclaw-composed.jsonl");
    assert_unheard(&report, 1, &["VRChat", "heartbeat message", "npm ERR"]);
    assert_judged(
        &report,
        1,
        &[
            "Implement the LINE hook in the gateway.",
            "Email me the list of open PRs every night.",
        ],
    );
}
