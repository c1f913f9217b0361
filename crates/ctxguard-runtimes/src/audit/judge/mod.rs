//! What the buffer after a compaction holds of one commitment. Verbatim
//! means the unit stands there as a unit, with its polarity: a match inside
//! a longer word, or after a negation the user did not write, is no match.
//! A faithful quote with other spacing, case or punctuation, or cut short
//! with an ellipsis, is paraphrased. Otherwise the closest passage (one to
//! three pieces of the summary) decides: identifiers, paths, numbers and
//! URLs are judged as identifiers, byte for byte; content words as words.

// The summary's words, looked up for every commitment: foldhash.
use foldhash::{HashMap, HashMapExt};
use std::ops::Range;

use super::units::{self, Unit};
use super::{Evidence, Outcome};
use crate::verify::text::{Marks, Words};

mod compare;
#[cfg(test)]
mod tests;

use compare::*;
pub(crate) use compare::{carried_identifiers, changes, fold, same_identifier};

/// The buffer after a compaction, as commitments are looked for in it:
/// the summary, then the messages carried over. A paraphrase is looked
/// for in the summary and in the prose carried over, not in tool output,
/// which only shares words.
pub(crate) struct After {
    /// Everything the model sees after, for matches as written.
    all: String,
    /// `all` folded ([`fold`]), for quotes with other spacing or case.
    folded: String,
    /// The pieces of the prose after (sentences, list items, rows), each
    /// with its words.
    pieces: Vec<(String, Words)>,
    /// Each run of one to [`WINDOW`] pieces, by start then end: built once,
    /// however many commitments are judged against them. A run's words are
    /// its pieces' words, put together only for the run a commitment is
    /// found closest to.
    windows: Vec<Range<usize>>,
    /// Where the windows that start at each piece begin in `windows`.
    starts: Vec<usize>,
    /// The pieces that name something (a path, a number, a URL).
    named: Vec<usize>,
    /// The pieces each content word stands in.
    by_word: HashMap<String, Vec<usize>>,
    /// All the prose after, and its words, made when first asked for
    /// (only a commitment of several names found apart asks).
    prose: String,
    words: std::sync::OnceLock<Words>,
    /// The runs of bytes `all` and `folded` hold, to know without a search
    /// that most commitments do not stand in them.
    all_grams: Grams,
    folded_grams: Grams,
}

/// The words before a match that turn it around ("never use X" does not
/// hold "use X").
const FLIPS: &[&str] = &[
    "not",
    "never",
    "no",
    "don't",
    "dont",
    "doesn't",
    "didn't",
    "mustn't",
    "shouldn't",
    "won't",
    "cannot",
    "can't",
    "stop",
    "avoid",
    "without",
    "instead",
    "rather",
    "longer",
    "nicht",
    "kein",
    "keine",
    "nie",
];

/// What a loose quote found ([`After::quoted_loosely`]).
enum Loosely {
    Quoted(Evidence),
    /// Found only with a word before it that turns it around, and the
    /// piece it stands in.
    Flipped(String, String),
    No,
}

/// A commitment found with `word` before it in `sentence`, which turns it
/// around: altered.
fn turned_around(word: &str, sentence: String) -> (Outcome, Option<Evidence>) {
    (
        Outcome::Altered,
        Some(Evidence {
            sentence,
            similarity: 1.0,
            changes: vec![format!(
                "`{word}` stands before it: its meaning is turned around"
            )],
            diff: None,
        }),
    )
}

/// How far, in pieces of the summary, one commitment may be spread.
const WINDOW: usize = 3;

/// Below this share of its content words in the closest passage, nothing
/// carries a commitment.
const CARRIED: f64 = 0.6;
/// How near a negation or a scope word a passage adds must stand to a word
/// of the commitment to change it ("the scope word `all` was added").
const BESIDE: usize = 3;
/// From this share, a passage that carries every identifier of the
/// commitment carries the commitment.
const NAMED: f64 = 0.3;

