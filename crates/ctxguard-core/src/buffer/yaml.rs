//! YAML traces and plans, read with saphyr (a YAML 1.2 parser that passes
//! the yaml-test-suite). A first pass over the parser's events finds where
//! each field stands, refuses nesting deeper than serde_json allows and
//! bounds what aliases expand to; saphyr's loader then builds the values,
//! and [`strict::yaml_value`] resolves them as JSON.

use std::collections::HashMap;
use std::sync::Arc;

use saphyr::{ScanError, Yaml, YamlLoader};
use serde_json::Value;

use crate::buffer::document::{
    check_version, field_index, first_line, invalid, rest_of_line, Field, FieldValue, RawRegion,
    Sink, FIELDS,
};
use crate::buffer::strict;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};

pub(super) fn read(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    let not_yaml = |(message, line, column): (String, usize, usize)| {
        let (message, label) = if message.starts_with("duplicated key") {
            (
                format!(
                    "`{}` writes the same key twice in one mapping; a trace or plan cannot, or one of the two values would be lost",
                    file.name()
                ),
                "this key is written again here".to_owned(),
            )
        } else {
            match message.strip_prefix(ONE_DOCUMENT) {
                Some(_) => (
                    format!(
                        "`{}` holds more than one YAML document; a trace or plan is one",
                        file.name()
                    ),
                    "a second document starts here".to_owned(),
                ),
                None => (
                    format!("`{}` is not valid YAML: {message}", file.name()),
                    message,
                ),
            }
        };
        // saphyr places "the file ends here" past the final line break, on
        // a line the file does not have: point at its last character instead.
        let content = text.trim_end().len();
        let offset = match file.offset_of(line, column) {
            offset if offset > content && content > 0 => text[..content]
                .char_indices()
                .next_back()
                .map_or(0, |(i, _)| i),
            offset => offset,
        };
        invalid(file, file.char_at(offset), message, label)
    };
    let places = YamlPlaces::scan(text).map_err(not_yaml)?;
    let document = load(text).map_err(|error| not_yaml(scan_error(&error)))?;
    let not_a_trace = |span: Span, found: &str, expected: &str| {
        invalid(
            file,
            span,
            format!(
                "`{}` is not a trace or plan: found {found}, expected {expected}",
                file.name()
            ),
            format!("expected {expected}"),
        )
    };
    let value = |value: Yaml<'_>, span: &Span, name: &str| {
        strict::yaml_value(value).map_err(|reason| {
            invalid(
                file,
                span.clone(),
                format!("{name} cannot be read: {reason}"),
                "not representable as JSON",
            )
        })
    };
    let Yaml::Mapping(top) = document else {
        let found = match document {
            Yaml::Sequence(_) => "a list",
            _ => "a single value",
        };
        return Err(not_a_trace(
            rest_of_line(text, 0),
            found,
            "a mapping with `version` and `regions`",
        ));
    };
    let (mut version, mut regions) = (None, None);
    // Keys other than these two are not read, whatever they hold. saphyr
    // compares keys as written, so `version` and `"version"` both arrive.
    let twice = |key: &str, span: Span| {
        invalid(
            file,
            span,
            format!(
                "`{}` writes the key `{key}` twice in one mapping; a trace or plan cannot, or one of the two values would be lost",
                file.name()
            ),
            format!("this mapping writes `{key}` twice"),
        )
    };
    for (key, node) in top {
        let Ok(Value::String(key)) = strict::yaml_value(key) else {
            continue;
        };
        let slot = match key.as_str() {
            "version" => &mut version,
            "regions" => &mut regions,
            _ => continue,
        };
        if slot.replace(node).is_some() {
            return Err(twice(&key, rest_of_line(text, 0)));
        }
    }
    let version_span = places.version.clone().unwrap_or(0..0);
    let version = match version {
        Some(node) => value(node, &version_span, "`version`")?,
        None => Value::Null,
    };
    let version_text = match &version {
        Value::Null => None,
        Value::Number(number) => Some(number.to_string()),
        Value::String(string) => Some(format!("\"{string}\"")),
        _ => Some("a non-number".to_owned()),
    };
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
    let regions_span = places
        .regions_list
        .clone()
        .unwrap_or_else(|| rest_of_line(text, 0));
    let regions = match regions {
        Some(Yaml::Sequence(regions)) => regions,
        Some(node) if !is_null(&node) => {
            return Err(not_a_trace(
                regions_span,
                "a `regions` that is not a list",
                "a list of regions",
            ))
        }
        _ => {
            return Err(invalid(
                file,
                rest_of_line(text, 0),
                "the document has no `regions` list",
                "expected `regions` in this mapping",
            ))
        }
    };
    for (index, region) in regions.into_iter().enumerate() {
        let region_span = places.regions.get(index).cloned().unwrap_or(0..0);
        let Yaml::Mapping(mapping) = region else {
            return Err(not_a_trace(
                first_line(text, region_span.clone()),
                &format!("`/regions/{index}` that is not a mapping"),
                "a region: a mapping with `id`",
            ));
        };
        let mut fields: [Option<Field>; FIELDS.len()] = Default::default();
        for (key, node) in mapping {
            let key = value(
                key,
                &region_span,
                &format!("a key of region `/regions/{index}`"),
            )?;
            let Some(slot) = key.as_str().and_then(field_index) else {
                continue;
            };
            let name = &FIELDS[slot];
            if fields[slot].is_some() {
                return Err(twice(name, first_line(text, region_span.clone())));
            }
            let place = places.fields.get(&(index, *name));
            let span = place.map_or(region_span.clone(), |p| p.span.clone());
            let value = value(
                node,
                &span,
                &format!("field `{name}` of region `/regions/{index}`"),
            )?;
            let items = place.map(|p| p.items.clone()).unwrap_or_default();
            fields[slot] = Some(Field {
                value: FieldValue::new(value),
                span,
                items,
            });
        }
        sink(&mut RawRegion {
            index,
            span: region_span,
            listed: true,
            fields,
        })?;
    }
    Ok(())
}

