//! The trace: the buffer before compaction (`docs/formats.md`), typed, with every
//! region's place in its file.

use std::sync::Arc;

use serde_json::Value;

use crate::buffer::document::{self, Input, Name, RawRegion};
use crate::buffer::fields::{place, Fields};
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span, Text};

/// What a region holds: text compared byte for byte, or a record compared
/// structurally (object key order ignored).
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Content {
    /// Text, compared byte for byte.
    Text(Text),
    /// Structured content, compared structurally (object key order ignored).
    // Boxed: most regions are text, and every region takes the room of
    // the largest content.
    Record(Box<Value>),
}

impl Content {
    /// Whether two contents are the same: text byte for byte, records structurally.
    pub fn same(&self, other: &Content) -> bool {
        match (self, other) {
            (Content::Text(a), Content::Text(b)) => a == b,
            (Content::Record(a), Content::Record(b)) => same_value(a, b),
            _ => false,
        }
    }

    /// The same content, owned: it no longer holds on to the file it was read from.
    pub fn detached(&self) -> Content {
        match self {
            Content::Text(text) => Content::Text(text.detached()),
            Content::Record(value) => Content::Record(value.clone()),
        }
    }

    /// The text a tokenizer or a hint sees: a record as compact JSON.
    pub fn as_text(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Content::Text(text) => text.as_str().into(),
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

/// Whether a commitment still binds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Still binding: it must survive compaction.
    #[default]
    Active,
    /// Already carried out: it may be dropped.
    Discharged,
}

impl Status {
    /// `active` or `discharged`, as written.
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Discharged => "discharged",
        }
    }
}

/// Where an imported region came from: a place in the session file a user
/// knows, so that every finding about the region can point back to it.
#[derive(
    Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The session file, as named on the command line.
    pub file: String,
    /// The 1-based line of the record the region comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub line: Option<u64>,
    /// The record's id or uuid, where the runtime gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub record: Option<String>,
    /// For a region classified by a hint: the hint that matched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Provenance {
    /// `session.jsonl:123 (record 3f0c…)`.
    pub fn describe(&self) -> String {
        let mut place = crate::diagnostics::codes::echo(&self.file).into_owned();
        if let Some(line) = self.line {
            place.push_str(&format!(":{line}"));
        }
        if let Some(record) = &self.record {
            place.push_str(&format!(
                " (record {})",
                crate::diagnostics::codes::echo(record)
            ));
        }
        place
    }
}

/// How an imported region's kind was decided, when nobody tagged it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Derived {
    /// The user pinned it (`pin KIND KEY: TEXT`): tagged when written.
    Pin,
    /// The user chose it in a question the runtime asked.
    Answer,
    /// A sentence the user wrote that matched a kind's hint.
    Hint,
    /// A sentence the user wrote that nothing classified: unclassified.
    Sentence,
}

/// Who wrote a region. Informational, except that tool output is never
/// taken for an untagged commitment.
#[derive(Clone, Debug, PartialEq, Eq, schemars::JsonSchema)]
#[schemars(with = "String")]
pub enum Role {
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `tool`: its output is never taken for an untagged commitment.
    Tool,
    /// `system`.
    System,
    /// Any other role, as written.
    Other(String),
}

impl From<String> for Role {
    fn from(role: String) -> Role {
        match Role::known(&role) {
            Some(known) => known,
            None => Role::Other(role),
        }
    }
}

impl Role {
    /// The role written as `role`.
    pub fn named(role: &str) -> Role {
        Role::known(role).unwrap_or_else(|| Role::Other(role.to_owned()))
    }

    /// One of the roles ctxguard knows by name.
    pub(crate) fn known(role: &str) -> Option<Role> {
        Some(match role {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            "system" => Role::System,
            _ => return None,
        })
    }
}

/// What a trace region is: written as `kind`, `narrative`, `unclassified`
/// (the default) or a commitment kind the policy declares.
#[derive(Clone, Debug, Default, PartialEq, Eq, schemars::JsonSchema)]
#[schemars(with = "String")]
pub enum RegionKind {
    /// May be summarized or dropped.
    Narrative,
    /// Nobody classified it (no `kind`, or `unclassified`): it must be kept.
    #[default]
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
        region_pointer(self.index, self.listed)
    }
}

/// The JSON Pointer of the region at `index`, `/regions/3`, for a region in
/// a `regions` list (`listed`); JSON Lines have a line instead.
pub(crate) fn region_pointer(index: usize, listed: bool) -> Option<String> {
    listed.then(|| format!("/regions/{index}"))
}

