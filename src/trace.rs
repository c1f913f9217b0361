//! The trace: the buffer before compaction (CONTRACT §3), typed, with every
//! region's place in its file.

use std::sync::Arc;

use serde_json::Value;

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::document::{self, Field, Input, RawRegion};
use crate::source::{SourceFile, Span};

/// What a region holds: text compared byte for byte, or a record compared
/// structurally (object key order ignored).
#[derive(Clone, Debug)]
pub enum Content {
    Text(String),
    Record(Value),
}

impl Content {
    pub fn same(&self, other: &Content) -> bool {
        match (self, other) {
            (Content::Text(a), Content::Text(b)) => a == b,
            (Content::Record(a), Content::Record(b)) => same_value(a, b),
            _ => false,
        }
    }

    /// The text a tokenizer or a hint sees: a record as compact JSON.
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Content::Text(text) => text.into(),
            Content::Record(value) => value.to_string().into(),
        }
    }
}

/// Structural equality: object key order ignored, numbers compared by value
/// (`3` and `3.0` are the same number).
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => x.as_f64() == y.as_f64(),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, value)| y.get(key).is_some_and(|other| same_value(value, other)))
        }
        _ => a == b,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    Discharged,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Discharged => "discharged",
        }
    }
}

/// Who wrote a region. Informational, except that tool output is never
/// taken for an untagged commitment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    Tool,
    System,
    Other(String),
}

