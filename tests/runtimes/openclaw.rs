//! OpenClaw, driven as a person runs it without a Gateway: `openclaw agent
//! --local --agent main -m PROMPT`, one process per turn of one session,
//! against an Anthropic Messages provider on loopback (`models.providers`
//! of `~/.openclaw/openclaw.json`) whose usage makes it compact before the
//! next turn. OpenClaw needs Node.js 24, which its package brings from
//! npm (`matrix.toml`).

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use libtest_mimic::Failed;
use serde_json::json;

use crate::claude_code::output_within;
use crate::npm::Package;
use crate::server::anthropic::Anthropic;
use crate::server::{Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[("guard", guard), ("configs", configs)];

const CONSTRAINT: &str = "Do not drop columns.";
const IDENTIFIER: &str = "src/legacy/parser_v2.py";
const REQUIREMENT: &str = "Use the staging database only for read queries.";

/// The model's window; OpenClaw compacts before a turn once the last
/// reported usage and the prompt pass it, less its reserve.
const WINDOW: u64 = 20_000;

struct Claw {
    package: Package,
    dir: PathBuf,
    home: PathBuf,
    project: PathBuf,
}

impl Claw {
    fn new(package: &Package, trial: &str, url: &str) -> Result<Claw, Failed> {
        let (dir, home, project) = support::folders(
            &format!("openclaw-{}-{trial}", package.version),
            "home",
            ".openclaw",
        )?;
        let config = json!({
            "models": {"mode": "replace", "providers": {"offline": {
                "baseUrl": url, "apiKey": "offline-test-key", "api": "anthropic-messages",
                "models": [{"id": "offline-model", "name": "offline-model", "reasoning": false,
                    "input": ["text"], "contextWindow": WINDOW, "maxTokens": 4096}],
            }}},
            "agents": {"defaults": {
                "model": {"primary": "offline/offline-model"},
                "workspace": project,
                // Keep only the newest messages: what came before is summarized.
                "compaction": {"keepRecentTokens": 50},
            }},
        });
        std::fs::write(
            home.join(".openclaw").join("openclaw.json"),
            serde_json::to_string_pretty(&config).map_err(|e| e.to_string())?,
        )
        .map_err(|e| e.to_string())?;
        Ok(Claw {
            package: package.clone(),
            dir,
            home,
            project,
        })
    }

    fn run(&self, prompt: &str) -> std::process::Output {
        let mut command = Command::new(self.package.command());
        command
            .env_clear()
            .env("PATH", self.package.path())
            .env("HOME", &self.home)
            .env("CTXGUARD_LEDGER_DIR", self.dir.join("ledger"))
            .current_dir(&self.project)
            .args(["agent", "--local", "--agent", "main", "-m", prompt]);
        output_within(command, Duration::from_secs(240))
    }
}

/// ctxguard's guard, installed by `ctxguard init openclaw` as a plugin of
/// OpenClaw's state folder, in real runs: pins typed, turns until the
/// usage passes the window, then a compaction whose summary drops the
/// constraint and renames the path (OpenClaw adds the last three turns
/// before the one it splits word for word: the pins are typed before). The next run's request gives the model
/// every commitment word for word, once; the check is in the ledger and
/// said on standard error.
fn guard(package: &Package) -> Result<(), Failed> {
    // OpenClaw's summarizer must answer in its sections, reflect the
    // latest ask and not call pending what the turn it keeps asks, or its
    // quality guard throws the summary away.
    let summary = format!(
        "## Decisions\n- Migrate the orders table to the new schema.\n## Open TODOs\n- Run the tests.\n## Constraints/Rules\n- {REQUIREMENT}\n## Pending user asks\n- Run the tests.\n## Exact identifiers\n- src/legacy/parser.py"
    );
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will migrate the orders table."))
            .turn(Turn::text("Added the index on orders.created_at."))
            .turn(Turn::text("The migration test is written."))
            .turn(Turn::text("The test output is clean."))
            .turn(Turn::text("Noted.").reporting(WINDOW - 500))
            .summary(&summary)
            // The prefix of the turn OpenClaw splits.
            .summary(&summary)
            .turn(Turn::text("The tests pass.")),
    );
    let claw = Claw::new(package, "guard", &server.url())?;
    support::init("openclaw", &claw.project, Some(&claw.home), &[])?;
    let prompts = [
        format!("pin constraint no-drop: {CONSTRAINT}\npin identifier legacy-parser: {IDENTIFIER}\n\nMigrate the orders table to the new schema."),
        "Add an index on orders.created_at.".to_owned(),
        "Now write the migration test.".to_owned(),
        "Check the test output.".to_owned(),
        REQUIREMENT.to_owned(),
        "Run the tests.".to_owned(),
    ];
    let runs: Vec<_> = prompts.iter().map(|prompt| claw.run(prompt)).collect();
    server.save(&claw.dir.join("requests.jsonl"));
    let (ledgers, ledger) = support::ledger_in(&claw.dir.join("ledger"));
    let context = || {
        format!(
            "\nledger {ledgers:?}\nrequests {}\nlast runs:\n{}\n{}",
            claw.dir.join("requests.jsonl").display(),
            said(&runs[runs.len() - 2]),
            said(&runs[runs.len() - 1])
        )
    };
    for (n, run) in runs.iter().enumerate() {
        ensure(run.status.success(), || {
            format!("openclaw run {} failed{}", n + 1, context())
        })?;
    }
    ensure(!server.of(Kind::Compaction).is_empty(), || {
        format!("OpenClaw did not compact{}", context())
    })?;
    support::pinned_and_checked(&ledger, &[CONSTRAINT, IDENTIFIER], CONSTRAINT, &context)?;
    support::told_on_stderr(
        &runs,
        "lost     [constraint] Do not drop columns.",
        &context,
    )?;
    // The turn after the compaction: the summary, then every commitment
    // word for word, once.
    let after = server
        .of(Kind::Turn)
        .last()
        .map(crate::server::Exchange::text)
        .unwrap_or_default();
    ensure(after.contains("src/legacy/parser.py"), || {
        format!("the last turn does not carry the summary{}", context())
    })?;
    support::given_back_once(&after, &[CONSTRAINT, IDENTIFIER, REQUIREMENT], &context)?;
    Ok(())
}

