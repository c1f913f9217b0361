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
mod typed;
mod units;

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde::{Deserialize, Serialize};

pub use binding::{prepare, NotBinding};
pub(crate) use invented::{invented, Support};
pub(crate) use judge::After;
use typed::{message_units, Found};
pub use typed::{typed_units, warm_up, Typed, BRIEF_MATERIAL, MATERIAL};
pub(crate) use units::units;

use crate::buffer::trace::Derived;
use crate::import::{self, Event, Origin};
use crate::pattern::Pattern;
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
    /// The text folded, and its words: what a later restatement is
    /// compared with and each compaction judges, made once rather than at
    /// every later one.
    folded: String,
    words: Words,
}

/// Audits every compaction of an imported session.
pub fn audit(policy: &Policy, session: &import::Session) -> Vec<EventAudit> {
    // Each branch of the session's tree is judged by what was said on it.
    let mut branches: Vec<usize> = session.events.iter().map(|e| e.branch).collect();
    branches.sort_unstable();
    branches.dedup();
    let folder = session.folder.as_deref();
    let mut audits: Vec<EventAudit> = branches
        .into_iter()
        .flat_map(|branch| audit_branch(policy, session, branch, folder))
        .collect();
    audits.sort_by_key(|audit| audit.compaction.event);
    audits
}

/// Audits the compactions of one branch of the session, numbered as the
/// session's compactions are; `folder` is the one the session ran in.
fn audit_branch(
    policy: &Policy,
    session: &import::Session,
    branch: usize,
    folder: Option<&str>,
) -> Vec<EventAudit> {
    let name = session.file.name();
    let runtime = session.runtime.arg();
    let mut said: Vec<Said> = Vec::new();
    let mut set_apart: Vec<SetApart> = Vec::new();
    // Every user message so far, as support for what a summary attributes.
    let mut support = Support::default();
    // The folder the session ran in names the project: a summary that
    // names it ("the NotebookLM backend" in `notebooklm_clone`) names
    // nothing the user never heard of.
    if let Some(folder) = folder {
        support.push(folder.to_owned(), Words::of(folder));
    }
    let mut seen: HashSet<(u64, String)> = HashSet::new();
    let mut per_line: HashMap<u64, usize> = HashMap::new();
    let mut last_line: Option<u64> = None;
    // The user's last message, and its line: what a message sent again
    // supersedes.
    let mut last_sent: Option<(u64, String)> = None;
    // Whether the user's last message said they would paste something in
    // ("I will ask ChatGPT to summarize its notes, and then paste them in").
    let mut announced = false;
    // All the user typed so far, squeezed ([`squeeze_into`]): what the agent
    // quoted of it is the user's when the user types it again.
    let mut typed_so_far = String::new();
    let mut audits = Vec::new();
    for (n, event) in session.events.iter().enumerate() {
        if event.branch != branch {
            continue;
        }
        for (m, message) in event.trace.iter().enumerate() {
            // What the runtime wrote out for a command the user ran, right
            // after it (`/init`: "Please analyze this codebase and create a
            // CLAUDE.md file …"): what the user asked for by running it.
            let expands = message.origin == Origin::Runtime
                && m.checked_sub(1)
                    .and_then(|before| event.trace.get(before))
                    .is_some_and(|before| before.origin == Origin::Command);
            if !(expands
                || matches!(
                    message.origin,
                    Origin::User | Origin::Answer | Origin::Plan | Origin::Command
                ))
                || !seen.insert((message.line, message.text.clone()))
            {
                continue;
            }
            support.push(message.text.clone(), Words::of(&message.text));
            // An approved plan supports what the user asked; its words are
            // the agent's, and bind only as the user's go-ahead to it. A
            // command the user ran supports "the user ran /review", and
            // what the runtime wrote out for it what it asks.
            if expands || matches!(message.origin, Origin::Plan | Origin::Command) {
                continue;
            }
            if message.origin == Origin::User {
                let text = &message.text;
                // A message that takes back the one before it, or gives a
                // new value for what it set ("make it 50"): what that one
                // asked no longer binds.
                if let Some(last) = last_line
                    .filter(|_| WITHDRAWS.is_match(text) || NEW_VALUE.is_match(text.trim()))
                {
                    let undone = UNDOES
                        .is_match(text)
                        .then(|| undone(&said, last, &event.trace[..m]))
                        .flatten();
                    set_aside(&mut said, |s| {
                        s.line == last && undone.as_ref().is_none_or(|ids| ids.contains(&s.id))
                    });
                }
                // A message that sets aside everything said before it
                // ("Ignore everything above. That was old."): nothing said
                // before binds. Typed, not pasted: a prompt handed over may
                // tell its own bot to ignore all previous instructions.
                if text.len() <= RESET_LONGEST && RESETS.is_match(text) {
                    set_aside(&mut said, |_| true);
                }
                // A message that drops a topic ("Okay let's forget the
                // calendar thing for now"): what was said of it binds no more.
                if let Some(topic) = TOPIC_DROPPED
                    .captures(text)
                    .and_then(|found| found.name("topic"))
                {
                    let topic = topic.as_str().to_lowercase();
                    set_aside(&mut said, |s| s.folded.contains(&topic));
                }
                // The user's message that sends their last one again
                // (interrupted, typed again with a word more): the later
                // says it.
                if let Some((line, _)) = last_sent
                    .as_ref()
                    .filter(|(_, before)| sent_again(before, text))
                {
                    let line = *line;
                    set_aside(&mut said, |s| s.line == line);
                }
                last_sent = Some((message.line, text.clone()));
            }
            last_line = Some(message.line);
            // Where what the user pasted after announcing it in this same
            // message begins.
            let pasted_at = (message.origin == Origin::User)
                .then(|| pasted_within(&message.text))
                .flatten();
            // What the user said they would paste, pasted: a document
            // handed over, long, not words written to the agent.
            if message.origin == Origin::User {
                // (Pasted in the same message, it is set apart there.)
                let announces = ANNOUNCES_PASTE.is_match(&message.text) && pasted_at.is_none();
                let pasted = std::mem::replace(&mut announced, announces)
                    && message.text.len() >= PASTED_DOCUMENT
                    && message.text.lines().count() >= 10;
                if pasted {
                    set_apart.push(SetApart {
                        source_line: Some(message.line),
                        text: message.text.clone(),
                        why: NotBinding::Pasted,
                    });
                    continue;
                }
            }
            let last = last_agent(&event.trace[..m]);
            // "2" alone names an option the agent numbered: the option's
            // words are the choice, judged as a choice is; the digit
            // stands in any summary. "C, the file … has the codes" names
            // option C, then says more.
            let named = (message.origin == Origin::User)
                .then_some(last)
                .flatten()
                .and_then(|agent| option_replied(&message.text, &agent.text));
            // Options lettered a line each under a question are asked,
            // however long they run.
            let asked = asked_before(last)
                || (named.is_some() && last.is_some_and(|agent| agent.text.contains(['?', '？'])));
            let named = named.filter(|_| asked);
            // "yes option 1": a short reply to the choices the agent put
            // makes the option chosen the user's, in the agent's words.
            if asked
                && message.origin == Origin::User
                && message.text.split_whitespace().count() <= 6
            {
                if let Some(offered) = last {
                    support.push(offered.text.clone(), Words::of(&offered.text));
                }
            } else if message.origin == Origin::User {
                // "yes and then clear the context first", to "Shall I update
                // `PERF_PLAN.md` with these findings and then proceed?": a
                // yes to what the agent proposed makes it the user's,
                // however much the reply adds ("User confirmed: update
                // PERF_PLAN.md …" is no invention).
                if let Some(proposed) = last.and_then(|agent| proposal(&agent.text)) {
                    if approves(&message.text) {
                        support.push(proposed.to_owned(), Words::of(proposed));
                    }
                }
            }
            let answering = asked || interrupted_before(&event.trace[..m]);
            let mut found = message_units(policy, message, answering, pasted_at);
            if message.origin == Origin::User {
                quoted_back(
                    &mut found,
                    &event.trace[..m],
                    &message.text,
                    &typed_so_far,
                    message.line,
                );
                squeeze_into(&message.text, &mut typed_so_far);
                typed_so_far.push('\n');
            }
            for found in found {
                match found {
                    Found::Binds {
                        text,
                        kind,
                        derived,
                        answer,
                    } => {
                        let answer = answer.or_else(|| {
                            named
                                .clone()
                                .filter(|(reply, _)| text.trim() == reply)
                                .map(|(_, named)| named)
                        });
                        let k = per_line.entry(message.line).or_default();
                        *k += 1;
                        let id = match *k {
                            1 => format!("l{}", message.line),
                            k => format!("l{}.{k}", message.line),
                        };
                        let folded = judge::fold(&text);
                        let words = Words::of(&text);
                        supersede(&mut said, &text, &folded, &words.content);
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
                            words,
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
            &mut support,
        ));
    }
    audits
}

/// The question the agent's turn ends on, when it proposes what to do
/// next ("Shall I update `PERF_PLAN.md` with these findings?", "Want me
/// to push it?"): its last paragraph.
fn proposal(text: &str) -> Option<&str> {
    static PROPOSES: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(
            r"(?i)\b(shall|should|can|may)\s+i\b|\b(want|like)\s+me\s+to\b|\bready\s+(for\s+me\s+)?to\b|\b(shall|should)\s+we\b",
        )
        .expect("the proposal pattern compiles")
    });
    let text = text.trim_end();
    if !text.ends_with(['?', '？']) {
        return None;
    }
    let last = text.rsplit("\n\n").next().unwrap_or(text).trim();
    PROPOSES.is_match(last).then_some(last)
}

