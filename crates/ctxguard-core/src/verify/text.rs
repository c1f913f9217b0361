//! Text as the audit (and the closest passage of an altered quote)
//! compares it, offline and without a model: sentences,
//! content words (lower case, light stemming, no stop words), and the
//! tokens whose change changes a commitment's meaning: identifiers and
//! numbers, negations, ordering words and scope words.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;
use unicode_segmentation::UnicodeSegmentation;

/// Identifiers (paths, dotted and snake names, flags, camelCase and
/// PascalCase names, codes of capitals and digits such as `LE101C2000001`,
/// issue numbers), URLs and numbers.
static IDENTIFIER: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    // Word boundaries are ASCII ones: what they stand beside is ASCII, and
    // a Unicode boundary makes the search leave the fast automaton on any
    // text that is not ASCII.
    Regex::new(r"https?://[^\s`'\x22)<>]+|#\d+(?-u:\b)|[A-Za-z0-9_~-]*(?:[./_\\][A-Za-z0-9_~-]+)+|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|-{1,2}[A-Za-z][\w-]*|(?-u:\b)[a-z]+[A-Z][A-Za-z0-9]*(?-u:\b)|(?-u:\b)[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(?-u:\b)|(?-u:\b)[A-Z]+[0-9][A-Z0-9]*(?-u:\b)|\d+(?:[.,:]\d+)*%?")
        .expect("the identifier pattern compiles")
});

/// The Snowball stemmer for English: `tests`/`test`, `modified`/`modify`.
static STEMMER: LazyLock<rust_stemmers::Stemmer> =
    LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));

const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "i",
    "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "so", "that", "the", "their",
    "them", "there", "these", "this", "those", "to", "us", "was", "we", "were", "will", "with",
    "you", "your", "it's", "i'm", "let's", "can", "should", "would", "could", "please", "also",
    "just", "ok", "okay", "user", "wants", "want", "said", "says", "asked", "if", "then", "than",
    "what", "which", "who", "when", "where", "how", "why", "do", "does", "did", "done", "been",
    "being", "am", "into", "out", "up", "about", "some", "any", "more", "very", "too", "here",
    "also", "like", "need", "needs", "make", "sure", "get", "got", "one", "thing", "things",
    "maybe", "think", "guess", "suppose", "would", "well", "yes", "now", "still", "actually",
    "instead", // German, for sessions typed in it.
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "und",
    "oder", "aber", "ist", "sind", "war", "wir", "ich", "du", "sie", "er", "es", "mit", "von",
    "zu", "zum", "zur", "auf", "für", "im", "in", "an", "am", "auch", "noch", "mal", "bitte",
    "dass", "da", "hier", "wie", "was", "wo", "wenn", "dann", "so", "schon", "nur", "mir", "mich",
    "dir", "dich", "uns", "man", "sich", "habe", "hast", "hat", "haben", "kannst", "kann",
    "können", "möchte", "will", "soll", "sollte", "muss", "werden", "wird",
];

/// [`STOP_WORDS`] and [`NEGATIONS`] as sets: every word of every text is
/// looked up in them (foldhash: short keys, hashed fast).
static STOP: LazyLock<foldhash::HashSet<&'static str>> =
    LazyLock::new(|| STOP_WORDS.iter().copied().collect());
static NEGATING: LazyLock<foldhash::HashSet<&'static str>> =
    LazyLock::new(|| NEGATIONS.iter().copied().collect());

const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "don't",
    "dont",
    "doesn't",
    "mustn't",
    "cannot",
    "can't",
    "without",
    "avoid",
    "neither",
    "nor",
    "won't",
    "shouldn't",
    "nicht",
    "kein",
    "keine",
    "nie",
    "niemals",
    "ohne",
];

const ORDERING: &[&str] = &[
    "before", "after", "first", "then", "until", "prior", "once", "last",
];

const SCOPE: &[&str] = &[
    "only", "all", "every", "each", "any", "except", "always", "none", "both",
];

