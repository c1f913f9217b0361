//! `audit DIR --fleet-report FILE`: what compaction does to a fleet's
//! commitments, summed. A [`Fleet`] takes one session's audited events at a
//! time and keeps only counts, cut by the slices a team asks about
//! (runtime and version, day, trigger, which compaction of its session,
//! commitment kind, identifier sort), and the worst sessions; two fleets
//! merge, in any order, into the fleet of both. So its size is the
//! summary's, not the fleet's, and a distributed run that sums its pieces
//! writes the same [`FleetSummary`] as the command. [`page`] draws it.

mod page;
mod sorts;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use ctxguard_runtimes::audit::{EventAudit, Outcome, Verdict};

pub(crate) use page::is_page;
pub use page::page;

/// How many of the worst sessions a summary names.
pub const WORST: usize = 20;

/// The compaction number from which compactions are counted together:
/// the fifth of a session and every later one.
pub const LATER: u32 = 5;

/// What a fleet summary names itself, and by which a later run knows a
/// file it may replace.
pub const FORMAT: &str = "ctxguard fleet summary 1";

/// Commitments counted by what became of them.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Outcomes {
    /// Kept as the user wrote them.
    pub verbatim: u64,
    /// Kept in other words.
    pub paraphrased: u64,
    /// Changed in meaning.
    pub altered: u64,
    /// Not kept at all.
    pub lost: u64,
    /// Behind an encrypted or missing summary.
    pub unauditable: u64,
}

impl Outcomes {
    fn count(&mut self, outcome: Outcome) {
        *self.slot(outcome) += 1;
    }

    fn slot(&mut self, outcome: Outcome) -> &mut u64 {
        match outcome {
            Outcome::Verbatim => &mut self.verbatim,
            Outcome::Paraphrased => &mut self.paraphrased,
            Outcome::Altered => &mut self.altered,
            Outcome::Lost => &mut self.lost,
            Outcome::Unauditable => &mut self.unauditable,
        }
    }

    fn merge(&mut self, other: &Outcomes) {
        for outcome in Outcome::ALL {
            *self.slot(outcome) += other.get(outcome);
        }
    }

    /// How many had `outcome`.
    pub fn get(&self, outcome: Outcome) -> u64 {
        match outcome {
            Outcome::Verbatim => self.verbatim,
            Outcome::Paraphrased => self.paraphrased,
            Outcome::Altered => self.altered,
            Outcome::Lost => self.lost,
            Outcome::Unauditable => self.unauditable,
        }
    }

    /// How many in all.
    pub fn total(&self) -> u64 {
        Outcome::ALL.iter().map(|&o| self.get(o)).sum()
    }
}

/// Compactions counted by verdict.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Verdicts {
    /// Everything kept, nothing invented.
    pub kept: u64,
    /// Something altered, lost or invented.
    pub lost: u64,
    /// Could not be judged.
    pub unauditable: u64,
}

impl Verdicts {
    /// Counts one compaction's verdict.
    pub fn count(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Kept => self.kept += 1,
            Verdict::Lost => self.lost += 1,
            Verdict::Unauditable => self.unauditable += 1,
        }
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &Verdicts) {
        self.kept += other.kept;
        self.lost += other.lost;
        self.unauditable += other.unauditable;
    }
}

/// Where compactions stand in a fleet: what the summary counts by.
#[derive(
    Clone,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub struct Slice {
    /// The runtime that wrote the session.
    pub runtime: String,
    /// Its version, as it recorded it; empty where it did not.
    pub version: String,
    /// The day of the compaction (`YYYY-MM-DD`, as the runtime wrote the
    /// time); empty where it did not.
    pub date: String,
    /// `auto`, `manual` or what else the runtime records; empty where it
    /// records none.
    pub trigger: String,
    /// Which compaction of its session, from 1; the fifth and every later
    /// one count as 5.
    pub compaction: u32,
}

