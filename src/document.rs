//! Reading trace and plan files: JSON, YAML or JSON Lines, into regions whose
//! every field remembers its span and whose region remembers its JSON
//! Pointer. Typing the fields is the trace and plan readers' job.
//!
//! JSON is parsed once, borrowing each field as a `RawValue` whose position
//! in the input is its span. YAML values come from serde_yaml (with its
//! limits on alias expansion); saphyr-parser's events locate them. JSON Lines
//! are read one line at a time.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::source::{SourceFile, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    Json,
    Yaml,
    JsonLines,
}

impl InputFormat {
    /// From the file's extension; standard input is sniffed.
    pub fn detect(path: &Path, text: &str) -> InputFormat {
        match path.extension().and_then(|ext| ext.to_str()) {
            Some("json") => InputFormat::Json,
            Some("jsonl" | "ndjson") => InputFormat::JsonLines,
            Some("yaml" | "yml") => InputFormat::Yaml,
            _ => sniff(text),
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
    pub value: Value,
    pub span: Span,
    /// Spans of the elements, when the value is an array.
    pub items: Vec<Span>,
}

/// The fields of a region that ctxguard reads; others are ignored.
pub const FIELDS: [&str; 13] = [
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
    "from",
];

fn field_index(name: &str) -> Option<usize> {
    FIELDS.iter().position(|field| *field == name)
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
    fields: [Option<Field>; FIELDS.len()],
}

impl RawRegion {
    /// `/regions/3`, made when a diagnostic needs it.
    pub fn pointer(&self) -> Option<String> {
        self.listed.then(|| format!("/regions/{}", self.index))
    }

    /// The region's first line, for labels about the whole region.
    pub fn opening(&self, text: &str) -> Span {
        first_line(text, self.span.clone())
    }

    /// Moves a field's value out, for the typed model.
    pub fn take(&mut self, name: &str) -> Option<Field> {
        field_index(name).and_then(|i| self.fields[i].take())
    }
}

/// A trace or plan file, read into memory, and the format to read it in.
#[derive(Clone, Debug)]
pub struct Input {
    pub file: Arc<SourceFile>,
    pub format: InputFormat,
}

/// Receives each region as soon as it is read.
pub type Sink<'s> = dyn FnMut(RawRegion) -> Result<(), Box<Diagnostic>> + 's;

fn invalid(
    file: &Arc<SourceFile>,
    span: Span,
    message: impl Into<String>,
    label: impl Into<String>,
) -> Box<Diagnostic> {
    Box::new(Diagnostic::new(Code::InvalidInput, message).label(file, span, label))
}

/// The span from `offset` to the end of its line, for a label on an opening.
fn rest_of_line(text: &str, offset: usize) -> Span {
    first_line(text, offset..text.len())
}

/// The first line of `span`: a region's opening. Never looks past the
/// span, so a minified file with every region on one line stays linear.
fn first_line(text: &str, span: Span) -> Span {
    let start = span.start.min(text.len());
    let end = span.end.clamp(start, text.len());
    let line_end =
        memchr::memchr2(b'\n', b'\r', &text.as_bytes()[start..end]).map_or(end, |i| start + i);
    start..line_end
}

/// Opens a trace or plan file (or `-`, standard input) to be read in the
/// given format, or the one its extension (or, for stdin, its content) says.
pub fn open(path: &Path, format: Option<InputFormat>) -> Result<Input, Box<Diagnostic>> {
    let file = crate::input::read(path)?;
    let format = format.unwrap_or_else(|| InputFormat::detect(path, file.text()));
    Ok(Input { file, format })
}

/// Reads every region of `input`, in order, into `sink`. Regions are not
/// collected here: a sink that types them as they come keeps one copy of
/// the data in memory, not two.
pub fn read(input: &Input, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
    let file = &input.file;
    if file.text().trim().is_empty() {
        return Err(Box::new(
            Diagnostic::new(Code::InvalidInput, format!("`{}` is empty", file.name()))
                .file(file.name())
                .help("a trace or plan holds `version: 1` and a list of `regions`"),
        ));
    }
    match input.format {
        InputFormat::Json => read_json(file, sink),
        InputFormat::JsonLines => read_json_lines(file, sink),
        InputFormat::Yaml => read_yaml(file, sink),
    }
}

/// Every region of `input`, each typed by `convert` as it is read.
pub fn read_all<T>(
    input: &Input,
    mut convert: impl FnMut(&Arc<SourceFile>, RawRegion) -> Result<T, Box<Diagnostic>>,
) -> Result<Vec<T>, Box<Diagnostic>> {
    let mut typed = Vec::new();
    read(input, &mut |raw| {
        typed.push(convert(&input.file, raw)?);
        Ok(())
    })?;
    Ok(typed)
}

/// A region's known fields, by [`FIELDS`] index.
struct JsonRegion<'a>([Option<&'a RawValue>; FIELDS.len()]);

