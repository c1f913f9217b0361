//! Input files as ctxguard remembers them: a display name, the text, and a
//! lazily built line index so diagnostics can say "line 7, column 5".

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use super::disk::OnDisk;

/// Byte range into a [`SourceFile`].
pub type Span = Range<usize>;

/// A value and where it was written. It serializes, and has the JSON
/// Schema of, the value alone: a model that keeps its places in the file is
/// written out, and described, as the format it was read from.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it is written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `node`, written at `span`.
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }

    /// A value made by ctxguard rather than read from a file: no place.
    pub fn unplaced(node: T) -> Self {
        Spanned { node, span: 0..0 }
    }
}

impl<T: serde::Serialize> serde::Serialize for Spanned<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.node.serialize(serializer)
    }
}

impl<T: schemars::JsonSchema> schemars::JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// Bytes between two character-count checkpoints.
const CHECKPOINT: usize = 4096;

/// Characters that a report reads of a file on disk at a time.
const BLOCK: usize = 1024;

/// Up to this many bytes between two offsets, a column is counted from the
/// bytes themselves (read back, for a file on disk); past it, through
/// checkpoints made in one pass over the file.
const COUNTED: usize = 64 * 1024;

/// One file that was read: a policy, trace or plan. Its text is held in
/// memory, or, for a large trace read as it streamed, left on disk, where
/// a report reads back the ranges it quotes ([`SourceFile::slice`]).
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: String,
    /// The file the text was left in; `text` is then empty.
    disk: Option<OnDisk>,
    line_starts: OnceLock<Vec<usize>>,
    /// Characters before every [`CHECKPOINT`]th byte, so a column on a
    /// megabyte-long line costs a few kilobytes of counting, not the line.
    char_checkpoints: OnceLock<Vec<usize>>,
    /// The text as snippets show it, when it holds characters a terminal
    /// would act on: made on first use, with the same byte offsets.
    shown: OnceLock<Option<String>>,
}

