//! What a compaction did to each thing the user told the agent: for every
//! user commitment of an imported event, whether the buffer after holds it
//! byte for byte (`verbatim`), in other words (`paraphrased`), changed
//! (`altered`: another identifier or number, a dropped negation, ordering
//! or scope word) or not at all (`lost`); and which sentences the summary
//! presents as the user's requirements that no user text before the
//! compaction supports (`invented`). A pure function of the event: offline,
//! no model, the same answer every run.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::buffer::plan::Entry;
use crate::buffer::trace::{Derived, RegionKind};
use crate::import::{self, Event, Origin};
use crate::policy::Policy;
use crate::verify::text::{self, Words};
use crate::verify::{verify, Options, Verdict};

/// What became of one commitment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Its text is in the buffer after, byte for byte.
    Verbatim,
    /// Not byte for byte, but a sentence after carries it.
    Paraphrased,
    /// The closest sentence changes it.
    Altered,
    /// Nothing after carries it.
    Lost,
    /// The summary is encrypted: what became of it cannot be told.
    Unauditable,
}

impl Outcome {
    /// Every outcome, in the order reports count them.
    pub const ALL: [Outcome; 5] = [
        Outcome::Verbatim,
        Outcome::Paraphrased,
        Outcome::Altered,
        Outcome::Lost,
        Outcome::Unauditable,
    ];

    /// `verbatim`, `paraphrased`, `altered`, `lost`, `unauditable`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Verbatim => "verbatim",
            Outcome::Paraphrased => "paraphrased",
            Outcome::Altered => "altered",
            Outcome::Lost => "lost",
            Outcome::Unauditable => "unauditable",
        }
    }
}

/// Why an outcome was decided: the sentence after that is closest.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Evidence {
    /// The closest sentence of the buffer after.
    pub sentence: String,
    /// The share of the commitment's words that sentence holds, 0 to 1.
    pub similarity: f64,
    /// What the sentence changes: identifiers, negation, ordering, scope.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// A word diff from the commitment to the sentence, for `altered`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// One user commitment and what became of it.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Commitment {
    /// The trace region's id in the imported trace.
    pub id: String,
    /// The 1-based line of the user record it came from.
    pub source_line: Option<u64>,
    /// The commitment as the user wrote it.
    pub text: String,
    /// Its kind, or `unclassified`.
    pub kind: String,
    /// How the kind was decided: `pin`, `answer`, `hint`, `sentence`.
    pub derived: Derived,
    /// What became of it.
    pub outcome: Outcome,
    /// The closest sentence after, unless it is there byte for byte.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
}

/// A sentence the summary presents as the user's that no user text
/// before the compaction supports.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Invented {
    /// The sentence of the summary.
    pub text: String,
    /// The 1-based line of the summary's record.
    pub line: u64,
    /// The best support any user text gives it, 0 to 1.
    pub support: f64,
}

/// The audit of one compaction.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(title = "ctxguard audited compaction")]
pub struct EventAudit {
    /// The session file.
    pub source_file: String,
    /// The runtime that wrote it.
    pub runtime: String,
    /// Which compaction, where, and its tokens.
    #[serde(flatten)]
    pub compaction: crate::import::Compaction,
    /// `verify`'s verdict on the imported trace and plan.
    pub verdict: Verdict,
    /// Commitments the user pinned; with none, the kinds were decided
    /// after the fact and every finding is a candidate, not a proof.
    pub pinned: usize,
    /// Each user commitment before the compaction, in trace order.
    pub commitments: Vec<Commitment>,
    /// Requirements the summary attributes to the user without support.
    pub invented: Vec<Invented>,
}

impl EventAudit {
    /// How many commitments had `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        self.commitments
            .iter()
            .filter(|c| c.outcome == outcome)
            .count()
    }
}