fn is_null(node: &Yaml<'_>) -> bool {
    matches!(strict::yaml_value(node.clone()), Ok(Value::Null))
}

/// The one document of `text`, built only when its aliases expand within
/// [`MAX_ALIAS_EXPANSION`] and its nesting is within [`MAX_DEPTH`]: what
/// any reader of YAML outside [`read`] calls.
pub(crate) fn load_bounded(text: &str) -> Option<Yaml<'_>> {
    YamlPlaces::scan(text).ok()?;
    load(text).ok()
}

/// The one document of `text`, its scalars left as written for
/// [`strict::yaml_value`]. Keys written twice are refused. Aliases are
/// bounded only by saphyr's node count: call it on text
/// [`YamlPlaces::scan`] accepted, as [`read`] and [`load_bounded`] do.
pub(crate) fn load(text: &str) -> Result<Yaml<'_>, ScanError> {
    let mut loader = YamlLoader::<Yaml<'_>>::default();
    loader.early_parse(false);
    loader.allow_duplicate_keys(false);
    // The first pass bounds what aliases expand to in bytes; this bounds
    // the nodes saphyr clones, by the same number.
    loader.alias_limit(MAX_ALIAS_EXPANSION as usize);
    let mut parser = saphyr_parser::Parser::new_from_str(text);
    parser.load(&mut loader, false)?;
    if let Some(error) = loader.error() {
        return Err(error.clone());
    }
    Ok(loader
        .into_documents()
        .into_iter()
        .next()
        .unwrap_or(Yaml::BadValue))
}

/// saphyr's message, and its 1-based line and column.
fn scan_error(error: &ScanError) -> (String, usize, usize) {
    let marker = error.marker();
    (
        error.info().replace("scalar", "string"),
        marker.line(),
        marker.col() + 1,
    )
}

/// The start of the message [`YamlPlaces::scan`] gives for a second document.
const ONE_DOCUMENT: &str = "more than one document";

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
    regions_list: Option<Span>,
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
            let (event, span) = event.map_err(|error| scan_error(&error))?;
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
                        return Err((ONE_DOCUMENT.to_owned(), at.0, at.1));
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
            [regions] if regions == "regions" => self.regions_list = Some(span),
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
