//! An encoding's pre-tokenization: the text cut into the pieces it counts
//! apart, as bpe-openai cuts it. Each piece is found by an anchored search
//! forward from where the last ended, so a DFA of the forward automaton
//! alone is all it takes; build.rs builds it (a minimized dense DFA, under
//! a second an encoding) and the binary carries it, so start-up only
//! checks it is well formed (building it, or even a lazy DFA's automaton,
//! would be most of a small run's start-up). A dense DFA needs no search
//! cache: threads counting at once share it.

use regex_automata::dfa::{dense::DFA, Automaton};
use regex_automata::{Anchored, Input};

/// The patterns of `splitter_patterns` (`patterns.rs`), as one dense
/// DFA that build.rs built into the binary: nothing to build at start-up.
pub(super) struct Splitter {
    dfa: DFA<&'static [u32]>,
}

/// The pattern whose match ends with a character that is not its own.
const LOOKAHEAD: usize = 1;

/// An automaton's bytes as build.rs wrote them, aligned as a DFA reads them.
#[repr(C)]
pub(super) struct Aligned<B: ?Sized> {
    pub _align: [u32; 0],
    pub bytes: B,
}

impl Splitter {
    /// The splitter whose automaton build.rs wrote as `bytes`, or `None`
    /// when they do not read as one (built for another byte order): then
    /// bpe-openai's own encoding splits and counts.
    pub(super) fn new(bytes: &'static Aligned<[u8]>) -> Option<Splitter> {
        let (dfa, _) = DFA::from_bytes(&bytes.bytes).ok()?;
        (dfa.pattern_len() == 3).then_some(Splitter { dfa })
    }

    /// The pieces of `text`, in order.
    pub(super) fn split<'t>(&'t self, text: &'t str) -> impl Iterator<Item = &'t str> + 't {
        let mut last = 0;
        std::iter::from_fn(move || {
            let rest = text.get(last..)?;
            let input = Input::new(rest).anchored(Anchored::Yes);
            // A dense DFA without Unicode word boundaries never gives up;
            // an error would end the pieces, as no match does.
            let found = self.dfa.try_search_fwd(&input).ok()??;
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
