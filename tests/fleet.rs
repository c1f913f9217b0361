//! `ctxguard audit DIR --fleet-report FILE`: the summary's numbers are the
//! per-compaction records summed, its JSON follows its schema, and the
//! page, opened in a real browser, draws the charts, shows the same
//! numbers, filters, and never runs text from a session as markup.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{Browser, Test};
use regex::Regex;
use serde_json::Value;

/// The repository's real sessions and the session fixtures.
const FLEET: [&str; 2] = ["tests/corpus", "tests/fixtures/sessions"];

const OUTCOMES: [&str; 5] = ["verbatim", "paraphrased", "altered", "lost", "unauditable"];

fn fleet_json(paths: &[&str], dir: &Path, extra: &[&str]) -> Value {
    let out = dir.join("fleet.json");
    let mut args = vec!["audit", "--format", "jsonl"];
    args.extend(paths);
    args.extend(["--fleet-report", out.to_str().expect("utf-8")]);
    args.extend(extra);
    Test::new().args(&args).any_status().run();
    serde_json::from_str(&std::fs::read_to_string(&out).expect("the summary is written"))
        .expect("the summary is JSON")
}

/// Per kind, each outcome's count, from the per-compaction records of
/// `audit --format json`.
fn per_kind_from_events(paths: &[&str]) -> (BTreeMap<String, [u64; 5]>, u64, u64) {
    let mut args = vec!["audit", "--format", "json"];
    args.extend(paths);
    let output = Test::new().args(&args).any_status().run();
    let report: Value = serde_json::from_str(&output.stdout).expect("a JSON report");
    let mut kinds: BTreeMap<String, [u64; 5]> = BTreeMap::new();
    let (mut compactions, mut invented) = (0, 0);
    for event in report["events"].as_array().expect("events") {
        compactions += 1;
        invented += event["invented"].as_array().map_or(0, Vec::len) as u64;
        for c in event["commitments"].as_array().expect("commitments") {
            let at = OUTCOMES
                .iter()
                .position(|o| c["outcome"] == *o)
                .expect("an outcome");
            kinds
                .entry(c["kind"].as_str().expect("a kind").to_owned())
                .or_default()[at] += 1;
        }
    }
    (kinds, compactions, invented)
}

/// Per kind, each outcome's count, from the summary's rows.
fn per_kind(summary: &Value) -> BTreeMap<String, [u64; 5]> {
    let mut kinds: BTreeMap<String, [u64; 5]> = BTreeMap::new();
    for row in summary["kinds"].as_array().expect("kinds") {
        let counts = kinds
            .entry(row["kind"].as_str().expect("a kind").to_owned())
            .or_default();
        for (n, outcome) in OUTCOMES.iter().enumerate() {
            counts[n] += row[outcome].as_u64().expect("a count");
        }
    }
    kinds
}

#[test]
fn the_summary_is_the_records_summed_and_follows_its_schema() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let summary = fleet_json(&FLEET, dir.path(), &[]);
    let schema: Value = serde_json::from_str(&ctxguard::Schema::Fleet.json()).expect("schema");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(&summary)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let (kinds, compactions, invented) = per_kind_from_events(&FLEET);
    assert!(compactions > 80, "the corpus's compactions: {compactions}");
    assert_eq!(per_kind(&summary), kinds);
    assert_eq!(summary["compactions"], compactions);
    assert_eq!(summary["invented"], invented);
    let judged: u64 = kinds.values().flatten().sum();
    assert_eq!(summary["commitments"], judged);
    // Every compaction is in a slice with its runtime's version where the
    // runtime records one (Claude Code on every boundary).
    let events = summary["events"].as_array().expect("events");
    assert!(events
        .iter()
        .filter(|e| e["runtime"] == "claude-code" && e["compaction"] == 1)
        .any(|e| e["version"] != "" && e["date"] != ""));
    let sorts: Vec<&String> = summary["kinds"]
        .as_array()
        .expect("kinds")
        .iter()
        .filter_map(|r| r["sorts"].as_object())
        .flat_map(|s| s.keys())
        .collect();
    for sort in ["path", "command", "number", "name", "url", "version"] {
        assert!(sorts.iter().any(|s| *s == sort), "no {sort} counted");
    }
}

