//! Findings as checks make them, in report order: plan order, then trace
//! order, then the whole run. Advisory warnings past a limit are counted,
//! not built, so a trace full of paths costs neither time nor memory.

use std::collections::{BTreeMap, BTreeSet};

// Asked once a region of a large trace: foldhash, not SipHash.
use foldhash::HashMap;

use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, Severity};

/// Where a finding belongs in the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Anchor {
    Plan(usize),
    Trace(usize),
    Global,
}

/// Where a finding stands among those of its anchor: a trace region's
/// are in the order its checks ask (kind, tokens, id, the rest), whenever
/// each is found; others in the order they are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    Kind,
    Tokens,
    Id,
    Later,
}

#[derive(Debug, Default)]
pub struct Findings {
    items: Vec<(Anchor, Rank, Diagnostic)>,
    /// At most this many advisory warnings of one code; `None`: all.
    limit: Option<usize>,
    shown: HashMap<Code, usize>,
    /// Codes that reached the limit, with how many more were found.
    hidden: BTreeMap<Code, usize>,
    /// Codes whose search stopped on a budget of its own: their counts
    /// are lower bounds.
    incomplete: BTreeSet<Code>,
}

/// Advisory warnings of one code past the limit: counted, not shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Folded {
    /// The code.
    pub code: String,
    /// Warnings shown.
    pub shown: usize,
    /// Warnings found and not shown.
    pub more: usize,
    /// Whether every one was looked for (`false`: the search stopped on a
    /// budget of its own, and there may be more).
    pub complete: bool,
}

impl Findings {
    pub fn new(limit: Option<usize>) -> Self {
        Findings {
            limit,
            ..Findings::default()
        }
    }

    pub fn push(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
        self.push_ranked(anchor, Rank::Later, diagnostic);
    }

    /// A finding that stands before others of its anchor found before it
    /// (a repeated id, found once every id is known).
    pub fn push_ranked(&mut self, anchor: Anchor, rank: Rank, diagnostic: Diagnostic) {
        self.items.push((anchor, rank, diagnostic));
    }

    /// Whether advisory warnings of `code` are still wanted: checks skip
    /// the search for them once the limit is reached. Each code's warnings
    /// are made in report order, so the ones shown are the first.
    pub fn wants(&self, code: Code) -> bool {
        self.limit
            .is_none_or(|limit| self.shown.get(&code).copied().unwrap_or(0) < limit)
    }

    /// Records one more advisory warning of `code`; false once the limit
    /// is reached: it is then counted, not built.
    pub fn admit(&mut self, code: Code) -> bool {
        if !self.wants(code) {
            *self.hidden.entry(code).or_default() += 1;
            return false;
        }
        *self.shown.entry(code).or_default() += 1;
        true
    }

    /// The search for `code` stopped on a budget of its own: its count is
    /// a lower bound.
    pub fn incomplete(&mut self, code: Code) {
        self.incomplete.insert(code);
    }

    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|(_, _, d)| d.severity == Severity::Error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items
            .iter()
            .map(|(_, _, d)| d)
            .filter(|d| d.severity == Severity::Error)
    }

    /// Every finding in report order, and what was folded, per code.
    pub fn finish(mut self) -> (Vec<Diagnostic>, Vec<Folded>) {
        self.items.sort_by_key(|(anchor, rank, _)| (*anchor, *rank));
        let diagnostics: Vec<Diagnostic> = self.items.into_iter().map(|(_, _, d)| d).collect();
        let folded = self
            .hidden
            .iter()
            .map(|(code, &more)| Folded {
                code: code.name().to_owned(),
                shown: self.shown.get(code).copied().unwrap_or(0),
                more,
                complete: !self.incomplete.contains(code),
            })
            .collect();
        (diagnostics, folded)
    }
}
