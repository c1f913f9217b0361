//! Which version of a runtime is installed here: read once by the CLI and
//! passed down, so what `init` writes and what `check` says match the
//! client that will read the file.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ctxguard_core::facts::Version;

/// How long `claude --version` may take.
const LIMIT: Duration = Duration::from_secs(10);

/// Where a version came from, for a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// Named on the command line.
    Named(Version),
    /// What `claude --version` printed.
    Installed(Version),
    /// Not known: no `claude` to ask, or it did not say.
    Unknown,
}

impl Found {
    /// The version, when known.
    pub fn version(&self) -> Option<&Version> {
        match self {
            Found::Named(v) | Found::Installed(v) => Some(v),
            Found::Unknown => None,
        }
    }
}

/// The Claude Code version: `named` (`--claude-version`) when given, else
/// what `program --version` prints (the command line passes the command
/// `CTXGUARD_CLAUDE` names, or `claude`, found on the `PATH`).
pub fn claude_code(named: Option<&str>, program: &std::ffi::OsStr) -> Result<Found, String> {
    if let Some(named) = named {
        return Version::parse(named)
            .map(Found::Named)
            .ok_or_else(|| format!("`--claude-version {named}` is not a version such as 2.1.105"));
    }
    let Ok(mut child) = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return Ok(Found::Unknown);
    };
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < LIMIT => std::thread::sleep(Duration::from_millis(20)),
            // It hangs, or cannot be waited for: the version is not known.
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Found::Unknown);
            }
        }
    }
    match child.wait_with_output() {
        Ok(output) if output.status.success() => {
            Ok(Version::parse(&String::from_utf8_lossy(&output.stdout))
                .map_or(Found::Unknown, Found::Installed))
        }
        _ => Ok(Found::Unknown),
    }
}
