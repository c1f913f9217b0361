//! The files ctxguard writes, tried as a hostile repository and a careless
//! day would: links planted beside them, links and hard links as them,
//! backups written twice, another tool's hooks, a key written twice, a
//! used output folder. Each test names the failure it pins.

#![cfg(unix)]

mod common;

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use common::{Output, Test};
use serde_json::Value;

fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::create_dir_all(dir.path().join(".claude")).expect("dir");
    let settings = dir.path().join(".claude/settings.json");
    (dir, settings)
}

fn init(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["init", "claude-code"];
    if !extra.contains(&"--claude-version") {
        args.extend(["--claude-version", "2.1.332"]);
    }
    args.extend_from_slice(extra);
    Test::new().args(&args).current_dir(dir).any_status().run()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("read")
}

fn commands(settings: &Path) -> Vec<String> {
    let value: Value = serde_json::from_str(&read(settings)).expect("JSON");
    value["hooks"]
        .as_object()
        .into_iter()
        .flat_map(|hooks| hooks.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group["hooks"].as_array())
        .flatten()
        .filter_map(|h| h["command"].as_str().map(str::to_owned))
        .collect()
}

/// Item 1 of the hostile probe: A link planted at the temporary or backup name is never written
/// through: the file it points at (a shell profile) is untouched.
#[test]
fn links_planted_beside_the_settings_are_not_followed() {
    let (dir, settings) = project();
    std::fs::write(&settings, "{\"permissions\": {}}\n").expect("write");
    let profile = dir.path().join("profile");
    std::fs::write(&profile, "export PATH=/usr/bin\n").expect("write");
    for name in [
        "settings.json.ctxguard.bak",
        "settings.json.ctxguard.tmp",
        "settings.ctxguard.tmp",
    ] {
        std::os::unix::fs::symlink(&profile, dir.path().join(".claude").join(name)).expect("link");
    }
    let output = init(dir.path(), &[]);
    assert_eq!(output.status, 0, "{}", output.stderr);
    assert_eq!(read(&profile), "export PATH=/usr/bin\n");
    assert!(!commands(&settings).is_empty());
}

/// Items 2 and 13 of the hostile probe: `check --fix` merges a missing hook as the others were
/// installed: the same program and policy, quoted where a path has a space.
#[test]
fn a_hook_merged_back_runs_as_the_others_do() {
    let (dir, settings) = project();
    let output = init(
        dir.path(),
        &[
            "--command",
            "/opt/my tools/ctxguard",
            "--policy",
            "team policy.policy",
        ],
    );
    assert_eq!(output.status, 0, "{}", output.stderr);
    let installed = commands(&settings);
    assert!(
        installed.iter().all(
            |c| c.starts_with("'/opt/my tools/ctxguard' hook claude-code ")
                && c.contains("--policy 'team policy.policy'")
        ),
        "{installed:?}"
    );
    // Take one hook out by hand, then let `check --fix` put it back.
    let mut value: Value = serde_json::from_str(&read(&settings)).expect("JSON");
    value["hooks"]
        .as_object_mut()
        .expect("hooks")
        .remove("PreCompact");
    std::fs::write(
        &settings,
        serde_json::to_string_pretty(&value).expect("JSON"),
    )
    .expect("w");
    Test::new()
        .args(&[
            "check",
            "--fix",
            "--claude-version",
            "2.1.332",
            ".claude/settings.json",
        ])
        .current_dir(dir.path())
        .any_status()
        .run();
    let after = commands(&settings);
    let pre = after
        .iter()
        .find(|c| c.contains(" PreCompact"))
        .expect("PreCompact merged back");
    assert!(
        pre.starts_with("'/opt/my tools/ctxguard' hook claude-code PreCompact")
            && pre.contains("--policy 'team policy.policy'"),
        "{pre}"
    );
}

/// Item 3 of the hostile probe: A finding the user silenced is not "fixed" behind their back.
#[test]
fn a_silenced_timeout_is_left_as_written() {
    let (dir, settings) = project();
    let text = "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"make lint\", \"timeout\": 3600}]}]\n  }\n}\n";
    std::fs::write(&settings, text).expect("write");
    std::fs::write(
        dir.path().join(".claude/.ctxguard-ignore"),
        "settings.json hook-timeout-units: the linter really runs for an hour\n",
    )
    .expect("write");
    let fix = |extra: &[&str]| {
        let mut args = vec!["check", "--fix"];
        args.extend_from_slice(extra);
        args.push(".claude/settings.json");
        Test::new()
            .args(&args)
            .current_dir(dir.path())
            .any_status()
            .run();
    };
    fix(&[]);
    assert!(
        read(&settings).contains("\"timeout\": 3600"),
        "{}",
        read(&settings)
    );
    // Allowed on the command line: the same.
    std::fs::remove_file(dir.path().join(".claude/.ctxguard-ignore")).expect("rm");
    fix(&["-A", "hook-timeout-units"]);
    assert!(read(&settings).contains("\"timeout\": 3600"));
    // Not silenced, it is fixed.
    fix(&[]);
    assert!(
        read(&settings).contains("\"timeout\": 4"),
        "{}",
        read(&settings)
    );
}

