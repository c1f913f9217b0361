//! `--format github`: GitHub Actions workflow commands, one per diagnostic,
//! so findings show as annotations on the pull request's files.

use std::io::{self, Write};

use super::json::{JsonDiagnostic, JsonReport};

/// A command's message: `%`, CR and LF escaped as GitHub requires.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A property value: also `:` and `,`, which separate properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

fn command(diagnostic: &JsonDiagnostic) -> String {
    let kind = match diagnostic.severity.as_str() {
        "error" => "error",
        "warning" => "warning",
        _ => "notice",
    };
    let mut properties = Vec::new();
    if let Some(file) = &diagnostic.file {
        properties.push(format!("file={}", escape_property(file)));
    }
    let place = [
        ("line", diagnostic.line),
        ("col", diagnostic.column),
        ("endLine", diagnostic.end_line),
        ("endColumn", diagnostic.end_column),
    ];
    for (name, value) in place {
        if let Some(value) = value {
            properties.push(format!("{name}={value}"));
        }
    }
    properties.push(format!(
        "title={}",
        escape_property(&format!("ctxguard::{}", diagnostic.code))
    ));
    let mut message = super::printable(&diagnostic.message).into_owned();
    if let Some(help) = &diagnostic.help {
        message.push_str(&format!("\nhelp: {}", super::printable(help)));
    }
    for note in &diagnostic.notes {
        message.push_str(&format!("\nnote: {}", super::printable(note)));
    }
    format!(
        "::{kind} {}::{}",
        properties.join(","),
        escape_data(&message)
    )
}

pub(super) fn render(report: &JsonReport, out: &mut dyn Write) -> io::Result<()> {
    for diagnostic in &report.diagnostics {
        writeln!(out, "{}", command(diagnostic))?;
    }
    if let Some(verdict) = report.verdict {
        let errors = report
            .diagnostics
            .iter()
            .filter(|d| d.severity == "error")
            .count();
        let warnings = report.diagnostics.len() - errors;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        writeln!(
            out,
            "::notice title=ctxguard verdict::{} ({}, {})",
            verdict.name(),
            plural(errors, "error"),
            plural(warnings, "warning")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_characters_are_escaped() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }
}
