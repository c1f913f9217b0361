//! What each compaction of a session did to each thing the user told the
//! agent. Every compaction is judged against every commitment still
//! binding in the whole session — the user's own words, wherever they were
//! typed, not only those since the previous compaction — so a commitment
//! the first summary kept and the second dropped is reported at the second,
//! with its history. For each: whether the buffer after holds it as a unit
//! (`verbatim`), in other words (`paraphrased`), changed (`altered`: another
//! identifier or number, a dropped negation, ordering or scope word) or not
//! at all (`lost`); and which sentences the summary presents as the user's
//! requirements that nothing the user said supports (`invented`).
//!
//! What the user typed is cut into units ([`units`]); units that do not
//! bind — questions, acknowledgements, Markdown debris, pasted output — are
//! set apart ([`binding`]), counted and listed, never reported as losses.
//! A pure function of the session: offline, no model, the same answer
//! every run.

mod binding;
mod invented;
mod judge;
mod units;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

pub use binding::NotBinding;
pub(crate) use invented::invented;
pub(crate) use judge::After;
pub(crate) use units::units;

use crate::buffer::trace::{Derived, RegionKind};
use crate::import::{self, Event, Origin, ANSWER_MARK};
use crate::policy::Policy;
use crate::verify::text::Words;

/// What became of one commitment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// It stands in the buffer after as the user wrote it.
    Verbatim,
    /// Not as written, but the buffer after carries its meaning.
    Paraphrased,
    /// The closest passage changes its meaning.
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

    /// Altered or lost: what a person must be told.
    pub fn is_loss(self) -> bool {
        matches!(self, Outcome::Altered | Outcome::Lost)
    }
}

/// Why an outcome was decided: the passage after that is closest.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Evidence {
    /// The closest passage of the buffer after (one to three of its
    /// sentences, list items or rows).
    pub sentence: String,
    /// The share of the commitment's words that passage holds, 0 to 1.
    pub similarity: f64,
    /// What the passage changes (identifiers, negation, ordering, scope),
    /// or how it quotes the commitment.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<String>,
    /// A word diff from the commitment to the passage, for `altered`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

/// What became of a commitment at an earlier compaction of the session.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Earlier {
    /// The compaction, N from 1.
    pub event: usize,
    /// What became of the commitment there.
    pub outcome: Outcome,
}

/// One user commitment and what became of it.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Commitment {
    /// Its id in the session: `l` and its line, `.N` for the Nth unit of a line.
    pub id: String,
    /// The 1-based line of the record it came from.
    pub source_line: Option<u64>,
    /// The commitment as the user wrote it (a choice: `QUESTION → CHOICE`).
    pub text: String,
    /// Its kind, or `unclassified`.
    pub kind: String,
    /// How the kind was decided: `pin`, `answer`, `hint`, `sentence`.
    pub derived: Derived,
    /// What became of it.
    pub outcome: Outcome,
    /// The closest passage after, unless it stands there as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// What became of it at the session's earlier compactions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<Earlier>,
}

/// A unit the user typed that does not bind: never judged as a loss.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SetApart {
    /// The 1-based line of the record it came from.
    pub source_line: Option<u64>,
    /// The unit as the user wrote it.
    pub text: String,
    /// Why it does not bind.
    pub why: NotBinding,
}

/// A sentence the summary presents as the user's requirement or choice
/// that nothing the user said before the compaction supports.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Invented {
    /// The sentence of the summary.
    pub text: String,
    /// The 1-based line of the summary's record.
    pub line: u64,
    /// The best support the user's messages give it, 0 to 1.
    pub support: f64,
}

/// The audit's verdict on one compaction: what happened to the user's
/// commitments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every commitment is in the buffer after, as written or in other
    /// words, and nothing is invented.
    Kept,
    /// A commitment was altered or lost, or a requirement invented.
    Lost,
    /// What became of the user's commitments cannot be told: the summary
    /// is encrypted or missing.
    Unauditable,
}

impl Verdict {
    /// `kept`, `lost`, `unauditable`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Kept => "kept",
            Verdict::Lost => "lost",
            Verdict::Unauditable => "unauditable",
        }
    }
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
    /// What happened to the user's commitments.
    pub verdict: Verdict,
    /// Why, in a sentence.
    pub reason: String,
    /// Commitments the user pinned; with none, the kinds were decided
    /// after the fact and every finding is a candidate, not a proof.
    pub pinned: usize,
    /// Each commitment still binding at this compaction, in the order the
    /// user made them.
    pub commitments: Vec<Commitment>,
    /// What the user typed before it that does not bind.
    #[serde(default)]
    pub set_apart: Vec<SetApart>,
    /// Requirements the summary attributes to the user without support.
    pub invented: Vec<Invented>,
    /// What the import could not be sure of: a buffer rebuilt from file
    /// order, a summary missing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
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

