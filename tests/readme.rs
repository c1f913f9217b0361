//! What the README and the docs show runs as they say: the example policy
//! is laid out as `ctxguard fmt` lays it out and passes `check`; the trace
//! and plan examples go together.

mod common;

use std::path::Path;

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
fn the_documented_trace_and_plan_go_together() {
    let readme = std::fs::read_to_string("docs/commands.md").expect("docs");
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

/// Every `ctxguard` command line of the shell examples of the README and
/// of `docs/` is one the command line accepts, run in a project of its own (the repository's
/// `tests/` and `policies/` linked in, a home of its own): none is refused
/// for its arguments, and each whose files are all there runs to a verdict
/// or a finding (exit 0, 1 or 3), not a usage error.
#[test]
fn every_documented_command_line_is_accepted() {
    let mut readme = std::fs::read_to_string("README.md").expect("README");
    let mut docs: Vec<_> = std::fs::read_dir("docs")
        .expect("docs")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    for doc in docs {
        readme.push_str(&std::fs::read_to_string(doc).expect("a doc"));
    }
    let project = tempfile::tempdir().expect("a project");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for linked in ["tests", "policies"] {
        std::os::unix::fs::symlink(root.join(linked), project.path().join(linked)).expect("link");
    }
    // A policy of the project's own, for the lines that check a folder.
    std::fs::copy(
        "crates/ctxguard-core/policies/default.policy",
        project.path().join("team.policy"),
    )
    .expect("a policy");
    let home = project.path().join("home");
    std::fs::create_dir(&home).expect("home");
    // A session's first prompt, for the `ledger` lines: it pins `no-drop`.
    let prompt = std::fs::read_to_string("tests/fixtures/hooks/claude-code/UserPromptSubmit.json")
        .expect("a prompt's payload")
        .replace("TRANSCRIPT", "transcript.jsonl")
        .replace(
            "\"/repo\"",
            &format!("{:?}", project.path().display().to_string()),
        );
    std::fs::write(project.path().join("transcript.jsonl"), "").expect("a transcript");
    Test::new()
        .args(&["hook", "claude-code", "UserPromptSubmit"])
        .current_dir(project.path())
        .stdin(prompt)
        .status(0)
        .run();
    let mut ran = 0;
    for block in blocks(&readme, "sh") {
        for line in block.lines() {
            let Some(words) = command_words(line) else {
                continue;
            };
            let args: Vec<&str> = words.iter().map(String::as_str).collect();
            let output = Test::new()
                .args(&args)
                .current_dir(project.path())
                .env("HOME", home.to_str().expect("a UTF-8 path"))
                .any_status()
                .run();
            ran += 1;
            assert!(
                !output.stderr.contains("Usage: ctxguard"),
                "README: `{line}` is refused for its arguments:\n{}",
                output.stderr
            );
            let files_there = words.iter().skip(1).all(|word| {
                !(word.contains('/') || word.ends_with(".jsonl") || word.ends_with(".json"))
                    || project.path().join(word).exists()
            });
            if files_there {
                assert!(
                    [0, 1, 3].contains(&output.status),
                    "README: `{line}` exits {}:\n{}",
                    output.status,
                    output.stderr
                );
            }
        }
    }
    assert!(
        ran >= 20,
        "only {ran} command lines found in the README and docs/"
    );
}

/// The words of a `ctxguard` command line, as the shell splits them,
/// without the command's name, its comment or a redirection; `None` for
/// any other line.
fn command_words(line: &str) -> Option<Vec<String>> {
    let words = shell_words::split(line.trim()).ok()?;
    if words.first().map(String::as_str) != Some("ctxguard") {
        return None;
    }
    let words: Vec<String> = words
        .into_iter()
        .skip(1)
        .take_while(|w| !w.starts_with('#') && !w.starts_with('>'))
        .collect();
    // `ctxguard --version` is the only line without a command.
    (!words.is_empty()).then_some(words)
}

/// `docs/commands.md` names every command `ctxguard --help` lists, every
/// command of those that have their own (`ledger pin`), and every long
/// option each one's `--help` shows: the reference cannot fall behind the
/// command line.
#[test]
fn the_command_reference_names_every_command_and_option() {
    let docs = std::fs::read_to_string("docs/commands.md").expect("docs");
    let commands = listed_commands(&help(&[]));
    assert!(commands.len() >= 12, "{commands:?}");
    let mut missing = Vec::new();
    let mut queue: Vec<Vec<String>> = commands.into_iter().map(|c| vec![c]).collect();
    while let Some(command) = queue.pop() {
        let named = format!("ctxguard {}", command.join(" "));
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        let text = help(&words);
        if command.len() == 1 && !docs.contains(&named) {
            missing.push(named.clone());
        }
        if command.len() > 1 && !docs.contains(command.last().map_or("", String::as_str)) {
            missing.push(named.clone());
        }
        for option in long_options(&text) {
            if !docs.contains(&option) {
                missing.push(format!("{named} {option}"));
            }
        }
        if command.len() == 1 {
            for sub in listed_commands(&text) {
                queue.push(vec![command[0].clone(), sub]);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/commands.md does not name: {missing:#?}"
    );
}

/// What `ctxguard ARGS --help` prints.
fn help(args: &[&str]) -> String {
    let mut with_help: Vec<&str> = args.to_vec();
    with_help.push("--help");
    Test::new().args(&with_help).status(0).run().stdout
}

/// The commands a `--help` lists under "Commands:", `help` left out.
fn listed_commands(help: &str) -> Vec<String> {
    let line = regex::Regex::new(r"^  ([a-z][a-z0-9-]*)\s").expect("a pattern");
    help.split("Commands:")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .map(|section| {
            section
                .lines()
                .filter_map(|l| line.captures(l).map(|c| c[1].to_owned()))
                .filter(|c| c != "help")
                .collect()
        })
        .unwrap_or_default()
}

/// The long options a `--help` shows, `--help` and `--version` left out.
fn long_options(help: &str) -> Vec<String> {
    let option =
        regex::Regex::new(r"(?m)^\s+(?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)").expect("a pattern");
    option
        .captures_iter(help)
        .map(|c| c[1].to_owned())
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}
