//! ctxguard's Claude Code plugin (`.claude-plugin/marketplace.json`,
//! `plugins/claude-code/`): its hooks are the ones `init` writes for a
//! version it does not know, generated here so the committed file cannot
//! drift from them.

use serde_json::{json, Value};

use super::commands::{handlers, hook_command, wanted, HOOKS};
use super::{Guarded, HookEvent};

/// The hooks of ctxguard's Claude Code plugin
/// (`plugins/claude-code/hooks/hooks.json`): what `init` writes for a
/// version it does not know (no PostCompact, which a version before 2.1.76
/// cannot read, and which would switch off every hook of the file there;
/// SessionStart and the next prompt check each summary instead), running
/// `ctxguard` from the `PATH`.
pub fn plugin_hooks() -> Value {
    let mut hooks = serde_json::Map::new();
    for (event, matcher, timeout) in HOOKS {
        if !wanted(event, None) {
            continue;
        }
        let mut command = hook_command(Guarded::ClaudeCode, "ctxguard", event, None, None);
        // A guard that cannot run refuses: without ctxguard on the `PATH`
        // the compaction is refused (exit 2) and the user told why, not
        // let through unguarded.
        if event == HookEvent::PreCompact {
            command = format!("command -v ctxguard >/dev/null 2>&1 || {{ echo '{MISSING}' >&2; exit 2; }}; exec {command}");
        }
        hooks.insert(
            event.name().to_owned(),
            json!([handlers(command, matcher, timeout)]),
        );
    }
    json!({
        "description": "ctxguard: records the commitments you type, asks the compactor to keep them word for word, checks each summary, and gives them back after every compaction",
        "hooks": hooks,
    })
}

/// What the plugin's PreCompact says when `ctxguard` is not on the `PATH`.
const MISSING: &str = "ctxguard refused this compaction: the ctxguard plugin is installed but the ctxguard command is not on the PATH Claude Code runs hooks with. Install ctxguard (cargo install --path . in its repository), or disable the plugin (/plugin disable ctxguard), then compact again.";