impl<'de: 'a, 'a> Deserialize<'de> for JsonRegion<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// A field name, matched to its index without allocating.
        struct Key(Option<usize>);
        impl<'de> Deserialize<'de> for Key {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct KeyVisitor;
                impl Visitor<'_> for KeyVisitor {
                    type Value = Key;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a field name")
                    }
                    fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                        Ok(Key(field_index(name)))
                    }
                }
                deserializer.deserialize_identifier(KeyVisitor)
            }
        }
        struct RegionVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for RegionVisitor<'a> {
            type Value = JsonRegion<'a>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a region (a mapping of fields)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut fields: [Option<&'a RawValue>; FIELDS.len()] = [None; FIELDS.len()];
                while let Some(Key(index)) = map.next_key()? {
                    match index {
                        Some(i) if fields[i].is_some() => {
                            return Err(de::Error::duplicate_field(FIELDS[i]))
                        }
                        Some(i) => fields[i] = Some(map.next_value()?),
                        None => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(JsonRegion(fields))
            }
        }
        // A mapping only: serde would otherwise read a struct from an array.
        deserializer.deserialize_map(RegionVisitor(std::marker::PhantomData))
    }
}

/// Where a borrowed slice of `text` starts.
fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Byte offset of serde_json's 1-based line and (byte) column within `part`,
/// which starts at `base` in the file.
fn json_error_offset(part: &str, base: usize, error: &serde_json::Error) -> usize {
    let mut offset = 0;
    for (number, line) in part.split_inclusive('\n').enumerate() {
        if number + 1 == error.line() {
            return base + offset + error.column().saturating_sub(1).min(line.len());
        }
        offset += line.len();
    }
    base + part.len()
}

fn json_error(
    file: &Arc<SourceFile>,
    part: &str,
    base: usize,
    error: &serde_json::Error,
    what: &str,
) -> Box<Diagnostic> {
    let offset = json_error_offset(part, base, error);
    let text = error.to_string();
    // serde_json appends " at line L column C"; the label shows the place.
    let reason = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(reason, _)| reason);
    let reason = friendly_serde(reason);
    let message = if error.is_data() {
        // Well-formed JSON of the wrong shape: say so, not "invalid JSON".
        format!("{what} is not a trace or plan: {reason}")
    } else {
        format!("{what} is not valid JSON: {reason}")
    };
    invalid(file, file.char_at(offset), message, reason)
}

/// serde's wording in a user's terms.
fn friendly_serde(reason: &str) -> String {
    reason
        .replace("invalid type: ", "found ")
        .replace("EOF while parsing", "the file ends inside")
        .replace("found map", "found a mapping")
        .replace("found sequence", "found a list")
        .replace("expected a sequence", "expected a list")
        .replace("found integer", "found the number")
        .replace("found floating point", "found the number")
        .replace("found string", "found the string")
        .replace("found boolean", "found")
}

/// The top-level mapping: `version` kept as written, each element of
/// `regions` typed and handed to the sink while the array is being read.
struct DocumentVisitor<'f, 's, 'k> {
    file: &'f Arc<SourceFile>,
    sink: &'k mut Sink<'s>,
    /// Set when the sink refused a region; serde only carries a message.
    failure: &'k mut Option<Box<Diagnostic>>,
}

