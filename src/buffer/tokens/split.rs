//! An encoding's pre-tokenization: the text cut into the pieces it counts
//! apart, as bpe-openai cuts it, with a search cache the caller owns (a
//! shared cache would make threads counting at once wait on each other).
//! Each piece is found by an anchored search forward from where the last
//! ended, so a lazy DFA built from the forward automaton alone is all it
//! takes: half the start-up of a full regex (which also builds what it
//! needs to search backwards and for literals).

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Anchored, Input};

/// The encoding's pattern, then `\s+\s` whose last character is only
/// looked at (a run of spaces leaves its last one to the next word, which
/// the `regex` crate cannot say with a look-ahead), then `\s+`.
pub(super) struct Splitter {
    dfa: DFA,
}

/// The pattern whose match ends with a character that is not its own.
const LOOKAHEAD: usize = 1;

impl Splitter {
    /// The splitter of an encoding whose pattern is `pattern`, or `None`
    /// when it does not compile.
    pub(super) fn new(pattern: &str) -> Option<Splitter> {
        let dfa = DFA::new_many(&[pattern, "\\s+\\s", "\\s+"]).ok()?;
        Some(Splitter { dfa })
    }

    /// A search cache for [`Splitter::split`].
    pub(super) fn cache(&self) -> Cache {
        self.dfa.create_cache()
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
            // The lazy DFA never gives up (its cache is only cleared and
            // filled again); an error would end the pieces, as no match does.
            let found = self.dfa.try_search_fwd(cache, &input).ok()??;
            let mut end = last + found.offset();
            if found.pattern().as_usize() == LOOKAHEAD {
                end -= rest[..found.offset()]
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
