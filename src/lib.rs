//! ctxguard makes AI-agent context compaction safe: compaction is defined
//! over invariants, not tokens.
//!
//! Data flows one way: readers ([`parse`], [`load`]) turn bytes into typed
//! models that remember where each thing came from ([`ast`], [`policy`]);
//! checks are pure functions from models to [`Diagnostic`]s; [`report`]
//! renders them and is the only code that prints.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod ast;
pub mod check;
pub mod code;
pub mod compact;
pub mod diagnostic;
pub mod difference;
pub mod document;
pub mod drift;
pub mod explain;
pub mod findings;
pub mod hint;
pub mod index;
pub mod input;
pub mod load;
pub mod order_graph;
pub mod parse;
pub mod plan;
pub mod policy;
pub mod report;
pub mod run;
pub mod selector;
pub mod source;
pub mod status;
mod suggest;
pub mod tokens;
pub mod trace;
pub mod verify;

pub use code::Code;
pub use diagnostic::{Diagnostic, Severity};
pub use policy::Policy;
pub use status::{ExitStatus, UsageError};
