//! A file's text left where it is on disk: a large trace is read as it
//! streams, and a report reads back only the ranges it quotes, each with
//! one positioned read, so memory never holds the file.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::sync::Mutex;

/// Whether this platform can read a range of an open file without moving
/// a shared cursor (Unix and Windows can): only then is a trace left on
/// disk; elsewhere it is read whole.
pub(crate) const SUPPORTED: bool = cfg!(any(unix, windows));

/// An open file whose text starts at `start` (after a byte-order mark)
/// and runs for `len` bytes.
#[derive(Debug)]
pub(crate) struct OnDisk {
    file: File,
    start: u64,
    len: usize,
    /// The last block read: a report reads around its labels, a few
    /// bytes at a time, and most of its reads fall in one block.
    cached: Mutex<Option<(usize, Vec<u8>)>>,
}

/// Bytes read back at a time (aligned), when a range fits in one block.
const BLOCK: usize = 64 * 1024;

impl OnDisk {
    pub(crate) fn new(file: File, start: u64, len: usize) -> OnDisk {
        OnDisk {
            file,
            start,
            len,
            cached: Mutex::new(None),
        }
    }

    /// The text's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The bytes of `range`, clamped to the text. What cannot be read (the
    /// file shrank or failed since it was streamed) reads as `?`, byte for
    /// byte, so every offset a report computes still holds.
    pub(crate) fn bytes(&self, range: Range<usize>) -> Vec<u8> {
        let end = range.end.min(self.len);
        let start = range.start.min(end);
        let block = start - start % BLOCK;
        if end <= block + BLOCK {
            if let Ok(mut cached) = self.cached.lock() {
                if cached.as_ref().is_none_or(|(at, _)| *at != block) {
                    *cached = Some((block, self.read(block..(block + BLOCK).min(self.len))));
                }
                if let Some((_, bytes)) = cached.as_ref() {
                    return bytes[start - block..end - block].to_vec();
                }
            }
        }
        self.read(start..end)
    }

    fn read(&self, range: Range<usize>) -> Vec<u8> {
        let mut bytes = vec![0; range.len()];
        if read_at(&self.file, &mut bytes, self.start + range.start as u64).is_err() {
            bytes.fill(b'?');
        }
        bytes
    }

    /// The text of `range` (on character boundaries). Bytes that are not
    /// UTF-8 there any more (the file changed since it was streamed) read
    /// as `?`, one for each, keeping the length.
    pub(crate) fn text(&self, range: Range<usize>) -> String {
        String::from_utf8(self.bytes(range)).unwrap_or_else(|error| {
            let bytes = error.into_bytes();
            bytes
                .iter()
                .map(|&b| if b.is_ascii() { b as char } else { '?' })
                .collect()
        })
    }
}

/// Fills `buffer` from `offset` of `file`, its cursor left where it is.
#[cfg(unix)]
pub(crate) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buffer, offset)
}

/// Fills `buffer` from `offset` of `file`.
#[cfg(windows)]
pub(crate) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    let mut done = 0;
    while done < buffer.len() {
        match file.seek_read(&mut buffer[done..], offset + done as u64)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => done += n,
        }
    }
    Ok(())
}

/// Not available here: no trace is left on disk ([`SUPPORTED`]).
#[cfg(not(any(unix, windows)))]
pub(crate) fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn ranges_are_read_back_and_what_is_gone_reads_as_question_marks() {
        let mut file = tempfile::tempfile().unwrap_or_else(|e| panic!("{e}"));
        file.write_all("\u{feff}héllo\nwörld".as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        let disk = OnDisk::new(file, 3, "héllo\nwörld".len());
        assert_eq!(disk.text(0..6), "héllo");
        assert_eq!(disk.text(7..99), "wörld");
        // Half a character: the length holds, the text is inert.
        assert_eq!(disk.text(0..2), "h?");
        let gone = OnDisk::new(tempfile::tempfile().unwrap_or_else(|e| panic!("{e}")), 0, 4);
        assert_eq!(gone.text(1..3), "??");
    }
}
