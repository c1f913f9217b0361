//! Codex CLI rollouts: one `{timestamp, type, payload}` line each. The
//! buffer is replayed forward as Codex itself rebuilds it: `response_item`s
//! are appended; a `compacted` line replaces the history with its
//! `replacement_history`, or, in the older message-only form, with the
//! initial context, the most recent user messages and the summary. A
//! remote compaction's summary is encrypted (`encrypted_content`): it is
//! imported, and the event says that it cannot be audited.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::records::{self, Record};
use super::{
    Current, Event, Imported, Importer, LastSummary, Message, Origin, Summary, ANSWER_MARK,
};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

pub(super) struct Codex;

/// How Codex introduces a local compaction's summary to the model.
const SUMMARY_PREFIX: &str = "Another language model started to solve this problem";

/// User-role messages Codex writes itself at the start of a session.
const SESSION_PREFIXES: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "<INSTRUCTIONS>",
    "<permissions",
    "# AGENTS.md",
    "<user_shell_command>",
    "<turn_aborted>",
];

/// Recent user messages a message-only compaction carries over: Codex
/// keeps up to 20,000 tokens of them; four bytes a token.
const KEPT_USER_BYTES: usize = 80_000;

impl Importer for Codex {
    fn recognizes(&self, text: &str) -> bool {
        records::first_object(text).is_some_and(|line| {
            line.get("payload").is_some()
                && matches!(
                    line.get("type").and_then(Value::as_str),
                    Some(
                        "session_meta"
                            | "response_item"
                            | "turn_context"
                            | "event_msg"
                            | "compacted"
                    )
                )
        })
    }

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported {
        let records = records::lines(file, problems);
        Imported {
            folder: records::started_in(&records, "/payload/cwd"),
            events: replay(&records).0,
        }
    }
}

/// A rollout as it stands while the session runs: the history Codex would
/// rebuild from it now, the version that wrote it (`session_meta`), and
/// the last compaction's summary.
pub(crate) fn current(file: &Arc<SourceFile>) -> Current {
    let mut problems = Vec::new();
    let records = records::lines(file, &mut problems);
    let (events, messages) = replay(&records);
    let last = events.last();
    Current {
        version: records
            .iter()
            .rev()
            .find_map(|r| r.str("/payload/cli_version").map(str::to_owned)),
        lines: file.text().lines().count() as u64,
        // What hooks gave the model since the last compaction: Codex keeps
        // it in the rollout as developer messages.
        given_back: last.map(|event| {
            messages
                .iter()
                .filter(|m| m.origin == Origin::Runtime && m.line > event.line)
                .map(|m| m.text.clone())
                .collect()
        }),
        summary: last.and_then(|event| {
            event
                .summary
                .as_ref()
                .filter(|s| !s.opaque)
                .map(|s| LastSummary {
                    text: s.text.clone(),
                    trigger: None,
                    line: event.line,
                    // What Codex kept of the user's own messages.
                    carried: event
                        .kept
                        .iter()
                        .filter_map(|&m| event.trace.get(m))
                        .map(|m| (m.text.clone(), m.origin != Origin::Tool))
                        .collect(),
                })
        }),
        messages,
    }
}

/// The compactions of a rollout, replayed forward, and the history after
/// its last line.
fn replay(records: &[Record]) -> (Vec<Event>, Vec<Message>) {
    let mut history: Vec<Message> = Vec::new();
    let mut tokens: Option<u64> = None;
    let mut version: Option<&str> = None;
    let mut events = Vec::new();
    let mut asked = Asked::default();
    for record in records {
        match record.str("/type") {
            Some("session_meta") => {
                version = record.str("/payload/cli_version").or(version);
            }
            Some("response_item") => {
                if let Some(payload) = record.value.get("payload") {
                    match asked.answers(payload, record.line) {
                        Some(answers) => history.extend(answers),
                        None => history.extend(item(payload, record.line, None)),
                    }
                }
            }
            Some("event_msg") => match record.str("/payload/type") {
                Some("token_count") => {
                    tokens = [
                        "/payload/info/last_token_usage/total_tokens",
                        "/payload/info/total_token_usage/total_tokens",
                    ]
                    .iter()
                    .find_map(|pointer| record.u64(pointer))
                    .or(tokens);
                }
                Some("thread_rolled_back") => {
                    roll_back(&mut history, record.u64("/payload/num_turns").unwrap_or(0));
                }
                Some("user_message") => {
                    if let Some(typed) = record.str("/payload/message") {
                        cite_where_typed(&mut history, typed, record.line);
                    }
                }
                _ => {}
            },
            Some("compacted") => {
                let mut event = compaction(record, &mut history, tokens);
                event.version = version.map(str::to_owned);
                events.push(event);
                // A count from before the compaction says nothing about after it.
                tokens = None;
            }
            _ => {}
        }
    }
    (events, history)
}

