//! What the user typed, split into the units a person would call one
//! requirement. A message is Markdown more often than not: a pasted plan
//! has headings, lists, tables and code. A list item is one unit, a table
//! row is one, a code block is one (never cut at `!=` or `..`), and prose is
//! cut into sentences and at line breaks — but never inside inline code or
//! a link. Headings, rules and table headers are kept apart as what they
//! are, so they can be set aside rather than judged.

use std::ops::Range;

use std::sync::LazyLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::pattern::Pattern;

mod sentences;

use sentences::sentences;

/// The letters of the scripts the audit's word lists are written in:
/// Latin (with its accents, Vietnamese's too), Greek, Cyrillic, kana, Han
/// and Hangul.
const LETTER: &str = r"0-9A-Za-z_\u{AA}\u{B5}\u{BA}\u{C0}-\u{D6}\u{D8}-\u{F6}\u{F8}-\u{24F}\u{300}-\u{3FF}\u{400}-\u{52F}\u{1E00}-\u{1FFF}\u{3040}-\u{30FF}\u{3400}-\u{4DBF}\u{4E00}-\u{9FFF}\u{AC00}-\u{D7AF}\u{F900}-\u{FAFF}";

/// `source` with `\w` and `\W` as the letters of [`LETTER`] and what is
/// not one: Unicode's `\w` holds some 770 ranges, and each of the few
/// dozen in these patterns costs a fraction of a millisecond to compile
/// in every process (a hook runs on every prompt) and makes a larger
/// automaton to search with.
///
/// Outside a bracketed class each is written case-sensitive (`(?-i:…)`):
/// the letters already hold both cases, and folding the case of their
/// ranges under `(?i)` is most of what compiling such a pattern costs.
/// (Inside a class, where no flag can be set, `\w` is its ranges, which a
/// light engine reads where it reads no class in a class; `\W` is a class
/// nested.)
pub(crate) fn scripts(source: &str) -> String {
    crate::pattern::escapes(source, |c, in_class| match (c, in_class) {
        ('w', false) => Some(format!("(?-i:[{LETTER}])")),
        ('W', false) => Some(format!("(?-i:[^{LETTER}])")),
        ('w', true) => Some(LETTER.to_owned()),
        ('W', true) => Some(format!("[^{LETTER}]")),
        _ => None,
    })
}

/// A line that only numbers a question the user answers on the next line:
/// "问题1", "Question 2", "Q3:", "第2题".
pub(crate) fn question_number(line: &str) -> bool {
    static QUESTION_NUMBER: LazyLock<Pattern> = LazyLock::new(|| {
        #[allow(clippy::expect_used)]
        Pattern::new(r"(?i)^(问题|题目?|question|q)\s*\d+\s*[:：.]?$|^第\s*[\d一二三四五六七八九十]+\s*题[:：]?$")
            .expect("the question-number pattern compiles")
    });
    QUESTION_NUMBER.is_match(line.trim())
}

/// Text that is output handed over, not words written: a row of values
/// set apart by commas alone (`John,30,NYC`: ASCII, no path or link in
/// it), what a shell, an installer or a build says ("zsh: command not
/// found: pnpm", "Successfully installed requests-2.31.0", "CMake failed
/// with exit code 1", "make: *** [Makefile:101: all] Error 2",
/// "collect2: error: ld returned 1 exit status"), a browser's or a dev
/// server's stack ("src/app/layout.tsx (51:5)", "<anonymous>", "Show 43
/// ignore-listed frame(s)"), a string copied
/// out of a JSON value with its line breaks escaped ("Summary: …\\n\\n
/// Answer: …"), a log line, a stack frame (Ruby's `app.rb:80:in 'run'`
/// among them), a JSON record, a shell prompt, a line a tool marks done or
/// failed (`✓`, `✅`, `❌`), an error or warning a compiler numbers in any
/// language ("오류 E0153(행 256, 열 15): …", "error E0425:"), a step a
/// tool reports in progress ("Compiling serde v1.0 ...", "네트워크 파라미터
/// 검사 중..."), and what a program's own debug prints say ("=== ROUND 1
/// ===", "init() called", "Modal found: YES").
pub(crate) static PASTED_LINE: LazyLock<OutputLine> = LazyLock::new(|| OutputLine {
    written: written_output(),
    localized: localized_output(),
});

/// What a browser's console prints before the page's own lines, which a
/// user copies with them: React's DevTools banner, the dev servers' stamps.
pub(crate) const CONSOLE_BANNER: &str =
    r"(download\s+the\s+(react|apollo|vue)\s+devtools\b|\[(vite|hmr|webpack-dev-server|wds)\]\s)";

