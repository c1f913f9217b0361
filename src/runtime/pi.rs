//! pi `settings.json` (RUNTIMES §3.7): what compaction keeps verbatim
//! (`keepRecentTokens`) and reserves, against the policy's window.

use super::Context;
use crate::diagnostics::codes::runtime as codes;

pub(super) fn check(cx: &mut Context<'_>) {
    let Some(compaction) = cx.root.get("compaction") else {
        return;
    };
    cx.unknown_keys(
        compaction,
        &["enabled", "reserveTokens", "keepRecentTokens"],
        "pi",
        "compaction.",
    );
    if let Some(enabled) = compaction.get("enabled") {
        cx.boolean(enabled, "compaction.enabled");
    }
    let reserve = compaction
        .get("reserveTokens")
        .and_then(|n| cx.number(n, "compaction.reserveTokens"));
    let keep = cx.number_at(
        compaction,
        "keepRecentTokens",
        "compaction.keepRecentTokens",
    );
    if let (Some((node, keep)), Some(window)) = (keep, cx.window()) {
        let room = window as f64 - reserve.unwrap_or(16384.0);
        if keep >= room {
            let d = codes::window(cx.file, node.span.clone(), &format!("pi keeps the last {keep} tokens verbatim, which leaves nothing to summarize in the policy's {window}-token window less {} reserved", reserve.unwrap_or(16384.0)), "keep `keepRecentTokens` well below the window less `reserveTokens`");
            cx.push(d);
        }
    }
}
