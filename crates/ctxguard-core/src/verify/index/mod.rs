//! What the verifier and the compactor need to know about a trace, built in
//! one pass, a region at a time: every region's class and token count, the
//! commitments by identity, and the trace's own problems (undeclared kinds,
//! repeated ids, one identity with two contents, retrofitted tags, untagged
//! commitments).
//!
//! The index is the trace as the checks see it. It keeps every commitment
//! and unclassified region whole; of a narrative region it keeps its id,
//! class, tokens and where it is written, and its text is read back (from
//! the trace in memory, or from the file left on disk) only when a check
//! compares it. So a trace read as it streams costs memory for its
//! commitments and a few words a region, not for its narrative.

use std::borrow::Cow;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::HashTable;

use crate::buffer::stream::{Piece, ReadWhole, Streaming, Typed};
use crate::buffer::tokens::Counter;
use crate::buffer::trace::{
    region_pointer, Content, Plain, Provenance, Region, RegionKind, Role, Status,
};
use crate::diagnostics::codes::input as input_codes;
use crate::diagnostics::codes::policy as policy_codes;
use crate::diagnostics::codes::verify as codes;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::Code;
use crate::diagnostics::{Diagnostic, Severity};
use crate::policy::Policy;
use crate::source::{SourceFile, Span};
use crate::verify::drift::{is_identifier_like, DriftIndex, Pinned};
use crate::verify::findings::{Anchor, Findings, Rank};

mod ids;
mod lookup;
mod streamed;
#[cfg(test)]
mod tests;

use ids::{Ids, PARALLEL_IDS};

/// How the verifier treats a trace region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// May be summarized or dropped.
    Narrative,
    /// Nobody classified it (or its kind is undeclared): it counts as a commitment.
    Unclassified,
    /// A commitment of the policy's kind at this index (`u32`: a class a
    /// region, in 8 bytes).
    Commitment(u32),
}

impl Class {
    pub fn is_protected(self) -> bool {
        !matches!(self, Class::Narrative)
    }
}

/// Where a narrative region's text is read back from.
pub(crate) enum Narrative<'a> {
    /// The trace's regions, in memory.
    Regions(&'a [Region]),
    /// The trace's file, left on disk: the text as written at the region's
    /// content span, which must still hash as it did when it was read.
    Written,
}

/// What is worked out about a region on its own, before it joins the
/// index: on every core for a large trace.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Facts {
    /// A hint matches it (see [`hinted`]).
    pub hinted: bool,
    /// Its tokens, when they are counted (see [`Counter::counts`]).
    pub counted: Option<u64>,
    /// The hash of its content as written in a file on disk; 0 in memory.
    pub written: u64,
}

/// What the index keeps of a region: a few words (a large trace has a
/// million of these). Its spans are kept from where its first line starts;
/// what does not fit so is kept whole in its [`Detail`].
#[derive(Debug)]
struct Slot {
    /// Where the region's first line starts, and its length.
    start: u64,
    opening: u32,
    /// Where `id` and the content are written, from `start`: (offset, length).
    id: (u32, u32),
    content: (u32, u32),
    /// [`Facts::written`].
    written: u64,
    /// What only some regions have.
    detail: Option<Box<Detail>>,
    status: Status,
    /// In a `regions` list: it has a JSON Pointer.
    listed: bool,
}

/// A region's spans: its first line, its id and its content.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Spans {
    opening: Span,
    id: Span,
    content: Span,
}

impl Slot {
    /// A slot of `spans`, with `detail` (made, when the spans do not fit
    /// the slot, to hold them).
    fn new(
        spans: Spans,
        status: Status,
        listed: bool,
        written: u64,
        mut detail: Option<Box<Detail>>,
    ) -> Slot {
        let start = spans.opening.start;
        let from = |span: &Span| -> Option<(u32, u32)> {
            Some((
                u32::try_from(span.start.checked_sub(start)?).ok()?,
                u32::try_from(span.end.checked_sub(span.start)?).ok()?,
            ))
        };
        let fits = (from(&spans.opening), from(&spans.id), from(&spans.content));
        let (opening, id, content) = match fits {
            (Some((0, opening)), Some(id), Some(content)) => (opening, id, content),
            _ => {
                detail.get_or_insert_with(Box::default).spans = Some(spans);
                (0, (0, 0), (0, 0))
            }
        };
        Slot {
            start: start as u64,
            opening,
            id,
            content,
            written,
            detail,
            status,
            listed,
        }
    }