/// Whether the user's reply opens by saying yes ("yes and then clear the
/// context first", "sure, go ahead", "ok do it").
fn approves(text: &str) -> bool {
    static YES: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(
            r"(?i)^\W*(yes|yeah|yep|yup|sure|ok|okay|go\s+ahead|please\s+do|do\s+it|sounds\s+good|lgtm|approved)\b",
        )
        .expect("the approval pattern compiles")
    });
    YES.is_match(text)
}

/// Whether `text` only takes what stands before it as the user's own to
/// be done: "Build this.", "Yeah try building this", "implement all of
/// these", "let's do it all".
fn adopted(text: &str) -> bool {
    static ADOPTS: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(
            r"(?i)^\W*((yes|yeah|yep|ok|okay|now|so|please|pls|then|just|alright|and|great|perfect|cool|let's|lets)[\s,!.]+)*((try|go\s+ahead\s+and)\s+)?(build|building|implement|implementing|do|doing|make|create|add|ship|code|execute|go\s+with)\s+(this|these|that|those|them|it\s+all|all\s+(of\s+)?(this|these|them|that|it)|everything|the\s+above|all\s+the\s+above|all)(\s+(please|pls|now|for\s+me|too))*\s*[.!]*\s*$",
        )
        .expect("the adoption pattern compiles")
    });
    ADOPTS.is_match(text.trim())
}

/// The fewest characters, squeezed, a passage of the agent's must have
/// for the user's copy of it to be taken for a quote: a short phrase
/// ("use the cache") is as likely the user's own.
const QUOTED_AT_LEAST: usize = 16;

