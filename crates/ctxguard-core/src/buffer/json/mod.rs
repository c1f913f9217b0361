//! JSON traces and plans, parsed once: each region field is borrowed as a
//! `RawValue`, whose position in the input is its span, and each region is
//! handed to the sink while the `regions` array is being read.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::buffer::document::{
    check_version, field_index, invalid, rest_of_line, Field, FieldValue, Name, RawRegion, Sink,
    FIELDS,
};
use crate::buffer::trace::Plain;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span, Text};

mod piece;
#[cfg(test)]
mod tests;

#[cfg(test)]
use piece::Cursor;
pub(super) use piece::{piece, PieceEnd};

/// A region's known fields, by [`FIELDS`] index.
pub(super) struct JsonRegion<'a>([Option<&'a RawValue>; FIELDS.len()]);

impl JsonRegion<'_> {
    pub(super) fn empty() -> Self {
        JsonRegion([None; FIELDS.len()])
    }
}

/// Reads a region's fields into a [`JsonRegion`] in place, each region of
/// a file into the same one (it is not copied out of the parser). What it
/// gives is the address where the region's last value ends (0: it has
/// none), from which [`Cursor::region`] finds where the region ends.
pub(super) struct Fill<'f, 'a>(pub &'f mut JsonRegion<'a>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for Fill<'_, 'a> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        // A mapping only: serde would otherwise read a struct from an array.
        deserializer.deserialize_map(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Fill<'_, 'a> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a region (a mapping of fields)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
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
        let fields = &mut self.0 .0;
        *fields = [None; FIELDS.len()];
        let mut end = 0;
        while let Some(Key(index)) = map.next_key()? {
            if let Some(i) = index.filter(|&i| fields[i].is_some()) {
                return Err(de::Error::duplicate_field(FIELDS[i]));
            }
            // A field ctxguard does not read is borrowed too, for where it ends.
            let value: &'de RawValue = map.next_value()?;
            end = end.max(value.get().as_ptr() as usize + value.get().len());
            if let Some(i) = index {
                fields[i] = Some(value);
            }
        }
        Ok(end)
    }
}

/// A region as JSON hands it over, before it is typed: its fields as
/// written, where it stands (in JSON Lines, its line), its place.
pub(super) struct Written<'w, 'a> {
    pub fields: &'w JsonRegion<'a>,
    pub span: Option<Span>,
    pub index: usize,
    pub listed: bool,
}

impl Written<'_, '_> {
    /// Types each field as a JSON value into `raw`: what every reader
    /// but a streamed trace's does with each region.
    pub fn typed(self, file: &Arc<SourceFile>, raw: &mut RawRegion) -> Result<(), Box<Diagnostic>> {
        json_region(file, self.fields, self.span, self.index, self.listed, raw)
    }
}

/// A region as [`Plain`], if it is one: only `id`, `kind`, `text`,
/// `tokens` and `role`, with `kind` `narrative`, `id` and `role` strings
/// without escapes (`role` one ctxguard knows), `tokens` a plain whole
/// number, `text` a string whose escapes cannot fail to decode. Whatever
/// else a region is, `None`: it is typed in full ([`Written::typed`]).
pub(super) fn plain(file: &Arc<SourceFile>, written: &Written) -> Option<Plain> {
    let fields = &written.fields.0;
    let wanted = [Name::ID, Name::KIND, Name::TEXT, Name::TOKENS, Name::ROLE].map(Name::index);
    let others = (fields.iter().enumerate()).any(|(i, raw)| raw.is_some() && !wanted.contains(&i));
    if others {
        return None;
    }
    let raw = |name: Name| fields[name.index()].map(RawValue::get);
    let (id, kind, text) = (raw(Name::ID)?, raw(Name::KIND)?, raw(Name::TEXT)?);
    unescaped(id)?;
    // One look for a backslash: most texts have no escape at all.
    let escaped = memchr::memchr(b'\\', text.as_bytes()).is_some();
    if kind != "\"narrative\""
        || !text.starts_with('"')
        || (escaped && crate::source::Text::has_u_escape(text))
    {
        return None;
    }
    let whole_text = file.text();
    let span = |part: &str| {
        let start = offset_in(whole_text, part);
        start..start + part.len()
    };
    let tokens = match raw(Name::TOKENS) {
        Some(tokens) => Some((whole(tokens)?, span(tokens))),
        None => None,
    };
    let role = match raw(Name::ROLE) {
        Some(role) => Some(crate::buffer::trace::Role::known(unescaped(role)?)?),
        None => None,
    };
    // The region stands where json_region says: its line, or its fields.
    let (first, last) = (fields.iter().flatten().map(|raw| span(raw.get())))
        .fold((usize::MAX, 0), |(first, last), s| {
            (first.min(s.start), last.max(s.end))
        });
    let region = written.span.clone().unwrap_or(first..last);
    // A JSON string holds no line break as it is written: the first line
    // ends before the text, or after it.
    let content = span(text);
    let before = crate::buffer::document::first_line(whole_text, region.start..content.start);
    let opening = if before.end < content.start {
        before
    } else {
        let after = crate::buffer::document::first_line(whole_text, content.end..region.end);
        region.start..after.end
    };
    Some(Plain {
        index: written.index,
        listed: written.listed,
        opening,
        id_span: span(id),
        kind_span: span(kind),
        content_span: content,
        escaped,
        tokens: tokens.as_ref().map(|(n, _)| *n),
        tokens_span: tokens.map(|(_, span)| span),
        role,
    })
}

