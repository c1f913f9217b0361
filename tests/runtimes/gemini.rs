//! Gemini CLI, driven as a person runs it: `gemini -p PROMPT`, then
//! `gemini --resume latest -p PROMPT` to go on, against the Gemini API on
//! loopback (`GOOGLE_GEMINI_BASE_URL`). A resumed session estimates its
//! history's size from its text, so a tiny `model.compressionThreshold`
//! makes the second run compress before its turn.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use libtest_mimic::Failed;
use serde_json::json;

use crate::claude_code::output_within;
use crate::npm::Package;
use crate::server::gemini::Gemini;
use crate::server::{Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[("guard", guard)];

const CONSTRAINT: &str = "Do not drop columns.";
const IDENTIFIER: &str = "src/legacy/parser_v2.py";
const REQUIREMENT: &str = "Use the staging database only for read queries.";

/// The answer Gemini CLI writes after a compaction's summary.
const ACKNOWLEDGED: &str = "Got it. Thanks for the additional context!";

struct Cli {
    package: Package,
    dir: PathBuf,
    home: PathBuf,
    project: PathBuf,
    url: String,
}

impl Cli {
    fn new(package: &Package, trial: &str, url: &str) -> Result<Cli, Failed> {
        let (dir, home, project) = support::folders(
            &format!("gemini-cli-{}-{trial}", package.version),
            "home",
            ".gemini",
        )?;
        let settings = json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            // A fraction of the model's 1,048,576 tokens that a resumed
            // session of a few hundred words passes.
            "model": {"compressionThreshold": 0.00002},
        });
        std::fs::write(
            home.join(".gemini").join("settings.json"),
            settings.to_string(),
        )
        .map_err(|e| e.to_string())?;
        Ok(Cli {
            package: package.clone(),
            dir,
            home,
            project,
            url: url.to_owned(),
        })
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        let mut command = Command::new(self.package.command());
        command
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("GEMINI_API_KEY", "offline-test-key")
            .env("GOOGLE_GEMINI_BASE_URL", &self.url)
            .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
            .env("CTXGUARD_LEDGER_DIR", self.dir.join("ledger"))
            .current_dir(&self.project)
            .args(["-m", "gemini-2.5-pro"])
            .args(args);
        output_within(command, Duration::from_secs(120))
    }
}

/// ctxguard's guard, installed by `ctxguard init gemini-cli` in the
/// project, in real runs: pins typed, then a compaction whose summary
/// drops the constraint and renames the path. The request after it gives
/// the model every commitment word for word, once, after the summary; the
/// check is in the ledger and said on standard error.
fn guard(package: &Package) -> Result<(), Failed> {
    let summary = format!(
        "<state_snapshot>\n<overall_goal>Migrate the orders table to the new schema. {REQUIREMENT}</overall_goal>\n<key_knowledge>The legacy parser is src/legacy/parser.py.</key_knowledge>\n</state_snapshot>"
    );
    let server = Server::start(
        Gemini,
        Script::new()
            .turn(Turn::text("I will migrate the orders table."))
            .summary(&summary)
            .turn(Turn::text("Added the index on orders.created_at.")),
    );
    let cli = Cli::new(package, "guard", &server.url())?;
    support::init("gemini-cli", &cli.project, None, &[])?;
    // Enough words before the compaction that the summary is the shorter:
    // a summary longer than what it replaces is thrown away.
    let narrative =
        "We walked through the importer, its tests, the fixtures and the rollout notes. "
            .repeat(30);
    let first = format!(
        "pin constraint no-drop: {CONSTRAINT}\npin identifier legacy-parser: {IDENTIFIER}\n\nMigrate the orders table to the new schema. {REQUIREMENT}\n\n{narrative}"
    );
    let runs = [
        cli.run(&["-p", &first]),
        cli.run(&[
            "--resume",
            "latest",
            "-p",
            "Add an index on orders.created_at.",
        ]),
    ];
    server.save(&cli.dir.join("requests.jsonl"));
    let (ledgers, ledger) = support::ledger_in(&cli.dir.join("ledger"));
    let context = || {
        format!(
            "\nledger {ledgers:?}\nrequests {}\nruns:\n{}\n{}",
            cli.dir.join("requests.jsonl").display(),
            said(&runs[0]),
            said(&runs[1])
        )
    };
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("gemini run {} failed{}", n + 1, context())
        })?;
    }
    ensure(server.of(Kind::Compaction).len() == 1, || {
        format!(
            "expected one compaction, the server was asked {}{}",
            server.of(Kind::Compaction).len(),
            context()
        )
    })?;
    support::pinned_and_checked(&ledger, &[CONSTRAINT, IDENTIFIER], CONSTRAINT, &context)?;
    // Gemini CLI writes a hook's message to its debug log, which `-p`
    // prints on standard error.
    support::told_on_stderr(
        &runs[1..],
        "lost     [constraint] Do not drop columns.",
        &context,
    )?;
    // The turn after the compaction: the summary, answered by the client,
    // then every commitment word for word, once.
    let after = server.turn_after_compaction(0);
    ensure(
        after.contains("<overall_goal>Migrate the orders table") && after.contains(ACKNOWLEDGED),
        || {
            format!(
                "the request after the compaction lost its summary{}",
                context()
            )
        },
    )?;
    support::given_back_once(&after, &[CONSTRAINT, IDENTIFIER, REQUIREMENT], &context)?;
    // The chat file records the compressed history: the summary stands in
    // it (the client rewrites its messages).
    let chats = support::files(&cli.home.join(".gemini").join("tmp"), ".jsonl");
    ensure(
        chats.iter().any(|chat| {
            std::fs::read_to_string(chat).is_ok_and(|text| text.contains("src/legacy/parser.py"))
        }),
        || format!("no chat file holds the summary: {chats:?}{}", context()),
    )?;
    Ok(())
}