/// Sets apart what the user copied back of the agent's last turn to
/// answer it: the agent's questions or plan pasted with the user's replies
/// typed after them ("…你需要从后台导出一份完整的产品列表：… ——我之前不是…
/// 导出了"). The agent's words are not a commitment of the user's; the
/// replies are judged. A passage the user's own words do not answer after
/// it is the user's: an option copied out of those offered, a list put
/// under "do:"; and so are words the agent had itself quoted of the user.
fn quoted_back(
    found: &mut [Found],
    trace: &[import::Message],
    message: &str,
    typed: &str,
    line: u64,
) {
    if found.len() < 2 {
        return;
    }
    fn text_of(unit: &Found) -> &str {
        match unit {
            Found::Binds { text, .. } => text,
            Found::Apart(apart) => &apart.text,
        }
    }
    // Each unit squeezed, if long enough to be taken for a quote.
    let squeezed: Vec<Option<String>> = found
        .iter()
        .map(|unit| {
            let mut squeezed = String::new();
            squeeze_into(text_of(unit), &mut squeezed);
            (squeezed.chars().count() >= QUOTED_AT_LEAST).then_some(squeezed)
        })
        .collect();
    if squeezed.iter().all(Option::is_none) {
        return;
    }
    let agent = agent_turn(trace);
    if agent.is_empty() {
        return;
    }
    let holds =
        |text: &str, part: &str| memchr::memmem::find(text.as_bytes(), part.as_bytes()).is_some();
    // Whether each unit is the agent's words.
    let quoted: Vec<bool> = squeezed
        .iter()
        .map(|s| {
            s.as_deref()
                .is_some_and(|s| holds(&agent, s) && !holds(typed, s))
        })
        .collect();
    if !quoted.contains(&true) {
        return;
    }
    // Where each stands in the message.
    let placed: Vec<(Option<usize>, bool)> = found
        .iter()
        .zip(quoted)
        .map(|(unit, quoted)| (message.find(text_of(unit).trim()), quoted))
        .collect();
    // "Build this.", "Yeah try building this": the user takes the agent's
    // list as theirs, and each item binds as the user's own; the words
    // that take it are spent in them.
    let adopts: Vec<bool> = found.iter().map(|unit| adopted(text_of(unit))).collect();
    let taken = |at: usize| {
        placed
            .iter()
            .any(|&(other, quoted)| quoted && other.is_some_and(|other| other < at))
    };
    // The agent's words with the user's own words after them, which answer
    // them.
    let answered = |at: usize| {
        placed
            .iter()
            .zip(&adopts)
            .any(|(&(other, quoted), &adopts)| {
                !quoted && !adopts && other.is_some_and(|other| other > at)
            })
    };
    for (n, unit) in found.iter_mut().enumerate() {
        let (Some(at), quoted) = placed[n] else {
            continue;
        };
        let why = if quoted {
            answered(at).then_some(NotBinding::Pasted)
        } else if adopts[n] {
            taken(at).then_some(NotBinding::Acknowledgement)
        } else {
            None
        };
        if let (Some(why), Found::Binds { text, .. }) = (why, &mut *unit) {
            *unit = Found::Apart(SetApart {
                source_line: Some(line),
                text: std::mem::take(text),
                why,
            });
        }
    }
}

/// Which of what the user said on `line` an undo ("revert that") takes
/// back, when that message asked several things: the agent undoes what it
/// did, and what it did is the ask whose words its turn since then shares
/// most (two content words at least): "copy the tui components to
/// modes/interactive" of "copy the tui components …, i basically want a
/// self-contained implementation …, i can live with main-new.ts in src/",
/// after "Let me copy all TUI components to modes/interactive/components/".
/// None when the message asked one thing, or the turn shares no ask's
/// words: the whole message is taken back.
fn undone(said: &[Said], line: u64, trace: &[import::Message]) -> Option<Vec<String>> {
    let asked: Vec<&Said> = said
        .iter()
        .filter(|s| s.line == line && !s.superseded)
        .collect();
    if asked.len() < 2 {
        return None;
    }
    let mut turn = String::new();
    for m in since_user(trace) {
        turn.push_str(&m.text);
        turn.push('\n');
    }
    let done = Words::of(&turn).content;
    let shared: Vec<usize> = asked
        .iter()
        .map(|s| s.words.content.intersection(&done).count())
        .collect();
    let most = shared.iter().copied().max().unwrap_or(0);
    (most >= 2).then(|| {
        asked
            .iter()
            .zip(&shared)
            .filter(|(_, &n)| n == most)
            .map(|(s, _)| s.id.clone())
            .collect()
    })
}

/// The agent's messages since the user's last.
fn since_user(trace: &[import::Message]) -> impl Iterator<Item = &import::Message> {
    let since = trace
        .iter()
        .rposition(|m| m.origin == Origin::User)
        .map_or(0, |n| n + 1);
    trace[since..]
        .iter()
        .filter(|m| m.origin == Origin::Assistant)
}

/// What the agent wrote since the user's last message, squeezed.
fn agent_turn(trace: &[import::Message]) -> String {
    let mut turn = String::new();
    for m in since_user(trace) {
        squeeze_into(&m.text, &mut turn);
        turn.push('\n');
    }
    turn
}

/// `text` without its spaces, Markdown's marks and quotes, in lower case,
/// put after `out`: a passage copied from a terminal or a rendered answer
/// loses its layout and its emphasis, not its words.
fn squeeze_into(text: &str, out: &mut String) {
    out.reserve(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            if !c.is_whitespace() && !matches!(c, '*' | '`' | '#' | '>' | '"' | '\'' | '|') {
                out.push(c.to_ascii_lowercase());
            }
        } else if !c.is_whitespace() && !matches!(c, '“' | '”' | '‘' | '’') {
            out.extend(c.to_lowercase());
        }
    }
}

/// Whether the agent's last message before the user's ([`last_agent`])
/// asked them to choose: a question in its closing paragraph that offers
/// alternatives ("pacman or rustup?", numbered options).
fn asked_before(last: Option<&import::Message>) -> bool {
    let Some(last) = last else {
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
    (tail.contains(['?', '？']) || CHOOSE.is_match(&tail))
        && (CHOICES.is_match(&tail)
            || VALUE_ASKED.is_match(&tail)
            || tail
                .lines()
                .any(|line| OPTION_LINE.is_match(line.trim_start())))
}

/// Words that ask the user to choose without a question mark ("请选择你期望
/// 的学习深度。", "Pick one:", "Let me know which you prefer.").
static CHOOSE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)请(选择|选|回复|告诉我)|\b(please\s+)?(choose|pick|select)\s+(one|an?\s+option|the|which|between|from)\b|\blet\s+me\s+know\s+which\b|\breply\s+with\s+(a|the)\s+(letter|number)")
        .expect("the pattern of an ask to choose compiles")
});

/// The option of `agent`'s message that `message` names, alone ("A", "2")
/// or opening it ("C, the file … has the codes"): the reply's key, and
/// the agent's question and the option's words ([`option_named`]).
fn option_replied(message: &str, agent: &str) -> Option<(String, (String, String))> {
    let reply = typed::leading_choice(message).map_or(message, |key| &message[key]);
    option_named(reply, agent).map(|named| (reply.trim().to_owned(), named))
}

