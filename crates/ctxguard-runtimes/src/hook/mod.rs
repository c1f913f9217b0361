//! Live guarding: a thin shell, like `command/`, over the readers and
//! checks. A runtime calls `ctxguard hook RUNTIME EVENT` (Claude Code,
//! Codex and Gemini CLI from their hooks, pi and OpenClaw from ctxguard's
//! extension and plugin) with a JSON payload on standard input; the hook
//! records the user's commitments in the session's ledger as they are
//! written, snapshots them before a compaction (and refuses one they cannot
//! fit, where the runtime lets it), checks the summary after it, and gives
//! them back word for word. `events` handles each event; `request` the
//! request that carries a summary (Gemini CLI, OpenClaw); `check` judges a
//! summary; `ledger` is the record; `reinject` what the model (and Claude
//! Code's compactor) gets; `told` what the user reads; `init` wires the
//! hooks into a runtime's settings, `prompt` Codex's compaction prompt,
//! `extension` pi's extension, `openclaw` OpenClaw's plugin and `plugin`
//! Claude Code's plugin.
//!
//! A hook never breaks the session it guards: bad input, an unreadable
//! ledger, even a panic, end in a message on standard error and exit 0.
//! The one deliberate refusal is PreCompact's, when the commitments do not
//! fit.

mod check;
pub(crate) mod commands;
mod compaction;
mod events;
pub(crate) mod extension;
pub mod init;
pub mod ledger;
pub(crate) mod loadable;
pub(crate) mod openclaw;
mod payload;
pub mod plugin;
pub mod prompt;
pub mod reinject;
mod request;
mod told;

use std::path::{Path, PathBuf};

use crate::audit::{Evidence, Invented, Outcome as Kept};
use crate::diagnostics::codes::hook as codes;
use crate::diagnostics::Diagnostic;
use crate::facts::Runtime;
use crate::source::Access;

pub use events::BLOCKING_SINCE;
pub use ledger::{Active, Commitment, Entry, Ledger, LedgerError, DEFAULT_MAX_LEDGER_BYTES};
pub use payload::Payload;
pub use reinject::{Reinjection, OUTPUT_CAP};
pub use told::{check_told, one_line, Then};

/// A runtime ctxguard guards live, whose hook is called: the events are
/// named alike, the session files and what each event can do differ.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Guarded {
    /// Claude Code: a transcript of records; PreCompact can refuse (from
    /// 2.1.105) and its output joins the compaction's instructions.
    #[default]
    ClaudeCode,
    /// Codex CLI: a rollout; PreCompact cannot refuse, PostCompact carries
    /// no summary (it is read from the rollout), and what a hook prints
    /// reaches the user only as a JSON `systemMessage`.
    Codex,
    /// pi, through the extension `ctxguard init pi` installs: it calls
    /// the hooks with Claude Code's payloads and reads their answers as
    /// Claude Code does; a refused compaction is cancelled.
    Pi,
    /// Gemini CLI: no hook runs after a compaction and none can refuse or
    /// instruct one (`PreCompress` is advisory and fires before every
    /// turn), but `BeforeModel` sees each request, the summary in it, and
    /// may rewrite it: there the summary is checked, once, and the
    /// commitments given back in every request that carries it. What a
    /// hook says reaches the user only in the client's debug log.
    GeminiCli,
    /// OpenClaw, through the plugin `ctxguard init openclaw` installs: its
    /// compaction hooks only observe, so the plugin, before each prompt,
    /// records it and hands ctxguard the run's messages: a summary among
    /// them is checked once, and the commitments put before the prompt.
    OpenClaw,
}

impl Guarded {
    /// Every runtime ctxguard guards live.
    pub const ALL: [Guarded; 5] = [
        Guarded::ClaudeCode,
        Guarded::Codex,
        Guarded::Pi,
        Guarded::GeminiCli,
        Guarded::OpenClaw,
    ];

    /// The runtime it is.
    pub fn runtime(self) -> Runtime {
        match self {
            Guarded::ClaudeCode => Runtime::ClaudeCode,
            Guarded::Codex => Runtime::Codex,
            Guarded::Pi => Runtime::Pi,
            Guarded::GeminiCli => Runtime::GeminiCli,
            Guarded::OpenClaw => Runtime::OpenClaw,
        }
    }

    /// `runtime`, when ctxguard guards it live.
    pub fn of(runtime: Runtime) -> Option<Guarded> {
        Guarded::ALL.into_iter().find(|g| g.runtime() == runtime)
    }

