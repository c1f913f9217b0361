//! A pattern that answers "no" fast on text of any script.
//!
//! The regex crate's fast automaton reads Unicode's word bounds (`\b`) on
//! ASCII text only: on a line with one curly quote, an arrow or a word of
//! Chinese, a pattern with `\b` is run by the slow one instead, and the
//! patterns that read what a user typed are most of them. So a
//! [`Pattern`] is asked of the line's ASCII image ([`image`]) where it
//! can: a character for each character, `_` for a letter of any script, a
//! vertical tab for a space, `\x01` for any other sign, `'` for a curly
//! apostrophe.
//!
//! Most patterns see other scripts only through their classes (`\w`,
//! `\s`, `.`, `[^…]`), and so see every letter of them alike, every space
//! alike, every other sign alike: of a line, they answer as of its image,
//! which the fast automaton reads whole. What a pattern tells apart from
//! the rest of its kind (the `ã` of "não", the digits of other scripts
//! that `\d` holds) it names ([`significant`]).
//!
//! A line with one of those is asked first of the pattern's image
//! ([`image_of`]): the pattern with each of its characters outside ASCII
//! put as its stand-in, so that it matches the image of every line the
//! pattern matches (a letter is `_` in both). Where the image of the
//! pattern finds nothing in the image of the line, the pattern finds
//! nothing in the line; only a line it matches is searched as written, so
//! every answer is the pattern's own.
//!
//! A process that asks a pattern a few times (a hook judging a prompt)
//! would spend most of its time compiling it: the regex crate builds the
//! automata that make thousands of searches fast. Whether and where a
//! pattern matches ASCII text (a line's image among it) is first asked of
//! a light engine (regex-lite), which compiles in a tenth of the time and
//! reads ASCII as Unicode's classes, word bounds and folded cases do;
//! once its searches have cost about what compiling the pattern would,
//! the regex crate compiles it. With debug assertions, the regex crate
//! answers every time and the light engine's answer is checked against it.

use std::borrow::Cow;
use std::iter::Take;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{LazyLock, OnceLock};
use std::time::Instant;

use regex::{CaptureMatches, Captures, Matches, Regex, Replacer};

mod named;

/// How many times a pattern is asked of a line that names what it tells
/// apart before its image is compiled: a hook that judges a prompt or two
/// would not earn back the compiling; an audit of a folder asks some
/// patterns millions of times.
const WARM: u32 = 256;

/// How much such text a pattern is asked of before its image is compiled,
/// however few the times: the slow automaton reads some tens of bytes in
/// the time the fast one reads thousands, so a pattern asked of whole
/// messages (another agent's report handed over, a terminal's output)
/// earns the compiling back within a few long ones.
const WARM_BYTES: u64 = 64 * 1024;

/// How many times its searches may cost what compiling the pattern with
/// the light engine did before the regex crate compiles it: the regex
/// crate takes some ten times as long to compile a pattern (it builds the
/// automata that make its searches fast), and a hook that judges a prompt
/// or two asks most patterns a few times.
const LIGHT_SEARCHES: u64 = 10;

/// A compiled pattern, with its image compiled once it has been asked
/// often enough of lines that need it.
#[derive(Debug)]
pub(crate) struct Pattern {
    /// The pattern as written, apostrophes read as either one.
    source: Box<str>,
    /// The pattern compiled by the light engine (regex-lite), which
    /// compiles in a tenth of the time and searches slower. It answers
    /// whether the pattern matches ASCII text (a line's image among it),
    /// which it reads as the regex crate does (Unicode's classes, word
    /// bounds and folded cases read ASCII text as ASCII's do), until its
    /// searches have cost about what compiling the pattern with the regex
    /// crate would. None where it cannot read the pattern (a class of a
    /// Unicode property, a class in a class).
    light: Option<regex_lite::Regex>,
    /// How long compiling it took, in nanoseconds, and how long its
    /// searches have taken.
    light_cost: u64,
    light_spent: AtomicU64,
    /// The pattern with its numbered groups made plain ([`ungrouped`]),
    /// compiled by the regex crate the first time the light engine does
    /// not answer; with how long that took, in nanoseconds (about what its
    /// image takes), and whether it has numbered groups.
    exact: OnceLock<(Regex, u64, bool)>,
    /// The pattern with its numbered groups, when it has any: compiled the
    /// first time a caller reads its groups ([`Pattern::grouped`]).
    grouped: OnceLock<Regex>,
    /// The characters outside ASCII the pattern tells apart from others of
    /// their kind ([`significant`]): of a line with none of them, it is
    /// asked of its ASCII image. None: never of the image. Made when it is
    /// first asked of such a line.
    named: OnceLock<Option<regex_syntax::hir::ClassUnicode>>,
    /// The pattern's image ([`image_of`]), compiled once it has been asked
    /// often enough of lines its image cannot answer for; None when it has
    /// none (an ASCII word bound reads a letter of another script
    /// otherwise than its stand-in).
    image: OnceLock<Option<Regex>>,
    /// How many times it was asked of such lines, and how many of those
    /// its image let through; and whether the image let most through, so
    /// it is asked no more.
    asked: AtomicU32,
    passed: AtomicU32,
    /// How many bytes of such lines it was asked of before its image.
    bytes: AtomicU64,
    /// The asks when the image was compiled.
    warmed_at: AtomicU32,
    /// How long it has searched lines as written that its image could
    /// have answered for. However few the asks and the bytes, the image is
    /// compiled once those searches have taken as long as compiling the
    /// pattern did: a pattern of some thousand words with their cases
    /// folded reads a line of a hundred bytes of Portuguese in a fifth of a
    /// millisecond, and compiles in three. Whatever the clock says, every
    /// answer is the pattern's own: the image only spares searches.
    spent: AtomicU64,
    useless: AtomicBool,
}

