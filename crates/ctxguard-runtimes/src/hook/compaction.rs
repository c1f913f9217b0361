//! The hook events around a compaction: PreCompact (the ledger brought
//! level with the transcript, the budget checked, the compactor asked to
//! keep the commitments), PostCompact (the summary checked) and
//! SessionStart (the commitments given back).

use std::collections::HashMap;

use super::check::{check_summary, judge, record_check, unchecked};
use super::events::{answer, read, read_transcript, record_in, typed, Call, Failure, Said};
use super::ledger::{hash, Commitment, Entry, Snapshot, Source, State};
use super::reinject::{instructions, reinject, HEAD as REINJECTION_HEAD};
use super::{Blocked, Gate, Guarded, Outcome};
use crate::buffer::plan::{Entry as PlanEntry, Plan, PlanRegion};
use crate::diagnostics::{Code, Diagnostic};
use crate::facts::Version;
use crate::import::{Origin, ANSWER_MARK};
use crate::policy::Policy;
use crate::source::Spanned;
use crate::verify::{verify, Options, Verdict};

/// PreCompact: brings the ledger level with the transcript (prompts typed
/// before the hooks were installed, answers without a PostToolUse hook),
/// snapshots it, and blocks the compaction when the active commitments
/// alone do not fit the policy's commitment budget; else gives the
/// compactor the active commitments to keep word for word.
pub(super) fn pre_compact(
    call: &Call<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        policy,
        guard,
        access,
    } = *call;
    let policy = policy.get()?;
    let state = read(ledger, problems)?;
    let mut caught_up = Vec::new();
    let mut version = None;
    let mut transcript_lines = None;
    if let Some(path) = &payload.transcript_path {
        // The transcript can lag the turn: what it lacks, the prompt hook recorded.
        if let Some(now) = read_transcript(guard.runtime, path, access) {
            version = now.version;
            transcript_lines = Some(now.lines);
            // What the last compaction's PreCompact read of this same
            // transcript is in the ledger already: only what came after
            // it is read again, so a session's compactions cost what was
            // said between them, not the whole session each time.
            let seen = state
                .snapshot
                .as_ref()
                .filter(|s| s.transcript.as_deref() == Some(path.as_str()))
                .and_then(|s| s.transcript_lines)
                .filter(|&seen| seen <= now.lines)
                .unwrap_or(0);
            // And what the prompt hook heard is in the ledger already.
            let heard = ledger.heard();
            let since: Vec<_> = now
                .messages
                .into_iter()
                .filter(|m| m.line > seen)
                .filter(|m| m.origin != Origin::User || !heard.contains(&hash(&m.text)))
                .collect();
            caught_up = from_transcript(policy, path, &since);
        }
    }
    let (caught_up, state) = record_in(ledger, state, caught_up, Said::Before)?;
    let (verdict, tokens, budget, reason) = fits(policy, &state, &ledger.name());
    let blocked = verdict == Verdict::Escalate;
    // Whether the runtime honours the refusal: by the version the
    // transcript names, else (Claude Code writes its transcript a moment
    // behind, and a compaction asked for at once can come first) the
    // version `init` wrote the hooks for.
    let running = version
        .as_deref()
        .and_then(Version::parse)
        .or_else(|| guard.written_for.cloned());
    let gate = match (guard.runtime, running) {
        // Codex runs PreCompact hooks but compacts whatever they say.
        (Guarded::Codex | Guarded::GeminiCli | Guarded::OpenClaw, _) => Gate::Never,
        // pi's extension cancels a refused compaction.
        (Guarded::Pi, _) => Gate::Honoured,
        (_, Some(v)) if crate::facts::claude_code::can_refuse(&v) => Gate::Honoured,
        (_, Some(v)) => Gate::TooOld(v.to_string()),
        (_, None) => Gate::Unknown,
    };
    let snapshot = Snapshot {
        trigger: payload.trigger.clone(),
        transcript: payload.transcript_path.clone(),
        transcript_lines,
        version,
        active: state.active().count(),
        tokens,
        budget,
        blocked,
    };
    ledger.append(vec![Entry::Compacted(snapshot.clone())])?;
    // A compaction that goes ahead is asked to keep every active
    // commitment; one refused is not asked anything. (Codex takes nothing
    // a PreCompact hook prints into the compaction.)
    let instructions = if blocked || guard.runtime != Guarded::ClaudeCode {
        None
    } else {
        let active: Vec<_> = state.active().collect();
        let kinds: Vec<String> = policy.kinds.iter().map(|k| k.name.clone()).collect();
        instructions(&active, &kinds, &ledger.session)
    };
    Ok(Outcome::Snapshot {
        snapshot,
        caught_up: caught_up.len(),
        blocked: blocked.then(|| Blocked {
            gate,
            reason: reason.unwrap_or_default(),
        }),
        instructions,
    })
}

