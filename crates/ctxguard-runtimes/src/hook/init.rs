//! `ctxguard init claude-code` and `ctxguard init codex`: the hooks block
//! merged into a Claude Code `settings.json` or a Codex `hooks.json` (the
//! same shape: event names, each a list of matcher groups), edited in
//! place (comments, order and layout kept), so other hooks and keys are
//! untouched; idempotent; `--remove` takes out exactly what it put in.
//! ctxguard's handlers are the ones whose command runs `hook claude-code`
//! or `hook codex`.
//!
//! What is written depends on the Claude Code that runs it: a version
//! drops every hook of a settings file that names an event it does not
//! know (before 2.1.101), so `PostCompact` is written only for a version
//! that has it (2.1.76), and only when the version is known. A settings
//! file Claude Code cannot load (a comment, a trailing comma: it reads
//! strict JSON) is refused, not edited: none of its hooks would run.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::Value;

use super::commands::{group, hooks_of, installed_as, ours_for, wanted_by};
use super::loadable::{hooks_twice, not_strict};
use super::Guarded;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::facts::claude_code as facts;
use crate::facts::Version;
use crate::source::write::{write_file, Backup, Written};
use crate::source::{Access, SourceFile};

/// Which settings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `.claude/settings.json`: shared with the team.
    Project,
    /// `.claude/settings.local.json`: this checkout only.
    Local,
    /// `~/.claude/settings.json` (or `$CLAUDE_CONFIG_DIR/settings.json`).
    User,
}

/// What `init` was asked.
#[derive(Clone, Debug)]
pub struct InitRequest {
    /// The runtime whose hooks are written.
    pub runtime: Guarded,
    /// Which settings file.
    pub scope: Scope,
    /// The project folder (`--project`, `--local`).
    pub project: PathBuf,
    /// The runtime's configuration folder (`--user`): `CLAUDE_CONFIG_DIR`
    /// or `~/.claude`; `CODEX_HOME` or `~/.codex`.
    pub config_dir: Option<PathBuf>,
    /// How the hooks run ctxguard: `ctxguard` on the `PATH`, or a path.
    pub command: String,
    /// A policy the hooks use instead of the built-in default.
    pub policy: Option<String>,
    /// The Claude Code version the hooks are written for (`claude
    /// --version`); `None`: not known, and only what every version runs is
    /// written.
    pub claude_version: Option<Version>,
    /// Take the hooks out instead.
    pub remove: bool,
    /// Write nothing; the diff says what would change.
    pub dry_run: bool,
    /// What may be read.
    pub access: Access,
}

/// What `init` did.
#[derive(Clone, Debug)]
pub struct Installed {
    /// The runtime whose hooks were written.
    pub runtime: Guarded,
    /// The settings file.
    pub path: PathBuf,
    /// Its text before (`None`: it did not exist).
    pub before: Option<String>,
    /// Its text after.
    pub after: String,
    /// Where the original was saved, when it was changed.
    pub backup: Option<PathBuf>,
    /// Nothing was written (`--dry-run`).
    pub dry_run: bool,
    /// Hooks were taken out.
    pub removed: bool,
    /// The Claude Code version they were written for.
    pub claude_version: Option<Version>,
    /// The events ctxguard's hooks are installed for, in the file after.
    pub events: Vec<&'static str>,
    /// The file opens with a byte-order mark, which is written back.
    pub bom: bool,
    /// The other files changed beside it (Codex: the compaction prompt
    /// and `config.toml`).
    pub also: Vec<Also>,
    /// Why a file was left as it is (Codex: a compaction prompt of the
    /// user's own).
    pub left: Option<String>,
    /// The folder the project's commitment ledgers are written to, when
    /// the project is a git work tree that does not ignore it: what the
    /// user types would be committed with the code.
    pub ledger_tracked: Option<PathBuf>,
}

/// A file `init` changes beside the settings.
#[derive(Clone, Debug)]
pub struct Also {
    /// The file.
    pub path: PathBuf,
    /// Its text before (`None`: it did not exist).
    pub before: Option<String>,
    /// Its text after (`None`: taken out).
    pub after: Option<String>,
    /// Where the original was saved, when it was changed.
    pub backup: Option<PathBuf>,
}