    fn spans(&self) -> Spans {
        if let Some(spans) = self.detail.as_ref().and_then(|detail| detail.spans.clone()) {
            return spans;
        }
        let start = self.start as usize;
        let span = |(offset, len): (u32, u32)| {
            let from = start + offset as usize;
            from..from + len as usize
        };
        Spans {
            opening: start..start + self.opening as usize,
            id: span(self.id),
            content: span(self.content),
        }
    }
}

#[derive(Debug, Default)]
struct Detail {
    /// Its place in the file when it is not its place in the trace.
    index: Option<usize>,
    /// For a commitment that repeats an identity: the region that has it first.
    first: Option<usize>,
    /// Its spans when they do not fit in its slot.
    spans: Option<Spans>,
    /// The kind of a region written as a commitment (declared or not).
    kind: Option<String>,
    key: Option<String>,
    /// The content of a protected region (commitment or unclassified).
    content: Option<Content>,
    source: Option<Box<Provenance>>,
}

pub struct TraceIndex<'a> {
    pub policy: &'a Policy,
    /// The trace's file (in memory or on disk): labels on the trace point here.
    pub file: Arc<SourceFile>,
    pub class: Vec<Class>,
    pub tokens: Vec<u64>,
    slots: Vec<Slot>,
    ids: Ids,
    /// Commitments by identity: the first region of each `kind:key`.
    identities: HashTable<(u64, usize)>,
    /// Whether a commitment repeats the identity of an earlier one (most
    /// traces have none: each region is its own canonical one).
    identity_repeats: bool,
    /// Tokens of what must survive: active commitments and unclassified regions.
    pub required_tokens: u64,
    pub drift: DriftIndex,
    pinned: Vec<Pinned>,
    pub findings: Findings,
    pub counter: Counter,
    narrative: Narrative<'a>,
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
            .and_then(|k| u32::try_from(k).ok())
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

/// Whether a hint matches a region a hint is asked about: any but a
/// commitment and tool output (which cannot assert a commitment; users and
/// assistants can).
pub(crate) fn hinted(policy: &Policy, region: &Region) -> bool {
    keyed(class_of(policy, region), region).is_none()
        && region.role != Some(Role::Tool)
        && policy.any_hint(&region.content.as_text())
}

/// A region's facts, worked out on its own.
pub(crate) fn facts(policy: &Policy, counter: Counter, region: &Region) -> Facts {
    Facts {
        hinted: hinted(policy, region),
        counted: counter
            .counts(region.tokens)
            .then(|| crate::buffer::tokens::count(counter.tokenizer, &region.content.as_text())),
        written: 0,
    }
}

/// The facts of every region of a trace in memory: the one pass of the
/// hints and of the tokenizer over all of its text, on every core when
/// there is enough of it.
fn facts_of_all(policy: &Policy, counter: Counter, regions: &[Region]) -> Vec<Facts> {
    let hinted: Vec<bool> = if regions.len() < PARALLEL_REGIONS {
        regions
            .iter()
            .map(|region| hinted(policy, region))
            .collect()
    } else {
        use rayon::prelude::*;
        (regions.par_iter().with_min_len(1024))
            .map(|region| hinted(policy, region))
            .collect()
    };
    let texts: Vec<_> = (regions.iter())
        .filter(|region| counter.counts(region.tokens))
        .map(|region| region.content.as_text())
        .collect();
    let mut counts = counter.count_all(&texts).into_iter();
    (regions.iter().zip(hinted))
        .map(|(region, hinted)| Facts {
            hinted,
            counted: counter
                .counts(region.tokens)
                .then(|| counts.next().unwrap_or(0)),
            written: 0,
        })
        .collect()
}

