//! The records of a session file: one JSON value a line (JSON Lines), each
//! with its line. A line that is not JSON is a problem of the session,
//! reported with its place; the rest is still read. A cut-off last line is
//! what a runtime leaves while it is still writing, and is said so.

use std::ops::Range;
use std::sync::{Arc, LazyLock, OnceLock};

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::message::ApiMessage;
use crate::diagnostics::codes::import as codes;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};

/// One record and where it stands.
#[derive(Debug)]
pub(super) struct Record {
    /// 1-based.
    pub line: u64,
    pub value: Fields,
    /// Its `message`, read typed as its line was ([`api_lines`]) or the
    /// first time it is asked for.
    message: OnceLock<ApiMessage>,
}

impl Record {
    pub fn new(line: u64, value: Fields) -> Record {
        Record::with_message(line, value, None)
    }

    /// A record whose `message` was read as its line was ([`api_lines`]).
    fn with_message(line: u64, value: Fields, message: Option<ApiMessage>) -> Record {
        Record {
            line,
            value,
            message: message.map_or_else(OnceLock::new, OnceLock::from),
        }
    }

    /// Its `message` ([`ApiMessage`]): read from where it is written, its
    /// thinking, usage and the rest scanned past; empty where there is
    /// none.
    pub fn message(&self) -> &ApiMessage {
        self.message
            .get_or_init(|| match self.value.raw("message") {
                Some(json) => ApiMessage::read(json),
                None => self
                    .value
                    .get("message")
                    .map(ApiMessage::of)
                    .unwrap_or_default(),
            })
    }

    /// The string at `pointer` (`/message/role`), if there is one.
    pub fn str(&self, pointer: &str) -> Option<&str> {
        super::work(1);
        self.value.pointer(pointer).and_then(Value::as_str)
    }

    /// The whole number at `pointer`, if there is one.
    pub fn u64(&self, pointer: &str) -> Option<u64> {
        super::work(1);
        self.value.pointer(pointer).and_then(Value::as_u64)
    }

    /// `true` at `pointer`.
    pub fn flag(&self, pointer: &str) -> bool {
        super::work(1);
        self.value.pointer(pointer).and_then(Value::as_bool) == Some(true)
    }
}

/// A record's value. An object read from a line is kept a field at a
/// time, each checked and kept as where it is written and parsed the first
/// time it is asked for: the tool outputs, progress reports and file
/// snapshots that make up most of a session's bytes, and that the
/// importers never read, cost a scan, not a tree nor a copy.
#[derive(Debug)]
pub(super) enum Fields {
    /// A value given whole.
    Whole(Value),
    /// An object read from a line: its fields, where they are written in
    /// `text`, in order; and the whole value once it is asked for.
    Read {
        text: Text,
        fields: Vec<Field>,
        whole: OnceLock<Value>,
    },
}

/// The text a record's fields are written in: the session file's, or a
/// line of it mended ([`mend_lone_surrogates`]).
#[derive(Debug, Clone)]
pub(super) enum Text {
    File(Arc<SourceFile>),
    Mended(Arc<str>),
}

impl Text {
    fn get(&self) -> &str {
        match self {
            Text::File(file) => file.text(),
            Text::Mended(line) => line,
        }
    }
}

#[derive(Debug)]
pub(super) struct Field {
    /// The key where it is written, or as unescaped where it is written
    /// with escapes.
    key: Key,
    /// The value, JSON checked when it was read.
    raw: Range<usize>,
    value: OnceLock<Value>,
}

#[derive(Debug)]
enum Key {
    At(Range<usize>),
    Unescaped(Box<str>),
}

impl Field {
    fn key<'t>(&'t self, text: &'t str) -> &'t str {
        match &self.key {
            Key::At(at) => text.get(at.clone()).unwrap_or_default(),
            Key::Unescaped(key) => key,
        }
    }

