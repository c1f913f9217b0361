//! Policy reader: pest pairs to the typed AST. A syntax error becomes one
//! `syntax` diagnostic that says, in the policy's own words, what was
//! expected at the exact place it went wrong.

use std::sync::Arc;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;

use crate::diagnostics::codes::policy as codes;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::Diagnostic;
use crate::policy::ast::*;
use crate::source::{SourceFile, Span};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/policy.pest"]
struct PolicyParser;

/// Parses one policy file. Returns the AST when the file is well formed,
/// with any problems found inside otherwise valid tokens (a selector
/// without `:`); a syntax error returns no AST.
pub fn parse(source: &Arc<SourceFile>) -> (Option<PolicyAst>, Vec<Diagnostic>) {
    let file = match PolicyParser::parse(Rule::file, source.text()) {
        Ok(mut pairs) => pairs.next(),
        Err(error) => return (None, vec![syntax_error(source, &error)]),
    };
    let mut reader = Reader {
        source,
        diagnostics: Vec::new(),
    };
    let statements = file
        .into_iter()
        .flat_map(Pair::into_inner)
        .filter(|pair| pair.as_rule() != Rule::EOI)
        .filter_map(|pair| reader.statement(pair))
        .collect();
    let ast = PolicyAst {
        source: Arc::clone(source),
        statements,
    };
    (Some(ast), reader.diagnostics)
}

struct Reader<'s> {
    source: &'s Arc<SourceFile>,
    diagnostics: Vec<Diagnostic>,
}

fn span_of(pair: &Pair<Rule>) -> Span {
    let span = pair.as_span();
    span.start()..span.end()
}

/// The pairs of a rule that are not keywords.
fn operands(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|inner| !format!("{:?}", inner.as_rule()).starts_with("kw_"))
}

impl Reader<'_> {
    fn statement(&mut self, pair: Pair<Rule>) -> Option<Statement> {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut args = operands(pair);
        let node = match rule {
            Rule::policy_stmt => {
                let name = args.next()?;
                StatementKind::Policy(Spanned::new(name.as_str().to_owned(), span_of(&name)))
            }
            Rule::extends_stmt => {
                let target = args.next()?;
                let parent = match target.as_rule() {
                    Rule::builtin_parent => ParentRef::Builtin,
                    _ => ParentRef::Path(self.string(target.clone())?),
                };
                StatementKind::Extends(Spanned::new(parent, span_of(&target)))
            }
            Rule::kind_stmt => StatementKind::Kind(self.kind(args)?),
            Rule::order_stmt => {
                let before = self.selector(args.next()?)?;
                let after = self.selector(args.next()?)?;
                StatementKind::Order { before, after }
            }
            Rule::preserve_stmt => StatementKind::PreserveOrder,
            Rule::tokenizer_stmt => {
                let name = args.next()?;
                // The grammar admits only the three names.
                let tokenizer = Tokenizer::from_name(name.as_str()).unwrap_or(Tokenizer::Approx);
                StatementKind::Tokenizer(Spanned::new(tokenizer, span_of(&name)))
            }
            Rule::budget_stmt => {
                let budget = args.next()?;
                let budget_rule = budget.as_rule();
                let value = operands(budget).next()?;
                let value_span = span_of(&value);
                if budget_rule == Rule::window_budget {
                    let digits: String = value.as_str().chars().filter(|c| *c != '_').collect();
                    StatementKind::Window(Spanned::new(digits.parse().ok(), value_span))
                } else {
                    let number = value.as_str().trim_end_matches('%');
                    let share = number.parse().unwrap_or(f64::INFINITY);
                    StatementKind::Commitments(Spanned::new(share, value_span))
                }
            }
            Rule::on_stmt => {
                let rule_pair = args.next()?;
                let action = operands(rule_pair).next()?;
                let on = match action.as_rule() {
                    Rule::rule_reject => OnRule::Mismatch(MismatchAction::Reject),
                    Rule::rule_warn => OnRule::Mismatch(MismatchAction::Warn),
                    Rule::rule_keep => OnRule::Unclassified(UnclassifiedAction::Keep),
                    Rule::rule_drop => OnRule::Unclassified(UnclassifiedAction::Drop),
                    Rule::rule_escalate => OnRule::OverBudget(OverBudgetAction::Escalate),
                    _ => OnRule::OverBudget(OverBudgetAction::Truncate),
                };
                StatementKind::On(Spanned::new(on, span_of(&action)))
            }
            _ => return None,
        };
        Some(Statement { span, node })
    }

    fn kind<'i>(&mut self, mut args: impl Iterator<Item = Pair<'i, Rule>>) -> Option<KindDecl> {
        let name = args.next()?;
        let args: Vec<Pair<'i, Rule>> = args.collect();
        let mut decl = KindDecl {
            name: Spanned::new(name.as_str().to_owned(), span_of(&name)),
            block: args.first().map(span_of),
            docs: Vec::new(),
            hints: Vec::new(),
            severities: Vec::new(),
        };
        for item in args.into_iter().flat_map(Pair::into_inner) {
            let rule = item.as_rule();
            let Some(value) = operands(item).next() else {
                continue;
            };
            match rule {
                Rule::doc_item => {
                    let span = span_of(&value);
                    let text = self.string(value)?;
                    decl.docs.push(Spanned::new(text, span));
                }
                Rule::hint_item => {
                    let span = span_of(&value);
                    let mut parts = value.into_inner();
                    let body = parts.next()?;
                    let flags = parts.next()?;
                    decl.hints.push(HintDecl {
                        span,
                        body: Spanned::new(body.as_str().to_owned(), span_of(&body)),
                        flags: Spanned::new(flags.as_str().to_owned(), span_of(&flags)),
                    });
                }
                Rule::severity_item => {
                    let severity = match value.as_rule() {
                        Rule::severity_warning => Severity::Warning,
                        _ => Severity::Error,
                    };
                    decl.severities
                        .push(Spanned::new(severity, span_of(&value)));
                }
                _ => {}
            }
        }
        Some(decl)
    }

    fn selector(&mut self, pair: Pair<Rule>) -> Option<Spanned<Selector>> {
        let span = span_of(&pair);
        if pair.as_rule() == Rule::kind_selector {
            return Some(Spanned::new(Selector::Kind(pair.as_str().to_owned()), span));
        }
        let string = pair.into_inner().next()?;
        let identity = self.string(string)?;
        match identity.split_once(':') {
            Some((kind, key)) if !kind.is_empty() && !key.is_empty() => Some(Spanned::new(
                Selector::Identity {
                    kind: kind.to_owned(),
                    key: key.to_owned(),
                },
                span,
            )),
            _ => {
                self.diagnostics
                    .push(codes::not_an_identity(&identity).label(
                        self.source,
                        span,
                        "expected `\"kind:key\"`",
                    ));
                None
            }
        }
    }

    /// The text of a quoted string, with its escapes resolved.
    fn string(&mut self, pair: Pair<Rule>) -> Option<String> {
        let inner = pair.into_inner().next()?;
        let raw = inner.as_str();
        let mut text = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                text.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => text.push('\n'),
                Some('t') => text.push('\t'),
                Some(other) => text.push(other),
                None => {}
            }
        }
        Some(text)
    }
}

