//! Reading input files into text, with a clear error for what is not UTF-8,
//! not a regular file, or larger than the run allows.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use crate::source::access::{kind_of, Access, Admitted};
use crate::source::SourceFile;

/// A file that was not read into text: its name as written, and why.
/// `diagnostics` words it for the user (`unreadable-file`).
#[derive(Debug)]
pub struct Unread {
    /// The file's name as the user wrote it (`-` for standard input).
    pub name: String,
    /// Why it was not read.
    pub why: Why,
}

/// Why a file was not read into text.
#[derive(Debug)]
pub enum Why {
    /// Opening, inspecting or reading the file failed.
    Io(std::io::Error),
    /// Reading standard input failed.
    Stdin(std::io::Error),
    /// Not a regular file but this (`a directory`, `a FIFO`, …).
    NotAFile(&'static str),
    /// Another file was swapped in after the access rule admitted it.
    Changed,
    /// More bytes than the limit: the size, when the file system said it.
    TooLarge {
        /// The file's size, when known before reading.
        size: Option<u64>,
        /// The run's limit.
        limit: u64,
    },
    /// UTF-16 text.
    Utf16,
    /// Bytes that are not UTF-8: the text with U+FFFD in their place, and
    /// where the first one is (a byte offset into that text) and its value.
    NotUtf8 {
        /// The text as shown, each stray byte replaced.
        shown: String,
        /// The byte offset of the first replacement in `shown`.
        at: usize,
        /// The first byte that is not UTF-8.
        byte: u8,
    },
}

fn unread(name: &str, why: Why) -> Box<Unread> {
    Box::new(Unread {
        name: name.to_owned(),
        why,
    })
}

/// Reads a file, or standard input for `-`, within `access`'s size limit.
/// Anything but a regular file is refused unread.
pub fn read(path: &Path, access: &Access) -> Result<Arc<SourceFile>, Box<Unread>> {
    read_file(path, &path.display().to_string(), access, None)
        .and_then(|(name, bytes)| decode(&name, bytes).map(|text| SourceFile::new(name, text)))
}

/// Reads a session file, which its runtime may be appending to as it is
/// read: a last line torn inside a character loses the bytes of that
/// character (the line is torn anyway, and reported so by the importer);
/// anything else that is not UTF-8 is refused as [`read`] refuses it.
pub fn read_session(path: &Path, access: &Access) -> Result<Arc<SourceFile>, Box<Unread>> {
    let (name, mut bytes) = read_file(path, &path.display().to_string(), access, None)?;
    bytes.truncate(torn_at(&bytes));
    decode(&name, bytes).map(|text| SourceFile::new(name, text))
}

/// Where a character torn at the end of the last line starts; the length
/// of `bytes` when none is.
fn torn_at(bytes: &[u8]) -> usize {
    // A torn character is at most three bytes: only the tail is looked at.
    let from = bytes.len().saturating_sub(3);
    let line = bytes[from..]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(from, |at| from + at + 1);
    // The torn character begins at the last lead byte of the tail.
    let Some(lead) = bytes[line..].iter().rposition(|&b| b >= 0xC0) else {
        return bytes.len();
    };
    let start = line + lead;
    match std::str::from_utf8(&bytes[start..]) {
        Err(error) if error.error_len().is_none() => start,
        _ => bytes.len(),
    }
}

/// Reads a file the access rule admitted, through its canonical path, and
/// names it `name` (as written) in messages. The file read must be the one
/// admitted: one swapped in since (a link planted in the path) is refused.
pub fn read_admitted(
    admitted: &Admitted,
    name: &str,
    access: &Access,
) -> Result<Arc<SourceFile>, Box<Unread>> {
    read_file(&admitted.path, name, access, Some(&admitted.metadata))
        .and_then(|(name, bytes)| decode(&name, bytes).map(|text| SourceFile::new(name, text)))
}

fn read_file(
    path: &Path,
    name: &str,
    access: &Access,
    expected: Option<&std::fs::Metadata>,
) -> Result<(String, Vec<u8>), Box<Unread>> {
    let name = name.to_owned();
    let limit = access.max_input_bytes;
    let unreadable = |error: std::io::Error| unread(&name, Why::Io(error));
    let mut bytes = Vec::new();
    if name == "-" && expected.is_none() {
        std::io::stdin()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|error| unread(&name, Why::Stdin(error)))?;
    } else {
        // Opened without blocking (a FIFO does not wait for a writer), then
        // judged by what was opened, so nothing can be swapped in between.
        let file = open(path).map_err(unreadable)?;
        let metadata = file.metadata().map_err(unreadable)?;
        if let Some(kind) = kind_of(&metadata.file_type()) {
            return Err(unread(&name, Why::NotAFile(kind)));
        }
        if expected.is_some_and(|expected| !same_file(expected, &metadata)) {
            return Err(unread(&name, Why::Changed));
        }
        if metadata.len() > limit {
            return Err(unread(
                &name,
                Why::TooLarge {
                    size: Some(metadata.len()),
                    limit,
                },
            ));
        }
        // Room for the whole file at once: read through `take`, it would
        // grow (and copy) from a few kilobytes a doubling at a time.
        bytes.reserve(
            usize::try_from(metadata.len())
                .unwrap_or(0)
                .saturating_add(1),
        );
        file.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
    }
    if bytes.len() as u64 > limit {
        return Err(unread(&name, Why::TooLarge { size: None, limit }));
    }
    Ok((name, bytes))
}

