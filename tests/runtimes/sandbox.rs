//! The network namespace the runtimes run in: its own loopback and nothing
//! else, so nothing a CLI tries can leave the machine. The test binary
//! installs what it needs outside, then runs itself again inside
//! (`unshare --net --map-root-user`), where the model server and every CLI
//! share 127.0.0.1.

use std::process::{Command, ExitCode};

/// Set in the copy of the test binary that runs inside the namespace.
pub const INSIDE: &str = "CTXGUARD_RUNTIMES_SANDBOX";

/// Whether this process is the one inside.
pub fn inside() -> bool {
    std::env::var_os(INSIDE).is_some()
}

/// Runs this test binary again, with the same arguments, inside a new
/// network namespace.
pub fn enter() -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("runtimes: cannot find the test binary: {e}");
            return ExitCode::FAILURE;
        }
    };
    let status = Command::new("unshare")
        .args(["--net", "--map-root-user"])
        .arg(exe)
        .args(std::env::args_os().skip(1))
        .env(INSIDE, "1")
        .status();
    match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        // The copy inside, or `unshare` when it cannot make the namespace,
        // said why on stderr.
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!(
                "runtimes: `unshare` could not be started ({e}); the runtime tests run the CLIs in a network namespace that has only loopback (util-linux)"
            );
            ExitCode::FAILURE
        }
    }
}

/// Inside: brings loopback up and checks it is the only interface.
pub fn loopback() -> Result<(), String> {
    let status = Command::new("ip")
        .args(["link", "set", "lo", "up"])
        .status()
        .map_err(|e| format!("`ip` could not be started ({e}): install iproute2"))?;
    if !status.success() {
        return Err(format!("`ip link set lo up` failed ({status})"));
    }
    // `/proc/self/net` is this process's namespace (`/sys` is the one it
    // was mounted in).
    let devices = std::fs::read_to_string("/proc/self/net/dev")
        .map_err(|e| format!("/proc/self/net/dev: {e}"))?;
    let interfaces: Vec<String> = devices
        .lines()
        .skip(2)
        .filter_map(|line| line.split(':').next())
        .map(|name| name.trim().to_owned())
        .collect();
    if interfaces != ["lo"] {
        return Err(format!(
            "the namespace has interfaces other than loopback: {interfaces:?}"
        ));
    }
    Ok(())
}