/// A commitment of the session as it is followed from compaction to
/// compaction.
struct Said {
    id: String,
    line: u64,
    text: String,
    kind: String,
    derived: Derived,
    /// For a choice: the question and the option chosen.
    answer: Option<(String, String)>,
    /// Restated or withdrawn later: no longer judged.
    superseded: bool,
    history: Vec<Earlier>,
    /// The text folded, and its content words: what a later restatement
    /// is compared with, made once rather than at every later one.
    folded: String,
    content: std::collections::BTreeSet<String>,
}

/// Audits every compaction of an imported session.
pub fn audit(policy: &Policy, session: &import::Session) -> Vec<EventAudit> {
    let name = session.file.name();
    let runtime = session.runtime.name();
    let mut said: Vec<Said> = Vec::new();
    let mut set_apart: Vec<SetApart> = Vec::new();
    // Every user message so far, as support for what a summary attributes.
    let mut support: Vec<(String, Words)> = Vec::new();
    let mut seen: std::collections::HashSet<(u64, String)> = std::collections::HashSet::new();
    let mut per_line: HashMap<u64, usize> = HashMap::new();
    let mut last_line: Option<u64> = None;
    // The user's last message, and its line: what a message sent again
    // supersedes.
    let mut last_sent: Option<(u64, String)> = None;
    let mut audits = Vec::new();
    for (n, event) in session.events.iter().enumerate() {
        for (m, message) in event.trace.iter().enumerate() {
            if !matches!(
                message.origin,
                Origin::User | Origin::Answer | Origin::Plan | Origin::Command
            ) || !seen.insert((message.line, message.text.clone()))
            {
                continue;
            }
            support.push((message.text.clone(), Words::of(&message.text)));
            // An approved plan supports what the user asked; its words are
            // the agent's, and bind only as the user's go-ahead to it. A
            // command the user ran supports "the user ran /review".
            if matches!(message.origin, Origin::Plan | Origin::Command) {
                continue;
            }
            // A message that takes back the one before it, or gives a new
            // value for what it set ("make it 50"): what that one asked no
            // longer binds.
            if message.origin == Origin::User
                && (WITHDRAWS.is_match(&message.text) || NEW_VALUE.is_match(message.text.trim()))
            {
                if let Some(last) = last_line {
                    for earlier in said.iter_mut().filter(|s| s.line == last) {
                        earlier.superseded = true;
                    }
                }
            }
            // So does the user's message that sends their last one again
            // (interrupted, typed again with a word more): the later says it.
            if message.origin == Origin::User {
                if let Some((line, _)) = last_sent
                    .as_ref()
                    .filter(|(_, text)| sent_again(text, &message.text))
                {
                    for earlier in said.iter_mut().filter(|s| s.line == *line) {
                        earlier.superseded = true;
                    }
                }
                last_sent = Some((message.line, message.text.clone()));
            }
            last_line = Some(message.line);
            let answering = asked_before(&event.trace[..m]);
            // "yes option 1": a short reply to the choices the agent put
            // makes the option chosen the user's, in the agent's words.
            if answering
                && message.origin == Origin::User
                && message.text.split_whitespace().count() <= 6
            {
                if let Some(offered) = last_agent(&event.trace[..m]) {
                    support.push((offered.text.clone(), Words::of(&offered.text)));
                }
            }
            for found in message_units(policy, message, answering) {
                match found {
                    Found::Binds {
                        text,
                        kind,
                        derived,
                        answer,
                    } => {
                        let k = per_line.entry(message.line).or_default();
                        *k += 1;
                        let id = match *k {
                            1 => format!("l{}", message.line),
                            k => format!("l{}.{k}", message.line),
                        };
                        let folded = judge::fold(&text);
                        let content = Words::of(&text).content;
                        supersede(&mut said, &folded, &content);
                        said.push(Said {
                            id,
                            line: message.line,
                            text,
                            kind,
                            derived,
                            answer,
                            superseded: false,
                            history: Vec::new(),
                            folded,
                            content,
                        });
                    }
                    Found::Apart(apart) => set_apart.push(apart),
                }
            }
        }
        audits.push(audit_event(
            name,
            runtime,
            n + 1,
            event,
            &mut said,
            &set_apart,
            &support,
        ));
    }
    audits
}

/// What one unit of a user's message is.
enum Found {
    Binds {
        text: String,
        kind: String,
        derived: Derived,
        answer: Option<(String, String)>,
    },
    Apart(SetApart),
}

