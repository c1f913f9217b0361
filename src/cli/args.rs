//! The arguments several commands share, and the values they take.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::ValueEnum;
use ctxguard::{
    config, hook, import, usage, Access, Budget, Format, InputFormat, Overrides, Runtime,
    Tokenizer, UsageError,
};

use super::Env;

/// Severity control for one run, for `check` and `verify`.
#[derive(clap::Args)]
pub struct SeverityArgs {
    /// Make every warning an error (exit 1).
    #[arg(long)]
    pub deny_warnings: bool,
    /// Do not report CODE. Codes that decide a verdict cannot be allowed.
    #[arg(short = 'A', long = "allow", value_name = "CODE")]
    pub allow: Vec<String>,
    /// Report CODE as a warning. Codes that decide a verdict cannot be lowered.
    #[arg(short = 'W', long = "warn", value_name = "CODE")]
    pub warn: Vec<String>,
    /// Report CODE as an error.
    #[arg(short = 'D', long = "deny", value_name = "CODE")]
    pub deny: Vec<String>,
}

impl SeverityArgs {
    pub fn overrides(&self) -> Result<Overrides, UsageError> {
        Overrides::new(&self.allow, &self.warn, &self.deny, self.deny_warnings)
    }
}

/// What may be read.
#[derive(clap::Args)]
pub struct AccessArgs {
    /// Refuse any input larger than this many bytes.
    #[arg(long, value_name = "BYTES", default_value_t = ctxguard::DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,
    /// The directory `extends` may not leave; by default the repository of
    /// each policy (the nearest directory above it holding `.git`).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

impl AccessArgs {
    pub fn access(self) -> Access {
        Access {
            max_input_bytes: self.max_input_bytes,
            root: self.root,
        }
    }
}

/// How tokens are counted, for `verify` and `plan`.
#[derive(clap::Args)]
pub struct Counting {
    /// Count with this tokenizer instead of the policy's.
    #[arg(long, value_enum, value_name = "NAME")]
    pub tokenizer: Option<TokenizerArg>,
    /// Count every region instead of trusting its `tokens`, and warn about
    /// counts more than 10% off.
    #[arg(long)]
    pub recount: bool,
}

impl Counting {
    pub fn budget(&self, window: Option<u64>) -> Budget {
        Budget {
            window,
            tokenizer: self.tokenizer.map(Into::into),
            recount: self.recount,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum TokenizerArg {
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
pub enum InputFormatArg {
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

/// How `check`, `verify` and `import` show their findings.
#[derive(clap::Args)]
pub struct FindingsFormat {
    /// How to show the findings: `human` (miette, coloured on a terminal),
    /// `json`, `sarif` (SARIF 2.1.0) or `github` (workflow commands).
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    format: FormatArg,
}

impl FindingsFormat {
    /// The format asked for.
    pub fn into_format(self) -> Format {
        self.format.into()
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

/// A number of tokens as the policy language writes it: digits, with `_`
/// between groups (`128_000`).
pub fn tokens(text: &str) -> Result<u64, String> {
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

/// A runtime named on the command line by its [`Runtime::arg`], one of
/// `runtimes` (the runtimes a command takes), made what the command needs
/// by `take`: one list of names for every command, the runtimes' own.
fn runtime_among<T: Clone + Send + Sync + 'static>(
    runtimes: impl IntoIterator<Item = Runtime>,
    take: fn(Runtime) -> Option<T>,
) -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(runtimes.into_iter().map(Runtime::arg)).try_map(move |name| {
        Runtime::from_arg(&name)
            .and_then(take)
            .ok_or_else(|| format!("`{name}` is not a runtime this command takes"))
    })
}

/// `--from`: the runtime that wrote the sessions, or `auto` to recognize
/// each by its content.
#[derive(Clone, Copy, Debug)]
pub struct ReadFrom(pub Option<Runtime>);

/// The runtimes whose sessions ctxguard reads ([`import::READ`]), and
/// `auto`.
pub fn read_from() -> impl TypedValueParser<Value = ReadFrom> {
    PossibleValuesParser::new(
        std::iter::once("auto").chain(import::READ.into_iter().map(Runtime::arg)),
    )
    .try_map(|name| match name.as_str() {
        "auto" => Ok(ReadFrom(None)),
        _ => Runtime::from_arg(&name)
            .map(|runtime| ReadFrom(Some(runtime)))
            .ok_or_else(|| format!("`{name}` is not a runtime whose sessions ctxguard reads")),
    })
}

/// The runtimes ctxguard guards live ([`hook::Guarded`]).
pub fn guarded() -> impl TypedValueParser<Value = hook::Guarded> {
    runtime_among(
        hook::Guarded::ALL.into_iter().map(hook::Guarded::runtime),
        hook::Guarded::of,
    )
}

/// The runtimes whose config files `check` reads, each as its main file.
pub fn config_of() -> impl TypedValueParser<Value = config::Kind> {
    runtime_among(Runtime::ALL, |runtime| {
        config::Kind::ALL
            .into_iter()
            .find(|kind| kind.runtime() == runtime)
    })
}

/// Where ledgers are kept and how large they may grow.
#[derive(clap::Args)]
pub struct LedgerArgs {
    /// The ledger folder; by default `CTXGUARD_LEDGER_DIR`, else
    /// `.ctxguard/ledger` in the project.
    #[arg(long, global = true, value_name = "DIR")]
    pub ledger_dir: Option<PathBuf>,
    /// Refuse appends past this size; by default `CTXGUARD_MAX_LEDGER_BYTES`, else 16 MiB.
    #[arg(long, global = true, value_name = "BYTES")]
    pub max_ledger_bytes: Option<u64>,
}

impl LedgerArgs {
    /// The size cap: `--max-ledger-bytes`, else `CTXGUARD_MAX_LEDGER_BYTES`, else 16 MiB.
    pub fn max_bytes(&self, env: &Env) -> Result<u64, UsageError> {
        if let Some(max) = self.max_ledger_bytes {
            return Ok(max);
        }
        match &env.max_ledger_bytes {
            Some(value) => (value.trim().parse())
                .map_err(|_| usage::not_bytes("CTXGUARD_MAX_LEDGER_BYTES", value)),
            None => Ok(ctxguard::ledger::DEFAULT_MAX_BYTES),
        }
    }

    /// The ledger folder: `--ledger-dir`, else `CTXGUARD_LEDGER_DIR`.
    pub fn dir(&self, env: &Env) -> Option<PathBuf> {
        self.ledger_dir.clone().or_else(|| env.ledger_dir.clone())
    }
}
