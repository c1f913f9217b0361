//! What the real client does with settings and hooks, against what
//! ctxguard says it does (`ctxguard::facts::claude_code`, which the
//! config lint, `init` and the hooks read): the events each version knows,
//! what a settings file it cannot fully read costs, the unit of a hook's
//! `timeout`, which matchers a manual and an automatic compaction match,
//! and how a hook's output is capped.

use std::path::Path;
use std::time::{Duration, Instant};

use ctxguard::{facts::claude_code as facts, facts::Version};
use libtest_mimic::Failed;
use serde_json::{json, Value};

use super::Claude;
use crate::npm::Package;
use crate::server::anthropic::Anthropic;
use crate::server::{Script, Server, Turn};
use crate::support::{self, ensure, said};

fn version(package: &Package) -> Result<Version, Failed> {
    Ok(Version::parse(&package.version).ok_or("the matrix names no version")?)
}

/// The event list the client carries, read off its bundle: the longest
/// array literal that starts with its first two events.
fn bundled_events(package: &Package) -> Result<Vec<String>, Failed> {
    let root = package.dir().join("node_modules").join("@anthropic-ai");
    let mut candidates = vec![root.join("claude-code").join("cli.js")];
    if let Ok(entries) = std::fs::read_dir(&root) {
        for entry in entries.flatten() {
            candidates.push(entry.path().join("claude"));
        }
    }
    let pattern = regex::bytes::Regex::new(r#"\["PreToolUse","PostToolUse"[^\]]*\]"#)
        .expect("the pattern compiles");
    let mut longest: Option<Vec<u8>> = None;
    for path in candidates.iter().filter(|p| p.is_file()) {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for found in pattern.find_iter(&bytes) {
            if longest.as_ref().is_none_or(|l| found.len() > l.len()) {
                longest = Some(found.as_bytes().to_vec());
            }
        }
    }
    let longest = longest.ok_or_else(|| {
        format!(
            "no event list in {} (looked in {candidates:?})",
            package.spec()
        )
    })?;
    Ok(serde_json::from_slice(&longest).map_err(|e| format!("the event list: {e}"))?)
}

/// The events ctxguard says this version knows are the ones the client
/// carries, in its order.
pub fn hook_events(package: &Package) -> Result<(), Failed> {
    let version = version(package)?;
    let bundled = bundled_events(package)?;
    let ours: Vec<String> = facts::events(&version)
        .into_iter()
        .map(str::to_owned)
        .collect();
    ensure(bundled == ours, || {
        format!("Claude Code {version} knows {bundled:?}\nctxguard says {ours:?}")
    })
}

/// A settings file whose `UserPromptSubmit` hook marks that it ran, and
/// what else it holds.
fn marking(marker: &Path, extra: &str) -> String {
    format!(
        "{{\n  \"hooks\": {{\n    \"UserPromptSubmit\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"touch {}\"}}]}}]{extra}\n  }}\n}}\n",
        marker.display()
    )
}

/// The codes `ctxguard check --claude-version V` reports on `dir`.
fn codes(dir: &Path, version: &Version) -> Result<Vec<(String, String)>, Failed> {
    let output = support::ctxguard(
        dir,
        &[
            "check",
            "--format",
            "json",
            "--claude-version",
            &version.to_string(),
            ".claude/settings.json",
        ],
    );
    let report: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("check --format json: {e}\n{}", said(&output)))?;
    Ok(report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["message"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect())
}

/// What a settings file the client cannot fully read costs, on the real
/// client and in `ctxguard check`; and the unit of `timeout`.
pub fn settings(package: &Package) -> Result<(), Failed> {
    let version = version(package)?;
    let server = Server::start(Anthropic, Script::new());
    let unknown_runs = !facts::drops_file_on_unknown_event(&version);
    let newest = facts::EVENTS.last().map(|(name, _)| *name).unwrap_or("");
    let entry = |event: &str| {
        format!(",\n    \"{event}\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"true\"}}]}}]")
    };
    let cases: [(&str, String, bool); 5] = [
        ("plain", String::new(), true),
        ("comment", "\n    // the team's note".to_owned(), false),
        ("trailing-comma", ",".to_owned(), false),
        ("unknown-event", entry("OnCompactDone"), unknown_runs),
        (
            "newest-event",
            entry(newest),
            facts::knows(&version, newest) || unknown_runs,
        ),
    ];
    for (case, extra, runs) in cases {
        let claude = Claude::new(package, &format!("settings-{case}"), &server.url());
        let marker = claude.dir.join("ran");
        let text = marking(&marker, &extra);
        std::fs::write(claude.settings(), &text).map_err(|e| e.to_string())?;
        let output = claude.print("hello", None);
        ensure(output.status.success(), || {
            format!("{case}: claude -p failed\n{}", said(&output))
        })?;
        ensure(marker.exists() == runs, || {
            format!(
                "{case}: Claude Code {version} {} the hooks of\n{text}\nctxguard expected it {}",
                if marker.exists() {
                    "ran"
                } else {
                    "ran none of"
                },
                if runs { "to run them" } else { "to run none" }
            )
        })?;
        // What `check` says of the same file, for the same version.
        let found = codes(&claude.project, &version)?;
        let errors: Vec<&(String, String)> = found
            .iter()
            .filter(|(code, _)| code != "unguarded-compaction")
            .collect();
        let expected = match case {
            "plain" => errors.is_empty(),
            "comment" | "trailing-comma" => {
                errors.len() == 1
                    && errors[0].0 == "invalid-config"
                    && errors[0].1.contains("Claude Code does not load")
            }
            "newest-event" if facts::knows(&version, newest) => errors.is_empty(),
            _ => {
                errors.len() == 1
                    && errors[0].0 == "unknown-hook-event"
                    && errors[0].1.contains("runs no hook of this file") != runs
            }
        };
        ensure(expected, || {
            format!("{case}: check --claude-version {version} says {found:?} of\n{text}")
        })?;
    }
    // `timeout` is seconds: a hook given 2 that would sleep 60 lives past
    // its first second and is not waited for to the end. Only a client
    // that waited for it takes 60 seconds (the hook's own); on a loaded
    // machine `claude -p` alone has taken 20.
    const HOOK_SLEEPS: u64 = 60;
    let claude = Claude::new(package, "settings-timeout", &server.url());
    let (started, second) = (claude.dir.join("started"), claude.dir.join("second"));
    let settings = json!({"hooks": {"UserPromptSubmit": [{"hooks": [{
        "type": "command",
        "command": format!("touch {}; sleep 1; touch {}; sleep {HOOK_SLEEPS}", started.display(), second.display()),
        "timeout": 2,
    }]}]}});
    std::fs::write(claude.settings(), settings.to_string()).map_err(|e| e.to_string())?;
    let clock = Instant::now();
    let output = claude.print("hello", None);
    let took = clock.elapsed();
    ensure(output.status.success(), || {
        format!("timeout: claude -p failed\n{}", said(&output))
    })?;
    ensure(
        started.exists() && second.exists() && took < Duration::from_secs(HOOK_SLEEPS),
        || {
            format!(
            "timeout 2 on a hook that sleeps {HOOK_SLEEPS} s: it lived a second: {}; Claude Code went on after {took:?} (ctxguard reads `timeout` as seconds)",
            second.exists()
        )
        },
    )?;
    let found = codes(&claude.project, &version)?;
    ensure(
        !found.iter().any(|(code, _)| code == "hook-timeout-units"),
        || format!("check calls a timeout of 2 seconds the wrong unit: {found:?}"),
    )?;
    Ok(())
}

/// Which matchers a manual and an automatic compaction match: `manual`
/// and `auto`, each only its own, as ctxguard's lint reads them.
pub fn matchers(package: &Package) -> Result<(), Failed> {
    let version = version(package)?;
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("Noted.").reporting(990_000))
            .summary("<analysis>a</analysis>\n<summary>The first summary.</summary>")
            .turn(Turn::text("Done."))
            .summary("<analysis>b</analysis>\n<summary>The second summary.</summary>"),
    );
    let claude = Claude::new(package, "matchers", &server.url());
    let log = |name: &str| claude.dir.join(format!("{name}.log"));
    let group = |event: &str, matcher: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": format!("echo {event} >> {}", log(matcher).display())}]});
    let mut hooks =
        json!({"PreCompact": [group("PreCompact", "manual"), group("PreCompact", "auto")]});
    if facts::has_post_compact(&version) {
        hooks["PostCompact"] =
            json!([group("PostCompact", "manual"), group("PostCompact", "auto")]);
    }
    std::fs::write(claude.settings(), json!({"hooks": hooks}).to_string())
        .map_err(|e| e.to_string())?;
    claude.session(&["Keep the file.", "Go on.", "/compact"], &[])?;
    let lines = |name: &str| -> Vec<String> {
        std::fs::read_to_string(log(name))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let mut each = vec!["PreCompact".to_owned()];
    if facts::has_post_compact(&version) {
        each.push("PostCompact".to_owned());
    }
    ensure(lines("auto") == each && lines("manual") == each, || {
        format!(
            "an automatic then a manual compaction ran `auto` hooks {:?} and `manual` hooks {:?}; each should run once: {each:?}",
            lines("auto"),
            lines("manual")
        )
    })?;
    let found = codes(&claude.project, &version)?;
    ensure(
        !found
            .iter()
            .any(|(code, _)| code == "hook-matcher-never-matches"),
        || format!("check says a matcher never matches: {found:?}"),
    )?;
    ensure(server.unused() == (0, 0), || {
        "the client did not compact twice".to_owned()
    })
}