/// The units of a user's message: pinned lines as pinned, a choice as a
/// decision, the rest cut into units, each binding or set apart.
fn message_units(policy: &Policy, message: &import::Message, answering: bool) -> Vec<Found> {
    if message.origin == Origin::Answer {
        let answer = message
            .text
            .split_once(&format!(" {ANSWER_MARK}"))
            .map(|(q, a)| (q.to_owned(), a.to_owned()));
        // A question left unanswered holds no choice; one that only moves
        // an interview along ("Next area", "Done") holds nothing that lasts.
        if answer.as_ref().is_some_and(|(_, a)| a.trim().is_empty()) {
            return vec![Found::Apart(SetApart {
                source_line: Some(message.line),
                text: message.text.clone(),
                why: NotBinding::Fragment,
            })];
        }
        if answer.as_ref().is_some_and(|(_, a)| moves_on(a)) {
            return vec![Found::Apart(SetApart {
                source_line: Some(message.line),
                text: message.text.clone(),
                why: NotBinding::Acknowledgement,
            })];
        }
        let kind = match import::classify::answer_kind(policy) {
            RegionKind::Commitment(kind) => kind,
            _ => "unclassified".to_owned(),
        };
        return vec![Found::Binds {
            text: message.text.clone(),
            kind,
            derived: Derived::Answer,
            answer,
        }];
    }
    let typed = typed_units(policy, &message.text, answering);
    let mut found: Vec<Found> = typed
        .binds
        .into_iter()
        .map(|piece| Found::Binds {
            kind: match piece.kind {
                RegionKind::Commitment(kind) => kind,
                _ => "unclassified".to_owned(),
            },
            text: piece.text,
            derived: piece.derived.unwrap_or(Derived::Sentence),
            answer: None,
        })
        .collect();
    found.extend(typed.apart.into_iter().map(|(text, why)| {
        Found::Apart(SetApart {
            source_line: Some(message.line),
            text,
            why,
        })
    }));
    found
}

/// What the user typed, unit by unit.
pub(crate) struct Typed {
    /// The units that bind: pinned lines (`pin KIND [KEY]: TEXT`), then
    /// units of the kind whose hint they match, or unclassified.
    pub binds: Vec<import::classify::Piece>,
    /// The units set apart, and why.
    pub apart: Vec<(String, NotBinding)>,
    /// Pins of kinds the policy does not declare.
    pub unknown: Vec<import::classify::UnknownPin>,
    /// Statements set apart because the message held more than
    /// [`MATERIAL`]: what was handed over, not said.
    pub material: usize,
}

/// The most statements one message can bind without pins: the most any
/// real session of the corpora holds in one message is 82 (a ruleset the
/// user wrote for the agent, section by section). Beyond it, the message
/// is material handed over, and a paste of 40,000 lines does not become
/// 40,000 commitments that no compaction can hold.
pub const MATERIAL: usize = 160;

