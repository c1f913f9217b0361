//! A trace read as it streams is verified, and reported, as the same trace read whole:
//! the same verdict and the same report, in JSON and for a person, for
//! traces in every layout, read in pieces of any size, whatever the plan
//! does to them.

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;

use crate::report::{Format, HumanStyle, Report, Subject};
use ctxguard_core::buffer::document::{Input, InputFormat};
use ctxguard_core::buffer::plan::Plan;
use ctxguard_core::buffer::stream::Streaming;
use ctxguard_core::buffer::trace::Trace;
use ctxguard_core::policy::Policy;
use ctxguard_core::source::Access;
use ctxguard_core::verify::index::TraceIndex;
use ctxguard_core::verify::{verify, verify_index, written_tokens, Options, Verification};

/// A report as the command line writes it.
fn rendered(verification: Verification, format: Format) -> String {
    let report = Report {
        subject: Subject::Verify(Some((verification.verdict, verification.stats))),
        diagnostics: verification.diagnostics,
    };
    let mut out = Vec::new();
    crate::report::render(&report, format, &HumanStyle::plain(), &mut out)
        .unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8(out).unwrap_or_else(|e| panic!("{e}"))
}

/// `trace` written to a file with extension `ext` and verified against
/// `plan` read whole and as it streams in `block`-byte pieces: both
/// reports (JSON, then human), and whether it streamed at all.
fn both(
    trace: &str,
    ext: &str,
    plan: &str,
    block: usize,
    options: &Options,
) -> [(String, String); 2] {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join(format!("trace.{ext}"));
    std::fs::write(&path, trace).unwrap_or_else(|e| panic!("{e}"));
    let policy = Policy::builtin();
    let plan = Plan::read(&Input::text("plan.json", InputFormat::Json, plan))
        .unwrap_or_else(|d| panic!("{}", d.message));
    let name = path.display().to_string();
    let format = InputFormat::named(&path).unwrap_or(InputFormat::Json);
    let text = trace.strip_prefix('\u{feff}').unwrap_or(trace);
    let whole = Trace::read(&Input::text(&name, format, text))
        .map(|trace| verify(&policy, &trace, &plan, options));
    let written = written_tokens(options.budget.counter(&policy), &plan);
    let streamed = streamed(&policy, &path, format, block, options)
        .map(|index| verify_index(index, &plan, written, options));
    let reports = |verification: Result<Verification, String>| match verification {
        Ok(verification) => {
            let json = rendered(clone(&verification), Format::Json);
            (json, rendered(verification, Format::Human))
        }
        Err(message) => (message.clone(), message),
    };
    [
        reports(whole.map_err(|d| d.message)),
        reports(streamed.ok_or_else(|| "read whole".to_owned())),
    ]
}

fn clone(verification: &Verification) -> Verification {
    Verification {
        verdict: verification.verdict,
        diagnostics: verification.diagnostics.clone(),
        stats: verification.stats.clone(),
    }
}

/// The index of the trace at `path` as it streams; `None` when it is read whole.
fn streamed<'p>(
    policy: &'p Policy,
    path: &Path,
    format: InputFormat,
    block: usize,
    options: &Options,
) -> Option<TraceIndex<'p>> {
    let streaming = Streaming::open_small(path, format, &Access::default())?.with_block(block);
    let counter = options.budget.counter(policy);
    TraceIndex::streamed(policy, streaming, counter, options.warning_limit).ok()
}

/// What a region of a generated trace is.
#[derive(Clone, Debug)]
enum Made {
    /// Plain narrative, its text from the words below, `tokens` given.
    Narrative(usize, bool),
    /// Narrative with escapes, no `tokens` (counted), from a tool.
    Escaped(usize),
    Constraint(usize, bool),
    Value(u32),
    Identifier(usize),
    Unclassified(usize),
    Undeclared(usize),
    Imported(usize),
}

const WORDS: &[&str] = &[
    "Looked at the users table.",
    "You must not drop columns.",
    "Ran the tests in src/app/parser_v2.py again.",
    "The dry run took 4 minutes; é漢 noted.",
    "We decided to keep the index.",
    "Nothing to add.",
];

fn made() -> impl Strategy<Value = Made> {
    let word = 0..WORDS.len();
    prop_oneof![
        6 => (word.clone(), any::<bool>()).prop_map(|(w, tool)| Made::Narrative(w, tool)),
        2 => word.clone().prop_map(Made::Escaped),
        2 => (word.clone(), any::<bool>()).prop_map(|(w, done)| Made::Constraint(w, done)),
        1 => (0..5u32).prop_map(Made::Value),
        1 => (0..3usize).prop_map(Made::Identifier),
        1 => word.clone().prop_map(Made::Unclassified),
        1 => word.clone().prop_map(Made::Undeclared),
        1 => word.prop_map(Made::Imported),
    ]
}

