//! pi, driven as a person runs it: `pi -p PROMPT`, then `pi -p -c PROMPT`
//! to continue, against an Anthropic Messages provider on loopback
//! (`~/.pi/agent/models.json`) whose usage makes pi compact on its own.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use libtest_mimic::Failed;
use serde_json::json;

use crate::claude_code::output_within;
use crate::npm::Package;
use crate::server::anthropic::Anthropic;
use crate::server::{Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[("session", session), ("guard", guard)];

const CONSTRAINT: &str = "Do not drop columns.";
const IDENTIFIER: &str = "src/legacy/parser_v2.py";
const REQUIREMENT: &str = "Use the staging database only for read queries.";

/// The model's window; pi compacts above it less its reserve (16,384).
const WINDOW: u64 = 20_000;

/// The tokens pi keeps unsummarized.
const KEEP: u64 = 15;

struct Pi {
    package: Package,
    dir: PathBuf,
    home: PathBuf,
    project: PathBuf,
}

impl Pi {
    fn new(package: &Package, trial: &str, url: &str) -> Result<Pi, Failed> {
        let (dir, home, project) = support::folders(
            &format!("pi-{}-{trial}", package.version),
            "home",
            ".pi/agent",
        )?;
        let agent = home.join(".pi").join("agent");
        let models = json!({"providers": {"offline": {
            "baseUrl": url,
            "api": "anthropic-messages",
            "apiKey": "offline-test-key",
            "models": [{"id": "offline-model", "name": "offline-model", "contextWindow": WINDOW, "maxTokens": 4096}],
        }}});
        std::fs::write(agent.join("models.json"), models.to_string()).map_err(|e| e.to_string())?;
        // Keep only the last turn (its two messages are about 17 tokens as
        // pi estimates them): what came before is summarized.
        let settings = json!({"compaction": {"keepRecentTokens": KEEP}});
        std::fs::write(agent.join("settings.json"), settings.to_string())
            .map_err(|e| e.to_string())?;
        Ok(Pi {
            package: package.clone(),
            dir,
            home,
            project,
        })
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        let mut command = Command::new(self.package.command());
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("PI_OFFLINE", "1")
            .env("CTXGUARD_LEDGER_DIR", self.dir.join("ledger"))
            .current_dir(&self.project)
            .args([
                "-p",
                "--offline",
                "--provider",
                "offline",
                "--model",
                "offline-model",
            ])
            .args(args);
        output_within(command, Duration::from_secs(120))
    }

    fn sessions(&self) -> Vec<PathBuf> {
        support::files(
            &self.home.join(".pi").join("agent").join("sessions"),
            ".jsonl",
        )
    }
}

/// The compaction entries of a pi session, by line.
fn compactions(path: &Path) -> Vec<usize> {
    support::lines_where(path, |r| r["type"] == "compaction")
}

fn session(package: &Package) -> Result<(), Failed> {
    let over = WINDOW;
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will migrate the orders table and keep every column."))
            .turn(Turn::text("Added the index on orders.created_at.").reporting(over))
            .summary(&format!(
                "## Goal\nMigrate the orders table to the new schema. {REQUIREMENT}\n\n## Key facts\n- The legacy parser is src/legacy/parser.py."
            ))
            .turn(Turn::text("The migration test is written.").reporting(over))
            .summary("## Goal\nThe orders table is being migrated; an index on orders.created_at was added.")
            .turn(Turn::text("All tests pass.")),
    );
    let pi = Pi::new(package, "session", &server.url())?;
    let first = format!(
        "Migrate the orders table to the new schema. {CONSTRAINT} Keep the legacy parser at {IDENTIFIER}. {REQUIREMENT}"
    );
    let runs = [
        pi.run(&[&first]),
        pi.run(&["-c", "Add an index on orders.created_at."]),
        pi.run(&["-c", "Now write the migration test."]),
        pi.run(&["-c", "Run the tests."]),
    ];
    server.save(&pi.dir.join("requests.jsonl"));
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("pi run {} failed\n{}", n + 1, said(run))
        })?;
    }
    let sessions = pi.sessions();
    ensure(sessions.len() == 1, || {
        format!("expected one session continued, found {sessions:?}")
    })?;
    let file = &sessions[0];
    let lines = compactions(file);
    ensure(
        lines.len() == 2 && server.of(Kind::Compaction).len() == 2,
        || {
            format!(
            "expected two automatic compactions: the session records {}, the server was asked {}: {}",
            lines.len(),
            server.of(Kind::Compaction).len(),
            file.display()
        )
        },
    )?;
    ensure(server.unused() == (0, 0), || {
        format!("the script was not used up: {:?}", server.unused())
    })?;
    let (events, said_by_audit) = support::audited(&pi.dir, file, &lines)?;
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
    crate::fixtures::keep(
        &format!("pi-{}", package.version),
        "session",
        &pi.dir,
        file,
        Path::new(""),
    )
}