/// What the user typed in one message, cut into units: what binds, what is
/// set apart and why. `answering`: the agent's message before it offered
/// a choice, so a short reply is one. The audit and the live guard both
/// read what the user typed through this.
pub(crate) fn typed_units(policy: &Policy, text: &str, answering: bool) -> Typed {
    // A backslash that ends a line is how a terminal prompt takes a line
    // break (Claude Code's multi-line input): the user's words are the
    // lines, and a blank line between them still ends a paragraph.
    let joined;
    let text = if text.contains("\\\n") {
        joined = text.replace("\\\n", "\n");
        joined.as_str()
    } else {
        text
    };
    let mut typed = Typed {
        binds: Vec::new(),
        apart: Vec::new(),
        unknown: Vec::new(),
        material: 0,
    };
    let mut prose = String::new();
    let context = binding::Context { answering };
    // Statements that bind so far, pins aside.
    let mut statements = 0;
    let mut flush = |prose: &mut String, typed: &mut Typed| {
        let message = binding::Prose::new(prose);
        let cut = units(prose);
        // "Build this." under a list the user pasted: the list's remarks
        // are what they ask for.
        let adopted = cut.len() > 1
            && cut.iter().any(|unit| {
                binding::adopts(unit.text(prose))
                    && binding::binding(unit, &message, context).is_ok()
            });
        let count = cut.len();
        for (n, unit) in cut.into_iter().enumerate() {
            let text = unit.text(prose).to_owned();
            // Past the bound the message is material whatever the rest
            // is: the rest is set apart unjudged.
            if statements > MATERIAL {
                typed.material += 1;
                typed.apart.push((text, NotBinding::Pasted));
                continue;
            }
            let verdict = match binding::binding(&unit, &message, context) {
                // What opens each line or paragraph of the list names what
                // is asked ("Custom Fields on Contacts — store email, …");
                // what follows it in the paragraph comments on it
                // ("ManyChat charges for this.").
                Err(NotBinding::Remark) if adopted && opens_line(prose, unit.range.start) => Ok(()),
                verdict => verdict,
            };
            // Words typed on the line where a pasted log starts or ends are
            // the user's, judged as such; the output around them is not.
            let mut edges = Vec::new();
            if verdict == Err(NotBinding::Pasted) && unit.shape != units::Shape::Code {
                for edge in binding::typed_edges(&text, n == 0, n + 1 == count) {
                    let at = unit.range.start + edge.start..unit.range.start + edge.end;
                    let said = units::Unit {
                        range: at,
                        shape: units::Shape::Sentence,
                    };
                    let words = said.text(prose);
                    if binding::words_bind(&said, words, &message, answering).is_ok() {
                        edges.push(words.to_owned());
                    }
                }
            }
            for text in edges {
                statements += 1;
                typed.binds.push(piece(policy, text));
            }
            match verdict {
                Ok(()) => {
                    statements += 1;
                    typed.binds.push(piece(policy, text));
                }
                Err(why) => typed.apart.push((text, why)),
            }
        }
        prose.clear();
    };
    // A document handed over (a spec, a report pasted whole, with its
    // headings) is the user's material, not the user's words: only what they
    // wrote before it is read for commitments.
    let own;
    let (text, document) = match document_start(text) {
        Some(at) => match quoted_document(&text[..at], &text[at..]) {
            // What the user wrote after the quotation closed is theirs too.
            (document, after) if !after.trim().is_empty() => {
                own = format!("{}\n\n{}", &text[..at], after.trim_start());
                (own.as_str(), Some(document))
            }
            (document, _) => (&text[..at], Some(document)),
        },
        None => (text, None),
    };
    if let Some(document) = document {
        for unit in units(document) {
            typed
                .apart
                .push((unit.text(document).to_owned(), NotBinding::Pasted));
        }
    }
    for line in text.split_inclusive('\n') {
        let Some(pin) = import::pin(line) else {
            prose.push_str(line);
            continue;
        };
        flush(&mut prose, &mut typed);
        let kind = if policy.kind(&pin.kind).is_some() {
            RegionKind::Commitment(pin.kind.clone())
        } else {
            let names = policy.kinds.iter().map(|k| k.name.as_str());
            let suggestion = crate::diagnostics::suggest::did_you_mean(&pin.kind, names);
            typed.unknown.push(import::classify::UnknownPin {
                kind: pin.kind.clone(),
                suggestion: suggestion.map(str::to_owned),
            });
            RegionKind::Unclassified
        };
        typed.binds.push(import::classify::Piece {
            kind,
            key: pin.key,
            text: pin.text,
            derived: Some(Derived::Pin),
            hint: None,
        });
    }
    flush(&mut prose, &mut typed);
    // More statements than anyone types as rules in one message: material
    // handed over (a long document, a chat pasted back), not the user's
    // commitments. Only what they pinned in it binds.
    if statements > MATERIAL {
        let (pins, material): (Vec<_>, Vec<_>) = std::mem::take(&mut typed.binds)
            .into_iter()
            .partition(|p| p.derived == Some(Derived::Pin));
        typed.binds = pins;
        typed.material += material.len();
        typed
            .apart
            .extend(material.into_iter().map(|p| (p.text, NotBinding::Pasted)));
    }
    typed
}

/// Whether `at` opens its line of `text`: only white space, or a list
/// marker, before it.
fn opens_line(text: &str, at: usize) -> bool {
    let start = units::line_start(text, at);
    text[start..at].chars().all(|c| {
        c.is_whitespace() || matches!(c, '-' | '*' | '+' | '.' | ')') || c.is_ascii_digit()
    })
}

/// A unit that binds, of the kind whose hint it matches, or unclassified.
fn piece(policy: &Policy, text: String) -> import::classify::Piece {
    match policy.first_hint(&text) {
        Some((k, hint)) => import::classify::Piece {
            kind: RegionKind::Commitment(policy.kinds[k].name.clone()),
            key: None,
            text,
            derived: Some(Derived::Hint),
            hint: Some(hint.pattern.clone()),
        },
        None => import::classify::Piece {
            kind: RegionKind::Unclassified,
            key: None,
            text,
            derived: Some(Derived::Sentence),
            hint: None,
        },
    }
}

/// A choice that only moves an interview along: "Next area", "Done — create
/// context", "Skip", "Continue".
fn moves_on(choice: &str) -> bool {
    let folded = judge::fold(choice);
    [
        "next", "done", "continue", "skip", "move on", "proceed", "finish",
    ]
    .iter()
    .any(|word| {
        folded == *word
            || folded
                .strip_prefix(word)
                .is_some_and(|rest| rest.starts_with([' ', ',', '—', '-', '.']))
    })
}

