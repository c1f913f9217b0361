//! Comparing a commitment with a passage of the summary: where it stands
//! as a unit, folded text, identifiers byte for byte, and the words that
//! changed.

use super::*;
use crate::pattern::Pattern;
use std::sync::LazyLock;

/// A passage as evidence shows it: its white space folded to single spaces.
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Choices that say nothing without their question.
pub(super) const GENERIC_CHOICES: &[&str] = &[
    "yes", "no", "ok", "okay", "sure", "both", "all", "none", "neither", "either", "other", "skip",
    "later", "now", "first", "second", "third", "default", "ja", "nein", "beide", "alle", "keine",
];

/// Where a commitment stands after.
pub(super) enum Stands {
    Yes,
    /// Only after a word that turns it around.
    Flipped(String),
    No,
}

/// Which runs of four bytes a text holds, as the bits of their hashes: a
/// needle with a run the text does not hold does not stand in it, which
/// is known without building a searcher for it. (A judgment asks whether
/// each of a thousand commitments stands in one summary, and most do not.)
pub(super) struct Grams {
    bits: Vec<u64>,
    mask: usize,
}

impl Grams {
    pub(super) fn of(text: &str) -> Grams {
        // About eight bits a run, so that a run not held is seldom taken
        // for one that is.
        let size = (text.len() * 8).next_power_of_two().clamp(1 << 12, 1 << 24);
        let mut bits = vec![0u64; size / 64];
        let mask = size - 1;
        for run in text.as_bytes().windows(4) {
            let at = gram(run) & mask;
            bits[at / 64] |= 1 << (at % 64);
        }
        Grams { bits, mask }
    }

    /// Whether `needle` may stand in the text: `false` only when it cannot.
    pub(super) fn may_hold(&self, needle: &str) -> bool {
        needle.as_bytes().windows(4).all(|run| {
            let at = gram(run) & self.mask;
            self.bits[at / 64] & (1 << (at % 64)) != 0
        })
    }
}

/// A hash of four bytes, its high bits spread by a multiply.
fn gram(run: &[u8]) -> usize {
    let word = u32::from_le_bytes([run[0], run[1], run[2], run[3]]);
    (u64::from(word).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize
}

/// Every place `needle` stands in `haystack`.
pub(super) fn find_all<'a>(
    haystack: &'a str,
    needle: &'a str,
) -> impl Iterator<Item = Range<usize>> + 'a {
    memchr::memmem::find_iter(haystack.as_bytes(), needle.as_bytes())
        .map(move |at| at..at + needle.len())
}

/// Whether the match at `at` is a whole unit: no letter or digit runs on
/// into it on either side.
pub(super) fn bounded(haystack: &str, at: Range<usize>) -> bool {
    let mut back = haystack[..at.start].chars().rev();
    let (before, two_before) = (back.next(), back.next());
    let after = haystack[at.end..].chars().next();
    let first = haystack[at.clone()].chars().next();
    let last = haystack[at].chars().next_back();
    let joins = |a: Option<char>, b: Option<char>| matches!((a, b), (Some(a), Some(b)) if a.is_alphanumeric() && b.is_alphanumeric());
    // Chinese and Japanese are written without spaces: a sentence may
    // follow the words before it with nothing between them ("myappに移動して
    // これからじゃんけんアプリを作りたい。"), unless one of the two characters
    // before it turns it around ("不" in "不要删除测试", "禁止"). Its end
    // stays bounded: Japanese says "not" after the verb.
    let opens_clause = matches!((before, first), (Some(a), Some(b))
        if crate::audit::binding::wide_script(a)
            && crate::audit::binding::wide_script(b)
            && !WIDE_FLIPS.contains(&a)
            && two_before.is_none_or(|c| !WIDE_FLIPS.contains(&c))
            && (two_before, a) != (Some('禁'), '止'));
    (opens_clause || !joins(before, first)) && !joins(last, after)
}

/// Characters of Chinese and Japanese that, before a verb, turn it around.
const WIDE_FLIPS: [char; 10] = ['不', '没', '沒', '別', '别', '未', '非', '無', '无', '勿'];

