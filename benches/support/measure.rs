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

/// Runs this bench once as `--child ARGS...` (the child prints
/// `seconds peak_kib`).
#[allow(dead_code)]
pub fn once<I, S>(args: I) -> (f64, u64)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let (seconds, kib, _) = once_said(args);
    (seconds, kib)
}

/// [`once`], with what the child printed after its two numbers (what it
/// found, for a bench that checks it).
pub fn once_said<I, S>(args: I) -> (f64, u64, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let exe = std::env::current_exe().expect("this bench");
    let output = Command::new(&exe)
        .arg("--child")
        .args(args)
        .output()
        .expect("child runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut fields = text.split_whitespace();
    let seconds: f64 = fields
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or(f64::NAN);
    let kib: u64 = fields.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    (seconds, kib, fields.collect::<Vec<_>>().join(" "))
}

/// Runs this bench `runs` times as `--child ARGS...`: the best time, the
/// highest peak and what each run said it found, which must be the same
/// every time (the hostile bench; verify's pairs its runs).
#[allow(dead_code)]
pub fn best_of<I, S>(runs: usize, args: I) -> (f64, u64, String)
where
    I: IntoIterator<Item = S> + Clone,
    S: AsRef<OsStr>,
{
    let mut said: Option<String> = None;
    let (best, peak) = (0..runs).map(|_| once_said(args.clone())).fold(
        (f64::INFINITY, 0),
        |(best, peak), (s, k, found)| {
            if let Some(before) = &said {
                assert_eq!(
                    before, &found,
                    "one run found other things than the one before"
                );
            }
            said = Some(found);
            (best.min(s), peak.max(k))
        },
    );
    (best, peak, said.unwrap_or_default())
}

/// The median of `values` (the verify bench).
#[allow(dead_code)]
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}
