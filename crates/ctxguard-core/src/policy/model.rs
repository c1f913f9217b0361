//! The resolved policy: one model after `extends`, the one every command
//! uses. `lint` builds it from a file's AST on top of its parent.

use std::sync::{Arc, OnceLock};

use regex::Regex;

use crate::policy::ast::*;
use crate::source::{SourceFile, Span};

/// Names ctxguard gives meaning to; a policy cannot declare them as kinds.
pub const RESERVED_KINDS: &[&str] = &["narrative", "unclassified", "summary"];

/// Where a statement was written.
#[derive(Clone, Debug)]
pub struct Origin {
    /// The file.
    pub file: Arc<SourceFile>,
    /// The statement's span in it.
    pub span: Span,
}

/// A setting and the statement that made it (`None`: ctxguard's default).
#[derive(Clone, Debug)]
pub struct Setting<T> {
    /// The value in force.
    pub value: T,
    /// The statement that set it.
    pub origin: Option<Origin>,
}

impl<T> Setting<T> {
    pub(crate) fn default(value: T) -> Self {
        Setting {
            value,
            origin: None,
        }
    }
}

/// A `hint /pattern/flags`: text that looks like a commitment of its kind.
#[derive(Clone, Debug)]
pub struct Hint {
    /// As written: `/pattern/flags`.
    pub pattern: String,
    /// The `hint` line.
    pub origin: Origin,
    /// The pattern between the slashes, and its flags.
    body: String,
    flags: String,
    /// The compiled pattern: compiled as the policy is read, so a pattern
    /// that does not compile is reported; the built-in policy's, known to
    /// compile, when first asked (most runs ask one pattern of them all).
    compiled: OnceLock<Option<Regex>>,
}

impl Hint {
    /// A hint compiled as it is read.
    pub(crate) fn compiled(regex: Regex, pattern: String, flags: &str, origin: Origin) -> Hint {
        Hint {
            pattern,
            origin,
            body: regex.as_str().to_owned(),
            flags: flags.to_owned(),
            compiled: OnceLock::from(Some(regex)),
        }
    }

    /// A hint compiled when first asked, `body` known to compile with `flags`.
    pub(crate) fn deferred(body: &str, flags: &str, pattern: String, origin: Origin) -> Hint {
        Hint {
            pattern,
            origin,
            body: body.to_owned(),
            flags: flags.to_owned(),
            compiled: OnceLock::new(),
        }
    }

    /// The compiled pattern.
    pub fn regex(&self) -> Option<&Regex> {
        self.compiled
            .get_or_init(|| crate::policy::hint::compile(&self.body, &self.flags, 0).ok())
            .as_ref()
    }

    /// The pattern between the slashes.
    pub fn body(&self) -> &str {
        &self.body
    }
}

/// A commitment kind.
#[derive(Clone, Debug)]
pub struct Kind {
    /// The kind's name, as trace regions write it.
    pub name: String,
    /// What the kind is for.
    pub doc: Option<String>,
    /// Patterns of text that look like this kind, for warnings.
    pub hints: Vec<Hint>,
    /// `error` (default): losing one rejects; `warning`: a soft commitment.
    pub severity: Setting<Severity>,
    /// The `kind` statement.
    pub origin: Origin,
}

/// An `order A before B` statement.
#[derive(Clone, Debug)]
pub struct OrderRule {
    /// What must come first.
    pub before: Selector,
    /// What must come after it.
    pub after: Selector,
    /// The whole `order` statement.
    pub origin: Origin,
}

impl OrderRule {
    /// The statement as a policy writes it.
    pub fn as_written(&self) -> String {
        format!(
            "order {} before {}",
            quote_selector(&self.before),
            quote_selector(&self.after)
        )
    }
}

/// A selector as a policy writes it.
pub fn quote_selector(selector: &Selector) -> String {
    match selector {
        Selector::Kind(kind) => kind.clone(),
        identity => format!("\"{identity}\""),
    }
}

/// Where each `on` rule is stated, if it is.
#[derive(Clone, Debug, Default)]
pub struct OnRules {
    /// `on mismatch reject`.
    pub mismatch: Option<Origin>,
    /// `on unclassified keep`.
    pub unclassified: Option<Origin>,
    /// `on over-budget escalate`.
    pub over_budget: Option<Origin>,
}