/// A piece of text prepared for comparison.
#[derive(Clone, Debug, Default)]
pub struct Words {
    /// Content words, stemmed.
    pub content: BTreeSet<String>,
    /// Identifiers, URLs and numbers, as written (trailing punctuation cut).
    pub identifiers: BTreeSet<String>,
    /// Whether the text negates.
    pub negated: bool,
    /// Ordering words present.
    pub ordering: BTreeSet<&'static str>,
    /// Scope words present.
    pub scope: BTreeSet<&'static str>,
}

/// Whether a word in lower case, its apostrophes straight, says "not".
fn negates(lower: &str) -> bool {
    NEGATING.contains(lower) || lower.ends_with("n't")
}

/// The negation and the scope words a text puts beside some words
/// ([`Words::marks_near`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    pub negated: bool,
    pub scope: BTreeSet<&'static str>,
}

impl Words {
    pub fn of(text: &str) -> Words {
        let mut words = Words::default();
        for found in IDENTIFIER.find_iter(text) {
            let identifier = found.as_str().trim_end_matches(['.', ',', ':', ';', '-']);
            if !identifier.is_empty() {
                words.identifiers.insert(identifier.to_owned());
            }
        }
        // One buffer for each word's lower case, and one for a part's.
        let (mut lower, mut part_lower) = (String::new(), String::new());
        for word in unicode_words(text) {
            lower_into(&mut lower, word);
            if lower.contains('’') {
                lower = lower.replace('’', "'");
            }
            if negates(&lower) {
                words.negated = true;
                continue;
            }
            if let Some(w) = ORDERING.iter().find(|w| **w == lower) {
                words.ordering.insert(w);
            }
            if let Some(w) = SCOPE.iter().find(|w| **w == lower) {
                words.scope.insert(w);
            }
            // The parts of a name are words too: `defaultGetApiKey`,
            // `README.md`, `coding-agent`.
            for part in Parts::new(word) {
                lower_into(&mut part_lower, part);
                if part_lower.len() < 2
                    || STOP.contains(part_lower.as_str())
                    || part_lower.chars().all(|c| c.is_ascii_digit())
                {
                    continue;
                }
                add_stem(&mut words.content, &part_lower);
            }
        }
        words
    }

    /// Adds `other`'s words to these.
    pub fn extend(&mut self, other: &Words) {
        self.content.extend(other.content.iter().cloned());
        self.identifiers.extend(other.identifiers.iter().cloned());
        self.negated |= other.negated;
        self.ordering.extend(other.ordering.iter().copied());
        self.scope.extend(other.scope.iter().copied());
    }

    /// `text` with each of these identifiers (found in it) put as a space,
    /// the longest first: "4" taken out of "LE101C2000001 4" first would
    /// leave pieces of the code behind as words.
    pub fn without_identifiers(&self, text: &str) -> String {
        let mut names: Vec<&String> = self.identifiers.iter().collect();
        names.sort_by_key(|name| std::cmp::Reverse(name.len()));
        names
            .into_iter()
            .fold(text.to_owned(), |rest, id| rest.replace(id.as_str(), " "))
    }

