//! `ctxguard check` on runtime configs: one fixture per code per runtime
//! (`tests/fixtures/configs/RUNTIME/CODE/`, each at its conventional place)
//! and the recommended set-up of each runtime, which passes clean; `--fix`;
//! `ctxguard-ignore`; and the real configs of the shared corpus when present.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{shared_corpus, Output, Test};
use serde_json::Value;

const FIXTURES: &str = "tests/fixtures/configs";

fn check_in(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend(args);
    Test::new().args(&all).current_dir(dir).any_status().run()
}

/// Each code a report names, with how often.
fn codes(output: &Output) -> BTreeMap<String, usize> {
    let mut found = BTreeMap::new();
    for code in output.stdout.split("ctxguard::").skip(1) {
        let name: String = code
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '-')
            .collect();
        *found.entry(name).or_default() += 1;
    }
    found
}

fn fixture_dirs() -> Vec<(String, String, PathBuf)> {
    let mut dirs = Vec::new();
    for runtime in std::fs::read_dir(FIXTURES).expect("fixtures").flatten() {
        for case in std::fs::read_dir(runtime.path()).expect("cases").flatten() {
            dirs.push((
                runtime.file_name().to_string_lossy().into_owned(),
                case.file_name().to_string_lossy().into_owned(),
                case.path(),
            ));
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn every_code_of_every_runtime_is_found_where_it_applies_and_nowhere_else() {
    let mut runtimes = std::collections::BTreeSet::new();
    for (runtime, case, dir) in fixture_dirs() {
        runtimes.insert(runtime.clone());
        let output = check_in(&dir, &["."]);
        if case == "clean" {
            assert_eq!(
                (output.status, output.stdout.as_str()),
                (0, ""),
                "{runtime}: the recommended set-up passes clean"
            );
            continue;
        }
        let found = codes(&output);
        assert!(
            found.contains_key(&case),
            "{runtime}/{case}: {found:?}\n{}",
            output.stdout
        );
        // Only what the fixture is about, except where one mistake is two
        // findings by nature (an observation window of 0 still masks).
        let others: Vec<&String> = found.keys().filter(|c| **c != case).collect();
        let expected_others: &[&str] = match (runtime.as_str(), case.as_str()) {
            ("swe-agent", "invalid-config") => &["truncating-compactor"],
            _ => &[],
        };
        assert_eq!(
            others.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
            expected_others,
            "{runtime}/{case}"
        );
        // An error fails the check; warnings alone do not.
        let errors = output
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with('×'));
        assert_eq!(output.status, i32::from(errors), "{runtime}/{case}");
        insta::assert_snapshot!(format!("config-{runtime}-{case}"), output.stdout);
    }
    assert_eq!(
        runtimes.into_iter().collect::<Vec<_>>(),
        [
            "claude-code",
            "codex",
            "gemini-cli",
            "openclaw",
            "openhands",
            "pi",
            "swe-agent"
        ]
    );
}

/// Copies a fixture folder into a temporary one.
fn copy_of(from: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("dir");
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("dir");
        for entry in std::fs::read_dir(from).expect("read").flatten() {
            let target = to.join(entry.file_name());
            if entry.path().is_dir() {
                copy(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), target).expect("copied");
            }
        }
    }
    copy(from, dir.path());
    dir
}

