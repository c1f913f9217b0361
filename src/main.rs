use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use ctxguard::ast::Tokenizer;
use ctxguard::compact::CompactOptions;
use ctxguard::document::InputFormat;
use ctxguard::report::{self, Format, HumanStyle};
use ctxguard::run::{self, PlanRequest, VerifyRequest};
use ctxguard::schema::{schema, Which};
use ctxguard::severity::Overrides;
use ctxguard::verify::{Options, WARNING_LIMIT};
use ctxguard::{check, explain, format, Code, ExitStatus};

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
        #[command(flatten)]
        severity: SeverityArgs,
    },
    /// Verify a compaction plan against its trace and the policy.
    ///
    /// Exit 0: compact (safe to apply); 1: reject; 3: escalate (no plan fits
    /// the budget: a person must decide); 2: unreadable input or bad usage.
    Verify {
        /// The buffer before compaction (JSON, YAML or JSON Lines; `-` for stdin).
        #[arg(long, value_name = "FILE")]
        trace: PathBuf,
        /// The proposed buffer after compaction.
        #[arg(long, value_name = "FILE")]
        plan: PathBuf,
        /// The policy; the built-in default when absent.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// Read inputs as this format, whatever their extension.
        #[arg(long, value_enum, value_name = "FORMAT")]
        input_format: Option<InputFormatArg>,
        /// Override the policy's `budget window` for this run.
        #[arg(long, value_name = "TOKENS")]
        budget: Option<u64>,
        /// Show every warning; by default each advisory code shows 10.
        #[arg(long)]
        all_warnings: bool,
        #[command(flatten)]
        severity: SeverityArgs,
        #[command(flatten)]
        counting: Counting,
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
    },
    /// Write a safe plan for a trace to stdout: commitments verbatim, each
    /// run of narrative between them summarized, and, if still over budget,
    /// the oldest summaries dropped.
    ///
    /// Exit 0: plan written (it verifies as compact); 3: escalate (the
    /// commitments alone do not fit); 2: unreadable input, a trace that
    /// cannot be compacted safely, or a failing summarizer.
    Plan {
        #[arg(long, value_name = "FILE")]
        trace: PathBuf,
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// A shell command run once per narrative run, with the run's text on
        /// stdin; its stdout is the summary. Without it, the first sentence
        /// of each region stands in (marked `summarizer: extractive`).
        #[arg(long, value_name = "CMD")]
        summarizer: Option<String>,
        #[arg(long, value_name = "TOKENS")]
        budget: Option<u64>,
        #[arg(long, value_enum, value_name = "FORMAT")]
        input_format: Option<InputFormatArg>,
        /// The plan's format; the trace's format when absent.
        #[arg(long, value_enum, value_name = "FORMAT")]
        output_format: Option<InputFormatArg>,
        #[command(flatten)]
        counting: Counting,
    },
    /// Render a report saved with `--format json` again, as SARIF, GitHub
    /// commands or JSON, with the exit status of the run that made it.
    Report {
        /// The saved report.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        #[arg(long, value_enum)]
        format: FormatArg,
    },
    /// Lay policy files out in ctxguard's canonical layout, in place.
    ///
    /// Exit 0: all formatted (or, with `--check`, already formatted);
    /// 1: `--check` found files to format (their diffs are printed), or a
    /// file does not parse; 2: unreadable input.
    Fmt {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write nothing; print the changes as a diff and exit 1 if there are any.
        #[arg(long)]
        check: bool,
    },
    /// Print the JSON Schema of the trace or the plan format, for editors
    /// and CI (also in `schemas/`).
    Schema {
        #[arg(value_enum)]
        which: SchemaArg,
    },
    /// Explain a diagnostic code; without a code, list them all.
    Explain { code: Option<String> },
}

#[derive(Clone, Copy, ValueEnum)]
enum SchemaArg {
    Trace,
    Plan,
}

/// Severity control for one run, for `check` and `verify`.
#[derive(clap::Args)]
struct SeverityArgs {
    /// Make every warning an error (exit 1).
    #[arg(long)]
    deny_warnings: bool,
    /// Do not report CODE. Codes that decide a verdict cannot be allowed.
    #[arg(short = 'A', long = "allow", value_name = "CODE")]
    allow: Vec<String>,
    /// Report CODE as a warning. Codes that decide a verdict cannot be lowered.
    #[arg(short = 'W', long = "warn", value_name = "CODE")]
    warn: Vec<String>,
    /// Report CODE as an error.
    #[arg(short = 'D', long = "deny", value_name = "CODE")]
    deny: Vec<String>,
}

impl SeverityArgs {
    fn overrides(&self) -> Result<Overrides, ctxguard::UsageError> {
        Overrides::new(&self.allow, &self.warn, &self.deny, self.deny_warnings)
    }
}

