//! The verifier's state and its pass over the plan: every `keep`, written
//! commitment, summary and narrative entry against the trace index; then
//! what is missing and the budget. The order checks are in `order`.

use crate::buffer::plan::{Entry, Plan, PlanRegion};
use crate::buffer::tokens::{self, Counter};
use crate::buffer::trace::{Content, Status};
use crate::diagnostics::codes::policy as policy_codes;
use crate::diagnostics::codes::verify as codes;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::policy::Policy;
use crate::source::{Span, Spanned, Text};
use crate::verify::drift::DriftIndex;
use crate::verify::findings::{Anchor, Findings};
use crate::verify::index::{Class, TraceIndex};
use crate::verify::{difference, Options};
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

mod ahead;
mod summary;

use ahead::{found_of, Found};
pub(super) use ahead::{Ahead, AHEAD};

pub(super) struct Verifier<'a> {
    pub(super) index: TraceIndex<'a>,
    pub(super) plan: &'a Plan,
    pub(super) findings: Findings,
    /// The plan region that keeps, covers or writes out each trace region
    /// (`u32`: a million regions take 8 MB, not 16).
    pub(super) used_by: Vec<Option<u32>>,
    /// For each identity's first region: whether a plan region holds it verbatim.
    pub(super) represented: Vec<bool>,
    pub(super) altered: Vec<bool>,
    /// Kept verbatim (`keep`, or `narrative` with `from`).
    pub(super) kept: Vec<bool>,
    /// The first protected (commitment or unclassified) region at or after each index.
    pub(super) next_protected: Vec<u32>,
    /// Commitments in plan order: (plan index, canonical trace index).
    pub(super) sequence: Vec<(usize, usize)>,
    pub(super) tokens_after: u64,
    /// The edit-distance rule of identifier drift ran out of budget (said once).
    pub(super) drift_stopped: bool,
    /// Plan regions whose `tokens` was taken as given: (plan index, given).
    pub(super) claimed: Vec<(usize, u64)>,
    /// The tokens of each plan region whose written text is counted, all
    /// counted before the plan is read (see [`Verifier::count`]).
    pub(super) written: Vec<Option<u64>>,
    /// Where the next trace region a plan names most likely is: after the
    /// last one it named (plans name regions in trace order).
    pub(super) near: usize,
    /// The pinned identifiers' index (taken from the trace index, to be
    /// shared with [`Ahead::ask`] while the pass goes on).
    pub(super) drift: &'a DriftIndex,
    /// What was asked of each summary apart from the pass.
    pub(super) ahead: &'a Ahead,
    /// Summaries the pass has come to.
    pub(super) summaries: usize,
}

/// A position as the verifier keeps it: a trace or plan of more than
/// 4 billion regions cannot be read into memory to begin with.
pub(super) fn narrow(position: usize) -> u32 {
    u32::try_from(position).unwrap_or(u32::MAX)
}

