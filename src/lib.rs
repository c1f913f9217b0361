//! ctxguard makes AI-agent context compaction safe: compaction is defined
//! over invariants, not tokens. A policy declares the commitment kinds,
//! the orders between them and the token budgets; a compaction plan is
//! verified against the buffer it compacts, and rejected when it loses,
//! alters, reorders or invents a commitment, or escalated to a person when
//! no plan can fit without truncating one.
//!
//! # How it is built
//!
//! Data flows one way, **read → model → check → report**, and the layers
//! are crates, so an import that runs back up one does not compile:
//!
//! | crate | holds |
//! |---|---|
//! | `ctxguard-core` | `source` (bytes to text with spans; the one function every written file goes through), `facts`, `diagnostics` (every code and message), `buffer` (trace, plan and settings readers; token counts), `policy`, `verify`, `compact` |
//! | `ctxguard-runtimes` | `import` (session files of each runtime to events, traces and plans), `audit`, `hook` (the live guard, its ledger, `init`), `runtime` (each runtime's settings checked) |
//! | `ctxguard` (this one) | `command/` (each command as a function from its inputs to a [`Report`]), `report/` (the only code that writes to stdout and stderr, and the one exit-status function; the HTML pages and the fleet summary), `cli/` (the binary's arguments, one file per command) |
//!
//! This crate is the API. The verification at its centre is at the top
//! level ([`verify()`], [`Policy`], [`Trace`], [`Plan`], [`Diagnostic`],
//! [`Report`]); the rest is in modules named for what they do:
//! [`compact`](mod@compact), [`import`], [`audit`], [`fleet`], [`hook`], [`ledger`],
//! [`init`], [`config`], [`facts`]. The lower crates are its layers, not an
//! API of their own.
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
//! [`compact()`] writes a safe plan instead, and [`render`] shows findings as
//! the command line does.

#![warn(missing_docs)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod command;
mod report;

/// `ctxguard lsp`: the language server for policy files.
pub mod lsp;

pub use ctxguard_core::source::{
    Access, Refusal, SourceFile, Span, Spanned, DEFAULT_MAX_INPUT_BYTES,
};

/// The messages of a command line that cannot be carried out (exit 2),
/// worded where every other message is.
pub use ctxguard_core::diagnostics::usage;

pub use ctxguard_core::diagnostics::{
    Code, Diagnostic, Explanation, Family, Label, Level, Overrides, Severity, Tally, UsageError,
};
/// An agent runtime ctxguard knows; what it does with each is a role of
/// its own: sessions read ([`import::READ`]), hooks answered
/// ([`hook::Guarded`]), config files checked ([`config::Kind`]).
pub use ctxguard_core::facts::Runtime;

pub use ctxguard_core::policy::load::{Loaded, Loader, DEFAULT_POLICY, DEFAULT_POLICY_NAME};
pub use ctxguard_core::policy::{Hint, Kind, OnRules, OrderRule, Origin, Policy, Setting};

pub use ctxguard_core::buffer::document::{Input, InputFormat};
pub use ctxguard_core::buffer::plan::{Entry, NarrativeKind, Plan, PlanRegion, SummaryKind};
pub use ctxguard_core::buffer::tokens::{count as count_tokens, Tokenizer};
pub use ctxguard_core::buffer::trace::{
    Content, Derived, Place, Provenance, Region, RegionKind, Role, Status, Trace,
};
pub use report::schema::Schema;

pub use ctxguard_core::verify::{
    verify, Budget, Folded, Options, Stats, Verdict, Verification, WARNING_LIMIT,
};

pub use report::{
    emit, html_target, render, render_saved, success_line, usage_error, write, write_audit_line,
    write_html, ExitStatus, Format, HumanStyle, JsonDiagnostic, JsonLabel, JsonReport, Planned,
    Progress, Report, Skipped, Subject, Terminal,
};

pub use command::check::{check, check_with, policy_files, CheckOptions};
pub use command::fmt::fmt;
pub use command::plan::{plan_file, PlanRequest};
pub use command::saved::saved_report;
pub use command::verify::{verify_files, verify_inputs, VerifyRequest};

/// The reference compactor: a plan that verifies as compact, or why
/// there is none.
pub mod compact {
    pub use ctxguard_core::compact::{
        compact, CompactOptions as Options, Outcome, SummarizeFn, Summarizer, DEFAULT_TIMEOUT,
        MAX_SUMMARY_BYTES,
    };
}
pub use compact::compact;

/// Agent-runtime sessions read into events, and each compaction in them
/// made a trace and a plan (`ctxguard import`).
pub mod import {
    pub use crate::command::import::{import_file, ImportRequest as Request};
    pub use ctxguard_runtimes::import::records::mend_lone_surrogates;
    pub use ctxguard_runtimes::import::{
        classify, compactions, detect, import, import_work, pin, Compaction, Event, Message,
        Origin, Pin, Session, Summary, PIN_SYNTAX, READ,
    };
}

