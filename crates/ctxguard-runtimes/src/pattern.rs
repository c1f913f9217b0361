//! A pattern that answers "no" fast on text of any script.
//!
//! The regex crate's fast automaton reads Unicode's word bounds (`\b`) on
//! ASCII text only: on a line with one curly quote, an arrow or a word of
//! Chinese, a pattern with `\b` is run by the slow one instead, and the
//! patterns that read what a user typed are most of them. Most lines match
//! none of them, so a [`Pattern`] asked often enough of such text asks it
//! first the pattern as written without its word bounds: that matches
//! wherever the pattern does (a bound only forbids), runs on the fast
//! automaton, and so says "no" to most lines at its speed. Only a line it
//! matches is searched with the pattern as written, so every answer is the
//! pattern's own.
//!
//! Asked only whether it matches, a pattern is asked of the line's ASCII
//! image instead ([`image`]), where it can: a character for each
//! character, `_` for a letter of any script, a vertical tab for a space,
//! `\x01` for any other sign, `'` for a curly apostrophe. Most patterns
//! see other scripts only through their classes (`\w`, `\s`, `.`,
//! `[^…]`), and so see every letter of them alike, every space alike,
//! every other sign alike: of a line, they answer as of its image, which
//! the fast automaton reads whole. What a pattern tells apart from the
//! rest of its kind (the `ö` of "möchte", the digits of other scripts that
//! `\d` holds) it names ([`significant`]), and a line with one of those is
//! asked as written.

use std::borrow::Cow;
use std::iter::Take;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;

use regex::{CaptureMatches, Captures, Match, Matches, Regex, Replacer};

/// How many times a pattern is asked of text of another script before its
/// looser twin is compiled: a hook that judges a prompt or two would not
/// earn back the compiling; an audit of a folder asks some patterns
/// millions of times.
const WARM: u32 = 256;

/// How much text of another script a pattern is asked of before its twin
/// is compiled, however few the times: the slow automaton reads some tens
/// of bytes in the time the fast one reads thousands, so a pattern asked of
/// whole messages (another agent's report handed over, a terminal's
/// output) earns the compiling back within a few long ones.
const WARM_BYTES: u64 = 64 * 1024;

/// A compiled pattern, with its looser twin compiled once it has been
/// asked often enough.
#[derive(Debug)]
pub(crate) struct Pattern {
    exact: Regex,
    /// The characters outside ASCII the pattern tells apart from others of
    /// their kind ([`significant`]): of a line with none of them, it is
    /// asked of its ASCII image. None: never of the image. Made when it is
    /// first asked of such a line.
    named: OnceLock<Option<regex_syntax::hir::ClassUnicode>>,
    /// The source without word bounds, when it has any.
    loose_source: Option<String>,
    loose: OnceLock<Option<Regex>>,
    /// How many times it was asked of text the fast automaton cannot read
    /// with `\b`, and how many of those its looser twin let through; and
    /// whether the twin let most through (`\b(i|we)\b` without its bounds
    /// matches most lines), so it is asked no more.
    asked: AtomicU32,
    passed: AtomicU32,
    /// How many bytes of such text it was asked of before the twin.
    bytes: AtomicU64,
    /// The asks when the twin was compiled.
    warmed_at: AtomicU32,
    useless: AtomicBool,
}

impl Pattern {
    /// Compiles `source`, where an apostrophe stands for either one people
    /// type, straight or curly: "don’t do anything else" is "don't".
    pub(crate) fn new(source: &str) -> Result<Pattern, regex::Error> {
        let source = rewritten(source, |_, _| None, apostrophe);
        let exact = Regex::new(&source)?;
        let loose = unbounded(&source);
        Ok(Pattern {
            exact,
            named: OnceLock::new(),
            loose_source: (loose != source).then_some(loose),
            loose: OnceLock::new(),
            asked: AtomicU32::new(0),
            passed: AtomicU32::new(0),
            bytes: AtomicU64::new(0),
            warmed_at: AtomicU32::new(u32::MAX),
            useless: AtomicBool::new(false),
        })
    }

