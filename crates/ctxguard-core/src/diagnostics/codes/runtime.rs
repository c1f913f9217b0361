//! Codes of runtime configs: the settings of Claude Code, Codex, pi,
//! OpenHands, SWE-agent, Gemini CLI and OpenClaw that `ctxguard check`
//! finds breaking the team's policy. Each code's explanation and the
//! constructors of its diagnostics live together here.

use std::sync::Arc;

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic, Severity};
use crate::source::{SourceFile, Span};

// `invalid-config`

pub(crate) const INVALID_CONFIG: Explanation = Explanation {
    code: Code::InvalidConfig,
    summary: "a runtime config does not parse, or a compaction key has the wrong type",
    details: "A runtime that cannot read its settings falls back to its defaults or refuses to start; Claude Code reads `settings.json` as strict JSON and ignores the whole file for one comment or trailing comma, hooks and permission rules included. A compaction key of the wrong type (a string where a number of tokens is expected, `\"500k\"` read as 500) is ignored or misread. Either way the compaction the team reviewed is not the one that runs.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"autoCompactWindow\": \"200k\"\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Write the value as the runtime reads it: the message says what was expected.",
};

/// `file` does not parse as `syntax` at `span`: `reason`.
pub(crate) fn unparsable(
    file: &Arc<SourceFile>,
    span: Span,
    syntax: &str,
    reason: &str,
) -> Diagnostic {
    let name: &str = &echo(file.name());
    Diagnostic::new(
        Code::InvalidConfig,
        format!("`{name}` is not valid {syntax}"),
    )
    .label(file, span, echo(reason).into_owned())
    .help("the runtime cannot read this file either: fix it where the label points")
}

/// The value at `span` (`key`) is `found`; the runtime expects `expected`.
pub fn wrong_type(
    file: &Arc<SourceFile>,
    span: Span,
    key: &str,
    expected: &str,
    found: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidConfig,
        format!("`{key}` must be {expected}, not {found}"),
    )
    .label(file, span, format!("expected {expected}"))
    .help("the runtime cannot use this value as written: the compaction you reviewed is not the one that runs")
}

/// `key` is written twice in one object, at `first` and `last`: the
/// runtime reads the last, and what the first says is not in effect.
pub fn duplicate_key(file: &Arc<SourceFile>, first: Span, last: Span, key: &str) -> Diagnostic {
    let key: &str = &echo(key);
    Diagnostic::new(
        Code::InvalidConfig,
        format!("`{key}` is written twice: the runtime reads only the last, and nothing in the first is in effect"),
    )
    .label(file, first, "not in effect")
    .label(file, last, "only this one is read")
    .help(format!("merge the two `{key}` into one"))
}

// `unknown-config-key`

pub(crate) const UNKNOWN_CONFIG_KEY: Explanation = Explanation {
    code: Code::UnknownConfigKey,
    summary: "a key in a compaction section is not one the runtime knows",
    details: "Runtimes ignore keys they do not know (or, like OpenHands, refuse to start): a misspelt compaction key is a setting that silently does not apply. Only keys of compaction-relevant sections are checked, and a key is reported when it is close to one the runtime reads.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"autoCompactWindw\": 200000\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Spell the key as the runtime does: the help names it.",
};

/// `key` at `span` is unknown; `suggestion` is the known key it is close to.
pub fn unknown_key(
    file: &Arc<SourceFile>,
    span: Span,
    key: &str,
    runtime: &str,
    suggestion: &str,
) -> Diagnostic {
    let key: &str = &echo(key);
    Diagnostic::new(
        Code::UnknownConfigKey,
        format!("{runtime} has no setting `{key}`; it does not apply"),
    )
    .label(file, span, "unknown key")
    .help(format!("did you mean `{suggestion}`?"))
}

/// `key` at `span` is one `runtime` refuses to load a config with (its
/// section is strict); `help` says what to do.
pub fn refused_key(
    file: &Arc<SourceFile>,
    span: Span,
    key: &str,
    runtime: &str,
    help: &str,
) -> Diagnostic {
    let key: &str = &echo(key);
    Diagnostic::new(
        Code::UnknownConfigKey,
        format!("{runtime} has no setting `{key}`, and refuses to load a config that names one it does not know"),
    )
    .severity(Severity::Error)
    .label(file, span, "unknown key")
    .help(help.to_owned())
}