    /// Its name, as a person says it.
    pub fn name(self) -> &'static str {
        self.runtime().name()
    }

    /// Its name on the command line (`hook codex PreCompact`).
    pub fn arg(self) -> &'static str {
        self.runtime().arg()
    }
}

/// A hook event ctxguard handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookEvent {
    /// The user submitted a prompt: record its commitments.
    UserPromptSubmit,
    /// A tool ran: record the user's answers and approved plans.
    PostToolUse,
    /// A compaction is about to run: snapshot, and block what cannot fit.
    PreCompact,
    /// A compaction ran: check its summary.
    PostCompact,
    /// A session (re)started; after a compaction: re-inject.
    SessionStart,
    /// Gemini CLI or OpenClaw is about to send the model a request: when it
    /// carries a compaction's summary, check it (once) and give the
    /// commitments back with it.
    BeforeModel,
}

impl HookEvent {
    /// Every event, in the order a session meets them.
    pub const ALL: [HookEvent; 6] = [
        HookEvent::UserPromptSubmit,
        HookEvent::PostToolUse,
        HookEvent::PreCompact,
        HookEvent::PostCompact,
        HookEvent::SessionStart,
        HookEvent::BeforeModel,
    ];

    /// The event named `name` (`PreCompact`).
    pub fn from_name(name: &str) -> Option<HookEvent> {
        HookEvent::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The event `runtime` names `name` (Gemini CLI's `BeforeAgent` is the
    /// prompt's hook), among those ctxguard handles for it.
    pub fn from_name_in(runtime: Guarded, name: &str) -> Option<HookEvent> {
        HookEvent::ALL
            .into_iter()
            .find(|e| e.handled_in(runtime) && e.name_in(runtime) == name)
    }

    /// Whether ctxguard handles this event for `runtime`: Gemini CLI and
    /// OpenClaw have only the prompt and the request to the model, which is
    /// theirs alone.
    pub fn handled_in(self, runtime: Guarded) -> bool {
        match runtime {
            Guarded::GeminiCli | Guarded::OpenClaw => {
                matches!(self, HookEvent::UserPromptSubmit | HookEvent::BeforeModel)
            }
            _ => self != HookEvent::BeforeModel,
        }
    }

    /// The event's name in `runtime`'s settings and payloads.
    pub fn name_in(self, runtime: Guarded) -> &'static str {
        match (runtime, self) {
            (Guarded::GeminiCli, HookEvent::UserPromptSubmit) => "BeforeAgent",
            _ => self.name(),
        }
    }

    /// The event's name in Claude Code's settings and payloads.
    pub fn name(self) -> &'static str {
        match self {
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::PostCompact => "PostCompact",
            HookEvent::SessionStart => "SessionStart",
            HookEvent::BeforeModel => "BeforeModel",
        }
    }
}

/// One hook call.
#[derive(Clone, Debug)]
pub struct HookRequest {
    /// The runtime calling.
    pub runtime: Guarded,
    /// Which event the hook was installed for.
    pub event: HookEvent,
    /// The payload as the runtime sent it.
    pub input: Vec<u8>,
    /// The policy; `None`: the built-in default.
    pub policy: Option<PathBuf>,
    /// Where ledgers are kept; `None`: `.ctxguard/ledger` in the project
    /// (`project_dir`, else the payload's `cwd`, else the current folder).
    pub ledger_dir: Option<PathBuf>,
    /// The project folder the runtime names (`CLAUDE_PROJECT_DIR`).
    pub project_dir: Option<PathBuf>,
    /// The ledger's size cap.
    pub max_ledger_bytes: u64,
    /// UserPromptSubmit: re-state new pins as context for the model.
    pub echo: bool,
    /// The Claude Code version `init` wrote the hooks for.
    pub written_for: Option<crate::facts::Version>,
    /// SessionStart: no PostCompact hook checks summaries here (a plugin,
    /// a version before 2.1.76), so the summary is checked after the
    /// compaction, from the transcript.
    pub check_summary: bool,
    /// What may be read (the transcript, the policy).
    pub access: Access,
}

/// A pin of a kind the policy does not declare.
#[derive(Clone, Debug)]
pub struct Unpinned {
    /// The kind written.
    pub kind: String,
    /// The closest declared kind.
    pub suggestion: Option<String>,
}

/// Whether the runtime honours a PreCompact block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Claude Code 2.1.105 or later.
    Honoured,
    /// An older version, named: it compacts anyway.
    TooOld(String),
    /// The transcript does not say which version runs.
    Unknown,
    /// A runtime that compacts whatever its hooks say (Codex).
    Never,
}