impl OnRules {
    /// Where the rule on `on`'s subject is stated.
    pub fn origin(&mut self, on: OnRule) -> &mut Option<Origin> {
        match on {
            OnRule::Mismatch(_) => &mut self.mismatch,
            OnRule::Unclassified(_) => &mut self.unclassified,
            OnRule::OverBudget(_) => &mut self.over_budget,
        }
    }
}

/// A policy resolved with everything it extends: what `verify` and `plan` use.
#[derive(Clone, Debug)]
pub struct Policy {
    /// The `policy NAME`, if the file names itself.
    pub name: Option<String>,
    /// Where this file names its policy (a name is not inherited).
    pub name_origin: Option<Origin>,
    /// The file this policy was resolved from (the child, with `extends`).
    pub file: Arc<SourceFile>,
    /// Commitment kinds, parents' first.
    pub kinds: Vec<Kind>,
    /// Each kind's position in `kinds`, by name.
    kind_index: foldhash::HashMap<String, usize>,
    /// `order` statements, parents' first.
    pub orders: Vec<OrderRule>,
    /// Where `preserve order` is stated, if it is.
    pub preserve_order: Option<Origin>,
    /// How tokens are counted.
    pub tokenizer: Setting<Tokenizer>,
    /// `budget window`: tokens the compacted buffer may hold.
    pub window: Option<Setting<u64>>,
    /// `budget commitments`: the share of the window, in percent, commitments may use.
    pub commitment_share: Option<Setting<f64>>,
    /// Where the policy (or its parent) states each decision rule. A usable
    /// policy holds only the safe rules (`on mismatch reject`, `on
    /// unclassified keep`, `on over-budget escalate`): a weaker one is an
    /// error, so there is nothing for the verifier to read here.
    pub on_rules: OnRules,
    /// Every hint as one set, made on first use: see [`Policy::any_hint`].
    any_hint: HintUnion,
}

/// The hints as one set, once made. A clone starts empty: a child
/// policy is its parent's clone with more kinds, and must not ask the
/// parent's hints alone.
#[derive(Debug, Default)]
struct HintUnion(OnceLock<Option<regex::bytes::RegexSet>>);

impl Clone for HintUnion {
    fn clone(&self) -> HintUnion {
        HintUnion::default()
    }
}

/// `text` as the bytes [`Policy::any_hint`]'s set reads, when
/// every character of it beyond ASCII is a sign: neither a word's (a
/// letter, a mark, a digit) nor a space, in Unicode's sense. Each such
/// character is one byte, `0xFF`, which no ASCII class holds and every
/// negated one does, as no class of a word or a space holds the sign and
/// `.` takes it as one: so `\b`, `\w`, `\s`, `\S`, `.` and `[^…]` match
/// the image where they match the text. Text all ASCII is its own image.
fn ascii_image(text: &str) -> Option<std::borrow::Cow<'_, [u8]>> {
    let first = ascii_run(text.as_bytes());
    if first == text.len() {
        return Some(std::borrow::Cow::Borrowed(text.as_bytes()));
    }
    let mut image = Vec::with_capacity(text.len());
    image.extend_from_slice(&text.as_bytes()[..first]);
    let mut rest = &text[first..];
    loop {
        let at = ascii_run(rest.as_bytes());
        if at == rest.len() {
            break;
        }
        image.extend_from_slice(&rest.as_bytes()[..at]);
        let c = rest[at..].chars().next()?;
        if regex_syntax::is_word_character(c) || c.is_whitespace() {
            return None;
        }
        image.push(0xFF);
        rest = &rest[at + c.len_utf8()..];
    }
    image.extend_from_slice(rest.as_bytes());
    Some(std::borrow::Cow::Owned(image))
}

/// Whether a hint's pattern means on ASCII text, read with ASCII's classes,
/// what it means read with Unicode's: written in ASCII (under `i`, "ſ" is
/// an "s" in Unicode and not in ASCII), naming no character by its number
/// (`\xE9` is "é" in Unicode and a byte in ASCII), and turning Unicode on
/// in none of its groups (`(?u:…)`). (A class only Unicode has, `\pL`,
/// does not compile so.)
fn ascii_readable(pattern: &str) -> bool {
    let numbered = ["\\x", "\\u", "\\U"]
        .iter()
        .any(|escape| pattern.contains(escape));
    let unicode_group = pattern.match_indices("(?").any(|(at, _)| {
        pattern[at + 2..]
            .chars()
            .take_while(|&c| c != ':' && c != ')')
            .any(|c| c == 'u')
    });
    pattern.is_ascii() && !numbered && !unicode_group
}

