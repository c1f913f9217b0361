//! `ctxguard hook`: a runtime's hook, its event's payload on stdin.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;

use clap::ValueEnum;
use ctxguard::{hook, Access, UsageError};

use super::args::{guarded, LedgerArgs};
use super::{Env, Said};

/// Run as a runtime's hook: the event's JSON payload on stdin.
///
/// Records the user's commitments in the session's ledger as they are
/// written (UserPromptSubmit, PostToolUse), snapshots them before a
/// compaction and refuses one they cannot fit (PreCompact, exit 2;
/// Codex cannot refuse and is told so), checks the summary after it
/// (PostCompact: a short report when it lost, altered or invented
/// something; Codex's summary is read from the rollout), and
/// re-injects them word for word (SessionStart with source `compact`).
/// Gemini CLI: BeforeAgent records, BeforeModel checks a summary in the
/// request and gives the commitments back in it.
/// Any other failure exits 0 with a message: the session goes on.
#[derive(clap::Args)]
pub struct Args {
    /// The runtime calling.
    #[arg(value_parser = guarded())]
    pub runtime: hook::Guarded,
    /// The hook event, as the runtime names it.
    #[arg(value_enum)]
    pub event: HookEventArg,
    /// Read the payload from this file instead of stdin (replaying a hook).
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// The policy; the built-in default when absent.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    #[command(flatten)]
    pub ledger: LedgerArgs,
    /// UserPromptSubmit: re-state new pins to the model as context.
    #[arg(long)]
    pub echo: bool,
    /// The Claude Code version `init` wrote the hooks for: SessionStart
    /// says when the version running is another one that changes what
    /// the guard can do.
    #[arg(long, value_name = "VERSION")]
    pub claude_version: Option<String>,
    /// SessionStart: no PostCompact hook checks summaries here (the
    /// plugin, Claude Code before 2.1.76); check the compaction's
    /// summary from the transcript after it.
    #[arg(long)]
    pub check_summary: bool,
}

impl Args {
    pub fn run(self, env: &Env) -> Result<Said, UsageError> {
        let runtime = self.runtime;
        let event = self.event.event_in(runtime).map_err(UsageError)?;
        // A bad cap is the default; an unreadable payload file is a
        // failure of the event, answered as the event allows.
        let max_ledger_bytes =
            (self.ledger.max_bytes(env)).unwrap_or(ctxguard::ledger::DEFAULT_MAX_BYTES);
        let access = Access::default();
        let limit = access.max_input_bytes;
        let input = match self.input {
            Some(path) => match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(error) => {
                    let why = format!("cannot read `{}`: {error}", path.display());
                    return Ok(Said::Hook(hook::not_started(runtime, event, &why)));
                }
            },
            None => {
                let mut bytes = Vec::new();
                if !std::io::stdin().is_terminal() {
                    let _ = std::io::stdin().lock().take(limit).read_to_end(&mut bytes);
                }
                bytes
            }
        };
        let request = hook::Request {
            runtime,
            event,
            input,
            policy: self.policy,
            ledger_dir: self.ledger.dir(env),
            project_dir: (runtime == hook::Guarded::ClaudeCode)
                .then(|| env.claude_project_dir.clone())
                .flatten(),
            max_ledger_bytes,
            echo: self.echo,
            written_for: (self.claude_version.as_deref()).and_then(ctxguard::facts::Version::parse),
            check_summary: self.check_summary,
            access,
        };
        Ok(Said::Hook(hook::run(&request)))
    }
}

/// A hook whose arguments do not parse: the runtime and event named, when
/// they can be told, so the failure is answered as that event's hook
/// answers any failure (it never blocks a prompt).
pub fn named_in(args: &[String]) -> Option<(hook::Guarded, hook::Event)> {
    if args.first().map(String::as_str) != Some("hook") {
        return None;
    }
    let runtime = args
        .get(1)
        .and_then(|arg| ctxguard::Runtime::from_arg(arg))
        .and_then(hook::Guarded::of)
        .unwrap_or(hook::Guarded::ClaudeCode);
    let event = hook::Event::from_name_in(runtime, args.get(2)?)?;
    Some((runtime, event))
}

#[derive(Clone, Copy, ValueEnum)]
pub enum HookEventArg {
    #[value(name = "UserPromptSubmit", alias = "user-prompt-submit")]
    UserPromptSubmit,
    #[value(name = "PostToolUse", alias = "post-tool-use")]
    PostToolUse,
    #[value(name = "PreCompact", alias = "pre-compact")]
    PreCompact,
    #[value(name = "PostCompact", alias = "post-compact")]
    PostCompact,
    #[value(name = "SessionStart", alias = "session-start")]
    SessionStart,
    #[value(name = "BeforeAgent", alias = "before-agent")]
    BeforeAgent,
    #[value(name = "BeforeModel", alias = "before-model")]
    BeforeModel,
}

impl HookEventArg {
    /// The event as `runtime` names it, if it has it.
    pub fn event_in(self, runtime: hook::Guarded) -> Result<hook::Event, String> {
        let name = self
            .to_possible_value()
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default();
        hook::Event::from_name_in(runtime, &name).ok_or_else(|| {
            let events: Vec<&str> = hook::Event::ALL
                .iter()
                .filter(|e| e.handled_in(runtime))
                .map(|e| e.name_in(runtime))
                .collect();
            format!(
                "`hook {} {name}`: ctxguard handles no such event of {} (its events: {})",
                runtime.arg(),
                runtime.name(),
                events.join(", ")
            )
        })
    }
}