/// Codex writes each prompt twice: the message it puts in the buffer (a
/// `response_item`), then what the user typed (an `event_msg` of type
/// `user_message`, the line its own history and viewers show). The
/// prompt's words are cited where the user typed them: the last user
/// message before, of the same words, takes `line`.
fn cite_where_typed(history: &mut [Message], typed: &str, line: u64) {
    let typed = typed.trim();
    if typed.is_empty() {
        return;
    }
    let same = history
        .iter_mut()
        .rev()
        .take_while(|m| m.origin != Origin::Assistant)
        .find(|m| m.origin == Origin::User && m.line < line && m.text.trim() == typed);
    if let Some(message) = same {
        message.line = line;
    }
}

/// The questions Codex's `request_user_input` tool put to the user, by
/// call, until the user's answers come back as the call's output: the
/// choices are the user's, not the tool's.
#[derive(Default)]
struct Asked {
    /// Each open call's questions: their ids and texts.
    open: HashMap<String, Vec<(String, String)>>,
}

impl Asked {
    /// The user's answers when `payload` is the output of a question call
    /// (`{"answers": {id: {"answers": [choice, …]}}}`), one message each;
    /// `None` for any other item, which a question call is too once noted.
    fn answers(&mut self, payload: &Value, line: u64) -> Option<Vec<Message>> {
        let get = |name: &str| payload.get(name).and_then(Value::as_str);
        let call = get("call_id")?;
        match get("type")? {
            "function_call" if get("name") == Some("request_user_input") => {
                let arguments: Value = serde_json::from_str(get("arguments")?).ok()?;
                let questions = arguments
                    .get("questions")?
                    .as_array()?
                    .iter()
                    .filter_map(|q| {
                        let id = q.get("id")?.as_str()?;
                        let text = q.get("question").and_then(Value::as_str).unwrap_or(id);
                        Some((id.to_owned(), text.to_owned()))
                    })
                    .collect();
                self.open.insert(call.to_owned(), questions);
                None
            }
            "function_call_output" => {
                let questions = self.open.get(call)?;
                let output: Value = serde_json::from_str(get("output")?).ok()?;
                let answered = output.get("answers")?.as_object()?;
                let mut messages = Vec::new();
                for (id, question) in questions {
                    let choices = answered
                        .get(id)
                        .and_then(|a| a.get("answers"))
                        .and_then(Value::as_array);
                    for choice in choices.into_iter().flatten().filter_map(Value::as_str) {
                        // What the user typed beside the options is their
                        // words, not an option of the question's.
                        let (origin, text) = match choice.strip_prefix("user_note:") {
                            Some(note) => (Origin::User, note.trim().to_owned()),
                            None => (Origin::Answer, format!("{question} {ANSWER_MARK}{choice}")),
                        };
                        messages.push(Message {
                            origin,
                            text,
                            line,
                            record: None,
                        });
                    }
                }
                self.open.remove(call);
                Some(messages)
            }
            _ => None,
        }
    }
}