impl Slice {
    fn of(event: &EventAudit) -> Slice {
        let at = event.compaction.at.as_deref().unwrap_or("");
        let date = at
            .get(..10)
            .filter(|d| {
                d.bytes().enumerate().all(|(i, b)| {
                    if i == 4 || i == 7 {
                        b == b'-'
                    } else {
                        b.is_ascii_digit()
                    }
                })
            })
            .unwrap_or("");
        Slice {
            runtime: event.runtime.clone(),
            version: event.compaction.version.clone().unwrap_or_default(),
            date: date.to_owned(),
            trigger: event.compaction.trigger.clone().unwrap_or_default(),
            compaction: u32::try_from(event.compaction.event)
                .unwrap_or(LATER)
                .clamp(1, LATER),
        }
    }
}

/// The commitments of one kind in one slice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct KindTally {
    /// What became of them.
    #[serde(flatten)]
    pub outcomes: Outcomes,
    /// Those naming an identifier of each sort (`path`, `command`,
    /// `number`, `name`, `url`, `version`; one commitment may name
    /// several), by what became of them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sorts: BTreeMap<String, Outcomes>,
    /// Altered or lost, and given back word for word by the live guard
    /// after the compaction (within its output cap).
    pub restorable: u64,
}

impl KindTally {
    fn merge(&mut self, other: &KindTally) {
        self.outcomes.merge(&other.outcomes);
        for (sort, outcomes) in &other.sorts {
            self.sorts.entry(sort.clone()).or_default().merge(outcomes);
        }
        self.restorable += other.restorable;
    }
}

/// The compactions of one slice.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventTally {
    /// How many.
    pub compactions: u64,
    /// By verdict.
    pub verdicts: Verdicts,
    /// Requirements their summaries invented.
    pub invented: u64,
}

impl EventTally {
    fn merge(&mut self, other: &EventTally) {
        self.compactions += other.compactions;
        self.verdicts.merge(&other.verdicts);
        self.invented += other.invented;
    }
}

/// One row of [`FleetSummary::kinds`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct KindRow {
    /// Where.
    #[serde(flatten)]
    pub slice: Slice,
    /// The commitment kind (`unclassified` for the user's sentences no
    /// rule classified).
    pub kind: String,
    /// What became of them.
    #[serde(flatten)]
    pub tally: KindTally,
}

/// One row of [`FleetSummary::events`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventRow {
    /// Where.
    #[serde(flatten)]
    pub slice: Slice,
    /// What they did.
    #[serde(flatten)]
    pub tally: EventTally,
}

/// A session among the worst of the fleet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Worst {
    /// The session file (with `--redact`, `session N`).
    pub session: String,
    /// Its compactions.
    pub compactions: u64,
    /// Commitments judged, summed over its compactions.
    pub commitments: u64,
    /// Altered, summed over its compactions.
    pub altered: u64,
    /// Lost, summed over its compactions.
    pub lost: u64,
    /// Invented requirements.
    pub invented: u64,
}

impl Worst {
    /// What ranks it: everything a person must be told about.
    pub fn harm(&self) -> u64 {
        self.altered + self.lost + self.invented
    }

    fn rank(&self) -> (std::cmp::Reverse<u64>, &str) {
        (std::cmp::Reverse(self.harm()), &self.session)
    }
}

/// What compaction did to a fleet's commitments: the JSON of
/// `audit --fleet-report FILE.json` (`ctxguard schema fleet`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(title = "ctxguard fleet summary")]
pub struct FleetSummary {
    /// `ctxguard fleet summary 1`.
    pub format: String,
    /// Session files read (with a compaction or not).
    pub sessions: u64,
    /// Compactions audited.
    pub compactions: u64,
    /// Commitments judged, summed over compactions (one still binding at
    /// two compactions is judged twice).
    pub commitments: u64,
    /// What became of them.
    pub outcomes: Outcomes,
    /// Compactions by verdict.
    pub verdicts: Verdicts,
    /// Requirements the summaries invented.
    pub invented: u64,
    /// Commitments altered or lost that the live guard would have given
    /// back word for word after the compaction.
    pub restorable: u64,
    /// Commitments altered or lost that the live guard would not have fit
    /// under its output cap (it names them by count instead).
    pub unfit: u64,
    /// Without any user text or file name.
    pub redacted: bool,
    /// Commitments by slice and kind.
    pub kinds: Vec<KindRow>,
    /// Compactions by slice.
    pub events: Vec<EventRow>,
    /// The sessions with the most altered, lost and invented, worst first.
    pub worst: Vec<Worst>,
}