/// Where a document pasted into a message starts: in a message of 1,500
/// characters or more with two Markdown headings or more, at the first of
/// them. Lines marked `#` one after another at the same level, nothing
/// between them, are the user's list written with `#` for bullets ("#
/// every module follows one standard"), not a document's headings.
fn document_start(text: &str) -> Option<usize> {
    if text.len() < 1500 {
        return None;
    }
    // Where each line starts, of the lines that are headings, not bullets.
    let mut headings = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .filter(|&at| at < text.len())
        .filter(|&at| units::heading_at(text, at).is_some_and(|(_, _, bullet)| !bullet));
    let first = headings.next()?;
    // A message that opens with its first heading is the user's own brief
    // ("# System prompt — …", a task written up as a document): there is
    // nothing of theirs before it for it to be handed over with. So is a
    // prompt written for the agent and handed over as one ("Here is the
    // prompt for Claude: # PROMPT FOR CLAUDE … You are a senior engineer").
    let mut end = text.len().min(first + 600);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let brief = BRIEF.is_match(&text[first..end]);
    (!text[..first].trim().is_empty() && !brief && headings.next().is_some()).then_some(first)
}

/// A document the user put in quotation marks (`build this "# Research
/// … ---" BUILD SOMETHING SIMILAR`), the quotation opened before where
/// the document starts: the document up to where the quotation closes,
/// and what follows it. A document not opened by a
/// quotation mark runs to the end.
fn quoted_document<'t>(before: &str, document: &'t str) -> (&'t str, &'t str) {
    // A quotation opened before the document and not closed there.
    let opened = before.matches('"').count() % 2 == 1
        || before.matches('“').count() > before.matches('”').count()
        || before.matches('«').count() > before.matches('»').count();
    let closed = document
        .rfind(['"', '”', '»'])
        .filter(|&at| at * 2 > document.len());
    match closed {
        Some(at) if opened => {
            let after = &document[at..];
            let close = after.chars().next().map_or(1, char::len_utf8);
            let rest = &after[close..];
            // Words of the user's after it, not a quotation inside the
            // document that happens to end late.
            if rest.split_whitespace().count() >= 3 && !rest.contains(['"', '”']) {
                (&document[..at], rest)
            } else {
                (document, "")
            }
        }
        _ => (document, ""),
    }
}

/// How a document written as a prompt for the agent opens: a heading that
/// names a prompt or a task, or a role given to the agent.
static BRIEF: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r"(?im)^#+\s*(\w+\s+)?(prompt|system\s+prompt|task|brief|instructions)\b|^\W*(you\s+are\s+(a|an)\s+\w+|your\s+(task|job|role|mission)\s+is)\b",
    )
    .expect("the brief pattern compiles")
});

/// Whether the agent's last message before the user's asked them to
/// choose: a question in its closing paragraph that offers alternatives
/// ("pacman or rustup?", numbered options).
fn asked_before(trace: &[import::Message]) -> bool {
    let Some(last) = last_agent(trace) else {
        return false;
    };
    let tail: String = last
        .text
        .chars()
        .rev()
        .take(600)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    tail.contains('?') && CHOICES.is_match(&tail)
}

/// The agent's message the user's next one answers, if the last message
/// before it (tool output and the runtime's text aside) is the agent's.
fn last_agent(trace: &[import::Message]) -> Option<&import::Message> {
    trace
        .iter()
        .rev()
        .find(|m| m.origin != Origin::Tool && m.origin != Origin::Runtime)
        .filter(|last| last.origin == Origin::Assistant)
}

/// Words of a question that offers alternatives.
static CHOICES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r"(?im)\bor\b|\boder\b|\bwhich\b|\bwelche[rsn]?\b|\boption|^\s*(\d+[.)]|[-*])\s",
    )
    .expect("the choices pattern compiles")
});

/// Whether `now` sends `before` again: all of its text, its spaces and
/// line breaks aside, stands in `now` (a prompt interrupted and sent
/// again, perhaps with a word more). Only a message of some length: "yes"
/// twice is two answers.
fn sent_again(before: &str, now: &str) -> bool {
    let squeezed = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let (before, now) = (squeezed(before), squeezed(now));
    before.chars().count() >= 40 && now.contains(&before)
}

/// A commitment restated (an interrupted prompt typed again, the same
/// request in nearly the same words) is one commitment: the later says it.
fn supersede(said: &mut [Said], folded: &str, content: &std::collections::BTreeSet<String>) {
    for earlier in said.iter_mut().filter(|s| !s.superseded) {
        let same = earlier.folded == folded || {
            let (a, b) = (&earlier.content, content);
            let shared = a.intersection(b).count();
            a.len().min(b.len()) >= 4 && shared * 4 >= a.union(b).count() * 3
        };
        if same {
            earlier.superseded = true;
        }
    }
}

/// A short message that gives a new value for what the message before it
/// set: "make it 50", "actually 100", "no, 0.5 instead".
static NEW_VALUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"(?i)^(no,?\s+|actually,?\s+|make\s+it\s+|change\s+it\s+to\s+)[\w./:-]*\d[\w./:%-]*(\s+instead)?[.!]?$")
        .expect("the new-value pattern compiles")
});

