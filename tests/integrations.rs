//! The pre-commit hooks and the GitHub Action, run here as their hosts
//! would run them: each hook's `entry` with the matching file names of a
//! sample repository, and the action's run step with bash; and the Claude
//! Code plugin's files, against what ctxguard writes (the real client
//! installs and runs the plugin in `tests/runtimes`).

use std::path::Path;
use std::process::Command;

#[derive(serde::Deserialize)]
struct Hook {
    id: String,
    entry: String,
    files: String,
    language: String,
}

fn sample_repository(dir: &Path, broken: bool) {
    std::fs::create_dir_all(dir.join("policies")).expect("mkdir");
    std::fs::write(
        dir.join("policies/team.policy"),
        "policy team\nextends default\nbudget window 64000\n",
    )
    .expect("write");
    std::fs::write(dir.join("README.md"), "not a policy\n").expect("write");
    if broken {
        std::fs::write(
            dir.join("policies/broken.policy"),
            "kind   a\norder a before b\n",
        )
        .expect("write");
    }
}

/// What pre-commit does: the entry's words, then every staged file whose
/// path matches `files`.
fn run_hook(hook: &Hook, dir: &Path) -> i32 {
    let files = regex::Regex::new(&hook.files).expect("the hook's files pattern compiles");
    let mut matched: Vec<String> = [
        "policies/team.policy",
        "policies/broken.policy",
        "README.md",
    ]
    .iter()
    .filter(|path| dir.join(path).exists() && files.is_match(path))
    .map(|path| path.to_string())
    .collect();
    matched.sort();
    let mut words = hook.entry.split_whitespace();
    assert_eq!(
        words.next(),
        Some("ctxguard"),
        "{}: the entry runs ctxguard",
        hook.id
    );
    Command::new(env!("CARGO_BIN_EXE_ctxguard"))
        .args(words)
        .args(&matched)
        .current_dir(dir)
        .output()
        .expect("the hook runs")
        .status
        .code()
        .unwrap_or(-1)
}

#[test]
fn pre_commit_hooks_run_the_right_commands() {
    let hooks: Vec<Hook> = serde_yaml::from_str(include_str!("../.pre-commit-hooks.yaml"))
        .expect("the hooks file parses");
    let ids: Vec<&str> = hooks.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["ctxguard-check", "ctxguard-fmt"]);
    for hook in &hooks {
        assert_eq!(
            hook.language, "rust",
            "{}: pre-commit builds it with cargo",
            hook.id
        );
        let clean = tempfile::tempdir().expect("temporary directory");
        sample_repository(clean.path(), false);
        assert_eq!(
            run_hook(hook, clean.path()),
            0,
            "{} on a clean repository",
            hook.id
        );
        let broken = tempfile::tempdir().expect("temporary directory");
        sample_repository(broken.path(), true);
        assert_eq!(
            run_hook(hook, broken.path()),
            1,
            "{} on a broken policy",
            hook.id
        );
    }
}

#[test]
fn the_action_runs_its_command_and_reports_the_exit_code() {
    let action: serde_yaml::Value =
        serde_yaml::from_str(include_str!("../action.yml")).expect("action.yml parses");
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"]
        .as_sequence()
        .cloned()
        .unwrap_or_default();
    let run = steps
        .iter()
        .find(|s| s["id"] == "run")
        .and_then(|s| s["run"].as_str())
        .expect("the run step")
        .to_owned();
    assert!(steps.iter().any(|s| s["run"]
        .as_str()
        .is_some_and(|r| r.contains("cargo build --release --locked"))));
    for (broken, command, output, expected) in [
        (false, "check policies/", "", 0),
        (true, "check --format sarif policies/", "ctxguard.sarif", 1),
    ] {
        let dir = tempfile::tempdir().expect("temporary directory");
        sample_repository(dir.path(), broken);
        let github_output = dir.path().join("github-output");
        let status = Command::new("bash")
            .args(["-e", "-c", &run])
            .current_dir(dir.path())
            .env("CTXGUARD", env!("CARGO_BIN_EXE_ctxguard"))
            .env("COMMAND", command)
            .env("OUTPUT", output)
            .env("GITHUB_OUTPUT", &github_output)
            .status()
            .expect("bash runs the step");
        assert_eq!(status.code(), Some(expected), "{command}");
        let outputs = std::fs::read_to_string(&github_output).expect("the step writes its outputs");
        assert_eq!(outputs.trim(), format!("exit-code={expected}"));
        if !output.is_empty() {
            let sarif: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.path().join(output)).expect("the output file"),
            )
            .expect("SARIF");
            assert_eq!(sarif["version"], "2.1.0");
        }
    }
}

#[test]
fn the_claude_code_plugin_is_what_ctxguard_writes_at_the_crate_version() {
    let read = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path)
    };
    // The hooks, as `init` writes them for an unknown version (no
    // PostCompact, which older versions cannot read), from the PATH.
    let hooks = read("plugins/claude-code/hooks/hooks.json");
    assert_eq!(
        hooks,
        ctxguard::hook::plugin_hooks(),
        "regenerate plugins/claude-code/hooks/hooks.json from ctxguard::hook::plugin_hooks()"
    );
    assert!(hooks["hooks"].get("PostCompact").is_none());
    let plugin = read("plugins/claude-code/.claude-plugin/plugin.json");
    let market = read(".claude-plugin/marketplace.json");
    assert_eq!(plugin["name"], "ctxguard");
    assert_eq!(plugin["version"], env!("CARGO_PKG_VERSION"));
    let listed = &market["plugins"][0];
    assert_eq!(listed["name"], "ctxguard");
    assert_eq!(listed["source"], "./plugins/claude-code");
    assert_eq!(listed["version"], env!("CARGO_PKG_VERSION"));
    // Without ctxguard on the PATH the plugin's PreCompact refuses (exit 2)
    // and says why; with it, the hook runs.
    let command = hooks["hooks"]["PreCompact"][0]["hooks"][0]["command"]
        .as_str()
        .expect("a command");
    let empty = tempfile::tempdir().expect("temporary directory");
    let missing = Command::new("/bin/sh")
        .args(["-c", command])
        .env("PATH", empty.path())
        .output()
        .expect("sh runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("the ctxguard command is not on the PATH"));
    let bin = Path::new(env!("CARGO_BIN_EXE_ctxguard"))
        .parent()
        .expect("a folder");
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let ledger = tempfile::tempdir().expect("temporary directory");
    let mut run = Command::new("/bin/sh")
        .args(["-c", command])
        .env("PATH", path)
        .env("CTXGUARD_LEDGER_DIR", ledger.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sh runs");
    if let Some(mut stdin) = run.stdin.take() {
        use std::io::Write;
        let _ = stdin
            .write_all(br#"{"session_id":"s1","hook_event_name":"PreCompact","trigger":"manual"}"#);
    }
    let ran = run.wait_with_output().expect("the hook ends");
    assert_eq!(ran.status.code(), Some(0));
}