#[test]
fn the_same_fleet_gives_the_same_summary_whatever_the_order_of_work() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let once = fleet_json(&FLEET, dir.path(), &[]);
    // On one thread, the folders named the other way round.
    Test::new()
        .env("RAYON_NUM_THREADS", "1")
        .args(&[
            "audit",
            "--format",
            "jsonl",
            FLEET[1],
            FLEET[0],
            "--fleet-report",
        ])
        .args(&[dir.path().join("one.json").to_str().expect("utf-8")])
        .any_status()
        .run();
    let one: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("one.json")).expect("written"),
    )
    .expect("JSON");
    assert_eq!(once, one);
}

#[test]
fn a_redacted_report_names_no_file_and_quotes_no_user() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let summary = fleet_json(&FLEET, dir.path(), &["--redact"]);
    let text = summary.to_string();
    assert!(
        !text.contains("tests/") && !text.contains(".jsonl"),
        "{text}"
    );
    assert_eq!(summary["worst"][0]["session"], "session 1");
    let page = dir.path().join("fleet.html");
    Test::new()
        .args(&[
            "audit",
            "--format",
            "jsonl",
            FLEET[0],
            "--redact",
            "--fleet-report",
        ])
        .args(&[page.to_str().expect("utf-8")])
        .any_status()
        .run();
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(!html.contains("tests/corpus") && !html.contains(".jsonl"));
    assert!(!dir.path().join("fleet-sessions").exists());
}

/// `audit --fleet-report TARGET` on the session fixtures.
fn report_to(target: &Path) -> Test {
    Test::new().args(&[
        "audit",
        FLEET[1],
        "--fleet-report",
        target.to_str().expect("utf-8"),
    ])
}

#[test]
fn a_file_ctxguard_did_not_write_is_never_overwritten() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mine = "{\"mine\": true}\n";
    for name in ["notes.json", "page.html"] {
        let target = dir.path().join(name);
        std::fs::write(&target, mine).expect("written");
        report_to(&target)
            .status(2)
            .stderr_contains("never overwrites a file it did not write")
            .run();
        assert_eq!(std::fs::read_to_string(&target).expect("kept"), mine);
    }
    report_to(Path::new("fleet.txt"))
        .status(2)
        .stderr_contains("`.html` (the page) or `.json` (the summary)")
        .run();
    // One it wrote is replaced.
    let target = dir.path().join("fleet.json");
    report_to(&target).status(1).run();
    std::fs::write(
        &target,
        std::fs::read_to_string(&target)
            .expect("written")
            .replace("\"sessions\": ", "\"sessions\":  "),
    )
    .expect("edited");
    report_to(&target).status(1).run();
    assert!(!std::fs::read_to_string(&target)
        .expect("rewritten")
        .contains("\"sessions\":  "));
    // The sessions' pages go into a folder of its own, never through a
    // link planted in its place.
    let page = dir.path().join("fleet.html");
    report_to(&page).status(1).run();
    let sessions = dir.path().join("fleet-sessions");
    assert!(sessions.join("01.html").is_file());
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("folder");
    std::fs::remove_dir_all(&sessions).expect("removed");
    std::os::unix::fs::symlink(&elsewhere, &sessions).expect("link");
    report_to(&page)
        .status(2)
        .stderr_contains("is not a folder")
        .run();
    assert_eq!(std::fs::read_dir(&elsewhere).expect("read").count(), 0);
}