/// What each compaction of real sessions did to each user commitment
/// (`ctxguard audit`).
pub mod audit {
    pub use crate::command::audit::{audit_paths, AuditRequest as Request};
    pub use ctxguard_runtimes::audit::{Commitment, EventAudit, Evidence, Invented, Outcome};
}

/// Audited compactions summed across sessions by slice and kind, and the
/// page that draws them (`ctxguard audit --fleet-report`).
pub mod fleet {
    pub use crate::report::fleet::{page, Fleet, FleetSummary as Summary};
    pub use crate::report::{
        fleet_target as target, write_fleet_report as write, FleetFormat as Format,
    };
}

/// The live guard: a runtime's hook events over the same readers and
/// checks (`ctxguard hook`).
pub mod hook {
    pub use crate::report::hook::{emit_hook as emit, reply, Exit, Reply};
    pub use ctxguard_runtimes::hook::plugin::plugin_hooks;
    pub use ctxguard_runtimes::hook::{
        hook_not_started as not_started, run_hook as run, Blocked, Gate, Guarded,
        HookEvent as Event, HookReport as Report, HookRequest as Request, Judged, Outcome,
        Reinjection, Unpinned, BLOCKING_SINCE, OUTPUT_CAP,
    };
}

/// A session's commitment ledger: what the hooks recorded, and what a
/// person does with it (`ctxguard ledger`).
pub mod ledger {
    pub use crate::command::ledger::{
        ledger_command as run, LedgerAction as Action, LedgerRequest as Request,
    };
    pub use crate::report::hook::emit_ledger as emit;
    pub use ctxguard_runtimes::hook::ledger::{
        Active, Change, Check, Commitment, Entry, Ledger, LedgerError as Error, LedgerView as View,
        Record, Snapshot, Source, State,
    };
    pub use ctxguard_runtimes::hook::{default_dir, DEFAULT_MAX_LEDGER_BYTES as DEFAULT_MAX_BYTES};
}

/// Wiring the hooks into a runtime's settings (`ctxguard init`), and the
/// compaction prompt ctxguard gives Codex.
pub mod init {
    pub use crate::report::hook::emit_init as emit;
    pub use ctxguard_runtimes::hook::init::{
        init as run, settings_path, Also, InitRequest as Request, Installed, Scope,
    };
    pub use ctxguard_runtimes::hook::prompt::{
        codex_compact_prompt, CODEX_DEFAULT as CODEX_DEFAULT_PROMPT, MARK as PROMPT_MARK,
    };
}

/// The runtimes' own settings checked (`ctxguard check` of a
/// `.claude/settings.json`, `.codex/config.toml`, …), and edited with
/// their layout kept.
pub mod config {
    pub use crate::command::installed::{claude_code as installed_claude_code, Found};
    pub use ctxguard_core::buffer::tree::Syntax;
    pub use ctxguard_runtimes::runtime::{
        apply, check_config as check, check_installed, Checked, Edit, Installed, Kind,
    };
}

/// What is known of the runtimes' versions.
pub mod facts {
    pub use ctxguard_core::facts::{claude_code, Version};
}

/// Reads a file, or standard input for `-`, into text within `access`'s
/// size limit; what cannot be read (missing, not a regular file, too
/// large, not UTF-8) is an `unreadable-file` diagnostic.
pub fn read_source(
    path: &std::path::Path,
    access: &Access,
) -> Result<std::sync::Arc<SourceFile>, Box<Diagnostic>> {
    Ok(ctxguard_core::source::read::read(path, access)?)
}

/// The candidate closest to `word`, if one is close enough to be a typo.
pub use ctxguard_core::diagnostics::suggest::did_you_mean;

/// What `ctxguard explain CODE` prints: what the code means, why it matters,
/// an example that triggers it, and the fix.
pub fn explain(code: Code) -> String {
    ctxguard_core::diagnostics::explain::render(code)
}

/// What `ctxguard explain` prints: every code with its severity and summary.
pub fn explain_all() -> String {
    ctxguard_core::diagnostics::explain::list()
}

/// A policy in ctxguard's canonical layout, or why it cannot be laid out
/// (it does not parse).
pub fn format_policy(source: &std::sync::Arc<SourceFile>) -> Result<String, Vec<Diagnostic>> {
    ctxguard_core::policy::fmt::format_source(source)
}

/// Where the comments of a policy text are, in order: `fmt` keeps each one.
pub fn policy_comments(text: &str) -> Vec<Span> {
    ctxguard_core::policy::parse::comments(text)
}

/// One diagnostic as the human report draws it, followed by a blank line.
pub fn render_diagnostic(diagnostic: &Diagnostic, style: &HumanStyle) -> String {
    report::render_diagnostic(diagnostic, style)
}