/// `ctxguard check` against OpenClaw's own validation of the same file
/// (`openclaw config validate --json`), for every OpenClaw config fixture
/// and the keys earlier releases read: OpenClaw refuses a file exactly when
/// `check` reports an error that says the runtime cannot load it
/// (`invalid-config`, `unknown-config-key`), and each key or value it
/// names is one `check` names.
fn configs(package: &Package) -> Result<(), Failed> {
    let mut files: Vec<PathBuf> = std::fs::read_dir("tests/fixtures/configs/openclaw")
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|case| case.path().join("openclaw.json"))
        .collect();
    files.push(PathBuf::from(
        "tests/fixtures/openclaw-retired/openclaw.json",
    ));
    files.sort();
    let dir = support::workdir(&format!("openclaw-{}-configs", package.version));
    for (n, file) in files.iter().enumerate() {
        let home = dir.join(n.to_string());
        let state = home.join(".openclaw");
        std::fs::create_dir_all(&state).map_err(|e| e.to_string())?;
        std::fs::copy(file, state.join("openclaw.json")).map_err(|e| e.to_string())?;
        let mut command = Command::new(package.command());
        command
            .env_clear()
            .env("PATH", package.path())
            .env("HOME", &home)
            .args(["config", "validate", "--json"]);
        let output = output_within(command, Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&output.stdout);
        let verdict: serde_json::Value = stdout
            .find('{')
            .and_then(|at| serde_json::from_str(&stdout[at..]).ok())
            .ok_or_else(|| format!("{}: no JSON verdict\n{}", file.display(), said(&output)))?;
        let valid = verdict["valid"].as_bool() == Some(true);
        let checked = support::ctxguard(&state, &["check", "--format", "json", "."]);
        let report: serde_json::Value = serde_json::from_slice(&checked.stdout)
            .map_err(|e| format!("{}: {e}\n{}", file.display(), said(&checked)))?;
        let refusals: Vec<String> = report["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| {
                d["severity"] == "error"
                    && matches!(
                        d["code"].as_str(),
                        Some("invalid-config" | "unknown-config-key")
                    )
            })
            .filter_map(|d| d["message"].as_str().map(str::to_owned))
            .collect();
        ensure(valid == refusals.is_empty(), || {
            format!(
                "{}: OpenClaw says valid={valid}, ctxguard refuses {refusals:#?}\n{verdict:#}",
                file.display()
            )
        })?;
        // Each key or value OpenClaw names is one ctxguard names.
        for issue in verdict["issues"].as_array().into_iter().flatten() {
            let message = issue["message"].as_str().unwrap_or("");
            let path = issue["path"].as_str().unwrap_or("");
            // ctxguard names a key from `compaction.`; `Unrecognized keys:
            // "a", "b"` names every quoted key of the issue's path, else the
            // path is the key.
            let at = path.strip_prefix("agents.defaults.").unwrap_or(path);
            let named: Vec<String> = match message.strip_prefix("Unrecognized key") {
                Some(keys) => keys
                    .split('"')
                    .skip(1)
                    .step_by(2)
                    .map(|name| format!("{at}.{name}"))
                    .collect(),
                None => vec![at.to_owned()],
            };
            ensure(!named.is_empty(), || {
                format!("{}: {message}", file.display())
            })?;
            for name in named {
                let key = format!("`{name}`");
                ensure(refusals.iter().any(|r| r.contains(&key)), || {
                    format!(
                        "{}: OpenClaw names {key} ({message}); ctxguard: {refusals:#?}",
                        file.display()
                    )
                })?;
            }
        }
    }
    Ok(())
}
