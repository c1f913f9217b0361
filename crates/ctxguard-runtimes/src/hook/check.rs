//! The check of a compaction's summary against the ledger's active
//! commitments, as `audit` judges: for PostCompact, and where no PostCompact
//! hook runs, for SessionStart or the next prompt. What it found is
//! recorded in the ledger (hashes only) and said to the user.

use rayon::prelude::*;

use super::ledger::{Check, Entry, Ledger, State};
use super::Judged;
use crate::audit::{self, After, Outcome as Kept};
use crate::buffer::trace::Derived;
use crate::diagnostics::Diagnostic;
use crate::import::{Current, LastSummary, ANSWER_MARK};
use crate::verify::text::Words;

/// `summary` and the messages `carried` over with it against every active
/// commitment of `state` recorded before ledger line `before`, as the
/// audit judges; and what the summary says the user wants that none of
/// them supports.
pub(super) fn judge(
    summary: &str,
    carried: &[(String, bool)],
    state: &State,
    before: u64,
) -> (Vec<Judged>, Vec<audit::Invented>) {
    let summary_units = audit::units(summary);
    let after = After::new(
        summary,
        &summary_units,
        carried.iter().map(|(text, prose)| (text.as_str(), *prose)),
    );
    let said: Vec<&super::Active> = state
        .commitments
        .iter()
        .filter(|a| a.line < before)
        .collect();
    // Only what the user typed supports what a summary says they want; the
    // words of each commitment are made once, for both. Each commitment is
    // judged on its own, on all cores.
    let support: Vec<(String, Words)> = said
        .par_iter()
        .map(|a| (a.commitment.text.clone(), Words::of(&a.commitment.text)))
        .collect();
    // What the summary invents is asked beside the judging, not after it:
    // on two cores the one would otherwise wait for the other.
    let mut supported: audit::Support = support.clone().into();
    rayon::join(
        || {
            said.par_iter()
                .zip(&support)
                .filter(|(a, _)| a.is_active())
                .map(|(a, (_, words))| {
                    let answer = (a.commitment.derived == Derived::Answer)
                        .then(|| a.commitment.text.split_once(&format!(" {ANSWER_MARK}")))
                        .flatten();
                    let (outcome, evidence) = after.judge_words(&a.commitment.text, words, answer);
                    Judged {
                        commitment: a.commitment.clone(),
                        outcome,
                        evidence,
                    }
                })
                .collect()
        },
        || audit::invented(&mut supported, summary, &summary_units, 0),
    )
}

/// The check of one summary, appended to the ledger; the check is said
/// even when the ledger cannot record it (full, or unusable): the record
/// is the lesser loss.
pub(super) fn record_check(
    ledger: &Ledger,
    trigger: Option<String>,
    summary: &str,
    judged: &[Judged],
    invented: &[audit::Invented],
    carried: bool,
    problems: &mut Vec<Diagnostic>,
) -> Check {
    let ids = |outcome: Kept| {
        judged
            .iter()
            .filter(|j| j.outcome == outcome)
            .map(|j| j.commitment.id.clone())
            .collect::<Vec<_>>()
    };
    let check = Check {
        trigger,
        summary: super::ledger::hash(summary),
        verbatim: ids(Kept::Verbatim).len(),
        paraphrased: ids(Kept::Paraphrased).len(),
        altered: ids(Kept::Altered),
        lost: ids(Kept::Lost),
        invented: invented
            .iter()
            .map(|i| super::ledger::hash(&i.text))
            .collect(),
        carried,
    };
    if let Err(error) = ledger.append(vec![Entry::Verified(check.clone())]) {
        problems.push(match error {
            super::ledger::LedgerError::Full(diagnostic) => *diagnostic,
            other => Diagnostic::new(
                crate::diagnostics::Code::HookInput,
                format!("the check of this compaction was not recorded: {other}"),
            ),
        });
    }
    check
}

