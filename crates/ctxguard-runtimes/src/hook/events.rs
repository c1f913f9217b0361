//! The hook events of every runtime, each a function from its payload and
//! the session's ledger to what happened: here the prompt and the tool
//! answers recorded, and the dispatch (the events around a compaction are
//! in `compaction`; Gemini CLI's and OpenClaw's request hook, BeforeModel,
//! in `request`). The runtimes name their
//! events and payload fields alike; their session files, and what an event
//! can do, differ ([`Guarded`]). Nothing here prints; `report::hook`
//! turns each outcome into the hook's output and exit code.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::check::{check_summary, pending, recheck, unchecked, undone};
use super::ledger::{Commitment, Entry, Ledger, Source, State};
use super::payload::Payload;
use super::{Guarded, HookEvent, Outcome, Unpinned};
use crate::buffer::trace::Derived;
use crate::diagnostics::Diagnostic;
use crate::facts::Version;
use crate::import::classify::answer_kind;
use crate::import::claude_code::current;
use crate::import::Current;
use crate::import::ANSWER_MARK;
use crate::policy::Policy;
use crate::source::Access;

/// The first version whose PreCompact hooks can block a compaction.
pub use crate::facts::claude_code::BLOCKING_SINCE;

/// Why a hook could not do its work.
pub(super) enum Failure {
    /// The ledger could not be read or written.
    Ledger(super::ledger::LedgerError),
    /// The policy cannot be used.
    Policy(Vec<Diagnostic>),
}

impl From<super::ledger::LedgerError> for Failure {
    fn from(error: super::ledger::LedgerError) -> Failure {
        Failure::Ledger(error)
    }
}

/// The policy, read the first time a hook needs it: a call with nothing to
/// do (another session source, another tool) does not pay for it.
pub(super) struct PolicyOnce<'a> {
    pub path: Option<&'a std::path::Path>,
    pub access: &'a Access,
    pub loaded: std::cell::OnceCell<Result<std::sync::Arc<Policy>, Vec<Diagnostic>>>,
}

impl PolicyOnce<'_> {
    pub(super) fn get(&self) -> Result<&Policy, Failure> {
        let loaded = self.loaded.get_or_init(|| {
            crate::policy::load::policy_for_use(self.path, self.access).map(|(policy, _)| policy)
        });
        match loaded {
            Ok(policy) => Ok(policy),
            Err(diagnostics) => Err(Failure::Policy(diagnostics.clone())),
        }
    }
}

/// How the hooks were installed, as their command lines say.
pub(super) struct Guard<'a> {
    /// The runtime calling.
    pub runtime: Guarded,
    /// The version `init` wrote the hooks for.
    pub written_for: Option<&'a Version>,
    /// No PostCompact hook checks summaries (a plugin, a version before
    /// 2.1.76): SessionStart(`compact`) checks the summary instead.
    pub check_summary: bool,
}

/// One call of a hook: what it was given, and what it works on.
#[derive(Clone, Copy)]
pub(super) struct Call<'a> {
    /// The runtime's payload.
    pub payload: &'a Payload,
    /// The session's ledger.
    pub ledger: &'a Ledger,
    /// The policy, read when first needed.
    pub policy: &'a PolicyOnce<'a>,
    /// How the hooks were installed.
    pub guard: &'a Guard<'a>,
    /// What the hook may read.
    pub access: &'a Access,
}

/// Runs `event` for the call's payload against its ledger, the hooks
/// installed as its guard says.
pub(super) fn handle(
    event: HookEvent,
    call: &Call<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    match event {
        HookEvent::UserPromptSubmit => prompt(call, problems),
        HookEvent::PostToolUse => tool(call, problems),
        HookEvent::PreCompact => super::compaction::pre_compact(call, problems),
        HookEvent::PostCompact => super::compaction::post_compact(call, problems),
        HookEvent::SessionStart => super::compaction::session_start(call, problems),
        HookEvent::BeforeModel => super::request::before_model(call, problems),
    }
}

