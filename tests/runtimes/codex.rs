//! Codex CLI, driven as a person runs it: `codex exec PROMPT`, then
//! `codex exec resume --last PROMPT`, against a model provider on loopback
//! whose usage makes Codex compact on its own before the next turn.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use libtest_mimic::Failed;
use serde_json::json;

use crate::claude_code::output_within;
use crate::npm::Package;
use crate::server::responses::Responses;
use crate::server::{Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[("session", session), ("guard", guard)];

const CONSTRAINT: &str = "Do not drop columns.";
const IDENTIFIER: &str = "src/legacy/parser_v2.py";
const REQUIREMENT: &str = "Use the staging database only for read queries.";

/// The token count above which Codex compacts before its next turn.
const LIMIT: u64 = 5_000;

struct Codex {
    package: Package,
    dir: PathBuf,
    home: PathBuf,
    project: PathBuf,
}

impl Codex {
    fn new(package: &Package, trial: &str, url: &str) -> Result<Codex, Failed> {
        let (dir, home, project) = support::folders(
            &format!("codex-{}-{trial}", package.version),
            "codex-home",
            "",
        )?;
        let config = format!(
            "model = \"offline-model\"\nmodel_provider = \"offline\"\nmodel_auto_compact_token_limit = {LIMIT}\nmodel_context_window = 200000\n\n[model_providers.offline]\nname = \"offline\"\nbase_url = \"{url}/v1\"\nenv_key = \"OFFLINE_API_KEY\"\nwire_api = \"responses\"\n"
        );
        std::fs::write(home.join("config.toml"), config).map_err(|e| e.to_string())?;
        Ok(Codex {
            package: package.clone(),
            dir,
            home,
            project,
        })
    }

    fn exec(&self, args: &[&str]) -> std::process::Output {
        let mut command = Command::new(self.package.command());
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir.join("home"))
            .env("CODEX_HOME", &self.home)
            .env("OFFLINE_API_KEY", "offline-test-key")
            .env("CTXGUARD_LEDGER_DIR", self.ledger_dir())
            .current_dir(&self.project)
            .arg("exec")
            .args(args);
        output_within(command, Duration::from_secs(120))
    }

    /// Where ctxguard's hooks keep their ledgers in this trial.
    fn ledger_dir(&self) -> PathBuf {
        self.dir.join("ledger")
    }

    /// The rollout files Codex wrote.
    fn rollouts(&self) -> Vec<PathBuf> {
        support::files(&self.home.join("sessions"), ".jsonl")
    }
}

/// The `compacted` records of a rollout, by line.
fn compactions(path: &Path) -> Vec<usize> {
    support::lines_where(path, |r| r["type"] == "compacted")
}

/// The text of the last input of a compaction request: the prompt.
fn compaction_prompt(body: &serde_json::Value) -> String {
    body["input"]
        .as_array()
        .and_then(|input| input.last())
        .and_then(|last| last["content"].as_array())
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p["text"].as_str())
                .collect::<String>()
        })
        .unwrap_or_default()
}

/// A log of about `bytes`, as a person pastes one.
fn pasted_log(bytes: usize) -> String {
    let mut log = String::from("Here is the log of the last migration run:\n");
    let mut n = 0;
    while log.len() < bytes {
        log.push_str(&format!(
            "2026-12-01T10:{:02}:{:02}Z INFO migrate step={n} table=orders rows_copied={} ok\n",
            (n / 60) % 60,
            n % 60,
            n * 1_000
        ));
        n += 1;
    }
    log
}

