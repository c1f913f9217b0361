//! What SessionStart(`compact`) gives the model after a compaction: every
//! active commitment, word for word, grouped by kind. Claude Code (2.1.89
//! and later) takes at most 10,000 UTF-16 code units from a hook and
//! replaces anything longer with a preview and a path, which would cut
//! commitments silently. So the output is built to fit, counted as the
//! client counts (an emoji is two): commitments are chosen in priority order (pinned,
//! confirmed, hinted, then unclassified; oldest first within each) while
//! they fit, never cut; what does not fit is named by count with the
//! command that lists it, and the user is told in a system message.
//!
//! Before a compaction, the same commitments go to the compactor: Claude
//! Code appends what a PreCompact hook prints (plain text) to the
//! compaction's instructions, so the summary is asked to keep each word
//! for word. The newest versions (2.1.332) cut that output past the same
//! cap (2.1.105 and older take it whole), so it is fitted the same way.

use serde_json::json;

use super::ledger::{Active, Check};

/// Most characters Claude Code takes from a hook's output.
pub const OUTPUT_CAP: usize = 10_000;

/// The SessionStart output.
#[derive(Debug)]
pub struct Reinjection {
    /// Standard output: the hook's JSON, at most [`OUTPUT_CAP`] UTF-16 code
    /// units (so its context, inside it, is too).
    pub stdout: String,
    /// The context the model sees.
    pub context: String,
    /// Ids of the commitments re-injected.
    pub included: Vec<String>,
    /// Ids of the active commitments that did not fit.
    pub omitted: Vec<String>,
    /// What the user is told when some did not fit.
    pub warning: Option<String>,
}

/// How the re-injected context begins: the transcript keeps it
/// (`hook_additional_context`) on versions that persist a hook's context.
pub const HEAD: &str = "The user's commitments in this session, word for word from ctxguard's ledger. The user set or confirmed each of them before the conversation was compacted, and they still hold: where the summary differs, these win.";

/// How the instructions a PreCompact hook prints begin: Claude Code
/// appends a PreCompact hook's standard output to the compaction's own
/// instructions, so the summary is asked to carry these.
pub const BEFORE_HEAD: &str = "ctxguard: the user set or confirmed these commitments earlier in this session, and they still hold. Keep every one of them in the summary word for word, exactly as written below: do not paraphrase, shorten, rename or merge them.";

/// Where the active commitments are given, and so how they are wrapped.
#[derive(Clone, Copy)]
enum Shape<'a> {
    /// SessionStart(`compact`): JSON, the commitments as context for the
    /// model, `notice` for the user.
    After { notice: Option<&'a str> },
    /// PreCompact: plain text, which the client appends to the
    /// compaction's instructions.
    Before,
}

impl Shape<'_> {
    /// Characters `text` takes in the output.
    fn cost(self, text: &str) -> usize {
        match self {
            Shape::After { .. } => json_len(text),
            Shape::Before => crate::facts::claude_code::output_len(text),
        }
    }
}

/// The output for `active` (in ledger order), grouped in the order of
/// `kinds` (unclassified last); `check` is what the summary just did;
/// `notice` is said to the user beside it.
pub fn reinject(
    active: &[&Active],
    kinds: &[String],
    session: &str,
    check: Option<&Check>,
    notice: Option<&str>,
) -> Option<Reinjection> {
    if active.is_empty() {
        return None;
    }
    let mut head = HEAD.to_owned();
    if let Some(check) = check {
        let ids: std::collections::HashSet<&str> =
            active.iter().map(|a| a.commitment.id.as_str()).collect();
        let is_active = |id: &&String| ids.contains(id.as_str());
        let lost = check.lost.iter().filter(|id| is_active(id)).count();
        let altered = check.altered.iter().filter(|id| is_active(id)).count();
        if lost + altered > 0 {
            head.push_str(&format!(
                " The summary lost {lost} and altered {altered} of them."
            ));
        }
    }
    fit(&head, active, kinds, session, Shape::After { notice })
}

/// What a PreCompact hook prints for `active`: the compaction's
/// instructions are asked to keep each word for word, under the same cap
/// and in the same order as [`reinject`].
pub fn instructions(active: &[&Active], kinds: &[String], session: &str) -> Option<Reinjection> {
    if active.is_empty() {
        return None;
    }
    fit(BEFORE_HEAD, active, kinds, session, Shape::Before)
}

