//! `ctxguard verify`: a plan against its trace and policy. One pass over the
//! trace (the index), one over the plan, then the checks that need both:
//! what is missing, the order, the budget. Every step is linear in the
//! input, except the preserve-order check (n log n).

use serde::{Deserialize, Serialize};

use crate::ast::Selector;
use crate::ast::Tokenizer;
use crate::code::Code;
use crate::diagnostic::{Diagnostic, Severity};
use crate::difference;
use crate::findings::{Anchor, Findings};
use crate::index::{Class, TraceIndex};
use crate::plan::{Entry, Plan, PlanRegion};
use crate::policy::{quote_selector, Policy};
use crate::severity::Overrides;
use crate::source::Span;
use crate::tokens::Counter;
use crate::trace::{Content, Region, Status, Trace};

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Overrides the policy's `budget window` for one run.
    pub budget: Option<u64>,
    /// Show at most this many advisory warnings of one code, then say the
    /// search stopped; `None` shows every one.
    pub warning_limit: Option<usize>,
    /// Overrides the policy's `tokenizer` for one run.
    pub tokenizer: Option<Tokenizer>,
    /// Count every region instead of trusting its `tokens`, and report
    /// counts more than 10% off (`token-count-mismatch`).
    pub recount: bool,
    /// `--allow`, `--warn`, `--deny` and `--deny-warnings`, applied before
    /// the verdict is decided.
    pub overrides: Overrides,
}

impl Options {
    /// How this run counts tokens under `policy`.
    pub fn counter(&self, policy: &Policy) -> Counter {
        Counter {
            tokenizer: self.tokenizer.unwrap_or(policy.tokenizer.value),
            recount: self.recount,
        }
    }
}

/// The command line's default for [`Options::warning_limit`].
pub const WARNING_LIMIT: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Safe to apply.
    Compact,
    /// The plan loses or alters a commitment.
    Reject,
    /// No plan can meet the budget without truncating a commitment.
    Escalate,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Compact => "compact",
            Verdict::Reject => "reject",
            Verdict::Escalate => "escalate",
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub trace_regions: usize,
    pub plan_regions: usize,
    pub commitments: usize,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub budget: Option<u64>,
}

#[derive(Debug)]
pub struct Verification {
    pub verdict: Verdict,
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Stats,
}

/// Escalate wins over reject; warnings never change the verdict.
pub fn verdict_of(diagnostics: &[Diagnostic]) -> Verdict {
    if diagnostics.iter().any(|d| d.code == Code::BudgetUnmeetable) {
        Verdict::Escalate
    } else if diagnostics.iter().any(|d| d.severity == Severity::Error) {
        Verdict::Reject
    } else {
        Verdict::Compact
    }
}

pub fn verify(policy: &Policy, trace: &Trace, plan: &Plan, options: &Options) -> Verification {
    let mut index = TraceIndex::new(
        policy,
        trace,
        options.counter(policy),
        options.warning_limit,
    );
    let findings = std::mem::take(&mut index.findings);
    let n = trace.regions.len();
    let mut next_protected = vec![n; n + 1];
    for i in (0..n).rev() {
        next_protected[i] = if index.class[i].is_protected() {
            i
        } else {
            next_protected[i + 1]
        };
    }
    let mut verifier = Verifier {
        index,
        plan,
        findings,
        used_by: vec![None; n],
        represented: vec![None; n],
        altered: vec![false; n],
        kept: vec![false; n],
        next_protected,
        sequence: Vec::new(),
        tokens_after: 0,
    };
    for (p, region) in plan.regions.iter().enumerate() {
        verifier.entry(p, region);
    }
    verifier.missing();
    verifier.preserve_order();
    verifier.order_rules();
    let budget = verifier.budget(options);
    let index = &verifier.index;
    let stats = Stats {
        trace_regions: n,
        plan_regions: plan.regions.len(),
        commitments: index
            .class
            .iter()
            .filter(|c| matches!(c, Class::Commitment(_)))
            .count(),
        tokens_before: index.tokens.iter().sum(),
        tokens_after: verifier.tokens_after,
        budget,
    };
    let diagnostics = options.overrides.apply(verifier.findings.finish());
    Verification {
        verdict: verdict_of(&diagnostics),
        diagnostics,
        stats,
    }
}