impl Installed {
    /// What `request` does to the file at `path`: `before`, `after`, and
    /// the events of the runtime's hooks while they are installed (an
    /// extension or plugin installs them all).
    pub(super) fn of(
        request: &InitRequest,
        path: PathBuf,
        before: Option<String>,
        after: String,
    ) -> Installed {
        Installed {
            runtime: request.runtime,
            path,
            before,
            after,
            backup: None,
            dry_run: request.dry_run,
            removed: request.remove,
            claude_version: None,
            events: if request.remove {
                Vec::new()
            } else {
                hooks_of(request.runtime)
                    .iter()
                    .map(|(event, _, _)| event.name())
                    .collect()
            },
            bom: false,
            also: Vec::new(),
            left: None,
            ledger_tracked: (!request.remove)
                .then(|| ledger_tracked(&request.project))
                .flatten(),
        }
    }

    /// Whether the file changes.
    pub fn changed(&self) -> bool {
        self.before.as_deref().unwrap_or("") != self.after
    }
}

/// The settings file of `request`'s scope.
pub fn settings_path(request: &InitRequest) -> PathBuf {
    let (folder, file) = match request.runtime {
        Guarded::Codex => (".codex", "hooks.json"),
        Guarded::GeminiCli => (".gemini", "settings.json"),
        Guarded::OpenClaw => (".openclaw", "openclaw.json"),
        Guarded::ClaudeCode | Guarded::Pi => (".claude", ""),
    };
    if !file.is_empty() {
        return match request.scope {
            Scope::User => request
                .config_dir
                .clone()
                .unwrap_or_else(|| PathBuf::from(folder))
                .join(file),
            Scope::Project | Scope::Local => request.project.join(folder).join(file),
        };
    }
    match request.scope {
        Scope::Project => request.project.join(".claude").join("settings.json"),
        Scope::Local => request.project.join(".claude").join("settings.local.json"),
        Scope::User => request
            .config_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(".claude"))
            .join("settings.json"),
    }
}

/// Where the hooks write the project's ledgers (`.ctxguard/ledger`), when
/// `project` is a git work tree whose ignore files (its `.gitignore`,
/// `.git/info/exclude`, the user's global excludes) do not cover it.
fn ledger_tracked(project: &Path) -> Option<PathBuf> {
    if !project.join(".git").exists() {
        return None;
    }
    let folder = super::default_dir(project);
    let mut builder = ignore::gitignore::GitignoreBuilder::new(project);
    for file in [
        project.join(".gitignore"),
        project.join(".git").join("info").join("exclude"),
    ] {
        if file.is_file() {
            // A line that does not parse ignores nothing, as in git.
            let _ = builder.add(file);
        }
    }
    let ledger = folder.join("session.jsonl");
    let ignored = |matcher: &ignore::gitignore::Gitignore| {
        matcher
            .matched_path_or_any_parents(&ledger, false)
            .is_ignore()
    };
    let local = builder.build().ok()?;
    let (global, _) = ignore::gitignore::Gitignore::global();
    (!ignored(&local) && !ignored(&global)).then_some(folder)
}

/// Merges (or removes) the hooks; writes unless `dry_run`.
pub fn init(request: &InitRequest) -> Result<Installed, Vec<Diagnostic>> {
    if request.runtime == Guarded::Pi {
        return super::extension::install(request);
    }
    if request.runtime == Guarded::OpenClaw {
        return super::openclaw::install(request);
    }
    if let Some(version) = &request.claude_version {
        if !request.remove && !version.at_least(facts::GUARD_SINCE) {
            return Err(vec![codes::invalid_input(format!(
                "Claude Code {version} is older than the guard can run on: it has no SessionStart hook to give commitments back through"
            ))
            .help(format!(
                "update Claude Code to {} or later (`claude update`), then run `ctxguard init claude-code` again",
                facts::GUARD_SINCE
            ))]);
        }
    }
    let path = settings_path(request);
    let before = existing(&path, &request.access)?;
    let after = match request
        .remove
        .then(|| restored(&path, before.as_deref()))
        .flatten()
    {
        Some(original) => original,
        None => merged(request, &path, before.as_deref())?,
    };
    let mut installed = Installed {
        claude_version: request.claude_version.clone(),
        bom: opens_with_bom(&path),
        ..Installed::of(request, path.clone(), before, after)
    };
    if request.runtime == Guarded::Codex {
        let (also, left) = super::prompt::codex_prompt(request, &path)?;
        installed.also = also;
        installed.left = left;
    }
    installed.events = hooks_of(request.runtime)
        .iter()
        .filter(|(event, _, _)| {
            !request.remove && wanted_by(request.runtime, *event, request.claude_version.as_ref())
        })
        .map(|(event, _, _)| event.name_in(request.runtime))
        .collect();
    if request.dry_run {
        return Ok(installed);
    }
    super::prompt::write_also(&mut installed.also)?;
    if !installed.changed() {
        return Ok(installed);
    }
    let mut bytes = Vec::new();
    if installed.bom {
        bytes.extend_from_slice("\u{feff}".as_bytes());
    }
    bytes.extend_from_slice(installed.after.as_bytes());
    let written = write_to(&path, &bytes)?;
    installed.backup = written.backup;
    installed.path = written.path;
    Ok(installed)
}

