//! Claude Code `settings.json`: the hook table, the guard ctxguard's hooks
//! make, the switches that turn hooks off, and the auto-compaction window.

use super::hooks::{self, Rules, Unit};
use super::Context;
use crate::diagnostics::codes::runtime as codes;
use crate::facts::claude_code as facts;
use crate::facts::Version;

/// Every Claude Code hook event, of any version.
fn events() -> &'static [&'static str] {
    static NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        crate::facts::claude_code::EVENTS
            .iter()
            .map(|(name, _)| *name)
            .collect()
    });
    &NAMES
}

/// The events `ctxguard init claude-code` wires for `version`.
fn guard(version: Option<&Version>) -> Vec<&'static str> {
    crate::hook::commands::HOOKS
        .iter()
        .filter(|(event, _, _)| crate::hook::commands::wanted(*event, version))
        .map(|(event, _, _)| event.name())
        .collect()
}

fn event_types(event: &str) -> Option<&'static [&'static str]> {
    match event {
        "PreCompact" | "PostCompact" => Some(&["command", "http", "mcp_tool"]),
        "SessionStart" => Some(&["command", "mcp_tool"]),
        _ => None,
    }
}

const RULES: Rules = Rules {
    runtime: "Claude Code",
    events,
    aliases: &[
        ("PreCompress", "PreCompact"),
        ("PreCompaction", "PreCompact"),
        ("PostCompaction", "PostCompact"),
    ],
    compaction: &["PreCompact", "PostCompact"],
    event_types,
    types: &["command", "http", "mcp_tool", "prompt", "agent"],
    unit: Unit::Seconds,
};

/// Top-level keys that decide compaction or its guard.
const KEYS: &[&str] = &[
    "hooks",
    "autoCompactEnabled",
    "autoCompactWindow",
    "disableAllHooks",
    "allowManagedHooksOnly",
    "cleanupPeriodDays",
    "env",
];
/// Environment variables that decide compaction.
const ENV: &[&str] = &[
    "DISABLE_AUTO_COMPACT",
    "DISABLE_COMPACT",
    "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
    "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
];

pub(super) fn check(cx: &mut Context<'_>) {
    let root = cx.root;
    if let Some((span, why)) = crate::hook::loadable::strict_json_error(cx.file.text()) {
        let d = codes::not_loaded(cx.file, span, &why);
        cx.push(d);
    }
    let version = cx.installed.claude_code.clone();
    cx.unknown_keys(root, KEYS, "Claude Code", "");
    let mut compaction_off = false;
    if let Some(env) = root.get("env") {
        cx.unknown_keys(env, ENV, "Claude Code", "env.");
        if let Some(off) = env.get("DISABLE_COMPACT") {
            compaction_off = off.as_str() == Some("1") || off.as_f64() == Some(1.0);
        }
        if let Some(window) = env.get("CLAUDE_CODE_AUTO_COMPACT_WINDOW") {
            let text = window
                .as_str()
                .map(str::to_owned)
                .or_else(|| window.as_f64().map(|n| n.to_string()));
            match text.as_deref().map(|t| (t, t.trim().parse::<u64>())) {
                Some((_, Ok(n))) => {
                    auto_window(cx, window, n as f64, "env.CLAUDE_CODE_AUTO_COMPACT_WINDOW")
                }
                Some((t, Err(_))) => {
                    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
                    cx.invalid(
                        window,
                        "env.CLAUDE_CODE_AUTO_COMPACT_WINDOW",
                        "a plain number of tokens (`500000`)",
                        &format!(
                            "`{t}`, which Claude Code reads as {} and clamps to 100000",
                            if digits.is_empty() {
                                "nothing".to_owned()
                            } else {
                                digits
                            }
                        ),
                    );
                }
                None => {}
            }
        }
        if let Some(pct) = env.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE") {
            let value = pct
                .as_str()
                .and_then(|t| t.trim().parse::<f64>().ok())
                .or(pct.as_f64());
            if !value.is_some_and(|v| (1.0..=100.0).contains(&v)) {
                cx.invalid(
                    pct,
                    "env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
                    "a percentage from 1 to 100",
                    pct.type_name(),
                );
            }
        }
    }
    if let Some(enabled) = root.get("autoCompactEnabled") {
        cx.boolean(enabled, "autoCompactEnabled");
    }
    if let Some(window) = root.get("autoCompactWindow") {
        if let Some(n) = cx.number(window, "autoCompactWindow") {
            auto_window(cx, window, n, "autoCompactWindow");
        }
    }
    for key in ["disableAllHooks", "allowManagedHooksOnly"] {
        if let Some(entry) = root.entry(key) {
            if cx.boolean(&entry.node, key) == Some(true) {
                let d = codes::guard_disabled(cx.file, entry.key_span.clone(), key, "Claude Code");
                cx.push(d);
            }
        }
    }
    compact_instructions(cx);
    if let Some(table) = root.get("hooks") {
        // Before 2.1.101 one unknown event drops every hook of the file.
        let consequence = match &version {
            Some(v) if facts::drops_file_on_unknown_event(v) => {
                format!("Claude Code {v} runs no hook of this file, saying nothing")
            }
            Some(_) => "this entry's hooks never run".to_owned(),
            None => format!(
                "its hooks never run, and Claude Code before {} runs no hook of this file",
                facts::SKIPS_UNKNOWN_EVENT_SINCE
            ),
        };
        hooks::check(cx, table, &RULES, &consequence);
        if let Some(v) = &version {
            for entry in table.entries() {
                let Some(since) = facts::since(&entry.key) else {
                    continue;
                };
                if !facts::knows(v, &entry.key) {
                    let d = codes::event_too_new(
                        cx.file,
                        entry.key_span.clone(),
                        &entry.key,
                        since,
                        &v.to_string(),
                        &consequence,
                    );
                    cx.push(d);
                }
            }
        }
    }
    let guards = root
        .get("hooks")
        .map(hooks::guarded_events)
        .unwrap_or_default();
    if compaction_off {
        return;
    }
    // Hooks merge across the settings files of a project: the guard may be
    // in the other one. The shared file is the one that says it is missing.
    let here = std::path::Path::new(cx.file.name());
    let folder = here.parent().unwrap_or(std::path::Path::new("."));
    let local = here.file_name().is_some_and(|n| n == "settings.local.json");
    if local && folder.join("settings.json").is_file() {
        return;
    }
    let sibling = folder.join(if local {
        "settings.json"
    } else {
        "settings.local.json"
    });
    let elsewhere = guard_events(&sibling);
    let wanted = guard(version.as_ref());
    let guards: Vec<String> = guards.into_iter().chain(elsewhere).collect();
    hooks::missing_guard(
        cx,
        &wanted,
        &guards,
        ("Claude Code", "claude-code"),
        "run `ctxguard init claude-code` (or `ctxguard check --fix`): it merges the hooks beside the ones here",
    );
}