    /// Whether its key is `key`: the lengths first, then the bytes.
    fn is(&self, text: &str, key: &str) -> bool {
        match &self.key {
            Key::At(at) => {
                at.len() == key.len() && text.as_bytes().get(at.clone()) == Some(key.as_bytes())
            }
            Key::Unescaped(own) => **own == *key,
        }
    }

    fn value(&self, text: &str) -> &Value {
        // Checked as JSON when it was read: it parses.
        self.value.get_or_init(|| {
            text.get(self.raw.clone())
                .and_then(|raw| serde_json::from_str(raw).ok())
                .unwrap_or(Value::Null)
        })
    }
}

impl From<Value> for Fields {
    fn from(value: Value) -> Fields {
        Fields::Whole(value)
    }
}

impl Fields {
    /// The field `key`: the last one of that name, as a parser keeps it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Fields::Whole(value) => value.get(key),
            Fields::Read { .. } => self.read(key).map(|(text, f)| f.value(text)),
        }
    }

    /// The JSON text of the field `key` where it is written, for an
    /// object read from a line; none for a value given whole.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.read(key).and_then(|(text, f)| text.get(f.raw.clone()))
    }

    /// The field `key` of an object read from a line (the last one of that
    /// name), with the text it is written in.
    fn read(&self, key: &str) -> Option<(&str, &Field)> {
        match self {
            Fields::Whole(_) => None,
            Fields::Read { text, fields, .. } => {
                let text = text.get();
                fields
                    .iter()
                    .rev()
                    .find(|f| f.is(text, key))
                    .map(|f| (text, f))
            }
        }
    }

    /// As [`Value::pointer`].
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        if matches!(self, Fields::Whole(_)) || pointer.is_empty() {
            return self.whole().pointer(pointer);
        }
        let rest = pointer.strip_prefix('/')?;
        // A pointer is a few bytes: looked through byte by byte.
        let (token, tail) = rest
            .bytes()
            .position(|b| b == b'/')
            .map_or((rest, ""), |at| rest.split_at(at));
        let value = if token.contains('~') {
            self.get(&token.replace("~1", "/").replace("~0", "~"))
        } else {
            self.get(token)
        }?;
        if tail.is_empty() {
            Some(value)
        } else {
            value.pointer(tail)
        }
    }

    /// The whole value.
    pub fn whole(&self) -> &Value {
        match self {
            Fields::Whole(value) => value,
            Fields::Read {
                text,
                fields,
                whole,
            } => whole.get_or_init(|| {
                let text = text.get();
                Value::Object(
                    fields
                        .iter()
                        .map(|f| (f.key(text).to_owned(), f.value(text).clone()))
                        .collect(),
                )
            }),
        }
    }
}

/// The string at `pointer` of the first of the first records that has one:
/// where a runtime records the folder a session was started in.
pub(super) fn started_in(records: &[Record], pointer: &str) -> Option<String> {
    /// How many records are looked at: the folder stands on the first.
    const FIRST: usize = 20;
    records
        .iter()
        .take(FIRST)
        .find_map(|record| record.str(pointer).map(str::to_owned))
}

/// An object read a field at a time ([`Fields`]): each key and value as
/// written in the text read; with `MESSAGE`, its `message` read typed
/// instead ([`api_lines`]).
struct Object<'de, const MESSAGE: bool> {
    fields: Vec<(KeyRead<'de>, &'de RawValue)>,
    message: Option<ApiMessage>,
}

/// Where `part`, a slice of `base`, stands in it.
fn offset_in(base: &str, part: &str) -> Range<usize> {
    let start = (part.as_ptr() as usize).saturating_sub(base.as_ptr() as usize);
    start..start + part.len()
}

/// A key as the parser gives it: as written, when it holds no escape.
enum KeyRead<'de> {
    Written(&'de str),
    Unescaped(String),
}

impl KeyRead<'_> {
    fn is(&self, name: &str) -> bool {
        match self {
            KeyRead::Written(key) => *key == name,
            KeyRead::Unescaped(key) => key == name,
        }
    }
}

