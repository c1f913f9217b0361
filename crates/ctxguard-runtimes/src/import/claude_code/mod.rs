//! Claude Code session files (2.0.x and 2.1.x): one JSON record a line.
//! A compaction is a `compact_boundary` system record; the buffer before it
//! is the `parentUuid` chain from its `logicalParentUuid` (the file is
//! append-only, so records before a boundary stay in it, and timestamps are
//! no order); the buffer after is the `isCompactSummary` record that follows
//! it, then the preserved segment, if the boundary names one (2.1.x).
//! Records of one API message, written one per content block, are merged.
//! When the boundary's logical parent is not in the file (2.1.x often
//! names a record it never wrote), or the chain breaks before the previous
//! compaction, the buffer is rebuilt from file order, and the event says so.

mod current;
mod messages;
mod user;

// Keys are record ids and lines, looked up for every record: foldhash.
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::sync::{Arc, LazyLock};

use regex::Regex;
use serde_json::value::RawValue;
use serde_json::Value;

use super::message::{Block, Content};
use super::records::{self, Record};
use super::{Event, Imported, Importer, Message, Origin, Summary, ANSWER_MARK};
use crate::diagnostics::Diagnostic;
use crate::facts::Version;
use crate::source::SourceFile;
pub(crate) use current::current;
use messages::typed_by_user;
pub(crate) use user::{answers, questions};

pub(super) struct ClaudeCode;

impl Importer for ClaudeCode {
    fn recognizes(&self, text: &str) -> bool {
        // Whole lines, however long: a session can open with a large paste.
        text.lines()
            .take(20)
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .any(|value| {
                let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
                (value.get("sessionId").is_some() && value.get("uuid").is_some())
                    || kind == "file-history-snapshot"
                    || (kind == "summary" && value.get("leafUuid").is_some())
                    || (kind == "queue-operation" && value.get("sessionId").is_some())
            })
    }

    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported {
        let records = records::api_lines(file, problems);
        let index = Index::new(&records);
        // The first record that names a parent names one the file does not
        // hold: the session began before the file (a copy that keeps only
        // its later part).
        let partial = records
            .iter()
            .find(|r| r.str("/uuid").is_some())
            .and_then(|first| first.str("/parentUuid"))
            .is_some_and(|parent| !index.by_uuid.contains_key(parent));
        let boundaries: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.str("/type") == Some("system") && r.str("/subtype") == Some("compact_boundary")
                    || lone_summary(r)
            })
            .map(|(i, _)| i)
            .collect();
        // 2.1.x: a preserved segment's head is relinked to its anchor on
        // load, once its boundary is written: each event uses the relinks
        // of the boundaries before it.
        let mut relink = caveat_relinks(&records, &index);
        relink.extend(progress_relinks(&records, &index));
        // The records each compaction preserved verbatim: the only ones
        // before it still in the buffer of the next.
        let mut preserved_by: Vec<HashSet<usize>> = Vec::with_capacity(boundaries.len());
        let none = HashSet::new();
        // Each compaction's branch: the conversation it compacted. Several
        // conversations forked from one session can write into one file,
        // each compacting on its own.
        let mut branches = Forks::default();
        let owns = own_compactions(&records, &index, &boundaries);
        let mut events = Vec::with_capacity(boundaries.len());
        for (k, &b) in boundaries.iter().enumerate() {
            let previous = k.checked_sub(1);
            let session = |before: Option<usize>| Session {
                records: &records,
                index: &index,
                relink: &relink,
                partial,
                floor: before.map(|p| boundaries[p]),
                carried: before.map_or(&none, |p| &preserved_by[p]),
            };
            // The compaction before in this boundary's own conversation: the
            // one before it in the file, unless another conversation forked
            // from the session compacted there.
            let own = owns[k];
            let (mut event, preserved) = session(own).event(
                b,
                own.map(|p| boundaries[p]),
                boundaries.get(k + 1).copied(),
            );
            if own != previous {
                event.notes.push(match own {
                    Some(p) => format!(
                        "another conversation of this session writes into the same file: the one compacted here goes on from the compaction at line {}, and its buffer is its own chain since",
                        records[boundaries[p]].line
                    ),
                    None => "another conversation of this session writes into the same file: the one compacted here had not compacted before, and its buffer is its own chain from the session's start".to_owned(),
                });
            }
            event.branch = branches.of(k, own);
            events.push(event);
            preserved_by.push(preserved);
            let segment = records[b]
                .value
                .pointer("/compactMetadata/preservedSegment");
            let uuid = |name: &str| segment.and_then(|s| s.get(name)).and_then(Value::as_str);
            if let (Some(head), Some(anchor)) = (uuid("headUuid"), uuid("anchorUuid")) {
                relink.insert(head, anchor);
            }
        }
        branches.renumber(&mut events);
        Imported {
            events,
            folder: records::started_in(&records, "/cwd"),
        }
    }
}

/// The most conversations forked from one session whose compactions are
/// judged each along its own chain; past them, a compaction's buffer is
/// taken from the compaction before it in the file, as in one conversation.
const MOST_FORKS: usize = 64;

