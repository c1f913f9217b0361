//! Inputs large enough to be read on two threads (a JSON Lines file of a
//! megabyte or more, each half on its own) read exactly as they would in
//! order: the same regions, numbered the same, and the first error in the
//! file, wherever the halves split.

use ctxguard::{Input, InputFormat, Trace};

/// A region a line, `n` of them, about 200 bytes each; line `bad` (1-based) replaced.
fn jsonl(n: usize, bad: &[(usize, &str)]) -> String {
    let mut text = String::new();
    for i in 0..n {
        let line = bad.iter().find(|(at, _)| *at == i + 1).map_or_else(
            || {
                let escaped = if i % 3 == 0 { "\\n$ cargo test\\tok" } else { "" };
                format!(
                    r#"{{"id":"r{i}","kind":"narrative","text":"turn {i}: looked at src/lib.rs and ran the suite again{escaped}, nothing more to add here.","tokens":20}}"#
                )
            },
            |(_, line)| (*line).to_owned(),
        );
        text.push_str(&line);
        // Blank lines and CRLF endings do not count as regions.
        text.push_str(if i % 7 == 0 { "\r\n\n" } else { "\n" });
    }
    text
}

fn read(text: &str) -> Result<Trace, String> {
    Trace::read(&Input::text("big.jsonl", InputFormat::JsonLines, text)).map_err(|d| d.message)
}

const N: usize = 8_000;

#[test]
fn a_large_json_lines_trace_reads_as_the_same_trace_written_as_json() {
    let text = jsonl(N, &[]);
    assert!(text.len() > 1 << 20, "large enough for two threads");
    let lines = read(&text).unwrap_or_else(|e| panic!("{e}"));
    let regions: Vec<serde_json::Value> = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let json = Trace::read(&Input::value(
        "big.json",
        &serde_json::json!({"version": 1, "regions": regions}),
    ))
    .unwrap_or_else(|d| panic!("{}", d.message));
    assert_eq!(lines.regions.len(), N);
    assert_eq!(json.regions.len(), N);
    for (i, (a, b)) in lines.regions.iter().zip(&json.regions).enumerate() {
        assert_eq!(a.place.index, i);
        assert_eq!((&a.id, &a.kind, a.tokens), (&b.id, &b.kind, b.tokens));
        assert!(a.content.same(&b.content), "region {i}");
        // Every region still points at its own line.
        let line = &text[a.place.span.clone()];
        assert!(line.starts_with(&format!(r#"{{"id":"r{i}""#)), "{line}");
    }
}

#[test]
fn the_first_bad_line_is_the_one_reported_whichever_half_it_is_in() {
    let late = N * 3 / 4;
    let early = N / 4;
    let broken = r#"{"id": "broken", "text": "unterminated}"#;
    let keyless = r#"{"id":"c","kind":"constraint","text":"Never push."}"#;
    // Lines are numbered in the file, blank lines included: find them by id.
    let line_of = |text: &str, needle: &str| {
        text.lines()
            .position(|line| line.contains(needle))
            .map_or(0, |i| i + 1)
    };
    let only_late = jsonl(N, &[(late, broken)]);
    let message = read(&only_late).err().unwrap_or_default();
    assert!(
        message.contains(&format!("line {}", line_of(&only_late, "\"broken\""))),
        "{message}"
    );
    let both = jsonl(N, &[(early, keyless), (late, broken)]);
    let message = read(&both).err().unwrap_or_default();
    assert!(
        message.contains("commitment `c` of kind `constraint` has no `key`"),
        "{message}"
    );
    let refused_late = jsonl(N, &[(late, keyless)]);
    let message = read(&refused_late).err().unwrap_or_default();
    assert!(message.contains("has no `key`"), "{message}");
}