    /// Whether the pattern's twin without word bounds lets `haystack`
    /// through: `false` only when the pattern cannot match it.
    fn may_match(&self, haystack: &str) -> bool {
        let Some(source) = &self.loose_source else {
            return true;
        };
        if haystack.is_ascii() {
            return true;
        }
        if self.useless.load(Ordering::Relaxed) {
            return true;
        }
        let asked = self.asked.fetch_add(1, Ordering::Relaxed);
        if self.loose.get().is_none() {
            let len = haystack.len() as u64;
            let bytes = self.bytes.fetch_add(len, Ordering::Relaxed) + len;
            if asked < WARM && bytes < WARM_BYTES {
                return true;
            }
            self.warmed_at.fetch_min(asked, Ordering::Relaxed);
        }
        // Asked `WARM` times since it warmed up: the twin stays if it
        // answered "no" to at least half of them.
        let since = asked.saturating_sub(self.warmed_at.load(Ordering::Relaxed));
        let passed = u64::from(self.passed.load(Ordering::Relaxed));
        if since >= WARM && passed * 2 > u64::from(since) {
            self.useless.store(true, Ordering::Relaxed);
            return true;
        }
        // The loose source is the pattern's, less its word bounds: it
        // compiles when the pattern does, but for a bound written with
        // braces (`\b{start}`); a twin that does not compile lets all
        // through, and the pattern as written answers alone.
        let loose = self.loose.get_or_init(|| Regex::new(source).ok());
        let may = loose.as_ref().is_none_or(|loose| loose.is_match(haystack));
        if may {
            self.passed.fetch_add(1, Ordering::Relaxed);
        }
        may
    }

    /// What the pattern tells apart ([`significant`]), made once.
    fn named(&self) -> Option<&regex_syntax::hir::ClassUnicode> {
        self.named
            .get_or_init(|| significant(self.exact.as_str()))
            .as_ref()
    }

    /// What the line's ASCII image answers of whether the pattern matches
    /// `haystack`, when the line is of another script and its image can
    /// answer ([`with_image`]); `None` otherwise.
    fn imaged(&self, haystack: &str) -> Option<bool> {
        let named = (!haystack.is_ascii()).then(|| self.named()).flatten()?;
        with_image(haystack, named, |image| self.exact.is_match(image))
    }

    /// Whether the pattern can match `haystack`: `false` only when it
    /// cannot. A line whose image says no is not searched where it is
    /// written, which a pattern with a word bound does on the slowest of
    /// the regex crate's engines wherever the line holds a letter outside
    /// ASCII; nor is one the twin turns away.
    fn can_match(&self, haystack: &str) -> bool {
        self.imaged(haystack) != Some(false) && self.may_match(haystack)
    }

    /// As [`Regex::is_match`].
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        match self.imaged(haystack) {
            Some(matches) => matches,
            None => self.may_match(haystack) && self.exact.is_match(haystack),
        }
    }

    /// As [`Regex::find`].
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.can_match(haystack)
            .then(|| self.exact.find(haystack))
            .flatten()
    }

    /// As [`Regex::captures`].
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        self.can_match(haystack)
            .then(|| self.exact.captures(haystack))
            .flatten()
    }

    /// As [`Regex::find_iter`]: none at all where the pattern cannot match
    /// (the iterator searches only when asked).
    pub(crate) fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> Take<Matches<'r, 'h>> {
        let may = self.can_match(haystack);
        self.exact
            .find_iter(haystack)
            .take(if may { usize::MAX } else { 0 })
    }

    /// As [`Regex::captures_iter`] (see [`Pattern::find_iter`]).
    pub(crate) fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> Take<CaptureMatches<'r, 'h>> {
        let may = self.can_match(haystack);
        self.exact
            .captures_iter(haystack)
            .take(if may { usize::MAX } else { 0 })
    }

    /// As [`Regex::replace_all`].
    pub(crate) fn replace_all<'h, R: Replacer>(&self, haystack: &'h str, with: R) -> Cow<'h, str> {
        if self.can_match(haystack) {
            self.exact.replace_all(haystack, with)
        } else {
            Cow::Borrowed(haystack)
        }
    }
}

