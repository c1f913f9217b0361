//! The `ctxguard` command line: arguments in, a library call, its report
//! out. Everything else is in the library.

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use ctxguard::{
    Access, AuditRequest, Budget, CheckOptions, Code, CompactOptions, ConfigRuntime, Format,
    HookEvent, HookRequest, ImportRequest, InitRequest, InputFormat, LedgerAction, LedgerRequest,
    Options, Overrides, PlanRequest, Report, Runtime, Schema, Scope, Summarizer, Terminal,
    Tokenizer, UsageError, VerifyRequest, WARNING_LIMIT,
};

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
    /// Lint policy files, and the runtime configs beside them against the
    /// team policy (a directory: every `*.policy` and every config at its
    /// conventional place below it: `.claude/settings.json`,
    /// `.codex/config.toml`, `.pi/settings.json`, OpenHands `config.toml`,
    /// SWE-agent run YAML, `.gemini/settings.json`, `openclaw.json`).
    Check {
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Read every file named as this runtime's config.
        #[arg(long, value_enum, value_name = "NAME")]
        runtime: Option<ConfigRuntimeArg>,
        /// The team policy configs are checked against; by default the one
        /// policy file checked, else the built-in default.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// Apply the safe fixes to runtime configs (hook timeout units,
        /// ctxguard's missing hooks), keeping their layout and comments.
        #[arg(long)]
        fix: bool,
        /// With `--fix`: write nothing, print the changes as a diff.
        #[arg(long, requires = "fix")]
        dry_run: bool,
        /// Say nothing on success (on a terminal, one line says what was checked).
        #[arg(short, long)]
        quiet: bool,
        /// How to show the findings: `human` (miette, coloured on a terminal),
        /// `json`, `sarif` (SARIF 2.1.0) or `github` (workflow commands).
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
        #[command(flatten)]
        severity: SeverityArgs,
        #[command(flatten)]
        access: AccessArgs,
        /// The Claude Code version its settings are checked for; by default
        /// what `claude --version` says (the command `CTXGUARD_CLAUDE`
        /// names, or `claude` on the PATH).
        #[arg(long, value_name = "VERSION")]
        claude_version: Option<String>,
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
        /// Override the policy's `budget window` for this run (`64000` or `64_000`).
        #[arg(long, value_name = "TOKENS", value_parser = tokens)]
        budget: Option<u64>,
        /// Show every warning; by default each advisory code shows 10.
        #[arg(long)]
        all_warnings: bool,
        #[command(flatten)]
        severity: SeverityArgs,
        #[command(flatten)]
        counting: Counting,
        /// How to show the findings: `human` (miette, coloured on a terminal),
        /// `json`, `sarif` (SARIF 2.1.0) or `github` (workflow commands).
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Write a safe plan for a trace to stdout: commitments verbatim, each
    /// run of narrative between them summarized, and, if still over budget,
    /// the oldest summaries dropped.
    ///
    /// Exit 0: plan written (it verifies as compact); 3: escalate (the
    /// commitments alone do not fit); 2: unreadable input, a trace that
    /// cannot be compacted safely, or a failing summarizer.
    Plan {
        /// The buffer to compact (JSON, YAML or JSON Lines; `-` for stdin).
        #[arg(long, value_name = "FILE")]
        trace: PathBuf,
        /// The policy; the built-in default when absent.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// A shell command run once per narrative run, with the run's text on
        /// stdin; its stdout is the summary. Without it, the first sentence
        /// of each region stands in (marked `summarizer: extractive`).
        #[arg(long, value_name = "CMD")]
        summarizer: Option<String>,
        /// Stop a summarizer that runs longer than this, with every process
        /// it started, and fail (`summarizer-failed`).
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        summarizer_timeout: f64,
        /// Override the policy's `budget window` for this run (`64000` or `64_000`).
        #[arg(long, value_name = "TOKENS", value_parser = tokens)]
        budget: Option<u64>,
        /// Read the trace as this format, whatever its extension.
        #[arg(long, value_enum, value_name = "FORMAT")]
        input_format: Option<InputFormatArg>,
        /// The plan's format; the trace's format when absent.
        #[arg(long, value_enum, value_name = "FORMAT")]
        output_format: Option<InputFormatArg>,
        /// Show every warning; by default each advisory code shows 10.
        #[arg(long)]
        all_warnings: bool,
        #[command(flatten)]
        counting: Counting,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Read an agent runtime's session file and write each compaction in it
    /// as a trace and a plan: `OUT/1/trace.json`, `OUT/1/plan.json`, ...
    ///
    /// User text is classified as it was written: `pin KIND [KEY]: TEXT`
    /// lines are commitments of that kind; other user sentences are
    /// commitments when a kind's hint matches, otherwise unclassified.
    ///
    /// Exit 0: imported (also when the file holds no compaction); 2: the file
    /// cannot be read or is no session of a runtime ctxguard knows.
    Import {
        /// The session file.
        #[arg(value_name = "FILE")]
        session: PathBuf,
        /// The runtime that wrote it; `auto` recognizes it from its records.
        #[arg(long, value_enum, default_value_t = RuntimeArg::Auto)]
        from: RuntimeArg,
        /// The folder to write each compaction's trace and plan into.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The policy whose kinds and hints classify user text.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// How to show the findings: `human` (miette, coloured on a terminal),
        /// `json`, `sarif` (SARIF 2.1.0) or `github` (workflow commands).
        #[arg(long, value_enum, default_value_t = FormatArg::Human)]
        format: FormatArg,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Audit what each compaction of real sessions did to what the user
    /// said: for each user commitment, verbatim, paraphrased, altered or
    /// lost, and what the summary invented. A folder: every session below
    /// it, on all cores.
    ///
    /// Exit 0: nothing altered, lost or invented; 1: something was; 2: a
    /// file named cannot be read or is no session; 3: nothing was lost that
    /// can be seen, but a compaction could not be audited (an encrypted or
    /// missing summary).
    Audit {
        /// Session files, and folders to search for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// The runtime that wrote them; `auto` recognizes each.
        #[arg(long, value_enum, default_value_t = RuntimeArg::Auto)]
        from: RuntimeArg,
        /// The team policy: kinds, hints, severities.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        /// `jsonl`: one line of JSON per compaction, as each is audited.
        #[arg(long, value_enum, default_value_t = AuditFormatArg::Human)]
        format: AuditFormatArg,
        /// Also write the audit as one self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Also write what compaction did across all the sessions: by
        /// commitment kind, identifier sort, runtime and version, trigger,
        /// compaction number and day. `FILE.html`: a page with charts and
        /// filters (and the worst sessions' audits beside it);
        /// `FILE.json`: the summary (`ctxguard schema fleet`).
        #[arg(long, value_name = "FILE")]
        fleet_report: Option<PathBuf>,
        /// With `--fleet-report`: no user text and no file name in it, to
        /// share beyond the people whose sessions it shows.
        #[arg(long, requires = "fleet_report")]
        redact: bool,
        /// List, per compaction, what the user typed that does not bind
        /// (questions, acknowledgements, remarks, pasted output), not only
        /// count it.
        #[arg(long)]
        set_apart: bool,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Render a report saved with `--format json` again, as SARIF, GitHub
    /// commands or JSON, with the exit status of the run that made it.
    Report {
        /// The saved report.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// The format to render the saved report in.
        #[arg(long, value_enum)]
        format: SavedFormatArg,
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
        /// Say nothing on success (on a terminal, one line says what was done).
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Print the JSON Schema of the trace or the plan format, for editors
    /// and CI, or of an audited compaction (`audit --format json|jsonl`);
    /// also in `schemas/`.
    Schema {
        #[arg(value_enum)]
        which: SchemaArg,
    },
    /// Explain a diagnostic code; without a code, list them all.
    Explain { code: Option<String> },
    /// Run as a runtime's hook: the event's JSON payload on stdin.
    ///
    /// Records the user's commitments in the session's ledger as they are
    /// written (UserPromptSubmit, PostToolUse), snapshots them before a
    /// compaction and refuses one they cannot fit (PreCompact, exit 2;
    /// Codex cannot refuse and is told so), checks the summary after it
    /// (PostCompact: a short report when it lost, altered or invented
    /// something; Codex's summary is read from the rollout), and
    /// re-injects them word for word (SessionStart with source `compact`).
    /// Gemini CLI: BeforeAgent records, BeforeModel checks a summary in the
    /// request and gives the commitments back in it.
    /// Any other failure exits 0 with a message: the session goes on.
    Hook {
        /// The runtime calling.
        #[arg(value_enum)]
        runtime: HookRuntimeArg,
        /// The hook event, as the runtime names it.
        #[arg(value_enum)]
        event: HookEventArg,
        /// Read the payload from this file instead of stdin (replaying a hook).
        #[arg(long, value_name = "FILE")]
        input: Option<PathBuf>,
        /// The policy; the built-in default when absent.
        #[arg(long, value_name = "FILE")]
        policy: Option<PathBuf>,
        #[command(flatten)]
        ledger: LedgerArgs,
        /// UserPromptSubmit: re-state new pins to the model as context.
        #[arg(long)]
        echo: bool,
        /// The Claude Code version `init` wrote the hooks for: SessionStart
        /// says when the version running is another one that changes what
        /// the guard can do.
        #[arg(long, value_name = "VERSION")]
        claude_version: Option<String>,
        /// SessionStart: no PostCompact hook checks summaries here (the
        /// plugin, Claude Code before 2.1.76); check the compaction's
        /// summary from the transcript after it.
        #[arg(long)]
        check_summary: bool,
    },
    /// Read and change a session's commitment ledger.
    Ledger {
        #[command(subcommand)]
        action: LedgerCommand,
        /// The session; by default the one whose ledger was written last.
        #[arg(long, global = true, value_name = "ID")]
        session: Option<String>,
        #[command(flatten)]
        ledger: LedgerArgs,
        /// The policy whose kinds a pin may name.
        #[arg(long, global = true, value_name = "FILE")]
        policy: Option<PathBuf>,
    },
    /// Install ctxguard's hooks in a runtime's settings, beside any others.
    ///
    /// Claude Code: merges the hooks into `.claude/settings.json`
    /// (`--project`, the default), `.claude/settings.local.json` (`--local`)
    /// or `~/.claude/settings.json` (`--user`). Codex: `.codex/hooks.json`
    /// of the project, or `~/.codex/hooks.json` (`--user`; `CODEX_HOME`).
    /// Gemini CLI: `.gemini/settings.json` of the project, or
    /// `~/.gemini/settings.json` (`--user`; `GEMINI_CLI_HOME`). pi: the
    /// extension in `.pi/extensions/` (`--user`: `~/.pi/agent/extensions/`).
    /// OpenClaw: the plugin in `~/.openclaw/extensions/ctxguard/`, enabled
    /// in `~/.openclaw/openclaw.json` (`OPENCLAW_STATE_DIR`).
    /// Comments, layout and every other key are kept; a second run changes
    /// nothing. The original is saved as `FILE.ctxguard.bak`.
    Init {
        /// The runtime.
        #[arg(value_enum)]
        runtime: HookRuntimeArg,
        /// The project's shared settings (the default).
        #[arg(long, conflicts_with_all = ["user", "local"])]
        project: bool,
        /// Your settings for every project.
        #[arg(long, conflicts_with = "local")]
        user: bool,
        /// This checkout's own settings, not committed.
        #[arg(long)]
        local: bool,
        /// Take ctxguard's hooks out again.
        #[arg(long)]
        remove: bool,
        /// Write nothing; print the change as a diff.
        #[arg(long)]
        dry_run: bool,
        /// How the hooks run ctxguard, when it is not `ctxguard` on the PATH.
        #[arg(long, value_name = "PATH", default_value = "ctxguard")]
        command: String,
        /// A policy the hooks use instead of the built-in default.
        #[arg(long, value_name = "FILE")]
        policy: Option<String>,
        /// The Claude Code version to write for; by default what `claude
        /// --version` says (the command `CTXGUARD_CLAUDE` names, or `claude`
        /// on the PATH). Unknown: only the hooks every version runs.
        #[arg(long, value_name = "VERSION")]
        claude_version: Option<String>,
    },
}

#[derive(Subcommand)]
enum LedgerCommand {
    /// List the active commitments with where each came from.
    List {
        /// Also the discharged and unpinned ones.
        #[arg(long)]
        all: bool,
        /// `json`: the commitments as JSON.
        #[arg(long, value_enum, default_value_t = ListFormatArg::Human)]
        format: ListFormatArg,
    },
    /// Show one commitment word for word, with its history.
    Show {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Pin a commitment by hand: `ledger pin constraint Do not drop columns.`
    Pin {
        /// A kind of the policy.
        kind: String,
        /// The commitment (the rest of the line).
        #[arg(required = true, num_args = 1.., trailing_var_arg = true)]
        text: Vec<String>,
        /// Its key: pinning the key again replaces it.
        #[arg(long)]
        key: Option<String>,
    },
    /// Mark a commitment done: it is no longer re-injected.
    Discharge {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Withdraw a commitment taken by mistake: it is no longer re-injected.
    Unpin {
        /// Its id (or a prefix of it), or its key.
        id: String,
    },
    /// Print the commitments as a ctxguard trace (JSON).
    Export {
        /// Also the discharged and unpinned ones, marked `discharged`.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ConfigRuntimeArg {
    ClaudeCode,
    Codex,
    Pi,
    Openhands,
    SweAgent,
    GeminiCli,
    Openclaw,
}

impl From<ConfigRuntimeArg> for ConfigRuntime {
    fn from(runtime: ConfigRuntimeArg) -> ConfigRuntime {
        match runtime {
            ConfigRuntimeArg::ClaudeCode => ConfigRuntime::ClaudeCode,
            ConfigRuntimeArg::Codex => ConfigRuntime::Codex,
            ConfigRuntimeArg::Pi => ConfigRuntime::Pi,
            ConfigRuntimeArg::Openhands => ConfigRuntime::OpenHands,
            ConfigRuntimeArg::SweAgent => ConfigRuntime::SweAgent,
            ConfigRuntimeArg::GeminiCli => ConfigRuntime::GeminiCli,
            ConfigRuntimeArg::Openclaw => ConfigRuntime::OpenClaw,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ListFormatArg {
    Human,
    Json,
}

/// Where ledgers are kept and how large they may grow.
#[derive(clap::Args)]
struct LedgerArgs {
    /// The ledger folder; by default `CTXGUARD_LEDGER_DIR`, else
    /// `.ctxguard/ledger` in the project.
    #[arg(long, global = true, value_name = "DIR")]
    ledger_dir: Option<PathBuf>,
    /// Refuse appends past this size; by default `CTXGUARD_MAX_LEDGER_BYTES`, else 16 MiB.
    #[arg(long, global = true, value_name = "BYTES")]
    max_ledger_bytes: Option<u64>,
}

impl LedgerArgs {
    fn max_bytes(&self) -> Result<u64, UsageError> {
        if let Some(max) = self.max_ledger_bytes {
            return Ok(max);
        }
        match std::env::var("CTXGUARD_MAX_LEDGER_BYTES") {
            Ok(value) => value.trim().parse().map_err(|_| {
                UsageError(format!(
                    "`CTXGUARD_MAX_LEDGER_BYTES={value}` is not a number of bytes"
                ))
            }),
            Err(_) => Ok(ctxguard::DEFAULT_MAX_LEDGER_BYTES),
        }
    }

    fn dir(&self) -> Option<PathBuf> {
        self.ledger_dir
            .clone()
            .or_else(|| std::env::var_os("CTXGUARD_LEDGER_DIR").map(PathBuf::from))
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum HookRuntimeArg {
    ClaudeCode,
    Codex,
    Pi,
    GeminiCli,
    #[value(name = "openclaw")]
    OpenClaw,
}

impl From<HookRuntimeArg> for ctxguard::HookRuntime {
    fn from(arg: HookRuntimeArg) -> ctxguard::HookRuntime {
        match arg {
            HookRuntimeArg::ClaudeCode => ctxguard::HookRuntime::ClaudeCode,
            HookRuntimeArg::Codex => ctxguard::HookRuntime::Codex,
            HookRuntimeArg::Pi => ctxguard::HookRuntime::Pi,
            HookRuntimeArg::GeminiCli => ctxguard::HookRuntime::GeminiCli,
            HookRuntimeArg::OpenClaw => ctxguard::HookRuntime::OpenClaw,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum HookEventArg {
    #[value(name = "UserPromptSubmit", alias = "user-prompt-submit")]
    UserPromptSubmit,
    #[value(name = "PostToolUse", alias = "post-tool-use")]
    PostToolUse,
    #[value(name = "PreCompact", alias = "pre-compact")]
    PreCompact,
    #[value(name = "PostCompact", alias = "post-compact")]
    PostCompact,
    #[value(name = "SessionStart", alias = "session-start")]
    SessionStart,
    #[value(name = "BeforeAgent", alias = "before-agent")]
    BeforeAgent,
    #[value(name = "BeforeModel", alias = "before-model")]
    BeforeModel,
}

impl HookEventArg {
    /// The event as `runtime` names it, if it has it.
    fn event_in(self, runtime: ctxguard::HookRuntime) -> Result<HookEvent, String> {
        let name = self
            .to_possible_value()
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default();
        HookEvent::from_name_in(runtime, &name).ok_or_else(|| {
            let events: Vec<&str> = HookEvent::ALL
                .iter()
                .filter(|e| e.handled_in(runtime))
                .map(|e| e.name_in(runtime))
                .collect();
            format!(
                "`hook {} {name}`: ctxguard handles no such event of {} (its events: {})",
                runtime.arg(),
                runtime.name(),
                events.join(", ")
            )
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AuditFormatArg {
    Human,
    Json,
    Jsonl,
}

#[derive(Clone, Copy, ValueEnum)]
enum RuntimeArg {
    Auto,
    ClaudeCode,
    Codex,
    Pi,
    Openhands,
    SweAgent,
}

impl RuntimeArg {
    fn runtime(self) -> Option<Runtime> {
        match self {
            RuntimeArg::Auto => None,
            RuntimeArg::ClaudeCode => Some(Runtime::ClaudeCode),
            RuntimeArg::Codex => Some(Runtime::Codex),
            RuntimeArg::Pi => Some(Runtime::Pi),
            RuntimeArg::Openhands => Some(Runtime::OpenHands),
            RuntimeArg::SweAgent => Some(Runtime::SweAgent),
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum SchemaArg {
    Trace,
    Plan,
    Audit,
    Fleet,
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
    fn overrides(&self) -> Result<Overrides, UsageError> {
        Overrides::new(&self.allow, &self.warn, &self.deny, self.deny_warnings)
    }
}

/// What may be read.
#[derive(clap::Args)]
struct AccessArgs {
    /// Refuse any input larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = ctxguard::DEFAULT_MAX_INPUT_BYTES)]
    max_input_bytes: u64,
    /// The directory `extends` may not leave; by default the repository of
    /// each policy (the nearest directory above it holding `.git`).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
}

impl AccessArgs {
    fn access(self) -> Access {
        Access {
            max_input_bytes: self.max_input_bytes,
            root: self.root,
        }
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

/// The formats a saved report is rendered in again: it was saved as JSON,
/// and the human report needs the inputs it no longer has.
#[derive(Clone, Copy, ValueEnum)]
enum SavedFormatArg {
    Json,
    Sarif,
    Github,
}

impl From<SavedFormatArg> for Format {
    fn from(format: SavedFormatArg) -> Format {
        match format {
            SavedFormatArg::Json => Format::Json,
            SavedFormatArg::Sarif => Format::Sarif,
            SavedFormatArg::Github => Format::Github,
        }
    }
}

/// A number of tokens as the policy language writes it: digits, with `_`
/// between groups (`128_000`).
fn tokens(text: &str) -> Result<u64, String> {
    let digits = text.replace('_', "");
    if text.starts_with('_') || text.ends_with('_') || text.contains("__") || digits.is_empty() {
        return Err(format!(
            "`{text}` is not a number of tokens (write `64000` or `64_000`)"
        ));
    }
    digits
        .parse()
        .map_err(|_| format!("`{text}` is not a number of tokens (write `64000` or `64_000`)"))
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Human,
    Json,
    Sarif,
    Github,
}

impl Counting {
    fn budget(&self, window: Option<u64>) -> Budget {
        Budget {
            window,
            tokenizer: self.tokenizer.map(Into::into),
            recount: self.recount,
        }
    }
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

/// Runs one command: its report and the format to show it in.
fn run(command: Command) -> Result<(Report, Format), UsageError> {
    Ok(match command {
        Command::Check {
            paths,
            runtime,
            policy,
            fix,
            dry_run,
            quiet: _,
            format,
            severity,
            access,
            claude_version,
        } => {
            let named = match claude_version.as_deref() {
                Some(named) => match ctxguard::installed_claude_code(Some(named)) {
                    Ok(found) => found.version().cloned(),
                    Err(error) => return Err(UsageError(error)),
                },
                None => None,
            };
            let options = CheckOptions {
                runtime: runtime.map(Into::into),
                policy,
                fix,
                dry_run,
                installed: ctxguard::InstalledRuntimes { claude_code: named },
                ask_claude: true,
            };
            (
                ctxguard::check_with(&paths, &options, &severity.overrides()?, &access.access())?,
                format.into(),
            )
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
            access,
        } => {
            let request = VerifyRequest {
                access: access.access(),
                trace,
                plan,
                policy,
                input_format: input_format.map(Into::into),
                options: Options {
                    budget: counting.budget(budget),
                    warning_limit: (!all_warnings).then_some(WARNING_LIMIT),
                    overrides: severity.overrides()?,
                },
            };
            (ctxguard::verify_files(&request), format.into())
        }
        Command::Plan {
            trace,
            policy,
            summarizer,
            summarizer_timeout,
            budget,
            input_format,
            output_format,
            all_warnings,
            counting,
            access,
        } => {
            let timeout =
                std::time::Duration::try_from_secs_f64(summarizer_timeout).map_err(|_| {
                    UsageError(format!(
                        "`--summarizer-timeout {summarizer_timeout}` is not a number of seconds"
                    ))
                })?;
            let request = PlanRequest {
                access: access.access(),
                trace,
                policy,
                input_format: input_format.map(Into::into),
                output_format: output_format.map(Into::into),
                options: CompactOptions {
                    summarizer: summarizer.map(|command| Summarizer::Command { command, timeout }),
                    budget: counting.budget(budget),
                    warning_limit: (!all_warnings).then_some(WARNING_LIMIT),
                },
            };
            (ctxguard::plan_file(&request), Format::Human)
        }
        Command::Import {
            session,
            from,
            out,
            policy,
            format,
            access,
        } => {
            let request = ImportRequest {
                session,
                from: from.runtime(),
                out,
                policy,
                access: access.access(),
            };
            (ctxguard::import_file(&request)?, format.into())
        }
        Command::Audit {
            paths,
            from,
            policy,
            format,
            html,
            fleet_report,
            redact,
            set_apart,
            access,
        } => {
            let stream = format == AuditFormatArg::Jsonl;
            let request = AuditRequest {
                paths,
                from: from.runtime(),
                policy,
                access: access.access(),
                stream: stream && html.is_none(),
                fleet: fleet_report.is_some(),
                fleet_pages: !redact
                    && fleet_report.as_deref().and_then(ctxguard::FleetFormat::of)
                        == Some(ctxguard::FleetFormat::Html),
            };
            if let Some(page) = &html {
                ctxguard::html_target(page).map_err(|error| {
                    UsageError(format!("cannot write `{}`: {error}", page.display()))
                })?;
            }
            if let Some(target) = &fleet_report {
                ctxguard::fleet_target(target).map_err(|error| {
                    UsageError(format!("cannot write `{}`: {error}", target.display()))
                })?;
            }
            let progress = ctxguard::Progress::on_terminal();
            let on_event = |event: &ctxguard::EventAudit| {
                if stream {
                    // A closed pipe ends the stream; the report says the rest.
                    let _ = ctxguard::write_audit_line(event);
                }
            };
            let mut report = ctxguard::audit_paths(&request, &on_event, &progress);
            progress.finish();
            if let ctxguard::Subject::Audit {
                set_apart: list, ..
            } = &mut report.subject
            {
                *list = set_apart;
            }
            if let (Some(path), ctxguard::Subject::Audit { events, .. }) = (&html, &report.subject)
            {
                ctxguard::write_html(path, events).map_err(|error| {
                    UsageError(format!("cannot write `{}`: {error}", path.display()))
                })?;
            }
            if let (
                Some(path),
                ctxguard::Subject::Audit {
                    fleet: Some(fleet), ..
                },
            ) = (&fleet_report, &report.subject)
            {
                ctxguard::write_fleet_report(path, fleet, redact).map_err(|error| {
                    UsageError(format!("cannot write `{}`: {error}", path.display()))
                })?;
            }
            match format {
                AuditFormatArg::Human => (report, Format::Human),
                AuditFormatArg::Json => (report, Format::Json),
                AuditFormatArg::Jsonl => {
                    // The events are out; what remains is the findings, on stderr.
                    if let ctxguard::Subject::Audit { streamed, .. } = &mut report.subject {
                        *streamed = true;
                    }
                    (report, Format::Human)
                }
            }
        }
        Command::Report { from, format } => (ctxguard::saved_report(&from)?, format.into()),
        Command::Fmt {
            paths,
            check,
            quiet: _,
            access,
        } => (
            ctxguard::fmt(&paths, check, &access.access())?,
            Format::Human,
        ),
        Command::Schema { which } => {
            let which = match which {
                SchemaArg::Trace => Schema::Trace,
                SchemaArg::Plan => Schema::Plan,
                SchemaArg::Audit => Schema::Audit,
                SchemaArg::Fleet => Schema::Fleet,
            };
            (Report::text(which.json()), Format::Human)
        }
        Command::Explain { code: None } => (Report::text(ctxguard::explain_all()), Format::Human),
        Command::Explain { code: Some(name) } => {
            let code = Code::from_name(&name).ok_or_else(|| {
                let names = Code::ALL.iter().map(|c| c.name());
                let hint =
                    match ctxguard::did_you_mean(name.trim_start_matches("ctxguard::"), names) {
                        Some(code) => format!("did you mean `{code}`?"),
                        None => "`ctxguard explain` lists them all".to_owned(),
                    };
                UsageError(format!("`{name}` is not a ctxguard code; {hint}"))
            })?;
            (Report::text(ctxguard::explain(code)), Format::Human)
        }
        // `live` answers these before `run` is called: never reached.
        Command::Hook { .. } | Command::Ledger { .. } | Command::Init { .. } => {
            return Err(UsageError(
                "this command is run before the others".to_owned(),
            ))
        }
    })
}

/// The hook, the ledger and `init`, which answer in their own terms;
/// every other command comes back.
fn live(command: Command) -> Result<u8, Box<Command>> {
    let status = |code: i32| u8::try_from(code).unwrap_or(2);
    let usage = |error: UsageError| status(ctxguard::usage_error(&error).code());
    match command {
        Command::Hook {
            runtime,
            event,
            input,
            policy,
            ledger,
            echo,
            claude_version,
            check_summary,
        } => {
            let runtime: ctxguard::HookRuntime = runtime.into();
            let event = match event.event_in(runtime) {
                Ok(event) => event,
                Err(why) => return Ok(usage(UsageError(why))),
            };
            // A bad cap is the default; an unreadable payload file is a
            // failure of the event, answered as the event allows.
            let max_ledger_bytes = ledger
                .max_bytes()
                .unwrap_or(ctxguard::DEFAULT_MAX_LEDGER_BYTES);
            let access = Access::default();
            let limit = access.max_input_bytes;
            let input = match input {
                Some(path) => match std::fs::read(&path) {
                    Ok(bytes) => bytes,
                    Err(error) => {
                        let why = format!("cannot read `{}`: {error}", path.display());
                        let report = ctxguard::hook_not_started(runtime, event, &why);
                        return Ok(status(ctxguard::emit_hook(&report)));
                    }
                },
                None => {
                    let mut bytes = Vec::new();
                    if !std::io::stdin().is_terminal() {
                        let _ = std::io::stdin().lock().take(limit).read_to_end(&mut bytes);
                    }
                    bytes
                }
            };
            let request = HookRequest {
                runtime,
                event,
                input,
                policy,
                ledger_dir: ledger.dir(),
                project_dir: (runtime == ctxguard::HookRuntime::ClaudeCode)
                    .then(|| std::env::var_os("CLAUDE_PROJECT_DIR").map(PathBuf::from))
                    .flatten(),
                max_ledger_bytes,
                echo,
                written_for: claude_version
                    .as_deref()
                    .and_then(ctxguard::RuntimeVersion::parse),
                check_summary,
                access,
            };
            Ok(status(ctxguard::emit_hook(&ctxguard::run_hook(&request))))
        }
        Command::Ledger {
            action,
            session,
            ledger,
            policy,
        } => {
            let max_ledger_bytes = match ledger.max_bytes() {
                Ok(max) => max,
                Err(error) => return Ok(usage(error)),
            };
            let mut json = false;
            let action = match action {
                LedgerCommand::List { all, format } => {
                    json = format == ListFormatArg::Json;
                    LedgerAction::List { all }
                }
                LedgerCommand::Show { id } => LedgerAction::Show { id },
                LedgerCommand::Pin { kind, text, key } => LedgerAction::Pin {
                    kind,
                    key,
                    text: text.join(" "),
                },
                LedgerCommand::Discharge { id } => LedgerAction::Discharge { id },
                LedgerCommand::Unpin { id } => LedgerAction::Unpin { id },
                LedgerCommand::Export { all } => LedgerAction::Export { all },
            };
            let dir = ledger.dir().unwrap_or_else(project_ledger_dir);
            let request = LedgerRequest {
                dir,
                session,
                action,
                policy,
                max_ledger_bytes,
                access: Access::default(),
            };
            Ok(match ctxguard::ledger_command(&request) {
                Ok((view, problems)) => status(ctxguard::emit_ledger(&view, &problems, json)),
                Err(error) => usage(error),
            })
        }
        Command::Init {
            runtime,
            project: _,
            user,
            local,
            remove,
            dry_run,
            command,
            policy,
            claude_version,
        } => {
            let runtime: ctxguard::HookRuntime = runtime.into();
            let claude_version = match runtime {
                ctxguard::HookRuntime::ClaudeCode => {
                    match ctxguard::installed_claude_code(claude_version.as_deref()) {
                        Ok(found) => found.version().cloned(),
                        Err(error) => return Ok(usage(UsageError(error))),
                    }
                }
                ctxguard::HookRuntime::Codex
                | ctxguard::HookRuntime::Pi
                | ctxguard::HookRuntime::GeminiCli
                | ctxguard::HookRuntime::OpenClaw => None,
            };
            if local && runtime != ctxguard::HookRuntime::ClaudeCode {
                return Ok(usage(UsageError(format!(
                    "{} has no settings of one checkout only: `init {}` writes into the project, or with `--user` for every project",
                    runtime.name(),
                    runtime.arg()
                ))));
            }
            let scope = match (user, local) {
                (true, _) => Scope::User,
                (_, true) => Scope::Local,
                _ => Scope::Project,
            };
            let home =
                |dir: &str| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(dir));
            let (variable, config_dir) = match runtime {
                ctxguard::HookRuntime::ClaudeCode => (
                    "CLAUDE_CONFIG_DIR",
                    std::env::var_os("CLAUDE_CONFIG_DIR")
                        .map(PathBuf::from)
                        .or_else(|| home(".claude")),
                ),
                ctxguard::HookRuntime::Codex => (
                    "CODEX_HOME",
                    std::env::var_os("CODEX_HOME")
                        .map(PathBuf::from)
                        .or_else(|| home(".codex")),
                ),
                ctxguard::HookRuntime::Pi => (
                    "PI_CODING_AGENT_DIR",
                    std::env::var_os("PI_CODING_AGENT_DIR")
                        .map(PathBuf::from)
                        .or_else(|| home(".pi/agent")),
                ),
                // OpenClaw has one configuration, in its state folder.
                ctxguard::HookRuntime::OpenClaw => (
                    "OPENCLAW_STATE_DIR",
                    std::env::var_os("OPENCLAW_STATE_DIR")
                        .map(PathBuf::from)
                        .or_else(|| home(".openclaw")),
                ),
                // Gemini CLI takes its home folder from `GEMINI_CLI_HOME`.
                ctxguard::HookRuntime::GeminiCli => (
                    "GEMINI_CLI_HOME",
                    std::env::var_os("GEMINI_CLI_HOME")
                        .map(|home| PathBuf::from(home).join(".gemini"))
                        .or_else(|| home(".gemini")),
                ),
            };
            let scope = match runtime {
                ctxguard::HookRuntime::OpenClaw => Scope::User,
                _ => scope,
            };
            if scope == Scope::User && config_dir.is_none() {
                return Ok(usage(UsageError(format!(
                    "`--user` needs `HOME` or `{variable}` to find {}'s settings",
                    runtime.name()
                ))));
            }
            let request = InitRequest {
                runtime,
                scope,
                project: PathBuf::from("."),
                config_dir,
                command,
                policy,
                claude_version,
                remove,
                dry_run,
                access: Access::default(),
            };
            Ok(status(ctxguard::emit_init(&ctxguard::init(&request))))
        }
        other => Err(Box::new(other)),
    }
}

/// `.ctxguard/ledger` in the nearest folder up from here that has one
/// (as a relative path: `../.ctxguard/ledger`), or here.
fn project_ledger_dir() -> PathBuf {
    let depth = std::env::current_dir().map_or(0, |dir| dir.ancestors().count());
    let mut up = PathBuf::new();
    for _ in 0..depth {
        let dir = ctxguard::default_ledger_dir(&up);
        if dir.is_dir() {
            return dir;
        }
        up.push("..");
    }
    ctxguard::default_ledger_dir(Path::new(""))
}

fn main() -> ExitCode {
    // Help wraps at the terminal's width, and at 80 columns when piped.
    let mut command = Cli::command();
    if !std::io::stdout().is_terminal() {
        command = command.term_width(80);
    }
    let parsed = command
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(error) => {
            // A hook whose arguments do not parse answers as its event's
            // hook answers any failure: it never blocks a prompt.
            let args: Vec<String> = std::env::args().skip(1).collect();
            if error.use_stderr() && args.first().map(String::as_str) == Some("hook") {
                let runtime = match args.get(1).map(String::as_str) {
                    Some("codex") => ctxguard::HookRuntime::Codex,
                    Some("pi") => ctxguard::HookRuntime::Pi,
                    Some("gemini-cli") => ctxguard::HookRuntime::GeminiCli,
                    Some("openclaw") => ctxguard::HookRuntime::OpenClaw,
                    _ => ctxguard::HookRuntime::ClaudeCode,
                };
                let event = args
                    .get(2)
                    .and_then(|name| HookEvent::from_name_in(runtime, name));
                if let Some(event) = event {
                    let rendered = error.render().to_string();
                    let why = rendered
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .trim_start_matches("error: ")
                        .to_owned();
                    let report = ctxguard::hook_not_started(runtime, event, &why);
                    return ExitCode::from(u8::try_from(ctxguard::emit_hook(&report)).unwrap_or(1));
                }
                let _ = error.print();
                return ExitCode::from(1);
            }
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    let command = match live(cli.command) {
        Ok(code) => return ExitCode::from(code),
        Err(command) => command,
    };
    let quiet = matches!(
        *command,
        Command::Check { quiet: true, .. } | Command::Fmt { quiet: true, .. }
    );
    let status = match run(*command) {
        Ok((report, format)) => {
            let status = ctxguard::emit(&report, format, &Terminal::detect());
            // A person at a terminal hears what was done; a pipe does not.
            if !quiet && format == Format::Human && std::io::stderr().is_terminal() {
                if let Some(line) = ctxguard::success_line(&report) {
                    eprintln!("{line}");
                }
            }
            status
        }
        Err(error) => ctxguard::usage_error(&error),
    };
    ExitCode::from(status.code() as u8)
}
