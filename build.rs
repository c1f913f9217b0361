//! The commit ctxguard is built from, for `ctxguard --version`:
//! `CTXGUARD_COMMIT` is the short hash (with `-dirty` for uncommitted
//! changes); for a crate from crates.io, the commit `cargo package`
//! recorded in `.cargo_vcs_info.json`; else `unknown`.

use std::process::Command;

fn main() {
    commit();
}

/// `CTXGUARD_COMMIT`, and the git files whose change reruns this script.
fn commit() {
    // A packaged crate says which commit it was packaged from (and may be
    // unpacked inside some other checkout, whose commit is not its own).
    if let Ok(text) = std::fs::read_to_string(".cargo_vcs_info.json") {
        let info: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let sha = info["git"]["sha1"].as_str().unwrap_or("unknown");
        let dirty = info["git"]["dirty"].as_bool() == Some(true);
        let short: String = sha.chars().take(12).collect();
        let suffix = if dirty { "-dirty" } else { "" };
        println!("cargo:rustc-env=CTXGUARD_COMMIT={short}{suffix}");
        println!("cargo:rerun-if-changed=.cargo_vcs_info.json");
        return;
    }
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_owned());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=CTXGUARD_COMMIT={commit}{suffix}");
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
        println!("cargo:rerun-if-changed={dir}/index");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
