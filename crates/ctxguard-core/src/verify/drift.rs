//! Identifier drift: a summary that names a variant of a pinned identifier
//! (`parser.py` for `src/legacy/parser_v2.py`). Pinned identifiers are
//! indexed once, so each summary word costs a few hash look-ups.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

// Every summary word is looked up: foldhash, seeded per process (the words
// and identifiers are untrusted input), not SipHash.
use foldhash::{HashMap, HashMapExt};

use rapidfuzz::distance::levenshtein;
use regex::Regex;

/// `_v2`, `-v3`, `2`, `_old`, `-new`: what a summarizer drops or invents.
/// Compiled once per process: a constant pattern, so it always compiles.
static VERSION: std::sync::LazyLock<Option<Regex>> = std::sync::LazyLock::new(|| {
    Regex::new(r"(?i)([_-]?v?\d+|[_-](old|new|legacy|copy|backup|final|tmp))$").ok()
});

/// Character pairs the edit-distance rule may compare in one verification:
/// past it, the rule stops (and says so), so ten thousand pinned paths
/// against ten thousand summary words stay within a fraction of a second.
pub const EDIT_BUDGET: u64 = 50_000_000;

/// A commitment whose content is one identifier-like token.
#[derive(Debug)]
pub struct Pinned {
    pub text: String,
    pub region: usize,
}

/// How a word in a summary resembles a pinned identifier.
#[derive(Debug)]
pub struct Drift<'a> {
    pub word: String,
    pub pinned: &'a Pinned,
    pub reason: String,
}

pub struct DriftIndex {
    pinned: Vec<Pinned>,
    /// Each pinned identifier, and each file name of a pinned path: one
    /// look-up a summary word.
    names: HashMap<String, Named>,
    /// Hashes of the ends of each path (`legacy/parser_v2.py`), so a deep
    /// path costs one entry a component, not its length squared.
    suffix: HashMap<u64, Vec<usize>>,
    hasher: foldhash::fast::FixedState,
    stem: HashMap<(String, String), Vec<usize>>,
    /// (length, first character) -> identifiers, for the edit-distance rule.
    shape: HashMap<(usize, char), Vec<usize>>,
    /// What is left of [`EDIT_BUDGET`] for the searches in turn.
    budget: AtomicU64,
    /// What is left of [`EDIT_BUDGET`] for the searches asked ahead, on
    /// another core ([`DriftIndex::find_ahead`]): together they compare no
    /// more than the searches in turn may.
    ahead: AtomicU64,
}

/// What a word names among the pinned identifiers.
#[derive(Debug, Default)]
struct Named {
    /// A pinned identifier is this word.
    pinned: bool,
    /// The first pinned path whose file name this word is.
    file_name_of: Option<usize>,
}

/// Is `text` one token that names something: no whitespace, at least 3 characters.
pub fn is_identifier_like(text: &str) -> bool {
    let count = text.chars().count();
    (3..=300).contains(&count) && !text.chars().any(char::is_whitespace)
}

/// Whether `c` stands between two words of a summary: whitespace, quotes,
/// brackets and the punctuation around names (`,`, `;`). An ASCII
/// character is looked up in a table of them.
fn separates(c: char) -> bool {
    const ASCII: u128 = {
        let mut table = 0u128;
        let marks = b" \t\n\x0B\x0C\r`\"'()[]{},;<>";
        let mut i = 0;
        while i < marks.len() {
            table |= 1 << marks[i];
            i += 1;
        }
        table
    };
    match u8::try_from(c) {
        Ok(byte) if byte.is_ascii() => ASCII >> byte & 1 == 1,
        _ => c.is_whitespace(),
    }
}

fn has_marks(word: &str) -> bool {
    word.chars().any(|c| !c.is_alphabetic())
}

impl DriftIndex {
    pub fn new(pinned: Vec<Pinned>) -> Self {
        let mut index = DriftIndex {
            pinned: Vec::new(),
            names: HashMap::new(),
            suffix: HashMap::new(),
            stem: HashMap::new(),
            shape: HashMap::new(),
            hasher: foldhash::fast::FixedState::default(),
            budget: AtomicU64::new(EDIT_BUDGET),
            ahead: AtomicU64::new(EDIT_BUDGET),
        };
        for (i, pin) in pinned.iter().enumerate() {
            let text = pin.text.as_str();
            index.names.entry(text.to_owned()).or_default().pinned = true;
            if let Some((_, base)) = text.rsplit_once('/') {
                if base.len() >= 3 {
                    let named = index.names.entry(base.to_owned()).or_default();
                    named.file_name_of.get_or_insert(i);
                }
                let mut rest = text;
                while let Some((_, tail)) = rest.split_once('/') {
                    if tail.contains('/') {
                        let key = index.hasher.hash_one(tail);
                        let entry = index.suffix.entry(key).or_default();
                        if entry.last() != Some(&i) {
                            entry.push(i);
                        }
                    }
                    rest = tail;
                }
            }
            if let Some(key) = Self::stem_key(text) {
                index.stem.entry(key).or_default().push(i);
            }
            if let Some(first) = text.chars().next() {
                if text.chars().count() >= 6 && has_marks(text) {
                    index
                        .shape
                        .entry((text.chars().count(), first))
                        .or_default()
                        .push(i);
                }
            }
        }
        index.pinned = pinned;
        index
    }

