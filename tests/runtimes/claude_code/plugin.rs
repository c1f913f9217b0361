//! ctxguard's Claude Code plugin, as a user gets it: the repository's
//! marketplace added and the plugin installed with the client's own
//! commands, offline; then a real session whose hooks are the plugin's.

use std::path::Path;

use ctxguard::{facts::claude_code as facts, facts::Version};
use libtest_mimic::Failed;

use super::guard::{first_prompt, CONSTRAINT, FIRST_SUMMARY, IDENTIFIER};
use super::{of_type, Claude};
use crate::npm::Package;
use crate::server::anthropic::Anthropic;
use crate::server::{content_text, Kind, Script, Server, Turn};
use crate::support::{self, ensure, said};

/// Copies the repository's marketplace (its manifest and the plugin) to `to`.
fn marketplace(to: &Path) -> Result<(), Failed> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        ".claude-plugin/marketplace.json",
        "plugins/claude-code/.claude-plugin/plugin.json",
        "plugins/claude-code/hooks/hooks.json",
    ] {
        let target = to.join(file);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::copy(repo.join(file), &target).map_err(|e| format!("{file}: {e}"))?;
    }
    Ok(())
}

/// Adds the marketplace and installs the plugin in `claude`'s home, each
/// step checked as the client reports it.
fn install(claude: &Claude) -> Result<(), Failed> {
    let market = claude.dir.join("marketplace");
    marketplace(&market)?;
    let market = market.to_string_lossy().into_owned();
    let plugin = format!("{market}/plugins/claude-code");
    for args in [
        vec!["plugin", "validate", market.as_str()],
        vec!["plugin", "validate", plugin.as_str()],
        vec!["plugin", "marketplace", "add", market.as_str()],
        vec!["plugin", "install", "ctxguard@ctxguard"],
    ] {
        let output = claude.run(&args);
        ensure(output.status.success(), || {
            format!("claude {} failed\n{}", args.join(" "), said(&output))
        })?;
    }
    Ok(())
}

pub fn plugin(package: &Package) -> Result<(), Failed> {
    let version = Version::parse(&package.version).ok_or("the matrix names no version")?;
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will keep every column."))
            .summary(FIRST_SUMMARY)
            .turn(Turn::text("Going on."))
            .turn(Turn::text("The tests pass.")),
    );
    let mut claude = Claude::new(package, "plugin", &server.url());
    // The hooks run `ctxguard` from the PATH, as the plugin says.
    claude.bin = Path::new(support::CTXGUARD).parent().map(Path::to_path_buf);
    install(&claude)?;
    let sdk = claude.session(
        &[&first_prompt(), "/compact", "Go on.", "Run the tests."],
        &[],
    )?;
    let session = sdk
        .session
        .clone()
        .ok_or("the SDK session named no session id")?;
    let transcript = claude.transcript(&session)?;
    let ledger_path = claude
        .project
        .join(".ctxguard")
        .join("ledger")
        .join(format!("{session}.jsonl"));
    let ledger = support::records(&ledger_path);
    server.save(&claude.dir.join("requests.jsonl"));
    let context = || {
        format!(
            "\ntranscript {}\nledger {}",
            transcript.display(),
            ledger_path.display()
        )
    };
    // UserPromptSubmit: the pins are in the ledger.
    for text in [CONSTRAINT, IDENTIFIER] {
        ensure(
            ledger
                .iter()
                .any(|e| e["event"] == "pinned" && e["text"] == text),
            || format!("the plugin's hooks recorded no pin `{text}`{}", context()),
        )?;
    }
    // PreCompact: the compaction request asks to keep them. 2.0.76 runs a
    // plugin's hooks as callbacks that keep only a JSON `systemMessage` of
    // their output, so there the compactor is not asked; 2.1.76 and later
    // run them as commands (the versions between are not run here).
    let asks = version.at_least("2.1.76");
    let compaction = server.of(Kind::Compaction);
    let asked = compaction
        .first()
        .and_then(|r| {
            r.body["messages"]
                .as_array()
                .and_then(|m| m.iter().rev().find(|m| m["role"] == "user"))
                .map(content_text)
        })
        .unwrap_or_default();
    ensure(
        (asked.contains("ctxguard: the user set or confirmed") && asked.contains(CONSTRAINT))
            == asks,
        || {
            format!(
                "{version}: the compaction request carries the commitments: {}, expected {asks}{}",
                !asks,
                context()
            )
        },
    )?;
    // SessionStart: the model is given them back after the compaction.
    let after = server.turn_after_compaction(0);
    ensure(after.contains(CONSTRAINT), || {
        format!(
            "after the compaction the model was not given `{CONSTRAINT}`{}",
            context()
        )
    })?;
    // The summary, checked once without a PostCompact hook: the dropped
    // constraint is named lost.
    let checks: Vec<_> = ledger.iter().filter(|e| e["event"] == "verified").collect();
    let constraint = support::id_of(&ledger, CONSTRAINT).unwrap_or_default();
    ensure(
        checks.len() == 1
            && checks[0]["lost"]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|i| *i == constraint)),
        || format!("the summary checks {checks:?}{}", context()),
    )?;
    ensure(
        of_type(&transcript, "system", Some("compact_boundary")).len() == 1,
        || format!("expected one compaction{}", context()),
    )?;

    // Without ctxguard on the PATH the guard cannot run: the compaction is
    // refused where the client honours a refusal, and the user told why.
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("I will keep every column."))
            .summary(FIRST_SUMMARY),
    );
    let bare = Claude::new(package, "plugin-missing", &server.url());
    install(&bare)?;
    let sdk = bare.session(&[&first_prompt(), "/compact"], &[])?;
    let session = sdk
        .session
        .clone()
        .ok_or("the SDK session named no session id")?;
    let transcript = bare.transcript(&session)?;
    let boundaries = of_type(&transcript, "system", Some("compact_boundary")).len();
    let said_to_user = format!(
        "{}\n{}",
        serde_json::to_string(&sdk.messages).unwrap_or_default(),
        sdk.stderr
    );
    // (2.0.76 keeps nothing of a plugin hook's refusal: it compacts, and
    // says nothing.)
    let told = said_to_user.contains("the ctxguard command is not on the PATH");
    ensure(told == asks, || {
        format!("{version}: the user told ctxguard could not run: {told}, expected {asks}:\n{said_to_user}")
    })?;
    let expected = usize::from(!facts::can_refuse(&version));
    ensure(boundaries == expected, || {
        format!(
            "{version}: {boundaries} compactions without ctxguard on the PATH, expected {expected}: {}",
            transcript.display()
        )
    })?;
    Ok(())
}
