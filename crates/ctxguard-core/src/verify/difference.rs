//! Saying how a plan's copy of a commitment differs from the trace's: a word
//! diff, a record's changed fields, or, when the difference cannot be seen,
//! its name (whitespace, line endings, Unicode normalization, invisible
//! characters).

use serde_json::Value;
use similar::{ChangeTag, TextDiff};
use unicode_normalization::UnicodeNormalization;

use crate::buffer::trace::{same_value, Content};
use crate::verify::text::{sentences, Words};

/// Notes for an `altered-commitment` diagnostic, most telling first.
pub fn differences(trace: &Content, plan: &Content) -> Vec<String> {
    match (trace, plan) {
        (Content::Text(a), Content::Text(b)) => text_differences(a, b),
        (Content::Record(a), Content::Record(b)) => {
            let mut notes = Vec::new();
            record_changes(a, b, &mut String::new(), &mut notes);
            notes.truncate(8);
            notes
        }
        (Content::Text(_), Content::Record(_)) => {
            vec!["the trace holds text; the plan writes a record".to_owned()]
        }
        (Content::Record(_), Content::Text(_)) => {
            vec!["the trace holds a record; the plan writes text".to_owned()]
        }
    }
}

const INVISIBLE: &[(char, &str)] = &[
    ('\u{200B}', "zero-width space"),
    ('\u{200C}', "zero-width non-joiner"),
    ('\u{200D}', "zero-width joiner"),
    ('\u{2060}', "word joiner"),
    ('\u{FEFF}', "zero-width no-break space"),
    ('\u{00AD}', "soft hyphen"),
    ('\u{00A0}', "non-breaking space"),
    ('\u{202F}', "narrow non-breaking space"),
    ('\u{2007}', "figure space"),
];

fn text_differences(trace: &str, plan: &str) -> Vec<String> {
    if let Some(name) = invisible_difference(trace, plan) {
        return vec![format!("the texts look the same but differ: {name}")];
    }
    vec![format!("words: {}", word_diff(trace, plan))]
}

fn codepoints(text: &str) -> String {
    text.chars()
        .map(|c| format!("U+{:04X}", c as u32))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Names a difference a reader cannot see, if that is all there is.
fn invisible_difference(trace: &str, plan: &str) -> Option<String> {
    let lf = |text: &str| text.replace("\r\n", "\n");
    if trace.contains("\r\n") != plan.contains("\r\n") && lf(trace) == lf(plan) {
        let (crlf, other) = if trace.contains("\r\n") {
            ("trace", "plan")
        } else {
            ("plan", "trace")
        };
        return Some(format!(
            "line endings: CRLF in the {crlf}, LF in the {other}"
        ));
    }
    if trace.trim_end() == plan.trim_end() {
        return Some("trailing whitespace".to_owned());
    }
    if trace.trim_start() == plan.trim_start() {
        return Some("leading whitespace".to_owned());
    }
    if trace.nfc().eq(plan.nfc()) {
        let (a, b) = first_difference(trace, plan);
        return Some(format!(
            "Unicode normalization: `{a}` ({}) in the trace, `{b}` ({}) in the plan",
            codepoints(&a),
            codepoints(&b)
        ));
    }
    for (c, name) in INVISIBLE {
        let visible = |text: &str| {
            text.replace(
                *c,
                if name.contains("space") && !name.starts_with("zero") {
                    " "
                } else {
                    ""
                },
            )
        };
        if (trace.contains(*c) || plan.contains(*c)) && visible(trace) == visible(plan) {
            let side = if plan.contains(*c) && !trace.contains(*c) {
                "the plan"
            } else {
                "the trace"
            };
            return Some(format!("a {name} (U+{:04X}) in {side}", *c as u32));
        }
    }
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    if words(trace) == words(plan) {
        return Some("whitespace between words".to_owned());
    }
    None
}

/// The stretch where two texts differ.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let prefix = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let suffix = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let slice = |text: &str| {
        let total = text.chars().count();
        let end = total.saturating_sub(suffix).max(prefix + 1).min(total);
        text.chars()
            .skip(prefix)
            .take(end.saturating_sub(prefix))
            .collect::<String>()
    };
    (slice(a), slice(b))
}

