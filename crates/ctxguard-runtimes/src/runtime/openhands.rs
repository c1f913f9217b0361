//! OpenHands `config.toml`: the `[condenser]` and what it forgets. Condenser
//! sections forbid unknown keys: OpenHands refuses to start on one.

use super::Context;
use crate::buffer::tree::Node;
use crate::diagnostics::codes::runtime as codes;
use crate::diagnostics::Severity;

/// Each condenser type and the keys it takes.
const TYPES: &[(&str, &[&str])] = &[
    ("noop", &[]),
    ("observation_masking", &["attention_window"]),
    ("browser_output_masking", &["attention_window"]),
    ("recent", &["keep_first", "max_events"]),
    (
        "llm",
        &["llm_config", "keep_first", "max_size", "max_event_length"],
    ),
    ("amortized", &["max_size", "keep_first"]),
    ("llm_attention", &["llm_config", "max_size", "keep_first"]),
    (
        "structured",
        &["llm_config", "keep_first", "max_size", "max_event_length"],
    ),
    ("pipeline", &["condensers"]),
];

pub(super) fn check(cx: &mut Context<'_>) {
    if let Some(condenser) = cx.root.get("condenser") {
        condenser_checks(cx, condenser, true);
        // With nothing condensing, the agent controller truncates the
        // history when the model's window is exceeded, unsummarized.
        let noop = condenser.get("type").and_then(|t| t.as_str()) == Some("noop");
        let truncation = cx
            .root
            .at(&["agent", "enable_history_truncation"])
            .and_then(|t| t.as_bool())
            .unwrap_or(true);
        if let (true, true, Some(kind)) = (noop, truncation, condenser.get("type")) {
            let d = codes::truncating(
                cx.file,
                kind.span.clone(),
                "the `noop` condenser never summarizes: when the model's window is exceeded, OpenHands truncates the history instead, forgetting older events unsummarized",
                false,
            )
            .severity(Severity::Warning)
            .note("history truncation is on unless `[agent] enable_history_truncation = false`; it only acts when the window overflows");
            cx.push(d);
        }
    }
}

/// One condenser; `last` when nothing runs after it.
fn condenser_checks(cx: &mut Context<'_>, condenser: &Node, last: bool) {
    let Some(kind) = condenser.get("type") else {
        return;
    };
    let Some(name) = cx.string(kind, "condenser.type") else {
        return;
    };
    let Some((_, keys)) = TYPES.iter().find(|(t, _)| *t == name) else {
        let names: Vec<&str> = TYPES.iter().map(|(t, _)| *t).collect();
        let d = match super::suggest(name, &names) {
            Some(s) => codes::unknown_key(cx.file, kind.span.clone(), name, "OpenHands", s),
            None => codes::wrong_type(
                cx.file,
                kind.span.clone(),
                "condenser.type",
                "a condenser OpenHands has",
                &format!("`{name}`"),
            ),
        };
        cx.push(d.severity(Severity::Error));
        return;
    };
    for entry in condenser.entries() {
        if entry.key != "type" && !keys.contains(&entry.key.as_str()) {
            let d = match super::suggest(&entry.key, keys) {
                Some(s) => {
                    codes::unknown_key(cx.file, entry.key_span.clone(), &entry.key, "OpenHands", s)
                }
                None => codes::wrong_type(
                    cx.file,
                    entry.key_span.clone(),
                    &entry.key,
                    &format!("a key of the `{name}` condenser"),
                    "an unknown key (OpenHands refuses to start)",
                ),
            };
            cx.push(d.severity(Severity::Error));
        }
    }
    let size = cx.number_at(condenser, "max_size", "max_size");
    if let Some((node, v)) = size {
        if v < 2.0 {
            cx.invalid(node, "max_size", "at least 2", &v.to_string());
        }
    }
    if let (Some((_, size)), Some(first)) = (size, condenser.get("keep_first")) {
        if let Some(k) = cx.number(first, "keep_first") {
            if k >= size / 2.0 {
                let d = codes::window(cx.file, first.span.clone(), &format!("the condenser keeps the first {k} events of at most {size}: little is left to summarize"), "keep `keep_first` below half of `max_size`");
                cx.push(d);
            }
        }
    }
    if let Some(reference) = condenser.get("llm_config") {
        if let Some(name) = reference.as_str() {
            if cx.root.at(&["llm", name]).is_none() {
                cx.invalid(
                    reference,
                    "llm_config",
                    &format!("the name of an `[llm.{name}]` section"),
                    &format!("`{name}`, which has no section"),
                );
            }
        }
    }
    match name {
        "recent" | "amortized" => {
            let what = if name == "recent" {
                "the `recent` condenser forgets all but the first and the most recent events, unsummarized"
            } else {
                "the `amortized` condenser forgets events in bulk, unsummarized"
            };
            let d = codes::truncating(cx.file, kind.span.clone(), what, false);
            cx.push(if last {
                d
            } else {
                d.severity(Severity::Warning)
                    .note("a later condenser in the pipeline runs after it")
            });
        }
        "observation_masking" | "browser_output_masking" => {
            let d = codes::truncating(
                cx.file,
                kind.span.clone(),
                &format!("the `{name}` condenser masks old tool output"),
                true,
            );
            cx.push(d);
        }
        "pipeline" => {
            if let Some(list) = condenser.get("condensers") {
                let items = list.items();
                for (i, item) in items.iter().enumerate() {
                    condenser_checks(cx, item, last && i + 1 == items.len());
                }
            }
        }
        _ => {}
    }
}