/// The regions as JSON values, ids `r0`, `r1`, … (and now and then one
/// used again).
fn regions(made: &[Made], repeat: Option<usize>) -> Vec<serde_json::Value> {
    use serde_json::json;
    (made.iter().enumerate())
        .map(|(i, made)| {
            let id = match repeat {
                Some(r) if r < i && i % 7 == 3 => format!("r{r}"),
                _ => format!("r{i}"),
            };
            match made {
                Made::Narrative(w, tool) => json!({"id": id, "kind": "narrative", "text": WORDS[*w],
                    "tokens": 7, "role": if *tool { "tool" } else { "user" }}),
                Made::Escaped(w) => json!({"id": id, "kind": "narrative",
                    "text": format!("$ cargo test\n{}\tok \"quoted\"", WORDS[*w]), "role": "tool"}),
                Made::Constraint(w, done) => json!({"id": id, "kind": "constraint", "key": format!("c{}", w),
                    "text": WORDS[*w], "tokens": 9, "status": if *done { "discharged" } else { "active" },
                    "at": 4, "tagged_at": if *w == 1 { 6 } else { 4 }}),
                Made::Value(n) => json!({"id": id, "kind": "value", "key": format!("v{n}"),
                    "record": {"rows": n * 1000, "confirmed_by": "user"}}),
                Made::Identifier(p) => json!({"id": id, "kind": "identifier", "key": format!("p{p}"),
                    "text": format!("src/legacy/parser_v{p}.py")}),
                Made::Unclassified(w) => json!({"id": id, "text": WORDS[*w]}),
                Made::Undeclared(w) => json!({"id": id, "kind": "constriant", "key": "k", "text": WORDS[*w]}),
                Made::Imported(w) => json!({"id": id, "kind": "narrative", "text": WORDS[*w],
                    "source": {"file": "session.jsonl", "line": 3 + i}}),
            }
        })
        .collect()
}

/// How the trace is written.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// A region a line, as `gen_trace.py` writes it.
    Lines,
    Pretty,
    /// On one line: it cannot be cut, and is read as one piece.
    Minified,
    /// Other keys before and after `regions`, `version` last.
    Keys,
    /// A region a line, CRLF, and a byte-order mark.
    Windows,
    JsonLines,
    /// JSON Lines with blank lines and CRLF.
    JsonLinesSpaced,
}

fn written(regions: &[serde_json::Value], layout: Layout) -> (String, &'static str) {
    let line = |r: &serde_json::Value| serde_json::to_string(r).unwrap_or_default();
    let listed = |sep: &str| regions.iter().map(line).collect::<Vec<_>>().join(sep);
    match layout {
        Layout::Lines => (format!("{{\"version\": 1, \"regions\": [\n{}\n]}}\n", listed(",\n")), "json"),
        Layout::Pretty => (
            serde_json::to_string_pretty(&serde_json::json!({"version": 1, "regions": regions}))
                .unwrap_or_default(),
            "json",
        ),
        Layout::Minified => (format!("{{\"version\":1,\"regions\":[{}]}}", listed(",")), "json"),
        Layout::Keys => (
            format!(
                "{{\"$schema\": \"./schemas/trace.schema.json\", \"meta\": {{\"a\": [1,\n{{}}]}},\n\"regions\": [\n{}\n],\n\"notes\": [\"x\"], \"version\": 1}}",
                listed(",\n  ")
            ),
            "json",
        ),
        Layout::Windows => (
            format!("\u{feff}{{\"version\": 1, \"regions\": [\r\n{}\r\n]}}\r\n", listed(",\r\n")),
            "json",
        ),
        Layout::JsonLines => (format!("{}\n", listed("\n")), "jsonl"),
        Layout::JsonLinesSpaced => (format!("\r\n{}\n\n", listed("\r\n\n")), "jsonl"),
    }
}

