//! OpenAI Responses (`POST /v1/responses`), streamed as server-sent
//! events: what Codex speaks.

use serde_json::{json, Value};

use super::{content_text, events, Answer, Kind, Reply, Wire};

/// What Codex's local compaction asks, in its last input.
const COMPACTION: &[&str] = &["CONTEXT CHECKPOINT COMPACTION"];

pub struct Responses;

fn last_user(body: &Value) -> String {
    body.get("input")
        .and_then(Value::as_array)
        .and_then(|items| {
            items
                .iter()
                .rev()
                .find(|i| i.get("role").and_then(Value::as_str) == Some("user"))
        })
        .map(content_text)
        .unwrap_or_default()
}

impl Wire for Responses {
    fn classify(&self, method: &str, path: &str, body: &Value) -> Kind {
        if method != "POST" || !path.starts_with("/v1/responses") {
            return Kind::Aside;
        }
        let last = last_user(body);
        if path.ends_with("/compact") || COMPACTION.iter().any(|c| last.contains(c)) {
            return Kind::Compaction;
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
        let id = format!("resp_{serial:06}");
        let item_id = format!("msg_{serial:06}");
        let item = match reply {
            Reply::Text(text) => json!({
                "type": "message", "id": item_id, "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }),
            Reply::Tool { name, input } => json!({
                "type": "function_call", "id": item_id, "call_id": format!("call_{serial:06}"),
                "name": name, "arguments": input.to_string(), "status": "completed",
            }),
        };
        let usage = json!({
            "input_tokens": input_tokens,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": input_tokens + 20,
        });
        let response = |status: &str, output: Value, usage: Value| {
            json!({
                "id": id, "object": "response", "created_at": 0, "status": status,
                "model": model, "output": output, "usage": usage,
            })
        };
        let mut stream = vec![(
            "response.created",
            json!({"type": "response.created", "response": response("in_progress", json!([]), Value::Null)}),
        )];
        let mut added = item.clone();
        added["status"] = json!("in_progress");
        if let Reply::Text(text) = reply {
            added["content"] = json!([]);
            stream.push((
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": 0, "item": added}),
            ));
            stream.push((
                "response.content_part.added",
                json!({
                    "type": "response.content_part.added", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []},
                }),
            ));
            stream.push((
                "response.output_text.delta",
                json!({
                    "type": "response.output_text.delta", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "delta": text,
                }),
            ));
            stream.push((
                "response.output_text.done",
                json!({
                    "type": "response.output_text.done", "item_id": item_id, "output_index": 0,
                    "content_index": 0, "text": text,
                }),
            ));
        } else {
            stream.push((
                "response.output_item.added",
                json!({"type": "response.output_item.added", "output_index": 0, "item": added}),
            ));
        }
        stream.push((
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
        ));
        stream.push((
            "response.completed",
            json!({"type": "response.completed", "response": response("completed", json!([item]), usage)}),
        ));
        Answer {
            status: 200,
            content_type: "text/event-stream",
            body: events(stream),
        }
    }
}