/// What a user calls each thing the grammar can expect.
fn rule_in_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::kind_name | Rule::kind_selector => "a kind name",
        Rule::policy_name => "a policy name",
        Rule::identity_selector => "a quoted identity like `\"decision:*\"`",
        Rule::kind_block => "`{`",
        Rule::doc_item | Rule::kw_doc => "`doc`",
        Rule::hint_item | Rule::kw_hint => "`hint`",
        Rule::severity_item | Rule::kw_severity => "`severity`",
        Rule::string => "a quoted string",
        Rule::builtin_parent => "`default`",
        Rule::pattern => "a pattern like `/words/i`",
        Rule::pattern_body => "a non-empty pattern",
        Rule::tokenizer_name => "a tokenizer (`o200k_base`, `cl100k_base` or `approx`)",
        Rule::window_budget | Rule::kw_window => "`window`",
        Rule::commitments_budget | Rule::kw_commitments => "`commitments`",
        Rule::number => "a whole number of tokens",
        Rule::percent | Rule::percent_value => "a percentage like `60%`",
        Rule::mismatch_rule | Rule::kw_mismatch => "`mismatch`",
        Rule::unclassified_rule | Rule::kw_unclassified => "`unclassified`",
        Rule::over_budget_rule | Rule::kw_over_budget => "`over-budget`",
        Rule::rule_reject => "`reject`",
        Rule::rule_warn => "`warn`",
        Rule::rule_keep => "`keep`",
        Rule::rule_drop => "`drop`",
        Rule::rule_escalate => "`escalate`",
        Rule::rule_truncate => "`truncate`",
        Rule::severity_error => "`error`",
        Rule::severity_warning => "`warning`",
        Rule::kw_before => "`before`",
        Rule::kw_order => "`order`",
        Rule::string_escape => "an escape (`\\\"`, `\\\\`, `\\n` or `\\t`)",
        _ => return None,
    })
}

