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
/// PascalCase names, issue numbers), URLs and numbers.
static IDENTIFIER: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    // Word boundaries are ASCII ones: what they stand beside is ASCII, and
    // a Unicode boundary makes the search leave the fast automaton on any
    // text that is not ASCII.
    Regex::new(r"https?://[^\s`'\x22)<>]+|#\d+(?-u:\b)|[A-Za-z0-9_~-]*(?:[./_][A-Za-z0-9_~-]+)+|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+|-{1,2}[A-Za-z][\w-]*|(?-u:\b)[a-z]+[A-Z][A-Za-z0-9]*(?-u:\b)|(?-u:\b)[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*(?-u:\b)|\d+(?:[.,:]\d+)*%?")
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
/// looked up in them.
static STOP: LazyLock<std::collections::HashSet<&'static str>> =
    LazyLock::new(|| STOP_WORDS.iter().copied().collect());
static NEGATING: LazyLock<std::collections::HashSet<&'static str>> =
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

impl Words {
    pub fn of(text: &str) -> Words {
        let mut words = Words::default();
        for found in IDENTIFIER.find_iter(text) {
            let identifier = found.as_str().trim_end_matches(['.', ',', ':', ';', '-']);
            if !identifier.is_empty() {
                words.identifiers.insert(identifier.to_owned());
            }
        }
        for word in text.unicode_words() {
            let mut lower = word.to_lowercase();
            if lower.contains('’') {
                lower = lower.replace('’', "'");
            }
            if NEGATING.contains(lower.as_str()) || lower.ends_with("n't") {
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
            for part in parts(word) {
                let part = part.to_lowercase();
                if part.len() < 2
                    || STOP.contains(part.as_str())
                    || part.chars().all(|c| c.is_ascii_digit())
                {
                    continue;
                }
                words.content.insert(stem(&part));
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

    /// The share of `self`'s content words that `other` has, from 0 to 1.
    pub fn covered_by(&self, other: &Words) -> f64 {
        if self.content.is_empty() {
            return 0.0;
        }
        let shared = self.content.intersection(&other.content).count();
        shared as f64 / self.content.len() as f64
    }
}

/// A word's stem (Snowball, English): `tests`/`test` and
/// `dropped`/`drop` meet.
fn stem(word: &str) -> String {
    /// The most stems a thread keeps: a session's vocabulary, and a bound
    /// on a text of ever new words.
    const KEPT: usize = 1 << 16;
    thread_local! {
        static STEMS: std::cell::RefCell<std::collections::HashMap<String, String>> =
            std::cell::RefCell::default();
    }
    STEMS.with(|stems| {
        if let Some(stem) = stems.borrow().get(word) {
            return stem.clone();
        }
        let stem = STEMMER.stem(word).into_owned();
        let mut stems = stems.borrow_mut();
        if stems.len() >= KEPT {
            stems.clear();
        }
        stems.insert(word.to_owned(), stem.clone());
        stem
    })
}

/// The parts of a word: split at marks inside it (`.`, `/`, `_`, `-`,
/// `:`) and where a lower-case letter meets an upper-case one.
fn parts(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for piece in word.split(|c: char| !c.is_alphanumeric() && c != '\'') {
        let mut start = 0;
        let mut previous: Option<char> = None;
        for (at, c) in piece.char_indices() {
            if let Some(p) = previous {
                if p.is_lowercase() && c.is_uppercase() {
                    out.push(&piece[start..at]);
                    start = at;
                }
            }
            previous = Some(c);
        }
        if start < piece.len() {
            out.push(&piece[start..]);
        }
    }
    out
}

/// The sentences of `text`, with their byte ranges: sentence bounds (UAX
/// #29) and line breaks both end one, so a list item or a table row is a
/// sentence of its own. Markdown markers around them are left in place.
pub fn sentences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let mut at = offset;
        for sentence in line.split_sentence_bounds() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_find_what_changes_meaning() {
        let words = Words::of("Do not drop columns from src/db/users.sql before v2.3.1.");
        assert!(words.negated);
        assert!(words.identifiers.contains("src/db/users.sql"));
        assert!(words.identifiers.contains("v2.3.1") || words.identifiers.contains("2.3.1"));
        assert!(words.ordering.contains("before"));
        assert!(words.content.contains("drop") && words.content.contains("column"));
        assert!(!Words::of("Drop the columns.").negated);
    }

    #[test]
    fn sentences_end_at_line_breaks_too() {
        let text = "## Goal\n- Keep old code. Run tests first.\n";
        let found: Vec<&str> = sentences(text).into_iter().map(|(_, s)| s).collect();
        assert_eq!(found, ["## Goal", "- Keep old code.", "Run tests first."]);
    }
}