/// A compaction refused.
#[derive(Clone, Debug)]
pub struct Blocked {
    /// Whether the refusal holds.
    pub gate: Gate,
    /// Why, as `verify` says it (`budget-unmeetable`).
    pub reason: String,
}

/// One commitment against a compaction's summary.
#[derive(Clone, Debug)]
pub struct Judged {
    /// The commitment.
    pub commitment: Commitment,
    /// What the summary did to it.
    pub outcome: Kept,
    /// The closest sentence of the summary.
    pub evidence: Option<Evidence>,
}

/// What a hook did.
#[derive(Debug)]
pub enum Outcome {
    /// Nothing to do for this call.
    Quiet,
    /// Commitments recorded (UserPromptSubmit, PostToolUse).
    Recorded {
        /// The new ones.
        recorded: Vec<Commitment>,
        /// Pins of kinds the policy does not declare (recorded unclassified).
        unknown: Vec<Unpinned>,
        /// Statements of a prompt too long to be rules, set apart as
        /// material handed over ([`crate::audit::MATERIAL`]).
        material: usize,
        /// What the check of the last compaction's summary found, when it
        /// was checked now (no PostCompact hook; the summary reached the
        /// transcript after SessionStart ran).
        told: Option<String>,
    },
    /// PreCompact: the ledger snapshot, and the refusal, if any.
    Snapshot {
        /// What was recorded.
        snapshot: ledger::Snapshot,
        /// Commitments found in the transcript the ledger lacked.
        caught_up: usize,
        /// Set when the commitments do not fit.
        blocked: Option<Blocked>,
        /// When the compaction goes ahead: the active commitments, as
        /// instructions for the compactor to keep word for word.
        instructions: Option<Reinjection>,
    },
    /// PostCompact: every active commitment against the summary.
    Verified {
        /// Each active commitment.
        judged: Vec<Judged>,
        /// What the summary says the user wants without support.
        invented: Vec<Invented>,
    },
    /// SessionStart after a compaction (and OpenClaw's BeforeModel, for
    /// its plugin to put before the prompt): the commitments for the model.
    Reinjected(Reinjection),
    /// Gemini CLI's BeforeModel, on a request that carries a summary: the
    /// request's first messages, the summary's with the commitments after
    /// it; and, the first time this summary is seen, what its check found.
    Rewritten {
        /// The request's messages up to the summary's, as the hook gives
        /// them back (the client keeps the rest as they are).
        messages: Vec<serde_json::Value>,
        /// What was given back.
        reinjection: Reinjection,
        /// The check of the summary, when it lost, altered or invented
        /// something (only the first time it is seen).
        told: Option<String>,
    },
    /// SessionStart: a word for the user (the version running changed
    /// what the guard can do), nothing for the model.
    Notice(String),
    /// The hook could not do its work; it did nothing, and says why.
    Failed(Vec<Diagnostic>),
}

/// What a hook call did, for the report.
#[derive(Debug)]
pub struct HookReport {
    /// The runtime that called.
    pub runtime: Guarded,
    /// The event.
    pub event: HookEvent,
    /// The session's ledger, when there was one.
    pub ledger: Option<Ledger>,
    /// UserPromptSubmit `--echo`.
    pub echo: bool,
    /// What happened.
    pub outcome: Outcome,
    /// Warnings beside it (ledger lines skipped, a failed append).
    pub problems: Vec<Diagnostic>,
}

/// A hook call that could not start (its arguments, its payload file): a
/// report of `event` that failed with `why`, answered as any failure of
/// that event is (PreCompact refuses; UserPromptSubmit never blocks).
pub fn hook_not_started(runtime: Guarded, event: HookEvent, why: &str) -> HookReport {
    failed(
        runtime,
        event,
        Diagnostic::new(
            crate::diagnostics::Code::HookInput,
            format!("the {} hook could not start: {why}", event.name_in(runtime)),
        )
        .help(format!(
            "run `ctxguard init {}` again to rewrite the hooks as this ctxguard runs them",
            runtime.arg()
        )),
    )
}

/// A report of `event` that failed, before it had a ledger, with `why`.
fn failed(runtime: Guarded, event: HookEvent, why: Diagnostic) -> HookReport {
    HookReport {
        runtime,
        event,
        ledger: None,
        echo: false,
        outcome: Outcome::Failed(vec![why]),
        problems: Vec::new(),
    }
}

