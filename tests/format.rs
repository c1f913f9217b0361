//! `ctxguard fmt`: one canonical layout that is idempotent and never changes
//! what a policy means, on every shipped policy and on random policies
//! generated from the grammar with random layout and comments.

mod common;

use common::Test;
use ctxguard::format_policy as format_source;
use ctxguard::Loader;
use ctxguard::SourceFile;
use proptest::prelude::*;

/// What a policy means: its resolved model, without places.
fn meaning(text: &str) -> String {
    let mut loader = Loader::new();
    let loaded = loader.load_source(SourceFile::new("p.policy", text), None);
    let Some(policy) = &loaded.policy else {
        return "does not parse".to_owned();
    };
    let kinds: Vec<String> = policy
        .kinds
        .iter()
        .map(|k| {
            format!(
                "{} {:?} {:?} {:?}",
                k.name,
                k.doc,
                k.hints.iter().map(|h| &h.pattern).collect::<Vec<_>>(),
                k.severity.value
            )
        })
        .collect();
    let orders: Vec<String> = policy.orders.iter().map(|o| o.as_written()).collect();
    let codes: Vec<&str> = loaded.diagnostics.iter().map(|d| d.code.name()).collect();
    format!(
        "{:?} {kinds:?} {orders:?} {} {:?} {:?} {:?} {:?} {:?} {:?} {codes:?}",
        policy.name,
        policy.preserve_order.is_some(),
        policy.tokenizer.value,
        policy.window.as_ref().map(|w| w.value),
        policy.commitment_share.as_ref().map(|s| s.value),
        policy.on_rules.mismatch.is_some(),
        policy.on_rules.unclassified.is_some(),
        policy.on_rules.over_budget.is_some(),
    )
}

fn fmt(text: &str) -> String {
    format_source(&SourceFile::new("p.policy", text)).unwrap_or_else(|d| panic!("{text}\n{d:?}"))
}

fn assert_canonical(name: &str, text: &str) {
    let once = fmt(text);
    assert_eq!(
        fmt(&once),
        once,
        "{name}: formatting twice changes the text"
    );
    assert_eq!(
        meaning(&once),
        meaning(text),
        "{name}: formatting changed the meaning"
    );
    let comments = |t: &str| {
        ctxguard::policy_comments(t)
            .into_iter()
            .map(|span| t[span].trim_end().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        comments(&once),
        comments(text),
        "{name}: comments lost or moved out of order"
    );
}

#[test]
fn shipped_policies_are_formatted() {
    for path in ctxguard::policy_files(&["policies".into(), "crates/ctxguard-core/policies".into()])
        .expect("policies")
        .0
    {
        let text = std::fs::read_to_string(&path).expect("policy");
        assert_canonical(&path.display().to_string(), &text);
        assert_eq!(
            fmt(&text),
            text,
            "{} is not formatted: run `ctxguard fmt policies/`",
            path.display()
        );
    }
    let example = std::fs::read_to_string("tests/ui/check/contract-example.policy")
        .expect("the contract example");
    assert_canonical("contract example", &example);
}

#[test]
fn check_prints_a_diff_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("team.policy");
    let messy = "kind   constraint{doc \"A rule.\"   hint /must/i}\n\n\n\norder constraint before  constraint # odd\n";
    std::fs::write(&path, messy).expect("write");
    let name = path.display().to_string();
    let output = Test::new().args(&["fmt", "--check", &name]).status(1).run();
    assert!(
        output.stdout.contains("+kind constraint {")
            && output.stdout.contains("-kind   constraint"),
        "{}",
        output.stdout
    );
    assert_eq!(std::fs::read_to_string(&path).expect("read"), messy);
}

#[test]
fn fmt_rewrites_in_place_and_keeps_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("team.policy");
    std::fs::write(
        &path,
        "kind constraint { doc \"A rule.\" }\npreserve   order\n",
    )
    .expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let name = path.display().to_string();
    Test::new().args(&["fmt", &name]).stdout("").run();
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "kind constraint {\n  doc \"A rule.\"\n}\npreserve order\n"
    );
    assert_eq!(
        std::fs::metadata(&path).expect("stat").permissions().mode() & 0o777,
        0o640
    );
    Test::new()
        .args(&["fmt", "--check", &name])
        .stdout("")
        .run();
    // Nothing but the file itself is left in the directory.
    assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
}

#[test]
fn a_policy_that_does_not_parse_is_left_alone() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("broken.policy");
    std::fs::write(&path, "order a after b\n").expect("write");
    let name = path.display().to_string();
    Test::new()
        .args(&["fmt", &name])
        .stderr_contains("ctxguard::syntax")
        .status(1)
        .run();
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "order a after b\n"
    );
}

