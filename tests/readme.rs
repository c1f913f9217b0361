//! What the README and the docs show runs as they say: the example policy
//! is laid out as `ctxguard fmt` lays it out and passes `check`; the trace
//! and plan examples go together.

mod common;

use common::Test;

/// The code blocks of `markdown` fenced with `fence` (`yaml`, or `` for a
/// bare fence), in order.
fn blocks(markdown: &str, fence: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) if info.trim() == fence => current = Some(String::new()),
            (Some(block), Some("")) => {
                found.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    found
}

#[test]
fn the_documented_policy_is_formatted_and_valid() {
    let docs = std::fs::read_to_string("docs/policy.md").expect("docs");
    let policy = blocks(&docs, "")
        .into_iter()
        .next()
        .expect("an example policy");
    Test::new()
        .args(&["fmt", "--check", "team.policy"])
        .write("team.policy", &policy)
        .status(0)
        .run();
    Test::new()
        .args(&["check", "team.policy"])
        .write("team.policy", &policy)
        .status(0)
        .run();
}

#[test]
fn the_readme_trace_and_plan_go_together() {
    let readme = std::fs::read_to_string("README.md").expect("README");
    let section = readme
        .split("## Traces and plans")
        .nth(1)
        .expect("the section");
    let yaml = blocks(section, "yaml");
    let output = Test::new()
        .args(&["verify", "--trace", "trace.yaml", "--plan", "plan.yaml"])
        .write("trace.yaml", &yaml[0])
        .write("plan.yaml", &yaml[1])
        .any_status()
        .run();
    assert!(
        !output.stdout.contains("unknown-region"),
        "{}",
        output.stdout
    );
    assert_eq!(output.status, 0, "{}", output.stdout);
}
