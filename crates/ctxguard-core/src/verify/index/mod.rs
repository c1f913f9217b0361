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

/// Region ids, each written once into one string. While regions are
/// added only the ids and their hashes are kept (an append each); once
/// all are in, the hashes are sorted (a counting sort on their top bits),
/// which finds the ids that repeat and makes the table a plan's ids are
/// looked up in: hashed with foldhash, seeded per process (ids are
/// untrusted input).
struct Ids {
    text: String,
    ends: Vec<usize>,
    hashes: Vec<u64>,
    /// Whether each region's id is one an earlier region had.
    repeated: Vec<bool>,
    /// Every region (the low 32 bits) after the [`Ids::key`] of its id's
    /// hash, by directory entry; within an entry, in trace order, or
    /// sorted if it holds more than [`SMALL_ENTRY`].
    sorted: Vec<u64>,
    /// Where in `sorted` the regions of each value of their hashes' top
    /// bits start.
    directory: Vec<u32>,
    /// How far a hash is shifted for its place in `directory`.
    shift: u32,
    hasher: foldhash::fast::RandomState,
}

/// Regions of a directory entry from which they are sorted; fewer are
/// left in trace order and compared pairwise.
const SMALL_ENTRY: usize = 16;

/// Regions from which the ids' table is made beside the pinned identifiers' index.
const PARALLEL_IDS: usize = 1 << 16;

impl Ids {
    fn with_capacity(regions: usize) -> Ids {
        Ids {
            text: String::new(),
            ends: Vec::with_capacity(regions),
            hashes: Vec::with_capacity(regions),
            repeated: Vec::new(),
            sorted: Vec::new(),
            directory: Vec::new(),
            shift: 64,
            hasher: foldhash::fast::RandomState::default(),
        }
    }

    fn get(&self, t: usize) -> &str {
        let start = t.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.text.get(start..self.ends[t]).unwrap_or_default()
    }

    /// Adds the next region's id.
    fn push(&mut self, id: &str) {
        self.text.push_str(id);
        self.ends.push(self.text.len());
        self.hashes.push(self.hasher.hash_one(id));
    }

    /// Sorts the hashes, once every id is in: each region whose id an
    /// earlier one had, with that earlier one, in trace order.
    fn sort(&mut self) -> Vec<(usize, usize)> {
        let hashes = std::mem::take(&mut self.hashes);
        // About four regions a directory entry: the regions are spread over
        // the entries by the top bits of their hashes (a counting sort, in
        // trace order, of the next 32 bits and the region, 8 bytes each);
        // an entry of many (ids that repeat) is then sorted.
        let bits = (usize::BITS - (hashes.len() >> 2).leading_zeros()).clamp(1, 24);
        self.shift = 64 - bits;
        let entry = |hash: u64| (hash >> self.shift) as usize;
        let mut directory = vec![0u32; (1 << bits) + 1];
        for &hash in &hashes {
            directory[entry(hash)] += 1;
        }
        let mut at = 0;
        for count in &mut directory {
            (*count, at) = (at, at + *count);
        }
        let mut sorted = vec![0u64; hashes.len()];
        for (t, &hash) in hashes.iter().enumerate() {
            let at = &mut directory[entry(hash)];
            sorted[*at as usize] = self.key(hash) | u64::from(u32::try_from(t).unwrap_or(u32::MAX));
            *at += 1;
        }
        // Each entry now holds where the next one starts.
        let last = directory.len() - 1;
        directory.copy_within(..last, 1);
        directory[0] = 0;
        // Regions of one key stand together in a sorted entry, first
        // region first; a small entry is in trace order. An id seen before
        // repeats the first region that had it.
        let mut repeated = vec![false; hashes.len()];
        let mut repeats = Vec::new();
        let region = |k: u64| k as u32 as usize;
        for pair in directory.windows(2) {
            let regions = &mut sorted[pair[0] as usize..pair[1] as usize];
            if regions.len() > SMALL_ENTRY {
                regions.sort_unstable();
            }
            let runs = regions.chunk_by(|a, b| regions.len() <= SMALL_ENTRY || a >> 32 == b >> 32);
            for run in runs.filter(|run| run.len() > 1) {
                for (k, &t) in run.iter().enumerate() {
                    let id = || self.get(region(t));
                    let same = |e: &&u64| *e >> 32 == t >> 32 && self.get(region(**e)) == id();
                    if let Some(&first) = run[..k].iter().find(same) {
                        repeated[region(t)] = true;
                        repeats.push((region(t), region(first)));
                    }
                }
            }
        }
        repeats.sort_unstable();
        self.repeated = repeated;
        self.directory = directory;
        self.sorted = sorted;
        repeats
    }

