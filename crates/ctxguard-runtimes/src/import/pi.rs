//! pi coding agent sessions: a `session` header line, then one entry a
//! line. v1 files are a list (a compaction names its first kept entry by
//! `firstKeptEntryIndex`, counting the header as entry 0); v2 and later are
//! a tree of `id`/`parentId` (`firstKeptEntryId`), read along the path from
//! the last entry to the root. After a compaction the model sees the
//! summary, wrapped as a user message, then every message from the first
//! kept entry on, verbatim. A second compaction's buffer starts from the
//! first one's kept entries: the messages between them were in context, and
//! only those after the first compaction are summarized again.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::Value;

use super::message::{ApiMessage, Block, Content};
use super::records::{self, Record};
use super::{Current, Event, Imported, Importer, LastSummary, Message, Origin, Summary};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

pub(super) struct Pi;

/// How pi shows a compaction summary to the model (`messages.ts`).
const SUMMARY_PREFIX: &str =
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const SUMMARY_SUFFIX: &str = "\n</summary>";
const BRANCH_PREFIX: &str =
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";

/// The types of the entries of pi's session tree (and of OpenClaw's, which
/// writes pi's format).
const ENTRY_TYPES: [&str; 9] = [
    "message",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "model_change",
    "thinking_level_change",
    "label",
    "session_info",
];

impl Importer for Pi {
    fn recognizes(&self, text: &str) -> bool {
        records::first_object(text).is_some_and(|first| {
            let kind = first.get("type").and_then(Value::as_str);
            let header = kind == Some("session")
                && (first.get("cwd").is_some() || first.get("version").is_some());
            // A file that starts partway through a session (its head cut
            // off, or never written) starts with an entry of the tree: an
            // id, the id of its parent, a type pi writes, a time.
            let entry = kind.is_some_and(|kind| ENTRY_TYPES.contains(&kind))
                && first.get("id").is_some_and(Value::is_string)
                && first.get("parentId").is_some()
                && first.get("timestamp").is_some();
            header || entry
        })
    }

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported {
        let records = records::api_lines(file, problems);
        let by_id = ids(&records);
        let now = path(&records, &by_id);
        let mut events = events_on(&records, &by_id, &now, |_| true);
        // A compaction on a branch the session left (the user went back to
        // an earlier entry, or pi replayed entries after an error) is
        // judged too, along its own branch: the model saw that buffer then.
        let on_now: std::collections::HashSet<usize> = now.iter().copied().collect();
        let mut branches: Vec<(usize, Vec<usize>)> = Vec::new();
        for r in 0..records.len() {
            if records[r].str("/type") != Some("compaction") || on_now.contains(&r) {
                continue;
            }
            let path = path_to(&records, &by_id, r);
            // A branch is named by its first entry off the path of now.
            let Some(&first) = path.iter().find(|at| !on_now.contains(at)) else {
                continue;
            };
            match branches.iter_mut().find(|(f, _)| *f == first) {
                Some((_, compactions)) => compactions.push(r),
                None => branches.push((first, vec![r])),
            }
        }
        for (n, (first, compactions)) in branches.iter().enumerate() {
            let Some(&last) = compactions.last() else {
                continue;
            };
            let path = path_to(&records, &by_id, last);
            let left = format!(
                "on a branch the session left: the entries from line {} on were later set aside, so this compaction is judged along its own branch",
                records[*first].line
            );
            for mut event in events_on(&records, &by_id, &path, |r| compactions.contains(&r)) {
                event.branch = n + 1;
                event.notes.push(left.clone());
                events.push(event);
            }
        }
        events.sort_by_key(|event| event.line);
        // A user message OpenClaw wrote again on a branch it rewrote stands
        // where the user first wrote it.
        let copies = copies(&records);
        for message in events.iter_mut().flat_map(|event| event.trace.iter_mut()) {
            if let Some(&first) = copies.get(&message.line) {
                message.line = first;
            }
        }
        Imported {
            events,
            folder: records::started_in(&records, "/cwd"),
        }
    }
}

