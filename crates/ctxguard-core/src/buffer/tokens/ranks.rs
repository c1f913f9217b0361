//! A tokenizer's rank table as build.rs writes it (the layout is there),
//! read in place from the binary: nothing is built at start-up, and a page
//! of it is read from disk only when a lookup touches it.
//!
//! [`Ranks::count_piece`] counts a short piece the way tiktoken does:
//! start from single bytes and merge the adjacent pair whose merged bytes
//! have the lowest rank, the leftmost on a tie, until no adjacent pair is a
//! token. That is quadratic in the piece, so it takes pieces of at most
//! [`MAX_PIECE`] bytes; bpe-openai counts longer ones in linear time.

use std::hash::Hasher;

/// The longest piece [`Ranks::count_piece`] counts: 64² steps at most.
pub(super) const MAX_PIECE: usize = 64;

/// No token: an empty hash slot, or a pair that does not merge.
const NONE: u32 = u32::MAX;

/// A rank table borrowed from the binary.
pub(super) struct Ranks {
    offsets: &'static [u8],
    slots: &'static [u8],
    bytes: &'static [u8],
    mask: usize,
}

/// The `i`th little-endian `u32` of `words`, or [`NONE`] past its end.
fn word(words: &[u8], i: usize) -> u32 {
    words
        .get(i * 4..i * 4 + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(NONE, u32::from_le_bytes)
}

impl Ranks {
    /// The table in `data`, or `None` when its header does not fit it.
    pub(super) fn new(data: &'static [u8]) -> Option<Ranks> {
        let n = usize::try_from(word(data, 0)).ok()?;
        let bits = word(data, 1);
        let slots = 1usize.checked_shl(bits)?;
        let rest = data.get(8..)?;
        let (offsets, rest) = rest.split_at_checked((n + 1).checked_mul(4)?)?;
        let (slots_data, bytes) = rest.split_at_checked(slots.checked_mul(4)?)?;
        (word(offsets, n) as usize == bytes.len()).then_some(Ranks {
            offsets,
            slots: slots_data,
            bytes,
            mask: slots - 1,
        })
    }

    /// The rank of the token whose bytes are `piece`, or [`NONE`].
    pub(super) fn rank(&self, piece: &[u8]) -> u32 {
        let mut hasher = fnv::FnvHasher::default();
        hasher.write(piece);
        let mut slot = hasher.finish() as usize & self.mask;
        loop {
            let id = word(self.slots, slot);
            if id == NONE {
                return NONE;
            }
            let (start, end) = (
                word(self.offsets, id as usize),
                word(self.offsets, id as usize + 1),
            );
            if self.bytes.get(start as usize..end as usize) == Some(piece) {
                return id;
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// The number of tokens tiktoken makes of `piece`, or `None` when it is
    /// longer than [`MAX_PIECE`].
    pub(super) fn count_piece(&self, piece: &[u8]) -> Option<u64> {
        let n = piece.len();
        if n > MAX_PIECE {
            return None;
        }
        // Every single byte is a token of both encodings.
        if n <= 1 || self.rank(piece) != NONE {
            return Some(n.min(1) as u64);
        }
        // Part `i` starts at `starts[i]`; the last entry is the end of the
        // piece. `ranks[i]` is the rank of parts `i` and `i + 1` merged.
        let mut starts = [0u8; MAX_PIECE + 1];
        let mut ranks = [NONE; MAX_PIECE + 1];
        for (i, start) in starts.iter_mut().enumerate().take(n + 1) {
            *start = i as u8;
        }
        let merged = |starts: &[u8], i: usize| match (starts.get(i), starts.get(i + 2)) {
            (Some(&from), Some(&to)) => self.rank(&piece[from as usize..to as usize]),
            _ => NONE,
        };
        for (rank, pair) in ranks.iter_mut().zip(piece.windows(2)) {
            *rank = self.rank(pair);
        }
        let mut len = n + 1;
        loop {
            let Some((i, _)) = ranks[..len - 1]
                .iter()
                .enumerate()
                .filter(|&(_, &rank)| rank != NONE)
                .min_by_key(|&(i, &rank)| (rank, i))
            else {
                return Some(len as u64 - 1);
            };
            starts.copy_within(i + 2..len, i + 1);
            ranks.copy_within(i + 2..len, i + 1);
            len -= 1;
            ranks[i] = merged(&starts[..len], i);
            if i > 0 {
                ranks[i - 1] = merged(&starts[..len], i - 1);
            }
        }
    }
}
