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
