//! SWE-agent trajectories (`.traj`): one JSON document. `history` is every
//! message; each step of `trajectory` records the exact prompt it sent
//! (`messages`, or `query` since May 2025), after history processors
//! replaced old observations with "Old environment output: (N lines
//! omitted)". There is no compaction record: a step whose prompt elides
//! more of the history than the step before is one compaction.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::Value;

use super::records;
use super::{Event, Imported, Importer, Message, Origin, Summary};
use crate::diagnostics::codes::import as codes;
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

pub(super) struct SweAgent;

impl Importer for SweAgent {
    fn recognizes(&self, text: &str) -> bool {
        text.trim_start().starts_with('{')
            && text.contains("\"trajectory\"")
            && (text.contains("\"history\"")
                || text.contains("\"info\"")
                || text.contains("\"environment\""))
    }

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported {
        Imported::from(self.compactions(file, problems))
    }
}

impl SweAgent {
    fn compactions(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Vec<Event> {
        let document: Value = match serde_json::from_str(file.text()) {
            Ok(document) => document,
            Err(error) => {
                let offset = file.offset_of(error.line(), error.column());
                problems.push(codes::unreadable_record(
                    file,
                    file.char_at(offset),
                    &error.to_string(),
                    offset + 1 >= file.text().len(),
                ));
                return Vec::new();
            }
        };
        let empty = Vec::new();
        let history: Vec<(usize, &Value)> = document
            .get("history")
            .and_then(Value::as_array)
            .unwrap_or(&empty)
            .iter()
            .enumerate()
            .filter(|(_, item)| {
                item.get("agent")
                    .and_then(Value::as_str)
                    .is_none_or(|a| a == "main")
            })
            .collect();
        let steps = document
            .get("trajectory")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let all_history = document
            .get("history")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let history_lines =
            records::element_lines(file, "history", all_history).unwrap_or_default();
        let step_lines =
            records::element_lines(file, "trajectory", steps.len()).unwrap_or_default();
        let line_of = |lines: &[u64], n: usize| lines.get(n).copied().unwrap_or(n as u64 + 1);
        let mut elided_before: BTreeSet<usize> = BTreeSet::new();
        let mut events = Vec::new();
        for (step, entry) in steps.iter().enumerate() {
            let Some(prompt) = entry
                .get("messages")
                .or_else(|| entry.get("query"))
                .and_then(Value::as_array)
            else {
                continue;
            };
            let trace_items = &history[..prompt.len().min(history.len())];
            let elided: BTreeSet<usize> = trace_items
                .iter()
                .zip(prompt)
                .enumerate()
                .filter(|(_, ((_, original), sent))| content(original) != content(sent))
                .map(|(j, _)| j)
                .collect();
            if elided.is_empty() || elided.is_subset(&elided_before) {
                continue;
            }
            let new: Vec<usize> = elided.difference(&elided_before).copied().collect();
            elided_before = elided.clone();
            let trace: Vec<Message> = trace_items
                .iter()
                .map(|&(h, item)| message(item, h, line_of(&history_lines, h)))
                .collect();
            let kept = (0..trace.len()).filter(|j| !elided.contains(j)).collect();
            let placeholders: Vec<String> = new.iter().map(|&j| content(&prompt[j])).collect();
            let line = line_of(&step_lines, step);
            events.push(Event {
                line,
                record: Some(format!("trajectory/{step}")),
                trigger: Some("history processor".to_owned()),
                tokens_before: None,
                tokens_after: None,
                version: None,
                at: None,
                trace,
                summary: Some(Summary {
                    text: placeholders.join("\n"),
                    line,
                    record: Some(format!("trajectory/{step}")),
                    opaque: false,
                }),
                kept,
                notes: Vec::new(),
                partial: false,
                unplaced: 0,
                branch: 0,
            });
        }
        events
    }
}

fn content(item: &Value) -> String {
    records::text_of(item.get("content").unwrap_or(&Value::Null))
}

/// A history item: the instance's task is the user's; the system prompt
/// and demonstrations are the runtime's; observations are tool output.
fn message(item: &Value, index: usize, line: u64) -> Message {
    let get = |name: &str| item.get(name).and_then(Value::as_str);
    let demo = item.get("is_demo").and_then(Value::as_bool) == Some(true);
    let origin = match (get("role"), get("message_type")) {
        _ if demo => Origin::Runtime,
        (Some("system"), _) => Origin::Runtime,
        (Some("assistant"), _) => Origin::Assistant,
        (Some("tool"), _) | (_, Some("observation")) if index > 1 => Origin::Tool,
        (Some("user"), _) => Origin::User,
        _ => Origin::Tool,
    };
    Message {
        origin,
        text: content(item),
        line,
        record: Some(format!("history/{index}")),
    }
}
