//! Hostile and malformed input: every file either reads or fails with a
//! clear `invalid-input` or `unreadable-file` diagnostic that names the file
//! and, where there is one, the line and column. Never a panic, a hang or a
//! stack overflow. Small cases of our own always run; the shared corpus
//! (JSONTestSuite, yaml-test-suite, generated bombs) runs when it is present.

mod common;

use std::path::{Path, PathBuf};

use ctxguard::Diagnostic;
use ctxguard::{Input, InputFormat};

/// Reads a file as a trace; an error must say where and what.
fn read(path: &Path) -> Result<(), Box<Diagnostic>> {
    let input = Input::open(path, None, &ctxguard::Access::default())?;
    ctxguard::Trace::read(&input).map(|_| ())
}

fn assert_clear(path: &Path, diagnostic: &Diagnostic) {
    assert!(
        matches!(
            diagnostic.code,
            ctxguard::Code::InvalidInput | ctxguard::Code::UnreadableFile
        ),
        "{}: {:?}",
        path.display(),
        diagnostic.code
    );
    assert!(!diagnostic.message.is_empty());
    let name = diagnostic.file_name().unwrap_or("");
    assert!(
        diagnostic.message.contains(name) || !diagnostic.labels.is_empty(),
        "{}: the diagnostic names neither the file nor a place: {}",
        path.display(),
        diagnostic.message
    );
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write fixture");
    path
}

#[test]
fn our_hostile_cases_fail_clearly() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = dir.path();
    let deep_json = format!(
        "{{\"version\": 1, \"regions\": [{{\"id\": \"r\", \"record\": {}1{}}}]}}",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let deep_yaml = format!(
        "version: 1\nregions:\n  - id: r\n    record: {}1{}\n",
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let laughs = "version: 1\nregions:\n  - id: r\n    record:\n      a: &a [x, x, x, x, x, x, x, x, x]\n      b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n      c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n      d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n      e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n      f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n      g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n      h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n      i: [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("deep.json", deep_json.into_bytes()),
        ("deep.yaml", deep_yaml.into_bytes()),
        ("laughs.yaml", laughs.as_bytes().to_vec()),
        (
            "self-alias.yaml",
            b"version: 1\nregions: &a [*a]\n".to_vec(),
        ),
        (
            "utf16.json",
            "{\"version\": 1}"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
        ),
        (
            "latin1.yaml",
            b"version: 1\nregions:\n  - id: caf\xe9\n".to_vec(),
        ),
        ("empty.jsonl", Vec::new()),
        (
            "truncated.jsonl",
            b"{\"id\": \"r1\", \"text\": \"a\"}\n{\"id\": \"r2\", \"te".to_vec(),
        ),
        (
            "two-documents.yaml",
            b"version: 1\nregions: []\n---\nversion: 1\n".to_vec(),
        ),
        (
            "duplicate-keys.json",
            b"{\"version\": 1, \"regions\": [{\"id\": \"a\", \"id\": \"b\", \"text\": \"x\"}]}"
                .to_vec(),
        ),
        (
            "nul.json",
            b"{\"version\": 1, \"regions\": [{\"id\": \"a\", \"text\": \"x\0y\"}]}".to_vec(),
        ),
        (
            "huge-number.json",
            format!(
                "{{\"version\": 1, \"regions\": [{{\"id\": \"a\", \"tokens\": 1{}}}]}}",
                "0".repeat(5000)
            )
            .into_bytes(),
        ),
    ];
    for (name, bytes) in cases {
        let path = write(d, name, &bytes);
        match read(&path) {
            Ok(()) => panic!("{name} should not read as a trace"),
            Err(diagnostic) => assert_clear(&path, &diagnostic),
        }
    }
}

#[test]
fn a_byte_order_mark_and_crlf_are_fine() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, bytes) in [
        (
            "bom.json",
            b"\xef\xbb\xbf{\"version\": 1, \"regions\": [{\"id\": \"a\", \"text\": \"x\"}]}"
                .as_slice(),
        ),
        (
            "bom.yaml",
            b"\xef\xbb\xbfversion: 1\nregions:\n  - id: a\n    text: x\n".as_slice(),
        ),
        (
            "crlf.yaml",
            b"version: 1\r\nregions:\r\n  - id: a\r\n    text: x\r\n".as_slice(),
        ),
        (
            "crlf.jsonl",
            b"{\"id\": \"a\", \"text\": \"x\"}\r\n{\"id\": \"b\", \"text\": \"y\"}\r\n".as_slice(),
        ),
    ] {
        let path = write(dir.path(), name, bytes);
        assert!(read(&path).is_ok(), "{name}: {:?}", read(&path).err());
    }
}

