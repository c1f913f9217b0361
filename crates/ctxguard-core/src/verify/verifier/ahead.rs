//! Summaries of a large plan asked ahead, on another core, while the pass
//! over the plan goes forward.

use super::*;

/// A variant of a pinned identifier in a summary.
#[derive(Clone)]
pub(super) struct Found {
    /// The word as the summary writes it.
    pub(super) word: String,
    /// The identifier as it was pinned.
    pub(super) pinned: String,
    /// How the two are alike.
    pub(super) reason: String,
    /// The pinned region.
    pub(super) region: usize,
}

/// What each summary of a large plan is asked apart from the pass over
/// the plan, since it needs nothing from the summaries before it: whether
/// a hint matches its own words (a summary that quotes none), and the
/// variants of pinned identifiers in it with what the search spent of the
/// edit budget. Another core asks the summaries from the last one back
/// while the pass goes forward, and stops where the pass has come to: the
/// pass asks in turn each summary not asked yet, so each is asked once,
/// and what is found does not depend on who asked first.
#[derive(Default)]
pub(crate) struct Ahead {
    /// Asked of each summary, numbered in plan order; made by [`Ahead::ask`].
    asked: OnceLock<Vec<OnceLock<Asked>>>,
    /// Summaries from which they are asked ahead.
    from: usize,
    /// The summary the pass has come to.
    pass: AtomicUsize,
}

/// Whether a hint matches, and the variants found (`None`: asked in turn).
pub(super) type Asked = (Option<bool>, Option<Searched>);

/// The variants found in a summary, and what the search spent.
pub(super) type Searched = (Vec<Found>, u64);

/// Summaries from which they are asked ahead.
pub(crate) const AHEAD: usize = 1024;

impl Ahead {
    /// Summaries to be asked when the plan has `from` of them or more.
    pub(crate) fn new(from: usize) -> Ahead {
        Ahead {
            from,
            ..Ahead::default()
        }
    }

    /// Whether `plan` may have enough summaries to ask them ahead.
    pub(crate) fn asks(&self, plan: &Plan) -> bool {
        plan.regions.len() >= self.from
    }

    /// Asks the summaries of `plan`, if it has enough of them, from the
    /// last one back, until the pass comes to them.
    pub(crate) fn ask(&self, policy: &Policy, drift: &DriftIndex, plan: &Plan) {
        self.ask_from(0, policy, drift, plan);
    }

    /// [`Ahead::ask`], stopping at summary `stop` too (a test asks the
    /// summaries after it before the pass starts).
    pub(crate) fn ask_from(&self, stop: usize, policy: &Policy, drift: &DriftIndex, plan: &Plan) {
        if self.pass.load(Ordering::Relaxed) == usize::MAX {
            return;
        }
        let summaries = || {
            (plan.regions.iter().rev()).filter_map(|region| match &region.entry {
                Entry::Summary { quotes, text, .. } => Some((quotes, text)),
                _ => None,
            })
        };
        let count = summaries().count();
        if count < self.from {
            return;
        }
        let asked = self
            .asked
            .get_or_init(|| (0..count).map(|_| OnceLock::new()).collect());
        for ((quotes, text), (s, asked)) in summaries().zip(asked.iter().enumerate().rev()) {
            if self.pass.load(Ordering::Relaxed).max(stop) >= s {
                return;
            }
            if asked.get().is_some() {
                continue;
            }
            let hinted = quotes.is_empty().then(|| policy.any_hint(&text.node));
            let found = (!drift.is_empty())
                .then(|| drift.find_ahead(&text.node))
                .flatten()
                .map(|(found, spent)| (found.into_iter().map(found_of).collect(), spent));
            let _ = asked.set((hinted, found));
        }
    }

    /// The pass has come to summary `s`: what it was asked, if it was.
    pub(super) fn at(&self, s: usize) -> Option<&Asked> {
        self.pass.store(s, Ordering::Relaxed);
        self.asked.get()?.get(s)?.get()
    }

    /// Summaries asked so far.
    #[cfg(test)]
    pub(crate) fn answered(&self) -> usize {
        (self.asked.get().into_iter().flatten())
            .filter(|asked| asked.get().is_some())
            .count()
    }

    /// The pass is over: nothing more is asked.
    pub(crate) fn over(&self) {
        self.pass.store(usize::MAX, Ordering::Relaxed);
    }
}

pub(super) fn found_of(drift: crate::verify::drift::Drift<'_>) -> Found {
    Found {
        word: drift.word,
        pinned: drift.pinned.text.clone(),
        reason: drift.reason,
        region: drift.pinned.region,
    }
}
