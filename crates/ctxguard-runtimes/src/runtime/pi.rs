//! pi `settings.json`: what compaction keeps verbatim (`keepRecentTokens`) and
//! reserves, against the policy's window; and whether ctxguard's extension
//! (`ctxguard init pi`) stands beside it.

use super::Context;
use crate::diagnostics::codes::runtime as codes;

pub(super) fn check(cx: &mut Context<'_>) {
    let Some(compaction) = cx.root.get("compaction") else {
        return;
    };
    unguarded(cx, compaction);
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

/// A `compaction` that is on, without the extension `ctxguard init pi`
/// writes (as it wrote it) in the `extensions/` folder beside the settings
/// file (`.pi/` of a project, or
/// pi's agent folder): pi's compactions there go unguarded.
fn unguarded(cx: &mut Context<'_>, compaction: &crate::buffer::tree::Node) {
    let off = compaction
        .get("enabled")
        .is_some_and(|enabled| matches!(enabled.value, crate::buffer::tree::Value::Bool(false)));
    let folder = std::path::Path::new(cx.file.name())
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let extension = folder
        .join("extensions")
        .join(crate::hook::extension::FILE_NAME);
    if off || crate::hook::extension::installed_at(&extension) {
        return;
    }
    let span = cx
        .root
        .entry("compaction")
        .map_or(0..0, |e| e.key_span.clone());
    let d = codes::unguarded(
        cx.file,
        span,
        "pi",
        &format!(
            "no ctxguard extension in `{}`",
            folder.join("extensions").display()
        ),
        "run `ctxguard init pi` in the project (`--user` for every project): it writes the extension there",
    );
    cx.push(d);
}