/// [`PASTED_LINE`]'s shapes that name no letter outside ASCII: asked of a
/// line's ASCII image wherever the line is written in another script.
fn written_output() -> Pattern {
    #[allow(clippy::expect_used)]
    Pattern::new(&scripts(&[
        r#"(?mi)^\s*([^\n]*?\\n[ \t]*\\n|(?-i:Line)\s+\d+:\s|(net::)?(?-i:ERR_[A-Z_]{3,})\s*$|"#,
        CONSOLE_BANNER,
        r#"|={2,}[ \t]*[^=\n]{1,40}?[ \t]*={2,}[ \t]*$|[A-Za-z_$][\w$.]*[ \t]?\(\)[ \t]+called\b|[a-z][a-z ]{0,30}:[ \t]*(?-i:YES|NO|true|false|null|undefined|NaN)[ \t]*$"#,
        r#"|[A-Za-z0-9_.-]+\.(tsx?|jsx?|mjs|cjs|vue|svelte)(\?v=[A-Za-z0-9]+)?:\d+\s|\{"|\[\{"|\{'|'[^'\n]+'\s*:\s|(raise|throw)\s+\S|show\s+\d+\s+(more|ignore-listed)\s+frames?(\(s\))?\s*$|<anonymous>\s*$|call\s+stack\s*$|[\w./\[\]@-]+\.(tsx?|jsx?|mjs|cjs|vue|svelte)\s+\(\d+:\d+\)(\s+@\s+\S+)?\s*$|called\s+from:\s|\^{3,}\s*$|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|at\s+\S+\s+\(|at\s+.*:\d+:\d+\)?\s*$|File\s+"|Traceback\b|\w*(error|exception|warning)(\[E\d+\])?:|(error|warning|fehler|warnung|erreur|erro|aviso)\s*[a-z]?\d{2,}\s*[(:\[]|(checking|compiling|building|downloading|installing|resolving|fetching)\s[^\n]*\.{3}\s*$|(ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL)\b|npm (ERR|WARN)|\$\s|>>>\s|#\d+\s+0x|\S[^\n]*`(json|yaml|xml|db|gorm|bson|toml|mapstructure|validate|binding|form|protobuf):"[^"\n]*"[^`\n]*`\s*$|#\d+\s+(\d+\.\d+\s|\[|ERROR\b|DONE\b|CACHED\b|extracting\b|sha256:)|\s*\d+\s*[|│]|[|*\\/ ]*(commit\s+[0-9a-f]{7,40}\b|author:\s|date:\s)|[✓✔✗✘☐☑•⨯✖▲⚠✅❌]\s|(modified|new\s+file|deleted|renamed|both\s+modified):\s|On\s+branch\s|Changes\s+(not\s+staged|to\s+be\s+committed)|Untracked\s+files:|(Enumerating|Counting|Compressing|Writing|Receiving|Resolving)\s+(objects|deltas):|Total\s+\d+\s+\(delta|remote:\s|To\s+\S+\.git\s*$|(?-i:From)\s+(https?://|\S+@)?[\w.-]+\.\w+[:/][\w./~-]+\s*$|\d+\s[+-]\s{2,}\S|[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}\s|index:\s|[|*]\s*$|\|\s{2,}|\*\s+commit\s|"[^"\n]+"\s*:\s|import\s+([\w.]+(\s+as\s+\w+)?(\s*,\s*[\w.]+)*\s*;?\s*$|[{*'"]|[\w$]+\s*,?\s*(\{[^}\n]*\}\s*)?from\s+['"])|export\s+(default|const|let|var|function|class|type|interface|enum|async|abstract|\{|\*)|export\s+[A-Za-z_]\w*=|(const|let|var)\s+[\w$]+\s*[=:;]|(const|let|var)\s*[{\[]|function\s*\*?\s*[\w$]*\s*\(|def\s+\w+\s*\(|class\s+\w+\s*([(:{<]|extends\b|implements\b|$)|return(\s*;|\s+[^\n]*;\s*$|\s+[\w.$]+(\([^\n]*\))?\s*;?\s*$)|async\s+function|(public|private|protected)((\s+(static|final|abstract|readonly|override|async|virtual|sealed|partial))*\s+[\w<>\[\],.?]+\s+\w+\s*([({=;]|$)|\s*:\s*$|\s+(class|interface|enum|struct|fun|function|void|static)\b)|package\s+[\w.]+\s*;?\s*$|#include\s*[<"]|fn\s+\w+\s*[(<]|impl(<[^>\n]*>)?\s+\S|struct\s+\w+\s*([{(;<]|$)|enum\s+\w+\s*([{:<]|$)|interface\s+\w+\s*([{<]|extends\b|$)|type\s+\w+\s*(<[^>\n]*>\s*)?=|type\s+\w+\s+(struct|interface|func|map\[|\[)|(if|for|while|switch|catch)\s*\(|[}\])][;,)]*\s*$|</?[a-zA-Z][\w-]*(\s[^>]*)?>)|\S+:\d+:\d+|\S+\.\w+:\d+:in\s|;\s*$|=>\s*\{?\s*$|\{\s*$|[!-+\-.0-9;-~]*[A-Za-z]{2}[!-+\-.0-9;-~]*(,[!-+\-.0-9;-~]*){2,}\s*$|([!-+\-.0-9;-~]*,){2,}[!-+\-.0-9;-~]*[A-Za-z]{2}[!-+\-.0-9;-~]*\s*$|(zsh|bash|sh|fish|dash|ksh|pwsh):\s|([\w.-]+:\s+)?command\s+not\s+found\b|successfully\s+(installed|uninstalled|built|tagged)\s+\S|[\w.-]+\s+failed\s+with\s+exit\s+(code|status)\s+-?\d+|compiled\s+(successfully|with\s+\d+\s+(errors?|warnings?))\b|g?make(\[\d+\])?:\s+(\*\*\*|entering\s+directory|leaving\s+directory|nothing\s+to\s+be\s+done)|[\w.+-]+:\s+(fatal\s+)?(error|warning):\s"#,
    ]
    .concat()))
    .expect("the pasted pattern compiles")
}

/// [`PASTED_LINE`]'s shapes written in the words of other scripts: kept
/// apart, so a line of Korean or Japanese is searched as written for
/// these few words only, and by its image for the rest.
fn localized_output() -> Pattern {
    #[allow(clippy::expect_used)]
    Pattern::new(r"(?mi)^\s*((오류|경고|에러|エラー|警告|错误|錯誤)\s*[a-z]?\d{2,}\s*[(:\[]|[^\n]*\s중\.{3}\s*$)")
        .expect("the localized output pattern compiles")
}

