//! Session files shaped to make an importer do more than the file holds:
//! each once took time (or memory) that grew with the square or the cube
//! of its size. `tests/linear_importers.rs` counts the work each takes at
//! 1, 10 and 100 times a size; `cargo bench --bench hostile` times them.

use serde_json::json;

/// A shape, and the session file of it at `n`.
pub struct Shape {
    pub name: &'static str,
    pub what: &'static str,
    pub session: fn(usize) -> String,
}

pub const SHAPES: &[Shape] = &[
    Shape {
        name: "claude-preserved-segment",
        what: "Claude Code records, a boundary every ten whose preserved segment's head is nowhere",
        session: claude_preserved_segment,
    },
    Shape {
        name: "claude-chain-through-boundaries",
        what: "Claude Code records on one parent chain that runs through every boundary",
        session: claude_chain_through_boundaries,
    },
    Shape {
        name: "claude-boundaries-off-chain",
        what: "Claude Code records on one parent chain, boundaries beside it",
        session: claude_boundaries_off_chain,
    },
    Shape {
        name: "claude-queued",
        what: "Claude Code records, queued input and one API message id written again and again",
        session: claude_queued,
    },
    Shape {
        name: "openhands-forgotten-ranges",
        what: "OpenHands V0 events, every other one a condensation forgetting ids 0 to 2^63",
        session: openhands_forgotten_ranges,
    },
    Shape {
        name: "pi-first-kept-nowhere",
        what: "pi entries, a compaction every ten whose firstKeptEntryId names nothing",
        session: pi_first_kept_nowhere,
    },
];

fn lines(records: impl IntoIterator<Item = serde_json::Value>) -> String {
    records
        .into_iter()
        .map(|r| format!("{r}\n"))
        .collect::<String>()
}

fn message(i: usize, parent: Option<String>, role: &str) -> serde_json::Value {
    let content = if role == "user" {
        json!(format!(
            "Keep the parser at src/p{i}.py and never drop column c{i}."
        ))
    } else {
        json!([{"type": "text", "text": format!("Done with step {i}.")}])
    };
    json!({
        "parentUuid": parent, "isSidechain": false, "type": role, "uuid": format!("u{i}"),
        "sessionId": "s", "version": "2.1.42", "timestamp": "2026-01-01T00:00:00Z",
        "message": {"role": role, "content": content, "id": format!("m{i}")},
    })
}

fn boundary(i: usize, parent: Option<String>, logical: String) -> serde_json::Value {
    json!({
        "parentUuid": parent, "logicalParentUuid": logical, "isSidechain": false,
        "type": "system", "subtype": "compact_boundary", "uuid": format!("b{i}"),
        "sessionId": "s", "version": "2.1.42",
        "compactMetadata": {"trigger": "auto", "preTokens": 1000},
    })
}

fn role(i: usize) -> &'static str {
    if i.is_multiple_of(2) {
        "user"
    } else {
        "assistant"
    }
}

fn claude_preserved_segment(n: usize) -> String {
    claude_boundaries_beside_the_chain(n, true)
}

fn claude_chain_through_boundaries(n: usize) -> String {
    let mut records = Vec::new();
    let mut last = None;
    for i in 0..n {
        records.push(message(i, last.clone(), role(i)));
        last = Some(format!("u{i}"));
        if i % 10 == 9 {
            records.push(boundary(i, last.clone(), format!("u{i}")));
            last = Some(format!("b{i}"));
        }
    }
    lines(records)
}

fn claude_boundaries_off_chain(n: usize) -> String {
    claude_boundaries_beside_the_chain(n, false)
}

/// Records on one parent chain, a boundary after every tenth (off the
/// chain), each naming a preserved segment whose head is nowhere when
/// `preserved`.
fn claude_boundaries_beside_the_chain(n: usize, preserved: bool) -> String {
    let mut records = Vec::new();
    for i in 0..n {
        let parent = i.checked_sub(1).map(|p| format!("u{p}"));
        records.push(message(i, parent, role(i)));
        if i % 10 == 9 {
            let mut b = boundary(i, None, format!("u{i}"));
            if preserved {
                b["compactMetadata"]["preservedSegment"] = json!({"headUuid": "nowhere", "anchorUuid": format!("b{i}"), "tailUuid": format!("u{i}")});
            }
            records.push(b);
        }
    }
    lines(records)
}

fn claude_queued(n: usize) -> String {
    let mut records = Vec::new();
    for i in 0..n {
        let parent = i.checked_sub(1).map(|p| format!("u{p}"));
        let mut m = message(i, parent, role(i));
        if role(i) == "assistant" {
            m["message"]["id"] = json!("one");
        }
        records.push(m);
        records.push(json!({
            "type": "queue-operation", "operation": "enqueue", "sessionId": "s",
            "content": format!("Also rename table t{i}."),
        }));
    }
    records.push(boundary(n, None, format!("u{}", n - 1)));
    lines(records)
}

fn openhands_forgotten_ranges(n: usize) -> String {
    let mut events = Vec::new();
    for i in 0..n {
        if i % 2 == 1 {
            events.push(json!({
                "id": i, "source": "agent", "action": "condensation",
                "args": {"forgotten_events_start_id": 0, "forgotten_events_end_id": 1u64 << 63,
                         "summary": "We worked.", "summary_offset": 1},
            }));
        } else {
            events.push(json!({
                "id": i, "source": "user", "action": "message",
                "args": {"content": format!("Keep column c{i}.")},
            }));
        }
    }
    lines(events)
}

fn pi_first_kept_nowhere(n: usize) -> String {
    let mut entries = vec![json!({"type": "session", "version": 3, "id": "s", "cwd": "/repo"})];
    for i in 0..n {
        let parent = i.checked_sub(1).map(|p| format!("e{p}"));
        if i % 10 == 9 {
            entries.push(json!({
                "type": "compaction", "id": format!("e{i}"), "parentId": parent,
                "summary": "We worked.", "firstKeptEntryId": "nowhere", "tokensBefore": 1000,
            }));
        } else {
            let role = role(i);
            entries.push(json!({
                "type": "message", "id": format!("e{i}"), "parentId": parent,
                "message": {"role": role, "content": format!("Keep column c{i}.")},
            }));
        }
    }
    lines(entries)
}
