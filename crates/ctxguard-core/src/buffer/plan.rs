//! The plan: a proposed compaction, the buffer after it. One model for every
//! use: the reader builds it with the place of each field, the compactor
//! builds it with none, [`Plan::write`] writes it in any trace format, and
//! `ctxguard schema plan` is derived from the same types.

use std::io::Write;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use crate::buffer::document::{self, Field, FieldValue, Input, InputFormat, Name, RawRegion};
use crate::buffer::fields::{place, Fields};
use crate::buffer::trace::{Content, Place, Provenance, Status};
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span, Spanned, Text};

/// The buffer after compaction, in order.
#[derive(Debug, Serialize, JsonSchema)]
#[schemars(title = "ctxguard plan", extend("additionalProperties" = true))]
pub struct Plan {
    /// The file the plan was read from; for a plan ctxguard made, `<plan>`.
    #[serde(skip)]
    pub file: Arc<SourceFile>,
    /// The format version.
    #[schemars(range(min = 1, max = 1))]
    pub version: u32,
    /// The plan's regions, in buffer order.
    pub regions: Vec<PlanRegion>,
}

/// One region of a plan: what it is, and the fields every region may have.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PlanRegion {
    /// What the region is.
    #[serde(flatten)]
    pub entry: Entry,
    /// For a commitment: must stay the trace's status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Spanned<Status>>,
    /// Precomputed token count of a summary, narrative or written-out
    /// commitment; a kept region counts as the trace counts it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub tokens: Option<u64>,
    /// Where an imported region came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Provenance")]
    pub source: Option<Box<Provenance>>,
    /// Where the region stands in its file.
    #[serde(skip)]
    pub place: Place,
}

/// The `kind` of a summary.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub enum SummaryKind {
    /// `kind: summary`.
    #[serde(rename = "summary")]
    Summary,
}

/// The `kind` of a narrative region kept from the trace.
#[derive(Clone, Copy, Debug, Serialize, JsonSchema)]
pub enum NarrativeKind {
    /// `kind: narrative`.
    #[serde(rename = "narrative")]
    Narrative,
}

/// What a plan region is.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Entry {
    /// A trace region, re-injected verbatim.
    Keep {
        /// The trace region's id.
        #[serde(rename = "keep")]
        id: Spanned<Text>,
    },
    /// Replaces the covered regions, which must all be narrative.
    Summary {
        /// `summary`.
        kind: SummaryKind,
        /// Ids of the narrative regions it replaces.
        covers: Vec<Spanned<Text>>,
        /// Ids of the trace regions (commitments above all) whose text it
        /// holds byte for byte: each is carried by the summary, not lost.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        quotes: Vec<Spanned<Text>>,
        /// The summary.
        text: Spanned<Text>,
        /// What wrote the summary: the `--summarizer` command, or
        /// `extractive` for ctxguard's placeholder.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summarizer: Option<String>,
    },
    /// A narrative region kept; `text`, if given, must equal the trace's.
    Narrative {
        /// `narrative`.
        kind: NarrativeKind,
        /// The trace region's id.
        from: Spanned<String>,
        /// The region's text, if written out.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<Spanned<String>>,
    },
    /// A commitment written out in full; it must equal the trace's
    /// commitment `kind:key`.
    Commitment {
        /// A commitment kind the policy declares.
        kind: Spanned<String>,
        /// The commitment's key: its identity is `kind:key`.
        key: String,
        /// `text` or `record`.
        #[serde(flatten)]
        content: Spanned<Content>,
    },
}

impl PlanRegion {
    /// The text this region writes into the compacted buffer itself (a
    /// summary, a commitment or narrative written out), which its tokens
    /// are the tokens of; `None` for a region that keeps a trace region.
    pub fn written(&self) -> Option<std::borrow::Cow<'_, str>> {
        match &self.entry {
            Entry::Keep { .. } | Entry::Narrative { text: None, .. } => None,
            Entry::Summary { text, .. } => Some(text.node.as_str().into()),
            Entry::Narrative {
                text: Some(text), ..
            } => Some(text.node.as_str().into()),
            Entry::Commitment { content, .. } => Some(content.node.as_text()),
        }
    }

    /// A region ctxguard made, with no place in a file.
    pub fn unplaced(index: usize, entry: Entry) -> Self {
        PlanRegion {
            entry,
            status: None,
            tokens: None,
            source: None,
            place: Place {
                index,
                span: 0..0,
                listed: true,
            },
        }
    }
}

impl Plan {
    /// Reads and types every region of `input`.
    pub fn read(input: &Input) -> Result<Plan, Box<Diagnostic>> {
        Ok(Plan {
            file: Arc::clone(&input.file),
            version: 1,
            regions: document::read_all(input, plan_region)?,
        })
    }

    /// A plan ctxguard made: its regions have no place in a file.
    pub fn unplaced(regions: Vec<PlanRegion>) -> Plan {
        Plan {
            file: SourceFile::new("<plan>", ""),
            version: 1,
            regions,
        }
    }

