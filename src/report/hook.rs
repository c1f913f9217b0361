//! What a hook call shows, and where: Claude Code reads a hook's standard
//! output as JSON (`additionalContext` for the model, `systemMessage` for
//! the user), shows standard error to the user when the hook exits 2 on
//! PreCompact and PostCompact, and otherwise keeps it for its debug log;
//! PreCompact's standard output is plain text, appended to the
//! compaction's instructions. So: a refused compaction and a summary that
//! lost something exit 2 with one short block on standard error;
//! everything else exits 0. pi's extension reads the same answers (an
//! exit 2 at PreCompact cancels the compaction). Codex shows a hook's
//! message only as a JSON `systemMessage` and marks an exit 2 failed, so
//! there every message is a `systemMessage` with exit 0; so too for
//! Gemini CLI (which takes an exit 2 as a denial) and OpenClaw's plugin
//! (which prints it on standard error).

use std::io::Write;

use serde_json::json;

use super::{ExitStatus, HumanStyle};
use ctxguard_core::diagnostics::Diagnostic;
use ctxguard_runtimes::audit::Outcome as Kept;
use ctxguard_runtimes::hook::{
    one_line, Gate, Guarded, HookEvent, HookReport, Outcome, BLOCKING_SINCE,
};

/// A hook's output: standard output, standard error, how it exits.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// What the runtime reads (JSON, or nothing).
    pub stdout: String,
    /// What the user reads (on [`Exit::Block`]), or the debug log.
    pub stderr: String,
    /// How the hook exits, in its runtime's protocol.
    pub exit: Exit,
}

/// How a hook exits: its runtime's protocol, not ctxguard's
/// [`ExitStatus`](super::ExitStatus) (a hook that found a loss does not
/// exit 1, which the runtimes read as a hook that failed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Exit {
    /// 0: the runtime goes on and reads standard output.
    #[default]
    Proceed,
    /// 2, Claude Code's blocking exit (pi's extension reads it alike): a
    /// PreCompact refuses the compaction; after a compaction, the user is
    /// shown standard error.
    Block,
}

impl Exit {
    /// The process exit code: 0 or 2.
    pub fn code(self) -> i32 {
        match self {
            Exit::Proceed => 0,
            Exit::Block => 2,
        }
    }
}

