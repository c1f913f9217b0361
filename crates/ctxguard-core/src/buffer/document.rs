//! A trace or plan file as regions: the formats (JSON, YAML, JSON Lines,
//! each read by its own module), and the raw region whose every field
//! remembers its span and whose region remembers its JSON Pointer. Typing
//! the fields is the trace and plan readers' job.

use std::path::Path;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::Value;

use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::source::{Access, SourceFile, Span, Spanned, Text};

/// How a trace or plan file is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One JSON document with `version` and `regions`.
    Json,
    /// One YAML document with `version` and `regions`.
    Yaml,
    /// JSON Lines: one region a line.
    JsonLines,
}

impl InputFormat {
    /// From the file's extension; standard input is sniffed.
    pub fn detect(path: &Path, text: &str) -> InputFormat {
        InputFormat::named(path).unwrap_or_else(|| sniff(text))
    }

    /// The format the file's extension names, if it names one.
    pub fn named(path: &Path) -> Option<InputFormat> {
        match path.extension().and_then(|ext| ext.to_str()) {
            Some("json") => Some(InputFormat::Json),
            Some("jsonl" | "ndjson") => Some(InputFormat::JsonLines),
            Some("yaml" | "yml") => Some(InputFormat::Yaml),
            _ => None,
        }
    }
}

/// JSON Lines when the first line is a whole JSON object and more follow;
/// JSON when the text starts with `{`; YAML otherwise.
fn sniff(text: &str) -> InputFormat {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        return InputFormat::Yaml;
    }
    let mut lines = trimmed.lines().filter(|line| !line.trim().is_empty());
    let first_is_whole = lines
        .next()
        .is_some_and(|line| serde_json::from_str::<&RawValue>(line).is_ok());
    if first_is_whole && lines.next().is_some() {
        InputFormat::JsonLines
    } else {
        InputFormat::Json
    }
}

/// A field's value and where it is written.
#[derive(Clone, Debug)]
pub struct Field {
    pub value: FieldValue,
    pub span: Span,
    /// Spans of the elements, when the value is an array.
    pub items: Vec<Span>,
}

/// A field's value: a string, shared with the file where it is written
/// without escapes, a list of values, or any other JSON value.
#[derive(Clone, Debug)]
pub enum FieldValue {
    /// A string.
    Str(Text),
    /// A list (`covers`, `quotes`, a record that is one).
    List(Vec<FieldValue>),
    /// A list of strings written without escapes (a plan's ids), each
    /// shared with the file, where it is written.
    Strings(Vec<Spanned<Text>>),
    /// Anything but a string or a list.
    Other(Value),
}

impl FieldValue {
    /// `value`, its strings held as [`Text`].
    pub fn new(value: Value) -> FieldValue {
        match value {
            Value::String(text) => FieldValue::Str(text.into()),
            Value::Array(items) => {
                FieldValue::List(items.into_iter().map(FieldValue::new).collect())
            }
            other => FieldValue::Other(other),
        }
    }

    /// The value as JSON.
    pub fn into_value(self) -> Value {
        match self {
            FieldValue::Str(text) => Value::String(text.into_string()),
            FieldValue::List(items) => {
                Value::Array(items.into_iter().map(FieldValue::into_value).collect())
            }
            FieldValue::Strings(items) => Value::Array(
                (items.into_iter())
                    .map(|item| Value::String(item.node.into_string()))
                    .collect(),
            ),
            FieldValue::Other(value) => value,
        }
    }

    /// What the value is, as messages name it: `a list`, `null`.
    pub fn type_name(&self) -> &'static str {
        match self {
            FieldValue::Str(_) => "a string",
            FieldValue::List(_) | FieldValue::Strings(_) => "a list",
            FieldValue::Other(value) => crate::buffer::fields::type_name(value),
        }
    }
}

/// The fields of a region that ctxguard reads; others are ignored.
pub const FIELDS: [&str; 17] = [
    "id",
    "kind",
    "key",
    "text",
    "record",
    "tokens",
    "at",
    "tagged_at",
    "role",
    "status",
    "keep",
    "covers",
    "quotes",
    "from",
    "summarizer",
    "source",
    "derived",
];

