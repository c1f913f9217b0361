//! A paragraph cut into sentences: not after an abbreviation, a number
//! that opens a list item, or inside a quoted piece.

use super::*;
use crate::pattern::Pattern;

/// A URL written out bare, up to the space or the bracket after it.
static BARE_URL: LazyLock<Pattern> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(r"https?://[^\s`'\x22)<>\]]+").expect("the URL pattern compiles")
});

/// The sentences of the paragraph at `range`: cut at line breaks and at
/// sentence bounds (UAX #29), except inside the `protected` ranges
/// (inline code, links, inline HTML), and never at a break the message's
/// `fill` width put in ([`fill_width`]).
pub(super) fn sentences(
    text: &str,
    range: Range<usize>,
    protected: &[Range<usize>],
    fill: Option<usize>,
) -> Vec<Range<usize>> {
    let Some(paragraph) = text.get(range.clone()) else {
        return Vec::new();
    };
    // A bare URL is one word: its `?` and `.` end no sentence
    // ("…/mail/u/1/?ogbl#inbox").
    let urls: Vec<Range<usize>> = BARE_URL
        .find_iter(paragraph)
        .map(|url| range.start + url.start()..range.start + url.end())
        .collect();
    let inside = |at: usize| {
        protected
            .iter()
            .chain(&urls)
            .any(|p| p.start < at && at < p.end)
    };
    let mut out = Vec::new();
    let mut start = range.start;
    let mut line_start = range.start;
    let mut output_before = false;
    let unwrapped = unwrapped(paragraph, fill);
    for line in unwrapped.split_inclusive('\n') {
        let mut at = line_start;
        // "问题1" on a line of its own, the answer on the next: one unit.
        if question_number(line) && line_start + line.len() < range.end {
            line_start += line.len();
            continue;
        }
        // A line of output (a log record, JSON) is kept whole, its periods
        // ending no sentence; lines of output in a row are one unit.
        let output = PASTED_LINE.is_match(line);
        if output && output_before {
            if let Some(last) = out.last_mut() {
                let last: &mut Range<usize> = last;
                last.end = line_start + line.len();
                start = last.end;
                line_start += line.len();
                continue;
            }
        }
        output_before = output;
        // Whether the line numbers what it lists with a word.
        let counting = if output { None } else { counting_words(line) };
        let counted = counting.is_some();
        let pieces: Vec<&str> = if output {
            output_after_colon(line).collect()
        } else {
            // A full-width semicolon sets clauses side by side, each a
            // requirement of its own ("…看不到完整的页脚；不需要judges那页").
            dashed_items(line)
                .into_iter()
                .flat_map(crate::verify::text::sentence_bounds)
                .flat_map(lower_case_starts)
                .flat_map(spaced_cjk)
                .flat_map(inline_rules)
                .flat_map(|piece| match &counting {
                    Some(words) => inline_markers(piece, words),
                    None => vec![piece],
                })
                .flat_map(|piece| piece.split_inclusive('；'))
                .flat_map(output_after_colon)
                .collect()
        };
        // The pieces follow one another along the line: only their lengths
        // are kept, and a piece that goes on into the next is joined to it.
        // "2.可以": a number alone is the item's that follows, not a
        // sentence of its own (UAX #29 ends one after "2." before CJK);
        // "why do we need '2. Builds libnn.a'?": an item quoted with its
        // number goes on past the number's period.
        let mut lengths: Vec<usize> = pieces.iter().map(|piece| piece.len()).collect();
        let (mut n, mut from) = (0, 0);
        // The number of the last item numbered along the line after a
        // space ([`spaced_items_number`]).
        let mut numbered_before = None;
        while n + 1 < lengths.len() {
            let piece = &line[from..from + lengths[n]];
            // "改到7.吧": a number's period before a particle that closes
            // the sentence ("吧", "呢", "啊") ends nothing; the time goes on.
            let particle_follows = piece
                .trim_end()
                .ends_with(|c: char| c.is_ascii_digit() || c == '.')
                && line[from + lengths[n]..]
                    .starts_with(['吧', '呢', '啊', '呀', '吗', '嘛', '哦', '了']);
            let shortened = piece.trim_end().strip_suffix('.').is_some_and(abbreviated);
            // A number the line counts its items by is cut off as a
            // marker, not joined to what follows it.
            let joins = numbered(piece) && !(counted && only_a_marker(piece));
            let next = &line[from + lengths[n]..from + lengths[n] + lengths[n + 1]];
            if joins
                || quotes_a_number(piece)
                || particle_follows
                || shortened
                || asked_aside(piece, next)
            {
                lengths[n] += lengths.remove(n + 1);
            } else {
                // "1.技术（…）2.增长（…）": items numbered along one line;
                // the number is the next item's, not the end of this one.
                let mut number = next_items_number(piece);
                // "Files needed: 1. dllmain.cpp (the hook DLL) 2. Launcher.cpp
                // (the injector) 3. CMakeLists.txt": each number after the
                // first goes on from the one before it.
                if number == 0 {
                    if let Some((item, bytes)) = spaced_items_number(piece) {
                        let goes_on = numbered_before.is_some_and(|before: u32| before + 1 == item)
                            || spaced_items_number(next).is_some_and(|(then, _)| then == item + 1);
                        if goes_on {
                            number = bytes;
                            numbered_before = Some(item);
                        }
                    }
                }
                if number > 0 && number < lengths[n] {
                    lengths[n] -= number;
                    lengths[n + 1] += number;
                }
                from += lengths[n];
                n += 1;
            }
        }
        for length in lengths {
            let from = at - line_start;
            at += length;
            let end = at;
            // A marker that numbers the words beside it is no sentence:
            // what stands before it is one, and it is passed over.
            if counted && start == end - length && only_a_marker(&line[from..from + length]) {
                start = end;
                continue;
            }
            let last_of_line = end == line_start + line.len();
            if (last_of_line || !inside(end)) && end > start {
                if last_of_line && inside(end) {
                    continue;
                }
                out.push(start..end);
                start = end;
            }
        }
        line_start += line.len();
    }
    if start < range.end {
        out.push(start..range.end);
    }
    out
}