    pub fn is_empty(&self) -> bool {
        self.pinned.is_empty()
    }

    /// Whether the edit-distance rule stopped at [`EDIT_BUDGET`].
    pub fn exhausted(&self) -> bool {
        self.budget.load(Ordering::Relaxed) == 0
    }

    /// `parser_v2.py` -> (`parser`, `py`), from the last path component.
    fn stem_key(text: &str) -> Option<(String, String)> {
        let base = text.rsplit('/').next()?;
        let (stem, ext) = base.rsplit_once('.')?;
        let stem = match VERSION.as_ref() {
            Some(version) => version.replace(stem, ""),
            None => stem.into(),
        };
        (!stem.is_empty() && !ext.is_empty()).then(|| (stem.to_lowercase(), ext.to_lowercase()))
    }

    /// Every word of `summary` that is a variant of a pinned identifier,
    /// once each, within what is left of the edit budget.
    pub fn find<'a>(&'a self, summary: &str) -> Vec<Drift<'a>> {
        // Once a comparison does not fit, none does: the rule has stopped.
        let budget = &self.budget;
        self.find_within(summary, &mut |cost| {
            let left = budget.load(Ordering::Relaxed);
            let fits = cost <= left;
            budget.store(if fits { left - cost } else { 0 }, Ordering::Relaxed);
            fits
        })
    }

    /// What [`DriftIndex::find`] finds in `summary`, asked ahead of the
    /// summaries before it (on any core), and what its edit-distance rule
    /// spends of the budget: what `find` finds in turn whenever that much
    /// is left ([`DriftIndex::spend`]). `None` once the searches asked
    /// ahead have spent a budget's worth between them: the summary is
    /// searched in turn.
    pub fn find_ahead<'a>(&'a self, summary: &str) -> Option<(Vec<Drift<'a>>, u64)> {
        let (mut spent, mut cut) = (0, false);
        let found = self.find_within(summary, &mut |cost| {
            let taken = (self.ahead)
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                    left.checked_sub(cost)
                })
                .is_ok();
            spent += cost;
            cut |= !taken;
            taken
        });
        (!cut).then_some((found, spent))
    }

    /// Takes `spent` from the budget if that much is left: then a search
    /// asked ahead found what one in turn would.
    pub fn spend(&self, spent: u64) -> bool {
        let left = self.budget.load(Ordering::Relaxed);
        let enough = spent <= left;
        if enough {
            self.budget.store(left - spent, Ordering::Relaxed);
        }
        enough
    }

    /// The variants in `summary`; `take(cost)` says whether an edit-distance
    /// comparison of `cost` character pairs may be made.
    fn find_within<'a>(
        &'a self,
        summary: &str,
        take: &mut impl FnMut(u64) -> bool,
    ) -> Vec<Drift<'a>> {
        let mut found: Vec<Drift> = Vec::new();
        let words = (summary.split(separates))
            .map(|word| word.trim_end_matches(['.', ':', '!', '?']))
            .filter(|word| word.len() >= 3 && (word.is_ascii() || word.chars().count() >= 3));
        for word in words {
            let named = self.names.get(word);
            if named.is_some_and(|n| n.pinned) || found.iter().any(|d| d.word == word) {
                continue;
            }
            if let Some(drift) = self.variant(word, named, take) {
                found.push(drift);
            }
        }
        found
    }

    fn variant(
        &self,
        word: &str,
        named: Option<&Named>,
        take: &mut impl FnMut(u64) -> bool,
    ) -> Option<Drift<'_>> {
        let drift = |i: usize, reason: String| {
            self.pinned.get(i).map(|pinned| Drift {
                word: word.to_owned(),
                pinned,
                reason,
            })
        };
        if let Some(i) = named.and_then(|n| n.file_name_of) {
            return drift(i, "its file name without the path".to_owned());
        }
        // A word of letters alone has no path, no extension and no marks:
        // only its file name is looked for (most words of a summary).
        if word.bytes().all(|b| b.is_ascii_alphabetic()) {
            return None;
        }
        if word.contains('/') {
            let ends_with = |i: &usize| {
                self.pinned.get(*i).is_some_and(|pin| {
                    pin.text
                        .strip_suffix(word)
                        .is_some_and(|head| head.ends_with('/'))
                })
            };
            let key = self.hasher.hash_one(word);
            if let Some(&i) = self
                .suffix
                .get(&key)
                .into_iter()
                .flatten()
                .find(|i| ends_with(i))
            {
                return drift(i, "the end of its path".to_owned());
            }
        }
        if let Some(key) = Self::stem_key(word) {
            if let Some(&i) = self.stem.get(&key).and_then(|v| v.first()) {
                return drift(i, "the same name with another version or suffix".to_owned());
            }
        }
        let len = word.chars().count();
        let first = word.chars().next()?;
        if len >= 6 && has_marks(word) {
            for candidate_len in len.saturating_sub(2)..=len + 2 {
                for &i in self
                    .shape
                    .get(&(candidate_len, first))
                    .into_iter()
                    .flatten()
                {
                    let pinned = &self.pinned.get(i)?.text;
                    if !take((len * pinned.len()) as u64) {
                        return None;
                    }
                    let distance = levenshtein::distance_with_args(
                        word.chars(),
                        pinned.chars(),
                        &levenshtein::Args::default().score_cutoff(2),
                    );
                    if let Some(distance @ 1..=2) = distance {
                        let s = if distance == 1 { "" } else { "s" };
                        return drift(i, format!("{distance} character{s} away from it"));
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words are told apart by the table just as by the list of marks and
    /// `char::is_whitespace`, for every character.
    #[test]
    fn words_are_separated_as_the_marks_say() {
        let listed = |c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    '`' | '"' | '\'' | '(' | ')' | '[' | ']' | '{' | '}' | ',' | ';' | '<' | '>'
                )
        };
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(separates(c), listed(c), "{c:?}");
        }
    }

    fn index(texts: &[&str]) -> DriftIndex {
        DriftIndex::new(
            texts
                .iter()
                .enumerate()
                .map(|(i, t)| Pinned {
                    text: t.to_string(),
                    region: i,
                })
                .collect(),
        )
    }

    fn reasons(index: &DriftIndex, summary: &str) -> Vec<(String, String)> {
        index
            .find(summary)
            .into_iter()
            .map(|d| (d.word, d.reason))
            .collect()
    }

    #[test]
    fn finds_each_kind_of_variant() {
        let idx = index(&["src/legacy/parser_v2.py", "ACC-00123456"]);
        assert_eq!(
            reasons(&idx, "parser_v2.py normalizes"),
            [(
                "parser_v2.py".into(),
                "its file name without the path".into()
            )]
        );
        assert_eq!(
            reasons(&idx, "see legacy/parser_v2.py."),
            [("legacy/parser_v2.py".into(), "the end of its path".into())]
        );
        assert_eq!(
            reasons(&idx, "parser.py normalizes"),
            [(
                "parser.py".into(),
                "the same name with another version or suffix".into()
            )]
        );
        assert_eq!(
            reasons(&idx, "account ACC-00123465 refunded"),
            [("ACC-00123465".into(), "2 characters away from it".into())]
        );
        assert!(reasons(&idx, "src/legacy/parser_v2.py normalizes every field").is_empty());
        assert!(reasons(&idx, "the parser normalizes fields").is_empty());
    }

    /// The searches asked ahead compare no more between them than one
    /// budget: past it, each summary is left to be searched in turn.
    #[test]
    fn searches_asked_ahead_share_one_budget() {
        let pinned: Vec<String> = (0..100).map(|i| format!("src/m{i:03}/file.rs")).collect();
        let idx = index(&pinned.iter().map(String::as_str).collect::<Vec<_>>());
        // Near misses of the same shape: each word is compared with every one.
        let summary: String = (0..100).map(|i| format!("src/m{i:03}/filx.rz ")).collect();
        let (found, spent) = idx.find_ahead(&summary).expect("within the budget");
        assert_eq!(found.len(), 100);
        assert!(spent > 0);
        let searches = EDIT_BUDGET / spent;
        for _ in 1..searches {
            assert!(idx.find_ahead(&summary).is_some());
        }
        assert!(idx.find_ahead(&summary).is_none());
        assert!(idx.find_ahead(&summary).is_none());
        // The budget of the searches in turn is untouched: they find it all.
        assert_eq!(idx.find(&summary).len(), 100);
    }

    proptest::proptest! {
        /// The bounded distance the rule asks for is the full Levenshtein
        /// distance whenever that is 2 or less, and nothing otherwise.
        #[test]
        fn bounded_distance_is_levenshtein_up_to_two(
            a in "[ab/_é0-9]{0,12}",
            b in "[ab/_é0-9]{0,12}",
        ) {
            let bounded = levenshtein::distance_with_args(
                a.chars(),
                b.chars(),
                &levenshtein::Args::default().score_cutoff(2),
            );
            let full = strsim::levenshtein(&a, &b);
            proptest::prop_assert_eq!(bounded, (full <= 2).then_some(full));
        }
    }
}
