//! Requirements a summary attributes to the user that nothing the user
//! said supports. Summaries restate what the user asked in their own
//! words all the time, so a sentence is only reported when it brings
//! something the user never brought:
//!
//! - under a heading that lists the user's rules ("User Preferences",
//!   "Constraints"), a rule whose words the user's messages hardly hold,
//!   or that names a command, path or value no user message names;
//! - anywhere, a sentence that says the user wanted, chose or confirmed
//!   something ("the user chose Redis") and names a command, path, value
//!   or quoted phrase that no user message holds — the agent's own
//!   decision presented as the user's.
//!
//! A quotation of the user ("the user said: "…"") that no message in the
//! file holds is not reported: session files do not record every message
//! the model saw. A message typed while the agent worked, one that
//! interrupted a tool call, the prompt that set off an automatic
//! compaction: real summaries quote each of these, word for word, from
//! files that hold none of them.
//!
//! Support is everything the user said in the session before the
//! compaction, across messages: "commit this" and later "push it" support
//! "the user asked to commit and push". An earlier summary is no support:
//! it may have invented the same thing.

use std::sync::LazyLock;

use super::judge::fold;
use super::units::{Shape, Unit};
use super::Invented;
use crate::pattern::Pattern;
use crate::verify::text::{lower_into, Words};

/// Headings under which a summary lists rules it says the user set: one
/// that names the user, or a bare "Constraints" — not "Firebase Storage
/// Rules", which names a subject.
static USER_HEADING: LazyLock<Pattern> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(&super::units::scripts(r"(?i)^(\W|\d)*((user|user's|users')\s+(\w|\s|[&/-])*?(preferences?|requirements?|constraints?|rules|instructions|decisions?|choices?)|(key\s+|hard\s+|important\s+|explicit\s+)?(preferences?|requirements?|constraints?|rules|instructions))\W*$"))
        .expect("the heading pattern compiles")
});

/// A label that names the user ("User Preferences", "user's rules").
static NAMES_USER: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)\busers?'?s?\b").expect("the user pattern compiles")
});

/// Sentences that attribute a requirement or a choice to the user; the
/// match ends where the attributed words start.
static ATTRIBUTED: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)\b(the )?user('s)? (explicitly |specifically |also |then |later )?(wants|wanted|prefers|preferred|requires|required|insists|insisted|expects|expected|requested|demands|demanded|likes|chose|decided|selected|approved|confirmed|specified|instructed|mandated|rejected|declined|vetoed|asked (me |you |claude |us )?(to|for))\b|\bper (the )?user'?s? (request|instruction|preference|choice|decision|direction)\b|\bas (the )?user (requested|asked|wanted|specified|decided|chose)\b")
        .expect("the attribution pattern compiles")
});

/// Where the words a sentence attributes to the user end: at a dash or a
/// sentence of the agent's own ("… - I created …").
static OWN_WORDS: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r"\s[-—–]\s|\.\s|;\s|:\s+I\b|,\s+(so|which|then|and)\s+I\b")
        .expect("the clause pattern compiles")
});

/// Text in quotes or backticks: what a sentence claims as exact.
static QUOTED: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r#"`([^`\n]{2,})`|"([^"\n]{2,})"|“([^”\n]{2,})”"#)
        .expect("the quote pattern compiles")
});

/// An aside in round brackets, not nested: see [`invented`].
static ASIDE: LazyLock<Pattern> = LazyLock::new(|| {
    #[allow(clippy::expect_used)]
    Pattern::new(r"\([^()\n]*\)").expect("the aside pattern compiles")
});

/// Below this share of its content words in what the user said, a rule
/// listed as the user's is unsupported.
const SUPPORTED: f64 = 0.34;
/// Below this share, a sentence that also names what the user never named
/// is unsupported.
const WEAKLY: f64 = 0.6;
/// How many of the user's messages may together support one requirement.
const TOGETHER: usize = 3;