/// A plan of the trace: each commitment kept (now and then written out
/// altered, or dropped), narrative summarized in runs (now and then kept
/// with its text written out, the same or not, or quoted).
fn plan(regions: &[serde_json::Value], twist: u64) -> String {
    use serde_json::json;
    let mut plan = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, plan: &mut Vec<serde_json::Value>| {
        if !run.is_empty() {
            plan.push(json!({"kind": "summary", "covers": std::mem::take(run),
                "text": "Worked through the schema; see parser_v2.py.", "tokens": 9}));
        }
    };
    for (i, region) in regions.iter().enumerate() {
        let id = region["id"].clone();
        let choice = (twist >> (i % 60)) & 7;
        let narrative = region["kind"] == "narrative";
        if narrative && choice == 1 {
            flush(&mut run, &mut plan);
            let text = region["text"].as_str().unwrap_or_default();
            let text = if i % 2 == 0 {
                text.to_owned()
            } else {
                format!("{text} (edited)")
            };
            plan.push(json!({"kind": "narrative", "from": id, "text": text}));
        } else if narrative && choice == 2 {
            flush(&mut run, &mut plan);
            plan.push(json!({"kind": "summary", "covers": [], "quotes": [id],
                "text": format!("As said: {}", region["text"].as_str().unwrap_or_default())}));
        } else if narrative {
            run.push(id.as_str().unwrap_or_default().to_owned());
        } else {
            flush(&mut run, &mut plan);
            match choice {
                3 if region["kind"] == "constraint" => plan.push(json!({"kind": "constraint",
                    "key": region["key"], "text": "Columns may be dropped."})),
                4 => {}
                _ => plan.push(json!({"keep": id})),
            }
        }
    }
    flush(&mut run, &mut plan);
    json!({"version": 1, "regions": plan}).to_string()
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        Just(Layout::Lines),
        Just(Layout::Pretty),
        Just(Layout::Minified),
        Just(Layout::Keys),
        Just(Layout::Windows),
        Just(Layout::JsonLines),
        Just(Layout::JsonLinesSpaced),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn a_streamed_trace_is_verified_as_the_trace_read_whole(
        made in proptest::collection::vec(made(), 1..50),
        repeat in proptest::option::of(0usize..5),
        layout in layout(),
        block in prop_oneof![16usize..200, 200usize..4096],
        twist in any::<u64>(),
        recount in any::<bool>(),
        limit in proptest::option::of(0usize..3),
    ) {
        let regions = regions(&made, repeat);
        let (trace, ext) = written(&regions, layout);
        let plan = plan(&regions, twist);
        let mut options = Options { warning_limit: limit, ..Options::default() };
        options.budget.recount = recount;
        let [whole, streamed] = both(&trace, ext, &plan, block, &options);
        // Only a file that cannot be cut (one line, one block, or one
        // region: a cut is between two), or whose cut falls inside a key
        // before `regions` (the list in `meta`), is read whole. Its text is
        // what stands after a byte order mark, which the stream skips.
        let text = trace.strip_prefix('\u{feff}').unwrap_or(&trace);
        if !matches!(layout, Layout::Minified | Layout::Keys)
            && text.len() > 2 * block
            && regions.len() > 1
        {
            prop_assert_ne!(&streamed.0, "read whole", "{}", trace);
        }
        if streamed.0 != "read whole" {
            prop_assert_eq!(&streamed.0, &whole.0, "JSON report, {:?}, pieces of {}: {}", layout, block, trace);
            prop_assert_eq!(&streamed.1, &whole.1, "human report, {:?}, pieces of {}", layout, block);
        }
    }
}

