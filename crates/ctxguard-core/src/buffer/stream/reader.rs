//! The file read a block at a time, each block cut where a region starts.

use super::*;

/// Reads `len` bytes of text a block at a time, and cuts each between two
/// regions; where the lines start, found on the way.
pub(super) struct Reader<R> {
    pub(super) file: R,
    pub(super) len: usize,
    pub(super) format: InputFormat,
    pub(super) block: usize,
    /// What follows the last cut.
    pub(super) carry: Vec<u8>,
    /// Where the next piece starts in the text.
    pub(super) base: usize,
    pub(super) read: usize,
    pub(super) first: bool,
    pub(super) starts: Vec<usize>,
    /// The last piece was read.
    pub(super) done: bool,
}

impl<R: Read> Reader<R> {
    /// The next piece, read into `bytes` after what the last cut left.
    pub(super) fn next(&mut self, mut bytes: Vec<u8>) -> Result<Block, ReadWhole> {
        bytes.clear();
        bytes.append(&mut self.carry);
        // Where the search for a cut starts: before it, there is none.
        let mut searched = 0;
        loop {
            let before = bytes.len();
            let got = (&mut self.file)
                .take(self.block as u64)
                .read_to_end(&mut bytes)
                .map_err(|_| ReadWhole)?;
            self.read += got;
            let last = got < self.block;
            if last && self.read != self.len {
                // The file changed since it was opened.
                return Err(ReadWhole);
            }
            let cut = if last {
                Some(bytes.len())
            } else {
                cut(&bytes, searched, self.format)
            };
            let Some(cut) = cut else {
                // No cut yet (a long line): read on into the same bytes
                // (not copied: a long line would be copied once a block),
                // searching only what is new.
                searched = before.saturating_sub(LOOK_BACK);
                continue;
            };
            if self.first && last {
                // Nowhere to cut it (a file on one line): it would be one
                // piece, the whole file in memory; it is read whole, on
                // every core.
                return Err(ReadWhole);
            }
            self.carry.extend_from_slice(&bytes[cut..]);
            bytes.truncate(cut);
            line_starts_in(
                &bytes,
                self.base,
                self.carry.first().copied(),
                &mut self.starts,
            );
            let piece = Block {
                base: self.base,
                first: self.first,
                last,
                bytes,
            };
            self.base += piece.bytes.len();
            self.first = false;
            self.done = last;
            return Ok(piece);
        }
    }
}

/// How far before new bytes a cut is looked for: a line break whose
/// region starts only in the new bytes (past this much whitespace, a cut
/// is missed, and the piece only grows).
pub(super) const LOOK_BACK: usize = 4096;

/// Where to cut `bytes` (looked for from `from` on): after the last line
/// break in JSON Lines; in JSON, just before the last region that follows
/// a comma and a line break. `None`: no place yet.
pub(super) fn cut(bytes: &[u8], from: usize, format: InputFormat) -> Option<usize> {
    let from = from.min(bytes.len());
    if format == InputFormat::JsonLines {
        return memchr::memrchr(b'\n', &bytes[from..]).map(|i| from + i + 1);
    }
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    memchr::memrchr_iter(b'\n', &bytes[from..]).find_map(|i| {
        let at = from + i;
        let open = at + 1 + bytes[at + 1..].iter().take_while(|b| space(b)).count();
        let comma = bytes[..at].iter().rev().find(|b| !space(b));
        (bytes.get(open) == Some(&b'{') && comma == Some(&b',')).then_some(open)
    })
}