/// `piece` cut after a colon that hands over output pasted on the same
/// line ("these are the console errors: \"12:30:47.526 Navigated to …",
/// "here it is: ActionView::Template::Error No route matches …"): the
/// words before it are the user's, the output is a unit of its own. Only
/// long output, so a short list after a colon stays in its sentence.
pub(super) fn output_after_colon(piece: &str) -> impl Iterator<Item = &str> {
    const LONG: usize = 120;
    let cut = piece.match_indices([':', '：']).find_map(|(at, colon)| {
        let after = at + colon.len();
        let rest = piece[after..].trim_start();
        // A quote may open it; a fence opens Markdown, not output.
        let rest = rest.trim_start_matches(['"', '\'', '“']);
        (rest.len() >= LONG && PASTED_LINE.is_match(rest.lines().next().unwrap_or("")))
            .then_some(after)
    });
    let (words, output) = match cut {
        Some(at) => (&piece[..at], Some(&piece[at..])),
        None => (piece, None),
    };
    std::iter::once(words).chain(output)
}

/// `paragraph` with the breaks a wrapping box put in it read as spaces (one
/// byte for one, so every offset holds): text typed in a terminal's or an
/// editor's box and copied with its lines cut where the box was full ("I'm
/// more comfortable \nwith @Data", "showing NEW on everything before\n  any
/// follow-up"). A break is the box's when the line is long (the box was
/// full) and ends inside a sentence (on a word or a comma), the next goes
/// on in lower case, and the line keeps the space before the break or the
/// next is indented to go on; a line of output is never joined. Text an
/// editor filled to the `fill` width ([`fill_width`]) is read on too where
/// a line is filled (the next word would not have fit) and the next goes
/// on in lower case or with a number ("…SEP_RETRIEVE returns" over "0
/// rows. N8N stops …").
pub(super) fn unwrapped(paragraph: &str, fill: Option<usize>) -> std::borrow::Cow<'_, str> {
    let lines: Vec<&str> = paragraph.split_inclusive('\n').collect();
    let mut breaks = Vec::new();
    let mut at = 0;
    for pair in lines.windows(2) {
        let (line, next) = (pair[0], pair[1]);
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let spaced = body.ends_with([' ', '\t']) || next.starts_with([' ', '\t']);
        // A box wraps a line only once it is full.
        let long = body.trim().chars().count() >= 40;
        let filled = fill.is_some_and(|width| filled_at(body, next, width) && goes_on(next, true));
        if ((spaced && long && goes_on(next, false)) || filled)
            && ends_inside(body)
            && !PASTED_LINE.is_match(line)
            && !PASTED_LINE.is_match(next)
        {
            breaks.push(at - 1);
        }
    }
    if breaks.is_empty() {
        return std::borrow::Cow::Borrowed(paragraph);
    }
    let mut bytes = paragraph.as_bytes().to_vec();
    for at in breaks {
        bytes[at] = b' ';
    }
    // A newline byte became a space byte: the text is as valid as it was.
    String::from_utf8(bytes).map_or(
        std::borrow::Cow::Borrowed(paragraph),
        std::borrow::Cow::Owned,
    )
}