/// For each compaction (an index of `boundaries`), the compaction before it
/// in its own conversation: the latest one whose boundary or last record
/// (its logical parent) stands on the chain of parents that leads to this
/// one's logical parent; `None` when none does and the chain reaches the
/// session's first record (a conversation forked from the session before
/// it ever compacted, writing into the same file). Where the chain cannot
/// tell (a parent the file does not hold, no logical parent), the one
/// before in the file. Found in one pass over the records, in file order:
/// a record's parent is written before it.
fn own_compactions(records: &[Record], index: &Index, boundaries: &[usize]) -> Vec<Option<usize>> {
    /// The latest compaction marked on a record's chain, if the chain is
    /// known to its start.
    #[derive(Clone, Copy)]
    enum Latest {
        Unknown,
        Known(Option<usize>),
    }
    let leaf = |b: usize| index.logical_parent(records, b);
    // The compactions each record marks: its boundary, or its last record.
    let mut marks: HashMap<usize, usize> = HashMap::new();
    for (k, &b) in boundaries.iter().enumerate() {
        for at in std::iter::once(b).chain(leaf(b)) {
            let mark = marks.entry(at).or_insert(k);
            *mark = (*mark).max(k);
        }
    }
    let mut latest = Vec::with_capacity(records.len());
    // Where each record's chain starts.
    let mut start = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        let below = match record.str("/parentUuid") {
            None => {
                start.push(i);
                Latest::Known(None)
            }
            Some(parent) => match index.by_uuid.get(parent) {
                Some(&p) if p < i => {
                    start.push(start[p]);
                    latest[p]
                }
                _ => {
                    start.push(i);
                    Latest::Unknown
                }
            },
        };
        latest.push(match (below, marks.get(&i)) {
            (Latest::Known(before), Some(&k)) => {
                Latest::Known(Some(before.map_or(k, |j| j.max(k))))
            }
            (Latest::Unknown, Some(&k)) => Latest::Known(Some(k)),
            (below, None) => below,
        });
    }
    let mut forks = 0;
    (0..boundaries.len())
        .map(|k| {
            let previous = k.checked_sub(1);
            let Some(leaf) = leaf(boundaries[k]) else {
                return previous;
            };
            let parent = records[leaf]
                .str("/parentUuid")
                .map(|parent| index.by_uuid.get(parent).copied().filter(|&p| p < leaf));
            let own = match parent {
                // The session's first record.
                None => Latest::Known(None),
                Some(Some(p)) => latest[p],
                Some(None) => Latest::Unknown,
            };
            // A chain that starts after the compaction before (a
            // conversation begun anew since) forks from nothing.
            let below_previous = previous.is_some_and(|p| start[leaf] < boundaries[p]);
            match own {
                Latest::Known(own)
                    if own != previous
                        && own.is_none_or(|j| j < k)
                        && (own.is_some() || below_previous) =>
                {
                    forks += 1;
                    if forks <= MOST_FORKS {
                        own
                    } else {
                        previous
                    }
                }
                _ => previous,
            }
        })
        .collect()
}

/// The branches of a session's compactions: a compaction continues the
/// branch of the one before it in its conversation, unless another has
/// already; a conversation that forked starts one of its own.
#[derive(Default)]
struct Forks {
    /// The branch of each compaction so far.
    of: Vec<usize>,
    /// The compactions a later one already continues.
    continued: HashSet<usize>,
    count: usize,
}

impl Forks {
    /// The branch of compaction `k`, whose conversation compacted last at
    /// `own` (an index of the compactions before).
    fn of(&mut self, k: usize, own: Option<usize>) -> usize {
        let branch = match own {
            Some(p) if self.continued.insert(p) => self.of[p],
            _ if k == 0 => 0,
            _ => {
                self.count += 1;
                self.count
            }
        };
        self.of.push(branch);
        branch
    }

    /// Numbers the branches so that the one of the file's last compaction,
    /// the conversation the session is on now, is 0.
    fn renumber(&self, events: &mut [Event]) {
        let Some(&now) = self.of.last() else {
            return;
        };
        for event in events {
            if event.branch == now {
                event.branch = 0;
            } else if event.branch == 0 {
                event.branch = now;
            }
        }
    }
}

/// What the records are looked up by: uuid; assistant records by API
/// message id, in file order; tool calls by id (name and input).
struct Index<'r> {
    by_uuid: HashMap<&'r str, usize>,
    by_message: HashMap<&'r str, Vec<usize>>,
    tools: HashMap<&'r str, (&'r str, Option<&'r RawValue>)>,
    /// Tool calls a PreToolUse hook answered (its `attachment` records
    /// name them): an error such a call returns may be the hook's.
    hooked: HashSet<&'r str>,
    /// User records of tool results, by the uuid of the record they hang
    /// from (the assistant record of the call): calls made side by side
    /// are answered each under its own call, and only the last answer
    /// stands on the chain the next message continues.
    results: HashMap<&'r str, Vec<usize>>,
    /// User records a resumed session wrote again under new uuids (the
    /// conversation replayed, every record of it stamped with one time),
    /// by line: the line where the same words were first written.
    replayed: HashMap<u64, u64>,
}

impl<'r> Index<'r> {
    /// The record `record`'s `parentUuid` names, if the file holds it.
    fn parent(&self, record: &Record) -> Option<usize> {
        record
            .str("/parentUuid")
            .and_then(|p| self.by_uuid.get(p).copied())
    }

    /// The record the boundary `b` of `records` names for its
    /// `logicalParentUuid`, if the file holds it before the boundary.
    fn logical_parent(&self, records: &[Record], b: usize) -> Option<usize> {
        records[b]
            .str("/logicalParentUuid")
            .and_then(|uuid| self.by_uuid.get(uuid).copied())
            .filter(|&leaf| leaf < b)
    }