/// A field ctxguard reads, by its place in [`FIELDS`]: what the readers
/// take a field by (a region's dozen lookups cost nothing), and what
/// messages name it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name(usize);

impl Name {
    pub const ID: Name = Name(0);
    pub const KIND: Name = Name(1);
    pub const KEY: Name = Name(2);
    pub const TEXT: Name = Name(3);
    pub const RECORD: Name = Name(4);
    pub const TOKENS: Name = Name(5);
    pub const AT: Name = Name(6);
    pub const TAGGED_AT: Name = Name(7);
    pub const ROLE: Name = Name(8);
    pub const STATUS: Name = Name(9);
    pub const KEEP: Name = Name(10);
    pub const COVERS: Name = Name(11);
    pub const QUOTES: Name = Name(12);
    pub const FROM: Name = Name(13);
    pub const SUMMARIZER: Name = Name(14);
    pub const SOURCE: Name = Name(15);
    pub const DERIVED: Name = Name(16);

    /// Its place in [`FIELDS`].
    pub const fn index(self) -> usize {
        self.0
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(FIELDS[self.0])
    }
}

pub(super) fn field_index(name: &str) -> Option<usize> {
    // Asked of every field of every region: a match, not a search.
    Some(match name {
        "id" => 0,
        "kind" => 1,
        "key" => 2,
        "text" => 3,
        "record" => 4,
        "tokens" => 5,
        "at" => 6,
        "tagged_at" => 7,
        "role" => 8,
        "status" => 9,
        "keep" => 10,
        "covers" => 11,
        "quotes" => 12,
        "from" => 13,
        "summarizer" => 14,
        "source" => 15,
        "derived" => 16,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_the_field_it_names() {
        let names = [
            Name::ID,
            Name::KIND,
            Name::KEY,
            Name::TEXT,
            Name::RECORD,
            Name::TOKENS,
            Name::AT,
            Name::TAGGED_AT,
            Name::ROLE,
            Name::STATUS,
            Name::KEEP,
            Name::COVERS,
            Name::QUOTES,
            Name::FROM,
            Name::SUMMARIZER,
            Name::SOURCE,
            Name::DERIVED,
        ];
        assert_eq!(names.len(), FIELDS.len());
        for (i, name) in names.into_iter().enumerate() {
            assert_eq!(name.index(), i);
            assert_eq!(field_index(&name.to_string()), Some(i), "{name}");
        }
    }
}

/// One region as written.
#[derive(Clone, Debug)]
pub struct RawRegion {
    /// Position in the file, from 0.
    pub index: usize,
    /// Where the region is written (in JSON, from its first field to its last).
    pub span: Span,
    /// In a `regions` list (JSON, YAML), so it has a JSON Pointer; JSON
    /// Lines have the line instead.
    pub listed: bool,
    pub(super) fields: [Option<Field>; FIELDS.len()],
}

impl RawRegion {
    /// A raw region with no fields, at `index`.
    pub(super) fn empty() -> RawRegion {
        RawRegion {
            index: 0,
            span: 0..0,
            listed: true,
            fields: Default::default(),
        }
    }

    /// `/regions/3`, made when a diagnostic needs it.
    pub fn pointer(&self) -> Option<String> {
        crate::buffer::trace::region_pointer(self.index, self.listed)
    }

    /// The region's first line, for labels about the whole region.
    pub fn opening(&self, text: &str) -> Span {
        first_line(text, self.span.clone())
    }

    /// Moves a field's value out, for the typed model.
    pub fn take(&mut self, name: Name) -> Option<Field> {
        self.fields[name.0].take()
    }
}

/// A trace or plan file, read into memory, and the format to read it in.
#[derive(Clone, Debug)]
pub struct Input {
    /// The text and its name.
    pub file: Arc<SourceFile>,
    /// How to read it.
    pub format: InputFormat,
}

impl Input {
    /// Text that has no file (an embedder's buffer, standard input), named
    /// `name` in diagnostics.
    pub fn text(name: &str, format: InputFormat, text: impl Into<String>) -> Input {
        Input {
            file: SourceFile::new(name, text),
            format,
        }
    }

    /// A trace or plan already held as a JSON value, named `name` in
    /// diagnostics. It is laid out as pretty JSON so that a diagnostic can
    /// point at a line.
    pub fn value(name: &str, value: &serde_json::Value) -> Input {
        let text = serde_json::to_string_pretty(value).unwrap_or_default();
        Input::text(name, InputFormat::Json, text)
    }

    /// Opens a file (or `-`, standard input) to be read in `format`, or the
    /// format its extension (or, for standard input, its content) says.
    /// Not a regular file, or over `access.max_input_bytes`, is refused.
    pub fn open(
        path: &Path,
        format: Option<InputFormat>,
        access: &Access,
    ) -> Result<Input, Box<Diagnostic>> {
        open(path, format, access)
    }
}

/// Receives each region as soon as it is read. A reader fills one raw
/// region again for each region: what the sink does not take of it is
/// dropped before the next.
pub type Sink<'s> = dyn FnMut(&mut RawRegion) -> Result<(), Box<Diagnostic>> + 's;

pub(super) fn invalid(
    file: &Arc<SourceFile>,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
) -> Box<Diagnostic> {
    Box::new(codes::invalid_input(message).label(file, span, label))
}

/// The span from `offset` to the end of its line, for a label on an opening.
pub(super) fn rest_of_line(text: &str, offset: usize) -> Span {
    first_line(text, offset..text.len())
}

/// The first line of `span`: a region's opening. Never looks past the
/// span, so a minified file with every region on one line stays linear.
pub(crate) fn first_line(text: &str, span: Span) -> Span {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    let line_end =
        memchr::memchr2(b'\n', b'\r', &text.as_bytes()[start..end]).map_or(end, |i| start + i);
    start..line_end
}

/// Opens a trace or plan file (or `-`, standard input) to be read in the
/// given format, or the one its extension (or, for stdin, its content) says.
pub fn open(
    path: &Path,
    format: Option<InputFormat>,
    access: &Access,
) -> Result<Input, Box<Diagnostic>> {
    let file = crate::source::read::read(path, access)?;
    let format = format.unwrap_or_else(|| InputFormat::detect(path, file.text()));
    Ok(Input { file, format })
}

/// Every region of `input`, in order, each typed by `convert` as it is
/// read: JSON and YAML regions as the parser hands them over, so one copy
/// of the data is in memory, not two; a large JSON Lines file on two
/// threads.
pub fn read_all<T: Send>(
    input: &Input,
    convert: impl Fn(&Arc<SourceFile>, &mut RawRegion) -> Result<T, Box<Diagnostic>> + Sync,
) -> Result<Vec<T>, Box<Diagnostic>> {
    let file = &input.file;
    if file.text().trim().is_empty() {
        return Err(Box::new(codes::empty_document(file.name())));
    }
    let mut typed = Vec::new();
    let mut sink = |raw: &mut RawRegion| {
        typed.push(convert(file, raw)?);
        Ok(())
    };
    match input.format {
        InputFormat::Json => super::json::read(file, &mut sink)?,
        InputFormat::Yaml => super::yaml::read(file, &mut sink)?,
        InputFormat::JsonLines => return super::jsonl::read_all(file, &convert),
    }
    Ok(typed)
}

pub(super) fn check_version(
    file: &Arc<SourceFile>,
    version: Option<(&str, usize)>,
    json: bool,
) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    match version {
        None => Err(Box::new(codes::no_version(json).label(
            file,
            rest_of_line(text, 0),
            "expected `version: 1` in this mapping",
        ))),
        Some((value, offset)) if value.trim() != "1" => {
            Err(Box::new(codes::unsupported_version(value.trim()).label(
                file,
                offset..offset + value.len(),
                "this ctxguard reads version 1",
            )))
        }
        Some(_) => Ok(()),
    }
}
