//! What a summary says it quotes and covers, and what it may not do: cover
//! a commitment, span one, or write a variant of a pinned identifier.

use super::*;

impl<'a> Verifier<'a> {
    /// The regions summary `p` says it quotes: each one's text must stand
    /// in the summary byte for byte. A quoted commitment is carried by the
    /// summary, in the order its quotes stand in the text.
    /// Returns where the quotes stand in the text.
    pub(super) fn quotes(
        &mut self,
        p: usize,
        quotes: &[Spanned<Text>],
        text: &str,
        text_span: &Span,
    ) -> Vec<Span> {
        let mut found = Vec::new();
        for Spanned { node: id, span } in quotes {
            let Some(t) = self.lookup(p, id, span) else {
                continue;
            };
            if !self.claim(p, t, span) {
                continue;
            }
            let Some(said) = self.content(p, t) else {
                continue;
            };
            let quoted = said.as_text();
            match text.find(quoted.as_ref()).filter(|_| !quoted.is_empty()) {
                Some(at) => found.push((at, at + quoted.len(), t)),
                None if self.index.class[t].is_protected() => {
                    self.altered[t] = true;
                    self.sequence.push((p, self.index.canonical(t)));
                    let closest = difference::closest_passage(text, &quoted);
                    let span = self.plan.file.find_within(text_span, closest);
                    self.altered_commitment(p, t, &said, &Content::Text(closest.into()), &span);
                }
                None => {
                    let closest = difference::closest_passage(text, &quoted);
                    self.rewritten(p, t, &said, text_span, closest)
                }
            }
        }
        found.sort_unstable();
        let places = found.iter().map(|&(start, end, _)| start..end).collect();
        for (_, _, t) in found {
            self.carry(p, t);
        }
        places
    }

    pub(super) fn summary(
        &mut self,
        p: usize,
        covers: &[Spanned<Text>],
        text: &str,
        text_span: &Span,
        quoted: &[Span],
    ) {
        // Summaries are numbered as `Ahead` numbers them: in plan order.
        let ahead = self.ahead.at(self.summaries);
        self.summaries += 1;
        let mut low = usize::MAX;
        let mut high = 0;
        let mut covers_span: Option<Span> = None;
        for Spanned { node: id, span } in covers {
            covers_span = Some(covers_span.map_or(span.clone(), |s: Span| {
                s.start.min(span.start)..s.end.max(span.end)
            }));
            let Some(t) = self.lookup(p, id, span) else {
                continue;
            };
            if !self.claim(p, t, span) {
                continue;
            }
            if self.index.class[t].is_protected() {
                self.covers_commitment(p, t, span);
            } else {
                low = low.min(t);
                high = high.max(t);
            }
        }
        if low < high {
            let mut j = self.next_protected[low + 1] as usize;
            while j < high {
                if self.used_by[j] != Some(narrow(p)) {
                    let span = covers_span.clone().unwrap_or(text_span.clone());
                    self.spans_commitment(p, j, low, high, span);
                    break;
                }
                j = self.next_protected[j + 1] as usize;
            }
        }
        // What the summary says in its own words: quotes are checked above.
        let own_words: Cow<'_, str> = match quoted {
            [] => Cow::Borrowed(text),
            _ => {
                let mut masked = text.to_owned().into_bytes();
                for span in quoted {
                    masked[span.clone()].fill(b' ');
                }
                Cow::Owned(String::from_utf8_lossy(&masked).into_owned())
            }
        };
        // All hints as one pattern first: which kind's matched is asked only
        // of a finding shown.
        let asked = quoted
            .is_empty()
            .then(|| ahead.and_then(|(hinted, _)| *hinted));
        let hinted = asked
            .flatten()
            .unwrap_or_else(|| self.policy().any_hint(&own_words))
            && self.findings.admit(Code::CommitmentInSummary);
        let kind = hinted
            .then(|| self.policy().first_hint(&own_words))
            .flatten();
        if let Some(k) = kind.map(|(k, _)| k) {
            let name = self
                .policy()
                .kinds
                .get(k)
                .map_or("", |kind| kind.name.as_str());
            let diagnostic = codes::commitment_in_summary(name);
            let span = self.index.hint_span(&self.plan.file, text_span, k);
            let diagnostic = self.plan_label(
                diagnostic,
                p,
                span,
                format!("matches the hint for `{name}`"),
            );
            self.push(Anchor::Plan(p), diagnostic);
        }
        // Searched to the end (within its own edit budget) so the report
        // counts every variant, shown or not.
        if !self.drift.is_empty() {
            // Asked ahead, it stands while the budget holds what it spent.
            let ahead = ahead.and_then(|(_, found)| found.as_ref());
            let found: Vec<Found> = match ahead {
                Some((found, spent)) if self.drift.spend(*spent) => found.clone(),
                _ => self.drift.find(text).into_iter().map(found_of).collect(),
            };
            if self.drift.exhausted() && !self.drift_stopped {
                self.drift_stopped = true;
                self.findings.incomplete(Code::IdentifierDrift);
                let diagnostic = codes::drift_stopped(crate::verify::drift::EDIT_BUDGET);
                self.push(Anchor::Plan(p), diagnostic);
            }
            for Found {
                word,
                pinned,
                reason,
                region: t,
            } in found
            {
                if !self.findings.admit(Code::IdentifierDrift) {
                    continue;
                }
                let identity = self.identity(t);
                let diagnostic = codes::identifier_drift(&word, &pinned, &identity);
                let word_span = self.plan.file.find_within(text_span, &word);
                let diagnostic = self.plan_label(diagnostic, p, word_span, reason);
                let diagnostic =
                    self.trace_label(diagnostic, t, self.index.content_span(t), "pinned here");
                self.push(Anchor::Plan(p), diagnostic);
            }
        }
    }

    pub(super) fn covers_commitment(&mut self, p: usize, t: usize, span: &Span) {
        let identity = match self.index.class[t] {
            Class::Commitment(_) => Some(self.identity(t)),
            _ => None,
        };
        let diagnostic = codes::summary_covers_commitment(identity.as_deref(), self.index.id(t))
            .severity(self.severity(t));
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "not narrative");
        let diagnostic = self.trace_label(diagnostic, t, self.index.opening(t), "written here");
        self.push(Anchor::Plan(p), diagnostic);
    }

    pub(super) fn spans_commitment(
        &mut self,
        p: usize,
        j: usize,
        low: usize,
        high: usize,
        span: Span,
    ) {
        let (before, after) = (self.index.id(low), self.index.id(high));
        let identity = match self.index.class[j] {
            Class::Commitment(_) => Some(self.identity(j)),
            _ => None,
        };
        let diagnostic = codes::summary_spans_commitment(identity.as_deref(), self.index.id(j))
            .severity(self.severity(j));
        let diagnostic = self.plan_label(
            diagnostic,
            p,
            span,
            format!("covers `{before}` and `{after}`"),
        );
        let diagnostic =
            self.trace_label(diagnostic, j, self.index.opening(j), "stands between them");
        self.push(Anchor::Plan(p), diagnostic);
    }
}