/// `<strong id="ID">TEXT</strong>`'s leading number in the page as built.
fn number(dom: &str, id: &str) -> u64 {
    let pattern = Regex::new(&format!(r#"id="{id}">(\d+)"#)).expect("pattern");
    pattern
        .captures(dom)
        .and_then(|c| c[1].parse().ok())
        .unwrap_or_else(|| panic!("no number for #{id}"))
}

/// The per-kind table as the browser built it.
fn table(dom: &str) -> BTreeMap<String, [u64; 5]> {
    let row = Regex::new(r#"<tr data-kind="([^"]+)">(.*?)</tr>"#).expect("pattern");
    let cell = Regex::new(r#"data-outcome="(\w+)" data-count="(\d+)""#).expect("pattern");
    row.captures_iter(dom)
        .map(|r| {
            let mut counts = [0; 5];
            for c in cell.captures_iter(&r[2]) {
                let at = OUTCOMES
                    .iter()
                    .position(|o| *o == &c[1])
                    .expect("an outcome");
                counts[at] = c[2].parse().expect("a count");
            }
            (r[1].to_owned(), counts)
        })
        .collect()
}

#[test]
fn the_page_draws_the_fleet_in_a_browser_and_filters_it() {
    let dir = tempfile::tempdir().expect("temporary directory");
    // A session under a name that is markup.
    let hostile = dir.path().join("in");
    std::fs::create_dir(&hostile).expect("folder");
    std::fs::copy(
        "tests/corpus/badlogic__pi-mono__2638daee/compact.jsonl",
        hostile.join("<img src=x onerror=alert(1)>.jsonl"),
    )
    .expect("copied");
    let hostile = hostile.to_str().expect("utf-8");
    let paths = [FLEET[0], FLEET[1], hostile];
    let summary = fleet_json(&paths, dir.path(), &[]);
    let page = dir.path().join("fleet.html");
    Test::new()
        .args(&["audit", "--format", "jsonl", FLEET[0], FLEET[1], hostile])
        .args(&["--fleet-report", page.to_str().expect("utf-8")])
        .any_status()
        .run();
    let html = std::fs::read_to_string(&page).expect("the page");
    for external in ["<link", "<img", "<script src", "@import", "url("] {
        assert!(!html.contains(external), "an external asset: {external}");
    }
    // The worst sessions' own audits, beside it, linked.
    let worst = summary["worst"].as_array().expect("worst");
    assert!(!worst.is_empty());
    for n in 1..=worst.len() {
        let name = format!("fleet-sessions/{n:02}.html");
        assert!(dir.path().join(&name).is_file(), "{name}");
        assert!(
            html.contains(&format!("href=\"{name}\"")),
            "{name} not linked"
        );
    }
    let Some(browser) = Browser::find(dir.path()) else {
        return;
    };
    let url = format!("file://{}", page.display());
    let shot = dir.path().join("fleet.png");
    browser.screenshot(&url, (1200, 2400), &shot);
    let decoder = png::Decoder::new(std::fs::File::open(&shot).expect("a screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let samples = info.color_type.samples();
    let colour = |rgb: [u8; 3]| {
        pixels[..info.buffer_size()]
            .chunks(samples)
            .filter(|p| p[..3] == rgb)
            .count()
    };
    // The bars: each outcome's colour fills a share of many charts.
    for (outcome, rgb) in [
        ("verbatim", [0x2e, 0x7d, 0x32]),
        ("paraphrased", [0x15, 0x65, 0xc0]),
        ("altered", [0xe6, 0x51, 0x00]),
        ("lost", [0xc6, 0x28, 0x28]),
    ] {
        assert!(colour(rgb) > 5_000, "no {outcome} bars drawn");
    }
    // The numbers, as the script set them, are the summary's.
    let dom = browser.dom(&url);
    for id in ["compactions", "commitments", "invented", "restorable"] {
        assert_eq!(number(&dom, id), summary[id], "#{id}");
    }
    for outcome in OUTCOMES {
        assert_eq!(
            number(&dom, outcome),
            summary["outcomes"][outcome],
            "#{outcome}"
        );
    }
    assert_eq!(table(&dom), per_kind(&summary));
    assert_eq!(dom.matches("<svg").count(), 6, "six charts");
    // The file name is text, never an element.
    assert!(dom.contains("&lt;img src=x onerror=alert(1)&gt;.jsonl"));
    assert!(!dom.contains("<img"));
    // Filtered: pi's box clicked off (the address keeps the filters), and
    // a date range.
    let filtered = browser.dom(&format!("{url}#runtimes=pi&from=2026-01-01"));
    let kept =
        |row: &Value| row["runtime"] != "pi" && row["date"].as_str().unwrap_or("") >= "2026-01-01";
    let compactions: u64 = summary["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|r| kept(r))
        .map(|r| r["compactions"].as_u64().unwrap_or(0))
        .sum();
    assert!(compactions > 0 && compactions < summary["compactions"].as_u64().unwrap_or(0));
    assert_eq!(number(&filtered, "compactions"), compactions);
    let judged: u64 = summary["kinds"]
        .as_array()
        .expect("kinds")
        .iter()
        .filter(|r| kept(r))
        .map(|r| {
            OUTCOMES
                .iter()
                .map(|o| r[o].as_u64().unwrap_or(0))
                .sum::<u64>()
        })
        .sum();
    assert_eq!(number(&filtered, "commitments"), judged);
}
