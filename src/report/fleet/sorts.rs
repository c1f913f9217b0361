//! The sorts of identifier a commitment names, as a fleet counts them:
//! what a summary keeps of paths, commands, numbers, names, URLs and
//! versions differs by sort.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use ctxguard_core::verify::text::Words;

/// A command in backquotes: a lower-case program name, then its arguments
/// (`cargo test --locked`, `npm run build`).
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"`(?:\$ )?[a-z][a-z0-9_.-]* [^`\n]+`").expect("the command pattern compiles")
});

/// A version: `v2`, `1.4.2`, `v0.142.0`, `2.1.42-beta`.
static VERSION: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"^(?:v\d+(?:\.\d+)*|\d+\.\d+\.\d+(?:[.-][0-9A-Za-z.]+)?)$")
        .expect("the version pattern compiles")
});

/// A file name: a stem and an extension of letters (`parser_v2.py`,
/// `README.md`, `.env`).
static FILE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it compiles.
    #[allow(clippy::expect_used)]
    Regex::new(r"^[A-Za-z0-9_~-]*\.[A-Za-z][A-Za-z0-9]{0,5}$").expect("the file pattern compiles")
});

/// The sorts of identifier `text` names, each once.
pub(super) fn sorts(text: &str) -> BTreeSet<&'static str> {
    let mut sorts = BTreeSet::new();
    if COMMAND.is_match(text) {
        sorts.insert("command");
    }
    for identifier in Words::of(text).identifiers {
        sorts.insert(sort(&identifier));
    }
    sorts
}

/// The sort of one identifier as [`Words`] finds it.
fn sort(identifier: &str) -> &'static str {
    if identifier.starts_with("http://") || identifier.starts_with("https://") {
        "url"
    } else if identifier.starts_with('-') {
        // An option: `--locked`, `-x`.
        "command"
    } else if VERSION.is_match(identifier) {
        "version"
    } else if identifier
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | ':' | '%'))
    {
        "number"
    } else if identifier.contains('/')
        || identifier.starts_with('~')
        || FILE_NAME.is_match(identifier)
    {
        "path"
    } else {
        "name"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sort_is_told_apart() {
        let sorted = |text: &str| sorts(text).into_iter().collect::<Vec<_>>();
        assert_eq!(sorted("keep src/legacy/parser_v2.py"), ["path"]);
        assert_eq!(sorted("edit README.md only"), ["path"]);
        assert_eq!(sorted("run `cargo test --locked` first"), ["command"]);
        assert_eq!(sorted("cap it at 8080 and 2.5%"), ["number"]);
        assert_eq!(sorted("pin version 2.1.42, then v3.1"), ["version"]);
        assert_eq!(sorted("see https://example.com/a?b"), ["url"]);
        assert_eq!(sorted("rename user_id to accountId"), ["name"]);
        assert!(sorted("do not drop columns").is_empty());
    }
}