/// A region: narrative, unclassified, or a commitment of a declared kind.
/// It holds exactly one of `text` and `record`. The model also keeps where
/// each field is written (not part of the format).
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
pub struct Region {
    /// Unique within the trace; plans name regions by it.
    pub id: String,
    /// `narrative`, `unclassified` (the default when missing), or a
    /// commitment kind the policy declares.
    #[serde(default, serialize_with = "kind_name")]
    pub kind: RegionKind,
    /// A commitment's stable identity is `kind:key`; required for commitments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub key: Option<String>,
    /// `text` (compared byte for byte) or `record` (compared structurally).
    #[serde(flatten)]
    pub content: Content,
    /// Precomputed token count; otherwise counted with the policy's tokenizer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0))]
    pub tokens: Option<u64>,
    /// Append sequence number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// Sequence number at which the tag was applied; later than `at` is a
    /// retrofitted tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tagged_at: Option<u64>,
    /// Who wrote the region; informational, but tool output is never taken
    /// for an untagged commitment.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "role_name"
    )]
    #[schemars(with = "String")]
    pub role: Option<Role>,
    /// For commitments: `discharged` means already carried out. Missing
    /// means `active`.
    #[serde(default, skip_serializing_if = "is_active")]
    pub status: Status,
    /// Where an imported region came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Provenance")]
    pub source: Option<Box<Provenance>>,
    /// How an imported region's kind was decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Derived")]
    pub derived: Option<Derived>,
    /// Where the region stands in its file.
    #[serde(skip)]
    #[schemars(skip)]
    pub place: Place,
    /// Where `id` is written.
    #[serde(skip)]
    #[schemars(skip)]
    pub id_span: Span,
    /// Where `kind` is written, if it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub kind_span: Option<Span>,
    /// Where the content is written.
    #[serde(skip)]
    #[schemars(skip)]
    pub content_span: Span,
    /// Where `tagged_at` is written, if it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub tagged_at_span: Option<Span>,
    /// Where `tokens` is written, if it is.
    #[serde(skip)]
    #[schemars(skip)]
    pub tokens_span: Option<Span>,
}

fn kind_name<S: serde::Serializer>(kind: &RegionKind, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(match kind {
        RegionKind::Narrative => "narrative",
        RegionKind::Unclassified => "unclassified",
        RegionKind::Commitment(kind) => kind,
    })
}

fn role_name<S: serde::Serializer>(role: &Option<Role>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(match role {
        Some(Role::User) => "user",
        Some(Role::Assistant) => "assistant",
        Some(Role::Tool) => "tool",
        Some(Role::System) | None => "system",
        Some(Role::Other(role)) => role,
    })
}

fn is_active(status: &Status) -> bool {
    *status == Status::Active
}

impl Region {
    /// A region ctxguard made (an import), with no place in a file.
    pub fn unplaced(
        index: usize,
        id: String,
        kind: RegionKind,
        key: Option<String>,
        content: Content,
    ) -> Region {
        Region {
            id,
            kind,
            key,
            content,
            tokens: None,
            at: None,
            tagged_at: None,
            role: None,
            status: Status::Active,
            source: None,
            derived: None,
            place: Place {
                index,
                span: 0..0,
                listed: true,
            },
            id_span: 0..0,
            kind_span: None,
            content_span: 0..0,
            tagged_at_span: None,
            tokens_span: None,
        }
    }

    /// The region as read from a piece of its file that starts `by` bytes
    /// into it: every span moved to where it is in the file.
    pub(crate) fn moved(&mut self, by: usize) {
        let spans = [
            Some(&mut self.place.span),
            Some(&mut self.id_span),
            self.kind_span.as_mut(),
            Some(&mut self.content_span),
            self.tagged_at_span.as_mut(),
            self.tokens_span.as_mut(),
        ];
        for span in spans.into_iter().flatten() {
            *span = span.start + by..span.end + by;
        }
    }

    /// `kind:key` for a commitment.
    pub fn identity(&self) -> Option<String> {
        match (&self.kind, &self.key) {
            (RegionKind::Commitment(kind), Some(key)) => Some(format!("{kind}:{key}")),
            _ => None,
        }
    }
}

/// A narrative region written as nearly every one in a large trace is:
/// `id`, `kind: narrative`, `text`, and perhaps `tokens` and a `role`
/// ctxguard knows, each written plainly (no escapes but in `text`, and
/// no `\u` there). Typed from the fields as written, without building a
/// [`Region`]; [`Plain::region`] is the region [`region`] makes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plain {
    /// Position in the file, from 0.
    pub index: usize,
    /// In a `regions` list (it has a JSON Pointer).
    pub listed: bool,
    /// The region's first line.
    pub opening: Span,
    /// Where `id` is written, its quotes included.
    pub id_span: Span,
    pub kind_span: Span,
    /// Where `text` is written, its quotes included.
    pub content_span: Span,
    /// `text` is written with escapes (none of them `\u`).
    pub escaped: bool,
    pub tokens: Option<u64>,
    pub tokens_span: Option<Span>,
    pub role: Option<Role>,
}

