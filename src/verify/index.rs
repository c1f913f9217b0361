//! What the verifier and the compactor need to know about a trace, built in
//! one pass: every region's class and token count, the commitments by
//! identity, and the trace's own problems (undeclared kinds, repeated ids,
//! one identity with two contents, retrofitted tags, untagged commitments).

// Region ids are untrusted input: foldhash is fast and seeded per process.
use foldhash::HashMap;
use foldhash::HashMapExt;

use crate::buffer::tokens::Counter;
use crate::buffer::trace::{Content, Region, RegionKind, Role, Status, Trace};
use crate::diagnostics::codes::policy as policy_codes;
use crate::diagnostics::codes::verify as codes;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, Severity};
use crate::policy::Policy;
use crate::source::{SourceFile, Span};
use crate::verify::drift::{is_identifier_like, DriftIndex, Pinned};
use crate::verify::findings::{Anchor, Findings};

/// How the verifier treats a trace region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// May be summarized or dropped.
    Narrative,
    /// Nobody classified it (or its kind is undeclared): it counts as a commitment.
    Unclassified,
    /// A commitment of the policy's kind at this index.
    Commitment(usize),
}

impl Class {
    pub fn is_protected(self) -> bool {
        !matches!(self, Class::Narrative)
    }
}

pub struct TraceIndex<'a> {
    pub trace: &'a Trace,
    pub policy: &'a Policy,
    pub class: Vec<Class>,
    pub tokens: Vec<u64>,
    ids: HashMap<&'a str, usize>,
    identities: HashMap<(&'a str, &'a str), usize>,
    /// Tokens of what must survive: active commitments and unclassified regions.
    pub required_tokens: u64,
    pub drift: DriftIndex,
    pub findings: Findings,
    pub counter: Counter,
}

/// Regions from which a large trace's hints are matched on every core.
const PARALLEL_REGIONS: usize = 4096;

/// How the index treats `region` under `policy`: a commitment of a kind the
/// policy does not declare is unclassified.
fn class_of(policy: &Policy, region: &Region) -> Class {
    match &region.kind {
        RegionKind::Narrative => Class::Narrative,
        RegionKind::Unclassified => Class::Unclassified,
        RegionKind::Commitment(kind) => policy
            .kind_position(kind)
            .map_or(Class::Unclassified, Class::Commitment),
    }
}

/// The key of a region the index takes for a commitment: one of a kind the
/// policy declares (`class`), with a key.
fn keyed(class: Class, region: &Region) -> Option<&str> {
    match class {
        Class::Commitment(_) => region.key.as_deref(),
        _ => None,
    }
}

/// Whether a hint matches each region a hint is asked about: all but
/// commitments and tool output (which cannot assert a commitment; users and
/// assistants can). The one pass over all of a trace's text, so a large
/// trace spreads it over every core.
fn hints(policy: &Policy, regions: &[Region]) -> Vec<bool> {
    let hint = |region: &Region| {
        keyed(class_of(policy, region), region).is_none()
            && region.role != Some(Role::Tool)
            && policy.any_hint(&region.content.as_text())
    };
    if regions.len() < PARALLEL_REGIONS {
        return regions.iter().map(hint).collect();
    }
    use rayon::prelude::*;
    regions.par_iter().with_min_len(1024).map(hint).collect()
}

/// The tokens of every region that is counted (see [`Counter::counts`]), in
/// order: the one pass of the tokenizer over a trace, on every core when
/// there is enough text.
fn counts(counter: Counter, regions: &[Region]) -> Vec<u64> {
    let texts: Vec<_> = regions
        .iter()
        .filter(|region| counter.counts(region.tokens))
        .map(|region| region.content.as_text())
        .collect();
    counter.count_all(&texts)
}

