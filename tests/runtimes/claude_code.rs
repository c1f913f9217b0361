//! Claude Code, driven as its Agent SDK drives it (`--input-format
//! stream-json` with `--permission-prompt-tool stdio`: the user answers
//! `AskUserQuestion` through the control protocol) and as a person types
//! `claude -p … --resume`.

mod facts;
mod guard;
mod plugin;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use libtest_mimic::Failed;
use serde_json::{json, Value};

use crate::npm::Package;
use crate::support;

pub const SCENARIOS: &[(&str, crate::Scenario)] = &[
    ("guard", guard::guard),
    ("refusal", guard::refusal),
    ("hook-events", facts::hook_events),
    ("settings", facts::settings),
    ("matchers", facts::matchers),
    ("hook-output", facts::hook_output),
    ("plugin", plugin::plugin),
];

/// How long one step of a session may take.
const STEP: Duration = Duration::from_secs(120);

/// One Claude Code installation in a home and project of its own.
pub struct Claude {
    pub package: Package,
    pub dir: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
    pub url: String,
    /// A folder put first on the `PATH` the client (and its hooks) run with.
    pub bin: Option<PathBuf>,
}

/// What one SDK session said.
pub struct Sdk {
    /// Every message it printed.
    pub messages: Vec<Value>,
    pub stderr: String,
    pub session: Option<String>,
}

impl Claude {
    pub fn new(package: &Package, trial: &str, url: &str) -> Claude {
        let dir = support::workdir(&format!("claude-code-{}-{trial}", package.version));
        let home = dir.join("home");
        let project = dir.join("project");
        std::fs::create_dir_all(&home).expect("the home can be made");
        std::fs::create_dir_all(project.join(".claude")).expect("the project can be made");
        Claude {
            package: package.clone(),
            dir,
            home,
            project,
            url: url.to_owned(),
            bin: None,
        }
    }

