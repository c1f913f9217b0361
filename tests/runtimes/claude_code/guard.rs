//! ctxguard's guard, installed by `ctxguard init claude-code`, in a real
//! session: pins typed, a question answered, a manual and an automatic
//! compaction whose scripted summaries drop and rename what was pinned,
//! and the session resumed.

use std::process::{Command, Output};

use ctxguard::{facts::claude_code as facts, facts::Version};
use libtest_mimic::Failed;
use serde_json::{json, Value};

use super::{of_type, Claude};
use crate::npm::Package;
use crate::server::anthropic::Anthropic;
use crate::server::{content_text, Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

pub const CONSTRAINT: &str = "Do not drop columns.";
pub const IDENTIFIER: &str = "src/legacy/parser_v2.py";
pub const REQUIREMENT: &str = "Use the staging database only for read queries.";
pub const QUESTION: &str = "Which database should the tests use?";
pub const PLAN: &str =
    "1. Copy the orders table to orders_new.\n2. Swap the names in one transaction.";

pub fn first_prompt() -> String {
    format!(
        "pin constraint no-drop: {CONSTRAINT}\npin identifier legacy-parser: {IDENTIFIER}\n\nMigrate the orders table to the new schema. {REQUIREMENT}"
    )
}

/// The first summary keeps the requirement word for word, drops the
/// constraint and renames the pinned file.
pub const FIRST_SUMMARY: &str = "<analysis>\nThe user wants the orders table migrated.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   The user asked to migrate the orders table to the new schema. Use the staging database only for read queries. The legacy parser is src/legacy/parser.py.\n\n2. Pending Tasks:\n   - Migrate the orders table.\n</summary>";

/// The second summary drops the requirement too.
pub const SECOND_SUMMARY: &str = "<analysis>\nAn index was added.\n</analysis>\n\n<summary>\n1. Primary Request and Intent:\n   The user is migrating the orders table; an index on orders.created_at was added.\n\n2. Pending Tasks:\n   - Write the migration test.\n</summary>";

const HUGE: u64 = 990_000;

/// How the instructions ctxguard's PreCompact hook prints begin.
const ASKED: &str = "ctxguard: the user set or confirmed these commitments";

fn script() -> Script {
    Script::new()
        .turn(Turn::tool(
            "AskUserQuestion",
            json!({"questions": [{
                "question": QUESTION,
                "header": "Database",
                "multiSelect": false,
                "options": [
                    {"label": "SQLite", "description": "In memory, fast"},
                    {"label": "Postgres", "description": "The staging server"},
                ],
            }]}),
        ))
        .turn(Turn::plan_file(PLAN))
        .turn(Turn::tool("ExitPlanMode", json!({"plan": PLAN})))
        .turn(Turn::text(
            "I will migrate the orders table and keep every column.",
        ))
        .summary(FIRST_SUMMARY)
        .turn(Turn::text("Added the index on orders.created_at.").reporting(HUGE))
        .summary(SECOND_SUMMARY)
        .turn(Turn::text("The migration test is written."))
        .turn(Turn::text("All tests pass."))
}

/// Installs the guard with `ctxguard init claude-code`, which asks this
/// Claude Code for its version as it would on a user's machine.
pub fn init(claude: &Claude, extra: &[&str]) -> Result<Output, Failed> {
    let mut args = vec!["init", "claude-code", "--command", support::CTXGUARD];
    args.extend_from_slice(extra);
    let output = Command::new(support::CTXGUARD)
        .args(&args)
        .current_dir(&claude.project)
        .env("CTXGUARD_CLAUDE", claude.package.command())
        .env("HOME", &claude.home)
        .output()
        .map_err(|e| format!("ctxguard could not be started: {e}"))?;
    ensure(output.status.success(), || {
        format!("ctxguard init claude-code failed\n{}", said(&output))
    })?;
    let written_for = format!("for Claude Code {}:", claude.package.version);
    ensure(
        String::from_utf8_lossy(&output.stdout).contains(&written_for),
        || {
            format!(
                "init did not write for the version `claude --version` names ({written_for})\n{}",
                said(&output)
            )
        },
    )?;
    Ok(output)
}

/// The ledger's records of `kind` (`pinned`, `compacted`, …).
fn entries<'a>(ledger: &'a [Value], kind: &str) -> Vec<&'a Value> {
    ledger.iter().filter(|e| e["event"] == kind).collect()
}