/// The user messages written again under new ids when OpenClaw rewrote a
/// branch (the whole history copied after an error, every copy written at
/// one time), by line, with the line each was first written on: an entry
/// whose message carries the time it was sent, to the millisecond, and
/// the words of one written before; a message its chat channel
/// delivered again (the same `message_id` in the channel's metadata,
/// whatever system lines came with it this time); and a message OpenClaw
/// sent the model again after the run it started failed (an
/// `openclaw:prompt-error` entry, then the same words under the same
/// stamp of the minute the user sent them, "[Mon 2026-03-09 12:00 EST]").
fn copies(records: &[Record]) -> HashMap<u64, u64> {
    static STAMP: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(&format!("(?m)^{SENT_STAMP}")).expect("the stamp pattern compiles")
    });
    let mut first: HashMap<(u64, String), u64> = HashMap::new();
    let mut delivered: HashMap<String, u64> = HashMap::new();
    let mut stamped: HashMap<String, u64> = HashMap::new();
    let mut copies = HashMap::new();
    for record in records {
        if record.str("/type") != Some("message")
            || record.message().role.as_deref() != Some("user")
        {
            continue;
        }
        let text = record.message().content.text();
        if let Some(id) = channel_message_id(&text) {
            if let Some(original) = first_seen(&mut delivered, id.to_owned(), record.line) {
                copies.insert(record.line, original);
                continue;
            }
        }
        if STAMP.is_match(&text) {
            if let Some(original) = first_seen(&mut stamped, text.clone(), record.line) {
                copies.insert(record.line, original);
                continue;
            }
        }
        let Some(sent) = record.message().timestamp else {
            continue;
        };
        if let Some(original) = first_seen(&mut first, (sent, text), record.line) {
            copies.insert(record.line, original);
        }
    }
    copies
}

/// The line `key` was first seen on, if it was; else `line` is recorded
/// as that line, and `None`.
fn first_seen<K: std::hash::Hash + Eq>(
    seen: &mut HashMap<K, u64>,
    key: K,
    line: u64,
) -> Option<u64> {
    match seen.entry(key) {
        std::collections::hash_map::Entry::Occupied(original) => Some(*original.get()),
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(line);
            None
        }
    }
}

/// The id a chat channel gave the message, from the metadata OpenClaw
/// wraps it in (`Conversation info (untrusted metadata):` and its
/// `"message_id": "…"`).
fn channel_message_id(text: &str) -> Option<&str> {
    static ID: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(r#"Conversation info \(untrusted metadata\):\s*```json\s*\{[^}]*?"message_id":\s*"([^"\n]+)""#)
            .expect("the message id pattern compiles")
    });
    ID.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// The events of the compactions along `path` that `judged` picks, each
