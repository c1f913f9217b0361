//! "Did you mean" suggestions for misspelled names.

/// The candidate closest to `word`, if one is close enough to be a typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if word.is_empty() {
        return None;
    }
    // Case aside: `precompaction` is a misspelling of `PreCompact`.
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .filter(|candidate| *candidate != word)
        .map(|candidate| {
            let folded = candidate.to_lowercase();
            (
                strsim::damerau_levenshtein(&lower, &folded),
                candidate,
                folded,
            )
        })
        .filter(|(distance, candidate, folded)| {
            *distance <= (candidate.chars().count() / 3).max(1)
                || folded.starts_with(&lower) && lower.len() >= 3
        })
        .map(|(distance, candidate, _)| (distance, candidate))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggests_close_names_only() {
        assert_eq!(
            did_you_mean("constrant", ["constraint", "decision"]),
            Some("constraint")
        );
        assert_eq!(
            did_you_mean("decisions", ["constraint", "decision"]),
            Some("decision")
        );
        assert_eq!(did_you_mean("banana", ["constraint", "decision"]), None);
        assert_eq!(did_you_mean("Kind", ["kind"]), Some("kind"));
        assert_eq!(
            did_you_mean("PreCompaction", ["PreCompact", "PostCompact"]),
            Some("PreCompact")
        );
    }
}
