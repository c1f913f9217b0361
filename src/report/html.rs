//! `audit --html FILE`: one self-contained page a person reads in a
//! browser. Per compaction, each user commitment beside what became of it,
//! with filters by outcome; no network, no external asset, no script
//! beyond the filters. Text from sessions is escaped by `maud`.

use maud::{html, Markup, PreEscaped, DOCTYPE};

use ctxguard_runtimes::audit::{EventAudit, Outcome};

const STYLE: &str = r#"
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem; color: #1b1b1b; background: #fafafa; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.counts span { margin-right: 1rem; }
table { border-collapse: collapse; width: 100%; margin-top: .5rem; background: #fff; }
th, td { border: 1px solid #ddd; padding: .4rem .6rem; vertical-align: top; text-align: left; }
th { background: #f0f0f0; }
td.text { width: 42%; white-space: pre-wrap; }
.outcome { font-weight: 600; }
tr.verbatim .outcome { color: #2e7d32; } tr.paraphrased .outcome { color: #1565c0; }
tr.altered .outcome { color: #e65100; } tr.lost .outcome, tr.invented .outcome { color: #c62828; }
tr.unauditable .outcome { color: #6d6d6d; }
.changes { color: #5d4037; font-size: .9em; }
.filters label { margin-right: 1rem; }
.note { color: #555; font-style: italic; }
"#;

/// Shows or hides rows by outcome, from the checkboxes.
const SCRIPT: &str = r#"
for (const box of document.querySelectorAll('.filters input')) {
  box.addEventListener('change', () => {
    for (const row of document.querySelectorAll('tr.' + box.value)) {
      row.hidden = !box.checked;
    }
  });
}
"#;

/// The generator the page names, by which a later run knows a page it
/// may replace.
pub(crate) const GENERATOR: &str = "ctxguard audit";

/// Whether `head`, the start of a file, is a page [`page`] wrote.
pub(crate) fn is_page(head: &str) -> bool {
    written_by(head, GENERATOR)
}

/// Whether `head`, the start of a file, is a page that names `generator`.
pub(crate) fn written_by(head: &str, generator: &str) -> bool {
    head.starts_with("<!DOCTYPE html>")
        && head.get(..head.len().min(512)).is_some_and(|h| {
            h.contains(&format!(
                "<meta name=\"generator\" content=\"{generator}\">"
            ))
        })
}

/// The page for `events`.
pub fn page(events: &[EventAudit]) -> String {
    let total = |outcome: Outcome| -> usize { events.iter().map(|e| e.count(outcome)).sum() };
    let invented: usize = events.iter().map(|e| e.invented.len()).sum();
    let body = html! {
        h1 { "What each compaction did to what the user said" }
        p.counts {
            @for outcome in Outcome::ALL {
                span { (outcome.name()) ": " strong { (total(outcome)) } }
            }
            span { "invented: " strong { (invented) } }
        }
        p.filters {
            "Show: "
            @for outcome in Outcome::ALL {
                label {
                    input type="checkbox" value=(outcome.name()) checked;
                    " " (outcome.name())
                }
            }
            label { input type="checkbox" value="invented" checked; " invented" }
        }
        @for event in events { (section(event)) }
        script { (PreEscaped(SCRIPT)) }
    };
    document(GENERATOR, "ctxguard audit", STYLE, body)
}

/// A whole page: its head (the generator that names who wrote it, a
/// title, the style) and `body`.
pub(crate) fn document(generator: &str, title: &str, style: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="generator" content=(generator);
                title { (title) }
                style { (PreEscaped(style)) }
            }
            body { (body) }
        }
    }
    .into_string()
}

fn section(event: &EventAudit) -> Markup {
    html! {
        section.event {
            h2 {
                (event.source_file) ", compaction " (event.compaction.event)
                " (line " (event.compaction.compaction_line) ", " (event.runtime) "): " (event.verdict.name())
            }
            p.reason { (event.reason) }
            @for note in &event.notes { p.note { (note) } }
            @if event.pinned == 0 && !event.commitments.is_empty() {
                p.note { "Nothing here was pinned: commitments were classified after the fact, so these are candidates, not proofs." }
            }
            table {
                thead { tr { th { "line" } th { "the user said" } th { "outcome" } th { "after the compaction" } } }
                tbody {
                    @for c in &event.commitments {
                        tr class=(c.outcome.name()) {
                            td { (c.source_line.map(|l| l.to_string()).unwrap_or_default()) }
                            td.text { (c.text) br; small { (c.kind) " (" (derived(c.derived)) ")" } }
                            td.outcome { (c.outcome.name()) }
                            td.text {
                                @match &c.evidence {
                                    Some(evidence) => {
                                        (evidence.sentence) br;
                                        small { "similarity " (format!("{:.2}", evidence.similarity)) }
                                        @for change in &evidence.changes { div.changes { (change) } }
                                    }
                                    None if c.outcome == Outcome::Verbatim => { "kept as written" }
                                    None => { "" }
                                }
                                @if !c.history.is_empty() {
                                    div.changes {
                                        "before: "
                                        @for (n, e) in c.history.iter().enumerate() {
                                            @if n > 0 { ", " }
                                            (e.outcome.name()) " at compaction " (e.event)
                                        }
                                    }
                                }
                            }
                        }
                    }
                    @for invented in &event.invented {
                        tr.invented {
                            td { (invented.line) }
                            td.text { span.note { "no user message says so" } }
                            td.outcome { "invented" }
                            td.text { (invented.text) br; small { "support " (format!("{:.2}", invented.support)) } }
                        }
                    }
                }
            }
            @if !event.set_apart.is_empty() {
                details.apart {
                    summary { (event.set_apart.len()) " units set apart as not binding" }
                    ul {
                        @for unit in &event.set_apart {
                            li {
                                (unit.why.name()) ", line "
                                (unit.source_line.map(|l| l.to_string()).unwrap_or_default()) ": "
                                (unit.text)
                            }
                        }
                    }
                }
            }
        }
    }
}

fn derived(derived: ctxguard_core::buffer::trace::Derived) -> &'static str {
    use ctxguard_core::buffer::trace::Derived;
    match derived {
        Derived::Pin => "pinned",
        Derived::Answer => "answered",
        Derived::Hint => "by a hint",
        Derived::Sentence => "a user sentence",
    }
}