/// A word among the three before `at`, on its line, that turns the match
/// around — unless the commitment says it too.
pub(super) fn flip_before(haystack: &str, at: usize, text: &str) -> Option<String> {
    // Only the words of its own clause, on its own line, before it: a
    // comma ends a clause that turns nothing after it ("sem alteracoes no
    // momento, mas adicione sempre …", "use the input text instead, and
    // remove the icon path input").
    let start = haystack[..at]
        .rfind(['\n', '.', '!', '?', ';', ':', ',', '"', '“', '”'])
        .map_or(0, |n| n + 1);
    let before = haystack.get(start..at).unwrap_or_default();
    before
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|w| !w.is_empty())
        .rev()
        .take(3)
        .map(|w| w.to_lowercase().replace('’', "'"))
        .find(|w| FLIPS.contains(&w.as_str()))
        // The commitment's own words are read only where a word stands
        // to turn it around: most quotes have none before them.
        .filter(|_| !Words::of(text).negated)
}

/// Text as loose quotes are compared: lower case, curly quotes straight,
/// Markdown emphasis and code marks dropped, white space folded.
pub(crate) fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Whether anything, a dropped quote too, stands before: a space is
    // kept only after something.
    let (mut space, mut begun) = (false, false);
    for c in text.chars() {
        // Quotes of any kind are dropped: a summary quotes the user's
        // "double" quotes as 'single' ones. A dropped quote still takes
        // the space before it, as a letter would.
        let quote = matches!(c, '‘' | '’' | '`' | '“' | '”' | '„' | '"' | '\'');
        match c {
            '*' => continue,
            c if c.is_whitespace() => {
                space = true;
                continue;
            }
            _ => {}
        }
        // "do A , a reminder" is "do A, a reminder" with other spacing.
        if space && begun && !matches!(c, ',' | '.' | ';' | ':' | '!' | '?' | ')') {
            out.push(' ');
        }
        space = false;
        begun = true;
        if quote {
            continue;
        }
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.extend(c.to_lowercase());
        }
    }
    out
}

pub(super) fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Whether `b`, as a text after the compaction has it, names what the user
/// named `a`: the same, or one of them the other with more of its path
/// (`packages/a/b.ts` and `/home/me/packages/a/b.ts`).
pub(crate) fn same_identifier(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let named_by_end =
        |short: &str| long.ends_with(short) && long[..long.len() - short.len()].ends_with('/');
    // A file's name the user typed alone (`parser_v2.py`) is carried by
    // its path (`src/legacy/parser_v2.py`); the path they typed is not
    // carried by its name alone, which no longer says where it is.
    let file_named = short == a
        && a.rsplit_once('.').is_some_and(|(name, extension)| {
            !name.is_empty() && extension.chars().next().is_some_and(char::is_alphabetic)
        });
    long == short || ((short.contains('/') || file_named) && named_by_end(short))
}

/// How many of `before`'s identifiers `after` names.
pub(crate) fn carried_identifiers(before: &Words, after: &Words) -> usize {
    before
        .identifiers
        .iter()
        .filter(|a| after.identifiers.iter().any(|b| same_identifier(a, b)))
        .count()
}

/// Whether `identifier` is a name made of words (`rawToken`: raw, token;
/// `completed_onboarding`), each of them among `after`'s. Not a path, a
/// command or an option (`/models`, `--model`: their one word is said of
/// anything), nor a name with digits (`P01-C`, `llama-3.1-8b`: the
/// digits tell it from its neighbours).
fn carried_in_words(identifier: &str, after: &Words) -> bool {
    if identifier.contains('/')
        || identifier.starts_with('-')
        || identifier.chars().any(|c| c.is_ascii_digit())
    {
        return false;
    }
    let words = Words::of(identifier);
    words.content.len() >= 2 && words.content.is_subset(&after.content)
}

