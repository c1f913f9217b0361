//! OpenClaw `openclaw.json` (JSON5), as OpenClaw 2026.9.6 validates it
//! (`openclaw config validate`): `agents.defaults.compaction`, identifier
//! retention, the quality guard, what is kept verbatim.

use super::Context;
use crate::diagnostics::codes::runtime as codes;

/// The keys of `agents.defaults.compaction`. OpenClaw's schema for the
/// section is strict: a config that names any other is not loaded.
const KEYS: &[&str] = &[
    "enabled",
    "mode",
    "provider",
    "thinkingLevel",
    "keepRecentTokens",
    "identifierPolicy",
    "recentTurnsPreserve",
    "qualityGuard",
    "midTurnPrecheck",
    "postIndexSync",
    "postCompactionSections",
    "model",
    "timeoutSeconds",
    "memoryFlush",
    "maxActiveTranscriptBytes",
    "notifyUser",
];

/// Keys earlier releases read, which `openclaw doctor --fix` removes, and
/// what took their place.
const RETIRED: &[(&str, &str)] = &[
    ("truncateAfterCompaction", "OpenClaw retired it: `openclaw doctor --fix` removes it"),
    ("identifierInstructions", "OpenClaw retired custom identifier instructions: `openclaw doctor --fix` removes them and sets `identifierPolicy` to `\"strict\"`, which keeps every opaque identifier"),
    ("customInstructions", "OpenClaw retired custom compaction instructions: `openclaw doctor --fix` removes them; ctxguard's plugin (`ctxguard init openclaw`) gives the commitments back after each compaction"),
];

pub(super) fn check(cx: &mut Context<'_>) {
    // OpenClaw compacts whatever its configuration says; ctxguard's plugin
    // (`ctxguard init openclaw`) is its guard.
    let guarded = cx
        .root
        .at(&["plugins", "entries", crate::hook::openclaw::PLUGIN_ID])
        .is_some_and(|entry| entry.get("enabled").and_then(|e| e.as_bool()) != Some(false));
    if !guarded {
        // Where its hooks are, else its agents' settings.
        super::hooks::unguarded(
            cx,
            &["hooks", "agents"],
            "OpenClaw",
            "ctxguard's plugin (`ctxguard init openclaw`) is not enabled here",
            "run `ctxguard init openclaw`: it writes ctxguard's plugin to `~/.openclaw/extensions/ctxguard/` and enables it here",
        );
    }
    let Some(compaction) = cx.root.at(&["agents", "defaults", "compaction"]) else {
        return;
    };
    for entry in compaction.entries() {
        if KEYS.contains(&entry.key.as_str()) {
            continue;
        }
        let key = format!("compaction.{}", entry.key);
        let help = match RETIRED.iter().find(|(retired, _)| *retired == entry.key) {
            Some((_, why)) => (*why).to_owned(),
            None => match super::suggest(&entry.key, KEYS) {
                Some(known) => format!("did you mean `compaction.{known}`?"),
                None => "remove it: `openclaw config validate` names every key OpenClaw refuses"
                    .to_owned(),
            },
        };
        let d = codes::refused_key(cx.file, entry.key_span.clone(), &key, "OpenClaw", &help);
        cx.push(d);
    }
    if let Some(policy) = compaction.get("identifierPolicy") {
        match cx.string(policy, "compaction.identifierPolicy") {
            Some("off") => {
                let d = codes::weakened(cx.file, policy.span.clone(), "`identifierPolicy: \"off\"` lets compaction rewrite identifiers: paths, ids and hashes are paraphrased", "leave `identifierPolicy` at `\"strict\"`");
                cx.push(d);
            }
            Some("strict") | None => {}
            // `custom` was retired: `openclaw doctor --fix` makes it `strict`.
            Some(other) => {
                let found = format!("`{}`", crate::source::escaped(other, 40, "…", |_| false));
                cx.invalid(
                    policy,
                    "compaction.identifierPolicy",
                    "`\"strict\"` or `\"off\"`",
                    &found,
                );
            }
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
    if let (Some(keep), Some(window)) = (compaction.get("keepRecentTokens"), cx.window()) {
        if let Some(tokens) = cx.number(keep, "compaction.keepRecentTokens") {
            if tokens >= window as f64 {
                let d = codes::window(cx.file, keep.span.clone(), &format!("OpenClaw keeps the last {tokens} tokens verbatim; the policy's window is {window}"), "keep `keepRecentTokens` well below the policy's `budget window`");
                cx.push(d);
            }
        }
    }
}
