// The exact encodings' pre-tokenization patterns, and how the automaton
// that splits a text by them is built. build.rs `include!`s this file and
// builds each automaton into the binary ([`super::split`] reads it back);
// the tests build them again here to check the two agree.

/// `o200k_base`'s pre-tokenization, as bpe-openai 0.3 writes it.
pub const O200K_BASE: &str = concat!(
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|\\p{N}{1,3}",
    "| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
    "|\\s*[\\r\\n]+",
    "|\\s+$",
);

/// `cl100k_base`'s pre-tokenization, as bpe-openai 0.3 writes it.
pub const CL100K_BASE: &str = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$";

/// The splitter's patterns: the encoding's, then `\s+\s` whose last
/// character is only looked at (a run of spaces leaves its last one to the
/// next word, which the `regex` crate cannot say with a look-ahead), then
/// `\s+`.
pub fn splitter_patterns(pattern: &str) -> [&str; 3] {
    [pattern, "\\s+\\s", "\\s+"]
}

/// The splitter's automaton: a dense DFA of [`splitter_patterns`], to be
/// searched forward from where the last piece ended (anchored), with no
/// capture groups (a DFA reports none), minimized (a quarter smaller, and
/// half the time to check as the binary starts). `None` if it does not
/// compile.
pub fn build_splitter(pattern: &str) -> Option<regex_automata::dfa::dense::DFA<Vec<u32>>> {
    use regex_automata::dfa::{dense, StartKind};
    use regex_automata::nfa::thompson::{self, WhichCaptures};
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .minimize(true),
        )
        .thompson(thompson::Config::new().which_captures(WhichCaptures::None))
        .build_many(&splitter_patterns(pattern))
        .ok()
}