impl From<String> for Role {
    fn from(role: String) -> Role {
        match role.as_str() {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            "system" => Role::System,
            _ => Role::Other(role),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Narrative,
    Unclassified,
    /// A commitment kind as written; whether the policy declares it is the verifier's question.
    Commitment(String),
}

/// Where a region stands in its file.
#[derive(Clone, Debug)]
pub struct Place {
    /// Position in the file, from 0.
    pub index: usize,
    /// The region's first line.
    pub span: Span,
    /// In a `regions` list: see [`Place::pointer`].
    pub listed: bool,
}

impl Place {
    /// The region's JSON Pointer, `/regions/3`; `None` in JSON Lines.
    pub fn pointer(&self) -> Option<String> {
        self.listed.then(|| format!("/regions/{}", self.index))
    }
}

#[derive(Clone, Debug)]
pub struct Region {
    pub id: String,
    pub kind: RegionKind,
    pub key: Option<String>,
    pub content: Content,
    pub tokens: Option<u64>,
    pub at: Option<u64>,
    pub tagged_at: Option<u64>,
    pub role: Option<Role>,
    pub status: Status,
    pub place: Place,
    pub id_span: Span,
    pub kind_span: Option<Span>,
    pub content_span: Span,
    pub tagged_at_span: Option<Span>,
    pub tokens_span: Option<Span>,
}

impl Region {
    /// `kind:key` for a commitment.
    pub fn identity(&self) -> Option<String> {
        match (&self.kind, &self.key) {
            (RegionKind::Commitment(kind), Some(key)) => Some(format!("{kind}:{key}")),
            _ => None,
        }
    }
}

#[derive(Debug)]
pub struct Trace {
    pub file: Arc<SourceFile>,
    pub regions: Vec<Region>,
}

impl Trace {
    /// Reads and types every region of `input`.
    pub fn read(input: &Input) -> Result<Trace, Box<Diagnostic>> {
        Ok(Trace {
            file: Arc::clone(&input.file),
            regions: document::read_all(input, region)?,
        })
    }
}

fn region(file: &Arc<SourceFile>, mut raw: RawRegion) -> Result<Region, Box<Diagnostic>> {
    let place = place(file, &raw);
    let mut fields = Fields {
        file,
        raw: &mut raw,
    };
    let (id, id_span) = fields.required_string("id")?;
    let kind_field = fields.string("kind")?;
    let kind = match kind_field.as_ref().map(|(kind, _)| kind.as_str()) {
        None | Some("unclassified") => RegionKind::Unclassified,
        Some("narrative") => RegionKind::Narrative,
        Some(other) => RegionKind::Commitment(other.to_owned()),
    };
    let key = fields.string("key")?;
    if let (RegionKind::Commitment(kind), None) = (&kind, &key) {
        let span = kind_field
            .as_ref()
            .map_or(place.span.clone(), |(_, span)| span.clone());
        return Err(fields.error(
            span,
            format!("commitment `{id}` of kind `{kind}` has no `key`"),
            "a commitment needs a stable key",
            format!("add a `key`: a commitment's identity is `{kind}:KEY`"),
        ));
    }
    let (content, content_span) = fields.content()?;
    let (status, _) = fields.status()?;
    let tagged_at = fields.count("tagged_at")?;
    let tokens = fields.count("tokens")?;
    Ok(Region {
        id,
        kind,
        key: key.map(|(key, _)| key),
        content,
        tokens: tokens.as_ref().map(|(n, _)| *n),
        tokens_span: tokens.map(|(_, span)| span),
        at: fields.count("at")?.map(|(n, _)| n),
        tagged_at_span: tagged_at.as_ref().map(|(_, span)| span.clone()),
        tagged_at: tagged_at.map(|(n, _)| n),
        role: fields.string("role")?.map(|(role, _)| Role::from(role)),
        status: status.unwrap_or(Status::Active),
        place,
        id_span,
        kind_span: kind_field.map(|(_, span)| span),
        content_span,
    })
}

pub(crate) fn place(file: &SourceFile, raw: &RawRegion) -> Place {
    Place {
        index: raw.index,
        span: raw.opening(file.text()),
        listed: raw.listed,
    }
}

/// Typed access to a raw region's fields, with errors that say what was expected.
pub(crate) struct Fields<'a> {
    pub file: &'a Arc<SourceFile>,
    pub raw: &'a mut RawRegion,
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

impl Fields<'_> {
    fn where_(&self) -> String {
        match &self.raw.pointer() {
            Some(pointer) => format!("region `{pointer}`"),
            None => format!(
                "the region on line {}",
                self.file.line_col(self.raw.span.start).0
            ),
        }
    }

    pub fn error(&self, span: Span, message: String, label: &str, help: String) -> Box<Diagnostic> {
        let mut diagnostic = Diagnostic::new(Code::InvalidInput, message)
            .label(self.file, span, label)
            .help(help);
        if let Some(label) = diagnostic.labels.first_mut() {
            label.pointer = self.raw.pointer();
        }
        Box::new(diagnostic)
    }

    fn wrong_type(&self, name: &str, field: &Field, expected: &str) -> Box<Diagnostic> {
        self.error(
            field.span.clone(),
            format!(
                "`{name}` of {} must be {expected}, not {}",
                self.where_(),
                describe(&field.value)
            ),
            &format!("expected {expected}"),
            format!("write `{name}` as {expected}"),
        )
    }

    /// Each accessor moves its field out of the raw region: no copies.
    pub fn string(&mut self, name: &str) -> Result<Option<(String, Span)>, Box<Diagnostic>> {
        match self.raw.take(name) {
            None => Ok(None),
            Some(Field {
                value: Value::String(text),
                span,
                ..
            }) => Ok(Some((text, span))),
            Some(field) => Err(self.wrong_type(name, &field, "a string")),
        }
    }

    pub fn required_string(&mut self, name: &str) -> Result<(String, Span), Box<Diagnostic>> {
        self.string(name)?.ok_or_else(|| {
            self.error(
                self.raw.opening(self.file.text()),
                format!("{} has no `{name}`", self.where_()),
                &format!("expected `{name}` in this region"),
                format!("every region needs `{name}`"),
            )
        })
    }

    /// A non-negative whole number (`tokens`, `at`, `tagged_at`).
    pub fn count(&mut self, name: &str) -> Result<Option<(u64, Span)>, Box<Diagnostic>> {
        match self.raw.take(name) {
            None
            | Some(Field {
                value: Value::Null, ..
            }) => Ok(None),
            Some(field) => match field.value.as_u64() {
                Some(n) => Ok(Some((n, field.span))),
                None => Err(self.wrong_type(name, &field, "a whole number, 0 or more")),
            },
        }
    }

    pub fn status(&mut self) -> Result<(Option<Status>, Option<Span>), Box<Diagnostic>> {
        match self.string("status")? {
            None => Ok((None, None)),
            Some((status, span)) => match status.as_str() {
                "active" => Ok((Some(Status::Active), Some(span))),
                "discharged" => Ok((Some(Status::Discharged), Some(span))),
                other => Err(self.error(
                    span,
                    format!("`status` of {} is `{other}`", self.where_()),
                    "expected `active` or `discharged`",
                    "a commitment is `active` (the default) or `discharged` (already carried out)"
                        .to_owned(),
                )),
            },
        }
    }

    /// Exactly one of `text` (a string) and `record` (any value).
    pub fn content(&mut self) -> Result<(Content, Span), Box<Diagnostic>> {
        match (self.raw.take("text"), self.raw.take("record")) {
            (Some(text), Some(record)) => Err(self.error(
                record.span.clone(),
                format!("{} has both `text` and `record`", self.where_()),
                "second content",
                format!(
                    "keep one: `text` (at line {}) or `record`",
                    self.file.line_col(text.span.start).0
                ),
            )),
            (
                Some(Field {
                    value: Value::String(text),
                    span,
                    ..
                }),
                None,
            ) => Ok((Content::Text(text), span)),
            (Some(field), None) => Err(self.wrong_type("text", &field, "a string")),
            (None, Some(record)) => Ok((Content::Record(record.value), record.span)),
            (None, None) => Err(self.error(
                self.raw.opening(self.file.text()),
                format!("{} has no content", self.where_()),
                "expected `text` or `record`",
                "give the region its content as `text` (a string) or `record` (any value)"
                    .to_owned(),
            )),
        }
    }
}