/// The reply to a hook call.
pub fn reply(report: &HookReport) -> Reply {
    let mut reply = Reply::default();
    let session = report
        .ledger
        .as_ref()
        .map_or(String::from("ID"), |l| l.session.clone());
    match &report.outcome {
        Outcome::Quiet => {}
        Outcome::Recorded {
            recorded,
            unknown,
            material,
            told,
        } => {
            let mut output = serde_json::Map::new();
            let pins: Vec<String> = recorded
                .iter()
                .filter(|c| c.derived == ctxguard_core::buffer::trace::Derived::Pin)
                .map(|c| match &c.key {
                    Some(key) => format!("- {} [{key}]: {}", c.kind, c.text),
                    None => format!("- {}: {}", c.kind, c.text),
                })
                .collect();
            if report.echo && !pins.is_empty() {
                output.insert(
                    "hookSpecificOutput".into(),
                    json!({
                        "hookEventName": report.event.name_in(report.runtime),
                        "additionalContext": format!("ctxguard pinned these commitments, word for word; they hold for the rest of the session:\n{}", pins.join("\n")),
                    }),
                );
            }
            let mut said = Vec::new();
            if !unknown.is_empty() {
                let kinds: Vec<String> = unknown
                    .iter()
                    .map(|pin| {
                        let kind = ctxguard_core::diagnostics::codes::echo(&pin.kind);
                        match &pin.suggestion {
                            Some(s) => format!("`pin {kind}` (did you mean `{s}`?)"),
                            None => format!("`pin {kind}`"),
                        }
                    })
                    .collect();
                said.push(format!(
                    "the policy declares no such kind: {}; recorded as unclassified, still kept",
                    kinds.join(", ")
                ));
            }
            if *material > 0 {
                said.push(format!(
                    "this prompt holds {material} statements, more than {} in one message: taken as material handed over, not as commitments; pin what must hold (`pin constraint: TEXT`)",
                    ctxguard_runtimes::audit::MATERIAL
                ));
            }
            let mut message: Vec<String> = told.iter().cloned().collect();
            if !said.is_empty() {
                message.push(format!("ctxguard: {}", said.join("; ")));
            }
            if !message.is_empty() {
                output.insert("systemMessage".into(), json!(message.join("\n")));
            }
            if !output.is_empty() {
                reply.stdout = serde_json::Value::Object(output).to_string();
            }
        }
        Outcome::Snapshot {
            snapshot,
            blocked,
            instructions,
            ..
        } => {
            // Claude Code appends this to the compaction's instructions.
            if let Some(instructions) = instructions {
                reply.stdout = instructions.stdout.clone();
            }
            if let Some(blocked) = blocked {
                let lead = match &blocked.gate {
                    Gate::Honoured if report.runtime == Guarded::Pi => "ctxguard cancelled this compaction".to_owned(),
                    Gate::Honoured => "ctxguard blocked this compaction".to_owned(),
                    Gate::TooOld(version) => format!("ctxguard cannot stop this compaction (Claude Code {version} compacts anyway; blocking needs {BLOCKING_SINCE} or later)"),
                    Gate::Unknown => format!("ctxguard blocked this compaction (Claude Code {BLOCKING_SINCE} and later honour this; older versions compact anyway)"),
                    Gate::Never => format!("ctxguard cannot stop this compaction ({} compacts whatever its hooks say)", report.runtime.name()),
                };
                let active = match snapshot.active {
                    1 => "the one active commitment cannot be kept".to_owned(),
                    n => format!("the {n} active commitments cannot all be kept"),
                };
                let then = match blocked.gate {
                    Gate::Never => "before the next compaction",
                    _ => "then compact again",
                };
                let said = format!(
                    "{lead}: {}, so {active} word for word.\nDischarge what is done (`ctxguard ledger list --session {session}`, then `ctxguard ledger discharge ID`) or raise `budget commitments` in the policy, {then}.\n",
                    blocked.reason,
                );
                tell(&mut reply, report.runtime, said);
            }
        }
        Outcome::Verified { judged, invented } => {
            let count = |outcome| judged.iter().filter(|j| j.outcome == outcome).count();
            let (lost, altered) = (count(Kept::Lost), count(Kept::Altered));
            if lost + altered + invented.len() > 0 {
                let said = ctxguard_runtimes::hook::check_told(
                    judged,
                    invented,
                    &session,
                    ctxguard_runtimes::hook::Then::Reinjected,
                );
                tell(&mut reply, report.runtime, said);
            }
        }
        Outcome::Reinjected(reinjection) => {
            reply.stdout = reinjection.stdout.clone();
            if let Some(warning) = &reinjection.warning {
                reply.stderr = format!("{warning}\n");
            }
        }
        // Gemini CLI sends the request with these messages in place of its
        // first ones; what is said goes to its debug log.
        Outcome::Rewritten {
            messages,
            reinjection,
            told,
        } => {
            let said: Vec<&str> = told
                .iter()
                .chain(&reinjection.warning)
                .map(String::as_str)
                .collect();
            let mut output = json!({
                "hookSpecificOutput": {
                    "hookEventName": report.event.name_in(report.runtime),
                    "llm_request": {"messages": messages},
                },
            });
            if !said.is_empty() {
                output["systemMessage"] = json!(said.join("\n"));
                reply.stderr = format!("{}\n", said.join("\n"));
            }
            reply.stdout = output.to_string();
        }
        Outcome::Notice(notice) => {
            reply.stdout = json!({"systemMessage": notice}).to_string();
            reply.stderr = format!("{notice}\n");
        }
        Outcome::Failed(diagnostics) => {
            let first = diagnostics
                .first()
                .map_or_else(String::new, |d| d.message.clone());
            match report.event {
                // Gemini CLI sends the request as it is: the model goes on
                // with the summary alone, and the user is told.
                HookEvent::BeforeModel => {
                    let lead = format!(
                        "ctxguard could not give the commitments back after this compaction ({first}): the model has only the summary; `ctxguard audit` the session to see what it lost."
                    );
                    tell(
                        &mut reply,
                        report.runtime,
                        format!("{lead}\n{}", diagnostics_text(diagnostics)),
                    );
                }
                // Codex compacts whatever its hook says.
                HookEvent::PreCompact if report.runtime == Guarded::Codex => {
                    let lead = format!(
                        "ctxguard could not check that the commitments survive this compaction ({first}), and Codex compacts anyway, unguarded."
                    );
                    tell(
                        &mut reply,
                        report.runtime,
                        format!("{lead}\n{}", diagnostics_text(diagnostics)),
                    );
                }
                // A guard that cannot decide refuses, and says why; a
                // version before 2.1.105 compacts anyway, and the user is
                // told ctxguard could not stop it.
                HookEvent::PreCompact => {
                    reply.exit = Exit::Block;
                    let lead = match report.runtime {
                        Guarded::Pi => format!(
                            "ctxguard cancelled this compaction: it could not check that the commitments survive it ({first})."
                        ),
                        _ => format!(
                            "ctxguard refused this compaction: it could not check that the commitments survive it ({first}). Claude Code {BLOCKING_SINCE} and later do not compact; older versions compact anyway, unguarded."
                        ),
                    };
                    reply.stderr = format!("{}\n{}", wrapped(&lead), diagnostics_text(diagnostics));
                }
                // Exit 2 is how PostCompact shows the user its message.
                HookEvent::PostCompact => {
                    let lead = format!(
                        "ctxguard could not check what this compaction kept ({first}): commitments may have been lost; `ctxguard audit` the session to see."
                    );
                    tell(
                        &mut reply,
                        report.runtime,
                        format!("{}\n{}", wrapped(&lead), diagnostics_text(diagnostics)),
                    );
                }
                // Never a block: an exit 2 here discards what the user
                // typed. The user hears of it where Claude Code shows it.
                HookEvent::UserPromptSubmit | HookEvent::PostToolUse | HookEvent::SessionStart => {
                    reply.stderr = diagnostics_text(diagnostics);
                    if !first.is_empty() {
                        reply.stdout =
                            json!({"systemMessage": format!("ctxguard: {first}")}).to_string();
                    }
                }
            }
        }
    }
    reply.stderr.push_str(&diagnostics_text(&report.problems));
    reply
}