/// Below this share of its words in the closest sentence, nothing carries
/// a commitment.
const CARRIED: f64 = 0.55;
/// From this share, a sentence that changes an identifier or a negation is
/// the commitment altered, not another sentence.
const CLOSE: f64 = 0.4;
/// Below this support, a requirement the summary attributes to the user is
/// invented.
const SUPPORTED: f64 = 0.4;

/// Audits every event of an imported session.
pub fn audit(policy: &Policy, session: &import::Session) -> Vec<EventAudit> {
    let name = session.file.name();
    // What the user said before each compaction: every user message of its
    // buffer and of the buffers before it (a message summarized away early
    // still supports what a later summary says).
    let mut said: Vec<Words> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    session
        .events
        .iter()
        .enumerate()
        .map(|(n, event)| {
            for message in &event.trace {
                if matches!(message.origin, Origin::User | Origin::Answer)
                    && seen.insert((message.line, message.text.clone()))
                {
                    said.push(Words::of(&message.text));
                }
            }
            audit_event(policy, name, session.runtime.name(), n + 1, event, &said)
        })
        .collect()
}

fn audit_event(
    policy: &Policy,
    name: &str,
    runtime: &str,
    n: usize,
    event: &Event,
    said: &[Words],
) -> EventAudit {
    let (trace, plan, _) = import::classify(policy, name, event);
    let verdict = verify(policy, &trace, &plan, &Options::default()).verdict;
    let kept: std::collections::HashSet<&str> = plan
        .regions
        .iter()
        .filter_map(|region| match &region.entry {
            Entry::Keep { id } => Some(id.node.as_str()),
            _ => None,
        })
        .collect();
    let summary = event.summary.as_ref();
    let opaque = summary.is_some_and(|s| s.opaque);
    let summary_text = summary
        .filter(|s| !s.opaque)
        .map_or("", |s| s.text.as_str());
    let carried: Vec<&import::Message> = event
        .kept
        .iter()
        .filter_map(|&m| event.trace.get(m))
        .collect();
    let after = After::new(summary_text, &carried);
    let mut commitments = Vec::new();
    for region in &trace.regions {
        let Some(derived) = region.derived else {
            continue;
        };
        let text = region.content.as_text().into_owned();
        let (outcome, evidence) = if kept.contains(region.id.as_str()) {
            (Outcome::Verbatim, None)
        } else if opaque && !after.holds(&text) {
            (Outcome::Unauditable, None)
        } else {
            after.judge(&text, derived)
        };
        commitments.push(Commitment {
            id: region.id.clone(),
            source_line: region.source.as_ref().and_then(|s| s.line),
            kind: match &region.kind {
                RegionKind::Commitment(kind) => kind.clone(),
                _ => "unclassified".to_owned(),
            },
            derived,
            text,
            outcome,
            evidence,
        });
    }
    let invented = match summary {
        Some(summary) if !summary.opaque => invented(said, &summary.text, summary.line),
        _ => Vec::new(),
    };
    EventAudit {
        source_file: name.to_owned(),
        runtime: runtime.to_owned(),
        compaction: event.compaction(n),
        verdict,
        pinned: commitments
            .iter()
            .filter(|c| c.derived == Derived::Pin)
            .count(),
        commitments,
        invented,
    }
}

/// The buffer after a compaction, as commitments are looked for in it:
/// the summary, then the messages carried over. A paraphrase is looked for
/// in the summary and in the prose carried over, not in tool calls and
/// tool output, which only share words.
pub(crate) struct After {
    /// Everything the model sees after, for byte-for-byte matches.
    all: String,
    /// `all`, lower-cased, for the options of a choice.
    lower: String,
    /// The summary and the prose carried over.
    prose: String,
    /// The words of `prose`.
    words: Words,
    /// Each sentence of `prose` (its byte range) and its words.
    sentences: Vec<(std::ops::Range<usize>, Words)>,
}

