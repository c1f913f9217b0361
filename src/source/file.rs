//! Input files as ctxguard remembers them: a display name, the text, and a
//! lazily built line index so diagnostics can say "line 7, column 5".

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

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

/// One file that was read: a policy, trace or plan.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: String,
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
            line_starts: OnceLock::new(),
            char_checkpoints: OnceLock::new(),
            shown: OnceLock::new(),
        })
    }

    /// The name diagnostics show.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text as a snippet shows it: control characters (but tab and
    /// line ends) and bidirectional controls replaced by a visible character
    /// of the same UTF-8 length, so every byte offset still holds and no
    /// input can move the cursor, clear the screen or reorder what is shown.
    pub fn shown(&self) -> &str {
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
            let bytes = self.text.as_bytes();
            std::iter::once(0)
                .chain(
                    memchr::memchr2_iter(b'\n', b'\r', bytes)
                        .filter(|&i| !(bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')))
                        .map(|i| i + 1),
                )
                .collect()
        })
    }

    /// The 0-based line that holds byte `offset`.
    pub(super) fn line_of(&self, offset: usize) -> usize {
        self.line_starts()
            .partition_point(|&start| start <= offset)
            .max(1)
            - 1
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let line = self.line_of(offset);
        let start = self.line_starts()[line].min(offset);
        let column = self.chars_before(offset) - self.chars_before(start) + 1;
        (line + 1, column)
    }

    /// How many characters come before byte `offset` (a char boundary).
    pub(super) fn chars_before(&self, offset: usize) -> usize {
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
            return self.text.len();
        };
        self.text[start..]
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(self.text.len(), |(i, _)| start + i)
    }

    /// The character at `offset`, for a label on one place; empty at the end
    /// of a line or of the text.
    pub fn char_at(&self, offset: usize) -> Span {
        let offset = self.floor_char_boundary(offset.min(self.text.len()));
        let width = self.text[offset..]
            .chars()
            .next()
            .filter(|c| *c != '\n')
            .map_or(0, char::len_utf8);
        offset..offset + width
    }

    /// The span of `needle` inside `within`, or `within` itself when the
    /// text there is written differently (escapes, folding).
    pub fn find_within(&self, within: &Span, needle: &str) -> Span {
        self.text
            .get(within.clone())
            .and_then(|slice| slice.find(needle))
            .filter(|_| !needle.is_empty())
            .map_or(within.clone(), |at| {
                within.start + at..within.start + at + needle.len()
            })
    }

    pub(super) fn floor_char_boundary(&self, mut offset: usize) -> usize {
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// The visible stand-in, of the same UTF-8 length, for a character at `i`
/// that a terminal would act on; `None` for one shown as it is.
fn inert(text: &str, i: usize, c: char) -> Option<char> {
    match c {
        '\t' | '\n' => None,
        '\r' if text.as_bytes().get(i + 1) == Some(&b'\n') => None,
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
pub(crate) fn escaped<'t>(
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