/// The width an editor filled the message's prose to, if it was filled:
/// lines cut inside a sentence ("…that prevent the pipeline" over "from
/// completing. The workflow …") at least [`FILLED_LINES`] times, the
/// longest of them of [`FILL_WIDTHS`], and each cut where filling to that
/// width cuts ([`filled_at`]). A chat's lines are the user's own breaks:
/// their lengths are as long as each thing said, not all one width.
pub(super) fn fill_width(text: &str) -> Option<usize> {
    // Prose lines only: a fence's, or one indented as code is, stands as
    // an empty line, so the lines on either side of it are no pair.
    let mut fenced = false;
    let lines: Vec<&str> = text
        .lines()
        .map(|line| {
            let fence =
                line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
            fenced ^= fence;
            let code = fence || fenced || line.starts_with("    ") || line.starts_with('\t');
            if code {
                ""
            } else {
                line
            }
        })
        .collect();
    let mut cut = Vec::new();
    for pair in lines.windows(2) {
        let (line, next) = (pair[0].trim_end(), pair[1].trim_start());
        let length = line.trim_start().chars().count();
        if length >= *FILL_WIDTHS.start() - FILL_SLACK
            && ends_inside(line)
            && goes_on(next, true)
            && !PASTED_LINE.is_match(line)
        {
            cut.push((line, next, length));
        }
    }
    let width = cut.iter().map(|&(_, _, length)| length).max()?;
    (cut.len() >= FILLED_LINES
        && FILL_WIDTHS.contains(&width)
        && cut
            .iter()
            .all(|&(line, next, _)| filled_at(line, next, width)))
    .then_some(width)
}

/// Whether `line` ends inside a sentence: on a word or a comma.
fn ends_inside(line: &str) -> bool {
    line.trim_end()
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == ',')
}

/// Whether the line `next` goes on with what the line before it said: in
/// lower case, or (`numbers`) with a number ("…SEP_RETRIEVE returns" over
/// "0 rows.").
fn goes_on(next: &str, numbers: bool) -> bool {
    next.trim_start()
        .chars()
        .next()
        .is_some_and(|c| c.is_lowercase() || (numbers && c.is_ascii_digit()))
}

/// How many lines cut inside a sentence show that an editor filled the
/// text ([`fill_width`]).
const FILLED_LINES: usize = 3;

/// How much shorter than the fill width a filled line can be: the length
/// of a long word that did not fit.
const FILL_SLACK: usize = 12;

