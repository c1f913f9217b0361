//! The command lines ctxguard writes into a runtime's hooks, and how it
//! knows its own among the others: what `init` installs, `check` looks for
//! and `--remove` takes out.

use jsonc_parser::cst::CstRootNode;
use jsonc_parser::ParseOptions;
use serde_json::{json, Value};

use super::init::InitRequest;
use super::{Guarded, HookEvent};
use crate::facts::claude_code as facts;
use crate::facts::Version;

/// Each event ctxguard hooks, its matcher and its timeout in seconds.
/// SessionStart matches `resume` too: a version that keeps the context a
/// hook gave after a compaction only in memory (2.0 to 2.1.1xx) loses it
/// when the process that compacted exits, and the resumed session needs it
/// again.
pub(crate) const HOOKS: [(HookEvent, Option<&str>, u64); 5] = [
    (HookEvent::UserPromptSubmit, None, 10),
    (
        HookEvent::PostToolUse,
        Some("AskUserQuestion|ExitPlanMode"),
        10,
    ),
    (HookEvent::PreCompact, Some("manual|auto"), 60),
    (HookEvent::PostCompact, Some("manual|auto"), 30),
    (HookEvent::SessionStart, Some("compact|resume"), 10),
];

/// Codex's events ctxguard hooks: no PostToolUse (Codex has no question
/// tool whose answers ctxguard reads), and SessionStart after a compaction
/// only: Codex keeps what a hook gave in the rollout, so a resumed session
/// still holds it (and a resume that compacts first runs both).
pub(crate) const CODEX_HOOKS: [(HookEvent, Option<&str>, u64); 4] = [
    (HookEvent::UserPromptSubmit, None, 10),
    (HookEvent::PreCompact, None, 60),
    (HookEvent::PostCompact, None, 30),
    (HookEvent::SessionStart, Some("compact"), 10),
];

/// Gemini CLI's events ctxguard hooks: the prompt (`BeforeAgent`), and
/// each request to the model (`BeforeModel`), where a compaction's summary
/// is checked and the commitments given back. `PreCompress` is not hooked:
/// it fires before every turn, compressing or not, and its answer is
/// ignored.
pub(crate) const GEMINI_HOOKS: [(HookEvent, Option<&str>, u64); 2] = [
    (HookEvent::UserPromptSubmit, None, 10),
    (HookEvent::BeforeModel, None, 10),
];

/// The events `runtime`'s hooks are written for.
pub(crate) fn hooks_of(runtime: Guarded) -> &'static [(HookEvent, Option<&'static str>, u64)] {
    match runtime {
        Guarded::ClaudeCode => &HOOKS,
        Guarded::Codex | Guarded::Pi => &CODEX_HOOKS,
        Guarded::GeminiCli | Guarded::OpenClaw => &GEMINI_HOOKS,
    }
}

/// Whether ctxguard's hook for `event` is written for `version`: only
/// events that version runs, and `PostCompact` only for a known version
/// that has it (any older one would drop every hook of the file).
pub(crate) fn wanted(event: HookEvent, version: Option<&Version>) -> bool {
    wanted_by(Guarded::ClaudeCode, event, version)
}

/// [`wanted`] for `runtime`: another runtime gets each of its events.
pub(crate) fn wanted_by(runtime: Guarded, event: HookEvent, version: Option<&Version>) -> bool {
    if runtime != Guarded::ClaudeCode {
        return hooks_of(runtime).iter().any(|(e, _, _)| *e == event);
    }
    match version {
        Some(version) => facts::knows(version, event.name()),
        None => event != HookEvent::PostCompact,
    }
}

/// The command of `runtime`'s ctxguard hook for `event`, each word quoted
/// as the shell that runs it splits it (a path with a space stays one
/// word).
pub(crate) fn hook_command(
    runtime: Guarded,
    program: &str,
    event: HookEvent,
    policy: Option<&str>,
    version: Option<&Version>,
) -> String {
    let mut words = vec![
        program.to_owned(),
        "hook".to_owned(),
        runtime.arg().to_owned(),
        event.name_in(runtime).to_owned(),
    ];
    if let Some(policy) = policy {
        words.extend(["--policy".to_owned(), policy.to_owned()]);
    }
    if let Some(version) = version {
        words.extend(["--claude-version".to_owned(), version.to_string()]);
    }
    // Where no PostCompact hook is written, SessionStart checks the summary
    // (or the next prompt, when the client writes it after SessionStart).
    if runtime == Guarded::ClaudeCode
        && matches!(event, HookEvent::SessionStart | HookEvent::UserPromptSubmit)
        && !wanted(HookEvent::PostCompact, version)
    {
        words.push("--check-summary".to_owned());
    }
    shell_words::join(words)
}