/// A whole number written plainly, as [`written`] takes it.
fn whole(part: &str) -> Option<u64> {
    let digits = part.as_bytes();
    (!digits.is_empty() && digits.len() < 19 && digits.iter().all(u8::is_ascii_digit))
        .then(|| part.parse().ok())
        .flatten()
}

/// Receives each region as it is read, before it is typed.
pub(super) type WrittenSink<'s> =
    dyn for<'w, 'a> FnMut(Written<'w, 'a>) -> Result<(), Box<Diagnostic>> + 's;

/// Where a borrowed slice of `text` starts.
pub(super) fn offset_in(text: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

/// Byte offset of serde_json's 1-based line and (byte) column within `part`,
/// which starts at `base` in the file.
pub fn json_error_offset(part: &str, base: usize, error: &serde_json::Error) -> usize {
    let mut offset = 0;
    for (number, line) in part.split_inclusive('\n').enumerate() {
        if number + 1 == error.line() {
            return base + offset + error.column().saturating_sub(1).min(line.len());
        }
        offset += line.len();
    }
    base + part.len()
}

pub(super) fn json_error(
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
    let reason = crate::diagnostics::friendly_serde(reason);
    let message = if error.is_data() {
        // Well-formed JSON of the wrong shape: say so, not "invalid JSON".
        format!("{what} is not a trace or plan: {reason}")
    } else {
        format!("{what} is not valid JSON: {reason}")
    };
    invalid(file, file.char_at(offset), message, reason)
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
        let mut raw = RawRegion::empty();
        let mut region = JsonRegion::empty();
        while seq.next_element_seed(Fill(&mut region))?.is_some() {
            let result = json_region(self.file, &region, None, index, true, &mut raw)
                .and_then(|()| (self.sink)(&mut raw));
            if let Err(diagnostic) = result {
                *self.failure = Some(diagnostic);
                return Err(de::Error::custom("a region was refused"));
            }
            index += 1;
        }
        Ok(())
    }
}

pub(super) fn read(file: &Arc<SourceFile>, sink: &mut Sink<'_>) -> Result<(), Box<Diagnostic>> {
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
            let what = format!("`{}`", file.name());
            // A shape error may come before a syntax error further on: a
            // file that is not JSON at all is reported as such.
            if let Err(syntax) = serde_json::from_str::<de::IgnoredAny>(text) {
                if !syntax.is_data() {
                    return Err(json_error(file, text, 0, &syntax, &what));
                }
            }
            return Err(failure.unwrap_or_else(|| json_error(file, text, 0, &error, &what)));
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

/// A list of strings all written without escapes (a plan's `covers`),
/// read once, each shared with the file and spanned where it is written;
/// `None` for any other list.
fn strings(file: &Arc<SourceFile>, part: &str) -> Option<Vec<crate::source::Spanned<Text>>> {
    // Made at its size: two quotes a string written plainly.
    let quotes = memchr::memchr_iter(b'"', part.as_bytes()).count();
    let mut reader = serde_json::Deserializer::from_str(part);
    let shared = (&mut reader)
        .deserialize_seq(InPlace {
            file,
            capacity: quotes / 2,
        })
        .ok()??;
    reader.end().ok()?;
    Some(shared)
}

/// A list of strings read as texts of the file, each where it is written:
/// `None` if one is written with escapes (no slice of the file says it).
struct InPlace<'f> {
    file: &'f Arc<SourceFile>,
    capacity: usize,
}

impl<'de> Visitor<'de> for InPlace<'_> {
    type Value = Option<Vec<crate::source::Spanned<Text>>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut list: A) -> Result<Self::Value, A::Error> {
        let text = self.file.text();
        let mut shared = Vec::with_capacity(self.capacity);
        while let Some(inner) = list.next_element::<&'de str>()? {
            let start = offset_in(text, inner);
            let Some(item) = Text::in_file(self.file, start..start + inner.len()) else {
                return Ok(None);
            };
            shared.push(crate::source::Spanned::new(
                item,
                start - 1..start + inner.len() + 1,
            ));
        }
        Ok(Some(shared))
    }
}

