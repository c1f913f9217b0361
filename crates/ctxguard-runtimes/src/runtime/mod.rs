//! Runtime configs: the settings files of agent runtimes, read (`buffer::tree`)
//! and checked against the team's policy, one file per runtime. `check` finds
//! them at their conventional places, recognizes a file named on the command
//! line by its name and content, and applies the safe fixes.
//!
//! | runtime | file |
//! |---|---|
//! | Claude Code | `.claude/settings.json`, `.claude/settings.local.json` |
//! | Codex | `.codex/config.toml`, `.codex/hooks.json` |
//! | pi | `.pi/settings.json` |
//! | OpenHands | `config.toml` with `[core]`, `[llm]` or `[condenser]` |
//! | SWE-agent | run YAML with `agent.history_processors` |
//! | Gemini CLI | `.gemini/settings.json` |
//! | OpenClaw | `openclaw.json` (JSON5) |

mod claude_code;
mod codex;
mod gemini;
mod hooks;
mod openclaw;
mod openhands;
mod pi;
mod swe_agent;

use std::path::Path;
use std::sync::Arc;

use crate::buffer::tree::{self, Node, Syntax};
use crate::diagnostics::{Diagnostic, Severity};
use crate::facts::Runtime;
use crate::policy::Policy;
use crate::source::{SourceFile, Span};

/// A runtime's config file that `check` reads: which runtime, and which
/// of its files (Codex has two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Claude Code `settings.json`.
    ClaudeCode,
    /// Codex `config.toml`.
    Codex,
    /// Codex `hooks.json`.
    CodexHooks,
    /// pi `settings.json`.
    Pi,
    /// OpenHands `config.toml`.
    OpenHands,
    /// SWE-agent run YAML.
    SweAgent,
    /// Gemini CLI `settings.json`.
    GeminiCli,
    /// OpenClaw `openclaw.json`.
    OpenClaw,
}

impl Kind {
    /// Every config file, in the order the docs list them.
    pub const ALL: [Kind; 8] = [
        Kind::ClaudeCode,
        Kind::Codex,
        Kind::CodexHooks,
        Kind::Pi,
        Kind::OpenHands,
        Kind::SweAgent,
        Kind::GeminiCli,
        Kind::OpenClaw,
    ];

    /// The runtime whose config it is.
    pub fn runtime(self) -> Runtime {
        match self {
            Kind::ClaudeCode => Runtime::ClaudeCode,
            Kind::Codex | Kind::CodexHooks => Runtime::Codex,
            Kind::Pi => Runtime::Pi,
            Kind::OpenHands => Runtime::OpenHands,
            Kind::SweAgent => Runtime::SweAgent,
            Kind::GeminiCli => Runtime::GeminiCli,
            Kind::OpenClaw => Runtime::OpenClaw,
        }
    }

