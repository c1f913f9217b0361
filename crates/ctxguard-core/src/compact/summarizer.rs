//! Summaries of a run of narrative: the `--summarizer` command, run with the
//! run's text on its standard input, or the deterministic placeholder.

use std::io::{Read as _, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::buffer::trace::Trace;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;

/// The deterministic placeholder: the first sentence of each region.
pub(super) fn extract(texts: &[String]) -> String {
    texts
        .iter()
        .filter_map(|text| {
            let text = text.trim();
            let end = text
                .char_indices()
                .find(|&(i, c)| {
                    c == '\n'
                        || (matches!(c, '.' | '!' | '?')
                            && text[i + c.len_utf8()..].starts_with([' ', '\n']))
                })
                .map_or(
                    text.len(),
                    |(i, c)| if c == '\n' { i } else { i + c.len_utf8() },
                );
            let sentence: String = text[..end].chars().take(200).collect();
            let sentence = sentence.trim();
            (!sentence.is_empty()).then(|| sentence.to_owned())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A summarizer called in the process: one run of narrative in, its
/// summary out; `Err` says why it could not summarize.
pub type SummarizeFn = dyn Fn(&str) -> Result<String, String> + Send + Sync;

/// What writes a run of narrative's summary.
#[derive(Clone)]
pub enum Summarizer {
    /// A shell command: the narrative on its standard input, the summary
    /// on its standard output.
    Command {
        /// The command line, run by `sh -c`.
        command: String,
        /// How long one run may take before it is stopped (with every
        /// process it started) and the plan fails with `summarizer-failed`.
        timeout: Duration,
    },
    /// A function of the program that embeds ctxguard (a Python callable,
    /// a model client), named in the plan by `name`.
    Function {
        /// What the plan's `summarizer` field says wrote the summary.
        name: String,
        /// The function.
        call: std::sync::Arc<SummarizeFn>,
    },
}

impl Summarizer {
    /// `command`, with the default timeout.
    pub fn new(command: impl Into<String>) -> Self {
        Summarizer::Command {
            command: command.into(),
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// What the plan says wrote a summary.
    pub fn name(&self) -> &str {
        match self {
            Summarizer::Command { command, .. } => command,
            Summarizer::Function { name, .. } => name,
        }
    }
}

impl std::fmt::Debug for Summarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Summarizer::Command { command, timeout } => f
                .debug_struct("Command")
                .field("command", command)
                .field("timeout", timeout)
                .finish(),
            Summarizer::Function { name, .. } => {
                f.debug_struct("Function").field("name", name).finish()
            }
        }
    }
}

/// The default time a summarizer may run: one minute.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most a summarizer may print: a summary longer than this is not one.
pub const MAX_SUMMARY_BYTES: u64 = 1 << 20;

/// What is kept of a failing summarizer's standard error, from its end.
const STDERR_TAIL: usize = 4096;

/// What a reader thread found.
enum Read {
    Out(std::io::Result<Vec<u8>>),
    Err(Vec<u8>),
}

/// Runs the summarizer on one run of narrative: a command (see [`run`]) or
/// a function, whose panic is a failure like its `Err`. Either way a
/// summary that is empty or longer than [`MAX_SUMMARY_BYTES`] is none.
pub(super) fn summarize(
    summarizer: &Summarizer,
    input: String,
    run: &[usize],
    trace: &Trace,
) -> Result<String, Box<Diagnostic>> {
    let ids: Vec<&str> = run.iter().map(|&t| trace.regions[t].id.as_str()).collect();
    let what = if ids.len() == 1 {
        format!("region {}", ids.join(""))
    } else {
        format!("regions {}", ids.join(", "))
    };
    let failed = |reason: String| Box::new(codes::summarizer_failed(&what, &reason));
    match summarizer {
        Summarizer::Command { command, timeout } => self::run(command, *timeout, input, failed),
        Summarizer::Function { name, call } => {
            let called = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| call(&input)));
            let summary = match called {
                Ok(Ok(summary)) => summary,
                Ok(Err(reason)) => return Err(failed(format!("`{name}` failed: {reason}"))),
                Err(_) => return Err(failed(format!("`{name}` panicked"))),
            };
            if summary.len() as u64 > MAX_SUMMARY_BYTES {
                return Err(failed(format!(
                    "`{name}` returned more than {MAX_SUMMARY_BYTES} bytes"
                )));
            }
            match summary.trim() {
                "" => Err(failed(format!("`{name}` returned nothing"))),
                summary => Ok(summary.to_owned()),
            }
        }
    }
}

/// Runs a summarizer command. Its standard input is written while its
/// standard output is read, so a summarizer that prints before it reads
/// cannot deadlock; it is stopped, with every process it started, when it
/// runs past its timeout or prints more than [`MAX_SUMMARY_BYTES`].
fn run(
    command: &str,
    timeout: Duration,
    input: String,
    failed: impl Fn(String) -> Box<Diagnostic>,
) -> Result<String, Box<Diagnostic>> {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut shell, 0);
    let mut child = shell
        .spawn()
        .map_err(|error| failed(format!("`{command}` could not start: {error}")))?;
    let (sender, results) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        // A summarizer that exits without reading its input is judged by its exit status.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
    }
    if let Some(stdout) = child.stdout.take() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let read = stdout
                .take(MAX_SUMMARY_BYTES + 1)
                .read_to_end(&mut bytes)
                .map(|_| bytes);
            let _ = sender.send(Read::Out(read));
        });
    }
    if let Some(mut stderr) = child.stderr.take() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let mut tail = Vec::new();
            let mut chunk = [0u8; 8192];
            while let Ok(n) = stderr.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                tail.extend_from_slice(&chunk[..n]);
                if tail.len() > 2 * STDERR_TAIL {
                    tail.drain(..tail.len() - STDERR_TAIL);
                }
            }
            let _ = sender.send(Read::Err(tail));
        });
    }
    drop(sender);
    let deadline = Instant::now() + timeout;
    let (mut stdout, mut stderr) = (None, Vec::new());
    let mut status = None;
    // Until it exits and both streams are read, or it is stopped.
    while status.is_none() || stdout.is_none() {
        let now = Instant::now();
        if now >= deadline {
            stop(&mut child);
            let seconds = timeout.as_secs_f64();
            return Err(failed(format!(
                "`{command}` ran longer than {seconds} s and was stopped"
            )));
        }
        match results.recv_timeout((deadline - now).min(Duration::from_millis(10))) {
            Ok(Read::Out(read)) => {
                let bytes = read.map_err(|error| failed(error.to_string()))?;
                if bytes.len() as u64 > MAX_SUMMARY_BYTES {
                    stop(&mut child);
                    return Err(failed(format!(
                        "`{command}` printed more than {MAX_SUMMARY_BYTES} bytes and was stopped"
                    )));
                }
                stdout = Some(bytes);
            }
            Ok(Read::Err(tail)) => stderr = tail,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                stdout.get_or_insert_with(Vec::new);
            }
        }
        if status.is_none() {
            status = child
                .try_wait()
                .map_err(|error| failed(error.to_string()))?;
        }
    }
    let status = status.unwrap_or_default();
    // Standard error comes with the exit, or not at all.
    if let Ok(Read::Err(tail)) = results.recv_timeout(Duration::from_millis(100)) {
        stderr = tail;
    }
    if !status.success() {
        let stderr = String::from_utf8_lossy(&stderr);
        let last = stderr.lines().last().unwrap_or("").trim();
        let status = status
            .code()
            .map_or("a signal".to_owned(), |code| format!("status {code}"));
        return Err(failed(if last.is_empty() {
            format!("`{command}` exited with {status}")
        } else {
            format!("`{command}` exited with {status}: {last}")
        }));
    }
    let summary = String::from_utf8(stdout.unwrap_or_default())
        .map_err(|_| failed("its output is not UTF-8".to_owned()))?;
    let summary = summary.trim();
    if summary.is_empty() {
        return Err(failed(format!("`{command}` printed nothing")));
    }
    Ok(summary.to_owned())
}

/// Stops the summarizer and every process it started: they share its
/// process group.
fn stop(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}