    /// The negation and the scope words of `text` that stand within
    /// `near` words of one of `self`'s content words: what a passage says
    /// of the words it shares with a commitment, not of the rest of it
    /// ("Use Pydantic for validation" is not turned around by a passage
    /// that goes on about a class that does "not" retry).
    pub fn marks_near(&self, text: &str, near: usize) -> Marks {
        // Each word: a mark (negation, scope word) or whether it is one of
        // `self`'s, by its stem or a stem of one of its parts.
        enum Word {
            Negation,
            Scope(&'static str),
            Shared,
            Other,
        }
        let (mut lower, mut part_lower) = (String::new(), String::new());
        let read: Vec<Word> = unicode_words(text)
            .into_iter()
            .map(|word| {
                lower_into(&mut lower, word);
                if lower.contains('’') {
                    lower = lower.replace('’', "'");
                }
                if negates(&lower) {
                    return Word::Negation;
                }
                if let Some(w) = SCOPE.iter().find(|w| **w == lower) {
                    return Word::Scope(w);
                }
                let shared = Parts::new(word).any(|part| {
                    lower_into(&mut part_lower, part);
                    stem_in(&self.content, &part_lower)
                });
                if shared {
                    Word::Shared
                } else {
                    Word::Other
                }
            })
            .collect();
        let mut marks = Marks::default();
        for (at, word) in read.iter().enumerate() {
            let beside = || {
                read[at.saturating_sub(near)..(at + near + 1).min(read.len())]
                    .iter()
                    .any(|w| matches!(w, Word::Shared))
            };
            match word {
                Word::Negation if !marks.negated && beside() => marks.negated = true,
                Word::Scope(w) if !marks.scope.contains(w) && beside() => {
                    marks.scope.insert(w);
                }
                _ => {}
            }
        }
        marks
    }

    /// The share of `self`'s content words that `other` has, from 0 to 1.
    pub fn covered_by(&self, other: &Words) -> f64 {
        if self.content.is_empty() {
            return 0.0;
        }
        let shared = self.content.intersection(&other.content).count();
        shared as f64 / self.content.len() as f64
    }
}

/// The words of `text` as UAX #29 finds them (`unicode_words`): no word
/// runs across white space, so each stretch between spaces that is ASCII
/// (most of them, in a message with one curly quote) is cut by
/// [`AsciiWords`], without the tables.
fn unicode_words(text: &str) -> Vec<&str> {
    if text.is_ascii() {
        return AsciiWords { rest: text }.collect();
    }
    let mut words = Vec::new();
    for stretch in text.split(|c: char| c.is_ascii_whitespace()) {
        if stretch.is_ascii() {
            words.extend(AsciiWords { rest: stretch });
        } else {
            words.extend(stretch.unicode_words());
        }
    }
    words
}

/// The words of ASCII text as UAX #29 finds them (what `unicode_words`
/// yields), found without its tables: runs of letters, digits and `_`,
/// joined across one `.`, `'` or `:` between two letters (`README.md`,
/// `don't`) and one `.`, `,`, `;` or `'` between two digits (`3.14`,
/// `1,000`); only runs that hold a letter or a digit.
struct AsciiWords<'t> {
    rest: &'t str,
}

impl<'t> Iterator for AsciiWords<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let bytes = self.rest.as_bytes();
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let mut at = 0;
        loop {
            while at < bytes.len() && !word(bytes[at]) {
                at += 1;
            }
            if at == bytes.len() {
                self.rest = "";
                return None;
            }
            let start = at;
            at += 1;
            while at < bytes.len() {
                if word(bytes[at]) {
                    at += 1;
                    continue;
                }
                let (before, mark) = (bytes[at - 1], bytes[at]);
                let after = bytes.get(at + 1).copied().unwrap_or(0);
                let letters = before.is_ascii_alphabetic()
                    && after.is_ascii_alphabetic()
                    && matches!(mark, b'.' | b'\'' | b':');
                let digits = before.is_ascii_digit()
                    && after.is_ascii_digit()
                    && matches!(mark, b'.' | b',' | b';' | b'\'');
                if letters || digits {
                    at += 2;
                } else {
                    break;
                }
            }
            let found = &self.rest[start..at];
            if found.bytes().any(|b| b.is_ascii_alphanumeric()) {
                self.rest = &self.rest[at..];
                return Some(found);
            }
        }
    }
}

/// `word` in lower case, written into `into` (no new string for ASCII).
pub fn lower_into(into: &mut String, word: &str) {
    into.clear();
    if word.is_ascii() {
        into.push_str(word);
        into.make_ascii_lowercase();
    } else {
        // As `str::to_lowercase` does it (a final sigma is `ς`).
        into.push_str(&word.to_lowercase());
    }
}

/// What `read` answers of the stem of `word`: a word's stem is made once
/// a thread, and kept by the word it was made of.
fn with_stem<T>(word: &str, read: impl FnOnce(&str) -> T) -> T {
    STEMS.with(|stems| {
        if let Some(stem) = stems.borrow().get(word) {
            return read(stem);
        }
        let stem = STEMMER.stem(word).into_owned();
        let out = read(&stem);
        let mut stems = stems.borrow_mut();
        if stems.len() >= KEPT_STEMS {
            stems.clear();
        }
        stems.insert(word.to_owned(), stem);
        out
    })
}

/// Whether the stem of `word` is among `content`, with no new string for
/// a word whose stem is made already.
fn stem_in(content: &BTreeSet<String>, word: &str) -> bool {
    with_stem(word, |stem| content.contains(stem))
}