/// Everything the user said in a session so far, as support for what a
/// summary attributes to them: each message's text and words, and what
/// the check reads of them all (their folded texts, their words together,
/// which language they are in, which messages hold each word), made once
/// for each message as the session goes on, not again at every
/// compaction.
#[derive(Default)]
pub(crate) struct Support {
    said: Vec<(String, Words)>,
    /// How many of the messages the rest has been made for.
    made: usize,
    folded: Vec<String>,
    all: Words,
    language: Language,
    by_word: foldhash::HashMap<String, Vec<usize>>,
    /// The words the user typed, as typed (for labels they misspelled),
    /// made only when a label is looked up, and for how many messages.
    tokens: std::cell::RefCell<(usize, std::collections::BTreeSet<String>)>,
}

impl Support {
    /// A message the user said, with its words.
    pub(crate) fn push(&mut self, text: String, words: Words) {
        self.said.push((text, words));
    }

    /// The rest made for every message said so far.
    fn made(&mut self) {
        for (at, (text, words)) in self.said.iter().enumerate().skip(self.made) {
            self.folded.push(fold(text));
            self.all.extend(words);
            self.language.add(text);
            for word in &words.content {
                match self.by_word.get_mut(word.as_str()) {
                    Some(held) => held.push(at),
                    None => {
                        self.by_word.insert(word.clone(), vec![at]);
                    }
                }
            }
        }
        self.made = self.said.len();
    }

    /// The words of every message, as typed and in lower case, of four
    /// letters or more.
    fn tokens(&self) -> std::cell::Ref<'_, std::collections::BTreeSet<String>> {
        {
            let mut tokens = self.tokens.borrow_mut();
            let (made, tokens) = &mut *tokens;
            for (text, _) in &self.said[*made..] {
                tokens.extend(
                    text.split(|c: char| !c.is_alphanumeric())
                        .filter(|word| word.chars().count() >= 4)
                        .map(str::to_lowercase),
                );
            }
            *made = self.said.len();
        }
        std::cell::Ref::map(self.tokens.borrow(), |(_, tokens)| tokens)
    }

    /// The share of `words` that the [`TOGETHER`] messages that hold most
    /// of it hold between them (the first said first, among equals).
    fn support(&self, words: &Words) -> f64 {
        if words.content.is_empty() {
            return 0.0;
        }
        let mut shared: foldhash::HashMap<usize, usize> = Default::default();
        for word in &words.content {
            for &at in self.by_word.get(word.as_str()).into_iter().flatten() {
                *shared.entry(at).or_default() += 1;
            }
        }
        let mut ranked: Vec<(usize, usize)> = shared.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let top: Vec<&Words> = ranked
            .iter()
            .take(TOGETHER)
            .map(|&(at, _)| &self.said[at].1)
            .collect();
        let held = words
            .content
            .iter()
            .filter(|word| top.iter().any(|user| user.content.contains(*word)))
            .count();
        held as f64 / words.content.len() as f64
    }
}

impl From<Vec<(String, Words)>> for Support {
    fn from(said: Vec<(String, Words)>) -> Support {
        Support {
            said,
            ..Support::default()
        }
    }
}

