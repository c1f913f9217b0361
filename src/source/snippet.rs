//! A source file as a report quotes it: the labelled lines and their
//! neighbours, narrowed to the columns the report has. A line wider than
//! that (a minified trace, a 1 MB JSON Lines record, a long YAML string) is
//! shown as a window around the label, its cut ends marked `…`, so a
//! snippet never runs past the report's width.

use std::sync::Arc;

use elsa::sync::FrozenVec;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use unicode_width::UnicodeWidthChar;

use super::SourceFile;

/// Snippets larger than this are always windowed, however short their lines.
const MAX_SNIPPET: usize = 4096;

/// Columns right of a label's middle enough for its text to wrap in.
const ROOM: usize = 24;

/// Columns a tab takes in a report.
const TAB: usize = 4;

/// What marks a cut end of a line; it stands in for as many bytes of the
/// line as it has itself, so every byte offset after it still holds.
const CUT: &str = "…";

/// A [`SourceFile`] quoted at most `columns` wide.
pub struct Snippets {
    file: Arc<SourceFile>,
    columns: usize,
    reserve: usize,
    /// The windows handed out: miette borrows them for as long as it
    /// borrows the file.
    windows: FrozenVec<String>,
}

impl Snippets {
    /// `file`, its quoted lines at most `columns` wide, and a label's middle
    /// at least `reserve` columns from the right edge, so the label's text,
    /// drawn from there, fits too.
    pub fn new(file: Arc<SourceFile>, columns: usize, reserve: usize) -> Self {
        Snippets {
            file,
            columns,
            reserve,
            windows: FrozenVec::new(),
        }
    }

    /// Columns a quoted line may take.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Columns `text` takes in a report.
    fn width(text: &str) -> usize {
        text.chars().map(column_width).sum()
    }

    /// Columns `chars` take, counted no further than `most`: a 1 MB line
    /// costs what a window of it shows, not the line.
    fn width_upto(chars: impl Iterator<Item = char>, most: usize) -> usize {
        let mut width = 0;
        for c in chars {
            if width > most {
                break;
            }
            width += column_width(c);
        }
        width
    }

    /// Where line `line` (0-based) ends, before its line break.
    fn line_end(&self, line: usize) -> usize {
        let text = self.file.text();
        let next = self
            .file
            .line_starts()
            .get(line + 1)
            .copied()
            .unwrap_or(text.len());
        let body = &text[..next];
        next - (body.len() - body.trim_end_matches(['\n', '\r']).len())
    }

    /// How the label on `start..end` is quoted with `context` lines either
    /// side: whole lines, or a window of its own lines.
    fn quote(&self, start: usize, end: usize, context: (usize, usize)) -> Quote {
        let file = &*self.file;
        let text = file.text();
        let starts = file.line_starts();
        let first = file.line_of(start);
        let last = file.line_of(end.saturating_sub(1).max(start));
        let before = first.saturating_sub(context.0);
        let after = (last + context.1).min(starts.len() - 1);
        let lines = Quote::Lines { before, after };
        let to = starts.get(after + 1).copied().unwrap_or(text.len());
        let wide = to - starts[before] > MAX_SNIPPET
            || (before..=after).any(|line| {
                let from = starts[line];
                Self::width(&text[from..self.line_end(line).max(from)]) > self.columns
            });
        // A label on one line has its text drawn from its middle: a line
        // that fits is kept whole while that leaves the text room to wrap in.
        let crowded = !wide
            && first == last
            && Self::width(&text[starts[first]..start])
                + Self::width(&text[start..end]).div_ceil(2)
                + self.reserve.min(ROOM)
                > self.columns;
        if !wide && !crowded {
            return lines;
        }
        let (from, to) = self.cut(start, end, first, last);
        Quote::Window {
            from,
            to,
            first,
            last,
            before,
            after,
        }
    }