#[cfg(unix)]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// Whether two metadata are of the same file (device and inode).
#[cfg(unix)]
pub(crate) fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
pub(crate) fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len() && a.modified().ok() == b.modified().ok()
}

/// A regular file at `path` within `access`'s size limit, opened as
/// [`read`] opens it, with its metadata; `None` for anything [`read`]
/// would refuse (it says why).
pub(crate) fn open_regular(
    path: &Path,
    access: &Access,
) -> Option<(std::fs::File, std::fs::Metadata)> {
    let file = open(path).ok()?;
    let metadata = file.metadata().ok()?;
    (kind_of(&metadata.file_type()).is_none() && metadata.len() <= access.max_input_bytes)
        .then_some((file, metadata))
}

/// Opens without following a link at the path's last name and without
/// waiting on a FIFO: how every file ctxguard reads or writes in place of
/// a user's is opened.
#[cfg(unix)]
pub(crate) fn no_follow(options: &mut std::fs::OpenOptions) -> &mut std::fs::OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags((nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits())
}

#[cfg(not(unix))]
pub(crate) fn no_follow(options: &mut std::fs::OpenOptions) -> &mut std::fs::OpenOptions {
    options
}

/// Whether an open under [`no_follow`] failed because the name is a link.
#[cfg(unix)]
pub(crate) fn is_link_error(error: &std::io::Error) -> bool {
    error.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32)
}

#[cfg(not(unix))]
pub(crate) fn is_link_error(_error: &std::io::Error) -> bool {
    false
}

/// A regular file opened for reading without following a link at `path`
/// and without waiting on a FIFO, and its length; `Ok(None)` when there is
/// no file. A link, a FIFO, a device or a folder is an error that says so.
pub fn open_no_follow(path: &Path) -> std::io::Result<Option<(std::fs::File, u64)>> {
    let mut options = std::fs::OpenOptions::new();
    no_follow(options.read(true));
    let file = match options.open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) if is_link_error(&error) => {
            return Err(std::io::Error::other(
                "it is a link, and ctxguard reads this file only where it is",
            ))
        }
        Err(error) => return Err(error),
    };
    let metadata = file.metadata()?;
    if let Some(kind) = kind_of(&metadata.file_type()) {
        return Err(std::io::Error::other(format!(
            "it is {kind}, not a regular file"
        )));
    }
    Ok(Some((file, metadata.len())))
}

/// Reads at most `limit` bytes of an opened file; more is an error.
pub fn read_at_most(file: &mut std::fs::File, limit: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!(
            "it is larger than {limit} bytes"
        )));
    }
    Ok(bytes)
}