struct Verifier<'a> {
    index: TraceIndex<'a>,
    plan: &'a Plan,
    findings: Findings,
    /// The plan region that keeps, covers or writes out each trace region.
    used_by: Vec<Option<usize>>,
    /// For each identity's first region: the plan region holding it verbatim.
    represented: Vec<Option<usize>>,
    altered: Vec<bool>,
    /// Kept verbatim (`keep`, or `narrative` with `from`).
    kept: Vec<bool>,
    /// The first protected (commitment or unclassified) region at or after each index.
    next_protected: Vec<usize>,
    /// Commitments in plan order: (plan index, canonical trace index).
    sequence: Vec<(usize, usize)>,
    tokens_after: u64,
}

impl<'a> Verifier<'a> {
    fn trace(&self) -> &'a Trace {
        self.index.trace
    }

    fn policy(&self) -> &'a Policy {
        self.index.policy
    }

    fn region(&self, t: usize) -> &'a Region {
        &self.index.trace.regions[t]
    }

    fn push(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
        self.findings.push(anchor, diagnostic);
    }

    fn plan_label(
        &self,
        diagnostic: Diagnostic,
        p: usize,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let pointer = self.plan.regions[p].place.pointer();
        diagnostic.label_at(&self.plan.file, span, pointer, message)
    }

    fn trace_label(
        &self,
        diagnostic: Diagnostic,
        t: usize,
        span: Span,
        message: impl Into<String>,
    ) -> Diagnostic {
        let region = self.region(t);
        diagnostic.label_at(&self.trace().file, span, region.place.pointer(), message)
    }

    fn identity(&self, t: usize) -> String {
        self.region(t)
            .identity()
            .unwrap_or_else(|| self.region(t).id.clone())
    }

    /// A plan region's tokens: its own `tokens`, or counted.
    fn count(&mut self, p: usize, given: Option<u64>, text: &str) -> u64 {
        let counted = self.index.counter.count(given, || text.into());
        if let Some(given) = counted.stale {
            self.stale_tokens(p, given, counted.tokens);
        }
        counted.tokens
    }

    /// A kept trace region's tokens: the trace's count, or the plan region's own.
    fn kept_tokens(&mut self, p: usize, given: Option<u64>, t: usize) -> u64 {
        let real = self.index.tokens[t];
        match given {
            Some(given) if !self.index.counter.recount => given,
            Some(given) if crate::tokens::is_stale(given, real) => {
                self.stale_tokens(p, given, real);
                real
            }
            _ => real,
        }
    }

    fn stale_tokens(&mut self, p: usize, given: u64, real: u64) {
        if !self.findings.admit(Code::TokenCountMismatch) {
            return;
        }
        let id = self.plan.regions[p]
            .place
            .pointer()
            .unwrap_or_else(|| format!("at plan position {}", p + 1));
        let diagnostic =
            crate::index::token_mismatch(&id, given, real, self.index.counter.tokenizer);
        let span = self.plan.regions[p].place.span.clone();
        let diagnostic = self.plan_label(diagnostic, p, span, format!("gives {given} tokens"));
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn entry(&mut self, p: usize, region: &'a PlanRegion) {
        match &region.entry {
            Entry::Keep { id, span } => {
                let Some(t) = self.lookup(p, id, span) else {
                    return;
                };
                self.tokens_after += self.kept_tokens(p, region.tokens, t);
                if self.claim(p, t, span) {
                    self.keep(p, t, region);
                }
            }
            Entry::Commitment {
                kind,
                kind_span,
                key,
                content,
                content_span,
            } => {
                let tokens = self.count(p, region.tokens, &content.as_text());
                self.tokens_after += tokens;
                self.written_commitment(p, region, kind, kind_span, key, content, content_span);
            }
            Entry::Summary {
                covers,
                text,
                text_span,
            } => {
                let tokens = self.count(p, region.tokens, text);
                self.tokens_after += tokens;
                self.summary(p, covers, text, text_span);
            }
            Entry::Narrative {
                from,
                from_span,
                text,
            } => {
                let Some(t) = self.lookup(p, from, from_span) else {
                    return;
                };
                self.tokens_after += match text {
                    Some((text, _)) => self.count(p, region.tokens, text),
                    None => self.kept_tokens(p, region.tokens, t),
                };
                if !self.claim(p, t, from_span) {
                    return;
                }
                match text {
                    Some((text, span)) if *text != self.region(t).content.as_text() => {
                        self.rewritten(p, t, span, text)
                    }
                    _ => self.keep(p, t, region),
                }
            }
        }
    }

    fn lookup(&mut self, p: usize, id: &str, span: &Span) -> Option<usize> {
        let found = self.index.region(id);
        if found.is_none() {
            let diagnostic = Diagnostic::new(
                Code::UnknownRegion,
                format!("the plan names region `{id}`, which the trace does not have"),
            )
            .help("a plan can only keep, cover or rewrite regions of its trace; check the id")
            .region(id);
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
                self.used_by[t] = Some(p);
                true
            }
            Some(first) => {
                let id = self.region(t).id.clone();
                let diagnostic = Diagnostic::new(
                    Code::DuplicateRegion,
                    format!("trace region `{id}` appears twice in the plan"),
                )
                .help("each trace region is kept, covered or rewritten once; remove the second use")
                .region(id);
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
        self.kept[t] = true;
        if let Class::Commitment(_) = self.index.class[t] {
            let c = self.index.canonical(t);
            if self.represented[c].is_none() {
                self.represented[c] = Some(p);
                self.sequence.push((p, c));
            }
            if let Some((status, span)) = &region.status {
                self.status(p, t, *status, span.clone());
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn written_commitment(
        &mut self,
        p: usize,
        region: &PlanRegion,
        kind: &str,
        kind_span: &Span,
        key: &str,
        content: &Content,
        content_span: &Span,
    ) {
        if self.policy().kind(kind).is_none() {
            let names = self.policy().kinds.iter().map(|k| k.name.as_str());
            let help = match crate::suggest::did_you_mean(kind, names) {
                Some(suggestion) => format!("did you mean `{suggestion}`?"),
                None => "write commitments with a kind the policy declares, or keep the trace region with `keep: ID`".to_owned(),
            };
            let diagnostic = Diagnostic::new(
                Code::UnknownKind,
                format!(
                    "the plan writes a `{kind}` commitment, a kind the policy does not declare"
                ),
            )
            .help(help);
            let diagnostic =
                self.plan_label(diagnostic, p, kind_span.clone(), "not a declared kind");
            self.push(Anchor::Plan(p), diagnostic);
            return;
        }
        let identity = format!("{kind}:{key}");
        let Some(t) = self.index.identity(kind, key) else {
            let diagnostic = Diagnostic::new(Code::InventedCommitment, format!("the plan holds commitment `{identity}`, which the trace does not"))
                .help("remove it: a compaction may only keep what the trace commits to, and a commitment nobody made is one the agent would obey")
                .commitment(identity);
            let diagnostic =
                self.plan_label(diagnostic, p, region.place.span.clone(), "not in the trace");
            self.push(Anchor::Plan(p), diagnostic);
            return;
        };
        if !self.claim(p, t, &region.place.span) {
            return;
        }
        let trace_region = self.region(t);
        if trace_region.content.same(content) {
            self.represented[t] = Some(p);
            self.sequence.push((p, t));
            let status = region
                .status
                .as_ref()
                .map_or(Status::Active, |(status, _)| *status);
            let span = region
                .status
                .as_ref()
                .map_or(region.place.span.clone(), |(_, span)| span.clone());
            self.status(p, t, status, span);
        } else {
            self.altered[t] = true;
            self.sequence.push((p, t));
            self.altered_commitment(p, t, content, content_span);
        }
    }

    fn altered_commitment(&mut self, p: usize, t: usize, content: &Content, span: &Span) {
        let region = self.region(t);
        let identity = self.identity(t);
        let mut diagnostic = Diagnostic::new(
            Code::AlteredCommitment,
            format!("commitment `{identity}` is altered in the plan"),
        )
        .help(format!(
            "replace the rewritten copy with `keep: {}`: commitments survive byte for byte",
            region.id
        ))
        .severity(self.severity(t))
        .commitment(identity)
        .region(region.id.clone());
        for note in difference::describe(&region.content, content) {
            diagnostic = diagnostic.note(note);
        }
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "differs from the trace");
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            region.content_span.clone(),
            "what the trace says",
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    /// A `narrative` entry whose text differs from the region it names.
    fn rewritten(&mut self, p: usize, t: usize, span: &Span, text: &str) {
        if self.index.class[t].is_protected() {
            self.altered[t] = true;
            self.altered_commitment(p, t, &Content::Text(text.to_owned()), span);
            return;
        }
        let region = self.region(t);
        let mut diagnostic = Diagnostic::new(
            Code::AlteredNarrative,
            format!(
                "narrative region `{}` is marked kept, but its text differs",
                region.id
            ),
        )
        .help(format!(
            "to shorten it, write a `summary` with `covers: [{}]`; to keep it, use `keep: {}`",
            region.id, region.id
        ))
        .region(region.id.clone());
        for note in difference::describe(&region.content, &Content::Text(text.to_owned())) {
            diagnostic = diagnostic.note(note);
        }
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "not the trace's text");
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            region.content_span.clone(),
            "what the trace says",
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn status(&mut self, p: usize, t: usize, status: Status, span: Span) {
        let region = self.region(t);
        if status == region.status {
            return;
        }
        let identity = self.identity(t);
        let (message, help) = match region.status {
            Status::Discharged => (
                format!("the plan revives discharged commitment `{identity}` as active"),
                "keep it `status: discharged`, or drop it: an instruction already carried out would be carried out again".to_owned(),
            ),
            Status::Active => (
                format!("the plan marks active commitment `{identity}` as discharged"),
                "only the runtime discharges a commitment, when it is carried out; keep it `active`".to_owned(),
            ),
        };
        let diagnostic = Diagnostic::new(Code::StatusChanged, message)
            .help(help)
            .severity(self.severity(t))
            .commitment(identity)
            .region(region.id.clone());
        let diagnostic = self.plan_label(diagnostic, p, span, format!("`{}` here", status.name()));
        let diagnostic = self.trace_label(
            diagnostic,
            t,
            region.place.span.clone(),
            format!("`{}` in the trace", region.status.name()),
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn summary(&mut self, p: usize, covers: &[(String, Span)], text: &str, text_span: &Span) {
        let mut low = usize::MAX;
        let mut high = 0;
        let mut covers_span: Option<Span> = None;
        for (id, span) in covers {
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
            let mut j = self.next_protected[low + 1];
            while j < high {
                if self.used_by[j] != Some(p) {
                    let span = covers_span.clone().unwrap_or(text_span.clone());
                    self.spans_commitment(p, j, low, high, span);
                    break;
                }
                j = self.next_protected[j + 1];
            }
        }
        let hinted = match self.findings.stopped(Code::CommitmentInSummary) {
            true => None,
            false => self.index.hints.first_match(text),
        };
        if let Some(k) = hinted.filter(|_| self.findings.admit(Code::CommitmentInSummary)) {
            let name = self
                .policy()
                .kinds
                .get(k)
                .map_or("", |kind| kind.name.as_str());
            let diagnostic = Diagnostic::new(Code::CommitmentInSummary, format!("this summary reads like a commitment of kind `{name}`"))
                .help(format!("check it against the trace: the summarizer may have paraphrased or invented a commitment of kind `{name}`; keep commitments themselves with `keep: ID`"));
            let span = self.index.hint_span(&self.plan.file, text_span, k);
            let diagnostic = self.plan_label(
                diagnostic,
                p,
                span,
                format!("matches the hint for `{name}`"),
            );
            self.push(Anchor::Plan(p), diagnostic);
        }
        if !self.index.drift.is_empty() && !self.findings.stopped(Code::IdentifierDrift) {
            let found: Vec<(String, String, String, usize)> = self
                .index
                .drift
                .find(text)
                .into_iter()
                .map(|d| (d.word, d.pinned.text.clone(), d.reason, d.pinned.region))
                .collect();
            for (word, pinned, reason, t) in found {
                if !self.findings.admit(Code::IdentifierDrift) {
                    break;
                }
                let identity = self.identity(t);
                let diagnostic = Diagnostic::new(
                    Code::IdentifierDrift,
                    format!("this summary names `{word}`, a variant of pinned identifier `{pinned}`"),
                )
                .help(format!("write the identifier exactly as pinned, `{pinned}`, or leave it out of the summary"))
                .commitment(identity);
                let word_span = self.plan.file.find_within(text_span, &word);
                let diagnostic = self.plan_label(diagnostic, p, word_span, reason);
                let diagnostic = self.trace_label(
                    diagnostic,
                    t,
                    self.region(t).content_span.clone(),
                    "pinned here",
                );
                self.push(Anchor::Plan(p), diagnostic);
            }
        }
    }

    fn covers_commitment(&mut self, p: usize, t: usize, span: &Span) {
        let region = self.region(t);
        let what = match self.index.class[t] {
            Class::Commitment(_) => format!("commitment `{}`", self.identity(t)),
            _ => format!("unclassified region `{}`", region.id),
        };
        let diagnostic = Diagnostic::new(Code::SummaryCoversCommitment, format!("a summary covers {what}"))
            .help(format!("take `{}` out of `covers` and keep it with `keep: {}`; a summary may replace narrative only", region.id, region.id))
            .severity(self.severity(t))
            .region(region.id.clone());
        let diagnostic = match region.identity() {
            Some(identity) => diagnostic.commitment(identity),
            None => diagnostic,
        };
        let diagnostic = self.plan_label(diagnostic, p, span.clone(), "not narrative");
        let diagnostic = self.trace_label(diagnostic, t, region.place.span.clone(), "written here");
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn spans_commitment(&mut self, p: usize, j: usize, low: usize, high: usize, span: Span) {
        let region = self.region(j);
        let (before, after) = (&self.region(low).id, &self.region(high).id);
        let what = match self.index.class[j] {
            Class::Commitment(_) => format!("commitment `{}`", self.identity(j)),
            _ => format!("unclassified region `{}`", region.id),
        };
        let diagnostic = Diagnostic::new(Code::SummarySpansCommitment, format!("a summary covers narrative on both sides of {what}"))
            .help(format!(
                "split the summary so it does not span `{}`: one summary for the narrative before it, another for the narrative after it",
                region.id
            ))
            .severity(self.severity(j))
            .region(region.id.clone());
        let diagnostic = self.plan_label(
            diagnostic,
            p,
            span,
            format!("covers `{before}` and `{after}`"),
        );
        let diagnostic = self.trace_label(
            diagnostic,
            j,
            region.place.span.clone(),
            "stands between them",
        );
        self.push(Anchor::Plan(p), diagnostic);
    }

    fn severity(&self, t: usize) -> Severity {
        self.index.severity(self.index.class[t])
    }

    fn missing(&mut self) {
        let keep_unclassified =
            self.policy().on_unclassified.value == crate::ast::UnclassifiedAction::Keep;
        for t in 0..self.index.class.len() {
            let region = self.region(t);
            match self.index.class[t] {
                Class::Commitment(_) => {
                    if self.index.canonical(t) != t
                        || self.represented[t].is_some()
                        || self.altered[t]
                        || region.status == Status::Discharged
                    {
                        continue;
                    }
                    let identity = self.identity(t);
                    let help = match self.used_by[t] {
                        Some(_) => format!("take `{}` out of the summary's `covers` and add `keep: {}` where it stands in trace order", region.id, region.id),
                        None => format!("add `keep: {}` to the plan, where it stands in trace order", region.id),
                    };
                    let diagnostic = Diagnostic::new(
                        Code::MissingCommitment,
                        format!("commitment `{identity}` is missing from the plan"),
                    )
                    .help(help)
                    .severity(self.severity(t))
                    .commitment(identity)
                    .region(region.id.clone());
                    let diagnostic = self.trace_label(
                        diagnostic,
                        t,
                        region.place.span.clone(),
                        "no plan region keeps it",
                    );
                    self.push(Anchor::Trace(t), diagnostic);
                }
                Class::Unclassified if keep_unclassified && !self.kept[t] => {
                    let diagnostic = Diagnostic::new(Code::UnclassifiedDropped, format!("unclassified region `{}` is not kept", region.id))
                        .help(format!("add `keep: {}`: content nobody classified may hold a commitment, so it is kept (`on unclassified keep`)", region.id))
                        .region(region.id.clone());
                    let diagnostic =
                        self.trace_label(diagnostic, t, region.place.span.clone(), "dropped");
                    self.push(Anchor::Trace(t), diagnostic);
                }
                _ => {}
            }
        }
    }

    /// `preserve order`: the commitments that must move are those outside a
    /// longest run already in trace order; each is reported once, against a
    /// neighbour it is out of order with.
    fn preserve_order(&mut self) {
        let Some(origin) = self.policy().preserve_order.clone() else {
            return;
        };
        let sequence = &self.sequence;
        let in_order = longest_increasing(sequence.iter().map(|(_, c)| *c));
        let mut last_in_order: Option<usize> = None;
        let mut violations = Vec::new();
        for (k, &(_, c)) in sequence.iter().enumerate() {
            if in_order[k] {
                last_in_order = Some(k);
                continue;
            }
            let pair = match last_in_order {
                Some(l) if sequence[l].1 > c => Some((l, k)),
                _ => (k + 1..sequence.len())
                    .find(|&m| in_order[m])
                    .filter(|&m| sequence[m].1 < c)
                    .map(|m| (k, m)),
            };
            if let Some(pair) = pair {
                violations.push(pair);
            }
        }
        // Each pair is (earlier in the plan, later in the plan); the one
        // outside the in-order run is the one that moved.
        for (first, second) in violations {
            let (p1, c1) = self.sequence[first];
            let (p2, c2) = self.sequence[second];
            let first_moved = !in_order[first];
            let (a, b) = (self.identity(c1), self.identity(c2));
            let (help, moved, anchor) = if first_moved {
                (format!("move `{a}` after `{b}`"), c1, p1)
            } else {
                (format!("move `{b}` before `{a}`"), c2, p2)
            };
            let diagnostic = Diagnostic::new(
                Code::OrderViolated,
                format!("`{a}` comes before `{b}` in the plan, but after it in the trace"),
            )
            .help(help)
            .commitment(self.identity(moved));
            let diagnostic = self.plan_label(
                diagnostic,
                p1,
                self.plan.regions[p1].place.span.clone(),
                format!("`{a}` at plan position {}", p1 + 1),
            );
            let diagnostic = self.plan_label(
                diagnostic,
                p2,
                self.plan.regions[p2].place.span.clone(),
                format!("`{b}` at plan position {}", p2 + 1),
            );
            let diagnostic = diagnostic.label(
                &origin.file,
                origin.span.clone(),
                "commitments keep their trace order",
            );
            self.push(Anchor::Plan(anchor), diagnostic);
        }
    }

    /// `order A before B`: the plan must not invert a pair that the trace
    /// has in the required order. A pair the trace itself has inverted is not the
    /// compaction's doing: it is reported once per rule, as a warning.
    fn order_rules(&mut self) {
        let policy = self.policy();
        for rule in &policy.orders {
            let matches = |selector: &Selector, c: usize| {
                let region = self.region(c);
                match (&region.kind, &region.key) {
                    (crate::trace::RegionKind::Commitment(kind), Some(key)) => {
                        selector.matches(kind, key)
                    }
                    _ => false,
                }
            };
            // Plan order: the B seen so far that stands latest in the trace.
            let mut latest_b: Option<(usize, usize)> = None;
            let mut introduced: Option<((usize, usize), (usize, usize))> = None;
            for &(p, c) in &self.sequence {
                if matches(&rule.before, c) {
                    if let Some((pb, cb)) = latest_b.filter(|&(_, cb)| cb > c) {
                        introduced = Some(((p, c), (pb, cb)));
                        break;
                    }
                }
                if matches(&rule.after, c) && latest_b.is_none_or(|(_, cb)| c > cb) {
                    latest_b = Some((p, c));
                }
            }
            if let Some(((pa, ca), (pb, cb))) = introduced {
                let (a, b) = (self.identity(ca), self.identity(cb));
                let diagnostic = Diagnostic::new(
                    Code::OrderViolated,
                    format!(
                        "`{b}` comes before `{a}` in the plan, against `{}`",
                        rule.describe()
                    ),
                )
                .help(format!("move `{b}` after `{a}`, as in the trace"))
                .commitment(b.clone());
                let diagnostic = self.plan_label(
                    diagnostic,
                    pb,
                    self.plan.regions[pb].place.span.clone(),
                    format!("`{b}` at plan position {}", pb + 1),
                );
                let diagnostic = self.plan_label(
                    diagnostic,
                    pa,
                    self.plan.regions[pa].place.span.clone(),
                    format!("`{a}` at plan position {}", pa + 1),
                );
                let statement = format!(
                    "requires {} before {}",
                    quote_selector(&rule.before),
                    quote_selector(&rule.after)
                );
                let diagnostic =
                    diagnostic.label(&rule.origin.file, rule.origin.span.clone(), statement);
                self.push(Anchor::Plan(pb), diagnostic);
            }
            self.inverted_in_trace(rule);
        }
    }

    /// A pair the trace already has against `rule`: the first B followed later by an A.
    fn inverted_in_trace(&mut self, rule: &crate::policy::OrderRule) {
        let regions = &self.trace().regions;
        let matches = |selector: &Selector, t: usize| match (&regions[t].kind, &regions[t].key) {
            (crate::trace::RegionKind::Commitment(kind), Some(key)) => selector.matches(kind, key),
            _ => false,
        };
        let Some(first_b) = (0..regions.len()).find(|&t| matches(&rule.after, t)) else {
            return;
        };
        let Some(later_a) = (first_b + 1..regions.len()).find(|&t| matches(&rule.before, t)) else {
            return;
        };
        let (a, b) = (self.identity(later_a), self.identity(first_b));
        let diagnostic = Diagnostic::new(Code::OrderViolated, format!("the trace itself has `{b}` before `{a}`, against `{}`", rule.describe()))
            .severity(Severity::Warning)
            .help(format!("compaction keeps trace order, so no plan can fix this; if the rule should hold, the runtime must restate `{b}` after `{a}`"))
            .commitment(a.clone());
        let diagnostic = self.trace_label(
            diagnostic,
            first_b,
            regions[first_b].place.span.clone(),
            format!("`{b}` here"),
        );
        let diagnostic = self.trace_label(
            diagnostic,
            later_a,
            regions[later_a].place.span.clone(),
            format!("`{a}` only here"),
        );
        let diagnostic = diagnostic.label(&rule.origin.file, rule.origin.span.clone(), "the rule");
        self.push(Anchor::Trace(later_a), diagnostic);
    }

    fn budget(&mut self, options: &Options) -> Option<u64> {
        let policy = self.policy();
        let window = options.budget.or(policy.window.as_ref().map(|w| w.value))?;
        let window_label =
            |diagnostic: Diagnostic, message: String| match (&options.budget, &policy.window) {
                (None, Some(setting)) => match &setting.origin {
                    Some(origin) => diagnostic.label(&origin.file, origin.span.clone(), message),
                    None => diagnostic,
                },
                _ => diagnostic.note(format!("the window is {window} tokens, from `--budget`")),
            };
        let required = self.index.required_tokens;
        let share = policy.commitment_share.as_ref();
        let share_budget = policy.commitment_budget(window);
        let help = "a person must decide: raise the budget, discharge commitments already carried out, or split the task";
        if required > window {
            let diagnostic = Diagnostic::new(
                Code::BudgetUnmeetable,
                format!("the commitments alone need {required} tokens; the window holds {window}"),
            )
            .help(help);
            let diagnostic = window_label(diagnostic, format!("the window: {window} tokens"));
            self.push(Anchor::Global, diagnostic);
            return Some(window);
        }
        if let (Some(share), Some(share_budget)) = (share, share_budget) {
            if required > share_budget {
                let mut diagnostic = Diagnostic::new(
                    Code::BudgetUnmeetable,
                    format!("the commitments need {required} tokens, more than their {}% of the window ({share_budget} tokens)", share.value),
                )
                .help(help);
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
        if self.tokens_after > window {
            let diagnostic = Diagnostic::new(Code::OverBudget, format!("the plan holds {} tokens; the window holds {window}", self.tokens_after))
                .help(format!("summarize or drop {} more tokens of narrative; the commitments need only {required}", self.tokens_after - window));
            let diagnostic = window_label(diagnostic, format!("the window: {window} tokens"));
            self.push(Anchor::Global, diagnostic);
        }
        Some(window)
    }
}

/// Marks the elements of a longest strictly increasing subsequence
/// (patience sorting, n log n).
fn longest_increasing(values: impl Iterator<Item = usize>) -> Vec<bool> {
    let values: Vec<usize> = values.collect();
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; values.len()];
    for (i, &value) in values.iter().enumerate() {
        let position = tails.partition_point(|&t| values[t] < value);
        previous[i] = position.checked_sub(1).map(|p| tails[p]);
        if position == tails.len() {
            tails.push(i);
        } else {
            tails[position] = i;
        }
    }
    let mut marked = vec![false; values.len()];
    let mut current = tails.last().copied();
    while let Some(i) = current {
        marked[i] = true;
        current = previous[i];
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::longest_increasing;

    #[test]
    fn longest_run_in_order() {
        assert_eq!(
            longest_increasing([1, 3, 5, 8, 6].into_iter()),
            [true, true, true, false, true]
        );
        assert_eq!(
            longest_increasing([5, 1, 2, 3].into_iter()),
            [false, true, true, true]
        );
        assert!(longest_increasing(std::iter::empty()).is_empty());
    }
}
