//! A record's `message` as a model's API writes it, read typed: its id,
//! and its content as a string or as blocks with the fields the importers
//! read. What they never read — a block's thinking and signature, the
//! message's usage and model — is scanned past as it is read, never built;
//! a tool's input and a tool result's content stay as the JSON they were
//! written as until a caller asks for them.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

/// A message: its id (the API's, shared by the records one response is
/// written as), its role, its content; and what pi writes beside them: the
/// time it was sent (milliseconds), a shell command the user ran and its
/// output.
#[derive(Debug, Default)]
pub(crate) struct ApiMessage {
    pub id: Option<String>,
    pub role: Option<String>,
    pub content: Content,
    pub timestamp: Option<u64>,
    pub command: Option<String>,
    pub output: Option<String>,
}

/// What a message holds.
#[derive(Debug, Default)]
pub(crate) enum Content {
    /// No content, or `null`.
    #[default]
    Missing,
    Text(String),
    Blocks(Vec<Block>),
    /// Anything else (a number, an object), as written.
    Other(Value),
}

/// One block of a message's content.
#[derive(Debug)]
pub(crate) enum Block {
    /// A bare string in the list.
    Str(String),
    Object(Fields),
}

/// The fields of a block the importers read: its kind, its text (a text
/// block's), a tool call's id, name and input (pi's `arguments`), a tool
/// result's call id, error flag and content. A field of another kind than
/// expected (a `text` that is no string) reads as absent.
#[derive(Debug, Default)]
pub(crate) struct Fields {
    pub kind: Option<String>,
    pub text: Option<String>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub input: Option<Box<RawValue>>,
    pub arguments: Option<Box<RawValue>>,
    pub tool_use_id: Option<String>,
    pub is_error: Option<bool>,
    pub content: Option<Box<RawValue>>,
}

impl ApiMessage {
    /// Reads the JSON text of a message. Any JSON value reads: what is not
    /// an object is a message with no content.
    pub(crate) fn read(json: &str) -> ApiMessage {
        serde_json::from_str(json).unwrap_or_default()
    }

    /// Reads a message given as a value.
    pub(crate) fn of(value: &Value) -> ApiMessage {
        ApiMessage::read(&value.to_string())
    }
}

impl Content {
    /// The blocks, if the content is a list of them.
    pub(crate) fn blocks(&self) -> &[Block] {
        match self {
            Content::Blocks(blocks) => blocks,
            _ => &[],
        }
    }

    /// The content when it is a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Its text, as [`super::records::text_of`] reads a content: the
    /// string, or the text of every block (a bare string or a block's
    /// `text`) joined by line breaks.
    pub(crate) fn text(&self) -> String {
        match self {
            Content::Missing => String::new(),
            Content::Text(text) => text.clone(),
            Content::Blocks(blocks) => blocks
                .iter()
                .filter_map(|block| match block {
                    Block::Str(text) => Some(text.as_str()),
                    Block::Object(fields) => fields.text.as_deref(),
                })
                .collect::<Vec<_>>()
                .join("\n"),
            Content::Other(value) => value.to_string(),
        }
    }

    /// Reads content written as JSON (a tool result's).
    pub(crate) fn read(json: &RawValue) -> Content {
        serde_json::from_str(json.get()).unwrap_or_default()
    }
}

impl Block {
    /// The block's fields; none for a bare string.
    pub(crate) fn fields(&self) -> Option<&Fields> {
        match self {
            Block::Object(fields) => Some(fields),
            Block::Str(_) => None,
        }
    }

    /// The block's kind (`type`).
    pub(crate) fn kind(&self) -> Option<&str> {
        self.fields().and_then(|f| f.kind.as_deref())
    }
}

/// JSON that was checked when it was read, parsed; `null` where absent.
pub(crate) fn parsed(json: Option<&RawValue>) -> Value {
    json.and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or(Value::Null)
}

/// The visitor methods of the scalars JSON has, each reading as `$value`.
macro_rules! scalars_as {
    ($ty:ty, $value:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<$ty, E> {
            Ok($value)
        }
        fn visit_unit<E: de::Error>(self) -> Result<$ty, E> {
            Ok($value)
        }
    };
}

/// The visitor methods of a list and an object, each skipped as it is
/// read and reading as `$value`.
macro_rules! skipped_as {
    ($ty:ty, $value:expr) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<$ty, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($value)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$ty, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($value)
        }
    };
}

