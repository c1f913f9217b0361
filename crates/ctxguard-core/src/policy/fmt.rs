//! `ctxguard fmt`: one canonical layout for policy files. Statements stay
//! in their written order and keep their own tokens as written (so the
//! meaning cannot change); only the layout is decided here: single spaces,
//! `kind` blocks one item per line indented by two, comments where they
//! stand (trailing ones aligned within a group of lines), at most one blank
//! line in a row. Formatting is idempotent: fmt(fmt(x)) == fmt(x).

use std::sync::Arc;

use crate::diagnostics::Diagnostic;
use crate::policy::ast::{PolicyAst, Statement, StatementKind};
use crate::policy::parse::{comments, parse};
use crate::source::{SourceFile, Span};

enum Line {
    Blank,
    Text {
        indent: usize,
        code: String,
        comment: Option<String>,
    },
}

struct Layout<'a> {
    text: &'a str,
    lines: Vec<Line>,
    /// End of what was laid out last, to see newlines and blank lines since.
    last_end: usize,
    comments: std::iter::Peekable<std::vec::IntoIter<Span>>,
}

impl Layout<'_> {
    fn newlines_since(&self, start: usize) -> usize {
        self.text
            .get(self.last_end..start)
            .map_or(0, |gap| gap.matches('\n').count())
    }

    /// A blank line before what starts at `start`, if the source has one there.
    fn blank_before(&mut self, start: usize, in_block: bool) {
        let after_opening = matches!(self.lines.last(), Some(Line::Text { code, .. }) if in_block && code.ends_with('{'));
        if self.newlines_since(start) >= 2
            && !self.lines.is_empty()
            && !after_opening
            && !matches!(self.lines.last(), Some(Line::Blank))
        {
            self.lines.push(Line::Blank);
        }
    }

    fn code(&mut self, span: &Span, indent: usize, code: String, in_block: bool) {
        self.blank_before(span.start, in_block);
        self.lines.push(Line::Text {
            indent,
            code,
            comment: None,
        });
        self.last_end = span.end;
    }

    /// Comments that start before `before`: trailing ones join the line
    /// they follow, the others stand on their own line.
    fn comments_before(&mut self, before: usize, indent: usize, in_block: bool) {
        while let Some(span) = self.comments.next_if(|span| span.start < before) {
            let comment = self.text[span.clone()].trim_end().to_owned();
            let trailing = self.newlines_since(span.start) == 0;
            match self.lines.last_mut() {
                Some(Line::Text {
                    comment: slot @ None,
                    code,
                    ..
                }) if trailing && !code.is_empty() => *slot = Some(comment),
                _ => {
                    self.blank_before(span.start, in_block);
                    self.lines.push(Line::Text {
                        indent,
                        code: String::new(),
                        comment: Some(comment),
                    });
                }
            }
            self.last_end = span.end;
        }
    }

    fn statement(&mut self, statement: &Statement) {
        let text = self.text;
        let raw = |span: &Span| text.get(span.clone()).unwrap_or_default().to_owned();
        let line = match &statement.node {
            StatementKind::Policy(name) => format!("policy {}", name.node),
            StatementKind::Extends(target) => format!("extends {}", raw(&target.span)),
            StatementKind::Order { before, after } => {
                format!("order {} before {}", raw(&before.span), raw(&after.span))
            }
            StatementKind::PreserveOrder => "preserve order".to_owned(),
            StatementKind::Tokenizer(tokenizer) => format!("tokenizer {}", tokenizer.node.name()),
            StatementKind::Window(window) => format!("budget window {}", raw(&window.span)),
            StatementKind::Commitments(share) => format!("budget commitments {}", raw(&share.span)),
            StatementKind::On(rule) => format!("on {} {}", rule.node.subject(), rule.node.action()),
            StatementKind::Kind(decl) => {
                let mut items: Vec<(Span, String)> = Vec::new();
                items.extend(
                    decl.docs
                        .iter()
                        .map(|d| (d.span.clone(), format!("doc {}", raw(&d.span)))),
                );
                items.extend(
                    decl.hints
                        .iter()
                        .map(|h| (h.span.clone(), format!("hint {}", raw(&h.span)))),
                );
                items.extend(
                    decl.severities
                        .iter()
                        .map(|s| (s.span.clone(), format!("severity {}", raw(&s.span)))),
                );
                items.sort_by_key(|(span, _)| span.start);
                // A comment after a kind with no block is a trailing comment;
                // only one inside `{ ... }` keeps the block open.
                let has_inner_comment = decl
                    .block
                    .as_ref()
                    .is_some_and(|block| self.comments.peek().is_some_and(|c| c.start < block.end));
                let header = format!("kind {}", decl.name.node);
                if items.is_empty() && !has_inner_comment {
                    self.code(&statement.span, 0, header, false);
                    return;
                }
                let opening = text[decl.name.span.end..statement.span.end]
                    .find('{')
                    .map_or(decl.name.span.end, |i| decl.name.span.end + i);
                self.code(
                    &(statement.span.start..opening + 1),
                    0,
                    format!("{header} {{"),
                    false,
                );
                for (span, item) in items {
                    self.comments_before(span.start, 2, true);
                    self.code(&span, 2, item, true);
                }
                let closing = statement.span.end.saturating_sub(1);
                self.comments_before(closing, 2, true);
                self.lines.push(Line::Text {
                    indent: 0,
                    code: "}".to_owned(),
                    comment: None,
                });
                self.last_end = statement.span.end;
                return;
            }
        };
        self.code(&statement.span, 0, line, false);
    }

    fn render(self) -> String {
        let mut out = String::new();
        let widths: Vec<usize> = self.group_widths();
        for (line, width) in self.lines.iter().zip(widths) {
            match line {
                Line::Blank => out.push('\n'),
                Line::Text {
                    indent,
                    code,
                    comment,
                } => {
                    let start = out.len();
                    out.push_str(&" ".repeat(*indent));
                    out.push_str(code);
                    if let Some(comment) = comment {
                        if !code.is_empty() {
                            let column = out.len() - start;
                            out.push_str(&" ".repeat(width.saturating_sub(column).max(1)));
                        }
                        out.push_str(comment);
                    }
                    out.push('\n');
                }
            }
        }
        out
    }

    /// For each line, the column its trailing comment aligns to: two past
    /// the widest line with a trailing comment in its group (lines with no
    /// blank line or comment-only line between them).
    fn group_widths(&self) -> Vec<usize> {
        let mut widths = vec![0; self.lines.len()];
        let mut start = 0;
        while start < self.lines.len() {
            let mut end = start;
            while let Some(Line::Text { code, .. }) = self.lines.get(end) {
                if code.is_empty() {
                    break;
                }
                end += 1;
            }
            let width = self.lines[start..end]
                .iter()
                .filter_map(|line| match line {
                    Line::Text {
                        indent,
                        code,
                        comment: Some(_),
                    } => Some(indent + code.len()),
                    _ => None,
                })
                .max()
                .unwrap_or(0)
                + 2;
            widths[start..end].iter_mut().for_each(|w| *w = width);
            start = end + 1;
        }
        widths
    }
}

/// The canonical layout of a parsed policy.
pub fn format(ast: &PolicyAst) -> String {
    let text = ast.source.text();
    let mut layout = Layout {
        text,
        lines: Vec::new(),
        last_end: 0,
        comments: comments(text).into_iter().peekable(),
    };
    for statement in &ast.statements {
        layout.comments_before(statement.span.start, 0, false);
        layout.statement(statement);
    }
    layout.comments_before(usize::MAX, 0, false);
    layout.render()
}

/// Formats policy text; a policy that does not parse cleanly is not touched.
pub fn format_source(source: &Arc<SourceFile>) -> Result<String, Vec<Diagnostic>> {
    match parse(source) {
        (Some(ast), diagnostics) if diagnostics.is_empty() => Ok(format(&ast)),
        (_, diagnostics) => Err(diagnostics),
    }
}