/// Claude Code's auto-compaction window: 100,000 to 1,000,000 tokens, and
/// no more than the policy's window.
fn auto_window(cx: &mut Context<'_>, node: &crate::buffer::tree::Node, tokens: f64, key: &str) {
    if !(100_000.0..=1_000_000.0).contains(&tokens) {
        cx.invalid(
            node,
            key,
            "a number of tokens from 100000 to 1000000",
            &format!("{tokens}"),
        );
        return;
    }
    if let Some(window) = cx.window() {
        if tokens > window as f64 {
            let d = codes::window(
                cx.file,
                node.span.clone(),
                &format!("Claude Code compacts at {tokens} tokens; the policy's window is {window}"),
                "lower the window to the policy's `budget window`, or raise the policy's: the commitment budget is a share of it",
            );
            cx.push(d);
        }
    }
}

/// The "Compact Instructions" section of the project's `CLAUDE.md` (beside
/// `.claude/`), which Claude Code's compactor follows: it must ask for
/// commitments to be kept word for word. No section, no finding.
fn compact_instructions(cx: &mut Context<'_>) {
    let settings = std::path::Path::new(cx.file.name());
    // Once per project: from its shared settings, not the local ones.
    if settings.file_name().is_none_or(|n| n != "settings.json") {
        return;
    }
    let Some(project) = settings.parent().and_then(|claude| claude.parent()) else {
        return;
    };
    let path = project.join("CLAUDE.md");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let mut start = None;
    let mut level = 0;
    let mut offset = 0;
    let mut end = text.len();
    for line in text.split_inclusive('\n') {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes > 0 && line[hashes..].starts_with(' ') {
            match start {
                None if line.to_lowercase().contains("compact") => {
                    start = Some(offset);
                    level = hashes;
                }
                Some(_) if hashes <= level => {
                    end = offset;
                    break;
                }
                _ => {}
            }
        }
        offset += line.len();
    }
    let Some(start) = start else {
        return;
    };
    let file = crate::source::SourceFile::new(path.display().to_string(), text.as_str());
    let section = text[start..end].trim_end();
    super::prompt_in(cx, &file, start..start + section.len(), section);
}

/// The events whose hooks in the settings file at `path` run ctxguard.
fn guard_events(path: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let file = crate::source::SourceFile::new(path.display().to_string(), text.as_str());
    let Ok(root) = crate::buffer::tree::read(&file, crate::buffer::tree::Syntax::Json) else {
        return Vec::new();
    };
    root.get("hooks")
        .map(hooks::guarded_events)
        .unwrap_or_default()
}