/// against the buffer its path gave the model; `all` is every entry of the
/// file by its id.
fn events_on(
    records: &[Record],
    all: &HashMap<&str, usize>,
    path: &[usize],
    judged: impl Fn(usize) -> bool,
) -> Vec<Event> {
    let compactions: Vec<usize> = path
        .iter()
        .enumerate()
        .filter(|(_, &r)| records[r].str("/type") == Some("compaction"))
        .map(|(at, _)| at)
        .collect();
    // Where each compaction's kept messages start, as a place on the
    // path: looked up, not searched for, so a name that names nothing
    // costs nothing.
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    let mut by_line: HashMap<u64, usize> = HashMap::new();
    for (at, &r) in path.iter().enumerate() {
        if let Some(id) = records[r].str("/id") {
            by_id.entry(id).or_insert(at);
        }
        by_line.entry(records[r].line).or_insert(at);
    }
    // The file starts partway through the session when the path's first
    // entry names a parent the file does not hold.
    let partial = path
        .first()
        .is_some_and(|&root| records[root].str("/parentId").is_some());
    let first_kept = |at: usize| -> Option<usize> {
        let entry = &records[path[at]];
        let found = match entry.str("/firstKeptEntryId") {
            // Kept from an entry before the file's first: everything on
            // the path before the compaction was kept.
            Some(id) if partial && !all.contains_key(id) => Some(&0),
            Some(id) => by_id.get(id),
            // v1: entry N (the header is entry 0) stands on line N + 1.
            None => by_line.get(&(entry.u64("/firstKeptEntryIndex")? + 1)),
        };
        found.copied().filter(|&kept| kept < at)
    };
    let mut events = Vec::new();
    for (k, &at) in compactions.iter().enumerate() {
        if !judged(path[at]) {
            continue;
        }
        let entry = &records[path[at]];
        let mut notes = Vec::new();
        let mut trace = Vec::new();
        let start = match k.checked_sub(1).map(|p| compactions[p]) {
            Some(previous) => {
                let summary = &records[path[previous]];
                trace.push(summary_message(summary));
                first_kept(previous).unwrap_or(previous + 1)
            }
            None => 0,
        };
        for &r in &path[start..at] {
            trace.extend(message(&records[r]));
        }
        let kept_from = first_kept(at);
        if kept_from.is_none() && names_kept(entry) {
            notes.push("the first kept entry it names is not on the path before it: nothing is taken as kept".to_owned());
        }
        let kept_lines: std::collections::HashSet<u64> = kept_from
            .map(|from| {
                path[from.max(start)..at]
                    .iter()
                    .map(|&r| records[r].line)
                    .collect()
            })
            .unwrap_or_default();
        let kept = (0..trace.len())
            .filter(|&m| trace[m].origin != Origin::Summary && kept_lines.contains(&trace[m].line))
            .collect();
        let summary = summary_message(entry);
        events.push(Event {
            line: entry.line,
            record: entry.str("/id").map(str::to_owned),
            trigger: entry.flag("/fromHook").then(|| "extension".to_owned()),
            tokens_before: entry.u64("/tokensBefore"),
            tokens_after: None,
            version: None,
            at: entry.str("/timestamp").map(str::to_owned),
            trace,
            summary: Some(Summary {
                text: summary.text,
                line: entry.line,
                record: entry.str("/id").map(str::to_owned),
                opaque: false,
            }),
            kept,
            notes,
            partial,
            unplaced: 0,
            branch: 0,
        });
    }
    events
}

/// A session file as it stands while pi runs: the buffer along the path
/// now (the last compaction's summary, then what it kept and what came
/// after), and that compaction's summary as pi wrote it.
pub(crate) fn current(file: &Arc<SourceFile>) -> Current {
    let mut problems = Vec::new();
    let records = records::api_lines(file, &mut problems);
    let path = path(&records, &ids(&records));
    let last = path
        .iter()
        .rposition(|&r| records[r].str("/type") == Some("compaction"));
    let mut messages = Vec::new();
    let mut carried = Vec::new();
    let start = match last {
        Some(at) => {
            let entry = &records[path[at]];
            messages.push(summary_message(entry));
            let kept = entry.str("/firstKeptEntryId").and_then(|id| {
                path[..at]
                    .iter()
                    .position(|&r| records[r].str("/id") == Some(id))
            });
            // What pi kept unsummarized, word for word.
            if let Some(kept) = kept {
                carried = path[kept..at]
                    .iter()
                    .filter_map(|&r| message(&records[r]))
                    .map(|m| (m.text, m.origin != Origin::Tool))
                    .collect();
            }
            kept.unwrap_or(at + 1)
        }
        None => 0,
    };
    for (at, &r) in path.iter().enumerate().skip(start) {
        if Some(at) != last {
            messages.extend(message(&records[r]));
        }
    }
    Current {
        messages,
        version: None,
        lines: file.text().lines().count() as u64,
        // What extensions gave the model since the last compaction.
        given_back: last.map(|at| {
            path[at + 1..]
                .iter()
                .map(|&r| &records[r])
                .filter(|entry| entry.str("/type") == Some("custom_message"))
                .filter_map(message)
                .map(|m| m.text)
                .collect()
        }),
        summary: last.map(|at| {
            let entry = &records[path[at]];
            LastSummary {
                text: entry.str("/summary").unwrap_or("").to_owned(),
                trigger: None,
                line: entry.line,
                carried: carried.clone(),
            }
        }),
    }
}

/// Whether a compaction entry names a first kept entry at all.
fn names_kept(entry: &Record) -> bool {
    entry.value.get("firstKeptEntryId").is_some()
        || entry.value.get("firstKeptEntryIndex").is_some()
}