/// The keywords that start a statement.
const STATEMENT_KEYWORDS: &[(Rule, &str)] = &[
    (Rule::kw_policy, "policy"),
    (Rule::kw_extends, "extends"),
    (Rule::kw_kind, "kind"),
    (Rule::kw_order, "order"),
    (Rule::kw_preserve, "preserve"),
    (Rule::kw_tokenizer, "tokenizer"),
    (Rule::kw_budget, "budget"),
    (Rule::kw_on, "on"),
];

/// Literal words the grammar may expect, for "did you mean" help.
fn keyword(rule: Rule) -> Option<&'static str> {
    STATEMENT_KEYWORDS
        .iter()
        .find(|(r, _)| *r == rule)
        .map(|(_, word)| *word)
        .or(match rule {
            Rule::kw_before => Some("before"),
            Rule::kw_order => Some("order"),
            Rule::window_budget => Some("window"),
            Rule::commitments_budget => Some("commitments"),
            Rule::mismatch_rule => Some("mismatch"),
            Rule::unclassified_rule => Some("unclassified"),
            Rule::over_budget_rule => Some("over-budget"),
            Rule::rule_reject => Some("reject"),
            Rule::rule_warn => Some("warn"),
            Rule::rule_keep => Some("keep"),
            Rule::rule_drop => Some("drop"),
            Rule::rule_escalate => Some("escalate"),
            Rule::rule_truncate => Some("truncate"),
            Rule::severity_error => Some("error"),
            Rule::severity_warning => Some("warning"),
            Rule::doc_item | Rule::kw_doc => Some("doc"),
            Rule::hint_item | Rule::kw_hint => Some("hint"),
            Rule::severity_item | Rule::kw_severity => Some("severity"),
            Rule::builtin_parent => Some("default"),
            _ => None,
        })
}

fn join_alternatives(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [first, second] => format!("{first} or {second}"),
        [init @ .., last] => format!("{}, or {last}", init.join(", ")),
    }
}

fn syntax_error(source: &Arc<SourceFile>, error: &pest::error::Error<Rule>) -> Diagnostic {
    let text = source.text();
    let offset = match error.location {
        InputLocation::Pos(pos) => pos,
        InputLocation::Span((start, _)) => start,
    }
    .min(text.len());
    let positives: &[Rule] = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { .. } => &[],
    };

    // The word (or character) the parser stopped at.
    let rest = &text[offset..];
    let word_len = rest
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '%')))
        .unwrap_or(rest.len());
    let found = &rest[..word_len];
    let span = if word_len > 0 {
        offset..offset + word_len
    } else {
        let width = rest.chars().next().map_or(0, char::len_utf8);
        offset
            ..offset
                + if rest.starts_with(['\n', '\r']) {
                    0
                } else {
                    width
                }
    };

    let mut expected: Vec<String> = Vec::new();
    let mut push = |item: String| {
        if !expected.contains(&item) {
            expected.push(item);
        }
    };
    let is_statement_keyword = |rule: &Rule| STATEMENT_KEYWORDS.iter().any(|(r, _)| r == rule);
    let starts_statement = positives
        .iter()
        .filter(|rule| is_statement_keyword(rule))
        .count()
        > 1;
    let in_block = positives.iter().any(|rule| {
        matches!(
            rule,
            Rule::doc_item
                | Rule::hint_item
                | Rule::severity_item
                | Rule::kw_doc
                | Rule::kw_hint
                | Rule::kw_severity
        )
    });
    let line_start = offset == 0 || text[..offset].trim_end_matches([' ', '\t']).ends_with('\n');
    if positives.contains(&Rule::EOI) && !line_start {
        push("the end of the line".to_owned());
    }
    for rule in positives {
        if starts_statement && is_statement_keyword(rule) {
            continue;
        }
        if let Some(text) = rule_in_words(*rule) {
            push(text.to_owned());
        }
    }
    if in_block {
        push("`}`".to_owned());
    }
    if starts_statement {
        push("a statement (`kind`, `order`, `budget`, `on`, ...)".to_owned());
    }
    // A kind's own statement written on its own: say where it belongs.
    if starts_statement && line_start && matches!(found, "hint" | "doc" | "severity") {
        return codes::syntax_error(format!(
            "`{found}` belongs inside a kind's block, not on its own"
        ))
        .label(
            source,
            span,
            format!("`{found}` outside a `kind NAME {{ … }}` block"),
        )
        .help(block_help(text, offset, found));
    }
    let at_line_end = rest.is_empty() || rest.starts_with(['\n', '\r']);
    let unterminated =
        rest.starts_with('"') && !rest.lines().next().unwrap_or("")[1..].contains('"');
    if unterminated {
        let line_len = rest.find(['\n', '\r']).unwrap_or(rest.len());
        return codes::unterminated_string().label(
            source,
            offset..offset + line_len,
            "never closed",
        );
    }
    let message = if expected.is_empty() {
        "this statement is not understood".to_owned()
    } else if at_line_end {
        format!(
            "expected {} before the end of the line",
            join_alternatives(&expected)
        )
    } else {
        format!("expected {}", join_alternatives(&expected))
    };

    let found_label = if at_line_end {
        "the statement ends here".to_owned()
    } else if found.is_empty() {
        format!("unexpected `{}`", rest.chars().next().unwrap_or(' '))
    } else {
        format!("unexpected `{found}`")
    };

    let mut diagnostic = codes::syntax_error(message).label(source, span, found_label);
    if let Some(help) = syntax_help(text, offset, found, positives) {
        diagnostic = diagnostic.help(help);
    }
    diagnostic
}

