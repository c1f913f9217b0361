//! Gemini CLI `settings.json`: the hook table (timeouts in milliseconds), the
//! compression threshold and the history window.

use super::hooks::{self, Rules, Unit};
use super::Context;
use crate::diagnostics::codes::runtime as codes;

const EVENTS: &[&str] = &[
    "BeforeTool",
    "AfterTool",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "SessionStart",
    "SessionEnd",
    "PreCompress",
    "Notification",
];

const RULES: Rules = Rules {
    runtime: "Gemini CLI",
    events: || EVENTS,
    aliases: &[
        ("PreCompact", "PreCompress"),
        ("PreCompaction", "PreCompress"),
        ("PostCompact", "PreCompress"),
    ],
    compaction: &[],
    event_types: |_| None,
    types: &["command"],
    unit: Unit::Milliseconds,
};

pub(super) fn check(cx: &mut Context<'_>) {
    let root = cx.root;
    cx.unknown_keys(
        root,
        &["hooks", "model", "contextManagement", "chatCompression"],
        "Gemini CLI",
        "",
    );
    if let Some(entry) = root.entry("chatCompression") {
        let d = codes::unknown_key(
            cx.file,
            entry.key_span.clone(),
            "chatCompression",
            "Gemini CLI",
            "model.compressionThreshold",
        );
        cx.push(d);
    }
    if let Some(model) = root.get("model") {
        cx.unknown_keys(
            model,
            &[
                "name",
                "compressionThreshold",
                "maxSessionTurns",
                "summarizeToolOutput",
                "skipNextSpeakerCheck",
            ],
            "Gemini CLI",
            "model.",
        );
        if let Some(threshold) = model.get("compressionThreshold") {
            if let Some(t) = cx.number(threshold, "model.compressionThreshold") {
                if !(t > 0.0 && t <= 1.0) {
                    cx.invalid(
                        threshold,
                        "model.compressionThreshold",
                        "a fraction of the window, above 0 and at most 1",
                        &t.to_string(),
                    );
                }
            }
        }
    }
    if let Some(window) = root.at(&["contextManagement", "historyWindow"]) {
        let max = cx.number_at(
            window,
            "maxTokens",
            "contextManagement.historyWindow.maxTokens",
        );
        let kept = cx.number_at(
            window,
            "retainedTokens",
            "contextManagement.historyWindow.retainedTokens",
        );
        if let (Some((_, max)), Some((node, kept))) = (max, kept) {
            if kept >= max {
                let d = codes::window(cx.file, node.span.clone(), &format!("Gemini CLI retains {kept} tokens of a {max}-token history window: nothing is left to compress"), "keep `retainedTokens` well below `maxTokens`");
                cx.push(d);
            }
        }
        if let (Some((node, max)), Some(policy)) = (max, cx.window()) {
            if max > policy as f64 {
                let d = codes::window(cx.file, node.span.clone(), &format!("Gemini CLI keeps a history of {max} tokens; the policy's window is {policy}"), "lower `maxTokens` to the policy's `budget window`, or raise the policy's");
                cx.push(d);
            }
        }
    }
    let guards = match root.entry("hooks") {
        Some(entry) => {
            hooks::check(cx, &entry.node, &RULES, "its hooks never run");
            hooks::guarded_events(&entry.node)
        }
        None => Vec::new(),
    };
    let wanted: Vec<&str> = crate::hook::commands::GEMINI_HOOKS
        .iter()
        .map(|(event, _, _)| event.name_in(crate::hook::Guarded::GeminiCli))
        .collect();
    hooks::missing_guard(
        cx,
        &wanted,
        &guards,
        ("Gemini CLI", "gemini-cli"),
        "run `ctxguard init gemini-cli` (`--user` for `~/.gemini/settings.json`, or `ctxguard check --fix`): it merges the hooks beside the ones here",
    );
}
