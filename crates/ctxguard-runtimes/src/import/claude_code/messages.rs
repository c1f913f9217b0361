//! How a Claude Code transcript's records become the messages the model
//! saw: one API message written as several records is one message; input
//! queued while the agent worked, attachments, the user's own words inside
//! what the client wrapped around them.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde_json::value::RawValue;
use serde_json::Value;

use super::user::{self, answers, asks, questions, Typed};
use super::{version, Index, Session, ANSWER_MARK};
use crate::import::message::{parsed, Block, Content};
use crate::import::records::{self, Record};
use crate::import::{Message, Origin};

impl Session<'_> {
    /// The messages of the chain's records (before record `before`): one
    /// API message written as several records is one message.
    pub(super) fn messages(&self, chain: &[usize], before: usize) -> Vec<Message> {
        let mut messages: Vec<Message> = Vec::new();
        let mut last_id: Option<&str> = None;
        let mut merged: HashSet<usize> = HashSet::new();
        let mut gathered: HashSet<&str> = HashSet::new();
        let on_chain: HashSet<usize> = chain.iter().copied().collect();
        for &i in chain {
            let record = &self.records[i];
            if record.flag("/isSidechain") || merged.contains(&i) {
                continue;
            }
            match record.str("/type") {
                Some("assistant") => {
                    let id = record.message().id.as_deref();
                    if id.is_some() && id == last_id {
                        if let Some(message) = messages.last_mut() {
                            append(&mut message.text, &assistant_text(record));
                            continue;
                        }
                    }
                    // Blocks of this message written as siblings off the chain.
                    let mut text = assistant_text(record);
                    // Gathered once per message, however often its id recurs.
                    let siblings = id
                        .filter(|id| gathered.insert(id))
                        .and_then(|id| self.index.by_message.get(id));
                    for &j in siblings.into_iter().flatten() {
                        crate::import::work(1);
                        let sibling = &self.records[j];
                        if j < before
                            && j != i
                            && !on_chain.contains(&j)
                            && !sibling.flag("/isSidechain")
                        {
                            append(&mut text, &assistant_text(sibling));
                            merged.insert(j);
                        }
                    }
                    last_id = id;
                    messages.push(Message {
                        origin: Origin::Assistant,
                        text,
                        line: record.line,
                        record: record.str("/uuid").map(str::to_owned),
                    });
                }
                Some("user") => {
                    last_id = None;
                    user_messages(record, self.index, &mut messages);
                }
                Some("attachment") => {
                    last_id = None;
                    messages.extend(attachment_message(record));
                }
                _ => {}
            }
        }
        messages.retain(|message| !message.text.trim().is_empty());
        messages
    }

    /// Each queued-command attachment in `trace` put on the line of the
    /// `queue-operation` that enqueued its words before it (`queued`), each
    /// enqueue dating one attachment.
    fn date_attachments(&self, trace: &mut [Message], queued: &[Enqueued<'_>]) {
        // The attachments, by their words, in trace order.
        let mut attached: HashMap<String, std::collections::VecDeque<usize>> = HashMap::new();
        for (at, m) in trace.iter().enumerate() {
            crate::import::work(1);
            let attachment = m.origin == Origin::User
                && self
                    .records
                    .binary_search_by_key(&m.line, |r| r.line)
                    .is_ok_and(|i| self.records[i].str("/type") == Some("attachment"));
            if attachment {
                attached
                    .entry(m.text.trim().to_owned())
                    .or_default()
                    .push_back(at);
            }
        }
        if attached.is_empty() {
            return;
        }
        for entry in queued {
            let Some(waiting) = entry
                .words
                .as_ref()
                .and_then(|words| attached.get_mut(words.trim()))
            else {
                continue;
            };
            // The first attachment of these words written after it.
            while waiting
                .front()
                .is_some_and(|&at| trace[at].line < entry.line)
            {
                waiting.pop_front();
            }
            if let Some(at) = waiting.pop_front() {
                trace[at].line = entry.line;
            }
        }
    }

    /// The input enqueued between records `from` and `until`, in file
    /// order, read in one pass over the queue's operations: each one's
    /// line, the user's words in it, and whether the user took it back to
    /// edit before it was sent (a `popAll` that returns its words to the
    /// prompt while it still waited, neither dequeued nor removed; what
    /// they then send is a message of its own).
    fn enqueued(&self, from: usize, until: usize) -> Vec<Enqueued<'_>> {
        let mut queued: Vec<Enqueued> = Vec::new();
        // What waits in the queue: places in `queued`.
        let mut waiting: std::collections::VecDeque<usize> = Default::default();
        for record in &self.records[from..until] {
            crate::import::work(1);
            if record.str("/type") != Some("queue-operation") {
                continue;
            }
            match record.str("/operation") {
                Some("enqueue") => {
                    let content = record.str("/content");
                    waiting.push_back(queued.len());
                    queued.push(Enqueued {
                        line: record.line,
                        content: content.unwrap_or(""),
                        words: match content.map(|c| user::typed(c, false)) {
                            Some(Typed::User(words)) => Some(words),
                            _ => None,
                        },
                        withdrawn: false,
                    });
                }
                Some("dequeue" | "remove") => {
                    waiting.pop_front();
                }
                Some("popAll") => {
                    let returned = record.str("/content");
                    for at in waiting.drain(..) {
                        let entry = &mut queued[at];
                        entry.withdrawn =
                            returned.is_none_or(|back| back.contains(entry.content.trim()));
                    }
                }
                _ => {}
            }
        }
        queued
    }

    /// Input the user queued while the agent worked, between records
    /// `from` and `until`: a `queue-operation` enqueued with text, which the
    /// runtime gives the model with its next request but, in some versions,
    /// never writes as a record of its own. Placed by its line; text also
    /// written as a user record or a queued-command attachment is there once,
    /// and the attachment's stands on the line it was queued at, where the
    /// user typed it.
    pub(super) fn add_queued(&self, trace: &mut Vec<Message>, from: usize, until: usize) {
        let enqueued = self.enqueued(from, until);
        self.date_attachments(trace, &enqueued);
        // The latest line each text the user typed stands on.
        let mut typed_at: HashMap<String, u64> = HashMap::new();
        for m in trace.iter().filter(|m| m.origin == Origin::User) {
            let at = typed_at.entry(m.text.trim().to_owned()).or_insert(0);
            *at = (*at).max(m.line);
        }
        // Each queued text goes before the first message written after it;
        // queued in file order, those places only move forward.
        let mut queued: Vec<(usize, Message)> = Vec::new();
        let mut place = 0;
        for entry in enqueued {
            let Some(words) = entry.words.filter(|_| !entry.withdrawn) else {
                continue;
            };
            if typed_at
                .get(words.trim())
                .is_some_and(|&line| line >= entry.line)
            {
                continue;
            }
            while place < trace.len() && trace[place].line <= entry.line {
                place += 1;
            }
            queued.push((
                place,
                Message {
                    origin: Origin::User,
                    text: words,
                    line: entry.line,
                    record: None,
                },
            ));
        }
        if queued.is_empty() {
            return;
        }
        let mut merged = Vec::with_capacity(trace.len() + queued.len());
        let mut queued = queued.into_iter().peekable();
        for (at, message) in std::mem::take(trace).into_iter().enumerate() {
            while let Some((_, q)) = queued.next_if(|(place, _)| *place == at) {
                merged.push(q);
            }
            merged.push(message);
        }
        merged.extend(queued.map(|(_, q)| q));
        *trace = merged;
    }
}

