//! Reading: bytes to UTF-8 text that remembers its name and where each line
//! starts, so every later stage can point at a place in it.

pub(crate) mod access;
mod disk;
mod file;
pub mod read;
mod snippet;
mod text;
pub mod write;

pub use access::{Access, Refusal, DEFAULT_MAX_INPUT_BYTES};
pub(crate) use disk::{read_at, OnDisk, SUPPORTED as DISK_SUPPORTED};
pub use file::{ceil_char_boundary, escaped, floor_char_boundary, line_starts_in};
pub use file::{SourceFile, Span, Spanned};
pub use snippet::{column_width, Snippets};
pub use text::Text;