/// What `after` changes of `before`'s meaning. A negation or a scope word
/// `after` adds counts only where it stands beside words of `before`
/// (`beside`, [`Words::marks_near`]): a passage of several sentences says
/// "not" and "all" of other things too.
pub(crate) fn changes(before: &Words, after: &Words, beside: &Marks) -> Vec<String> {
    let mut changes = Vec::new();
    let added: Vec<&String> = after
        .identifiers
        .iter()
        .filter(|b| !before.identifiers.iter().any(|a| same_identifier(a, b)))
        .collect();
    let missing = before
        .identifiers
        .iter()
        .filter(|a| !after.identifiers.iter().any(|b| same_identifier(a, b)));
    for identifier in missing {
        let closest = added
            .iter()
            .max_by_key(|other| common_prefix(identifier, other))
            .filter(|other| common_prefix(identifier, other) >= 3.min(identifier.len()));
        match closest {
            Some(other) => changes.push(format!("`{identifier}` became `{other}`")),
            // A name whose every word the passage says is carried in other
            // words ("never store rawToken" as "never storing raw tokens");
            // a number has none.
            None if carried_in_words(identifier, after) => {}
            None => changes.push(format!("`{identifier}` is missing")),
        }
    }
    if before.negated && !after.negated {
        changes.push("the negation is gone".to_owned());
    }
    if !before.negated && beside.negated {
        changes.push("a negation was added".to_owned());
    }
    // "first" and "before" both put it earlier: only an order turned
    // around, or gone, changes it.
    let sooner = |words: &std::collections::BTreeSet<&'static str>| {
        words
            .iter()
            .any(|w| matches!(*w, "before" | "first" | "prior" | "until"))
    };
    let later = |words: &std::collections::BTreeSet<&'static str>| {
        words
            .iter()
            .any(|w| matches!(*w, "after" | "then" | "once" | "last"))
    };
    let kept = (sooner(&before.ordering) && sooner(&after.ordering))
        || (later(&before.ordering) && later(&after.ordering));
    if !kept {
        for word in before.ordering.difference(&after.ordering) {
            changes.push(format!("the ordering word `{word}` is gone"));
        }
    }
    // "any" where a sentence says "not" is the negation's ("don't use any
    // external library" is "no external library").
    let scoped = |word: &&str, negated: bool| !(negated && *word == "any");
    for word in before.scope.difference(&after.scope) {
        if scoped(word, before.negated) {
            changes.push(format!("the scope word `{word}` is gone"));
        }
    }
    for word in beside.scope.difference(&before.scope) {
        if scoped(word, beside.negated) {
            changes.push(format!("the scope word `{word}` was added"));
        }
    }
    changes
}

/// How many of `before`'s content words that are not its scope words
/// `after` has, and how many there are.
pub(super) fn unmarked(before: &Words, after: &Words) -> (usize, usize) {
    let marks: std::collections::BTreeSet<String> = before
        .scope
        .iter()
        .flat_map(|word| Words::of(word).content)
        .collect();
    let own: Vec<&String> = before.content.difference(&marks).collect();
    let shared = own.iter().filter(|w| after.content.contains(**w)).count();
    (shared, own.len())
}

/// The words of `text`, in lower case: runs of letters and digits.
fn lower_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The ordering words whose next word is what comes later (or sooner):
/// [`reordered`] reads what follows them.
pub(super) const LEADS: [&str; 4] = ["then", "before", "after", "until"];

