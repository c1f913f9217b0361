//! Measuring a bench case in a child process of the bench itself, so each
//! measurement's peak memory is its own.

use std::ffi::OsStr;
use std::process::Command;

/// This process's peak resident memory so far, in KiB (Linux `VmHWM`).
pub fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))
                .and_then(|line| line.split_whitespace().nth(1))
                .and_then(|kib| kib.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs this bench `runs` times as `--child ARGS...` (the child prints
/// `seconds peak_kib`): the best time and the highest peak.
pub fn best_of<I, S>(runs: usize, args: I) -> (f64, u64)
where
    I: IntoIterator<Item = S> + Clone,
    S: AsRef<OsStr>,
{
    let exe = std::env::current_exe().expect("this bench");
    (0..runs)
        .map(|_| {
            let output = Command::new(&exe)
                .arg("--child")
                .args(args.clone())
                .output()
                .expect("child runs");
            let text = String::from_utf8_lossy(&output.stdout);
            let mut fields = text.split_whitespace();
            let seconds: f64 = fields
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(f64::NAN);
            let kib: u64 = fields.next().and_then(|s| s.parse().ok()).unwrap_or(0);
            (seconds, kib)
        })
        .fold((f64::INFINITY, 0), |(best, peak), (s, k)| {
            (best.min(s), peak.max(k))
        })
}