#[test]
fn fix_converts_timeouts_and_merges_the_guard_keeping_the_rest() {
    let dir = copy_of(Path::new(
        "tests/fixtures/configs/claude-code/hook-timeout-units",
    ));
    let path = dir.path().join(".claude/settings.json");
    let before = std::fs::read_to_string(&path).expect("read");
    let dry = check_in(dir.path(), &["--fix", "--dry-run", "."]);
    assert!(
        dry.stdout
            .contains("-            \"timeout\": 60000\n+            \"timeout\": 60\n"),
        "{}",
        dry.stdout
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        before,
        "--dry-run writes nothing"
    );
    let fixed = check_in(dir.path(), &["--fix", "."]);
    assert_eq!(fixed.status, 0, "{}", fixed.stdout);
    assert!(
        fixed
            .stdout
            .contains("fixed ./.claude/settings.json: 1 hook timeout in the runtime's unit"),
        "{}",
        fixed.stdout
    );
    let after = std::fs::read_to_string(&path).expect("read");
    assert_eq!(
        after,
        before.replace("\"timeout\": 60000", "\"timeout\": 60"),
        "only the value changes"
    );
    assert_eq!(
        check_in(dir.path(), &["."]).stdout,
        "",
        "fixed, then checked: nothing left"
    );

    // Gemini CLI counts milliseconds.
    let dir = copy_of(Path::new(
        "tests/fixtures/configs/gemini-cli/hook-timeout-units",
    ));
    check_in(dir.path(), &["--fix", "."]);
    let after = std::fs::read_to_string(dir.path().join(".gemini/settings.json")).expect("read");
    assert!(after.contains("\"timeout\": 30000"), "{after}");
    assert_eq!(check_in(dir.path(), &["."]).stdout, "");
}

#[test]
fn fix_merges_the_guard_that_init_installs() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
    let path = dir.path().join(".claude/settings.json");
    std::fs::write(&path, "{\n  \"model\": \"opus\"\n}\n").expect("written");
    let output = check_in(dir.path(), &["--fix", "."]);
    assert!(
        output.stdout.contains("ctxguard's hooks merged in"),
        "{}",
        output.stdout
    );
    let after = std::fs::read_to_string(&path).expect("read");
    assert!(after.starts_with("{\n  \"model\": \"opus\","), "{after}");
    assert!(!after.contains("PostCompact"), "no version known: {after}");
    assert_eq!(check_in(dir.path(), &["."]).stdout, "");
    // For a version that has PostCompact, the fix adds it.
    let output = check_in(dir.path(), &["--claude-version", "2.1.332", "--fix", "."]);
    assert!(
        output.stdout.contains("ctxguard's hooks merged in"),
        "{}",
        output.stdout
    );
    let after = std::fs::read_to_string(&path).expect("read");
    assert!(
        after.contains("hook claude-code PostCompact --claude-version 2.1.332"),
        "{after}"
    );
}

/// The messages of `check --format json ARGS` in `dir`.
fn messages(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["--format", "json"];
    all.extend(args);
    let output = check_in(dir, &all);
    let report: serde_json::Value = serde_json::from_str(&output.stdout).expect("JSON");
    report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn claude_code_settings_are_checked_as_the_real_client_reads_them() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
    let path = dir.path().join(".claude/settings.json");
    let write = |text: &str| std::fs::write(&path, text).expect("written");
    // Strict JSON: one comment and the whole file is not loaded.
    write("{\n  // ours\n  \"model\": \"opus\"\n}\n");
    let output = check_in(dir.path(), &["."]);
    assert_eq!(output.status, 1);
    assert!(
        output.stdout.contains("Claude Code does not load"),
        "{}",
        output.stdout
    );
    assert_eq!(codes(&output).get("invalid-config"), Some(&1));
    write("{\"model\": \"opus\",}\n");
    let output = check_in(dir.path(), &["."]);
    assert_eq!(
        codes(&output).get("invalid-config"),
        Some(&1),
        "{}",
        output.stdout
    );
    // PostCompact is 2.1.76's; 2.0.76 then runs no hook of the file.
    let init = Test::new()
        .args(&["init", "claude-code", "--claude-version", "2.1.332"])
        .current_dir(dir.path());
    std::fs::remove_file(&path).expect("removed");
    init.status(0).run();
    assert_eq!(
        messages(dir.path(), &["--claude-version", "2.0.76", "."]),
        ["Claude Code 2.0.76 does not know the hook event `PostCompact` (it came in 2.1.76): Claude Code 2.0.76 runs no hook of this file, saying nothing"]
    );
    assert_eq!(
        check_in(dir.path(), &["--claude-version", "2.1.332", "."]).stdout,
        ""
    );
    // An event no version knows, with no near name: still said.
    let text = std::fs::read_to_string(&path).expect("read");
    write(&text.replacen(
        "\"hooks\": {",
        "\"hooks\": {\n    \"OnCompactDone\": [],",
        1,
    ));
    assert_eq!(
        messages(dir.path(), &["--claude-version", "2.1.332", "."]),
        ["Claude Code has no hook event `OnCompactDone`: this entry's hooks never run"]
    );
    assert_eq!(
        messages(dir.path(), &["--claude-version", "2.1.100", "."]),
        ["Claude Code has no hook event `OnCompactDone`: Claude Code 2.1.100 runs no hook of this file, saying nothing"]
    );
}