/// Item 4 of the hostile probe: Another tool's command that merely contains `hook claude-code` is
/// not ctxguard's: neither `init` nor `--remove` touches it.
#[test]
fn another_tools_hook_is_never_taken_for_ctxguards() {
    let (dir, settings) = project();
    let text = "{\n  \"hooks\": {\n    \"PreCompact\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"othertool hook claude-code PreCompact --save\"}]}]\n  }\n}\n";
    std::fs::write(&settings, text).expect("write");
    let removed = init(dir.path(), &["--remove"]);
    assert_eq!(removed.status, 0, "{}", removed.stderr);
    assert_eq!(read(&settings), text);
    init(dir.path(), &[]);
    assert!(commands(&settings)
        .iter()
        .any(|c| c == "othertool hook claude-code PreCompact --save"));
    init(dir.path(), &["--remove"]);
    assert_eq!(read(&settings), text);
}

/// Item 5 of the hostile probe: `hooks` written twice: Claude Code reads the last, so `init`
/// refuses to edit either and `check` reports it.
#[test]
fn hooks_written_twice_are_refused_and_reported() {
    let (dir, settings) = project();
    let text = "{\n  \"hooks\": {},\n  \"hooks\": {\"Stop\": []}\n}\n";
    std::fs::write(&settings, text).expect("write");
    let output = init(dir.path(), &[]);
    assert_eq!(output.status, 2, "{}", output.stdout);
    assert!(output.stderr.contains("twice"), "{}", output.stderr);
    assert_eq!(read(&settings), text);
    let check = Test::new()
        .args(&["check", ".claude/settings.json"])
        .current_dir(dir.path())
        .any_status()
        .run();
    assert_ne!(check.status, 0);
    assert!(check.stdout.contains("written twice"), "{}", check.stdout);
}

/// Items 6 and 19 of the hostile probe: A ledger that is a link, or a FIFO, is neither appended to
/// nor waited on.
#[test]
fn a_ledger_link_or_fifo_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let ledger = dir.path().join(".ctxguard/ledger");
    std::fs::create_dir_all(&ledger).expect("dir");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep\n").expect("write");
    std::os::unix::fs::symlink(&victim, ledger.join("s1.jsonl")).expect("link");
    let pin = Test::new()
        .args(&[
            "ledger",
            "pin",
            "--session",
            "s1",
            "constraint",
            "Do not drop columns.",
        ])
        .current_dir(dir.path())
        .any_status()
        .run();
    assert_ne!(pin.status, 0, "{}", pin.stdout);
    assert_eq!(read(&victim), "keep\n");
    nix::unistd::mkfifo(&ledger.join("s2.jsonl"), nix::sys::stat::Mode::S_IRWXU).expect("fifo");
    let list = Test::new()
        .args(&["ledger", "list", "--session", "s2"])
        .current_dir(dir.path())
        .any_status()
        .run();
    assert_ne!(list.status, 0, "{}", list.stdout);
    assert!(
        list.stderr.contains("not a regular file"),
        "{}",
        list.stderr
    );
}

/// Item 7 of the hostile probe: `audit --html` never overwrites a file it did not write.
#[test]
fn the_html_report_overwrites_only_a_report() {
    let dir = tempfile::tempdir().expect("dir");
    let sessions = dir.path().join("sessions");
    std::fs::create_dir_all(&sessions).expect("dir");
    let session = sessions.join("s.jsonl");
    std::fs::copy("tests/fixtures/sessions/claude-code.jsonl", &session).expect("copy");
    let before = read(&session);
    let audit = |page: &Path| {
        Test::new()
            .args(&[
                "audit",
                sessions.to_str().expect("utf-8"),
                "--html",
                page.to_str().expect("utf-8"),
            ])
            .any_status()
            .run()
    };
    let output = audit(&session);
    assert_eq!(output.status, 2, "{}", output.stdout);
    assert_eq!(read(&session), before);
    let page = dir.path().join("report.html");
    assert_ne!(audit(&page).status, 2);
    assert!(read(&page).starts_with("<!DOCTYPE html>"));
    // A page it wrote may be written again.
    assert_ne!(audit(&page).status, 2);
}