/// `Run the test suite [-before applying-]{+and apply+} the patch.`: one
/// bracket per changed stretch, with the spaces inside a stretch kept in it.
pub fn word_diff(old: &str, new: &str) -> String {
    fn flush(out: &mut String, deleted: &mut String, inserted: &mut String) {
        if !deleted.trim().is_empty() {
            out.push_str(&format!("[-{}-]", deleted.trim_end()));
        }
        if !inserted.trim().is_empty() {
            out.push_str(&format!("{{+{}+}}", inserted.trim_end()));
        }
        let trailing = deleted.len() - deleted.trim_end().len();
        out.push_str(&deleted[deleted.len() - trailing..]);
        deleted.clear();
        inserted.clear();
    }
    // Myers' diff is quadratic on texts that differ everywhere: texts of
    // more than `DIFF_WHOLE` bytes together are given a deadline already
    // passed, so `similar` keeps the words the two share at either end and
    // puts the rest as replaced. Bounded by length, not by a clock, the
    // diff is the same on every run and every machine.
    let mut config = TextDiff::configure();
    if old.len() + new.len() > DIFF_WHOLE {
        let passed = std::time::Instant::now();
        config.deadline(
            passed
                .checked_sub(std::time::Duration::from_secs(1))
                .unwrap_or(passed),
        );
    }
    let diff = config.diff_words(old, new);
    let (mut out, mut deleted, mut inserted, mut space) =
        (String::new(), String::new(), String::new(), String::new());
    for change in diff.iter_all_changes() {
        let value = change.value();
        let open = !deleted.is_empty() || !inserted.is_empty();
        match change.tag() {
            ChangeTag::Equal if open && value.trim().is_empty() => space.push_str(value),
            ChangeTag::Equal => {
                flush(&mut out, &mut deleted, &mut inserted);
                out.push_str(&space);
                space.clear();
                out.push_str(value);
            }
            tag => {
                for side in [&mut deleted, &mut inserted] {
                    if !side.is_empty() {
                        side.push_str(&space);
                    }
                }
                space.clear();
                if tag == ChangeTag::Delete {
                    &mut deleted
                } else {
                    &mut inserted
                }
                .push_str(value);
            }
        }
    }
    flush(&mut out, &mut deleted, &mut inserted);
    out.push_str(&space);
    if out.chars().count() > MAX_DIFF {
        let shown: String = out.chars().take(MAX_DIFF).collect();
        return format!("{shown} … (the diff goes on)");
    }
    out
}

/// The most bytes two texts may hold together to be diffed word by word
/// throughout.
const DIFF_WHOLE: usize = 4_000;