/// The summary's sentences (`summary`, split into `units`) that present as
/// the user's requirement or choice something the user's messages
/// (`support`) do not support.
pub(crate) fn invented(
    support: &mut Support,
    summary: &str,
    units: &[Unit],
    line: u64,
) -> Vec<Invented> {
    support.made();
    // Words can support words only in one language: a summary in English
    // of what the user typed in German shares none of them. The patterns
    // that find a claim are English's: a summary in another language, or
    // of words typed in one, is not judged.
    let same_language = support.language.english() && english([summary]);
    let support = &*support;
    let mut heading_is_user = false;
    let mut found = Vec::new();
    let pieces = units.iter().flat_map(|unit| {
        let text = unit.text(summary);
        // A long list item can hold several sentences: each is judged.
        let sentences: Vec<&str> = match unit.shape {
            Shape::Item => crate::verify::text::sentences(text)
                .into_iter()
                .map(|(_, s)| s)
                .collect(),
            _ => vec![text],
        };
        let shape = unit.shape;
        sentences.into_iter().map(move |s| (shape, s))
    });
    for (shape, text) in pieces {
        // A heading, or a short line ending in a colon (a label of a list).
        let label = shape == Shape::Sentence && text.ends_with(':') && text.len() < 80;
        if shape == Shape::Heading || label {
            heading_is_user = USER_HEADING.is_match(text);
            continue;
        }
        // "User Preferences: tabs over spaces" puts its heading inline; a
        // bare "Constraints: `valid_discount_value`" inline is a subject's
        // (a table's), not the user's.
        let inline = text.split_once(": ").is_some_and(|(label, _)| {
            label.len() < 40 && USER_HEADING.is_match(label) && NAMES_USER.is_match(label)
        });
        // A longer sentence that ends in a colon leads into what follows
        // and claims nothing itself ("**User's Changing Requirements**: The
        // user's intent evolved through several key moments:"); under its
        // label, what follows is the user's.
        if shape == Shape::Sentence && text.ends_with(':') {
            heading_is_user = inline;
            continue;
        }
        let under_user = heading_is_user || inline;
        // The words the sentence gives as the user's: after "the user
        // wanted", up to what the agent says it did.
        let claimed = match ATTRIBUTED.find(text) {
            Some(at) => {
                let rest = &text[at.end()..];
                let rest = OWN_WORDS
                    .find(rest)
                    .map_or(rest, |end| &rest[..end.start()]);
                // "Only runs wf, not mc (per user decision)": an
                // attribution that closes its sentence claims what
                // stands before it.
                Some(if Words::of(rest).content.len() < 2 {
                    trailing_claim(&text[..at.start()])
                } else {
                    rest
                })
            }
            // "**User decision**: I asked whether to (1) add … or (2) …":
            // the agent's account of what it asked, under the user's label;
            // what the user chose stands in a sentence of its own.
            None if under_user && !agent_asked(text) => Some(text),
            None => None,
        };
        let invented = claimed.is_some_and(|claimed| {
            let words = Words::of(claimed);
            if words.content.len() < 2 {
                return false;
            }
            let share = support.support(&words);
            // A name in an aside is the agent's note on the claim ("(now
            // installed as `frontend-design`)"), not a name it gives as the
            // user's; a model's reasoning tag left in its summary ("…
            // serving different purposes</think>") names nothing.
            let untagged = REASONING_TAG.replace_all(claimed, " ");
            let unheard = match ASIDE.replace_all(&untagged, " ") {
                std::borrow::Cow::Borrowed(_) if untagged == claimed => {
                    unheard(claimed, &words, &support.folded, &support.all)
                }
                plain => unheard(&plain, &Words::of(&plain), &support.folded, &support.all),
            };
            // A rule whose label the user gave is theirs.
            let labelled = under_user && label_heard(claimed, support);
            // A quotation of what the user did say is theirs; one of a
            // message the file may not hold is not judged.
            same_language
                && !quotes_said(claimed, &support.folded)
                && !quotes_at_length(claimed)
                && !labelled
                && ((under_user && share < SUPPORTED) || (unheard && share < WEAKLY))
        });
        if invented {
            let share = support.support(&Words::of(text));
            found.push(Invented {
                text: text.to_owned(),
                line,
                support: (share * 100.0).round() / 100.0,
            });
        }
    }
    found
}

/// What an attribution that closes a sentence ("…, not mc (per user
/// decision)", "… — as the user requested") claims: the sentence before
/// it, without the bracket, dash or comma that sets the attribution off,
/// and from the last of the agent's own sentences before it.
fn trailing_claim(before: &str) -> &str {
    let before = before.trim_end_matches(|c: char| c.is_whitespace() || "(,;—–-".contains(c));
    let from = OWN_WORDS
        .find_iter(before)
        .last()
        .map_or(0, |end| end.end());
    &before[from..]
}

/// Whether a sentence, after any inline label, tells what the agent asked
/// or offered the user: "I asked whether to …", "I proposed two options".
fn agent_asked(text: &str) -> bool {
    const ASKED: &[&str] = &[
        "i asked",
        "i offered",
        "i proposed",
        "i suggested",
        "i presented",
        "i recommended",
    ];
    let said = text.split_once(": ").map_or(text, |(_, said)| said);
    let said = said
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    ASKED.iter().any(|asked| {
        said.strip_prefix(asked)
            .is_some_and(|rest| rest.starts_with(' '))
    })
}

