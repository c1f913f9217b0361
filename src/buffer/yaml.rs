//! YAML traces and plans. saphyr-parser scans the text first, for spans and
//! to refuse nesting deeper than serde_json allows; serde_yaml then reads the
//! values, with its limits on alias expansion.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::buffer::document::{
    check_version, field_index, invalid, rest_of_line, Field, RawRegion, Sink, FIELDS,
};
use crate::buffer::json::friendly_serde;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};

#[derive(Deserialize)]
struct YamlDocument {
    version: Option<serde_yaml::Value>,
    regions: Option<Vec<serde_yaml::Mapping>>,
}

pub(super) fn read(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
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
            let value: Value = crate::buffer::strict::yaml_value(value).map_err(|reason| {
                invalid(
                    file,
                    span.clone(),
                    format!("field `{name}` of region `/regions/{index}` cannot be read: {reason}"),
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
        return Box::new(codes::invalid_input(message).file(file.name()));
    };
    let mut diagnostic =
        codes::invalid_input(message).label(file, at(location.line(), location.column()), problem);
    if let Some((what, Some((line, column)))) = context {
        let started = what
            .trim_start_matches("while ")
            .replace("scanning ", "")
            .replace("parsing ", "");
        diagnostic = diagnostic.label(file, at(line, column), format!("{started} starts here"));
    }
    Box::new(diagnostic)
}

/// The most bytes a YAML file's aliases may expand to, all together.
const MAX_ALIAS_EXPANSION: u64 = 64 << 20;

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
        // What each anchored node holds once its aliases are expanded, and
        // what all aliases expand to together: serde_yaml builds every alias
        // out in full, so a few kilobytes of aliases could ask for gigabytes.
        let mut anchored: HashMap<usize, u64> = HashMap::new();
        let mut sizes: Vec<(usize, u64)> = Vec::new();
        let mut expanded: u64 = 0;
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
            let node = match &event {
                Event::Scalar(value, _, anchor, _) => Some((*anchor, value.len() as u64 + 1)),
                Event::Alias(anchor) => {
                    let size = anchored.get(anchor).copied().unwrap_or(1);
                    expanded = expanded.saturating_add(size);
                    if expanded > MAX_ALIAS_EXPANSION {
                        return Err((
                            format!("its aliases expand to more than {MAX_ALIAS_EXPANSION} bytes"),
                            at.0,
                            at.1,
                        ));
                    }
                    Some((0, size))
                }
                Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) => {
                    sizes.push((*anchor, 1));
                    None
                }
                Event::MappingEnd | Event::SequenceEnd => sizes.pop(),
                _ => None,
            };
            if let Some((anchor, size)) = node {
                if anchor > 0 {
                    anchored.insert(anchor, size);
                }
                if let Some((_, parent)) = sizes.last_mut() {
                    *parent = parent.saturating_add(size);
                }
            }
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
