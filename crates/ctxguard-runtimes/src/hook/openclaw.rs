//! `ctxguard init openclaw`: OpenClaw is guarded by a plugin, not a hooks
//! file. The plugin (`crates/ctxguard-runtimes/plugins/openclaw/`, JavaScript as OpenClaw loads it)
//! calls `ctxguard hook openclaw EVENT` before each prompt is built; `init`
//! writes it into OpenClaw's state folder (`OPENCLAW_STATE_DIR`, else
//! `~/.openclaw`) as `extensions/ctxguard/`, with the command (and policy)
//! the hooks run, and enables it in `openclaw.json` as `openclaw plugins
//! install --link` does: its folder in `plugins.load.paths`, and an entry
//! that lets it see the conversation (`hooks.allowConversationAccess`).
//! The configuration is edited in place (comments and layout kept);
//! `--remove` takes out the entry, the path and the files, when they are
//! still what `init` wrote.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::Value;

use super::init::{existing, Also, InitRequest, Installed};
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;

/// The plugin's files, as the repository holds them.
const FILES: [(&str, &str); 3] = [
    ("index.js", include_str!("../../plugins/openclaw/index.js")),
    (
        "openclaw.plugin.json",
        include_str!("../../plugins/openclaw/openclaw.plugin.json"),
    ),
    (
        "package.json",
        include_str!("../../plugins/openclaw/package.json"),
    ),
];

/// The plugin's id in OpenClaw's configuration.
pub const PLUGIN_ID: &str = "ctxguard";

/// The line of `index.js` that `init` fills in with the hook arguments.
const ARGS_LINE: &str = "const ARGS = [];";

/// `index.js` for `request`.
fn script(request: &InitRequest) -> String {
    super::extension::fill_in(FILES[0].1, ARGS_LINE, request)
}

/// Whether `text` is the file `name` as `init` writes it, whatever command
/// and arguments it was written with.
fn is_ours(name: &str, text: &str) -> bool {
    let Some((_, template)) = FILES.iter().find(|(file, _)| *file == name) else {
        return false;
    };
    super::extension::filled_in(text, template, ARGS_LINE)
}

/// OpenClaw's state folder: the request's, else `.openclaw`.
fn state_dir(request: &InitRequest) -> PathBuf {
    request
        .config_dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(".openclaw"))
}

/// Where the plugin goes: `extensions/ctxguard/` of the state folder.
pub fn plugin_dir(request: &InitRequest) -> PathBuf {
    state_dir(request).join("extensions").join(PLUGIN_ID)
}

/// Writes (or takes out) the plugin and its entry in `openclaw.json`.
pub(super) fn install(request: &InitRequest) -> Result<Installed, Vec<Diagnostic>> {
    let config = state_dir(request).join("openclaw.json");
    let dir = plugin_dir(request);
    let before = existing(&config, &request.access)?;
    let after = configured(request, &config, &dir, before.as_deref())?;
    let mut also = Vec::new();
    for (name, template) in FILES {
        let path = dir.join(name);
        let now = existing(&path, &request.access)?;
        let wanted = match (request.remove, name) {
            (true, _) => None,
            (false, "index.js") => Some(script(request)),
            (false, _) => Some(template.to_owned()),
        };
        if let (true, Some(text)) = (request.remove, &now) {
            if !is_ours(name, text) {
                let shown = path.display().to_string();
                return Err(vec![codes::invalid_input(format!(
                    "`{shown}` is not what `ctxguard init openclaw` writes (it was changed since): ctxguard will not remove it"
                ))
                .file(&shown)
                .help("remove the plugin folder yourself, or put back what `init` wrote and run `ctxguard init openclaw --remove` again")]);
            }
        }
        if now != wanted {
            also.push(Also {
                path,
                before: now,
                after: wanted,
                backup: None,
            });
        }
    }
    let mut installed = Installed::of(request, config.clone(), before, after);
    installed.also = also;
    if request.dry_run {
        return Ok(installed);
    }
    super::prompt::write_also(&mut installed.also)?;
    if request.remove && installed.also.iter().all(|a| a.after.is_none()) {
        // The folders `init` made, now empty: a folder with anything else
        // in it stays.
        let _ = std::fs::remove_dir(&dir);
        if let Some(extensions) = dir.parent() {
            let _ = std::fs::remove_dir(extensions);
        }
    }
    if !installed.changed() {
        return Ok(installed);
    }
    let written = super::init::write_to(&config, installed.after.as_bytes())?;
    installed.backup = written.backup;
    installed.path = written.path;
    Ok(installed)
}