/// The option a reply names by its number or letter alone ("2", "B",
/// "option 3"), as the agent's message numbered it ("2. Keep the cache",
/// "**B)** Rewrite it", "Option 3: …"): the agent's question, and the
/// option's words.
fn option_named(reply: &str, agent: &str) -> Option<(String, String)> {
    let key = NAMED_OPTION.captures(reply.trim())?.get(1)?.as_str();
    let key = key.to_lowercase();
    let asks = |line: &str| line.ends_with(['?', '？']) && !OPTION_LINE.is_match(line);
    let mut question = None;
    for line in agent.lines() {
        let trimmed = line.trim();
        let Some(option) = OPTION_LINE.captures(trimmed) else {
            if question.is_none() && asks(trimmed) {
                question = Some(trimmed);
            }
            continue;
        };
        let (Some(label), Some(words)) = (option.get(1), option.get(2)) else {
            continue;
        };
        if label.as_str().to_lowercase() != key {
            continue;
        }
        let words = option_label(words.as_str());
        if words.is_empty() {
            return None;
        }
        let question = question
            .or_else(|| agent.lines().rev().map(str::trim).find(|l| asks(l)))
            .unwrap_or_default();
        return Some((question.to_owned(), words.to_owned()));
    }
    None
}

/// What names an option on its line, without what describes it: the
/// words set in bold at its start ("**Standalone app** – runs on its
/// own"), or those before a dash or a colon.
fn option_label(line: &str) -> &str {
    let line = line.trim();
    if let Some(bold) = line
        .strip_prefix("**")
        .and_then(|rest| rest.split_once("**"))
        .map(|(bold, _)| bold.trim())
        .filter(|bold| !bold.is_empty())
    {
        return bold;
    }
    let cut = [" - ", " – ", " — ", ": ", "：", " ("]
        .iter()
        .filter_map(|mark| line.find(mark))
        .min()
        .unwrap_or(line.len());
    line[..cut].trim().trim_matches(['*', '_']).trim()
}

/// Whether `text` quotes `reply`, a reply that names an option by its
/// number or letter, as typed: in straight or curly quotes or backticks.
fn quoted_reply(text: &str, reply: &str) -> bool {
    let reply = reply.trim();
    NAMED_OPTION.is_match(reply)
        && [
            ('"', '"'),
            ('“', '”'),
            ('\'', '\''),
            ('`', '`'),
            ('「', '」'),
        ]
        .iter()
        .any(|(open, close)| text.contains(&format!("{open}{reply}{close}")))
}

/// A reply that is an option's number or letter and nothing more.
static NAMED_OPTION: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)^\W*(?:option|opción|opcion|opção|opcao|choice|variant[ea]?|方案|选项|选)?\s*#?\s*(\d{1,2}|[a-z])\s*[.)）:：]?\W*$")
        .expect("the named option pattern compiles")
});

/// A line of the agent's that numbers an option: its number or letter,
/// then its words ("1. Redis", "- **B)** Rewrite", "Option 3: Keep it").
static OPTION_LINE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)^(?:[-*]\s+)?(?:#{1,6}\s+)?[*_]*(?:option|opción|opcion|opção|opcao|choice|方案|选项)?\s*(\d{1,2}|[a-z])\s*[.)）:：][*_]*\s+(.+)$")
        .expect("the option line pattern compiles")
});

/// Whether the user stopped the agent just before their next message
/// ("[Request interrupted by user]"): what they type then redirects it, so
/// a short reply ("系统根目录", the system's root folder) names the
/// correction, as a short reply to a choice names the option.
fn interrupted_before(trace: &[import::Message]) -> bool {
    trace
        .iter()
        .rev()
        .find(|m| m.origin != Origin::Tool)
        .is_some_and(|last| {
            last.origin == Origin::Runtime && last.text.starts_with("[Request interrupted by user")
        })
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

/// A question for a value the user alone can give: what to call them or
/// the agent, their time zone, language, address ("What should I call
/// you?", "What's your name? And how should I address you?", "你希望我怎么称呼你？").
static VALUE_ASKED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r"(?i)\b(what|how)\b[^?\n]{0,40}\b(call|address|name|timezone|time\s+zone|language|email)\b[^?\n]{0,40}\?|怎么称呼|叫什么|什么名字|哪个时区|什么时区",
    )
    .expect("the value pattern compiles")
});

/// Words of a question that offers alternatives, in English, German,
/// Chinese ("A还是B？", "哪个方案？"), Japanese and Korean.
static CHOICES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(
        r"(?im)\bor\b|\boder\b|\bwhich\b|\bwelche[rsn]?\b|\boption|^\s*(\d+[.)]|[-*])\s|还是|哪个|哪种|哪一|哪些|选项|方案\s*[A-Za-z一二三1-9]|どちら|どれ|어느|어떤",
    )
    .expect("the choices pattern compiles")
});

/// Whether `now` sends `before` again: all of its text, its spaces and
/// line breaks aside, stands in `now` (a prompt interrupted and sent
/// again, perhaps with a word more), as a whole: a path given alone is
/// not given again by a message that names a folder below it. Only a
/// message of some length: "yes" twice is two answers.
fn sent_again(before: &str, now: &str) -> bool {
    let squeezed = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The prompt copied back from the terminal is compared as typed.
    let copied = typed::prompt_copy(now);
    let (before, now) = (squeezed(before), squeezed(copied.as_deref().unwrap_or(now)));
    // What would go on with a word, a path or a link.
    let goes_on = |c: char| c.is_alphanumeric() || matches!(c, '/' | '\\' | '_' | '-');
    before.chars().count() >= 40
        && now.match_indices(&before).any(|(at, _)| {
            !now[..at].chars().next_back().is_some_and(goes_on)
                && !now[at + before.len()..].chars().next().is_some_and(goes_on)
        })
}

/// Marks what was said and matches `which` as no longer binding: taken
/// back, set aside, or said again later.
fn set_aside(said: &mut [Said], which: impl Fn(&Said) -> bool) {
    for earlier in said.iter_mut().filter(|s| which(s)) {
        earlier.superseded = true;
    }
}