// `unguarded-compaction`

pub(crate) const UNGUARDED_COMPACTION: Explanation = Explanation {
    code: Code::UnguardedCompaction,
    summary: "compaction can run and no ctxguard guard is wired in, or the guard is switched off",
    details: "A runtime that compacts with no guard loses commitments silently: nothing records them when they are written, nothing refuses a compaction that cannot keep them, nothing gives them back after. For Claude Code the guard is the five hooks `ctxguard init claude-code` installs; `disableAllHooks` or `allowManagedHooksOnly` switch them off even when they are there.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreCompact\": [\n      {\"matcher\": \"auto\", \"hooks\": [{\"type\": \"command\", \"command\": \"./save-notes.sh\"}]}\n    ]\n  }\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Run `ctxguard init claude-code` (or `ctxguard check --fix`), and do not disable hooks where compaction must be guarded.",
};

/// No guard (or part of it) in `file`: `missing` names what is absent.
pub fn unguarded(
    file: &Arc<SourceFile>,
    span: Span,
    runtime: &str,
    missing: &str,
    fix: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::UnguardedCompaction,
        format!("{runtime} compacts here with no ctxguard guard: {missing}"),
    )
    .label(file, span, "compaction is configured here")
    .help(fix.to_owned())
}

/// The guard is there but `key` at `span` switches it off.
pub fn guard_disabled(file: &Arc<SourceFile>, span: Span, key: &str, runtime: &str) -> Diagnostic {
    Diagnostic::new(
        Code::UnguardedCompaction,
        format!("`{key}` switches {runtime}'s hooks off, ctxguard's guard with them"),
    )
    .label(file, span, "the guard does not run")
    .help(format!("remove `{key}` where compaction must be guarded"))
}

// `hook-timeout-units`

pub(crate) const HOOK_TIMEOUT_UNITS: Explanation = Explanation {
    code: Code::HookTimeoutUnits,
    summary: "a hook timeout reads as the wrong unit: milliseconds where seconds are meant, or the reverse",
    details: "Claude Code reads a hook's `timeout` in seconds, Gemini CLI in milliseconds. `\"timeout\": 30000` in Claude Code means a hung hook holds the session for 8.3 hours; `\"timeout\": 30` in Gemini CLI kills the hook after 30 milliseconds, before it can do anything. Both mistakes are in real configs.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreCompact\": [\n      {\"matcher\": \"manual|auto\", \"hooks\": [{\"type\": \"command\", \"command\": \"ctxguard hook claude-code PreCompact\", \"timeout\": 30000}]}\n    ]\n  }\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Write the timeout in the runtime's unit (`ctxguard check --fix` converts it).",
};

/// `value` at `span`, read in `unit`, means `meaning`; `fixed` is what was meant.
pub fn timeout_units(
    file: &Arc<SourceFile>,
    span: Span,
    runtime: &str,
    value: f64,
    unit: &str,
    meaning: &str,
    fixed: u64,
) -> Diagnostic {
    Diagnostic::new(
        Code::HookTimeoutUnits,
        format!("{runtime} reads this hook timeout in {unit}: {value} means {meaning}"),
    )
    .label(file, span, format!("{meaning} as written"))
    .help(format!("write {fixed} (`ctxguard check --fix` does)"))
}

// `unknown-hook-event`

pub(crate) const UNKNOWN_HOOK_EVENT: Explanation = Explanation {
    code: Code::UnknownHookEvent,
    summary: "a hook is registered for an event the runtime does not have, so it never runs",
    details: "Runtimes look hooks up by event name: a hook under `PreCompaction` never runs, and the compaction it was meant to guard runs unguarded. Worse, Claude Code up to 2.1.100 runs no hook at all of a settings file that names one event it does not know, saying nothing; from 2.1.101 it skips that entry. So an event of a newer version (`PostCompact` came in 2.1.76) is an error for the version that runs here: `check` asks `claude --version`, or reads `--claude-version`. Without a version, only names no version has are reported.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreCompaction\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"ctxguard hook claude-code PreCompact\", \"timeout\": 60}]}\n    ]\n  }\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Use the runtime's event name: the help names it.",
};