/// The entries the buffer is built from, in order: every line after the
/// header (v1), or the path from the last entry to the root (v2 and later),
/// `by_id` being every entry by its id.
fn path(records: &[Record], by_id: &HashMap<&str, usize>) -> Vec<usize> {
    let entries: Vec<usize> = (0..records.len())
        .filter(|&r| records[r].str("/type") != Some("session"))
        .collect();
    // A tree when any entry has an id.
    let tree = !by_id.is_empty();
    match entries.last() {
        Some(&last) if tree => path_to(records, by_id, last),
        _ => entries,
    }
}

/// Every entry by its id.
fn ids(records: &[Record]) -> HashMap<&str, usize> {
    (0..records.len())
        .filter(|&r| records[r].str("/type") != Some("session"))
        .filter_map(|r| records[r].str("/id").map(|id| (id, r)))
        .collect()
}

/// The path from the root to entry `to`, by its parents. An entry written
/// with no `parentId` at all (not `null`: the field left out) was put in
/// the file by something else than the session's own writer (Clawdbot's
/// status card, written between two turns): the session goes on through
/// it from the entry written before it.
fn path_to(records: &[Record], by_id: &HashMap<&str, usize>, to: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut at = Some(to);
    while let Some(r) = at {
        if !seen.insert(r) {
            break;
        }
        path.push(r);
        at = match records[r].value.get("parentId") {
            Some(parent) => parent
                .as_str()
                .and_then(|parent| by_id.get(parent).copied()),
            None => (0..r)
                .rev()
                .find(|&before| records[before].str("/type") != Some("session")),
        };
    }
    path.reverse();
    path
}

fn summary_message(entry: &Record) -> Message {
    let summary = entry.str("/summary").unwrap_or("");
    Message {
        origin: Origin::Summary,
        text: format!("{SUMMARY_PREFIX}{summary}{SUMMARY_SUFFIX}"),
        line: entry.line,
        record: entry.str("/id").map(str::to_owned),
    }
}

/// The message an entry puts in the buffer, if any.
fn message(entry: &Record) -> Option<Message> {
    let make = |origin, text: String| {
        Some(Message {
            origin,
            text,
            line: entry.line,
            record: entry.str("/id").map(str::to_owned),
        })
    };
    match entry.str("/type")? {
        "message" => {
            let message = entry.message();
            let content = &message.content;
            match message.role.as_deref()? {
                "user" => {
                    let mut text = content.text();
                    text.drain(..recalled_memory_end(&text));
                    // OpenClaw, on pi's format, gives the model its own
                    // notices as user messages: "[Tue 2026-02-17 14:55 EST]
                    // [System Message] … A subagent task …", "[System: The
                    // bot encountered a Feishu API permission error …]";
                    // the user's own messages come wrapped in what the chat
                    // channel says of them.
                    if SYSTEM_NOTICE.is_match(&text) {
                        return make(Origin::Runtime, text);
                    }
                    // Under the channel's wrapping and the runtime's own
                    // lines (if any), a notice of its own (the prompt of a
                    // session started with /new from Feishu), its heartbeat
                    // poll ("Read HEARTBEAT.md if it exists …"), or the
                    // greeting OpenClaw's terminal sends by itself when an
                    // agent first hatches ("Wake up, my friend!"); or a
                    // prompt it composed itself, whatever its words.
                    let own = unwrapped(&text);
                    let bare = own.trim_matches(|c: char| c.is_whitespace() || c == '\u{200b}');
                    if SYSTEM_NOTICE.is_match(bare)
                        || HEARTBEAT.is_match(bare)
                        || composed(&text)
                        || bare == HATCH_GREETING
                        || FEISHU_AUTHORIZED.is_match(&text)
                    {
                        make(Origin::Runtime, text)
                    } else {
                        make(Origin::User, own)
                    }
                }
                "assistant" => make(Origin::Assistant, assistant_text(content)),
                "toolResult" | "bashExecution" => make(Origin::Tool, tool_text(message)),
                "compactionSummary" | "branchSummary" => make(Origin::Summary, content.text()),
                _ => make(Origin::Runtime, content.text()),
            }
        }
        "custom_message" => {
            let content = entry.value.get("content").unwrap_or(&Value::Null);
            make(Origin::Runtime, records::text_of(content))
        }
        "branch_summary" => {
            let summary = entry.str("/summary").unwrap_or("");
            make(
                Origin::Summary,
                format!("{BRANCH_PREFIX}{summary}{SUMMARY_SUFFIX}"),
            )
        }
        _ => None,
    }
}

