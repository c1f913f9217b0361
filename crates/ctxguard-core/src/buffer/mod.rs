//! Traces and plans: the buffer before and after a compaction. JSON, YAML
//! and JSON Lines are read into typed models (`trace`, `plan`) whose every
//! field remembers its place in the file; the plan model is also what the
//! compactor writes, and both formats' JSON Schemas are derived from them.
//! `tokens` counts a region's tokens. `tree` reads a runtime's settings
//! (JSON, JSON with comments, TOML, YAML) into one spanned tree, for the
//! config checks and for the hooks' installer alike.

pub mod document;
mod fields;
pub mod json;
mod jsonl;
pub mod plan;
pub mod stream;
mod strict;

/// A YAML document as a JSON value, if `text` is one (for recognizing a
/// file given in the wrong place). Its aliases are bounded first, as when
/// it is read: a few kilobytes of them cannot ask for gigabytes here either.
pub fn yaml_value(text: &str) -> Option<serde_json::Value> {
    strict::yaml_value(yaml::load_bounded(text)?).ok()
}
pub mod tokens;
pub mod trace;
pub mod tree;
mod yaml;
