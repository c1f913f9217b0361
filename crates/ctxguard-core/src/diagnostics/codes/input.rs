//! Codes of reading input: a file that cannot be read, a trace or plan that is
//! not in the format, a summarizer that failed. Each code's explanation and
//! the constructors of its diagnostics (message and help) live together here.

use super::echo;
use crate::diagnostics::explain::Explanation;
use crate::diagnostics::{Code, Diagnostic};
use crate::source::read::{Unread, Why};
use crate::source::SourceFile;

// `unreadable-file`

pub(crate) const UNREADABLE_FILE: Explanation = Explanation {
    code: Code::UnreadableFile,
    summary: "an input file cannot be read as UTF-8 text (or, for `fmt`, written)",
    details: "The file does not exist, cannot be opened, or is not UTF-8 (UTF-16, or stray bytes). ctxguard never guesses at an input it cannot read: a policy it could not read protects nothing, so the command exits 2.",
    example: &[("team.policy", "")],
    run: "check team.policy",
    fix: "Check the path. Save the file as UTF-8 (a UTF-8 byte-order mark is fine).",
};

/// File `name` cannot be read, for `reason` (a sentence that names it).
pub fn unreadable(name: &str, reason: String) -> Diagnostic {
    let name: &str = &echo(name);
    Diagnostic::new(Code::UnreadableFile, reason).file(name)
}

impl From<Unread> for Diagnostic {
    fn from(unread: Unread) -> Self {
        let name = unread.name.as_str();
        match unread.why {
            Why::Io(error) => {
                let shown = name;
                let reason = match error.kind() {
                    std::io::ErrorKind::NotFound => format!("`{shown}` does not exist"),
                    std::io::ErrorKind::PermissionDenied => {
                        format!("`{shown}` cannot be read: permission denied")
                    }
                    _ => format!("`{shown}` cannot be read: {error}"),
                };
                unreadable(name, reason)
            }
            Why::Stdin(error) => unreadable(name, format!("cannot read standard input: {error}")),
            Why::NotAFile(kind) => not_a_file(name, kind),
            Why::Changed => {
                let shown = name;
                unreadable(
                    name,
                    format!(
                        "`{shown}` changed between being checked and being read; it is not read"
                    ),
                )
            }
            Why::TooLarge { size, limit } => too_large(name, size, limit),
            Why::Utf16 => utf16(name),
            Why::NotUtf8 { shown, at, byte } => {
                let width = char::REPLACEMENT_CHARACTER.len_utf8();
                let shown = SourceFile::new(name, shown);
                not_utf8(name).label(
                    &shown,
                    at..at + width,
                    format!("byte `0x{byte:02X}` is not UTF-8"),
                )
            }
        }
    }
}

impl From<Box<Unread>> for Box<Diagnostic> {
    fn from(unread: Box<Unread>) -> Self {
        Box::new(Diagnostic::from(*unread))
    }
}

/// `name` is not a regular file but `kind` (a directory, a FIFO, ...).
pub(crate) fn not_a_file(name: &str, kind: &str) -> Diagnostic {
    let name: &str = &echo(name);
    let kind: &str = &echo(kind);
    unreadable(name, format!("`{name}` is {kind}, not a regular file"))
        .help("name a file; ctxguard does not read directories, FIFOs, devices or sockets")
}

/// `fmt` would have to change `name`, which is read-only.
pub fn read_only(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    unreadable(name, format!("`{name}` is read-only; `ctxguard fmt` leaves it as it is"))
        .help("make it writable if it should be formatted, or run `ctxguard fmt --check` to see the changes")
}

/// `name`, found in `directory`, links to a file outside it.
pub fn link_outside(name: &str, directory: &str) -> Diagnostic {
    let name: &str = &echo(name);
    let directory: &str = &echo(directory);
    unreadable(
        name,
        format!("`{name}` links outside `{directory}` and is not read"),
    )
    .help("`check DIR` reads only files inside DIR; name the target itself if it is a policy you mean to check")
}

/// `name` holds more than `limit` bytes: `size` when known.
pub(crate) fn too_large(name: &str, size: Option<u64>, limit: u64) -> Diagnostic {
    let name: &str = &echo(name);
    let message = match size {
        Some(size) => format!("`{name}` holds {size} bytes, over the limit of {limit}"),
        None => format!("`{name}` holds more than {limit} bytes, the limit"),
    };
    unreadable(name, message)
        .help("raise the limit with `--max-input-bytes N` if the file is what you meant")
}

/// File `name` is UTF-16.
pub(crate) fn utf16(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    unreadable(
        name,
        format!("`{name}` is UTF-16 text; ctxguard reads UTF-8"),
    )
    .help("convert it, for example with `iconv -f UTF-16 -t UTF-8`")
}