/// The widths editors fill text to.
const FILL_WIDTHS: std::ops::RangeInclusive<usize> = 60..=100;

/// Whether the break after `line` is where filling to `width` put it: the
/// line is as long as the width allows, and the first word of `next` would
/// not have fit on it.
fn filled_at(line: &str, next: &str, width: usize) -> bool {
    let length = line.trim().chars().count();
    let word = next
        .split_whitespace()
        .next()
        .map_or(0, |word| word.chars().count());
    length + FILL_SLACK >= width && length + 1 + word > width
}

/// A piece that ends on a quotation mark and a number's period (`… need
/// '2.`): the quoted item goes on in the next piece.
pub(super) fn quotes_a_number(piece: &str) -> bool {
    final_number(piece.trim_end()).is_some_and(|(digits, before)| {
        (1..=3).contains(&digits)
            && before
                .chars()
                .next_back()
                .is_some_and(|c| matches!(c, '\'' | '"' | '‘' | '“' | '(' | '`'))
    })
}

/// The number `piece` ends on with its period (`… 2.`): how many digits
/// it has, and the text before them; `None` for a piece that ends on no
/// number's period.
fn final_number(piece: &str) -> Option<(usize, &str)> {
    let number = piece.strip_suffix('.')?;
    let before = number.trim_end_matches(|c: char| c.is_ascii_digit());
    let digits = number.len() - before.len();
    (digits > 0).then_some((digits, before))
}

/// How many bytes at the end of `piece` are the number of the item that
/// follows it on the same line, typed with no space after its period
/// (`…（毛利率持续低迷）4.` before `竞争…`): a number of one or two digits
/// after a bracket, a full stop or a CJK character; 0 for anything else
/// (`version 2.`, `v2.`, a sentence that ends with a space after it).
pub(super) fn next_items_number(piece: &str) -> usize {
    let Some((digits, before)) = final_number(piece) else {
        return 0;
    };
    let after_item = before.chars().next_back().is_some_and(|c| {
        matches!(c, ')' | '）' | '。' | '；' | '」' | '”') || ('\u{4E00}'..='\u{9FFF}').contains(&c)
    });
    if (1..=2).contains(&digits) && after_item {
        digits + 1
    } else {
        0
    }
}

/// The number `piece` ends on after a space, set out as a list's (`…
/// (the hook DLL) 2. `), and how many bytes it takes with its period and
/// the space after it: a number of one or two digits after a colon, a
/// bracket or a name (`CMakeLists.txt 4.`), not after a word it counts
/// ("option 1. But …"). `None` for anything else.
pub(super) fn spaced_items_number(piece: &str) -> Option<(u32, usize)> {
    let (digits, before) = final_number(piece.trim_end())?;
    let words = before.strip_suffix(' ')?;
    let last = words.rsplit(char::is_whitespace).next().unwrap_or_default();
    let after_item = words.ends_with([':', ')', '）'])
        || last.contains(['.', '/', '_'])
        || last.chars().skip(1).any(char::is_uppercase);
    let number = piece.trim_end()[before.len()..before.len() + digits]
        .parse()
        .ok()?;
    ((1..=2).contains(&digits) && after_item).then_some((number, piece.len() - before.len()))
}

/// `line` cut before each item of a list typed along it after a colon
/// ("with these goals: - Target: DNLauncher.exe - Use MinHook - Also build
/// a Launcher.exe"), as a box that holds no line break takes a pasted
/// list: from the colon's "- ", and only where two more follow.
fn dashed_items(line: &str) -> Vec<&str> {
    let Some(opens) = line.find(": - ") else {
        return vec![line];
    };
    let first = opens + 2;
    let cuts: Vec<usize> = std::iter::once(first)
        .chain(
            line[first + 2..]
                .match_indices(" - ")
                .map(|(at, _)| first + 2 + at + 1),
        )
        .collect();
    if cuts.len() < 3 {
        return vec![line];
    }
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for at in cuts {
        out.push(&line[start..at]);
        start = at;
    }
    out.push(&line[start..]);
    out
}

