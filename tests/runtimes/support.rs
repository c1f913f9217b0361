//! What every trial uses: its folder, ctxguard itself, reading what the
//! runtimes wrote, and failing with what a person needs to see.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use libtest_mimic::Failed;
use serde_json::Value;

/// The ctxguard binary this build made.
pub const CTXGUARD: &str = env!("CARGO_BIN_EXE_ctxguard");

/// A trial's folder, `$TMPDIR/ctxguard-runtimes/NAME`, emptied first; it
/// stays after the trial to be looked at. Outside any repository: Claude
/// Code gives the model the `git status` and log of the folder it runs in.
pub fn workdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join("ctxguard-runtimes").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the trial's folder can be made");
    dir
}

/// A trial's folders, made afresh: its work folder `name` (see
/// [`workdir`]), the runtime's home in it with the config folder `config`
/// under that home, and the project the runtime runs in.
pub fn folders(
    name: &str,
    home: &str,
    config: &str,
) -> Result<(PathBuf, PathBuf, PathBuf), Failed> {
    let dir = workdir(name);
    let home = dir.join(home);
    let project = dir.join("project");
    for folder in [&home.join(config), &project] {
        std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    }
    Ok((dir, home, project))
}

/// Fails with `message` unless `condition`.
pub fn ensure(condition: bool, message: impl FnOnce() -> String) -> Result<(), Failed> {
    if condition {
        Ok(())
    } else {
        Err(message().into())
    }
}

/// Runs ctxguard with `args` in `cwd`.
pub fn ctxguard(cwd: &Path, args: &[&str]) -> Output {
    Command::new(CTXGUARD)
        .args(args)
        .current_dir(cwd)
        .env_remove("CTXGUARD_LEDGER_DIR")
        .output()
        .expect("ctxguard runs")
}

/// What a process said, for a failure message.
pub fn said(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The records of a JSON Lines file (lines that are not JSON are skipped).
pub fn records(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// The files below `dir` whose name ends with `suffix`, sorted.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The 1-based lines of `path` whose record satisfies `test`.
pub fn lines_where(path: &Path, test: impl Fn(&Value) -> bool) -> Vec<usize> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .enumerate()
        .filter(|(_, line)| serde_json::from_str::<Value>(line).is_ok_and(|v| test(&v)))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Whether fixtures are to be rewritten.
pub fn blessing() -> bool {
    std::env::var("CTXGUARD_RUNTIMES_BLESS").as_deref() == Ok("1")
}

/// The folder the trials keep fixtures in.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join("runtimes")
}

/// `ctxguard audit --format json` of the session file `file` the real
/// client wrote: its events, each of which must stand at the line the
/// client put a compaction (`lines`, 1-based), and what ctxguard said.
pub fn audited(cwd: &Path, file: &Path, lines: &[usize]) -> Result<(Vec<Value>, String), Failed> {
    let audit = ctxguard(cwd, &["audit", "--format", "json", &file.to_string_lossy()]);
    let report: Value = serde_json::from_slice(&audit.stdout)
        .map_err(|e| format!("audit --format json: {e}\n{}", said(&audit)))?;
    let events = report["events"].as_array().cloned().unwrap_or_default();
    let placed: Vec<u64> = events
        .iter()
        .filter_map(|e| e["compaction_line"].as_u64())
        .collect();
    let expected: Vec<u64> = lines.iter().map(|&l| l as u64).collect();
    ensure(placed == expected, || {
        format!(
            "audit placed the compactions of {} at {placed:?}, the client wrote them at {expected:?}\n{}",
            file.display(),
            said(&audit)
        )
    })?;
    Ok((events, said(&audit)))
}

/// The outcome the audit gave, at `event`, to the commitment whose text
/// holds `text`.
pub fn outcome_holding(event: &Value, text: &str) -> Option<Value> {
    event["commitments"]
        .as_array()
        .and_then(|cs| {
            cs.iter()
                .find(|c| c["text"].as_str().is_some_and(|t| t.contains(text)))
        })
        .map(|c| c["outcome"].clone())
}

/// The id a ledger (its records) gave the commitment whose text is `text`.
pub fn id_of(ledger: &[Value], text: &str) -> Option<String> {
    ledger
        .iter()
        .find(|e| e["text"] == text)
        .and_then(|e| e["id"].as_str())
        .map(str::to_owned)
}

/// What the model was given `after` a compaction holds each of `texts`
/// word for word, inside ctxguard's re-injection, which stands there once;
/// `context` says where to look when it does not.
pub fn given_back_once(
    after: &str,
    texts: &[&str],
    context: &dyn Fn() -> String,
) -> Result<(), Failed> {
    for text in texts {
        ensure(after.contains(text), || {
            format!(
                "after the compaction the model was not given `{text}`{}",
                context()
            )
        })?;
    }
    let given = after
        .matches("The user's commitments in this session, word for word")
        .count();
    ensure(given == 1, || {
        format!("the commitments were given back {given} times{}", context())
    })
}

/// The session's ledger in `dir` (its files, and the first one's records).
pub fn ledger_in(dir: &Path) -> (Vec<PathBuf>, Vec<Value>) {
    let files = files(dir, ".jsonl");
    let records = files.first().map(|path| records(path)).unwrap_or_default();
    (files, records)
}

/// The ledger holds each of `pins`, and one check of a summary that
/// reports `lost` lost; `context` says where to look when it does not.
pub fn pinned_and_checked(
    ledger: &[Value],
    pins: &[&str],
    lost: &str,
    context: &dyn Fn() -> String,
) -> Result<(), Failed> {
    for text in pins {
        ensure(
            ledger
                .iter()
                .any(|e| e["event"] == "pinned" && e["text"] == *text),
            || format!("the ledger holds no pin `{text}`{}", context()),
        )?;
    }
    let id = id_of(ledger, lost).unwrap_or_default();
    let checks: Vec<&Value> = ledger.iter().filter(|e| e["event"] == "verified").collect();
    ensure(
        checks.len() == 1
            && checks[0]["lost"]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|i| *i == Value::String(id.clone()))),
        || format!("the summary checks: {checks:?}{}", context()),
    )
}

/// Some run told the user, on standard error, that `line` was lost.
pub fn told_on_stderr(
    runs: &[Output],
    line: &str,
    context: &dyn Fn() -> String,
) -> Result<(), Failed> {
    let told = runs
        .iter()
        .any(|run| String::from_utf8_lossy(&run.stderr).contains(line));
    ensure(told, || {
        format!("the user was not told what the summary lost{}", context())
    })
}

/// `ctxguard init RUNTIME --command CTXGUARD ARGS…` in `cwd`, with `home`
/// as `HOME` when given; fails with what it said when it does not succeed.
pub fn init(runtime: &str, cwd: &Path, home: Option<&Path>, args: &[&str]) -> Result<(), Failed> {
    let mut command = Command::new(CTXGUARD);
    command
        .args(["init", runtime, "--command", CTXGUARD])
        .args(args)
        .env_remove("OPENCLAW_STATE_DIR")
        .current_dir(cwd);
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let init = command
        .output()
        .map_err(|e| format!("ctxguard could not be started: {e}"))?;
    ensure(init.status.success(), || {
        format!("ctxguard init {runtime} failed\n{}", said(&init))
    })
}
