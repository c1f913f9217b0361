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

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[("session", session)];

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
        let dir = support::workdir(&format!("codex-{}-{trial}", package.version));
        let home = dir.join("codex-home");
        let project = dir.join("project");
        for folder in [&home, &project] {
            std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
        }
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
            .current_dir(&self.project)
            .arg("exec")
            .args(args);
        output_within(command, Duration::from_secs(120))
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
