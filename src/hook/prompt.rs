//! The compaction prompt `ctxguard init codex` gives Codex. Codex lets a
//! file replace its compaction prompt (`experimental_compact_prompt_file`)
//! but not add to it, and the file is configuration for every session: so
//! it is Codex's own default prompt, word for word, then the policy's
//! rules for the user's commitments — rules, not one session's
//! commitments, which the hooks give back after each compaction.

use crate::policy::Policy;

/// Codex's default compaction prompt, as Codex 0.171.0 sends it (from the
/// openai/codex repository, Apache-2.0). The `guard` trial of the real
/// runtimes checks that the Codex it runs still sends exactly this.
pub const CODEX_DEFAULT: &str = "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.\n\nInclude:\n- Current progress and key decisions made\n- Important context, constraints, or user preferences\n- What remains to be done (clear next steps)\n- Any critical data, examples, or references needed to continue\n\nBe concise, structured, and focused on helping the next LLM seamlessly continue the work.\n";

/// The prompt file's name, beside Codex's `config.toml`.
pub const FILE_NAME: &str = "ctxguard-compact-prompt.md";

/// The heading of ctxguard's part of the prompt.
pub const MARK: &str = "## The user's commitments (added by ctxguard)";

/// Codex's default prompt, then the commitment rules of `policy`.
pub fn codex_compact_prompt(policy: &Policy) -> String {
    let mut text = String::from(CODEX_DEFAULT);
    text.push('\n');
    text.push_str(MARK);
    text.push_str("\n\nThe user's commitments must survive this summary exactly as written. Quote each one word for word, as the user wrote it, in a section of its own; never paraphrase, shorten, rename or merge one, and keep the order the user gave to steps. A commitment is:\n\n");
    for kind in &policy.kinds {
        match &kind.doc {
            Some(doc) => text.push_str(&format!("- {}: {doc}\n", kind.name)),
            None => text.push_str(&format!("- {}\n", kind.name)),
        }
    }
    text.push_str("\nA line the user wrote as `pin KIND: TEXT` is a commitment; keep its text exactly. Keep every path, file name, command, URL, version and number the user gave exactly as written. A commitment the user withdrew is left out, and the summary says it was withdrawn. Never present a decision of your own as the user's.\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_is_codex_s_then_the_policy_s_rules_and_passes_the_lint() {
        let (policy, _) =
            crate::policy::load::policy_for_use(None, &crate::source::Access::default()).unwrap();
        let text = codex_compact_prompt(&policy);
        assert!(text.starts_with(CODEX_DEFAULT));
        for kind in ["constraint", "decision", "identifier", "value", "ordering"] {
            assert!(text.contains(&format!("\n- {kind}: ")), "{kind}: {text}");
        }
        assert!(text.contains("word for word"));
    }
}