/// Where a user message starts after what a memory plugin put before it
/// (EverMemOS on OpenClaw: "Note: Reference memory below. … <memory> …
/// </memory> … user原始query："; a recall of earlier messages and answers,
/// "<relevant-memories> 1. [message:user] … 2. [message:assistant] …
/// </relevant-memories>"), the traits, skills and words it recalled: the
/// plugin's, not what the user says now; 0 when there are none.
fn recalled_memory_end(text: &str) -> usize {
    static RECALLED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(
            r"(?s)\A\s*Note: Reference memory below\..*?files as they are provided above\.[\x{200B}\s]*(u\x{200B}*s\x{200B}*e\x{200B}*r\x{200B}*原\x{200B}*始\x{200B}*q\x{200B}*u\x{200B}*e\x{200B}*r\x{200B}*y\x{200B}*[：:][\x{200B}\s]*)?|(?s)\A\s*<relevant-memories>.*?</relevant-memories>\s*",
        )
        .expect("the recalled-memory pattern compiles")
    });
    RECALLED.find(text).map_or(0, |found| found.end())
}

/// A notice a runtime on pi's format writes as a user message: OpenClaw's
/// system notices, the context it gives the model when a subagent's task
/// ends ("OpenClaw runtime context (internal): This context is
/// runtime-generated, not user-authored.", fenced in later releases by
/// `<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>`), the turn it asks for just
/// before it compacts ("Pre-compaction memory flush. Store durable memories
/// now …"), the greeting it asks for when a session starts ("A new
/// session was started via /new or /reset. …"), and its announcement that
/// a background task or a subagent's ended ("A background task
/// "viator-sync" just completed successfully. … Summarize this naturally
/// for the user.", the task quoted whole with the quotes it holds: "Send
/// a "Hello" test"), alone or queued with others while the agent was busy
/// ("[Queued announce messages while agent was busy]", "Queued #1").
static SYSTEM_NOTICE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r#"^\s*(\[[^\]\n]{0,60}\]\s*)?(\[Queued announce messages while agent was busy\]\s*(---\s*)?(Queued #\d+[^\n]*\n)?)?(<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT>>>\s*)?(\[System( Message\]|:)|OpenClaw runtime context \(internal\):|Pre-compaction memory flush\.|A new session was started via /new or /reset\.|A (background|subagent) task "[^\n]*?" just (completed|finished|failed|timed out))"#,
    )
        .expect("the notice pattern compiles")
});

/// What the user typed of an OpenClaw message: its chat channel's
/// wrapping taken off ([`ENVELOPE`]), and of a picture, video or file the
/// user sent, the caption they typed, not the description a model wrote
/// of it ("[Image]\nUser text:\n… \nDescription:\n…"); a voice message's
/// transcription is the user's words and stays.
fn unwrapped(text: &str) -> String {
    let mentioned = text.contains("\"was_mentioned\": true");
    let text = without_sender(after_system_events(text));
    let text = ENVELOPE.replace_all(&text, "");
    let text = MEDIA.replace_all(&text, "$typed");
    let text = CHANNEL.replace_all(&text, "");
    if mentioned {
        without_mention(&text).to_owned()
    } else {
        text.into_owned()
    }
}

/// The words after the mention of the agent's bot that a message in a
/// group chat opens with, when the channel says the bot was mentioned
/// (`"was_mentioned": true`): "@NONGAUNJAIBot อนุมัติ" is "อนุมัติ" (approved)
/// said to the agent.
fn without_mention(text: &str) -> &str {
    let words = text.trim_start();
    let Some(name) = words.strip_prefix('@') else {
        return text;
    };
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    if end == 0 {
        return text;
    }
    name[end..].trim_start_matches([' ', '\t', ',', ':'])
}