impl<'de> Deserialize<'de> for KeyRead<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<KeyRead<'de>, D::Error> {
        struct Visit;
        impl<'de> Visitor<'de> for Visit {
            type Value = KeyRead<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, key: &'de str) -> Result<KeyRead<'de>, E> {
                Ok(KeyRead::Written(key))
            }
            fn visit_str<E>(self, key: &str) -> Result<KeyRead<'de>, E> {
                Ok(KeyRead::Unescaped(key.to_owned()))
            }
            fn visit_string<E>(self, key: String) -> Result<KeyRead<'de>, E> {
                Ok(KeyRead::Unescaped(key))
            }
        }
        deserializer.deserialize_str(Visit)
    }
}

impl<'de, const MESSAGE: bool> Deserialize<'de> for Object<'de, MESSAGE> {
    fn deserialize<D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Object<'de, MESSAGE>, D::Error> {
        struct Visit<const MESSAGE: bool>;
        impl<'de, const MESSAGE: bool> Visitor<'de> for Visit<MESSAGE> {
            type Value = Object<'de, MESSAGE>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Object<'de, MESSAGE>, A::Error> {
                // Room for the fields a runtime's record has (Claude Code
                // writes some fifteen).
                let mut object = Object {
                    fields: Vec::with_capacity(16),
                    message: None,
                };
                while let Some(key) = map.next_key::<KeyRead<'de>>()? {
                    // Any JSON value reads as a message (one that is no
                    // object has no content); the last of the name stands.
                    if MESSAGE && key.is("message") {
                        object.message = Some(map.next_value()?);
                    } else {
                        object.fields.push((key, map.next_value()?));
                    }
                }
                Ok(object)
            }
        }
        deserializer.deserialize_map(Visit::<MESSAGE>)
    }
}

/// A value read from a line: its fields, and its message when it was read
/// typed ([`api_lines`]).
type ValueRead = (Fields, Option<ApiMessage>);

/// The next value of `text[within]`, which holds one at least: an object
/// a field at a time (each where it is written in `text`, which is
/// `written`), anything else whole; and the bytes it took. A value that
/// does not parse gives the parser's error.
fn next_value<const MESSAGE: bool>(
    text: &str,
    within: Range<usize>,
    written: &Text,
) -> Option<(Result<ValueRead, serde_json::Error>, usize)> {
    let rest = text.get(within)?;
    if rest.trim_start().starts_with('{') {
        let mut stream =
            serde_json::Deserializer::from_str(rest).into_iter::<Object<'_, MESSAGE>>();
        let next = stream.next()?;
        Some((
            next.map(|Object { fields, message }| {
                (
                    Fields::Read {
                        text: written.clone(),
                        fields: fields
                            .into_iter()
                            .map(|(key, raw)| Field {
                                key: match key {
                                    KeyRead::Written(key) => Key::At(offset_in(text, key)),
                                    KeyRead::Unescaped(key) => Key::Unescaped(key.into()),
                                },
                                raw: offset_in(text, raw.get()),
                                value: OnceLock::new(),
                            })
                            .collect(),
                        whole: OnceLock::new(),
                    },
                    message,
                )
            }),
            stream.byte_offset(),
        ))
    } else {
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let next = stream.next()?;
        Some((
            next.map(|value| (Fields::from(value), None)),
            stream.byte_offset(),
        ))
    }
}

/// The lines of `text`, each with its line break, as `str::split_inclusive`
/// gives them: the breaks are found with `memchr`, a file's worth at a
/// time faster than the standard library's search.
fn inclusive_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest.len(), |at| at + 1);
        let (line, tail) = rest.split_at(end);
        rest = tail;
        Some(line)
    })
}

