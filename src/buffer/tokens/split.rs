//! An encoding's pre-tokenization: the text cut into the pieces it counts
//! apart, as bpe-openai cuts it, with a search cache the caller owns (a
//! shared cache would make threads counting at once wait on each other).

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};

/// The encoding's pattern, then `\s+\s` whose last character is only
/// looked at (a run of spaces leaves its last one to the next word, which
/// the `regex` crate cannot say with a look-ahead), then `\s+`.
pub(super) struct Splitter {
    regex: Regex,
}

/// The pattern whose match ends with a character that is not its own.
const LOOKAHEAD: usize = 1;

impl Splitter {
    /// The splitter of an encoding whose pattern is `pattern`, or `None`
    /// when it does not compile.
    pub(super) fn new(pattern: &str) -> Option<Splitter> {
        let regex = Regex::new_many(&[pattern, "\\s+\\s", "\\s+"]).ok()?;
        Some(Splitter { regex })
    }

    /// A search cache for [`Splitter::split`].
    pub(super) fn cache(&self) -> Cache {
        self.regex.create_cache()
    }

    /// The pieces of `text`, in order.
    pub(super) fn split<'t>(
        &'t self,
        cache: &'t mut Cache,
        text: &'t str,
    ) -> impl Iterator<Item = &'t str> + 't {
        let mut last = 0;
        std::iter::from_fn(move || {
            let rest = text.get(last..)?;
            let input = Input::new(rest).anchored(Anchored::Yes);
            let found = self.regex.search_with(cache, &input)?;
            let mut end = last + found.end();
            if found.pattern().as_usize() == LOOKAHEAD {
                end -= rest[..found.end()]
                    .chars()
                    .next_back()
                    .map_or(0, char::len_utf8);
            }
            // Every pattern takes a character; a piece never ends where it starts.
            let piece = text.get(last..end).filter(|piece| !piece.is_empty())?;
            last = end;
            Some(piece)
        })
    }
}