/// Only an item's number: `2.`, `10)`, or a section's number at any depth
/// (`1.3.2.`).
pub(super) fn numbered(piece: &str) -> bool {
    let piece = piece.trim();
    piece
        .strip_suffix(['.', ')'])
        .and_then(super::section_parts)
        .is_some_and(|parts| parts <= 4)
}

/// Words after which a period ends no sentence that goes on in lower case.
const ABBREVIATIONS: &[&str] = &["etc", "no", "usw"];

/// Words after which a period ends no sentence, whatever follows: "e.g.
/// React", "z.B. Sortable.js", "bzw. Zeit", "Dr. Smith". ("etc.", "no."
/// and "usw." often end one.)
const SHORTENED: &[&str] = &[
    "e.g", "i.e", "vs", "cf", "approx", "incl", "mr", "mrs", "ms", "dr", "resp", "esp", "z.b",
    "d.h", "u.a", "z.t", "u.u", "o.ä", "s.o", "v.a", "bzw", "ggf", "evtl", "ca", "inkl", "vgl",
    "bspw", "sog", "p.ex", "p.ej",
];

/// The first letters of the abbreviations typed with a space inside ("z.
/// B.", "d. h.", "u. a.", "e. g.", "i. e.", "p. ex."), in lower case.
const SPACED_FIRST: &[&str] = &["z", "d", "u", "e", "i", "p"];

/// Whether the period after `before` (the text up to it) ends an
/// abbreviation, so no sentence ends there: "z.B.", "e.g.", and either
/// half of "z. B." (the first typed in lower case).
pub(super) fn abbreviated(before: &str) -> bool {
    fn last(text: &str) -> &str {
        text.rsplit(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or_default()
    }
    let word = last(before);
    if SHORTENED.contains(&word.to_lowercase().as_str()) || SPACED_FIRST.contains(&word) {
        return true;
    }
    // "B" of "z. B.": the letter after a spaced abbreviation's first half.
    let rest = before[..before.len() - word.len()].trim_end();
    word.chars().count() == 1
        && word.chars().all(char::is_alphabetic)
        && rest
            .strip_suffix('.')
            .is_some_and(|rest| SPACED_FIRST.contains(&last(rest)))
}

/// Whether `piece` ends on a question (or an exclamation) asked in
/// brackets inside a sentence that `next` goes on with in lower case: "I
/// know what source does (it runs in the same shell, right?) and throws
/// any error for you to check" is one sentence, though UAX #29 ends one
/// after the bracket.
fn asked_aside(piece: &str, next: &str) -> bool {
    let Some(inner) = piece.trim_end().strip_suffix(')') else {
        return false;
    };
    inner.ends_with(['?', '!'])
        && inner.matches('(').count() > inner.matches(')').count()
        && next.trim_start().starts_with(|c: char| c.is_lowercase())
}

/// `piece` cut again where a sentence ends and the next begins in lower
/// case (`make it blue. then run it`), or after a period typed between
/// spaces (`how it works . 1 line answer`), which people type and UAX #29
/// does not cut.
pub(super) fn lower_case_starts(piece: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = piece.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'.' | b'!' | b'?') {
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b'.' | b'!' | b'?') {
                j += 1;
            }
            let mut k = j;
            while k < bytes.len() && matches!(bytes[k], b' ' | b'\t') {
                k += 1;
            }
            let word_before = piece[start..i]
                .rsplit(|c: char| c.is_whitespace() || c == '(')
                .next()
                .unwrap_or_default()
                .to_lowercase();
            // A period typed between spaces ("how it works . 1 line
            // answer") ends a sentence whatever starts the next.
            let spaced = i > 0 && matches!(bytes[i - 1], b' ' | b'\t');
            if ((k > j
                && k < bytes.len()
                && (bytes[k].is_ascii_lowercase() || (spaced && bytes[k].is_ascii_alphanumeric())))
                || unspaced_start(&piece[start..i], &piece[j..]))
                && !ABBREVIATIONS.contains(&word_before.as_str())
                && !abbreviated(&piece[start..i])
            {
                out.push(&piece[start..k]);
                start = k;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out.push(&piece[start..]);
    out
}

/// Whether a sentence ends at a period typed with no space after it
/// ("… we can take.Do some proposals", "… wiederverwendet wird.Nachdem du
/// das getan hast"): a word of lower-case letters before the period, a
/// capitalized word after it, then a space. A name with a dot in it
/// (`System.Text`, `README.md`, `e.g.`) has no such shape.
fn unspaced_start(before: &str, after: &str) -> bool {
    let word = before
        .rsplit(char::is_whitespace)
        .next()
        .unwrap_or_default();
    let mut next = after.chars();
    let capital = next.next().is_some_and(|c| c.is_ascii_uppercase());
    let rest = next.as_str();
    let tail = rest.trim_start_matches(|c: char| c.is_alphabetic() && c.is_lowercase());
    word.chars().count() >= 2
        && word.chars().all(|c| c.is_alphabetic() && c.is_lowercase())
        && capital
        && tail.len() < rest.len()
        && tail.starts_with([' ', '\t'])
}

/// Whether `c` is a Korean syllable.
fn hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}')
}

