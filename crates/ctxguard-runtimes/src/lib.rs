//! The runtime layer of ctxguard: what knows the agent runtimes.
//!
//! | module | stage | holds |
//! |---|---|---|
//! | [`import`] | read | agent-runtime sessions (Claude Code, Codex, pi, OpenHands, SWE-agent), one file per runtime behind one trait, to events; `classify.rs` makes each a trace and a plan with provenance |
//! | [`audit`] | check | what each compaction did to each user commitment: verbatim, paraphrased, altered, lost; invented requirements |
//! | [`hook`] | shell | live guarding: the hook events of Claude Code, Codex, Gemini CLI, and pi and OpenClaw (through ctxguard's extension and plugin); the session's commitment ledger; what is re-injected after a compaction; `init`, which wires the hooks into a runtime's settings |
//! | [`runtime`] | check | the runtimes' own settings checked: `.claude/settings.json`, `.codex/config.toml`, … |
//!
//! Each module depends only on the ones above it in this table, and on
//! `ctxguard-core`; `pattern` (a regular expression that says "no" fast on
//! text of any script) is below them all. The crate is a layer of the
//! `ctxguard` crate, whose API is the documented one; nothing here prints.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

use ctxguard_core::{buffer, diagnostics, facts, policy, source, verify};

pub mod audit;
pub mod hook;
pub mod import;
mod pattern;
pub mod runtime;
