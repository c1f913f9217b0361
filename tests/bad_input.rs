//! Hostile and malformed input: every file either reads or fails with a
//! clear `invalid-input` or `unreadable-file` diagnostic that names the file
//! and, where there is one, the line and column. Never a panic, a hang or a
//! stack overflow. Small cases of our own always run; the shared corpus
//! (JSONTestSuite, yaml-test-suite, generated bombs) runs when it is present.

use std::io::Write;
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
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bad-input");
    if path.is_dir() {
        return Some(path);
    }
    // Written past the test harness's capture, so a skip is always visible.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: the shared bad-input corpus is not at {}",
        path.display()
    );
    None
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
    let mut read_count = 0;
    for path in files(&corpus.join("yaml"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
    {
        match read(&path) {
            Ok(()) => read_count += 1,
            Err(diagnostic) => assert_clear(&path, &diagnostic),
        }
    }
    // yaml-test-suite cases are YAML, not traces: almost none reads as one.
    assert!(read_count < 10, "{read_count}");
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
