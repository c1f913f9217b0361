//! The `ctxguard` command line: arguments in, one library call, what it
//! found out. Each command's file holds its arguments and turns them into
//! the library's request; this one parses, dispatches, and hands what the
//! command has to say to the report, which prints it and gives the exit
//! status. The environment is read once, in `env.rs`.

mod args;
mod audit;
mod check;
mod env;
mod explain;
mod fmt;
mod hook;
mod import;
mod init;
mod ledger;
mod lsp;
mod plan;
mod report;
mod schema;
mod verify;

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ctxguard::{Diagnostic, ExitStatus, Format, Report, Terminal, UsageError};

use env::Env;

/// `0.1.0 (commit 1a2b3c4d5e6f)`: the release and the commit it was built from.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("CTXGUARD_COMMIT"),
    ")"
);

/// Safe context compaction for AI agents: compaction defined over invariants, not tokens.
#[derive(Parser)]
#[command(name = "ctxguard", version = VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(check::Args),
    Verify(verify::Args),
    Plan(plan::Args),
    Import(import::Args),
    Audit(audit::Args),
    Report(report::Args),
    Fmt(fmt::Args),
    Schema(schema::Args),
    Explain(explain::Args),
    Hook(hook::Args),
    Ledger(ledger::Args),
    Init(init::Args),
    Lsp(lsp::Args),
}

impl Command {
    fn run(self, env: &Env) -> Result<Said, UsageError> {
        match self {
            Command::Check(args) => args.run(env),
            Command::Verify(args) => args.run(env),
            Command::Plan(args) => args.run(env),
            Command::Import(args) => args.run(env),
            Command::Audit(args) => args.run(env),
            Command::Report(args) => args.run(env),
            Command::Fmt(args) => args.run(env),
            Command::Schema(args) => args.run(env),
            Command::Explain(args) => args.run(env),
            Command::Hook(args) => args.run(env),
            Command::Ledger(args) => args.run(env),
            Command::Init(args) => args.run(env),
            Command::Lsp(args) => args.run(env),
        }
    }
}

/// What a command has to say; the report prints it and gives the exit status.
enum Said {
    /// Findings in a format; `quiet`: no line on success.
    Report {
        report: Report,
        format: Format,
        quiet: bool,
    },
    /// A hook's answer, in its runtime's terms.
    Hook(ctxguard::hook::Report),
    /// What `ledger` shows, and the lines of the ledger it skipped.
    Ledger {
        view: ctxguard::ledger::View,
        problems: Vec<Diagnostic>,
        json: bool,
    },
    /// What `init` wrote, or why it wrote nothing.
    Init(Result<ctxguard::init::Installed, Vec<Diagnostic>>),
    /// The language server answered until its client let it go: all it
    /// had to say went over the protocol.
    Served,
}

impl Said {
    fn report(report: Report, format: Format) -> Said {
        Said::Report {
            report,
            format,
            quiet: false,
        }
    }

    /// No line on success, when `quiet`.
    fn quiet(self, quiet: bool) -> Said {
        match self {
            Said::Report { report, format, .. } => Said::Report {
                report,
                format,
                quiet,
            },
            other => other,
        }
    }

    /// Prints what was said; the process's exit code.
    fn emit(self, env: &Env) -> i32 {
        match self {
            Said::Report {
                report,
                format,
                quiet,
            } => {
                let terminal = Terminal::detect(!env.no_color, env.columns);
                let status = ctxguard::emit(&report, format, &terminal);
                // Success is said, on standard error, never silence that
                // could be mistaken for nothing done (`--quiet` says nothing).
                if !quiet && format == Format::Human {
                    if let Some(line) = ctxguard::success_line(&report) {
                        eprintln!("{line}");
                    }
                }
                status.code()
            }
            Said::Hook(report) => ctxguard::hook::emit(&report).code(),
            Said::Ledger {
                view,
                problems,
                json,
            } => ctxguard::ledger::emit(&view, &problems, json).code(),
            Said::Init(result) => ctxguard::init::emit(&result).code(),
            Said::Served => ExitStatus::Success.code(),
        }
    }
}

/// Parses the arguments, runs the command, prints what it says.
pub fn main() -> ExitCode {
    let env = Env::read();
    // Help wraps at the terminal's width, and at 80 columns when piped.
    let mut command = Cli::command();
    if !std::io::stdout().is_terminal() {
        command = command.term_width(80);
    }
    let parsed = command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let code = match parsed {
        Ok(cli) => match cli.command.run(&env) {
            Ok(said) => said.emit(&env),
            Err(error) => ctxguard::usage_error(&error).code(),
        },
        Err(error) => {
            // A hook whose arguments do not parse answers as its event's
            // hook answers any failure: it never blocks a prompt.
            let args: Vec<String> = std::env::args().skip(1).collect();
            let hook = hook::named_in(&args);
            match hook {
                Some((runtime, event)) if error.use_stderr() => {
                    let rendered = error.render().to_string();
                    let first = rendered.lines().next().unwrap_or_default();
                    let why = first.trim_start_matches("error: ");
                    Said::Hook(ctxguard::hook::not_started(runtime, event, why)).emit(&env)
                }
                _ => {
                    let _ = error.print();
                    let hooked = args.first().map(String::as_str) == Some("hook");
                    match (error.use_stderr(), hooked) {
                        (false, _) => ExitStatus::Success.code(),
                        (true, true) => ExitStatus::Failure.code(),
                        (true, false) => ExitStatus::Usage.code(),
                    }
                }
            }
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(2))
}
