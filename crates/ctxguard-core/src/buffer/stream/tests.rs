use super::*;

#[test]
fn json_is_cut_before_a_region_after_a_comma_and_a_line_break() {
    let json = InputFormat::Json;
    let text = b"{\"version\": 1, \"regions\": [\n{\"id\": \"a\"},\n  {\"id\": \"b\", \"record\": [1,\n{}]},\n{";
    let at = cut(text, 0, json);
    assert_eq!(at.map(|at| &text[at..]), Some(&b"{"[..]));
    // A line break inside a region, or not after a comma, is no cut.
    assert_eq!(cut(b"[\n{\"a\": 1}", 0, json), None);
    assert_eq!(cut(b"{\"a\": [1,\n2]}", 0, json), None);
    assert_eq!(cut(b"a\nb\nc", 0, InputFormat::JsonLines), Some(4));
    assert_eq!(cut(b"a\nb\nc", 4, InputFormat::JsonLines), None);
}

/// A piece whose reading panics (no reader should, but were one to) ends
/// the stream with that panic, instead of leaving the file's reader
/// waiting for a buffer that never comes back.
#[test]
fn a_panic_while_a_piece_is_read_reaches_the_caller() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let path = dir.path().join("trace.jsonl");
    let lines: String = (0..400)
        .map(|i| format!("{{\"id\": \"n{i}\", \"kind\": \"narrative\", \"text\": \"turn {i}\", \"tokens\": 2}}\n"))
        .collect();
    std::fs::write(&path, lines).unwrap_or_else(|e| panic!("{e}"));
    let streaming = Streaming::open_small(
        &path,
        InputFormat::JsonLines,
        &crate::source::Access::default(),
    )
    .unwrap_or_else(|| panic!("streams"))
    .with_block(64);
    let (handed, unhanded) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            streaming.regions(|_, _| panic!("a reader panics"), |_, _, _| {})
        }));
        let _ = handed.send(read.is_err());
    });
    let panicked = unhanded.recv_timeout(std::time::Duration::from_secs(60));
    assert_eq!(panicked, Ok(true), "the panic reaches the caller, in time");
}