/// How tokens are counted, for `verify` and `plan`.
#[derive(clap::Args)]
struct Counting {
    /// Count with this tokenizer instead of the policy's.
    #[arg(long, value_enum, value_name = "NAME")]
    tokenizer: Option<TokenizerArg>,
    /// Count every region instead of trusting its `tokens`, and warn about
    /// counts more than 10% off.
    #[arg(long)]
    recount: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum TokenizerArg {
    #[value(name = "o200k_base")]
    O200kBase,
    #[value(name = "cl100k_base")]
    Cl100kBase,
    Approx,
}

impl From<TokenizerArg> for Tokenizer {
    fn from(tokenizer: TokenizerArg) -> Tokenizer {
        match tokenizer {
            TokenizerArg::O200kBase => Tokenizer::O200kBase,
            TokenizerArg::Cl100kBase => Tokenizer::Cl100kBase,
            TokenizerArg::Approx => Tokenizer::Approx,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum InputFormatArg {
    Json,
    Yaml,
    Jsonl,
}

impl From<InputFormatArg> for InputFormat {
    fn from(format: InputFormatArg) -> InputFormat {
        match format {
            InputFormatArg::Json => InputFormat::Json,
            InputFormatArg::Yaml => InputFormat::Yaml,
            InputFormatArg::Jsonl => InputFormat::JsonLines,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Sarif,
    Github,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Github => Format::Github,
        }
    }
}

/// Colour and the terminal's width on a terminal, plain text elsewhere.
fn human_style(terminal: bool) -> HumanStyle {
    if terminal {
        HumanStyle {
            color: std::env::var_os("NO_COLOR").is_none(),
            width: terminal_width(),
        }
    } else {
        HumanStyle::plain()
    }
}

/// Diagnostics beside output that goes to stdout (a plan, a diff) go to stderr.
fn print_diagnostics(diagnostics: &[ctxguard::Diagnostic]) {
    let style = human_style(std::io::stderr().is_terminal());
    let mut err = std::io::stderr().lock();
    for diagnostic in diagnostics {
        let _ = err.write_all(report::render_diagnostic(diagnostic, &style).as_bytes());
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
            severity,
        } => {
            let overrides = severity.overrides()?;
            let mut report = check::check(&paths)?;
            report.diagnostics = overrides.apply(report.diagnostics);
            // A closed pipe is not an error worth a panic.
            let _ = report::render(
                &report,
                format.into(),
                &human_style(std::io::stdout().is_terminal()),
                &mut out,
            );
            Ok(check::status(&report))
        }
        Command::Verify {
            trace,
            plan,
            policy,
            input_format,
            budget,
            all_warnings,
            severity,
            counting,
            format,
        } => {
            let request = VerifyRequest {
                trace,
                plan,
                policy,
                input_format: input_format.map(Into::into),
                options: Options {
                    budget,
                    warning_limit: (!all_warnings).then_some(WARNING_LIMIT),
                    tokenizer: counting.tokenizer.map(Into::into),
                    recount: counting.recount,
                    overrides: severity.overrides()?,
                },
            };
            let (report, status) = run::verify_files(&request);
            let _ = report::render(
                &report,
                format.into(),
                &human_style(std::io::stdout().is_terminal()),
                &mut out,
            );
            Ok(status)
        }
        Command::Plan {
            trace,
            policy,
            summarizer,
            budget,
            input_format,
            output_format,
            counting,
        } => {
            let request = PlanRequest {
                trace,
                policy,
                input_format: input_format.map(Into::into),
                output_format: output_format.map(Into::into),
                options: CompactOptions {
                    summarizer,
                    budget,
                    tokenizer: counting.tokenizer.map(Into::into),
                    recount: counting.recount,
                },
            };
            let planned = run::plan_file(&request);
            if let Some((plan, format)) = &planned.plan {
                let _ = plan.write(*format, &mut out);
            }
            print_diagnostics(&planned.diagnostics);
            Ok(planned.status)
        }
        Command::Report { from, format } => {
            let report = run::saved_report(&from)?;
            if let Err(error) = report::render_saved(&report, format.into(), &mut out) {
                if error.kind() == std::io::ErrorKind::Unsupported {
                    return Err(ctxguard::UsageError(error.to_string()));
                }
            }
            Ok(run::saved_status(&report))
        }
        Command::Fmt { paths, check } => {
            let files = check::policy_files(&paths)?;
            let formatted = format::fmt_files(&files, check);
            let _ = out.write_all(formatted.diffs.as_bytes());
            print_diagnostics(&formatted.diagnostics);
            Ok(
                if formatted
                    .diagnostics
                    .iter()
                    .any(|d| d.code.family() == ctxguard::code::Family::Input)
                {
                    ExitStatus::Usage
                } else if !formatted.diagnostics.is_empty()
                    || (check && !formatted.changed.is_empty())
                {
                    ExitStatus::Failure
                } else {
                    ExitStatus::Success
                },
            )
        }
        Command::Schema { which } => {
            let which = match which {
                SchemaArg::Trace => Which::Trace,
                SchemaArg::Plan => Which::Plan,
            };
            let _ = out.write_all(schema(which).as_bytes());
            Ok(ExitStatus::Success)
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