    fn new(records: &'r [Record]) -> Index<'r> {
        let mut index = Index {
            by_uuid: HashMap::new(),
            by_message: HashMap::new(),
            tools: HashMap::new(),
            hooked: HashSet::new(),
            results: HashMap::new(),
            replayed: replayed(records),
        };
        for (i, record) in records.iter().enumerate() {
            // A record written again under its uuid (a resumed session
            // replays earlier records at the end of the file) is the one
            // first written: a chain walked back from a compaction never
            // steps past it into what came after.
            if let Some(uuid) = record.str("/uuid") {
                index.by_uuid.entry(uuid).or_insert(i);
            }
            if record.str("/attachment/hookEvent") == Some("PreToolUse") {
                index.hooked.extend(record.str("/attachment/toolUseID"));
            }
            if record.str("/type") == Some("user") && tool_result(record) {
                if let Some(parent) = record.str("/parentUuid") {
                    index.results.entry(parent).or_default().push(i);
                }
            }
            if record.str("/type") != Some("assistant") {
                continue;
            }
            let message = record.message();
            if let Some(id) = message.id.as_deref() {
                index.by_message.entry(id).or_default().push(i);
            }
            for block in message.content.blocks() {
                let Some(call) = block
                    .fields()
                    .filter(|f| f.kind.as_deref() == Some("tool_use"))
                else {
                    continue;
                };
                if let (Some(id), Some(name)) = (call.id.as_deref(), call.name.as_deref()) {
                    index.tools.insert(id, (name, call.input.as_deref()));
                }
            }
        }
        index
    }
}

/// Whether a user record answers a tool call (its content opens with a
/// `tool_result` block).
fn tool_result(record: &Record) -> bool {
    record
        .message()
        .content
        .blocks()
        .first()
        .and_then(Block::kind)
        == Some("tool_result")
}

/// How many records one time stamps, at least, when a resumed session
/// replays them: a message and what the runtime writes with it share a
/// time too, but not with so many.
const REPLAYED_RUN: usize = 4;

/// The user records a resumed session replayed under new uuids, by line,
/// each with the line of the record it copies: a user record whose
/// words were written before, block for block, and whose time is the time
/// of the record before or after it and of [`REPLAYED_RUN`] records or more
/// (a replay writes every record it copies with one time; a message typed
/// again is typed at a time of its own), or whose words and time are an
/// earlier record's to the millisecond (a replay that kept the times). A
/// copy is the message first written, not the user saying it again.
fn replayed(records: &[Record]) -> HashMap<u64, u64> {
    // What the user typed, not what a tool returned (which can be large,
    // and is copied with the call it answers).
    let typed = |record: &Record| {
        record.str("/type") == Some("user")
            && !record.flag("/isMeta")
            && match &record.message().content {
                Content::Text(_) => true,
                Content::Blocks(blocks) => blocks.iter().all(|b| b.kind() == Some("text")),
                Content::Missing | Content::Other(_) => false,
            }
    };
    // Each record's time, read once; and how many records each time
    // stamps: a replay stamps a run of them.
    let stamps: Vec<Option<&str>> = records.iter().map(|r| r.str("/timestamp")).collect();
    let stamp = |at: usize| stamps.get(at).copied().flatten();
    let mut stamped: HashMap<&str, usize> = HashMap::new();
    for t in stamps.iter().flatten() {
        *stamped.entry(t).or_default() += 1;
    }
    let copies: Vec<usize> = (0..records.len())
        .filter(|&i| {
            stamp(i).is_some_and(|t| {
                stamped.get(t).is_some_and(|&n| n >= REPLAYED_RUN)
                    && (i.checked_sub(1).and_then(stamp) == Some(t) || stamp(i + 1) == Some(t))
            }) && typed(&records[i])
        })
        .collect();
    let mut replayed = HashMap::new();
    let mut first: HashMap<&str, u64> = HashMap::new();
    // Each message by its time and words: a resumed session may copy the
    // records under new uuids with the times they were first written at,
    // and no one types the same words twice in one millisecond.
    let mut written: HashMap<(&str, Vec<&str>), u64> = HashMap::new();
    let mut copies = copies.into_iter().peekable();
    for (i, record) in records.iter().enumerate() {
        crate::import::work(1);
        if !typed(record) {
            continue;
        }
        let texts = block_texts(record);
        if let Some(at) = stamp(i) {
            match written.entry((at, texts.clone())) {
                std::collections::hash_map::Entry::Occupied(earlier) => {
                    replayed.insert(record.line, *earlier.get());
                    let _ = copies.next_if_eq(&i);
                    continue;
                }
                std::collections::hash_map::Entry::Vacant(entry) => {
                    entry.insert(record.line);
                }
            }
        }
        let is_copy = copies.next_if_eq(&i).is_some();
        let earlier = is_copy
            .then(|| {
                texts
                    .iter()
                    .map(|t| first.get(t).copied())
                    .collect::<Option<Vec<u64>>>()
            })
            .flatten()
            .and_then(|lines| lines.into_iter().min());
        match earlier {
            Some(line) => {
                replayed.insert(record.line, line);
            }
            None => {
                for text in texts {
                    first.entry(text).or_insert(record.line);
                }
            }
        }
    }
    replayed
}

/// The text of each of a user record's blocks: a replay may write the
/// blocks of one record as records of their own.
fn block_texts(record: &Record) -> Vec<&str> {
    match &record.message().content {
        Content::Text(text) => vec![text.as_str()],
        Content::Blocks(blocks) => blocks
            .iter()
            .filter_map(|b| b.fields().and_then(|f| f.text.as_deref()))
            .collect(),
        Content::Missing | Content::Other(_) => Vec::new(),
    }
}

/// A summary with no boundary before it: how Claude Code 1.0 records a
/// compaction (the summary record opens a new chain; 2.0 and later write a
/// `compact_boundary` first and hang the summary from it).
fn lone_summary(record: &Record) -> bool {
    record.str("/type") == Some("user")
        && record.flag("/isCompactSummary")
        && record.str("/parentUuid").is_none()
}

/// Whether a record is a message of the main session: a user or assistant
/// record, or an attachment, not of a sidechain (a subagent's thread).
fn on_main_thread(record: &Record) -> bool {
    matches!(
        record.str("/type"),
        Some("user" | "assistant" | "attachment")
    ) && record.str("/uuid").is_some()
        && !record.flag("/isSidechain")
}

/// The Claude Code version that wrote `record`.
fn version(record: &Record) -> Option<Version> {
    record.str("/version").and_then(Version::parse)
}

/// Claude Code 1.0 writes what the user typed as a local command (a line
/// after `#`, a slash command, a line after `!`) as a child of the first
/// caveat record before it, however long ago that was, so the conversation
/// since the caveat hangs off no chain that goes on: the model saw it. Each
/// such record is read as the child of the message before it in the file.
fn caveat_relinks<'r>(records: &'r [Record], index: &Index<'r>) -> HashMap<&'r str, &'r str> {
    let mut relink = HashMap::new();
    for (i, record) in records.iter().enumerate() {
        let one = version(record).is_some_and(|v| v.at_least("1") && !v.at_least("2"));
        if !one || record.flag("/isSidechain") {
            continue;
        }
        let (Some(uuid), Some(parent)) = (record.str("/uuid"), index.parent(record)) else {
            continue;
        };
        let caveat = records[parent]
            .message()
            .content
            .as_str()
            .is_some_and(|text| text.trim_start().starts_with(user::CAVEAT));
        if !caveat {
            continue;
        }
        let before = (parent + 1..i).rev().find(|&j| on_main_thread(&records[j]));
        if let Some(before) = before.and_then(|j| records[j].str("/uuid")) {
            relink.insert(uuid, before);
        }
    }
    relink
}