/// What a malformed file says read as it streams is what it says read
/// whole: the stream gives way, wherever in the file the fault is.
#[test]
fn a_malformed_trace_is_left_to_the_reader_of_whole_files() {
    let good: Vec<String> = (0..40)
        .map(|i| {
            format!(r#"{{"id": "r{i}", "kind": "narrative", "text": "turn {i}", "tokens": 3}}"#)
        })
        .collect();
    let faults = [
        (
            20,
            r#"{"id": "r20", "kind": "narrative", "text": "unterminated}"#,
        ),
        (
            30,
            r#"{"id": "r30", "kind": "constraint", "text": "no key"}"#,
        ),
        (35, r#"{"id": "r35", "text": 5}"#),
        (39, r#"{"id": "r39", "text": "\ud800"}"#),
    ];
    let policy = Policy::builtin();
    for (at, fault) in faults {
        let mut lines = good.clone();
        lines[at] = fault.to_owned();
        for (text, ext) in [
            (format!("{}\n", lines.join("\n")), "jsonl"),
            (
                format!(
                    "{{\"version\": 1, \"regions\": [\n{}\n]}}",
                    lines.join(",\n")
                ),
                "json",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
            let path = dir.path().join(format!("trace.{ext}"));
            std::fs::write(&path, &text).unwrap_or_else(|e| panic!("{e}"));
            let format = InputFormat::named(&path).unwrap_or(InputFormat::Json);
            for block in [40, 300, 1 << 20] {
                let index = streamed(&policy, &path, format, block, &Options::default());
                assert!(
                    index.is_none(),
                    "{fault} in {ext} streamed in pieces of {block}"
                );
            }
        }
    }
    // Nor does a document that goes on after it ends, or ends too soon.
    for text in [
        "{\"version\": 1, \"regions\": [\n{\"id\": \"a\", \"text\": \"x\"},\n{\"id\": \"b\", \"text\": \"y\"}\n]} trailing",
        "{\"version\": 1, \"regions\": [\n{\"id\": \"a\", \"text\": \"x\"},\n{\"id\": \"b\", \"text\": \"y\"},\n",
        "{\"version\": 2, \"regions\": [\n{\"id\": \"a\", \"text\": \"x\"},\n{\"id\": \"b\", \"text\": \"y\"}\n]}",
        "{\"regions\": [\n{\"id\": \"a\", \"text\": \"x\"},\n{\"id\": \"b\", \"text\": \"y\"}\n], \"version\": 1, \"version\": 1}",
    ] {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("trace.json");
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        for block in [8, 30, 1 << 20] {
            let index = streamed(&policy, &path, InputFormat::Json, block, &Options::default());
            assert!(index.is_none(), "{text:?} streamed in pieces of {block}");
        }
    }
}

/// A narrative text read back from a trace that changed since it was read
/// is not taken for the one that was: the plan that rewrites it is told.
#[test]
fn a_trace_changed_since_it_was_read_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("trace.jsonl");
    let trace =
        "{\"id\": \"r1\", \"kind\": \"narrative\", \"text\": \"Looked at it.\", \"tokens\": 3}\n\
        {\"id\": \"r2\", \"kind\": \"narrative\", \"text\": \"Then left.\", \"tokens\": 3}\n";
    std::fs::write(&path, trace).unwrap_or_else(|e| panic!("{e}"));
    let policy = Policy::builtin();
    // Pieces of 40 bytes: the file is cut, and streamed.
    let index = streamed(
        &policy,
        &path,
        InputFormat::JsonLines,
        40,
        &Options::default(),
    )
    .unwrap_or_else(|| panic!("streamed"));
    // Rewritten in place, same length: only the bytes differ.
    std::fs::write(&path, trace.replace("Looked", "Booked")).unwrap_or_else(|e| panic!("{e}"));
    let plan = r#"{"version": 1, "regions": [{"kind": "narrative", "from": "r1", "text": "Booked at it."}, {"keep": "r2"}]}"#;
    let plan = Plan::read(&Input::text("plan.json", InputFormat::Json, plan))
        .unwrap_or_else(|d| panic!("{}", d.message));
    let written = written_tokens(index.counter, &plan);
    let verification = verify_index(index, &plan, written, &Options::default());
    let codes: Vec<&str> = verification
        .diagnostics
        .iter()
        .map(|d| d.code.name())
        .collect();
    assert_eq!(codes, ["unreadable-file"]);
    assert!(verification.diagnostics[0]
        .message
        .contains("changed while it was verified"));
    assert_eq!(verification.verdict, ctxguard_core::verify::Verdict::Reject);
}

/// Only what the index keeps is in memory once a trace is read: every
/// commitment's text is its own, not a piece of the file held on to.
#[test]
fn a_streamed_index_holds_no_piece_of_its_file() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("trace.jsonl");
    let lines: String = (0..200)
        .map(|i| match i % 4 {
            0 => format!("{{\"id\": \"c{i}\", \"kind\": \"constraint\", \"key\": \"k{i}\", \"text\": \"You must keep {i}.\"}}\n"),
            1 => format!("{{\"id\": \"u{i}\", \"text\": \"Unsorted {i}\\nline\"}}\n"),
            _ => format!("{{\"id\": \"n{i}\", \"kind\": \"narrative\", \"text\": \"turn {i}\", \"tokens\": 2}}\n"),
        })
        .collect();
    std::fs::write(&path, lines).unwrap_or_else(|e| panic!("{e}"));
    let policy = Policy::builtin();
    let index = streamed(
        &policy,
        &path,
        InputFormat::JsonLines,
        256,
        &Options::default(),
    )
    .unwrap_or_else(|| panic!("streamed"));
    let kept = (0..index.len())
        .filter_map(|t| index.content(t).ok())
        .filter(|content| matches!(content, std::borrow::Cow::Borrowed(_)))
        .count();
    assert_eq!(
        kept, 100,
        "every commitment and unclassified region is kept"
    );
    assert!(
        index.holds_no_piece(),
        "a kept text holds on to a piece of the file"
    );
    // The file itself is not held either: its text stays on disk.
    assert!(Arc::clone(&index.file).is_on_disk());
}