/// The most of `active` that fits under [`OUTPUT_CAP`] in `shape`, by
/// priority; never a commitment cut.
fn fit(
    head: &str,
    active: &[&Active],
    kinds: &[String],
    session: &str,
    shape: Shape<'_>,
) -> Option<Reinjection> {
    let mut order: Vec<usize> = (0..active.len()).collect();
    order.sort_by_key(|&i| active[i].commitment.priority());
    let mut chosen = vec![false; active.len()];
    // Characters left for commitments: the cap less everything else, with
    // the longest footer and warning this output can have.
    let fixed = envelope(head, &[], active, kinds, session, active.len(), shape).len_chars();
    let mut room = OUTPUT_CAP.saturating_sub(fixed);
    let mut groups_open: Vec<&str> = Vec::new();
    for &i in &order {
        let commitment = &active[i].commitment;
        let mut cost = shape.cost(&item(active[i]));
        if !groups_open.contains(&commitment.kind.as_str()) {
            cost += shape.cost(&heading(&commitment.kind));
        }
        if cost <= room {
            room -= cost;
            chosen[i] = true;
            groups_open.push(&commitment.kind);
        }
    }
    // The estimate is exact but for the footer's numbers: never trust it.
    loop {
        let included: Vec<&Active> = (0..active.len())
            .filter(|&i| chosen[i])
            .map(|i| active[i])
            .collect();
        let built = envelope(
            head,
            &included,
            active,
            kinds,
            session,
            active.len() - included.len(),
            shape,
        );
        if built.len_chars() <= OUTPUT_CAP || included.is_empty() {
            return Some(Reinjection {
                stdout: built.stdout,
                context: built.context,
                included: included.iter().map(|a| a.commitment.id.clone()).collect(),
                omitted: (0..active.len())
                    .filter(|&i| !chosen[i])
                    .map(|i| active[i].commitment.id.clone())
                    .collect(),
                warning: built.warning,
            });
        }
        // Drop the last chosen in priority order and try again.
        if let Some(&last) = order.iter().rev().find(|&&i| chosen[i]) {
            chosen[last] = false;
        }
    }
}

struct Built {
    stdout: String,
    context: String,
    warning: Option<String>,
}

impl Built {
    /// The length Claude Code caps: the whole output bounds the context.
    fn len_chars(&self) -> usize {
        crate::facts::claude_code::output_len(&self.stdout)
    }
}

fn heading(kind: &str) -> String {
    match kind {
        "unclassified" => {
            "\nunclassified (the user's own sentences that no rule classified):\n".to_owned()
        }
        kind => format!("\n{kind}:\n"),
    }
}

fn item(active: &Active) -> String {
    let c = &active.commitment;
    // Keys the user gave; those ctxguard made (answers, plans) are noise.
    match (&c.key, c.derived) {
        (Some(key), crate::buffer::trace::Derived::Pin) => format!("- [{key}] {}\n", c.text),
        _ => format!("- {}\n", c.text),
    }
}

/// The whole output with `included`, saying that `omitted` more did not fit.
fn envelope(
    head: &str,
    included: &[&Active],
    active: &[&Active],
    kinds: &[String],
    session: &str,
    omitted: usize,
    shape: Shape<'_>,
) -> Built {
    let mut context = head.to_owned();
    context.push('\n');
    let rank = |kind: &str| {
        kinds
            .iter()
            .position(|k| k == kind)
            .unwrap_or(if kind == "unclassified" {
                usize::MAX
            } else {
                kinds.len()
            })
    };
    let mut groups: Vec<&str> = included
        .iter()
        .map(|a| a.commitment.kind.as_str())
        .collect();
    groups.sort_by_key(|kind| (rank(kind), *kind));
    groups.dedup();
    for kind in groups {
        context.push_str(&heading(kind));
        for a in included.iter().filter(|a| a.commitment.kind == kind) {
            context.push_str(&item(a));
        }
    }
    let notice = match shape {
        Shape::Before => {
            if omitted > 0 {
                context.push_str(&format!(
                    "\n{omitted} more commitments did not fit in the {OUTPUT_CAP} characters Claude Code takes from a hook; they still hold, and ctxguard gives them back after the compaction.\n"
                ));
            }
            return Built {
                stdout: context.clone(),
                context,
                warning: None,
            };
        }
        Shape::After { notice } => notice,
    };
    let warning = (omitted > 0).then(|| {
        context.push_str(&format!(
            "\n{omitted} more commitments did not fit in the {OUTPUT_CAP} characters Claude Code takes from a hook; they still hold. Read them with `ctxguard ledger list --session {session}`.\n"
        ));
        format!(
            "ctxguard: {} of {} commitments re-injected after compaction; {omitted} did not fit in Claude Code's {OUTPUT_CAP}-character hook output. List them: ctxguard ledger list --session {session}",
            included.len(),
            active.len()
        )
    });
    let mut output = json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": context,
        }
    });
    let said: Vec<&str> = notice.into_iter().chain(warning.as_deref()).collect();
    if !said.is_empty() {
        output["systemMessage"] = json!(said.join("\n"));
    }
    Built {
        stdout: output.to_string(),
        context,
        warning,
    }
}