/// For every runtime `init` guards: what it writes checks clean (pi: its
/// compaction settings, with the extension `init pi` writes beside them).
#[test]
fn what_init_writes_passes_the_check() {
    for (runtime, checked) in [
        ("claude-code", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
        ("pi", ".pi/settings.json"),
        ("gemini-cli", ".gemini/settings.json"),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        if runtime == "pi" {
            std::fs::create_dir_all(dir.path().join(".pi")).expect("dir");
            std::fs::write(
                dir.path().join(checked),
                "{\"compaction\": {\"enabled\": true}}\n",
            )
            .expect("written");
        }
        Test::new()
            .args(&["init", runtime])
            .current_dir(dir.path())
            .status(0)
            .run();
        let output = check_in(dir.path(), &[checked]);
        assert_eq!(
            (output.status, output.stdout.as_str()),
            (0, ""),
            "{runtime}"
        );
    }
}

/// Codex's `hooks.json` and Gemini CLI's `settings.json`: an unguarded
/// one is named, and `check --fix` merges the hooks `init` writes (another
/// tool's kept).
#[test]
fn codex_and_gemini_hooks_are_checked_and_the_guard_merged() {
    for (folder, file, event, ours) in [
        (
            ".codex",
            "hooks.json",
            "Stop",
            "ctxguard hook codex PostCompact",
        ),
        (
            ".gemini",
            "settings.json",
            "AfterAgent",
            "ctxguard hook gemini-cli BeforeModel",
        ),
    ] {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join(folder)).expect("dir");
        let path = dir.path().join(folder).join(file);
        std::fs::write(
            &path,
            format!("{{\n  \"hooks\": {{\n    \"{event}\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"./notify.sh\"}}]}}]\n  }}\n}}\n"),
        )
        .expect("written");
        let found = codes(&check_in(dir.path(), &["."]));
        assert_eq!(
            found.get("unguarded-compaction"),
            Some(&1),
            "{folder}: {found:?}"
        );
        let output = check_in(dir.path(), &["--fix", "."]);
        assert!(
            output.stdout.contains("ctxguard's hooks merged in"),
            "{}",
            output.stdout
        );
        let after = std::fs::read_to_string(&path).expect("read");
        assert!(
            after.contains("./notify.sh") && after.contains(ours),
            "{after}"
        );
        assert_eq!(check_in(dir.path(), &["."]).stdout, "", "{folder}");
    }
}

/// The pi fixtures that stand for a guarded set-up hold the extension as
/// `init pi` writes it: each is a link to `crates/ctxguard-runtimes/plugins/pi/ctxguard.ts`.
#[test]
fn the_pi_fixtures_hold_the_extension_as_init_writes_it() {
    let extension = std::fs::read_to_string("crates/ctxguard-runtimes/plugins/pi/ctxguard.ts")
        .expect("the extension");
    for case in [
        "clean",
        "invalid-config",
        "unknown-config-key",
        "window-exceeds-policy",
    ] {
        let path = format!("{FIXTURES}/pi/{case}/.pi/extensions/ctxguard.ts");
        assert_eq!(
            std::fs::read_to_string(&path).expect("a copy"),
            extension,
            "{path}"
        );
    }
}