/// A message wrapped to the width human output is drawn at.
fn wrapped(text: &str) -> String {
    super::human::hanging("", text, 2, HumanStyle::plain().width)
}

/// Says `text` to the user where the runtime shows a compaction hook's
/// message: Claude Code shows the standard error of a PreCompact or
/// PostCompact hook that exits 2; Codex shows a JSON `systemMessage` (its
/// exit 2 marks the hook failed, and a PreCompact cannot refuse).
fn tell(reply: &mut Reply, runtime: Guarded, text: String) {
    match runtime {
        // pi's extension shows the standard error of an exit 2.
        Guarded::ClaudeCode | Guarded::Pi => {
            reply.exit = Exit::Block;
            reply.stderr = text;
        }
        // Gemini CLI takes an exit 2 as a refusal of what the hook guards.
        Guarded::Codex | Guarded::GeminiCli | Guarded::OpenClaw => {
            reply.stdout = json!({"systemMessage": text.trim_end()}).to_string();
            reply.stderr = text;
        }
    }
}

fn diagnostics_text(diagnostics: &[Diagnostic]) -> String {
    let style = HumanStyle::plain();
    diagnostics
        .iter()
        .map(|d| super::render_diagnostic(d, &style))
        .collect()
}

/// Writes a hook's reply and returns how it exits. Output that cannot be
/// written changes nothing: the hook already did its work.
pub fn emit_hook(report: &HookReport) -> Exit {
    let reply = reply(report);
    if !reply.stdout.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", reply.stdout);
        let _ = out.flush();
    }
    if !reply.stderr.is_empty() {
        let _ = std::io::stderr().lock().write_all(reply.stderr.as_bytes());
    }
    reply.exit
}

