//! The hook table Claude Code and Gemini CLI share:
//! `hooks.<Event>[]{matcher, hooks[{type, command, timeout}]}`. Checked for
//! events that do not exist, matchers that never match a compaction,
//! handler types an event does not run, timeouts in the wrong unit, and
//! which of ctxguard's own hooks are wired in.

use super::{matcher_matches, suggest, Context, Edit};
use crate::buffer::tree::Node;
use crate::diagnostics::codes::runtime as codes;

/// The unit a runtime reads `timeout` in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Seconds,
    Milliseconds,
}

/// What a runtime's hook table allows.
pub(super) struct Rules {
    pub runtime: &'static str,
    /// Every event the runtime has (in any version).
    pub events: fn() -> &'static [&'static str],
    /// Names other runtimes use, and the event meant.
    pub aliases: &'static [(&'static str, &'static str)],
    /// Events matched against the compaction trigger (`manual`, `auto`).
    pub compaction: &'static [&'static str],
    /// Handler types each event runs; `None`: any of `types`.
    pub event_types: fn(&str) -> Option<&'static [&'static str]>,
    /// Every handler type.
    pub types: &'static [&'static str],
    pub unit: Unit,
}

/// Whether a handler is one of ctxguard's own.
fn is_guard(handler: &Node) -> bool {
    handler
        .get("command")
        .and_then(Node::as_str)
        .is_some_and(crate::hook::commands::runs_ctxguard)
}

/// The events of the table at `hooks` that have a handler of ctxguard's own.
pub(super) fn guarded_events(hooks: &Node) -> Vec<String> {
    hooks
        .entries()
        .iter()
        .filter(|entry| {
            entry.node.items().iter().any(|group| {
                group
                    .get("hooks")
                    .is_some_and(|handlers| handlers.items().iter().any(is_guard))
            })
        })
        .map(|entry| entry.key.clone())
        .collect()
}

/// The events of `wanted` that no ctxguard hook handles (`guards` are the
/// events that have one), reported as an unguarded compaction of
/// `runtime` (`ctxguard init ARG`) at the `hooks` key; `fix` says what to
/// run.
pub(super) fn missing_guard(
    cx: &mut Context<'_>,
    wanted: &[&str],
    guards: &[String],
    (runtime, arg): (&str, &str),
    fix: &str,
) {
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|event| !guards.iter().any(|e| e == event))
        .collect();
    if missing.is_empty() {
        return;
    }
    let what = if missing.len() == wanted.len() {
        format!("none of the hooks `ctxguard init {arg}` installs is here")
    } else {
        format!(
            "no ctxguard hook for {}",
            missing
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    unguarded(cx, &["hooks"], runtime, &what, fix);
}

/// An unguarded compaction of `runtime`: `what` is missing, `fix` says what
/// to run; reported at the first of the keys `at` the file has.
pub(super) fn unguarded(cx: &mut Context<'_>, at: &[&str], runtime: &str, what: &str, fix: &str) {
    let span = at
        .iter()
        .find_map(|key| cx.root.entry(key))
        .map_or(0..0, |e| e.key_span.clone());
    let d = codes::unguarded(cx.file, span, runtime, what, fix);
    cx.push(d);
    cx.out.missing_guard = true;
}

/// Checks the table at `hooks`; `unknown` is what an event the runtime
/// does not know costs ("its hooks never run").
pub(super) fn check(cx: &mut Context<'_>, hooks: &Node, rules: &Rules, unknown: &str) {
    let events = (rules.events)();
    if !matches!(hooks.value, crate::buffer::tree::Value::Map(_)) {
        cx.wrong(hooks, "hooks", "a map of event names");
        return;
    }
    for entry in hooks.entries() {
        let event = entry.key.as_str();
        if !events.contains(&event) {
            let alias = rules
                .aliases
                .iter()
                .find(|(a, _)| *a == event)
                .map(|(_, to)| *to);
            let meant = alias.or_else(|| suggest(event, events));
            let d = codes::unknown_event(
                cx.file,
                entry.key_span.clone(),
                rules.runtime,
                event,
                meant,
                unknown,
            );
            cx.push(d);
            continue;
        }
        let crate::buffer::tree::Value::List(groups) = &entry.node.value else {
            cx.wrong(
                &entry.node,
                &format!("hooks.{event}"),
                "a list of matcher groups",
            );
            continue;
        };
        for group in groups {
            let matcher = group.get("matcher");
            let matcher_text = matcher.and_then(Node::as_str).map(str::to_owned);
            if let Some(m) = matcher {
                if m.as_str().is_none() && !matches!(m.value, crate::buffer::tree::Value::Null) {
                    cx.wrong(m, "matcher", "a string");
                }
            }
            if let (Some(m), Some(text)) = (matcher, &matcher_text) {
                if rules.compaction.contains(&event) {
                    let never = ["manual", "auto"]
                        .iter()
                        .all(|trigger| matcher_matches(text, trigger) == Some(false));
                    if never {
                        let d = codes::never_matches(
                            cx.file,
                            m.span.clone(),
                            event,
                            text,
                            "compaction trigger (`manual`, `auto`)",
                        );
                        cx.push(d);
                    }
                }
            }
            let Some(handlers) = group.get("hooks") else {
                continue;
            };
            let crate::buffer::tree::Value::List(handlers) = &handlers.value else {
                cx.wrong(handlers, "hooks", "a list of handlers");
                continue;
            };
            for handler in handlers {
                handler_checks(cx, event, handler, rules);
                // ctxguard's re-injection must run after a compaction.
                let (Some(m), Some(text)) = (matcher, &matcher_text) else {
                    continue;
                };
                if event == "SessionStart"
                    && is_guard(handler)
                    && matcher_matches(text, "compact") == Some(false)
                {
                    let d = codes::never_matches(
                        cx.file,
                        m.span.clone(),
                        event,
                        text,
                        "`compact` source",
                    );
                    cx.push(d);
                }
            }
        }
    }
}

fn handler_checks(cx: &mut Context<'_>, event: &str, handler: &Node, rules: &Rules) {
    if let Some(kind) = handler.get("type") {
        if let Some(name) = cx.string(kind, "type") {
            let allowed = (rules.event_types)(event).unwrap_or(rules.types);
            if !allowed.contains(&name) {
                let list = allowed
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let d = codes::unsupported_type(cx.file, kind.span.clone(), event, name, &list);
                cx.push(d);
            }
        }
    }
    let Some(timeout) = handler.get("timeout") else {
        return;
    };
    let Some(value) = cx.number(timeout, "timeout") else {
        return;
    };
    // A timeout written in the other unit: what it reads as, and the fix.
    let (unit, reads_as, fixed) = match rules.unit {
        Unit::Seconds if value >= 1000.0 => (
            "seconds",
            super::duration(value),
            (value / 1000.0).ceil().max(1.0) as u64,
        ),
        Unit::Milliseconds if value > 0.0 && value < 1000.0 => (
            "milliseconds",
            super::duration(value / 1000.0),
            (value * 1000.0) as u64,
        ),
        _ => return,
    };
    let d = codes::timeout_units(
        cx.file,
        timeout.span.clone(),
        rules.runtime,
        value,
        unit,
        &reads_as,
        fixed,
    );
    let code = d.code;
    cx.push(d);
    cx.out.edits.push(Edit {
        code,
        span: timeout.span.clone(),
        replacement: fixed.to_string(),
    });
}