/// Most characters of a word diff a note shows.
const MAX_DIFF: usize = 2000;

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// One note per changed, added or removed field, by JSON Pointer.
fn record_changes(a: &Value, b: &Value, path: &mut String, notes: &mut Vec<String>) {
    if same_value(a, b) {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                let len = path.len();
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match y.get(key) {
                    Some(other) => record_changes(value, other, path, notes),
                    None => notes.push(format!(
                        "`{path}` is {} in the trace and missing from the plan",
                        short(value)
                    )),
                }
                path.truncate(len);
            }
            for (key, value) in y {
                if !x.contains_key(key) {
                    notes.push(format!(
                        "`{path}/{key}` is added in the plan: {}",
                        short(value)
                    ));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (value, other)) in x.iter().zip(y).enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                record_changes(value, other, path, notes);
                path.truncate(len);
            }
        }
        _ => {
            let at = if path.is_empty() {
                "the record".to_owned()
            } else {
                format!("`{path}`")
            };
            notes.push(format!(
                "{at} is {} in the trace, {} in the plan",
                short(a),
                short(b)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(a: &str, b: &str) -> Vec<String> {
        differences(&Content::Text(a.into()), &Content::Text(b.into()))
    }

    #[test]
    fn words() {
        assert_eq!(
            text(
                "Run the test suite before applying the patch.",
                "Run the test suite and apply the patch."
            ),
            ["words: Run the test suite [-before applying-]{+and apply+} the patch."]
        );
    }

    /// Past `DIFF_WHOLE` bytes a diff keeps the words the texts share at
    /// either end and puts the rest as replaced, on every run alike; short
    /// of it, every changed word is marked.
    #[test]
    fn a_long_diff_is_coarse_and_the_same_on_every_run() {
        let (old, new) = ("Include the thread ids.", "Include every thread id.");
        assert_eq!(
            word_diff(old, new),
            "Include [-the-]{+every+} thread [-ids.-]{+id.+}"
        );
        let filler = " word".repeat(DIFF_WHOLE / 5);
        let (old, new) = (format!("{old}{filler}"), format!("{new}{filler}"));
        let diff = word_diff(&old, &new);
        assert!(
            diff.starts_with("Include [-the thread ids.-]{+every thread id.+} word word"),
            "{diff}"
        );
        assert_eq!(diff, word_diff(&old, &new));
    }

    #[test]
    fn invisible_differences_are_named() {
        assert_eq!(text("a\r\nb", "a\nb"), ["the texts look the same but differ: line endings: CRLF in the trace, LF in the plan"]);
        assert_eq!(
            text("keep it", "keep it "),
            ["the texts look the same but differ: trailing whitespace"]
        );
        assert_eq!(
            text("caf\u{e9}", "cafe\u{301}"),
            ["the texts look the same but differ: Unicode normalization: `é` (U+00E9) in the trace, `e\u{301}` (U+0065 U+0301) in the plan"]
        );
        assert_eq!(
            text("do not", "do\u{200B} not"),
            ["the texts look the same but differ: a zero-width space (U+200B) in the plan"]
        );
        assert_eq!(
            text("do not", "do\u{A0}not"),
            ["the texts look the same but differ: a non-breaking space (U+00A0) in the plan"]
        );
        assert_eq!(
            text("do  not", "do not"),
            ["the texts look the same but differ: whitespace between words"]
        );
    }

    #[test]
    fn records_name_their_changed_fields() {
        let a = serde_json::json!({"url": "https://x/v2", "confirmed_by": "user", "n": 3});
        let b = serde_json::json!({"confirmed_by": "user", "url": "https://x/v1", "n": 3.0, "extra": true});
        assert_eq!(
            differences(&Content::Record(Box::new(a)), &Content::Record(Box::new(b))),
            [
                "`/url` is \"https://x/v2\" in the trace, \"https://x/v1\" in the plan",
                "`/extra` is added in the plan: true"
            ]
        );
    }
}

/// The passage of `text` closest to `quote`: the window of as many lines as
/// the quote has, or a sentence of a long line, that shares the most content words
/// with it. Linear in the text: words are compared as sets, not diffed, the way
/// the audit compares them ([`Words`]).
pub fn closest_passage<'t>(text: &'t str, quote: &str) -> &'t str {
    let wanted = Words::of(quote).content;
    let quote_lines = quote.lines().count().max(1);
    let mut best: (usize, &str) = (0, text.lines().next().unwrap_or(text));
    let mut consider = |candidate: &'t str| {
        let shared = Words::of(candidate).content.intersection(&wanted).count();
        if shared > best.0 {
            best = (shared, candidate.trim());
        }
    };
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    for (n, &start) in starts.iter().enumerate() {
        let end = starts
            .get(n + quote_lines)
            .map_or(text.len(), |&next| next - 1);
        let window = &text[start..end.max(start)];
        if quote_lines == 1 && window.len() > 2 * quote.len() + 40 {
            // A paragraph on one line: its sentences, each on its own.
            for (_, sentence) in sentences(window) {
                consider(sentence);
            }
        } else {
            consider(window);
        }
    }
    best.1
}

#[cfg(test)]
mod closest_tests {
    use super::closest_passage;

    #[test]
    fn finds_the_line_or_sentence_sharing_most_words() {
        let summary = "Intro line.\n- The user said: Do not drop the columns.\n- Run tests.";
        assert_eq!(
            closest_passage(summary, "Do not drop columns."),
            "- The user said: Do not drop the columns."
        );
        let long = format!(
            "{} Never drop the users table. {}",
            "Filler words here.".repeat(10),
            "More filler.".repeat(10)
        );
        assert_eq!(
            closest_passage(&long, "Do not drop the users table."),
            "Never drop the users table."
        );
        assert_eq!(closest_passage("a\nb", "zzz"), "a");
    }
}