/// Writes `bytes` to the settings (or extension, or plugin) file at
/// `path` through the one write function, its folder made first and the
/// original kept as a backup.
pub(super) fn write_to(path: &Path, bytes: &[u8]) -> Result<Written, Vec<Diagnostic>> {
    let failed =
        |what: &Path, reason: String| vec![codes::unreadable(&what.display().to_string(), reason)];
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| failed(dir, format!("cannot write it: {e}")))?;
    }
    write_file(path, bytes, Backup::Keep).map_err(|e| failed(&e.path, e.reason))
}

/// The text of the file at `path`, `None` when there is none; a file that
/// cannot be read (a link, too large, not UTF-8) is an error with its place.
pub(super) fn existing(path: &Path, access: &Access) -> Result<Option<String>, Vec<Diagnostic>> {
    match std::fs::metadata(path) {
        Ok(_) => crate::source::read::read(path, access)
            .map(|file| Some(file.text().to_owned()))
            .map_err(|unread| vec![Diagnostic::from(*unread)]),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(vec![codes::unreadable(
            &path.display().to_string(),
            error.to_string(),
        )]),
    }
}

/// The text `--remove` gives back exactly: the backup `init` made, when
/// the file is still what `init` made of it. Anything changed since, and
/// the hooks are taken out one by one instead.
fn restored(path: &Path, now: Option<&str>) -> Option<String> {
    let now = now?;
    let hook = installed_as(now)?;
    let request = install(hook.runtime, hook.program, hook.policy, hook.claude_version);
    crate::source::write::backups(path)
        .iter()
        .rev()
        .filter_map(|backup| crate::source::read::read(backup, &Access::default()).ok())
        .map(|file| file.text().to_owned())
        .find(|original| {
            installed_as(original).is_none()
                && merged(&request, path, Some(original)).is_ok_and(|made| made == now)
        })
}

/// Whether the file at `path` opens with a UTF-8 byte-order mark.
fn opens_with_bom(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 3];
    std::fs::File::open(path)
        .and_then(|file| file.take(3).read_exact(&mut head))
        .is_ok()
        && head == [0xEF, 0xBB, 0xBF]
}

/// `text`, a settings file of `runtime`, with ctxguard's hooks merged in
/// as `ctxguard init` merges them (for `claude_version`), for `check --fix`.
pub fn merge_text(
    runtime: Guarded,
    text: &str,
    claude_version: Option<Version>,
) -> Result<String, Vec<Diagnostic>> {
    let (program, policy) = match installed_as(text).filter(|hook| hook.runtime == runtime) {
        Some(hook) => (hook.program, hook.policy),
        None => ("ctxguard".to_owned(), None),
    };
    let request = install(runtime, program, policy, claude_version);
    merged(&request, Path::new(settings_name(runtime)), Some(text))
}

/// The settings file's name, as messages show it.
fn settings_name(runtime: Guarded) -> &'static str {
    match runtime {
        Guarded::ClaudeCode => "settings.json",
        Guarded::Codex => "hooks.json",
        Guarded::Pi => super::extension::FILE_NAME,
        Guarded::GeminiCli => "settings.json",
        Guarded::OpenClaw => "openclaw.json",
    }
}

/// The request that installs hooks running `command` with `policy` for
/// `claude_version`, to merge them into a text already read.
fn install(
    runtime: Guarded,
    command: String,
    policy: Option<String>,
    claude_version: Option<Version>,
) -> InitRequest {
    InitRequest {
        runtime,
        scope: Scope::Project,
        project: PathBuf::from("."),
        config_dir: None,
        command,
        policy,
        claude_version,
        remove: false,
        dry_run: false,
        access: Access::default(),
    }
}

