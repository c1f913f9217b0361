//! Every place a release names ctxguard's version names the same one, and
//! `cargo run --example bump_version -- VERSION` moves them all together.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Each version a release names, with where: the crates, the Python
/// package (its version is the crate's), the plugins, the README's pins.
fn versions(root: &Path) -> Vec<(String, String)> {
    let read = |path: &str| std::fs::read_to_string(root.join(path)).expect(path);
    let mut found = Vec::new();
    let manifest: toml::Table = toml::from_str(&read("Cargo.toml")).expect("Cargo.toml");
    let workspace = &manifest["workspace"];
    found.push((
        "Cargo.toml [workspace.package]".to_owned(),
        workspace["package"]["version"]
            .as_str()
            .expect("a version")
            .to_owned(),
    ));
    for layer in ["ctxguard-core", "ctxguard-runtimes"] {
        found.push((
            format!("Cargo.toml's dependency on {layer}"),
            workspace["dependencies"][layer]["version"]
                .as_str()
                .expect("a version")
                .to_owned(),
        ));
    }
    for member in ["crates/ctxguard-core", "crates/ctxguard-runtimes", "python"] {
        let path = format!("{member}/Cargo.toml");
        let member: toml::Table = toml::from_str(&read(&path)).expect("a manifest");
        let inherited = member["package"]["version"]
            .get("workspace")
            .and_then(toml::Value::as_bool);
        assert_eq!(inherited, Some(true), "{path}: version.workspace = true");
    }
    let json = |path: &str| -> serde_json::Value { serde_json::from_str(&read(path)).expect(path) };
    let plugin = json("plugins/claude-code/.claude-plugin/plugin.json");
    found.push((
        "the Claude Code plugin".to_owned(),
        plugin["version"].as_str().expect("a version").to_owned(),
    ));
    let market = json(".claude-plugin/marketplace.json");
    found.push((
        "the marketplace entry".to_owned(),
        market["plugins"][0]["version"]
            .as_str()
            .expect("a version")
            .to_owned(),
    ));
    let openclaw = json("crates/ctxguard-runtimes/plugins/openclaw/package.json");
    found.push((
        "the OpenClaw plugin".to_owned(),
        openclaw["version"].as_str().expect("a version").to_owned(),
    ));
    let pins = regex::Regex::new(r"(rev: |ctxguard@|--tag )v(\d+\.\d+\.\d+)").expect("pattern");
    let readme = read("README.md");
    let mut pinned = 0;
    for pin in pins.captures_iter(&readme) {
        found.push((format!("the README's `{}v…`", &pin[1]), pin[2].to_owned()));
        pinned += 1;
    }
    assert!(pinned >= 4, "the README pins a release {pinned} times");
    found
}

#[test]
fn every_release_name_agrees() {
    let found = versions(Path::new(env!("CARGO_MANIFEST_DIR")));
    let expected = env!("CARGO_PKG_VERSION");
    for (place, version) in &found {
        assert_eq!(version, expected, "{place} names {version}, the crates {expected}: run `cargo run --example bump_version -- {expected}`");
    }
}

#[test]
fn one_command_moves_them_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let copy = tempfile::tempdir().expect("a temporary folder");
    let files = [
        "Cargo.toml",
        "crates/ctxguard-core/Cargo.toml",
        "crates/ctxguard-runtimes/Cargo.toml",
        "python/Cargo.toml",
        "plugins/claude-code/.claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "crates/ctxguard-runtimes/plugins/openclaw/package.json",
        "README.md",
    ];
    for file in files {
        let to: PathBuf = copy.path().join(file);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("folders");
        std::fs::copy(root.join(file), &to).expect(file);
    }
    // The example run as a user runs it, against the copy.
    let status = Command::new(env!("CARGO"))
        .args([
            "run",
            "--quiet",
            "--offline",
            "--example",
            "bump_version",
            "--",
            "9.8.7",
        ])
        .env("CTXGUARD_BUMP_ROOT", copy.path())
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(status.success());
    for (place, version) in versions(copy.path()) {
        assert_eq!(version, "9.8.7", "{place}");
    }
    // Nothing else in a file changed: its comments and layout are kept.
    let before = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let after = std::fs::read_to_string(copy.path().join("Cargo.toml")).expect("Cargo.toml");
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(changed.len(), 3, "{changed:#?}");
    assert_eq!(before.lines().count(), after.lines().count());
    let plugin = "plugins/claude-code/.claude-plugin/plugin.json";
    let before = std::fs::read_to_string(root.join(plugin)).expect("plugin");
    let after = std::fs::read_to_string(copy.path().join(plugin)).expect("plugin");
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        after,
        before.replace(&format!("\"{version}\""), "\"9.8.7\"")
    );
}
