//! A small builder for running the `ctxguard` binary in tests.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Test {
    args: Vec<String>,
    /// Where the binary runs: the repository unless `dir` or `write` says otherwise.
    dir: Option<PathBuf>,
    /// A temporary directory `write` fills; the binary runs in it.
    temp: Option<tempfile::TempDir>,
    /// `None`: any exit status is accepted (the caller inspects `Output::status`).
    expect_status: bool,
    stdin: Option<Vec<u8>>,
    env: Vec<(String, String)>,
    stdout: Option<String>,
    stdout_contains: Vec<String>,
    stderr_contains: Vec<String>,
    status: i32,
    /// Run as an unprivileged user (`nobody`), so permissions hold even
    /// when the tests run as root.
    unprivileged: bool,
}

pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

impl Test {
    pub fn new() -> Self {
        Test {
            args: Vec::new(),
            dir: None,
            temp: None,
            expect_status: true,
            env: Vec::new(),
            stdin: None,
            stdout: None,
            stdout_contains: Vec::new(),
            stderr_contains: Vec::new(),
            status: 0,
            unprivileged: false,
        }
    }

    /// Runs the binary as `nobody` when the tests run as root (through
    /// `setpriv`), so a folder without permission cannot be read.
    pub fn unprivileged(mut self) -> Self {
        self.unprivileged = true;
        self
    }

    pub fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|arg| arg.to_string()));
        self
    }

    /// `ctxguard verify` of the migration scenario's trace against `plan`
    /// (a path from the repository root, or `-`); more arguments may follow.
    pub fn verify(plan: &str) -> Self {
        Test::new().args(&[
            "verify",
            "--trace",
            "tests/scenarios/migration/trace.yaml",
            "--plan",
            plan,
        ])
    }

    /// `ctxguard verify` of a trace and a plan written for the test:
    /// each a (file name, text) pair; more arguments may follow.
    pub fn verify_written(trace: (&str, &str), plan: (&str, &str)) -> Self {
        Test::new()
            .args(&["verify", "--trace", trace.0, "--plan", plan.0])
            .write(trace.0, trace.1)
            .write(plan.0, plan.1)
    }

    /// Arguments split at white space, as a documented command line reads.
    pub fn command_line(self, line: &str) -> Self {
        let args: Vec<&str> = line.split_whitespace().collect();
        self.args(&args)
    }

    /// Runs the binary in `dir`.
    pub fn current_dir(mut self, dir: &Path) -> Self {
        self.dir = Some(dir.to_path_buf());
        self
    }

    /// Writes `text` to `name` in a temporary directory the binary runs in.
    pub fn write(mut self, name: &str, text: &str) -> Self {
        let temp = self
            .temp
            .get_or_insert_with(|| tempfile::tempdir().expect("temporary directory"));
        let path = temp.path().join(name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("a folder for the test file");
        }
        std::fs::write(path, text).expect("write a test file");
        self
    }

    /// Sets an environment variable for the run.
    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_owned(), value.to_owned()));
        self
    }

    /// Accepts any exit status; `Output::status` has it.
    pub fn any_status(mut self) -> Self {
        self.expect_status = false;
        self
    }

    pub fn stdin(mut self, stdin: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(stdin.into());
        self
    }

    /// The whole of standard output.
    pub fn stdout(mut self, stdout: &str) -> Self {
        self.stdout = Some(stdout.to_owned());
        self
    }

    pub fn stdout_contains(mut self, text: &str) -> Self {
        self.stdout_contains.push(text.to_owned());
        self
    }

    pub fn stderr_contains(mut self, text: &str) -> Self {
        self.stderr_contains.push(text.to_owned());
        self
    }

    pub fn status(mut self, status: i32) -> Self {
        self.status = status;
        self
    }

    pub fn run(self) -> Output {
        let binary = env!("CARGO_BIN_EXE_ctxguard");
        // `nobody` may not reach the build folder: it runs a copy.
        let copy = (self.unprivileged && nix::unistd::geteuid().is_root()).then(|| {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().expect("a folder for the binary");
            let open = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(dir.path(), open.clone()).expect("mode");
            let copy = dir.path().join("ctxguard");
            std::fs::copy(binary, &copy).expect("the binary copied");
            std::fs::set_permissions(&copy, open).expect("mode");
            (dir, copy)
        });
        let mut command = if let Some((_, copy)) = &copy {
            let mut command = Command::new("setpriv");
            command
                .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(copy)
                .args(&self.args);
            command
        } else {
            let mut command = Command::new(binary);
            command.args(&self.args);
            command
        };
        let mut child = command
            .current_dir(match (&self.temp, &self.dir) {
                (Some(temp), _) => temp.path().to_path_buf(),
                (None, Some(dir)) => dir.clone(),
                (None, None) => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
            })
            .env_remove("COLUMNS")
            // No Claude Code is asked for its version unless a test names one.
            .env("CTXGUARD_CLAUDE", "/nonexistent/claude")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the ctxguard binary runs");
        if let (Some(input), Some(mut pipe)) = (&self.stdin, child.stdin.take()) {
            // A process may answer and exit before it has read all its
            // input: what it said and its status are checked all the same.
            if let Err(error) = pipe.write_all(input) {
                assert_eq!(
                    error.kind(),
                    std::io::ErrorKind::BrokenPipe,
                    "write stdin: {error}"
                );
            }
        }
        let output = child.wait_with_output().expect("ctxguard finishes");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let context = format!(
            "ctxguard {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            self.args.join(" ")
        );
        let status = output.status.code().unwrap_or(-1);
        if self.expect_status {
            assert_eq!(status, self.status, "exit status of {context}");
        }
        if let Some(expected) = &self.stdout {
            assert_eq!(&stdout, expected, "stdout of {context}");
        }
        for text in &self.stdout_contains {
            assert!(
                flat(&stdout).contains(&flat(text)),
                "stdout lacks {text:?}: {context}"
            );
        }
        for text in &self.stderr_contains {
            assert!(
                flat(&stderr).contains(&flat(text)),
                "stderr lacks {text:?}: {context}"
            );
        }
        Output {
            stdout,
            stderr,
            status,
        }
    }
}

