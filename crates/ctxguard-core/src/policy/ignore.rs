//! `# ctxguard-ignore CODE: reason` on the line before a policy statement
//! silences CODE on that statement. The reason is required, so every
//! silenced finding is accounted for; an ignore that silences nothing is
//! reported, so stale ones do not pile up.

use std::sync::Arc;

use regex::Regex;

use crate::diagnostics::codes::policy as codes;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::Code;
use crate::diagnostics::Diagnostic;
use crate::policy::ast::Statement;
use crate::source::{SourceFile, Span};

struct Ignore {
    code: Code,
    /// The comment.
    span: Span,
    /// The statement it applies to.
    target: Span,
    used: bool,
}

/// Removes the diagnostics that ignore comments in `file` silence, and adds
/// what is wrong with the comments themselves.
pub fn apply(
    file: &Arc<SourceFile>,
    statements: &[Statement],
    diagnostics: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let text = file.text();
    if !text.contains("ctxguard-ignore") {
        return diagnostics;
    }
    let (mut ignores, mut found) = read(file, statements);
    let mut kept: Vec<Diagnostic> = diagnostics
        .into_iter()
        .filter(|diagnostic| {
            let Some(label) = diagnostic.primary().filter(|l| Arc::ptr_eq(&l.file, file)) else {
                return true;
            };
            let silenced = ignores.iter_mut().find(|ignore| {
                ignore.code == diagnostic.code
                    && ignore.target.start <= label.span.start
                    && label.span.start < ignore.target.end
            });
            match silenced {
                Some(ignore) => {
                    ignore.used = true;
                    false
                }
                None => true,
            }
        })
        .collect();
    for ignore in ignores.iter().filter(|ignore| !ignore.used) {
        found.push(codes::ignore_unused(ignore.code).label(
            file,
            ignore.span.clone(),
            "nothing to ignore on the next statement",
        ));
    }
    kept.extend(found);
    kept
}

fn read(file: &Arc<SourceFile>, statements: &[Statement]) -> (Vec<Ignore>, Vec<Diagnostic>) {
    let (mut ignores, mut found) = (Vec::new(), Vec::new());
    let Ok(pattern) = Regex::new(r"(?m)^[ \t]*#[ \t]*ctxguard-ignore\b(?<rest>[^\r\n]*)") else {
        return (ignores, found);
    };
    let text = file.text();
    for captures in pattern.captures_iter(text) {
        let (Some(whole), Some(rest)) = (captures.get(0), captures.name("rest")) else {
            continue;
        };
        let span =
            whole.start() + whole.as_str().len() - whole.as_str().trim_start().len()..whole.end();
        let (name, reason) = match rest.as_str().split_once(':') {
            Some((name, reason)) => (name.trim(), reason.trim()),
            None => (rest.as_str().trim(), ""),
        };
        let Some(code) = Code::from_name(name) else {
            let suggestion = did_you_mean(name, Code::ALL.iter().map(|c| c.name()));
            found.push(codes::ignore_unknown_code(name, suggestion).label(
                file,
                span.clone(),
                "here",
            ));
            continue;
        };
        if code.is_mandatory() {
            found.push(codes::ignore_of_error(code).label(file, span.clone(), "cannot be ignored"));
            continue;
        }
        if reason.is_empty() {
            found.push(codes::ignore_without_reason(code).label(file, span.clone(), "here"));
            continue;
        }
        match statements
            .iter()
            .find(|statement| statement.span.start >= whole.end())
        {
            Some(statement) => ignores.push(Ignore {
                code,
                span,
                target: statement.span.clone(),
                used: false,
            }),
            None => {
                found.push(codes::ignore_at_end(code).label(file, span.clone(), "nothing follows"))
            }
        }
    }
    (ignores, found)
}