#[test]
fn the_guard_may_stand_in_either_settings_file_of_a_project() {
    let dir = tempfile::tempdir().expect("dir");
    Test::new()
        .args(&["init", "claude-code", "--local"])
        .current_dir(dir.path())
        .status(0)
        .run();
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        "{\"model\": \"opus\"}\n",
    )
    .expect("written");
    assert_eq!(
        check_in(dir.path(), &["."]).stdout,
        "",
        "hooks merge across the files"
    );
    std::fs::write(dir.path().join(".claude/settings.local.json"), "{}\n").expect("written");
    let output = check_in(dir.path(), &["."]);
    assert_eq!(
        codes(&output).get("unguarded-compaction"),
        Some(&1),
        "said once, of the shared file"
    );
    assert!(
        output.stdout.contains("settings.json:1:1"),
        "{}",
        output.stdout
    );
}

#[test]
fn ignores_silence_warnings_never_errors() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("run.yaml"),
        "agent:\n  history_processors:\n    # ctxguard-ignore truncating-compactor: old test logs only\n    - type: last_n_observations\n      n: 5\n",
    )
    .expect("written");
    assert_eq!(check_in(dir.path(), &["run.yaml"]).stdout, "");
    std::fs::write(
        dir.path().join("config.toml"),
        "[condenser]\n# ctxguard-ignore truncating-compactor: we like it\ntype = \"recent\"\n",
    )
    .expect("written");
    let output = check_in(dir.path(), &["config.toml"]);
    assert!(
        output.stdout.contains("ctxguard::truncating-compactor"),
        "an error stays"
    );
    // Plain JSON has no comments: a `.ctxguard-ignore` beside it.
    let claude = copy_of(Path::new(
        "tests/fixtures/configs/claude-code/hook-timeout-units",
    ));
    std::fs::write(
        claude.path().join(".claude/.ctxguard-ignore"),
        "# file code: reason\nsettings.json hook-timeout-units: the snapshot takes minutes\n",
    )
    .expect("written");
    assert_eq!(check_in(claude.path(), &["."]).stdout, "");
}

#[test]
fn a_file_is_recognized_by_content_or_named_by_runtime() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("team-settings.json"),
        "{\"hooks\": {\"PreCompaction\": []}}\n",
    )
    .expect("written");
    let output = check_in(dir.path(), &["team-settings.json"]);
    assert!(
        codes(&output).contains_key("unknown-hook-event"),
        "{}",
        output.stdout
    );
    std::fs::write(
        dir.path().join("agent.json"),
        "{\"compaction\": {\"keepRecentToken\": 1}}\n",
    )
    .expect("written");
    let output = check_in(dir.path(), &["--runtime", "pi", "agent.json"]);
    assert!(
        codes(&output).contains_key("unknown-config-key"),
        "{}",
        output.stdout
    );
}

#[test]
fn config_findings_in_json_and_sarif_carry_their_place() {
    let dir = Path::new("tests/fixtures/configs/claude-code/hook-timeout-units");
    let output = check_in(dir, &["--format", "json", "."]);
    let report: Value = serde_json::from_str(&output.stdout).expect("JSON");
    let finding = &report["diagnostics"][0];
    assert_eq!(finding["code"], "hook-timeout-units");
    assert_eq!(finding["file"], "./.claude/settings.json");
    assert!(finding["line"].as_u64().is_some_and(|l| l > 1));
    let output = check_in(dir, &["--format", "sarif", "."]);
    let sarif: Value = serde_json::from_str(&output.stdout).expect("SARIF");
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert!(
        region["startLine"].as_u64().is_some_and(|l| l > 1),
        "{region}"
    );
}

