//! Whether a runtime would load a settings file as written: Claude Code
//! reads strict JSON and ignores a whole file with a comment or a trailing
//! comma, and a file naming `hooks` twice runs only the last. `init`
//! refuses to edit such a file; `check` says why.

use jsonc_parser::ParseOptions;

use super::Guarded;
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::source::SourceFile;

/// Why Claude Code would not load `text`: it reads settings as strict
/// JSON, and a comment or a trailing comma makes it ignore the whole file
/// (2.0.76 to 2.1.332 alike: seen on the real clients). `None`: it loads.
pub(crate) fn strict_json_error(text: &str) -> Option<(std::ops::Range<usize>, String)> {
    let strict = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let lenient = jsonc_parser::parse_to_value(text, &ParseOptions::default()).is_ok();
    match jsonc_parser::parse_to_value(text, &strict) {
        // What the strict reader still lets through and `JSON.parse` does
        // not: a raw control character inside a string.
        Ok(_) => serde_json::from_str::<serde::de::IgnoredAny>(text)
            .err()
            .map(|error| {
                // serde_json names the byte before the one it refused.
                let offset = crate::buffer::json::json_error_offset(text, 0, &error) + 1;
                let file = SourceFile::new("settings", text);
                let place = file.char_at(offset);
                (
                    place,
                    crate::diagnostics::friendly_serde(&error.to_string()),
                )
            }),
        // Not JSON of any kind: the lenient parse says where, in its terms.
        Err(_) if !lenient => None,
        Err(error) => {
            let range = error.range();
            Some((
                range.start..range.end.max(range.start + 1).min(text.len()),
                error.kind().to_string(),
            ))
        }
    }
}

/// The refusal of a settings file that writes `hooks`, or an event in it,
/// twice: the runtime reads only the last, and an edit of either would
/// leave the guard out of effect or take another tool's hooks.
pub(super) fn hooks_twice(runtime: Guarded, name: &str, text: &str) -> Option<Diagnostic> {
    use crate::buffer::tree;
    let file = std::sync::Arc::new(SourceFile::new(name, text));
    let root = tree::read(&file, tree::Syntax::Json).ok()?;
    let hooks: Vec<&tree::Entry> = root.entries().iter().filter(|e| e.key == "hooks").collect();
    let (first, last) = tree::duplicates(&root).into_iter().find(|(first, _)| {
        first.key == "hooks" && root.entries().iter().any(|e| std::ptr::eq(e, *first))
            || hooks.iter().any(|h| {
                h.node.span.start <= first.key_span.start && first.key_span.end <= h.node.span.end
            })
    })?;
    Some(
        codes::invalid_input(format!(
            "`{name}` writes `{}` twice; {} reads only the last, so ctxguard will not edit it",
            first.key,
            runtime.name()
        ))
        .label(&file, first.key_span.clone(), "not in effect")
        .label(&file, last.key_span.clone(), "only this one is read")
        .help(format!(
            "merge the two `{}` into one, then run `ctxguard init {}` again",
            first.key,
            runtime.arg()
        )),
    )
}

/// The refusal of a settings file Claude Code would not load.
pub(super) fn not_strict(runtime: Guarded, name: &str, text: &str) -> Option<Diagnostic> {
    let (range, why) = strict_json_error(text)?;
    let file = SourceFile::new(name, text);
    Some(
        codes::invalid_input(format!(
            "{} does not load `{name}`: it reads settings as strict JSON, so none of the hooks in it would run",
            runtime.name()
        ))
        .label(&file, range, why)
        .help(format!("make it strict JSON (no comments, no trailing commas, no raw control characters in strings), then run `ctxguard init {}` again", runtime.arg())),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_raw_control_character_in_a_string_is_not_strict_json() {
        let text = "{\n  \"hooks\": {\"é\": \"Session\u{14}Start\"}\n}\n";
        let (range, why) = super::strict_json_error(text).expect("refused");
        assert_eq!(&text[range], "\u{14}", "{why}");
        assert!(why.contains("control character"), "{why}");
        assert_eq!(super::strict_json_error("{\"a\": \"\\ud800\"}"), None);
    }
}
