//! Codex `config.toml`: the auto-compaction threshold against the window and
//! the policy, the compaction prompt, and the feature switch that turns hooks
//! off; and Codex `hooks.json`: its events, matchers and handlers, and whether
//! ctxguard's guard is wired in.

use super::hooks::{self, Rules, Unit};
use super::Context;
use crate::diagnostics::codes::runtime as codes;

/// The hook events Codex 0.171 knows (its generated hook schemas).
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreModelRequest",
    "PostModelRequest",
];

const RULES: Rules = Rules {
    runtime: "Codex",
    events: || EVENTS,
    aliases: &[
        ("PreCompress", "PreCompact"),
        ("PreCompaction", "PreCompact"),
        ("PostCompaction", "PostCompact"),
    ],
    compaction: &["PreCompact", "PostCompact"],
    event_types: |_| None,
    types: &["command", "mcp_tool"],
    unit: Unit::Seconds,
};

/// A Codex `hooks.json`: the table checked as Claude Code's is, and the
/// events of ctxguard's guard (`ctxguard init codex`) that are missing.
pub(super) fn check_hooks(cx: &mut Context<'_>) {
    let root = cx.root;
    let Some(table) = root.get("hooks") else {
        return;
    };
    hooks::check(cx, table, &RULES, "its hooks never run");
    let guards = hooks::guarded_events(table);
    let wanted: Vec<&str> = crate::hook::commands::CODEX_HOOKS
        .iter()
        .map(|(event, _, _)| event.name())
        .collect();
    hooks::missing_guard(
        cx,
        &wanted,
        &guards,
        ("Codex", "codex"),
        "run `ctxguard init codex` (`--user` for `~/.codex/hooks.json`): it merges the hooks beside the ones here",
    );
}

const KEYS: &[&str] = &[
    "model_context_window",
    "model_auto_compact_token_limit",
    "model_auto_compact_token_limit_scope",
    "compact_prompt",
    "experimental_compact_prompt_file",
    "features",
    "hooks",
    "model",
    "model_provider",
];

pub(super) fn check(cx: &mut Context<'_>) {
    let root = cx.root;
    cx.unknown_keys(root, KEYS, "Codex", "");
    let window = cx.number_at(root, "model_context_window", "model_context_window");
    let limit = cx.number_at(
        root,
        "model_auto_compact_token_limit",
        "model_auto_compact_token_limit",
    );
    if let (Some((_, window)), Some((node, limit))) = (window, limit) {
        if limit >= window {
            let d = codes::window(cx.file, node.span.clone(), &format!("Codex compacts at {limit} tokens, at or above its {window}-token window: auto-compaction never runs before the window is full"), "set `model_auto_compact_token_limit` below `model_context_window` (Codex's own default is 90% of it)");
            cx.push(d);
        }
    }
    if let (Some(policy), Some((node, limit))) = (cx.window(), limit.or(window)) {
        if limit > policy as f64 {
            let d = codes::window(cx.file, node.span.clone(), &format!("Codex lets the buffer reach {limit} tokens; the policy's window is {policy}"), "lower `model_auto_compact_token_limit` to the policy's `budget window`, or raise the policy's");
            cx.push(d);
        }
    }
    if let Some(prompt) = root.get("compact_prompt") {
        if let Some(text) = cx.string(prompt, "compact_prompt") {
            super::compaction_prompt(cx, prompt.span.clone(), text);
        }
    }
    if let Some(file) = root.get("experimental_compact_prompt_file") {
        if let Some(path) = cx.string(file, "experimental_compact_prompt_file") {
            let base = std::path::Path::new(cx.file.name())
                .parent()
                .unwrap_or(std::path::Path::new("."));
            match std::fs::read_to_string(base.join(path)) {
                Ok(text) => {
                    use crate::hook::prompt::{CODEX_DEFAULT, MARK};
                    if text.contains(MARK) && !text.starts_with(CODEX_DEFAULT) {
                        let d = codes::stale_prompt(cx.file, file.span.clone(), path);
                        cx.push(d);
                    }
                    super::compaction_prompt(cx, file.span.clone(), &text)
                }
                Err(error) => {
                    cx.invalid(
                        file,
                        "experimental_compact_prompt_file",
                        "a prompt file that can be read",
                        &format!("`{path}` ({error})"),
                    );
                }
            }
        }
    }
    if let Some(features) = root.get("features") {
        for key in ["hooks", "codex_hooks"] {
            if let Some(entry) = features.entry(key) {
                if cx.boolean(&entry.node, &format!("features.{key}")) == Some(false) {
                    let d = codes::guard_disabled(
                        cx.file,
                        entry.key_span.clone(),
                        &format!("features.{key} = false"),
                        "Codex",
                    );
                    cx.push(d);
                }
            }
        }
    }
}