/// A line of output handed over ([`PASTED_LINE`]).
pub(crate) struct OutputLine {
    written: Pattern,
    localized: Pattern,
}

impl OutputLine {
    /// Whether a line of `text` is output.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        let output = |line: &str| self.written.is_match(line) || self.localized.is_match(line);
        if !output(text) {
            return false;
        }
        if !text.contains(MARKS) {
            return true;
        }
        // A line the user marked as a rule is theirs, if only its mark
        // made it output.
        text.lines().any(|line| match marked_rule(line) {
            Some(rule) => output(rule),
            None => output(line),
        })
    }
}

/// The marks a tool opens its status lines with: done, failed, a bullet,
/// a warning.
const MARKS: &[char] = &[
    '✓', '✔', '✗', '✘', '☐', '☑', '•', '⨯', '✖', '▲', '⚠', '✅', '❌',
];

/// What follows the mark of a line the user marked as a rule of theirs
/// ("✅ Keep the API stable", "❌ Don't touch the database", "• Use
/// pnpm"): the words after it open as an instruction does. A tool's
/// status line tells what happened ("✓ tests pass", "✅ Build
/// succeeded", "✓ should render the header (5 ms)").
fn marked_rule(line: &str) -> Option<&str> {
    // Only verbs a status line does not open with: "✓ no errors", "✓
    // test/app.spec.ts (5 tests)", "✔ Update available" are a tool's.
    #[rustfmt::skip]
    const OPENS: &[&str] = &[
        "use", "keep", "avoid", "add", "remove", "delete", "don't", "dont", "never", "always",
        "make", "ensure", "write", "create", "fix", "only", "prefer", "follow", "include",
        "exclude", "put", "move", "rename", "replace", "change", "hide", "store", "save", "send",
        "validate", "allow", "block", "skip", "ignore", "implement", "deploy", "commit", "push",
        "merge", "mention", "ask", "let",
    ];
    let rest = line.trim_start().strip_prefix(MARKS)?;
    let rest = rest.trim_start_matches(['\u{fe0f}', '\u{fe0e}']);
    let words = rest.trim_start();
    if words.len() == rest.len() {
        return None;
    }
    let first = words
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .next()?
        .to_lowercase()
        .replace('’', "'");
    OPENS.contains(&first.as_str()).then_some(words)
}

/// What shape of Markdown a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A sentence (or a line) of prose.
    Sentence,
    /// A list item, without its marker and nested lists.
    Item,
    /// A row of a table's body.
    Row,
    /// A code block's content.
    Code,
    /// A heading, or a table's header row.
    Heading,
    /// A sentence of a block quote: someone else's words, quoted.
    Quote,
    /// Raw HTML.
    Html,
    /// Output pasted under the user's words in the same item or paragraph
    /// (cut off them by the judgment of what binds).
    Output,
}

/// One unit of a message: where it stands in the message's text, and its shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    pub range: Range<usize>,
    pub shape: Shape,
}

impl Unit {
    /// The unit's text in `message`.
    pub fn text<'t>(&self, message: &'t str) -> &'t str {
        message.get(self.range.clone()).unwrap_or_default()
    }
}

/// The units of what a person wrote, in order: a list item holds the few
/// words nested under it, or the clauses its colon announces ("Auto
/// completion must:" over "- mark completedAt"), as one requirement.
/// Empty ones (white space, markers, a line of punctuation) are left out.
pub(crate) fn units(text: &str) -> Vec<Unit> {
    cut(text, Reading::Written)
}

/// The units of a summary, or of what the runtime carried over after it,
/// in order: a label over a list ("Pending Tasks:" over "- Write the
/// migration test.") stands apart from it, so each entry is found where
/// it is.
pub(crate) fn summary_units(text: &str) -> Vec<Unit> {
    cut(text, Reading::Kept)
}

/// What a text is read for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// The requirements a person wrote.
    Written,
    /// Where each requirement went.
    Kept,
}