/// Writes what `ctxguard ledger` shows and returns the exit status:
/// failure when an append was refused. `json`: the list as JSON.
pub fn emit_ledger(
    view: &ctxguard_runtimes::hook::ledger::LedgerView,
    problems: &[Diagnostic],
    json: bool,
) -> ExitStatus {
    use ctxguard_runtimes::hook::ledger::LedgerView;
    let mut out = String::new();
    let mut status = ExitStatus::Success;
    match view {
        LedgerView::List { ledger, state, all } => {
            let shown: Vec<&ctxguard_runtimes::hook::Active> = state
                .commitments
                .iter()
                .filter(|a| *all || a.is_active())
                .collect();
            if json {
                let items: Vec<serde_json::Value> = shown
                    .iter()
                    .map(|a| {
                        let mut value = serde_json::to_value(&a.commitment).unwrap_or_default();
                        value["status"] = json!(match (a.status, a.unpinned) {
                            (ctxguard_core::buffer::trace::Status::Active, _) => "active",
                            (_, true) => "unpinned",
                            _ => "discharged",
                        });
                        value["since"] = json!(a.since);
                        value["ledger_line"] = json!(a.line);
                        value
                    })
                    .collect();
                out = serde_json::to_string_pretty(&json!({
                    "session": ledger.session,
                    "ledger": ledger.name(),
                    "commitments": items,
                }))
                .unwrap_or_default();
                out.push('\n');
            } else {
                let active = state.active().count();
                let line = format!(
                    "session {} ({}): {active} active commitment{}{}",
                    ledger.session,
                    ledger.name(),
                    if active == 1 { "" } else { "s" },
                    match state.commitments.len() - active {
                        0 => String::new(),
                        n if *all => format!(", {n} discharged or unpinned"),
                        n => format!(" ({n} discharged or unpinned: `--all` shows them)"),
                    }
                );
                out.push_str(&super::human::hanging(
                    "",
                    &line,
                    2,
                    HumanStyle::plain().width,
                ));
                out.push('\n');
                for a in shown {
                    let c = &a.commitment;
                    // A ledger is a file anyone can write: what it holds
                    // reaches the terminal inert.
                    let inert = ctxguard_core::diagnostics::codes::echo;
                    let kind = match &c.key {
                        Some(key) => format!("{} [{}]", inert(&c.kind), inert(key)),
                        None => inert(&c.kind).into_owned(),
                    };
                    let from = match (&c.source.hook, c.source.line) {
                        (Some(hook), Some(line)) => {
                            format!("{}, transcript line {line}", inert(hook))
                        }
                        (Some(hook), None) => inert(hook).into_owned(),
                        _ => String::from("an unknown source"),
                    };
                    let status = match (a.status, a.unpinned) {
                        (ctxguard_core::buffer::trace::Status::Active, _) => "",
                        (_, true) => " (unpinned)",
                        _ => " (discharged)",
                    };
                    out.push_str(&format!(
                        "\n{}  {kind}  {}{status}  from {from}\n  {}\n",
                        inert(&c.id),
                        derived_name(c.derived),
                        one_line(&c.text)
                    ));
                }
            }
        }
        LedgerView::Show {
            ledger,
            active,
            history,
        } => {
            let c = &active.commitment;
            let inert = ctxguard_core::diagnostics::codes::echo;
            out.push_str(&format!(
                "{} in session {}: {}{}, {}\n{}\n\n",
                inert(&c.id),
                inert(&ledger.session),
                inert(&c.kind),
                c.key
                    .as_ref()
                    .map_or(String::new(), |k| format!(" [{}]", inert(k))),
                derived_name(c.derived),
                inert(&c.hash)
            ));
            out.push_str(&super::printable(&c.text));
            out.push_str("\n\nhistory:\n");
            for (line, record) in history {
                let what = match &record.entry {
                    ctxguard_runtimes::hook::Entry::Pinned(_) => "pinned",
                    ctxguard_runtimes::hook::Entry::Derived(_) => "derived",
                    ctxguard_runtimes::hook::Entry::Confirmed(_) => "confirmed",
                    ctxguard_runtimes::hook::Entry::Discharged(_) => "discharged",
                    ctxguard_runtimes::hook::Entry::Unpinned(_) => "unpinned",
                    _ => "",
                };
                out.push_str(&format!("  {}  {what}  (ledger line {line})\n", record.at));
            }
        }
        LedgerView::Changed { said, .. } => out.push_str(&format!("{said}\n")),
        LedgerView::Export(trace) => out.push_str(trace),
        LedgerView::Failed(diagnostics) => {
            status = ExitStatus::Failure;
            let _ = std::io::stderr()
                .lock()
                .write_all(diagnostics_text(diagnostics).as_bytes());
        }
    }
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    let _ = std::io::stderr()
        .lock()
        .write_all(diagnostics_text(problems).as_bytes());
    status
}