impl<'a> TraceIndex<'a> {
    /// `warning_limit`: see [`Findings`].
    pub fn new(
        policy: &'a Policy,
        trace: &'a Trace,
        counter: Counter,
        warning_limit: Option<usize>,
    ) -> TraceIndex<'a> {
        let regions = &trace.regions;
        let mut index = TraceIndex {
            trace,
            policy,
            class: Vec::with_capacity(regions.len()),
            tokens: Vec::with_capacity(regions.len()),
            ids: HashMap::with_capacity(regions.len()),
            identities: HashMap::new(),
            required_tokens: 0,
            drift: DriftIndex::new(Vec::new()),
            findings: Findings::new(warning_limit),
            counter,
        };
        let hinted = hints(policy, regions);
        let mut counts = counts(counter, regions).into_iter();
        let mut pinned = Vec::new();
        for (i, region) in regions.iter().enumerate() {
            let class = index.classify(i, region);
            index.class.push(class);
            let counted = counter.count(region.tokens, || counts.next().unwrap_or(0));
            if let Some(given) = counted.stale {
                index.stale_tokens(i, region, given, counted.tokens);
            }
            let tokens = counted.tokens;
            index.tokens.push(tokens);
            let required = match class {
                Class::Commitment(_) => region.status == Status::Active,
                Class::Unclassified => true,
                Class::Narrative => false,
            };
            if required {
                index.required_tokens = index.required_tokens.saturating_add(tokens);
            }
            if let Some(previous) = index.ids.insert(region.id.as_str(), i) {
                index.ids.insert(region.id.as_str(), previous);
                let first = &regions[previous];
                index.push(
                    Anchor::Trace(i),
                    codes::duplicate_trace_id(&region.id)
                        .label_at(
                            &trace.file,
                            region.id_span.clone(),
                            region.place.pointer(),
                            "used again here",
                        )
                        .label_at(
                            &trace.file,
                            first.id_span.clone(),
                            first.place.pointer(),
                            "first used here",
                        ),
                );
            }
            if let Some(key) = keyed(class, region) {
                index.commitment(i, region, key);
                if let Content::Text(text) = &region.content {
                    if is_identifier_like(text) {
                        pinned.push(Pinned {
                            text: text.to_string(),
                            region: i,
                        });
                    }
                }
            } else if hinted.get(i).copied().unwrap_or(false) {
                index.untagged(i, region);
            }
        }
        index.drift = DriftIndex::new(pinned);
        index
    }

    fn push(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
        self.findings.push(anchor, diagnostic);
    }

    /// The region's class, and a finding for a kind the policy does not declare.
    fn classify(&mut self, i: usize, region: &Region) -> Class {
        let class = class_of(self.policy, region);
        let (Class::Unclassified, RegionKind::Commitment(kind)) = (class, &region.kind) else {
            return class;
        };
        let names = self.policy.kinds.iter().map(|k| k.name.as_str());
        let suggestion = did_you_mean(kind, names);
        let span = region
            .kind_span
            .clone()
            .unwrap_or(region.place.span.clone());
        self.push(
            Anchor::Trace(i),
            policy_codes::unknown_kind_in_trace(&region.id, kind, suggestion).label_at(
                &self.trace.file,
                span,
                region.place.pointer(),
                "not a declared kind",
            ),
        );
        Class::Unclassified
    }

    fn commitment(&mut self, i: usize, region: &'a Region, key: &'a str) {
        let trace = self.trace;
        let RegionKind::Commitment(kind) = &region.kind else {
            return;
        };
        if let (Some(at), Some(tagged_at)) = (region.at, region.tagged_at) {
            if tagged_at > at && self.findings.admit(Code::RetrofittedTag) {
                let span = region
                    .tagged_at_span
                    .clone()
                    .unwrap_or(region.place.span.clone());
                self.push(
                    Anchor::Trace(i),
                    codes::retrofitted_tag(&format!("{kind}:{key}"), &region.id, tagged_at, at)
                        .label_at(&trace.file, span, region.place.pointer(), "tagged late"),
                );
            }
        }
        match self.identities.get(&(kind.as_str(), key)) {
            None => {
                self.identities.insert((kind.as_str(), key), i);
            }
            Some(&first) => {
                let other = &trace.regions[first];
                if !other.content.same(&region.content) {
                    self.push(
                        Anchor::Trace(i),
                        codes::conflicting_commitment(&format!("{kind}:{key}"), &region.id)
                            .label_at(
                                &trace.file,
                                region.content_span.clone(),
                                region.place.pointer(),
                                format!("`{}` says this", region.id),
                            )
                            .label_at(
                                &trace.file,
                                other.content_span.clone(),
                                other.place.pointer(),
                                format!("`{}` says this", other.id),
                            ),
                    );
                }
            }
        }
    }

    fn stale_tokens(&mut self, i: usize, region: &Region, given: u64, real: u64) {
        if !self.findings.admit(Code::TokenCountMismatch) {
            return;
        }
        let tokenizer = self.counter.tokenizer.name();
        let diagnostic = codes::token_count_mismatch(&region.id, given, real, tokenizer).label_at(
            &self.trace.file,
            region
                .tokens_span
                .clone()
                .unwrap_or(region.place.span.clone()),
            region.place.pointer(),
            format!("gives {given} tokens"),
        );
        self.push(Anchor::Trace(i), diagnostic);
    }

    /// A region a hint matches: which kind's is asked only of one shown.
    fn untagged(&mut self, i: usize, region: &Region) {
        if !self.findings.admit(Code::UntaggedCandidate) {
            return;
        }
        let Some((kind, _)) = self.policy.first_hint(&region.content.as_text()) else {
            return;
        };
        let name = self.policy.kinds.get(kind).map_or("", |k| k.name.as_str());
        let what = match region.kind {
            RegionKind::Narrative => "narrative",
            _ => "unclassified",
        };
        self.push(
            Anchor::Trace(i),
            codes::untagged_candidate(what, &region.id, name).label_at(
                &self.trace.file,
                self.hint_span(&self.trace.file, &region.content_span, kind),
                region.place.pointer(),
                format!("matches the hint for `{name}`"),
            ),
        );
    }

    /// Where one of kind `k`'s hints matches inside `within` as written in
    /// the file, or all of `within` when the written form does not match.
    pub fn hint_span(&self, file: &SourceFile, within: &Span, k: usize) -> Span {
        let Some(written) = file.text().get(within.clone()) else {
            return within.clone();
        };
        self.policy
            .kinds
            .get(k)
            .into_iter()
            .flat_map(|kind| &kind.hints)
            .find_map(|hint| hint.regex.find(written))
            .filter(|found| !found.is_empty())
            .map_or(within.clone(), |found| {
                within.start + found.start()..within.start + found.end()
            })
    }

    pub fn region(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    /// The first trace region with this identity.
    pub fn identity(&self, kind: &str, key: &str) -> Option<usize> {
        self.identities.get(&(kind, key)).copied()
    }

    /// The first region of `i`'s identity (itself, unless it repeats one).
    pub fn canonical(&self, i: usize) -> usize {
        let region = &self.trace.regions[i];
        match (&region.kind, &region.key) {
            (RegionKind::Commitment(kind), Some(key)) => self.identity(kind, key).unwrap_or(i),
            _ => i,
        }
    }

    /// A kind's severity: losing a soft commitment is a warning.
    pub fn severity(&self, class: Class) -> Severity {
        match class {
            Class::Commitment(k) => self
                .policy
                .kinds
                .get(k)
                .map_or(Severity::Error, |kind| kind.severity.value),
            _ => Severity::Error,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.findings.has_errors()
    }
}