/// Items 8 and 9 of the hostile probe: Backups are never overwritten; a linked settings file stays a
/// link to the file edited; a hard link stays one file; the mode is kept.
#[test]
fn backups_last_and_links_and_modes_hold() {
    let (dir, settings) = project();
    let dotfiles = dir.path().join("dotfiles-settings.json");
    std::fs::write(&dotfiles, "{\"permissions\": {}}\n").expect("write");
    std::fs::set_permissions(&dotfiles, std::fs::Permissions::from_mode(0o600)).expect("mode");
    std::os::unix::fs::symlink(&dotfiles, &settings).expect("link");
    assert_eq!(init(dir.path(), &["--claude-version", "2.0.76"]).status, 0);
    assert_eq!(init(dir.path(), &[]).status, 0);
    assert!(std::fs::symlink_metadata(&settings)
        .expect("meta")
        .file_type()
        .is_symlink());
    assert!(read(&dotfiles).contains("PostCompact"));
    assert_eq!(
        std::fs::metadata(&dotfiles)
            .expect("meta")
            .permissions()
            .mode()
            & 0o777,
        0o600
    );
    let first = dir.path().join("dotfiles-settings.json.ctxguard.bak");
    let second = dir.path().join("dotfiles-settings.json.ctxguard.2.bak");
    assert_eq!(read(&first), "{\"permissions\": {}}\n");
    assert!(read(&second).contains("SessionStart") && !read(&second).contains("PostCompact"));

    let (dir, settings) = project();
    std::fs::write(&settings, "{}\n").expect("write");
    let other = dir.path().join("other-name.json");
    std::fs::hard_link(&settings, &other).expect("hard link");
    assert_eq!(init(dir.path(), &[]).status, 0);
    assert_eq!(std::fs::metadata(&settings).expect("meta").nlink(), 2);
    assert_eq!(read(&other), read(&settings));
}

/// Item 10 of the hostile probe: `init` then `--remove` gives back the file byte for byte: its
/// byte-order mark, an empty `hooks`, a one-line layout.
#[test]
fn init_then_remove_is_exact() {
    for original in [
        "\u{feff}{\"hooks\": {}, \"model\": \"opus\"}\n",
        "{\"model\":\"opus\"}",
        "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n",
    ] {
        let (dir, settings) = project();
        std::fs::write(&settings, original).expect("write");
        assert_eq!(init(dir.path(), &[]).status, 0);
        assert_ne!(read(&settings), original);
        let removed = init(dir.path(), &["--remove"]);
        assert_eq!(removed.status, 0, "{}", removed.stderr);
        assert_eq!(read(&settings), original);
    }
}

/// Item 11 of the hostile probe: An import into a used folder leaves nothing of the last import
/// beside it, and never clears a folder it did not write.
#[test]
fn an_import_owns_only_its_own_folder() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("out");
    let import = |session: &str| {
        Test::new()
            .args(&[
                "import",
                &format!("tests/fixtures/sessions/{session}"),
                "--out",
                out.to_str().expect("utf-8"),
            ])
            .any_status()
            .run()
    };
    assert_eq!(import("audit/two-compactions.jsonl").status, 0);
    assert!(out.join("2/plan.json").is_file());
    let again = import("audit/not-binding.jsonl");
    assert_eq!(again.status, 0, "{}", again.stderr);
    assert!(out.join("1/plan.json").is_file());
    assert!(
        !out.join("2").exists(),
        "another session's compaction 2 is left"
    );

    let mine = dir.path().join("mine");
    std::fs::create_dir_all(&mine).expect("dir");
    std::fs::write(mine.join("notes.txt"), "mine").expect("write");
    let refused = Test::new()
        .args(&[
            "import",
            "tests/fixtures/sessions/claude-code.jsonl",
            "--out",
            mine.to_str().expect("utf-8"),
        ])
        .any_status()
        .run();
    assert_eq!(refused.status, 2, "{}", refused.stdout);
    assert_eq!(read(&mine.join("notes.txt")), "mine");
}

/// Item 31 of the hostile probe: What a ledger holds reaches the terminal inert: a key that would
/// set the terminal's title, clear it or reverse the text is escaped.
#[test]
fn ledger_listings_escape_what_the_ledger_holds() {
    let dir = tempfile::tempdir().expect("dir");
    let ledger = dir.path().join("ledger");
    let ledger_arg = ledger.to_str().expect("utf-8");
    let hostile = "k\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}x";
    let pin = Test::new()
        .args(&[
            "ledger",
            "--ledger-dir",
            ledger_arg,
            "--session",
            "s1",
            "pin",
            "--key",
            hostile,
            "constraint",
            "Do not drop columns.",
        ])
        .any_status()
        .run();
    assert_eq!(pin.status, 0, "{}", pin.stderr);
    for args in [vec!["list"], vec!["show", hostile]] {
        let mut all = vec!["ledger", "--ledger-dir", ledger_arg, "--session", "s1"];
        all.extend(args);
        let shown = Test::new().args(&all).any_status().run();
        for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
            assert!(
                !shown.stdout.contains(raw) && !shown.stderr.contains(raw),
                "{raw:?} reached the terminal: {:?}",
                shown.stdout
            );
        }
    }
}
