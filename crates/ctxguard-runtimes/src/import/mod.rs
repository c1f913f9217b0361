//! Runtime importers: a session file of an agent runtime (Claude Code,
//! Codex, pi, OpenHands, SWE-agent) read as it is, into one [`Event`] per
//! compaction: the messages the model saw just before it and just after.
//! Each runtime is one file behind [`Importer`]; `records` reads a file's
//! records a field at a time and `message` a record's API message typed,
//! for all of them; `classify` turns an event into a trace and a plan
//! whose every region remembers where in the session it came from.

pub(crate) mod classify;
pub(crate) mod claude_code;
pub(crate) mod codex;
pub(crate) mod message;
mod openhands;
pub(crate) mod pi;
pub mod records;
mod swe_agent;

use std::sync::Arc;

use crate::diagnostics::codes::import as codes;
use crate::diagnostics::Diagnostic;
use crate::facts::Runtime;
use crate::source::SourceFile;

pub use classify::{event as classify, pin, Pin, PIN_SYNTAX};

/// The runtimes whose session files ctxguard reads, in the order `--from`
/// lists them.
pub const READ: [Runtime; 5] = [
    Runtime::ClaudeCode,
    Runtime::Codex,
    Runtime::Pi,
    Runtime::OpenHands,
    Runtime::SweAgent,
];

/// The reader of `runtime`'s session files; `None` for a runtime whose
/// sessions ctxguard does not read (Gemini CLI, OpenClaw).
fn importer(runtime: Runtime) -> Option<&'static dyn Importer> {
    match runtime {
        Runtime::ClaudeCode => Some(&claude_code::ClaudeCode),
        Runtime::Codex => Some(&codex::Codex),
        Runtime::Pi => Some(&pi::Pi),
        Runtime::OpenHands => Some(&openhands::OpenHands),
        Runtime::SweAgent => Some(&swe_agent::SweAgent),
        Runtime::GeminiCli | Runtime::OpenClaw => None,
    }
}

/// One runtime's session format.
trait Importer: Sync {
    /// Whether `text` looks like this runtime's session file: its first
    /// records say so. Cheap: only the start of the file is looked at.
    fn recognizes(&self, text: &str) -> bool;

    /// Every compaction in the file, in file order, and the folder the
    /// session ran in; what could not be read goes to `problems`, with its
    /// line.
    fn events(&self, file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Imported;
}

/// What an importer reads of a session file.
struct Imported {
    events: Vec<Event>,
    /// The folder the session was started in ([`Session::folder`]).
    folder: Option<String>,
}

impl From<Vec<Event>> for Imported {
    /// Compactions of a runtime that records no folder.
    fn from(events: Vec<Event>) -> Imported {
        Imported {
            events,
            folder: None,
        }
    }
}

/// Between a question the runtime asked and the user's choice, in the text
/// of an [`Origin::Answer`] message: `Which primary key? → uuid`.
pub const ANSWER_MARK: &str = "→ ";

/// Who a message is from, and how it came to be in the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Text the user typed: pins, hints and unclassified sentences come from it.
    User,
    /// A choice the user made in a question the runtime asked (Claude Code
    /// `AskUserQuestion`, a plan approval): a commitment as it stands.
    Answer,
    /// The model's own text and tool calls.
    Assistant,
    /// What a tool returned.
    Tool,
    /// User-role text the runtime wrote itself (command echoes, caveats,
    /// environment context): narrative.
    Runtime,
    /// A plan the user approved: sent as the prompt (Claude Code's
    /// "Implement the following plan:") or approved where the agent put it
    /// up (Claude Code's `ExitPlanMode`): the agent's words
    /// with the user's go-ahead. It is never a commitment of its own, but
    /// what a summary says the user asked may stand on it.
    Plan,
    /// A compaction summary in the buffer (an earlier one, in a trace).
    Summary,
    /// A command the user gave the runtime with nothing after it
    /// (`/speckit.plan`, `/review`): the runtime's text, never a
    /// commitment, but what a summary says the user ran stands on it.
    Command,
}

/// One message of a buffer, with its place in the session file.
#[derive(Clone, Debug)]
pub struct Message {
    /// Who it is from.
    pub origin: Origin,
    /// Its text as the model saw it (tool calls written as text).
    pub text: String,
    /// The 1-based line of its record.
    pub line: u64,
    /// The record's id or uuid, where the runtime gives one.
    pub record: Option<String>,
}