fn derived_name(derived: ctxguard_core::buffer::trace::Derived) -> &'static str {
    use ctxguard_core::buffer::trace::Derived;
    match derived {
        Derived::Pin => "pinned",
        Derived::Answer => "confirmed",
        Derived::Hint => "hint",
        Derived::Sentence => "sentence",
    }
}

/// What the hooks do on the Claude Code they were written for.
fn written_for(installed: &ctxguard_runtimes::hook::init::Installed) -> String {
    use ctxguard_core::facts::claude_code::{
        can_refuse, has_post_compact, BLOCKING_SINCE, POST_COMPACT_SINCE,
    };
    let events = installed.events.join(", ");
    if installed.runtime == Guarded::Pi {
        return "  for pi: an extension that calls ctxguard at each prompt (UserPromptSubmit), before a compaction (PreCompact: a compaction the commitments cannot survive is cancelled) and after it (PostCompact: the summary checked; SessionStart: the commitments given back at the next turn)\n  pi loads it at its next start (or `/reload`); it runs the command `--command` names (`ctxguard` on the PATH by default)\n  pi lets an extension cancel a compaction or write the summary itself, not add to the summarizer's instructions: ctxguard does not ask the summarizer to keep the commitments\n"
            .to_owned();
    }
    if installed.runtime == Guarded::Codex {
        return format!(
            "  for Codex: {events}; the compaction prompt is Codex's own, then the policy's rules for the user's commitments (`experimental_compact_prompt_file`)\n  Codex runs new hooks only once you trust them: start `codex`, which says hooks need review, and review and trust them there; a project's hooks run only in a trusted project\n  Codex compacts whatever its hooks say: ctxguard checks each summary after it (read from the session file) and gives the commitments back; it cannot refuse a compaction\n"
        );
    }
    if installed.runtime == Guarded::OpenClaw {
        return "  for OpenClaw: a plugin that calls ctxguard before each prompt is built: the prompt's commitments are recorded, a compaction's summary among the run's messages is checked once, and while it stands the active commitments are put before each prompt, word for word\n  OpenClaw loads it at its next start (the Gateway, or each `openclaw agent --local`); it runs the command `--command` names (`ctxguard` on the PATH by default); what ctxguard says goes to standard error\n  OpenClaw's compaction hooks only observe: ctxguard cannot refuse a compaction or add to the summarizer's instructions\n"
            .to_owned();
    }
    if installed.runtime == Guarded::GeminiCli {
        return format!(
            "  for Gemini CLI: {events}; each prompt's commitments are recorded, and each request to the model is looked at: after a compaction the summary is checked, once, and the commitments are given back word for word in every request that carries it\n  Gemini CLI cannot refuse a compaction or add to its instructions, and shows a hook's message only in its debug log (F12): what a summary lost is in `ctxguard ledger list` and the model is told it with the commitments\n"
        );
    }
    match &installed.claude_version {
        Some(v) => {
            let mut text = format!("  for Claude Code {v}: {events}\n");
            if !has_post_compact(v) {
                text.push_str(&format!("  Claude Code {v} has no PostCompact hook ({POST_COMPACT_SINCE}): each summary is checked after the compaction instead, when SessionStart or the next prompt finds it in the transcript\n"));
            }
            if !can_refuse(v) {
                text.push_str(&format!("  Claude Code {v} compacts even when ctxguard refuses ({BLOCKING_SINCE} and later honour it): you are told, and the commitments are given back after\n"));
            }
            text
        }
        None => format!("  for any Claude Code version: {events}\n  the version is not known (no `claude --version`), so PostCompact, which versions before {POST_COMPACT_SINCE} cannot read, is left out (SessionStart or the next prompt checks each summary instead); `--claude-version VERSION` writes for one\n"),
    }
}