/// Event `name` at `span` does not exist (`suggestion` does); what that
/// costs is `consequence`.
pub fn unknown_event(
    file: &Arc<SourceFile>,
    span: Span,
    runtime: &str,
    name: &str,
    suggestion: Option<&str>,
    consequence: &str,
) -> Diagnostic {
    let name: &str = &echo(name);
    let d = Diagnostic::new(
        Code::UnknownHookEvent,
        format!("{runtime} has no hook event `{name}`: {consequence}"),
    )
    .label(file, span, "no such event");
    match suggestion {
        Some(suggestion) => d.help(format!("did you mean `{suggestion}`?")),
        None => d.help("use one of the runtime's event names, or take this entry out"),
    }
}

/// Event `name` at `span` came in Claude Code `since`; `version` runs here.
pub fn event_too_new(
    file: &Arc<SourceFile>,
    span: Span,
    name: &str,
    since: &str,
    version: &str,
    consequence: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::UnknownHookEvent,
        format!("Claude Code {version} does not know the hook event `{name}` (it came in {since}): {consequence}"),
    )
    .label(file, span, format!("needs Claude Code {since}"))
    .help(format!("update Claude Code to {since} or later, or take this entry out (`ctxguard init claude-code` writes what {version} runs)"))
}

/// Claude Code does not load `file`: it is not strict JSON at `span`.
pub fn not_loaded(file: &Arc<SourceFile>, span: Span, why: &str) -> Diagnostic {
    let name: &str = &echo(file.name());
    Diagnostic::new(
        Code::InvalidConfig,
        format!("Claude Code does not load `{name}`: it reads settings as strict JSON, so nothing in this file is in effect, hooks included"),
    )
    .label(file, span, echo(why).into_owned())
    .help("make it strict JSON (no comments, no trailing commas, no raw control characters in strings): Claude Code ignores the whole file for one of them (2.1.3xx says so; 2.0 says nothing)")
}

// `hook-matcher-never-matches`

pub(crate) const HOOK_MATCHER_NEVER_MATCHES: Explanation = Explanation {
    code: Code::HookMatcherNeverMatches,
    summary: "a compaction hook's matcher matches no compaction, so the hook never runs",
    details: "PreCompact and PostCompact hooks are matched against the trigger, `manual` or `auto`; a SessionStart hook against the source, and only `compact` follows a compaction. A matcher that matches neither trigger, or a re-injection hook whose matcher leaves out `compact`, is a hook that silently never runs when it matters.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreCompact\": [\n      {\"matcher\": \"compact\", \"hooks\": [{\"type\": \"command\", \"command\": \"ctxguard hook claude-code PreCompact\", \"timeout\": 60}]}\n    ]\n  }\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Match `manual|auto` (PreCompact, PostCompact) or `compact` (SessionStart), or leave the matcher out.",
};

/// The matcher at `span` of `event` matches none of `values`.
pub fn never_matches(
    file: &Arc<SourceFile>,
    span: Span,
    event: &str,
    matcher: &str,
    values: &str,
) -> Diagnostic {
    let matcher: &str = &echo(matcher);
    Diagnostic::new(
        Code::HookMatcherNeverMatches,
        format!("the {event} matcher `{matcher}` matches no {values}: the hook never runs at a compaction"),
    )
    .label(file, span, format!("matches no {values}"))
    .help(match event {
        "SessionStart" => "match `compact` (or leave the matcher out) so it runs after every compaction",
        _ => "match `manual|auto` (or leave the matcher out)",
    })
}

// `unsupported-hook-type`

pub(crate) const UNSUPPORTED_HOOK_TYPE: Explanation = Explanation {
    code: Code::UnsupportedHookType,
    summary: "a hook handler's type is one its event does not run",
    details: "Claude Code's PreCompact and PostCompact run `command`, `http` and `mcp_tool` handlers; SessionStart only `command` and `mcp_tool`. A `prompt` or `agent` handler there is skipped, and the compaction goes ahead without it.",
    example: &[(
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"PreCompact\": [\n      {\"matcher\": \"auto\", \"hooks\": [{\"type\": \"prompt\", \"prompt\": \"List the constraints to keep.\"}]}\n    ]\n  }\n}\n",
    )],
    run: "check .claude/settings.json",
    fix: "Use a `command` handler (ctxguard's hooks are commands).",
};