    /// What `hash` is sorted by within its directory entry: the 32 bits
    /// after those of the entry, above a region's number.
    fn key(&self, hash: u64) -> u64 {
        ((hash << (64 - self.shift)) >> 32) << 32
    }

    /// The first region with `id`; `near` is where it most likely is (the
    /// region after the last one a plan named: plans name them in order).
    fn find(&self, id: &str, near: usize) -> Option<usize> {
        if near < self.ends.len() && !self.repeated[near] && self.get(near) == id {
            return Some(near);
        }
        let hash = self.hasher.hash_one(id);
        let top = (hash >> self.shift) as usize;
        let from = *self.directory.get(top)? as usize;
        let to = *self.directory.get(top + 1)? as usize;
        let candidates = self.sorted.get(from..to)?;
        let key = self.key(hash);
        let same = |k: &&u64| **k >> 32 == key >> 32;
        let region = |k: &u64| *k as u32 as usize;
        match candidates.len() > SMALL_ENTRY {
            // Sorted: the run of its key.
            true => (candidates[candidates.partition_point(|&k| k < key)..].iter())
                .take_while(same)
                .map(region)
                .find(|&t| self.get(t) == id),
            false => (candidates.iter().filter(same).map(region)).find(|&t| self.get(t) == id),
        }
    }
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

/// A plain narrative region's facts ([`facts`]), its text read from the
/// piece it is in, decoded only if a hint or the tokenizer reads it.
fn plain_facts(policy: &Policy, counter: Counter, plain: &Plain, piece: &Piece) -> Facts {
    let literal = piece.written(&plain.content_span);
    let (hint, count) = (plain.role != Some(Role::Tool), counter.counts(plain.tokens));
    // The text, if the hints or the tokenizer read it: decoded when it is
    // written with escapes, else as it stands between its quotes.
    let text = match (hint || count, plain.escaped) {
        (false, _) => Cow::Borrowed(""),
        (true, true) => crate::buffer::json::string(literal).unwrap_or_default(),
        (true, false) => Cow::Borrowed(
            literal
                .get(1..literal.len().saturating_sub(1))
                .unwrap_or_default(),
        ),
    };
    Facts {
        hinted: hint && policy.any_hint(&text),
        counted: count.then(|| crate::buffer::tokens::count(counter.tokenizer, &text)),
        written: written_hash(literal),
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

    /// The index of a trace read as it streams, its text left on disk: the
    /// hints and counts of each piece on the thread that read it. `Err`:
    /// the file is to be read whole instead ([`Streaming`]).
    pub fn streamed(
        policy: &'a Policy,
        streaming: Streaming,
        counter: Counter,
        warning_limit: Option<usize>,
    ) -> Result<TraceIndex<'a>, ReadWhole> {
        // Room for a region every few hundred bytes; a table grows past it.
        let regions = streaming.len() / 256;
        let mut index = TraceIndex::start(
            policy,
            Arc::clone(streaming.source()),
            counter,
            warning_limit,
            Narrative::Written,
            regions,
        );
        streaming.regions(
            |piece, regions| {
                (regions.iter())
                    .map(|region| match region {
                        Typed::Full(region) => Facts {
                            written: written_hash(piece.written(&region.content_span)),
                            ..facts(policy, counter, region)
                        },
                        Typed::Plain(plain) => plain_facts(policy, counter, plain, piece),
                    })
                    .collect::<Vec<_>>()
            },
            |piece, regions, facts| {
                for (region, facts) in regions.iter().zip(facts) {
                    match region {
                        Typed::Full(region) => index.push(region, facts),
                        Typed::Plain(plain) => index.push_plain(plain, piece, facts),
                    }
                }
            },
        )?;
        Ok(index.finish())
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

    /// Adds the trace's next region, a plain narrative one read from
    /// `piece`: what [`TraceIndex::push`] does with the region it stands for.
    pub(crate) fn push_plain(&mut self, plain: &Plain, piece: &Piece, facts: Facts) {
        let i = self.slots.len();
        self.class.push(Class::Narrative);
        let id = piece.written(&plain.id());
        let pointer = || region_pointer(plain.index, plain.listed);
        let counted = self
            .counter
            .count(plain.tokens, || facts.counted.unwrap_or(0));
        if let Some(given) = counted.stale {
            let span = plain.tokens_span.as_ref().unwrap_or(&plain.opening);
            self.stale_tokens(i, id, (span.clone(), pointer), given, counted.tokens);
        }
        self.tokens.push(counted.tokens);
        let detail = (plain.index != i).then(|| {
            Box::new(Detail {
                index: Some(plain.index),
                ..Detail::default()
            })
        });
        let spans = Spans {
            opening: plain.opening.clone(),
            id: plain.id_span.clone(),
            content: plain.content_span.clone(),
        };
        self.slots.push(Slot::new(
            spans,
            Status::Active,
            plain.listed,
            facts.written,
            detail,
        ));
        self.ids.push(id);
        if facts.hinted {
            let literal = piece.written(&plain.content_span);
            let text = || crate::buffer::json::string(literal).unwrap_or_default();
            let at = (plain.content_span.clone(), pointer);
            self.untagged(i, id, "narrative", text, at);
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

    /// Where one of kind `k`'s hints matches inside `within` as written in
    /// the file, or all of `within` when the written form does not match.
    pub fn hint_span(&self, file: &SourceFile, within: &Span, k: usize) -> Span {
        let written = file.slice(within.clone());
        if written.len() != within.len() {
            return within.clone();
        }
        self.policy
            .kinds
            .get(k)
            .into_iter()
            .flat_map(|kind| &kind.hints)
            .find_map(|hint| hint.regex()?.find(&written))
            .filter(|found| !found.is_empty())
            .map_or(within.clone(), |found| {
                within.start + found.start()..within.start + found.end()
            })
    }

    /// How many regions the trace has.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the trace has no region.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The first region with `id`. `near`: where it most likely is.
    pub fn region(&self, id: &str, near: usize) -> Option<usize> {
        self.ids.find(id, near)
    }

    /// The first trace region with this identity.
    pub fn identity(&self, kind: &str, key: &str) -> Option<usize> {
        let hash = self.ids.hasher.hash_one((kind, key));
        let same =
            |&(h, t): &(u64, usize)| h == hash && identity_of(&self.slots[t]) == Some((kind, key));
        self.identities.find(hash, same).map(|&(_, t)| t)
    }

    /// The first region of `i`'s identity (itself, unless it repeats one).
    pub fn canonical(&self, i: usize) -> usize {
        if !self.identity_repeats {
            return i;
        }
        (self.slots[i].detail.as_ref())
            .and_then(|detail| detail.first)
            .unwrap_or(i)
    }

    /// The kind and key of a region written as a commitment (of a declared kind or not).
    pub fn commitment_of(&self, t: usize) -> Option<(&str, &str)> {
        identity_of(&self.slots[t])
    }

    /// `kind:key` of a region written as a commitment, else its id.
    pub fn identity_or_id(&self, t: usize) -> String {
        match self.commitment_of(t) {
            Some((kind, key)) => format!("{kind}:{key}"),
            None => self.id(t).to_owned(),
        }
    }

    pub fn id(&self, t: usize) -> &str {
        self.ids.get(t)
    }

    pub fn status(&self, t: usize) -> Status {
        self.slots[t].status
    }

    /// The region's first line, for labels about the whole region.
    pub fn opening(&self, t: usize) -> Span {
        self.slots[t].spans().opening
    }

    /// Where the region's content is written.
    pub fn content_span(&self, t: usize) -> Span {
        self.slots[t].spans().content
    }

    /// The region's JSON Pointer, `/regions/3`; `None` in JSON Lines.
    pub fn pointer(&self, t: usize) -> Option<String> {
        let slot = &self.slots[t];
        let index = slot.detail.as_ref().and_then(|detail| detail.index);
        region_pointer(index.unwrap_or(t), slot.listed)
    }

    /// Where an imported region came from.
    pub fn source(&self, t: usize) -> Option<&Provenance> {
        self.slots[t].detail.as_ref()?.source.as_deref()
    }

    /// The content the index keeps: a protected region's.
    fn stored(&self, t: usize) -> Option<&Content> {
        self.slots[t].detail.as_ref()?.content.as_ref()
    }

    /// The region's content: kept, for a protected region; read back for
    /// a narrative one, from the trace in memory or from its file on disk,
    /// where it must be as it was read (`unreadable-file` otherwise).
    pub fn content(&self, t: usize) -> Result<Cow<'_, Content>, Box<Diagnostic>> {
        if let Some(content) = self.stored(t) {
            return Ok(Cow::Borrowed(content));
        }
        match &self.narrative {
            Narrative::Regions(regions) => Ok(Cow::Borrowed(&regions[t].content)),
            Narrative::Written => {
                let slot = &self.slots[t];
                let written = self.file.slice(slot.spans().content);
                let text = (written_hash(&written) == slot.written)
                    .then(|| crate::buffer::json::string(&written).map(Cow::into_owned))
                    .flatten();
                text.map(|text| Cow::Owned(Content::Text(text.into())))
                    .ok_or_else(|| {
                        Box::new(input_codes::unreadable(
                            self.file.name(),
                            format!(
                                "`{}` changed while it was verified: region `{}` no longer reads as it did",
                                crate::diagnostics::codes::echo(self.file.name()),
                                crate::diagnostics::codes::echo(self.id(t))
                            ),
                        ))
                    })
            }
        }
    }

    /// Whether no content the index keeps holds on to the text it was read from.
    #[cfg(any(test, feature = "testing"))]
    pub fn holds_no_piece(&self) -> bool {
        (self.slots.iter())
            .filter_map(|slot| slot.detail.as_ref()?.content.as_ref())
            .all(|content| !matches!(content, Content::Text(text) if text.is_shared()))
    }

    /// A kind's severity: losing a soft commitment is a warning.
    pub fn severity(&self, class: Class) -> Severity {
        match class {
            Class::Commitment(k) => self
                .policy
                .kinds
                .get(k as usize)
                .map_or(Severity::Error, |kind| kind.severity.value),
            _ => Severity::Error,
        }
    }

    pub fn has_errors(&self) -> bool {
        self.findings.has_errors()
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The ids' table finds what a scan of every id finds: each id that
        /// repeats, with the first region that had it, and the first region
        /// of any id asked, wherever the search starts. Few distinct ids
        /// make entries of many regions (sorted), many make small ones.
        #[test]
        fn the_ids_table_finds_what_a_scan_finds(
            ids in prop::collection::vec(prop_oneof![
                3 => "[a-c]{0,2}",
                1 => "r[0-9]{1,5}",
                1 => Just("same".to_owned()),
            ], 0..600),
            asked in prop::collection::vec("[a-c]{0,2}|r[0-9]{1,3}|same|none", 0..20),
            near in 0usize..700,
        ) {
            let mut table = Ids::with_capacity(ids.len());
            for id in &ids {
                table.push(id);
            }
            let first = |id: &str| ids.iter().position(|other| other == id);
            let repeats: Vec<(usize, usize)> = (ids.iter().enumerate())
                .filter_map(|(t, id)| first(id).filter(|&f| f < t).map(|f| (t, f)))
                .collect();
            prop_assert_eq!(table.sort(), repeats);
            for id in asked.iter().chain(&ids) {
                prop_assert_eq!(table.find(id, near), first(id), "{}", id);
            }
        }
    }

    /// A large trace holds one slot and one class a region.
    #[test]
    fn what_the_index_keeps_of_a_region_stays_small() {
        let size = std::mem::size_of::<Slot>();
        assert!(size <= 48, "Slot takes {size} bytes");
        assert!(std::mem::size_of::<Class>() <= 8);
    }

    #[test]
    fn spans_that_do_not_fit_a_slot_are_kept_whole() {
        let spans = Spans {
            opening: 10..20,
            id: 12..15,
            content: 30..40,
        };
        let slot = Slot::new(spans.clone(), Status::Active, true, 0, None);
        assert!(slot.detail.is_none());
        assert_eq!(slot.spans(), spans);
        // A span before the region's first line, and one past 4 GiB of it.
        for odd in [
            Spans {
                id: 5..8,
                ..spans.clone()
            },
            Spans {
                content: 30..(5 << 30),
                ..spans.clone()
            },
        ] {
            let slot = Slot::new(odd.clone(), Status::Active, true, 0, None);
            assert_eq!(slot.spans(), odd);
        }
    }
}