/// An apostrophe of a pattern's source as either one people type: `['’]`
/// outside a bracketed class, `'’` inside one.
fn apostrophe(c: char, in_class: bool) -> Option<String> {
    match (c, in_class) {
        ('\'', false) => Some("['’]".to_owned()),
        ('\'', true) => Some("'’".to_owned()),
        _ => None,
    }
}

/// `source` without its word bounds (`\b`, `\B`) outside bracketed
/// classes, where `\b` is a backspace. (`\b{start}` loses its `\b` and
/// keeps its braces: that twin does not compile, and the pattern as written
/// answers alone.)
fn unbounded(source: &str) -> String {
    escapes(source, |c, in_class| {
        (matches!(c, 'b' | 'B') && !in_class).then(String::new)
    })
}

/// `source` with each escape `\c` that `rewrite(c, in_class)` rewrites
/// replaced by what it returns (`in_class`: inside a bracketed class, where
/// no flag can be set and `\b` is a backspace); every other character as it
/// is.
pub(crate) fn escapes(source: &str, rewrite: impl FnMut(char, bool) -> Option<String>) -> String {
    rewritten(source, rewrite, |_, _| None)
}

/// `source` with each escape `\c` rewritten as [`escapes`] does, and each
/// other character `c` that `literal(c, in_class)` rewrites replaced by
/// what it returns (the brackets that open and close a class aside).
pub(crate) fn rewritten(
    source: &str,
    mut rewrite: impl FnMut(char, bool) -> Option<String>,
    mut literal: impl FnMut(char, bool) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    // How deep in bracketed classes, and whether a `]` now would be a
    // literal (first in its class).
    let (mut depth, mut opened) = (0usize, false);
    while let Some(c) = chars.next() {
        let was_opened = std::mem::take(&mut opened);
        match c {
            '\\' => match chars.next() {
                Some(escaped) => match rewrite(escaped, depth > 0) {
                    Some(text) => out.push_str(&text),
                    None => {
                        out.push('\\');
                        out.push(escaped);
                    }
                },
                None => out.push('\\'),
            },
            '[' => {
                out.push(c);
                depth += 1;
                opened = true;
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
            }
            ']' if depth > 0 && !was_opened => {
                out.push(c);
                depth -= 1;
            }
            _ => match literal(c, depth > 0) {
                Some(text) => out.push_str(&text),
                None => out.push(c),
            },
        }
    }
    out
}

/// The characters outside ASCII that a pattern tells apart from the
/// others of their kind; or None when the image would not do for it at
/// all.
///
/// A class of the pattern holds the stand-in of a kind ([`image`]) or not;
/// the characters outside ASCII it holds otherwise than it holds the
/// stand-in of their kind are the ones it tells apart (for `\w`, none; for
/// `\d`, the digits of other scripts; for `(?i)s`, `ſ`), and so are the
/// characters of its literals. A line with none of them reads, for this
/// pattern, as its image does. A pattern with a literal that is a stand-in
/// (`snake_case`, `'` escaped, a literal `’`) is never asked of an image.
fn significant(source: &str) -> Option<regex_syntax::hir::ClassUnicode> {
    let hir = regex_syntax::Parser::new().parse(source).ok()?;
    let mut named = Vec::new();
    tells(&hir, &mut named).then(|| regex_syntax::hir::ClassUnicode::new(named))
}

/// Whether `class` holds `c`.
fn holds(class: &regex_syntax::hir::ClassUnicode, c: char) -> bool {
    let ranges = class.ranges();
    let at = ranges.partition_point(|r| r.end() < c);
    ranges.get(at).is_some_and(|r| r.start() <= c)
}

/// The kinds of characters outside ASCII that the image gives one stand-in
/// each: letters (as `\w` and `\b` read them), spaces, other signs (the
/// curly apostrophe aside, which stands as a straight one).
struct Kinds {
    /// Every character the image stands in for: outside ASCII, but the
    /// curly apostrophe.
    outside: regex_syntax::hir::ClassUnicode,
    word: regex_syntax::hir::ClassUnicode,
    space: regex_syntax::hir::ClassUnicode,
    other: regex_syntax::hir::ClassUnicode,
}