/// A rule listed as "**Label**: details" whose label the user's words
/// hold, or nearly (a misspelling within 0.9 Jaro–Winkler: "this project
/// should be upgrabale" for "**Upgradeable**: UUPS proxy pattern"): the
/// requirement is the user's, and the details are how the agent went
/// about it.
fn label_heard(text: &str, support: &Support) -> bool {
    static LABEL: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(&super::units::scripts(
            r"^\W*\*\*([^*:\n]{2,40})\*\*\s*:|^\W*\*\*([^*:\n]{2,40}):\*\*",
        ))
        .expect("the label pattern compiles")
    });
    let Some(label) = LABEL
        .captures(text)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
    else {
        return false;
    };
    let words = Words::of(label.as_str());
    if words.content.is_empty() {
        return false;
    }
    let heard = label
        .as_str()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .filter(|word| {
            let stems = Words::of(word).content;
            stems.iter().any(|stem| support.all.content.contains(stem))
                || (word.chars().count() >= 6 && {
                    let word = word.to_lowercase();
                    support
                        .tokens()
                        .iter()
                        .any(|said| strsim::jaro_winkler(&word, said) >= 0.9)
                })
        })
        .count();
    heard * 2 >= words.content.len()
}

/// Whether texts are written in English (see [`Language::english`]).
fn english<'t>(texts: impl IntoIterator<Item = &'t str>) -> bool {
    let mut language = Language::default();
    for text in texts {
        language.add(text);
    }
    language.english()
}

/// The words of texts that tell their language, counted.
#[derive(Debug, Default)]
struct Language {
    english: usize,
    other: usize,
    cjk: usize,
    other_alphabets: usize,
}

impl Language {
    /// Counts the words of `text`.
    fn add(&mut self, text: &str) {
        #[rustfmt::skip]
        const ENGLISH: &[&str] = &[
            "the", "to", "and", "of", "a", "in", "is", "it", "you", "that", "for", "on", "with",
            "this", "be", "are", "not", "we", "i", "can", "do", "should", "if", "so", "but",
        ];
        // German, Portuguese, Spanish, French, Indonesian.
        #[rustfmt::skip]
        const OTHER: &[&str] = &[
            "der", "die", "das", "und", "ist", "ich", "nicht", "mit", "zu", "ein", "eine", "wir", "auf",
            "für", "den", "dem", "auch", "o", "os", "as", "de", "do", "da", "que", "e", "é", "para",
            "um", "uma", "não", "com", "em", "no", "na", "el", "los", "las", "y", "es", "en", "por",
            "una", "le", "la", "les", "et", "est", "pour", "une", "dans", "pas", "du", "des", "qui",
            "yang", "yg", "dan", "di", "ke", "dari", "untuk", "ini", "itu", "dengan", "tidak", "ada",
            "saya", "aku", "nya", "juga", "atau", "bisa", "sudah", "akan", "jangan", "tolong", "klo",
            "kalau",
        ];
        /// Each function word, and whether it is English's (`ENGLISH`
        /// wins where both hold it: "do", "no"): every word of every
        /// message is looked up.
        static WORDS: LazyLock<foldhash::HashMap<&'static str, bool>> = LazyLock::new(|| {
            OTHER
                .iter()
                .map(|w| (*w, false))
                .chain(ENGLISH.iter().map(|w| (*w, true)))
                .collect()
        });
        self.cjk += text
            .chars()
            .filter(|&c| {
                matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}')
            })
            .count()
            / 2;
        let mut lower = String::new();
        for word in text
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| !w.is_empty())
        {
            // The longest function word has six letters, and a word
            // lowers to at least as many as it has: a longer one is none.
            if word.len() <= 6 * 4 {
                lower_into(&mut lower, word);
                match WORDS.get(lower.as_str()) {
                    Some(true) => {
                        self.english += 1;
                        continue;
                    }
                    Some(false) => {
                        self.other += 1;
                        continue;
                    }
                    None => {}
                }
            }
            // (An ASCII letter lowers to one.)
            if word
                .chars()
                .any(|c| !c.is_ascii() && c.to_lowercase().any(other_alphabet))
            {
                // A word of Russian, Greek, Arabic, Hebrew, Thai or Hindi:
                // half of them weigh as a function word does.
                self.other_alphabets += 1;
            }
        }
    }

    /// Whether the texts counted are written in English: more of
    /// English's commonest function words than of German's, Portuguese's,
    /// Spanish's, French's or Indonesian's, and than the words of Chinese,
    /// Japanese or Korean (one for every two of their characters),
    /// together. Code and paths hold few words of any language: only the
    /// function words of the languages say which one it is.
    fn english(&self) -> bool {
        self.english >= self.other + self.other_alphabets / 2 + self.cjk
    }
}