#[test]
fn the_team_policy_is_what_configs_are_checked_against() {
    let dir = copy_of(Path::new("tests/fixtures/configs/claude-code/clean"));
    // autoCompactWindow 120000 fits the default window (128000), not a tighter one.
    std::fs::write(
        dir.path().join("team.policy"),
        "extends default\nbudget window 100000\n",
    )
    .expect("written");
    let output = check_in(dir.path(), &["."]);
    assert!(
        codes(&output).contains_key("window-exceeds-policy"),
        "{}",
        output.stdout
    );
    assert!(output.stdout.contains("the policy's window is 100000"));
}

#[test]
fn the_real_runtime_configs() {
    /// A corpus folder, its config, and the findings it deserves.
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, usize)]);
    let cases: [Case; 4] = [
        (
            "real/config-claude-postcompact-canvas",
            "settings.json",
            &[("hook-timeout-units", 11), ("unguarded-compaction", 1)],
        ),
        (
            "real/config-claude-precompact-amplifier",
            "settings.json",
            &[("hook-timeout-units", 2), ("unguarded-compaction", 1)],
        ),
        (
            "real/config-openhands-condenser",
            "config.template.toml",
            &[("truncating-compactor", 1)],
        ),
        (
            "real/config-swe-agent-history-processors",
            "07_fcalling.yaml",
            &[("truncating-compactor", 1)],
        ),
    ];
    for (name, file, expected) in cases {
        let Some(dir) = shared_corpus(name, "the real runtime config") else {
            continue;
        };
        // Claude Code reads `.claude/settings.json`: the copy stands there.
        let work = tempfile::tempdir().expect("dir");
        let target = if file == "settings.json" {
            std::fs::create_dir_all(work.path().join(".claude")).expect("dir");
            work.path().join(".claude").join(file)
        } else {
            work.path().join(file)
        };
        std::fs::copy(dir.join(file), &target).expect("copied");
        let output = check_in(work.path(), &["."]);
        let expected: BTreeMap<String, usize> =
            expected.iter().map(|(c, n)| (c.to_string(), *n)).collect();
        assert_eq!(codes(&output), expected, "{name}:\n{}", output.stdout);
        eprintln!("--- {name} ---\n{}", output.stdout);
        // Fixing, then checking, leaves nothing fixable.
        if file == "settings.json" {
            check_in(work.path(), &["--fix", "."]);
            let after = check_in(work.path(), &["."]);
            assert_eq!(after.stdout, "", "{name} after --fix");
        }
    }
}

/// OpenClaw 2026.9.6 refuses a config that names a compaction key it does
/// not know, and so every key earlier releases read and it retired: each
/// is an error, with what `openclaw doctor --fix` does about it; `custom`
/// is no identifier policy any more. (`tests/runtimes` runs OpenClaw's own
/// validation on the same file.)
#[test]
fn openclaw_keys_it_retired_are_refused_with_what_its_doctor_does() {
    let output = check_in(Path::new("tests/fixtures/openclaw-retired"), &["."]);
    assert_eq!(output.status, 1, "{}", output.stdout);
    let expected: BTreeMap<String, usize> = [("invalid-config", 1), ("unknown-config-key", 4)]
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    assert_eq!(codes(&output), expected, "{}", output.stdout);
    let text = output.stdout.replace("\n  │ ", " ").replace("\n  ", " ");
    for said in [
        "OpenClaw has no setting `compaction.truncateAfterCompaction`",
        "OpenClaw retired it: `openclaw doctor --fix` removes it",
        "OpenClaw retired custom identifier instructions",
        "OpenClaw retired custom compaction instructions",
        "`openclaw config validate` names every key OpenClaw refuses",
        "`compaction.identifierPolicy` must be `\"strict\"` or `\"off\"`, not `custom`",
    ] {
        assert!(text.contains(said), "{said:?} in:\n{}", output.stdout);
    }
}
