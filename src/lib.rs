//! ctxguard makes AI-agent context compaction safe: compaction is defined
//! over invariants, not tokens. A policy declares the commitment kinds,
//! the orders between them and the token budgets; a compaction plan is
//! verified against the buffer it compacts, and rejected when it loses,
//! alters, reorders or invents a commitment, or escalated to a person when
//! no plan can fit without truncating one.
//!
//! # How the crate is built
//!
//! Data flows one way, **read → model → check → report**, and the folders
//! are those stages:
//!
//! | folder | stage | holds |
//! |---|---|---|
//! | `source/` | read | bytes to UTF-8 text that remembers its name and lines (held in memory, or left on disk and read back a range at a time); spans |
//! | `policy/` | read, model, check | the policy language: grammar, AST, `extends`, the resolved model, the linter, `fmt` |
//! | `buffer/` | read, model | traces and plans: JSON, YAML and JSON Lines readers, a large trace read as it streams (`stream.rs`), the typed models, token counts, JSON Schemas |
//! | `verify/` | check | a plan against its trace: the trace index (the trace as the checks see it, built as the trace is read), the plan pass, order checks, differences, identifier drift, report order; sentences and words as the audit compares them |
//! | `compact/` | check | the reference compactor, whose every plan is verified before it is returned |
//! | `import/` | read | agent-runtime sessions (Claude Code, Codex, pi, OpenHands, SWE-agent), one file per runtime behind one trait, to events; `classify.rs` makes each a trace and a plan with provenance |
//! | `audit/` | check | what each compaction did to each user commitment: verbatim, paraphrased, altered, lost; invented requirements |
//! | `diagnostics/` | all | codes, the diagnostic type, severity overrides, explanations, suggestions |
//! | `report/` | report | the only code that writes to stdout and stderr, and the one exit-status function; the HTML pages; the fleet summary (`report/fleet/`), audited compactions summed by slice and kind, and the page that draws it |
//! | `command/` | shell | each command as a function from its inputs to a [`Report`] |
//!
//! | `hook/` | shell | live guarding: the hook events of Claude Code, Codex, Gemini CLI, and pi and OpenClaw (through ctxguard's extension and plugin) over the same readers and checks; the session's commitment ledger; what the compactor is asked to keep and what is re-injected after a compaction; `init`, which wires the hooks into a runtime's settings (Codex's compaction prompt, pi's extension, OpenClaw's plugin, Claude Code's plugin) |
//!
//! Each stage depends only on the ones before it. `main.rs` only parses
//! arguments. Runtime-config checks (`.claude/settings.json`,
//! `.codex/config.toml`, …) are a reader and a check, in `runtime/`.
//!
//! # Embedding
//!
//! A runtime verifies a compaction before applying it:
//!
//! ```
//! use ctxguard::{verify, Input, InputFormat, Options, Plan, Policy, Trace, Verdict};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let policy = Policy::builtin();
//! let trace = Trace::read(&Input::text("trace.json", InputFormat::Json, r#"{"version": 1, "regions": [
//!     {"id": "r1", "kind": "narrative", "text": "Looked at the users table."},
//!     {"id": "r2", "kind": "constraint", "key": "reversible", "text": "Do not drop columns."}]}"#))?;
//! let plan = Plan::read(&Input::text("plan.json", InputFormat::Json, r#"{"version": 1, "regions": [
//!     {"kind": "summary", "covers": ["r1", "r2"], "text": "Looked at users."}]}"#))?;
//!
//! let verification = verify(&policy, &trace, &plan, &Options::default());
//! assert_eq!(verification.verdict, Verdict::Reject);
//! let codes: Vec<&str> = verification.diagnostics.iter().map(|d| d.code.name()).collect();
//! assert_eq!(codes, ["summary-covers-commitment", "missing-commitment"]);
//! # Ok(())
//! # }
//! ```
//!
//! [`compact`] writes a safe plan instead, and [`render`] shows findings as
//! the command line does.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod command;
mod report;

use ctxguard_core::{buffer, compact, diagnostics, facts, policy, source, verify};
use ctxguard_runtimes::{audit, hook, import, runtime};

pub use source::{Access, Refusal, SourceFile, Span, Spanned, DEFAULT_MAX_INPUT_BYTES};

pub use diagnostics::{
    Code, Diagnostic, Explanation, Family, Label, Level, Overrides, Severity, Tally, UsageError,
};

pub use policy::load::{Loaded, Loader, DEFAULT_POLICY, DEFAULT_POLICY_NAME};
pub use policy::{Hint, Kind, OnRules, OrderRule, Origin, Policy, Setting};

pub use buffer::document::{Input, InputFormat};
pub use buffer::plan::{Entry, NarrativeKind, Plan, PlanRegion, SummaryKind};
pub use buffer::tokens::{count as count_tokens, Tokenizer};
pub use buffer::trace::{
    Content, Derived, Place, Provenance, Region, RegionKind, Role, Status, Trace,
};
pub use report::schema::Schema;