    /// The plan in a trace format: JSON, YAML or JSON Lines (one region a line).
    pub fn write(&self, format: InputFormat, out: &mut dyn Write) -> std::io::Result<()> {
        let invalid = |error: String| std::io::Error::new(std::io::ErrorKind::InvalidData, error);
        match format {
            InputFormat::Json => {
                serde_json::to_writer_pretty(&mut *out, self)
                    .map_err(|e| invalid(e.to_string()))?;
                writeln!(out)
            }
            InputFormat::Yaml => {
                serde_yaml::to_writer(&mut *out, self).map_err(|e| invalid(e.to_string()))
            }
            InputFormat::JsonLines => {
                for region in &self.regions {
                    serde_json::to_writer(&mut *out, region).map_err(|e| invalid(e.to_string()))?;
                    writeln!(out)?;
                }
                Ok(())
            }
        }
    }
}

fn spanned((node, span): (String, Span)) -> Spanned<String> {
    Spanned::new(node, span)
}

fn plan_region(file: &Arc<SourceFile>, raw: &mut RawRegion) -> Result<PlanRegion, Box<Diagnostic>> {
    let place = place(file, raw);
    let opening = place.span.clone();
    let mut fields = Fields { file, raw };
    let tokens = fields.count(Name::TOKENS)?.map(|(n, _)| n);
    let source = fields.typed(
        Name::SOURCE,
        "a mapping with `file`, and optionally `line`, `record` and `hint`",
    )?;
    let (status, status_span) = fields.status()?;
    let status = status
        .zip(status_span)
        .map(|(s, span)| Spanned::new(s, span));
    let entry = if let Some((id, span)) = fields.text(Name::KEEP)? {
        Entry::Keep {
            id: Spanned::new(id, span),
        }
    } else {
        let Some((kind, kind_span)) = fields.string(Name::KIND)? else {
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
                let quotes = match fields.raw.take(Name::QUOTES) {
                    Some(field) => ids(&mut fields, Name::QUOTES, field)?,
                    None => Vec::new(),
                };
                let Some((text, text_span)) = fields.text(Name::TEXT)? else {
                    return Err(fields.error(
                        opening.clone(),
                        "this summary has no `text`".to_owned(),
                        "expected `text`",
                        "give the summary its `text`".to_owned(),
                    ));
                };
                let summarizer = fields.string(Name::SUMMARIZER)?.map(|(name, _)| name);
                Entry::Summary {
                    kind: SummaryKind::Summary,
                    covers,
                    quotes,
                    text: Spanned::new(text, text_span),
                    summarizer,
                }
            }
            "narrative" => {
                let Some(from) = fields.string(Name::FROM)? else {
                    return Err(fields.error(
                        kind_span,
                        "this narrative region does not say which trace region it keeps".to_owned(),
                        "expected `from: ID`",
                        "write `from: ID`, or `keep: ID`".to_owned(),
                    ));
                };
                Entry::Narrative {
                    kind: NarrativeKind::Narrative,
                    from: spanned(from),
                    text: fields.string(Name::TEXT)?.map(spanned),
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
                let Some((key, _)) = fields.string(Name::KEY)? else {
                    return Err(fields.error(
                        kind_span,
                        format!("this `{kind}` commitment has no `key`"),
                        "a commitment needs a key",
                        format!("write the commitment's identity as `kind: {kind}` and `key: KEY`, or keep it with `keep: ID`"),
                    ));
                };
                let (content, content_span) = fields.content()?;
                Entry::Commitment {
                    kind: Spanned::new(kind, kind_span),
                    key,
                    content: Spanned::new(content, content_span),
                }
            }
        }
    };
    Ok(PlanRegion {
        entry,
        tokens,
        status,
        source,
        place,
    })
}

fn covers(fields: &mut Fields, opening: &Span) -> Result<Vec<Spanned<Text>>, Box<Diagnostic>> {
    let Some(field) = fields.raw.take(Name::COVERS) else {
        return Err(fields.error(
            opening.clone(),
            "this summary does not say which regions it covers".to_owned(),
            "expected `covers: [IDs]`",
            "list the narrative regions it replaces, like `covers: [r1, r3]`".to_owned(),
        ));
    };
    ids(fields, Name::COVERS, field)
}

/// A list of region ids: `covers` or `quotes`.
fn ids(
    fields: &mut Fields,
    name: Name,
    field: Field,
) -> Result<Vec<Spanned<Text>>, Box<Diagnostic>> {
    let (items, span, spans) = match field.value {
        FieldValue::Strings(ids) => return Ok(ids),
        FieldValue::List(items) => (items, field.span, field.items),
        _ => {
            return Err(fields.error(
                field.span.clone(),
                format!("`{name}` must be a list of region ids"),
                "expected a list",
                format!("write `{name}: [r1, r3]`"),
            ))
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            let item_span = spans.get(i).cloned().unwrap_or_else(|| span.clone());
            match item {
                FieldValue::Str(id) => Ok(Spanned::new(id, item_span)),
                _ => Err(fields.error(
                    item_span,
                    format!("`{name}` must list region ids"),
                    "expected a string",
                    format!("write `{name}: [r1, r3]`"),
                )),
            }
        })
        .collect()
}