impl Pattern {
    /// Compiles `source`, where an apostrophe stands for either one people
    /// type, straight or curly: "don’t do anything else" is "don't".
    pub(crate) fn new(source: &str) -> Result<Pattern, regex::Error> {
        let source = rewritten(source, |_, _| None, apostrophe);
        let (light, light_cost) = clocked(|| {
            // Its groups made plain, as the light engine keeps a slot for
            // each group at each state of the pattern as it searches: with
            // them, searching the patterns a late-installed hook compiles
            // took ten times as long, and 24 MB more.
            let plain = rewritten(
                &source,
                |_, _| None,
                |c, in_class, next| {
                    (c == '(' && !in_class && next != Some('?')).then(|| "(?:".to_owned())
                },
            );
            regex_lite::Regex::new(&ascii_properties(&plain)).ok()
        });
        let pattern = Pattern {
            source: source.into_boxed_str(),
            light,
            light_cost,
            light_spent: AtomicU64::new(0),
            exact: OnceLock::new(),
            grouped: OnceLock::new(),
            named: OnceLock::new(),
            image: OnceLock::new(),
            asked: AtomicU32::new(0),
            passed: AtomicU32::new(0),
            bytes: AtomicU64::new(0),
            warmed_at: AtomicU32::new(u32::MAX),
            spent: AtomicU64::new(0),
            useless: AtomicBool::new(false),
        };
        // What the light engine cannot read is compiled now, so that a
        // pattern that does not compile says so here. With debug
        // assertions every pattern is, and each answer of the light engine
        // is checked against the regex crate's ([`Pattern::ascii`]).
        if pattern.light.is_none() || cfg!(debug_assertions) {
            let exact = Pattern::compile(&pattern.source)?;
            let _ = pattern.exact.set(exact);
        }
        Ok(pattern)
    }

    /// `source` compiled by the regex crate without its numbered groups,
    /// with how long that took and whether it had any.
    fn compile(source: &str) -> Result<(Regex, u64, bool), regex::Error> {
        let plain = ungrouped(source);
        let (exact, cost) = clocked(|| Regex::new(plain.as_deref().unwrap_or(source)));
        Ok((exact?, cost, plain.is_some()))
    }

    /// The pattern compiled by the regex crate (compiled now if it was
    /// not), how long that took, and whether it has numbered groups.
    fn compiled(&self) -> &(Regex, u64, bool) {
        self.exact.get_or_init(|| {
            // `new` compiled each pattern the light engine did not read,
            // and the light engine reads no pattern the regex crate does
            // not.
            #[allow(clippy::expect_used)]
            Pattern::compile(&self.source).expect("a pattern the light engine read compiles")
        })
    }

    /// The pattern compiled by the regex crate.
    fn exact(&self) -> &Regex {
        &self.compiled().0
    }

    /// How long compiling the pattern with the regex crate took.
    fn cost(&self) -> u64 {
        self.compiled().1
    }

    /// What `light` or `exact` answers of `haystack`, which is ASCII: the
    /// light engine is asked while its searches have cost less than
    /// compiling the pattern with the regex crate would, then the regex
    /// crate.
    fn ascii<T: PartialEq + std::fmt::Debug>(
        &self,
        haystack: &str,
        light: impl Fn(&regex_lite::Regex) -> T,
        exact: impl FnOnce(&Regex) -> T,
    ) -> T {
        if let Some(engine) = self.light_now() {
            return self.light_timed(|| light(engine));
        }
        let found = exact(self.exact());
        debug_assert!(
            self.light
                .as_ref()
                .is_none_or(|engine| light(engine) == found),
            "the light engine answers {haystack:?} otherwise than the regex crate for {}",
            self.source
        );
        found
    }

    /// The light engine, while it is to answer: the regex crate has not
    /// compiled the pattern (nor is this thread one that compiles what it
    /// asks), and its searches have cost less than that would.
    fn light_now(&self) -> Option<&regex_lite::Regex> {
        let light = self.light.as_ref()?;
        let spent = self.light_spent.load(Ordering::Relaxed);
        (self.exact.get().is_none()
            && !COMPILING.get()
            && spent < self.light_cost.saturating_mul(LIGHT_SEARCHES))
        .then_some(light)
    }

    /// `search` by the light engine, its time added to what its searches
    /// have cost.
    fn light_timed<T>(&self, search: impl FnOnce() -> T) -> T {
        let (found, took) = clocked(search);
        self.light_spent.fetch_add(took, Ordering::Relaxed);
        found
    }

    /// Whether the pattern matches `haystack`, which is ASCII.
    fn ascii_match(&self, haystack: &str) -> bool {
        self.ascii(
            haystack,
            |light| light.is_match(haystack),
            |exact| exact.is_match(haystack),
        )
    }

    /// Whether the pattern's image lets the image of `haystack` through
    /// (`false` only when the pattern cannot match it), for a line of
    /// another script that the line's image alone cannot answer for. (A
    /// pattern without word bounds gains by it too: the fast automaton
    /// builds its states over the image's few characters, not over the
    /// thousands its classes hold.)
    fn may_match(&self, haystack: &str) -> bool {
        if self.useless.load(Ordering::Relaxed) {
            return true;
        }
        let asked = self.asked.fetch_add(1, Ordering::Relaxed);
        if self.image.get().is_none() {
            let len = haystack.len() as u64;
            let bytes = self.bytes.fetch_add(len, Ordering::Relaxed) + len;
            if asked < WARM
                && bytes < WARM_BYTES
                && self.spent.load(Ordering::Relaxed) < self.cost()
            {
                return true;
            }
            self.warmed_at.fetch_min(asked, Ordering::Relaxed);
        }
        // Asked `WARM` times since it warmed up: the image stays if it
        // answered "no" to at least half of them.
        let since = asked.saturating_sub(self.warmed_at.load(Ordering::Relaxed));
        let passed = u64::from(self.passed.load(Ordering::Relaxed));
        if since >= WARM && passed * 2 > u64::from(since) {
            self.useless.store(true, Ordering::Relaxed);
            return true;
        }
        let image = self.image.get_or_init(|| image_of(self.exact().as_str()));
        let may = image.as_ref().is_none_or(|image| {
            with_image(haystack, None, |line| image.is_match(line)).unwrap_or(true)
        });
        if may {
            self.passed.fetch_add(1, Ordering::Relaxed);
        }
        may
    }