/// Every line of `file` that holds a JSON value; blank lines are skipped.
pub(super) fn lines(file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Vec<Record> {
    read_lines::<false>(file, problems)
}

/// [`lines`] of a session whose records carry a model's API message under
/// `message` (Claude Code's, pi's): that field, most of a record's bytes
/// after the tools' outputs, is read typed ([`ApiMessage`]) as the line is
/// scanned, so its bytes are read once rather than checked as JSON and
/// then parsed again. It is then no field of the record's value: only
/// [`Record::message`] reads it.
pub(super) fn api_lines(file: &Arc<SourceFile>, problems: &mut Vec<Diagnostic>) -> Vec<Record> {
    read_lines::<true>(file, problems)
}

/// [`lines`], with `message` read typed when `MESSAGE` ([`api_lines`]).
fn read_lines<const MESSAGE: bool>(
    file: &Arc<SourceFile>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Record> {
    let text = file.text();
    // A record a line, nearly always: counted first, so the records (a few
    // hundred bytes each) are never moved to grow the list.
    let mut records = Vec::with_capacity(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
    let mut offset = 0;
    for (index, line) in inclusive_lines(text).enumerate() {
        let start = offset;
        offset += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        if content.trim().is_empty() {
            continue;
        }
        // The fields of its records are kept as where they are written in
        // the file, or in the line as mended.
        let content = mend_lone_surrogates(content);
        let (written, line_at) = match &content {
            std::borrow::Cow::Borrowed(_) => (Text::File(Arc::clone(file)), start),
            std::borrow::Cow::Owned(mended) => (Text::Mended(Arc::from(mended.as_str())), 0),
        };
        let base = written.get();
        // A runtime can write two records with no line break between them
        // (pi does, when a write races another): each is read, both on
        // this line.
        let mut at = 0;
        while let Some((next, took)) =
            next_value::<MESSAGE>(base, line_at + at..line_at + content.len(), &written)
        {
            match next {
                Ok((value, message)) => {
                    records.push(Record::with_message(index as u64 + 1, value, message));
                    at += took;
                }
                Err(mut error) => {
                    // The parser's place in the line, not in what is left
                    // of it after the records before on the same line.
                    if at > 0 {
                        let mut whole =
                            serde_json::Deserializer::from_str(&content).into_iter::<Value>();
                        if let Some(Err(same)) = whole.find(Result::is_err) {
                            error = same;
                        }
                    }
                    // Nothing but white space after it: the last line.
                    let last = text[offset..].trim().is_empty();
                    let from = start + at;
                    let span: Span = from..start + content.len();
                    problems.push(codes::unreadable_record(
                        file,
                        span,
                        &error.to_string(),
                        last,
                    ));
                    break;
                }
            }
        }
    }
    records
}

/// `text`, JSON, with each `\uD800`–`\uDFFF` escape that is not half of a
/// pair written `\uFFFD`. JavaScript's `JSON.stringify` writes a lone
/// surrogate as such an escape, and runtimes write them: Claude Code
/// 2.1.105 cuts a long hook output into a preview between the two halves
/// of an emoji, and keeps the preview in its transcript. Such a line is
/// JSON by its grammar, but no string of Rust's can hold a lone
/// surrogate; so the half is the replacement character, and the rest of
/// the record is read as written.
pub fn mend_lone_surrogates(text: &str) -> std::borrow::Cow<'_, str> {
    /// A `\u` escape: looked for with one searcher made once, not one
    /// made for every line.
    static ESCAPE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(br"\u"));
    let bytes = text.as_bytes();
    // Nearly every line has no surrogate escape at all.
    if !ESCAPE
        .find_iter(bytes)
        .any(|at| matches!(bytes.get(at + 2), Some(b'd' | b'D')))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let unit = |at: usize| -> Option<u16> {
        let escape = bytes.get(at..at + 6)?;
        if escape[0] != b'\\' || escape[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&escape[2..]).ok()?, 16).ok()
    };
    let high = |u: u16| (0xD800..0xDC00).contains(&u);
    let low = |u: u16| (0xDC00..0xE000).contains(&u);
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(u) if high(u) && unit(i + 6).is_some_and(low) => i += 12,
            Some(u) if high(u) || low(u) => {
                out.push_str(&text[copied..i]);
                out.push_str("\\uFFFD");
                i += 6;
                copied = i;
            }
            // Any other escape, `\\` included, is two bytes or more.
            _ => i += 2,
        }
    }
    if copied == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    std::borrow::Cow::Owned(out)
}