/// What follows an ordering word in `before` ("then production", "before
/// deploying") against what follows it in `after` (`own` and `here` their
/// words, which the caller has made): one of `before`'s own
/// words put there in place of the other turns the order around ("deploy
/// to staging first, then production" kept as "deploy to production
/// first, then staging").
pub(super) fn reordered(before: &str, own: &Words, after: &str, here: &Words) -> Option<String> {
    // The first content word after `at`, among the next few: its stem, and
    // as written.
    let next = |tokens: &[String], at: usize| {
        tokens[at + 1..].iter().take(4).find_map(|w| {
            Words::of(w)
                .content
                .into_iter()
                .next()
                .map(|stem| (stem, w.clone()))
        })
    };
    let was = lower_words(before);
    let lead = was.iter().position(|w| LEADS.contains(&w.as_str()))?;
    let (item, item_word) = next(&was, lead)?;
    let now = lower_words(after);
    if !here.content.contains(&item) {
        return None;
    }
    now.iter()
        .enumerate()
        .filter(|(_, w)| **w == was[lead])
        .find_map(|(at, _)| next(&now, at))
        .filter(|(other, _)| *other != item && own.content.contains(other))
        .map(|(_, other_word)| {
            let lead = &was[lead];
            format!("the order is turned around: `{lead} {other_word}`, not `{lead} {item_word}`")
        })
}

/// Values of one kind, each with the names it goes by: a commitment that
/// names one and a passage that names another of the kind in its place
/// changed the value ("deploy to staging" kept as "deploy to production").
/// Only words that say nothing else: no "may" or "march" among the
/// months, no "stage" for staging, no "ts" or "js" (a file's extension).
#[rustfmt::skip]
const KINDS: &[&[&[&str]]] = &[
    &[&["monday"], &["tuesday"], &["wednesday"], &["thursday"], &["friday"], &["saturday"], &["sunday"]],
    &[
        &["january"], &["february"], &["april"], &["june"], &["july"], &["august"], &["september"],
        &["october"], &["november"], &["december"],
    ],
    &[&["dev", "development"], &["staging"], &["prod", "production"], &["qa"], &["uat"]],
    &[&["npm"], &["pnpm"], &["yarn"], &["bun"]],
    &[
        &["typescript"], &["javascript"], &["python"], &["rust"], &["java"], &["kotlin"],
        &["swift"], &["ruby"], &["php"], &["elixir"], &["scala"],
    ],
    &[
        &["postgres", "postgresql"], &["mysql"], &["mariadb"], &["sqlite"], &["mongodb", "mongo"],
        &["redis"], &["dynamodb"],
    ],
    &[&["react"], &["vue"], &["svelte"], &["angular"]],
    &[&["jest"], &["vitest"], &["mocha"], &["pytest"]],
    &[&["tabs"], &["spaces"]],
    &[&["light"], &["dark"]],
    &[
        &["red"], &["blue"], &["green"], &["yellow"], &["orange"], &["purple"], &["pink"],
        &["black"], &["white"], &["gray", "grey"],
    ],
    &[&["ascending", "asc"], &["descending", "desc"]],
    &[&["mobile"], &["desktop"], &["tablet"]],
];