static KINDS: std::sync::LazyLock<Option<Kinds>> = std::sync::LazyLock::new(|| {
    use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};
    let class = |source: &str| match regex_syntax::Parser::new().parse(source).ok()?.into_kind() {
        HirKind::Class(Class::Unicode(class)) => Some(class),
        _ => None,
    };
    let mut outside = ClassUnicode::new([ClassUnicodeRange::new('\u{80}', char::MAX)]);
    outside.difference(&ClassUnicode::new([ClassUnicodeRange::new('’', '’')]));
    let mut word = class(r"\w")?;
    word.intersect(&outside);
    let mut space = class(r"\s")?;
    space.intersect(&outside);
    let mut other = outside.clone();
    other.difference(&word);
    other.difference(&space);
    Some(Kinds {
        outside,
        word,
        space,
        other,
    })
});

/// Whether `hir` reads a line free of the characters it names (added to
/// `named`) as it reads the line's image.
fn tells(
    hir: &regex_syntax::hir::Hir,
    named: &mut Vec<regex_syntax::hir::ClassUnicodeRange>,
) -> bool {
    use regex_syntax::hir::{Class, ClassUnicodeRange, HirKind, Look};
    let Some(kinds) = KINDS.as_ref() else {
        return false;
    };
    match hir.kind() {
        HirKind::Empty => true,
        // Anchors, and word bounds as Unicode reads them (which read a
        // stand-in as what it stands for); an ASCII word bound reads a
        // letter of another script as no letter, and its stand-in `_` as
        // one.
        HirKind::Look(look) => matches!(
            look,
            Look::Start
                | Look::End
                | Look::StartLF
                | Look::EndLF
                | Look::StartCRLF
                | Look::EndCRLF
                | Look::WordUnicode
                | Look::WordUnicodeNegate
                | Look::WordStartUnicode
                | Look::WordEndUnicode
                | Look::WordStartHalfUnicode
                | Look::WordEndHalfUnicode
        ),
        HirKind::Literal(literal) => {
            let Ok(text) = std::str::from_utf8(&literal.0) else {
                return false;
            };
            text.chars().all(|c| {
                if c.is_ascii() {
                    return !STAND_INS.contains(&c);
                }
                if c == '’' {
                    return false;
                }
                named.push(ClassUnicodeRange::new(c, c));
                true
            })
        }
        HirKind::Class(Class::Unicode(class)) => {
            let holds = |c: char| holds(class, c);
            if holds('\'') != holds('’') {
                return false;
            }
            // The kinds the class holds are the ones whose stand-ins it
            // holds; the characters it holds otherwise than its kinds do
            // are the ones it tells apart. (Made once for each class: the
            // same ones come back, `\s` and `\w` in most patterns.)
            thread_local! {
                static APART: std::cell::RefCell<Apart> =
                    std::cell::RefCell::default();
            }
            let apart = APART.with(|made| {
                made.borrow_mut()
                    .entry(
                        class
                            .ranges()
                            .iter()
                            .map(|r| (r.start(), r.end()))
                            .collect(),
                    )
                    .or_insert_with(|| {
                        let mut apart = class.clone();
                        apart.intersect(&kinds.outside);
                        for (kind, stand_in) in [
                            (&kinds.word, '_'),
                            (&kinds.space, '\x0b'),
                            (&kinds.other, '\x01'),
                        ] {
                            if holds(stand_in) {
                                apart.symmetric_difference(kind);
                            }
                        }
                        apart.ranges().to_vec()
                    })
                    .clone()
            });
            named.extend(apart);
            true
        }
        HirKind::Class(Class::Bytes(_)) => false,
        HirKind::Repetition(repetition) => tells(&repetition.sub, named),
        HirKind::Capture(capture) => tells(&capture.sub, named),
        HirKind::Concat(all) | HirKind::Alternation(all) => all.iter().all(|hir| tells(hir, named)),
    }
}

/// What each class tells apart ([`tells`]), by its ranges.
type Apart =
    std::collections::HashMap<Vec<(char, char)>, Vec<regex_syntax::hir::ClassUnicodeRange>>;

/// The image's stand-ins: for a letter, a space, any other sign, and the
/// curly apostrophe.
const STAND_INS: [char; 4] = ['_', '\x0b', '\x01', '\''];