/// Codex keeps the user's own messages in the compacted history, newest
/// first, up to a budget (about 20,000 tokens); a long paste pushes the
/// first prompt out, and only the summary can still hold what it said.
fn session(package: &Package) -> Result<(), Failed> {
    let summary_one = format!(
        "The user is migrating the orders table to the new schema. {REQUIREMENT} The legacy parser is src/legacy/parser.py. The last run's log was pasted."
    );
    let summary_two = "The orders table is being migrated; the migration test was written.";
    let over = LIMIT * 2;
    let server = Server::start(
        Responses,
        Script::new()
            .turn(Turn::text(
                "I will migrate the orders table and keep every column.",
            ))
            .turn(Turn::text("The log shows every step went through.").reporting(over))
            .summary(&summary_one)
            .turn(Turn::text("The migration test is written.").reporting(over))
            .summary(summary_two)
            .turn(Turn::text("All tests pass.")),
    );
    let codex = Codex::new(package, "session", &server.url())?;
    let first = format!(
        "Migrate the orders table to the new schema. {CONSTRAINT} Keep the legacy parser at {IDENTIFIER}. {REQUIREMENT}"
    );
    let paste = pasted_log(100_000);
    let resume = |prompt: &str| codex.exec(&["--skip-git-repo-check", "resume", "--last", prompt]);
    let runs = [
        codex.exec(&["--skip-git-repo-check", &first]),
        resume(&paste),
        resume("Now write the migration test."),
        resume("Run the tests."),
    ];
    server.save(&codex.dir.join("requests.jsonl"));
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("codex exec run {} failed\n{}", n + 1, said(run))
        })?;
    }
    let rollouts = codex.rollouts();
    ensure(rollouts.len() == 1, || {
        format!("expected one rollout (a session resumed), found {rollouts:?}")
    })?;
    let rollout = &rollouts[0];
    let lines = compactions(rollout);
    ensure(
        lines.len() == 2 && server.of(Kind::Compaction).len() == 2,
        || {
            format!(
            "expected two automatic compactions, the rollout records {} and the server was asked {}: {}",
            lines.len(),
            server.of(Kind::Compaction).len(),
            rollout.display()
        )
        },
    )?;
    // What Codex really kept: the paste, cut to its budget; not the first
    // prompt.
    let kept: Vec<String> = support::records(rollout)
        .iter()
        .filter(|r| r["type"] == "compacted")
        .map(|r| r["payload"]["replacement_history"].to_string())
        .collect();
    ensure(
        !kept[0].contains(CONSTRAINT) && kept[0].contains("migrate step=0 "),
        || {
            format!(
                "Codex's first compaction kept the first prompt or lost the paste: {}",
                rollout.display()
            )
        },
    )?;
    ensure(server.unused() == (0, 0), || {
        format!("the script was not used up: {:?}", server.unused())
    })?;
    // Codex still sends the compaction prompt `init codex` builds on.
    for request in server.of(Kind::Compaction) {
        let prompt = compaction_prompt(&request.body);
        ensure(prompt == ctxguard::init::CODEX_DEFAULT_PROMPT, || {
            format!("Codex's default compaction prompt moved on: ctxguard's prompt file is built on the old one\n{prompt:?}")
        })?;
    }
    // The rollout imports with each compaction at its line, and the audit
    // judges what the summaries did.
    let (events, said_by_audit) = support::audited(&codex.dir, rollout, &lines)?;
    let outcome = support::outcome_holding;
    ensure(
        outcome(&events[0], CONSTRAINT) == Some(json!("lost")),
        || {
            format!(
                "audit: the dropped constraint is {:?} at compaction 1\n{}",
                outcome(&events[0], CONSTRAINT),
                said_by_audit
            )
        },
    )?;
    ensure(
        outcome(&events[0], REQUIREMENT) == Some(json!("verbatim")),
        || {
            format!(
                "audit: the requirement the summary kept is {:?} at compaction 1",
                outcome(&events[0], REQUIREMENT)
            )
        },
    )?;
    for text in [CONSTRAINT, REQUIREMENT] {
        ensure(outcome(&events[1], text) == Some(json!("lost")), || {
            format!("audit: `{text}`, in neither the second summary nor Codex's history, is {:?} at compaction 2", outcome(&events[1], text))
        })?;
    }
    crate::fixtures::keep(
        &format!("codex-{}", package.version),
        "session",
        &codex.dir,
        rollout,
        Path::new(""),
    )
}