fn cut(text: &str, reading: Reading) -> Vec<Unit> {
    let masked = untagged(text);
    let text = masked.as_str();
    let fill = sentences::fill_width(text);
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut out = Vec::new();
    // Open list items: where each starts, where its own text ends (before
    // a nested list), and how many units were cut before it.
    let mut items: Vec<(usize, Option<usize>, usize)> = Vec::new();
    let mut quote_depth = 0usize;
    let mut paragraph: Option<(usize, Vec<Range<usize>>)> = None;
    let mut code: Option<Range<usize>> = None;
    let mut in_code = false;
    let mut markdown = false;
    let mut block = 0..0;
    let mut in_head = false;
    // Inline code, links and HTML, wherever they stand: no sentence ends
    // inside one.
    let mut inline: Vec<Range<usize>> = Vec::new();
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => items.push((range.start, None, out.len())),
            Event::Start(Tag::List(_)) => {
                if let Some((_, own_end, _)) = items.last_mut() {
                    own_end.get_or_insert(range.start);
                }
            }
            Event::End(TagEnd::Item) => {
                if let Some((start, own_end, before)) = items.pop() {
                    // "Dashboard" over "- overview", "- alerts": the parts
                    // of one requirement, each nothing out of its place;
                    // "Auto completion must:" over "- mark completedAt",
                    // "- attach a timeline event on vehicle/case", "Vehicle
                    // matching strategy:" over "1) exact VRM match on same
                    // dealer", "2) if multiple, choose most recently sold":
                    // the clauses that make up what its colon announces.
                    // A value fixed
                    // ("- target: user:191633014441115648"), a file named
                    // or a thing mapped to another is a requirement of its
                    // own wherever it stands.
                    // A label set in bold with its colon, as a heading is
                    // ("**Veiligheid & best practices**:" over "- Rate
                    // limiting", "- Geen API keys in code"), heads
                    // requirements each of their own. In a summary any
                    // label does, so each entry is found where it is.
                    let own = own_end.map(|end| &text[strip_marker(text, start..end)]);
                    let announced = reading == Reading::Written && own.is_some_and(announces_list);
                    let heads = own.is_some_and(|own| match reading {
                        Reading::Written => bold_label(own),
                        Reading::Kept => announces_list(own),
                    });
                    if own_end.is_some()
                        && !heads
                        && out.len() > before
                        && out[before..].iter().all(|u: &Unit| {
                            let nested = u.text(text);
                            (part(nested, PART) || (announced && part(nested, CLAUSE_PART)))
                                && (reading == Reading::Kept
                                    || !(fixes_value(nested) || stands_alone(nested)))
                        })
                    {
                        out.truncate(before);
                        push(
                            &mut out,
                            text,
                            strip_marker(text, start..range.end),
                            Shape::Item,
                        );
                    } else {
                        let end = own_end.unwrap_or(range.end);
                        let item = strip_marker(text, start..end);
                        let nested = out.len();
                        // The agent's question copied with the user's answer
                        // typed after it: the question, then the answer.
                        match answered(text, &item) {
                            Some(at) => {
                                push(&mut out, text, item.start..at, Shape::Item);
                                push(&mut out, text, at..item.end, Shape::Item);
                            }
                            None => push_item(&mut out, text, item, &inline),
                        }
                        // The item's own text stands before the items
                        // nested in it, as it is written: "DealerInvite:"
                        // is followed by its fields, not by the list after.
                        let own = out.len() - nested;
                        out[before..].rotate_right(own);
                    }
                    // A list quoted with `>` (the agent's plan the user
                    // answers point by point) is quoted, as its paragraphs
                    // are.
                    if quote_depth > 0 {
                        for unit in out.iter_mut().skip(before) {
                            unit.shape = Shape::Quote;
                        }
                    }
                }
            }
            Event::Start(Tag::BlockQuote(_)) => quote_depth += 1,
            Event::End(TagEnd::BlockQuote(_)) => quote_depth = quote_depth.saturating_sub(1),
            Event::Start(Tag::Paragraph) if items.is_empty() => {
                paragraph = Some((range.start, Vec::new()));
            }
            Event::End(TagEnd::Paragraph) if items.is_empty() => {
                if let Some((start, protected)) = paragraph.take() {
                    // Code pasted without a fence is one block, not a
                    // sentence a line.
                    if unfenced_code(&text[start..range.end]) {
                        push(&mut out, text, start..range.end, Shape::Code);
                        continue;
                    }
                    // A tree typed with arrows is one unit, as a code
                    // block is: the structure it draws is one requirement.
                    if arrow_tree(&text[start..range.end]) {
                        push(&mut out, text, start..range.end, Shape::Item);
                        continue;
                    }
                    let shape = if quote_depth > 0 {
                        Shape::Quote
                    } else {
                        Shape::Sentence
                    };
                    for sentence in sentences(text, start..range.end, &protected, fill) {
                        // An item of a list typed along one line ("…goals: -
                        // Target: DNLauncher.exe - Use MinHook", "1. dllmain.cpp
                        // 2. Launcher.cpp") is an item as one on its own line is.
                        let shape =
                            if shape == Shape::Sentence && inline_item(text, sentence.clone()) {
                                Shape::Item
                            } else {
                                shape
                            };
                        push(&mut out, text, sentence, shape);
                    }
                }
            }
            Event::Code(_) | Event::Start(Tag::Link { .. }) | Event::InlineHtml(_) => {
                if let Some((_, protected)) = paragraph.as_mut() {
                    protected.push(range.clone());
                }
                inline.push(range);
            }
            Event::Start(Tag::Heading { .. }) if items.is_empty() => {
                if let Some(prose) = underlined_prose(text, &range) {
                    for sentence in sentences(text, prose, &[], None) {
                        push(&mut out, text, sentence, Shape::Sentence);
                    }
                    continue;
                }
                match hash_bullet(text, &range) {
                    Some(item) => push(&mut out, text, item, Shape::Item),
                    None => push(&mut out, text, range, Shape::Heading),
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code = true;
                code = None;
                block = range.clone();
                markdown =
                    matches!(&kind, CodeBlockKind::Fenced(info) if written_in_markdown(info));
            }
            Event::Text(_) if in_code => {
                code = Some(match code.take() {
                    Some(open) => open.start..range.end,
                    None => range,
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code = false;
                if let (Some(content), true) = (code.take(), items.is_empty()) {
                    // A fence that says its text is Markdown holds a
                    // document the user wrote (a brief, a spec): read as
                    // Markdown, not as code handed over.
                    if markdown {
                        let inner = &text[content.clone()];
                        for unit in cut(inner, reading) {
                            out.push(Unit {
                                range: content.start + unit.range.start
                                    ..content.start + unit.range.end,
                                shape: unit.shape,
                            });
                        }
                        continue;
                    }
                    match unclosed(text, block.clone(), content.clone()) {
                        // A fence never closed runs to the end of the
                        // message: the prose after its last blank line is
                        // the user's words again.
                        Some(prose) => {
                            push(&mut out, text, content.start..prose, Shape::Code);
                            let rest = &text[prose..content.end];
                            for unit in cut(rest, reading) {
                                out.push(Unit {
                                    range: prose + unit.range.start..prose + unit.range.end,
                                    shape: unit.shape,
                                });
                            }
                        }
                        None => push(&mut out, text, content, Shape::Code),
                    }
                }
            }
            Event::Start(Tag::TableHead) => {
                in_head = true;
                push(&mut out, text, range, Shape::Heading);
            }
            Event::End(TagEnd::TableHead) => in_head = false,
            Event::Start(Tag::TableRow) if !in_head => push(&mut out, text, range, Shape::Row),
            Event::Html(_) if items.is_empty() => push(&mut out, text, range, Shape::Html),
            _ => {}
        }
    }
    out
}

/// Whether a paragraph draws a tree with arrows, a line a branch ("Privat"
/// over "  -> Finanzen", "    --> Tagesberichte"): three such lines or
/// more, and at least two of every five, each a few words naming a node
/// (output that maps one record to another, "→ Alexandra Anger | a69fc521
/// | …", draws no tree).
fn arrow_tree(paragraph: &str) -> bool {
    let lines: Vec<&str> = paragraph
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .collect();
    if lines
        .iter()
        .any(|line| line.contains('|') || line.split_whitespace().count() > 12)
    {
        return false;
    }
    let branches = lines
        .iter()
        .filter(|line| {
            let rest = line.trim_start_matches(['-', '=']);
            (rest.len() < line.len() && rest.starts_with('>')) || line.starts_with('→')
        })
        .count();
    branches >= 3 && branches * 5 >= lines.len() * 2
}

/// Whether a paragraph is code pasted without a fence: a definition or an
/// assignment that opens a block (`class MindState(BaseModel):`, `def
/// run(raw: str) -> Envelope:`, `PIPELINE = [`, `interface Props {`) with
/// lines under it, imports alone (`from typing import Literal`) or opening
/// a list of names, or a decorator over what it decorates.
fn unfenced_code(paragraph: &str) -> bool {
    let lines: Vec<&str> = paragraph.lines().filter(|l| !l.trim().is_empty()).collect();
    let Some(first) = lines.first().map(|l| l.trim()) else {
        return false;
    };
    let import = |line: &str| {
        let line = line.trim();
        (line.starts_with("from ") && line.contains(" import "))
            || (line.starts_with("import ")
                && (line.ends_with(';') || !line.contains(' ') || line.contains(" from ")))
    };
    if lines.iter().all(|l| import(l)) {
        return true;
    }
    // Imports that open a list of names (`from aiogram.types import (`),
    // and a decorator over what it decorates (`@router.message(…)` over
    // `async def cmd_start(…):`).
    if lines.len() >= 2
        && ((first.starts_with("from ") && first.ends_with(" import ("))
            || (first.starts_with("import ") && first.ends_with(" {")))
    {
        return true;
    }
    // What opens a definition, and what else opens a named block.
    const DEFINITIONS: &[&str] = &[
        "class ",
        "def ",
        "async def ",
        "function ",
        "async function ",
        "export ",
    ];
    const OPENERS: &[&str] = &[
        "interface ",
        "struct ",
        "enum ",
        "impl ",
        "fn ",
        "pub fn ",
        "pub struct ",
        "type ",
        "const ",
        "let ",
    ];
    let defines = |line: &str| {
        let line = line.trim_start();
        DEFINITIONS.iter().any(|o| line.starts_with(o))
    };
    if first.starts_with('@')
        && first.len() > 1
        && first[1..].starts_with(|c: char| c.is_ascii_alphabetic())
        && !first.contains(char::is_whitespace)
        && lines
            .get(1)
            .is_some_and(|second| defines(second) || second.trim_start().starts_with('@'))
    {
        return true;
    }
    let opens_block = first.ends_with([':', '{', '(', '[']);
    let named = DEFINITIONS
        .iter()
        .chain(OPENERS)
        .any(|o| first.starts_with(o))
        || first
            .split_once(" = ")
            .is_some_and(|(name, _)| !name.is_empty() && !name.contains(char::is_whitespace));
    lines.len() >= 2 && opens_block && named && first.chars().any(|c| c.is_ascii_alphabetic())
}

/// Whether a fence's info string names Markdown (```` ```markdown ````,
/// `md`).
fn written_in_markdown(info: &str) -> bool {
    let language = info.split_whitespace().next().unwrap_or("");
    ["markdown", "md", "mdx"]
        .iter()
        .any(|name| language.eq_ignore_ascii_case(name))
}

/// Where the prose starts again in a fenced block that is never closed (it
/// runs to the end of the text): at the first line, past the fence's
/// first, that reads as prose, not code (a message copied from a chat
/// keeps the opening fence of its first block and loses the rest of its
/// Markdown); failing that, after its last blank line. `None` for a block
/// that is closed, or has neither.
fn unclosed(text: &str, block: Range<usize>, content: Range<usize>) -> Option<usize> {
    let raw = text.get(block.clone())?;
    let fenced = raw.trim_start().starts_with("```") || raw.trim_start().starts_with("~~~");
    let closed = raw
        .trim_end()
        .rsplit('\n')
        .next()
        .is_some_and(|last| last.trim().starts_with("```") || last.trim().starts_with("~~~"));
    if !fenced || closed || block.end < text.trim_end().len() {
        return None;
    }
    let inner = text.get(content.clone())?;
    let mut at = inner.find('\n').map_or(inner.len(), |n| n + 1);
    for line in inner[at..].split_inclusive('\n') {
        if reads_as_prose(line) {
            return Some(content.start + at);
        }
        at += line.len();
    }
    let blank = inner.rfind("\n\n")?;
    Some(content.start + blank + 2)
}

/// Whether a line of a code block reads as prose: not indented, a capital
/// first (after a list number), three words or more, and none of code's
/// marks (`=`, braces, `;`, a call).
fn reads_as_prose(line: &str) -> bool {
    static CODE_MARK: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(r"[={};]|[A-Za-z0-9_]\(|^\s|^(#|//|--|/\*|\*)")
            .expect("the code pattern compiles")
    });
    let line = line.trim_end();
    if CODE_MARK.is_match(line) {
        return false;
    }
    let words = line
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ')')
        .trim_start();
    words.chars().next().is_some_and(char::is_uppercase) && words.split_whitespace().count() >= 3
}