/// The ASCII image of `line`, into `into`: a character for each of its
/// characters, the ASCII ones as they are, a curly apostrophe as a
/// straight one, a letter (a word character, as `\w` reads them) as `_`, a
/// space (as `\s` reads them) as a vertical tab, any other sign as `\x01`; and the
/// characters outside ASCII it holds (the curly apostrophe aside), sorted,
/// into `held`.
fn image(line: &str, into: &mut String, held: &mut Vec<char>) {
    into.clear();
    held.clear();
    // The kinds as the patterns' classes were weighed against: a
    // character stands in as the kind it is there.
    for c in line.chars() {
        let stand_in = match (c, KINDS.as_ref()) {
            _ if c.is_ascii() => c,
            ('’', _) => '\'',
            (_, Some(kinds)) if holds(&kinds.word, c) => '_',
            (_, Some(kinds)) if holds(&kinds.space, c) => '\x0b',
            _ => '\x01',
        };
        if !c.is_ascii() && c != '’' {
            held.push(c);
        }
        into.push(stand_in);
    }
    held.sort_unstable();
    held.dedup();
}

thread_local! {
    /// The last line this thread made an image of, its image, and the
    /// characters outside ASCII it holds: the patterns that judge a unit
    /// are asked of it one after another.
    static IMAGE: std::cell::RefCell<(String, String, Vec<char>)> = std::cell::RefCell::default();
}

