//! The agent runtimes ctxguard knows, by one name each. What ctxguard does
//! with one is a role of its own, with the runtimes it holds for: the
//! session files it reads (`import`), the hooks it answers (`hook::Guarded`),
//! the config files it checks (`runtime::Kind`).

/// An agent runtime ctxguard knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Runtime {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// The pi coding agent.
    Pi,
    /// OpenHands.
    OpenHands,
    /// SWE-agent.
    SweAgent,
    /// Google's Gemini CLI.
    GeminiCli,
    /// OpenClaw.
    OpenClaw,
}

impl Runtime {
    /// Every runtime, in the order the docs list them.
    pub const ALL: [Runtime; 7] = [
        Runtime::ClaudeCode,
        Runtime::Codex,
        Runtime::Pi,
        Runtime::OpenHands,
        Runtime::SweAgent,
        Runtime::GeminiCli,
        Runtime::OpenClaw,
    ];

    /// Its name, as a person says it: `Claude Code`, `SWE-agent`.
    pub fn name(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "Claude Code",
            Runtime::Codex => "Codex",
            Runtime::Pi => "pi",
            Runtime::OpenHands => "OpenHands",
            Runtime::SweAgent => "SWE-agent",
            Runtime::GeminiCli => "Gemini CLI",
            Runtime::OpenClaw => "OpenClaw",
        }
    }

    /// Its name on the command line and in JSON: `claude-code`, `swe-agent`.
    pub fn arg(self) -> &'static str {
        match self {
            Runtime::ClaudeCode => "claude-code",
            Runtime::Codex => "codex",
            Runtime::Pi => "pi",
            Runtime::OpenHands => "openhands",
            Runtime::SweAgent => "swe-agent",
            Runtime::GeminiCli => "gemini-cli",
            Runtime::OpenClaw => "openclaw",
        }
    }

    /// The runtime whose [`arg`](Runtime::arg) is `arg`.
    pub fn from_arg(arg: &str) -> Option<Runtime> {
        Runtime::ALL
            .into_iter()
            .find(|runtime| runtime.arg() == arg)
    }
}

impl serde::Serialize for Runtime {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.arg())
    }
}

#[cfg(test)]
mod tests {
    use super::Runtime;

    #[test]
    fn each_runtime_is_found_by_its_argument() {
        for runtime in Runtime::ALL {
            assert_eq!(Runtime::from_arg(runtime.arg()), Some(runtime));
        }
        assert_eq!(Runtime::from_arg("Claude Code"), None);
    }
}
