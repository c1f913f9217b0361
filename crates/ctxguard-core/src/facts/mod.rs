//! The runtimes ctxguard knows ([`Runtime`]), and what each version of one
//! really does, as measured by driving the real clients (`tests/runtimes`):
//! which hook events a version knows, what it does with a settings file it
//! cannot fully read, which hooks can refuse a compaction. Pure data: the
//! config lint, `init` and the hooks all read it, so they cannot disagree.

pub mod claude_code;
mod runtime;

pub use runtime::Runtime;

/// A dotted version number (`2.1.105`), compared part by part.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(Vec<u64>);

impl Version {
    /// Reads `2.1.105`, `v2.1.105`, `2.1.105 (Claude Code)` or
    /// `2.1.105-beta`: the leading dotted numbers. `None` when it starts
    /// with none.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim().trim_start_matches('v');
        let parts: Vec<u64> = text
            .split(|c: char| !c.is_ascii_digit() && c != '.')
            .next()?
            .split('.')
            .map_while(|part| part.parse().ok())
            .collect();
        (!parts.is_empty()).then_some(Version(parts))
    }

    /// Whether this is `other` or later.
    pub fn at_least(&self, other: &str) -> bool {
        Version::parse(other).is_none_or(|other| *self >= other)
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn versions_compare_by_their_numbers() {
        let v = |t| Version::parse(t).unwrap();
        assert!(v("2.1.105") > v("2.1.76"));
        assert!(v("2.10.0") > v("2.9.99"));
        assert_eq!(v("2.1.332 (Claude Code)"), v("2.1.332"));
        assert_eq!(v("v0.73.1"), v("0.73.1"));
        assert_eq!(v("2.1.105-beta.1"), v("2.1.105"));
        assert!(Version::parse("claude").is_none());
        assert!(v("2.1.105").at_least("2.1.105"));
        assert!(!v("2.1.104").at_least("2.1.105"));
    }
}