    /// The runtime's name in messages.
    pub fn name(self) -> &'static str {
        self.runtime().name()
    }

    /// The syntax its config is written in.
    pub fn syntax(self) -> Syntax {
        match self {
            Kind::Codex | Kind::OpenHands => Syntax::Toml,
            Kind::SweAgent => Syntax::Yaml,
            _ => Syntax::Json,
        }
    }

    /// The runtime whose conventional config `path` is, by its name and
    /// folder alone.
    pub fn by_place(path: &Path) -> Option<Kind> {
        let name = path.file_name()?.to_str()?;
        let folder = path
            .parent()
            .and_then(|p| p.file_name())
            .and_then(|n| n.to_str())
            .unwrap_or("");
        match (folder, name) {
            (".claude", "settings.json" | "settings.local.json") => Some(Kind::ClaudeCode),
            (".codex", "config.toml") => Some(Kind::Codex),
            (".codex", "hooks.json") => Some(Kind::CodexHooks),
            (".pi", "settings.json") => Some(Kind::Pi),
            (".gemini", "settings.json") => Some(Kind::GeminiCli),
            (_, "openclaw.json" | "openclaw.json5") => Some(Kind::OpenClaw),
            _ => None,
        }
    }

    /// The runtime a config file is, by its place, else by its content:
    /// `None` when it is none ctxguard knows.
    pub fn recognize(path: &Path, text: &str) -> Option<Kind> {
        if let Some(runtime) = Kind::by_place(path) {
            return Some(runtime);
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match extension {
            "toml" => {
                let codex = [
                    "model_context_window",
                    "model_auto_compact_token_limit",
                    "compact_prompt",
                    "model_provider",
                    "approval_policy",
                ];
                let openhands = ["[core]", "[condenser]", "[llm]", "[agent]", "[sandbox]"];
                if text
                    .lines()
                    .any(|l| openhands.iter().any(|s| l.trim_start().starts_with(s)))
                {
                    Some(Kind::OpenHands)
                } else if text
                    .lines()
                    .any(|l| codex.iter().any(|k| l.trim_start().starts_with(k)))
                {
                    Some(Kind::Codex)
                } else {
                    None
                }
            }
            "yaml" | "yml" => text
                .contains("history_processors")
                .then_some(Kind::SweAgent),
            "json" | "json5" | "jsonc" => {
                if text.contains("\"hooks\"") && text.contains("PreCompress") {
                    Some(Kind::GeminiCli)
                } else if text.contains("\"hooks\"") || text.contains("autoCompact") {
                    Some(Kind::ClaudeCode)
                } else if text.contains("keepRecentTokens") && text.contains("reserveTokens") {
                    Some(Kind::Pi)
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// A safe change `--fix` makes: replace `span` with `replacement`.
#[derive(Clone, Debug)]
pub struct Edit {
    /// The finding it fixes: silenced, it is not made.
    pub code: crate::diagnostics::Code,
    /// The bytes replaced.
    pub span: Span,
    /// What stands there after.
    pub replacement: String,
}

/// What checking one config found.
#[derive(Debug, Default)]
pub struct Checked {
    /// The findings, after the file's `ctxguard-ignore` comments.
    pub diagnostics: Vec<Diagnostic>,
    /// The safe fixes, in file order.
    pub edits: Vec<Edit>,
    /// Claude Code: the guard hooks are missing (`--fix` merges them as
    /// `ctxguard init claude-code` does).
    pub missing_guard: bool,
}

/// What a check of one runtime sees: the file, its tree, the policy.
pub(crate) struct Context<'a> {
    pub file: &'a Arc<SourceFile>,
    pub root: &'a Node,
    pub policy: &'a Policy,
    pub installed: &'a Installed,
    pub out: Checked,
}

impl Context<'_> {
    fn push(&mut self, diagnostic: Diagnostic) {
        self.out.diagnostics.push(diagnostic);
    }

    /// The policy's window, if it sets one.
    fn window(&self) -> Option<u64> {
        self.policy.window.as_ref().map(|w| w.value)
    }

    /// `key` at `node` is not `expected`: `invalid-config`.
    fn wrong(&mut self, node: &Node, key: &str, expected: &str) {
        self.invalid(node, key, expected, node.type_name());
    }

    /// The value at `node` as `get` reads it, or `invalid-config` saying
    /// `key` must be `expected`.
    fn typed<'n, T>(
        &mut self,
        node: &'n Node,
        key: &str,
        expected: &str,
        get: impl Fn(&'n Node) -> Option<T>,
    ) -> Option<T> {
        let value = get(node);
        if value.is_none() {
            self.wrong(node, key, expected);
        }
        value
    }

    /// The number at `key` of `parent`, with its node; `shown` names the
    /// key in a message (`compaction.keepRecentTokens`).
    fn number_at<'n>(
        &mut self,
        parent: &'n Node,
        key: &str,
        shown: &str,
    ) -> Option<(&'n Node, f64)> {
        let node = parent.get(key)?;
        self.number(node, shown).map(|value| (node, value))
    }

    /// `key` at `node` is `found`, where `expected` was: `invalid-config`.
    fn invalid(&mut self, node: &Node, key: &str, expected: &str, found: &str) {
        let d = crate::diagnostics::codes::runtime::wrong_type(
            self.file,
            node.span.clone(),
            key,
            expected,
            found,
        );
        self.push(d);
    }

    /// `key` at `node` must be a number.
    fn number(&mut self, node: &Node, key: &str) -> Option<f64> {
        self.typed(node, key, "a number", Node::as_f64)
    }

    /// `key` at `node` must be a boolean.
    fn boolean(&mut self, node: &Node, key: &str) -> Option<bool> {
        self.typed(node, key, "`true` or `false`", Node::as_bool)
    }

    /// `key` at `node` must be a string.
    fn string<'n>(&mut self, node: &'n Node, key: &str) -> Option<&'n str> {
        self.typed(node, key, "a string", Node::as_str)
    }

    /// Keys of `section` that are close to, but not, one of `known`.
    fn unknown_keys(&mut self, section: &Node, known: &[&str], runtime: &str, prefix: &str) {
        for entry in section.entries() {
            if known.contains(&entry.key.as_str()) {
                continue;
            }
            if let Some(suggestion) = suggest(&entry.key, known) {
                let d = crate::diagnostics::codes::runtime::unknown_key(
                    self.file,
                    entry.key_span.clone(),
                    &format!("{prefix}{}", entry.key),
                    runtime,
                    &format!("{prefix}{suggestion}"),
                );
                self.push(d);
            }
        }
    }
}