    /// `claude` with its updates, telemetry and every other call home off.
    fn command(&self) -> Command {
        let mut command = Command::new(self.package.command());
        let mut path: Vec<PathBuf> = self.bin.iter().cloned().collect();
        path.extend(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        ));
        command
            .env_clear()
            .env("PATH", std::env::join_paths(path).unwrap_or_default())
            .env("HOME", &self.home)
            .env("ANTHROPIC_BASE_URL", &self.url)
            .env("ANTHROPIC_API_KEY", "sk-ant-offline-test")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_TELEMETRY", "1")
            .env("DISABLE_ERROR_REPORTING", "1")
            .env(
                "CTXGUARD_LEDGER_DIR",
                self.project.join(".ctxguard").join("ledger"),
            )
            .current_dir(&self.project);
        command
    }

    /// `claude ARGS` (`plugin install …`), as a person runs it.
    pub fn run(&self, args: &[&str]) -> Output {
        let mut command = self.command();
        command.args(args);
        output_within(command, STEP)
    }

    /// `claude -p PROMPT`, resuming `session` when given.
    pub fn print(&self, prompt: &str, session: Option<&str>) -> Output {
        let mut command = self.command();
        command.arg("-p").arg(prompt);
        if let Some(session) = session {
            command.args(["--resume", session]);
        }
        output_within(command, STEP)
    }

    /// One SDK session: each prompt after the previous turn's result;
    /// `AskUserQuestion` answered with the option `answer` names for its
    /// question (else the first).
    pub fn session(&self, prompts: &[&str], answer: &[(&str, &str)]) -> Result<Sdk, Failed> {
        self.session_with(&[], prompts, answer)
    }

    /// [`Claude::session`] with more arguments (`--permission-mode plan`).
    pub fn session_with(
        &self,
        extra: &[&str],
        prompts: &[&str],
        answer: &[(&str, &str)],
    ) -> Result<Sdk, Failed> {
        let mut child = self
            .command()
            .args(extra)
            .args([
                "-p",
                "--input-format",
                "stream-json",
                "--output-format",
                "stream-json",
                "--verbose",
                "--permission-prompt-tool",
                "stdio",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("claude could not be started: {e}"))?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let errors = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let send = |stdin: &mut std::process::ChildStdin, message: Value| {
            writeln!(stdin, "{message}").and_then(|()| stdin.flush())
        };
        let user = |text: &str| json!({"type": "user", "message": {"role": "user", "content": text}, "parent_tool_use_id": null, "session_id": ""});
        let mut messages = Vec::new();
        let mut failure = None;
        let _ = send(
            &mut stdin,
            json!({"type": "control_request", "request_id": "init", "request": {"subtype": "initialize", "hooks": null}}),
        );
        let mut next = 0;
        let _ = send(&mut stdin, user(prompts[next]));
        let mut stdin = Some(stdin);
        loop {
            let line = match rx.recv_timeout(STEP) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    failure = Some(format!(
                        "claude said nothing for {}s after prompt {next}",
                        STEP.as_secs()
                    ));
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let kind = message.get("type").and_then(Value::as_str).unwrap_or("");
            if kind == "control_request" {
                let request = &message["request"];
                if request["subtype"] == "can_use_tool" {
                    let mut input = request["input"].clone();
                    if request["tool_name"] == "AskUserQuestion" {
                        input["answers"] = choose(&input, answer);
                    }
                    let response = json!({
                        "type": "control_response",
                        "response": {
                            "subtype": "success",
                            "request_id": message["request_id"],
                            "response": {"behavior": "allow", "updatedInput": input},
                        },
                    });
                    if let Some(stdin) = stdin.as_mut() {
                        let _ = send(stdin, response);
                    }
                }
            }
            if kind == "result" {
                next += 1;
                match prompts.get(next) {
                    Some(prompt) => {
                        if let Some(stdin) = stdin.as_mut() {
                            let _ = send(stdin, user(prompt));
                        }
                    }
                    None => stdin = None,
                }
            }
            messages.push(message);
        }
        drop(stdin);
        let _ = child.wait();
        let _ = reader.join();
        let stderr = errors.join().unwrap_or_default();
        if let Some(failure) = failure {
            return Err(format!("{failure}\n--- stderr\n{stderr}").into());
        }
        let session = messages
            .iter()
            .find_map(|m| m.get("session_id").and_then(Value::as_str))
            .map(str::to_owned);
        Ok(Sdk {
            messages,
            stderr,
            session,
        })
    }

    /// The main transcripts Claude Code wrote (not its subagents').
    pub fn transcripts(&self) -> Vec<PathBuf> {
        support::files(&self.home.join(".claude").join("projects"), ".jsonl")
            .into_iter()
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("agent-"))
                    && !p.components().any(|c| c.as_os_str() == "subagents")
            })
            .collect()
    }

    /// The transcript of `session`.
    pub fn transcript(&self, session: &str) -> Result<PathBuf, Failed> {
        self.transcripts()
            .into_iter()
            .find(|p| p.file_stem().is_some_and(|s| s == session))
            .ok_or_else(|| {
                format!(
                    "no transcript of session {session} below {}",
                    self.home.display()
                )
                .into()
            })
    }

    /// The settings file of the project.
    pub fn settings(&self) -> PathBuf {
        self.project.join(".claude").join("settings.json")
    }
}

/// The `answers` of an `AskUserQuestion` input: each question's label
/// named in `answer`, else its first option's.
fn choose(input: &Value, answer: &[(&str, &str)]) -> Value {
    let mut answers = serde_json::Map::new();
    for question in input["questions"].as_array().into_iter().flatten() {
        let text = question["question"].as_str().unwrap_or_default();
        let label = answer
            .iter()
            .find(|(q, _)| *q == text)
            .map(|(_, a)| (*a).to_owned())
            .or_else(|| question["options"][0]["label"].as_str().map(str::to_owned))
            .unwrap_or_default();
        answers.insert(text.to_owned(), Value::String(label));
    }
    Value::Object(answers)
}

/// Runs `command`, killing it after `limit`.
pub fn output_within(mut command: Command, limit: Duration) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let pid = child.id();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(limit).is_err() {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    });
    let output = child
        .wait_with_output()
        .expect("the command's output is read");
    let _ = done_tx.send(());
    let _ = watchdog.join();
    output
}

/// The records of `path` of `type` (and `subtype`).
pub fn of_type(path: &Path, kind: &str, subtype: Option<&str>) -> Vec<Value> {
    support::records(path)
        .into_iter()
        .filter(|r| r.get("type").and_then(Value::as_str) == Some(kind))
        .filter(|r| subtype.is_none_or(|s| r.get("subtype").and_then(Value::as_str) == Some(s)))
        .collect()
}