/// Adds the stem of `word` to `content`, allocating only for a stem not
/// there yet.
fn add_stem(content: &mut BTreeSet<String>, word: &str) {
    with_stem(word, |stem| {
        if !content.contains(stem) {
            content.insert(stem.to_owned());
        }
    });
}

/// The most stems a thread keeps: a session's vocabulary, and a bound on a
/// text of ever new words.
const KEPT_STEMS: usize = 1 << 16;

thread_local! {
    /// The stems this thread has made, by the word they were made of.
    static STEMS: std::cell::RefCell<foldhash::HashMap<String, String>> =
        std::cell::RefCell::default();
}

/// The parts of a word: split at marks inside it (`.`, `/`, `_`, `-`,
/// `:`) and where a lower-case letter meets an upper-case one.
struct Parts<'w> {
    /// The pieces of the word between its marks.
    pieces: std::str::Split<'w, fn(char) -> bool>,
    /// The piece being cut, from where its next part starts.
    piece: &'w str,
}

impl<'w> Parts<'w> {
    fn new(word: &'w str) -> Parts<'w> {
        let mark: fn(char) -> bool = |c| !c.is_alphanumeric() && c != '\'';
        Parts {
            pieces: word.split(mark),
            piece: "",
        }
    }
}

impl<'w> Iterator for Parts<'w> {
    type Item = &'w str;

    fn next(&mut self) -> Option<&'w str> {
        while self.piece.is_empty() {
            self.piece = self.pieces.next()?;
        }
        let piece = self.piece;
        let mut previous: Option<char> = None;
        for (at, c) in piece.char_indices() {
            if previous.is_some_and(char::is_lowercase) && c.is_uppercase() {
                self.piece = &piece[at..];
                return Some(&piece[..at]);
            }
            previous = Some(c);
        }
        self.piece = "";
        Some(piece)
    }
}

/// The sentences of `text`, with their byte ranges: sentence bounds (UAX
/// #29) and line breaks both end one, so a list item or a table row is a
/// sentence of its own. Markdown markers around them are left in place.
pub fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let mut at = offset;
        for sentence in sentence_bounds(line) {
            let trimmed = sentence.trim();
            if trimmed.chars().any(char::is_alphanumeric) {
                let lead = sentence.len() - sentence.trim_start().len();
                out.push((at + lead, trimmed));
            }
            at += sentence.len();
        }
        offset += line.len();
    }
    out
}

/// The pieces of `line` that sentence bounds (UAX #29) cut it into, as
/// `split_sentence_bounds` gives them. A line of ASCII with no `.`, `!`,
/// `?`, no carriage return and no line feed but at its end is one piece:
/// only after those does a sentence end; such a line (a heading, a list
/// item, a line of code) is given whole, without the tables.
pub fn sentence_bounds(line: &str) -> SentenceBounds<'_> {
    let body = line.strip_suffix('\n').unwrap_or(line);
    let whole = !line.is_empty()
        && line.is_ascii()
        && !body
            .bytes()
            .any(|b| matches!(b, b'.' | b'!' | b'?' | b'\r' | b'\n'));
    if whole {
        SentenceBounds::Whole(Some(line))
    } else {
        SentenceBounds::Cut(line.split_sentence_bounds())
    }
}

