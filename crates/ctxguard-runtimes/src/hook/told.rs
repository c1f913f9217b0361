//! What the user is told of a summary checked against the commitments:
//! PostCompact's block (on standard error, exit 2), and SessionStart's
//! system message where no PostCompact hook checks the summary.

use crate::audit::{Invented, Outcome as Kept};

use super::Judged;

/// Items a block lists before it says how many more.
const LISTED: usize = 6;
/// Characters of a commitment a block line shows.
const SHOWN: usize = 100;

/// What happens to what was lost, as the block's first line says it.
#[derive(Clone, Copy, Debug)]
pub enum Then {
    /// PostCompact: the SessionStart hook gives them back next.
    Reinjected,
    /// No PostCompact hook: SessionStart gives them back (with this
    /// message, or before it, at the next prompt).
    GivenBack,
}

/// The block: counts, then the first commitments lost or altered and the
/// first sentences invented, each on a line of its own.
pub fn check_told(judged: &[Judged], invented: &[Invented], session: &str, then: Then) -> String {
    let count = |outcome| judged.iter().filter(|j| j.outcome == outcome).count();
    let mut text = format!(
        "ctxguard: the compaction summary lost {} and altered {} of {} commitments{}; {}\n",
        count(Kept::Lost),
        count(Kept::Altered),
        judged.len(),
        match invented.len() {
            0 => String::new(),
            n => format!(
                ", and says the user wants {n} thing{} the user never said",
                if n == 1 { "" } else { "s" }
            ),
        },
        match then {
            Then::Reinjected => "the SessionStart hook re-injects them word for word.",
            Then::GivenBack => "ctxguard gave them back to the model word for word.",
        }
    );
    let mut lines = Vec::new();
    for j in judged
        .iter()
        .filter(|j| matches!(j.outcome, Kept::Lost | Kept::Altered))
    {
        let c = &j.commitment;
        let mut line = format!(
            "  {:8} [{}] {}",
            j.outcome.name(),
            c.kind,
            one_line(&c.text)
        );
        if let (Kept::Altered, Some(evidence)) = (j.outcome, &j.evidence) {
            line.push_str(&format!(
                "\n           became: {}",
                one_line(&evidence.sentence)
            ));
        }
        lines.push(line);
    }
    for i in invented {
        lines.push(format!("  invented {}", one_line(&i.text)));
    }
    let more = lines.len().saturating_sub(LISTED);
    for line in lines.into_iter().take(LISTED) {
        text.push_str(&line);
        text.push('\n');
    }
    if more > 0 {
        text.push_str(&format!(
            "  … and {more} more: ctxguard ledger list --session {session}\n"
        ));
    }
    text
}

/// What the user is told when the messages a compaction preserved keep
/// `kept` of the `harmed` commitments its summary was reported to lose or
/// alter; `still` remain lost or altered.
pub fn corrected(kept: &[&Judged], harmed: usize, still: usize, session: &str) -> String {
    let mut text = format!(
        "ctxguard: of the {harmed} commitment{} the last compaction summary was reported to lose or alter, Claude Code kept {} word for word in the messages it preserved after the summary; {}\n",
        if harmed == 1 { "" } else { "s" },
        kept.len(),
        match still {
            0 => "none is lost".to_owned(),
            n => format!("{n} still lost or altered: ctxguard ledger list --session {session}"),
        },
    );
    for j in kept.iter().take(LISTED) {
        let c = &j.commitment;
        text.push_str(&format!("  kept     [{}] {}\n", c.kind, one_line(&c.text)));
    }
    if kept.len() > LISTED {
        text.push_str(&format!("  … and {} more\n", kept.len() - LISTED));
    }
    text.trim_end().to_owned()
}

/// One line of a commitment: its first line, at most [`SHOWN`] characters,
/// control characters escaped.
pub fn one_line(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    // `escaped` cuts a long line and marks it; a short first line of more says so too.
    let shown = crate::source::escaped(first, SHOWN, "…", |c| c == '\t');
    let more = text.lines().nth(1).is_some() && first.chars().count() <= SHOWN;
    match more {
        true => format!("{shown}…"),
        false => shown.into_owned(),
    }
}
