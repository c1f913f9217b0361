//! A region's text as the model holds it: shared with the file it was read
//! from when it is written there as it reads (a JSON string without
//! escapes, most of a trace), owned otherwise. A trace's narrative is then
//! in memory once, as the file, not twice.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::{Arc, OnceLock};

use crate::source::SourceFile;

/// Text held by a trace or plan: a string that derefs to `str`.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Owned(String),
    /// `file.text()[range]`, checked to be on character boundaries when made.
    InFile {
        file: Arc<SourceFile>,
        range: Range<usize>,
    },
    /// A JSON string literal in a file, decoded when first read.
    Escaped(Box<Escaped>),
}

/// A JSON string literal at `range` of `file` whose escapes cannot fail
/// to decode (no `\u`: see [`Text::escaped_in_file`]).
#[derive(Clone)]
struct Escaped {
    file: Arc<SourceFile>,
    range: Range<usize>,
    decoded: OnceLock<String>,
}

impl Text {
    /// The text of `file` at `range`, without copying it; `None` when
    /// `range` is not a slice of the text.
    pub fn in_file(file: &Arc<SourceFile>, range: Range<usize>) -> Option<Text> {
        file.text().get(range.clone())?;
        Some(Text(Repr::InFile {
            file: Arc::clone(file),
            range,
        }))
    }

    /// The string the JSON literal (quotes included) at `range` of `file`
    /// stands for, decoded when first read; `None` when it could fail to
    /// decode (a `\u` escape, which may be a lone surrogate) and must be
    /// decoded now, or when `range` is not a slice of the text. The literal
    /// must be one serde_json has read (every escape valid).
    pub fn escaped_in_file(file: &Arc<SourceFile>, range: Range<usize>) -> Option<Text> {
        if Text::has_u_escape(file.text().get(range.clone())?) {
            return None;
        }
        Some(Text(Repr::Escaped(Box::new(Escaped {
            file: Arc::clone(file),
            range,
            decoded: OnceLock::new(),
        }))))
    }

    /// Whether a JSON string literal may hold a `\u` escape (an escaped
    /// backslash before a `u` is taken for one too).
    pub(crate) fn has_u_escape(literal: &str) -> bool {
        static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\\u"));
        FINDER.find(literal.as_bytes()).is_some()
    }

    /// The text as a `str`.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Owned(text) => text,
            Repr::InFile { file, range } => file.text().get(range.clone()).unwrap_or_default(),
            Repr::Escaped(escaped) => escaped.decoded.get_or_init(|| {
                let literal = escaped.file.text().get(escaped.range.clone());
                literal
                    .and_then(|literal| serde_json::from_str(literal).ok())
                    .unwrap_or_default()
            }),
        }
    }

    /// The same text, owned: it no longer holds on to the file it was read from.
    pub fn detached(&self) -> Text {
        match &self.0 {
            Repr::Owned(text) => Text(Repr::Owned(text.clone())),
            Repr::InFile { .. } | Repr::Escaped(_) => Text(Repr::Owned(self.as_str().to_owned())),
        }
    }

    /// Whether the text is held by the file it was read from.
    #[cfg(any(test, feature = "testing"))]
    pub fn is_shared(&self) -> bool {
        !matches!(self.0, Repr::Owned(_))
    }

    /// The text as an owned `String` (a copy when it is shared).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Owned(text) => text,
            Repr::InFile { .. } | Repr::Escaped(_) => self.as_str().to_owned(),
        }
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text(Repr::Owned(text))
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text(Repr::Owned(text.to_owned()))
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl schemars::JsonSchema for Text {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        String::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_and_owned_text_read_and_compare_alike() {
        let file = SourceFile::new("t.json", r#"{"text":"héllo"}"#);
        let shared = Text::in_file(&file, 9..15);
        assert_eq!(shared.as_deref(), Some("héllo"));
        assert_eq!(shared, Some(Text::from("héllo")));
        assert_eq!(
            shared.map(|t| serde_json::to_string(&t).unwrap_or_default()),
            Some("\"héllo\"".to_owned())
        );
        // A literal with simple escapes is decoded when read; one with `\u`
        // (perhaps a lone surrogate) is not taken.
        let file = SourceFile::new("t.json", r#"{"text":"a\nb\"c","other":"\u00e9"}"#);
        let escaped = Text::escaped_in_file(&file, 8..17);
        assert_eq!(escaped.as_deref(), Some("a\nb\"c"));
        assert!(Text::escaped_in_file(&file, 26..35).is_none());
        let file = SourceFile::new("t.json", r#"{"text":"héllo"}"#);
        // Not a slice of the text: refused, never a panic later.
        assert!(Text::in_file(&file, 11..12).is_none());
        assert!(Text::in_file(&file, 10..99).is_none());
    }
}