/// What follows the system events OpenClaw queued before a message from a
/// chat channel: an event says what a cron job's run answered ("System:
/// [2026-02-08 12:01:30 GMT+9] Cron: 申し訳ありませんが、…"), on as many
/// lines as it took, and the user's words start at the channel's header
/// ("[Telegram Manabu Tan (@Maaa_Tan) id:… 2026-02-08 12:04 GMT+9] …").
/// Without a header, only each event's first line is known to be the
/// runtime's ([`ENVELOPE`]); so it is where other wrapping stands between
/// the events and the header (the conversation's metadata, "[Image]" and
/// "User text:" over a picture's caption), which is read as such.
fn after_system_events(text: &str) -> &str {
    static HEADER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(&format!(r"(?m)^\[(?:{CHANNELS})[^\w\]\n][^\]\n]*\]"))
            .expect("the header pattern compiles")
    });
    if !text.trim_start().starts_with("System:") {
        return text;
    }
    let Some(header) = HEADER.find(text) else {
        return text;
    };
    let events = &text[..header.start()];
    let wrapped = events.contains("(untrusted")
        || events
            .lines()
            .any(|line| line.starts_with('[') || line.starts_with("User text:"));
    if wrapped {
        text
    } else {
        &text[header.start()..]
    }
}

/// The stamp of the minute a chat channel's message was sent, which
/// OpenClaw writes before it ("[Mon 2026-03-09 12:00 EST]").
const SENT_STAMP: &str =
    r"\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{4}-\d{2}-\d{2} \d{2}:\d{2}[^\]\n]{0,30}\]";

/// The line OpenClaw ends a prompt it composed with, to its time zone:
/// "Current time: Thursday, March 12th, 2026 — 10:53 (Asia/Tokyo)".
const TIME_LINE: &str = r"Current time: [^\n]*\([^()\n]+\)";

/// A minute in UTC as that line and the one under it write it.
const UTC_MINUTE: &str = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC";

/// The chat channels OpenClaw carries a user's messages from.
const CHANNELS: &str =
    "Feishu|Lark|Telegram|WhatsApp|Signal|Discord|Slack|iMessage|Matrix|LINE|Line|WeChat|QQ|DingTalk";

/// A picture, video or file a model described for the agent, in OpenClaw's
/// media understanding: only what the user typed with it is theirs.
static MEDIA: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r"(?ms)^\[(Image|Video|Document|File|Sticker)\]\nUser text:\n(?P<typed>.*?)\n?Description:\n.*",
    )
    .expect("the media pattern compiles")
});

/// The chat channel's header on what the user typed ("[Feishu ou_… Sun
/// 2026-03-29 17:48 GMT+8] name: "), with the mark OpenClaw puts on a
/// message the user sends to their own WhatsApp chat ("[WhatsApp +91… +6m
/// 2026-02-07 13:42 GMT+5:30] [openclaw] Use mistral local"), and the path
/// or placeholder of the file they sent with it.
static CHANNEL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles. A name ends where a non-word
    // character follows it, written as a class rather than `\b`: the fast
    // automaton reads `\b` on ASCII text only, and this pattern is asked of
    // every message in every script.
    #[allow(clippy::expect_used)]
    regex::Regex::new(&format!(
        r"(?m)^\[(?:{CHANNELS})(?:[^\w\]\n][^\]\n]*)?\][ \t]*(?:\[(?:openclaw|clawdbot|moltbot|clawdis)\][ \t]+)?(?:[^:\n]{{1,60}}:[ \t]+)?|\S*/\.openclaw/media/inbound/\S+|<media:\w+>"
    ))
    .expect("the channel pattern compiles")
});

/// The message the Feishu channel sends in the user's name once they
/// have granted it access to their account ("[msg:om_…:auth-complete]",
/// "我已完成飞书账号授权，请继续执行之前的操作。"): the channel's, not the user's.
static FEISHU_AUTHORIZED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r#"\[msg:[^\]\s]*:auth-complete\]|"message_id":\s*"[^"\n]*:auth-complete""#)
        .expect("the authorization pattern compiles")
});

/// What OpenClaw's terminal sends as the first user message, by itself,
/// when an agent hatches.
const HATCH_GREETING: &str = "Wake up, my friend!";