/// `piece` cut after each rule typed between topics on one line, as a
/// chat message that cannot hold a line break is written ("… campinas e
/// indaiatuba. --- 3. a meta é cada equipe faturar …"): three hyphens or
/// more after a space end what stands before them, and are a piece of
/// their own.
fn inline_rules(piece: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in piece.match_indices(" ---") {
        let rule = at + 1;
        if rule < start {
            continue;
        }
        let end = piece[rule..]
            .find(|c: char| c != '-')
            .map_or(piece.len(), |n| rule + n);
        // Words go on after it: not a border of a table drawn in text
        // ("| -------- |", "+-----+").
        let after = piece[end..].trim_start();
        if end == piece.len()
            || !piece[end..].starts_with(char::is_whitespace)
            || after.is_empty()
            || after.starts_with(['|', '+'])
        {
            continue;
        }
        out.push(&piece[start..rule]);
        out.push(&piece[rule..end]);
        start = end;
    }
    out.push(&piece[start..]);
    out
}

/// A word that numbers what a user lists along one line ("instruction 2
/// make sure …", "step 3 …"), and the number; or a number set out as a
/// list's ("1) rename it 2) add a test", "(1) …", "1. add … 2. run …"),
/// its brackets or its period in place of the word (a period only before
/// words in lower case: "option 1. But option 2. …" ends sentences).
static INLINE_MARKER: LazyLock<Pattern> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(
        r"(?i)\b(instruction|step|requirement|rule|point|task|instrução|instrucao|passo|etapa|instrucción|instruccion|paso|punto|étape|etape|schritt|punkt)\s*#?(\d{1,2})\b|(?:^|[\s:;,])(?P<bare>(?P<open>\()?(?P<n>\d{1,2})(?P<close>\)))\s|(?:^|[\s:;,])(?P<dotted>(?P<m>\d{1,2})\.)\s+(?-i:\p{Ll})",
    )
    .expect("the marker pattern compiles")
});