/// How many bytes at the start of `bytes` are ASCII, read a word at a time.
fn ascii_run(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        if word & HIGH != 0 {
            return at + (word & HIGH).trailing_zeros() as usize / 8;
        }
        at += 8;
    }
    at + chunks
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(chunks.remainder().len())
}

impl Policy {
    pub(crate) fn empty(file: &Arc<SourceFile>) -> Policy {
        Policy {
            name: None,
            name_origin: None,
            file: Arc::clone(file),
            kinds: Vec::new(),
            kind_index: foldhash::HashMap::default(),
            orders: Vec::new(),
            preserve_order: None,
            tokenizer: Setting::default(Tokenizer::O200kBase),
            window: None,
            commitment_share: None,
            on_rules: OnRules::default(),
            any_hint: HintUnion::default(),
        }
    }

    /// Whether any hint matches `text`. All hints are one set, which stops
    /// at the first place any of them matches: one pass over the text,
    /// where asking each hint in turn reads all of a text none of them
    /// matches once per hint. [`Policy::first_hint`] says which.
    ///
    /// The set is asked of the text as bytes with ASCII's classes
    /// (`(?-u)`), where Unicode's `\b` would leave the fast engine at the
    /// first byte beyond ASCII or make it give up for the slowest: on
    /// ASCII text a hint's `\w`, `\b`, `\s` and case mean what Unicode's
    /// do, and so they do on text whose other characters are signs (an
    /// arrow, a dash, quotes), each asked as one byte no ASCII class holds
    /// ([`ascii_image`]). Text with a letter, a digit or a space beyond
    /// ASCII asks each hint alone, which keeps its literal prefilter and a
    /// small automaton.
    pub fn any_hint(&self, text: &str) -> bool {
        match self.hint_image(text) {
            Some((set, image)) => set.is_match(&image),
            None => self.each_hint(text).is_some(),
        }
    }

    /// The first kind (in policy order) one of whose hints matches `text`:
    /// its position in `kinds`, and the hint. Asked of the set as
    /// [`Policy::any_hint`] asks it, where it can be; else of each hint in
    /// turn, each stopping at its first match.
    pub fn first_hint(&self, text: &str) -> Option<(usize, &Hint)> {
        match self.hint_image(text) {
            Some((set, image)) => {
                let n = set.matches(&image).iter().next()?;
                self.kinds
                    .iter()
                    .enumerate()
                    .flat_map(|(k, kind)| kind.hints.iter().map(move |hint| (k, hint)))
                    .nth(n)
            }
            None => self.each_hint(text),
        }
    }

    /// [`Policy::first_hint`], each hint asked in turn as written.
    fn each_hint(&self, text: &str) -> Option<(usize, &Hint)> {
        self.kinds.iter().enumerate().find_map(|(k, kind)| {
            kind.hints
                .iter()
                .find(|hint| hint.regex().is_some_and(|regex| regex.is_match(text)))
                .map(|hint| (k, hint))
        })
    }