/// Handler type `kind` at `span` is not run by `event`, which runs `allowed`.
pub fn unsupported_type(
    file: &Arc<SourceFile>,
    span: Span,
    event: &str,
    kind: &str,
    allowed: &str,
) -> Diagnostic {
    let kind: &str = &echo(kind);
    Diagnostic::new(
        Code::UnsupportedHookType,
        format!("{event} does not run `{kind}` handlers: this one is skipped"),
    )
    .label(file, span, format!("{event} runs {allowed}"))
    .help("use a `command` handler")
}

// `truncating-compactor`

pub(crate) const TRUNCATING_COMPACTOR: Explanation = Explanation {
    code: Code::TruncatingCompactor,
    summary: "the runtime drops context without summarizing or re-injecting it",
    details: "The policy's `on over-budget escalate` says that when the budget cannot be met, a person decides; a compactor that forgets the oldest events (OpenHands `recent`, `amortized`), or a pipeline that ends in one, drops commitments silently instead. Masking old tool output (OpenHands `observation_masking`, SWE-agent `last_n_observations`) only loses narrative: a warning.",
    example: &[(
        "config.toml",
        "[core]\nworkspace_base = \"./workspace\"\n\n[condenser]\ntype = \"recent\"\nkeep_first = 1\nmax_events = 100\n",
    )],
    run: "check config.toml",
    fix: "Use a summarizing compactor (OpenHands `llm`, `structured`), guarded by ctxguard where the runtime allows.",
};

/// The compactor at `span` drops content: `what`; `narrative_only` lowers it to a warning.
pub fn truncating(
    file: &Arc<SourceFile>,
    span: Span,
    what: &str,
    narrative_only: bool,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(Code::TruncatingCompactor, what.to_owned()).label(
        file,
        span,
        if narrative_only {
            "drops old tool output"
        } else {
            "drops context unsummarized"
        },
    );
    if narrative_only {
        diagnostic
            .severity(Severity::Warning)
            .help("only tool output is dropped, which is narrative; make sure commitments are never only in tool output")
    } else {
        diagnostic.help("the policy escalates when the budget cannot be met: use a summarizing compactor instead")
    }
}

// `window-exceeds-policy`

pub(crate) const WINDOW_EXCEEDS_POLICY: Explanation = Explanation {
    code: Code::WindowExceedsPolicy,
    summary: "the runtime's window or compaction threshold disagrees with the policy or with itself",
    details: "The policy's `budget window` is what a compacted buffer may hold, and its commitment budget is a share of it. A runtime that keeps more than that after compacting, or whose own numbers contradict each other (an auto-compaction threshold above the window, recent tokens kept that leave nothing to summarize), compacts by rules the policy never saw.",
    example: &[(
        ".codex/config.toml",
        "model_context_window = 200000\nmodel_auto_compact_token_limit = 250000\n",
    )],
    run: "check .codex/config.toml",
    fix: "Make the runtime's numbers agree with each other and with `budget window` in the policy.",
};

/// The value at `span` exceeds what it is compared with: `why`.
pub fn window(file: &Arc<SourceFile>, span: Span, why: &str, help: &str) -> Diagnostic {
    Diagnostic::new(Code::WindowExceedsPolicy, why.to_owned())
        .label(file, span, "here")
        .help(help.to_owned())
}

// `weakened-identifier-policy`

pub(crate) const WEAKENED_IDENTIFIER_POLICY: Explanation = Explanation {
    code: Code::WeakenedIdentifierPolicy,
    summary: "the runtime is told not to keep identifiers through compaction, or not to check its summaries",
    details: "OpenClaw keeps opaque identifiers (paths, ids, hashes) through compaction by default (`identifierPolicy: \"strict\"`) and checks safeguard summaries (`qualityGuard`). Turning either off is how `src/legacy/parser_v2.py` becomes `parser.py`.",
    example: &[(
        "openclaw.json",
        "{\n  // the gateway's settings\n  agents: {\n    defaults: {\n      compaction: { identifierPolicy: 'off' },\n    },\n  },\n}\n",
    )],
    run: "check openclaw.json",
    fix: "Leave `identifierPolicy` at `strict` and `qualityGuard.enabled` at `true`.",
};