    /// What the pattern tells apart ([`significant`]), made once: read
    /// from the table worked out ahead ([`worked_out`]) where the pattern
    /// is in it.
    fn named(&self) -> Option<&regex_syntax::hir::ClassUnicode> {
        self.named
            .get_or_init(|| worked_out(&self.source).unwrap_or_else(|| significant(&self.source)))
            .as_ref()
    }

    /// The pattern with its numbered groups, for a caller that reads them.
    fn grouped(&self) -> &Regex {
        self.grouped.get_or_init(|| {
            let (exact, _, groups) = self.compiled();
            groups
                .then(|| Regex::new(&self.source).ok())
                .flatten()
                .unwrap_or_else(|| exact.clone())
        })
    }

    /// Whether the pattern matches `haystack`, as far as the line's image
    /// tells: `Some` answer when the line is of another script and its
    /// image can answer for it ([`with_image`]); `Some(false)` too when
    /// the pattern's image finds nothing in it ([`Pattern::may_match`]);
    /// `None` when the line must be searched as written.
    fn imaged(&self, haystack: &str) -> Option<bool> {
        // A thread that compiles what another will ask searches as written:
        // what it wants is the pattern compiled, not its answer sooner.
        if haystack.is_ascii() || COMPILING.get() {
            return None;
        }
        if let Some(named) = self.named() {
            if let Some(matches) =
                with_image(haystack, Some(named), |image| self.ascii_match(image))
            {
                return Some(matches);
            }
        }
        (!self.may_match(haystack)).then_some(false)
    }

    /// Whether the pattern can match `haystack`: `false` only when it
    /// cannot. A line whose image says no is not searched where it is
    /// written, which a pattern with a word bound does on the slowest of
    /// the regex crate's engines wherever the line holds a letter outside
    /// ASCII.
    fn can_match(&self, haystack: &str) -> bool {
        self.imaged(haystack) != Some(false)
    }

    /// `search` of `haystack` as written, timed where the pattern's image
    /// is still to be compiled and could have answered (`spent`).
    fn timed<T>(&self, haystack: &str, search: impl FnOnce() -> T) -> T {
        if haystack.is_ascii() || self.image.get().is_some() {
            return search();
        }
        let (found, took) = clocked(search);
        self.spent.fetch_add(took, Ordering::Relaxed);
        found
    }

    /// As [`Regex::is_match`].
    pub(crate) fn is_match(&self, haystack: &str) -> bool {
        if haystack.is_ascii() {
            return self.ascii_match(haystack);
        }
        self.imaged(haystack)
            .unwrap_or_else(|| self.timed(haystack, || self.exact().is_match(haystack)))
    }

    /// As [`Regex::find`].
    pub(crate) fn find<'h>(&self, haystack: &'h str) -> Option<Found<'h>> {
        let at = |range| Found::at(haystack, range);
        if haystack.is_ascii() {
            return self.ascii(
                haystack,
                |light| light.find(haystack).map(|m| at(m.range())),
                |exact| exact.find(haystack).map(|m| at(m.range())),
            );
        }
        self.can_match(haystack)
            .then(|| self.timed(haystack, || self.exact().find(haystack)))
            .flatten()
            .map(|m| at(m.range()))
    }

    /// As [`Regex::captures`].
    pub(crate) fn captures<'h>(&self, haystack: &'h str) -> Option<Captures<'h>> {
        self.can_match(haystack)
            .then(|| self.timed(haystack, || self.grouped().captures(haystack)))
            .flatten()
    }

    /// As [`Regex::find_iter`]: none at all where the pattern cannot match
    /// (the iterator searches only when asked).
    pub(crate) fn find_iter<'r, 'h>(&'r self, haystack: &'h str) -> FoundIter<'r, 'h> {
        if haystack.is_ascii() {
            if let Some(light) = self.light_now() {
                return FoundIter::Light(self, haystack, light.find_iter(haystack));
            }
        }
        debug_assert!(
            !haystack.is_ascii()
                || self.light.as_ref().is_none_or(|light| {
                    light
                        .find_iter(haystack)
                        .map(|m| m.range())
                        .eq(self.exact().find_iter(haystack).map(|m| m.range()))
                }),
            "the light engine finds otherwise than the regex crate in {haystack:?} for {}",
            self.source
        );
        let may = self.can_match(haystack);
        FoundIter::Exact(
            haystack,
            self.exact()
                .find_iter(haystack)
                .take(if may { usize::MAX } else { 0 }),
        )
    }

    /// As [`Regex::captures_iter`] (see [`Pattern::find_iter`]).
    pub(crate) fn captures_iter<'r, 'h>(
        &'r self,
        haystack: &'h str,
    ) -> Take<CaptureMatches<'r, 'h>> {
        let may = self.can_match(haystack);
        self.grouped()
            .captures_iter(haystack)
            .take(if may { usize::MAX } else { 0 })
    }

    /// As [`Regex::replace_all`].
    pub(crate) fn replace_all<'h, R: Replacer>(&self, haystack: &'h str, with: R) -> Cow<'h, str> {
        if self.can_match(haystack) {
            self.grouped().replace_all(haystack, with)
        } else {
            Cow::Borrowed(haystack)
        }
    }
}

/// Where a pattern matched in a haystack, as [`regex::Match`] says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found<'h> {
    haystack: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Found<'h> {
    /// The match of `haystack` at `range`.
    fn at(haystack: &'h str, range: std::ops::Range<usize>) -> Found<'h> {
        Found {
            haystack,
            start: range.start,
            end: range.end,
        }
    }

    /// Where the match starts, in bytes.
    pub(crate) fn start(&self) -> usize {
        self.start
    }

    /// Where the match ends, in bytes.
    pub(crate) fn end(&self) -> usize {
        self.end
    }

    /// The bytes it spans.
    pub(crate) fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The text it spans.
    pub(crate) fn as_str(&self) -> &'h str {
        self.haystack.get(self.range()).unwrap_or_default()
    }
}

/// The matches of [`Pattern::find_iter`], by whichever engine answers.
pub(crate) enum FoundIter<'r, 'h> {
    Light(&'r Pattern, &'h str, regex_lite::Matches<'r, 'h>),
    Exact(&'h str, Take<Matches<'r, 'h>>),
}

impl<'h> Iterator for FoundIter<'_, 'h> {
    type Item = Found<'h>;