/// What a passage did to the values of `before` of one of [`KINDS`], and
/// to a contrast it draws ("use tabs, not spaces"
/// kept as "use spaces, not tabs"): each change, and how many of
/// `before`'s words it stands for. A value changed is one the passage
/// puts in the same place: beside a word the commitment has beside its
/// own ("deploy to staging" kept as "deploy to production"), not any other
/// the passage names. (A number is not weighed so: a passage names
/// numbers of its own, lines and counts, beside the same words.)
pub(super) fn swapped(before: &str, after: &str) -> (Vec<String>, usize) {
    /// How near a word stands to count as the value's place.
    const NEAR: usize = 3;
    // The content words near each place a value stands.
    fn near(words: &[String], at: usize) -> Words {
        let from = at.saturating_sub(NEAR);
        let to = (at + NEAR + 1).min(words.len());
        let around: Vec<&str> = (from..to)
            .filter(|&n| n != at)
            .map(|n| words[n].as_str())
            .collect();
        Words::of(&around.join(" "))
    }
    let placed = |was: &[String], from: usize, now: &[String], to: usize| {
        let (a, b) = (near(was, from), near(now, to));
        a.content.intersection(&b.content).next().is_some()
    };
    // Each value's kind and place among its kind, by every name it has.
    static VALUES: LazyLock<HashMap<&'static str, (usize, usize)>> = LazyLock::new(|| {
        let mut values = HashMap::new();
        for (kind, names) in KINDS.iter().enumerate() {
            for (value, aliases) in names.iter().enumerate() {
                for alias in *aliases {
                    values.insert(*alias, (kind, value));
                }
            }
        }
        values
    });
    let mut changes = Vec::new();
    let mut stands_for = 0;
    let was = lower_words(before);
    // Where each text names values: (place, kind, value).
    let named = |words: &[String]| -> Vec<(usize, usize, usize)> {
        words
            .iter()
            .enumerate()
            .filter_map(|(at, w)| {
                VALUES
                    .get(w.as_str())
                    .map(|&(kind, value)| (at, kind, value))
            })
            .collect()
    };
    let from = named(&was);
    if !from.is_empty() {
        let now = lower_words(after);
        let to = named(&now);
        // The one value of `kind` a text names, and where.
        let one = |found: &[(usize, usize, usize)], kind: usize| {
            let mut of = found.iter().filter(|(_, k, _)| *k == kind);
            let first = of.next().copied()?;
            of.all(|(_, _, value)| *value == first.2).then_some(first)
        };
        let mut kinds: Vec<usize> = from.iter().map(|(_, kind, _)| *kind).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for kind in kinds {
            if let (Some((at, _, value)), Some((to_at, _, other))) =
                (one(&from, kind), one(&to, kind))
            {
                if value != other && placed(&was, at, &now, to_at) {
                    changes.push(format!("`{}` became `{}`", was[at], now[to_at]));
                    stands_for += 1;
                }
            }
        }
    }
    static CONTRAST: LazyLock<Pattern> = LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)([\w.+#-]+),?\s+(?:not|instead\s+of|rather\s+than)\s+([\w.+#-]+)")
            .expect("the contrast pattern compiles")
    });
    let pair = |text: &str| {
        if !CONTRAST.is_match(text) {
            return None;
        }
        CONTRAST.captures(text).and_then(|c| {
            let word = |at: usize| {
                c.get(at)
                    .map(|m| m.as_str().trim_end_matches(['.', '-']).to_lowercase())
            };
            Some((word(1)?, word(2)?))
        })
    };
    if let Some((x, y)) = pair(before) {
        if pair(after).is_some_and(|(a, b)| x == b && y == a && x != y) {
            changes.push(format!("`{x}` and `{y}` traded places"));
        }
    }
    (changes, stands_for)
}

pub(super) fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// `text` without the files it opens by mentioning (`@src/app/ Check
/// every command …`): the runtime attaches what they name, and a summary
/// quoting the user leaves them out. A text that is little more than its
/// mentions keeps them.
pub(super) fn unmentioned(text: &str) -> &str {
    let mut rest = text;
    while let Some(after) = crate::audit::units::after_mention(rest) {
        rest = after;
    }
    if rest.len() < text.len() && rest.split_whitespace().count() >= 3 {
        rest
    } else {
        text
    }
}

/// `text` without the word that asks Claude Code to think longer, at its
/// start or its end ("ultrathink descubra o que …", "… dans le hero
/// ultrathink"): it sets the runtime's thinking budget, and a summary that
/// quotes the request leaves it out.
pub(super) fn unthought(text: &str) -> &str {
    const WORDS: &[&str] = &["ultrathink", "megathink"];
    // What may stand between the word and the request.
    let apart = |c: char| c.is_whitespace() || matches!(c, ',' | ':' | '.' | '!' | '-');
    let mut rest = text.trim();
    for word in WORDS {
        if let Some(after) = strip_prefix_ignore_case(rest, word) {
            if after.starts_with(apart) {
                rest = after.trim_start_matches(apart);
            }
        }
        let trimmed = rest.trim_end_matches(['.', '!']);
        if let Some(before) = strip_suffix_ignore_case(trimmed, word) {
            if before.ends_with(char::is_whitespace) {
                rest = before.trim_end_matches(|c: char| c.is_whitespace() || c == ',');
            }
        }
    }
    if rest.len() < text.trim().len() && rest.split_whitespace().count() >= 3 {
        rest
    } else {
        text
    }
}