impl<'de, 'f, 's, 'k> Visitor<'de> for DocumentVisitor<'f, 's, 'k> {
    /// The `version` as written, and whether `regions` was there.
    type Value = (Option<&'de RawValue>, bool);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a mapping with `version` and `regions`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut version, mut regions) = (None, false);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match key.as_ref() {
                "version" if version.is_some() => {
                    return Err(de::Error::duplicate_field("version"))
                }
                "version" => version = Some(map.next_value()?),
                "regions" if regions => return Err(de::Error::duplicate_field("regions")),
                "regions" => {
                    map.next_value_seed(RegionsSeed {
                        file: self.file,
                        sink: &mut *self.sink,
                        failure: &mut *self.failure,
                    })?;
                    regions = true;
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok((version, regions))
    }
}

struct RegionsSeed<'f, 's, 'k> {
    file: &'f Arc<SourceFile>,
    sink: &'k mut Sink<'s>,
    failure: &'k mut Option<Box<Diagnostic>>,
}

impl<'de> DeserializeSeed<'de> for RegionsSeed<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for RegionsSeed<'_, '_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of regions")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0;
        while let Some(region) = seq.next_element::<JsonRegion<'de>>()? {
            let result =
                json_region(self.file, region, None, index, true).and_then(|raw| (self.sink)(raw));
            if let Err(diagnostic) = result {
                *self.failure = Some(diagnostic);
                return Err(de::Error::custom("a region was refused"));
            }
            index += 1;
        }
        Ok(())
    }
}

fn read_json(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    let mut failure = None;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let visitor = DocumentVisitor {
        file,
        sink,
        failure: &mut failure,
    };
    let parsed = de::Deserializer::deserialize_map(&mut deserializer, visitor)
        .and_then(|read| deserializer.end().map(|()| read));
    let (version, regions) = match parsed {
        Ok(read) => read,
        Err(error) => {
            return Err(failure.unwrap_or_else(|| {
                json_error(file, text, 0, &error, &format!("`{}`", file.name()))
            }));
        }
    };
    check_version(
        file,
        version.map(|raw| (raw.get(), offset_in(text, raw.get()))),
        true,
    )?;
    if !regions {
        return Err(invalid(
            file,
            rest_of_line(text, 0),
            "the document has no `regions` list",
            "expected `regions` in this mapping",
        ));
    }
    Ok(())
}