/// A line that is only a tag (`<summary>`, `</analysis>`): runtimes wrap a
/// summary in one, and Markdown would take all that follows it, up to a
/// blank line, for raw HTML.
static TAG_LINE: LazyLock<Pattern> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Pattern::new(&scripts(r"(?m)^[ \t]*</?[A-Za-z][\w-]*>[ \t]*$"))
        .expect("the tag pattern compiles")
});

/// `text` with every line that is only a tag blanked out, and each bullet
/// a word processor left at a line's start written as Markdown's, byte for
/// byte, so the units' ranges hold in `text` itself.
fn untagged(text: &str) -> String {
    let untagged = TAG_LINE.replace_all(text, |found: &regex::Captures<'_>| {
        " ".repeat(found[0].len())
    });
    let mut out = String::with_capacity(untagged.len());
    for line in untagged.split_inclusive('\n') {
        match bulleted(line) {
            Some(bulleted) => out.push_str(&bulleted),
            None => out.push_str(line),
        }
    }
    out
}

/// `line` with the bullet a word processor put at its start ("•    replichi
/// …", "o    non inserirli …", "\u{f0a7}    Costi del personale") made a
/// Markdown list marker of the same length ("  -    replichi …"). A word
/// processor sets its bullets apart with a tab or spaces: a bullet before
/// one space is a status line's ("• sandbox status"), and an "o" so is the
/// Portuguese article ("o que").
fn bulleted(line: &str) -> Option<String> {
    let bullet = line
        .chars()
        .next()
        .filter(|c| matches!(c, '•' | '◦' | '▪' | '·' | 'o' | '\u{f0a7}' | '\u{f0b7}'))?;
    let rest = &line[bullet.len_utf8()..];
    let gap = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let spaced = match bullet {
        '\u{f0a7}' | '\u{f0b7}' => gap >= 1,
        '•' | '◦' | '▪' | '·' | 'o' => gap >= 2 || rest.starts_with('\t'),
        _ => false,
    };
    let words = rest[gap..]
        .chars()
        .next()
        .is_some_and(char::is_alphanumeric);
    (spaced && words && gap <= 4).then(|| {
        let pad = bullet.len_utf8() - 1;
        format!("{}-{rest}", " ".repeat(pad))
    })
}

