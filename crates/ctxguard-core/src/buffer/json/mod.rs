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

/// How a piece of a JSON trace ends ([`piece`]).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum PieceEnd {
    /// After a comma between two regions: the next piece goes on with the list.
    Between,
    /// At the end of the document.
    Finished,
}

/// What a piece of a JSON trace holds besides its regions.
#[derive(Debug)]
pub(super) struct Piece {
    pub end: PieceEnd,
    /// The `version` as written, if this piece holds it.
    pub version: Option<String>,
}

/// JSON whitespace, as serde_json skips it.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r')
}

/// Where a piece is read: every value in it is read by serde_json, one at
/// a time; the cursor only steps over the document's own punctuation.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn spaces(&mut self) {
        let bytes = self.text.as_bytes();
        while bytes.get(self.at).copied().is_some_and(is_space) {
            self.at += 1;
        }
    }

    /// Steps over `byte`, and the whitespace after it, if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.spaces();
        let next = self.text.as_bytes().get(self.at) == Some(&byte);
        if next {
            self.at += 1;
            self.spaces();
        }
        next
    }

    fn at_end(&self) -> bool {
        self.at == self.text.len()
    }

    /// The next value, read by serde_json; the cursor moves past it.
    fn value<T: Deserialize<'a>>(&mut self) -> Option<T> {
        let rest = self.text.get(self.at..)?;
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
        let value = values.next()?.ok()?;
        self.at += values.byte_offset();
        Some(value)
    }

    /// The next region, read into `into`; the cursor moves past it.
    fn region(&mut self, into: &mut JsonRegion<'a>) -> Option<()> {
        let rest = self.text.get(self.at..)?;
        let mut values = serde_json::Deserializer::from_str(rest);
        let end = Fill(into).deserialize(&mut values).ok()?;
        // The region ends at the `}` after its last value (after its `{`
        // when it has none): only whitespace can stand between.
        let after = match end {
            0 => rest.bytes().take_while(|&b| is_space(b)).count() + 1,
            end => end.checked_sub(rest.as_ptr() as usize)?,
        };
        let close = after
            + rest
                .get(after..)?
                .bytes()
                .take_while(|&b| is_space(b))
                .count();
        (rest.as_bytes().get(close) == Some(&b'}')).then(|| self.at += close + 1)
    }

    /// A mapping's key and its colon, read as serde_json reads the key.
    fn key(&mut self) -> Option<std::borrow::Cow<'a, str>> {
        let key = self.value::<std::borrow::Cow<'a, str>>()?;
        self.eat(b':').then_some(key)
    }
}

