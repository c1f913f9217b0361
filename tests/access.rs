//! The file-access rule: ctxguard prints no file it was not given, reads no
//! special file, and refuses inputs over the size limit, in every format.

mod common;

use std::path::Path;

use common::Test;

const SECRET: &str = "SECRET_TOKEN_d41d8cd9";

fn write(dir: &Path, name: &str, text: &str) {
    if let Some(parent) = dir.join(name).parent() {
        std::fs::create_dir_all(parent).expect("a directory");
    }
    std::fs::write(dir.join(name), text).expect("write a test file");
}

/// `check` of `policy` in `dir`, in every format: refused with `code`, and
/// the secret in the environment or the file outside appears nowhere.
fn refused_everywhere(dir: &Path, policy: &str, code: &str) {
    for format in ["human", "json", "sarif", "github"] {
        let output = Test::new()
            .args(&["check", "--format", format, policy])
            .current_dir(dir)
            .env("SECRET_TOKEN", SECRET)
            .status(1)
            .run();
        assert!(output.stdout.contains(code), "{format}: {}", output.stdout);
        for shown in [&output.stdout, &output.stderr] {
            assert!(
                !shown.contains(SECRET),
                "{format} leaks the secret: {shown}"
            );
            assert!(
                !shown.contains("root:x:0"),
                "{format} leaks /etc/passwd: {shown}"
            );
        }
    }
}

#[test]
fn extends_reaches_no_file_outside_the_repository() {
    let outer = tempfile::tempdir().expect("temporary directory");
    let outer = outer.path();
    write(outer, "secret.txt", &format!("{SECRET}\n"));
    let repo = outer.join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    write(
        &repo,
        "team/a.policy",
        "extends \"../../secret.txt\"\nkind constraint\n",
    );
    write(
        &repo,
        "team/b.policy",
        "extends \"/proc/self/environ\"\nkind constraint\n",
    );
    write(
        &repo,
        "team/c.policy",
        "extends \"/etc/passwd\"\nkind constraint\n",
    );
    for policy in ["team/a.policy", "team/b.policy", "team/c.policy"] {
        refused_everywhere(&repo, policy, "forbidden-parent");
    }
    // Inside the repository, a parent one level up is fine.
    write(
        &repo,
        "base.policy",
        "kind constraint\nbudget window 64000\n",
    );
    write(
        &repo,
        "team/d.policy",
        "extends \"../base.policy\"\nkind decision\n",
    );
    Test::new()
        .args(&["check", "team/d.policy"])
        .current_dir(&repo)
        .stdout("")
        .run();
    // `--root` narrows (or widens) where `extends` may reach.
    Test::new()
        .args(&["check", "--root", "team", "team/d.policy"])
        .current_dir(&repo)
        .stdout_contains("forbidden-parent")
        .status(1)
        .run();
}

#[cfg(unix)]
#[test]
fn links_and_special_files_are_refused_before_they_are_opened() {
    let outer = tempfile::tempdir().expect("temporary directory");
    let outer = outer.path();
    write(outer, "secret.txt", &format!("{SECRET}\n"));
    let repo = outer.join("repo");
    std::fs::create_dir_all(repo.join(".git")).expect("a repository");
    std::os::unix::fs::symlink(outer.join("secret.txt"), repo.join("base.policy")).expect("a link");
    write(
        &repo,
        "team.policy",
        "extends \"base.policy\"\nkind constraint\n",
    );
    refused_everywhere(&repo, "team.policy", "forbidden-parent");

    // `check DIR` does not follow a `*.policy` link out of DIR.
    let output = Test::new()
        .args(&["check", "."])
        .current_dir(&repo)
        .env("SECRET_TOKEN", SECRET)
        .status(2)
        .run();
    assert!(output.stdout.contains("links outside"), "{}", output.stdout);
    assert!(!output.stdout.contains(SECRET));

    // A FIFO would hang a reader: it is refused, named or extended.
    let fifo = repo.join("pipe.policy");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        Test::new()
            .args(&["check", "pipe.policy"])
            .current_dir(&repo)
            .stdout_contains("is a FIFO, not a regular file")
            .status(2)
            .run();
        write(
            &repo,
            "via-fifo.policy",
            "extends \"pipe.policy\"\nkind constraint\n",
        );
        Test::new()
            .args(&["check", "via-fifo.policy"])
            .current_dir(&repo)
            .stdout_contains("it is a FIFO")
            .status(1)
            .run();
    }
    Test::new()
        .args(&["check", "/dev/zero"])
        .stdout_contains("is a device, not a regular file")
        .status(2)
        .run();
    Test::verify("/dev/zero")
        .stdout_contains("is a device, not a regular file")
        .status(2)
        .run();
}

#[test]
fn inputs_over_the_limit_are_refused_unread() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let sparse = dir.path().join("huge.json");
    // A 2 GiB sparse file costs no disk; reading it would cost 2 GiB.
    std::fs::File::create(&sparse)
        .and_then(|file| file.set_len(2 << 30))
        .expect("a sparse file");
    Test::verify(&sparse.display().to_string())
        .stdout_contains("over the limit")
        .stdout_contains("1073741824")
        .stdout_contains("--max-input-bytes")
        .status(2)
        .run();
    Test::verify("tests/scenarios/migration/plan-good.yaml")
        .args(&["--max-input-bytes", "100", "--format", "json"])
        .stdout_contains("holds 570 bytes, over the limit of 100")
        .status(2)
        .run();
    Test::verify("-")
        .args(&["--max-input-bytes", "100", "--format", "json"])
        .stdin(vec![b' '; 1000])
        .stdout_contains("`-` holds more than 100 bytes, the limit")
        .status(2)
        .run();
}

/// A policy with no file (an embedder's text) reaches no further than one
/// read from the current directory would.
#[test]
fn policy_text_without_a_file_is_held_to_the_rule_too() {
    let errors = ctxguard::Policy::from_text("team.policy", "extends \"/etc/passwd\"\nkind a\n")
        .err()
        .unwrap_or_default();
    assert!(
        errors.iter().any(|d| d.code.name() == "forbidden-parent"),
        "{errors:?}"
    );
}