    fn next(&mut self) -> Option<Found<'h>> {
        match self {
            FoundIter::Light(pattern, haystack, matches) => {
                let range = pattern.light_timed(|| matches.next().map(|m| m.range()))?;
                Some(Found::at(haystack, range))
            }
            FoundIter::Exact(haystack, matches) => {
                Some(Found::at(haystack, matches.next()?.range()))
            }
        }
    }
}

/// `source` with each numbered group made plain (`(a|b)` as `(?:a|b)`), or
/// None when it has none (or does not parse: the regex crate then says
/// why). Named groups stay.
///
/// Where the fast automaton cannot answer (a word bound next to a letter
/// outside ASCII), the regex crate's slow one keeps a slot for each group
/// at each state of the pattern: the directive pattern, some thousand
/// words in 122 groups, took 54 MB a thread for slots nobody reads.
/// Whether and where a pattern matches does not depend on its groups.
fn ungrouped(source: &str) -> Option<String> {
    use regex_syntax::ast::{parse::Parser, visit, Ast, GroupKind, Visitor};

    /// Where each numbered group opens, in the order they open.
    struct Opens(Vec<usize>);
    impl Visitor for Opens {
        type Output = Vec<usize>;
        type Err = std::convert::Infallible;
        fn finish(self) -> Result<Vec<usize>, Self::Err> {
            Ok(self.0)
        }
        fn visit_pre(&mut self, ast: &Ast) -> Result<(), Self::Err> {
            if let Ast::Group(group) = ast {
                if matches!(group.kind, GroupKind::CaptureIndex(_)) {
                    self.0.push(group.span.start.offset);
                }
            }
            Ok(())
        }
    }
    let ast = Parser::new().parse(source).ok()?;
    let Ok(opens) = visit(&ast, Opens(Vec::new()));
    if opens.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(source.len() + 2 * opens.len());
    let mut from = 0;
    for open in opens {
        // `open` is where a `(` stands: one byte.
        out.push_str(source.get(from..=open)?);
        out.push_str("?:");
        from = open + 1;
    }
    out.push_str(source.get(from..)?);
    Some(out)
}

/// An apostrophe of a pattern's source as either one people type: `['’]`
/// outside a bracketed class, `'’` inside one.
fn apostrophe(c: char, in_class: bool, _next: Option<char>) -> Option<String> {
    match (c, in_class) {
        ('\'', false) => Some("['’]".to_owned()),
        ('\'', true) => Some("'’".to_owned()),
        _ => None,
    }
}

/// `source` with each escape `\c` that `rewrite(c, in_class)` rewrites
/// replaced by what it returns (`in_class`: inside a bracketed class, where
/// no flag can be set and `\b` is a backspace); every other character as it
/// is.
pub(crate) fn escapes(source: &str, rewrite: impl FnMut(char, bool) -> Option<String>) -> String {
    rewritten(source, rewrite, |_, _, _| None)
}

/// `source` with each Unicode property it names (`\p{Han}`, `\p{Lu}`,
/// `\P{L}`) put as the characters of it that ASCII holds, which the light
/// engine reads (it reads no property): it is asked of ASCII text only, on
/// which the two match alike. A property not here, or one negated inside a
/// bracketed class, is left as written, and the light engine does not read
/// the pattern.
fn ascii_properties(source: &str) -> String {
    // What each property holds of ASCII, as the body of a class. A
    // property that holds none of it (a script's letters, other symbols)
    // is put as what lies beyond ASCII, which ASCII text never holds.
    fn held(name: &str) -> Option<&'static str> {
        Some(match name {
            "P" => r"\x21-\x23\x25-\x2A\x2C-\x2F\x3A\x3B\x3F\x40\x5B-\x5D\x5F\x7B\x7D",
            "L" => "A-Za-z",
            "Lu" => "A-Z",
            "Ll" => "a-z",
            "N" => "0-9",
            "Han" | "So" => r"\x{80}-\x{10FFFF}",
            _ => return None,
        })
    }
    walked(
        source,
        |escape, in_class| {
            let negated = match escape.chars().next()? {
                'p' => false,
                'P' if !in_class => true,
                _ => return None,
            };
            let after = &escape[1..];
            let (name, len) = match after.strip_prefix('{') {
                Some(braced) => braced.find('}').map(|end| (&braced[..end], end + 2))?,
                None => {
                    let c = after.chars().next()?;
                    (&after[..c.len_utf8()], c.len_utf8())
                }
            };
            let body = held(name)?;
            let put = if in_class {
                body.to_owned()
            } else {
                format!("[{}{body}]", if negated { "^" } else { "" })
            };
            Some((put, 1 + len))
        },
        |_, _, _| None,
    )
}

/// `source` with each escape `\c` rewritten as [`escapes`] does, and each
/// other character `c` that `literal(c, in_class, next)` rewrites
/// replaced by what it returns (`next`: the character after it; the
/// brackets that open and close a class aside).
pub(crate) fn rewritten(
    source: &str,
    mut rewrite: impl FnMut(char, bool) -> Option<String>,
    literal: impl FnMut(char, bool, Option<char>) -> Option<String>,
) -> String {
    walked(
        source,
        |escape, in_class| {
            let c = escape.chars().next()?;
            rewrite(c, in_class).map(|text| (text, c.len_utf8()))
        },
        literal,
    )
}

/// The walk over a pattern's source that [`rewritten`] and
/// [`ascii_properties`] share: each escape is put as `escape(after,
/// in_class)` says (`after`: the source after its backslash; what to put,
/// and how many bytes of `after` it stands for), or as written where it
/// says nothing; each other character as `literal` says, the brackets that
/// open and close a class aside.
fn walked(
    source: &str,
    mut escape: impl FnMut(&str, bool) -> Option<(String, usize)>,
    mut literal: impl FnMut(char, bool, Option<char>) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    // How deep in bracketed classes, and whether a `]` now would be a
    // literal (first in its class).
    let (mut depth, mut opened) = (0usize, false);
    while let Some(c) = rest.chars().next() {
        let was_opened = std::mem::take(&mut opened);
        rest = &rest[c.len_utf8()..];
        match c {
            '\\' => match escape(rest, depth > 0) {
                Some((text, len)) => {
                    out.push_str(&text);
                    rest = &rest[len..];
                }
                None => {
                    out.push('\\');
                    if let Some(escaped) = rest.chars().next() {
                        out.push(escaped);
                        rest = &rest[escaped.len_utf8()..];
                    }
                }
            },
            '[' => {
                out.push(c);
                depth += 1;
                opened = true;
                if let Some(negated) = rest.strip_prefix('^') {
                    out.push('^');
                    rest = negated;
                }
            }
            ']' if depth > 0 && !was_opened => {
                out.push(c);
                depth -= 1;
            }
            _ => match literal(c, depth > 0, rest.chars().next()) {
                Some(text) => out.push_str(&text),
                None => out.push(c),
            },
        }
    }
    out
}