/// The handler group ctxguard wants under `event`.
pub(super) fn group(
    request: &InitRequest,
    event: HookEvent,
    matcher: Option<&str>,
    timeout: u64,
) -> Value {
    let command = hook_command(
        request.runtime,
        &request.command,
        event,
        request.policy.as_deref(),
        request.claude_version.as_ref(),
    );
    let mut group = handlers(command, matcher, timeout);
    // Gemini CLI reads a timeout in milliseconds, and shows a hook by name.
    if request.runtime == Guarded::GeminiCli {
        group["hooks"][0]["timeout"] = json!(timeout * 1000);
        group["hooks"][0]["name"] = json!("ctxguard");
    }
    group
}

/// One matcher group of one command handler.
pub(super) fn handlers(command: String, matcher: Option<&str>, timeout: u64) -> Value {
    let handler = json!({"type": "command", "command": command, "timeout": timeout});
    match matcher {
        Some(matcher) => json!({"matcher": matcher, "hooks": [handler]}),
        None => json!({"hooks": [handler]}),
    }
}

/// Whether `handler` is ctxguard's hook for `runtime`.
pub(super) fn ours_for(runtime: Guarded, handler: &Value) -> bool {
    handler
        .get("command")
        .and_then(Value::as_str)
        .and_then(parse_ours)
        .is_some_and(|hook| hook.runtime == runtime)
}

/// A hook command `init` wrote, read back: how it runs ctxguard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OurHook {
    /// The runtime it was written for.
    pub runtime: Guarded,
    /// The program: `ctxguard`, or the path `--command` gave.
    pub program: String,
    /// The event it handles.
    pub event: String,
    /// `--policy`, if one was given.
    pub policy: Option<String>,
    /// `--claude-version`, if one was given.
    pub claude_version: Option<Version>,
}

/// `command` read as one of ctxguard's hooks: the program is ctxguard (its
/// file name is `ctxguard`, with any suffix such as `.exe` or a version),
/// then `hook claude-code EVENT` for an event ctxguard handles, then only
/// the options `init` writes. Another tool's command that merely contains
/// `hook claude-code` is not ctxguard's.
pub(crate) fn parse_ours(command: &str) -> Option<OurHook> {
    let words = shell_words::split(command).ok()?;
    let [program, hook, runtime, event, rest @ ..] = words.as_slice() else {
        return None;
    };
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    let runtime = match runtime.as_str() {
        "claude-code" => Guarded::ClaudeCode,
        "codex" => Guarded::Codex,
        "gemini-cli" => Guarded::GeminiCli,
        _ => return None,
    };
    if !name.starts_with("ctxguard")
        || hook != "hook"
        || !hooks_of(runtime)
            .iter()
            .any(|(e, _, _)| e.name_in(runtime) == event)
    {
        return None;
    }
    let mut policy = None;
    let mut claude_version = None;
    let mut options = rest.iter();
    while let Some(option) = options.next() {
        match option.as_str() {
            "--check-summary" => {}
            "--policy" => policy = Some(options.next()?.clone()),
            "--claude-version" => claude_version = Some(Version::parse(options.next()?)?),
            _ => return None,
        }
    }
    Some(OurHook {
        runtime,
        program: program.clone(),
        event: event.clone(),
        policy,
        claude_version,
    })
}

/// Whether a hook command is one `init` installs ([`parse_ours`]).
pub(crate) fn runs_ctxguard(command: &str) -> bool {
    parse_ours(command).is_some()
}

/// How the hooks of a settings file run ctxguard: the program and policy
/// of the first of ctxguard's hooks in it, so a hook merged in later runs
/// as the others do.
pub(super) fn installed_as(text: &str) -> Option<OurHook> {
    let value = CstRootNode::parse(text, &ParseOptions::default())
        .ok()?
        .value()?
        .to_serde_value()?;
    value
        .get("hooks")?
        .as_object()?
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group.get("hooks")?.as_array())
        .flatten()
        .filter_map(|handler| handler.get("command")?.as_str())
        .find_map(parse_ours)
}