/// A random valid policy: statements from the grammar, random spacing,
/// blank lines, full-line and trailing comments, one-line and multi-line
/// kind blocks with comments inside.
fn policy() -> impl Strategy<Value = String> {
    let space = prop::sample::select(vec![" ", "  ", "\t", " \t "]);
    let gap = prop::sample::select(vec![
        "\n",
        "\n",
        "\n\n",
        "\n\n\n",
        "\n# a comment\n",
        "\n  # indented comment\n\n",
    ]);
    let trailing = prop::sample::select(vec!["", "", " # trailing", "\t# why: it matters"]);
    let item = prop::sample::select(vec![
        "doc \"A rule.\"".to_owned(),
        "doc \"Say \\\"no\\\" to\\tdrops.\"".to_owned(),
        "hint /\\b(must|never)\\b/i".to_owned(),
        "hint /[\\w.-]+\\/[\\w.\\/-]+/".to_owned(),
        "hint /a#b/".to_owned(),
        "severity error".to_owned(),
        "severity warning".to_owned(),
    ]);
    let kind_names = ["constraint", "decision", "value", "ordering"];
    let statement = (
        0..10usize,
        prop::collection::vec(item, 0..4),
        0..4usize,
        0..4usize,
        any::<bool>(),
        0..1000u32,
    );
    prop::collection::vec((statement, space, gap, trailing), 0..14).prop_map(move |statements| {
        let mut text = String::new();
        for ((kind, items, a, b, flag, n), space, gap, trailing) in statements {
            let line = match kind {
                0 => format!("policy{space}team-{n}"),
                1 | 2 => {
                    let name = kind_names[a];
                    if items.is_empty() {
                        format!("kind{space}{name}")
                    } else if flag {
                        format!("kind {name}{space}{{ {} }}", items.join(space))
                    } else {
                        let body: Vec<String> = items.iter().map(|i| format!("  {i}")).collect();
                        format!("kind {name} {{ # block\n{}\n# inside\n}}", body.join("\n"))
                    }
                }
                3 => format!(
                    "order{space}{}{space}before {}",
                    kind_names[a], kind_names[b]
                ),
                4 => format!(
                    "order \"{}:tests-*\" before{space}\"{}:x\"",
                    kind_names[a], kind_names[b]
                ),
                5 => format!("preserve{space}order"),
                6 => format!(
                    "tokenizer{space}{}",
                    ["o200k_base", "cl100k_base", "approx"][a % 3]
                ),
                7 => format!(
                    "budget window{space}{}",
                    if flag {
                        format!("{}_000", n + 1)
                    } else {
                        (n + 1).to_string()
                    }
                ),
                8 => format!("budget commitments {}%", n % 100 + 1),
                _ => format!(
                    "on {}",
                    [
                        "mismatch reject",
                        "unclassified keep",
                        "over-budget escalate",
                        "mismatch warn"
                    ][a]
                ),
            };
            text.push_str(&line);
            text.push_str(trailing);
            text.push_str(gap);
        }
        text
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn formatting_is_idempotent_and_keeps_the_meaning(text in policy()) {
        prop_assume!(format_source(&SourceFile::new("p.policy", text.as_str())).is_ok());
        assert_canonical("generated", &text);
    }
}

/// `fmt` edits the file, it does not replace it: a link is followed and
/// stays a link, hard links stay shared (same inode, so owner and mode are
/// kept), and a read-only file is refused.
#[cfg(unix)]
#[test]
fn fmt_edits_in_place() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let messy = "kind constraint { doc \"A rule.\" }\n";
    let tidy = "kind constraint {\n  doc \"A rule.\"\n}\n";
    let dir = tempfile::tempdir().expect("temporary directory");
    let dir = dir.path();
    std::fs::write(dir.join("target.policy"), messy).expect("write");
    std::os::unix::fs::symlink("target.policy", dir.join("link.policy")).expect("a link");
    std::fs::hard_link(dir.join("target.policy"), dir.join("hard.policy")).expect("a hard link");
    let inode = std::fs::metadata(dir.join("target.policy"))
        .expect("stat")
        .ino();
    Test::new()
        .args(&["fmt", "link.policy"])
        .current_dir(dir)
        .stdout("")
        .run();
    let link = std::fs::symlink_metadata(dir.join("link.policy")).expect("lstat");
    assert!(link.file_type().is_symlink(), "the link is still a link");
    for name in ["target.policy", "hard.policy", "link.policy"] {
        assert_eq!(
            std::fs::read_to_string(dir.join(name)).expect("read"),
            tidy,
            "{name}"
        );
    }
    assert_eq!(
        std::fs::metadata(dir.join("target.policy"))
            .expect("stat")
            .ino(),
        inode
    );

    std::fs::write(dir.join("locked.policy"), messy).expect("write");
    std::fs::set_permissions(
        dir.join("locked.policy"),
        std::fs::Permissions::from_mode(0o444),
    )
    .expect("chmod");
    Test::new()
        .args(&["fmt", "locked.policy"])
        .current_dir(dir)
        .stderr_contains("is read-only")
        .status(2)
        .run();
    assert_eq!(
        std::fs::read_to_string(dir.join("locked.policy")).expect("read"),
        messy
    );
    let mode = std::fs::metadata(dir.join("locked.policy"))
        .expect("stat")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o444);
}

/// Found by `cargo fuzz run fmt`: a kind with an empty block and a trailing
/// comment formatted to a kind without one, which then formatted to a block
/// holding the comment. Formatting is idempotent on each of these.
#[test]
fn fuzz_findings_stay_fixed() {
    for text in [
        "kind constrain {\n}  #\n",
        "kind a {} # c\n",
        "kind a # c\n",
        "kind a { # inside\n}\n",
    ] {
        assert_canonical("fuzz finding", text);
    }
}