impl Plain {
    /// Where the id's characters are (inside its quotes).
    pub fn id(&self) -> Span {
        self.id_span.start + 1..self.id_span.end - 1
    }

    /// As read from a piece of its file `by` bytes into it: see [`Region::moved`].
    pub fn moved(&mut self, by: usize) {
        let spans = [
            Some(&mut self.opening),
            Some(&mut self.id_span),
            Some(&mut self.kind_span),
            Some(&mut self.content_span),
            self.tokens_span.as_mut(),
        ];
        for span in spans.into_iter().flatten() {
            *span = span.start + by..span.end + by;
        }
    }

    /// The region this stands for, `file` holding its text.
    #[cfg(test)]
    pub fn region(&self, file: &Arc<SourceFile>) -> Region {
        let text = file.text();
        let literal = &text[self.content_span.clone()];
        let content: String = serde_json::from_str(literal).unwrap_or_default();
        Region {
            id: text[self.id()].to_owned(),
            kind: RegionKind::Narrative,
            key: None,
            content: Content::Text(content.into()),
            tokens: self.tokens,
            at: None,
            tagged_at: None,
            role: self.role.clone(),
            status: Status::Active,
            source: None,
            derived: None,
            place: Place {
                index: self.index,
                span: self.opening.clone(),
                listed: self.listed,
            },
            id_span: self.id_span.clone(),
            kind_span: Some(self.kind_span.clone()),
            content_span: self.content_span.clone(),
            tagged_at_span: None,
            tokens_span: self.tokens_span.clone(),
        }
    }
}

/// The buffer before compaction: its regions in order.
#[derive(Debug, serde::Serialize, schemars::JsonSchema)]
#[schemars(title = "ctxguard trace", extend("additionalProperties" = true))]
pub struct Trace {
    /// The file the trace was read from.
    #[serde(skip)]
    #[schemars(skip)]
    pub file: Arc<SourceFile>,
    /// The format version.
    #[schemars(range(min = 1, max = 1))]
    pub version: u32,
    /// The regions, in buffer order.
    pub regions: Vec<Region>,
}

impl Trace {
    /// Reads and types every region of `input`.
    pub fn read(input: &Input) -> Result<Trace, Box<Diagnostic>> {
        Ok(Trace {
            file: Arc::clone(&input.file),
            version: 1,
            regions: document::read_all(input, region)?,
        })
    }

    /// A trace ctxguard made (an import): its regions have no place in a file.
    pub fn unplaced(name: &str, regions: Vec<Region>) -> Trace {
        Trace {
            file: SourceFile::new(name, ""),
            version: 1,
            regions,
        }
    }

    /// The trace as pretty JSON.
    pub fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, self).map_err(std::io::Error::other)?;
        writeln!(out)
    }
}

/// A raw region typed as a trace region.
pub(crate) fn region(
    file: &Arc<SourceFile>,
    raw: &mut RawRegion,
) -> Result<Region, Box<Diagnostic>> {
    let place = place(file, raw);
    let mut fields = Fields { file, raw };
    let (id, id_span) = fields.required_string(Name::ID)?;
    let kind_field = fields.text(Name::KIND)?;
    let kind = match kind_field.as_ref().map(|(kind, _)| kind.as_str()) {
        None | Some("unclassified") => RegionKind::Unclassified,
        Some("narrative") => RegionKind::Narrative,
        Some(other) => RegionKind::Commitment(other.to_owned()),
    };
    let key = fields.string(Name::KEY)?;
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
    let tagged_at = fields.count(Name::TAGGED_AT)?;
    let tokens = fields.count(Name::TOKENS)?;
    let source = fields.typed(
        Name::SOURCE,
        "a mapping with `file`, and optionally `line`, `record` and `hint`",
    )?;
    let derived = fields.typed(Name::DERIVED, "`pin`, `answer`, `hint` or `sentence`")?;
    Ok(Region {
        source,
        derived,
        id,
        kind,
        key: key.map(|(key, _)| key),
        content,
        tokens: tokens.as_ref().map(|(n, _)| *n),
        tokens_span: tokens.map(|(_, span)| span),
        at: fields.count(Name::AT)?.map(|(n, _)| n),
        tagged_at_span: tagged_at.as_ref().map(|(_, span)| span.clone()),
        tagged_at: tagged_at.map(|(n, _)| n),
        role: fields.text(Name::ROLE)?.map(|(role, _)| Role::named(&role)),
        status: status.unwrap_or(Status::Active),
        place,
        id_span,
        kind_span: kind_field.map(|(_, span)| span),
        content_span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A large trace holds one of these a region: what is rare (a record,
    /// an imported region's provenance) is boxed, not paid for by all.
    #[test]
    fn a_region_stays_small() {
        let size = std::mem::size_of::<Region>();
        assert!(size <= 328, "Region takes {size} bytes");
        assert!(std::mem::size_of::<Content>() <= 32);
    }
}
