//! OpenHands conversations, as one JSON array of events or one event a
//! line. V0 events have an integer `id` and an `action` or `observation`; a
//! `condensation` action forgets events (a list, or an inclusive id range)
//! and the view shows only the latest summary, at `summary_offset`. V1
//! events have a `kind`; each `Condensation` is applied in order: its
//! forgotten ids removed, its summary inserted at `summary_offset`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use serde_json::Value;

use super::records::{self, Record};
use super::{Event, Imported, Importer, Message, Origin, Summary};
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

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported {
        Imported::from(self.compactions(file, problems))
    }
}

impl OpenHands {
    fn compactions(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Vec<Event> {
        let records = records::array_or_lines(file, problems);
        let v1 = records.iter().any(|r| r.value.get("kind").is_some());
        // Each condensation's view before and after it, built as the
        // events are read: linear in the file and the views.
        let views = if v1 {
            views_v1(&records)
        } else {
            views_v0(&records)
        };
        views
            .into_iter()
            .map(|(c, trace, plan)| {
                let record = &records[c];
                let summary_text = summary_of(record);
                let place: HashMap<(u64, Option<&str>), usize> = trace
                    .iter()
                    .enumerate()
                    .map(|(at, t)| ((t.line, t.record.as_deref()), at))
                    .collect();
                let kept = plan
                    .iter()
                    .filter(|m| m.origin != Origin::Summary)
                    .filter_map(|m| place.get(&(m.line, m.record.as_deref())).copied())
                    .collect();
                Event {
                    line: record.line,
                    record: id_of(record),
                    trigger: None,
                    tokens_before: None,
                    tokens_after: None,
                    version: None,
                    at: record.str("/timestamp").map(str::to_owned),
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
                    branch: 0,
                }
            })
            .collect()
    }
}

/// A condensation, with the view before it and the view after it.
type Views = Vec<(usize, Vec<Message>, Vec<Message>)>;

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

/// V0 `View.from_events` at each condensation: the events so far less the
/// union of everything forgotten, and only the latest summary. What is
/// forgotten is marked once, however often it is named: an id range up to
/// 2^63 costs the events it names.
fn views_v0(records: &[Record]) -> Views {
    let ids: Vec<Option<String>> = records.iter().map(id_of).collect();
    let mut by_id: HashMap<&str, Vec<usize>> = HashMap::new();
    // Events whose id is a number, not yet forgotten, by that number.
    let mut numbered: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, id) in ids.iter().enumerate() {
        let Some(id) = id.as_deref() else { continue };
        by_id.entry(id).or_default().push(i);
        if let Some(n) = id.parse::<u64>().ok().filter(|n| n.to_string() == id) {
            numbered.entry(n).or_default().push(i);
        }
    }
    let mut gone = vec![false; records.len()];
    let mut forget = |id: &str, gone: &mut Vec<bool>| {
        for i in by_id.remove(id).unwrap_or_default() {
            gone[i] = true;
        }
    };
    let mut alive: Vec<usize> = Vec::new();
    let mut latest: Option<Message> = None;
    let mut offset = 0;
    let mut views = Vec::new();
    let view = |alive: &[usize], latest: &Option<Message>, offset: usize| {
        let mut view: Vec<Message> = alive
            .iter()
            .filter_map(|&i| message_v0(&records[i]))
            .collect();
        if let Some(summary) = latest {
            view.insert(offset.min(view.len()), summary.clone());
        }
        view
    };
    for (i, event) in records.iter().enumerate() {
        super::work(1);
        let condensation = is_condensation(event);
        if !condensation && event.str("/action") != Some("condensation_request") {
            if !gone[i] {
                alive.push(i);
            }
            continue;
        }
        let before = condensation.then(|| view(&alive, &latest, offset));
        if let Some(id) = ids[i].as_deref() {
            forget(id, &mut gone);
        }
        if condensation {
            if let Some(Value::Array(named)) = field(event, "forgotten_event_ids") {
                for id in named {
                    super::work(1);
                    forget(id.to_string().trim_matches('"'), &mut gone);
                }
            }
            if let (Some(start), Some(end)) = (
                field(event, "forgotten_events_start_id").and_then(Value::as_u64),
                field(event, "forgotten_events_end_id").and_then(Value::as_u64),
            ) {
                let named: Vec<u64> = if start <= end {
                    numbered.range(start..=end).map(|(n, _)| *n).collect()
                } else {
                    Vec::new()
                };
                for n in named {
                    super::work(1);
                    for i in numbered.remove(&n).unwrap_or_default() {
                        gone[i] = true;
                    }
                }
            }
            if let Some(text) = summary_of(event) {
                offset = offset_of(event).unwrap_or(0);
                latest = Some(Message {
                    origin: Origin::Summary,
                    text,
                    line: event.line,
                    record: ids[i].clone(),
                });
            }
        }
        alive.retain(|&a| !gone[a]);
        super::work(alive.len() as u64);
        if let Some(before) = before {
            views.push((i, before, view(&alive, &latest, offset)));
        }
    }
    views
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

/// V1 `View.from_events`: each condensation applied in order; the view
/// before and after each.
fn views_v1(records: &[Record]) -> Views {
    let mut view: Vec<Message> = Vec::new();
    let mut views = Vec::new();
    for (i, event) in records.iter().enumerate() {
        match event.str("/kind") {
            Some("Condensation") => {
                let before = view.clone();
                let forgotten: HashSet<&str> = match field(event, "forgotten_event_ids") {
                    Some(Value::Array(ids)) => ids.iter().filter_map(Value::as_str).collect(),
                    _ => HashSet::new(),
                };
                view.retain(|m| !m.record.as_deref().is_some_and(|id| forgotten.contains(id)));
                super::work(view.len() as u64);
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
                views.push((i, before, view.clone()));
            }
            _ => view.extend(message_v1(event)),
        }
    }
    views
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
            let observation = event
                .value
                .get("observation")
                .unwrap_or_else(|| event.value.whole());
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