impl<'a> TraceIndex<'a> {
    /// The index of a trace in memory; `warning_limit`: see [`Findings`].
    pub fn new(
        policy: &'a Policy,
        trace: &'a crate::buffer::trace::Trace,
        counter: Counter,
        warning_limit: Option<usize>,
    ) -> TraceIndex<'a> {
        let regions = &trace.regions;
        let mut index = TraceIndex::start(
            policy,
            Arc::clone(&trace.file),
            counter,
            warning_limit,
            Narrative::Regions(regions),
            regions.len(),
        );
        for (region, facts) in regions.iter().zip(facts_of_all(policy, counter, regions)) {
            index.push(region, facts);
        }
        index.finish()
    }

    /// An index with no regions yet, of a trace in `file`, room made for
    /// `regions` of them; [`TraceIndex::push`] adds each in order.
    pub(crate) fn start(
        policy: &'a Policy,
        file: Arc<SourceFile>,
        counter: Counter,
        warning_limit: Option<usize>,
        narrative: Narrative<'a>,
        regions: usize,
    ) -> TraceIndex<'a> {
        TraceIndex {
            policy,
            file,
            class: Vec::with_capacity(regions),
            tokens: Vec::with_capacity(regions),
            slots: Vec::with_capacity(regions),
            ids: Ids::with_capacity(regions),
            identities: HashTable::new(),
            identity_repeats: false,
            required_tokens: 0,
            drift: DriftIndex::new(Vec::new()),
            pinned: Vec::new(),
            findings: Findings::new(warning_limit),
            counter,
            narrative,
        }
    }

    /// Adds the trace's next region, whose spans are in [`TraceIndex::file`].
    pub(crate) fn push(&mut self, region: &Region, facts: Facts) {
        let i = self.slots.len();
        let class = self.classify(i, region);
        self.class.push(class);
        let counted = self
            .counter
            .count(region.tokens, || facts.counted.unwrap_or(0));
        if let Some(given) = counted.stale {
            let span = region.tokens_span.as_ref().unwrap_or(&region.place.span);
            let at = (span.clone(), || region.place.pointer());
            self.stale_tokens(i, &region.id, at, given, counted.tokens);
        }
        let tokens = counted.tokens;
        self.tokens.push(tokens);
        let required = match class {
            Class::Commitment(_) => region.status == Status::Active,
            Class::Unclassified => true,
            Class::Narrative => false,
        };
        if required {
            self.required_tokens = self.required_tokens.saturating_add(tokens);
        }
        let kind = match &region.kind {
            RegionKind::Commitment(kind) => Some(kind.clone()),
            _ => None,
        };
        // A streamed region's text is copied (its piece is read into again);
        // a trace in memory outlives its index, and its text is shared.
        let content = class.is_protected().then(|| match self.narrative {
            Narrative::Written => region.content.detached(),
            Narrative::Regions(_) => region.content.clone(),
        });
        let source = region.source.clone();
        let moved = (region.place.index != i).then_some(region.place.index);
        let detail = (kind.is_some() || content.is_some() || source.is_some() || moved.is_some())
            .then(|| {
                Box::new(Detail {
                    key: kind.as_ref().and(region.key.clone()),
                    kind,
                    content,
                    source,
                    index: moved,
                    first: None,
                    spans: None,
                })
            });
        let spans = Spans {
            opening: region.place.span.clone(),
            id: region.id_span.clone(),
            content: region.content_span.clone(),
        };
        self.slots.push(Slot::new(
            spans,
            region.status,
            region.place.listed,
            facts.written,
            detail,
        ));
        self.ids.push(&region.id);
        if let Some(key) = keyed(class, region) {
            self.commitment(i, region, key);
            if let Content::Text(text) = &region.content {
                if is_identifier_like(text) {
                    self.pinned.push(Pinned {
                        text: text.to_string(),
                        region: i,
                    });
                }
            }
        } else if facts.hinted {
            let what = match region.kind {
                RegionKind::Narrative => "narrative",
                _ => "unclassified",
            };
            let at = (region.content_span.clone(), || region.place.pointer());
            self.untagged(i, &region.id, what, || region.content.as_text(), at);
        }
    }

    /// The index, every region added: repeated ids found, the table of
    /// ids and the identifiers pinned made.
    pub(crate) fn finish(mut self) -> TraceIndex<'a> {
        // The ids' table and the pinned identifiers' index, side by side
        // for a large trace.
        let pinned = std::mem::take(&mut self.pinned);
        let (repeats, drift) = if self.slots.len() >= PARALLEL_IDS {
            rayon::join(|| self.ids.sort(), || DriftIndex::new(pinned))
        } else {
            (self.ids.sort(), DriftIndex::new(pinned))
        };
        self.drift = drift;
        for (t, first) in repeats {
            let id = self.id(t);
            let diagnostic = codes::duplicate_trace_id(id)
                .label_at(
                    &self.file,
                    self.slots[t].spans().id,
                    self.pointer(t),
                    "used again here",
                )
                .label_at(
                    &self.file,
                    self.slots[first].spans().id,
                    self.pointer(first),
                    "first used here",
                );
            self.findings
                .push_ranked(Anchor::Trace(t), Rank::Id, diagnostic);
        }
        self
    }

    /// What the index owns of its regions, to be freed anywhere
    /// ([`super::dispose`]); the file it points into is let go here.
    pub(crate) fn leftovers(self) -> impl Send + 'static {
        let TraceIndex {
            class,
            tokens,
            slots,
            ids,
            identities,
            drift,
            pinned,
            findings,
            ..
        } = self;
        (
            class, tokens, slots, ids, identities, drift, pinned, findings,
        )
    }

    fn push_finding(&mut self, anchor: Anchor, diagnostic: Diagnostic) {
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
        self.findings.push_ranked(
            Anchor::Trace(i),
            Rank::Kind,
            policy_codes::unknown_kind_in_trace(&region.id, kind, suggestion).label_at(
                &self.file,
                span,
                region.place.pointer(),
                "not a declared kind",
            ),
        );
        Class::Unclassified
    }

    fn commitment(&mut self, i: usize, region: &Region, key: &str) {
        let RegionKind::Commitment(kind) = &region.kind else {
            return;
        };
        if let (Some(at), Some(tagged_at)) = (region.at, region.tagged_at) {
            if tagged_at > at && self.findings.admit(Code::RetrofittedTag) {
                let span = region
                    .tagged_at_span
                    .clone()
                    .unwrap_or(region.place.span.clone());
                self.push_finding(
                    Anchor::Trace(i),
                    codes::retrofitted_tag(&format!("{kind}:{key}"), &region.id, tagged_at, at)
                        .label_at(&self.file, span, region.place.pointer(), "tagged late"),
                );
            }
        }
        let hash = self.ids.hasher.hash_one((kind.as_str(), key));
        let slots = &self.slots;
        let first = match self.identities.entry(
            hash,
            |&(h, t)| h == hash && identity_of(&slots[t]) == Some((kind.as_str(), key)),
            |&(h, _)| h,
        ) {
            hashbrown::hash_table::Entry::Occupied(entry) => entry.get().1,
            hashbrown::hash_table::Entry::Vacant(entry) => {
                entry.insert((hash, i));
                return;
            }
        };
        if let Some(detail) = self.slots[i].detail.as_mut() {
            detail.first = Some(first);
            self.identity_repeats = true;
        }
        let same = self
            .stored(first)
            .is_some_and(|other| other.same(&region.content));
        if !same {
            let diagnostic = codes::conflicting_commitment(&format!("{kind}:{key}"), &region.id)
                .label_at(
                    &self.file,
                    region.content_span.clone(),
                    region.place.pointer(),
                    format!("`{}` says this", region.id),
                )
                .label_at(
                    &self.file,
                    self.slots[first].spans().content,
                    self.pointer(first),
                    format!("`{}` says this", self.id(first)),
                );
            self.push_finding(Anchor::Trace(i), diagnostic);
        }
    }

    /// Region `i` (`id`) gives `given` tokens where it has `real`; `at`:
    /// where it gives them and the region's pointer.
    fn stale_tokens(
        &mut self,
        i: usize,
        id: &str,
        (span, pointer): (Span, impl FnOnce() -> Option<String>),
        given: u64,
        real: u64,
    ) {
        if !self.findings.admit(Code::TokenCountMismatch) {
            return;
        }
        let tokenizer = self.counter.tokenizer.name();
        let diagnostic = codes::token_count_mismatch(id, given, real, tokenizer).label_at(
            &self.file,
            span,
            pointer(),
            format!("gives {given} tokens"),
        );
        self.findings
            .push_ranked(Anchor::Trace(i), Rank::Tokens, diagnostic);
    }

    /// Region `i` (`id`, `what` it is) a hint matches: which kind's is
    /// asked of its `text` only for a finding shown. `at`: where its
    /// content is written and the region's pointer.
    fn untagged<'t>(
        &mut self,
        i: usize,
        id: &str,
        what: &str,
        text: impl FnOnce() -> Cow<'t, str>,
        (content, pointer): (Span, impl FnOnce() -> Option<String>),
    ) {
        if !self.findings.admit(Code::UntaggedCandidate) {
            return;
        }
        let Some((kind, _)) = self.policy.first_hint(&text()) else {
            return;
        };
        let name = self.policy.kinds.get(kind).map_or("", |k| k.name.as_str());
        let span = self.hint_span(&self.file, &content, kind);
        self.push_finding(
            Anchor::Trace(i),
            codes::untagged_candidate(what, id, name).label_at(
                &self.file,
                span,
                pointer(),
                format!("matches the hint for `{name}`"),
            ),
        );
    }
}

/// The kind and key a slot was written with, for a commitment.
fn identity_of(slot: &Slot) -> Option<(&str, &str)> {
    let detail = slot.detail.as_ref()?;
    Some((detail.kind.as_deref()?, detail.key.as_deref()?))
}

/// The hash a region's content as written in a file on disk is checked by
/// when it is read back: fixed, so a worker thread and the index agree.
pub(crate) fn written_hash(written: &str) -> u64 {
    foldhash::quality::FixedState::with_seed(0x6374_7867).hash_one(written)
}