/// Asserts that no line of human output is wider than the 80 columns it
/// is drawn for when not on a terminal.
pub fn assert_fits(output: &str, context: &str) {
    let wide: Vec<&str> = output
        .lines()
        .filter(|line| line.chars().count() > 80)
        .collect();
    assert!(
        wide.is_empty(),
        "{context}: {} lines wider than 80 columns:\n{}",
        wide.len(),
        wide.join("\n")
    );
}

/// `text` with every run of white space one space: a phrase of human
/// output, however it was wrapped to the width.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Verifies a plan against a trace, both given as their `regions` in JSON,
/// in process, under `policy`.
pub fn verify_regions(
    policy: &ctxguard::Policy,
    trace: serde_json::Value,
    plan: serde_json::Value,
) -> ctxguard::Verification {
    let read = |name: &str, regions: serde_json::Value| {
        ctxguard::Input::value(name, &serde_json::json!({"version": 1, "regions": regions}))
    };
    let trace = ctxguard::Trace::read(&read("t.json", trace)).expect("a trace");
    let plan = ctxguard::Plan::read(&read("p.json", plan)).expect("a plan");
    ctxguard::verify(policy, &trace, &plan, &ctxguard::Options::default())
}

/// The verdict and the code of each finding.
pub fn verdict_and_codes(
    verification: &ctxguard::Verification,
) -> (ctxguard::Verdict, Vec<String>) {
    let codes = verification
        .diagnostics
        .iter()
        .map(|d| d.code.name().to_owned())
        .collect();
    (verification.verdict, codes)
}

/// `../shared/corpus/NAME` beside the repository, where present; otherwise
/// a line saying the tests over it are skipped, written past the test
/// harness's capture so a skip is always visible.
pub fn shared_corpus(name: &str, what: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name);
    if path.is_dir() {
        return Some(path);
    }
    // CI has the shared corpus: there a test over it must run, never skip.
    assert!(
        std::env::var_os("CTXGUARD_REQUIRE_SHARED").is_none(),
        "{what} is not at {}, and CTXGUARD_REQUIRE_SHARED says it must be",
        path.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {what} is not at {}",
        path.display()
    );
    None
}

/// A headless Chromium, where the machine has one (CI installs the Debian
/// package `chromium`; `CTXGUARD_CHROMIUM` names another), with a profile
/// of its own.
pub struct Browser {
    program: PathBuf,
    profile: PathBuf,
}

impl Browser {
    /// The browser, its profile under `dir`; `None` (and a line saying the
    /// test is skipped) where there is none.
    pub fn find(dir: &Path) -> Option<Browser> {
        let names = std::env::var("CTXGUARD_CHROMIUM")
            .into_iter()
            .chain(["chromium", "chromium-browser", "google-chrome"].map(String::from));
        for name in names {
            let found = std::process::Command::new("sh")
                .args(["-c", &format!("command -v {name}")])
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
            if let Some(path) = found.filter(|p| !p.is_empty()) {
                return Some(Browser {
                    program: path.into(),
                    profile: dir.join("browser-profile"),
                });
            }
        }
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: no headless Chromium on this machine (CI installs the Debian package `chromium`)"
        );
        None
    }

    fn run(&self, args: &[&str], url: &str) -> std::process::Output {
        std::process::Command::new(&self.program)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-dev-shm-usage",
            ])
            .arg(format!("--user-data-dir={}", self.profile.display()))
            .args(args)
            .arg(url)
            .output()
            .expect("chromium runs")
    }

    /// A screenshot of `url` at `size`, into `png`.
    pub fn screenshot(&self, url: &str, size: (u32, u32), png: &Path) {
        self.run(
            &[
                &format!("--screenshot={}", png.display()),
                &format!("--window-size={},{}", size.0, size.1),
            ],
            url,
        );
    }

    /// The page at `url` as the browser built it, its scripts run.
    pub fn dom(&self, url: &str) -> String {
        String::from_utf8_lossy(&self.run(&["--dump-dom"], url).stdout).into_owned()
    }
}
