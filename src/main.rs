use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use ctxguard::report::{self, Format, HumanStyle};
use ctxguard::{check, explain, Code, ExitStatus};

/// Safe context compaction for AI agents: compaction defined over invariants, not tokens.
#[derive(Parser)]
#[command(name = "ctxguard", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and lint policy files (a directory: every `*.policy` below it).
    Check {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
        /// Exit 1 on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Explain a diagnostic code; without a code, list them all.
    Explain { code: Option<String> },
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
        }
    }
}

fn human_style() -> HumanStyle {
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        HumanStyle {
            color: std::env::var_os("NO_COLOR").is_none(),
            width: terminal_width(),
        }
    } else {
        HumanStyle::plain()
    }
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|columns| columns.parse().ok())
        .unwrap_or(100)
}

fn run(cli: Cli) -> Result<ExitStatus, ctxguard::UsageError> {
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Check {
            paths,
            format,
            deny_warnings,
        } => {
            let report = check::check(&paths)?;
            // A closed pipe is not an error worth a panic.
            let _ = report::render(&report, format.into(), &human_style(), &mut out);
            Ok(check::status(&report, deny_warnings))
        }
        Command::Explain { code: None } => {
            let _ = out.write_all(explain::list().as_bytes());
            Ok(ExitStatus::Success)
        }
        Command::Explain { code: Some(name) } => {
            let code = Code::from_name(&name).ok_or_else(|| {
                ctxguard::UsageError(format!(
                    "`{name}` is not a ctxguard code; `ctxguard explain` lists them all"
                ))
            })?;
            let _ = out.write_all(explain::render(code).as_bytes());
            Ok(ExitStatus::Success)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let status = run(cli).unwrap_or_else(|error| {
        eprintln!("error: {error}");
        ExitStatus::Usage
    });
    ExitCode::from(status.code() as u8)
}
