//! Reading input files into text, with a clear error for what is not UTF-8,
//! not a regular file, or larger than the run allows.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use crate::source::access::{kind_of, Access};

use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// Reads a file, or standard input for `-`, within `access`'s size limit.
/// Anything but a regular file is refused before it is opened.
pub fn read(path: &Path, access: &Access) -> Result<Arc<SourceFile>, Box<Diagnostic>> {
    let name = path.display().to_string();
    let limit = access.max_input_bytes;
    let unreadable = |error: std::io::Error| {
        let reason = match error.kind() {
            std::io::ErrorKind::NotFound => format!("`{name}` does not exist"),
            std::io::ErrorKind::PermissionDenied => {
                format!("`{name}` cannot be read: permission denied")
            }
            _ => format!("`{name}` cannot be read: {error}"),
        };
        Box::new(codes::unreadable(&name, reason))
    };
    let mut bytes = Vec::new();
    if name == "-" {
        std::io::stdin()
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|error| {
                Box::new(codes::unreadable(
                    &name,
                    format!("cannot read standard input: {error}"),
                ))
            })?;
    } else {
        let metadata = std::fs::metadata(path).map_err(unreadable)?;
        if let Some(kind) = kind_of(&metadata.file_type()) {
            return Err(Box::new(codes::not_a_file(&name, kind)));
        }
        if metadata.len() > limit {
            return Err(Box::new(codes::too_large(
                &name,
                Some(metadata.len()),
                limit,
            )));
        }
        std::fs::File::open(path)
            .and_then(|file| file.take(limit.saturating_add(1)).read_to_end(&mut bytes))
            .map_err(unreadable)?;
    }
    if bytes.len() as u64 > limit {
        return Err(Box::new(codes::too_large(&name, None, limit)));
    }
    decode(&name, bytes).map(|text| SourceFile::new(name, text))
}

/// UTF-8 text without its byte-order mark; anything else is an error that says what the file is.
pub fn decode(name: &str, mut bytes: Vec<u8>) -> Result<String, Box<Diagnostic>> {
    if bytes.starts_with(&[0xFF, 0xFE])
        || bytes.starts_with(&[0xFE, 0xFF])
        || looks_like_utf16(&bytes)
    {
        return Err(Box::new(codes::utf16(name)));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|error| {
        let valid = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let bad = bytes[valid];
        // Shown with U+FFFD in place of what is not UTF-8, so the snippet can point at it.
        let shown = SourceFile::new(name, String::from_utf8_lossy(bytes).into_owned());
        let width = char::REPLACEMENT_CHARACTER.len_utf8();
        Box::new(codes::not_utf8(name).label(
            &shown,
            valid..valid + width,
            format!("byte `0x{bad:02X}` is not UTF-8"),
        ))
    })
}

/// UTF-16 without a byte-order mark: mostly ASCII text whose every other byte is zero.
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let sample = &bytes[..bytes.len().min(64)];
    let zeros_at = |start: usize| {
        sample
            .iter()
            .skip(start)
            .step_by(2)
            .filter(|&&b| b == 0)
            .count()
    };
    let pairs = sample.len() / 2;
    pairs >= 2 && (zeros_at(0) * 10 >= pairs * 9 || zeros_at(1) * 10 >= pairs * 9)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn strips_a_utf8_byte_order_mark() {
        assert_eq!(
            decode("f", b"\xEF\xBB\xBFkind a".to_vec()).ok().as_deref(),
            Some("kind a")
        );
    }

    #[test]
    fn names_utf16_and_invalid_utf8() {
        let utf16 = decode("f", b"\xFF\xFEk\0i\0".to_vec())
            .err()
            .map(|d| d.message);
        assert_eq!(
            utf16.as_deref(),
            Some("`f` is UTF-16 text; ctxguard reads UTF-8")
        );
        let utf16_no_bom = decode(
            "f",
            "kind a\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
        )
        .err();
        assert!(utf16_no_bom.is_some());
        let invalid = decode("f", b"ab\ncd\xC3(".to_vec()).err();
        let label = invalid.as_ref().and_then(|d| d.primary());
        assert_eq!(label.map(|l| l.file.line_col(l.span.start)), Some((2, 3)));
        assert_eq!(
            label.map(|l| l.message.as_str()),
            Some("byte `0xC3` is not UTF-8")
        );
    }
}