/// Whether the sentence names something exact — an identifier, a command
/// or phrase in backticks — that no user message names, even in parts.
fn unheard(text: &str, words: &Words, folded: &[String], all: &Words) -> bool {
    let named = |name: &str| {
        let name_folded = fold(name);
        folded.iter().any(|user| user.contains(&name_folded)) || {
            let parts = Words::of(name);
            !parts.content.is_empty() && parts.covered_by(all) >= 1.0
        }
    };
    let exact = QUOTED
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str().to_owned());
    let mut names = words
        .identifiers
        .iter()
        .filter(|id| exact_name(id))
        .cloned()
        .chain(exact);
    names.any(|name| !named(&name) && !RUNTIME_NAMES.contains(&name.to_lowercase().as_str()))
}

/// The runtime's own names, which a summary may use for how something
/// happened ("selected via AskUserQuestion").
const RUNTIME_NAMES: &[&str] = &[
    "askuserquestion",
    "exitplanmode",
    "todowrite",
    "bash",
    "read",
    "write",
    "edit",
    "multiedit",
    "grep",
    "glob",
    "task",
    "webfetch",
    "websearch",
    "notebookedit",
    "skill",
];

/// An identifier that names one exact thing: a file, a path, a version, a
/// code name — not words joined by a slash ("verification/enhancement").
fn exact_name(id: &str) -> bool {
    if !id.chars().any(char::is_alphabetic) {
        return false;
    }
    let camel = id
        .chars()
        .zip(id.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    id.contains("://")
        || id.starts_with(['/', '~', '-', '#'])
        || id
            .chars()
            .any(|c| c.is_ascii_digit() || c == '.' || c == '_')
        || id.matches('/').count() >= 2
        || camel
}

/// The tags a reasoning model writes around its thinking (`<think>`,
/// `</think>`), which can stand in the summary it wrote.
static REASONING_TAG: LazyLock<Pattern> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?i)</?(think|thinking|reasoning)>").expect("the tag pattern compiles")
});

/// Whether `c` is a letter of an alphabet other than Latin that the
/// audit's words of English and its neighbours do not hold: Greek,
/// Cyrillic, Hebrew, Arabic, Devanagari, Thai.
fn other_alphabet(c: char) -> bool {
    matches!(c, '\u{370}'..='\u{52f}' | '\u{590}'..='\u{6ff}' | '\u{900}'..='\u{97f}' | '\u{e00}'..='\u{e7f}')
}

/// What the sentence puts in quotation marks (not in backticks).
fn quotations(text: &str) -> impl Iterator<Item = &str> {
    QUOTED
        .captures_iter(text)
        .filter_map(|c| c.get(2).or_else(|| c.get(3)))
        .map(|m| m.as_str())
}

/// Whether the sentence quotes someone at length: four words or more in
/// quotation marks.
fn quotes_at_length(text: &str) -> bool {
    quotations(text).any(|quote| quote.split_whitespace().count() >= 4)
}

