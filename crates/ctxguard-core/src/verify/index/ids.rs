//! Region ids, each written once into one string, and the table a plan's
//! ids are looked up in.

use std::hash::BuildHasher;

/// Region ids, each written once into one string. While regions are
/// added only the ids and their hashes are kept (an append each); once
/// all are in, the hashes are sorted (a counting sort on their top bits),
/// which finds the ids that repeat and makes the table a plan's ids are
/// looked up in: hashed with foldhash, seeded per process (ids are
/// untrusted input).
pub(super) struct Ids {
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
    pub(super) hasher: foldhash::fast::RandomState,
}

/// Regions of a directory entry from which they are sorted; fewer are
/// left in trace order and compared pairwise.
const SMALL_ENTRY: usize = 16;

/// Regions from which the ids' table is made beside the pinned identifiers' index.
pub(super) const PARALLEL_IDS: usize = 1 << 16;

impl Ids {
    pub(super) fn with_capacity(regions: usize) -> Ids {
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

    pub(super) fn get(&self, t: usize) -> &str {
        let start = t.checked_sub(1).map_or(0, |before| self.ends[before]);
        self.text.get(start..self.ends[t]).unwrap_or_default()
    }

    /// Adds the next region's id.
    pub(super) fn push(&mut self, id: &str) {
        self.text.push_str(id);
        self.ends.push(self.text.len());
        self.hashes.push(self.hasher.hash_one(id));
    }

    /// Sorts the hashes, once every id is in: each region whose id an
    /// earlier one had, with that earlier one, in trace order.
    pub(super) fn sort(&mut self) -> Vec<(usize, usize)> {
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
    pub(super) fn key(&self, hash: u64) -> u64 {
        ((hash << (64 - self.shift)) >> 32) << 32
    }

    /// The first region with `id`; `near` is where it most likely is (the
    /// region after the last one a plan named: plans name them in order).
    pub(super) fn find(&self, id: &str, near: usize) -> Option<usize> {
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