/// A session file as it stands while the session runs: the buffer now
/// (back to the last compaction), the version of the runtime that wrote
/// it, and the file's lines.
pub(crate) struct Current {
    /// The buffer's messages, in order.
    pub messages: Vec<Message>,
    /// `version` of the last record that has one.
    pub version: Option<String>,
    /// Lines in the file.
    pub lines: u64,
    /// The context hooks gave the model after the last compaction, as the
    /// transcript keeps it (`hook_additional_context` attachments; versions
    /// before 2.1.1xx keep none); `None`: the file holds no compaction.
    pub given_back: Option<Vec<String>>,
    /// The last compaction's summary and trigger, when the file holds it.
    pub summary: Option<LastSummary>,
}

/// The summary of a transcript's last compaction.
pub(crate) struct LastSummary {
    /// The summary as the model reads it.
    pub text: String,
    /// `manual` or `auto`, as the boundary records it.
    pub trigger: Option<String>,
    /// The summary record's line.
    pub line: u64,
    /// The messages the compaction carried over word for word, each with
    /// whether it is prose (not tool output), as the audit reads them.
    pub carried: Vec<(String, bool)>,
}

/// The summary that replaced part of the buffer.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Its text as the model saw it.
    pub text: String,
    /// The 1-based line of its record.
    pub line: u64,
    /// The record's id or uuid.
    pub record: Option<String>,
    /// Encrypted by the runtime (Codex remote compaction): nothing it says
    /// can be checked.
    pub opaque: bool,
}

/// One compaction: the buffer before and after it.
#[derive(Clone, Debug)]
pub struct Event {
    /// The 1-based line of the compaction record.
    pub line: u64,
    /// The compaction record's id or uuid.
    pub record: Option<String>,
    /// `auto` or `manual`, where the runtime records it.
    pub trigger: Option<String>,
    /// Tokens before, as the runtime counted them (units differ by runtime).
    pub tokens_before: Option<u64>,
    /// Tokens after, where recorded.
    pub tokens_after: Option<u64>,
    /// The version of the runtime that wrote the compaction, where recorded.
    pub version: Option<String>,
    /// When it happened, as the runtime wrote it (RFC 3339), where recorded.
    pub at: Option<String>,
    /// The buffer just before, in order.
    pub trace: Vec<Message>,
    /// The summary, if the compaction wrote one.
    pub summary: Option<Summary>,
    /// Messages of the trace carried over verbatim (their places in
    /// `trace`), in the order the buffer after holds them.
    pub kept: Vec<usize>,
    /// What the importer could not be sure of (a broken chain, an
    /// approximated initial context).
    pub notes: Vec<String>,
    /// The file holds only the later part of the session: what the user
    /// said before its first record is not in it.
    pub partial: bool,
    /// User records before the compaction that the buffer rebuilt for it
    /// does not hold: what they said could not be placed.
    pub unplaced: usize,
    /// The branch of the session's tree it stands on: 0 for the path the
    /// session is on now, another number for each branch the session left
    /// (pi, after the user went back to an earlier entry). A compaction is
    /// judged against what was said on its own branch.
    pub branch: usize,
}

/// Where a compaction stands in its session, as reports name it.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Compaction {
    /// N, from 1, in file order.
    pub event: usize,
    /// The 1-based line of the compaction record.
    pub compaction_line: u64,
    /// `auto` or `manual`, where recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Tokens before, as the runtime counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_before: Option<u64>,
    /// Tokens after, where recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens_after: Option<u64>,
    /// The version of the runtime that wrote it, where recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// When it happened (RFC 3339, as the runtime wrote it), where recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl Event {
    /// This event as the `n`th compaction of its session.
    pub fn compaction(&self, n: usize) -> Compaction {
        Compaction {
            event: n,
            compaction_line: self.line,
            trigger: self.trigger.clone(),
            tokens_before: self.tokens_before,
            tokens_after: self.tokens_after,
            version: self.version.clone(),
            at: self.at.clone(),
        }
    }
}

