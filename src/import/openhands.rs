//! OpenHands conversations, as one JSON array of events or one event a
//! line. V0 events have an integer `id` and an `action` or `observation`; a
//! `condensation` action forgets events (a list, or an inclusive id range)
//! and the view shows only the latest summary, at `summary_offset`. V1
//! events have a `kind`; each `Condensation` is applied in order: its
//! forgotten ids removed, its summary inserted at `summary_offset`.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use super::records::{self, Record};
use super::{Event, Importer, Message, Origin, Summary};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

pub(super) struct OpenHands;

impl Importer for OpenHands {
    fn recognizes(&self, text: &str) -> bool {
        let head = text.trim_start();
        let first = match head.strip_prefix('[') {
            Some(rest) => serde_json::Deserializer::from_str(rest.trim_start())
                .into_iter::<Value>()
                .next()
                .and_then(Result::ok),
            None => records::first_object(head),
        };
        first.is_some_and(|event| {
            let v0 = event.get("id").is_some_and(Value::is_u64)
                && (event.get("action").is_some() || event.get("observation").is_some());
            let v1 =
                event.get("kind").is_some_and(Value::is_string) && event.get("source").is_some();
            v0 || v1
        })
    }

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Vec<Event> {
        let records = records::array_or_lines(file, problems);
        let v1 = records.iter().any(|r| r.value.get("kind").is_some());
        let condensations: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| is_condensation(r))
            .map(|(i, _)| i)
            .collect();
        condensations
            .iter()
            .map(|&c| {
                let view = |upto: usize| {
                    if v1 {
                        view_v1(&records[..upto])
                    } else {
                        view_v0(&records[..upto])
                    }
                };
                let trace = view(c);
                let plan = view(c + 1);
                let record = &records[c];
                let summary_text = summary_of(record);
                let kept = plan
                    .iter()
                    .filter(|m| m.origin != Origin::Summary)
                    .filter_map(|m| {
                        trace
                            .iter()
                            .position(|t| t.line == m.line && t.record == m.record)
                    })
                    .collect();
                Event {
                    line: record.line,
                    record: id_of(record),
                    trigger: None,
                    tokens_before: None,
                    tokens_after: None,
                    trace,
                    summary: summary_text.map(|text| Summary {
                        text,
                        line: record.line,
                        record: id_of(record),
                        opaque: false,
                    }),
                    kept,
                    notes: Vec::new(),
                    partial: false,
                    unplaced: 0,
                }
            })
            .collect()
    }
}

fn is_condensation(record: &Record) -> bool {
    record.str("/action") == Some("condensation") || record.str("/kind") == Some("Condensation")
}

fn id_of(record: &Record) -> Option<String> {
    match record.value.get("id")? {
        Value::String(id) => Some(id.clone()),
        other => Some(other.to_string()),
    }
}

/// A condensation's fields sit in `args` (V0) or on the event (V1).
fn field<'r>(record: &'r Record, name: &str) -> Option<&'r Value> {
    record
        .value
        .pointer(&format!("/args/{name}"))
        .or_else(|| record.value.get(name))
        .filter(|value| !value.is_null())
}

