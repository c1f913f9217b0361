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
    check_version, field_index, invalid, rest_of_line, Field, FieldValue, RawRegion, Sink, FIELDS,
};
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span, Text};

/// A region's known fields, by [`FIELDS`] index.
pub(super) struct JsonRegion<'a>([Option<&'a RawValue>; FIELDS.len()]);

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
pub(super) fn offset_in(text: &str, part: &str) -> usize {
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
pub(crate) fn friendly_serde(reason: &str) -> String {
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

/// A region's `text`, typed: written without escapes (most of a trace),
/// it is shared with the file instead of copied. Other fields, short, are
/// copied: sharing costs a count on the file that two threads would share.
fn text_of(file: &Arc<SourceFile>, part: &str) -> Result<FieldValue, serde_json::Error> {
    if let Some(inner) = unescaped(part) {
        let start = offset_in(file.text(), inner);
        if let Some(text) = Text::in_file(file, start..start + inner.len()) {
            return Ok(FieldValue::Str(text));
        }
    }
    written(part).map(FieldValue::new)
}

/// The string a JSON string literal (its quotes included) stands for, or
/// `None` when `literal` is not one.
pub(crate) fn string(literal: &str) -> Option<String> {
    match unescaped(literal) {
        Some(inner) => Some(inner.to_owned()),
        None => serde_json::from_str(literal).ok(),
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
        digits
            if !digits.is_empty() && digits.len() < 19 && digits.iter().all(u8::is_ascii_digit) =>
        {
            Ok(Value::from(part.parse::<u64>().unwrap_or_default()))
        }
        _ => crate::buffer::strict::json_value(part),
    }
}

/// `text`'s place in [`FIELDS`].
const TEXT: usize = 3;

/// Types each borrowed field as a JSON value, remembering its span.
pub(super) fn json_region(
    file: &Arc<SourceFile>,
    region: JsonRegion,
    span: Option<Span>,
    index: usize,
    listed: bool,
) -> Result<RawRegion, Box<Diagnostic>> {
    let text = file.text();
    let mut fields: [Option<Field>; FIELDS.len()] = Default::default();
    let (mut first, mut last) = (usize::MAX, 0);
    for (i, (slot, raw)) in fields.iter_mut().zip(region.0).enumerate() {
        let Some(raw) = raw else { continue };
        let part = raw.get();
        let start = offset_in(text, part);
        first = first.min(start);
        last = last.max(start + part.len());
        let failed =
            |part: &str, error| json_error(file, part, offset_in(text, part), &error, "a field");
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
                .map(|e| written(e.get()).map_err(|error| failed(e.get(), error)))
                .collect::<Result<_, _>>()?;
            (FieldValue::Other(Value::Array(values)), items)
        } else {
            let value = match i {
                TEXT => text_of(file, part),
                _ => written(part).map(FieldValue::new),
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
    let span = span.unwrap_or(if first <= last { first..last } else { 0..0 });
    Ok(RawRegion {
        index,
        span,
        listed,
        fields,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_where_fields_say() {
        assert_eq!(super::FIELDS[super::TEXT], "text");
    }
}