impl After {
    /// The buffer a summary (with its units, made once for every check of
    /// it) and the messages carried over make; `prose` marks which carried
    /// messages are prose (not tool output).
    pub(crate) fn new<'t>(
        summary: &str,
        summary_units: &[Unit],
        carried: impl IntoIterator<Item = (&'t str, bool)>,
    ) -> After {
        let mut all = summary.to_owned();
        let mut prose_texts = vec![summary.to_owned()];
        for (text, prose) in carried {
            all.push('\n');
            all.push_str(text);
            if prose {
                prose_texts.push(text.to_owned());
            }
        }
        let mut pieces = Vec::new();
        let mut add = |text: &str, split: &[Unit]| {
            for unit in split {
                let piece = unit.text(text);
                pieces.push((piece.to_owned(), Words::of(piece)));
            }
        };
        add(summary, summary_units);
        for text in &prose_texts[1..] {
            add(text, &units::summary_units(text));
        }
        let prose = prose_texts.join("\n");
        let mut windows = Vec::with_capacity(pieces.len() * WINDOW);
        let mut starts = Vec::with_capacity(pieces.len() + 1);
        for start in 0..pieces.len() {
            starts.push(windows.len());
            let end = (start + WINDOW).min(pieces.len());
            windows.extend((start..end).map(|at| start..at + 1));
        }
        starts.push(windows.len());
        let named = (0..pieces.len())
            .filter(|&at| !pieces[at].1.identifiers.is_empty())
            .collect();
        let mut by_word: HashMap<String, Vec<usize>> = HashMap::new();
        for (at, (_, words)) in pieces.iter().enumerate() {
            for word in &words.content {
                by_word.entry(word.clone()).or_default().push(at);
            }
        }
        let folded = fold(&all);
        After {
            all_grams: Grams::of(&all),
            folded_grams: Grams::of(&folded),
            folded,
            all,
            pieces,
            windows,
            starts,
            named,
            by_word,
            prose,
            words: std::sync::OnceLock::new(),
        }
    }

    /// Whether `text` stands in the buffer after as written, as a unit.
    pub(crate) fn holds(&self, text: &str) -> bool {
        matches!(self.stands(text), Stands::Yes)
    }

    /// Where `text` stands in the buffer after, as a unit.
    fn stands(&self, text: &str) -> Stands {
        let text = unled(unnumbered(unmentioned(unquoted(text.trim()))));
        if text.is_empty() {
            return Stands::No;
        }
        let mut flipped = None;
        let found = self
            .all_grams
            .may_hold(text)
            .then(|| find_all(&self.all, text))
            .into_iter()
            .flatten();
        for at in found {
            if !bounded(&self.all, at.clone()) {
                continue;
            }
            match flip_before(&self.all, at.start, text) {
                None => return Stands::Yes,
                Some(word) => flipped = flipped.or(Some(word)),
            }
        }
        match flipped {
            Some(word) => Stands::Flipped(word),
            None => Stands::No,
        }
    }

    /// What became of a commitment of `text`; for a choice made in a
    /// question, `answer` is the question and the choice. (The audit keeps
    /// each commitment's words and asks [`After::judge_words`].)
    #[cfg(test)]
    pub(crate) fn judge(
        &self,
        text: &str,
        answer: Option<(&str, &str)>,
    ) -> (Outcome, Option<Evidence>) {
        self.judge_words(text, &Words::of(text), answer)
    }

