//! The Gemini API (`POST /v1beta/models/MODEL:streamGenerateContent?alt=sse`
//! for a turn, `:generateContent` for the client's own requests): what
//! Gemini CLI speaks. A compaction is two requests: the summary, then a
//! check of it ("Critically evaluate the <state_snapshot>…"), answered
//! with the summary the request carries, as a model that finds nothing to
//! add answers.

use serde_json::{json, Value};

use super::{Answer, Kind, Reply, Wire};

/// What a compaction's first request asks, in its last user message.
const COMPACTION: &[&str] = &[
    "Generate a new <state_snapshot>",
    "A previous <state_snapshot> exists",
];

/// What the compaction's second request asks.
const VERIFICATION: &str = "Critically evaluate the <state_snapshot>";

pub struct Gemini;

/// The text of a `contents` item.
fn text(content: &Value) -> String {
    content
        .get("parts")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<String>()
        })
        .unwrap_or_default()
}

fn contents(body: &Value) -> &[Value] {
    body.get("contents")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

impl Wire for Gemini {
    fn classify(&self, method: &str, path: &str, body: &Value) -> Kind {
        if method != "POST" || !path.contains(":") {
            return Kind::Aside;
        }
        let last = contents(body).last().map(text).unwrap_or_default();
        if COMPACTION.iter().any(|c| last.contains(c)) {
            return Kind::Compaction;
        }
        if path.contains(":streamGenerateContent") {
            return Kind::Turn;
        }
        Kind::Aside
    }

    fn respond(
        &self,
        path: &str,
        body: &Value,
        reply: &Reply,
        input_tokens: u64,
        _: u64,
    ) -> Answer {
        let all = contents(body);
        // The check of a summary: the summary again, as the request has it.
        let checked = all
            .last()
            .is_some_and(|last| text(last).contains(VERIFICATION))
            .then(|| all.iter().rev().nth(1).map(text))
            .flatten();
        let part = match (checked, reply) {
            (Some(summary), _) => json!({"text": summary}),
            (None, Reply::Text(text)) => json!({"text": text}),
            (None, Reply::Tool { name, input }) => {
                json!({"functionCall": {"name": name, "args": input}})
            }
        };
        let response = json!({
            "candidates": [{
                "content": {"role": "model", "parts": [part]},
                "finishReason": "STOP",
                "index": 0,
            }],
            "usageMetadata": {
                "promptTokenCount": input_tokens,
                "candidatesTokenCount": 20,
                "totalTokenCount": input_tokens + 20,
            },
            "modelVersion": "gemini-2.5-pro",
        });
        let streamed = path.contains("alt=sse");
        let body = if streamed {
            format!("data: {response}\r\n\r\n").into_bytes()
        } else {
            response.to_string().into_bytes()
        };
        Answer {
            status: 200,
            content_type: if streamed {
                "text/event-stream"
            } else {
                "application/json"
            },
            body,
        }
    }
}