/// ctxguard's guard, installed by `ctxguard init pi` as an extension of the
/// project, in real runs: pins typed, an automatic compaction whose summary
/// drops the constraint and renames the path, the session continued by a
/// new process; then a policy whose budget no pin fits, and the
/// compaction cancelled.
fn guard(package: &Package) -> Result<(), Failed> {
    let over = WINDOW;
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will migrate the orders table."))
            .turn(Turn::text("Added the index on orders.created_at.").reporting(over))
            .summary(&format!(
                "## Goal\nMigrate the orders table to the new schema. {REQUIREMENT}\n\n## Key facts\n- The legacy parser is src/legacy/parser.py."
            ))
            .turn(Turn::text("The migration test is written.")),
    );
    let pi = Pi::new(package, "guard", &server.url())?;
    support::init("pi", &pi.project, None, &[])?;
    let first = format!(
        "pin constraint no-drop: {CONSTRAINT}\npin identifier legacy-parser: {IDENTIFIER}\n\nMigrate the orders table to the new schema. {REQUIREMENT}"
    );
    // pi keeps the last turn unsummarized: the pins of the first are
    // left to the summary.
    let runs = [
        pi.run(&[&first]),
        pi.run(&["-c", "Add an index on orders.created_at."]),
        pi.run(&["-c", "Now write the migration test."]),
    ];
    server.save(&pi.dir.join("requests.jsonl"));
    let (ledgers, ledger) = support::ledger_in(&pi.dir.join("ledger"));
    let sessions = pi.sessions();
    let context = || {
        format!(
            "\nsessions {sessions:?}\nledger {ledgers:?}\nruns:\n{}\n{}",
            said(&runs[1]),
            said(&runs[2])
        )
    };
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("pi run {} failed{}", n + 1, context())
        })?;
    }
    let file = sessions.first().ok_or("pi wrote no session")?;
    ensure(compactions(file).len() == 1, || {
        format!("expected one compaction{}", context())
    })?;
    support::pinned_and_checked(&ledger, &[CONSTRAINT, IDENTIFIER], CONSTRAINT, &context)?;
    // The user was told what the summary lost (pi -p: on standard error).
    support::told_on_stderr(
        &runs,
        "lost     [constraint] Do not drop columns.",
        &context,
    )?;
    // The next turn, in a new process, gives the model every commitment
    // word for word, once.
    let after = server.turn_after_compaction(0);
    support::given_back_once(&after, &[CONSTRAINT, IDENTIFIER, REQUIREMENT], &context)?;
    crate::fixtures::keep(
        &format!("pi-{}", package.version),
        "guard",
        &pi.dir,
        file,
        ledgers.first().map_or(Path::new(""), PathBuf::as_path),
    )?;

    // A policy whose budget no pin fits: the extension cancels the
    // compaction, and the user is told why.
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will keep every column.").reporting(over))
            .turn(Turn::text("Done.")),
    );
    let tight = Pi::new(package, "guard-tight", &server.url())?;
    std::fs::write(tight.project.join("tight.policy"), TIGHT).map_err(|e| e.to_string())?;
    support::init("pi", &tight.project, None, &["--policy", "tight.policy"])?;
    let run = tight.run(&[&first]);
    let again = tight.run(&["-c", "Go on."]);
    let sessions = tight.sessions();
    let file = sessions.first().ok_or("pi wrote no session")?;
    ensure(compactions(file).is_empty(), || {
        format!(
            "pi compacted although ctxguard refused: {}\n{}\n{}",
            file.display(),
            said(&run),
            said(&again)
        )
    })?;
    let said_to_user = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stderr),
        String::from_utf8_lossy(&again.stderr)
    );
    ensure(
        said_to_user.contains("ctxguard cancelled this compaction"),
        || format!("the user was not told why:\n{said_to_user}"),
    )?;
    Ok(())
}

/// A policy whose commitment budget no pin fits.
const TIGHT: &str = "policy tight\n\nkind constraint {\n  doc \"A rule the user asserted.\"\n  hint /\\b(must|never|do not)\\b/i\n}\n\ntokenizer o200k_base\nbudget window 400\nbudget commitments 2%\n\non mismatch reject\non unclassified keep\non over-budget escalate\n";
