//! SWE-agent run YAML: `agent.history_processors`, which elide old observations
//! without a summary.

use super::Context;
use crate::diagnostics::codes::runtime as codes;

const TYPES: &[&str] = &[
    "default",
    "last_n_observations",
    "tag_tool_call_observations",
    "closed_window",
    "cache_control",
    "remove_regex",
    "image_parsing",
];

pub(super) fn check(cx: &mut Context<'_>) {
    let Some(processors) = cx.root.at(&["agent", "history_processors"]) else {
        return;
    };
    for processor in processors.items() {
        let Some(kind) = processor.get("type") else {
            continue;
        };
        let Some(name) = cx.string(kind, "type") else {
            continue;
        };
        match name {
            "last_n_observations" => {
                let n = cx.number_at(processor, "n", "n");
                if let Some((node, v)) = n {
                    if v < 1.0 {
                        cx.invalid(
                            node,
                            "n",
                            "a number of observations above 0",
                            &v.to_string(),
                        );
                    }
                }
                let kept = n.map_or("the last few".to_owned(), |(_, v)| format!("the last {v}"));
                let d = codes::truncating(cx.file, kind.span.clone(), &format!("SWE-agent replaces every observation but {kept} with \"Old environment output: (N lines omitted)\", unsummarized"), true);
                cx.push(d);
            }
            "closed_window" | "remove_regex" => {
                let d = codes::truncating(cx.file, kind.span.clone(), &format!("SWE-agent's `{name}` removes content from the history without a summary or a marker"), true);
                cx.push(d);
            }
            other if !TYPES.contains(&other) => {
                let d = match super::suggest(other, TYPES) {
                    Some(s) => {
                        codes::unknown_key(cx.file, kind.span.clone(), other, "SWE-agent", s)
                    }
                    None => codes::wrong_type(
                        cx.file,
                        kind.span.clone(),
                        "type",
                        "a history processor SWE-agent has",
                        &format!("`{other}`"),
                    ),
                };
                cx.push(d.severity(crate::diagnostics::Severity::Error));
            }
            _ => {}
        }
    }
}