/// A commitment restated (an interrupted prompt typed again, the same
/// request in nearly the same words) is one commitment: the later says it.
/// The same words about another link or path ("summarize this article
/// for me <another URL>") ask anew.
fn supersede(
    said: &mut [Said],
    text: &str,
    folded: &str,
    content: &std::collections::BTreeSet<String>,
) {
    // "A" to one question and "A" to the next are two choices.
    if text.trim().chars().count() <= 2 {
        return;
    }
    set_aside(said, |earlier| {
        !earlier.superseded
            && restates(
                (&earlier.text, &earlier.folded, &earlier.words.content),
                (text, folded, content),
            )
    });
}

/// Whether `later` says what `earlier` said: the same words once folded,
/// a new value for what it set ([`revalues`]), or three in four content
/// words shared (four or more each), naming no link or path the other
/// does not.
fn restates(
    (earlier, earlier_folded, a): (&str, &str, &std::collections::BTreeSet<String>),
    (later, later_folded, b): (&str, &str, &std::collections::BTreeSet<String>),
) -> bool {
    // The same words, whatever ends them ("follow RULES.md." and "follow
    // RULES.md").
    const ENDS: [char; 5] = ['.', '!', '。', '！', ' '];
    earlier_folded.trim_end_matches(ENDS) == later_folded.trim_end_matches(ENDS)
        || revalues(earlier_folded, later_folded)
        || {
            let shared = a.intersection(b).count();
            a.len().min(b.len()) >= 4 && shared * 4 >= a.union(b).count() * 3 && {
                let (before, named) = (identifiers(earlier), identifiers(later));
                before.is_subset(&named) || named.is_subset(&before)
            }
        }
}

/// Whether `later` gives a new value to what `earlier` set, in the same
/// words up to the value ("set the timeout to 30 seconds", then "set the
/// timeout to 60 seconds"; "費用は税込で75000円にして", then
/// "費用は税込で５万円になるように修正して"): the value moved, the earlier
/// binds no more. The words before the value are three or more (five
/// characters of a script written without spaces): "add 2 tests" and "add
/// 3 tests" ask twice, "router → output 0" and "router → output 1" route
/// two outputs.
fn revalues(earlier: &str, later: &str) -> bool {
    /// The words before the first number, and the number.
    fn split(text: &str) -> Option<(&str, &str)> {
        let at = text.find(|c: char| c.is_numeric())?;
        let rest = &text[at..];
        let end = rest
            .find(|c: char| !(c.is_numeric() || matches!(c, '.' | ',')))
            .unwrap_or(rest.len());
        Some((
            text[..at].trim_end(),
            rest[..end].trim_end_matches(['.', ',']),
        ))
    }
    let (Some((lead, value)), Some((later_lead, later_value))) = (split(earlier), split(later))
    else {
        return false;
    };
    let long_enough = lead
        .split_whitespace()
        .filter(|word| word.chars().any(char::is_alphabetic))
        .count()
        >= 3
        || lead.chars().filter(|&c| binding::wide_script(c)).count() >= 5;
    long_enough && lead == later_lead && value != later_value
}

/// The links and paths `text` names: a restatement may name one more
/// ("… link documents from X:\\03_ACG\\document_library"), not another.
fn identifiers(text: &str) -> std::collections::BTreeSet<&str> {
    text.split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric() && c != '/'))
        .filter(|word| word.contains(['/', '\\']))
        .collect()
}

/// A short message that gives a new value for what the message before it
/// set: "make it 50", "actually 100", "no, 0.5 instead".
static NEW_VALUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"(?i)^(no,?\s+|actually,?\s+|make\s+it\s+|change\s+it\s+to\s+)[\w./:-]*\d[\w./:%-]*(\s+instead)?[.!]?$")
        .expect("the new-value pattern compiles")
});

/// Words with which a user says their next message is something they
/// will paste in: "I'll paste the notes", "let me paste it in", "我一会儿
/// 贴给你".
static ANNOUNCES_PASTE: std::sync::LazyLock<crate::pattern::Pattern> = std::sync::LazyLock::new(
    || {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        crate::pattern::Pattern::new(r"(?i)\b((i('ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to)|let\s+me|then)\s+(\S+\s+){0,3}?paste|paste\s+(it|them|this|that|those)\s+(in|here|below))\b|(我|等下|一会儿?)(会|再)?(贴|粘贴|复制)(给你|过来|上来|进来)")
            .expect("the announcement pattern compiles")
    },
);

/// The shortest message that, announced, is a document pasted in.
const PASTED_DOCUMENT: usize = 1_000;

/// Where what a message pastes after announcing it begins ("I'll paste
/// you the last message.The issue is that …"): after the sentence that
/// announces it, when a document's worth follows ([`PASTED_DOCUMENT`]).
fn pasted_within(text: &str) -> Option<usize> {
    // The user's own "I'll paste", not "paste it here" asked of someone
    // in a brief.
    let announced = ANNOUNCES_PASTE
        .find_iter(text)
        .find(|found| !found.as_str().to_lowercase().starts_with("paste"))?;
    let rest = &text[announced.end()..];
    let end = announced.end() + rest.find(['.', ':', '!', '\n', '。', '：'])?;
    let after = end + text[end..].chars().next()?.len_utf8();
    (text[after..].trim().len() >= PASTED_DOCUMENT).then_some(after)
}

/// Words with which a user takes back what they said last ("actually,
/// scratch that", "revert that", "stattdessen …"; "那算了，…", never mind
/// that, as a Chinese message opens).
static WITHDRAWS: std::sync::LazyLock<crate::pattern::Pattern> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    crate::pattern::Pattern::new(r"(?i)\b(stattdessen|scratch\s+that|never\s*mind|forget\s+(it|that|about\s+(it|that))|revert\s+that|undo\s+that|ignore\s+(that|my\s+last|the\s+last|what\s+i\s+said)|i\s+meant|vergiss\s+(das|es)|doch\s+nicht)\b|^[\s\p{P}]*(那|好了|好吧)?[，,\s]*(算了|不管了)|^\W*(actually|no|wait)[,.!]?\s+(let'?s\s+)?(go|switch|change)\s+back\b")
        .expect("the withdrawal pattern compiles")
});

/// Words of a withdrawal that ask the agent to undo what it did ("can
/// you revert that?", "undo that"): what it takes back is the ask the
/// agent acted on ([`undone`]).
static UNDOES: std::sync::LazyLock<crate::pattern::Pattern> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    crate::pattern::Pattern::new(r"(?i)\b(revert|undo)\s+(that|this|it|those|these)\b")
        .expect("the undo pattern compiles")
});

