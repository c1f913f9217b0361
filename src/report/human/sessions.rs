//! The human reports of `import` and `audit`: each session's compactions,
//! what each did to the user's commitments, and what was set apart.

use super::*;

/// One line for the session, then one per compaction.
pub(super) fn imported(
    session: &crate::report::ImportedSession,
    width: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let how = if session.detected {
        "recognized from its records"
    } else {
        "as asked"
    };
    let file = ctxguard_core::source::escaped(&session.file, 200, "…", |_| false);
    if session.events.is_empty() {
        let line = format!(
            "{} ({how}): no compaction; nothing written",
            session.runtime
        );
        return writeln!(out, "{}", hanging(&format!("{file}: "), &line, 2, width));
    }
    let line = format!(
        "{} ({how}): {}",
        session.runtime,
        plural(session.events.len(), "compaction", "compactions")
    );
    writeln!(out, "{}", hanging(&format!("{file}: "), &line, 2, width))?;
    for event in &session.events {
        let tokens = match (
            event.compaction.tokens_before,
            event.compaction.tokens_after,
        ) {
            (Some(before), Some(after)) => format!("{before} -> {after} tok"),
            (Some(before), None) => format!("{before} tok before"),
            (None, Some(after)) => format!("{after} tok after"),
            (None, None) => "no tok count".to_owned(),
        };
        let carried = if event.opaque {
            "summary encrypted".to_owned()
        } else {
            format!(
                "{}/{} commitments carried",
                event.carried, event.commitments
            )
        };
        let line = format!(
            "line {}  {}  {tokens}  {} -> {} regions  {carried}  {}",
            event.compaction.compaction_line,
            event.compaction.trigger.as_deref().unwrap_or("-"),
            event.regions_in,
            event.regions_out,
            event.out
        );
        let lead = format!("  {}  ", event.compaction.event);
        writeln!(out, "{}", hanging(&lead, &line, lead.len(), width))?;
        for note in &event.notes {
            writeln!(out, "{}", wrapped("     note: ", note, width))?;
        }
    }
    if session.events.iter().all(|event| event.pinned == 0) {
        let note = "nothing in this session is pinned (`pin KIND [KEY]: TEXT`): its commitments were classified after the fact, from hints and sentences, so what it finds are candidates, not proofs";
        writeln!(out, "{}", wrapped("  note: ", note, width))?;
    }
    Ok(())
}