/// The session file at `path` as it stands, read as `runtime` writes it
/// (Gemini CLI's chat file is not read: its hooks see what they need).
pub(super) fn read_transcript(runtime: Guarded, path: &str, access: &Access) -> Option<Current> {
    let read = || crate::source::read::read_session(std::path::Path::new(path), access).ok();
    match runtime {
        Guarded::ClaudeCode => Some(current(&read()?)),
        Guarded::Codex => Some(crate::import::codex::current(&read()?)),
        Guarded::Pi => Some(crate::import::pi::current(&read()?)),
        Guarded::GeminiCli | Guarded::OpenClaw => None,
    }
}

/// A slash command (`/compact`, `/model opus`) is the runtime's, not a
/// commitment; a path (`/etc/hosts is …`) is not a command.
static SLASH_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"^/[A-Za-z][A-Za-z0-9:_-]*(\s|$)").expect("the command pattern compiles")
});

/// UserPromptSubmit: the prompt's pins, hinted and unclassified sentences
/// into the ledger; what the ledger already holds is not written again.
fn prompt(call: &Call<'_>, problems: &mut Vec<Diagnostic>) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        policy,
        guard,
        access,
    } = *call;
    let Some(prompt) = payload.prompt.as_deref() else {
        return Ok(Outcome::Quiet);
    };
    if SLASH_COMMAND.is_match(prompt.trim_start()) {
        return Ok(Outcome::Quiet);
    }
    let policy = policy.get()?;
    let source = Source {
        hook: Some(
            HookEvent::UserPromptSubmit
                .name_in(guard.runtime)
                .to_owned(),
        ),
        prompt_id: payload.prompt_id.clone(),
        transcript: payload.transcript_path.clone(),
        ..Source::default()
    };
    let (commitments, typed) = typed(policy, prompt, &source);
    let (recorded, state) = record(ledger, commitments, Said::Now, problems)?;
    // Its commitments are in the ledger: a compaction's hook need not
    // judge it again. (The mark only saves that work: unwritten, the
    // prompt is judged again, and nothing is lost.)
    let _ = ledger.hear(&[prompt]);
    // The last compaction's summary, when SessionStart could not check it
    // (the client writes it to the transcript after that hook runs); or,
    // once, judged again with the messages it preserved, which Claude Code
    // writes after PostCompact judged the summary alone.
    let first = guard.check_summary && pending(&state);
    let again = guard.runtime == Guarded::ClaudeCode && undone(&state);
    let transcript = (first || again)
        .then_some(payload.transcript_path.as_ref())
        .flatten()
        .and_then(|path| read_transcript(guard.runtime, path, access));
    let told = transcript.as_ref().and_then(|t| match first {
        true => unchecked(&state, t)
            .and_then(|summary| check_summary(ledger, &state, summary, problems).1),
        false => recheck(ledger, &state, t, problems),
    });
    Ok(Outcome::Recorded {
        recorded,
        unknown: typed
            .unknown
            .into_iter()
            .map(|pin| Unpinned {
                kind: pin.kind,
                suggestion: pin.suggestion,
            })
            .collect(),
        material: typed.material,
        told,
    })
}

/// What the user typed, as commitments from `source`; and what else
/// reading it found (pins of kinds the policy does not declare, material).
pub(super) fn typed(
    policy: &Policy,
    text: &str,
    source: &Source,
) -> (Vec<Commitment>, crate::audit::Typed) {
    // Only what binds: a question, an acknowledgement or a pasted log is
    // never given back to the model as a commitment that still holds.
    let mut typed = crate::audit::typed_units(policy, text, false);
    let commitments = std::mem::take(&mut typed.binds)
        .into_iter()
        .filter_map(|piece| {
            let derived = piece.derived?;
            let mut c =
                Commitment::new(&piece.kind, piece.key, piece.text, derived, source.clone())
                    .counted(policy.tokenizer.value);
            c.hint = piece.hint;
            Some(c)
        })
        .collect();
    (commitments, typed)
}

