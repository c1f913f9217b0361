//! One home per code: for each family, every code's explanation (what
//! `ctxguard explain` prints) and the constructors of its diagnostics
//! (message and help), side by side. Checks call the constructors and add
//! labels on their spans.

pub mod hook;
pub mod import;
pub mod input;
pub mod policy;
pub mod runtime;
pub(crate) mod verify;

use std::borrow::Cow;

/// Most characters of one value a message repeats: an id, a key, a word.
pub(crate) const MAX_ECHO: usize = 200;

/// A value from an input as a message repeats it: at most [`MAX_ECHO`]
/// characters (a 100 MB id is shown by its start), control characters
/// escaped (`\u{1b}`), so no input can write to the terminal through a
/// message.
pub fn echo(value: &str) -> Cow<'_, str> {
    crate::source::escaped(value, MAX_ECHO, "…", |_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_are_short_and_inert() {
        assert_eq!(echo("r1"), "r1");
        assert_eq!(echo("a\u{1b}[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(echo("\u{202E}x"), "\\u{202e}x");
        let long = "x".repeat(10 * MAX_ECHO);
        assert_eq!(echo(&long).chars().count(), MAX_ECHO + 1);
    }
}