impl After {
    /// The buffer a summary and the messages carried over make.
    pub(crate) fn new(summary: &str, carried: &[&import::Message]) -> After {
        let mut all = summary.to_owned();
        let mut prose = summary.to_owned();
        for message in carried {
            all.push('\n');
            all.push_str(&message.text);
            if message.origin != Origin::Tool {
                for line in message.text.lines().filter(|line| !line.starts_with('[')) {
                    prose.push('\n');
                    prose.push_str(line);
                }
            }
        }
        let sentences = text::sentences(&prose)
            .into_iter()
            .map(|(at, sentence)| (at..at + sentence.len(), Words::of(sentence)))
            .collect();
        After {
            lower: all.to_lowercase(),
            words: Words::of(&prose),
            all,
            prose,
            sentences,
        }
    }

    /// Whether `text` stands in the buffer after byte for byte.
    pub(crate) fn holds(&self, text: &str) -> bool {
        self.all.contains(text)
    }

    /// What became of a commitment of `text`, derived as `derived`.
    pub(crate) fn judge(&self, text: &str, derived: Derived) -> (Outcome, Option<Evidence>) {
        if self.holds(text) {
            return (Outcome::Verbatim, None);
        }
        if let Some(choice) = choice_kept(derived, text, &self.lower) {
            return (Outcome::Paraphrased, Some(choice));
        }
        let candidates = self
            .sentences
            .iter()
            .filter_map(|(range, words)| Some((self.prose.get(range.clone())?, words)));
        judge(text, candidates, &self.words)
    }
}

/// A commitment not there byte for byte: the closest sentence after, and
/// whether it carries, changes or misses the commitment.
/// Falls back on [`spread`] when no one sentence carries it.
fn judge<'c>(
    commitment: &str,
    candidates: impl IntoIterator<Item = (&'c str, &'c Words)>,
    after: &Words,
) -> (Outcome, Option<Evidence>) {
    let wanted = Words::of(commitment);
    let score = |words: &Words| {
        let shared_ids = carried_identifiers(&wanted, words);
        let id_bonus = match wanted.identifiers.len() {
            0 => 0.0,
            n => 0.25 * shared_ids as f64 / n as f64,
        };
        wanted.covered_by(words) + id_bonus
    };
    let best = candidates
        .into_iter()
        .map(|(sentence, words)| (score(words), sentence, words))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let Some((_, sentence, words)) = best else {
        return spread(&wanted, after).unwrap_or((Outcome::Lost, None));
    };
    let similarity = (wanted.covered_by(words) * 100.0).round() / 100.0;
    let changes = changes(&wanted, words);
    let carried = carried_identifiers(&wanted, words);
    let shares_identifier = carried > 0;
    // Every identifier carried: the sentence names what the commitment names.
    let names_it = shares_identifier && carried == wanted.identifiers.len();
    // Two words or fewer ("you run it", "where we at?") say too little to
    // be found in other words: only its names can carry it.
    let enough = wanted.content.len() >= 3 || names_it;
    let outcome = if !enough {
        Outcome::Lost
    } else if changes.is_empty() && (similarity >= CARRIED || (names_it && similarity >= CLOSE)) {
        Outcome::Paraphrased
    } else if !changes.is_empty()
        && (similarity >= CARRIED || (similarity >= CLOSE && shares_identifier))
    {
        Outcome::Altered
    } else {
        Outcome::Lost
    };
    let diff = (outcome == Outcome::Altered)
        .then(|| crate::verify::difference::word_diff(commitment, sentence));
    let evidence = (similarity > 0.0).then(|| Evidence {
        sentence: sentence.to_owned(),
        similarity,
        changes,
        diff,
    });
    match outcome {
        Outcome::Lost => spread(&wanted, after).unwrap_or((Outcome::Lost, evidence)),
        judged => (judged, evidence),
    }
}