/// Words with which a user drops a topic they raised, for now or for
/// good ("let's forget the calendar thing for now", "drop the Azure
/// route"): the topic is the word or two before "thing", "stuff", "part",
/// "idea", "route", "plan", "integration", "setup" or "feature".
static TOPIC_DROPPED: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    regex::Regex::new(r"(?i)\b(forget|drop|skip|scrap|park)\s+(about\s+)?(the|that|this)\s+(?P<topic>[a-z0-9-]{3,}(\s+[a-z0-9-]{3,})?)\s+(thing|stuff|part|idea|route|plan|integration|setup|feature)\b")
        .expect("the topic pattern compiles")
});

/// The longest message whose words set aside everything said before
/// ([`RESETS`]): one the user typed, not a prompt they pasted.
const RESET_LONGEST: usize = 600;

/// Words with which a user sets aside everything said before ("Ignore
/// everything above. That was old.", "Ignore all previous config, memory,
/// and model choices", "disregard everything before this", "忽略之前的所有内容").
static RESETS: std::sync::LazyLock<crate::pattern::Pattern> = std::sync::LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    crate::pattern::Pattern::new(r"(?i)\b(ignore|disregard|forget)\s+(everything|all)\s+(above|before|earlier|previous|prior|so\s+far|i\s+(said|wrote)|we\s+(said|discussed|did))\b|\b(ignore|disregard|forget)\s+all\s+(the\s+)?(previous|prior|earlier)\s+\w+|(忽略|无视|忘掉|忘记)(之前|以上|上面|前面)(的)?(所有|全部|一切)|(之前|以上|上面|前面)(说)?的(都|全部)(不算|作废)")
        .expect("the reset pattern compiles")
});