/// Whether a sentence of a paragraph opens along its line as a list's
/// item does: a dash, or a number of one or two digits with its period or
/// bracket, and a space. One that opens its line is a line Markdown read
/// on as the paragraph's ("    - Recruitment/Officer" in a pasted error).
fn inline_item(text: &str, sentence: Range<usize>) -> bool {
    let body = text[sentence.clone()].trim_start();
    let opens = body.starts_with("- ")
        || item_number(body.trim_start_matches('(')).is_some_and(|words| words.starts_with(' '));
    // Only the white space just before it is read back to its line's
    // start: a long line of many sentences is not read again for each.
    let before = text[..sentence.start].trim_end_matches(|c: char| c.is_whitespace() && c != '\n');
    opens && !before.is_empty() && !before.ends_with('\n')
}

/// What follows the number a line opens with as a list numbers its items,
/// one or two digits and their period or bracket ("2." or "2)"): the
/// item's words, with the space before them if there is one; `None` for a
/// line that opens otherwise.
fn item_number(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (1..=2)
        .contains(&digits)
        .then(|| line[digits..].strip_prefix([')', '.']))
        .flatten()
}

/// Adds the unit at `range`, trimmed, unless nothing in it is a letter or a digit.
fn push(out: &mut Vec<Unit>, text: &str, range: Range<usize>, shape: Shape) {
    let Some(slice) = text.get(range.clone()) else {
        return;
    };
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    if !trimmed.chars().any(char::is_alphanumeric) {
        return;
    }
    let start = range.start + lead;
    out.push(Unit {
        range: start..start + trimmed.len(),
        shape,
    });
}