/// Words with which a user takes back what they said last ("actually,
/// scratch that", "revert that", "stattdessen …").
static WITHDRAWS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"(?i)\b(stattdessen|scratch\s+that|never\s*mind|forget\s+(it|that|about\s+(it|that))|revert\s+that|undo\s+that|ignore\s+(that|my\s+last|the\s+last|what\s+i\s+said)|i\s+meant|vergiss\s+(das|es)|doch\s+nicht)\b")
        .expect("the withdrawal pattern compiles")
});

fn audit_event(
    name: &str,
    runtime: &str,
    n: usize,
    event: &Event,
    said: &mut [Said],
    set_apart: &[SetApart],
    support: &[(String, Words)],
) -> EventAudit {
    let summary = event.summary.as_ref();
    let opaque = summary.is_some_and(|s| s.opaque);
    let summary_text = summary
        .filter(|s| !s.opaque)
        .map_or("", |s| s.text.as_str());
    let carried = event
        .kept
        .iter()
        .filter_map(|&m| event.trace.get(m))
        .map(|m| (m.text.as_str(), m.origin != Origin::Tool));
    let after = After::new(summary_text, carried);
    let mut commitments = Vec::new();
    for s in said.iter_mut().filter(|s| !s.superseded) {
        let (outcome, evidence) = if opaque && !after.holds(&s.text) && !holds_choice(&after, s) {
            (Outcome::Unauditable, None)
        } else {
            after.judge(
                &s.text,
                s.answer.as_ref().map(|(q, a)| (q.as_str(), a.as_str())),
            )
        };
        commitments.push(Commitment {
            id: s.id.clone(),
            source_line: Some(s.line),
            text: s.text.clone(),
            kind: s.kind.clone(),
            derived: s.derived,
            outcome,
            evidence,
            history: s.history.clone(),
        });
        s.history.push(Earlier { event: n, outcome });
    }
    // What came before the file is not there to support anything.
    let invented = match summary {
        Some(summary) if !summary.opaque && !event.partial => {
            invented(support, &summary.text, summary.line)
        }
        _ => Vec::new(),
    };
    let mut notes = event.notes.clone();
    if event.partial {
        notes.push("the file starts partway through the session: what the user said before it is not there, so what the summary attributes to the user is not checked".to_owned());
    }
    let (verdict, reason) = verdict(event, &commitments, &invented, set_apart, opaque);
    EventAudit {
        source_file: name.to_owned(),
        runtime: runtime.to_owned(),
        compaction: event.compaction(n),
        verdict,
        reason,
        pinned: commitments
            .iter()
            .filter(|c| c.derived == Derived::Pin)
            .count(),
        commitments,
        set_apart: set_apart.to_vec(),
        invented,
        notes,
    }
}

/// A choice whose option stands in what was carried over as written.
fn holds_choice(after: &After, said: &Said) -> bool {
    said.answer
        .as_ref()
        .is_some_and(|(_, choice)| after.holds(choice))
}

/// How many statements set apart as remarks, with nothing else binding,
/// make a compaction one the audit cannot judge.
const UNREAD: usize = 2;

