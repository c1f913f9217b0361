//! The policy language: text to AST (`parse`, the pest grammar in
//! `grammar/policy.pest` in this crate), files and `extends` (`load`), the
//! resolved model (`model`), the linter that resolves and checks it (`lint`),
//! and the pieces the model is made of: order graph, selectors, hints, ignores.
//! `fmt` lays a policy out canonically.

pub(crate) mod ast;
pub mod fmt;
pub(crate) mod hint;
pub(crate) mod ignore;
pub mod lint;
pub mod load;
mod model;
pub(crate) mod order_graph;
pub mod parse;
pub(crate) mod selector;

pub use model::*;