/// The user's choice in a question, written as the import writes it
/// (`Which key? → uuid`); keyed by the question, so a question answered
/// again is the new answer.
pub(super) fn answer(policy: &Policy, question: &str, choice: &str, source: Source) -> Commitment {
    let key = format!("answer-{}", &super::ledger::hash(question)[7..15]);
    let text = format!("{question} {ANSWER_MARK}{choice}");
    Commitment::new(
        &answer_kind(policy),
        Some(key),
        text,
        Derived::Answer,
        source,
    )
    .counted(policy.tokenizer.value)
}

/// Where commitments handed to [`record`] come from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Said {
    /// Said now (a prompt, a choice): recorded unless active as it is, so
    /// what the user says again after discharging it holds again.
    Now,
    /// Read back from the transcript: recorded only if the ledger never
    /// held it, so what was discharged, unpinned or replaced stays so.
    Before,
}

/// Appends the commitments the ledger does not already hold; linear in the
/// ledger and the commitments.
fn record(
    ledger: &Ledger,
    commitments: Vec<Commitment>,
    said: Said,
    problems: &mut Vec<Diagnostic>,
) -> Result<(Vec<Commitment>, State), super::ledger::LedgerError> {
    let state = read(ledger, problems)?;
    record_in(ledger, state, commitments, said)
}

/// [`record`] into the ledger as `state` read it.
pub(super) fn record_in(
    ledger: &Ledger,
    mut state: State,
    commitments: Vec<Commitment>,
    said: Said,
) -> Result<(Vec<Commitment>, State), super::ledger::LedgerError> {
    let active: HashSet<(&str, &str, &str)> = state
        .active()
        .map(|a| {
            let c = &a.commitment;
            (c.id.as_str(), c.hash.as_str(), c.kind.as_str())
        })
        .collect();
    let held = |c: &Commitment| match said {
        Said::Now => active.contains(&(c.id.as_str(), c.hash.as_str(), c.kind.as_str())),
        Said::Before => state.ever_recorded(c),
    };
    let mut seen = HashSet::new();
    let new: Vec<Commitment> = commitments
        .into_iter()
        .filter(|c| !held(c) && seen.insert((c.id.clone(), c.hash.clone())))
        .collect();
    if !new.is_empty() {
        ledger.append(new.iter().cloned().map(entry).collect())?;
        // What was just appended (and anything another hook appended
        // since), read on its own rather than the whole ledger again.
        ledger.catch_up(&mut state)?;
    }
    Ok((new, state))
}

fn entry(c: Commitment) -> Entry {
    match c.derived {
        Derived::Pin => Entry::Pinned(c),
        Derived::Answer => Entry::Confirmed(c),
        Derived::Hint | Derived::Sentence => Entry::Derived(c),
    }
}

/// PostToolUse: the choices the user made in `AskUserQuestion`, and a plan
/// they approved (`ExitPlanMode`), as confirmed commitments.
fn tool(call: &Call<'_>, problems: &mut Vec<Diagnostic>) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        policy,
        access,
        ..
    } = *call;
    let source = Source {
        hook: Some("PostToolUse".to_owned()),
        prompt_id: payload.prompt_id.clone(),
        transcript: payload.transcript_path.clone(),
        tool_use_id: payload.tool_use_id.clone(),
        ..Source::default()
    };
    if !matches!(
        payload.tool_name.as_deref(),
        Some("AskUserQuestion" | "ExitPlanMode")
    ) {
        return Ok(Outcome::Quiet);
    }
    let policy = policy.get()?;
    let kind = answer_kind(policy);
    let confirmed: Vec<Commitment> = match payload.tool_name.as_deref() {
        Some("AskUserQuestion") => answers(payload)
            .into_iter()
            .map(|(question, choice)| answer(policy, &question, &choice, source.clone()))
            .collect(),
        Some("ExitPlanMode") => approved_plan(payload, access)
            .map(|plan| {
                Commitment::new(
                    &kind,
                    Some("approved-plan".to_owned()),
                    plan,
                    Derived::Answer,
                    source.clone(),
                )
                .counted(policy.tokenizer.value)
            })
            .into_iter()
            .collect(),
        _ => return Ok(Outcome::Quiet),
    };
    let (recorded, _) = record(ledger, confirmed, Said::Now, problems)?;
    Ok(Outcome::Recorded {
        recorded,
        unknown: Vec::new(),
        material: 0,
        told: None,
    })
}