/// A session file read: which runtime, and its compactions.
#[derive(Debug)]
pub struct Session {
    /// The session file.
    pub file: Arc<SourceFile>,
    /// Whose format it is.
    pub runtime: Runtime,
    /// Whether the runtime was recognized from the content (`--from auto`).
    pub detected: bool,
    /// Every compaction, in file order.
    pub events: Vec<Event>,
    /// The folder the session was started in, as the runtime recorded it
    /// (a Claude Code record's `cwd`, a Codex `session_meta`'s, pi's
    /// header's): the project's name is in it.
    pub folder: Option<String>,
    /// Records that could not be imported, with their lines.
    pub problems: Vec<Diagnostic>,
}

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `steps` of an importer's work on this thread: a record visited
/// on a walk, a field looked up.
pub(crate) fn work(steps: u64) {
    WORK.with(|work| work.set(work.get().wrapping_add(steps)));
}

/// The steps the importers took on this thread so far: what the tests of
/// their complexity count, at 10 and 100 times an input's size, in place
/// of time.
#[doc(hidden)]
pub fn import_work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// The runtime whose session `text` is, recognized from its content.
pub fn detect(text: &str) -> Option<Runtime> {
    READ.into_iter()
        .find(|&runtime| importer(runtime).is_some_and(|i| i.recognizes(text)))
}

/// Reads `file` as a session of `runtime`, or of the runtime its content
/// shows (`None`). A file no importer recognizes is an error, and so is a
/// runtime whose sessions ctxguard does not read; records that cannot be
/// read are problems of the session, never a panic.
pub fn import(
    file: &Arc<SourceFile>,
    runtime: Option<Runtime>,
) -> Result<Session, Box<Diagnostic>> {
    let (runtime, detected) = match runtime {
        Some(runtime) => (runtime, false),
        None => match detect(file.text()) {
            Some(runtime) => (runtime, true),
            None => return Err(Box::new(codes::unknown_session(file))),
        },
    };
    let Some(importer) = importer(runtime) else {
        return Err(Box::new(codes::not_read(file, runtime)));
    };
    let mut problems = Vec::new();
    let Imported { events, folder } = importer.events(file, &mut problems);
    Ok(Session {
        file: Arc::clone(file),
        runtime,
        detected,
        events,
        folder,
        problems,
    })
}

/// Each compaction of `session` as `ctxguard import` writes it: where it
/// stands in the session, the trace before it and the plan it amounts to,
/// classified under `policy`, with what classifying found.
pub fn compactions(
    policy: &crate::policy::Policy,
    session: &Session,
) -> Vec<(
    Compaction,
    crate::buffer::trace::Trace,
    crate::buffer::plan::Plan,
    Vec<Diagnostic>,
)> {
    let name = session.file.name();
    session
        .events
        .iter()
        .enumerate()
        .map(|(n, event)| {
            let (trace, plan, findings) = classify::event(policy, name, event);
            (event.compaction(n + 1), trace, plan, findings)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each importer hands over the folder its runtime recorded the session
    /// ran in, and one whose runtime records none says so.
    #[test]
    fn the_folder_a_session_ran_in_is_read_where_its_runtime_records_it() {
        let root =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/sessions");
        for (name, folder) in [
            ("claude-code.jsonl", Some("/repo")),
            ("codex.jsonl", Some("/repo")),
            ("pi.jsonl", Some("/repo")),
            ("swe-agent.traj", None),
        ] {
            let text = std::fs::read_to_string(root.join(name)).unwrap();
            let session = import(&SourceFile::new(name, text), None).unwrap();
            assert_eq!(session.folder.as_deref(), folder, "{name}");
        }
    }

    #[test]
    fn a_runtime_whose_sessions_are_not_read_is_refused_by_name() {
        let file = SourceFile::new("chat.json", "{\"sessionId\": \"s\", \"messages\": []}");
        let refused = import(&file, Some(Runtime::GeminiCli)).unwrap_err();
        assert_eq!(refused.code, crate::diagnostics::Code::UnknownSession);
        assert!(
            refused.message.contains("as a Gemini CLI session"),
            "{}",
            refused.message
        );
        assert!(refused
            .help
            .as_deref()
            .unwrap()
            .contains("ctxguard init gemini-cli"));
        // Every runtime `--from` names has a reader.
        assert!(READ.iter().all(|&runtime| importer(runtime).is_some()));
    }
}
