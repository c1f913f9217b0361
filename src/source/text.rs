//! A region's text as the model holds it: shared with the file it was read
//! from when it is written there as it reads (a JSON string without
//! escapes, most of a trace), owned otherwise. A trace's narrative is then
//! in memory once, as the file, not twice.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

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

    /// The text as a `str`.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Owned(text) => text,
            Repr::InFile { file, range } => file.text().get(range.clone()).unwrap_or_default(),
        }
    }

    /// The same text, owned: it no longer holds on to the file it was read from.
    pub fn detached(&self) -> Text {
        match &self.0 {
            Repr::Owned(text) => Text(Repr::Owned(text.clone())),
            Repr::InFile { .. } => Text(Repr::Owned(self.as_str().to_owned())),
        }
    }

    /// The text as an owned `String` (a copy when it is shared).
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Owned(text) => text,
            Repr::InFile { .. } => self.as_str().to_owned(),
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
        // Not a slice of the text: refused, never a panic later.
        assert!(Text::in_file(&file, 11..12).is_none());
        assert!(Text::in_file(&file, 10..99).is_none());
    }
}
