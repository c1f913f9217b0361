use super::hanging;

#[test]
fn a_lead_wider_than_the_width_has_a_line_of_its_own() {
    let lead = format!("{}: ", "/a/long/path".repeat(8));
    let shown = hanging(&lead, "compaction 1 (line 360, pi): verdict reject", 2, 80);
    assert_eq!(
        shown,
        format!(
            "{}\n  compaction 1 (line 360, pi): verdict reject",
            lead.trim_end()
        )
    );
    assert_eq!(
        hanging("verdict: ", "compact (0 errors and 0 warnings); 14 tokens before, 14 after of a 128000-token window", 9, 80),
        "verdict: compact (0 errors and 0 warnings); 14 tokens before, 14 after of a\n         128000-token window"
    );
}

/// A first word wider than the line under the indent (a long path quoted
/// at the start of a commitment) stays whole after the lead: it once had
/// the lead put on a line of its own again and again, until the stack ran
/// out, on a real pi session.
#[test]
fn a_first_word_wider_than_the_line_stays_whole() {
    let word = "@packages/coding-agent/src/tui/tui-renderer.ts";
    let shown = hanging("  paraphrased line 2  ", &format!("{word} in full"), 14, 40);
    assert_eq!(
        shown,
        format!("  paraphrased line 2\n              {word}\n              in full")
    );
    let shown = hanging("  lost  ", &format!("{word} in full"), 8, 40);
    assert_eq!(shown, format!("  lost  {word}\n        in full"));
}

#[test]
fn lines_still_not_carried_are_each_listed_once_with_their_count() {
    let lines = |l: &[&str]| {
        super::sessions::lines_listed(&l.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    };
    assert_eq!(lines(&["15"]), "line 15");
    assert_eq!(lines(&["25", "25"]), "line 25 (2)");
    assert_eq!(
        lines(&["15", "25", "25", "43", "c7"]),
        "lines 15, 25 (2), 43, c7"
    );
}