/// OpenClaw's heartbeat poll, its default prompt or one configured after
/// it, and the markers it writes for its own wake-ups ("[OpenClaw heartbeat
/// poll]", "[OpenClaw exec completion]").
static HEARTBEAT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"^\s*(Read HEARTBEAT\.md\b|\[OpenClaw [a-z ]{1,40}\])")
        .expect("the heartbeat pattern compiles")
});

/// Whether OpenClaw composed `text` itself: a prompt that ends with the
/// time it was sent ([`SENT_AT`]) and carries no chat channel's wrapping.
/// OpenClaw appends that line to the prompts it sends on its own — its
/// heartbeat poll, the default one or any configured
/// ("ASI_QUANTUM_REFLECTION: … Consult SOUL.md. …"), the prompt of a
/// session reset — after the system events it queued, if any; what a
/// person sends from a chat or the control UI carries the channel's stamp
/// and the sender's metadata instead. A cron job's message ("[cron:8b38…
/// PR Review Patrol] Only check PRs authored by Bill …") is sent the same
/// way, but its words are the ones the user gave the job: theirs.
fn composed(text: &str) -> bool {
    SENT_AT.is_match(text)
        && !CHANNEL_WRAPPED.is_match(text)
        && !text.trim_start().starts_with("[cron:")
}

/// The line OpenClaw ends a prompt it composed with: "Current time:
/// Thursday, March 12th, 2026 — 10:53 (Asia/Tokyo)", in later releases
/// with " / 2026-03-12 01:53 UTC" after it, or a line "Reference UTC:
/// 2026-03-12 01:53 UTC" under it.
static SENT_AT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(&format!(
        r"(?:^|\n){TIME_LINE}(?: / {UTC_MINUTE}|\nReference UTC: {UTC_MINUTE})?\s*$"
    ))
    .expect("the time pattern compiles")
});

/// What a chat channel wraps a person's message in: the sender's or the
/// conversation's metadata, the stamp of the minute it was sent, the
/// channel's header.
static CHANNEL_WRAPPED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(&format!(
        r"\(untrusted metadata\):|{SENT_STAMP}|(?m:^)\[(?:{CHANNELS})[^\w\]\n]"
    ))
    .expect("the channel's wrapping compiles")
});