fn compaction(record: &Record, history: &mut Vec<Message>, tokens: Option<u64>) -> Event {
    let trace = history.clone();
    let mut notes = Vec::new();
    let replacement = record
        .value
        .pointer("/payload/replacement_history")
        .and_then(Value::as_array);
    let (plan, summary) = match replacement {
        Some(items) => {
            let mut plan = Vec::new();
            let mut summary = None;
            for (n, payload) in items.iter().enumerate() {
                let record_id = Some(format!("replacement_history/{n}"));
                if let Some(message) = item(payload, record.line, record_id) {
                    // An item the trace holds is the same message, carried over.
                    match trace
                        .iter()
                        .find(|t| t.origin == message.origin && t.text == message.text)
                    {
                        Some(original) if message.origin != Origin::Summary => {
                            plan.push(original.clone())
                        }
                        _ => {
                            if message.origin == Origin::Summary && summary.is_none() {
                                summary = Some(Summary {
                                    opaque: is_opaque(payload),
                                    text: message.text.clone(),
                                    line: record.line,
                                    record: message.record.clone(),
                                });
                            }
                            plan.push(message);
                        }
                    }
                }
            }
            // No summary among what it carried over: the buffer after is
            // exactly those messages (and the record's `message`, empty or
            // not), which is all there is to judge, not nothing.
            if summary.is_none() {
                notes.push("the compaction carried no summary: the buffer after it is the messages it kept (`replacement_history`)".to_owned());
                summary = Some(Summary {
                    opaque: false,
                    text: record.str("/payload/message").unwrap_or("").to_owned(),
                    line: record.line,
                    record: None,
                });
            }
            (plan, summary)
        }
        None => {
            notes.push("a message-only compaction: the buffer after it is rebuilt as Codex does (initial context, recent user messages, summary), approximately".to_owned());
            let text = record.str("/payload/message").unwrap_or("").to_owned();
            let mut plan: Vec<Message> = trace
                .iter()
                .filter(|m| m.origin == Origin::Runtime)
                .cloned()
                .collect();
            let mut recent = Vec::new();
            let mut bytes = 0;
            for message in trace.iter().rev().filter(|m| m.origin == Origin::User) {
                bytes += message.text.len();
                if bytes > KEPT_USER_BYTES {
                    break;
                }
                recent.push(message.clone());
            }
            recent.reverse();
            plan.extend(recent);
            let summary = Summary {
                opaque: false,
                text: text.clone(),
                line: record.line,
                record: None,
            };
            plan.push(Message {
                origin: Origin::Summary,
                text,
                line: record.line,
                record: None,
            });
            (plan, Some(summary))
        }
    };
    if summary.as_ref().is_some_and(|s| s.opaque) {
        notes.push("remote compaction: the summary is encrypted (`encrypted_content`), so what it says cannot be audited; only the messages carried over verbatim can".to_owned());
    }
    let kept = plan
        .iter()
        .filter_map(|m| {
            trace
                .iter()
                .position(|t| t.line == m.line && t.text == m.text && t.record == m.record)
        })
        .collect();
    *history = plan;
    Event {
        line: record.line,
        record: None,
        trigger: None,
        tokens_before: tokens,
        tokens_after: None,
        version: None,
        at: record.str("/timestamp").map(str::to_owned),
        trace,
        summary,
        kept,
        notes,
        partial: false,
        unplaced: 0,
        branch: 0,
    }
}

fn is_opaque(payload: &Value) -> bool {
    payload.get("encrypted_content").is_some()
}

/// Drops the last `turns` user turns: each user message and what followed it.
fn roll_back(history: &mut Vec<Message>, turns: u64) {
    for _ in 0..turns {
        match history.iter().rposition(|m| m.origin == Origin::User) {
            Some(at) => history.truncate(at),
            None => break,
        }
    }
}

/// The message a `response_item` payload puts in the buffer, if any.
fn item(payload: &Value, line: u64, record: Option<String>) -> Option<Message> {
    let get = |name: &str| payload.get(name).and_then(Value::as_str);
    let (origin, text) = match get("type")? {
        "message" => {
            let text = content_text(payload.get("content").unwrap_or(&Value::Null));
            let origin = match get("role") {
                Some("user") if text.trim_start().starts_with(SUMMARY_PREFIX) => Origin::Summary,
                Some("user")
                    if SESSION_PREFIXES
                        .iter()
                        .any(|p| text.trim_start().starts_with(p)) =>
                {
                    Origin::Runtime
                }
                Some("user") => Origin::User,
                Some("assistant") => Origin::Assistant,
                _ => Origin::Runtime,
            };
            (origin, text)
        }
        "function_call" | "custom_tool_call" => {
            let name = get("name").unwrap_or("tool");
            let arguments = get("arguments").or_else(|| get("input")).unwrap_or("");
            (Origin::Assistant, format!("[{name}] {arguments}"))
        }
        "local_shell_call" => (
            Origin::Assistant,
            format!(
                "[shell] {}",
                payload
                    .get("action")
                    .map(Value::to_string)
                    .unwrap_or_default()
            ),
        ),
        "function_call_output" | "custom_tool_call_output" => {
            let output = payload.get("output").unwrap_or(&Value::Null);
            let text = match output {
                Value::Object(object) => object
                    .get("content")
                    .map(records::text_of)
                    .unwrap_or_default(),
                other => content_text(other),
            };
            (Origin::Tool, text)
        }
        "compaction" | "compaction_summary" | "context_compaction" => (
            Origin::Summary,
            get("encrypted_content").unwrap_or("").to_owned(),
        ),
        _ => return None,
    };
    Some(Message {
        origin,
        text,
        line,
        record,
    })
}

fn content_text(content: &Value) -> String {
    match content {
        Value::Array(items) => items
            .iter()
            .filter_map(|item| item.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        other => records::text_of(other),
    }
}