/// ctxguard's guard, installed by `ctxguard init codex --user`, in a real
/// session: pins typed, an automatic compaction whose scripted summary
/// drops the constraint and renames the path, and the next turn.
fn guard(package: &Package) -> Result<(), Failed> {
    let summary = format!(
        "The user is migrating the orders table to the new schema. {REQUIREMENT} The legacy parser is src/legacy/parser.py."
    );
    let over = LIMIT * 2;
    // Codex carries the user's own messages over word for word, newest
    // first, up to a budget: a long paste pushes the pinned prompt out, so
    // only the summary could still hold it.
    let server = Server::start(
        Responses,
        Script::new()
            .turn(Turn::text("I will migrate the orders table."))
            .turn(Turn::text("The log shows every step went through.").reporting(over))
            .summary(&summary)
            .turn(Turn::text("The index is added.")),
    );
    let codex = Codex::new(package, "guard", &server.url())?;
    let init = Command::new(support::CTXGUARD)
        .args(["init", "codex", "--user", "--command", support::CTXGUARD])
        .env("CODEX_HOME", &codex.home)
        .current_dir(&codex.project)
        .output()
        .map_err(|e| format!("ctxguard could not be started: {e}"))?;
    ensure(init.status.success(), || {
        format!("ctxguard init codex failed\n{}", said(&init))
    })?;
    let first = format!(
        "pin constraint no-drop: {CONSTRAINT}\npin identifier legacy-parser: {IDENTIFIER}\n\nMigrate the orders table to the new schema. {REQUIREMENT}"
    );
    // Codex runs hooks a person has trusted; the trial stands in for that
    // review with the flag made for automation.
    let trusted = "--dangerously-bypass-hook-trust";
    let run = |args: &[&str]| codex.exec(args);
    let paste = pasted_log(100_000);
    let runs = [
        run(&["--skip-git-repo-check", trusted, &first]),
        run(&["--skip-git-repo-check", trusted, "resume", "--last", &paste]),
        run(&[
            "--skip-git-repo-check",
            trusted,
            "resume",
            "--last",
            "Add an index on orders.created_at.",
        ]),
    ];
    server.save(&codex.dir.join("requests.jsonl"));
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("codex exec run {} failed\n{}", n + 1, said(run))
        })?;
    }
    let rollouts = codex.rollouts();
    let rollout = rollouts.first().ok_or("Codex wrote no rollout")?;
    let ledgers = support::files(&codex.ledger_dir(), ".jsonl");
    let ledger = ledgers
        .first()
        .map(|path| support::records(path))
        .unwrap_or_default();
    let context = || {
        format!(
            "\nrollout {}\nledger {:?}\nruns:\n{}\n{}",
            rollout.display(),
            ledgers,
            said(&runs[0]),
            said(&runs[2])
        )
    };
    ensure(compactions(rollout).len() == 1, || {
        format!("expected one compaction{}", context())
    })?;
    // UserPromptSubmit: the pins are in the ledger; PreCompact snapshotted.
    for text in [CONSTRAINT, IDENTIFIER] {
        ensure(
            ledger
                .iter()
                .any(|e| e["event"] == "pinned" && e["text"] == text),
            || format!("the ledger holds no pin `{text}`{}", context()),
        )?;
    }
    ensure(ledger.iter().any(|e| e["event"] == "compacted"), || {
        format!("PreCompact recorded no snapshot{}", context())
    })?;
    // PostCompact: the summary, read from the rollout, checked.
    let id = |text: &str| support::id_of(&ledger, text).unwrap_or_default();
    let checks: Vec<&serde_json::Value> =
        ledger.iter().filter(|e| e["event"] == "verified").collect();
    let named = |field: &str, id: &str| {
        checks.first().is_some_and(|c| {
            c[field]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|i| i == id))
        })
    };
    ensure(
        checks.len() == 1
            && named("lost", &id(CONSTRAINT))
            && (named("altered", &id(IDENTIFIER)) || named("lost", &id(IDENTIFIER))),
        || format!("the summary checks: {checks:?}{}", context()),
    )?;
    // The compaction was asked with ctxguard's prompt file: Codex's own
    // prompt, then the policy's rules for commitments.
    for request in server.of(Kind::Compaction) {
        let prompt = compaction_prompt(&request.body);
        ensure(
            prompt.starts_with(ctxguard::init::CODEX_DEFAULT_PROMPT)
                && prompt.contains(ctxguard::init::PROMPT_MARK)
                && prompt.contains("Quote each one word for word"),
            || {
                format!(
                    "the compaction request's prompt is not ctxguard's\n{prompt:?}{}",
                    context()
                )
            },
        )?;
    }
    // Every hook's answer passed Codex's own check of hook output.
    let stderr = String::from_utf8_lossy(&runs[2].stderr);
    for event in [
        "PreCompact",
        "PostCompact",
        "SessionStart",
        "UserPromptSubmit",
    ] {
        ensure(stderr.contains(&format!("hook: {event} Completed")), || {
            format!("Codex did not take ctxguard's {event} answer{}", context())
        })?;
        ensure(!stderr.contains(&format!("hook: {event} Failed")), || {
            format!("Codex marked ctxguard's {event} hook failed{}", context())
        })?;
    }
    // SessionStart(compact): the model's next turn holds every pin word
    // for word, and the rollout keeps it.
    let after = server.turn_after_compaction(0);
    support::given_back_once(&after, &[CONSTRAINT, IDENTIFIER, REQUIREMENT], &context)?;
    ensure(
        after.contains("The summary lost 1 and altered 1 of them."),
        || {
            format!(
                "the re-injection does not say what the summary lost{}",
                context()
            )
        },
    )?;
    crate::fixtures::keep(
        &format!("codex-{}", package.version),
        "guard",
        &codex.dir,
        rollout,
        ledgers.first().map_or(Path::new(""), PathBuf::as_path),
    )
}
