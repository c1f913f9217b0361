//! A file given in the wrong place: a policy as `--trace`, a trace as
//! `--policy`, YAML under a `.json` name, a runtime's session log instead
//! of a trace. When an input cannot be read as what it was given as, the
//! file is recognized for what it is, and the diagnostic says so, with the
//! command that would work.

use ctxguard_core::diagnostics::{Code, Diagnostic};
use ctxguard_core::source::SourceFile;

/// What an input was given as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// `--trace`.
    Trace,
    /// `--plan`.
    Plan,
    /// `--policy`.
    Policy,
}

impl Role {
    fn flag(self) -> &'static str {
        match self {
            Role::Trace => "--trace",
            Role::Plan => "--plan",
            Role::Policy => "--policy",
        }
    }
}

/// What a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Policy,
    Trace,
    Plan,
    Session(ctxguard_core::facts::Runtime),
    /// YAML in a file whose name says JSON.
    Yaml,
}

/// `diagnostic`, about an input given as `role` that could not be read,
/// with what the file really is, when it is something ctxguard knows.
pub(crate) fn explain(role: Role, diagnostic: Diagnostic) -> Diagnostic {
    if !matches!(diagnostic.code, Code::InvalidInput | Code::Syntax) {
        return diagnostic;
    }
    let Some(file) = diagnostic
        .primary()
        .map(|label| std::sync::Arc::clone(&label.file))
    else {
        return diagnostic;
    };
    let name = ctxguard_core::diagnostics::codes::echo(file.name()).into_owned();
    let Some(found) = what(&file) else {
        return diagnostic;
    };
    let mut diagnostic = diagnostic;
    match (role, found) {
        (Role::Trace | Role::Plan, Found::Policy) => {
            diagnostic.message = format!("`{name}` is a ctxguard policy, not a {}", noun(role));
            diagnostic.help = Some(format!("pass it as `--policy {name}`"));
        }
        (Role::Policy | Role::Plan, Found::Trace) => {
            diagnostic.message = format!("`{name}` is a trace, not a {}", noun(role));
            diagnostic.help = Some(format!("pass it as `--trace {name}`"));
        }
        (Role::Policy | Role::Trace, Found::Plan) => {
            diagnostic.message = format!("`{name}` is a plan, not a {}", noun(role));
            diagnostic.help = Some(format!("pass it as `--plan {name}`"));
        }
        (_, Found::Session(runtime)) => {
            let runtime = runtime.name();
            diagnostic.message =
                format!("`{name}` is a {runtime} session log, not a {}", noun(role));
            diagnostic.help = Some(format!(
                "`ctxguard import {name} --out imported` writes a trace and a plan for each compaction in it; `ctxguard audit {name}` says what each compaction lost"
            ));
        }
        (Role::Trace | Role::Plan, Found::Yaml) => {
            diagnostic.help = Some(format!(
                "it reads as YAML: add `--input-format yaml` to `{} {name}`, or rename it to `.yaml`",
                role.flag()
            ));
        }
        _ => {}
    }
    diagnostic
}

fn noun(role: Role) -> &'static str {
    match role {
        Role::Trace => "trace",
        Role::Plan => "plan",
        Role::Policy => "policy",
    }
}

/// What `file` is, if ctxguard can tell.
fn what(file: &SourceFile) -> Option<Found> {
    let text = file.text();
    if let Some(runtime) = ctxguard_runtimes::import::detect(text) {
        return Some(Found::Session(runtime));
    }
    let statement = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))?;
    let first_word = statement.split_whitespace().next().unwrap_or("");
    let policy_words = [
        "policy",
        "extends",
        "kind",
        "order",
        "budget",
        "preserve",
        "tokenizer",
        "on",
    ];
    if policy_words.contains(&first_word) && !statement.contains(':') && !statement.starts_with('{')
    {
        return Some(Found::Policy);
    }
    // A document with `version` and `regions`: a plan when its regions
    // keep, cover or come from trace regions.
    let value: Option<serde_json::Value> = serde_json::from_str(text).ok().or_else(|| {
        let yaml = ctxguard_core::buffer::yaml_value(text)?;
        Some(yaml)
    });
    let json_name = file.name().ends_with(".json");
    match value {
        Some(value) if value.get("version").is_some() && value.get("regions").is_some() => {
            let plan = value["regions"].as_array().is_some_and(|regions| {
                regions.iter().any(|r| {
                    r.get("keep").is_some() || r.get("covers").is_some() || r.get("from").is_some()
                })
            });
            if json_name && serde_json::from_str::<serde_json::Value>(text).is_err() {
                return Some(Found::Yaml);
            }
            Some(if plan { Found::Plan } else { Found::Trace })
        }
        Some(serde_json::Value::Object(_))
            if json_name && serde_json::from_str::<serde_json::Value>(text).is_err() =>
        {
            Some(Found::Yaml)
        }
        _ => None,
    }
}