/// Whether the ledger's last compaction went ahead and nobody has checked
/// its summary yet.
pub(super) fn pending(state: &State) -> bool {
    state.check.is_none() && state.snapshot.as_ref().is_some_and(|s| !s.blocked)
}

/// The summary of the compaction the ledger last snapshotted, when the
/// transcript holds it (written after the snapshot's lines) and it is not
/// checked yet: an older summary is never judged as this one.
pub(super) fn unchecked<'t>(state: &State, transcript: &'t Current) -> Option<&'t LastSummary> {
    let snapshot = state.snapshot.as_ref()?;
    let summary = transcript.summary.as_ref()?;
    (pending(state) && summary.line > snapshot.transcript_lines.unwrap_or(0)).then_some(summary)
}

/// Checks `summary`, records the check, and says what it lost, altered
/// or invented (`None`: all kept).
pub(super) fn check_summary(
    ledger: &Ledger,
    state: &State,
    summary: &LastSummary,
    problems: &mut Vec<Diagnostic>,
) -> (Check, Option<String>) {
    // What was said since the compaction is not the summary's to keep.
    checked(
        ledger,
        state,
        (&summary.text, &summary.carried),
        summary.trigger.clone(),
        state.snapshot_line,
        problems,
    )
}

/// [`check_summary`] of a summary `text` and the messages `carried` with
/// it, against the commitments recorded before ledger line `before`.
pub(super) fn checked(
    ledger: &Ledger,
    state: &State,
    (text, carried): (&str, &[(String, bool)]),
    trigger: Option<String>,
    before: u64,
    problems: &mut Vec<Diagnostic>,
) -> (Check, Option<String>) {
    let (judged, invented) = judge(text, carried, state, before);
    let check = record_check(ledger, trigger, text, &judged, &invented, true, problems);
    let harmed = !check.lost.is_empty() || !check.altered.is_empty() || !invented.is_empty();
    let told = harmed.then(|| {
        super::check_told(&judged, &invented, &ledger.session, super::Then::GivenBack)
            .trim_end()
            .to_owned()
    });
    (check, told)
}

/// Whether the last check found harm that the messages the runtime kept
/// beside the summary, unread then, could undo: Claude Code writes a
/// reactive or partial compaction's preserved messages to the transcript
/// only after its PostCompact hook has judged the summary alone.
pub(super) fn undone(state: &State) -> bool {
    state
        .check
        .as_ref()
        .is_some_and(|c| !c.carried && (!c.lost.is_empty() || !c.altered.is_empty()))
}

/// The last compaction judged again as the transcript holds it now, its
/// summary with the messages the compaction preserved word for word,
/// once the transcript holds that summary (after the lines PreCompact
/// saw); the check is recorded again, so this is done once. What the
/// first check reported lost or altered and the preserved messages keep
/// is said to the user (`None`: nothing to correct).
pub(super) fn recheck(
    ledger: &Ledger,
    state: &State,
    transcript: &Current,
    problems: &mut Vec<Diagnostic>,
) -> Option<String> {
    let first = state.check.as_ref().filter(|_| undone(state))?;
    let snapshot = state.snapshot.as_ref()?;
    let summary = transcript
        .summary
        .as_ref()
        .filter(|s| s.line > snapshot.transcript_lines.unwrap_or(0))?;
    let (judged, invented) = judge(&summary.text, &summary.carried, state, state.check_line);
    record_check(
        ledger,
        first.trigger.clone(),
        &summary.text,
        &judged,
        &invented,
        true,
        problems,
    );
    let harmed: Vec<&String> = first.lost.iter().chain(&first.altered).collect();
    let kept: Vec<&Judged> = judged
        .iter()
        .filter(|j| matches!(j.outcome, Kept::Verbatim | Kept::Paraphrased))
        .filter(|j| harmed.contains(&&j.commitment.id))
        .collect();
    (!kept.is_empty()).then(|| {
        let still = judged
            .iter()
            .filter(|j| matches!(j.outcome, Kept::Lost | Kept::Altered))
            .count();
        super::told::corrected(&kept, harmed.len(), still, &ledger.session)
    })
}