fn audit_event(
    name: &str,
    runtime: &str,
    n: usize,
    event: &Event,
    said: &mut [Said],
    set_apart: &[SetApart],
    support: &mut Support,
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
    // The summary's units, made once for judging what it kept and what it
    // attributes to the user.
    let summary_units = units::summary_units(summary_text);
    let after = After::new(summary_text, &summary_units, carried);
    let mut commitments = Vec::new();
    for s in said.iter_mut().filter(|s| !s.superseded) {
        let (outcome, evidence) = if opaque && !after.holds(&s.text) && !holds_choice(&after, s) {
            (Outcome::Unauditable, None)
        } else {
            // An option named by its number, the number quoted as the
            // user's reply ("\"2\" (chose to merge them)"), or carried over
            // as typed beside a summary no one can read: the reply stands
            // as the user typed it, whatever the summary makes of the
            // option's words.
            if s.answer.is_some()
                && (quoted_reply(summary_text, &s.text) || (opaque && after.holds(&s.text)))
            {
                (Outcome::Verbatim, None)
            } else {
                after.judge_words(
                    &s.text,
                    &s.words,
                    s.answer.as_ref().map(|(q, a)| (q.as_str(), a.as_str())),
                )
            }
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
            invented(support, summary_text, &summary_units, summary.line)
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

    fn restated(earlier: &str, later: &str) -> bool {
        let (a, b) = (Words::of(earlier).content, Words::of(later).content);
        restates(
            (earlier, &judge::fold(earlier), &a),
            (later, &judge::fold(later), &b),
        )
    }

    #[test]
    fn the_same_request_about_another_link_is_a_new_one() {
        let ask = "summarize this article for me and save it to raw https://x.com/a/status/1";
        assert!(restated(ask, ask));
        assert!(restated("follow RULES.md.", "follow RULES.md"));
        assert!(!restated("follow RULES.md.", "follow AGENTS.md"));
        assert!(!restated(
            ask,
            "summarize this article for me and save it to raw https://morgin.ai/articles/b"
        ));
        // A restatement may name one path more.
        assert!(restated(
            "in X:\\addons\\company edit the view list to add the notes as columns, link documents",
            "in X:\\addons\\company edit the view list to add the notes as columns, link documents from X:\\addons\\library"
        ));
    }

    #[test]
    fn a_new_value_for_what_was_set_in_the_same_words_restates_it() {
        assert!(restated(
            "set the timeout to 30 seconds",
            "set the timeout to 60 seconds"
        ));
        assert!(restated(
            "費用は税込で75000円にして",
            "費用は税込で５万円になるように修正して"
        ));
        // Too few words before the value, the same value, or none.
        assert!(!restated("add 2 tests", "add 3 tests"));
        assert!(!restated("router → output 0", "router → output 1"));
        assert!(!restated(
            "set the timeout to 30 seconds",
            "set the timeout to 30 seconds for the api too"
        ));
        assert!(!restated(
            "set the timeout to 30 seconds",
            "set the retries higher"
        ));
    }

    #[test]
    fn options_lettered_under_a_question_however_long_are_named_by_a_reply() {
        let agent = |text: &str| import::Message {
            origin: Origin::Assistant,
            text: text.to_owned(),
            line: 1,
            record: None,
        };
        let long = "x".repeat(700);
        let options = format!("**你希望如何处理？**\n\nA) **完全替代方案** - {long}\n\nB) **混合数据源** - {long}\n\n请选择一个方案。");
        assert!(!asked_before(Some(&agent(&options))));
        let key = |reply: &str| option_replied(reply, &options).map(|(key, _)| key);
        assert_eq!(key("B, but keep the tests").as_deref(), Some("B"));
        assert_eq!(key("A").as_deref(), Some("A"));
        assert_eq!(key("C, the third"), None);
        assert_eq!(key("thanks"), None);
        // "A" to one question and "A" to the next are two choices.
        let mut said = vec![Said {
            id: "l1".to_owned(),
            line: 1,
            text: "A".to_owned(),
            kind: "decision".to_owned(),
            derived: Derived::Sentence,
            answer: None,
            superseded: false,
            history: Vec::new(),
            folded: "a".to_owned(),
            words: Words::default(),
        }];
        supersede(&mut said, "A", "a", &Default::default());
        assert!(!said[0].superseded);
        supersede(&mut said, "a", "a", &Default::default());
        assert!(!said[0].superseded);
    }

    #[test]
    fn a_reply_that_names_an_option_by_number_is_the_options_words() {
        let agent = "Two ways:\n1. Add `LoginUiState` at the bottom of the file\n2. **Merge them** into `LoginEffect` (removing `LoginResult`)?\n\n### Option C: All three in order\n- 29 hours\n\nShould I merge them?";
        assert_eq!(
            option_named("2", agent),
            Some(("Should I merge them?".to_owned(), "Merge them".to_owned()))
        );
        assert_eq!(
            option_named("option 1", agent).map(|(_, words)| words),
            Some("Add `LoginUiState` at the bottom of the file".to_owned())
        );
        assert_eq!(
            option_named("C", agent).map(|(_, words)| words),
            Some("All three in order".to_owned())
        );
        // Words of its own, or a number the agent did not offer: no option.
        assert_eq!(option_named("2 but keep the tests", agent), None);
        assert_eq!(option_named("4", agent), None);
        // The reply quoted as typed in a summary stands.
        assert!(quoted_reply("User chose \"2\" (merge them)", "2"));
        assert!(!quoted_reply("Step 2 merges them", "2"));
    }

    #[test]
    fn a_path_given_alone_is_not_given_again_by_a_message_that_names_a_folder_below_it() {
        let path = r"C:\Users\Administrator\Desktop\1cellAssembleMachine";
        let later = r"PLC ST 수정이 필요하면 C:\Users\Administrator\Desktop\1cellAssembleMachine\PLC_ST\ST_UPDATE 에 코드 업데이트 하고 나한테 알려주면 내가 직접 xg5000 사용해서 업데이트 하겠음";
        assert!(!restated(path, later));
        assert!(!sent_again(path, later));
        // A prompt interrupted and typed again, with a word more, is.
        let prompt = "rename the repository and push it to the new remote I created";
        assert!(sent_again(prompt, &format!("{prompt} today")));
        // So is one copied back from the terminal, its lines cut and padded.
        let typed = "请你检查当前分支的所有改动，具体可以看 ./ai/intent/dynamic-price.md文档； 新功能测试需要包括滑点设置组件的交互是否正常";
        let copy = "❯ 请你检查当前分支的所有改动，具体可以看      \n  ./ai/intent/dynamic-price.md文档； 新功能测试需要包括滑  \n  点设置组件的交互是否正常   ";
        assert!(sent_again(typed, copy));
    }

    #[test]
    fn a_message_that_says_never_mind_takes_back_the_last() {
        for takes_back in [
            "scratch that, use the old one",
            "actually go back to cricket. use the data available alone.",
            "那算了，不要多线跑了",
            "好了不管了",
        ] {
            assert!(WITHDRAWS.is_match(takes_back), "{takes_back}");
        }
        for keeps in [
            "不要了解太多细节",
            "use the old one",
            "算法要改成单线程",
            "go back to the parser and fix the bug",
        ] {
            assert!(!WITHDRAWS.is_match(keeps), "{keeps}");
        }
    }

    #[test]
    fn an_undo_takes_back_the_ask_the_agent_acted_on_not_the_whole_message() {
        let asked = |n: usize, text: &str| Said {
            id: format!("l7.{n}"),
            line: 7,
            text: text.to_owned(),
            kind: "request".to_owned(),
            derived: Derived::Hint,
            answer: None,
            superseded: false,
            history: Vec::new(),
            folded: judge::fold(text),
            words: Words::of(text),
        };
        let said_on_7 = [
            asked(
                1,
                "copy the tui components to modes/interactive, so the old code still works",
            ),
            asked(
                2,
                "i basically want a fully self-contained implementation of the new stuff",
            ),
            asked(
                3,
                "i can live with main-new.ts in src/, but the rest needs to be moved",
            ),
        ];
        let trace = [
            said(Origin::User, "i actually want you to: …"),
            said(
                Origin::Assistant,
                "Let me copy all TUI components to modes/interactive/components/",
            ),
        ];
        assert_eq!(undone(&said_on_7, 7, &trace), Some(vec!["l7.1".to_owned()]));
        // A turn that did none of it, or a message that asked one thing:
        // the whole message is taken back.
        let idle = [said(Origin::Assistant, "Done.")];
        assert_eq!(undone(&said_on_7, 7, &idle), None);
        assert_eq!(undone(&said_on_7[..1], 7, &trace), None);
        assert!(UNDOES.is_match("actually, can you revert that?"));
        assert!(!UNDOES.is_match("revert the migration if it fails"));
    }

    #[test]
    fn options_lettered_under_an_ask_to_choose_are_asked_without_a_question_mark() {
        let agent = said(
            Origin::Assistant,
            "### 问题 1：学习深度确认\n\n你希望达到什么深度：\n\n**A.** 概念理解 - 基本功能\n**B.** 实现原理 - 内部机制\n**C.** 源码级别 - 具体实现\n\n请选择你期望的学习深度，这将决定我们后续的教学路径。",
        );
        assert!(asked_before(Some(&agent)));
        let told = said(
            Origin::Assistant,
            "Done. I updated the parser and the tests pass.\n\nA. The parser\nB. The tests",
        );
        assert!(!asked_before(Some(&told)));
    }

    fn said(origin: Origin, text: &str) -> import::Message {
        import::Message {
            origin,
            text: text.to_owned(),
            line: 1,
            record: None,
        }
    }

    #[test]
    fn a_browser_consoles_banner_is_no_words_typed_before_what_it_prints() {
        let console = "Download the React DevTools for a better development experience: https://reactjs.org/link/react-devtools\n\
            AICreditCalculator.tsx:68 Calculating credits with AI mode: true\n\
            react-router-dom.js?v=b6354e78:4393 ⚠️ React Router Future Flag Warning: React Router will begin wrapping state updates in `React.startTransition` in v7. You can use the `v7_startTransition` future flag to opt-in early.\n\
            warnOnce @ react-router-dom.js?v=b6354e78:4393\n\
            logDeprecation @ react-router-dom.js?v=b6354e78:4396\n";
        let policy = Policy::builtin();
        let typed = typed::typed_units(&policy, console, false);
        let binds: Vec<&str> = typed.binds.iter().map(|b| b.text.as_str()).collect();
        assert!(binds.is_empty(), "{binds:?}");
    }

    #[test]
    fn what_a_message_pastes_after_announcing_it_is_set_apart() {
        let report = "The issue is that the shell picks up the key. Now let me also make it bulletproof by creating a wrapper script. ".repeat(12);
        let text =
            format!("Keep the key out of the shell. I'll paste you the last message.{report}");
        let policy = Policy::builtin();
        let found = typed::message_units(
            &policy,
            &said(Origin::User, &text),
            false,
            pasted_within(&text),
        );
        let binds: Vec<&str> = found
            .iter()
            .filter_map(|f| match f {
                typed::Found::Binds { text, .. } => Some(text.as_str()),
                typed::Found::Apart(_) => None,
            })
            .collect();
        assert_eq!(binds, ["Keep the key out of the shell."]);
        assert!(found.iter().any(|f| matches!(
            f,
            typed::Found::Apart(SetApart { why: NotBinding::Pasted, text, .. }) if text.starts_with("The issue")
        )));
        // Asked of someone else, it announces nothing.
        assert_eq!(
            pasted_within(&format!(
                "Ask for the key. Paste it here and I will configure it.{report}"
            )),
            None
        );
        // Announced with little after it, the paste is the next message's.
        assert_eq!(
            pasted_within("I'll paste you the log. Keep it short."),
            None
        );
    }

    #[test]
    fn a_message_after_the_user_stopped_the_agent_redirects_it() {
        let stopped = [
            said(Origin::User, "你首先要看在系统目录下的vibe-skill"),
            said(Origin::Assistant, "Glob"),
            said(Origin::Tool, "templates/TOOL_TEMPLATE.py"),
            said(Origin::Runtime, "[Request interrupted by user]"),
        ];
        assert!(interrupted_before(&stopped));
        // Tool output after the mark does not hide it; the agent's answer does.
        assert!(!interrupted_before(&stopped[..3]));
        let answered = [
            said(
                Origin::Runtime,
                "[Request interrupted by user for tool use]",
            ),
            said(Origin::Assistant, "Stopped. What next?"),
        ];
        assert!(!interrupted_before(&answered));
        let policy = Policy::builtin();
        let units = |answering| {
            typed::typed_units(&policy, "系统根目录", answering)
                .binds
                .len()
        };
        assert_eq!((units(false), units(true)), (0, 1));
        // News of what happened is no correction.
        assert!(typed::typed_units(&policy, "oom killed", true)
            .binds
            .is_empty());
    }

    #[test]
    fn a_question_in_chinese_that_offers_alternatives_is_answered_by_a_choice() {
        let asked = |text: &str| asked_before(Some(&said(Origin::Assistant, text)));
        assert!(asked("你用的是哪个终端？iTerm2 还是 mac 原生终端？"));
        assert!(asked("Which terminal do you use?"));
        assert!(!asked("我已经改好了。"));
        let policy = Policy::builtin();
        let binds = |text: &str| !typed::typed_units(&policy, text, true).binds.is_empty();
        assert!(binds("mac原生终端"));
        for chooses_nothing in ["可以啦", "还是不行", "在哪里复制"] {
            assert!(!binds(chooses_nothing), "{chooses_nothing}");
        }
    }

    #[test]
    fn a_question_for_a_value_only_the_user_can_give_is_answered_by_it() {
        let asked = |text: &str| asked_before(Some(&said(Origin::Assistant, text)));
        assert!(asked(
            "Alright, I'm Ovo. What's your name? And how should I address you?"
        ));
        assert!(asked("我该怎么称呼你？"));
        assert!(!asked("What went wrong there?"));
    }

    fn squeeze(text: &str) -> String {
        let mut out = String::new();
        squeeze_into(text, &mut out);
        out
    }

    #[test]
    fn the_agents_words_copied_back_to_answer_them_are_the_agents() {
        let policy = Policy::builtin();
        let agent = "There is one limit: these 87 products are only the ones already in a P4P plan.\n\
            To review every product in two months, export the full product list from the back office.\n\
            Send me the export and I will merge it into the tracking sheet.\n\
            Next steps: run the database migration on staging first, then delete the legacy parser module.";
        let units_of = |reply: &str, typed: &str| -> Vec<(String, bool)> {
            let trace = [said(Origin::Assistant, agent), said(Origin::User, reply)];
            let mut found = typed::message_units(&policy, &trace[1], false, None);
            quoted_back(&mut found, &trace[..1], reply, &squeeze(typed), 1);
            found
                .into_iter()
                .map(|f| match f {
                    Found::Binds { text, .. } => (text, true),
                    Found::Apart(apart) => (apart.text, false),
                })
                .collect()
        };
        // The agent's sentences pasted, the user's answer typed after them.
        let reply = "To review every product in two months, export the full product list from the back office.\n\
            I already exported last week's product data, and you said it holds every product of the shop. Use that file.";
        let units = units_of(reply, "");
        assert!(
            units
                .iter()
                .any(|(t, binds)| t.starts_with("To review") && !binds),
            "{units:?}"
        );
        assert!(
            units
                .iter()
                .any(|(t, binds)| t.starts_with("Use that file") && *binds),
            "{units:?}"
        );
        // The agent's words the user puts under "do:", with nothing of
        // theirs after them, are theirs.
        let adopted = "do:\n- run the database migration on staging first, then delete the legacy parser module.";
        let units = units_of(adopted, "");
        assert!(
            units
                .iter()
                .any(|(t, binds)| t.starts_with("run the database") && *binds),
            "{units:?}"
        );
        // Words the agent quoted of the user stay the user's.
        let units = units_of(reply, "To review every product in two months, export the full product list from the back office.");
        assert!(units.iter().all(|(_, binds)| *binds), "{units:?}");
        // The agent's list pasted with "Build this." after it is taken as
        // the user's own to be done; the words that take it are spent.
        for ask in [
            "Build this.",
            "Yeah try building this",
            "ok, implement all of these",
        ] {
            let reply = format!("To review every product in two months, export the full product list from the back office.\n\n{ask}");
            let units = units_of(&reply, "");
            assert!(
                units
                    .iter()
                    .any(|(t, binds)| t.starts_with("To review") && *binds),
                "{ask}: {units:?}"
            );
            assert!(
                units.iter().any(|(t, binds)| t == ask && !binds),
                "{ask}: {units:?}"
            );
        }
    }
}