/// Per event: the verdict and its reason, the counts, then each commitment
/// not kept as written — with its line, the evidence and, when it fared
/// otherwise at an earlier compaction, its history; what was already lost
/// at the compaction before is one line, not repeated. With `set_apart`,
/// what the user typed that does not bind. With more than one session, a
/// table at the end.
pub(super) fn audited(
    events: &[ctxguard_runtimes::audit::EventAudit],
    sessions: usize,
    set_apart: bool,
    width: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    use ctxguard_runtimes::audit::Outcome;
    // Silence would read as "nothing lost"; a session never compacted has
    // nothing to audit, and says so.
    if events.is_empty() && sessions > 0 {
        let read = plural(sessions, "session", "sessions");
        let them = if sessions == 1 { "it" } else { "them" };
        return writeln!(
            out,
            "{read} read: no compaction in {them}, nothing to audit"
        );
    }
    for event in events {
        let file = ctxguard_core::source::escaped(&event.source_file, 200, "…", |_| false);
        let trigger = event
            .compaction
            .trigger
            .as_deref()
            .map_or(String::new(), |t| format!(", {t}"));
        let line = format!(
            "compaction {} (line {}, {}{trigger}): {}: {}",
            event.compaction.event,
            event.compaction.compaction_line,
            event.runtime,
            event.verdict.name(),
            event.reason
        );
        writeln!(out, "{}", hanging(&format!("{file}: "), &line, 2, width))?;
        let counts: Vec<String> = Outcome::ALL
            .iter()
            .map(|&o| (o, event.count(o)))
            .filter(|&(o, n)| n > 0 || matches!(o, Outcome::Verbatim | Outcome::Lost))
            .map(|(o, n)| format!("{n} {}", o.name()))
            .collect();
        let mut line = format!(
            "{}: {}; {} invented",
            plural(event.commitments.len(), "commitment", "commitments"),
            counts.join(", "),
            event.invented.len()
        );
        if !event.set_apart.is_empty() {
            line.push_str(&format!("; {}", set_apart_counts(&event.set_apart)));
        }
        writeln!(out, "{}", hanging("  ", &line, 4, width))?;
        // Lost or altered already at the compaction before: named once.
        let still: Vec<&ctxguard_runtimes::audit::Commitment> = event
            .commitments
            .iter()
            .filter(|c| {
                c.outcome.is_loss() && c.history.last().is_some_and(|e| e.outcome.is_loss())
            })
            .collect();
        for commitment in &event.commitments {
            if matches!(commitment.outcome, Outcome::Verbatim | Outcome::Unauditable)
                || still.iter().any(|s| std::ptr::eq(*s, commitment))
            {
                continue;
            }
            let line = commitment
                .source_line
                .map_or(String::new(), |l| format!("line {l}"));
            let text = ctxguard_core::diagnostics::codes::echo(&commitment.text);
            let lead = format!("  {:<11} {line:<10} ", commitment.outcome.name());
            let said = format!("{}: \"{text}\"", commitment.kind);
            writeln!(out, "{}", hanging(&lead, &said, EVIDENCE, width))?;
            if !commitment.history.is_empty() {
                let history: Vec<String> = commitment
                    .history
                    .iter()
                    .map(|e| format!("{} at compaction {}", e.outcome.name(), e.event))
                    .collect();
                let lead = format!("{:EVIDENCE$}history: ", "");
                writeln!(out, "{}", wrapped(&lead, &history.join(", "), width))?;
            }
            if let Some(evidence) = &commitment.evidence {
                let sentence = ctxguard_core::diagnostics::codes::echo(&evidence.sentence);
                let label = if commitment.outcome == Outcome::Lost {
                    "nearest"
                } else {
                    "closest"
                };
                let lead = format!("{:EVIDENCE$}{label} ({:.2}): ", "", evidence.similarity);
                let said = format!("\"{sentence}\"");
                writeln!(out, "{}", hanging(&lead, &said, lead.len(), width))?;
                for change in &evidence.changes {
                    writeln!(
                        out,
                        "{}",
                        hanging(&" ".repeat(EVIDENCE), change, EVIDENCE + 2, width)
                    )?;
                }
                if let Some(diff) = &evidence.diff {
                    let lead = format!("{:EVIDENCE$}words: ", "");
                    writeln!(out, "{}", wrapped(&lead, diff, width))?;
                }
            }
        }
        if !still.is_empty() {
            let lines: Vec<String> = still
                .iter()
                .map(|c| {
                    c.source_line
                        .map_or_else(|| c.id.clone(), |l| l.to_string())
                })
                .collect();
            let note = format!(
                "{} the compaction before lost or altered {} still not carried: {}",
                plural(still.len(), "commitment", "commitments"),
                if still.len() == 1 { "is" } else { "are" },
                lines_listed(&lines)
            );
            writeln!(out, "{}", wrapped("  still: ", &note, width))?;
        }
        for invented in &event.invented {
            let text = ctxguard_core::diagnostics::codes::echo(&invented.text);
            let lead = format!("  invented    line {:<5} ", invented.line);
            let said = format!(
                "the summary says \"{text}\"; nothing the user said before it says so (support {:.2})",
                invented.support
            );
            writeln!(out, "{}", hanging(&lead, &said, EVIDENCE, width))?;
        }
        if set_apart {
            for unit in &event.set_apart {
                let line = unit
                    .source_line
                    .map_or(String::new(), |l| format!("line {l}"));
                let text = ctxguard_core::diagnostics::codes::echo(&unit.text);
                let lead = format!("  {:<11} {line:<10} ", unit.why.name());
                writeln!(
                    out,
                    "{}",
                    hanging(&lead, &format!("\"{text}\""), EVIDENCE, width)
                )?;
            }
        }
        for note in &event.notes {
            writeln!(out, "{}", wrapped("  note: ", note, width))?;
        }
        if event.pinned == 0 && !event.commitments.is_empty() {
            let note = "nothing here was pinned: commitments were classified after the fact, so these are candidates, not proofs";
            writeln!(out, "{}", wrapped("  note: ", note, width))?;
        }
        writeln!(out)?;
    }
    if sessions > 1 || events.len() > 1 {
        writeln!(out, "{:<12} {:>8}", "outcome", "count")?;
        for outcome in Outcome::ALL {
            let n: usize = events.iter().map(|e| e.count(outcome)).sum();
            writeln!(out, "{:<12} {n:>8}", outcome.name())?;
        }
        let invented: usize = events.iter().map(|e| e.invented.len()).sum();
        writeln!(out, "{:<12} {invented:>8}", "invented")?;
        let unauditable = events
            .iter()
            .filter(|e| e.verdict == ctxguard_runtimes::audit::Verdict::Unauditable)
            .count();
        if unauditable > 0 {
            writeln!(
                out,
                "{} could not be audited",
                plural(unauditable, "compaction", "compactions")
            )?;
        }
        writeln!(
            out,
            "{} and {} audited",
            plural(sessions, "session", "sessions"),
            plural(events.len(), "compaction", "compactions")
        )?;
    }
    Ok(())
}

