//! Reading: bytes to UTF-8 text that remembers its name and where each line
//! starts, so every later stage can point at a place in it.

mod file;
pub(crate) mod read;

pub use file::{SourceFile, Span, Spanned};
