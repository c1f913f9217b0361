//! Byte offsets in a document and the protocol's positions: a line, and a
//! column counted in UTF-16 code units (the encoding every client speaks).
//! Lines are the document's own, as every report of ctxguard counts them
//! ([`SourceFile::line_at`]): they end at LF, CRLF or a lone CR, as the
//! protocol's do.

use lsp_types::{Position, Range};

use ctxguard_core::source::SourceFile;

/// The position of byte `offset` in `source`.
pub fn position_of(source: &SourceFile, offset: usize) -> Position {
    let text = source.text();
    let offset = source.floor_char_boundary(offset.min(text.len()));
    let (line, start) = source.line_at(offset);
    let column: usize = text[start..offset].chars().map(char::len_utf16).sum();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// The byte offset of `position` in `source` (the end of its line, when
/// the column is past it; the end of the text, when the line is).
pub fn offset_of(source: &SourceFile, position: Position) -> usize {
    let text = source.text();
    let Some(line) = source.line_span(position.line as usize) else {
        return text.len();
    };
    let mut units = 0;
    for (i, c) in text[line.clone()].char_indices() {
        if units >= position.character as usize {
            return line.start + i;
        }
        units += c.len_utf16();
    }
    line.end
}

/// The range of bytes `span` in `source`.
pub fn range_of(source: &SourceFile, span: std::ops::Range<usize>) -> Range {
    Range::new(
        position_of(source, span.start),
        position_of(source, span.end),
    )
}
