//! Scrubbing what a real runtime wrote before it becomes a fixture: the
//! runtime's own text (system prompts, tool descriptions, prompt
//! snapshots, the request records Claude Code 2.1.x keeps, system
//! reminders) is replaced by a placeholder of the same shape, and the
//! machine's folders by `/offline`. What the session is made of stays:
//! every record, its type, ids and links, the user's and the model's
//! words, the compaction records, the hooks' own output.
//!
//! [`clean`] is what a committed fixture must satisfy: scrubbing it again
//! changes nothing, and no fingerprint of a runtime's own text is left.

#![allow(dead_code)]

use serde_json::Value;

/// What replaces a runtime's own text.
pub const PLACEHOLDER: &str = "[runtime text]";

/// The folder a fixture's paths are written under.
pub const OFFLINE: &str = "/offline";

/// Records that are the runtime's requests to the model, kept whole by
/// Claude Code 2.1.x: their text is the vendor's.
const REQUEST_RECORDS: &[&str] = &["api-request", "api-request-shape", "api-request-blob"];

/// Attachments that carry the runtime's own text.
const RUNTIME_ATTACHMENTS: &[&str] = &[
    "prompt_snapshot",
    "skill_listing",
    "deferred_tools_delta",
    "agent_listing_delta",
    "environment",
    "model",
    "date",
    "session_context",
    "remote_session_change",
    "mcp_instructions_delta",
    "critical_system_reminder",
    "output_style",
    "plan_mode",
    "todo_reminder",
];

/// Keys whose values are names, ids and shapes, never prose.
const STRUCTURE: &[&str] = &[
    "type",
    "subtype",
    "uuid",
    "parentUuid",
    "logicalParentUuid",
    "sessionId",
    "session_id",
    "timestamp",
    "version",
    "id",
    "role",
    "model",
    "name",
    "tool_use_id",
    "toolUseID",
    "hookName",
    "hookEvent",
    "requestId",
    "promptId",
    "prompt_id",
    "trigger",
    "level",
    "userType",
    "entrypoint",
    "gitBranch",
    "stop_reason",
    "leafUuid",
    "messageId",
];

/// A string longer than this is the runtime's own (instructions, skills,
/// environment) unless it holds one of [`OURS`].
pub const LONG: usize = 200;

/// What every long text the runtime tests write holds: their session is
/// about migrating the orders table, ctxguard's context names ctxguard,
/// and the log pasted in a Codex session is of migration steps.
pub const OURS: &[&str] = &["orders", "ctxguard's", "ctxguard:", "migrate step="];

/// Texts no fixture may hold: fingerprints of the runtimes' own prompts.
pub const FINGERPRINTS: &[&str] = &[
    "You are Claude Code",
    "You are an interactive",
    "Your task is to create a detailed summary of the conversation",
    "CRITICAL: Respond with TEXT ONLY",
    "CONTEXT CHECKPOINT COMPACTION",
    "Create a structured context checkpoint summary",
    "IMPORTANT: Assist with authorized security testing",
    "The following deferred tools are now available",
    "The following skills are available",
    "<skills_instructions>",
    "<permissions instructions>",
    "You are Codex",
    "You are an expert coding assistant",
];

/// `text` (JSON Lines) scrubbed; `dir` is the folder the session ran in,
/// `ctxguard` the binary its hooks ran.
pub fn transcript(text: &str, dir: &str, ctxguard: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = paths(line, dir, ctxguard);
        match serde_json::from_str::<Value>(&line) {
            Ok(mut record) => {
                scrub_record(&mut record);
                out.push_str(&record.to_string());
            }
            Err(_) => out.push_str(&line),
        }
        out.push('\n');
    }
    out
}

/// `text` with `dir` (and Claude Code's folder name for it) written as
/// [`OFFLINE`], and the path of the `ctxguard` binary as `ctxguard`.
pub fn paths(text: &str, dir: &str, ctxguard: &str) -> String {
    let mut text = text.to_owned();
    if !ctxguard.is_empty() {
        text = text.replace(ctxguard, "ctxguard");
    }
    if dir.is_empty() {
        return text;
    }
    let slug = |path: &str| path.replace(['/', '.', '_'], "-");
    text.replace(dir, OFFLINE)
        .replace(&slug(dir), &slug(OFFLINE))
}

fn scrub_record(record: &mut Value) {
    let kind = record["type"].as_str().unwrap_or_default().to_owned();
    if REQUEST_RECORDS.contains(&kind.as_str()) {
        scrub_all(record, None);
        return;
    }
    if kind == "attachment" {
        let attachment = record["attachment"]["type"].as_str().unwrap_or_default();
        if RUNTIME_ATTACHMENTS.contains(&attachment) {
            if let Some(a) = record.get_mut("attachment") {
                scrub_all(a, None);
            }
            if let Some(r) = record.get_mut("rendered") {
                scrub_all(r, None);
            }
            return;
        }
    }
    reminders(record);
    long(record, None);
}

/// Every long string below `value` that is none of the tests' own text.
fn long(value: &mut Value, key: Option<&str>) {
    match value {
        Value::String(text) => {
            let structure = key.is_some_and(|k| STRUCTURE.contains(&k));
            if !structure && text.chars().count() > LONG && !OURS.iter().any(|o| text.contains(o)) {
                *text = PLACEHOLDER.to_owned();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| long(v, key)),
        Value::Object(map) => map.iter_mut().for_each(|(k, v)| long(v, Some(k))),
        _ => {}
    }
}

/// Every string below `value` but structure is the placeholder.
fn scrub_all(value: &mut Value, key: Option<&str>) {
    match value {
        Value::String(text) if key.is_none_or(|k| !STRUCTURE.contains(&k)) && !text.is_empty() => {
            *text = PLACEHOLDER.to_owned();
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_all(v, key)),
        Value::Object(map) => map.iter_mut().for_each(|(k, v)| scrub_all(v, Some(k))),
        _ => {}
    }
}

/// `<system-reminder>` blocks keep their tags, lose their text.
fn reminders(value: &mut Value) {
    match value {
        Value::String(text) if text.contains("<system-reminder>") => *text = reminder_free(text),
        Value::Array(items) => items.iter_mut().for_each(reminders),
        Value::Object(map) => map.values_mut().for_each(reminders),
        _ => {}
    }
}

fn reminder_free(text: &str) -> String {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start + OPEN.len()]);
        let after = &rest[start + OPEN.len()..];
        match after.find(CLOSE) {
            Some(end) => {
                let inner = &after[..end];
                // ctxguard's own re-injection stays: it is what is tested.
                if inner.contains("word for word from ctxguard's ledger") {
                    out.push_str(inner);
                } else {
                    out.push('\n');
                    out.push_str(PLACEHOLDER);
                    out.push('\n');
                }
                out.push_str(CLOSE);
                rest = &after[end + CLOSE.len()..];
            }
            None => {
                out.push_str(PLACEHOLDER);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Why `text`, a committed fixture, is not clean: `None` when it is.
pub fn clean(text: &str) -> Option<String> {
    if let Some(print) = FINGERPRINTS.iter().find(|f| text.contains(**f)) {
        return Some(format!("it holds a runtime's own text: `{print}`"));
    }
    let again = transcript(text, "", "");
    if again != text && again.trim_end() != text.trim_end() {
        let line = again
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        return Some(format!("scrubbing it again changes line {line}"));
    }
    None
}