/// The candidate `word` is a misspelling of; a candidate that differs only
/// in case is not suggested.
pub(crate) fn suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let others = candidates
        .iter()
        .copied()
        .filter(|c| !c.eq_ignore_ascii_case(word));
    crate::diagnostics::suggest::did_you_mean(word, others)
}

/// What is known of the runtimes installed where the configs are used:
/// the versions whose behaviour a finding depends on.
#[derive(Clone, Debug, Default)]
pub struct Installed {
    /// The Claude Code version (`claude --version`, `--claude-version`).
    pub claude_code: Option<crate::facts::Version>,
}

/// Checks `file` as a config of `runtime` against `policy`.
pub fn check_config(file: &Arc<SourceFile>, runtime: Kind, policy: &Policy) -> Checked {
    check_installed(file, runtime, policy, &Installed::default())
}

/// Checks `file` as a config of `runtime` against `policy`, for the
/// versions `installed` names.
pub fn check_installed(
    file: &Arc<SourceFile>,
    runtime: Kind,
    policy: &Policy,
    installed: &Installed,
) -> Checked {
    let root = match tree::read(file, runtime.syntax()) {
        Ok(root) => root,
        Err(diagnostic) => {
            return Checked {
                diagnostics: vec![*diagnostic],
                ..Checked::default()
            }
        }
    };
    let mut cx = Context {
        file,
        root: &root,
        policy,
        installed,
        out: Checked::default(),
    };
    for (first, last) in tree::duplicates(&root) {
        cx.push(crate::diagnostics::codes::runtime::duplicate_key(
            file,
            first.key_span.clone(),
            last.key_span.clone(),
            &first.key,
        ));
    }
    match runtime {
        Kind::ClaudeCode => claude_code::check(&mut cx),
        Kind::Codex => codex::check(&mut cx),
        Kind::CodexHooks => codex::check_hooks(&mut cx),
        Kind::Pi => pi::check(&mut cx),
        Kind::OpenHands => openhands::check(&mut cx),
        Kind::SweAgent => swe_agent::check(&mut cx),
        Kind::GeminiCli => gemini::check(&mut cx),
        Kind::OpenClaw => openclaw::check(&mut cx),
    }
    let mut out = cx.out;
    out.edits.sort_by_key(|e| e.span.start);
    let ignores = ignores(file);
    out.diagnostics.retain(|d| {
        d.severity == Severity::Error || {
            let line = d
                .primary()
                .map_or(0, |label| file.line_col(label.span.start).0);
            !ignores.iter().any(|(at, code)| {
                *code == d.code.name() && (*at == line || *at + 1 == line || *at == 0)
            })
        }
    });
    // A fix belongs to its finding: a finding silenced keeps its text.
    let kept = &out.diagnostics;
    out.edits.retain(|edit| {
        kept.iter().any(|d| {
            d.code == edit.code && d.primary().map(|l| l.span.start) == Some(edit.span.start)
        })
    });
    out
}

/// `ctxguard-ignore CODE: reason` in a comment (`#` or `//`), written as
/// in a policy, silences a warning of CODE on its line or the next; in a plain JSON file, which has
/// no comments, a line `NAME CODE: reason` of `.ctxguard-ignore` beside it
/// silences CODE in the file NAME. Errors cannot be silenced. Returns
/// (line, code), line 0 for the whole file.
fn ignores(file: &SourceFile) -> Vec<(usize, String)> {
    static COMMENT: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        // A constant pattern: it compiles.
        #[allow(clippy::expect_used)]
        regex::Regex::new(r"(?:#|//)\s*ctxguard-ignore\s+([a-z][a-z-]*):\s*\S")
            .expect("the ignore pattern compiles")
    });
    let mut found: Vec<(usize, String)> = file
        .text()
        .lines()
        .enumerate()
        .filter_map(|(n, line)| Some((n + 1, COMMENT.captures(line)?[1].to_owned())))
        .collect();
    let path = Path::new(file.name());
    if let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) {
        if let Ok(sidecar) = std::fs::read_to_string(dir.join(".ctxguard-ignore")) {
            for line in sidecar.lines() {
                let mut words = line.split_whitespace();
                if let (Some(file), Some(code), Some(_reason)) =
                    (words.next(), words.next(), words.next())
                {
                    if file == name {
                        found.push((0, code.trim_end_matches(':').to_owned()));
                    }
                }
            }
        }
    }
    found
}