impl SourceFile {
    /// A file named `name` (as diagnostics show it) holding `text`.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Arc<Self> {
        Arc::new(SourceFile {
            name: name.into(),
            text: text.into(),
            disk: None,
            line_starts: OnceLock::new(),
            char_checkpoints: OnceLock::new(),
            shown: OnceLock::new(),
        })
    }

    /// A file named `name` whose text is read as it streams and stays in
    /// `disk`; where its lines start is found while it is read
    /// ([`SourceFile::found_lines`]).
    pub(crate) fn on_disk(name: String, disk: OnDisk) -> Arc<Self> {
        Arc::new(SourceFile {
            name,
            text: String::new(),
            disk: Some(disk),
            line_starts: OnceLock::new(),
            char_checkpoints: OnceLock::new(),
            shown: OnceLock::new(),
        })
    }

    /// Where the lines of a file on disk start, found as it was read.
    pub(crate) fn found_lines(&self, starts: Vec<usize>) {
        let _ = self.line_starts.set(starts);
    }

    /// The text, given back (a file in memory; empty for one on disk).
    pub(crate) fn into_text(self) -> String {
        self.text
    }

    /// The name diagnostics show.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text of a file held in memory. A trace read as it
    /// streamed keeps its text on disk and has none here: read it with
    /// [`SourceFile::slice`], which serves both.
    pub fn text(&self) -> &str {
        debug_assert!(self.disk.is_none(), "`{}` is on disk: use slice", self.name);
        &self.text
    }

    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.disk.as_ref().map_or(self.text.len(), OnDisk::len)
    }

    /// Whether the text is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The byte at `offset`, if there is one.
    pub(crate) fn byte(&self, offset: usize) -> Option<u8> {
        match &self.disk {
            Some(disk) => (offset < disk.len()).then(|| disk.bytes(offset..offset + 1)[0]),
            None => self.text.as_bytes().get(offset).copied(),
        }
    }

    /// Whether the text stays on disk (a large trace read as it streamed).
    pub fn is_on_disk(&self) -> bool {
        self.disk.is_some()
    }

    /// The text of `range` (clamped to the text, on character boundaries):
    /// borrowed from memory, or read back from disk.
    pub fn slice(&self, range: Span) -> Cow<'_, str> {
        match &self.disk {
            Some(disk) => Cow::Owned(disk.text(range)),
            None => {
                let end = range.end.min(self.text.len());
                Cow::Borrowed(self.text.get(range.start.min(end)..end).unwrap_or_default())
            }
        }
    }

    /// [`SourceFile::slice`] as a snippet shows it ([`SourceFile::shown`]).
    pub(crate) fn shown_slice(&self, range: Span) -> Cow<'_, str> {
        let Some(disk) = &self.disk else {
            let shown = self.shown();
            let end = range.end.min(shown.len());
            return Cow::Borrowed(shown.get(range.start.min(end)..end).unwrap_or_default());
        };
        let text = disk.text(range.clone());
        // A carriage return is shown as it is only before a line feed.
        let after = self.byte(range.end);
        let mut shown = String::with_capacity(text.len());
        for (i, c) in text.char_indices() {
            let crlf = c == '\r' && i + 1 == text.len() && after == Some(b'\n');
            shown.push(if crlf {
                c
            } else {
                inert(&text, i, c).unwrap_or(c)
            });
        }
        Cow::Owned(shown)
    }

    /// The characters of `range` with their offsets, in order: a file on
    /// disk is read a block at a time, so taking a few characters of a
    /// long line costs a few blocks, not the line.
    pub fn chars(&self, range: Span) -> Box<dyn Iterator<Item = (usize, char)> + '_> {
        let Some(disk) = &self.disk else {
            let text = self.slice(range.clone());
            let start = range.start;
            return match text {
                Cow::Borrowed(text) => {
                    Box::new(text.char_indices().map(move |(i, c)| (start + i, c)))
                }
                Cow::Owned(_) => Box::new(std::iter::empty()),
            };
        };
        let end = range.end.min(disk.len());
        let mut at = range.start.min(end);
        Box::new(
            std::iter::from_fn(move || {
                if at >= end {
                    return None;
                }
                let block = disk.text(
                    at..self
                        .floor_char_boundary((at + BLOCK).min(end))
                        .max(at + 1)
                        .min(end),
                );
                let from = at;
                at += block.len().max(1);
                Some(
                    block
                        .char_indices()
                        .map(|(i, c)| (from + i, c))
                        .collect::<Vec<_>>(),
                )
            })
            .flatten(),
        )
    }

    /// The characters of `range` with their offsets, last first, read as
    /// [`SourceFile::chars`] reads them.
    pub(crate) fn chars_rev(&self, range: Span) -> Box<dyn Iterator<Item = (usize, char)> + '_> {
        let Some(disk) = &self.disk else {
            let text = self.slice(range.clone());
            let start = range.start;
            return match text {
                Cow::Borrowed(text) => {
                    Box::new(text.char_indices().rev().map(move |(i, c)| (start + i, c)))
                }
                Cow::Owned(_) => Box::new(std::iter::empty()),
            };
        };
        let start = range.start.min(disk.len());
        let mut at = range.end.clamp(start, disk.len());
        Box::new(
            std::iter::from_fn(move || {
                if at <= start {
                    return None;
                }
                let from = self.floor_char_boundary(at.saturating_sub(BLOCK).max(start));
                let from = if from < start { start } else { from };
                let block = disk.text(from..at);
                at = from;
                let mut chars: Vec<(usize, char)> =
                    block.char_indices().map(|(i, c)| (from + i, c)).collect();
                chars.reverse();
                Some(chars)
            })
            .flatten(),
        )
    }

    /// The text as a snippet shows it: control characters (but tab and
    /// line ends) and bidirectional controls replaced by a visible character
    /// of the same UTF-8 length, so every byte offset still holds and no
    /// input can move the cursor, clear the screen or reorder what is shown.
    pub fn shown(&self) -> &str {
        debug_assert!(
            self.disk.is_none(),
            "`{}` is on disk: use shown_slice",
            self.name
        );
        self.shown
            .get_or_init(|| {
                let needs = self
                    .text
                    .char_indices()
                    .any(|(i, c)| inert(&self.text, i, c).is_some());
                needs.then(|| {
                    let mut shown = String::with_capacity(self.text.len());
                    for (i, c) in self.text.char_indices() {
                        match inert(&self.text, i, c) {
                            Some(replacement) => shown.push(replacement),
                            None => shown.push(c),
                        }
                    }
                    shown
                })
            })
            .as_deref()
            .unwrap_or(&self.text)
    }

    /// Where each line starts. A line ends at LF, CRLF or a lone CR, as
    /// editors (and miette) count them.
    pub(super) fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0];
            line_starts_in(self.text.as_bytes(), 0, None, &mut starts);
            starts
        })
    }

    /// The 0-based line that holds byte `offset`.
    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.line_starts()
            .partition_point(|&start| start <= offset)
            .max(1)
            - 1
    }

    /// The 0-based line that holds byte `offset`, and the byte it starts
    /// at (lines end at LF, CRLF or a lone CR, as in [`Self::line_col`]).
    pub fn line_at(&self, offset: usize) -> (usize, usize) {
        let line = self.line_of(offset.min(self.len()));
        (line, self.line_starts()[line])
    }

    /// The bytes of 0-based `line`, without its line break; `None` past
    /// the last line.
    pub fn line_span(&self, line: usize) -> Option<Span> {
        let starts = self.line_starts();
        let start = *starts.get(line)?;
        let next = starts.get(line + 1).copied().unwrap_or(self.len());
        // A line holds no break but the one that ends it.
        let end = start + self.slice(start..next).trim_end_matches(['\n', '\r']).len();
        Some(start..end)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset.min(self.len()));
        let line = self.line_of(offset);
        let start = self.line_starts()[line].min(offset);
        (line + 1, self.chars_between(start, offset) + 1)
    }

    /// How many characters there are from byte `start` to byte `end`
    /// (both character boundaries, `start` first).
    pub(super) fn chars_between(&self, start: usize, end: usize) -> usize {
        // A short stretch is counted as it is; a long one (many labels on
        // one long line) from checkpoints counted once over the file.
        let Some(disk) = &self.disk else {
            if end - start <= COUNTED {
                return self
                    .text
                    .get(start..end)
                    .map_or(0, |text| text.chars().count());
            }
            return self.chars_before(end) - self.chars_before(start);
        };
        if end - start <= COUNTED {
            return disk.text(start..end).chars().count();
        }
        let before = |offset: usize| {
            let checkpoints = self.char_checkpoints.get_or_init(|| {
                // Characters starting before every CHECKPOINTth byte, in one pass.
                let mut counted = 0;
                let mut checkpoints = vec![0];
                for block in (0..disk.len()).step_by(1 << 20) {
                    let bytes = disk.bytes(block..block + (1 << 20));
                    for part in bytes.chunks(CHECKPOINT) {
                        counted += part.iter().filter(|&&b| (b as i8) >= -0x40).count();
                        checkpoints.push(counted);
                    }
                }
                checkpoints
            });
            let i = offset / CHECKPOINT;
            let tail = disk.bytes(i * CHECKPOINT..offset);
            checkpoints.get(i).copied().unwrap_or(0)
                + tail.iter().filter(|&&b| (b as i8) >= -0x40).count()
        };
        before(end) - before(start)
    }

    /// How many characters come before byte `offset` (a char boundary) of
    /// a text in memory.
    fn chars_before(&self, offset: usize) -> usize {
        let checkpoints = self.char_checkpoints.get_or_init(|| {
            let mut counted = 0;
            let mut previous = 0;
            (0..=self.text.len() / CHECKPOINT)
                .map(|i| {
                    let at = self.floor_char_boundary(i * CHECKPOINT);
                    counted += self.text[previous..at].chars().count();
                    previous = at;
                    counted
                })
                .collect()
        });
        let i = offset / CHECKPOINT;
        let at = self.floor_char_boundary(i * CHECKPOINT);
        checkpoints.get(i).copied().unwrap_or(0) + self.text[at..offset].chars().count()
    }

    /// Byte offset of a 1-based line and column, clamped to the text.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let starts = self.line_starts();
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return self.len();
        };
        self.chars(start..self.len())
            .nth(column.saturating_sub(1))
            .map_or(self.len(), |(i, _)| i)
    }

    /// The character at `offset`, for a label on one place; empty at the end
    /// of a line or of the text.
    pub fn char_at(&self, offset: usize) -> Span {
        let offset = self.floor_char_boundary(offset.min(self.len()));
        let width = self
            .slice(
                offset
                    ..self
                        .floor_char_boundary((offset + 4).min(self.len()))
                        .max(offset),
            )
            .chars()
            .next()
            .filter(|c| *c != '\n')
            .map_or(0, char::len_utf8);
        offset..offset + width
    }

    /// The span of `needle` inside `within`, or `within` itself when the
    /// text there is written differently (escapes, folding).
    pub fn find_within(&self, within: &Span, needle: &str) -> Span {
        Some(self.slice(within.clone()))
            .and_then(|slice| slice.find(needle))
            .filter(|_| !needle.is_empty())
            .map_or(within.clone(), |at| {
                within.start + at..within.start + at + needle.len()
            })
    }

    /// `offset`, or the start of the character it falls inside.
    pub fn floor_char_boundary(&self, offset: usize) -> usize {
        let Some(disk) = &self.disk else {
            return floor_char_boundary(&self.text, offset);
        };
        let offset = offset.min(disk.len());
        // A character is at most 4 bytes: its start is among the 3 before.
        let from = offset.saturating_sub(3);
        let bytes = disk.bytes(from..offset + 1);
        (from..=offset)
            .rev()
            .find(|&at| bytes.get(at - from).is_none_or(|&b| (b as i8) >= -0x40))
            .unwrap_or(offset)
    }
}