/// A field other than `text`: a string written without escapes is shared
/// with the file (a piece of a streamed trace is read on one thread, so
/// nothing contends for its count), anything else read as a JSON value.
fn shared(file: &Arc<SourceFile>, part: &str) -> Result<FieldValue, serde_json::Error> {
    match unescaped(part) {
        Some(inner) => {
            let start = offset_in(file.text(), inner);
            match Text::in_file(file, start..start + inner.len()) {
                Some(text) => Ok(FieldValue::Str(text)),
                None => written(part).map(FieldValue::new),
            }
        }
        None => written(part).map(FieldValue::new),
    }
}

/// A region's `text`, typed: written without escapes (most of a trace),
/// it is shared with the file instead of copied. Other fields, short, are
/// copied: sharing costs a count on the file that two threads would share.
/// One written with escapes is decoded when first read (tool output, full
/// of `\n`, is often never read), unless decoding it could fail (a `\u`
/// escape), which must be found now.
fn text_of(file: &Arc<SourceFile>, part: &str) -> Result<FieldValue, serde_json::Error> {
    let start = offset_in(file.text(), part);
    let shared = match unescaped(part) {
        Some(inner) => Text::in_file(file, start + 1..start + 1 + inner.len()),
        None if part.starts_with('"') => Text::escaped_in_file(file, start..start + part.len()),
        None => None,
    };
    match shared {
        Some(text) => Ok(FieldValue::Str(text)),
        None => written(part).map(FieldValue::new),
    }
}

/// The string a JSON string literal (its quotes included) stands for, or
/// `None` when `literal` is not one: borrowed when written without escapes.
pub(crate) fn string(literal: &str) -> Option<std::borrow::Cow<'_, str>> {
    match unescaped(literal) {
        Some(inner) => Some(inner.into()),
        None => serde_json::from_str::<String>(literal).ok().map(Into::into),
    }
}

/// The inside of a JSON string written without escapes: the string itself.
fn unescaped(part: &str) -> Option<&str> {
    match part.as_bytes() {
        [b'"', inner @ .., b'"'] if memchr::memchr(b'\\', inner).is_none() => {
            part.get(1..part.len() - 1)
        }
        _ => None,
    }
}

/// A borrowed JSON value as a JSON value. Strings without escapes and plain
/// whole numbers are taken as they are written instead of being parsed a
/// second time; the text was validated when it was borrowed.
fn written(part: &str) -> Result<Value, serde_json::Error> {
    if let Some(inner) = unescaped(part) {
        return Ok(Value::String(inner.to_owned()));
    }
    match part.as_bytes() {
        [b'"', ..] => serde_json::from_str::<String>(part).map(Value::String),
        _ if whole(part).is_some() => Ok(Value::from(whole(part).unwrap_or_default())),
        _ => crate::buffer::strict::json_value(part),
    }
}

/// `text`'s place in [`FIELDS`].
const TEXT: usize = Name::TEXT.index();

/// Types each borrowed field as a JSON value, remembering its span, into
/// `raw` (what was left in it dropped).
pub(super) fn json_region(
    file: &Arc<SourceFile>,
    region: &JsonRegion,
    span: Option<Span>,
    index: usize,
    listed: bool,
    raw: &mut RawRegion,
) -> Result<(), Box<Diagnostic>> {
    let text = file.text();
    let fields = &mut raw.fields;
    // What the last region's typing did not take is dropped.
    for field in fields.iter_mut().filter(|field| field.is_some()) {
        *field = None;
    }
    let (mut first, mut last) = (usize::MAX, 0);
    for (i, (slot, raw)) in fields.iter_mut().zip(region.0.iter().copied()).enumerate() {
        let Some(raw) = raw else { continue };
        let part = raw.get();
        let start = offset_in(text, part);
        first = first.min(start);
        last = last.max(start + part.len());
        let failed =
            |part: &str, error| json_error(file, part, offset_in(text, part), &error, "a field");
        let strings = part.starts_with('[').then(|| strings(file, part)).flatten();
        let (value, items) = if let Some(strings) = strings {
            (FieldValue::Strings(strings), Vec::new())
        } else if part.starts_with('[') {
            // A list (`covers`): each element once, with its span.
            let elements: Vec<&RawValue> = serde_json::from_str(part)
                .map_err(|error| json_error(file, part, start, &error, "a field"))?;
            let items = elements
                .iter()
                .map(|e| offset_in(text, e.get())..offset_in(text, e.get()) + e.get().len())
                .collect();
            // Strings written without escapes (a plan's ids) are shared.
            let values = elements
                .iter()
                .map(|e| shared(file, e.get()).map_err(|error| failed(e.get(), error)))
                .collect::<Result<_, _>>()?;
            (FieldValue::List(values), items)
        } else {
            let value = match i {
                TEXT => text_of(file, part),
                _ => shared(file, part),
            };
            let value = value.map_err(|error| failed(part, error))?;
            (value, Vec::new())
        };
        *slot = Some(Field {
            value,
            span: start..start + part.len(),
            items,
        });
    }
    // A region's own braces are not seen; its fields say where it stands.
    raw.span = span.unwrap_or(if first <= last { first..last } else { 0..0 });
    raw.index = index;
    raw.listed = listed;
    Ok(())
}