/// The plan an `ExitPlanMode` call approved, however this version gives
/// it: `tool_input.plan` (2.0 to 2.1.1xx), or the plan file the runtime
/// names in `tool_response.filePath` (2.1.3xx: the model writes the plan
/// to `~/.claude/plans/NAME.md` and the call carries none).
fn approved_plan(payload: &Payload, access: &Access) -> Option<String> {
    let given = [&payload.tool_input, &payload.tool_response]
        .iter()
        .find_map(|v| v.get("plan").and_then(Value::as_str))
        .filter(|plan| !plan.trim().is_empty())
        .map(str::to_owned);
    given.or_else(|| {
        let path = payload.tool_response.get("filePath")?.as_str()?;
        let file = crate::source::read::read(std::path::Path::new(path), access).ok()?;
        Some(file.text().to_owned()).filter(|plan| !plan.trim().is_empty())
    })
}

/// The answers of an `AskUserQuestion` call, however this version gives
/// them: `tool_response.answers` (the transcript's `toolUseResult`),
/// `tool_input.answers`, or the tool's text — read as the importer reads
/// the transcript's tool results.
fn answers(payload: &Payload) -> Vec<(String, String)> {
    let structured = if payload.tool_response.get("answers").is_some() {
        &payload.tool_response
    } else {
        &payload.tool_input
    };
    let text = match &payload.tool_response {
        Value::String(text) => text.clone(),
        other => crate::import::records::text_of(other),
    };
    let questions = crate::import::claude_code::questions(&payload.tool_input);
    crate::import::claude_code::answers(structured, &text, &questions)
}

/// Reads the ledger; the lines it skipped are reported once.
pub(super) fn read(
    ledger: &Ledger,
    problems: &mut Vec<Diagnostic>,
) -> Result<State, super::ledger::LedgerError> {
    let mut state = ledger.read()?;
    if problems.is_empty() {
        problems.append(&mut state.problems);
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_in_every_shape() {
        let read = |json: &str| answers(&Payload::read(json.as_bytes()).unwrap());
        let expected = vec![("Which key?".to_owned(), "uuid".to_owned())];
        assert_eq!(
            read(r#"{"tool_response":{"questions":[],"answers":{"Which key?":"uuid"}}}"#),
            expected
        );
        assert_eq!(
            read(r#"{"tool_input":{"answers":{"Which key?":"uuid"}}}"#),
            expected
        );
        assert_eq!(
            read(
                r#"{"tool_response":"User has answered your questions: \"Which key?\"=\"uuid\". You can now continue."}"#
            ),
            expected
        );
        assert_eq!(
            read(r#"{"tool_response":{"answers":{"Which?":["a","b"]}}}"#),
            vec![("Which?".to_owned(), "a, b".to_owned())]
        );
        assert!(read(r#"{"tool_response":{"other":1}}"#).is_empty());
    }

    #[test]
    fn slash_commands_are_not_prompts() {
        assert!(SLASH_COMMAND.is_match("/compact keep the API notes"));
        assert!(SLASH_COMMAND.is_match("/clear"));
        assert!(!SLASH_COMMAND.is_match("/etc/hosts is wrong"));
        assert!(!SLASH_COMMAND.is_match("do not touch /etc"));
    }
}