/// The user's commitments in the transcript's buffer.
fn from_transcript(
    policy: &Policy,
    path: &str,
    messages: &[crate::import::Message],
) -> Vec<Commitment> {
    let mut found = Vec::new();
    for message in messages {
        let source = Source {
            hook: Some("PreCompact".to_owned()),
            transcript: Some(path.to_owned()),
            line: Some(message.line),
            ..Source::default()
        };
        match message.origin {
            Origin::User => found.extend(typed(policy, &message.text, &source).0),
            Origin::Answer => {
                if let Some((question, choice)) =
                    message.text.split_once(&format!(" {ANSWER_MARK}"))
                {
                    found.push(answer(policy, question, choice, source));
                }
            }
            _ => {}
        }
    }
    // A key pinned again in the transcript holds its last text only.
    let mut last = HashMap::new();
    for (i, c) in found.iter().enumerate() {
        last.insert(c.id.clone(), i);
    }
    found
        .into_iter()
        .enumerate()
        .filter(|(i, c)| last.get(&c.id) == Some(i))
        .map(|(_, c)| c)
        .collect()
}

/// Whether the active commitments fit the policy: `verify` of a plan that
/// keeps every one, so the hook escalates exactly when `verify` would.
fn fits(policy: &Policy, state: &State, name: &str) -> (Verdict, u64, Option<u64>, Option<String>) {
    let trace = state.to_counted_trace(name, policy.tokenizer.value);
    let plan = Plan::unplaced(
        trace
            .regions
            .iter()
            .enumerate()
            .map(|(i, region)| {
                PlanRegion::unplaced(
                    i,
                    PlanEntry::Keep {
                        id: Spanned::unplaced(region.id.as_str().into()),
                    },
                )
            })
            .collect(),
    );
    let verification = verify(policy, &trace, &plan, &Options::default());
    let reason = verification
        .diagnostics
        .iter()
        .find(|d| d.code == Code::BudgetUnmeetable)
        .map(|d| d.message.clone());
    let budget = verification
        .stats
        .budget
        .map(|window| policy.commitment_budget(window).unwrap_or(window));
    (
        verification.verdict,
        verification.stats.tokens_after,
        budget,
        reason,
    )
}

/// PostCompact: the summary against every active commitment, as the
/// audit judges; what it lost, altered or invented goes in the ledger.
pub(super) fn post_compact(
    call: &Call<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        guard,
        access,
        ..
    } = *call;
    let state = read(ledger, problems)?;
    // The buffer after the compaction, as the session file holds it once
    // it stands after what PreCompact saw: the summary and what the
    // runtime carried over word for word (Codex keeps the user's own
    // messages, pi the recent ones); Codex gives a hook no summary. Else
    // the summary the payload gives: Claude Code's file, written a moment
    // behind, adds nothing to it, and is not read.
    let from_file = payload
        .transcript_path
        .as_ref()
        .filter(|_| guard.runtime != Guarded::ClaudeCode || payload.compact_summary.is_none())
        .and_then(|path| read_transcript(guard.runtime, path, access));
    let (summary, carried, read) = match (
        from_file.as_ref().and_then(|t| unchecked(&state, t)),
        payload.compact_summary.as_deref(),
    ) {
        (Some(found), _) => (found.text.as_str(), found.carried.as_slice(), true),
        (None, Some(summary)) if guard.runtime != Guarded::Codex => (summary, &[][..], false),
        _ => return Ok(Outcome::Quiet),
    };
    // Nothing is typed between a compaction and its PostCompact hook.
    let (judged, invented) = judge(summary, carried, &state, u64::MAX);
    record_check(
        ledger,
        payload.trigger.clone(),
        summary,
        &judged,
        &invented,
        read,
        problems,
    );
    Ok(Outcome::Verified { judged, invented })
}

