//! `ctxguard check`: policy files and the runtime configs beside them.

use std::path::PathBuf;

use ctxguard::{config, CheckOptions, UsageError};

use super::args::{config_of, AccessArgs, FindingsFormat, SeverityArgs};
use super::{Env, Said};

/// Lint policy files, and the runtime configs beside them against the
/// team policy (a directory: every `*.policy` and every config at its
/// conventional place below it: `.claude/settings.json`,
/// `.codex/config.toml`, `.pi/settings.json`, OpenHands `config.toml`,
/// SWE-agent run YAML, `.gemini/settings.json`, `openclaw.json`).
#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read every file named as this runtime's config.
    #[arg(long, value_name = "NAME", value_parser = config_of())]
    pub runtime: Option<config::Kind>,
    /// The team policy configs are checked against; by default the one
    /// policy file checked, else the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Apply the safe fixes to runtime configs (hook timeout units,
    /// ctxguard's missing hooks), keeping their layout and comments.
    #[arg(long)]
    pub fix: bool,
    /// With `--fix`: write nothing, print the changes as a diff.
    #[arg(long, requires = "fix")]
    pub dry_run: bool,
    /// Say nothing on success (otherwise one line on stderr says what was checked).
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub format: FindingsFormat,
    #[command(flatten)]
    pub severity: SeverityArgs,
    #[command(flatten)]
    pub access: AccessArgs,
    /// The Claude Code version its settings are checked for; by default
    /// what `claude --version` says (the command `CTXGUARD_CLAUDE`
    /// names, or `claude` on the PATH).
    #[arg(long, value_name = "VERSION")]
    pub claude_version: Option<String>,
}

impl Args {
    pub fn run(self, env: &Env) -> Result<Said, UsageError> {
        let named = match self.claude_version.as_deref() {
            Some(named) => config::installed_claude_code(Some(named), &env.claude)
                .map_err(UsageError)?
                .version()
                .cloned(),
            None => None,
        };
        let options = CheckOptions {
            runtime: self.runtime,
            policy: self.policy,
            fix: self.fix,
            dry_run: self.dry_run,
            installed: config::Installed { claude_code: named },
            ask_claude: Some(env.claude.clone()),
        };
        let report = ctxguard::check_with(
            &self.paths,
            &options,
            &self.severity.overrides()?,
            &self.access.access(),
        )?;
        Ok(Said::report(report, self.format.into_format()).quiet(self.quiet))
    }
}