/// File `name` holds bytes that are not UTF-8.
pub(crate) fn not_utf8(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    unreadable(name, format!("`{name}` is not valid UTF-8"))
        .help("ctxguard reads UTF-8 text; re-encode the file or remove the stray bytes")
}

// `invalid-input`

pub(crate) const INVALID_INPUT: Explanation = Explanation {
    code: Code::InvalidInput,
    summary: "a trace or plan file is not in the trace or plan format",
    details: "The file is not valid JSON, YAML or JSON Lines, or it is missing what the format requires (`version: 1`, `regions`, a region's `id`, exactly one of `text` and `record`, a commitment's `key`). The diagnostic points at the place and says what was expected. Nothing is verified: exit 2.",
    example: &[("trace.yaml", "regions:\n  - id: r1\n    text: \"hello\"\n"), ("plan.yaml", "version: 1\nregions:\n  - keep: r1\n")],
    run: "verify --trace trace.yaml --plan plan.yaml",
    fix: "Write the file as `docs/formats.md` describes; `ctxguard explain` has an example for each finding.",
};

// The readers word what a malformed trace or plan lacks in their own terms
// (`buffer/fields.rs`, `buffer/plan.rs`, the JSON and YAML readers), each
// through `invalid_input`; the fixed findings are here.

/// A trace or plan that is not in the format: `message`, then the reader's labels and help.
pub fn invalid_input(message: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Code::InvalidInput, message)
}

/// File `name` holds nothing.
pub(crate) fn empty_document(name: &str) -> Diagnostic {
    let name: &str = &echo(name);
    invalid_input(format!("`{name}` is empty"))
        .file(name)
        .help("a trace or plan holds `version: 1` and a list of `regions`")
}

/// The document has no `version`.
pub(crate) fn no_version(json: bool) -> Diagnostic {
    invalid_input("the document has no `version`").help(if json {
        "add `\"version\": 1`"
    } else {
        "add `version: 1`"
    })
}

/// A `version` other than 1.
pub(crate) fn unsupported_version(version: &str) -> Diagnostic {
    let version: &str = &echo(version);
    invalid_input(format!("version `{version}` is not supported"))
        .help("write `version: 1`, or upgrade ctxguard")
}

/// `--trace -` and `--plan -` together.
pub fn both_from_stdin() -> Diagnostic {
    invalid_input("the trace and the plan cannot both be read from standard input")
        .help("give one of `--trace` and `--plan` as a file")
}

// `summarizer-failed`

pub(crate) const SUMMARIZER_FAILED: Explanation = Explanation {
    code: Code::SummarizerFailed,
    summary: "the summarizer given to `plan` failed or printed nothing",
    details: "`ctxguard plan --summarizer CMD` runs CMD once per run of narrative. A command that exits with an error or prints nothing is an error: ctxguard never writes an empty summary, since an empty summary silently drops what it covers.",
    example: &[("trace.yaml", "version: 1\nregions:\n  - id: r1\n    kind: narrative\n    text: \"Looked at the users table; 14 columns.\"\n  - id: r2\n    kind: constraint\n    key: reversible\n    text: \"The migration must remain reversible; do not drop columns.\"\n")],
    run: "plan --trace trace.yaml --summarizer false",
    fix: "Fix the summarizer command; it reads narrative on stdin and writes the summary to stdout.",
};

/// The summarizer failed on `what` (the regions) for `reason`.
pub(crate) fn summarizer_failed(what: &str, reason: &str) -> Diagnostic {
    let what: &str = &echo(what);
    let reason: &str = &echo(reason);
    Diagnostic::new(
        Code::SummarizerFailed,
        format!("the summarizer failed on {what}: {reason}"),
    )
    .help("the summarizer reads the narrative on stdin and writes the summary on stdout; ctxguard never writes an empty summary")
}

/// Every explanation of this family, in code order.
pub(crate) const ALL: &[&Explanation] = &[&UNREADABLE_FILE, &INVALID_INPUT, &SUMMARIZER_FAILED];

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostic;
    use crate::source::read::decode;

    #[test]
    fn names_utf16_and_points_at_the_first_byte_that_is_not_utf8() {
        let said = |bytes: Vec<u8>| decode("f", bytes).err().map(|u| Diagnostic::from(*u));
        let utf16 = said(b"\xFF\xFEk\0i\0".to_vec()).map(|d| d.message);
        assert_eq!(
            utf16.as_deref(),
            Some("`f` is UTF-16 text; ctxguard reads UTF-8")
        );
        let invalid = said(b"ab\ncd\xC3(".to_vec());
        let label = invalid.as_ref().and_then(|d| d.primary());
        assert_eq!(label.map(|l| l.file.line_col(l.span.start)), Some((2, 3)));
        assert_eq!(
            label.map(|l| l.message.as_str()),
            Some("byte `0xC3` is not UTF-8")
        );
    }
}