/// A fleet summed as its sessions come: see the module.
#[derive(Clone, Debug, Default)]
pub struct Fleet {
    sessions: u64,
    unfit: u64,
    kinds: BTreeMap<(Slice, String), KindTally>,
    events: BTreeMap<Slice, EventTally>,
    worst: Vec<Worst>,
    /// The audits of the worst sessions, kept when asked for to write
    /// their pages.
    keep: bool,
    audits: BTreeMap<String, Vec<EventAudit>>,
}

impl Fleet {
    /// An empty fleet; with `keep`, it keeps the audits of its worst
    /// sessions (at most the 20 worst) for [`Fleet::worst_audits`].
    pub fn new(keep: bool) -> Fleet {
        Fleet {
            keep,
            ..Fleet::default()
        }
    }

    /// Adds one session: `events` are all its audited compactions (none
    /// for a session without one).
    pub fn add_session(&mut self, session: &str, events: &[EventAudit]) {
        self.sessions += 1;
        let mut worst = Worst {
            session: session.to_owned(),
            compactions: events.len() as u64,
            commitments: 0,
            altered: 0,
            lost: 0,
            invented: 0,
        };
        for event in events {
            let slice = Slice::of(event);
            let tally = self.events.entry(slice.clone()).or_default();
            tally.compactions += 1;
            tally.verdicts.count(event.verdict);
            tally.invented += event.invented.len() as u64;
            worst.invented += event.invented.len() as u64;
            let given_back = given_back(event);
            for (i, c) in event.commitments.iter().enumerate() {
                let kind = self
                    .kinds
                    .entry((slice.clone(), c.kind.clone()))
                    .or_default();
                kind.outcomes.count(c.outcome);
                for sort in sorts::sorts(&c.text) {
                    kind.sorts
                        .entry(sort.to_owned())
                        .or_default()
                        .count(c.outcome);
                }
                worst.commitments += 1;
                match c.outcome {
                    Outcome::Altered => worst.altered += 1,
                    Outcome::Lost => worst.lost += 1,
                    _ => {}
                }
                if c.outcome.is_loss() {
                    if given_back.get(i).copied().unwrap_or(false) {
                        kind.restorable += 1;
                    } else {
                        self.unfit += 1;
                    }
                }
            }
        }
        if worst.harm() > 0 {
            if self.keep {
                self.audits.insert(session.to_owned(), events.to_vec());
            }
            self.rank(worst);
        }
    }

    /// Takes in `worst` and keeps the [`WORST`] worst.
    fn rank(&mut self, worst: Worst) {
        let at = self
            .worst
            .binary_search_by(|w| w.rank().cmp(&worst.rank()))
            .unwrap_or_else(|at| at);
        if at < WORST {
            self.worst.insert(at, worst);
        } else {
            self.audits.remove(&worst.session);
        }
        while self.worst.len() > WORST {
            if let Some(out) = self.worst.pop() {
                self.audits.remove(&out.session);
            }
        }
    }

    /// Adds every session of `other`.
    pub fn merge(&mut self, other: Fleet) {
        self.sessions += other.sessions;
        self.unfit += other.unfit;
        for (key, tally) in other.kinds {
            self.kinds.entry(key).or_default().merge(&tally);
        }
        for (slice, tally) in other.events {
            self.events.entry(slice).or_default().merge(&tally);
        }
        self.audits.extend(other.audits);
        for worst in other.worst {
            self.rank(worst);
        }
    }

    /// The audits of the worst sessions, worst first (kept only by a fleet
    /// made with `keep`).
    pub fn worst_audits(&self) -> Vec<(&Worst, &[EventAudit])> {
        self.worst
            .iter()
            .filter_map(|w| self.audits.get(&w.session).map(|a| (w, a.as_slice())))
            .collect()
    }