/// A choice the user made in a question: carried when the chosen option
/// stands in the buffer after as written, however the question is put.
/// `after_lower` is the buffer after, lower-cased.
fn choice_kept(derived: Derived, text: &str, after_lower: &str) -> Option<Evidence> {
    if derived != Derived::Answer {
        return None;
    }
    let (_, choice) = text.rsplit_once(import::ANSWER_MARK)?;
    // Option labels carry remarks such as "(Recommended)": the choice is the rest.
    let choice = match choice.trim().rsplit_once(" (") {
        Some((label, remark)) if remark.ends_with(')') => label,
        _ => choice.trim(),
    };
    let found = after_lower.contains(&choice.to_lowercase());
    found.then(|| Evidence {
        sentence: format!("the choice \"{choice}\" stands in the summary"),
        similarity: 1.0,
        changes: Vec::new(),
        diff: None,
    })
}

/// A commitment that is a list of names (files, paths, flags), carried
/// across several lines of the summary (a table, a tree) rather than in one
/// sentence: paraphrased when every one of at least two names is there.
fn spread(wanted: &Words, after: &Words) -> Option<(Outcome, Option<Evidence>)> {
    let count = wanted.identifiers.len();
    (count >= 2 && carried_identifiers(wanted, after) == count).then(|| {
        (
            Outcome::Paraphrased,
            Some(Evidence {
                sentence: format!(
                    "each of its {count} names stands in the summary, over several lines"
                ),
                similarity: wanted.covered_by(after),
                changes: Vec::new(),
                diff: None,
            }),
        )
    })
}

/// Two identifiers name the same thing when they are equal or one is the
/// other with more of its path: `packages/a/b.ts` and `/home/me/packages/a/b.ts`.
fn same_identifier(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long == short
        || (short.contains('/')
            && long.ends_with(short)
            && long[..long.len() - short.len()].ends_with('/'))
}

/// How many of `before`'s identifiers `after` names.
fn carried_identifiers(before: &Words, after: &Words) -> usize {
    before
        .identifiers
        .iter()
        .filter(|a| after.identifiers.iter().any(|b| same_identifier(a, b)))
        .count()
}

/// What `after` changes of `before`'s meaning.
fn changes(before: &Words, after: &Words) -> Vec<String> {
    let mut changes = Vec::new();
    let added: Vec<&String> = after
        .identifiers
        .iter()
        .filter(|b| !before.identifiers.iter().any(|a| same_identifier(a, b)))
        .collect();
    let missing = before
        .identifiers
        .iter()
        .filter(|a| !after.identifiers.iter().any(|b| same_identifier(a, b)));
    for identifier in missing {
        let closest = added
            .iter()
            .max_by_key(|other| common_prefix(identifier, other))
            .filter(|other| common_prefix(identifier, other) > 0);
        changes.push(match closest {
            Some(other) => format!("`{identifier}` became `{other}`"),
            None => format!("`{identifier}` is missing"),
        });
    }
    if before.negated && !after.negated {
        changes.push("the negation is gone".to_owned());
    }
    if !before.negated && after.negated {
        changes.push("a negation was added".to_owned());
    }
    for word in before.ordering.difference(&after.ordering) {
        changes.push(format!("the ordering word `{word}` is gone"));
    }
    for word in before.scope.difference(&after.scope) {
        changes.push(format!("the scope word `{word}` is gone"));
    }
    for word in after.scope.difference(&before.scope) {
        changes.push(format!("the scope word `{word}` was added"));
    }
    changes
}

fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// Headings under which a summary lists rules it says the user set
/// ("User Preferences", "Constraints"): not the user's messages or intent,
/// which summaries restate in their own words.
static USER_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)\b(preferences?|requirements?|constraints?|rules|instructions)\b")
        .expect("the heading pattern compiles")
});

/// Sentences that state a requirement.
static REQUIREMENT: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Regex::new(r"(?i)\b(the )?user (wants|prefers|requires|insists|expects|requested|asked for|demands|likes)\b")
        .expect("the requirement pattern compiles")
});