    /// The set of hints and `text` as it reads it, when it can.
    fn hint_image<'t>(
        &self,
        text: &'t str,
    ) -> Option<(&regex::bytes::RegexSet, std::borrow::Cow<'t, [u8]>)> {
        let set = self.hint_set()?;
        ascii_image(text).map(|image| (set, image))
    }

    /// Every hint, in policy order, as one set over ASCII bytes; `None`
    /// when a hint cannot be read so ([`ascii_readable`]), or when the set
    /// would compile to more than 16 hints may (then each hint is asked in
    /// turn), so a policy of many large hints does not hold them twice.
    fn hint_set(&self) -> Option<&regex::bytes::RegexSet> {
        self.any_hint
            .0
            .get_or_init(|| {
                let hints: Vec<&Hint> = self.kinds.iter().flat_map(|kind| &kind.hints).collect();
                if !hints.iter().all(|hint| ascii_readable(&hint.pattern)) {
                    return None;
                }
                let patterns = hints.iter().map(|hint| {
                    // A verbose pattern's comment runs to the end of its line.
                    let end = if hint.flags.contains('x') { "\n" } else { "" };
                    format!("(?-u:(?{}:{}{end}))", hint.flags, hint.body)
                });
                regex::bytes::RegexSetBuilder::new(patterns)
                    .size_limit(
                        crate::policy::hint::SIZE_LIMIT.saturating_mul(hints.len().clamp(1, 16)),
                    )
                    .dfa_size_limit(
                        crate::policy::hint::DFA_LIMIT.saturating_mul(hints.len().clamp(1, 8)),
                    )
                    .build()
                    .ok()
            })
            .as_ref()
    }

    /// The kind named `name`.
    pub fn kind(&self, name: &str) -> Option<&Kind> {
        self.kind_position(name).and_then(|k| self.kinds.get(k))
    }

    /// The position in `kinds` of the kind named `name`.
    pub fn kind_position(&self, name: &str) -> Option<usize> {
        self.kind_index.get(name).copied()
    }

    /// Declares a kind (its name not yet declared).
    pub(crate) fn add_kind(&mut self, kind: Kind) {
        self.kind_index.insert(kind.name.clone(), self.kinds.len());
        self.kinds.push(kind);
    }

    /// Tokens the commitments may use of a `window`: the policy's share of
    /// it, when the policy sets one.
    pub fn commitment_budget(&self, window: u64) -> Option<u64> {
        let share = self.commitment_share.as_ref()?.value;
        // Bounded: share is in (0, 100], so the product fits in a u64.
        Some(((window as f64) * share / 100.0).floor() as u64)
    }
}

#[cfg(test)]
mod tests {
    /// The built-in policy's hints are compiled when first asked: each must
    /// compile, and match as the same pattern read from a file does.
    #[test]
    fn every_built_in_hint_compiles_as_it_does_read_from_a_file() {
        let builtin = Policy::builtin();
        let (copy, _) = Policy::from_text("copy.policy", crate::policy::load::DEFAULT_POLICY)
            .unwrap_or_else(|d| panic!("{d:?}"));
        let hints = |policy: &Policy| -> Vec<(String, String)> {
            (policy.kinds.iter())
                .flat_map(|kind| &kind.hints)
                .map(|hint| {
                    let regex = hint
                        .regex()
                        .unwrap_or_else(|| panic!("{} compiles", hint.pattern));
                    (hint.pattern.clone(), regex.as_str().to_owned())
                })
                .collect()
        };
        let deferred = |policy: &Policy| {
            (policy.kinds.iter())
                .flat_map(|kind| &kind.hints)
                .all(|hint| hint.compiled.get().is_none())
        };
        // The built-in policy, loaded afresh, compiles no hint; the copy
        // (another file) compiled each as it was read.
        let fresh = crate::policy::load::Loader::new()
            .load_builtin()
            .policy
            .clone();
        assert!(fresh.is_some_and(|fresh| deferred(&fresh)));
        assert!(!deferred(&copy));
        assert!(!hints(&builtin).is_empty());
        assert_eq!(hints(&builtin), hints(&copy));
        for text in [
            "You must not drop it.",
            "see src/a/b.rs",
            "https://x.example",
            "nothing",
        ] {
            assert_eq!(
                builtin
                    .first_hint(text)
                    .map(|(k, h)| (k, h.pattern.clone())),
                copy.first_hint(text).map(|(k, h)| (k, h.pattern.clone())),
                "{text}"
            );
        }
    }

    use proptest::prelude::*;

    use super::ascii_image;
    use crate::policy::Policy;

    /// The default policy's hints, and flags the default does not use: a
    /// verbose pattern whose comment runs to the end of its line, a lazy one,
    /// one whose `.` matches a newline, one anchored per line.
    fn policies() -> Vec<std::sync::Arc<Policy>> {
        let flagged = "policy flagged\n\
            kind constraint {\n  \
              hint /deploy \\s+ first # a comment/x\n  \
              hint /a.+?b/U\n\
            }\n\
            kind decision {\n  \
              hint /start.end/s\n  \
              hint /^keep$/m\n\
            }\n\
            kind value {\n  \
              hint /x\\W{2}y/\n  \
              hint /\\bk\\b/i\n  \
              hint /b.x/\n\
            }\n";
        let flagged = Policy::from_text("flagged.policy", flagged)
            .map(|(policy, _)| policy)
            .unwrap_or_else(|d| panic!("{d:?}"));
        vec![Policy::builtin(), flagged]
    }