/// Runs one hook call. Never panics and never fails: what goes wrong is a
/// [`Outcome::Failed`] the report answers as the event allows (PreCompact
/// refuses, PostCompact tells the user, the others never block).
pub fn run_hook(request: &HookRequest) -> HookReport {
    let guarded = std::panic::catch_unwind(|| run(request));
    guarded.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        failed(
            request.runtime,
            request.event,
            Diagnostic::new(
                crate::diagnostics::Code::HookInput,
                format!(
                    "the {} hook failed inside ctxguard ({what})",
                    request.event.name_in(request.runtime)
                ),
            )
            .help("please report this with the payload (`--input FILE` replays it)"),
        )
    })
}

fn run(request: &HookRequest) -> HookReport {
    let event = request.event;
    let report = |ledger, outcome| HookReport {
        runtime: request.runtime,
        event,
        ledger,
        echo: request.echo,
        outcome,
        problems: Vec::new(),
    };
    let payload = match Payload::read(&request.input) {
        Ok(payload) => payload,
        Err(why) => {
            let failed = Outcome::Failed(vec![codes::hook_input(
                event.name_in(request.runtime),
                &why,
            )]);
            return report(None, failed);
        }
    };
    if let Some(named) = payload.hook_event_name.as_deref() {
        if named != event.name_in(request.runtime) {
            let why = format!("is for {}", crate::diagnostics::codes::echo(named));
            let failed = Outcome::Failed(vec![codes::hook_input(
                event.name_in(request.runtime),
                &why,
            )]);
            return report(None, failed);
        }
    }
    let Some(session) = payload.session_id.as_deref() else {
        let failed = Outcome::Failed(vec![codes::hook_input(
            event.name_in(request.runtime),
            "names no `session_id`",
        )]);
        return report(None, failed);
    };
    // A subagent compacts its own buffer, not the conversation the ledger guards.
    if payload.agent_id.is_some() && event != HookEvent::PostToolUse {
        return report(None, Outcome::Quiet);
    }
    // What the user typed is judged below (the prompt; at a compaction,
    // what the transcript holds since the last), after the ledger and the
    // transcript are read: the patterns that judge it compile meanwhile on
    // another core. (Nothing waits for this thread; a hook that ends first
    // ends with it.)
    if matches!(event, HookEvent::UserPromptSubmit | HookEvent::PreCompact) {
        let other_script = payload.prompt.clone().filter(|prompt| !prompt.is_ascii());
        let _ = std::thread::Builder::new()
            .name("warm-up".to_owned())
            .spawn(move || crate::audit::warm_up(other_script.as_deref()));
    }
    let dir = ledger_dir(request, &payload);
    let ledger = Ledger::new(&dir, session, request.max_ledger_bytes);
    let policy = events::PolicyOnce {
        path: request.policy.as_deref(),
        access: &request.access,
        loaded: std::cell::OnceCell::new(),
    };
    let mut problems = Vec::new();
    let guard = events::Guard {
        runtime: request.runtime,
        written_for: request.written_for.as_ref(),
        check_summary: request.check_summary,
    };
    let call = events::Call {
        payload: &payload,
        ledger: &ledger,
        policy: &policy,
        guard: &guard,
        access: &request.access,
    };
    let handled = events::handle(event, &call, &mut problems);
    let outcome = match handled {
        Ok(outcome) => outcome,
        Err(events::Failure::Policy(diagnostics)) => Outcome::Failed(diagnostics),
        Err(events::Failure::Ledger(LedgerError::Full(diagnostic))) => {
            Outcome::Failed(vec![*diagnostic])
        }
        Err(events::Failure::Ledger(error)) => Outcome::Failed(vec![Diagnostic::new(
            crate::diagnostics::Code::HookInput,
            format!("the {} hook could not use its ledger: {error}", event.name_in(request.runtime)),
        )
        .help("the session goes on unguarded until the ledger can be written: check the folder's permissions, or set `--ledger-dir`")]),
    };
    let mut report = report(Some(ledger), outcome);
    report.problems = problems;
    report
}

/// Where ledgers are kept: the request's folder, else `.ctxguard/ledger`
/// in the project folder, the payload's `cwd`, or the current folder.
fn ledger_dir(request: &HookRequest, payload: &Payload) -> PathBuf {
    if let Some(dir) = &request.ledger_dir {
        return dir.clone();
    }
    let project = request
        .project_dir
        .clone()
        .or_else(|| payload.cwd.as_ref().map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from("."));
    default_dir(&project)
}

/// `PROJECT/.ctxguard/ledger`.
pub fn default_dir(project: &Path) -> PathBuf {
    project.join(".ctxguard").join("ledger")
}