/// Text of a message's content: a string, or a list of blocks of which the
/// `text` ones are joined (others are left to the caller).
pub(crate) fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| match block {
                Value::String(text) => Some(text.as_str()),
                _ => block.get("text").and_then(Value::as_str),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The first line of `text` that holds a JSON object, parsed: whole lines,
/// however long (a session can open with a large paste).
pub(super) fn first_object(text: &str) -> Option<Value> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .take(5)
        .find_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(Value::is_object)
}

/// The records of a file that is one JSON array of objects, or JSON Lines:
/// each element with the line it starts on.
pub(super) fn array_or_lines(
    file: &Arc<SourceFile>,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Record> {
    let text = file.text();
    let trimmed = text.trim_start();
    if !trimmed.starts_with('[') {
        return lines(file, problems);
    }
    let mut at = text.len() - trimmed.len() + 1;
    let mut records = Vec::new();
    loop {
        let rest = &text[at..];
        let skipped = rest.len()
            - rest
                .trim_start_matches(|c: char| c.is_whitespace() || c == ',')
                .len();
        at += skipped;
        if text[at..].starts_with(']') || at >= text.len() {
            break;
        }
        let mut stream = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                records.push(Record::new(file.line_col(at).0 as u64, value.into()));
                at += stream.byte_offset();
            }
            Some(Err(error)) => {
                let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
                problems.push(codes::unreadable_record(
                    file,
                    at..end,
                    &error.to_string(),
                    false,
                ));
                break;
            }
            None => break,
        }
    }
    records
}

/// The line each element of the array under `"key"` starts on, in a file
/// that is one JSON document: the first `"key": [` whose elements number
/// `count`. `None` when no such array is found.
pub(super) fn element_lines(file: &SourceFile, key: &str, count: usize) -> Option<Vec<u64>> {
    let text = file.text();
    let needle = format!("\"{key}\"");
    text.match_indices(&needle).find_map(|(at, _)| {
        let rest = text[at + needle.len()..].trim_start().strip_prefix(':')?;
        let rest = rest.trim_start().strip_prefix('[')?;
        let mut offset = text.len() - rest.len();
        let mut lines = Vec::new();
        loop {
            let tail = &text[offset..];
            offset += tail.len()
                - tail
                    .trim_start_matches(|c: char| c.is_whitespace() || c == ',')
                    .len();
            if text[offset..].starts_with(']') {
                break;
            }
            let mut stream = serde_json::Deserializer::from_str(&text[offset..])
                .into_iter::<serde::de::IgnoredAny>();
            stream.next()?.ok()?;
            lines.push(file.line_col(offset).0 as u64);
            offset += stream.byte_offset();
        }
        (lines.len() == count).then_some(lines)
    })
}

#[cfg(test)]
mod tests {
    use super::inclusive_lines;
    use super::mend_lone_surrogates as mend;
    use crate::source::SourceFile;

