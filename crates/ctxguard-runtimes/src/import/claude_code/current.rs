//! The buffer a Claude Code transcript holds while its session runs, as
//! the live guard's hooks read it: the messages on the chain of its last
//! record, the last compaction's summary with what it preserved, and what
//! hooks gave the model since.

use foldhash::{HashSet, HashSetExt};
use std::sync::Arc;

use serde_json::Value;

use super::{caveat_relinks, last_on_chain, lone_summary, Index, Session};
use crate::import::records::{self, Record};
use crate::import::{Current, LastSummary, Origin};
use crate::source::SourceFile;

/// The buffer a Claude Code transcript holds now.
pub(crate) fn current(file: &Arc<SourceFile>) -> Current {
    let mut problems = Vec::new();
    let records = records::api_lines(file, &mut problems);
    let index = Index::new(&records);
    let mut relink = caveat_relinks(&records, &index);
    // Every boundary is written: each preserved segment's head is relinked
    // to its anchor, as the client does on load.
    for record in &records {
        let segment = record.value.pointer("/compactMetadata/preservedSegment");
        let uuid = |name: &str| segment.and_then(|s| s.get(name)).and_then(Value::as_str);
        if let (Some(head), Some(anchor)) = (uuid("headUuid"), uuid("anchorUuid")) {
            relink.insert(head, anchor);
        }
    }
    let carried = HashSet::new();
    let session = Session {
        records: &records,
        index: &index,
        relink: &relink,
        partial: false,
        floor: None,
        carried: &carried,
    };
    let leaf = last_on_chain(&records, 0, records.len());
    let messages = leaf
        .map(|leaf| session.messages(&session.chain(leaf), records.len()))
        .unwrap_or_default();
    Current {
        messages,
        version: records
            .iter()
            .rev()
            .find_map(|r| r.str("/version").map(str::to_owned)),
        lines: file.text().lines().count() as u64,
        given_back: given_back(&records),
        summary: last_summary(&session),
    }
}

/// The summary record after the last compaction boundary (the summary
/// itself where 1.0 wrote no boundary), with the messages the boundary
/// preserved word for word after it (2.1.x reactive and partial
/// compactions).
fn last_summary(session: &Session<'_>) -> Option<LastSummary> {
    let records = session.records;
    let b = records
        .iter()
        .rposition(|r| r.str("/subtype") == Some("compact_boundary") || lone_summary(r))?;
    let at = (b..records.len()).find(|&i| records[i].flag("/isCompactSummary"))?;
    Some(LastSummary {
        text: records[at].message().content.text(),
        trigger: records[b]
            .str("/compactMetadata/trigger")
            .map(str::to_owned),
        line: records[at].line,
        carried: {
            let (_, preserved) =
                session.preserved(records[b].value.pointer("/compactMetadata"), &[]);
            let mut segment: Vec<usize> = preserved.into_iter().filter(|&i| i < b).collect();
            segment.sort_unstable();
            session
                .messages(&segment, b)
                .into_iter()
                .map(|m| (m.text, m.origin != Origin::Tool))
                .collect()
        },
    })
}

/// The `hook_additional_context` attachments after the last compaction.
fn given_back(records: &[Record]) -> Option<Vec<String>> {
    let boundary = records
        .iter()
        .rposition(|r| r.str("/subtype") == Some("compact_boundary"))?;
    Some(
        records[boundary..]
            .iter()
            .filter(|r| r.str("/attachment/type") == Some("hook_additional_context"))
            .map(|r| match r.value.pointer("/attachment/content") {
                Some(Value::Array(parts)) => parts
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("\n"),
                Some(Value::String(text)) => text.clone(),
                _ => String::new(),
            })
            .collect(),
    )
}