/// Claude Code before 2.1.83 could chain a hook's progress records to one
/// another, off the message a tool call was made in, and write the next
/// message as the child of the last of them: the conversation since that
/// message hangs off a branch no chain from the next one walks, though the
/// model read it (`parentUuid` forked by hook progress; the stop hook's
/// summary, when one follows them, names the last of them and is the next
/// message's parent). A message whose parent is a progress record, or such
/// a summary after them, is read as the child of the last message
/// written before it that descends from where the progress records branch
/// off (or from another block of the agent's message that is); where
/// nothing does, the chain is as the file has it.
fn progress_relinks<'r>(records: &'r [Record], index: &Index<'r>) -> HashMap<&'r str, &'r str> {
    // How far back either walk goes: a turn's records, not a session's, so
    // a file of forks costs what it holds, not its square.
    const WALK: usize = 4096;
    let progress = |i: usize| records[i].str("/type") == Some("progress");
    // A stop hook's summary, written after the progress records and named
    // as the next message's parent, hangs off them too.
    let hook = |i: usize| {
        progress(i)
            || (records[i].str("/type") == Some("system")
                && records[i].str("/subtype") == Some("stop_hook_summary"))
    };
    let parent_of = |i: usize| index.parent(&records[i]);
    let mut relink = HashMap::new();
    for (i, record) in records.iter().enumerate() {
        if !on_main_thread(record) {
            continue;
        }
        let (Some(uuid), Some(first)) = (record.str("/uuid"), parent_of(i)) else {
            continue;
        };
        if !hook(first) {
            continue;
        }
        // Where the progress records branch off: the first ancestor that
        // is not one (a bounded walk: a run of them is a tool call's).
        let mut fork = Some(first);
        let (mut steps, mut passed) = (0, false);
        while let Some(at) = fork.filter(|&at| hook(at) && steps < WALK) {
            passed |= progress(at);
            fork = parent_of(at);
            steps += 1;
        }
        let Some(fork) = fork.filter(|&fork| passed && fork < i && !hook(fork)) else {
            continue;
        };
        let Some(last) = last_on_chain(records, fork + 1, i) else {
            continue;
        };
        // It must go on from the fork: its own chain, progress aside,
        // reaches it, or another block of the agent's message the fork is
        // a block of (each block is a record of its own, and the
        // conversation can go on from the answer to an earlier one).
        let message = records[fork]
            .message()
            .id
            .as_deref()
            .filter(|_| records[fork].str("/type") == Some("assistant"));
        let of_message = |j: usize| {
            message.is_some()
                && records[j].str("/type") == Some("assistant")
                && records[j].message().id.as_deref() == message
        };
        let mut at = Some(last);
        let mut descends = false;
        let mut steps = 0;
        while let Some(j) = at.filter(|&j| (j >= fork || of_message(j)) && steps < WALK) {
            if j == fork || of_message(j) {
                descends = true;
                break;
            }
            at = parent_of(j);
            steps += 1;
        }
        if let (true, Some(before)) = (descends, records[last].str("/uuid")) {
            relink.insert(uuid, before);
        }
    }
    relink
}

/// The last record in `from..before` that a conversation chain can end
/// on: a user or assistant message of the main session (progress records
/// and system records name parents the file may never hold).
fn last_on_chain(records: &[Record], from: usize, before: usize) -> Option<usize> {
    (from..before)
        .rev()
        .find(|&i| on_main_thread(&records[i]) && records[i].str("/type") != Some("attachment"))
}

/// The notice a summary holds instead of a summary, when the model's call
/// failed and the client kept its message ("You've hit your limit · resets
/// 2am", "API Error: …", "Prompt is too long"): between the client's own
/// opening and closing paragraphs, nothing else.
fn runtime_notice(summary: &str) -> Option<String> {
    static NOTICE: LazyLock<Regex> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Regex::new(r"(?i)^(you've hit your (usage )?limit|api error\b|prompt is too long|credit balance is too low|rate limit|overloaded|request timed out|error:)")
            .expect("the notice pattern compiles")
    });
    let core: Vec<&str> = summary
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .filter(|p| {
            !p.starts_with("This session is being continued")
                && !p.starts_with("If you need specific details")
                && !p.starts_with("Please continue the conversation")
        })
        .collect();
    match core.as_slice() {
        [one] if one.chars().count() <= 300 && NOTICE.is_match(one) => Some((*one).to_owned()),
        _ => None,
    }
}

/// The records of one compaction's buffer are looked up in. Each walk
/// stops at a compaction boundary and below the compaction before
/// (`floor`), but for what that one preserved (`carried`), itself only
/// from what came since the one before it: so a record is walked by two
/// compactions at most, and an import is linear in the file.
struct Session<'r> {
    records: &'r [Record],
    index: &'r Index<'r>,
    relink: &'r HashMap<&'r str, &'r str>,
    /// The file starts partway through the session.
    partial: bool,
    /// The boundary of the compaction before.
    floor: Option<usize>,
    /// The records that compaction preserved verbatim.
    carried: &'r HashSet<usize>,
}