/// `piece` cut where a user numbers what they list along one line with a
/// word ("dont create spm contract instruction 1, instruction 2 make sure
/// we using 0.8.25 instruction 3 …"): only when the same word numbers two
/// in a row (1 then 2), so "step 2 of the guide" stays whole. Each marker
/// is a piece of its own, as a list item's number is no part of what it
/// asks: whether it stands before its words or after them ("… contract
/// instruction 1, instruction 2 …"), the words are cut from it.
fn inline_markers<'p>(piece: &'p str, counting: &[String]) -> Vec<&'p str> {
    let markers = markers_in(piece, counting);
    if markers.is_empty() {
        return vec![piece];
    }
    let mut cuts = Vec::new();
    for (at, end) in &markers {
        let after = end
            + piece[*end..]
                .find(|c: char| !(c.is_whitespace() || matches!(c, ',' | ';' | '.' | ':')))
                .unwrap_or(piece.len() - end);
        cuts.extend([*at, after]);
    }
    let mut out = Vec::new();
    let mut start = 0;
    for at in cuts {
        if at > start && at < piece.len() {
            out.push(&piece[start..at]);
            start = at;
        }
    }
    out.push(&piece[start..]);
    out
}

/// Whether `text` numbers what it lists along its line ([`inline_markers`]).
pub(super) fn numbers_items(text: &str) -> bool {
    counting_words(text).is_some()
}

/// Every marker of [`INLINE_MARKER`] in `text`: where it stands, the word
/// that numbers (for a bare number, how it is set out: "1)", "(1)", "1."),
/// and its number.
fn markers(text: &str) -> Vec<(usize, usize, String, u32)> {
    INLINE_MARKER
        .captures_iter(text)
        .filter_map(|found| {
            // A bare number is counted by how it is set out: "1)", "(1)"
            // and "1." are three ways, each its own word.
            if let Some(dotted) = found.name("dotted") {
                let number = found.name("m")?.as_str().parse().ok()?;
                return Some((dotted.start(), dotted.end(), ".".to_owned(), number));
            }
            if let Some(bare) = found.name("bare") {
                let way = format!(
                    "{}{}",
                    found.name("open").map_or("", |m| m.as_str()),
                    found.name("close").map_or("", |m| m.as_str())
                );
                let number = found.name("n")?.as_str().parse().ok()?;
                return Some((bare.start(), bare.end(), way, number));
            }
            let whole = found.get(0)?;
            let word = found.get(1)?.as_str().to_lowercase();
            let number = found.get(2)?.as_str().parse().ok()?;
            Some((whole.start(), whole.end(), word, number))
        })
        .collect()
}

/// The words that number what `text` lists along one line
/// ([`inline_markers`]): each that numbers two in a row ("step 3 of the
/// guide" beside "instruction 1, instruction 2" is no marker).
fn counting_words(text: &str) -> Option<Vec<String>> {
    // Two numbers at least, and a marker: most lines have neither.
    if text.bytes().filter(u8::is_ascii_digit).nth(1).is_none() || !INLINE_MARKER.is_match(text) {
        return None;
    }
    let markers = markers(text);
    let counting: Vec<String> = markers
        .windows(2)
        .filter_map(|pair| {
            let ((_, _, first, n), (_, _, second, m)) = (&pair[0], &pair[1]);
            (first == second && *m == n + 1).then(|| first.clone())
        })
        .collect();
    (!counting.is_empty()).then_some(counting)
}

/// Where the markers of the `counting` words stand in `text`. A sentence
/// bound cuts a line numbered "1. add … 2. run …" after each number's
/// period: a piece that ends on such a number ends on its marker.
fn markers_in(text: &str, counting: &[String]) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = markers(text)
        .into_iter()
        .filter(|m| counting.contains(&m.2))
        .map(|m| (m.0, m.1))
        .collect();
    if counting.iter().any(|way| way == ".") {
        let body = text.trim_end();
        if let Some((digits, before)) = final_number(body) {
            let at = before.len();
            let set_apart =
                before.is_empty() || before.ends_with(|c: char| c.is_whitespace() || c == ':');
            if (1..=2).contains(&digits) && set_apart && found.last().is_none_or(|m| m.1 <= at) {
                found.push((at, body.len()));
            }
        }
    }
    found
}