/// An item on one line, cut at its sentences, each a requirement of its
/// own ("- Keep the API. Never touch the schema."), and where a full-width
/// semicolon sets clauses side by side ("- 交互设计：对话 + 功能区；非语言交互放
/// 在功能区；语言风格可以选标准/温暖/毒舌"); never inside inline code or links.
/// An item on more lines is one unit, but for one whose lines go on with
/// the numbers of its sections ("3. UI/UX" over "3.1. 반응형 디자인: …" and
/// "3.2. …", which Markdown reads as the item's own lines) or with the
/// numbers of the items after it typed with no space ("1) It is a demo"
/// over "2)For now …"): each line is cut as an item on one line is.
fn push_item(out: &mut Vec<Unit>, text: &str, item: Range<usize>, inline: &[Range<usize>]) {
    let Some(body) = text.get(item.clone()) else {
        return;
    };
    let protected: Vec<Range<usize>> = inline
        .iter()
        .filter(|r| r.start < item.end && item.start < r.end)
        .cloned()
        .collect();
    // A line after the item, not indented, that opens with a capital: a
    // sentence of its own that Markdown reads on as the item's ("- Remplacer
    // kern_sessions → sessions" over "Vérifier chaque node …"). A chat's
    // lines are the user's own breaks, not a wrapped line.
    if let Some(at) = body
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .find(|&at| body[at..].chars().next().is_some_and(char::is_uppercase))
    {
        push_item(out, text, item.start..item.start + at, inline);
        for sentence in sentences(text, item.start + at..item.end, &[], None) {
            push(out, text, sentence, Shape::Sentence);
        }
        return;
    }
    let lines = body.trim_end().contains('\n');
    if lines {
        let sections = body.lines().skip(1).any(|line| {
            let line = line.trim_start();
            section_number(line) || lettered(line) || glued_number(line).is_some()
        });
        if !sections {
            push(out, text, item, Shape::Item);
            return;
        }
    }
    // Most items are one sentence: ASCII with no stop but the last, and
    // no numbers of more items along it ("rename it 2) add a test").
    let stops = |c: char| matches!(c, '.' | '!' | '?' | ';');
    if !lines
        && body.is_ascii()
        && !body.trim_end().trim_end_matches(stops).contains(stops)
        && !sentences::numbers_items(body)
    {
        push(out, text, item, Shape::Item);
        return;
    }
    for sentence in sentences(text, item, &protected, None) {
        // "2)Recorded is fine": the number is the list's, not the item's
        // words ("2) Recorded is fine" quotes it).
        let body = text[sentence.clone()].trim_start();
        let words = glued_number(body).unwrap_or(body);
        push(
            out,
            text,
            sentence.end - words.len()..sentence.end,
            Shape::Item,
        );
    }
}

/// Whether `line` opens with a letter that numbers it among its
/// siblings: "a) Unresolved threads", "(b) top-level comments", "ii. the
/// reviews" — a list Markdown does not read as one ("e.g." and "i.e." are
/// no such letter: a space follows the mark).
fn lettered(line: &str) -> bool {
    let line = line.strip_prefix('(').unwrap_or(line);
    let letters = line.len()
        - line
            .trim_start_matches(|c: char| c.is_ascii_lowercase())
            .len();
    let roman = line[..letters]
        .bytes()
        .all(|b| matches!(b, b'i' | b'v' | b'x'));
    (letters == 1 || (roman && (2..=4).contains(&letters)))
        && line[letters..]
            .strip_prefix([')', '.'])
            .is_some_and(|rest| rest.starts_with(' '))
}

/// The words after the number `line` opens with when it is the next
/// item's number typed with no space before them ("2)For now it is okay
/// …", "3.We are searching …"), which Markdown reads on as the item
/// before.
fn glued_number(line: &str) -> Option<&str> {
    item_number(line).filter(|words| words.chars().next().is_some_and(char::is_alphabetic))
}

/// Whether `line` opens with a section's number: "3.1.", "1.2.3 ".
fn section_number(line: &str) -> bool {
    let number = &line[..line.len()
        - line
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
            .len()];
    section_parts(number.trim_end_matches('.')).is_some_and(|parts| parts >= 2)
}

/// How many parts a number of sections has ("3.1" has two, "12" one), when
/// each is one to three digits.
fn section_parts(number: &str) -> Option<usize> {
    let mut parts = 0;
    for part in number.split('.') {
        if !(1..=3).contains(&part.len()) || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        parts += 1;
    }
    Some(parts)
}

/// Where the answer starts in an item that is a question with its answer
/// typed after it on the same line ("范围确认：…还是也包括其他文件？ 所有，改之前
/// 先给我确认", "Which port? 8080"): after the last question mark that a
/// space or the line's end follows (not a URL's), when a short answer that
/// asks nothing comes after it.
fn answered(text: &str, item: &Range<usize>) -> Option<usize> {
    let body = text.get(item.clone())?;
    let (mark, question) = body.char_indices().rev().find(|&(at, c)| {
        (c == '？' || (c == '?' && body[at + 1..].starts_with([' ', '\t']))) && at > 0
    })?;
    let after = mark + question.len_utf8();
    let answer = body[after..].trim();
    let short = (1..=80).contains(&answer.chars().count());
    let one_line = !body[after..].trim_end().contains('\n');
    let asks_nothing = !answer.contains(['?', '？']);
    let question_long = body[..mark].chars().count() >= 10;
    (short && one_line && asks_nothing && question_long).then_some(item.start + after)
}

/// The most words an item nested under another can hold and still be a
/// part of it rather than a requirement of its own.
const PART: usize = 6;

/// The most words a nested item can hold and still be a clause of what
/// the item over it announces with its colon.
const CLAUSE_PART: usize = 12;

/// Whether a nested item is one line of at most `most` words: a part of
/// the item over it ([`PART`]), or a clause of what it announces
/// ([`CLAUSE_PART`]).
fn part(item: &str, most: usize) -> bool {
    !item.trim().contains('\n') && item.split_whitespace().count() <= most
}

/// Whether an item's own text ends with the colon that announces the
/// list nested in it.
fn announces_list(own: &str) -> bool {
    own.trim_end()
        .trim_end_matches(['*', '_'])
        .ends_with([':', '：'])
}

/// Whether an item's own text is a label set in bold with its colon
/// ("**Veiligheid & best practices**:", "**Security:**").
fn bold_label(own: &str) -> bool {
    let own = own.trim();
    let closed = own.trim_end_matches([':', '：']);
    let bold = |mark: &str| {
        closed.len() > 2 * mark.len() && closed.starts_with(mark) && closed.ends_with(mark)
    };
    announces_list(own) && (bold("**") || bold("__"))
}

