//! Packages installed from the npm registry into a folder below the build
//! folder, the first time a test needs them: by one process at a time (a
//! lock file beside the folder), into a partial folder renamed into place,
//! so no test ever runs what is half installed.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Installs `specs` (`name@version`) into `dir` with npm, run with `path`
/// as its `PATH`, unless `installed()` says they are there already.
pub fn install_once(
    dir: &Path,
    specs: &[String],
    path: &OsStr,
    installed: impl Fn() -> bool,
) -> Result<(), String> {
    if installed() {
        return Ok(());
    }
    let parent = dir.parent().unwrap_or(dir);
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let lock_path = suffixed(dir, ".lock");
    let lock =
        std::fs::File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("{}: {e}", lock_path.display()))?;
    if installed() {
        return Ok(());
    }
    let partial = suffixed(dir, ".partial");
    let _ = std::fs::remove_dir_all(&partial);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    // npm's download cache is of no use once the packages are installed
    // (they are never installed again), and would double what the
    // runtimes take on disk: it is the install's own, and removed after;
    // the log a failure names is kept beside it.
    let cache = suffixed(dir, ".npm-cache");
    let _ = std::fs::remove_dir_all(&cache);
    let output = Command::new("npm")
        .env("PATH", path)
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--cache",
        ])
        .arg(&cache)
        .arg("--logs-dir")
        .arg(suffixed(dir, ".npm-logs"))
        .arg("--prefix")
        .arg(&partial)
        .args(specs)
        .output();
    let _ = std::fs::remove_dir_all(&cache);
    let output = output
        .map_err(|e| format!("npm could not be started ({e}): these tests need Node.js and npm"))?;
    if !output.status.success() {
        return Err(format!(
            "npm install {} failed:\n{}",
            specs.join(" "),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    std::fs::rename(&partial, dir).map_err(|e| format!("{}: {e}", dir.display()))
}

/// `path` with `suffix` after its name (`a@2.1.332` → `a@2.1.332.lock`).
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}