/// How a hook's output is capped, and that ctxguard's re-injection, built
/// to fit, reaches the model whole.
pub fn hook_output(package: &Package) -> Result<(), Failed> {
    let version = version(package)?;
    // The client: a context of exactly the cap in UTF-16 units passes
    // whole, two units more is cut (from 2.1.89; before, nothing is).
    for (extra, cut) in [(0, false), (1, facts::caps_output(&version))] {
        let server = Server::start(Anthropic, Script::new());
        let claude = Claude::new(package, &format!("hook-output-{extra}"), &server.url());
        let (open, close) = ("CAPOPEN", "CAPCLOSE");
        let emoji = (facts::OUTPUT_CAP - open.len() - close.len()) / 2 + extra;
        let context = format!("{open}{}{close}", "\u{1F600}".repeat(emoji));
        let script = claude.dir.join("context.json");
        let output = json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}});
        std::fs::write(&script, output.to_string()).map_err(|e| e.to_string())?;
        let settings = json!({"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": format!("cat {}", script.display())}]}]}});
        std::fs::write(claude.settings(), settings.to_string()).map_err(|e| e.to_string())?;
        let run = claude.print("hello", None);
        server.save(&claude.dir.join("requests.jsonl"));
        ensure(run.status.success(), || {
            format!("claude -p failed\n{}", said(&run))
        })?;
        let first = server
            .log()
            .iter()
            .map(|e| e.text())
            .find(|text| text.contains(open))
            .unwrap_or_default();
        ensure(first.contains(open), || {
            "the hook's context never reached the model".to_owned()
        })?;
        let whole = first.contains(&context);
        ensure(whole != cut, || {
            format!(
                "Claude Code {version} {} a context of {} UTF-16 units ({} code points); ctxguard expected it {}",
                if whole { "passed whole" } else { "cut" },
                facts::output_len(&context),
                context.chars().count(),
                if cut { "cut" } else { "whole" }
            )
        })?;
    }
    // ctxguard: more commitments than fit, many of them emoji; what it
    // gives back after the compaction reaches the model whole, and says
    // how many did not fit.
    let pins: String = (0..160)
        .map(|n| {
            format!(
                "pin constraint r{n:03}: Rule {n:03} {}\n",
                "\u{1F512} keep ".repeat(8)
            )
        })
        .collect();
    let server = Server::start(
        Anthropic,
        Script::new()
            .turn(Turn::text("Noted."))
            .summary("<analysis>a</analysis>\n<summary>Rules were set.</summary>")
            .turn(Turn::text("Done.")),
    );
    let claude = Claude::new(package, "hook-output-reinjection", &server.url());
    super::guard::init(&claude, &[])?;
    claude.session(&[&pins, "/compact", "Go on."], &[])?;
    let after = server.turn_after_compaction(0);
    let context = after.contains("word for word from ctxguard's ledger");
    let footer = after.contains("more commitments did not fit in the 10000");
    ensure(context && footer, || {
        format!(
            "after the compaction the model was given ctxguard's context: {context}, whole to its last line: {footer}"
        )
    })?;
    ensure(
        after.contains(&format!(
            "Rule 000 {}",
            "\u{1F512} keep ".repeat(8).trim_end()
        )),
        || "the first pin was not given back word for word".to_owned(),
    )
}