/// Whether the sentence quotes the user ("User said "B for now"") and
/// every quotation stands in what the user said.
fn quotes_said(text: &str, folded: &[String]) -> bool {
    let mut quotes = quotations(text).map(fold).peekable();
    quotes.peek().is_some() && quotes.all(|quote| folded.iter().any(|user| user.contains(&quote)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::units::summary_units;

    /// As [`super::invented`], against `said` alone.
    fn invented(said: &[(String, Words)], summary: &str, line: u64) -> Vec<Invented> {
        super::invented(
            &mut Support::from(said.to_vec()),
            summary,
            &summary_units(summary),
            line,
        )
    }

    fn said(messages: &[&str]) -> Vec<(String, Words)> {
        messages
            .iter()
            .map(|m| ((*m).to_owned(), Words::of(m)))
            .collect()
    }

    #[test]
    fn the_agents_account_of_what_it_asked_is_no_claim() {
        let said = said(&["2"]);
        let summary = "5. **User decision**: I asked whether to (1) add UiState/Effect to bottom of LoginViewModel.kt or (2) convert existing LoginResult into LoginEffect. User chose **option 2**.";
        assert!(invented(&said, summary, 1).is_empty());
        // What follows the label as the user's own is judged.
        let summary =
            "5. **User decision**: keep LoginResult and add a LoginEffect sealed interface.";
        assert_eq!(invented(&said, summary, 1).len(), 1);
    }

    #[test]
    fn an_aside_of_the_agents_is_not_part_of_the_claim() {
        let said = said(&[
            "Give me a code review and use typescript-lsp and frontend-plugin to analyze further.",
        ]);
        let summary = "The user specifically requested use of `typescript-lsp` and `frontend-plugin` (now installed as `frontend-design`, but requires a restart).";
        assert!(invented(&said, summary, 1).is_empty());
        let summary = "The user specifically requested `prettier` checks on every `stylelint` run (now installed).";
        assert_eq!(invented(&said, summary, 1).len(), 1);
    }

    #[test]
    fn a_reasoning_tag_left_in_the_summary_names_nothing() {
        let said = said(&[
            "pull another small model to work alongside: one model for code, one for reasoning",
        ]);
        let summary = "User wants to establish a multi-model system with different models serving different purposes</think>";
        assert!(invented(&said, summary, 1).is_empty());
        let summary = "User wants `codellama-7b` for code</think>";
        assert_eq!(invented(&said, summary, 1).len(), 1);
    }

    #[test]
    fn a_summary_in_english_of_words_typed_in_russian_is_not_judged() {
        let said = said(&[
            "вынеси проверку мобильного в утилиту и константу брейкпоинта, чтобы не дублировать в каждом компоненте",
            "проверь что сайдбар не блокирует контент на мобильном",
        ]);
        let summary = "User asked to extract `isMobile()` utility and breakpoint constant";
        assert!(invented(&said, summary, 1).is_empty());
        assert!(!english([
            "вынеси проверку мобильного в утилиту, `isMobile()` в файле utils"
        ]));
        // A word or two of Russian in English is English.
        assert!(english(["use the спасибо helper in the utils file"]));
        // A word is told by its lower case: the Ohm sign lowers to omega.
        assert!(!english([
            "\u{2126}\u{2126} \u{2126}\u{2126} \u{2126}\u{2126} \u{2126}\u{2126} the"
        ]));
        // Counted a message at a time, as all at once.
        let mut language = Language::default();
        for text in ["the build", "der Test", "und die"] {
            language.add(text);
        }
        assert_eq!(
            language.english(),
            english(["the build", "der Test", "und die"])
        );
        assert!(!language.english());
    }

    #[test]
    fn support_is_looked_for_across_messages() {
        let summary = "## User Preferences\n- The user requested committing and pushing the release.\n- `npm run check` must pass before every commit.\n";
        let found = invented(&said(&["commit this release", "now push it"]), summary, 9);
        let texts: Vec<&str> = found.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts, ["`npm run check` must pass before every commit."]);
    }

    #[test]
    fn the_agents_decision_presented_as_the_users() {
        let summary =
            "Key decisions:\n- User chose `redis-7.2` with `allkeys-lru` eviction for caching.\n";
        assert_eq!(
            invented(&said(&["make the app faster"]), summary, 1).len(),
            1
        );
        assert!(invented(
            &said(&["use redis-7.2 with allkeys-lru eviction for caching"]),
            summary,
            1
        )
        .is_empty());
    }

    #[test]
    fn a_restatement_in_other_words_is_no_invention() {
        let summary = "1. Primary Request and Intent: The user wanted to ssh into their router and check docker status.\n";
        assert!(invented(&said(&["ssh into my router", "docker status"]), summary, 1).is_empty());
    }

    #[test]
    fn a_quotation_the_file_does_not_hold_is_not_an_invention() {
        // The prompt that set off the compaction, which the file never
        // recorded, quoted as the user's last message.
        let summary = "31. User's last message: \"lets update Cargo.toml to -dev4 and amend it\"\n";
        assert!(invented(&said(&["release it"]), summary, 1).is_empty());
    }

    #[test]
    fn a_rule_whose_label_the_user_gave_is_theirs_and_its_details_the_agents() {
        let summary = "## User Requirements\n- **Upgradeable**: `UUPS` proxy pattern for all core contracts\n- **Compliance**: 5-tier KYC system with geographic restrictions\n- **Gas budget**: `300k` per call\n";
        let user = said(&[
            "instruction 4, this project should be upgrabale",
            "Full compliance suite",
        ]);
        let texts: Vec<String> = invented(&user, summary, 1)
            .into_iter()
            .map(|i| i.text)
            .collect();
        assert_eq!(texts, ["**Gas budget**: `300k` per call"]);
    }

    #[test]
    fn a_summary_in_english_of_what_was_typed_in_chinese_is_not_judged() {
        let summary = "- User decision: use /upload endpoint with unchanged parameters\n";
        let user = said(&["上传接口用原来的参数，不要改", "用pnpm"]);
        assert!(invented(&user, summary, 1).is_empty());
    }

    #[test]
    fn constraints_of_a_table_are_not_the_users() {
        let summary = "- `supabase/migrations/0001_discount_rules.sql`\n  - Creates `discount_rules` table\n  - Constraints: `per_product_needs_product`, `valid_discount_value`\n- User constraints: `pnpm` only, never `npm`\n";
        let texts: Vec<String> = invented(&said(&["add discount rules"]), summary, 1)
            .into_iter()
            .map(|i| i.text)
            .collect();
        assert_eq!(texts, ["User constraints: `pnpm` only, never `npm`"]);
    }

    #[test]
    fn a_summary_in_english_of_what_was_typed_in_indonesian_is_not_judged() {
        let summary = "- The user requested a website redesign for KasirKu (a SaaS POS).\n";
        let user = said(&["redesain tampilan kasirku, buatkan beberapa contoh gambar tampilan dari beberapa website,jangan hanya satu"]);
        assert!(invented(&user, summary, 1).is_empty());
    }

    #[test]
    fn an_attribution_that_closes_a_sentence_claims_what_stands_before_it() {
        let said = said(&["run the walk-forward check on every coin"]);
        let summary = "- `backtest.py` only runs `wf`, not `mc` (per user decision)\n";
        assert_eq!(invented(&said, summary, 1).len(), 1);
        let summary = "- The walk-forward check runs on every coin, as the user requested.\n";
        assert!(invented(&said, summary, 1).is_empty());
        assert_eq!(
            trailing_claim("I fixed it. Only runs `wf`, not `mc` ("),
            "Only runs `wf`, not `mc`"
        );
        // A rejection is a choice of the user's too.
        let summary = "- User rejected `pricing-2026.md` from the consultant\n";
        assert_eq!(invented(&said, summary, 1).len(), 1);
    }

    #[test]
    fn a_sentence_that_leads_into_a_list_claims_nothing_itself() {
        let said = said(&["Continue Phase 1 agent integration."]);
        let summary = "Summary:\n**User's Changing Requirements**: The user's intent evolved through several key moments:\n- Continue Phase 1 agent integration.";
        assert!(invented(&said, summary, 9).is_empty());
        // What its label puts under the user is still judged.
        let summary = "**User's Changing Requirements**: The user's intent evolved through several key moments:\n- Always deploy on Fridays with the staging database.";
        assert_eq!(invented(&said, summary, 9).len(), 1);
    }
}
