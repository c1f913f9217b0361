//! OpenClaw `openclaw.json` (JSON5; RUNTIMES §6.4):
//! `agents.defaults.compaction`: identifier retention, the quality guard,
//! truncation after compaction, what is kept verbatim.

use super::Context;
use crate::diagnostics::codes::runtime as codes;

const KEYS: &[&str] = &[
    "mode",
    "timeoutSeconds",
    "reserveTokensFloor",
    "identifierPolicy",
    "identifierInstructions",
    "postCompactionSections",
    "model",
    "memoryFlush",
    "qualityGuard",
    "provider",
    "keepRecentTokens",
    "truncateAfterCompaction",
    "maxActiveTranscriptBytes",
    "notifyUser",
    "notifyOnStart",
    "notifyOnStartText",
];

pub(super) fn check(cx: &mut Context<'_>) {
    // OpenClaw compacts whatever its configuration says; ctxguard's plugin
    // (`ctxguard init openclaw`) is its guard.
    let guarded = cx
        .root
        .at(&["plugins", "entries", crate::hook::openclaw::PLUGIN_ID])
        .is_some_and(|entry| entry.get("enabled").and_then(|e| e.as_bool()) != Some(false));
    if !guarded {
        super::hooks::missing_guard(
            cx,
            &[crate::hook::openclaw::PLUGIN_ID],
            &[],
            ("OpenClaw", "openclaw"),
            "run `ctxguard init openclaw`: it writes ctxguard's plugin to `~/.openclaw/extensions/ctxguard/` and enables it here",
        );
    }
    let Some(compaction) = cx.root.at(&["agents", "defaults", "compaction"]) else {
        return;
    };
    cx.unknown_keys(compaction, KEYS, "OpenClaw", "compaction.");
    if let Some(policy) = compaction.get("identifierPolicy") {
        match cx.string(policy, "compaction.identifierPolicy") {
            Some("off") => {
                let d = codes::weakened(cx.file, policy.span.clone(), "`identifierPolicy: \"off\"` lets compaction rewrite identifiers: paths, ids and hashes are paraphrased", "leave `identifierPolicy` at `\"strict\"`");
                cx.push(d);
            }
            Some("custom")
                if compaction
                    .get("identifierInstructions")
                    .and_then(|i| i.as_str())
                    .is_none_or(|i| i.trim().is_empty()) =>
            {
                let d = codes::weakened(cx.file, policy.span.clone(), "`identifierPolicy: \"custom\"` with no `identifierInstructions`: nothing says which identifiers to keep", "give `identifierInstructions`, or use `\"strict\"`");
                cx.push(d);
            }
            _ => {}
        }
    }
    if let Some(enabled) = compaction.at(&["qualityGuard", "enabled"]) {
        if cx.boolean(enabled, "compaction.qualityGuard.enabled") == Some(false) {
            let d = codes::weakened(
                cx.file,
                enabled.span.clone(),
                "`qualityGuard.enabled: false` skips the check of safeguard summaries",
                "leave the quality guard on",
            );
            cx.push(d);
        }
    }
    if let Some(truncate) = compaction.get("truncateAfterCompaction") {
        if cx.boolean(truncate, "compaction.truncateAfterCompaction") == Some(true) {
            let d = codes::truncating(cx.file, truncate.span.clone(), "`truncateAfterCompaction: true` drops the transcript after compaction with no guard", false);
            cx.push(d);
        }
    }
    if let (Some(keep), Some(window)) = (compaction.get("keepRecentTokens"), cx.window()) {
        if let Some(tokens) = cx.number(keep, "compaction.keepRecentTokens") {
            if tokens >= window as f64 {
                let d = codes::window(cx.file, keep.span.clone(), &format!("OpenClaw keeps the last {tokens} tokens verbatim; the policy's window is {window}"), "keep `keepRecentTokens` well below the policy's `budget window`");
                cx.push(d);
            }
        }
    }
}
