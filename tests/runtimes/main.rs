//! Real runtimes in the loop: the agent CLIs ctxguard guards and imports,
//! installed from npm at the versions of `matrix.toml`, driven offline
//! through real sessions against a scripted model server on loopback, and
//! ctxguard checked against what they really write and really do.
//!
//! `cargo test --test runtimes` installs what is missing (the only step
//! that needs the network), then runs itself again inside a network
//! namespace that has only loopback, where each trial starts its own model
//! server and its own CLI processes in a temporary home. A trial's folder
//! stays in `$TMPDIR/ctxguard-runtimes/` after a failure, to be looked at.
//! `CTXGUARD_RUNTIMES=off` marks every trial ignored (a machine without
//! npm); `CTXGUARD_RUNTIMES_BLESS=1` rewrites the fixtures the trials keep
//! (`tests/fixtures/runtimes/`), scrubbed of the runtimes' own text.

mod claude_code;
mod codex;
mod fixtures;
mod gemini;
mod npm;
#[path = "../support/npm_install.rs"]
mod npm_install;
mod openclaw;
mod pi;
mod sandbox;
#[path = "../support/scrub.rs"]
mod scrub;
mod server;
mod support;

use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};
use npm::Package;
use serde::Deserialize;

#[derive(Deserialize)]
struct Runtime {
    package: String,
    bin: String,
    versions: Vec<String>,
    /// The Node.js version it needs, when not the machine's.
    #[serde(default)]
    node: Option<String>,
}

impl Runtime {
    fn packages(&self) -> impl Iterator<Item = Package> + '_ {
        self.versions.iter().map(|version| Package {
            name: self.package.clone(),
            version: version.clone(),
            bin: self.bin.clone(),
            node: self.node.clone(),
        })
    }
}

#[derive(Deserialize)]
struct Matrix {
    #[serde(rename = "claude-code")]
    claude_code: Runtime,
    codex: Runtime,
    pi: Runtime,
    #[serde(rename = "gemini-cli")]
    gemini_cli: Runtime,
    openclaw: Runtime,
}

impl Matrix {
    fn load() -> Matrix {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/runtimes/matrix.toml");
        let text = std::fs::read_to_string(path).expect("tests/runtimes/matrix.toml is readable");
        toml::from_str(&text).expect("tests/runtimes/matrix.toml is a matrix")
    }

    fn packages(&self) -> Vec<Package> {
        self.claude_code
            .packages()
            .chain(self.codex.packages())
            .chain(self.pi.packages())
            .chain(self.gemini_cli.packages())
            .chain(self.openclaw.packages())
            .collect()
    }
}

type Scenario = fn(&Package) -> Result<(), Failed>;

fn trials(matrix: &Matrix) -> Vec<Trial> {
    let mut trials = Vec::new();
    let mut add = |package: Package, scenarios: &[(&str, Scenario)]| {
        for (name, scenario) in scenarios {
            let package = package.clone();
            let scenario = *scenario;
            let name = format!(
                "{}@{}::{name}",
                package.bin.replace("claude", "claude-code"),
                package.version
            );
            trials.push(Trial::test(name, move || scenario(&package)));
        }
    };
    for package in matrix.claude_code.packages() {
        add(package, claude_code::SCENARIOS);
    }
    for package in matrix.codex.packages() {
        add(package, codex::SCENARIOS);
    }
    for package in matrix.pi.packages() {
        add(package, pi::SCENARIOS);
    }
    for package in matrix.gemini_cli.packages() {
        add(package, gemini::SCENARIOS);
    }
    for package in matrix.openclaw.packages() {
        add(package, openclaw::SCENARIOS);
    }
    trials
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let matrix = Matrix::load();
    let mut trials = trials(&matrix);
    if std::env::var("CTXGUARD_RUNTIMES").as_deref() == Ok("off") {
        eprintln!("runtimes: CTXGUARD_RUNTIMES=off: every trial is ignored");
        trials = trials
            .into_iter()
            .map(|t| t.with_ignored_flag(true))
            .collect();
        return libtest_mimic::run(&args, trials).exit_code();
    }
    if args.list {
        return libtest_mimic::run(&args, trials).exit_code();
    }
    if !sandbox::inside() {
        let failures: Vec<String> = std::thread::scope(|scope| {
            let jobs: Vec<_> = matrix
                .packages()
                .into_iter()
                .map(|package| scope.spawn(move || package.install()))
                .collect();
            jobs.into_iter()
                .filter_map(|job| {
                    job.join()
                        .unwrap_or_else(|_| Err("an install panicked".into()))
                        .err()
                })
                .collect()
        });
        if !failures.is_empty() {
            for failure in failures {
                eprintln!("runtimes: {failure}");
            }
            eprintln!("runtimes: the CLIs could not be installed; CTXGUARD_RUNTIMES=off skips these tests on a machine without the npm registry");
            return ExitCode::FAILURE;
        }
        return sandbox::enter();
    }
    if let Err(e) = sandbox::loopback() {
        eprintln!("runtimes: {e}");
        return ExitCode::FAILURE;
    }
    libtest_mimic::run(&args, trials).exit_code()
}