/// The verdict on one compaction, and its reason in words.
fn verdict(
    event: &Event,
    commitments: &[Commitment],
    invented: &[Invented],
    set_apart: &[SetApart],
    opaque: bool,
) -> (Verdict, String) {
    let count = |outcome: Outcome| commitments.iter().filter(|c| c.outcome == outcome).count();
    let (altered, lost, unknown) = (
        count(Outcome::Altered),
        count(Outcome::Lost),
        count(Outcome::Unauditable),
    );
    if altered + lost > 0 || !invented.is_empty() {
        let mut parts = Vec::new();
        if lost > 0 {
            parts.push(plural(lost, "commitment lost", "commitments lost"));
        }
        if altered > 0 {
            parts.push(plural(altered, "commitment altered", "commitments altered"));
        }
        if !invented.is_empty() {
            parts.push(plural(
                invented.len(),
                "requirement the user never stated attributed to them",
                "requirements the user never stated attributed to them",
            ));
        }
        return (Verdict::Lost, parts.join(", "));
    }
    if unknown > 0 {
        return (
            Verdict::Unauditable,
            format!(
                "the summary is encrypted: {} cannot be checked",
                plural(unknown, "commitment", "commitments")
            ),
        );
    }
    if event.summary.is_none() && !commitments.is_empty() {
        return (
            Verdict::Unauditable,
            "no summary follows the compaction in the file: what it kept cannot be read".to_owned(),
        );
    }
    if commitments.is_empty() && event.unplaced > 0 {
        return (
            Verdict::Unauditable,
            format!(
                "{} before it could not be placed in the buffer the compaction summarized",
                plural(event.unplaced, "user message", "user messages")
            ),
        );
    }
    // Statements of the user's, none of which reads as a commitment: in a
    // language or a shape the audit does not read, more likely than a
    // user who asked nothing. Nothing lost is not a thing it can say.
    let remarks = set_apart
        .iter()
        .filter(|s| s.why == NotBinding::Remark)
        .count();
    if commitments.is_empty() && remarks >= UNREAD {
        return (
            Verdict::Unauditable,
            format!(
                "none of what the user said before it reads as a commitment, yet {} of theirs could not be judged: the words may be in a language or a shape the audit does not read (`--format json` lists them under set_apart)",
                plural(remarks, "statement", "statements")
            ),
        );
    }
    if commitments.is_empty() {
        let reason = if set_apart.is_empty() {
            "the user said nothing before it that binds the agent".to_owned()
        } else {
            format!(
                "what the user said before it holds no commitment ({} set apart)",
                plural(set_apart.len(), "unit", "units")
            )
        };
        return (Verdict::Kept, reason);
    }
    let verbatim = count(Outcome::Verbatim);
    let paraphrased = count(Outcome::Paraphrased);
    let _ = opaque;
    (
        Verdict::Kept,
        format!(
            "every commitment is in the buffer after: {verbatim} as written, {paraphrased} in other words"
        ),
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What binds of one message, by the built-in policy.
    fn binds(text: &str) -> Vec<String> {
        typed_units(&Policy::builtin(), text, false)
            .binds
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn a_template_of_fields_still_to_fill_binds_nothing() {
        let binds = binds("请按这个模板给我报价：\n✅ 总件数：xx件\n✅ 尺寸规格：如：35*30*20cm\nName: ____\n收货地址：印度，邮编680655\n");
        assert!(
            binds
                .iter()
                .all(|b| !b.contains("xx") && !b.contains("如：") && !b.contains("____")),
            "{binds:?}"
        );
        assert!(
            binds.iter().any(|b| b.contains("680655")),
            "a field filled in still binds: {binds:?}"
        );
    }

    #[test]
    fn a_document_starts_at_its_first_heading_not_at_a_list_marked_with_hashes() {
        let filler = "上述是常规流程的操作，但是经常会遇到下面的异常边界情况。".repeat(20);
        let message = format!(
            "{filler}\n请根据我的需求设计一套日志排查的skill。要求：\n# 通用的排查机制能力可复用所有的功能模块\n# 可解决上述提到的异常边界情况\n\n## 阶段一：标准分析流程\n\n1. 在项目中搜索相关的日志打印代码\n\n## 阶段二：异常边界情况处理\n\n2. 扩展时间窗口\n"
        );
        assert!(message.len() >= 1500);
        let binds = binds(&message);
        assert!(
            binds.contains(&"通用的排查机制能力可复用所有的功能模块".to_owned()),
            "{binds:?}"
        );
        assert!(
            binds.contains(&"可解决上述提到的异常边界情况".to_owned()),
            "{binds:?}"
        );
        // What follows the first heading is the document handed over.
        assert!(
            !binds.iter().any(|b| b.contains("日志打印代码")),
            "{binds:?}"
        );
    }

    #[test]
    fn a_message_that_is_a_brief_written_as_a_document_binds() {
        let phases: String = (1..=40)
            .map(|n| {
                // Nested under the item's text, however wide its number.
                let indent = " ".repeat(format!("{n}. ").len());
                format!("{n}. **Collector {n}**\n{indent}- search by name\n{indent}- keep the raw page\n")
            })
            .collect();
        let brief = format!(
            "# System prompt — StratWatch\n\nYour task is to build StratWatch on a Raspberry Pi.\n\n## Phases\n\n{phases}\n## Rules\n\n- Docstrings in Google style\n"
        );
        assert!(brief.len() >= 1500);
        let binds = binds(&brief);
        assert!(
            binds.iter().any(|b| b.starts_with("Your task is")),
            "{binds:?}"
        );
        assert!(
            binds.iter().any(|b| b.starts_with("**Collector 40**")),
            "{binds:?}"
        );
        assert!(
            binds.contains(&"Docstrings in Google style".to_owned()),
            "{binds:?}"
        );
    }

    #[test]
    fn a_prompt_for_the_agent_handed_over_after_the_users_words_binds() {
        let rules: String = (1..=40)
            .map(|n| format!("- Rule {n}: no print(), use the Rich console\n"))
            .collect();
        let message = format!(
            "¡Perfecto! Ya tienes auth funcionando. Aquí el prompt para Claude:\n\n# PROMPT FOR CLAUDE\n\n## Context\nYou are a senior software engineer building CLI tools.\n\n## Requirements\n\n{rules}"
        );
        assert!(message.len() >= 1500);
        let binds = binds(&message);
        assert!(binds.iter().any(|b| b.starts_with("Rule 40")), "{binds:?}");
        // A report handed over after the user's words stays material.
        let report = message
            .replace("# PROMPT FOR CLAUDE", "# Incident report")
            .replace(
                "You are a senior software engineer building CLI tools.",
                "The service went down at noon.",
            );
        assert!(
            !self::binds(&report)
                .iter()
                .any(|b| b.starts_with("Rule 40")),
            "{:?}",
            self::binds(&report)
        );
    }

    #[test]
    fn what_the_user_writes_after_a_document_they_quoted_is_theirs() {
        let sections: String = (1..=30)
            .map(|n| {
                format!(
                    "## Section {n}\nThe orderbook keeps every bid encrypted until settlement.\n\n"
                )
            })
            .collect();
        let message = format!(
            "use the sdk you have studied and build this stuff \"# Comprehensive research: private OTC\n\n{sections}---\" BUILD SOMETHING SIMILAR TO THIS THAT WORKS\nNO COMMENTS ON MY CODE"
        );
        let binds = binds(&message);
        assert!(
            binds.contains(&"NO COMMENTS ON MY CODE".to_owned()),
            "{binds:?}"
        );
        assert!(!binds.iter().any(|b| b.contains("orderbook")), "{binds:?}");
    }

    #[test]
    fn build_this_under_a_list_makes_the_list_binding() {
        let message = "Visual flow builder with drag-and-drop — sequences are linear only\nLive chat inbox (real-time DM inbox inside the app)\nOpt-in widgets and ref links for bio\n\nBuild this.";
        let listed = binds(message);
        assert!(
            listed.iter().any(|b| b.starts_with("Live chat inbox")),
            "{listed:?}"
        );
        assert!(listed.contains(&"Build this.".to_owned()), "{listed:?}");
        // Alone, it approves what the agent proposed: spent once done.
        assert!(binds("Build this.").is_empty());
        // What opens each paragraph of the list is asked for; the remarks
        // after it in the paragraph only comment.
        let tiers = "Custom Fields on Contacts — store email, phone and city per contact. ManyChat charges for this.\n\nBroadcast Scheduler — pick a date and time to send. Massive for content creators.\n\nYeah try building this";
        let listed = binds(tiers);
        assert!(
            listed
                .iter()
                .any(|b| b.starts_with("Custom Fields on Contacts")),
            "{listed:?}"
        );
        assert!(
            listed.iter().any(|b| b.starts_with("Broadcast Scheduler")),
            "{listed:?}"
        );
        assert!(
            !listed.iter().any(|b| b.starts_with("ManyChat charges")),
            "{listed:?}"
        );
        // After the user's own report, it asks for the fix.
        let reported = binds("Bro, when I'm logging in with Google or creating a new account, an error is coming. Fix it now.");
        assert!(reported.contains(&"Fix it now.".to_owned()), "{reported:?}");
    }

    #[test]
    fn words_typed_where_a_pasted_log_starts_or_ends_are_the_users() {
        // Typed after the last line of the log, on the same line.
        let after = "mira el usuario entro al chat pero no estaba logueado:\nINFO:     Application startup complete.\nINFO:     130.211.236.75:19674 - \"GET /auth/me HTTP/1.1\" 403 Forbidden\nINFO:     130.211.236.75:16671 - \"POST /v1/chat/completions HTTP/1.1\" 403 Forbidden tienes que verificar eso, debes pedirle que se loguee";
        let binds = binds(after);
        assert!(
            binds.iter().any(|b| b.contains("tienes que verificar eso")),
            "{binds:?}"
        );
        assert!(!binds.iter().any(|b| b.contains("INFO")), "{binds:?}");
        // Typed before the first thing of the log, on the same line.
        let before = "when I open the settings page the list does not show the columns: chat$ fmind\nTraceback (most recent call last):\n  File \"tui.py\", line 370, in _run\nAttributeError: 'ModelSelectScreen' object has no attribute 'call_from_thread'";
        let binds = self::binds(before);
        assert!(
            binds
                .iter()
                .any(|b| b.starts_with("when I open the settings page")),
            "{binds:?}"
        );
        // A line of words amid the output is the output's own: a help
        // screen's "Show this message and exit." asks nothing of the agent.
        let help = "mira:\nUsage: fmind [OPTIONS] COMMAND [ARGS]...\n│ --install-completion          Install completion for the current shell.\n│ --help                        Show this message and exit.\n│ login       Log in to a FactoryMind server.\n\nwhy does register fail?";
        assert!(self::binds(help).is_empty(), "{:?}", self::binds(help));
    }

    #[test]
    fn lines_a_process_stamped_are_its_output() {
        let message = "mira lo que dice el cliente:\n(APIServer pid=75986)  File\n(APIServer pid=75986)     raise OSError(\n(APIServer pid=75986) OSError: casperhansen/llama-3.1-8b-instruct-awq is not a\nlocal folder\n(APIServer pid=75986) If this is a private repository, make sure to pass a\ntoken having permission\nremote: Resolving deltas: 100% (15/15), completed with 13 local objects.\nTo https://github.com/Quiago/tripolar-chat.git\n\nlos errores deben salir en la terminal del server";
        let binds = binds(message);
        assert_eq!(binds, ["los errores deben salir en la terminal del server"]);
    }
}