    /// What became of a commitment of `text`, whose words the caller made
    /// once (a commitment is judged at every compaction after it); for a
    /// choice made in a question, `answer` is the question and the choice.
    pub(crate) fn judge_words(
        &self,
        text: &str,
        words: &Words,
        answer: Option<(&str, &str)>,
    ) -> (Outcome, Option<Evidence>) {
        if let Some((question, choice)) = answer {
            return self.judge_choice(question, choice);
        }
        let text = unthought(text);
        match self.stands(text) {
            Stands::Yes => return (Outcome::Verbatim, None),
            Stands::Flipped(word) => {
                return turned_around(&word, self.piece_with(text).unwrap_or_default())
            }
            Stands::No => {}
        }
        match self.quoted_loosely(text) {
            Loosely::Quoted(evidence) => return (Outcome::Paraphrased, Some(evidence)),
            Loosely::Flipped(word, sentence) => return turned_around(&word, sentence),
            Loosely::No => {}
        }
        self.closest(text, words)
    }

    /// A faithful quote with other spacing, case, quotes or emphasis (or
    /// one with a word before it that turns it around: "does not use
    /// Pydantic" for "Use Pydantic"); or its opening, cut short with an
    /// ellipsis.
    fn quoted_loosely(&self, text: &str) -> Loosely {
        let folded = fold(text);
        let folded = folded.trim_end_matches(['.', '!', ',', ';', ':', ' ']);
        if folded.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
            return Loosely::No;
        }
        let mut found = self
            .folded_grams
            .may_hold(folded)
            .then(|| find_all(&self.folded, folded))
            .into_iter()
            .flatten()
            .filter(|at| bounded(&self.folded, at.clone()));
        if let Some(first) = found.next() {
            // Most quotes have no word before them that could turn them
            // around, wherever they stand.
            let turned = |at: Range<usize>| flip_before(&self.folded, at.start, text).is_some();
            if !turned(first.clone()) || found.any(|at| !turned(at)) {
                return Loosely::Quoted(self.loose_quote(folded));
            }
            // Whether the word turns it around is read in the piece that
            // holds it: folding took the lines and quotes that end a clause.
            let mut flipped = None;
            for (piece, _) in &self.pieces {
                let piece_folded = fold(piece);
                for at in find_all(&piece_folded, folded) {
                    if !bounded(&piece_folded, at.clone()) {
                        continue;
                    }
                    match flip_before(&piece_folded, at.start, text) {
                        None => return Loosely::Quoted(self.loose_quote(folded)),
                        Some(word) => flipped = flipped.or(Some((word, one_line(piece)))),
                    }
                }
            }
            return match flipped {
                Some((word, piece)) => Loosely::Flipped(word, piece),
                // Across pieces.
                None => Loosely::Quoted(self.loose_quote(folded)),
            };
        }
        self.quoted_in_part(folded)
            .or_else(|| self.cut_short(folded))
            .map_or(Loosely::No, Loosely::Quoted)
    }

    fn loose_quote(&self, folded: &str) -> Evidence {
        Evidence {
            sentence: self.piece_with_folded(folded).unwrap_or_default(),
            similarity: 1.0,
            changes: vec!["quoted with other spacing, case or punctuation".to_owned()],
            diff: None,
        }
    }

    /// The opening of a loose quote, at least half of it and 40
    /// characters, cut short with an ellipsis.
    fn cut_short(&self, folded: &str) -> Option<Evidence> {
        // Cut short: at least half of it, and 40 characters, then `...`.
        let chars: Vec<(usize, char)> = folded.char_indices().collect();
        let half = (chars.len() / 2).max(40);
        if chars.len() <= half {
            return None;
        }
        let head = &folded[..chars[half].0];
        if !self.folded_grams.may_hold(head) {
            return None;
        }
        for at in find_all(&self.folded, head) {
            let mut end = at.end;
            // Extend the quote as far as it goes on.
            let rest = &folded[head.len()..];
            let after = &self.folded[end..];
            let common = rest
                .chars()
                .zip(after.chars())
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a.len_utf8())
                .sum::<usize>();
            end += common;
            let tail = self.folded[end..].trim_start();
            if tail.starts_with("...") || tail.starts_with('…') {
                return Some(Evidence {
                    sentence: self.piece_with_folded(head).unwrap_or_default(),
                    similarity: ((head.len() + common) as f64 / folded.len() as f64 * 100.0)
                        .round()
                        / 100.0,
                    changes: vec!["quoted in part, cut short with an ellipsis".to_owned()],
                    diff: None,
                });
            }
        }
        None
    }

    /// Most of the commitment quoted as written: its opening or its close,
    /// at least half of it and 40 characters, stands in the buffer after
    /// (the rest left out, or split off into a sentence of its own).
    fn quoted_in_part(&self, folded: &str) -> Option<Evidence> {
        let bounds: Vec<usize> = folded
            .char_indices()
            .map(|(at, _)| at)
            .chain([folded.len()])
            .collect();
        let least = (folded.len() / 2).max(40);
        if folded.len() <= least {
            return None;
        }
        let holds = |part: &str| {
            self.folded_grams.may_hold(part)
                && memchr::memmem::find(self.folded.as_bytes(), part.as_bytes()).is_some()
        };
        // The longest opening that stands, by bisection over character
        // bounds: if an opening stands, every shorter one does.
        let longest = |part_of: &dyn Fn(usize) -> Range<usize>| {
            let (mut low, mut high) = (0, bounds.len() - 1);
            while low < high {
                let mid = (low + high).div_ceil(2);
                if holds(&folded[part_of(mid)]) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
            part_of(low).len()
        };
        // A side whose shortest part long enough does not stand cannot
        // give the quote: one search instead of the bisection's dozen.
        let shortest_opening = bounds.iter().position(|&b| b >= least);
        let shortest_close = bounds.iter().rposition(|&b| folded.len() - b >= least);
        let side = |shortest: Option<usize>, part: &dyn Fn(usize) -> Range<usize>| {
            shortest.is_some_and(|n| holds(&folded[part(n)]))
        };
        let opening = if side(shortest_opening, &|n| 0..bounds[n]) {
            longest(&|n| 0..bounds[n])
        } else {
            0
        };
        let close = if side(shortest_close, &|n| bounds[n]..folded.len()) {
            longest(&|n| bounds[bounds.len() - 1 - n]..folded.len())
        } else {
            0
        };
        let quoted = opening.max(close);
        (quoted >= least).then(|| Evidence {
            sentence: self
                .piece_with_folded(if opening >= close {
                    &folded[..opening]
                } else {
                    &folded[folded.len() - close..]
                })
                .unwrap_or_default(),
            similarity: ((quoted as f64 / folded.len() as f64) * 100.0).round() / 100.0,
            changes: vec!["quoted in part".to_owned()],
            diff: None,
        })
    }

    /// A choice made in a question: kept when the option chosen stands in
    /// the buffer after as written (however the question is put); a short
    /// choice ("yes", "2", "Both") only beside the question's words.
    fn judge_choice(&self, question: &str, choice: &str) -> (Outcome, Option<Evidence>) {
        let whole = choice.trim();
        // Option labels carry remarks such as "(Recommended)": the choice
        // is the rest, and the label without them is the choice in other words.
        let choice = match whole.rsplit_once(" (") {
            Some((label, remark)) if remark.ends_with(')') => label.trim(),
            _ => whole,
        };
        // Several options picked at once ("skill文本优化, 知识沉淀审查"):
        // kept as written when each stands as written.
        let picked: Vec<&str> = whole
            .split(", ")
            .map(str::trim)
            .filter(|option| !option.is_empty())
            .collect();
        if picked.len() > 1
            && picked
                .iter()
                .all(|option| matches!(self.stands(option), Stands::Yes))
        {
            return (Outcome::Verbatim, None);
        }
        let words = Words::of(choice);
        let telling = words.content.len() >= 2
            || !words.identifiers.is_empty()
            || (words.content.len() == 1 && !GENERIC_CHOICES.contains(&fold(choice).as_str()));
        if telling {
            if choice != whole && matches!(self.stands(whole), Stands::Yes) {
                return (Outcome::Verbatim, None);
            }
            if choice != whole && matches!(self.stands(choice), Stands::Yes) {
                return (
                    Outcome::Paraphrased,
                    Some(Evidence {
                        sentence: self.piece_with(choice).unwrap_or_default(),
                        similarity: 1.0,
                        changes: vec![format!(
                            "the option stands without `{}`",
                            &whole[choice.len()..].trim()
                        )],
                        diff: None,
                    }),
                );
            }
            match self.stands(choice) {
                Stands::Yes => return (Outcome::Verbatim, None),
                Stands::Flipped(_) | Stands::No => {}
            }
            if let Loosely::Quoted(evidence) = self.quoted_loosely(choice) {
                return (Outcome::Paraphrased, Some(evidence));
            }
            return self.closest(choice, &Words::of(choice));
        }
        // A short choice means something only next to its question.
        let asked = Words::of(question);
        let folded_choice = fold(choice);
        let best = self
            .pieces
            .iter()
            .filter(|(piece, _)| {
                let folded = fold(piece);
                let found = find_all(&folded, &folded_choice).any(|at| bounded(&folded, at));
                found
            })
            .map(|(piece, words)| (asked.covered_by(words), piece))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((share, piece)) if share >= 0.4 => (
                Outcome::Paraphrased,
                Some(Evidence {
                    sentence: piece.clone(),
                    similarity: (share * 100.0).round() / 100.0,
                    changes: Vec::new(),
                    diff: None,
                }),
            ),
            _ => (Outcome::Lost, None),
        }
    }

    /// The closest passage after (one to [`WINDOW`] pieces), and whether it
    /// carries, changes or misses the commitment.
    fn closest(&self, text: &str, wanted: &Words) -> (Outcome, Option<Evidence>) {
        // Which of its content words each piece has, as bits: a window's
        // share is then the bits of its pieces, with no set compared (up to
        // 64 words; a longer commitment compares the sets).
        let content: Vec<&String> = wanted.content.iter().collect();
        let bits = content.len() <= 64;
        let mut has = vec![0u64; if bits { self.pieces.len() } else { 0 }];
        if bits {
            for (bit, word) in content.iter().enumerate() {
                for &at in self.by_word.get(*word).into_iter().flatten() {
                    has[at] |= 1 << bit;
                }
            }
        }
        let names = !wanted.identifiers.is_empty();
        let named = |at: usize| names && !self.pieces[at].1.identifiers.is_empty();
        // The names of the commitment that some piece of the run names.
        let carried = |range: &Range<usize>| {
            if !names {
                return 0;
            }
            wanted
                .identifiers
                .iter()
                .filter(|a| {
                    self.pieces[range.clone()]
                        .iter()
                        .any(|(_, piece)| piece.identifiers.iter().any(|b| same_identifier(a, b)))
                })
                .count()
        };
        // Which of the commitment's names each piece carries, as bits, when
        // it has at most 64: a run's count is then the bits of its pieces,
        // with no name compared again for every window the run holds.
        let ids: Vec<&String> = wanted.identifiers.iter().collect();
        let name_bits = bits && names && ids.len() <= 64;
        let mut carries = vec![0u64; if name_bits { self.pieces.len() } else { 0 }];
        if name_bits {
            for &at in &self.named {
                let piece = &self.pieces[at].1.identifiers;
                for (bit, a) in ids.iter().enumerate() {
                    if piece.iter().any(|b| same_identifier(a, b)) {
                        carries[at] |= 1 << bit;
                    }
                }
            }
        }
        let mut best: Option<(f64, Range<usize>)> = None;
        // A window's score, given how many of the commitment's names its
        // pieces carry (`None`: count them).
        let mut consider = |covered: f64, carrying: Option<usize>, range: Range<usize>| {
            let carrying = carrying.unwrap_or_else(|| carried(&range));
            let score = covered + 0.25 * share(carrying, wanted.identifiers.len())
                - 0.02 * (range.len() - 1) as f64;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, range));
            }
        };
        let counted = |mask: u64| name_bits.then_some(mask.count_ones() as usize);
        let carries_at = |at: usize| carries.get(at).copied().unwrap_or(0);
        if bits {
            // Every piece past the first costs: a window whose first or last
            // piece adds no word and names nothing scores less than the
            // window without it, so only windows that start on a piece that
            // shares a word (or names something) and end on one that adds a
            // word (or names something) are scored. The first piece alone
            // stands for them all when none shares a word.
            let of = |mask: u64| {
                if content.is_empty() {
                    0.0
                } else {
                    mask.count_ones() as f64 / content.len() as f64
                }
            };
            if let Some(&first) = has.first() {
                consider(of(first), counted(carries_at(0)), 0..1);
            }
            for start in 0..has.len() {
                if has[start] == 0 && !named(start) {
                    continue;
                }
                let (mut mask, mut carrying) = (0u64, 0u64);
                let run = has.iter().enumerate().skip(start).take(WINDOW);
                for (end, &bits) in run {
                    let adds = bits & !mask != 0 || named(end);
                    mask |= bits;
                    carrying |= carries_at(end);
                    if end == start || adds {
                        consider(of(mask), counted(carrying), start..end + 1);
                    }
                }
            }
        } else {
            // Only a window with a piece that shares a word with the
            // commitment (or names something, when it does) can score above
            // nothing; the first window stands for the rest.
            let mut touched: Vec<usize> = content
                .iter()
                .flat_map(|word| self.by_word.get(*word).into_iter().flatten().copied())
                .collect();
            if names {
                touched.extend(&self.named);
            }
            let mut candidate = vec![false; self.windows.len()];
            for &at in &touched {
                let from = self.starts[at.saturating_sub(WINDOW - 1)];
                let to = self.starts[at + 1];
                for (mark, range) in candidate[from..to].iter_mut().zip(&self.windows[from..to]) {
                    *mark |= range.contains(&at);
                }
            }
            if let Some(first) = candidate.first_mut() {
                *first = true;
            }
            let windows = self.windows.iter().zip(&candidate);
            for range in windows.filter(|(_, c)| **c).map(|(w, _)| w) {
                consider(
                    wanted.covered_by(&self.words_of(range)),
                    None,
                    range.clone(),
                );
            }
        }
        let Some((_, range)) = best else {
            return (Outcome::Lost, None);
        };
        let words = &self.words_of(&range);
        let passage = self.pieces[range]
            .iter()
            .map(|(piece, _)| piece.as_str())
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let carried = carried_identifiers(wanted, words);
        // A unit of names and numbers alone ("actually 100") is as close as
        // the share of them the passage names.
        let share_of = if wanted.content.is_empty() {
            share(carried, wanted.identifiers.len())
        } else {
            wanted.covered_by(words)
        };
        // Where the passage's negation and scope words stand is asked only
        // when it has one the commitment has not.
        let adds = (words.negated && !wanted.negated) || !words.scope.is_subset(&wanted.scope);
        let beside = if adds {
            wanted.marks_near(&passage, BESIDE)
        } else {
            Marks::default()
        };
        let mut changes = changes(wanted, words, &beside);
        // A value of the commitment's kind in its place carries the word
        // it replaced: what changed is the value.
        let (swaps, stands_for) = swapped(text, &passage);
        // "`TypeScript` is missing" and "`typescript` became
        // `javascript`": said once, as the value that changed.
        changes.retain(|change| {
            let missing = change
                .strip_suffix("` is missing")
                .map(|name| name.to_lowercase());
            !missing.is_some_and(|name| swaps.iter().any(|swap| swap.starts_with(&name)))
        });
        changes.extend(swaps);
        if wanted.ordering.iter().any(|w| LEADS.contains(w)) {
            changes.extend(reordered(text, wanted, &passage, words));
        }
        let share_of = if wanted.content.is_empty() {
            share_of
        } else {
            (share_of + stands_for as f64 / wanted.content.len() as f64).min(1.0)
        };
        let similarity = (share_of * 100.0).round() / 100.0;
        let names_all = !wanted.identifiers.is_empty() && carried == wanted.identifiers.len();
        let became = changes.iter().any(|c| c.contains("` became `"));
        // "do phase 3 and 6" is its numbers: a passage with none of them,
        // and no other in their place, speaks of something else.
        let names_none =
            !wanted.identifiers.is_empty() && carried == 0 && wanted.content.len() <= 2 && !became;
        let meaning_changed = !changes.is_empty();
        let outcome = if names_none {
            Outcome::Lost
        } else if !meaning_changed && (similarity >= CARRIED || (names_all && similarity >= NAMED))
        {
            Outcome::Paraphrased
        } else if meaning_changed
            && (similarity >= CARRIED
                || (carried * 2 > wanted.identifiers.len() && similarity >= NAMED))
            // A passage that shares two words of a longer commitment with
            // no names speaks of something else: its "not" or "only"
            // changes nothing of the user's ("can you render first how
            // that would look?" against a bug report that "did not look
            // right"). One with names is weighed by them ("Tools live in
            // core" alters "Move tools to core/tools.").
            // (Its scope words are not counted: "always respond in German"
            // is altered by "Respond in German".)
            && (!wanted.identifiers.is_empty() || {
                let (shared, own) = unmarked(wanted, words);
                shared + stands_for >= own.min(3)
            })
        {
            Outcome::Altered
        } else if names_all && self.spread(wanted) {
            Outcome::Paraphrased
        } else {
            Outcome::Lost
        };
        // One word or none besides its names, no name carried or turned into
        // another: too little to be found in other words ("cat
        // ./context.md" is not carried by a passage naming another file).
        // Asked only of what would otherwise be found.
        let enough = || {
            let besides_names = if wanted.identifiers.is_empty() {
                wanted.content.len()
            } else {
                Words::of(&wanted.without_identifiers(text)).content.len()
            };
            besides_names >= 2 || names_all || became
        };
        let outcome = if outcome == Outcome::Lost || enough() {
            outcome
        } else {
            Outcome::Lost
        };
        let diff = (outcome == Outcome::Altered)
            .then(|| crate::verify::difference::word_diff(text, &passage));
        let evidence = (similarity > 0.0).then(|| Evidence {
            sentence: passage,
            similarity,
            changes: if outcome == Outcome::Lost {
                Vec::new()
            } else {
                changes
            },
            diff,
        });
        (outcome, evidence)
    }

    /// The words of a run of pieces: theirs, put together.
    fn words_of(&self, run: &Range<usize>) -> Words {
        let mut words = Words::default();
        for (_, piece) in &self.pieces[run.clone()] {
            words.extend(piece);
        }
        words
    }

    /// Every one of at least two names of the commitment stands somewhere
    /// after (a list of files carried as a tree, a table).
    fn spread(&self, wanted: &Words) -> bool {
        wanted.identifiers.len() >= 2
            && carried_identifiers(wanted, self.words.get_or_init(|| Words::of(&self.prose)))
                == wanted.identifiers.len()
    }

    /// The piece of the summary that holds `text`, for evidence.
    fn piece_with(&self, text: &str) -> Option<String> {
        self.pieces
            .iter()
            .find(|(piece, _)| piece.contains(text))
            .map(|(piece, _)| one_line(piece))
    }

    fn piece_with_folded(&self, folded: &str) -> Option<String> {
        self.pieces
            .iter()
            .find(|(piece, _)| fold(piece).contains(folded))
            .map(|(piece, _)| one_line(piece))
    }
}