/// Writes what `ctxguard init` did (with `--dry-run`, the diff) and
/// returns the exit status: usage when settings could not be read or
/// written.
pub fn emit_init(
    result: &Result<ctxguard_runtimes::hook::init::Installed, Vec<Diagnostic>>,
) -> ExitStatus {
    let installed = match result {
        Ok(installed) => installed,
        Err(diagnostics) => {
            let _ = std::io::stderr()
                .lock()
                .write_all(diagnostics_text(diagnostics).as_bytes());
            return ExitStatus::Usage;
        }
    };
    let path = installed.path.display();
    let mut out = String::new();
    if !installed.changed() {
        out.push_str(&match installed.removed {
            true => format!("{path}: no ctxguard hooks to remove\n"),
            false => format!("{path}: the ctxguard hooks are already installed; nothing changed\n"),
        });
    } else if installed.dry_run {
        let before = installed.before.as_deref().unwrap_or("");
        let name = path.to_string();
        out.push_str(
            &similar::TextDiff::from_lines(before, &installed.after)
                .unified_diff()
                .header(&name, &name)
                .to_string(),
        );
    } else {
        let verb = if installed.removed {
            "removed the ctxguard hooks from"
        } else {
            "installed the ctxguard hooks in"
        };
        out.push_str(&format!("{verb} {path}"));
        if let Some(backup) = &installed.backup {
            out.push_str(&format!(" (the original is in {})", backup.display()));
        }
        out.push('\n');
    }
    for also in &installed.also {
        let name = also.path.display().to_string();
        if installed.dry_run {
            out.push_str(
                &similar::TextDiff::from_lines(
                    also.before.as_deref().unwrap_or(""),
                    also.after.as_deref().unwrap_or(""),
                )
                .unified_diff()
                .header(&name, &name)
                .to_string(),
            );
            continue;
        }
        out.push_str(&match (&also.after, &also.backup) {
            (None, _) => format!("removed {name}, which ctxguard wrote\n"),
            (Some(_), Some(backup)) => {
                format!("wrote {name} (the original is in {})\n", backup.display())
            }
            (Some(_), None) => format!("wrote {name}\n"),
        });
    }
    if let Some(left) = &installed.left {
        out.push_str(&format!("  {left}\n"));
    }
    if !installed.removed {
        out.push_str(&written_for(installed));
    }
    if let Some(folder) = &installed.ledger_tracked {
        out.push_str(&format!(
            "  the hooks keep what you type in `{}`, which git would commit with the project: add `.ctxguard/` to `.gitignore`\n",
            folder.display()
        ));
    }
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    ExitStatus::Success
}