    /// The bytes of the lines `first..=last` a window around `start..end`
    /// shows.
    fn cut(&self, start: usize, end: usize, first: usize, last: usize) -> (usize, usize) {
        let text = self.file.text();
        let line_start = self.file.line_starts()[first];
        let line_end = self.line_end(last).max(end);
        let label = Self::width(&text[start..end]);
        let mark = Self::width(CUT);
        // Room for the text either side of the label, with a mark at each end.
        let room = self.columns.saturating_sub(label + 2 * mark);
        let left_has = Self::width_upto(text[line_start..start].chars().rev(), self.columns);
        let right_has = Self::width_upto(text[end..line_end].chars(), self.columns);
        let most_left = self
            .columns
            .saturating_sub(self.reserve + label.div_ceil(2) + mark);
        let left = left_has
            .min(most_left)
            .min((room / 2).max(room.saturating_sub(right_has)));
        let right = right_has.min(room - left.min(room));

        let mut from = start;
        let mut taken = 0;
        for c in text[line_start..start].chars().rev() {
            taken += column_width(c);
            if taken > left {
                break;
            }
            from -= c.len_utf8();
        }
        let mut to = end;
        let mut taken = 0;
        for c in text[end..line_end].chars() {
            taken += column_width(c);
            if taken > right {
                break;
            }
            to += c.len_utf8();
        }
        // The mark before stands in for the bytes just before `from`; too
        // few there and the line is shown from its start instead.
        if from > line_start && from - line_start < CUT.len() {
            from = line_start;
        }
        (from, to)
    }

    /// The column, in the snippet as quoted, of the middle of a label on
    /// `start..end`: where its text is drawn from.
    pub fn label_middle(&self, start: usize, end: usize) -> usize {
        let file = &*self.file;
        let text = file.text();
        let (start, end) = self.clamp(start, end);
        let line_start = file.line_starts()[file.line_of(start)];
        let label = Self::width(&text[start..end]).div_ceil(2);
        match self.quote(start, end, (1, 1)) {
            Quote::Lines { .. } => Self::width(&text[line_start..start]) + label,
            Quote::Window { from, .. } => {
                let mark = if from > line_start { CUT } else { "" };
                Self::width(mark) + Self::width(&text[from..start]) + label
            }
        }
    }

    /// `start..end` inside the text, on character boundaries.
    fn clamp(&self, start: usize, end: usize) -> (usize, usize) {
        let file = &*self.file;
        let len = file.text().len();
        let start = file.floor_char_boundary(start.min(len));
        (start, file.floor_char_boundary(end.min(len)).max(start))
    }

    /// The window `from..to` of the lines `first..=last`, its cut ends
    /// marked, between the context lines `before..first` and
    /// `last + 1..=after` that fit whole.
    ///
    /// miette finds a label by its byte offset in what it is handed. The
    /// window's own bytes keep theirs; the context lines around it take the
    /// offsets of the bytes cut away, where no label can be: miette quotes
    /// every label on a line, or on the lines next to it, in one snippet,
    /// so each of them is inside `from..to`.
    fn window(
        &self,
        (from, to): (usize, usize),
        (first, last): (usize, usize),
        (before, after): (usize, usize),
    ) -> MietteSpanContents<'_> {
        let file = &*self.file;
        let shown = file.shown();
        let starts = file.line_starts();
        let next_start = |line: usize| starts.get(line + 1).copied().unwrap_or(shown.len());
        let fits = |&line: &usize| {
            Self::width(&shown[starts[line]..self.line_end(line).max(starts[line])]) <= self.columns
        };
        let above = (before..first)
            .rev()
            .take_while(fits)
            .last()
            .unwrap_or(first);
        let below = (last + 1..=after)
            .take_while(fits)
            .last()
            .map_or(last, |l| l);
        let line_start = starts[first];
        let line_end = self.line_end(last).max(to);
        let mark_before = if from > line_start { CUT } else { "" };
        let mark_after = if to < line_end { CUT } else { "" };
        let lines_above = &shown[starts[above]..line_start];
        let data = self.windows.push_get(
            [
                lines_above,
                mark_before,
                &shown[from..to],
                mark_after,
                &shown[line_end..next_start(below)],
            ]
            .concat(),
        );
        MietteSpanContents::new_named(
            file.name().to_owned(),
            data.as_bytes(),
            (from - mark_before.len() - lines_above.len(), data.len()).into(),
            above,
            0,
            below - above + 1,
        )
    }
}

