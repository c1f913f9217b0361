//! A piece of a JSON trace read as it streams: the regions between two
//! cuts, each handed to the sink, and how the piece ends.

use super::*;

/// How a piece of a JSON trace ends ([`piece`]).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum PieceEnd {
    /// After a comma between two regions: the next piece goes on with the list.
    Between,
    /// At the end of the document.
    Finished,
}

/// What a piece of a JSON trace holds besides its regions.
#[derive(Debug)]
pub(crate) struct Piece {
    pub end: PieceEnd,
    /// The `version` as written, if this piece holds it.
    pub version: Option<String>,
}

/// JSON whitespace, as serde_json skips it.
pub(super) fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\t' | b'\r')
}

/// Where a piece is read: every value in it is read by serde_json, one at
/// a time; the cursor only steps over the document's own punctuation.
pub(super) struct Cursor<'a> {
    pub(super) text: &'a str,
    pub(super) at: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn spaces(&mut self) {
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
    pub(super) fn region(&mut self, into: &mut JsonRegion<'a>) -> Option<()> {
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
pub(crate) fn piece(
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