pub fn guard(package: &Package) -> Result<(), Failed> {
    let version = Version::parse(&package.version).ok_or("the matrix names no version")?;
    let server = Server::start(Anthropic, script());
    let claude = Claude::new(package, "guard", &server.url());
    init(&claude, &[])?;
    let written: Value = serde_json::from_str(
        &std::fs::read_to_string(claude.settings()).map_err(|e| e.to_string())?,
    )
    .map_err(|e| format!("init wrote settings that are not strict JSON: {e}"))?;
    ensure(
        written["hooks"].get("PostCompact").is_some() == facts::has_post_compact(&version),
        || format!("init wrote PostCompact for {version}: {written}"),
    )?;
    let prompts = [
        first_prompt(),
        "/compact".to_owned(),
        "Add an index on orders.created_at.".to_owned(),
        "Now write the migration test.".to_owned(),
    ];
    let prompts: Vec<&str> = prompts.iter().map(String::as_str).collect();
    // In plan mode: the plan is approved (`ExitPlanMode`) before the work.
    let sdk = claude.session_with(
        &["--permission-mode", "plan"],
        &prompts,
        &[(QUESTION, "SQLite")],
    )?;
    let session = sdk
        .session
        .clone()
        .ok_or("the SDK session named no session id")?;
    let resumed = claude.print("Run the tests.", Some(&session));
    ensure(resumed.status.success(), || {
        format!("claude -p --resume failed\n{}", said(&resumed))
    })?;
    let transcript = claude.transcript(&session)?;
    let ledger_path = claude
        .project
        .join(".ctxguard")
        .join("ledger")
        .join(format!("{session}.jsonl"));
    let ledger = support::records(&ledger_path);
    let log = server.log();
    server.save(&claude.dir.join("requests.jsonl"));
    let context = || {
        format!(
            "\ntranscript {}\nledger {}\nrequests: {:?}",
            transcript.display(),
            ledger_path.display(),
            log.iter()
                .map(|e| (e.kind, e.scripted.clone()))
                .collect::<Vec<_>>()
        )
    };

    // The real client compacted twice, by hand and by itself.
    let boundaries = support::lines_where(&transcript, |r| r["subtype"] == "compact_boundary");
    ensure(boundaries.len() == 2, || {
        format!(
            "expected a manual and an automatic compaction, found {} boundaries{}",
            boundaries.len(),
            context()
        )
    })?;
    let triggers: Vec<Value> = of_type(&transcript, "system", Some("compact_boundary"))
        .iter()
        .map(|b| b["compactMetadata"]["trigger"].clone())
        .collect();
    ensure(triggers == [json!("manual"), json!("auto")], || {
        format!("compaction triggers {triggers:?}{}", context())
    })?;
    ensure(server.unused() == (0, 0), || {
        format!(
            "the script was not used up: {:?}{}",
            server.unused(),
            context()
        )
    })?;

    // The hooks ran: the pins and the answer are in the ledger, each
    // compaction snapshotted with its trigger.
    for text in [CONSTRAINT, IDENTIFIER] {
        ensure(
            entries(&ledger, "pinned").iter().any(|e| e["text"] == text),
            || format!("the ledger holds no pin `{text}`{}", context()),
        )?;
    }
    let answer = format!("{QUESTION} → SQLite");
    ensure(
        entries(&ledger, "confirmed")
            .iter()
            .any(|e| e["text"] == answer),
        || format!("the ledger holds no confirmed `{answer}`{}", context()),
    )?;
    ensure(
        entries(&ledger, "confirmed")
            .iter()
            .any(|e| e["key"] == "approved-plan" && e["text"] == PLAN),
        || format!("the ledger holds no approved plan{}", context()),
    )?;
    let snapshots: Vec<Value> = entries(&ledger, "compacted")
        .iter()
        .map(|e| e["trigger"].clone())
        .collect();
    ensure(snapshots == [json!("manual"), json!("auto")], || {
        format!("PreCompact snapshots {snapshots:?}{}", context())
    })?;

    // Before each compaction the compactor was asked to keep every active
    // commitment word for word: what the PreCompact hook printed stands in
    // the compaction request's instructions (its last user message; 2.1.332
    // puts a system note after it), after the client's own.
    for (n, request) in server.of(Kind::Compaction).iter().enumerate() {
        let instructions = request.body["messages"]
            .as_array()
            .and_then(|m| {
                m.iter()
                    .rev()
                    .filter(|m| m["role"] == "user")
                    .map(content_text)
                    .next()
            })
            .unwrap_or_default();
        let at = instructions.find(ASKED).ok_or_else(|| {
            format!(
                "compaction {}: the compaction's instructions do not carry ctxguard's{}",
                n + 1,
                context()
            )
        })?;
        ensure(instructions[..at].contains("summary"), || {
            format!(
                "compaction {}: ctxguard's instructions replaced the client's own{}",
                n + 1,
                context()
            )
        })?;
        for commitment in [CONSTRAINT, IDENTIFIER, REQUIREMENT, answer.as_str(), PLAN] {
            ensure(instructions[at..].contains(commitment), || {
                format!(
                    "compaction {}: the compactor was not asked to keep `{commitment}`{}",
                    n + 1,
                    context()
                )
            })?;
        }
    }

    // The summary check: by PostCompact on a version that has it; on an
    // older one by SessionStart, or at the next prompt when the client
    // writes the summary to the transcript after SessionStart ran (2.0.76
    // does): either way each names what the first summary dropped and
    // renamed, and what was said after a compaction is not judged by it.
    // Each compaction's checks: the first, and at most one more, made at
    // the next prompt once the transcript holds the summary with what the
    // compaction preserved (`carried`); here nothing was preserved, so it
    // finds what the first found.
    let mut by_compaction: Vec<Vec<&Value>> = Vec::new();
    for entry in &ledger {
        match entry["event"].as_str() {
            Some("compacted") => by_compaction.push(Vec::new()),
            Some("verified") => {
                if let Some(checks) = by_compaction.last_mut() {
                    checks.push(entry);
                }
            }
            _ => {}
        }
    }
    let checked: Vec<&Vec<&Value>> = by_compaction.iter().filter(|c| !c.is_empty()).collect();
    ensure(
        checked.len() == 2
            && checked.iter().all(|c| {
                c.len() == 1
                    || (c.len() == 2
                        && c[1]["carried"] == true
                        && c[1]["lost"] == c[0]["lost"]
                        && c[1]["altered"] == c[0]["altered"])
            }),
        || {
            format!(
                "the summary checks, by compaction: {by_compaction:?}{}",
                context()
            )
        },
    )?;
    let checks: Vec<&Value> = checked.iter().map(|c| c[0]).collect();
    let constraint = support::id_of(&ledger, CONSTRAINT).ok_or("no id for the constraint")?;
    let identifier = support::id_of(&ledger, IDENTIFIER).ok_or("no id for the identifier")?;
    let index = support::id_of(&ledger, "Add an index on orders.created_at.")
        .ok_or("no id for the prompt typed after the first compaction")?;
    let named = |field: &str, id: &str| {
        checks[0][field]
            .as_array()
            .is_some_and(|ids| ids.iter().any(|i| i == id))
    };
    ensure(named("lost", &constraint), || {
        format!(
            "the first check does not name the dropped constraint lost: {}{}",
            checks[0],
            context()
        )
    })?;
    ensure(
        named("altered", &identifier) || named("lost", &identifier),
        || {
            format!(
                "the first check does not name the renamed path: {}{}",
                checks[0],
                context()
            )
        },
    )?;
    ensure(!named("lost", &index), || {
        format!(
            "the first check judged a prompt typed after its compaction: {}{}",
            checks[0],
            context()
        )
    })?;
    if !facts::has_post_compact(&version) {
        // The client took the hook's system message, which it shows the
        // user as a hook message (`claude -p` and the SDK stream print
        // none): its debug log says so.
        let debug = support::files(&claude.home.join(".claude").join("debug"), ".txt");
        let parsed = debug.iter().any(|path| {
            std::fs::read_to_string(path).is_ok_and(|log| {
                log.lines().any(|line| {
                    line.contains("Parsed initial response: {\"systemMessage\":\"ctxguard: the compaction summary lost")
                })
            })
        });
        ensure(parsed, || {
            format!(
                "the client was not given what the summary lost as a system message{}",
                context()
            )
        })?;
    }

    // What the model saw after each compaction, and after the resume:
    // every commitment, byte for byte.
    let after = |i: usize| server.turn_after_compaction(i);
    let resumed_request = log
        .iter()
        .rev()
        .find(|e| e.kind == Kind::Turn)
        .map(|e| e.text())
        .unwrap_or_default();
    for (what, text) in [
        ("after the manual compaction", after(0)),
        ("after the automatic compaction", after(1)),
        ("after the resume", resumed_request),
    ] {
        for commitment in [CONSTRAINT, IDENTIFIER, REQUIREMENT, answer.as_str()] {
            ensure(text.contains(commitment), || {
                format!("the model was not given `{commitment}` {what}{}", context())
            })?;
        }
    }

    // The client's own record of what SessionStart gave back: from 2.1.97
    // the transcript keeps it, every commitment byte for byte, after each
    // compaction; before, it keeps nothing (which is why SessionStart gives
    // the commitments back again on resume).
    let kept: Vec<String> = support::records(&transcript)
        .iter()
        .filter(|r| r["attachment"]["type"] == "hook_additional_context")
        .map(|r| r["attachment"].to_string())
        .collect();
    if facts::keeps_context(&version) {
        ensure(kept.len() >= boundaries.len(), || {
            format!(
                "{version} keeps SessionStart's context, the transcript has {} for {} compactions{}",
                kept.len(),
                boundaries.len(),
                context()
            )
        })?;
        for commitment in [CONSTRAINT, IDENTIFIER, REQUIREMENT] {
            let quoted = serde_json::to_string(commitment).unwrap_or_default();
            let quoted = quoted.trim_matches('"');
            ensure(kept.iter().all(|k| k.contains(quoted)), || {
                format!(
                    "the transcript's SessionStart context lacks `{commitment}`{}",
                    context()
                )
            })?;
        }
    } else {
        ensure(kept.is_empty(), || {
            format!(
                "{version} was thought to keep no SessionStart context, the transcript has {}{}",
                kept.len(),
                context()
            )
        })?;
    }

    // The transcript the real client wrote imports, every compaction at
    // its line, and the audit judges it as the ledger did.
    let (events, _) = support::audited(&claude.dir, &transcript, &boundaries)?;
    let outcome = |event: &Value, text: &str| {
        event["commitments"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["text"] == text))
            .map(|c| c["outcome"].clone())
    };
    ensure(
        outcome(&events[0], CONSTRAINT) == Some(json!("lost")),
        || {
            format!(
                "audit: the dropped constraint is {:?} at compaction 1",
                outcome(&events[0], CONSTRAINT)
            )
        },
    )?;
    ensure(
        outcome(&events[0], IDENTIFIER) == Some(json!("altered")),
        || {
            format!(
                "audit: the renamed path is {:?} at compaction 1",
                outcome(&events[0], IDENTIFIER)
            )
        },
    )?;
    ensure(
        outcome(&events[0], REQUIREMENT) == Some(json!("verbatim")),
        || {
            format!(
                "audit: the kept requirement is {:?} at compaction 1",
                outcome(&events[0], REQUIREMENT)
            )
        },
    )?;
    ensure(
        outcome(&events[1], REQUIREMENT) == Some(json!("lost")),
        || {
            format!(
                "audit: the requirement the second summary dropped is {:?}",
                outcome(&events[1], REQUIREMENT)
            )
        },
    )?;
    let import_dir = claude.dir.join("import");
    let import = support::ctxguard(
        &claude.dir,
        &[
            "import",
            "--out",
            &import_dir.to_string_lossy(),
            &transcript.to_string_lossy(),
        ],
    );
    ensure(
        import.status.success() && import_dir.join("2").join("plan.json").is_file(),
        || format!("import did not write both compactions\n{}", said(&import)),
    )?;
    crate::fixtures::keep(
        &format!("claude-code-{}", package.version),
        "guard",
        &claude.dir,
        &transcript,
        &ledger_path,
    )?;
    Ok(())
}