/// How a snippet quotes its file.
enum Quote {
    /// The lines `before..=after`, whole.
    Lines { before: usize, after: usize },
    /// Bytes `from..to` of the labelled lines `first..=last`.
    Window {
        from: usize,
        to: usize,
        first: usize,
        last: usize,
        before: usize,
        after: usize,
    },
}

/// Columns `c` takes in a report: a tab 4, a wide character 2, a
/// combining mark none.
pub(crate) fn column_width(c: char) -> usize {
    match c {
        '\t' => TAB,
        c => c.width().unwrap_or(0),
    }
}

impl SourceCode for Snippets {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        // Only the lines the snippet shows are handed to miette, found
        // through the line index: each snippet costs its own size, not the
        // file's, however many diagnostics a large file has.
        let file = &*self.file;
        let (start, end) = self.clamp(span.offset(), span.offset() + span.len());
        if (context_lines_before, context_lines_after) == (0, 0) {
            // Where the label starts, for the snippet's header: its line and
            // column, found through the index, never by reading the line.
            let line = file.line_of(start);
            let line_start = file.line_starts()[line].min(start);
            let column = file.chars_before(start) - file.chars_before(line_start);
            return Ok(Box::new(MietteSpanContents::new_named(
                file.name().to_owned(),
                &file.shown().as_bytes()[start..end],
                (start, end - start).into(),
                line,
                column,
                1,
            )));
        }
        let (before, after) =
            match self.quote(start, end, (context_lines_before, context_lines_after)) {
                Quote::Lines { before, after } => (before, after),
                Quote::Window {
                    from,
                    to,
                    first,
                    last,
                    before,
                    after,
                } => {
                    let window = self.window((from, to), (first, last), (before, after));
                    return Ok(Box::new(window));
                }
            };
        let starts = file.line_starts();
        let from = starts[before];
        let to = starts.get(after + 1).copied().unwrap_or(file.text().len());
        let slice = &file.shown()[from..to];
        let local = SourceSpan::new((start - from).into(), end - start);
        let inner = slice.read_span(&local, context_lines_before, context_lines_after)?;
        let data_start = inner.span().offset() + from;
        // miette counts columns in bytes; reports count characters.
        let line_start = starts[file.line_of(data_start)].min(data_start);
        let column = file.chars_before(data_start) - file.chars_before(line_start);
        Ok(Box::new(MietteSpanContents::new_named(
            file.name().to_owned(),
            inner.data(),
            (data_start, inner.span().len()).into(),
            inner.line() + before,
            column,
            inner.line_count() + before,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str, span: (usize, usize), columns: usize) -> String {
        let snippets = Snippets::new(SourceFile::new("f", text), columns, 10);
        let contents = snippets
            .read_span(&span.into(), 1, 1)
            .expect("a span inside the file");
        String::from_utf8_lossy(contents.data()).into_owned()
    }

    #[test]
    fn short_lines_are_quoted_whole_with_their_neighbours() {
        assert_eq!(quoted("a\nbcd\ne\n", (3, 1), 40), "a\nbcd\ne\n");
    }

    #[test]
    fn a_long_line_is_cut_around_the_label_and_marked() {
        let line = format!("{}NEEDLE{}", "x".repeat(200), "y".repeat(200));
        let shown = quoted(&line, (200, 6), 40);
        assert!(shown.starts_with('…') && shown.ends_with('…'), "{shown}");
        assert!(shown.contains("NEEDLE"));
        assert!(Snippets::width(&shown) <= 40, "{shown}");
    }

    #[test]
    fn offsets_after_the_mark_still_hold() {
        let line = format!("{}NEEDLE", "é".repeat(100));
        let snippets = Snippets::new(SourceFile::new("f", line.as_str()), 30, 10);
        let at = line.find("NEEDLE").expect("written above");
        let contents = snippets
            .read_span(&(at, 6).into(), 1, 1)
            .expect("a span inside the file");
        let data = std::str::from_utf8(contents.data()).expect("UTF-8");
        let local = at - contents.span().offset();
        assert_eq!(&data[local..local + 6], "NEEDLE");
    }
}