/// What `run` returns, and how long it took in nanoseconds.
fn clocked<T>(run: impl FnOnce() -> T) -> (T, u64) {
    let start = Instant::now();
    let out = run();
    (
        out,
        u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX),
    )
}

/// Compiles `patterns` with the regex crate now.
pub(crate) fn compile(patterns: &[&LazyLock<Pattern>]) {
    for pattern in patterns {
        let _ = LazyLock::force(pattern).exact();
    }
}

thread_local! {
    /// Whether this thread compiles each pattern it asks with the regex
    /// crate ([`compiling`]), rather than asking the light engine.
    static COMPILING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `ask` with every pattern it asks compiled by the regex crate, as a
/// thread that compiles the patterns another will need asks them.
pub(crate) fn compiling<T>(ask: impl FnOnce() -> T) -> T {
    let was = COMPILING.replace(true);
    let out = ask();
    COMPILING.set(was);
    out
}

/// Compiles `patterns` now, each with what it makes the first time it is
/// asked of a line of another script: what it tells apart
/// ([`significant`]). An image waits until its pattern has been asked
/// often enough to earn it. On a thread that runs it [`for_text`], only
/// what that text needs.
pub(crate) fn prepare(patterns: &[&LazyLock<Pattern>]) {
    FOR_TEXT.with(|text| {
        let text = text.borrow();
        for pattern in patterns {
            let pattern = LazyLock::force(pattern);
            #[cfg(test)]
            tests::LISTED.with(|listed| listed.borrow_mut().push(pattern.source.to_string()));
            let named = pattern.named();
            // A pattern is searched as written on a line that holds a
            // character it tells apart, and on every line beyond ASCII
            // where its image never answers for it.
            let written = text.as_ref().is_none_or(|chars| {
                named.is_none_or(|named| chars.iter().any(|&c| holds(named, c)))
            });
            if written {
                let _ = pattern.exact();
            }
        }
    });
}

thread_local! {
    /// The characters beyond ASCII of the text [`prepare`] on this thread
    /// prepares for ([`for_text`]).
    static FOR_TEXT: std::cell::RefCell<Option<Vec<char>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `prepare` with [`prepare`] making what another thread will need to
/// judge `text`, which holds characters beyond ASCII: what each pattern
/// tells apart, which that thread asks first of every such line, and the
/// pattern compiled by the regex crate where the line is to be searched as
/// written (the pattern tells apart one of its characters, or its image
/// never answers). Judging a prompt in Chinese, the hook's first thread
/// compiled 30 patterns, half of its instructions.
pub(crate) fn for_text<T>(text: &str, prepare: impl FnOnce() -> T) -> T {
    let mut chars: Vec<char> = text.chars().filter(|c| !c.is_ascii()).collect();
    chars.sort_unstable();
    chars.dedup();
    let was = FOR_TEXT.replace(Some(chars));
    let out = prepare();
    FOR_TEXT.set(was);
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

/// The key of the pattern written `source` in the table worked out ahead
/// ([`named::NAMED`]): the first eight bytes of its SHA-256, and its
/// length.
fn key(source: &str) -> (u64, usize) {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(source.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(first), source.len())
}

/// What the pattern written `source` tells apart, as the table worked out
/// ahead gives it ([`named::NAMED`]); `None` when the pattern is not in
/// it. Working it out ([`significant`]) takes a parse of the pattern with
/// Unicode's tables and its cases folded: a hook judging a prompt with one
/// curly apostrophe, an arrow or a word of Chinese in it spent some 160 M
/// instructions on it, half of what its first thread did.
fn worked_out(source: &str) -> Option<Option<regex_syntax::hir::ClassUnicode>> {
    use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
    let (hash, len) = key(source);
    let at = named::NAMED
        .binary_search_by(|(key, _)| key.cmp(&(hash, len)))
        .ok()?;
    let (_, runs) = named::NAMED.get(at)?;
    let Some(runs) = runs else {
        return Some(None);
    };
    let mut ranges = Vec::new();
    for &(from, count) in *runs {
        let from = usize::from(from);
        for &(start, end) in named::RANGES.get(from..from + usize::from(count))? {
            ranges.push(ClassUnicodeRange::new(
                char::from_u32(start)?,
                char::from_u32(end)?,
            ));
        }
    }
    Some(Some(ClassUnicode::new(ranges)))
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

/// The image of the pattern `source`: the pattern with each character
/// outside ASCII put as its stand-in ([`image`]), and each class holding,
/// beside its ASCII characters, the stand-in of every kind it holds a
/// character of. It matches the image of each line `source` matches, at
/// the same characters: a letter is a letter in both, so Unicode's word
/// bounds read them alike. None where it would not (a word bound read in
/// ASCII, a class of bytes) or does not compile.
fn image_of(source: &str) -> Option<Regex> {
    let hir = regex_syntax::Parser::new().parse(source).ok()?;
    Regex::new(&stood_in(&hir, KINDS.as_ref()?)?.to_string()).ok()
}

/// `hir` with its characters outside ASCII put as their stand-ins
/// ([`image_of`]).
fn stood_in(hir: &regex_syntax::hir::Hir, kinds: &Kinds) -> Option<regex_syntax::hir::Hir> {
    use regex_syntax::hir::{
        Capture, Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition,
    };
    Some(match hir.kind() {
        HirKind::Empty => Hir::empty(),
        HirKind::Look(
            Look::WordAscii
            | Look::WordAsciiNegate
            | Look::WordStartAscii
            | Look::WordEndAscii
            | Look::WordStartHalfAscii
            | Look::WordEndHalfAscii,
        )
        | HirKind::Class(Class::Bytes(_)) => return None,
        HirKind::Look(look) => Hir::look(*look),
        HirKind::Literal(literal) => {
            let text = std::str::from_utf8(&literal.0).ok()?;
            let stood: String = text.chars().map(|c| stand_in(c, kinds)).collect();
            Hir::literal(stood.into_bytes())
        }
        HirKind::Class(Class::Unicode(class)) => {
            let mut stood = class.clone();
            stood.intersect(&ClassUnicode::new([ClassUnicodeRange::new('\0', '\x7f')]));
            let mut added = Vec::new();
            if holds(class, '’') {
                added.push('\'');
            }
            for (kind, stand_in) in [
                (&kinds.word, '_'),
                (&kinds.space, '\x0b'),
                (&kinds.other, '\x01'),
            ] {
                let mut both = class.clone();
                both.intersect(kind);
                if !both.ranges().is_empty() {
                    added.push(stand_in);
                }
            }
            stood.union(&ClassUnicode::new(
                added.into_iter().map(|c| ClassUnicodeRange::new(c, c)),
            ));
            Hir::class(Class::Unicode(stood))
        }
        HirKind::Repetition(repetition) => Hir::repetition(Repetition {
            sub: Box::new(stood_in(&repetition.sub, kinds)?),
            ..repetition.clone()
        }),
        HirKind::Capture(capture) => Hir::capture(Capture {
            sub: Box::new(stood_in(&capture.sub, kinds)?),
            ..capture.clone()
        }),
        HirKind::Concat(all) => Hir::concat(
            all.iter()
                .map(|hir| stood_in(hir, kinds))
                .collect::<Option<_>>()?,
        ),
        HirKind::Alternation(all) => Hir::alternation(
            all.iter()
                .map(|hir| stood_in(hir, kinds))
                .collect::<Option<_>>()?,
        ),
    })
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
    let Some(kinds) = KINDS.as_ref() else {
        into.push_str(line);
        return;
    };
    for c in line.chars() {
        if !c.is_ascii() && c != '’' {
            held.push(c);
        }
        into.push(stand_in(c, kinds));
    }
    held.sort_unstable();
    held.dedup();
}

/// What `c` stands as in an image: itself if ASCII, a curly apostrophe as
/// a straight one, a letter (a word character, as `\w` reads them) as
/// `_`, a space (as `\s` reads them) as a vertical tab, any other sign as
/// `\x01`.
fn stand_in(c: char, kinds: &Kinds) -> char {
    match c {
        _ if c.is_ascii() => c,
        '’' => '\'',
        _ if holds(&kinds.word, c) => '_',
        _ if holds(&kinds.space, c) => '\x0b',
        _ => '\x01',
    }
}

thread_local! {
    /// The last line this thread made an image of, its image, and the
    /// characters outside ASCII it holds: the patterns that judge a unit
    /// are asked of it one after another.
    static IMAGE: std::cell::RefCell<(String, String, Vec<char>)> = std::cell::RefCell::default();
}

/// `ask` of the ASCII image of `line`, if the line holds none of the
/// characters in `named`, which the pattern tells apart (of any line, when
/// there are none).
fn with_image<T>(
    line: &str,
    named: Option<&regex_syntax::hir::ClassUnicode>,
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
        let tells = |named| held.iter().any(|&c| holds(named, c));
        (!named.is_some_and(tells)).then(|| ask(made))
    })
}

#[cfg(test)]
mod tests {
    thread_local! {
        /// The patterns [`super::prepare`] met on this thread, as written.
        pub(super) static LISTED: std::cell::RefCell<Vec<String>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }

    /// The table of what each pattern the judgment prepares tells apart
    /// (`pattern/named.rs`) is what [`super::significant`] works out for
    /// each. When a pattern changes, `CTXGUARD_BLESS=1 cargo test -p
    /// ctxguard-runtimes --lib named_table` writes it anew (a pattern
    /// missing from it is worked out when first asked: the table only
    /// spares time).
    #[test]
    fn the_named_table_is_what_each_pattern_tells_apart() {
        LISTED.with(|listed| listed.borrow_mut().clear());
        crate::audit::prepare();
        let mut sources = LISTED.with(|listed| listed.take());
        sources.sort();
        sources.dedup();
        assert!(sources.len() > 60, "{} patterns prepared", sources.len());
        let named: Vec<(String, Option<Ranges>)> = sources
            .iter()
            .map(|source| {
                let class = super::significant(source).map(|class| {
                    class
                        .ranges()
                        .iter()
                        .map(|r| (u32::from(r.start()), u32::from(r.end())))
                        .collect()
                });
                (source.clone(), class)
            })
            .collect();
        // Each range once, in the order the largest sets hold them, so
        // that a set is a few runs of the table.
        let mut by_size: Vec<&Ranges> = named
            .iter()
            .filter_map(|(_, class)| class.as_ref())
            .collect();
        by_size.sort_by_key(|class| std::cmp::Reverse(class.len()));
        let mut order: std::collections::HashMap<(u32, u32), usize> = Default::default();
        let mut ranges = Vec::new();
        for class in by_size {
            for &range in class {
                order.entry(range).or_insert_with(|| {
                    ranges.push(range);
                    ranges.len() - 1
                });
            }
        }
        let mut rows: Vec<((u64, usize), String)> = named
            .iter()
            .map(|(source, class)| {
                let runs = class.as_ref().map_or("None".to_owned(), |class| {
                    let mut at: Vec<usize> = class.iter().map(|range| order[range]).collect();
                    at.sort_unstable();
                    let mut runs: Vec<(usize, usize)> = Vec::new();
                    for index in at {
                        match runs.last_mut() {
                            Some((from, count)) if *from + *count == index => *count += 1,
                            _ => runs.push((index, 1)),
                        }
                    }
                    let runs: Vec<String> = runs
                        .iter()
                        .map(|(from, count)| format!("({from}, {count})"))
                        .collect();
                    format!("Some(&[{}])", runs.join(", "))
                });
                (super::key(source), runs)
            })
            .collect();
        rows.sort();
        let mut table = String::from(NAMED_HEAD);
        for ((hash, len), runs) in &rows {
            table.push_str(&format!("    ((0x{hash:016x}, {len}), {runs}),\n"));
        }
        table.push_str("];\n\n/// The ranges of characters the patterns tell apart, each once.\n#[rustfmt::skip]\npub(super) static RANGES: &[(u32, u32)] = &[\n");
        for line in ranges.chunks(6) {
            let line: Vec<String> = line
                .iter()
                .map(|(start, end)| format!("(0x{start:x}, 0x{end:x})"))
                .collect();
            table.push_str(&format!("    {},\n", line.join(", ")));
        }
        table.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/pattern/named.rs");
        if std::env::var_os("CTXGUARD_BLESS").is_some() {
            std::fs::write(path, &table).unwrap();
        }
        let written = std::fs::read_to_string(path).unwrap();
        assert!(
            written == table,
            "src/pattern/named.rs is not what the patterns tell apart: \
             CTXGUARD_BLESS=1 cargo test -p ctxguard-runtimes --lib named_table"
        );
        for source in &sources {
            assert_eq!(
                super::worked_out(source),
                Some(super::significant(source)),
                "{source}"
            );
        }
    }

    /// Ranges of characters, by their code points.
    type Ranges = Vec<(u32, u32)>;

    const NAMED_HEAD: &str = "\
//! What each pattern the judgment prepares tells apart from the others of
//! its kind ([`super::significant`]), worked out ahead. Written by
//! `CTXGUARD_BLESS=1 cargo test -p ctxguard-runtimes --lib named_table`,
//! which fails while it is not what the patterns tell apart; never edited
//! by hand.

/// Each pattern by its key ([`super::key`]), in order: `None` when its
/// image never answers for it, or the runs of [`RANGES`] it tells apart,
/// each where it starts and how many ranges it holds.
#[rustfmt::skip]
#[allow(clippy::type_complexity)]
pub(super) static NAMED: &[((u64, usize), Option<&[(u16, u16)]>)] = &[
";

    use super::*;
    use regex::Match;

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
        r"(?im)^#{1,3}[ \t]+\p{Lu}",
        r"\p{L}\p{N}|\PL\p{Ll}",
        r"[\p{So}k]\P{P}|^[\s\p{P}]*$",
    ];

    /// Every line of up to `longest` characters of `alphabet`, once each.
    fn lines_of(alphabet: &[char], longest: usize) -> Vec<String> {
        let mut lines = vec![String::new()];
        for _ in 0..longest {
            let longer: Vec<String> = lines
                .iter()
                .flat_map(|line| alphabet.iter().map(move |c| format!("{line}{c}")))
                .collect();
            lines.extend(longer);
        }
        lines.sort();
        lines.dedup();
        lines
    }

    #[test]
    fn the_light_engine_answers_ascii_text_as_the_regex_crate_does() {
        // Every line of up to four characters of ASCII: letters (the two
        // whose cases fold to letters outside it among them), digits, the
        // stand-ins of a line's image (`_`, a vertical tab, `\x01`), spaces,
        // marks; alone and between words.
        let alphabet = [
            'a', 'k', 'S', 'é', '1', '_', '\x0b', '\x01', ' ', '\n', '\'', '.', '-', '#', '$',
        ];
        let ascii: Vec<char> = alphabet.into_iter().filter(char::is_ascii).collect();
        let mut read = 0;
        for source in KINDS {
            let pattern = Pattern::new(source).unwrap();
            let Some(light) = &pattern.light else {
                continue;
            };
            read += 1;
            for line in lines_of(&ascii, 4) {
                for line in [line.clone(), format!("so {line} do not keep")] {
                    assert_eq!(
                        light.is_match(&line),
                        pattern.exact().is_match(&line),
                        "{source} of {line:?}"
                    );
                }
            }
        }
        // Every one, those with a class of a Unicode property among them
        // (read as what the property holds of ASCII).
        assert_eq!(read, KINDS.len());
    }

    #[test]
    fn the_light_engine_reads_a_pattern_with_its_groups_made_plain() {
        let pattern = Pattern::new(r"(a|b)(?<name>c)[(]\(d'").unwrap();
        assert_eq!(
            pattern.light.as_ref().map(regex_lite::Regex::as_str),
            Some(r"(?:a|b)(?<name>c)[(]\(d['’]")
        );
        assert!(pattern.is_match("bc((d'") && !pattern.is_match("bc((d"));
        assert_eq!(&pattern.captures("ac((d’").unwrap()["name"], "c");
    }

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
                pattern.exact().as_str()
            );
        }
        let lines = lines_of(&alphabet, 3);
        for line in &lines {
            for framed in [line.clone(), format!("x{line}y"), format!("漢 {line} →")] {
                for pattern in &patterns {
                    assert_eq!(
                        pattern.is_match(&framed),
                        pattern.exact().is_match(&framed),
                        "{:?} of {framed:?}",
                        pattern.exact().as_str()
                    );
                    // Found where the line is searched as written, once
                    // the image says it can be.
                    assert_eq!(
                        pattern.find(&framed).map(|m| m.range()),
                        pattern.exact().find(&framed).map(|m| m.range()),
                        "{:?} found in {framed:?}",
                        pattern.exact().as_str()
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
        assert!(ascii_bound.is_match("éfoo") && !ascii_bound.exact().is_match("_foo"));
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
    fn the_image_of_a_pattern_matches_the_image_of_every_line_it_matches() {
        let alphabet = [
            'a', 'o', 'n', ' ', '\'', '’', 'ã', 'é', 'н', '漢', '→', '\u{3000}', '１', 'ſ', '_',
            '.',
        ];
        let lines = lines_of(&alphabet, 4);
        let sources = KINDS.iter().copied().chain([
            r"(?i)\bnão\b",
            r"(?i)\b(нужно|please)\b|漢\s*a",
            r"\bn[ãa]o\B",
            r"^[^ã\s]+$",
            r"\b{start}é",
            r"o’",
            r"\d\d",
        ]);
        let (mut into, mut held) = (String::new(), Vec::new());
        for source in sources {
            let exact = Regex::new(source).unwrap();
            let stood = image_of(source).unwrap_or_else(|| panic!("{source} has an image"));
            assert!(stood.as_str().is_ascii(), "{}", stood.as_str());
            for line in &lines {
                image(line, &mut into, &mut held);
                if exact.is_match(line) {
                    assert!(stood.is_match(&into), "{source} of {line:?}");
                }
            }
        }
        // It tells lines apart by their ASCII and by the kinds of their
        // other characters.
        let stood = image_of(r"(?i)\bnão\b").unwrap();
        image("nada → nó", &mut into, &mut held);
        assert!(!stood.is_match(&into));
        // A word bound read in ASCII reads a letter of another script
        // otherwise than its stand-in: no image.
        assert!(image_of(r"(?-u:\b)foo").is_none());
    }

    #[test]
    fn answers_are_the_patterns_own_on_text_of_any_script() {
        let pattern = Pattern::new(r"(?i)\b(нужно|please|do\s+not)\b").unwrap();
        let long = |s: &str| format!("{s} {}", "→ слово ".repeat(10));
        // Warmed up, so the pattern's image is asked.
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
            assert_eq!(pattern.is_match(&text), pattern.exact().is_match(&text));
            assert_eq!(
                pattern.find(&text).map(|m| m.range()),
                pattern.exact().find(&text).map(|m| m.range())
            );
            let ranges = |found: Vec<Match>| found.iter().map(Match::range).collect::<Vec<_>>();
            assert_eq!(
                pattern
                    .find_iter(&text)
                    .map(|m| m.range())
                    .collect::<Vec<_>>(),
                ranges(pattern.exact().find_iter(&text).collect())
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
                        .grouped()
                        .captures_iter(&text)
                        .filter_map(|c| c.get(1))
                        .collect()
                )
            );
        }
        // Where the image says no, nothing is found, not even the empty
        // match the pattern would find in empty text.
        let empty = Pattern::new(r"\bfoo\b|^$").unwrap();
        for _ in 0..=WARM {
            assert_eq!(empty.find_iter("→ bar").count(), 0);
            assert_eq!(empty.captures_iter("→ bar").count(), 0);
        }
        // The line's image answered: the pattern's was not needed.
        assert!(empty.image.get().is_none());
        assert_eq!(empty.exact().find_iter("").count(), 1);
        assert!(pattern.image.get().is_some_and(Option::is_some));
        assert_eq!(pattern.replace_all(&long("x"), "y"), long("x"));
        assert_eq!(
            pattern.replace_all(&long("please"), "P"),
            pattern.exact().replace_all(&long("please"), "P")
        );
    }

    #[test]
    fn a_pattern_matches_without_its_numbered_groups_and_reads_them_as_written() {
        let source = r"(?i)\b(fix|add)\s+(?P<what>\w+)|\(x\)|[(]y(?:z)";
        let pattern = Pattern::new(source).unwrap();
        // Only the named group and the whole match take slots where the
        // pattern is asked whether and where it matches.
        assert_eq!(pattern.exact().captures_len(), 2);
        assert_eq!(
            pattern.exact().as_str(),
            r"(?i)\b(?:fix|add)\s+(?P<what>\w+)|\(x\)|[(]y(?:z)"
        );
        assert_eq!(
            pattern.find("please Add tests").unwrap().as_str(),
            "Add tests"
        );
        let found = pattern.captures("please Add tests").unwrap();
        assert_eq!((&found[1], &found["what"]), ("Add", "tests"));
        let found: Vec<_> = pattern
            .captures_iter("fix a, add b")
            .map(|c| c[1].to_owned())
            .collect();
        assert_eq!(found, ["fix", "add"]);
        assert_eq!(pattern.replace_all("fix it", "$1/$what"), "fix/it");
        // A pattern with no numbered group is compiled once.
        let plain = Pattern::new(r"(?:a)(?P<b>b)").unwrap();
        assert!(!plain.compiled().2);
        assert_eq!(&plain.captures("ab").unwrap()["b"], "b");
        assert_eq!(ungrouped(r"\((?:a)"), None);
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
    fn an_image_that_lets_most_through_is_asked_no_more() {
        let pattern = Pattern::new(r"(?i)\b(i|we|não)\b").unwrap();
        // The `ã` keeps the line from its image, so the pattern's image is
        // asked: it matches "we" each time.
        let line = "it is what we said → não";
        for _ in 0..3 * WARM {
            assert!(pattern.find(line).is_some());
        }
        assert!(pattern.useless.load(Ordering::Relaxed));
        assert!(pattern.find("it→wes ã").is_none());
    }

    #[test]
    fn a_pattern_asked_of_long_text_compiles_its_image_within_a_few_asks() {
        let pattern = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        // A long s (which `(?i)s` matches) keeps the line from its image:
        // the pattern is asked of it as written.
        let long = "ſlovo → ".repeat(WARM_BYTES as usize / 8);
        for _ in 0..2 {
            assert!(pattern.find(&long).is_none());
        }
        assert!(pattern.image.get().is_some_and(Option::is_some));
        // A short message does not: a hook that judges one prompt is not
        // made to compile every pattern's image.
        let short = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        assert!(short.find("ſlovo → ſlovo").is_none());
        assert!(short.image.get().is_none());
        assert!(pattern.find(&format!("{long} Codex said: ok")).is_some());
    }

    #[test]
    fn a_pattern_whose_slow_searches_took_as_long_as_compiling_it_compiles_its_image() {
        let pattern = Pattern::new(r"(?i)\b(codex|claude)\s+said\b").unwrap();
        let line = "ſlovo → ſlovo";
        assert!(pattern.find(line).is_none());
        assert!(pattern.image.get().is_none());
        // The searches as written have cost what the compiling did: the
        // next line that needs the image is asked of it, whatever the count.
        pattern.spent.store(pattern.cost(), Ordering::Relaxed);
        assert!(pattern.find(line).is_none());
        assert!(pattern.image.get().is_some_and(Option::is_some));
        assert!(pattern.find("ſlovo → Claude said so").is_some());
    }
}