/// One region a line; the file is read a line at a time.
fn read_json_lines(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
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

/// A borrowed JSON value, typed. Strings without escapes and plain whole
/// numbers, most of a trace, are taken as they are written instead of being
/// parsed a second time; the text was validated when it was borrowed.
fn value_of(part: &str) -> Result<Value, serde_json::Error> {
    match part.as_bytes() {
        [b'"', inner @ .., b'"'] if memchr::memchr(b'\\', inner).is_none() => {
            Ok(Value::String(part[1..part.len() - 1].to_owned()))
        }
        digits
            if !digits.is_empty() && digits.len() < 19 && digits.iter().all(u8::is_ascii_digit) =>
        {
            Ok(Value::from(part.parse::<u64>().unwrap_or_default()))
        }
        _ => serde_json::from_str(part),
    }
}

/// Types each borrowed field as a JSON value, remembering its span.
fn json_region(
    file: &Arc<SourceFile>,
    region: JsonRegion,
    span: Option<Span>,
    index: usize,
    listed: bool,
) -> Result<RawRegion, Box<Diagnostic>> {
    let text = file.text();
    let mut fields: [Option<Field>; FIELDS.len()] = Default::default();
    let (mut first, mut last) = (usize::MAX, 0);
    for (slot, raw) in fields.iter_mut().zip(region.0) {
        let Some(raw) = raw else { continue };
        let part = raw.get();
        let start = offset_in(text, part);
        first = first.min(start);
        last = last.max(start + part.len());
        let parse = |part: &str| {
            value_of(part)
                .map_err(|error| json_error(file, part, offset_in(text, part), &error, "a field"))
        };
        let (value, items) = if part.starts_with('[') {
            // A list (`covers`): each element once, with its span.
            let elements: Vec<&RawValue> = serde_json::from_str(part)
                .map_err(|error| json_error(file, part, start, &error, "a field"))?;
            let items = elements
                .iter()
                .map(|e| offset_in(text, e.get())..offset_in(text, e.get()) + e.get().len())
                .collect();
            let values = elements
                .iter()
                .map(|e| parse(e.get()))
                .collect::<Result<_, _>>()?;
            (Value::Array(values), items)
        } else {
            (parse(part)?, Vec::new())
        };
        *slot = Some(Field {
            value,
            span: start..start + part.len(),
            items,
        });
    }
    // A region's own braces are not seen; its fields say where it stands.
    let span = span.unwrap_or(if first <= last { first..last } else { 0..0 });
    Ok(RawRegion {
        index,
        span,
        listed,
        fields,
    })
}

fn check_version(
    file: &Arc<SourceFile>,
    version: Option<(&str, usize)>,
    json: bool,
) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    match version {
        None => Err(Box::new(
            Diagnostic::new(Code::InvalidInput, "the document has no `version`")
                .label(
                    file,
                    rest_of_line(text, 0),
                    "expected `version: 1` in this mapping",
                )
                .help(if json {
                    "add `\"version\": 1`"
                } else {
                    "add `version: 1`"
                }),
        )),
        Some((value, offset)) if value.trim() != "1" => Err(Box::new(
            Diagnostic::new(
                Code::InvalidInput,
                format!("version `{}` is not supported", value.trim()),
            )
            .label(
                file,
                offset..offset + value.len(),
                "this ctxguard reads version 1",
            )
            .help("write `version: 1`, or upgrade ctxguard"),
        )),
        Some(_) => Ok(()),
    }
}

// ---------------------------------------------------------------- YAML

#[derive(Deserialize)]
struct YamlDocument {
    version: Option<serde_yaml::Value>,
    regions: Option<Vec<serde_yaml::Mapping>>,
}

fn read_yaml(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    // saphyr-parser reads first: it is linear on any input and refuses deep
    // nesting, which libyaml (behind serde_yaml) takes superlinear time over.
    let places = YamlPlaces::scan(text).map_err(|(message, line, column)| {
        let label = message.clone();
        invalid(
            file,
            file.char_at(file.offset_of(line, column)),
            format!("`{}` is not valid YAML: {message}", file.name()),
            label,
        )
    })?;
    let document: YamlDocument =
        serde_yaml::from_str(text).map_err(|error| yaml_error(file, &error))?;
    let version_text = document.version.as_ref().map(|value| match value {
        serde_yaml::Value::Number(number) => number.to_string(),
        serde_yaml::Value::String(string) => format!("\"{string}\""),
        _ => "a non-number".to_owned(),
    });
    let version_span = places.version.clone().unwrap_or(0..0);
    check_version(
        file,
        version_text.as_deref().map(|v| (v, version_span.start)),
        false,
    )
    .map_err(|mut diagnostic| {
        if let Some(label) = diagnostic.labels.first_mut() {
            if version_text.is_some() {
                label.span = version_span.clone();
            }
        }
        diagnostic
    })?;
    let Some(regions) = document.regions else {
        return Err(invalid(
            file,
            rest_of_line(text, 0),
            "the document has no `regions` list",
            "expected `regions` in this mapping",
        ));
    };
    for (index, mapping) in regions.into_iter().enumerate() {
        let region_span = places.regions.get(index).cloned().unwrap_or(0..0);
        let mut fields: [Option<Field>; FIELDS.len()] = Default::default();
        for (key, value) in mapping {
            let Some(slot) = key.as_str().and_then(field_index) else {
                continue;
            };
            let name = &FIELDS[slot];
            let place = places.fields.get(&(index, *name));
            let span = place.map_or(region_span.clone(), |p| p.span.clone());
            let value: Value = serde_json::to_value(&value).map_err(|error| {
                invalid(
                    file,
                    span.clone(),
                    format!("field `{name}` of region `/regions/{index}` cannot be read: {error}"),
                    "not representable as JSON",
                )
            })?;
            let items = place.map(|p| p.items.clone()).unwrap_or_default();
            fields[slot] = Some(Field { value, span, items });
        }
        sink(RawRegion {
            index,
            span: region_span,
            listed: true,
            fields,
        })?;
    }
    Ok(())
}