fn summary_of(record: &Record) -> Option<String> {
    field(record, "summary")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

fn offset_of(record: &Record) -> Option<usize> {
    field(record, "summary_offset")
        .and_then(Value::as_u64)
        .map(|n| n as usize)
}

/// V0 `View.from_events`: the union of everything forgotten, and only the
/// latest summary.
fn view_v0(events: &[Record]) -> Vec<Message> {
    let mut forgotten: HashSet<String> = HashSet::new();
    let mut latest = None;
    for event in events {
        if !is_condensation(event) && event.str("/action") != Some("condensation_request") {
            continue;
        }
        forgotten.extend(id_of(event));
        if !is_condensation(event) {
            continue;
        }
        if let Some(Value::Array(ids)) = field(event, "forgotten_event_ids") {
            forgotten.extend(
                ids.iter()
                    .map(|id| id.to_string().trim_matches('"').to_owned()),
            );
        }
        if let (Some(start), Some(end)) = (
            field(event, "forgotten_events_start_id").and_then(Value::as_u64),
            field(event, "forgotten_events_end_id").and_then(Value::as_u64),
        ) {
            // Bounded by the events there are: the range names ids, and ids count events.
            let end = end.min(start.saturating_add(events.len() as u64 + 1));
            forgotten.extend((start..=end).map(|id| id.to_string()));
        }
        if let Some(summary) = summary_of(event) {
            latest = Some((
                summary,
                offset_of(event).unwrap_or(0),
                event.line,
                id_of(event),
            ));
        }
    }
    let mut view: Vec<Message> = events
        .iter()
        .filter(|event| !id_of(event).is_some_and(|id| forgotten.contains(&id)))
        .filter_map(message_v0)
        .collect();
    if let Some((text, offset, line, record)) = latest {
        view.insert(
            offset.min(view.len()),
            Message {
                origin: Origin::Summary,
                text,
                line,
                record,
            },
        );
    }
    view
}

fn message_v0(event: &Record) -> Option<Message> {
    let from_user = event.str("/source") == Some("user");
    let (origin, text) = if let Some(action) = event.str("/action") {
        match action {
            "message" => (
                if from_user {
                    Origin::User
                } else {
                    Origin::Assistant
                },
                event
                    .str("/args/content")
                    .unwrap_or_else(|| event.str("/message").unwrap_or(""))
                    .to_owned(),
            ),
            "system" => (
                Origin::Runtime,
                event.str("/args/content").unwrap_or("").to_owned(),
            ),
            "condensation" | "condensation_request" | "change_agent_state" | "recall" => {
                return None
            }
            other => (
                Origin::Assistant,
                format!(
                    "[{other}] {}",
                    event
                        .value
                        .get("args")
                        .map(Value::to_string)
                        .unwrap_or_default()
                ),
            ),
        }
    } else {
        match event.str("/observation")? {
            "agent_state_changed" | "null" | "condense" => return None,
            _ => (Origin::Tool, event.str("/content").unwrap_or("").to_owned()),
        }
    };
    (!text.is_empty()).then(|| Message {
        origin,
        text,
        line: event.line,
        record: id_of(event),
    })
}

/// V1 `View.from_events`: each condensation applied in order.
fn view_v1(events: &[Record]) -> Vec<Message> {
    let mut view: Vec<Message> = Vec::new();
    for event in events {
        match event.str("/kind") {
            Some("Condensation") => {
                let forgotten: HashSet<&str> = match field(event, "forgotten_event_ids") {
                    Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_str).collect(),
                    _ => HashSet::new(),
                };
                view.retain(|m| !m.record.as_deref().is_some_and(|id| forgotten.contains(id)));
                if let Some(text) = summary_of(event) {
                    let offset = offset_of(event).unwrap_or(0).min(view.len());
                    view.insert(
                        offset,
                        Message {
                            origin: Origin::Summary,
                            text,
                            line: event.line,
                            record: id_of(event).map(|id| format!("{id}-summary")),
                        },
                    );
                }
            }
            _ => view.extend(message_v1(event)),
        }
    }
    view
}

fn message_v1(event: &Record) -> Option<Message> {
    let content_text = |pointer: &str| {
        event
            .value
            .pointer(pointer)
            .map(records::text_of)
            .unwrap_or_default()
    };
    let (origin, text) = match event.str("/kind")? {
        "MessageEvent" => match event.str("/source") {
            Some("user") => (Origin::User, content_text("/llm_message/content")),
            _ => (Origin::Assistant, content_text("/llm_message/content")),
        },
        "SystemPromptEvent" => (Origin::Runtime, content_text("/system_prompt")),
        "ActionEvent" => (
            Origin::Assistant,
            format!(
                "[{}] {}",
                event.str("/tool_name").unwrap_or("action"),
                event
                    .value
                    .get("action")
                    .map(Value::to_string)
                    .unwrap_or_default()
            ),
        ),
        "ObservationEvent" | "UserRejectObservation" | "AgentErrorEvent" => {
            let observation = event.value.get("observation").unwrap_or(&event.value);
            let text = observation
                .get("content")
                .map(records::text_of)
                .or_else(|| {
                    observation
                        .get("error")
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            (Origin::Tool, text)
        }
        _ => return None,
    };
    (!text.is_empty()).then(|| Message {
        origin,
        text,
        line: event.line,
        record: id_of(event),
    })
}
