//! The lower layers of ctxguard: everything that reads, models and checks
//! a compaction without knowing which agent runtime made it.
//!
//! | module | stage | holds |
//! |---|---|---|
//! | [`source`] | read | bytes to UTF-8 text that remembers its name and lines (held in memory, or left on disk and read back a range at a time); spans; the one function every file ctxguard writes goes through |
//! | [`facts`] | model | the runtimes ctxguard knows (`Runtime`), and what is known of their versions |
//! | [`diagnostics`] | all | codes, the diagnostic type, severity overrides, explanations, suggestions: every message's wording |
//! | [`buffer`] | read, model | traces and plans: JSON, YAML and JSON Lines readers, a large trace read as it streams, the typed models, token counts; runtime settings read as spanned trees |
//! | [`policy`] | read, model, check | the policy language: grammar, AST, `extends`, the resolved model, the linter, `fmt` |
//! | [`verify`] | check | a plan against its trace: the trace index, the plan pass, order checks, differences, identifier drift, report order; sentences and words as the audit compares them |
//! | [`compact`] | check | the reference compactor, whose every plan is verified before it is returned |
//!
//! Each module depends only on the ones above it in this table. The crate
//! is a layer of the `ctxguard` crate, whose API is the documented one;
//! `ctxguard-runtimes` builds on this one, and nothing here knows of it.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod buffer;
pub mod compact;
pub mod diagnostics;
pub mod facts;
pub mod policy;
pub mod source;
pub mod verify;