/// `ask` of the ASCII image of `line`, if the line holds none of the
/// characters in `named`, which the pattern tells apart.
fn with_image<T>(
    line: &str,
    named: &regex_syntax::hir::ClassUnicode,
    ask: impl FnOnce(&str) -> T,
) -> Option<T> {
    IMAGE.with(|cell| {
        let mut cell = cell.borrow_mut();
        let (last, made, held) = &mut *cell;
        if last != line {
            last.clear();
            last.push_str(line);
            image(line, made, held);
        }
        (!held.iter().any(|&c| holds(named, c))).then(|| ask(made))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Patterns of the kinds the audit writes: word bounds, cases folded,
    /// classes of word characters, spaces and their opposites, digits, a
    /// dot, apostrophes, anchors, words of other scripts, classes of
    /// scripts.
    const KINDS: &[&str] = &[
        r"(?i)\bdon't\b",
        r"(?i)\b(please|do\s+not|keep)\b",
        r"^\W*(ok|yes)\W*$",
        r"(?i)\bs\w+k\b",
        r"[^a-z\s]{2}",
        r"\w\s\S\W",
        r"(?m)^\s*[-*]\s+\S",
        r"a.b",
        r"\Bk\B",
        r"^.{3}$",
        r"(?i)\bi'm\b|[a-z']+$",
        r"\d+\D",
        r"(?i)do not",
        r"(?i)\b(bitte|möchte|нужно)\b|不要",
        r"\b[0-9A-Za-z_\u{C0}-\u{24F}\u{4E00}-\u{9FFF}]+\b",
        r"^\s*[\p{Han}a]\b",
        r"[^\p{P}\s]\b",
        r"\bé\b|漢a|s k|k\sa",
    ];

    #[test]
    fn an_imaged_pattern_answers_of_the_image_as_of_the_line() {
        // Every line of up to three characters of this alphabet, alone and
        // between words: letters of other scripts, spaces, signs, digits
        // of other scripts, the characters that fold to ASCII letters,
        // letters some of the patterns name.
        let alphabet = [
            'a', 'k', 's', ' ', '\'', '’', 'é', 'ö', 'н', '漢', 'ㄱ', '→', '\u{3000}', '１', 'ſ',
            '\u{212a}', '_', '\u{301}', '.', '、', 'ก',
        ];
        let patterns: Vec<Pattern> = KINDS.iter().map(|k| Pattern::new(k).unwrap()).collect();
        for pattern in &patterns {
            assert!(
                pattern.named().is_some(),
                "{:?} is imaged",
                pattern.exact.as_str()
            );
        }
        let mut lines = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = lines
                .iter()
                .flat_map(|line| alphabet.iter().map(move |c| format!("{line}{c}")))
                .collect();
            lines.extend(longer);
        }
        lines.sort();
        lines.dedup();
        for line in &lines {
            for framed in [line.clone(), format!("x{line}y"), format!("漢 {line} →")] {
                for pattern in &patterns {
                    assert_eq!(
                        pattern.is_match(&framed),
                        pattern.exact.is_match(&framed),
                        "{:?} of {framed:?}",
                        pattern.exact.as_str()
                    );
                    // Found where the line is searched as written, once
                    // the image says it can be.
                    assert_eq!(
                        pattern.find(&framed).map(|m| m.range()),
                        pattern.exact.find(&framed).map(|m| m.range()),
                        "{:?} found in {framed:?}",
                        pattern.exact.as_str()
                    );
                }
            }
        }
    }

    #[test]
    fn a_pattern_is_imaged_unless_a_stand_in_would_answer_otherwise() {
        let named = |source: &str| {
            Pattern::new(source).unwrap().named().map(|class| {
                class
                    .ranges()
                    .iter()
                    .map(|r| (r.start(), r.end()))
                    .collect::<Vec<_>>()
            })
        };
        // A literal that is a stand-in, a class that holds one apostrophe
        // and not the other, or a word bound read in ASCII, is never
        // imaged.
        for source in [
            r"snake_case",
            r"[!-~]+",
            r"\'",
            "’",
            r"(?-u:\b)foo",
            r"(?-u:\b{start-half})x",
        ] {
            assert_eq!(named(source), None, "{source}");
        }
        // (An ASCII word bound would answer otherwise of the image: "éfoo"
        // has one before "foo", "_foo" none.)
        let ascii_bound = Pattern::new(r"(?-u:\b)foo").unwrap();
        assert!(ascii_bound.is_match("éfoo") && !ascii_bound.exact.is_match("_foo"));
        // A class that holds `_` and no other letter tells every other
        // letter apart.
        let holds = |named: Option<Vec<(char, char)>>, c: char| {
            named
                .unwrap()
                .iter()
                .any(|&(start, end)| start <= c && c <= end)
        };
        assert!(holds(named(r"[_a]"), 'é') && holds(named(r"[^_]"), '漢'));
        // Otherwise a pattern names the characters it tells apart from
        // others of their kind: a line with one of them is not imaged.
        assert_eq!(named(r"\bplease\b"), Some(vec![]));
        assert_eq!(named(r"(?i)\bplease\b"), Some(vec![('ſ', 'ſ')]));
        assert_eq!(named(r"(?i)\bkeep\b"), Some(vec![('\u{212a}', '\u{212a}')]));
        assert_eq!(named(r"\bnão\b"), Some(vec![('ã', 'ã')]));
        assert!(holds(named(r"\d"), '１') && !holds(named(r"\d"), 'é'));
        assert!(holds(named(r"\p{Han}"), '漢') && !holds(named(r"\p{Han}"), 'é'));
        let (mut into, mut held) = (String::new(), Vec::new());
        image("don’t → 漢字 é\u{3000}x１", &mut into, &mut held);
        assert_eq!(into, "don't \x01 __ _\x0bx_");
        assert_eq!(held, ['é', '→', '\u{3000}', '字', '漢', '１']);
    }

    #[test]
    fn the_loose_pattern_drops_only_word_bounds_outside_classes() {
        assert_eq!(unbounded(r"\bdo\s+not\b"), r"do\s+not");
        assert_eq!(unbounded(r"[\b\]x]\Bq"), r"[\b\]x]q");
        // A twin that does not compile leaves the pattern to answer alone.
        let start = Pattern::new(r"\b{start}do").unwrap();
        assert!(start
            .loose_source
            .as_deref()
            .is_some_and(|s| Regex::new(s).is_err()));
        for _ in 0..=2 * WARM {
            assert!(start.is_match("do it → now"));
        }
        assert_eq!(unbounded(r"[]\b]\\b"), r"[]\b]\\b");
        assert_eq!(unbounded(r"no bounds"), "no bounds");
    }

    #[test]
    fn answers_are_the_patterns_own_on_text_of_any_script() {
        let pattern = Pattern::new(r"(?i)\b(нужно|please|do\s+not)\b").unwrap();
        let long = |s: &str| format!("{s} {}", "→ слово ".repeat(10));
        // Warmed up, so the looser twin is asked.
        for _ in 0..WARM {
            assert!(!pattern.is_match(&long("x")));
        }
        for (text, matches) in [
            ("please keep it", true),
            ("pleased to meet you", false),
            ("Нужно оставить тесты", true),
            ("ненужно", false),
            ("使用please吧", false),
            ("do not drop columns", true),
        ] {
            let text = long(text);
            assert!(!text.is_ascii());
            assert_eq!(pattern.is_match(&text), matches, "{text}");
            assert_eq!(pattern.is_match(&text), pattern.exact.is_match(&text));
            assert_eq!(
                pattern.find(&text).map(|m| m.range()),
                pattern.exact.find(&text).map(|m| m.range())
            );
            let ranges = |found: Vec<Match>| found.iter().map(Match::range).collect::<Vec<_>>();
            assert_eq!(
                ranges(pattern.find_iter(&text).collect()),
                ranges(pattern.exact.find_iter(&text).collect())
            );
            assert_eq!(
                ranges(
                    pattern
                        .captures_iter(&text)
                        .filter_map(|c| c.get(1))
                        .collect()
                ),
                ranges(
                    pattern
                        .exact
                        .captures_iter(&text)
                        .filter_map(|c| c.get(1))
                        .collect()
                )
            );
        }
        // Where the twin says no, nothing is found, not even the empty
        // match the pattern would find in empty text.
        let empty = Pattern::new(r"\bfoo\b|^$").unwrap();
        for _ in 0..=WARM {
            assert_eq!(empty.find_iter("→ bar").count(), 0);
            assert_eq!(empty.captures_iter("→ bar").count(), 0);
        }
        // The line's image answered: no twin was needed.
        assert!(empty.loose.get().is_none());
        assert_eq!(empty.exact.find_iter("").count(), 1);
        assert!(pattern.loose.get().is_some_and(Option::is_some));
        assert_eq!(pattern.replace_all(&long("x"), "y"), long("x"));
        assert_eq!(
            pattern.replace_all(&long("please"), "P"),
            pattern.exact.replace_all(&long("please"), "P")
        );
    }

    #[test]
    fn an_apostrophe_matches_straight_or_curly_outside_and_inside_classes() {
        let pattern = Pattern::new(r"(?i)\bdon't\b|^[a-z']+$").unwrap();
        for text in ["don't", "Don’t go", "l’eau", "it's"] {
            assert!(pattern.is_match(text), "{text}");
        }
        assert!(!pattern.is_match("dont go"));
        // An escaped one is left as written.
        assert_eq!(
            rewritten(r"\'a'[x']", |_, _| None, apostrophe),
            r"\'a['’][x'’]"
        );
    }

    #[test]
    fn a_twin_that_lets_most_through_is_asked_no_more() {
        let pattern = Pattern::new(r"(?i)\b(i|we)\b").unwrap();
        let line = "it is what we said → ok";
        // Found, not asked whether it matches: an imaged pattern answers
        // that of the image, and asks no twin.
        for _ in 0..3 * WARM {
            assert!(pattern.find(line).is_some());
        }
        assert!(pattern.useless.load(Ordering::Relaxed));
        assert!(pattern.find("it→wes").is_none());
    }

    #[test]
    fn a_pattern_asked_of_long_text_compiles_its_twin_within_a_few_asks() {
        let pattern = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        // A long s (which `(?i)s` matches) keeps the line from its image:
        // the pattern is asked of it as written.
        let long = "ſlovo → ".repeat(WARM_BYTES as usize / 8);
        for _ in 0..2 {
            assert!(pattern.find(&long).is_none());
        }
        assert!(pattern.loose.get().is_some_and(Option::is_some));
        // A short message does not: a hook that judges one prompt is not
        // made to compile every pattern's twin.
        let short = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        assert!(short.find("ſlovo → ſlovo").is_none());
        assert!(short.loose.get().is_none());
        assert!(pattern.find(&format!("{long} Codex said: ok")).is_some());
    }
}
