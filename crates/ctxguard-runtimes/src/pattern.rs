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
            loose_source: (loose != source).then_some(loose),
            loose: OnceLock::new(),
            asked: AtomicU32::new(0),
            passed: AtomicU32::new(0),
            bytes: AtomicU64::new(0),
            warmed_at: AtomicU32::new(u32::MAX),
            useless: AtomicBool::new(false),
        })
    }

    /// Whether the pattern can match `haystack`: `false` only when it
    /// cannot.
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

    /// As [`Regex::is_match`].
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        self.may_match(haystack) && self.exact.is_match(haystack)
    }

    /// As [`Regex::find`].
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Match<'h>> {
        self.may_match(haystack)
            .then(|| self.exact.find(haystack))
            .flatten()
    }

    /// As [`Regex::captures`].
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        self.may_match(haystack)
            .then(|| self.exact.captures(haystack))
            .flatten()
    }

    /// As [`Regex::find_iter`]: none at all where the twin says the
    /// pattern cannot match (the iterator searches only when asked).
    pub(crate) fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> Take<Matches<'r, 'h>> {
        let may = self.may_match(haystack);
        self.exact
            .find_iter(haystack)
            .take(if may { usize::MAX } else { 0 })
    }

    /// As [`Regex::captures_iter`] (see [`Pattern::find_iter`]).
    pub(crate) fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> Take<CaptureMatches<'r, 'h>> {
        let may = self.may_match(haystack);
        self.exact
            .captures_iter(haystack)
            .take(if may { usize::MAX } else { 0 })
    }

    /// As [`Regex::replace_all`].
    pub(crate) fn replace_all<'h, R: Replacer>(&self, haystack: &'h str, with: R) -> Cow<'h, str> {
        if self.may_match(haystack) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(empty.loose.get().is_some_and(Option::is_some));
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
        for _ in 0..3 * WARM {
            assert!(pattern.is_match(line));
        }
        assert!(pattern.useless.load(Ordering::Relaxed));
        assert!(!pattern.is_match("it→wes"));
    }

    #[test]
    fn a_pattern_asked_of_long_text_compiles_its_twin_within_a_few_asks() {
        let pattern = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        let long = "слово → ".repeat(WARM_BYTES as usize / 8);
        for _ in 0..2 {
            assert!(!pattern.is_match(&long));
        }
        assert!(pattern.loose.get().is_some_and(Option::is_some));
        // A short message does not: a hook that judges one prompt is not
        // made to compile every pattern's twin.
        let short = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        assert!(!short.is_match("слово → слово"));
        assert!(short.loose.get().is_none());
        assert!(pattern.is_match(&format!("{long} Codex said: ok")));
    }
}