/// The settings text with ctxguard's hooks merged in (or taken out).
fn merged(
    request: &InitRequest,
    path: &Path,
    before: Option<&str>,
) -> Result<String, Vec<Diagnostic>> {
    let name = path.display().to_string();
    let text = match before {
        Some(text) if !text.trim().is_empty() => text,
        _ => "{}\n",
    };
    // Gemini CLI reads its settings with comments; the others strictly.
    if request.runtime != Guarded::GeminiCli {
        if let Some(refused) = not_strict(request.runtime, &name, text) {
            return Err(vec![refused]);
        }
    }
    if let Some(refused) = hooks_twice(request.runtime, &name, text) {
        return Err(vec![refused]);
    }
    let root = CstRootNode::parse(text, &ParseOptions::default()).map_err(|error| {
        let file = SourceFile::new(&name, text);
        let range = error.range();
        vec![
            codes::invalid_input(format!("`{name}` is not valid JSON: {}", error.kind()))
                .label(&file, range.start..range.end.max(range.start), "here")
                .help("fix the settings file first; `ctxguard init` edits it in place and needs to read it"),
        ]
    })?;
    let not = |what: &str| {
        vec![codes::invalid_input(format!("`{name}`: {what}"))
            .file(&name)
            .help(format!(
                "{} reads `hooks` as an object of event names, each a list of matcher groups",
                request.runtime.name()
            ))]
    };
    let object = match root.value() {
        None => root.object_value_or_set(),
        Some(_) => root
            .object_value()
            .ok_or_else(|| not("the settings are not a JSON object"))?,
    };
    if request.remove && object.get("hooks").is_none() {
        return Ok(text.to_owned());
    }
    let hooks = object
        .object_value_or_create("hooks")
        .ok_or_else(|| not("`hooks` is not an object"))?;
    for &(event, matcher, timeout) in hooks_of(request.runtime) {
        let remove =
            request.remove || !wanted_by(request.runtime, event, request.claude_version.as_ref());
        let wanted = group(request, event, matcher, timeout);
        if remove && hooks.get(event.name_in(request.runtime)).is_none() {
            continue;
        }
        let groups = hooks
            .array_value_or_create(event.name_in(request.runtime))
            .ok_or_else(|| {
                not(&format!(
                    "`hooks.{}` is not a list",
                    event.name_in(request.runtime)
                ))
            })?;
        let mut installed = false;
        for element in groups.elements() {
            let Some(value) = element.to_serde_value() else {
                continue;
            };
            let handlers = value.get("hooks").and_then(Value::as_array);
            let ours = |h: &Value| ours_for(request.runtime, h);
            let mine = handlers.is_some_and(|h| h.iter().any(ours));
            if !mine {
                continue;
            }
            if !remove && !installed && value == wanted {
                installed = true;
                continue;
            }
            let others = handlers.map_or(0, |h| h.iter().filter(|h| !ours(h)).count());
            if others == 0 {
                element.remove();
            } else if let Some(list) = element
                .as_object()
                .and_then(|group| group.array_value("hooks"))
            {
                for handler in list.elements() {
                    if handler.to_serde_value().is_some_and(|h| ours(&h)) {
                        handler.remove();
                    }
                }
            }
        }
        if !remove && !installed {
            groups.append(input(&wanted));
        }
        if groups.elements().is_empty() {
            if let Some(property) = hooks.get(event.name_in(request.runtime)) {
                property.remove();
            }
        }
    }
    if hooks.properties().is_empty() && request.remove {
        if let Some(property) = object.get("hooks") {
            property.remove();
        }
    }
    let mut after = root.to_string();
    if before.is_none_or(|b| b.ends_with('\n')) && !after.ends_with('\n') {
        after.push('\n');
    }
    Ok(after)
}

