//! ctxguard makes AI-agent context compaction safe: compaction is defined
//! over invariants, not tokens.
//!
//! Data flows one way: readers ([`parse`], [`load`]) turn bytes into typed
//! models that remember where each thing came from ([`ast`], [`policy`]);
//! checks are pure functions from models to [`Diagnostic`]s; [`report`]
//! renders them and is the only code that prints.
//!
//! A runtime that embeds ctxguard verifies a compaction before applying it:
//!
//! ```
//! use ctxguard::document::{Input, InputFormat};
//! use ctxguard::load::Loader;
//! use ctxguard::plan::Plan;
//! use ctxguard::source::SourceFile;
//! use ctxguard::trace::Trace;
//! use ctxguard::verify::{verify, Options, Verdict};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut loader = Loader::new();
//! let policy = loader.load_builtin().policy.clone().ok_or("the built-in policy")?;
//!
//! let trace = Trace::read(&Input {
//!     file: SourceFile::new("trace.json", r#"{"version": 1, "regions": [
//!         {"id": "r1", "kind": "narrative", "text": "Looked at the users table."},
//!         {"id": "r2", "kind": "constraint", "key": "reversible", "text": "Do not drop columns."}]}"#),
//!     format: InputFormat::Json,
//! })?;
//! let plan = Plan::read(&Input {
//!     file: SourceFile::new("plan.json", r#"{"version": 1, "regions": [
//!         {"kind": "summary", "covers": ["r1", "r2"], "text": "Looked at users."}]}"#),
//!     format: InputFormat::Json,
//! })?;
//!
//! let verification = verify(&policy, &trace, &plan, &Options::default());
//! assert_eq!(verification.verdict, Verdict::Reject);
//! let codes: Vec<&str> = verification.diagnostics.iter().map(|d| d.code.name()).collect();
//! assert_eq!(codes, ["summary-covers-commitment", "missing-commitment"]);
//! # Ok(())
//! # }
//! ```

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
pub mod format;
pub mod hint;
pub mod ignore;
pub mod index;
pub mod input;
pub mod load;
pub mod order_graph;
pub mod parse;
pub mod plan;
pub mod policy;
pub mod report;
pub mod run;
pub mod schema;
pub mod selector;
pub mod severity;
pub mod source;
pub mod status;
pub(crate) mod suggest;
pub mod tokens;
pub mod trace;
pub mod verify;

pub use code::Code;
pub use diagnostic::{Diagnostic, Severity};
pub use policy::Policy;
pub use status::{ExitStatus, UsageError};