/// Whether a line names a file, or maps one thing to another ("ChatScreen
/// → Dashboard tabs", "custom theme: read docs/theme.md", "PDI Form =>
/// Pre-Delivery Inspection task"): a requirement of its own wherever it
/// stands, in a list or nested under an item.
pub(crate) fn stands_alone(text: &str) -> bool {
    static OWN: LazyLock<Pattern> = LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        Pattern::new(&scripts(
            r"→|->|=>|\w\.(tsx?|jsx?|py|rs|md|json|ya?ml|toml|go|java|kt|swift|sql|sh|css|html|vue|rb|php|c|h|cpp)\b",
        ))
        .expect("the pattern of a line that stands alone compiles")
    });
    OWN.is_match(text)
}

/// Whether a nested item fixes a value: a name, then `:`, `=` or an arrow,
/// then one value that holds a digit, a dot, a slash or an `@`
/// ("target: user:191633014441115648", "`backend` → `api.example.com`",
/// "tokenHash = sha256(rawToken)").
fn fixes_value(item: &str) -> bool {
    let item = item.trim();
    let Some((name, value)) = [":", "：", "=", "→", "->"]
        .iter()
        .filter_map(|mark| item.split_once(mark))
        .min_by_key(|(name, _)| name.len())
    else {
        return false;
    };
    let value = value.trim().trim_matches(['`', '"', '\'', '*']);
    !name.trim().is_empty()
        && name.split_whitespace().count() <= 3
        && !value.is_empty()
        && !value.contains(char::is_whitespace)
        && value.contains(|c: char| c.is_ascii_digit() || matches!(c, '.' | '/' | '\\' | '@'))
}

/// The level of a Markdown heading line (`## Plan` is 2), 0 for any other.
fn heading_level(line: &str) -> usize {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let heading = (1..=6).contains(&level)
        && line[level..].starts_with([' ', '\t'])
        && !line[level..].trim().is_empty();
    if heading {
        level
    } else {
        0
    }
}

/// The heading on the line that holds `at`, if it is one: the line, its
/// level, and whether it is a bullet — a line marked `#` among others of
/// the same level, nothing between them, is an item of a list written
/// with `#` for bullets ("# every module follows one standard"), not a
/// heading.
pub(crate) fn heading_at(text: &str, at: usize) -> Option<(Range<usize>, usize, bool)> {
    let start = line_start(text, at);
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    let level = heading_level(&text[start..end]);
    if level == 0 {
        return None;
    }
    let before = start
        .checked_sub(1)
        .map(|newline| &text[line_start(text, newline)..newline]);
    let after = text
        .get(end + 1..)
        .map(|rest| rest.split('\n').next().unwrap_or_default());
    let bullet = [before, after]
        .into_iter()
        .flatten()
        .any(|line| heading_level(line) == level);
    Some((start..end, level, bullet))
}

/// The text after a file mentioned with `@` at its start ("@src/api/routes.ts
/// look at this file"), which the runtime attaches: a name with a `/` or a
/// `.`, not a person ("@yakschuss reply…"). `None` when it opens otherwise.
pub(crate) fn after_mention(text: &str) -> Option<&str> {
    let (name, rest) = text.strip_prefix('@')?.split_once(char::is_whitespace)?;
    name.contains(['/', '.']).then(|| rest.trim_start())
}

/// Where the line that holds `at` starts.
pub(crate) fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |n| n + 1)
}

/// A heading that is a `#` bullet ([`heading_at`]): its text without the
/// marks.
fn hash_bullet(text: &str, range: &Range<usize>) -> Option<Range<usize>> {
    let (line, level, bullet) = heading_at(text, range.start)?;
    bullet.then(|| {
        let marks = line.len() - text[line.clone()][level..].trim_start().len();
        line.start + marks..line.end
    })
}

/// The text over a line of `=` or `-` that Markdown reads as a heading,
/// when it is prose the user underlined to set a section off ("Use server
/// actions for each step save. Validate with Zod.\n=====", pasted
/// prompts draw such rules): it ends a sentence, or is too long for a
/// title. The range is the text without its underline.
fn underlined_prose(text: &str, range: &Range<usize>) -> Option<Range<usize>> {
    let source = text.get(range.clone())?;
    if source.trim_start().starts_with('#') {
        return None;
    }
    let body = source.trim_end().rsplit_once('\n')?.0;
    let words = body.split_whitespace().count();
    let ends_sentence = body.trim_end().ends_with(['.', '!', '?', '。', '！', '？']);
    (ends_sentence || words > 12).then(|| range.start..range.start + body.len())
}

/// A list item's range without its marker (`-`, `*`, `+`, `1.`, `2)`) and
/// task box (`[ ]`, `[x]`).
fn strip_marker(text: &str, range: Range<usize>) -> Range<usize> {
    let Some(slice) = text.get(range.clone()) else {
        return range;
    };
    let trimmed = slice.trim_start();
    let mut rest = trimmed;
    if let Some(after) = rest.strip_prefix(['-', '*', '+']) {
        rest = after;
    } else {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 {
            if let Some(after) = rest[digits..].strip_prefix(['.', ')']) {
                rest = after;
            }
        }
    }
    let rest = rest.trim_start();
    let rest = ["[ ]", "[x]", "[X]"]
        .iter()
        .find_map(|box_| rest.strip_prefix(box_))
        .unwrap_or(rest);
    range.start + (slice.len() - rest.len())..range.end
}

#[cfg(test)]
mod tests;