/// Applies `edits` (in file order, not overlapping) to `text`.
pub fn apply(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        if edit.span.start < at || edit.span.end > text.len() {
            continue;
        }
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether a hook matcher matches `value`: a list of names (letters,
/// digits, `_`, `-`, spaces, `,` and `|`) by name; anything else as an
/// unanchored regex; empty and `*` match everything. `None`: the matcher
/// is not a valid regex.
pub(crate) fn matcher_matches(matcher: &str, value: &str) -> Option<bool> {
    let matcher = matcher.trim();
    if matcher.is_empty() || matcher == "*" {
        return Some(true);
    }
    let plain = matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'));
    if plain {
        return Some(matcher.split(['|', ',']).any(|name| name.trim() == value));
    }
    regex::Regex::new(matcher).ok().map(|r| r.is_match(value))
}

/// A custom compaction prompt must ask for the four kinds of commitment to
/// be kept word for word: a warning names what it leaves out.
pub(crate) fn compaction_prompt(cx: &mut Context<'_>, span: Span, text: &str) {
    let file = Arc::clone(cx.file);
    prompt_in(cx, &file, span, text);
}

/// [`compaction_prompt`] for a prompt in another file than the config.
pub(crate) fn prompt_in(cx: &mut Context<'_>, file: &Arc<SourceFile>, span: Span, text: &str) {
    let lower = text.to_lowercase();
    let asks = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let mut missing = Vec::new();
    for (what, words) in [
        (
            "constraints",
            &["constraint", "rule", "requirement", "must", "never"][..],
        ),
        (
            "identifiers",
            &["identifier", "path", "file name", "filename", "name"][..],
        ),
        ("values", &["value", "number", "url", "version"][..]),
        ("orderings", &["order", "sequence", "before", "after"][..]),
    ] {
        if !asks(words) {
            missing.push(what);
        }
    }
    if !asks(&[
        "verbatim",
        "word for word",
        "exactly",
        "exact",
        "as written",
        "unchanged",
    ]) {
        missing = vec!["constraints", "identifiers", "values", "orderings"];
    }
    if !missing.is_empty() {
        let list = match missing.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        let d = crate::diagnostics::codes::runtime::prompt_missing(file, span, &list);
        cx.push(d);
    }
}

/// `seconds` as a person reads a duration.
pub(crate) fn duration(seconds: f64) -> String {
    if seconds >= 3600.0 {
        format!("{:.1} hours", seconds / 3600.0)
    } else if seconds >= 60.0 {
        format!("{:.0} minutes", seconds / 60.0)
    } else if seconds >= 1.0 {
        format!("{seconds} seconds")
    } else {
        format!("{:.0} milliseconds", seconds * 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matchers_read_as_claude_code_reads_them() {
        assert_eq!(matcher_matches("manual|auto", "auto"), Some(true));
        assert_eq!(matcher_matches("", "manual"), Some(true));
        assert_eq!(matcher_matches("*", "manual"), Some(true));
        assert_eq!(matcher_matches("compact", "manual"), Some(false));
        assert_eq!(matcher_matches("startup, resume", "compact"), Some(false));
        assert_eq!(matcher_matches("^(auto|manual)$", "auto"), Some(true));
        assert_eq!(matcher_matches("aut.", "auto"), Some(true));
        assert_eq!(matcher_matches("(", "auto"), None);
    }

    #[test]
    fn suggestions_ignore_case() {
        assert_eq!(
            suggest("PreCompaction", &["PreCompact", "PostCompact"]),
            Some("PreCompact")
        );
        assert_eq!(
            suggest("autoCompactWindw", &["autoCompactWindow"]),
            Some("autoCompactWindow")
        );
        assert_eq!(
            suggest("permissions", &["hooks", "autoCompactWindow"]),
            None
        );
    }

    #[test]
    fn durations_read_as_people_read_them() {
        assert_eq!(duration(30000.0), "8.3 hours");
        assert_eq!(duration(3000.0), "50 minutes");
        assert_eq!(duration(0.03), "30 milliseconds");
    }
}