impl<'de> Deserialize<'de> for ApiMessage {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<ApiMessage, D::Error> {
        struct Reader;
        impl<'de> Visitor<'de> for Reader {
            type Value = ApiMessage;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ApiMessage, A::Error> {
                let mut message = ApiMessage::default();
                // The last field of a name stands, as a parser keeps it.
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Id => message.id = map.next_value::<Maybe<String>>()?.0,
                        Key::Role => message.role = map.next_value::<Maybe<String>>()?.0,
                        Key::Content => message.content = map.next_value()?,
                        Key::Timestamp => message.timestamp = map.next_value::<Maybe<u64>>()?.0,
                        Key::Command => message.command = map.next_value::<Maybe<String>>()?.0,
                        Key::Output => message.output = map.next_value::<Maybe<String>>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(message)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ApiMessage, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(ApiMessage::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<ApiMessage, E> {
                Ok(ApiMessage::default())
            }
            scalars_as!(ApiMessage, ApiMessage::default());
        }
        deserializer.deserialize_any(Reader)
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Content, D::Error> {
        struct Reader;
        impl<'de> Visitor<'de> for Reader {
            type Value = Content;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a message's content")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Content, E> {
                Ok(Content::Text(text.to_owned()))
            }
            fn visit_string<E: de::Error>(self, text: String) -> Result<Content, E> {
                Ok(Content::Text(text))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
                let mut blocks = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(block) = seq.next_element()? {
                    blocks.push(block);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Content, A::Error> {
                Value::deserialize(de::value::MapAccessDeserializer::new(map)).map(Content::Other)
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Content, E> {
                Ok(Content::Other(Value::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Content, E> {
                Ok(Content::Other(Value::from(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Content, E> {
                Ok(Content::Other(Value::from(v)))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Content, E> {
                Ok(Content::Other(Value::from(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
                Ok(Content::Missing)
            }
        }
        deserializer.deserialize_any(Reader)
    }
}

impl<'de> Deserialize<'de> for Block {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Block, D::Error> {
        struct Reader;
        impl<'de> Visitor<'de> for Reader {
            type Value = Block;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a content block")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Block, E> {
                Ok(Block::Str(text.to_owned()))
            }
            fn visit_string<E: de::Error>(self, text: String) -> Result<Block, E> {
                Ok(Block::Str(text))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Block, A::Error> {
                let mut fields = Fields::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Type => fields.kind = map.next_value::<Maybe<String>>()?.0,
                        Key::Text => fields.text = map.next_value::<Maybe<String>>()?.0,
                        Key::Id => fields.id = map.next_value::<Maybe<String>>()?.0,
                        Key::ToolName => fields.name = map.next_value::<Maybe<String>>()?.0,
                        Key::Input => fields.input = Some(map.next_value()?),
                        Key::Arguments => fields.arguments = Some(map.next_value()?),
                        Key::ToolUseId => fields.tool_use_id = map.next_value::<Maybe<String>>()?.0,
                        Key::IsError => fields.is_error = map.next_value::<Maybe<bool>>()?.0,
                        Key::Content => fields.content = Some(map.next_value()?),
                        Key::Role | Key::Timestamp | Key::Command | Key::Output | Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Block::Object(fields))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Block, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Block::Object(Fields::default()))
            }
            scalars_as!(Block, Block::Object(Fields::default()));
        }
        deserializer.deserialize_any(Reader)
    }
}

/// The name of a field the importers read, known without copying it.
enum Key {
    Type,
    Text,
    Id,
    ToolName,
    Input,
    Arguments,
    Role,
    Timestamp,
    Command,
    Output,
    ToolUseId,
    IsError,
    Content,
    Other,
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct Reader;
        impl Visitor<'_> for Reader {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field's name")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<Key, E> {
                Ok(match name {
                    "type" => Key::Type,
                    "text" => Key::Text,
                    "id" => Key::Id,
                    "name" => Key::ToolName,
                    "input" => Key::Input,
                    "arguments" => Key::Arguments,
                    "role" => Key::Role,
                    "timestamp" => Key::Timestamp,
                    "command" => Key::Command,
                    "output" => Key::Output,
                    "tool_use_id" => Key::ToolUseId,
                    "is_error" => Key::IsError,
                    "content" => Key::Content,
                    _ => Key::Other,
                })
            }
        }
        deserializer.deserialize_str(Reader)
    }
}

/// A value of the kind `T`, or none where it is of another kind (a list
/// or an object skipped as it is read).
struct Maybe<T>(Option<T>);

/// A kind of value a field is read as: each reading gives none but the
/// kind's own.
trait Kind: Sized {
    fn of_str(_: &str) -> Option<Self> {
        None
    }
    fn of_string(text: String) -> Option<Self> {
        Self::of_str(&text)
    }
    fn of_bool(_: bool) -> Option<Self> {
        None
    }
    fn of_u64(_: u64) -> Option<Self> {
        None
    }
    fn of_i64(_: i64) -> Option<Self> {
        None
    }
}

impl Kind for String {
    fn of_str(text: &str) -> Option<String> {
        Some(text.to_owned())
    }
    fn of_string(text: String) -> Option<String> {
        Some(text)
    }
}

impl Kind for bool {
    fn of_bool(v: bool) -> Option<bool> {
        Some(v)
    }
}

/// A whole number that fits 64 bits unsigned.
impl Kind for u64 {
    fn of_u64(v: u64) -> Option<u64> {
        Some(v)
    }
    fn of_i64(v: i64) -> Option<u64> {
        u64::try_from(v).ok()
    }
}

impl<'de, T: Kind> Deserialize<'de> for Maybe<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Maybe<T>, D::Error> {
        struct Reader<T>(std::marker::PhantomData<T>);
        impl<'de, T: Kind> Visitor<'de> for Reader<T> {
            type Value = Option<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<T>, E> {
                Ok(T::of_str(v))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Option<T>, E> {
                Ok(T::of_string(v))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<T>, E> {
                Ok(T::of_bool(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<T>, E> {
                Ok(T::of_u64(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<T>, E> {
                Ok(T::of_i64(v))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<T>, E> {
                Ok(None)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Option<T>, E> {
                Ok(None)
            }
            skipped_as!(Option<T>, None);
        }
        deserializer
            .deserialize_any(Reader(std::marker::PhantomData))
            .map(Maybe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_read_for_what_the_importers_read_and_the_rest_is_skipped() {
        let json = r#"{"id":"msg_1","model":"claude","usage":{"input_tokens":3},"content":[
            {"type":"thinking","thinking":"long thoughts","signature":"c2ln"},
            {"type":"text","text":"Done.\n"},
            {"type":"tool_use","id":"toolu_1","name":"Write","input":{"path":"a.rs","lines":[1,2]}},
            "a bare string",
            {"type":"text","text":{"not":"a string"}},
            {"type":"tool_result","tool_use_id":"toolu_1","is_error":"yes","content":[{"type":"text","text":"ok"}]}
        ]}"#;
        let message = ApiMessage::read(json);
        assert_eq!(message.id.as_deref(), Some("msg_1"));
        let blocks = message.content.blocks();
        assert_eq!(blocks.len(), 6);
        let kinds: Vec<_> = blocks.iter().map(Block::kind).collect();
        assert_eq!(
            kinds,
            [
                Some("thinking"),
                Some("text"),
                Some("tool_use"),
                None,
                Some("text"),
                Some("tool_result")
            ]
        );
        let call = blocks[2].fields().unwrap();
        assert_eq!(call.name.as_deref(), Some("Write"));
        assert_eq!(
            call.input.as_deref().map(RawValue::get),
            Some(r#"{"path":"a.rs","lines":[1,2]}"#)
        );
        // A field of another kind than expected reads as absent.
        assert_eq!(blocks[4].fields().unwrap().text, None);
        let result = blocks[5].fields().unwrap();
        assert_eq!(result.is_error, None);
        assert_eq!(result.tool_use_id.as_deref(), Some("toolu_1"));
        assert_eq!(
            result.content.as_deref().map(Content::read).unwrap().text(),
            "ok"
        );
        // Text as a content reads: strings and text blocks, joined.
        assert_eq!(message.content.text(), "Done.\n\na bare string");
    }

    #[test]
    fn what_pi_writes_beside_a_message_is_read_too() {
        let message = ApiMessage::read(
            r#"{"role":"bashExecution","command":"ls","output":"a\nb","timestamp":1773280435554,
            "content":[{"type":"toolCall","name":"read","arguments":{"path":"x"}}]}"#,
        );
        assert_eq!(message.role.as_deref(), Some("bashExecution"));
        assert_eq!(message.command.as_deref(), Some("ls"));
        assert_eq!(message.output.as_deref(), Some("a\nb"));
        assert_eq!(message.timestamp, Some(1_773_280_435_554));
        let call = message.content.blocks()[0].fields().unwrap();
        assert_eq!(
            call.arguments.as_deref().map(RawValue::get),
            Some(r#"{"path":"x"}"#)
        );
        // A time that is no whole number reads as absent.
        for other in ["-1", "1.5", "\"1\""] {
            let json = format!(r#"{{"timestamp":{other}}}"#);
            assert_eq!(ApiMessage::read(&json).timestamp, None, "{other}");
        }
    }

    #[test]
    fn content_of_every_shape_reads_as_its_text() {
        let text = |json: &str| ApiMessage::read(json).content.text();
        assert_eq!(text(r#"{"content":"typed"}"#), "typed");
        assert_eq!(text(r#"{"content":null}"#), "");
        assert_eq!(text(r#"{"role":"user"}"#), "");
        assert_eq!(text(r#"{"content":{"a":1}}"#), r#"{"a":1}"#);
        assert_eq!(text(r#"{"content":7}"#), "7");
        // The last field of a name stands.
        assert_eq!(text(r#"{"content":"first","content":"last"}"#), "last");
        // What is no object is a message with no content.
        for other in ["[1,2]", "\"text\"", "3", "true", "null"] {
            let message = ApiMessage::read(other);
            assert!(message.id.is_none() && matches!(message.content, Content::Missing));
        }
        // A message given as a value reads as its text does.
        let value: Value =
            serde_json::from_str(r#"{"id":"m","content":[{"type":"text","text":"x"}]}"#).unwrap();
        let message = ApiMessage::of(&value);
        assert_eq!(
            (message.id.as_deref(), message.content.text().as_str()),
            (Some("m"), "x")
        );
    }
}
