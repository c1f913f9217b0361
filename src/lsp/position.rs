//! Byte offsets in a document and the protocol's positions: a line, and a
//! column counted in UTF-16 code units (the encoding every client speaks).

use lsp_types::{Position, Range};

/// The position of byte `offset` in `text`.
pub fn position_of(text: &str, offset: usize) -> Position {
    let offset = offset.min(text.len());
    let before = &text[..floor(text, offset)];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column: usize = before[line_start..].chars().map(char::len_utf16).sum();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// The byte offset of `position` in `text` (the end of its line, when the
/// column is past it; the end of the text, when the line is).
pub fn offset_of(text: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match text[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = text[line_start..]
        .find('\n')
        .map_or(text.len(), |i| line_start + i);
    let mut units = 0;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= position.character as usize {
            return line_start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

/// The range of bytes `span` in `text`.
pub fn range_of(text: &str, span: std::ops::Range<usize>) -> Range {
    Range::new(position_of(text, span.start), position_of(text, span.end))
}

/// `offset`, or the start of the character it falls inside.
fn floor(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}
