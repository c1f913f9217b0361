//! JSON Lines traces and plans: one region a line, each line read on its
//! own, so a large file is read on two threads, each taking half its lines.

use std::ops::Range;
use std::sync::Arc;

use serde::de::DeserializeSeed;

use crate::buffer::document::RawRegion;
use crate::buffer::json::{json_error, Fill, JsonRegion, Written, WrittenSink};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// Files from this size are read on two threads.
const PARALLEL_BYTES: usize = 1 << 20;

/// Every region, each typed by `convert`: a large file's two halves on two
/// threads. What comes back is what reading it in order gives, the first
/// error in the file included: the second half's error counts only when
/// the first half has none.
pub(super) fn read_all<T: Send>(
    file: &Arc<SourceFile>,
    convert: &(impl Fn(&Arc<SourceFile>, &mut RawRegion) -> Result<T, Box<Diagnostic>> + Sync),
) -> Result<Vec<T>, Box<Diagnostic>> {
    let text = file.text();
    let collect = |range: Range<usize>, first: usize| {
        let mut typed = Vec::new();
        let mut raw = RawRegion::empty();
        lines(file, range, first, &mut |written: Written| {
            written.typed(file, &mut raw)?;
            typed.push(convert(file, &mut raw)?);
            Ok(())
        })?;
        Ok(typed)
    };
    let middle = text.len() / 2;
    let split = memchr::memchr(b'\n', &text.as_bytes()[middle..]).map(|i| middle + i + 1);
    match split {
        Some(split) if text.len() >= PARALLEL_BYTES && split < text.len() => {
            // The second half's regions are numbered after the first's.
            let first = text[..split]
                .split_inclusive('\n')
                .filter(|line| !is_blank(line))
                .count();
            let (head, tail) = rayon::join(
                || collect(0..split, 0),
                || collect(split..text.len(), first),
            );
            let mut head = head?;
            head.extend(tail?);
            Ok(head)
        }
        _ => collect(0..text.len(), 0),
    }
}

/// Whether a line holds no region: blank lines are skipped, and not counted.
fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The lines of `range` (which starts a line), the first numbered `first`,
/// each handed over as written.
pub(super) fn lines(
    file: &Arc<SourceFile>,
    range: Range<usize>,
    first: usize,
    sink: &mut WrittenSink<'_>,
) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    let mut index = first;
    let mut offset = range.start;
    let mut region = JsonRegion::empty();
    for line in text[range].split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        if is_blank(line) {
            continue;
        }
        let content = line.trim_end_matches(['\n', '\r']);
        // As serde_json::from_str reads it, into the same fields each line.
        let mut values = serde_json::Deserializer::from_str(content);
        (Fill(&mut region).deserialize(&mut values))
            .and_then(|_| values.end())
            .map_err(|error| {
                let what = format!("line {}", file.line_col(start).0);
                json_error(file, content, start, &error, &what)
            })?;
        sink(Written {
            fields: &region,
            span: Some(start..start + content.len()),
            index,
            listed: false,
        })?;
        index += 1;
    }
    Ok(())
}