/// Whether `piece` is only a marker of a line that numbers what it lists
/// with a word ("instruction 2", "step 3,"): no sentence.
fn only_a_marker(piece: &str) -> bool {
    let trimmed = piece.trim();
    // "1)", "(2)", "3.": a number set out as a list's, alone.
    let number = trimmed.trim_start_matches('(').trim_end_matches([')', '.']);
    if !number.is_empty()
        && number.len() <= 2
        && number.bytes().all(|b| b.is_ascii_digit())
        && trimmed.len() > number.len()
    {
        return true;
    }
    let bare = trimmed.trim_end_matches([',', ';', '.', ':']);
    !bare.is_empty()
        && INLINE_MARKER
            .find(bare)
            .is_some_and(|found| found.start() == 0 && found.end() == bare.len())
}

/// Whether `c` is written in Chinese characters or Japanese kana, which
/// put no spaces between words.
fn han_or_kana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// `piece` cut after a space typed between Chinese or Japanese words
/// ("ありがとう 心の支えになってね", "这事情先放放 你先研究一下"): these scripts
/// put no space inside a sentence, so a space between their characters
/// ends one, as a line break would (chat clients that flatten a message's
/// lines leave exactly this); so does a space after a request closed in
/// the て-form, whatever script follows ("D 実装して MILSPEC規格で").
/// Korean spaces its words, and is cut only after a word closed by an
/// ending that closes a sentence: an order
/// ("…부분만 없애줘 아까 …", remove only that part; earlier …), a
/// suggestion ("하자"), a polite request or statement ("주세요", "니다").
/// A request put as a question ("你可以把昨晚我们聊到 关于读博的事情整理成文档
/// 存到我的云文档里吗", could you put what we talked about last night … into
/// a document?) is one sentence from its opening to its question mark,
/// however many spaces it pauses at.
pub(super) fn spaced_cjk(piece: &str) -> Vec<&str> {
    /// How a request put as a question opens: "you can", "can or cannot",
    /// "please", "help me".
    const ASKS_OPEN: &[&str] = &[
        "你可以",
        "你能",
        "您可以",
        "您能",
        "能不能",
        "可不可以",
        "可以帮我",
        "能否",
        "麻烦你",
        "麻烦",
        "帮我",
        "请你",
        "请",
    ];
    let bare = piece.trim();
    if ASKS_OPEN.iter().any(|open| bare.starts_with(open))
        && bare
            .trim_end_matches(['？', '?', ' '])
            .ends_with(['吗', '嗎'])
    {
        return vec![piece];
    }
    /// Endings that close a Korean sentence, and never a word inside one.
    const KOREAN_CLOSES: &[&str] = &[
        "줘",
        "줘요",
        "주세요",
        "세요",
        "니다",
        "하자",
        "보자",
        "가자",
        "해라",
        "해봐",
    ];
    let mut out = Vec::new();
    let mut start = 0;
    let mut before: Option<char> = None;
    let mut space_from: Option<usize> = None;
    for (i, c) in piece.char_indices() {
        if c == ' ' || c == '\u{3000}' {
            if space_from.is_none() {
                space_from = Some(i);
            }
            continue;
        }
        // A case particle opens no sentence ("1段階的応答 で行こう", let's go
        // with stepwise replies): the space stood inside one.
        let particle = matches!(c, 'を' | 'が' | 'は' | 'に' | 'へ' | 'の' | 'で');
        if let Some(space) = space_from.take() {
            let korean_close = hangul(c)
                && KOREAN_CLOSES
                    .iter()
                    .any(|ending| piece[start..space].ends_with(ending));
            // A request closed in the て-form ends its sentence before a
            // word in any script ("D 実装して MILSPEC規格で", implement D;
            // to MIL-SPEC).
            let asked = before == Some('て') && !c.is_ascii_punctuation();
            if korean_close
                || (before.is_some_and(han_or_kana) && (han_or_kana(c) || asked) && !particle)
            {
                out.push(&piece[start..i]);
                start = i;
            }
        }
        before = Some(c);
    }
    out.push(&piece[start..]);
    out
}