/// A JSON value as the CST inserts it.
fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(flag) => CstInputValue::Bool(*flag),
        Value::Number(number) => CstInputValue::Number(number.to_string()),
        Value::String(text) => CstInputValue::String(text.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::commands::HOOKS;
    use serde_json::json;

    fn request(remove: bool) -> InitRequest {
        InitRequest {
            runtime: Guarded::ClaudeCode,
            scope: Scope::Project,
            project: PathBuf::from("/p"),
            config_dir: None,
            command: "ctxguard".into(),
            policy: None,
            claude_version: Version::parse("2.1.332"),
            remove,
            dry_run: true,
            access: Access::default(),
        }
    }

    const OTHERS: &str = r#"{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PreCompact": [
      {"matcher": "auto", "hooks": [{"type": "command", "command": "./save-notes.sh", "timeout": 5}]}
    ]
  }
}
"#;

    #[test]
    fn merges_beside_other_hooks_keeps_layout_and_is_idempotent() {
        let path = Path::new("/p/.claude/settings.json");
        let once = merged(&request(false), path, Some(OTHERS)).unwrap();
        assert!(once.starts_with("{\n  \"permissions\": {\"allow\": [\"Bash(npm test)\"]},\n"));
        assert!(once.contains("./save-notes.sh"));
        let value: Value = serde_json::from_str(&once).unwrap();
        for (event, _, _) in HOOKS {
            let groups = value["hooks"][event.name()].as_array().unwrap();
            let mine: Vec<_> = groups
                .iter()
                .filter(|g| {
                    g["hooks"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|h| ours_for(Guarded::ClaudeCode, h))
                })
                .collect();
            assert_eq!(mine.len(), 1, "{}", event.name());
        }
        assert_eq!(value["hooks"]["PreCompact"][1]["hooks"][0]["timeout"], 60);
        let twice = merged(&request(false), path, Some(&once)).unwrap();
        assert_eq!(once, twice, "a second run changes nothing");
        let removed = merged(&request(true), path, Some(&once)).unwrap();
        let value: Value = serde_json::from_str(&removed).unwrap();
        assert_eq!(value["hooks"].as_object().unwrap().len(), 1);
        assert_eq!(value["hooks"]["PreCompact"].as_array().unwrap().len(), 1);
        assert!(removed.contains("./save-notes.sh"));
    }

    #[test]
    fn a_new_file_and_a_removal_that_leaves_nothing() {
        let path = Path::new("/p/.claude/settings.json");
        let fresh = merged(&request(false), path, None).unwrap();
        let value: Value = serde_json::from_str(&fresh).unwrap();
        assert_eq!(value["hooks"].as_object().unwrap().len(), 5);
        assert_eq!(
            value["hooks"]["SessionStart"][0]["matcher"],
            "compact|resume"
        );
        let removed = merged(&request(true), path, Some(&fresh)).unwrap();
        let value: Value = serde_json::from_str(&removed).unwrap();
        assert_eq!(value, json!({}));
    }

    #[test]
    fn what_is_written_is_what_the_version_runs() {
        let path = Path::new("/p/.claude/settings.json");
        let events = |text: &str| -> Vec<String> {
            let value: Value = serde_json::from_str(text).unwrap();
            value["hooks"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        let newest = merged(&request(false), path, None).unwrap();
        assert!(events(&newest).contains(&"PostCompact".to_owned()));
        assert!(newest.contains("--claude-version 2.1.332"));
        let mut old = request(false);
        old.claude_version = Version::parse("2.0.76");
        // Written for 2.1.332, then for 2.0.76: PostCompact goes, or 2.0.76
        // would run none of the hooks.
        let downgraded = merged(&old, path, Some(&newest)).unwrap();
        assert!(!events(&downgraded).contains(&"PostCompact".to_owned()));
        assert_eq!(events(&downgraded).len(), 4);
        let mut unknown = request(false);
        unknown.claude_version = None;
        let fresh = merged(&unknown, path, None).unwrap();
        assert!(!events(&fresh).contains(&"PostCompact".to_owned()));
        assert!(!fresh.contains("--claude-version"));
    }

    #[test]
    fn settings_claude_code_would_not_load_are_refused_not_edited() {
        let path = Path::new("/p/.claude/settings.json");
        let commented = "{\n  // the team's formatter\n  \"permissions\": {}\n}\n";
        let errors = merged(&request(false), path, Some(commented)).unwrap_err();
        assert!(
            errors[0].message.contains("strict JSON"),
            "{}",
            errors[0].message
        );
        let trailing = "{\"permissions\": {},}\n";
        let errors = merged(&request(false), path, Some(trailing)).unwrap_err();
        assert!(errors[0].message.contains("does not load"));
    }

    #[test]
    fn settings_that_are_not_an_object_are_refused_with_a_place() {
        let path = Path::new("/p/.claude/settings.json");
        let errors = merged(&request(false), path, Some("{\"hooks\": [1,}")).unwrap_err();
        assert!(
            errors[0].message.contains("not valid JSON")
                || errors[0].message.contains("not an object")
        );
        let errors = merged(&request(false), path, Some("{\"hooks\": 3}")).unwrap_err();
        assert!(errors[0].message.contains("`hooks` is not an object"));
    }
}
