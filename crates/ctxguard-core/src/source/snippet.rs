//! A source file as a report quotes it: the labelled lines and their
//! neighbours, narrowed to the columns the report has. A line wider than
//! that (a minified trace, a 1 MB JSON Lines record, a long YAML string) is
//! shown as a window around the label, its cut ends marked `…`, so a
//! snippet never runs past the report's width.

use std::borrow::Cow;
use std::sync::Arc;

use elsa::sync::FrozenVec;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use unicode_width::UnicodeWidthChar;

use super::file::shown_char;
use super::{SourceFile, Span};

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

    /// Where line `line` (0-based) ends, before its line break. A line
    /// holds no break but its own (LF, CRLF or a lone CR), at its end.
    fn line_end(&self, line: usize) -> usize {
        let file = &*self.file;
        let starts = file.line_starts();
        let start = starts[line];
        let mut end = starts.get(line + 1).copied().unwrap_or(file.len());
        while end > start && matches!(file.byte(end - 1), Some(b'\n' | b'\r')) {
            end -= 1;
        }
        end
    }

    /// `text`, a slice of the file from `base`, at `range` of the file.
    fn part(text: &str, base: usize, range: Span) -> &str {
        text.get(range.start.saturating_sub(base)..range.end.saturating_sub(base))
            .unwrap_or_default()
    }

    /// A text handed to miette, which borrows it as long as the snippets:
    /// a window read from disk is kept here.
    fn keep<'a>(&'a self, text: Cow<'a, str>) -> &'a str {
        match text {
            Cow::Borrowed(text) => text,
            Cow::Owned(text) => self.windows.push_get(text),
        }
    }

    /// How the label on `start..end` is quoted with `context` lines either
    /// side: whole lines, or a window of its own lines.
    fn quote(&self, start: usize, end: usize, context: (usize, usize)) -> Quote {
        let file = &*self.file;
        let starts = file.line_starts();
        let first = file.line_of(start);
        let last = file.line_of(end.saturating_sub(1).max(start));
        let before = first.saturating_sub(context.0);
        let after = (last + context.1).min(starts.len() - 1);
        let lines = Quote::Lines { before, after };
        let (base, to) = (
            starts[before],
            starts.get(after + 1).copied().unwrap_or(file.len()),
        );
        // Lines of at most MAX_SNIPPET bytes, read at once; more are windowed.
        let window = || {
            let (from, to) = self.cut(start, end, first, last);
            Quote::Window {
                from,
                to,
                first,
                last,
                before,
                after,
            }
        };
        let text = (to - base <= MAX_SNIPPET).then(|| file.slice(base..to));
        let Some(text) = text.as_deref() else {
            return window();
        };
        let wide = (before..=after).any(|line| {
            let from = starts[line];
            Self::width(Self::part(text, base, from..self.line_end(line).max(from))) > self.columns
        });
        // A label on one line has its text drawn from its middle: a line
        // that fits is kept whole while that leaves the text room to wrap in.
        let crowded = !wide
            && first == last
            && Self::width(Self::part(text, base, starts[first]..start))
                + Self::width(Self::part(text, base, start..end)).div_ceil(2)
                + self.reserve.min(ROOM)
                > self.columns;
        if wide || crowded {
            window()
        } else {
            lines
        }
    }

    /// The bytes of the lines `first..=last` a window around `start..end`
    /// shows. Only the characters the window needs are read either side.
    fn cut(&self, start: usize, end: usize, first: usize, last: usize) -> (usize, usize) {
        let file = &*self.file;
        let line_start = file.line_starts()[first];
        let line_end = self.line_end(last).max(end);
        let label = Self::width(&file.slice(start..end));
        let mark = Self::width(CUT);
        let chars = |c: (usize, char)| c.1;
        // Room for the text either side of the label, with a mark at each end.
        let room = self.columns.saturating_sub(label + 2 * mark);
        let left_has = Self::width_upto(file.chars_rev(line_start..start).map(chars), self.columns);
        let right_has = Self::width_upto(file.chars(end..line_end).map(chars), self.columns);
        let most_left = self
            .columns
            .saturating_sub(self.reserve + label.div_ceil(2) + mark);
        let left = left_has
            .min(most_left)
            .min((room / 2).max(room.saturating_sub(right_has)));
        let right = right_has.min(room - left.min(room));

        let mut from = start;
        let mut taken = 0;
        for (_, c) in file.chars_rev(line_start..start) {
            taken += column_width(c);
            if taken > left {
                break;
            }
            from -= c.len_utf8();
        }
        let mut to = end;
        let mut taken = 0;
        for (_, c) in file.chars(end..line_end) {
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
        let (start, end) = self.clamp(start, end);
        let line_start = file.line_starts()[file.line_of(start)];
        let label = Self::width(&file.slice(start..end)).div_ceil(2);
        match self.quote(start, end, (1, 1)) {
            Quote::Lines { .. } => Self::width(&file.slice(line_start..start)) + label,
            Quote::Window { from, .. } => {
                let mark = if from > line_start { CUT } else { "" };
                Self::width(mark) + Self::width(&file.slice(from..start)) + label
            }
        }
    }

    /// `start..end` inside the text, on character boundaries.
    fn clamp(&self, start: usize, end: usize) -> (usize, usize) {
        let file = &*self.file;
        let len = file.len();
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
        let starts = file.line_starts();
        let next_start = |line: usize| starts.get(line + 1).copied().unwrap_or(file.len());
        // A line holds no carriage return: each character is shown alone.
        let fits = |&line: &usize| {
            let from = starts[line];
            let shown = file
                .chars(from..self.line_end(line).max(from))
                .map(|(_, c)| shown_char(c));
            Self::width_upto(shown, self.columns) <= self.columns
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
        let lines_above = file.shown_slice(starts[above]..line_start);
        let data = self.windows.push_get(
            [
                &*lines_above,
                mark_before,
                &file.shown_slice(from..to),
                mark_after,
                &file.shown_slice(line_end..next_start(below)),
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
pub fn column_width(c: char) -> usize {
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
            let column = file.chars_between(line_start, start);
            return Ok(Box::new(MietteSpanContents::new_named(
                file.name().to_owned(),
                self.keep(file.shown_slice(start..end)).as_bytes(),
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
        let to = starts.get(after + 1).copied().unwrap_or(file.len());
        let slice = self.keep(file.shown_slice(from..to));
        let local = SourceSpan::new((start - from).into(), end - start);
        let inner = slice.read_span(&local, context_lines_before, context_lines_after)?;
        let data_start = inner.span().offset() + from;
        // miette counts columns in bytes; reports count characters.
        let line_start = starts[file.line_of(data_start)].min(data_start);
        let column = file.chars_between(line_start, data_start);
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

    /// The same text held in memory and left on disk.
    fn both(text: &str) -> [Arc<SourceFile>; 2] {
        use std::io::Write;
        let mut file = tempfile::tempfile().unwrap_or_else(|e| panic!("{e}"));
        file.write_all(text.as_bytes())
            .unwrap_or_else(|e| panic!("{e}"));
        let mut starts = vec![0];
        crate::source::line_starts_in(text.as_bytes(), 0, None, &mut starts);
        let disk = crate::source::OnDisk::new(file, 0, text.len());
        let disk = SourceFile::on_disk("f".to_owned(), disk);
        disk.found_lines(starts);
        [SourceFile::new("f", text), disk]
    }

    /// What miette is handed for `span`, as (data, offset, line, column, lines).
    fn contents(
        file: &Arc<SourceFile>,
        span: (usize, usize),
        columns: usize,
        context: usize,
    ) -> (String, usize, usize, usize, usize) {
        let snippets = Snippets::new(Arc::clone(file), columns, 10);
        let contents = snippets
            .read_span(&span.into(), context, context)
            .expect("a span inside the file");
        (
            String::from_utf8_lossy(contents.data()).into_owned(),
            contents.span().offset(),
            contents.line(),
            contents.column(),
            contents.line_count(),
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// A file on disk is quoted exactly as the same file in memory,
        /// whatever its lines hold and however wide the report is.
        #[test]
        fn a_file_on_disk_is_quoted_as_in_memory(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[a-z ]{0,12}").unwrap_or_else(|e| panic!("{e}")),
                    proptest::string::string_regex("[a-z]{1300,1600}").unwrap_or_else(|e| panic!("{e}")),
                    proptest::prop_oneof![
                        proptest::strategy::Just("\n".to_owned()),
                        proptest::strategy::Just("\r\n".to_owned()),
                        proptest::strategy::Just("\r".to_owned()),
                        proptest::strategy::Just("\t".to_owned()),
                        proptest::strategy::Just("漢字".to_owned()),
                        proptest::strategy::Just("e\u{301}\u{301}".to_owned()),
                        proptest::strategy::Just("\u{1b}[2J".to_owned()),
                        proptest::strategy::Just("\u{202e}\u{85}".to_owned()),
                    ],
                ],
                1..40,
            ),
            at in 0.0..1.0f64,
            length in 0usize..60,
            columns in 20usize..120,
            context in 0usize..3,
        ) {
            let text = pieces.concat();
            let [memory, disk] = both(&text);
            let start = memory.floor_char_boundary((text.len() as f64 * at) as usize);
            let end = memory.floor_char_boundary((start + length).min(text.len()));
            proptest::prop_assert_eq!(memory.line_col(start), disk.line_col(start));
            proptest::prop_assert_eq!(memory.line_col(end), disk.line_col(end));
            proptest::prop_assert_eq!(
                contents(&memory, (start, end - start), columns, context),
                contents(&disk, (start, end - start), columns, context)
            );
            let middles = [&memory, &disk].map(|file| {
                Snippets::new(Arc::clone(file), columns, 10).label_middle(start, end)
            });
            proptest::prop_assert_eq!(middles[0], middles[1]);
        }
    }

    #[test]
    fn columns_past_a_long_stretch_are_counted_alike_on_disk() {
        let text = format!("{}\n{}x", "é".repeat(40_000), "漢".repeat(30_000));
        let [memory, disk] = both(&text);
        for offset in [0, 3, 80_000, 80_001, text.len() - 1, text.len()] {
            assert_eq!(memory.line_col(offset), disk.line_col(offset), "{offset}");
        }
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