pub use verify::{verify, Budget, Folded, Options, Stats, Verdict, Verification, WARNING_LIMIT};

pub use compact::{
    compact, CompactOptions, Outcome, SummarizeFn, Summarizer,
    DEFAULT_TIMEOUT as DEFAULT_SUMMARIZER_TIMEOUT, MAX_SUMMARY_BYTES,
};

pub use report::{
    emit, fleet_target, html_target, render, render_saved, success_line, usage_error, write,
    write_audit_line, write_fleet_report, write_html, ExitStatus, Format, HumanStyle,
    JsonDiagnostic, JsonLabel, JsonReport, Planned, Progress, Report, Subject, Terminal,
};

pub use report::fleet::{page as fleet_page, Fleet, FleetSummary};
pub use report::FleetFormat;

pub use audit::{
    Commitment as AuditedCommitment, EventAudit, Evidence, Invented, Outcome as AuditOutcome,
};
pub use command::audit::{audit_paths, AuditRequest};
pub use command::check::{check, check_with, policy_files, CheckOptions};
pub use command::fmt::fmt;
pub use command::import::{import_file, ImportRequest};
pub use command::installed::{claude_code as installed_claude_code, Found as FoundVersion};
pub use command::ledger::{ledger_command, LedgerAction, LedgerRequest};
pub use command::plan::{plan_file, PlanRequest};
pub use command::saved::saved_report;
pub use command::verify::{verify_files, verify_inputs, VerifyRequest};
pub use facts::{claude_code as claude_code_versions, Version as RuntimeVersion};
pub use import::records::mend_lone_surrogates;

pub use buffer::tree::Syntax as ConfigSyntax;
pub use hook::init::{init, settings_path, Also, InitRequest, Installed, Scope};
pub use hook::ledger::{
    Active, Change, Check, Commitment as LedgerCommitment, Entry as LedgerEntry, Ledger,
    LedgerError, LedgerView, Record as LedgerRecord, Snapshot, Source as LedgerSource,
    State as LedgerState,
};
pub use hook::plugin::plugin_hooks;
pub use hook::prompt::{
    codex_compact_prompt, CODEX_DEFAULT as CODEX_DEFAULT_COMPACT_PROMPT,
    MARK as COMPACT_PROMPT_MARK,
};
pub use hook::{
    default_dir as default_ledger_dir, hook_not_started, run_hook, Blocked, Gate, HookEvent,
    HookReport, HookRequest, HookRuntime, Judged, Outcome as HookOutcome, Reinjection, Unpinned,
    BLOCKING_SINCE, DEFAULT_MAX_LEDGER_BYTES, OUTPUT_CAP,
};
pub use import::{
    classify, compactions, detect, import, import_work, pin, Compaction, Event, Message,
    Origin as MessageOrigin, Pin, Runtime, Session, Summary, PIN_SYNTAX,
};
pub use report::hook::{emit_hook, emit_init, emit_ledger, hook_reply, HookReply};
pub use runtime::{
    apply as apply_edits, check_config, check_installed, Checked, ConfigRuntime, Edit,
    Installed as InstalledRuntimes,
};

/// Reads a file, or standard input for `-`, into text within `access`'s
/// size limit; what cannot be read (missing, not a regular file, too
/// large, not UTF-8) is an `unreadable-file` diagnostic.
pub fn read_source(
    path: &std::path::Path,
    access: &Access,
) -> Result<std::sync::Arc<SourceFile>, Box<Diagnostic>> {
    Ok(source::read::read(path, access)?)
}

/// The candidate closest to `word`, if one is close enough to be a typo.
pub use diagnostics::suggest::did_you_mean;

/// What `ctxguard explain CODE` prints: what the code means, why it matters,
/// an example that triggers it, and the fix.
pub fn explain(code: Code) -> String {
    diagnostics::explain::render(code)
}

/// What `ctxguard explain` prints: every code with its severity and summary.
pub fn explain_all() -> String {
    diagnostics::explain::list()
}

/// A policy in ctxguard's canonical layout, or why it cannot be laid out
/// (it does not parse).
pub fn format_policy(source: &std::sync::Arc<SourceFile>) -> Result<String, Vec<Diagnostic>> {
    policy::fmt::format_source(source)
}

/// Where the comments of a policy text are, in order: `fmt` keeps each one.
pub fn policy_comments(text: &str) -> Vec<Span> {
    policy::parse::comments(text)
}

/// One diagnostic as the human report draws it, followed by a blank line.
pub fn render_diagnostic(diagnostic: &Diagnostic, style: &HumanStyle) -> String {
    report::render_diagnostic(diagnostic, style)
}