/// serde_yaml says `PROBLEM at line L column C, while CONTEXT at line L2 column C2`:
/// the problem gets the primary label, the context (where an unclosed
/// construct began) a second one.
fn yaml_error(file: &Arc<SourceFile>, error: &serde_yaml::Error) -> Box<Diagnostic> {
    let text = error.to_string().replace("scalar", "string");
    let (head, context) = match text.split_once(", while ") {
        Some((head, context)) => (head, Some(context)),
        None => (text.as_str(), None),
    };
    let problem = friendly_serde(head.split(" at line ").next().unwrap_or(head)).replace(
        "struct YamlDocument",
        "a mapping with `version` and `regions`",
    );
    let at = |line: usize, column: usize| file.char_at(file.offset_of(line, column));
    let context = context.map(|context| match context.split_once(" at line ") {
        Some((what, place)) => {
            let mut numbers = place
                .split(" column ")
                .filter_map(|n| n.trim().parse::<usize>().ok());
            (what.to_owned(), numbers.next().zip(numbers.next()))
        }
        None => (context.to_owned(), None),
    });
    let shape = [
        "invalid type",
        "invalid length",
        "missing field",
        "invalid value",
        "duplicate field",
    ]
    .iter()
    .any(|prefix| head.starts_with(prefix));
    let message = match &context {
        None if shape => format!("`{}` is not a trace or plan: {problem}", file.name()),
        Some((what, _)) => format!(
            "`{}` is not valid YAML: {problem} while {what}",
            file.name()
        ),
        None => format!("`{}` is not valid YAML: {problem}", file.name()),
    };
    let Some(location) = error.location() else {
        return Box::new(Diagnostic::new(Code::InvalidInput, message).file(file.name()));
    };
    let mut diagnostic = Diagnostic::new(Code::InvalidInput, message).label(
        file,
        at(location.line(), location.column()),
        problem,
    );
    if let Some((what, Some((line, column)))) = context {
        let started = what
            .trim_start_matches("while ")
            .replace("scanning ", "")
            .replace("parsing ", "");
        diagnostic = diagnostic.label(file, at(line, column), format!("{started} starts here"));
    }
    Box::new(diagnostic)
}

/// Deeper nesting is refused, as serde_json refuses it (its limit is 128).
const MAX_DEPTH: usize = 128;

struct Place {
    span: Span,
    items: Vec<Span>,
}

