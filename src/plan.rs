//! The plan: a proposed compaction, the buffer after it (CONTRACT §4).

use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::document::{self, Field, Input, RawRegion};
use crate::source::{SourceFile, Span};
use crate::trace::{place, Content, Fields, Place, Status};

#[derive(Clone, Debug)]
pub enum Entry {
    /// `keep: ID`: trace region ID, verbatim.
    Keep { id: String, span: Span },
    /// A commitment written out in full.
    Commitment {
        kind: String,
        kind_span: Span,
        key: String,
        content: Content,
        content_span: Span,
    },
    /// Replaces the covered narrative regions.
    Summary {
        covers: Vec<(String, Span)>,
        text: String,
        text_span: Span,
    },
    /// A narrative region kept; its text, if given, must equal the trace's.
    Narrative {
        from: String,
        from_span: Span,
        text: Option<(String, Span)>,
    },
}

#[derive(Clone, Debug)]
pub struct PlanRegion {
    pub entry: Entry,
    pub tokens: Option<u64>,
    pub status: Option<(Status, Span)>,
    pub place: Place,
}

#[derive(Debug)]
pub struct Plan {
    pub file: Arc<SourceFile>,
    pub regions: Vec<PlanRegion>,
}

impl Plan {
    /// Reads and types every region of `input`.
    pub fn read(input: &Input) -> Result<Plan, Box<Diagnostic>> {
        Ok(Plan {
            file: Arc::clone(&input.file),
            regions: document::read_all(input, plan_region)?,
        })
    }
}

fn plan_region(file: &Arc<SourceFile>, mut raw: RawRegion) -> Result<PlanRegion, Box<Diagnostic>> {
    let place = place(file, &raw);
    let opening = place.span.clone();
    let mut fields = Fields {
        file,
        raw: &mut raw,
    };
    let tokens = fields.count("tokens")?.map(|(n, _)| n);
    let (status, status_span) = fields.status()?;
    let status = status.zip(status_span);
    let entry = if let Some((id, span)) = fields.string("keep")? {
        Entry::Keep { id, span }
    } else {
        let Some((kind, kind_span)) = fields.string("kind")? else {
            return Err(fields.error(
                opening.clone(),
                "this plan region is neither `keep: ID` nor a region with a `kind`".to_owned(),
                "expected `keep` or `kind`",
                "keep a trace region with `keep: ID`, or write a `summary`, a `narrative` or a commitment out in full".to_owned(),
            ));
        };
        match kind.as_str() {
            "summary" => {
                let covers = covers(&mut fields, &opening)?;
                let Some((text, text_span)) = fields.string("text")? else {
                    return Err(fields.error(
                        opening.clone(),
                        "this summary has no `text`".to_owned(),
                        "expected `text`",
                        "give the summary its `text`".to_owned(),
                    ));
                };
                Entry::Summary {
                    covers,
                    text,
                    text_span,
                }
            }
            "narrative" => {
                let Some((from, from_span)) = fields.string("from")? else {
                    return Err(fields.error(
                        kind_span,
                        "this narrative region does not say which trace region it keeps".to_owned(),
                        "expected `from: ID`",
                        "write `from: ID`, or `keep: ID`".to_owned(),
                    ));
                };
                Entry::Narrative {
                    from,
                    from_span,
                    text: fields.string("text")?,
                }
            }
            "unclassified" => {
                return Err(fields.error(
                    kind_span,
                    "an unclassified region cannot be written out in a plan".to_owned(),
                    "not a commitment kind",
                    "keep an unclassified trace region with `keep: ID`".to_owned(),
                ))
            }
            _ => {
                let Some((key, _)) = fields.string("key")? else {
                    return Err(fields.error(
                        kind_span,
                        format!("this `{kind}` commitment has no `key`"),
                        "a commitment needs a key",
                        format!("write the commitment's identity as `kind: {kind}` and `key: KEY`, or keep it with `keep: ID`"),
                    ));
                };
                let (content, content_span) = fields.content()?;
                Entry::Commitment {
                    kind,
                    kind_span,
                    key,
                    content,
                    content_span,
                }
            }
        }
    };
    Ok(PlanRegion {
        entry,
        tokens,
        status,
        place,
    })
}

fn covers(fields: &mut Fields, opening: &Span) -> Result<Vec<(String, Span)>, Box<Diagnostic>> {
    let Some(field) = fields.raw.take("covers") else {
        return Err(fields.error(
            opening.clone(),
            "this summary does not say which regions it covers".to_owned(),
            "expected `covers: [IDs]`",
            "list the narrative regions it replaces, like `covers: [r1, r3]`".to_owned(),
        ));
    };
    let Field {
        value: Value::Array(items),
        span,
        items: spans,
    } = field
    else {
        return Err(fields.error(
            field.span.clone(),
            "`covers` must be a list of region ids".to_owned(),
            "expected a list",
            "write `covers: [r1, r3]`".to_owned(),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let item_span = spans.get(i).cloned().unwrap_or_else(|| span.clone());
            match item {
                Value::String(id) => Ok((id.clone(), item_span)),
                _ => Err(fields.error(
                    item_span,
                    "`covers` must list region ids".to_owned(),
                    "expected a string",
                    "write `covers: [r1, r3]`".to_owned(),
                )),
            }
        })
        .collect()
}
