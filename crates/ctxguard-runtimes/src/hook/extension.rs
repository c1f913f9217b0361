//! `ctxguard init pi`: pi is guarded by an extension, not a hooks file.
//! The extension (`crates/ctxguard-runtimes/plugins/pi/ctxguard.ts`, in the language pi loads) calls
//! `ctxguard hook pi EVENT` at pi's prompt and compaction events; `init`
//! writes it into pi's extensions folder with the command (and policy)
//! the hooks run, and `--remove` takes it out again when it is still what
//! `init` wrote.

use std::path::{Path, PathBuf};

use super::init::{InitRequest, Installed, Scope};
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;

/// The extension, as the repository holds it.
const TEMPLATE: &str = include_str!("../../plugins/pi/ctxguard.ts");

/// The file's name in pi's extensions folder.
pub const FILE_NAME: &str = "ctxguard.ts";

/// The line of the template that `init` fills in with the hook arguments.
const ARGS_LINE: &str = "const ARGS: string[] = [];";

/// The line of a template (pi's extension, OpenClaw's plugin) that names
/// the ctxguard binary, as the template has it.
const COMMAND_LINE: &str = "const COMMAND = \"ctxguard\";";

/// The extension for `request`.
pub fn extension(request: &InitRequest) -> String {
    fill_in(TEMPLATE, ARGS_LINE, request)
}

/// `template` for `request`: its command line, and its argument line
/// `args_line` (an empty list, `[]`), filled in with the command and the
/// hook arguments (`--policy`), each a JSON string, which is a JavaScript
/// and TypeScript string too.
pub(super) fn fill_in(template: &str, args_line: &str, request: &InitRequest) -> String {
    let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let args: Vec<String> = request
        .policy
        .iter()
        .flat_map(|policy| ["--policy".to_owned(), policy.clone()])
        .map(|word| quote(&word))
        .collect();
    let (open, close) = list_at(args_line);
    template
        .replace(
            COMMAND_LINE,
            &format!("const COMMAND = {};", quote(&request.command)),
        )
        .replace(args_line, &format!("{open}[{}]{close}", args.join(", ")))
}

/// `args_line` before and after its empty list (the last `[]`: a type
/// such as `string[]` may come before it).
fn list_at(args_line: &str) -> (&str, &str) {
    let at = args_line.rfind("[]").unwrap_or(args_line.len());
    (&args_line[..at], args_line.get(at + 2..).unwrap_or(""))
}

/// Where the extension goes: `.pi/extensions/` of the project, or pi's
/// agent folder (`PI_CODING_AGENT_DIR`, else `~/.pi/agent`) with `--user`.
pub fn extension_path(request: &InitRequest) -> PathBuf {
    let dir = match request.scope {
        Scope::User => request
            .config_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(".pi").join("agent")),
        Scope::Project | Scope::Local => request.project.join(".pi"),
    };
    dir.join("extensions").join(FILE_NAME)
}

/// Whether the file at `path` is the extension `init` writes.
pub fn installed_at(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| is_ours(&text))
}

/// Whether `text` is the extension `init` writes, whatever command and
/// arguments it was written with.
fn is_ours(text: &str) -> bool {
    filled_in(text, TEMPLATE, ARGS_LINE)
}

/// Whether `text` is `template` as [`fill_in`] writes it, whatever command
/// and arguments it was written with: only the command line and the
/// argument line `args_line` differ, each read as the template's line.
pub(super) fn filled_in(text: &str, template: &str, args_line: &str) -> bool {
    let filled = [
        ("const COMMAND = ", COMMAND_LINE),
        (list_at(args_line).0, args_line),
    ];
    let plain = |text: &str| -> Vec<String> {
        text.lines()
            .map(|line| {
                filled
                    .iter()
                    .find(|(prefix, _)| line.starts_with(prefix))
                    .map_or(line, |(_, blank)| blank)
                    .to_owned()
            })
            .collect()
    };
    plain(text) == plain(template)
}

/// Writes (or takes out) the extension.
pub(super) fn install(request: &InitRequest) -> Result<Installed, Vec<Diagnostic>> {
    let path = extension_path(request);
    let name = path.display().to_string();
    let before = super::init::existing(&path, &request.access)?;
    let after = if request.remove {
        match &before {
            Some(text) if !is_ours(text) => {
                return Err(vec![codes::invalid_input(format!(
                    "`{name}` is not the extension `ctxguard init pi` writes (it was changed since): ctxguard will not remove it"
                ))
                .file(&name)
                .help("remove it yourself, or put back what `init` wrote and run `ctxguard init pi --remove` again")]);
            }
            _ => String::new(),
        }
    } else {
        extension(request)
    };
    let mut installed = Installed::of(request, path.clone(), before.clone(), after.clone());
    if request.dry_run || !installed.changed() {
        return Ok(installed);
    }
    let failed =
        |what: &Path, reason: String| vec![codes::unreadable(&what.display().to_string(), reason)];
    if request.remove {
        if before.is_some() {
            std::fs::remove_file(&path)
                .map_err(|e| failed(&path, format!("cannot remove it: {e}")))?;
        }
        return Ok(installed);
    }
    let written = super::init::write_to(&path, after.as_bytes())?;
    installed.backup = written.backup;
    installed.path = written.path;
    Ok(installed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_carries_the_command_and_policy_and_is_known_again() {
        let request = InitRequest {
            runtime: super::super::Guarded::Pi,
            scope: Scope::Project,
            project: PathBuf::from("/p"),
            config_dir: None,
            command: "/opt/bin/ctx\"guard".into(),
            policy: Some("team.policy".into()),
            claude_version: None,
            remove: false,
            dry_run: false,
            access: crate::source::Access::default(),
        };
        let text = extension(&request);
        assert!(
            text.contains(r#"const COMMAND = "/opt/bin/ctx\"guard";"#),
            "{text}"
        );
        assert!(text.contains(r#"const ARGS: string[] = ["--policy", "team.policy"];"#));
        assert!(is_ours(&text) && is_ours(TEMPLATE));
        assert!(!is_ours(&text.replace("cancel: true", "cancel: false")));
        assert_eq!(
            extension_path(&request),
            PathBuf::from("/p/.pi/extensions/ctxguard.ts")
        );
    }
}