/// Where the document's `version`, each region and each region field stand.
#[derive(Default)]
struct YamlPlaces {
    version: Option<Span>,
    regions: Vec<Span>,
    fields: HashMap<(usize, &'static str), Place>,
}

enum Frame {
    Map { key: Option<String> },
    Seq { index: usize },
}

impl YamlPlaces {
    /// Fails with saphyr's message and its 1-based line and column, for
    /// malformed YAML, more than one document, or nesting deeper than
    /// [`MAX_DEPTH`].
    fn scan(text: &str) -> Result<YamlPlaces, (String, usize, usize)> {
        let mut places = YamlPlaces::default();
        let mut documents = 0;
        let mut cursor = CharCursor::new(text);
        let mut frames: Vec<Frame> = Vec::new();
        // Start offsets of open containers, with the path they stand at.
        let mut open: Vec<(usize, Vec<String>)> = Vec::new();
        let parser = saphyr_parser::Parser::new_from_str(text);
        for event in parser {
            let (event, span) = event.map_err(|error| {
                let marker = error.marker();
                (
                    error.info().replace("scalar", "string"),
                    marker.line(),
                    marker.col() + 1,
                )
            })?;
            let start = cursor.byte(span.start.index());
            let end = cursor.byte(span.end.index());
            let at = (span.start.line(), span.start.col() + 1);
            use saphyr_parser::Event;
            match event {
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        return Err((
                            "a trace or plan is one YAML document; this file holds more".to_owned(),
                            at.0,
                            at.1,
                        ));
                    }
                }
                Event::MappingStart(..) | Event::SequenceStart(..) if frames.len() >= MAX_DEPTH => {
                    return Err((
                        format!("nested more than {MAX_DEPTH} levels deep"),
                        at.0,
                        at.1,
                    ));
                }
                Event::Scalar(value, ..) => {
                    if let Some(Frame::Map { key: key @ None }) = frames.last_mut() {
                        *key = Some(value.into_owned());
                        continue;
                    }
                    let path = path_of(&frames);
                    places.record(&path, start..end, false);
                    advance(&mut frames);
                }
                Event::Alias(_) => {
                    let path = path_of(&frames);
                    places.record(&path, start..end, false);
                    advance(&mut frames);
                }
                Event::MappingStart(..) | Event::SequenceStart(..) => {
                    let path = path_of(&frames);
                    places.record(&path, start..start, true);
                    open.push((start, path));
                    frames.push(match event {
                        Event::MappingStart(..) => Frame::Map { key: None },
                        _ => Frame::Seq { index: 0 },
                    });
                }
                Event::MappingEnd | Event::SequenceEnd => {
                    frames.pop();
                    if let Some((open_start, path)) = open.pop() {
                        // A block container ends where the next token starts; stop at its last character.
                        let content_end = open_start
                            + text[open_start..end.max(open_start)]
                                .trim_end_matches(|c: char| c.is_whitespace() || c == '-')
                                .len();
                        places.record(&path, open_start..content_end, false);
                    }
                    advance(&mut frames);
                }
                _ => {}
            }
        }
        Ok(places)
    }

    fn record(&mut self, path: &[String], span: Span, opening: bool) {
        match path {
            [version] if version == "version" => self.version = Some(span),
            [regions, index] if regions == "regions" => {
                // Its opening first, then its whole extent when it closes.
                if let Ok(index) = index.parse::<usize>() {
                    if self.regions.len() <= index {
                        self.regions.resize(index + 1, 0..0);
                    }
                    self.regions[index] = span;
                }
            }
            [regions, index, field] if regions == "regions" => {
                let (Ok(index), Some(name)) =
                    (index.parse::<usize>(), FIELDS.iter().find(|f| *f == field))
                else {
                    return;
                };
                let place = self.fields.entry((index, name)).or_insert(Place {
                    span: span.clone(),
                    items: Vec::new(),
                });
                place.span = span;
            }
            [regions, index, field, _item] if regions == "regions" && !opening => {
                let (Ok(index), Some(name)) =
                    (index.parse::<usize>(), FIELDS.iter().find(|f| *f == field))
                else {
                    return;
                };
                if let Some(place) = self.fields.get_mut(&(index, *name)) {
                    place.items.push(span);
                }
            }
            _ => {}
        }
    }
}

fn path_of(frames: &[Frame]) -> Vec<String> {
    frames
        .iter()
        .map(|frame| match frame {
            Frame::Map { key } => key.clone().unwrap_or_default(),
            Frame::Seq { index } => index.to_string(),
        })
        .collect()
}

/// After a value: a mapping waits for its next key, a sequence counts on.
fn advance(frames: &mut [Frame]) {
    match frames.last_mut() {
        Some(Frame::Map { key }) => *key = None,
        Some(Frame::Seq { index }) => *index += 1,
        None => {}
    }
}

/// Character index to byte offset, in one forward pass over the text.
struct CharCursor<'a> {
    text: &'a str,
    chars: usize,
    bytes: usize,
}

impl<'a> CharCursor<'a> {
    fn new(text: &'a str) -> Self {
        CharCursor {
            text,
            chars: 0,
            bytes: 0,
        }
    }

    fn byte(&mut self, chars: usize) -> usize {
        if chars < self.chars {
            self.chars = 0;
            self.bytes = 0;
        }
        for c in self.text[self.bytes..].chars().take(chars - self.chars) {
            self.bytes += c.len_utf8();
            self.chars += 1;
        }
        self.bytes
    }
}
