//! The compaction prompt `ctxguard init codex` gives Codex. Codex lets a
//! file replace its compaction prompt (`experimental_compact_prompt_file`)
//! but not add to it, and the file is configuration for every session: so
//! it is Codex's own default prompt, word for word, then the policy's
//! rules for the user's commitments — rules, not one session's
//! commitments, which the hooks give back after each compaction. `init
//! codex` writes it, and names it in Codex's `config.toml`.

use std::path::Path;

use super::init::{existing, Also, InitRequest};
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::policy::Policy;
use crate::source::write::{write_file, Backup};

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

/// Codex's compaction prompt, beside `hooks` (its `hooks.json`): the prompt
/// file ctxguard writes from Codex's default and the policy's rules, and
/// `experimental_compact_prompt_file` in the `config.toml` of the same
/// folder naming it. A config that sets a prompt of its own is left as it
/// is, and the reason said. `--remove` takes the key out, and the file when
/// it is still what ctxguard wrote.
pub(super) fn codex_prompt(
    request: &InitRequest,
    hooks: &Path,
) -> Result<(Vec<Also>, Option<String>), Vec<Diagnostic>> {
    let dir = hooks.parent().unwrap_or(Path::new("."));
    let prompt_path = dir.join(FILE_NAME);
    let config_path = dir.join("config.toml");
    let (policy, _) = crate::policy::load::policy_for_use(
        request.policy.as_deref().map(Path::new),
        &request.access,
    )?;
    let prompt = codex_compact_prompt(&policy);
    let config = existing(&config_path, &request.access)?;
    let prompt_before = existing(&prompt_path, &request.access)?;
    let name = config_path.display().to_string();
    let mut document: toml_edit::DocumentMut =
        config
            .as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|error: toml_edit::TomlError| {
                vec![codes::invalid_input(format!(
                    "`{name}` is not valid TOML: {}",
                    error.message()
                ))
                .file(&name)
                .help("fix Codex's config first; `ctxguard init codex` edits it in place")]
            })?;
    let ours = |item: &toml_edit::Item| item.as_str() == Some(FILE_NAME);
    let mut also = Vec::new();
    let mut left = None;
    let key = "experimental_compact_prompt_file";
    if request.remove {
        if document.get(key).is_some_and(ours) {
            document.remove(key);
            also.push(Also {
                path: config_path.clone(),
                before: config.clone(),
                after: Some(document.to_string()),
                backup: None,
            });
        }
        if prompt_before.as_deref() == Some(prompt.as_str()) {
            also.push(Also {
                path: prompt_path,
                before: prompt_before,
                after: None,
                backup: None,
            });
        }
        return Ok((also, left));
    }
    let own = ["compact_prompt", key]
        .into_iter()
        .find(|k| document.get(k).is_some_and(|item| !ours(item)));
    if let Some(own) = own {
        left = Some(format!(
            "{name} sets `{own}`, a compaction prompt of its own: ctxguard left it; ask it to keep the user's commitments word for word (`ctxguard check` says what it lacks)"
        ));
        return Ok((also, left));
    }
    if prompt_before.as_deref() != Some(prompt.as_str()) {
        also.push(Also {
            path: prompt_path,
            before: prompt_before,
            after: Some(prompt),
            backup: None,
        });
    }
    if !document.get(key).is_some_and(ours) {
        document[key] = toml_edit::value(FILE_NAME);
        also.push(Also {
            path: config_path,
            before: config,
            after: Some(document.to_string()),
            backup: None,
        });
    }
    Ok((also, left))
}

/// Writes (or takes out) the files of `also`, each through the one write.
pub(super) fn write_also(also: &mut [Also]) -> Result<(), Vec<Diagnostic>> {
    for file in also {
        let failed =
            |reason: String| vec![codes::unreadable(&file.path.display().to_string(), reason)];
        match &file.after {
            Some(text) => {
                if let Some(dir) = file.path.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| failed(format!("cannot write it: {e}")))?;
                }
                let written = write_file(&file.path, text.as_bytes(), Backup::Keep)
                    .map_err(|e| failed(e.reason))?;
                file.backup = written.backup;
            }
            // Only a file still exactly as ctxguard wrote it is taken out.
            None => std::fs::remove_file(&file.path)
                .map_err(|e| failed(format!("cannot remove it: {e}")))?,
        }
    }
    Ok(())
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
