//! Hint patterns: `/body/flags`, compiled with the `regex` crate, which
//! matches in linear time, so a hostile trace cannot stall a hint.

use std::ops::Range;

use regex::{Regex, RegexBuilder};

/// Why a hint does not compile, with the byte range inside `/body/flags`
/// (relative to the start of the body) that is at fault.
#[derive(Debug)]
pub struct PatternError {
    pub message: String,
    pub range: Range<usize>,
    pub help: String,
}

const FLAGS_HELP: &str =
    "flags are `i` (ignore case), `m` (multi-line), `s` (`.` matches newline), `x` (verbose) and `U` (lazy); hints match anywhere in the text, so `g` is not needed";

/// The most hints a policy, with everything it extends, may have: each
/// compiles to at most 1 MiB and matches with a cache of at most
/// [`DFA_LIMIT`], so hints never hold more than a bounded amount of memory.
pub const MAX_HINTS: usize = 256;

/// The lazy DFA cache of one hint.
pub(crate) const DFA_LIMIT: usize = 512 << 10;

/// The compiled size of one hint.
pub(crate) const SIZE_LIMIT: usize = 1 << 20;

/// Compiles a hint. `flags_offset` is where the flags start, relative to the body.
pub fn compile(body: &str, flags: &str, flags_offset: usize) -> Result<Regex, PatternError> {
    let mut builder = RegexBuilder::new(body);
    let mut ignore_whitespace = false;
    for (i, flag) in flags.char_indices() {
        match flag {
            'i' => builder.case_insensitive(true),
            'm' => builder.multi_line(true),
            's' => builder.dot_matches_new_line(true),
            'U' => builder.swap_greed(true),
            'x' => {
                ignore_whitespace = true;
                builder.ignore_whitespace(true)
            }
            other => {
                return Err(PatternError {
                    message: format!("unknown flag `{other}`"),
                    range: flags_offset + i..flags_offset + i + other.len_utf8(),
                    help: FLAGS_HELP.to_owned(),
                })
            }
        };
    }

    // regex-syntax knows where a pattern goes wrong; the regex crate only says that it does.
    let mut parser = regex_syntax::ast::parse::ParserBuilder::new()
        .ignore_whitespace(ignore_whitespace)
        .build();
    if let Err(error) = parser.parse(body) {
        let span = error.span();
        return Err(PatternError {
            message: error.kind().to_string(),
            range: span.start.offset..span.end.offset.max(span.start.offset + 1).min(body.len()),
            help: pattern_help(error.kind()),
        });
    }
    builder
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(DFA_LIMIT)
        .build()
        .map_err(|error| PatternError {
            message: match error {
                regex::Error::CompiledTooBig(_) => {
                    "the pattern compiles to more than 1 MiB".to_owned()
                }
                other => other
                    .to_string()
                    .lines()
                    .last()
                    .unwrap_or_default()
                    .trim()
                    .to_owned(),
            },
            range: 0..body.len(),
            help: "simplify the pattern: hints are quick classifiers, not parsers".to_owned(),
        })
}

fn pattern_help(kind: &regex_syntax::ast::ErrorKind) -> String {
    use regex_syntax::ast::ErrorKind::*;
    match kind {
        GroupUnclosed | GroupUnopened => "balance the parentheses, or escape a literal one as `\\(` or `\\)`".to_owned(),
        ClassUnclosed => "close the class with `]`, or escape a literal bracket as `\\[`".to_owned(),
        RepetitionMissing => "a repetition needs something to repeat; escape a literal `*`, `+` or `?` with `\\`".to_owned(),
        UnsupportedLookAround => "look-around is not supported (it can take exponential time); match the text itself instead".to_owned(),
        UnsupportedBackreference => "backreferences are not supported (they can take exponential time)".to_owned(),
        EscapeUnrecognized => "remove the `\\`, or escape a character that needs it".to_owned(),
        _ => "hints use Rust `regex` syntax; escape special characters with `\\`".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn flags_and_escaped_slashes() {
        let regex = compile(r"\bdo not\b", "i", 10)
            .map_err(|e| e.message)
            .unwrap();
        assert!(regex.is_match("Do NOT drop columns"));
        let path = compile(r"[\w.-]+\/[\w.\/-]+", "", 17)
            .map_err(|e| e.message)
            .unwrap();
        assert!(path.is_match("src/legacy/parser_v2.py"));
    }

    #[test]
    fn errors_point_inside_the_pattern() {
        let error = compile("ab(c", "", 4).err().map(|e| e.range);
        assert_eq!(error, Some(2..3));
        let error = compile("abc", "ig", 3).err().map(|e| e.range);
        assert_eq!(error, Some(4..5));
        assert!(compile("(?=x)", "", 5).is_err());
    }
}