/// What OpenClaw's chat channels wrap a user's message in: the time it
/// was sent ("[Fri 2026-03-06 09:38 GMT+8] "), the channel's message id
/// on a line of its own, the conversation's and the sender's
/// metadata as JSON blocks ("Sender (untrusted metadata):"), the system
/// events it queued, every line of them ("System: [2026-03-06 10:09:12
/// GMT+8] …", "System: Session was just compacted. …"), its audit after a
/// compaction with the lines that follow it ("System: … Post-Compaction
/// Audit: … after memory compaction."), the header of
/// messages queued while the agent was busy ("[Queued messages while agent
/// was busy]", "---", "Queued #1", "Queued #2 (from Julius)"), and the
/// note on a file the user sent ("[media attached: …]", "To send an image
/// back, prefer the message tool …"); the prompt it puts before the first
/// message of a workspace not yet set up ("[Bootstrap pending]" and its
/// lines, to the blank line) and its warning that the workspace's files
/// were cut ("[Bootstrap truncation warning]" and its lines), what it adds
/// after a command it ran in the background ended ("An async command you
/// ran earlier has completed. …"), the time line OpenClaw ends a prompt it
/// sent with ("Current time: … (Asia/Tokyo) / 2026-04-20 12:35 UTC", with or
/// without the UTC, or over a line "Reference UTC: …"), the mark of a cron
/// job's run before the words the user gave the job ("[cron:8b38… Nightly
/// digest] "), the mark of a message sent again after a model failed ("[Retry
/// after the previous model attempt failed or timed out]"), its note that
/// the user stopped the run before ("Note: The previous agent run was
/// aborted by the user. Resume carefully …"), the system
/// events of later releases ("System (untrusted): …"), the mark of the
/// message a chat reply answers ("[Replying to: "[Interactive Card]"]",
/// or on Telegram the message quoted whole: "[Replying to Chat random id:76]
/// … [/Replying]")
/// and the mark of a file sent ("<media:document>"); and the context a QQ
/// channel writes before each message ("你正在通过 QQ 与用户对话。", then its
/// sections: "【会话上下文】", "【发送图片 - 必须遵守】" and their lines).
static ENVELOPE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles. A name ends where a non-word
    // character follows it, written as a class rather than `\b`: the fast
    // automaton reads `\b` on ASCII text only, and this pattern is asked of
    // every message in every script.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        &[
            r"(?m)^System:[^\n]*Post-Compaction Audit:[^\n]*\n(?s:.*?)after memory compaction\.[ \t]*(\n|$)|^\[message_id: [^\]\n]*\][ \t]*(\n|$)|^",
            SENT_STAMP,
            r"[ \t]*|^[A-Z][A-Za-z ]{0,40} \(untrusted[^)\n]*\):[ \t]*\n```json\n(?s:.*?)\n```[ \t]*(\n|$)|^System:([ \t][^\n]*)?(\n|$)|^\[Queued messages while agent was busy\][ \t]*(\n|$)|^(---[ \t]*\n)?Queued #\d+( \(from [^)\n]*\))?[ \t]*(\n|$)|^\[media attached(?:[^\w\n][^\n]*)?\][ \t]*(\n|$)|^To send an image back, prefer the message tool(?:[^\w\n][^\n]*)?(\n|$)|^\[Bootstrap (pending|truncation warning)\][^\n]*(?:\n[^\n]+)*(\n|$)|^An async command you ran earlier has completed\.[^\n]*(\n|$)|^",
            TIME_LINE,
            r"(?: / ",
            UTC_MINUTE,
            r")?[ \t]*(?:\nReference UTC: ",
            UTC_MINUTE,
            r"[ \t]*)?(\n|$)|^\[cron:[^\]\n]*\][ \t]*|^\[Retry after the previous model attempt failed or timed out\][ \t]*(\n|$)|^Note: The previous agent run was aborted by the user\. Resume carefully or ask for clarification\.[ \t]*(\n|$)|^System \(untrusted\):([ \t][^\n]*)?(\n|$)|^\[Replying to: [^\n]*\][ \t]*(\n|$)|\[Replying to [^\]\n]*\](?s:.*?)\[/Replying\][ \t]*|<media:(document|image|audio|video|voice|sticker|file)>[ \t]*|^你正在通过 QQ 与用户对话。[ \t]*\n(?:[ \t]*\n|【[^\n]*\n|(?:- |\d+\. )[^\n]*\n)*",
        ]
        .concat(),
    )
    .expect("the envelope pattern compiles")
});

/// The sender's name OpenClaw writes before what they typed in a group
/// chat ("潘神: 翻译工作做的怎么样啦"), as its metadata names them.
fn without_sender(text: &str) -> std::borrow::Cow<'_, str> {
    static SENDER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(r#"(?m)^\s*"sender":\s*("(?:[^"\\\n]|\\.)*")"#)
            .expect("the sender pattern compiles")
    });
    let Some(name) = SENDER
        .captures(text)
        .and_then(|found| serde_json::from_str::<String>(found.get(1)?.as_str()).ok())
        .filter(|name| !name.trim().is_empty())
    else {
        return text.into();
    };
    let prefix = format!("{name}: ");
    if !text.lines().any(|line| line.starts_with(&prefix)) {
        return text.into();
    }
    text.lines()
        .map(|line| line.strip_prefix(&prefix).unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
        .into()
}

fn assistant_text(content: &Content) -> String {
    let Content::Blocks(blocks) = content else {
        return content.text();
    };
    blocks
        .iter()
        .filter_map(Block::fields)
        .filter_map(|block| match block.kind.as_deref() {
            Some("text") => block.text.clone(),
            Some("toolCall") => {
                let name = block.name.as_deref().unwrap_or("tool");
                let arguments = block.arguments.as_deref().map_or("", RawValue::get);
                Some(format!("[{name}] {arguments}"))
            }
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a tool gave back; a shell command the user ran, with its output.
fn tool_text(message: &ApiMessage) -> String {
    match &message.command {
        Some(command) => format!(
            "$ {command}\n{}",
            message.output.as_deref().unwrap_or_default()
        ),
        None => message.content.text(),
    }
}