/// How to put a kind's statement (`found`, at `offset`) in a kind's block:
/// the block of the `kind NAME` just above it, when that has none.
fn block_help(text: &str, offset: usize, found: &str) -> String {
    let above = text[..offset]
        .lines()
        .rev()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|line| !line.is_empty());
    let words: Vec<&str> = above.map_or(Vec::new(), |l| l.split_whitespace().collect());
    match words.as_slice() {
        ["kind", name] => format!(
            "give `kind {name}` a block and move the line into it: `kind {name} {{`, then `{found} …` on its own line, then `}}`"
        ),
        // Just after a block closed: the kind whose block that was.
        ["}"] => {
            let opened = text[..offset].lines().rev().find_map(|line| {
                match line.split_whitespace().collect::<Vec<_>>().as_slice() {
                    ["kind", name, "{", ..] => Some((*name).to_owned()),
                    _ => None,
                }
            });
            match opened {
                Some(name) => format!(
                    "move it into the block of `kind {name}` above, before its closing `}}`"
                ),
                None => "move it into the block of the kind it is for, before its closing `}`".to_owned(),
            }
        }
        _ => format!(
            "move it into the block of the kind it is for: `kind NAME {{`, then `{found} …` on its own line, then `}}`"
        ),
    }
}

/// A likely fix for a syntax error, from the line it happened on.
fn syntax_help(text: &str, offset: usize, found: &str, positives: &[Rule]) -> Option<String> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[line_start..line_end].split('#').next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();

    if let ["order", first, "after", second] = words.as_slice() {
        return Some(format!(
            "`order` only takes `before`: write `order {second} before {first}`"
        ));
    }
    if positives.contains(&Rule::percent)
        && found.chars().all(|c| c.is_ascii_digit() || c == '.')
        && !found.is_empty()
    {
        // `0.4` is a fraction: 40%, not 0.4%.
        let percent = match found.parse::<f64>() {
            Ok(value) if value > 0.0 && value <= 1.0 && found.contains('.') => {
                let percent = (value * 100.0 * 1000.0).round() / 1000.0;
                format!("{percent}")
            }
            _ => found.to_owned(),
        };
        return Some(format!(
            "a commitment share is a percentage: write `{percent}%`"
        ));
    }
    if positives.contains(&Rule::number) && found.contains(['.', '%']) {
        return Some("a window is a whole number of tokens, like `128000`".to_owned());
    }
    if positives.contains(&Rule::tokenizer_name) {
        if let Some(suggestion) = did_you_mean(found, ["o200k_base", "cl100k_base", "approx"]) {
            return Some(format!("did you mean `{suggestion}`?"));
        }
        return Some(
            "`approx` estimates tokens as bytes / 4 for models without a public tokenizer"
                .to_owned(),
        );
    }
    if !found.is_empty() {
        let candidates = positives.iter().filter_map(|rule| keyword(*rule));
        if let Some(suggestion) = did_you_mean(found, candidates) {
            return Some(format!("did you mean `{suggestion}`?"));
        }
    }
    if positives.contains(&Rule::kw_doc) {
        return Some(
            "a kind block holds `doc \"...\"`, `hint /pattern/flags` and `severity error|warning`"
                .to_owned(),
        );
    }
    if positives.contains(&Rule::kind_name) && found.starts_with('{') {
        return Some("name the kind before its block: `kind constraint { ... }`".to_owned());
    }
    None
}

/// Every comment in `text`, in order: each `#` outside a string or pattern,
/// to the end of its line. For the formatter, on text that parses.
pub fn comments(text: &str) -> Vec<Span> {
    let Ok(mut pairs) = PolicyParser::parse(Rule::comments, text) else {
        return Vec::new();
    };
    pairs
        .next()
        .into_iter()
        .flat_map(Pair::into_inner)
        .filter(|pair| pair.as_rule() == Rule::comment)
        .map(|pair| span_of(&pair))
        .collect()
}
