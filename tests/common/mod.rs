//! A small builder for running the `ctxguard` binary in tests.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

pub struct Test {
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    stdout: Option<String>,
    stdout_contains: Vec<String>,
    stderr_contains: Vec<String>,
    status: i32,
}

pub struct Output {
    pub stdout: String,
    pub stderr: String,
}

impl Test {
    pub fn new() -> Self {
        Test {
            args: Vec::new(),
            stdin: None,
            stdout: None,
            stdout_contains: Vec::new(),
            stderr_contains: Vec::new(),
            status: 0,
        }
    }

    pub fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|arg| arg.to_string()));
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
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxguard"))
            .args(&self.args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_remove("COLUMNS")
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
            pipe.write_all(input).expect("write stdin");
        }
        let output = child.wait_with_output().expect("ctxguard finishes");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let context = format!(
            "ctxguard {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            self.args.join(" ")
        );
        assert_eq!(
            output.status.code(),
            Some(self.status),
            "exit status of {context}"
        );
        if let Some(expected) = &self.stdout {
            assert_eq!(&stdout, expected, "stdout of {context}");
        }
        for text in &self.stdout_contains {
            assert!(
                stdout.contains(text.as_str()),
                "stdout lacks {text:?}: {context}"
            );
        }
        for text in &self.stderr_contains {
            assert!(
                stderr.contains(text.as_str()),
                "stderr lacks {text:?}: {context}"
            );
        }
        Output { stdout, stderr }
    }
}