/// Whether text starting with `head` is UTF-16, which [`decode`] refuses.
pub(crate) fn utf16(head: &[u8]) -> bool {
    head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) || looks_like_utf16(head)
}

/// UTF-8 text without its byte-order mark; anything else is an error that says what the file is.
pub fn decode(name: &str, mut bytes: Vec<u8>) -> Result<String, Box<Unread>> {
    if utf16(&bytes) {
        return Err(unread(name, Why::Utf16));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let bad = bytes[valid];
        // Shown with U+FFFD in place of what is not UTF-8, so the snippet can point at it.
        let shown = String::from_utf8_lossy(bytes).into_owned();
        unread(
            name,
            Why::NotUtf8 {
                shown,
                at: valid,
                byte: bad,
            },
        )
    })
}

/// UTF-16 without a byte-order mark: mostly ASCII text whose every other byte is zero.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(64)];
    let zeros_at = |start: usize| {
        sample
            .iter()
            .skip(start)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let pairs = sample.len() / 2;
    pairs >= 2 && (zeros_at(0) * 10 >= pairs * 9 || zeros_at(1) * 10 >= pairs * 9)
}

#[cfg(test)]
mod tests {
    use super::{decode, torn_at};

    #[test]
    fn only_a_character_torn_at_the_end_of_the_last_line_is_cut() {
        let e = "é".as_bytes();
        let fire = "🔥".as_bytes();
        for (bytes, cut) in [
            (b"{\"a\":\"caf".to_vec(), None),
            ([b"caf".as_slice(), &e[..1]].concat(), Some(3)),
            ([b"x\n".as_slice(), &fire[..3]].concat(), Some(2)),
            ([b"x\n".as_slice(), &fire[..1]].concat(), Some(2)),
            ([b"caf".as_slice(), e].concat(), None),
            ([b"x".as_slice(), fire].concat(), None),
            // Not a torn character: a stray byte stays, and is refused.
            (b"caf\xFF".to_vec(), None),
            ([&e[..1], b"\n".as_slice()].concat(), None),
            (Vec::new(), None),
        ] {
            assert_eq!(torn_at(&bytes), cut.unwrap_or(bytes.len()), "{bytes:?}");
        }
    }

    #[test]
    fn strips_a_utf8_byte_order_mark() {
        assert_eq!(
            decode("f", b"\xEF\xBB\xBFkind a".to_vec()).ok().as_deref(),
            Some("kind a")
        );
    }

    #[test]
    fn names_utf16_and_invalid_utf8() {
        use super::Why;
        let why = |bytes: Vec<u8>| decode("f", bytes).err().map(|unread| unread.why);
        assert!(matches!(why(b"\xFF\xFEk\0i\0".to_vec()), Some(Why::Utf16)));
        let no_bom = "kind a\n".encode_utf16().flat_map(u16::to_le_bytes);
        assert!(matches!(why(no_bom.collect()), Some(Why::Utf16)));
        match why(b"ab\ncd\xC3(".to_vec()) {
            Some(Why::NotUtf8 { shown, at, byte }) => {
                assert_eq!((shown.as_str(), at, byte), ("ab\ncd\u{FFFD}(", 5, 0xC3));
            }
            other => panic!("{other:?}"),
        }
    }
}

#[cfg(test)]
mod admitted_tests {
    use super::*;

    #[test]
    fn a_file_swapped_after_it_was_admitted_is_not_read() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = std::fs::canonicalize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let parent = root.join("base.policy");
        std::fs::write(&parent, "kind a\n").unwrap_or_else(|e| panic!("{e}"));
        let access = Access::default();
        let admitted = access
            .admit(&root, &parent)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(read_admitted(&admitted, "base.policy", &access).is_ok());
        // Another file renamed into its place, as a swap would leave it.
        let other = root.join("other");
        std::fs::write(&other, "SECRET=1\n").unwrap_or_else(|e| panic!("{e}"));
        std::fs::rename(&other, &parent).unwrap_or_else(|e| panic!("{e}"));
        let refused = read_admitted(&admitted, "base.policy", &access).err();
        assert!(refused.is_some_and(|unread| matches!(unread.why, super::Why::Changed)));
    }
}
