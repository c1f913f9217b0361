//! `ctxguard init`: ctxguard's hooks installed in a runtime's settings.

use std::path::PathBuf;

use ctxguard::{hook, init, usage, Access, UsageError};

use super::args::guarded;
use super::{Env, Said};

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
#[derive(clap::Args)]
pub struct Args {
    /// The runtime.
    #[arg(value_parser = guarded())]
    pub runtime: hook::Guarded,
    /// The project's shared settings (the default).
    #[arg(long, conflicts_with_all = ["user", "local"])]
    pub project: bool,
    /// Your settings for every project.
    #[arg(long, conflicts_with = "local")]
    pub user: bool,
    /// This checkout's own settings, not committed.
    #[arg(long)]
    pub local: bool,
    /// Take ctxguard's hooks out again.
    #[arg(long)]
    pub remove: bool,
    /// Write nothing; print the change as a diff.
    #[arg(long)]
    pub dry_run: bool,
    /// How the hooks run ctxguard, when it is not `ctxguard` on the PATH.
    #[arg(long, value_name = "PATH", default_value = "ctxguard")]
    pub command: String,
    /// A policy the hooks use instead of the built-in default.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<String>,
    /// The Claude Code version to write for; by default what `claude
    /// --version` says (the command `CTXGUARD_CLAUDE` names, or `claude`
    /// on the PATH). Unknown: only the hooks every version runs.
    #[arg(long, value_name = "VERSION")]
    pub claude_version: Option<String>,
}

impl Args {
    pub fn run(self, env: &Env) -> Result<Said, UsageError> {
        let runtime = self.runtime;
        let claude_version = match runtime {
            hook::Guarded::ClaudeCode => {
                ctxguard::config::installed_claude_code(self.claude_version.as_deref(), &env.claude)
                    .map_err(UsageError)?
                    .version()
                    .cloned()
            }
            hook::Guarded::Codex
            | hook::Guarded::Pi
            | hook::Guarded::GeminiCli
            | hook::Guarded::OpenClaw => None,
        };
        if self.local && runtime != hook::Guarded::ClaudeCode {
            return Err(usage::no_local_settings(runtime.name(), runtime.arg()));
        }
        let scope = match (self.user, self.local) {
            (true, _) => init::Scope::User,
            (_, true) => init::Scope::Local,
            _ => init::Scope::Project,
        };
        let (variable, config_dir) = match runtime {
            hook::Guarded::ClaudeCode => (
                "CLAUDE_CONFIG_DIR",
                (env.claude_config_dir.clone()).or_else(|| env.home_dir(".claude")),
            ),
            hook::Guarded::Codex => (
                "CODEX_HOME",
                (env.codex_home.clone()).or_else(|| env.home_dir(".codex")),
            ),
            hook::Guarded::Pi => (
                "PI_CODING_AGENT_DIR",
                (env.pi_agent_dir.clone()).or_else(|| env.home_dir(".pi/agent")),
            ),
            // OpenClaw has one configuration, in its state folder.
            hook::Guarded::OpenClaw => (
                "OPENCLAW_STATE_DIR",
                (env.openclaw_state_dir.clone()).or_else(|| env.home_dir(".openclaw")),
            ),
            // Gemini CLI takes its home folder from `GEMINI_CLI_HOME`.
            hook::Guarded::GeminiCli => (
                "GEMINI_CLI_HOME",
                (env.gemini_cli_home
                    .as_ref()
                    .map(|home| home.join(".gemini")))
                .or_else(|| env.home_dir(".gemini")),
            ),
        };
        let scope = match runtime {
            hook::Guarded::OpenClaw => init::Scope::User,
            _ => scope,
        };
        if scope == init::Scope::User && config_dir.is_none() {
            return Err(usage::no_home(variable, runtime.name()));
        }
        let request = init::Request {
            runtime,
            scope,
            project: PathBuf::from("."),
            config_dir,
            command: self.command,
            policy: self.policy,
            claude_version,
            remove: self.remove,
            dry_run: self.dry_run,
            access: Access::default(),
        };
        Ok(Said::Init(init::run(&request)))
    }
}
