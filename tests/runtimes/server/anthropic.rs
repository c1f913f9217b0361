//! Anthropic Messages (`POST /v1/messages`), streamed as server-sent
//! events or answered whole: what Claude Code and pi speak.

use serde_json::{json, Value};

use super::{content_text, events, Answer, Kind, Reply, Wire};

/// What each runtime's compaction request asks, in its last user message.
const COMPACTION: &[&str] = &[
    // Claude Code, 2.0 to 2.1.3xx.
    "create a detailed summary of the conversation",
    // pi: a first summary, an update of one, the prefix of a split turn.
    "Create a structured context checkpoint summary",
    "incorporate into the existing summary",
    "This is the PREFIX of a turn",
    // OpenClaw: the history, then the prefix of a turn it splits.
    "Produce a compact, factual summary with these exact section headings",
];

/// What a runtime asks the model for its own housekeeping, not a turn of
/// the conversation (OpenClaw's memory flush before a compaction).
const HOUSEKEEPING: &[&str] = &["Pre-compaction memory flush"];

pub struct Anthropic;

impl Wire for Anthropic {
    fn classify(&self, method: &str, path: &str, body: &Value) -> Kind {
        if method != "POST" || !path.starts_with("/v1/messages") || path.contains("count_tokens") {
            return Kind::Aside;
        }
        let messages = body
            .get("messages")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let last_user = messages
            .iter()
            .rev()
            .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
            .map(content_text)
            .unwrap_or_default();
        if COMPACTION.iter().any(|c| last_user.contains(c)) {
            return Kind::Compaction;
        }
        if HOUSEKEEPING.iter().any(|h| last_user.contains(h)) {
            return Kind::Aside;
        }
        let tools = body
            .get("tools")
            .and_then(Value::as_array)
            .is_some_and(|t| !t.is_empty());
        let max_tokens = body.get("max_tokens").and_then(Value::as_u64).unwrap_or(0);
        if last_user.trim() == "Warmup" || max_tokens <= 1 || !tools {
            return Kind::Aside;
        }
        Kind::Turn
    }

    fn respond(
        &self,
        _: &str,
        body: &Value,
        reply: &Reply,
        input_tokens: u64,
        serial: u64,
    ) -> Answer {
        let model = body.get("model").cloned().unwrap_or(json!("model"));
        let id = format!("msg_{serial:06}");
        let (block, delta, stop) = match reply {
            Reply::Text(text) => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": text}),
                "end_turn",
            ),
            Reply::Tool { name, input } => (
                json!({"type": "tool_use", "id": format!("toolu_{serial:06}"), "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
                "tool_use",
            ),
        };
        let usage = json!({
            "input_tokens": input_tokens,
            "output_tokens": 20,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
        });
        if body.get("stream").and_then(Value::as_bool) != Some(true) {
            let content = match reply {
                Reply::Text(text) => json!([{"type": "text", "text": text}]),
                Reply::Tool { name, input } => json!([{
                    "type": "tool_use", "id": format!("toolu_{serial:06}"), "name": name, "input": input,
                }]),
            };
            let message = json!({
                "id": id, "type": "message", "role": "assistant", "model": model,
                "content": content, "stop_reason": stop, "stop_sequence": null, "usage": usage,
            });
            return Answer {
                status: 200,
                content_type: "application/json",
                body: message.to_string().into_bytes(),
            };
        }
        let start = json!({
            "type": "message_start",
            "message": {
                "id": id, "type": "message", "role": "assistant", "model": model,
                "content": [], "stop_reason": null, "stop_sequence": null, "usage": usage,
            },
        });
        Answer {
            status: 200,
            content_type: "text/event-stream",
            body: events([
                ("message_start", start),
                (
                    "content_block_start",
                    json!({"type": "content_block_start", "index": 0, "content_block": block}),
                ),
                (
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0, "delta": delta}),
                ),
                (
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": 0}),
                ),
                (
                    "message_delta",
                    json!({
                        "type": "message_delta",
                        "delta": {"stop_reason": stop, "stop_sequence": null},
                        "usage": {"input_tokens": input_tokens, "output_tokens": 20},
                    }),
                ),
                ("message_stop", json!({"type": "message_stop"})),
            ]),
        }
    }
}