    /// The summary; `redact` leaves out every file name (the worst sessions
    /// are numbered).
    pub fn summary(&self, redact: bool) -> FleetSummary {
        let mut outcomes = Outcomes::default();
        for tally in self.kinds.values() {
            outcomes.merge(&tally.outcomes);
        }
        let mut verdicts = Verdicts::default();
        let mut invented = 0;
        for tally in self.events.values() {
            verdicts.merge(&tally.verdicts);
            invented += tally.invented;
        }
        FleetSummary {
            format: FORMAT.to_owned(),
            sessions: self.sessions,
            compactions: self.events.values().map(|t| t.compactions).sum(),
            commitments: outcomes.total(),
            outcomes,
            verdicts,
            invented,
            restorable: self.kinds.values().map(|t| t.restorable).sum(),
            unfit: self.unfit,
            redacted: redact,
            kinds: self
                .kinds
                .iter()
                .map(|((slice, kind), tally)| KindRow {
                    slice: slice.clone(),
                    kind: kind.clone(),
                    tally: tally.clone(),
                })
                .collect(),
            events: self
                .events
                .iter()
                .map(|(slice, tally)| EventRow {
                    slice: slice.clone(),
                    tally: tally.clone(),
                })
                .collect(),
            worst: self
                .worst
                .iter()
                .enumerate()
                .map(|(n, w)| Worst {
                    session: if redact {
                        format!("session {}", n + 1)
                    } else {
                        w.session.clone()
                    },
                    ..w.clone()
                })
                .collect(),
        }
    }

    /// The fleet a summary was made from, to merge others into; `None` for
    /// a redacted summary (its sessions have no names to merge by) or one
    /// of another format.
    pub fn from_summary(summary: FleetSummary) -> Option<Fleet> {
        if summary.redacted || summary.format != FORMAT {
            return None;
        }
        Some(Fleet {
            sessions: summary.sessions,
            unfit: summary.unfit,
            kinds: summary
                .kinds
                .into_iter()
                .map(|row| ((row.slice, row.kind), row.tally))
                .collect(),
            events: summary
                .events
                .into_iter()
                .map(|row| (row.slice, row.tally))
                .collect(),
            worst: summary.worst,
            keep: false,
            audits: BTreeMap::new(),
        })
    }
}

/// For each commitment of `event`, whether the live guard would have given
/// it back after the compaction: the ledger holds what the user said, and
/// SessionStart re-injects the active commitments in priority order while
/// they fit under the runtime's output cap.
fn given_back(event: &EventAudit) -> Vec<bool> {
    use ctxguard_core::buffer::trace::{RegionKind, Status};
    use ctxguard_runtimes::hook::{Active, Commitment};
    if !event.commitments.iter().any(|c| c.outcome.is_loss()) {
        return vec![false; event.commitments.len()];
    }
    let active: Vec<Active> = event
        .commitments
        .iter()
        .map(|c| Active {
            commitment: Commitment::new(
                &RegionKind::Commitment(c.kind.clone()),
                None,
                c.text.clone(),
                c.derived,
                Default::default(),
            ),
            since: String::new(),
            line: c.source_line.unwrap_or(0),
            status: Status::Active,
            unpinned: false,
        })
        .collect();
    let mut kinds: Vec<String> = Vec::new();
    for c in &event.commitments {
        if !kinds.contains(&c.kind) {
            kinds.push(c.kind.clone());
        }
    }
    let refs: Vec<&Active> = active.iter().collect();
    let Some(reinjected) =
        ctxguard_runtimes::hook::reinject::reinject(&refs, &kinds, "", None, None)
    else {
        return vec![false; event.commitments.len()];
    };
    let included: std::collections::HashSet<&str> =
        reinjected.included.iter().map(String::as_str).collect();
    active
        .iter()
        .map(|a| included.contains(a.commitment.id.as_str()))
        .collect()
}

#[cfg(test)]
mod tests;