/// A policy whose commitment budget no pin fits: PreCompact refuses.
const TIGHT: &str = "policy tight\n\nkind constraint {\n  doc \"A rule the user asserted.\"\n  hint /\\b(must|never|do not)\\b/i\n}\n\ntokenizer o200k_base\nbudget window 400\nbudget commitments 2%\n\non mismatch reject\non unclassified keep\non over-budget escalate\n";

/// ctxguard refuses a compaction the commitments cannot survive: a
/// version from 2.1.105 does not compact; an older one compacts, and the
/// user is told ctxguard could not stop it.
pub fn refusal(package: &Package) -> Result<(), Failed> {
    let version = Version::parse(&package.version).ok_or("the matrix names no version")?;
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will keep every column."))
            .summary(FIRST_SUMMARY),
    );
    let claude = Claude::new(package, "refusal", &server.url());
    std::fs::write(claude.project.join("tight.policy"), TIGHT).map_err(|e| e.to_string())?;
    init(&claude, &["--policy", "tight.policy"])?;
    let sdk = claude.session(&[&first_prompt(), "/compact"], &[])?;
    let session = sdk
        .session
        .clone()
        .ok_or("the SDK session named no session id")?;
    let transcript = claude.transcript(&session)?;
    let boundaries = support::lines_where(&transcript, |r| r["subtype"] == "compact_boundary");
    let said_to_user = format!(
        "{}\n{}",
        serde_json::to_string(&sdk.messages).unwrap_or_default(),
        sdk.stderr
    );
    let ledger_path = claude
        .project
        .join(".ctxguard")
        .join("ledger")
        .join(format!("{session}.jsonl"));
    let ledger = support::records(&ledger_path);
    let blocked = entries(&ledger, "compacted")
        .iter()
        .any(|e| e["blocked"] == true);
    ensure(blocked, || {
        format!(
            "PreCompact did not refuse: ledger {}",
            ledger_path.display()
        )
    })?;
    if facts::can_refuse(&version) {
        ensure(boundaries.is_empty(), || {
            format!(
                "{version} compacted although ctxguard refused: {}",
                transcript.display()
            )
        })?;
        ensure(
            said_to_user.contains("ctxguard blocked this compaction"),
            || format!("the refusal's reason did not reach the user:\n{said_to_user}"),
        )?;
    } else {
        ensure(boundaries.len() == 1, || {
            format!("{version} is expected to compact anyway; boundaries {boundaries:?}")
        })?;
        let honest =
            format!("ctxguard cannot stop this compaction (Claude Code {version} compacts anyway");
        ensure(said_to_user.contains(&honest), || {
            format!("the user was not told ctxguard could not stop it:\n{said_to_user}")
        })?;
    }
    Ok(())
}
