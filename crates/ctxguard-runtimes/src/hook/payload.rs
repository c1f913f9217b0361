//! What a runtime sends a hook on standard input: one JSON object, its
//! fields named as Claude Code names them (Codex, pi's extension and Gemini
//! CLI use the same names). Read tolerantly: fields are missing on older
//! versions and on some events, a string may be `null` or `""` (both mean
//! absent), a field may have a type another version gives it, and unknown
//! fields are ignored.

use serde_json::{Map, Value};

/// The fields of a hook input ctxguard uses.
#[derive(Clone, Debug, Default)]
pub struct Payload {
    /// The session: names the ledger.
    pub session_id: Option<String>,
    /// The prompt's id (2.1.196+).
    pub prompt_id: Option<String>,
    /// The session's transcript file.
    pub transcript_path: Option<String>,
    /// The working directory.
    pub cwd: Option<String>,
    /// The event Claude Code says this is.
    pub hook_event_name: Option<String>,
    /// Set inside a subagent.
    pub agent_id: Option<String>,
    /// UserPromptSubmit: what the user typed.
    pub prompt: Option<String>,
    /// PreCompact, PostCompact: `manual` or `auto`.
    pub trigger: Option<String>,
    /// PostCompact: the summary the compaction wrote.
    pub compact_summary: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact`, `fork`.
    pub source: Option<String>,
    /// PostToolUse: the tool.
    pub tool_name: Option<String>,
    /// PostToolUse: the tool call's id.
    pub tool_use_id: Option<String>,
    /// PostToolUse: what the tool was called with.
    pub tool_input: Value,
    /// PostToolUse: what it returned.
    pub tool_response: Value,
    /// Gemini CLI's BeforeModel: the request about to be sent
    /// (`{model, messages: [{role, content}], config}`).
    pub llm_request: Value,
    /// OpenClaw's `before_prompt_build` (through ctxguard's plugin): the
    /// messages of the run, a `compactionSummary` among them after a
    /// compaction.
    pub messages: Value,
}

impl Payload {
    /// Reads a payload: `Err` says why the input is not one.
    pub fn read(bytes: &[u8]) -> Result<Payload, String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err("is empty".to_owned());
        }
        let value: Value = serde_json::from_slice(bytes).map_err(|error| {
            format!(
                "is not JSON ({})",
                crate::diagnostics::friendly_serde(&error.to_string())
            )
        })?;
        let Value::Object(object) = value else {
            return Err("is JSON but not an object".to_owned());
        };
        let text = |name: &str| text(&object, name);
        Ok(Payload {
            session_id: text("session_id"),
            prompt_id: text("prompt_id"),
            transcript_path: text("transcript_path"),
            cwd: text("cwd"),
            hook_event_name: text("hook_event_name"),
            agent_id: text("agent_id"),
            prompt: text("prompt"),
            trigger: text("trigger"),
            compact_summary: text("compact_summary"),
            source: text("source"),
            tool_name: text("tool_name"),
            tool_use_id: text("tool_use_id"),
            tool_input: object.get("tool_input").cloned().unwrap_or(Value::Null),
            tool_response: object.get("tool_response").cloned().unwrap_or(Value::Null),
            llm_request: object.get("llm_request").cloned().unwrap_or(Value::Null),
            messages: object.get("messages").cloned().unwrap_or(Value::Null),
        })
    }
}

/// A string field: `null`, `""` and a missing field are absent; a number
/// or a boolean is its JSON text; anything else is absent.
fn text(object: &Map<String, Value>, name: &str) -> Option<String> {
    match object.get(name)? {
        Value::String(text) if text.is_empty() => None,
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_empty_missing_and_strange_fields_are_absent() {
        let payload = Payload::read(
            br#"{"session_id":"s1","custom_instructions":null,"trigger":"","cwd":7,"new_field":{"x":1},"prompt":["a"]}"#,
        )
        .unwrap();
        assert_eq!(payload.session_id.as_deref(), Some("s1"));
        assert_eq!(payload.trigger, None);
        assert_eq!(payload.cwd.as_deref(), Some("7"));
        assert_eq!(payload.prompt, None);
        assert!(payload.tool_input.is_null());
    }

    #[test]
    fn what_is_not_a_payload_says_why() {
        assert_eq!(Payload::read(b" \n").unwrap_err(), "is empty");
        assert!(Payload::read(b"[1]").unwrap_err().contains("not an object"));
        assert!(Payload::read(b"{\"a\":")
            .unwrap_err()
            .starts_with("is not JSON"));
        assert!(Payload::read(b"\xEF\xBB\xBF{}").is_ok());
    }
}