/// The summary's sentences presented as the user's requirements that no
/// user message before the compaction supports (an earlier summary is no
/// support: it may have invented the same thing).
pub(crate) fn invented(support: &[Words], summary: &str, line: u64) -> Vec<Invented> {
    let mut heading_is_user = false;
    let mut found = Vec::new();
    for raw in summary.lines() {
        let trimmed = raw.trim();
        // A Markdown heading, or a short line ending in a colon that is not a list item.
        let item = trimmed.starts_with(['-', '*', '+']);
        let heading =
            trimmed.starts_with('#') || (!item && trimmed.ends_with(':') && trimmed.len() < 80);
        if heading {
            heading_is_user = USER_HEADING.is_match(trimmed);
            continue;
        }
        for (_, sentence) in text::sentences(raw) {
            if !(heading_is_user || REQUIREMENT.is_match(sentence)) {
                continue;
            }
            let words = Words::of(sentence);
            if words.content.len() < 3 {
                continue;
            }
            let best = support
                .iter()
                .map(|user| words.covered_by(user))
                .fold(0.0_f64, f64::max);
            if best < SUPPORTED {
                found.push(Invented {
                    text: sentence.to_owned(),
                    line,
                    support: (best * 100.0).round() / 100.0,
                });
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_names_the_same_file_with_more_of_its_path() {
        assert!(same_identifier(
            "packages/a/b.ts",
            "/home/me/packages/a/b.ts"
        ));
        assert!(!same_identifier("a/b.ts", "/home/me/xa/b.ts"));
        assert!(
            !same_identifier("b.ts", "/home/me/b.ts"),
            "a bare name is no path"
        );
    }

    #[test]
    fn judging_a_commitment() {
        let judged = |commitment: &str, after: &'static str| {
            judge(commitment, [(after, &Words::of(after))], &Words::of(after))
        };
        // The same words, another order: paraphrased.
        let (outcome, _) = judged(
            "Keep the old code for reference.",
            "For reference, the old code is kept.",
        );
        assert_eq!(outcome, Outcome::Paraphrased);
        // A negation dropped: altered.
        let (outcome, evidence) = judged("Do not drop the users table.", "Drop the users table.");
        assert_eq!(outcome, Outcome::Altered);
        assert_eq!(
            evidence.map(|e| e.changes),
            Some(vec!["the negation is gone".to_owned()])
        );
        // Nothing like it: lost.
        let (outcome, _) = judged("Deploy on Fridays only.", "The build passes.");
        assert_eq!(outcome, Outcome::Lost);
        // Names spread over a tree carry a list of names.
        let after = Words::of("├── config.ts\n├── fuzzy.ts\n└── shell.ts");
        assert!(matches!(
            spread(&Words::of("config.ts, fuzzy.ts -> utils"), &after),
            Some((Outcome::Paraphrased, _))
        ));
        assert!(spread(&Words::of("config.ts, other.ts -> utils"), &after).is_none());
        // A hyphenated name changed is an altered quote.
        let (outcome, _) = judged(
            "use lenovo-legion-linux cli to increase my fan speed",
            "1. \"use lenovo-legion cli to increase my fan speed\"",
        );
        assert_eq!(outcome, Outcome::Altered);
        // Two words say too little to be found in other words.
        let (outcome, _) = judged("where we at?", "Continue from where we left it off.");
        assert_eq!(outcome, Outcome::Lost);
    }

    #[test]
    fn a_choice_is_carried_by_the_option_chosen() {
        let text = format!("Which primary key? {}uuid", import::ANSWER_MARK);
        assert!(choice_kept(Derived::Answer, &text, "The user chose uuid keys.").is_some());
        assert!(choice_kept(Derived::Answer, &text, "The user chose bigint keys.").is_none());
        assert!(choice_kept(Derived::Sentence, &text, "uuid").is_none());
        let text = format!(
            "Which type? {}COSMIC Panel Applet (Recommended)",
            import::ANSWER_MARK
        );
        assert!(choice_kept(Derived::Answer, &text, "user chose: cosmic panel applet").is_some());
    }
}