/// Input enqueued while the agent worked ([`Session::enqueued`]).
struct Enqueued<'r> {
    line: u64,
    /// The text as the queue holds it, which a `popAll` returns.
    content: &'r str,
    /// The user's words in it, if any are the user's.
    words: Option<String>,
    withdrawn: bool,
}

fn append(text: &mut String, more: &str) {
    if more.is_empty() {
        return;
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(more);
}

/// An assistant record's text and tool calls (each input as written);
/// thinking is not carried.
fn assistant_text(record: &Record) -> String {
    let content = &record.message().content;
    let Content::Blocks(blocks) = content else {
        return content.text();
    };
    let mut text = String::new();
    for block in blocks.iter().filter_map(Block::fields) {
        match block.kind.as_deref() {
            Some("text") => append(&mut text, block.text.as_deref().unwrap_or("")),
            Some("tool_use") => {
                let name = block.name.as_deref().unwrap_or("tool");
                let input = block.input.as_deref().map_or("", RawValue::get);
                append(&mut text, &format!("[{name}] {input}"));
            }
            _ => {}
        }
    }
    text
}

/// A user record: typed text, tool results (with the words and choices
/// the user gave through them), or text the runtime wrote (markers,
/// `isMeta` expansions and caveats, the compact summary).
fn user_messages(record: &Record, index: &Index, messages: &mut Vec<Message>) {
    let tools = &index.tools;
    let uuid = record.str("/uuid").map(str::to_owned);
    // A record a resumed session replayed stands where it was first written.
    let line = index
        .replayed
        .get(&record.line)
        .copied()
        .unwrap_or(record.line);
    let message = |origin, text: String| Message {
        origin,
        text,
        line,
        record: uuid.clone(),
    };
    let content = &record.message().content;
    if record.flag("/isCompactSummary") {
        messages.push(message(Origin::Summary, content.text()));
        return;
    }
    let meta = record.flag("/isMeta");
    let typed = |text: &str, messages: &mut Vec<Message>| match user::typed(text, meta) {
        Typed::User(words) => messages.push(message(Origin::User, words)),
        Typed::Runtime => messages.push(message(Origin::Runtime, text.to_owned())),
        Typed::Plan => messages.push(message(Origin::Plan, text.to_owned())),
        Typed::Command(name) => messages.push(message(Origin::Command, name)),
    };
    // What the tool gave back, whole: read only where a rejection or an
    // answer is looked for in it.
    let structured = || record.value.get("toolUseResult").unwrap_or(&Value::Null);
    match content {
        Content::Blocks(blocks) => {
            for block in blocks.iter().filter_map(Block::fields) {
                match block.kind.as_deref() {
                    Some("tool_result") => {
                        let text = block
                            .content
                            .as_deref()
                            .map(Content::read)
                            .unwrap_or_default()
                            .text();
                        let tool = block.tool_use_id.as_deref().and_then(|id| tools.get(id));
                        let is_error = block.is_error;
                        // A call a PreToolUse hook answered, in the
                        // terminal (no editor to reject an edit in): its
                        // error is the hook's refusal, not the user's words.
                        let refused_by_hook = record.str("/entrypoint") == Some("cli")
                            && block
                                .tool_use_id
                                .as_deref()
                                .is_some_and(|id| index.hooked.contains(id));
                        if let Some(words) = user::rejection_words(&text).or_else(|| {
                            let (name, _) =
                                tool.filter(|_| is_error == Some(true) && !refused_by_hook)?;
                            // Claude Code 1.0 wrote the edit tools' errors
                            // bare: only from 2.0 on is a bare one the user's.
                            version(record)
                                .is_some_and(|v| v.at_least("2"))
                                .then(|| {
                                    user::editor_rejection_words(name, &text, true, structured())
                                })
                                .flatten()
                        }) {
                            messages.push(message(Origin::User, words.to_owned()));
                        } else if let Some(plan) = tool
                            .filter(|(name, _)| *name == "ExitPlanMode")
                            .filter(|_| text.starts_with("User has approved your plan"))
                            .and_then(|&(_, input)| {
                                parsed(input).get("plan")?.as_str().map(str::to_owned)
                            })
                        {
                            // A plan the user approved: the agent's words,
                            // which the user's approval made the plan.
                            messages.push(message(Origin::Plan, plan));
                        } else if let Some(&(_, input)) = tool.filter(|(name, _)| asks(name)) {
                            // The choices are the user's, not the tool's output.
                            for (question, choice) in
                                answers(structured(), &text, &questions(&parsed(input)))
                            {
                                messages.push(message(
                                    Origin::Answer,
                                    format!("{question} {ANSWER_MARK}{choice}"),
                                ));
                            }
                        } else {
                            messages.push(message(Origin::Tool, text));
                        }
                    }
                    Some("text") => typed(block.text.as_deref().unwrap_or(""), messages),
                    _ => {}
                }
            }
        }
        other => typed(&other.text(), messages),
    }
}

/// Whether a user record holds text the user typed (not a tool result,
/// not the runtime's own text).
pub(super) fn typed_by_user(record: &Record) -> bool {
    let meta = record.flag("/isMeta");
    let typed = |text: &str| matches!(user::typed(text, meta), Typed::User(_));
    match &record.message().content {
        Content::Text(text) => !record.flag("/isCompactSummary") && typed(text),
        Content::Blocks(blocks) => blocks.iter().filter_map(Block::fields).any(|block| {
            block.kind.as_deref() == Some("text") && block.text.as_deref().is_some_and(typed)
        }),
        Content::Missing | Content::Other(_) => false,
    }
}

/// An attachment record: input the user queued while the agent worked
/// (`queued_command`, from a person) is the user's; the rest (hook
/// context, reminders, file listings) is the runtime's.
fn attachment_message(record: &Record) -> Option<Message> {
    let attachment = record.value.get("attachment")?;
    let uuid = record.str("/uuid").map(str::to_owned);
    let queued = attachment.get("type").and_then(Value::as_str) == Some("queued_command")
        && attachment
            .pointer("/origin/kind")
            .and_then(Value::as_str)
            .is_none_or(|kind| kind == "human");
    if queued {
        let prompt = attachment.get("prompt").map(records::text_of)?;
        return match user::typed(&prompt, false) {
            Typed::User(words) => Some(Message {
                origin: Origin::User,
                text: words,
                line: record.line,
                record: uuid,
            }),
            Typed::Runtime | Typed::Plan | Typed::Command(_) => None,
        };
    }
    let text = attachment.get("content").map(records::text_of)?;
    Some(Message {
        origin: Origin::Runtime,
        text,
        line: record.line,
        record: uuid,
    })
}