/// SessionStart. After a compaction (`compact`), the active commitments
/// for the model. On `resume`, the same when the transcript shows the last
/// compaction's commitments were never kept: versions before 2.1.1xx hold a
/// hook's context only in memory, so it is gone when the process that
/// compacted exits. On any source, a word to the user when the Claude Code
/// running is not the one `init` wrote the hooks for, in a way that changes
/// what the guard can do.
pub(super) fn session_start(
    call: &Call<'_>,
    problems: &mut Vec<Diagnostic>,
) -> Result<Outcome, Failure> {
    let Call {
        payload,
        ledger,
        policy,
        guard,
        access,
    } = *call;
    let source = payload.source.as_deref();
    let transcript = payload
        .transcript_path
        .as_ref()
        .and_then(|path| read_transcript(guard.runtime, path, access));
    let running = transcript
        .as_ref()
        .and_then(|t| t.version.as_deref())
        .and_then(Version::parse);
    let mut notice = match (guard.written_for, &running) {
        (Some(written), Some(running)) => version_notice(written, running),
        _ => None,
    };
    let give_back = match source {
        Some("compact") => true,
        // Codex keeps a hook's context in the rollout: a resume holds it.
        Some("resume") if guard.runtime == Guarded::Codex => false,
        Some("resume") => transcript
            .as_ref()
            .and_then(|t| t.given_back.as_ref())
            .is_some_and(|given| !given.iter().any(|g| g.starts_with(REINJECTION_HEAD))),
        _ => false,
    };
    if !give_back {
        return Ok(notice.map_or(Outcome::Quiet, Outcome::Notice));
    }
    let policy = policy.get()?;
    let state = read(ledger, problems)?;
    let active: Vec<_> = state.active().collect();
    let kinds: Vec<String> = policy.kinds.iter().map(|k| k.name.clone()).collect();
    // Where no PostCompact hook checks the summary, this compaction's is
    // checked here, once, from the transcript, when the client has written
    // it there already (else at the next prompt).
    let mut check = state.check.clone();
    let summary = transcript.as_ref().and_then(|t| unchecked(&state, t));
    if let (true, Some("compact"), Some(summary)) = (guard.check_summary, source, summary) {
        let (done, told) = check_summary(ledger, &state, summary, problems);
        check = Some(done);
        if let Some(told) = told {
            notice = Some(match notice {
                Some(version) => format!("{told}\n{version}"),
                None => told,
            });
        }
    }
    let reinjection = reinject(
        &active,
        &kinds,
        &ledger.session,
        check.as_ref(),
        notice.as_deref(),
    );
    Ok(match (reinjection, notice) {
        (Some(reinjection), _) => Outcome::Reinjected(reinjection),
        (None, Some(notice)) => Outcome::Notice(notice),
        (None, None) => Outcome::Quiet,
    })
}

/// What the user is told when `running` can do what `written` could not,
/// or no longer can: `None` when nothing the guard does changes.
fn version_notice(written: &Version, running: &Version) -> Option<String> {
    use crate::facts::claude_code::{can_refuse, has_post_compact, BLOCKING_SINCE};
    if written == running {
        return None;
    }
    let mut changes = Vec::new();
    if has_post_compact(running) && !has_post_compact(written) {
        changes.push("it can check each summary as it is written (PostCompact)".to_owned());
    }
    match (can_refuse(written), can_refuse(running)) {
        (false, true) => changes.push(format!(
            "it honours a refused compaction ({BLOCKING_SINCE} and later)"
        )),
        (true, false) => changes.push(format!(
            "it compacts even when ctxguard refuses (refusals need {BLOCKING_SINCE} or later)"
        )),
        _ => {}
    }
    if changes.is_empty() {
        return None;
    }
    Some(format!(
        "ctxguard: its hooks were written for Claude Code {written}, and {running} is running: {}. Run `ctxguard init claude-code` again to write them for {running}.",
        changes.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_change_is_named_only_when_it_changes_what_the_guard_can_do() {
        let v = |t| Version::parse(t).unwrap();
        let up = version_notice(&v("2.0.76"), &v("2.1.332")).unwrap();
        assert!(
            up.contains("PostCompact") && up.contains("honours a refused compaction"),
            "{up}"
        );
        assert!(up.contains("Run `ctxguard init claude-code` again"));
        let down = version_notice(&v("2.1.332"), &v("2.1.100")).unwrap();
        assert!(
            down.contains("compacts even when ctxguard refuses"),
            "{down}"
        );
        assert_eq!(version_notice(&v("2.1.300"), &v("2.1.332")), None);
        assert_eq!(version_notice(&v("2.0.76"), &v("2.0.77")), None);
    }
}
