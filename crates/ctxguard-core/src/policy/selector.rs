//! Matching `order` selectors against commitment identities. A selector
//! names a whole kind or `kind:key` identities whose key may use `*`.

use crate::policy::ast::Selector;

impl Selector {
    pub fn matches(&self, kind: &str, key: &str) -> bool {
        match self {
            Selector::Kind(k) => k == kind,
            Selector::Identity {
                kind: k,
                key: pattern,
            } => k == kind && glob_match(pattern, key),
        }
    }

    /// Some commitment could match both selectors.
    pub fn overlaps(&self, other: &Selector) -> bool {
        match (self, other) {
            (Selector::Identity { kind: a, key: g }, Selector::Identity { kind: b, key: h }) => {
                a == b && globs_intersect(g.as_bytes(), h.as_bytes())
            }
            _ => self.kind() == other.kind(),
        }
    }

    /// Every commitment matching `other` also matches `self`.
    pub fn contains(&self, other: &Selector) -> bool {
        match (self, other) {
            (Selector::Kind(a), _) => a == other.kind(),
            (Selector::Identity { kind: a, key: g }, Selector::Kind(b)) => {
                a == b && g.chars().all(|c| c == '*')
            }
            (Selector::Identity { kind: a, key: g }, Selector::Identity { kind: b, key: h }) => {
                a == b
                    && (g == h
                        || g.chars().all(|c| c == '*')
                        || (!h.contains('*') && glob_match(g, h)))
            }
        }
    }
}

/// `*` matches any run of characters, including none; nothing else is special.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((star_pi, star_ti)) = star {
            pi = star_pi + 1;
            ti = star_ti + 1;
            star = Some((star_pi, star_ti + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// Whether two `*` globs match at least one common string. A key without
/// `*` is matched directly; two globs take time |a|·|b| and memory |b|, and
/// the linter keeps globs to [`MAX_GLOB`] characters.
fn globs_intersect(a: &[u8], b: &[u8]) -> bool {
    let literal = |s: &[u8]| !s.contains(&b'*');
    match (literal(a), literal(b)) {
        (true, true) => return a == b,
        (true, false) => return glob_match_bytes(b, a),
        (false, true) => return glob_match_bytes(a, b),
        (false, false) => {}
    }
    // next[j] / row[j]: a[i+1..] / a[i..] and b[j..] have a common match.
    let mut next = vec![false; b.len() + 1];
    let mut row = vec![false; b.len() + 1];
    for i in (0..=a.len()).rev() {
        for j in (0..=b.len()).rev() {
            row[j] = match (a.get(i), b.get(j)) {
                (None, None) => true,
                (Some(b'*'), _) if next[j] => true,
                (_, Some(b'*')) if row[j + 1] => true,
                (Some(b'*'), Some(_)) => row[j + 1],
                (Some(_), Some(b'*')) => next[j],
                (Some(x), Some(y)) => x == y && next[j + 1],
                _ => false,
            };
        }
        std::mem::swap(&mut next, &mut row);
    }
    next[0]
}

/// The longest `*` pattern an `order` selector may use.
pub const MAX_GLOB: usize = 256;

fn glob_match_bytes(pattern: &[u8], text: &[u8]) -> bool {
    match (std::str::from_utf8(pattern), std::str::from_utf8(text)) {
        (Ok(pattern), Ok(text)) => glob_match(pattern, text),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(kind: &str, key: &str) -> Selector {
        Selector::Identity {
            kind: kind.into(),
            key: key.into(),
        }
    }

    #[test]
    fn globs() {
        assert!(glob_match("*", ""));
        assert!(glob_match("tests-*", "tests-first"));
        assert!(glob_match("*-first", "tests-first"));
        assert!(!glob_match("tests-*", "lint-first"));
        assert!(glob_match("a*b*c", "aXbYc"));
        assert!(!glob_match("a*b*c", "aXbY"));
    }

    #[test]
    fn overlap_and_containment() {
        assert!(identity("d", "a*").overlaps(&identity("d", "*b")));
        assert!(!identity("d", "a*").overlaps(&identity("d", "b*")));
        assert!(!identity("d", "x").overlaps(&identity("e", "x")));
        assert!(Selector::Kind("d".into()).overlaps(&identity("d", "x")));
        assert!(Selector::Kind("d".into()).contains(&identity("d", "x")));
        assert!(identity("d", "*").contains(&Selector::Kind("d".into())));
        assert!(identity("d", "a*").contains(&identity("d", "ab")));
        assert!(!identity("d", "ab").contains(&identity("d", "a*")));
    }
}