/// The tokens of every plan region's written text that is counted (its
/// `tokens` not given, or `--recount`), counted on every core when there
/// is enough of it.
pub fn written_tokens(counter: Counter, plan: &Plan) -> Vec<Option<u64>> {
    let texts: Vec<(usize, Cow<'_, str>)> = (plan.regions.iter().enumerate())
        .filter(|(_, region)| counter.counts(region.tokens))
        .filter_map(|(p, region)| Some((p, region.written()?)))
        .collect();
    let tokens = counter.count_all(&texts.iter().map(|(_, text)| text).collect::<Vec<_>>());
    let mut written = vec![None; plan.regions.len()];
    for ((p, _), tokens) in texts.iter().zip(tokens) {
        written[*p] = Some(tokens);
    }
    written
}

impl<'a> Verifier<'a> {
    pub(super) fn policy(&self) -> &'a Policy {
        self.index.policy
    }

    pub(super) fn push(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
        self.findings.push(anchor, diagnostic);
    }

    pub(super) fn plan_label(
        &self,
        diagnostic: Diagnostic,
        p: usize,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        // A plan ctxguard wrote (`plan`) has no file to point into: a
        // summary is shown by its text, at the trace regions it covers.
        let message: String = message.into();
        if self.plan.file.text().is_empty() {
            if let Entry::Summary { covers, text, .. } = &self.plan.regions[p].entry {
                let mut diagnostic = diagnostic.note(format!(
                    "the summary written: \"{}\"",
                    crate::diagnostics::codes::echo(&text.node)
                ));
                let covered = covers
                    .iter()
                    .filter_map(|c| self.index.region(&c.node, self.index.len()));
                for (n, t) in covered.enumerate() {
                    let said = match n {
                        0 => format!("summarized from here; the summary {message}"),
                        _ => "and from here".to_owned(),
                    };
                    diagnostic = diagnostic.label_at(
                        &self.index.file,
                        self.index.opening(t),
                        self.index.pointer(t),
                        said,
                    );
                    if n == 2 {
                        break;
                    }
                }
                return diagnostic;
            }
        }
        let pointer = self.plan.regions[p].place.pointer();
        diagnostic.label_at(&self.plan.file, span, pointer, message)
    }

    pub(super) fn trace_label(
        &self,
        diagnostic: Diagnostic,
        t: usize,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let index = &self.index;
        let diagnostic = diagnostic.label_at(&index.file, span, index.pointer(t), message);
        match index.source(t) {
            Some(source) => diagnostic.note(format!(
                "`{}` comes from {}",
                crate::diagnostics::codes::echo(index.id(t)),
                source.describe()
            )),
            None => diagnostic,
        }
    }

    pub(super) fn identity(&self, t: usize) -> String {
        self.index.identity_or_id(t)
    }

    /// Trace region `t`'s content, for a check that compares it. Read back
    /// from disk, it may fail (the file changed): that is a finding.
    fn content(&mut self, p: usize, t: usize) -> Option<Content> {
        match self.index.content(t) {
            Ok(content) => Some(content.into_owned()),
            Err(diagnostic) => {
                self.push(Anchor::Plan(p), *diagnostic);
                None
            }
        }
    }

    /// Tokens of text the plan writes (a summary, a narrative, a commitment
    /// written out): its own `tokens` for now, or counted (all counted
    /// before the plan is read: [`written_tokens`]). A given count is
    /// checked in [`Verifier::budget`] whenever it could decide the verdict,
    /// so a plan cannot pass by claiming to be smaller than it is.
    fn count(&mut self, p: usize, given: Option<u64>) -> u64 {
        let counter = self.index.counter;
        match given {
            Some(given) if !counter.counts(Some(given)) => {
                self.claimed.push((p, given));
                given
            }
            _ => {
                let written = self.written.get(p).copied().flatten().unwrap_or(0);
                let counted = counter.count(given, || written);
                if let Some(given) = counted.stale {
                    self.stale_tokens(p, given, counted.tokens);
                }
                counted.tokens
            }
        }
    }

    /// Counts the text whose `tokens` the plan gave, if the budget is at
    /// stake: when, at one token a byte at most, it could push the plan past
    /// `window`. Nothing is tokenized for a plan that fits either way.
    fn check_claims(&mut self, window: u64) {
        let claimed = std::mem::take(&mut self.claimed);
        let texts: Vec<Cow<'_, str>> = (claimed.iter())
            .map(|&(p, _)| self.plan.regions[p].written().unwrap_or_default())
            .collect();
        let most =
            (claimed.iter().zip(&texts)).fold(self.tokens_after, |total, ((_, given), text)| {
                total.saturating_add((text.len() as u64).saturating_sub(*given))
            });
        if most <= window {
            return;
        }
        let counts = self.index.counter.count_all(&texts);
        for ((p, given), counted) in claimed.into_iter().zip(counts) {
            if tokens::is_stale(given, counted) {
                self.stale_tokens(p, given, counted);
            }
            self.tokens_after = self
                .tokens_after
                .saturating_add(counted.saturating_sub(given));
        }
    }

    /// A kept trace region's tokens: the trace's count, whatever the plan
    /// region says (a `tokens` more than 10% off is reported).
    fn kept_tokens(&mut self, p: usize, given: Option<u64>, t: usize) -> u64 {
        let real = self.index.tokens[t];
        if let Some(given) = given.filter(|&given| tokens::is_stale(given, real)) {
            self.stale_tokens(p, given, real);
        }
        real
    }

    fn stale_tokens(&mut self, p: usize, given: u64, real: u64) {
        if !self.findings.admit(Code::TokenCountMismatch) {
            return;
        }
        let id = self.plan.regions[p]
            .place
            .pointer()
            .unwrap_or_else(|| format!("at plan position {}", p + 1));
        let tokenizer = self.index.counter.tokenizer.name();
        let diagnostic = codes::token_count_mismatch(&id, given, real, tokenizer);
        let span = self.plan.regions[p].place.span.clone();
        let diagnostic = self.plan_label(diagnostic, p, span, format!("gives {given} tokens"));
        self.push(Anchor::Plan(p), diagnostic);
    }

    pub(super) fn entry(&mut self, p: usize, region: &'a PlanRegion) {
        match &region.entry {
            Entry::Keep { id } => {
                let Some(t) = self.lookup(p, &id.node, &id.span) else {
                    return;
                };
                let tokens = self.kept_tokens(p, region.tokens, t);
                self.tokens_after = self.tokens_after.saturating_add(tokens);
                if self.claim(p, t, &id.span) {
                    self.keep(p, t, region);
                }
            }
            Entry::Commitment { kind, key, content } => {
                let tokens = self.count(p, region.tokens);
                self.tokens_after = self.tokens_after.saturating_add(tokens);
                self.written_commitment(p, region, kind, key, content);
            }
            Entry::Summary {
                covers,
                quotes,
                text,
                ..
            } => {
                let tokens = self.count(p, region.tokens);
                self.tokens_after = self.tokens_after.saturating_add(tokens);
                let quoted = self.quotes(p, quotes, &text.node, &text.span);
                self.summary(p, covers, &text.node, &text.span, &quoted);
            }
            Entry::Narrative { from, text, .. } => {
                let Some(t) = self.lookup(p, &from.node, &from.span) else {
                    return;
                };
                let tokens = match text {
                    Some(_) => self.count(p, region.tokens),
                    None => self.kept_tokens(p, region.tokens, t),
                };
                self.tokens_after = self.tokens_after.saturating_add(tokens);
                if !self.claim(p, t, &from.span) {
                    return;
                }
                match text {
                    Some(text) => {
                        let Some(content) = self.content(p, t) else {
                            return;
                        };
                        if text.node != content.as_text() {
                            self.rewritten(p, t, &content, &text.span, &text.node)
                        } else {
                            self.keep(p, t, region)
                        }
                    }
                    None => self.keep(p, t, region),
                }
            }
        }
    }

    fn lookup(&mut self, p: usize, id: &str, span: &Span) -> Option<usize> {
        let found = self.index.region(id, self.near);
        self.near = found.map_or(self.near, |t| t + 1);
        if found.is_none() {
            let diagnostic = codes::unknown_region(id);
            let diagnostic =
                self.plan_label(diagnostic, p, span.clone(), "no such region in the trace");
            self.push(Anchor::Plan(p), diagnostic);
        }
        found
    }

    /// Records that plan region `p` uses trace region `t`; a second use is a duplicate.
    fn claim(&mut self, p: usize, t: usize, span: &Span) -> bool {
        match self.used_by[t] {
            None => {
                self.used_by[t] = Some(narrow(p));
                true
            }
            Some(first) => {
                let first = first as usize;
                let diagnostic = codes::duplicate_plan_use(self.index.id(t));
                let diagnostic = self.plan_label(diagnostic, p, span.clone(), "used again here");
                let first_span = self.plan.regions[first].place.span.clone();
                let diagnostic = self.plan_label(diagnostic, first, first_span, "first used here");
                self.push(Anchor::Plan(p), diagnostic);
                false
            }
        }
    }

    /// Trace region `t` kept verbatim by plan region `p`.
    fn keep(&mut self, p: usize, t: usize, region: &PlanRegion) {
        if self.carry(p, t) {
            if let Some(status) = &region.status {
                self.status(p, t, status.node, status.span.clone());
            }
        }
    }

    /// Trace region `t` is in the buffer after, byte for byte, at plan
    /// region `p`; a commitment's identity is represented there. Whether `t`
    /// is a commitment.
    fn carry(&mut self, p: usize, t: usize) -> bool {
        self.kept[t] = true;
        let Class::Commitment(_) = self.index.class[t] else {
            return false;
        };
        let c = self.index.canonical(t);
        if !self.represented[c] {
            self.represented[c] = true;
            self.sequence.push((p, c));
        }
        true
    }

    fn written_commitment(
        &mut self,
        p: usize,
        region: &PlanRegion,
        kind: &Spanned<String>,
        key: &str,
        content: &Spanned<Content>,
    ) {
        let (kind_span, kind) = (&kind.span, kind.node.as_str());
        let (content_span, content) = (&content.span, &content.node);
        if self.policy().kind(kind).is_none() {
            let names = self.policy().kinds.iter().map(|k| k.name.as_str());
            let suggestion = crate::diagnostics::suggest::did_you_mean(kind, names);
            let diagnostic = policy_codes::unknown_kind_in_plan(kind, suggestion);
            let diagnostic =
                self.plan_label(diagnostic, p, kind_span.clone(), "not a declared kind");
            self.push(Anchor::Plan(p), diagnostic);
            return;
        }
        let identity = format!("{kind}:{key}");
        let Some(t) = self.index.identity(kind, key) else {
            let diagnostic = codes::invented_commitment(&identity);
            let diagnostic =
                self.plan_label(diagnostic, p, region.place.span.clone(), "not in the trace");
            self.push(Anchor::Plan(p), diagnostic);
            return;
        };
        if !self.claim(p, t, &region.place.span) {
            return;
        }
        let Some(trace_content) = self.content(p, t) else {
            return;
        };
        if trace_content.same(content) {
            self.represented[t] = true;
            self.sequence.push((p, t));
            let status = region.status.as_ref().map_or(Status::Active, |s| s.node);
            let span = region
                .status
                .as_ref()
                .map_or(region.place.span.clone(), |s| s.span.clone());
            self.status(p, t, status, span);
        } else {
            self.altered[t] = true;
            self.sequence.push((p, t));
            self.altered_commitment(p, t, &trace_content, content, content_span);
        }
    }

    /// Plan region `p` holds `content` where trace commitment `t` (which
    /// says `said`) should be.
    fn altered_commitment(
        &mut self,
        p: usize,
        t: usize,
        said: &Content,
        content: &Content,
        span: &Span,
    ) {
        let identity = self.identity(t);
        let mut diagnostic =
            codes::altered_commitment(&identity, self.index.id(t)).severity(self.severity(t));
        for note in difference::differences(said, content) {
            diagnostic = diagnostic.note(note);
        }
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "differs from the trace");
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            self.index.content_span(t),
            "what the trace says",
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    /// A `narrative` entry whose text differs from the region it names
    /// (which says `said`).
    fn rewritten(&mut self, p: usize, t: usize, said: &Content, span: &Span, text: &str) {
        if self.index.class[t].is_protected() {
            self.altered[t] = true;
            self.altered_commitment(p, t, said, &Content::Text(text.into()), span);
            return;
        }
        let mut diagnostic = codes::altered_narrative(self.index.id(t));
        for note in difference::differences(said, &Content::Text(text.into())) {
            diagnostic = diagnostic.note(note);
        }
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "not the trace's text");
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            self.index.content_span(t),
            "what the trace says",
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn status(&mut self, p: usize, t: usize, status: Status, span: Span) {
        let was = self.index.status(t);
        if status == was {
            return;
        }
        let identity = self.identity(t);
        let revived = was == Status::Discharged;
        let diagnostic =
            codes::status_changed(&identity, self.index.id(t), revived).severity(self.severity(t));
        let diagnostic = self.plan_label(diagnostic, p, span, format!("`{}` here", status.name()));
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            self.index.opening(t),
            format!("`{}` in the trace", was.name()),
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn severity(&self, t: usize) -> Severity {
        self.index.severity(self.index.class[t])
    }

    pub(super) fn missing(&mut self) {
        for t in 0..self.index.class.len() {
            match self.index.class[t] {
                Class::Commitment(_) => {
                    if self.represented[t]
                        || self.altered[t]
                        || self.index.status(t) == Status::Discharged
                        || self.index.canonical(t) != t
                    {
                        continue;
                    }
                    let identity = self.identity(t);
                    let covered = self.used_by[t].is_some();
                    let diagnostic =
                        codes::missing_commitment(&identity, self.index.id(t), covered)
                            .severity(self.severity(t));
                    let diagnostic = self.trace_label(
                        diagnostic,
                        t,
                        self.index.opening(t),
                        "no plan region keeps it",
                    );
                    self.push(Anchor::Trace(t), diagnostic);
                }
                Class::Unclassified if !self.kept[t] => {
                    let diagnostic = codes::unclassified_dropped(self.index.id(t));
                    let diagnostic =
                        self.trace_label(diagnostic, t, self.index.opening(t), "dropped");
                    self.push(Anchor::Trace(t), diagnostic);
                }
                _ => {}
            }
        }
    }

    pub(super) fn budget(&mut self, options: &Options) -> Option<u64> {
        let policy = self.policy();
        let window = options.budget.window_for(policy)?;
        let window_label = |diagnostic: Diagnostic, message: String| match (
            &options.budget.window,
            &policy.window,
        ) {
            (None, Some(setting)) => match &setting.origin {
                Some(origin) => diagnostic.label(&origin.file, origin.span.clone(), message),
                None => diagnostic,
            },
            _ => diagnostic.note(format!("the window is {window} tokens, from `--budget`")),
        };
        let required = self.index.required_tokens;
        let share = policy.commitment_share.as_ref();
        let share_budget = policy.commitment_budget(window);
        if required > window {
            let diagnostic = codes::over_window(required, window);
            let diagnostic = window_label(diagnostic, format!("the window: {window} tokens"));
            self.push(Anchor::Global, diagnostic);
            return Some(window);
        }
        if let (Some(share), Some(share_budget)) = (share, share_budget) {
            if required > share_budget {
                let mut diagnostic = codes::over_share(required, share.value, share_budget);
                if let Some(origin) = &share.origin {
                    diagnostic = diagnostic.label(
                        &origin.file,
                        origin.span.clone(),
                        format!("{}% of {window} tokens", share.value),
                    );
                }
                self.push(Anchor::Global, diagnostic);
                return Some(window);
            }
        }
        self.check_claims(window);
        if self.tokens_after > window {
            let diagnostic = codes::over_budget(self.tokens_after, window, required);
            let diagnostic = window_label(diagnostic, format!("the window: {window} tokens"));
            self.push(Anchor::Global, diagnostic);
        }
        Some(window)
    }
}