/// Pushes where each line after a break in `bytes` starts (`bytes` is at
/// `base` in its file; `next` is the byte after it, if any). A line ends at
/// LF, CRLF or a lone CR, as editors (and miette) count them.
pub fn line_starts_in(bytes: &[u8], base: usize, next: Option<u8>, starts: &mut Vec<usize>) {
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        let crlf = bytes[i] == b'\r'
            && bytes
                .get(i + 1)
                .copied()
                .or(next.filter(|_| i + 1 == bytes.len()))
                == Some(b'\n');
        if !crlf {
            starts.push(base + i + 1);
        }
    }
}

/// The visible stand-in, of the same UTF-8 length, for a character at `i`
/// that a terminal would act on; `None` for one shown as it is.
fn inert(text: &str, i: usize, c: char) -> Option<char> {
    match c {
        '\r' if text.as_bytes().get(i + 1) == Some(&b'\n') => None,
        c => inert_char(c),
    }
}

/// `c` as a snippet shows it, but for a carriage return, which is shown
/// as it is before a line feed only ([`SourceFile::shown`]).
pub(crate) fn shown_char(c: char) -> char {
    inert_char(c).unwrap_or(c)
}

/// The stand-in for `c` (any character but a carriage return before a line feed).
fn inert_char(c: char) -> Option<char> {
    match c {
        '\t' | '\n' => None,
        '\u{0}'..='\u{1f}' | '\u{7f}' => Some('?'),
        '\u{80}'..='\u{9f}' => Some('\u{bf}'),
        c if is_bidi_control(c) && c.len_utf8() == 2 => Some('\u{bf}'),
        c if is_bidi_control(c) => Some('\u{fffd}'),
        _ => None,
    }
}

/// Characters that reorder the text around them (a "Trojan Source" attack).
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// `text` as a message shows it: at most `max` characters, then `tail`,
/// and every control character (but those `keep` lets through) and
/// bidirectional control escaped as `\u{1b}`, so no input reaches a
/// terminal as a command.
pub fn escaped<'t>(
    text: &'t str,
    max: usize,
    tail: &str,
    keep: impl Fn(char) -> bool,
) -> Cow<'t, str> {
    let inert = |c: char| (c.is_control() && !keep(c)) || is_bidi_control(c);
    if text.len() <= max && !text.chars().any(inert) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            shown.push_str(tail);
            break;
        }
        if inert(c) {
            shown.push_str(&c.escape_unicode().to_string());
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// `at`, or the start of the character of `text` it falls inside; the end
/// of `text` when `at` is past it.
pub fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `at`, or the end of the character of `text` it falls inside; the end of
/// `text` when `at` is past it.
pub fn ceil_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let file = SourceFile::new("f", "ab\nçd\n");
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(3), (2, 1));
        assert_eq!(file.line_col(5), (2, 2));
        assert_eq!(file.line_col(99), (3, 1));
        assert_eq!(file.offset_of(2, 2), 5);
    }
}