impl Session<'_> {
    /// Whether record `i` can be in the buffer of this compaction.
    fn in_reach(&self, i: usize) -> bool {
        self.floor.is_none_or(|floor| i > floor)
            || self.carried.contains(&i)
            // 1.0.x: the compaction before is its summary, which opens the buffer.
            || (self.floor == Some(i) && lone_summary(&self.records[i]))
    }

    /// The compaction at boundary `b`, and the records it preserved.
    fn event(
        &self,
        b: usize,
        previous: Option<usize>,
        next_boundary: Option<usize>,
    ) -> (Event, HashSet<usize>) {
        let boundary = &self.records[b];
        let mut notes = Vec::new();
        let lone = lone_summary(boundary);
        if lone {
            notes.push("Claude Code 1.0 writes no boundary: the compaction is its summary record, and the buffer before it the chain of the last message before it".to_owned());
        }
        // The first record after the compaction before.
        let from = previous.map_or(0, |p| p + 1);
        let named = self.index.logical_parent(self.records, b);
        let leaf = named.filter(|&leaf| self.in_reach(leaf)).or_else(|| {
            if lone {
                return last_on_chain(self.records, from, b);
            }
            notes.push(match named {
                None => "the boundary's logical parent is not in the file: the buffer is the chain of the last message before it".to_owned(),
                Some(_) => "the boundary's logical parent stands before the compaction before it: the buffer is the chain of the last message since".to_owned(),
            });
            last_on_chain(self.records, from, b)
        });
        let mut chain = leaf.map(|leaf| self.chain(leaf)).unwrap_or_default();
        // A chain that breaks (a parent the file does not hold) before the
        // previous compaction or the session's start: what the model saw
        // before the break is rebuilt from file order.
        let broken = chain.first().is_some_and(|&first| {
            self.records[first]
                .str("/parentUuid")
                .is_some_and(|parent| !self.index.by_uuid.contains_key(parent))
        });
        // Where this compaction's records start, said as a note says it;
        // and the line a chain opens on.
        let since = || {
            previous.map_or_else(
                || "the session's start".to_owned(),
                |p| format!("the compaction at line {}", self.records[p].line),
            )
        };
        let opens_on = |chain: &[usize]| {
            chain
                .first()
                .map_or(boundary.line, |&i| self.records[i].line)
        };
        if broken || chain.is_empty() {
            let until = chain.first().copied().unwrap_or(b);
            let before: Vec<usize> = (from..until)
                .filter(|&i| on_main_thread(&self.records[i]))
                .collect();
            if !before.is_empty() {
                notes.push(format!(
                    "the chain of parents breaks at line {}: the {} records before it since {} are taken in file order",
                    opens_on(&chain),
                    before.len(),
                    since(),
                ));
                chain.splice(0..0, before);
            }
        }
        // A plan carried out in a cleared context, in the same file: the
        // conversation that made the plan goes on in it, and what the user
        // said there binds as before (the plan holds it in the agent's
        // words; the user withdrew none of it).
        if let Some(earlier) = self.cleared_for_plan(&chain, from) {
            notes.push(format!(
                "the context was cleared at line {} to carry out the plan the user approved: what the user said before it, since {}, still binds",
                opens_on(&chain),
                since(),
            ));
            chain.splice(0..0, earlier);
        }
        let mut trace = self.messages(&chain, b);
        self.add_queued(&mut trace, from, b);
        // What the user typed in the file since the compaction before that
        // the rebuilt buffer does not hold: never passed over in silence.
        let placed: HashSet<u64> = trace
            .iter()
            .filter(|m| matches!(m.origin, Origin::User | Origin::Answer))
            .map(|m| m.line)
            .collect();
        let unplaced = (from..b)
            .filter(|&i| {
                let record = &self.records[i];
                record.str("/type") == Some("user")
                    && !record.flag("/isSidechain")
                    && !placed.contains(&record.line)
                    && typed_by_user(record)
            })
            .count();
        let end = next_boundary.unwrap_or(self.records.len());
        let uuid = boundary.str("/uuid");
        let summary_at = lone.then_some(b).or_else(|| {
            (b + 1..end)
                .find(|&i| {
                    let r = &self.records[i];
                    r.flag("/isCompactSummary") && uuid.is_some() && r.str("/parentUuid") == uuid
                })
                .or_else(|| (b + 1..end).find(|&i| self.records[i].flag("/isCompactSummary")))
        });
        let summary = summary_at.map(|i| {
            let r = &self.records[i];
            Summary {
                text: r.message().content.text(),
                line: r.line,
                record: r.str("/uuid").map(str::to_owned),
                opaque: false,
            }
        });
        if summary.is_none() {
            notes.push(
                "no `isCompactSummary` record follows the boundary: the compaction kept no summary"
                    .to_owned(),
            );
        }
        if let Some(notice) = summary.as_ref().and_then(|s| runtime_notice(&s.text)) {
            notes.push(format!(
                "the summary is a notice of the runtime's, not a summary (\"{notice}\"): the summarizer failed, and the compaction kept nothing of what came before it"
            ));
        }
        let metadata = boundary
            .value
            .get("compactMetadata")
            .or_else(|| boundary.value.get("compact_metadata"));
        let number = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| metadata.and_then(|m| m.get(*name)).and_then(Value::as_u64))
        };
        let (kept, preserved) = self.preserved(metadata, &trace);
        let event = Event {
            line: boundary.line,
            record: uuid.map(str::to_owned),
            trigger: metadata
                .and_then(|m| m.get("trigger"))
                .and_then(Value::as_str)
                .map(str::to_owned),
            tokens_before: number(&["preTokens", "pre_tokens"]),
            tokens_after: number(&["postTokens", "post_tokens"]),
            version: boundary.str("/version").map(str::to_owned),
            at: boundary.str("/timestamp").map(str::to_owned),
            trace,
            summary,
            kept,
            notes,
            partial: self.partial,
            unplaced,
            branch: 0,
        };
        (event, preserved)
    }

    /// Where `chain` starts a conversation of its own whose first message
    /// is the prompt the runtime makes of an approved plan ("Implement the
    /// following plan:", sent when the user clears the context to carry it
    /// out), the chain of the conversation the plan was made in, before it
    /// in the same file from record `from` (after the compaction before).
    fn cleared_for_plan(&self, chain: &[usize], from: usize) -> Option<Vec<usize>> {
        let &first = chain.first()?;
        if self.records[first].str("/parentUuid").is_some() {
            return None;
        }
        let opens = chain
            .iter()
            .map(|&i| &self.records[i])
            .find(|r| r.str("/type") == Some("user") && !r.flag("/isMeta"))?;
        let plan = block_texts(opens)
            .first()
            .is_some_and(|text| user::typed(text, false) == user::Typed::Plan);
        if !plan {
            return None;
        }
        let leaf = last_on_chain(self.records, from, first)?;
        let earlier = self.chain(leaf);
        (!earlier.is_empty()).then_some(earlier)
    }

    /// The records from the root (or a boundary) to `leaf`, in order.
    fn chain(&self, leaf: usize) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut seen = HashSet::new();
        let mut at = Some(leaf);
        while let Some(i) = at {
            if !self.in_reach(i) || !seen.insert(i) {
                break;
            }
            chain.push(i);
            let record = &self.records[i];
            super::work(1);
            if record.str("/subtype") == Some("compact_boundary") {
                break;
            }
            let parent = record
                .str("/uuid")
                .and_then(|uuid| self.relink.get(uuid).copied())
                .or_else(|| record.str("/parentUuid"));
            at = parent.and_then(|uuid| self.index.by_uuid.get(uuid).copied());
        }
        chain.reverse();
        // The answers to calls made side by side with the next one: the
        // model read them all in one message, the user's words in a call
        // they turned down among them ("… the user said: …").
        // Each stands where the file wrote it, after the calls of its
        // message and before what the chain goes on with.
        let on_chain: HashSet<usize> = chain.iter().copied().collect();
        let mut whole = Vec::with_capacity(chain.len());
        let mut waiting = std::collections::BTreeSet::new();
        for &i in &chain {
            while let Some(j) = waiting.first().copied().filter(|&j| j < i) {
                waiting.remove(&j);
                whole.push(j);
            }
            whole.push(i);
            let answers = self.records[i]
                .str("/uuid")
                .and_then(|uuid| self.index.results.get(uuid));
            waiting.extend(
                answers
                    .into_iter()
                    .flatten()
                    .filter(|&&j| !on_chain.contains(&j) && self.in_reach(j)),
            );
        }
        whole.extend(waiting);
        whole
    }

    /// The messages a 2.1.x boundary preserved verbatim (its segment from
    /// `headUuid` to `tailUuid`), as places in `trace`, and their records.
    fn preserved(
        &self,
        metadata: Option<&Value>,
        trace: &[Message],
    ) -> (Vec<usize>, HashSet<usize>) {
        let mut records = HashSet::new();
        let Some(segment) = metadata.and_then(|m| m.get("preservedSegment")) else {
            return (Vec::new(), records);
        };
        let uuid = |name: &str| segment.get(name).and_then(Value::as_str);
        let (Some(head), Some(tail)) = (uuid("headUuid"), uuid("tailUuid")) else {
            return (Vec::new(), records);
        };
        let mut lines = HashSet::new();
        let mut at = self.index.by_uuid.get(tail).copied();
        // Only what came since the compaction before can have been
        // preserved: so a record is carried past one compaction at most.
        let since = |i: usize| self.floor.is_none_or(|floor| i > floor);
        while let Some(i) = at.filter(|&i| since(i) && !records.contains(&i)) {
            super::work(1);
            let record = &self.records[i];
            records.insert(i);
            lines.insert(record.line);
            if record.str("/uuid") == Some(head)
                || record.str("/subtype") == Some("compact_boundary")
            {
                break;
            }
            at = self.index.parent(record);
        }
        let kept = (0..trace.len())
            .filter(|&m| lines.contains(&trace[m].line))
            .collect();
        (kept, records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(values: &[Value]) -> Vec<Record> {
        (1..)
            .zip(values)
            .map(|(line, value)| Record::new(line, value.clone().into()))
            .collect()
    }

    fn user(uuid: &str, at: &str, content: Value) -> Value {
        serde_json::json!({"type": "user", "uuid": uuid, "timestamp": at,
            "message": {"role": "user", "content": content}})
    }

    fn assistant(uuid: &str, at: &str) -> Value {
        serde_json::json!({"type": "assistant", "uuid": uuid, "timestamp": at,
            "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]}})
    }

    #[test]
    fn input_queued_stands_where_it_was_queued_unless_taken_back_before_it_was_sent() {
        let line = |value: Value| value.to_string();
        let mut first = user(
            "u1",
            "2026-08-09T15:36:00.000Z",
            serde_json::json!("Plan the cleanup."),
        );
        first["sessionId"] = "s".into();
        let mut said = assistant("a1", "2026-08-09T15:36:10.000Z");
        said["parentUuid"] = "u1".into();
        said["sessionId"] = "s".into();
        let queued = serde_json::json!({"type": "queue-operation", "operation": "enqueue",
            "timestamp": "2026-08-09T15:36:42.863Z", "sessionId": "s",
            "content": "Use codegraph explore instead of naively finding"});
        let mut more = assistant("a2", "2026-08-09T15:36:50.000Z");
        more["parentUuid"] = "a1".into();
        more["sessionId"] = "s".into();
        let attachment = serde_json::json!({"type": "attachment", "uuid": "t1", "parentUuid": "a2",
            "sessionId": "s", "timestamp": "2026-08-09T15:37:00.000Z",
            "attachment": {"type": "queued_command", "prompt": "Use codegraph explore instead of naively finding",
                "commandMode": "prompt", "origin": {"kind": "human"}}});
        let boundary = serde_json::json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1",
            "parentUuid": null, "logicalParentUuid": "t1", "sessionId": "s",
            "timestamp": "2026-08-09T15:40:00.000Z", "compactMetadata": {"trigger": "auto", "preTokens": 1000}});
        let mut summary = user(
            "c1",
            "2026-08-09T15:40:00.001Z",
            serde_json::json!("This session is being continued. Summary."),
        );
        summary["parentUuid"] = "b1".into();
        summary["sessionId"] = "s".into();
        summary["isCompactSummary"] = true.into();
        // Queued, then taken back to the prompt to edit before it was sent.
        let popped = serde_json::json!({"type": "queue-operation", "operation": "enqueue",
            "timestamp": "2026-08-09T15:36:55.000Z", "sessionId": "s", "content": "i found 2 bugs"});
        let back = serde_json::json!({"type": "queue-operation", "operation": "popAll",
            "timestamp": "2026-08-09T15:36:58.000Z", "sessionId": "s", "content": "i found 2 bugs"});
        let text = [
            first, said, queued, more, popped, back, attachment, boundary, summary,
        ]
        .into_iter()
        .map(line)
        .collect::<Vec<_>>()
        .join("\n");
        let file = SourceFile::new("s.jsonl", text);
        let session = crate::import::import(&file, None).unwrap();
        let typed: Vec<(u64, &str)> = session.events[0]
            .trace
            .iter()
            .filter(|m| m.origin == Origin::User)
            .map(|m| (m.line, m.text.as_str()))
            .collect();
        assert_eq!(
            typed,
            [
                (1, "Plan the cleanup."),
                (3, "Use codegraph explore instead of naively finding")
            ]
        );
    }

    /// Records of one session file: each `(uuid, parent, kind)`; a user
    /// record says `uuid` ("typed <uuid>"), a boundary names its logical
    /// parent, a summary follows its boundary.
    fn session_of(records: &[(&str, Option<&str>, &str)]) -> crate::import::Session {
        let text = records
            .iter()
            .map(|&(uuid, parent, kind)| {
                let mut value = match kind {
                    "user" => user(uuid, "t", serde_json::json!(format!("typed {uuid}"))),
                    "assistant" => assistant(uuid, "t"),
                    "summary" => {
                        let mut summary = user(uuid, "t", serde_json::json!("This session is being continued. Summary."));
                        summary["isCompactSummary"] = true.into();
                        summary
                    }
                    leaf => serde_json::json!({"type": "system", "subtype": "compact_boundary",
                        "uuid": uuid, "parentUuid": null, "logicalParentUuid": leaf, "timestamp": "t",
                        "compactMetadata": {"trigger": "auto", "preTokens": 1000}}),
                };
                value["sessionId"] = "s".into();
                if let Some(parent) = parent {
                    value["parentUuid"] = parent.into();
                }
                value.to_string()
            })
            .collect::<Vec<_>>()
            .join("\n");
        crate::import::import(&SourceFile::new("s.jsonl", text), None).unwrap()
    }

    fn typed(event: &Event) -> Vec<&str> {
        event
            .trace
            .iter()
            .filter(|m| m.origin == Origin::User)
            .map(|m| m.text.as_str())
            .collect()
    }

    #[test]
    fn a_plan_carried_out_in_a_cleared_context_goes_on_from_the_conversation_that_made_it() {
        // Claude Code 2.1.12 (a real session): the user approves the plan
        // and clears the context; the runtime starts a new chain in the
        // same file, its first message the plan.
        let line = |value: Value| value.to_string();
        let mut records = [
            user(
                "u1",
                "t",
                serde_json::json!("Build the notebook app; it must work offline."),
            ),
            assistant("a1", "t"),
            serde_json::json!({"type": "progress", "uuid": "p1", "parentUuid": null,
                "data": {"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:clear"}}),
            user(
                "u2",
                "t",
                serde_json::json!("Implement the following plan:\n\n# Notebook app\n- offline"),
            ),
            assistant("a2", "t"),
            serde_json::json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1",
                "parentUuid": null, "logicalParentUuid": "a2", "timestamp": "t",
                "compactMetadata": {"trigger": "auto", "preTokens": 1000}}),
            user(
                "c1",
                "t",
                serde_json::json!("This session is being continued. Summary."),
            ),
        ];
        records[1]["parentUuid"] = "u1".into();
        records[3]["parentUuid"] = "p1".into();
        records[4]["parentUuid"] = "u2".into();
        records[6]["parentUuid"] = "b1".into();
        records[6]["isCompactSummary"] = true.into();
        let text = records
            .iter_mut()
            .map(|r| {
                r["sessionId"] = "s".into();
                line(r.clone())
            })
            .collect::<Vec<_>>()
            .join("\n");
        let session =
            crate::import::import(&SourceFile::new("s.jsonl", text.clone()), None).unwrap();
        let event = &session.events[0];
        assert_eq!(
            typed(event),
            ["Build the notebook app; it must work offline."]
        );
        assert!(event.trace.iter().any(|m| m.origin == Origin::Plan));
        assert!(event.notes.iter().any(|n| n.contains("cleared at line 3")));
        // A chain of its own that opens with the user's words (a `/clear`,
        // a new conversation) does not go on from the one before.
        let cleared = text.replace("Implement the following plan:", "Start over:");
        let session = crate::import::import(&SourceFile::new("s.jsonl", cleared), None).unwrap();
        assert_eq!(
            typed(&session.events[0]),
            ["Start over:\n\n# Notebook app\n- offline"]
        );
    }

    #[test]
    fn a_conversation_forked_into_the_same_file_is_judged_along_its_own_chain() {
        // Two conversations go on from the session's first message, their
        // records interleaved; the first compacts, then the second, whose
        // message typed before the first's compaction is in its buffer.
        let session = session_of(&[
            ("root", None, "user"),
            ("a1", Some("root"), "assistant"),
            ("one", Some("a1"), "user"),
            ("b1", Some("a1"), "assistant"),
            ("two", Some("b1"), "user"),
            ("a2", Some("one"), "assistant"),
            ("x", None, "a2"),
            ("xs", Some("x"), "summary"),
            ("b2", Some("two"), "assistant"),
            ("y", None, "b2"),
            ("ys", Some("y"), "summary"),
            ("b3", Some("ys"), "assistant"),
            ("three", Some("b3"), "user"),
            ("b4", Some("three"), "assistant"),
            ("z", None, "b4"),
        ]);
        let events = &session.events;
        assert_eq!(typed(&events[0]), ["typed root", "typed one"]);
        assert_eq!(typed(&events[1]), ["typed root", "typed two"]);
        // The second conversation's next compaction goes on from its own.
        assert_eq!(typed(&events[2]), ["typed three"]);
        // The conversation the file ends in is the branch of now.
        let branches: Vec<usize> = events.iter().map(|e| e.branch).collect();
        assert_eq!(branches, [1, 0, 0]);
        assert!(events[1]
            .notes
            .iter()
            .any(|n| n.contains("another conversation")));
    }

    #[test]
    fn past_the_most_forks_a_compaction_is_taken_from_the_one_before_in_the_file() {
        // The session's first message, then a conversation a fork, each
        // compacting once.
        let mut owned: Vec<(String, Option<String>, String)> =
            vec![("root".to_owned(), None, "user".to_owned())];
        for n in 0..=MOST_FORKS + 1 {
            owned.push((
                format!("a{n}"),
                Some("root".to_owned()),
                "assistant".to_owned(),
            ));
            owned.push((format!("b{n}"), None, format!("a{n}")));
        }
        let records: Vec<(&str, Option<&str>, &str)> = owned
            .iter()
            .map(|(uuid, parent, kind)| (uuid.as_str(), parent.as_deref(), kind.as_str()))
            .collect();
        let session = session_of(&records);
        let forked = |event: &Event| {
            event
                .notes
                .iter()
                .any(|n| n.contains("another conversation"))
        };
        assert_eq!(session.events.len(), MOST_FORKS + 2);
        assert!(session.events[1..=MOST_FORKS].iter().all(forked));
        assert!(!forked(&session.events[MOST_FORKS + 1]));
    }

    #[test]
    fn one_conversation_whose_chain_runs_beside_its_boundaries_is_one_branch() {
        let session = session_of(&[
            ("u1", None, "user"),
            ("a1", Some("u1"), "assistant"),
            ("x", None, "a1"),
            ("u2", Some("a1"), "user"),
            ("a2", Some("u2"), "assistant"),
            ("y", None, "a2"),
        ]);
        let events = &session.events;
        assert_eq!(typed(&events[1]), ["typed u2"]);
        assert!(events.iter().all(|e| e.branch == 0));
        // A chain begun anew after a compaction is no fork of the session.
        let session = session_of(&[
            ("u1", None, "user"),
            ("a1", Some("u1"), "assistant"),
            ("x", None, "a1"),
            ("u2", None, "user"),
            ("a2", Some("u2"), "assistant"),
            ("y", None, "a2"),
        ]);
        assert!(session.events.iter().all(|e| e.branch == 0));
        assert!(!session.events[1]
            .notes
            .iter()
            .any(|n| n.contains("another conversation")));
    }

    #[test]
    fn a_resumed_sessions_replay_stands_where_it_was_first_written() {
        let ask = "Help me think through the sync endpoint.";
        let file = records(&[
            user(
                "a",
                "t1",
                serde_json::json!([
                    {"type": "text", "text": "<ide_selection>x</ide_selection>"},
                    {"type": "text", "text": ask}
                ]),
            ),
            assistant("b", "t2"),
            user("c", "t3", serde_json::json!("Use option 2.")),
            assistant("d", "t4"),
            // The replay: the same words under new uuids, one time for all,
            // one record's blocks written as records of their own.
            user(
                "e",
                "t9",
                serde_json::json!([{"type": "text", "text": "<ide_selection>x</ide_selection>"}]),
            ),
            user(
                "f",
                "t9",
                serde_json::json!([{"type": "text", "text": ask}]),
            ),
            assistant("g", "t9"),
            user("h", "t9", serde_json::json!("Use option 2.")),
            assistant("i", "t9"),
            // Typed again at a time of its own: the user says it again.
            user("j", "t10", serde_json::json!("Use option 2.")),
        ]);
        let replayed = replayed(&file);
        assert_eq!(replayed.get(&5), Some(&1));
        assert_eq!(replayed.get(&6), Some(&1));
        assert_eq!(replayed.get(&8), Some(&3));
        assert_eq!(replayed.get(&10), None);
        // A message and what is written with it share a time, and are no replay.
        let pair = records(&[
            user("a", "t1", serde_json::json!("Use option 2.")),
            assistant("b", "t2"),
            user("c", "t3", serde_json::json!("Use option 2.")),
            assistant("d", "t3"),
        ]);
        assert!(super::replayed(&pair).is_empty());
        // A replay that kept each record's own time.
        let kept = records(&[
            user(
                "a",
                "2026-01-06T17:19:11.060Z",
                serde_json::json!("Ok let's do option A"),
            ),
            assistant("b", "2026-01-06T17:19:12.000Z"),
            user(
                "c",
                "2026-01-06T17:19:11.060Z",
                serde_json::json!([{"type": "text", "text": "Ok let's do option A"}]),
            ),
        ]);
        assert_eq!(super::replayed(&kept).get(&3), Some(&1));
    }
}