/// Characters `text` takes inside a JSON string.
fn json_len(text: &str) -> usize {
    serde_json::to_string(text).map_or(text.len() * 6, |s| {
        crate::facts::claude_code::output_len(&s) - 2
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::trace::{Derived, RegionKind, Status};
    use crate::hook::ledger::{Commitment, Source};

    fn active(kind: &str, text: &str, derived: Derived) -> Active {
        Active {
            commitment: Commitment::new(
                &RegionKind::Commitment(kind.into()),
                None,
                text.to_owned(),
                derived,
                Source::default(),
            ),
            since: String::new(),
            line: 1,
            status: Status::Active,
            unpinned: false,
        }
    }

    #[test]
    fn everything_fits_grouped_by_kind_in_policy_order() {
        let all = [
            active("decision", "We use uuid keys.", Derived::Hint),
            active("constraint", "Do not drop \"columns\".", Derived::Pin),
        ];
        let refs: Vec<&Active> = all.iter().collect();
        let out = reinject(
            &refs,
            &["constraint".into(), "decision".into()],
            "s1",
            None,
            None,
        )
        .unwrap();
        assert!(out.omitted.is_empty() && out.warning.is_none());
        let constraint = out
            .context
            .find("constraint:\n- Do not drop \"columns\".")
            .unwrap();
        let decision = out.context.find("decision:\n- We use uuid keys.").unwrap();
        assert!(constraint < decision);
        let parsed: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(
            parsed["hookSpecificOutput"]["additionalContext"],
            out.context
        );
    }

    #[test]
    fn what_does_not_fit_is_named_never_cut() {
        // 400 sentences of 75 characters, emoji among them (two UTF-16 units
        // each, as Claude Code counts), 3 pins, one commitment longer than
        // the cap.
        let mut all: Vec<Active> = (0..400)
            .map(|n| {
                active(
                    "unclassified",
                    &format!("sentence {n:03} {}", "é\"\n😀".repeat(15)),
                    Derived::Sentence,
                )
            })
            .collect();
        all.push(active(
            "constraint",
            &"x".repeat(OUTPUT_CAP + 1),
            Derived::Pin,
        ));
        for n in 0..3 {
            all.push(active("constraint", &format!("pin {n}"), Derived::Pin));
        }
        let refs: Vec<&Active> = all.iter().collect();
        let out = reinject(&refs, &["constraint".into()], "s1", None, None).unwrap();
        assert!(out.stdout.encode_utf16().count() <= OUTPUT_CAP);
        assert!(
            out.stdout.encode_utf16().count() > OUTPUT_CAP - 200,
            "and fills it"
        );
        let parsed: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let context = parsed["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        for n in 0..3 {
            assert!(context.contains(&format!("- pin {n}\n")), "pins come first");
        }
        for id in &out.included {
            let a = all.iter().find(|a| &a.commitment.id == id).unwrap();
            assert!(context.contains(&a.commitment.text), "verbatim");
        }
        assert_eq!(out.included.len() + out.omitted.len(), all.len());
        let more = out.omitted.len();
        assert!(more > 1);
        assert!(context.contains(&format!("{more} more commitments did not fit")));
        assert!(context.contains("ctxguard ledger list --session s1"));
        assert!(parsed["systemMessage"]
            .as_str()
            .unwrap()
            .contains(&format!("{more} did not fit")));
    }
}