fn strip_prefix_ignore_case<'t>(text: &'t str, prefix: &str) -> Option<&'t str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &text[prefix.len()..])
}

fn strip_suffix_ignore_case<'t>(text: &'t str, suffix: &str) -> Option<&'t str> {
    let at = text.len().checked_sub(suffix.len())?;
    let tail = text.get(at..)?;
    tail.eq_ignore_ascii_case(suffix).then(|| &text[..at])
}

/// `text` without the number a list written the way Chinese numbers one
/// opens it with ("1、扫描整个项目的架构", "（2）…", "③ …"): the number
/// lays the list out, and a summary that quotes the item ("(1) 扫描整个项目
/// 的架构") may number it its own way. An item of a few characters keeps
/// it.
pub(super) fn unnumbered(text: &str) -> &str {
    let circled = |c: char| matches!(c, '①'..='⑳' | '❶'..='❿' | '➀'..='➉' | '⑴'..='⒇');
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = if text.starts_with(circled) {
        text.chars().next().map(|c| &text[c.len_utf8()..])
    } else if let Some(inner) = text.strip_prefix(['（', '(']) {
        let n = digits(inner);
        (n > 0)
            .then(|| inner[n..].strip_prefix(['）', ')']))
            .flatten()
    } else {
        let mut n = digits(text);
        // "3.1、": a section's number.
        while n > 0 && text[n..].starts_with('.') && digits(&text[n + 1..]) > 0 {
            n += 1 + digits(&text[n + 1..]);
        }
        (n > 0).then(|| text[n..].strip_prefix('、')).flatten()
    };
    match rest.map(str::trim_start) {
        Some(rest) if rest.chars().count() >= 4 => rest,
        _ => text,
    }
}

/// `text` without what leads from it into what the user pasted after it:
/// a colon, a dash or a shell's line continuation at its end ("…já estar
/// no ar o frontend: \\" over a table of services, "right now my telegram
/// is not able to see those agent :" over a screenshot). A summary that
/// quotes the sentence quotes it without them. A sentence of a few words
/// keeps them.
pub(super) fn unled(text: &str) -> &str {
    let rest = text
        .trim_end()
        .trim_end_matches(|c: char| matches!(c, ':' | '：' | '\\') || c.is_whitespace());
    let rest = rest
        .strip_suffix(" -")
        .or_else(|| rest.strip_suffix(" —"))
        .unwrap_or(rest)
        .trim_end();
    if rest.len() < text.trim_end().len() && rest.split_whitespace().count() >= 3 {
        rest
    } else {
        text
    }
}

/// `text` without a quotation mark or backquote at either end that
/// nothing closes or opens (``` ``wait, stop … ```, `" please analyze …`):
/// a stray mark the user typed, which a summary quoting them leaves out.
pub(super) fn unquoted(text: &str) -> &str {
    const MARKS: &[char] = &['"', '`', '“', '”', '«', '»'];
    let unpaired = |text: &str, mark: char| match mark {
        '“' | '”' => text.matches('“').count() != text.matches('”').count(),
        '«' | '»' => text.matches('«').count() != text.matches('»').count(),
        mark => text.matches(mark).count() % 2 == 1,
    };
    let mut text = text;
    while let Some(mark) = text.chars().next().filter(|c| MARKS.contains(c)) {
        if !unpaired(text, mark) && mark != '`' {
            break;
        }
        // A run of backquotes is one mark, paired only by a run as long.
        let run = text.len() - text.trim_start_matches(mark).len();
        if mark == '`' && text[run..].contains(&text[..run]) {
            break;
        }
        text = text[run..].trim_start();
    }
    while let Some(mark) = text.chars().next_back().filter(|c| MARKS.contains(c)) {
        if !unpaired(text, mark) && mark != '`' {
            break;
        }
        let run = text.len() - text.trim_end_matches(mark).len();
        let end = text.len() - run;
        if mark == '`' && text[..end].contains(&text[end..]) {
            break;
        }
        text = text[..end].trim_end();
    }
    text
}
