//! `ctxguard explain CODE`: what each code means, why it matters for
//! compaction, an example that triggers it and the fix. A test runs every
//! example and checks that it really reports its code.

use crate::diagnostics::{codes, Code};

/// What `ctxguard explain CODE` says about a code.
pub struct Explanation {
    /// The code explained.
    pub code: Code,
    /// One line: what is wrong.
    pub summary: &'static str,
    /// What the check looks at and why it matters for compaction.
    pub details: &'static str,
    /// Files (name, text) that trigger the code.
    pub example: &'static [(&'static str, &'static str)],
    /// The command line, run in a directory holding the example files.
    pub run: &'static str,
    /// How to fix it.
    pub fix: &'static str,
}

/// The explanation of `code`. Every code has its own: the test
/// `every_code_has_its_own_explanation` fails the build's tests when one
/// is missing or given twice, so the fallback below is never reached.
pub fn explanation(code: Code) -> &'static Explanation {
    every()
        .find(|explanation| explanation.code == code)
        .unwrap_or(&codes::input::UNREADABLE_FILE)
}

/// Every explanation, stage by stage.
fn every() -> impl Iterator<Item = &'static Explanation> {
    codes::input::ALL
        .iter()
        .chain(codes::policy::ALL)
        .chain(codes::verify::ALL)
        .chain(codes::import::ALL)
        .chain(codes::hook::ALL)
        .chain(codes::runtime::ALL)
        .copied()
}

/// The full text printed by `ctxguard explain CODE`.
pub fn render(code: Code) -> String {
    let explanation = explanation(code);
    let mut text = format!(
        "ctxguard::{} ({})\n\n{}\n\n{}\n\nExample: `ctxguard {}` with\n",
        code,
        code.default_severity().name(),
        textwrap::fill(explanation.summary, 80),
        textwrap::fill(explanation.details, 80),
        explanation.run
    );
    for (name, contents) in explanation.example {
        text.push_str(&format!("\n    # {name}\n"));
        if contents.is_empty() {
            text.push_str("    # (this file does not exist)\n");
        }
        for line in contents.lines() {
            text.push_str(&format!("    {line}\n").replace("    \n", "\n"));
        }
    }
    text.push_str(&format!(
        "\nFix:\n\n{}\n",
        textwrap::fill(explanation.fix, 80)
    ));
    text
}

/// `ctxguard explain` without a code: every code with its summary.
pub fn list() -> String {
    let width = Code::ALL.iter().map(|c| c.name().len()).max().unwrap_or(0);
    let mut text = String::new();
    let indent = " ".repeat(width + 2 + 7 + 2);
    for code in Code::ALL {
        let lead = format!(
            "{:width$}  {:7}  ",
            code.name(),
            code.default_severity().name()
        );
        let options = textwrap::Options::new(80)
            .initial_indent(&lead)
            .subsequent_indent(&indent)
            .word_separator(textwrap::WordSeparator::AsciiSpace);
        text.push_str(&textwrap::fill(explanation(*code).summary, options));
        text.push('\n');
    }
    text
}

impl Code {
    /// What the code means, why it matters, an example and the fix.
    pub fn explanation(self) -> &'static Explanation {
        explanation(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_explanation() {
        let all: Vec<&Explanation> = every().collect();
        for &code in Code::ALL {
            let given = all.iter().filter(|e| e.code == code).count();
            assert_eq!(given, 1, "{code}: {given} explanations");
            assert_eq!(explanation(code).code, code);
        }
        assert_eq!(all.len(), Code::ALL.len(), "an explanation of no code");
    }
}