/// Reads a piece of a JSON trace (`stream`): the first piece from the
/// document's start, any other from the start of a region that follows a
/// comma, each up to a comma between two regions or to the document's
/// end. Each region is handed to the sink. `None` for anything else: a
/// piece that does not read so (a malformed file, or a cut that was not
/// between two regions after all), which the caller then reads whole, as
/// [`read`] does, to say what is wrong if anything is.
pub(super) fn piece(
    file: &Arc<SourceFile>,
    first: bool,
    sink: &mut WrittenSink<'_>,
) -> Option<Piece> {
    let mut cursor = Cursor {
        text: file.text(),
        at: 0,
    };
    let mut version = None;
    let mut listed = true;
    if first {
        // What comes before `regions`: any keys, `version` at most once.
        cursor.spaces();
        if !cursor.eat(b'{') {
            return None;
        }
        loop {
            match cursor.key()?.as_ref() {
                "regions" if cursor.eat(b'[') => break,
                "version" if version.is_none() => {
                    version = Some(cursor.value::<&RawValue>()?.get().to_owned())
                }
                "version" | "regions" => return None,
                _ => {
                    cursor.value::<de::IgnoredAny>()?;
                }
            }
            if !cursor.eat(b',') {
                return None;
            }
        }
        listed = !cursor.eat(b']');
    }
    let mut index = 0;
    let mut fields = JsonRegion::empty();
    while listed {
        cursor.region(&mut fields)?;
        sink(Written {
            fields: &fields,
            span: None,
            index,
            listed: true,
        })
        .ok()?;
        index += 1;
        if cursor.eat(b',') {
            if cursor.at_end() {
                return Some(Piece {
                    end: PieceEnd::Between,
                    version,
                });
            }
        } else if cursor.eat(b']') {
            listed = false;
        } else {
            return None;
        }
    }
    // What comes after `regions`: more keys, then the document's end.
    while cursor.eat(b',') {
        match cursor.key()?.as_ref() {
            "version" if version.is_none() => {
                version = Some(cursor.value::<&RawValue>()?.get().to_owned())
            }
            "version" | "regions" => return None,
            _ => {
                cursor.value::<de::IgnoredAny>()?;
            }
        }
    }
    (cursor.eat(b'}') && cursor.at_end()).then_some(Piece {
        end: PieceEnd::Finished,
        version,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A region read in place ends at its closing brace, whatever its
    /// last field is and whatever whitespace stands before the brace.
    #[test]
    fn a_region_read_in_place_ends_at_its_brace() {
        let cases = [
            (r#"{}, next"#, 2),
            ("{ \n\t}, next", 5),
            (r#"{"id": "a"}, next"#, 11),
            (r#"{"id": "a", "other": {"x": [1, "}"]}  }, next"#, 39),
            (r#"  {"text": "a } b" , "tokens": 3 } ,"#, 34),
        ];
        for (text, end) in cases {
            let mut cursor = Cursor { text, at: 0 };
            let mut fields = JsonRegion::empty();
            assert_eq!(cursor.region(&mut fields), Some(()), "{text}");
            assert_eq!(cursor.at, end, "{text}");
        }
        // The fields of one region are not left in the next.
        let text = r#"{"id": "a", "key": "k"} {"id": "b"}"#;
        let mut cursor = Cursor { text, at: 0 };
        let mut fields = JsonRegion::empty();
        cursor.region(&mut fields);
        cursor.spaces();
        cursor.region(&mut fields);
        assert_eq!(
            fields.0[Name::ID.index()].map(RawValue::get),
            Some(r#""b""#)
        );
        assert!(fields.0[Name::KEY.index()].is_none());
        // Not a mapping, or not closed: no region.
        for text in [r#"[1]"#, r#"{"id": "a""#, r#"{"id": "a", "id": "b"}"#] {
            let mut cursor = Cursor { text, at: 0 };
            assert_eq!(cursor.region(&mut JsonRegion::empty()), None, "{text}");
        }
    }

    /// What reading `text` (one region) gives: its plain typing, if it has
    /// one, and its full typing.
    fn both(
        text: &str,
        lines: bool,
    ) -> (
        Option<Plain>,
        Result<crate::buffer::trace::Region, String>,
        Arc<SourceFile>,
    ) {
        let file = SourceFile::new("t.json", text);
        // Read from the file's own text: spans are where fields are in it.
        let mut fields = JsonRegion::empty();
        let mut values = serde_json::Deserializer::from_str(file.text());
        (Fill(&mut fields).deserialize(&mut values))
            .and_then(|_| values.end())
            .unwrap_or_else(|e| panic!("{e}: {text}"));
        let written = || Written {
            fields: &fields,
            span: lines.then_some(0..text.len()),
            index: 3,
            listed: !lines,
        };
        let plain = plain(&file, &written());
        let mut raw = RawRegion::empty();
        let full = written()
            .typed(&file, &mut raw)
            .and_then(|()| crate::buffer::trace::region(&file, &mut raw))
            .map_err(|d| d.message);
        (plain, full, file)
    }

    /// One change to a plain region: a field set to another value, or
    /// dropped (`None`), or a field added.
    const CHANGES: &[(&str, Option<&str>)] = &[
        ("id", Some(r#""""#)),
        ("id", Some(r#""r\u0031""#)),
        ("id", Some(r#""a\nb""#)),
        ("id", Some("5")),
        ("id", None),
        ("kind", Some(r#""constraint""#)),
        ("kind", Some(r#""narr\u0061tive""#)),
        ("kind", Some(r#""unclassified""#)),
        ("kind", Some("3")),
        ("kind", None),
        ("text", Some(r#""a\nb\t\"c\"""#)),
        ("text", Some(r#""\u00e9""#)),
        ("text", Some(r#""\ud800""#)),
        ("text", Some(r#""\\u""#)),
        ("text", Some("7")),
        ("text", Some(r#"{"a": 1}"#)),
        ("text", None),
        ("tokens", Some("0")),
        ("tokens", Some("1.5")),
        ("tokens", Some("-3")),
        ("tokens", Some("null")),
        ("tokens", Some(r#""12""#)),
        ("tokens", Some("99999999999999999999")),
        ("tokens", Some("123456789012345678")),
        ("tokens", None),
        ("role", Some(r#""tool""#)),
        ("role", Some(r#""assistant""#)),
        ("role", Some(r#""system""#)),
        ("role", Some(r#""narrator""#)),
        ("role", Some(r#""to\u006fl""#)),
        ("role", Some("1")),
        ("role", None),
        ("key", Some(r#""k""#)),
        ("status", Some(r#""active""#)),
        ("x-extra", Some("[1, 2]")),
        ("record", Some("{}")),
        ("at", Some("3")),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// A region typed as plain is the region full typing gives, field
        /// for field and span for span, in JSON and in JSON Lines: a plain
        /// region with up to two of its fields changed, dropped or added.
        #[test]
        fn a_plain_region_is_the_region_it_stands_for(
            changes in proptest::collection::vec(proptest::sample::select(CHANGES), 0..3),
            order in any::<u64>(),
            spaced in any::<bool>(),
            lines in any::<bool>(),
        ) {
            let mut fields: Vec<(&str, Option<&str>)> = vec![
                ("id", Some(r#""r1""#)),
                ("kind", Some(r#""narrative""#)),
                ("text", Some(r#""plain text""#)),
                ("tokens", Some("12")),
                ("role", Some(r#""user""#)),
            ];
            for &(name, value) in &changes {
                match fields.iter_mut().find(|(field, _)| *field == name) {
                    Some(field) => field.1 = value,
                    None => fields.push((name, value)),
                }
            }
            // Fields in any order.
            let turn = (order as usize) % fields.len();
            fields.rotate_left(turn);
            let written: Vec<String> = (fields.iter())
                .filter_map(|(name, value)| value.map(|value| format!("\"{name}\": {value}")))
                .collect();
            let sep = if spaced { ",\n  " } else { "," };
            let region = format!("{{{}}}", written.join(sep));
            let (plain, full, file) = both(&region, lines);
            // Not an empty test: a region as most are written is plain.
            prop_assert!(!changes.is_empty() || plain.is_some(), "not plain: {}", region);
            if let Some(plain) = plain {
                let full = full.unwrap_or_else(|e| panic!("typed as plain, refused in full: {e}: {region}"));
                prop_assert_eq!(format!("{:?}", plain.region(&file)), format!("{full:?}"), "{}", region);
            }
        }
    }

    #[test]
    fn a_narrative_region_as_most_are_written_is_plain() {
        let region = r#"{"id": "r7", "kind": "narrative", "text": "ran the suite\nok", "tokens": 5, "role": "tool"}"#;
        for lines in [false, true] {
            let (plain, full, file) = both(region, lines);
            let plain = plain.unwrap_or_else(|| panic!("plain"));
            assert_eq!(&file.text()[plain.id()], "r7");
            assert_eq!(
                format!("{:?}", plain.region(&file)),
                format!("{:?}", full.unwrap_or_else(|e| panic!("{e}")))
            );
        }
        // Anything else is typed in full.
        for other in [
            r#"{"id": "r7", "kind": "narrative", "text": "\u00e9"}"#,
            r#"{"id": "r7", "kind": "narrative", "text": "x", "key": "k"}"#,
            r#"{"id": "r7", "kind": "narrative", "text": "x", "tokens": 1.0}"#,
            r#"{"id": "r7", "text": "x"}"#,
        ] {
            assert!(both(other, false).0.is_none(), "{other}");
        }
    }
}