    /// Each field is read where it is written: in the file, in a line
    /// mended of a lone surrogate, under a key written with escapes, in
    /// the second of two records on one line; the last of a key written
    /// twice is the one read, as a parser keeps it.
    #[test]
    fn fields_are_read_where_they_are_written() {
        let text = concat!(
            "{\"type\":\"user\",\"n\":1,\"n\":2}\n",
            "{\"t\":\"cut \\ud83d\",\"type\":\"mended\"}\n",
            "{\"ty\\u0070e\":\"escaped\",\"message\":{\"role\":\"user\"}}\n",
            "{\"type\":\"first\"}{\"type\":\"second\"}\n",
        );
        let file = SourceFile::new("s.jsonl", text);
        let mut problems = Vec::new();
        let records = super::lines(&file, &mut problems);
        assert!(problems.is_empty());
        let read: Vec<_> = records
            .iter()
            .map(|r| (r.line, r.str("/type").unwrap_or_default()))
            .collect();
        assert_eq!(
            read,
            [
                (1, "user"),
                (2, "mended"),
                (3, "escaped"),
                (4, "first"),
                (4, "second")
            ]
        );
        assert_eq!(records[0].u64("/n"), Some(2));
        assert_eq!(records[1].str("/t"), Some("cut \u{FFFD}"));
        assert_eq!(records[2].str("/message/role"), Some("user"));
        assert_eq!(records[2].value.whole()["type"], "escaped");
    }

    /// A message read as its line is read is the message read after, in
    /// every shape a record holds one: an object, a string, none, two of
    /// the name, a key written with escapes, a line mended, a bad line;
    /// and the record's other fields are read alike.
    #[test]
    fn a_message_read_with_its_line_is_the_message_read_after() {
        let text = concat!(
            "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"},\"uuid\":\"a\"}\n",
            "{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\",\"input\":{\"x\":[1,2]}}]}}\n",
            "{\"message\":\"a string\",\"type\":\"s\"}\n",
            "{\"type\":\"none\"}\n",
            "{\"message\":{\"role\":\"first\"},\"message\":{\"role\":\"last\"}}\n",
            "{\"mess\\u0061ge\":{\"role\":\"escaped\"}}\n",
            "{\"message\":{\"content\":\"cut \\ud83d\"}}\n",
            "{\"message\":{\"content\":\"never closed\"}\n",
            "[1,2]\n",
        );
        let file = SourceFile::new("s.jsonl", text);
        let (mut raw, mut typed) = (Vec::new(), Vec::new());
        let scanned = super::lines(&file, &mut raw);
        let read = super::api_lines(&file, &mut typed);
        assert_eq!(format!("{raw:?}"), format!("{typed:?}"));
        assert_eq!(raw.len(), 1);
        assert_eq!(scanned.len(), read.len());
        for (a, b) in scanned.iter().zip(&read) {
            assert_eq!(a.line, b.line);
            assert_eq!(format!("{:?}", a.message()), format!("{:?}", b.message()));
            assert!(b.value.raw("message").is_none());
            for key in ["type", "uuid"] {
                assert_eq!(a.value.get(key), b.value.get(key));
            }
        }
        assert_eq!(read[4].message().role.as_deref(), Some("last"));
        assert_eq!(read[5].message().role.as_deref(), Some("escaped"));
        assert_eq!(read[6].message().content.as_str(), Some("cut \u{FFFD}"));
        assert_eq!(read[1].message().content.blocks().len(), 1);
    }

    #[test]
    fn lines_are_cut_as_split_inclusive_cuts_them() {
        for text in ["", "a", "a\n", "a\nb", "\n\n", "a\r\nb\n", "é\n漢\nx"] {
            assert_eq!(
                inclusive_lines(text).collect::<Vec<_>>(),
                text.split_inclusive('\n').collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn lone_surrogates_are_mended_and_pairs_kept() {
        let pair = r#"{"t":"\ud83d\ude00"}"#;
        assert_eq!(mend(pair), pair);
        assert_eq!(mend(r#"{"t":"ab\ud83d"}"#), r#"{"t":"ab\uFFFD"}"#);
        assert_eq!(mend(r#"{"t":"\ude00x"}"#), r#"{"t":"\uFFFDx"}"#);
        // An escaped backslash before `ud83d` is no escape.
        let text = r#"{"t":"\\ud83d"}"#;
        assert_eq!(mend(text), text);
        let value: serde_json::Value =
            serde_json::from_str(&mend(r#"{"t":"cut \ud83d"}"#)).unwrap();
        assert_eq!(value["t"], "cut \u{FFFD}");
    }
}
