//! Sets ctxguard's version everywhere a release names it, in one command:
//!
//! ```sh
//! cargo run --example bump_version -- 0.2.0
//! ```
//!
//! The crates (the workspace's version, and the version the layers depend
//! on each other at), the Claude Code plugin and its marketplace entry, the
//! OpenClaw plugin's `package.json`, and the tag the README's pre-commit,
//! GitHub Action and `cargo install` lines pin (`v0.2.0`). TOML is edited in
//! place, keeping its comments and layout; JSON is written back as it is
//! laid out (two spaces, keys in their order). `Cargo.lock` follows at the
//! next `cargo` command. `tests/versions.rs` checks that they all agree.

use std::path::Path;

/// The files a release names its version in, from the workspace root.
const PLUGINS: [&str; 3] = [
    "plugins/claude-code/.claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    "crates/ctxguard-runtimes/plugins/openclaw/package.json",
];

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [version] = args.as_slice() else {
        eprintln!("usage: cargo run --example bump_version -- VERSION (for example 0.2.0)");
        return std::process::ExitCode::from(2);
    };
    // The checkout this example is built in (`CTXGUARD_BUMP_ROOT`: another
    // copy, as `tests/versions.rs` uses it).
    let root = std::env::var_os("CTXGUARD_BUMP_ROOT").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf(),
        Into::into,
    );
    match bump(&root, version) {
        Ok(old) => {
            eprintln!("ctxguard {old} -> {version}: the crates, the plugins and the README's pins");
            std::process::ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("error: {why}");
            std::process::ExitCode::from(1)
        }
    }
}

/// Sets `version` in every file under `root`; the version it replaced.
fn bump(root: &Path, version: &str) -> Result<String, String> {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() != 3 || parts.iter().any(|p| p.parse::<u64>().is_err()) {
        return Err(format!("`{version}` is not a version (MAJOR.MINOR.PATCH)"));
    }
    let read =
        |path: &str| std::fs::read_to_string(root.join(path)).map_err(|e| format!("{path}: {e}"));
    let write = |path: &str, text: String| {
        std::fs::write(root.join(path), text).map_err(|e| format!("{path}: {e}"))
    };

    let mut manifest: toml_edit::DocumentMut = read("Cargo.toml")?
        .parse()
        .map_err(|e| format!("Cargo.toml: {e}"))?;
    let old = manifest["workspace"]["package"]["version"]
        .as_str()
        .ok_or("Cargo.toml: no [workspace.package] version")?
        .to_owned();
    manifest["workspace"]["package"]["version"] = toml_edit::value(version);
    for layer in ["ctxguard-core", "ctxguard-runtimes"] {
        let dependency = &mut manifest["workspace"]["dependencies"][layer];
        if dependency.get("version").is_none() {
            return Err(format!("Cargo.toml: {layer} has no version"));
        }
        dependency["version"] = toml_edit::value(version);
    }
    write("Cargo.toml", manifest.to_string())?;

    for path in PLUGINS {
        let mut json: serde_json::Value =
            serde_json::from_str(&read(path)?).map_err(|e| format!("{path}: {e}"))?;
        let slot = match json.get_mut("plugins") {
            Some(plugins) => &mut plugins[0]["version"],
            None => &mut json["version"],
        };
        *slot = serde_json::Value::from(version);
        let text = serde_json::to_string_pretty(&json).map_err(|e| format!("{path}: {e}"))?;
        write(path, text + "\n")?;
    }

    // The pre-commit hook's `rev:`, the Action's `ctxguard@` and
    // `cargo install`'s `--tag`, each naming the release's tag.
    let mut pinned = read("README.md")?;
    for pin in ["rev: ", "ctxguard@", "--tag "] {
        pinned = pinned.replace(&format!("{pin}v{old}"), &format!("{pin}v{version}"));
    }
    write("README.md", pinned)?;
    Ok(old)
}