fn corpus() -> Option<PathBuf> {
    common::shared_corpus("bad-input", "the shared bad-input corpus")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn json_test_suite() {
    let Some(corpus) = corpus() else { return };
    let mut counts = [0usize; 3];
    for path in files(&corpus.join("json")) {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned();
        let result = Input::open(&path, Some(InputFormat::Json), &ctxguard::Access::default())
            .and_then(|input| ctxguard::Trace::read(&input).map(|_| ()));
        match (name.chars().next(), &result) {
            // Valid JSON: it may not be a trace, but the error must not call it invalid JSON.
            (Some('y'), Err(diagnostic)) => {
                assert_clear(&path, diagnostic);
                assert!(
                    !diagnostic.message.contains("not valid JSON"),
                    "{name}: {}",
                    diagnostic.message
                );
                counts[0] += 1;
            }
            (Some('n'), Ok(_)) => panic!("{name} is invalid JSON but was read"),
            (_, Err(diagnostic)) => {
                assert_clear(&path, diagnostic);
                counts[1] += 1;
            }
            (_, Ok(_)) => counts[2] += 1,
        }
    }
    assert!(counts.iter().sum::<usize>() > 300, "{counts:?}");
}

#[test]
fn yaml_test_suite() {
    let Some(corpus) = corpus() else { return };
    let manifest = std::fs::read_to_string(corpus.join("yaml/MANIFEST.tsv")).unwrap_or_default();
    let (mut valid, mut invalid) = (0, 0);
    for line in manifest.lines().skip(1) {
        let mut columns = line.split('\t');
        let (Some(name), Some(status)) = (columns.next(), columns.next()) else {
            continue;
        };
        let path = corpus.join("yaml").join(name);
        let result = read(&path);
        if let Err(diagnostic) = &result {
            assert_clear(&path, diagnostic);
        }
        let said_invalid = result
            .as_ref()
            .err()
            .is_some_and(|d| d.message.contains("not valid YAML"));
        match status {
            // Valid YAML may not be a trace, but it is never called invalid YAML.
            "valid" => {
                assert!(!said_invalid, "{name}: {:?}", result.err());
                valid += 1;
            }
            // Invalid YAML is refused as such (or, first, for holding two documents).
            _ => {
                let said = result.as_ref().err().is_some_and(|d| {
                    said_invalid || d.message.contains("more than one YAML document")
                });
                assert!(said, "{name}: {:?}", result.err());
                invalid += 1;
            }
        }
    }
    assert_eq!((valid, invalid), (308, 94));
}

#[test]
fn hostile_files() {
    let Some(corpus) = corpus() else { return };
    let manifest = std::fs::read_to_string(corpus.join("hostile/MANIFEST.tsv")).unwrap_or_default();
    let mut checked = 0;
    for line in manifest.lines().skip(1) {
        let mut columns = line.split('\t');
        let (Some(name), Some(expect)) = (columns.next(), columns.next()) else {
            continue;
        };
        let path = corpus.join("hostile").join(name);
        let result = read(&path);
        match (expect, &result) {
            ("error", Ok(())) => panic!("{name} should fail"),
            (_, Err(diagnostic)) => assert_clear(&path, diagnostic),
            _ => {}
        }
        checked += 1;
    }
    assert!(checked >= 40, "{checked}");
}

fn read_yaml(dir: &Path, text: &str) -> Result<ctxguard::Trace, Box<Diagnostic>> {
    let path = write(dir, "trace.yaml", text.as_bytes());
    let input = Input::open(&path, None, &ctxguard::Access::default())?;
    ctxguard::Trace::read(&input)
}

#[test]
fn yaml_is_read_as_yaml_1_2_says_what_a_trace_cannot_hold() {
    let dir = tempfile::tempdir().expect("temporary directory");
    // Valid YAML that libyaml refuses (a key on its own line in a flow
    // mapping, yaml-test-suite 4MUZ): read, with its values.
    let trace = read_yaml(
        dir.path(),
        "version: 1\nregions: [{\"id\"\n  : a, text: x, tokens: 18446744073709551615}]\n",
    )
    .expect("valid YAML reads");
    assert_eq!(trace.regions[0].id, "a");
    assert_eq!(trace.regions[0].tokens, Some(u64::MAX));

    let message = |text: &str| {
        read_yaml(dir.path(), text)
            .err()
            .map(|d| (d.message.clone(), d.labels.first().map(|l| l.span.clone())))
            .expect("refused")
    };
    let (two, _) = message("version: 1\nregions: []\n---\nversion: 1\nregions: []\n");
    assert!(two.contains("holds more than one YAML document"), "{two}");
    assert!(!two.contains("not valid YAML"), "{two}");
    // `id` and `"id"` are one key once read: refused, never last-one-wins.
    let (repeated, _) = message("version: 1\nregions:\n  - id: a\n    \"id\": b\n    text: x\n");
    assert!(repeated.contains("writes the key `id` twice"), "{repeated}");
    let (repeated, _) = message("version: 1\n'version': 1\nregions: []\n");
    assert!(
        repeated.contains("writes the key `version` twice"),
        "{repeated}"
    );
    // The end of the file is a place on its last line, not one past it.
    let text = "version: 1\nregions:\n  - id: a\n    text: [x,\n";
    let (_, span) = message(text);
    let span = span.expect("a label");
    assert!(span.start < text.len(), "{span:?}");
    // A tag of the core schema is a type; any other has no JSON form.
    assert!(read_yaml(dir.path(), "version: !!int 1\nregions: !!seq []\n").is_ok());
    let (tagged, _) = message("version: 1\nregions:\n  - id: a\n    text: !secret x\n");
    assert!(
        tagged.contains("the tag `!secret` has no JSON form"),
        "{tagged}"
    );
}