/// What an audit did not read below its folders, when anything: "3 files
/// skipped: 2 are no session ctxguard reads, 1 is not `.jsonl`, `.json` or
/// `.traj`".
pub(super) fn skipped_files(
    skipped: crate::report::Skipped,
    width: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let are = |n: usize| {
        if n == 1 {
            "1 is".to_owned()
        } else {
            format!("{n} are")
        }
    };
    let mut why = Vec::new();
    if skipped.not_sessions > 0 {
        why.push(format!(
            "{} no session ctxguard reads",
            are(skipped.not_sessions)
        ));
    }
    if skipped.other_files > 0 {
        let not = if skipped.other_files == 1 {
            "is not"
        } else {
            "are not"
        };
        let n = skipped.other_files;
        why.push(format!("{n} {not} `.jsonl`, `.json` or `.traj`"));
    }
    if why.is_empty() {
        return Ok(());
    }
    let total = skipped.not_sessions + skipped.other_files;
    let skipped = format!("{} skipped: ", plural(total, "file", "files"));
    writeln!(out, "{}", hanging(&skipped, &why.join(", "), 2, width))
}

/// "3 units set apart (2 questions, 1 acknowledgement)".
pub(super) fn set_apart_counts(units: &[ctxguard_runtimes::audit::SetApart]) -> String {
    let mut counts: Vec<(&'static str, usize)> = Vec::new();
    for unit in units {
        match counts.iter_mut().find(|(name, _)| *name == unit.why.name()) {
            Some((_, n)) => *n += 1,
            None => counts.push((unit.why.name(), 1)),
        }
    }
    let parts: Vec<String> = counts
        .iter()
        .map(|(name, n)| format!("{n} {name}"))
        .collect();
    format!(
        "{} set apart ({})",
        plural(units.len(), "unit", "units"),
        parts.join(", ")
    )
}

/// Lines where commitments were typed, each once and in order, with how
/// many of its commitments when more than one: "lines 15, 25 (2), 43".
pub(super) fn lines_listed(lines: &[String]) -> String {
    let mut counted: Vec<(&str, usize)> = Vec::new();
    for line in lines {
        match counted.iter_mut().find(|(at, _)| at == line) {
            Some((_, n)) => *n += 1,
            None => counted.push((line, 1)),
        }
    }
    let listed: Vec<String> = counted
        .iter()
        .map(|&(line, n)| match n {
            1 => line.to_owned(),
            n => format!("{line} ({n})"),
        })
        .collect();
    let word = if counted.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", listed.join(", "))
}
