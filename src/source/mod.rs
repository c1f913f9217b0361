//! Reading: bytes to UTF-8 text that remembers its name and where each line
//! starts, so every later stage can point at a place in it.

pub(crate) mod access;
mod file;
pub(crate) mod read;
mod snippet;
mod text;

pub use access::{Access, Refusal, DEFAULT_MAX_INPUT_BYTES};
pub(crate) use file::escaped;
pub use file::{SourceFile, Span, Spanned};
pub(crate) use snippet::{column_width, Snippets};
pub use text::Text;