/// `openclaw.json` with the plugin enabled (or taken out): its folder in
/// `plugins.load.paths`, and `plugins.entries.ctxguard`.
fn configured(
    request: &InitRequest,
    config: &Path,
    dir: &Path,
    before: Option<&str>,
) -> Result<String, Vec<Diagnostic>> {
    let name = config.display().to_string();
    let text = match before {
        Some(text) if !text.trim().is_empty() => text,
        _ if request.remove => return Ok(before.unwrap_or_default().to_owned()),
        _ => "{}\n",
    };
    let root = CstRootNode::parse(text, &ParseOptions::default()).map_err(|error| {
        let file = crate::source::SourceFile::new(&name, text);
        let range = error.range();
        vec![codes::invalid_input(format!(
            "`{name}` is not JSON5 OpenClaw reads: {}",
            error.kind()
        ))
        .label(&file, range.start..range.end.max(range.start), "here")
        .help("fix the configuration first; `ctxguard init openclaw` edits it in place")]
    })?;
    let not = |what: &str| {
        vec![codes::invalid_input(format!("`{name}`: {what}"))
            .file(&name)
            .help("OpenClaw reads `plugins.load.paths` as a list of folders and `plugins.entries` as an object of plugin ids")]
    };
    let object = match root.value() {
        None => root.object_value_or_set(),
        Some(_) => root
            .object_value()
            .ok_or_else(|| not("the configuration is not an object"))?,
    };
    let folder = dir.display().to_string();
    if request.remove {
        if let Some(plugins) = object.object_value("plugins") {
            if let Some(paths) = plugins
                .object_value("load")
                .and_then(|load| load.array_value("paths"))
            {
                for element in paths.elements() {
                    if element.to_serde_value() == Some(Value::String(folder.clone())) {
                        element.remove();
                    }
                }
            }
            if let Some(entries) = plugins.object_value("entries") {
                if let Some(entry) = entries.get(PLUGIN_ID) {
                    entry.remove();
                }
            }
            // What `init` made and is empty now goes too: the list, the
            // objects around it, `plugins` itself.
            if let Some(load) = plugins.object_value("load") {
                if load
                    .array_value("paths")
                    .is_some_and(|p| p.elements().is_empty())
                {
                    if let Some(paths) = load.get("paths") {
                        paths.remove();
                    }
                }
            }
            for key in ["load", "entries"] {
                if plugins
                    .object_value(key)
                    .is_some_and(|o| o.properties().is_empty())
                {
                    if let Some(property) = plugins.get(key) {
                        property.remove();
                    }
                }
            }
            if plugins.properties().is_empty() {
                if let Some(property) = object.get("plugins") {
                    property.remove();
                }
            }
        }
    } else {
        let plugins = object
            .object_value_or_create("plugins")
            .ok_or_else(|| not("`plugins` is not an object"))?;
        let paths = plugins
            .object_value_or_create("load")
            .ok_or_else(|| not("`plugins.load` is not an object"))?
            .array_value_or_create("paths")
            .ok_or_else(|| not("`plugins.load.paths` is not a list"))?;
        if !paths
            .elements()
            .iter()
            .any(|e| e.to_serde_value() == Some(Value::String(folder.clone())))
        {
            paths.append(CstInputValue::String(folder));
        }
        let entries = plugins
            .object_value_or_create("entries")
            .ok_or_else(|| not("`plugins.entries` is not an object"))?;
        let wanted = CstInputValue::Object(vec![
            ("enabled".to_owned(), CstInputValue::Bool(true)),
            (
                "hooks".to_owned(),
                CstInputValue::Object(vec![(
                    "allowConversationAccess".to_owned(),
                    CstInputValue::Bool(true),
                )]),
            ),
        ]);
        match entries.get(PLUGIN_ID) {
            Some(entry) => entry.set_value(wanted),
            None => {
                entries.append(PLUGIN_ID, wanted);
            }
        }
    }
    let mut after = root.to_string();
    if before.is_none_or(|b| b.ends_with('\n')) && !after.ends_with('\n') {
        after.push('\n');
    }
    Ok(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(remove: bool) -> InitRequest {
        InitRequest {
            runtime: super::super::Guarded::OpenClaw,
            scope: super::super::init::Scope::User,
            project: PathBuf::from("."),
            config_dir: Some(PathBuf::from("/home/me/.openclaw")),
            command: "/opt/bin/ctxguard".into(),
            policy: Some("team.policy".into()),
            claude_version: None,
            remove,
            dry_run: true,
            access: crate::source::Access::default(),
        }
    }

    #[test]
    fn the_plugin_carries_the_command_and_is_known_again() {
        let text = script(&request(false));
        assert!(
            text.contains(r#"const COMMAND = "/opt/bin/ctxguard";"#),
            "{text}"
        );
        assert!(text.contains(r#"const ARGS = ["--policy", "team.policy"];"#));
        assert!(is_ours("index.js", &text) && is_ours("index.js", FILES[0].1));
        assert!(!is_ours(
            "index.js",
            &text.replace("prependContext", "appendContext")
        ));
    }

    #[test]
    fn the_entry_is_merged_beside_the_rest_and_taken_out_exactly() {
        let config = Path::new("/home/me/.openclaw/openclaw.json");
        let dir = plugin_dir(&request(false));
        let before = "{\n  // the gateway\n  gateway: { port: 18789 },\n  plugins: { entries: { other: { enabled: true } } },\n}\n";
        let after = configured(&request(false), config, &dir, Some(before)).unwrap();
        assert!(
            after.contains("// the gateway") && after.contains("other"),
            "{after}"
        );
        assert!(
            after.contains("/home/me/.openclaw/extensions/ctxguard"),
            "{after}"
        );
        assert!(after.contains("allowConversationAccess"), "{after}");
        let again = configured(&request(false), config, &dir, Some(&after)).unwrap();
        assert_eq!(again, after, "a second run changes nothing");
        let removed = configured(&request(true), config, &dir, Some(&after)).unwrap();
        assert!(
            !removed.contains("ctxguard") && removed.contains("other"),
            "{removed}"
        );
    }
}