/// What [`sentence_bounds`] gives.
pub enum SentenceBounds<'t> {
    Whole(Option<&'t str>),
    Cut(unicode_segmentation::USentenceBounds<'t>),
}

impl<'t> Iterator for SentenceBounds<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        match self {
            SentenceBounds::Whole(line) => line.take(),
            SentenceBounds::Cut(bounds) => bounds.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line cut without the tables is cut as they cut it: lines of every
    /// sort, ASCII and not, with marks and without.
    #[test]
    fn a_line_is_cut_as_unicode_cuts_it() {
        let mut lines: Vec<String> = [
            "",
            "\n",
            "## Goal\n",
            "- keep old code\n",
            "no stop at all",
            "  spaced   out  \n",
            "a\tb (c) [d] \"e\" 'f'\n",
            "Keep it. Then go\n",
            "what? yes! ok\n",
            "v2.3.1 and e.g. this\n",
            "cr\r\n",
            "café au lait\n",
            "中文没有句号\n",
            "中文。还有\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // And lines of ASCII drawn from a fixed seed, every sign among them.
        let mut seed: u64 = 7;
        let mut next = |below: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        for _ in 0..5_000 {
            let len = next(40);
            let line: String = (0..len)
                .map(|_| char::from(b' ' + next(95) as u8))
                .collect();
            lines.push(line);
        }
        lines.extend(["what? yes\n", "a?b", "two\nparagraphs\n", "\n\n"].map(String::from));
        for line in &lines {
            assert_eq!(
                sentence_bounds(line).collect::<Vec<_>>(),
                line.split_sentence_bounds().collect::<Vec<_>>(),
                "{line:?}"
            );
        }
    }

    #[test]
    fn words_find_what_changes_meaning() {
        let words = Words::of("Do not drop columns from src/db/users.sql before v2.3.1.");
        assert!(words.negated);
        assert!(words.identifiers.contains("src/db/users.sql"));
        assert!(words.identifiers.contains("v2.3.1") || words.identifiers.contains("2.3.1"));
        assert!(words.ordering.contains("before"));
        assert!(words.content.contains("drop") && words.content.contains("column"));
        assert!(!Words::of("Drop the columns.").negated);
        // A Windows path is one too, so another folder is a drift.
        let windows = Words::of(r"The base code is in X:\03_ACG\odoo18 now.");
        assert!(
            windows
                .identifiers
                .iter()
                .any(|id| id.ends_with(r"\03_ACG\odoo18")),
            "{:?}",
            windows.identifiers
        );
        // A code of capitals and digits is one name, not its digits.
        let codes = Words::of("ship LE101C2000001 and MCSB1002001 as UTF8");
        for code in ["LE101C2000001", "MCSB1002001", "UTF8"] {
            assert!(codes.identifiers.contains(code), "{:?}", codes.identifiers);
        }
        assert!(!codes.identifiers.contains("101"));
    }

    #[test]
    fn sentences_end_at_line_breaks_too() {
        let text = "## Goal\n- Keep old code. Run tests first.\n";
        let found: Vec<&str> = sentences(text).into_iter().map(|(_, s)| s).collect();
        assert_eq!(found, ["## Goal", "- Keep old code.", "Run tests first."]);
    }
}
#[cfg(test)]
mod ascii_words {
    use proptest::prelude::*;
    use unicode_segmentation::UnicodeSegmentation;

    fn same(text: &str) {
        let fast: Vec<&str> = super::AsciiWords { rest: text }.collect();
        let uax: Vec<&str> = text.unicode_words().collect();
        assert_eq!(fast, uax, "{text:?}");
        assert_eq!(super::unicode_words(text), uax, "{text:?}");
    }

    #[test]
    fn words_of_text_in_any_script_are_those_of_uax_29() {
        for text in [
            "café’s README.md — don't “quote” 3.14 — 中文 words 日本語 a\u{301}b",
            "x \u{301}y, ‘it’s’ … e.g. ok\tnext\r\nline",
        ] {
            assert_eq!(
                super::unicode_words(text),
                text.unicode_words().collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn words_of_ascii_text_are_those_of_uax_29() {
        for text in [
            "README.md and don't, 3.14 or 1,000; a:b _x_ __init__ a.1 1.a 1a a1",
            "e.g. x.y.z ... 'quoted' it's 5'6 a''b 1..2 a::b 12:30 v1.2.3",
            "",
            "___ ... ,,, ''",
        ] {
            same(text);
        }
    }

    proptest! {
        #[test]
        fn any_ascii_text_is_cut_as_uax_29_cuts_it(text in r#"[ab1_.,;:' \n\t/()"x9-]{0,40}"#) {
            same(&text);
        }

        #[test]
        fn text_in_any_script_is_cut_as_uax_29_cuts_it(text in "[ab1_.,;:' \n\té’—中\u{301}\u{200d}-]{0,40}") {
            prop_assert_eq!(super::unicode_words(&text), text.unicode_words().collect::<Vec<_>>());
        }
    }
}