    #[test]
    fn verbose_hints_keep_their_comments_to_themselves() {
        let policies = policies();
        let flagged = &policies[1];
        // One pattern, not the fallback of asking each hint.
        assert!(policies.iter().all(|policy| policy.hint_set().is_some()));
        assert!(flagged.any_hint("deploy first"));
        assert!(flagged.any_hint("we start\nend here"));
        assert!(flagged.any_hint("one\nkeep\ntwo"));
        assert!(!flagged.any_hint("deploy later, keep going"));
        // A sign beyond ASCII is one character to `.` and to a count.
        assert!(flagged.any_hint("b→x"));
        assert!(flagged.any_hint("x→—y"));
        assert!(!flagged.any_hint("x—y"));
    }

    #[test]
    fn text_beyond_ascii_is_matched_as_each_hint_would_match_it() {
        let policy = Policy::builtin();
        for (text, hinted) in [
            (
                "Plan: fix the parser → run `cargo test` → report back.",
                false,
            ),
            (
                "We must not drop columns — the migration stays reversible.",
                true,
            ),
            ("Édite src/legacy/parser_v2.py, s'il te plaît.", true),
            (
                "mustérien: no hint here, the word goes on past ASCII",
                false,
            ),
        ] {
            assert_eq!(policy.any_hint(text), hinted, "{text}");
            assert_eq!(policy.each_hint(text).is_some(), hinted, "{text}");
        }
        // Signs beyond ASCII are read by the alternation, each as a byte;
        // a letter or a space beyond ASCII leaves each hint to be asked.
        assert_eq!(
            ascii_image("a → b — c").as_deref(),
            Some(&b"a \xFF b \xFF c"[..])
        );
        assert_eq!(ascii_image("Édite"), None);
        // A hint that turns Unicode on, or names a character by its number,
        // is asked as written.
        assert!(super::ascii_readable(r"\bmust\b"));
        for unicode in [r"(?u:.)x", r"(?iu)\w", r"caf\xE9", r"\u{e9}", "café"] {
            assert!(!super::ascii_readable(unicode), "{unicode}");
        }
        assert_eq!(ascii_image("a\u{a0}b"), None);
    }

    #[test]
    fn a_child_policy_asks_its_own_hints_after_its_parent_was_used() {
        let parent = Policy::builtin();
        assert!(!parent.any_hint("zebra crossing"));
        // A clone (what a child is built from) makes its own pattern.
        assert!(parent.any_hint.0.get().is_some());
        assert!(Policy::clone(&parent).any_hint.0.get().is_none());
        let child = "policy child\nextends default\nkind sighting {\n  hint /zebra/\n}\n";
        let child = Policy::from_text("child.policy", child)
            .map(|(policy, _)| policy)
            .unwrap_or_else(|d| panic!("{d:?}"));
        assert!(child.any_hint("zebra crossing"));
        assert!(child.any_hint("we must not"));
    }

    proptest! {
        #[test]
        fn an_ascii_run_ends_at_the_first_byte_beyond_ascii(text in "[a-z →é]{0,40}") {
            let first = text.bytes().position(|b| !b.is_ascii()).unwrap_or(text.len());
            prop_assert_eq!(super::ascii_run(text.as_bytes()), first);
        }

        #[test]
        fn the_set_of_hints_agrees_with_asking_each_hint(
            text in "(must|never|src/a\\.rs|https://x|decided to|first|run|deploy  first|start|\nend|keep|a|b|\n| |é|x|→|—|\u{a0}|\u{212a}|ſ|٣|y|k){0,12}"
        ) {
            for policy in policies() {
                let each = policy.each_hint(&text).map(|(k, hint)| (k, hint.pattern.clone()));
                prop_assert_eq!(policy.any_hint(&text), each.is_some());
                prop_assert_eq!(
                    policy.first_hint(&text).map(|(k, hint)| (k, hint.pattern.clone())),
                    each
                );
            }
        }
    }
}
