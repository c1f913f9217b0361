//! Findings as checks make them, in report order: plan order, then trace
//! order, then the whole run. Advisory warnings past a limit are counted,
//! not built, so a trace full of paths costs neither time nor memory.

use std::collections::{BTreeSet, HashMap};

use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, Severity};

/// Where a finding belongs in the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Anchor {
    Plan(usize),
    Trace(usize),
    Global,
}

#[derive(Debug, Default)]
pub struct Findings {
    items: Vec<(Anchor, Diagnostic)>,
    /// At most this many advisory warnings of one code; `None`: all.
    limit: Option<usize>,
    shown: HashMap<Code, usize>,
    /// Codes that reached the limit: the search for more stopped there.
    stopped: BTreeSet<Code>,
}

impl Findings {
    pub fn new(limit: Option<usize>) -> Self {
        Findings {
            limit,
            ..Findings::default()
        }
    }

    pub fn push(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
        self.items.push((anchor, diagnostic));
    }

    /// Whether advisory warnings of `code` are still wanted: checks skip
    /// the search for them once the limit is reached. Each code's warnings
    /// are made in report order, so the ones shown are the first.
    pub fn wants(&self, code: Code) -> bool {
        self.limit
            .is_none_or(|limit| self.shown.get(&code).copied().unwrap_or(0) < limit)
    }

    /// Whether the search for warnings of `code` has stopped at the limit.
    pub fn stopped(&self, code: Code) -> bool {
        self.stopped.contains(&code)
    }

    /// Records one more advisory warning of `code`; false once the limit
    /// is reached, and the report then says the search stopped.
    pub fn admit(&mut self, code: Code) -> bool {
        if !self.wants(code) {
            self.stopped.insert(code);
            return false;
        }
        *self.shown.entry(code).or_default() += 1;
        true
    }

    pub fn has_errors(&self) -> bool {
        self.items
            .iter()
            .any(|(_, d)| d.severity == Severity::Error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items
            .iter()
            .map(|(_, d)| d)
            .filter(|d| d.severity == Severity::Error)
    }

    /// Every finding in report order, then one count per folded code.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.items.sort_by_key(|(anchor, _)| *anchor);
        let mut diagnostics: Vec<Diagnostic> = self.items.into_iter().map(|(_, d)| d).collect();
        for code in self.stopped {
            let limit = self.limit.unwrap_or_default();
            diagnostics.push(
                Diagnostic::new(
                    code,
                    format!("`{code}` stopped after {limit} warnings; there are more"),
                )
                .severity(Severity::Warning)
                .help("pass `--all-warnings` to look for and show every one"),
            );
        }
        diagnostics
    }
}
