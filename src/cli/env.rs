//! The environment, read once: every variable the command line honours.
//! Nothing else in ctxguard reads the environment; the library is handed
//! what it needs.

use std::ffi::OsString;
use std::path::PathBuf;

/// What the environment says.
#[derive(Debug, Default)]
pub struct Env {
    /// `CTXGUARD_LEDGER_DIR`: where the ledgers are, by default.
    pub ledger_dir: Option<PathBuf>,
    /// `CTXGUARD_MAX_LEDGER_BYTES`, as written.
    pub max_ledger_bytes: Option<String>,
    /// `CTXGUARD_CLAUDE`: the command asked for Claude Code's version.
    pub claude: OsString,
    /// `CLAUDE_PROJECT_DIR`: the project a Claude Code hook runs for.
    pub claude_project_dir: Option<PathBuf>,
    /// `HOME`.
    pub home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`: Claude Code's user settings folder.
    pub claude_config_dir: Option<PathBuf>,
    /// `CODEX_HOME`: Codex's user folder.
    pub codex_home: Option<PathBuf>,
    /// `PI_CODING_AGENT_DIR`: pi's user folder.
    pub pi_agent_dir: Option<PathBuf>,
    /// `OPENCLAW_STATE_DIR`: OpenClaw's state folder.
    pub openclaw_state_dir: Option<PathBuf>,
    /// `GEMINI_CLI_HOME`: the home Gemini CLI keeps `.gemini` in.
    pub gemini_cli_home: Option<PathBuf>,
    /// `NO_COLOR` is set.
    pub no_color: bool,
    /// `COLUMNS`, when it is a number.
    pub columns: Option<usize>,
}

impl Env {
    /// The environment of this process.
    pub fn read() -> Env {
        let path = |name: &str| std::env::var_os(name).map(PathBuf::from);
        Env {
            ledger_dir: path("CTXGUARD_LEDGER_DIR"),
            max_ledger_bytes: std::env::var("CTXGUARD_MAX_LEDGER_BYTES").ok(),
            claude: std::env::var_os("CTXGUARD_CLAUDE").unwrap_or_else(|| "claude".into()),
            claude_project_dir: path("CLAUDE_PROJECT_DIR"),
            home: path("HOME"),
            claude_config_dir: path("CLAUDE_CONFIG_DIR"),
            codex_home: path("CODEX_HOME"),
            pi_agent_dir: path("PI_CODING_AGENT_DIR"),
            openclaw_state_dir: path("OPENCLAW_STATE_DIR"),
            gemini_cli_home: path("GEMINI_CLI_HOME"),
            no_color: std::env::var_os("NO_COLOR").is_some(),
            columns: std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()),
        }
    }

    /// `HOME/dir`, when `HOME` is set.
    pub fn home_dir(&self, dir: &str) -> Option<PathBuf> {
        self.home.as_ref().map(|home| home.join(dir))
    }
}
