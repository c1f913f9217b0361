//! JSON Lines traces and plans: one region a line, read a line at a time.

use std::sync::Arc;

use crate::buffer::document::Sink;
use crate::buffer::json::{json_error, json_region, JsonRegion};
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// One region a line; the file is read a line at a time.
pub(super) fn read(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    let mut index = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            continue;
        }
        let content = &text[start..start + content.len()];
        let what = format!("line {}", file.line_col(start).0);
        let region: JsonRegion = serde_json::from_str(content)
            .map_err(|error| json_error(file, content, start, &error, &what))?;
        sink(json_region(
            file,
            region,
            Some(start..start + content.len()),
            index,
            false,
        )?)?;
        index += 1;
    }
    Ok(())
}