/// The setting at `span` weakens identifier retention: `what`.
pub fn weakened(file: &Arc<SourceFile>, span: Span, what: &str, help: &str) -> Diagnostic {
    Diagnostic::new(Code::WeakenedIdentifierPolicy, what.to_owned())
        .label(file, span, "weakens what compaction keeps")
        .help(help.to_owned())
}

// `compaction-prompt-missing-commitments`

pub(crate) const COMPACTION_PROMPT_MISSING_COMMITMENTS: Explanation = Explanation {
    code: Code::CompactionPromptMissingCommitments,
    summary: "a custom compaction prompt does not ask for commitments to be kept word for word",
    details: "A custom compaction prompt replaces the runtime's own instructions to its summarizer. One that does not ask for the user's constraints, identifiers, values and orderings to be kept verbatim invites the summary to paraphrase them, which is where commitments are lost. A warning: the prompt is prose, and this reads it for those words only.",
    example: &[(
        ".codex/config.toml",
        "compact_prompt = \"Summarize the conversation briefly.\"\n",
    )],
    run: "check .codex/config.toml",
    fix: "Say, in the prompt, to keep every constraint, identifier (paths, names), value (numbers, URLs) and required order exactly as written.",
};

/// The prompt at `span` asks for none of `missing` to be kept verbatim.
pub fn prompt_missing(file: &Arc<SourceFile>, span: Span, missing: &str) -> Diagnostic {
    Diagnostic::new(
        Code::CompactionPromptMissingCommitments,
        format!("this compaction prompt does not ask to keep {missing} word for word"),
    )
    .label(file, span, "the custom compaction prompt")
    .help("add a sentence such as: \"Keep every constraint, identifier (paths, names), value (numbers, URLs) and required order exactly as the user wrote it.\"")
}

// `stale-compaction-prompt`

pub(crate) const STALE_COMPACTION_PROMPT: Explanation = Explanation {
    code: Code::StaleCompactionPrompt,
    summary: "the compaction prompt ctxguard wrote for Codex is built on another Codex default",
    details: "Codex lets a file replace its compaction prompt, not add to it, so `ctxguard init codex` writes Codex's own default prompt followed by the policy's rules for commitments. When the file does not begin with the default this ctxguard knows (Codex 0.171's), it was written from another one, or edited: Codex's summarizer then works from instructions that are not Codex's current ones. A warning: the rules for commitments still stand.",
    example: &[
        (
            ".codex/config.toml",
            "experimental_compact_prompt_file = \"ctxguard-compact-prompt.md\"\n",
        ),
        (
            ".codex/ctxguard-compact-prompt.md",
            "Summarize the conversation.\n\n## The user's commitments (added by ctxguard)\n\nKeep every constraint, identifier, value and required order word for word.\n",
        ),
    ],
    run: "check .codex/config.toml",
    fix: "Run `ctxguard init codex` again: it writes the prompt anew from the default it knows and the policy.",
};

/// ctxguard's prompt file, named at `span`, does not begin with Codex's default.
pub fn stale_prompt(file: &Arc<SourceFile>, span: Span, path: &str) -> Diagnostic {
    Diagnostic::new(
        Code::StaleCompactionPrompt,
        format!("`{path}` is ctxguard's compaction prompt, but it does not begin with Codex's default prompt as this ctxguard knows it"),
    )
    .label(file, span, "Codex's prompt, replaced")
    .help("run `ctxguard init codex` again: it writes the prompt anew from Codex's default and the policy")
}

pub(crate) const ALL: &[&Explanation] = &[
    &INVALID_CONFIG,
    &UNKNOWN_CONFIG_KEY,
    &UNGUARDED_COMPACTION,
    &HOOK_TIMEOUT_UNITS,
    &UNKNOWN_HOOK_EVENT,
    &HOOK_MATCHER_NEVER_MATCHES,
    &UNSUPPORTED_HOOK_TYPE,
    &TRUNCATING_COMPACTOR,
    &WINDOW_EXCEEDS_POLICY,
    &WEAKENED_IDENTIFIER_POLICY,
    &COMPACTION_PROMPT_MISSING_COMMITMENTS,
    &STALE_COMPACTION_PROMPT,
];
