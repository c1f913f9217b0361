//! The policy linter: resolving a file's AST on top of its parent is a pure
//! function that builds the model and reports what is wrong with the file,
//! in one pass: structure, ranges, weakened rules, unknown kinds, then the
//! order graph. `shared_names` looks across the files checked together.

use std::sync::Arc;

use crate::diagnostics::codes::policy as codes;
use crate::diagnostics::suggest::did_you_mean;
use crate::diagnostics::Diagnostic;
use crate::policy::ast::*;
use crate::policy::hint;
use crate::policy::model::*;
use crate::policy::order_graph::{OrderGraph, Stopped, MAX_ORDERS, MAX_SEARCH_STEPS};
use crate::source::{SourceFile, Span};

/// What a policy builds on.
#[derive(Clone, Copy, Debug)]
pub enum Parent<'a> {
    None,
    Policy(&'a Policy),
    /// `extends` names a parent that could not be loaded (already reported):
    /// kinds it would have declared are not reported as unknown.
    Unavailable,
}

/// Builds the model of `ast` on top of its parent and reports every problem
/// in the file: structure, ranges, weakened rules, unknown kinds, then the
/// order graph.
pub fn resolve(ast: &PolicyAst, parent: Parent<'_>) -> (Policy, Vec<Diagnostic>) {
    let (parent, parent_unavailable) = match parent {
        Parent::None => (None, false),
        Parent::Policy(policy) => (Some(policy), false),
        Parent::Unavailable => (None, true),
    };
    if ast.statements.is_empty() {
        let name = ast.source.name();
        let policy = parent
            .cloned()
            .unwrap_or_else(|| Policy::empty(&ast.source));
        return (policy, vec![codes::empty_policy(name)]);
    }
    let mut resolver = Resolver {
        hints: parent.map_or(0, |p| p.kinds.iter().map(|k| k.hints.len()).sum()),
        file: &ast.source,
        policy: parent
            .cloned()
            .unwrap_or_else(|| Policy::empty(&ast.source)),
        parent,
        parent_unavailable,
        diagnostics: Vec::new(),
        seen: Seen::default(),
    };
    resolver.policy.file = Arc::clone(&ast.source);
    resolver.policy.name = None;
    resolver.policy.name_origin = None;
    let mut orders = Vec::new();
    for statement in &ast.statements {
        match &statement.node {
            StatementKind::Order { before, after } => orders.push((statement, before, after)),
            node => resolver.statement(statement, node),
        }
    }
    let first_child_order = resolver.policy.orders.len();
    for (statement, before, after) in orders {
        resolver.order(statement, before, after);
    }
    resolver.check_order_graph(first_child_order);
    (resolver.policy, resolver.diagnostics)
}

/// First statement of each setting in this file, to catch it being set twice.
#[derive(Default)]
struct Seen {
    policy: Option<Span>,
    extends: Option<Span>,
    preserve: Option<Span>,
    tokenizer: Option<Span>,
    window: Option<Span>,
    commitments: Option<Span>,
    on: [Option<Span>; 3],
    kinds: foldhash::HashMap<String, Span>,
}

struct Resolver<'a> {
    /// Hints of the policy so far, its parents' included.
    hints: usize,
    file: &'a Arc<SourceFile>,
    policy: Policy,
    parent: Option<&'a Policy>,
    parent_unavailable: bool,
    diagnostics: Vec<Diagnostic>,
    seen: Seen,
}

impl Resolver<'_> {
    fn origin(&self, span: &Span) -> Origin {
        Origin {
            file: Arc::clone(self.file),
            span: span.clone(),
        }
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Records the first place a setting is made; reports a second one.
    fn once(
        &mut self,
        slot: impl Fn(&mut Seen) -> &mut Option<Span>,
        span: &Span,
        what: &str,
    ) -> bool {
        match slot(&mut self.seen).clone() {
            Some(first) => {
                self.report(
                    codes::setting_twice(what)
                        .label(self.file, span.clone(), "set again here")
                        .label(self.file, first, "first set here"),
                );
                false
            }
            None => {
                *slot(&mut self.seen) = Some(span.clone());
                true
            }
        }
    }

    fn statement(&mut self, statement: &Statement, node: &StatementKind) {
        let span = &statement.span;
        match node {
            StatementKind::Policy(name) => {
                if let Some(first) = self.seen.policy.clone() {
                    self.report(
                        codes::policy_named_twice(&name.node)
                            .label(self.file, name.span.clone(), "named again here")
                            .label(self.file, first, "first named here"),
                    );
                } else {
                    self.seen.policy = Some(name.span.clone());
                    self.policy.name = Some(name.node.clone());
                    self.policy.name_origin = Some(self.origin(&name.span));
                }
            }
            StatementKind::Extends(_) => {
                self.once(|seen| &mut seen.extends, span, "extends");
            }
            StatementKind::Kind(decl) => self.kind(decl),
            StatementKind::Order { .. } => {}
            StatementKind::PreserveOrder => {
                if self.once(|seen| &mut seen.preserve, span, "preserve order") {
                    self.policy.preserve_order = Some(self.origin(span));
                }
            }
            StatementKind::Tokenizer(tokenizer) => {
                if self.once(|seen| &mut seen.tokenizer, span, "tokenizer") {
                    self.policy.tokenizer = Setting {
                        value: tokenizer.node,
                        origin: Some(self.origin(span)),
                    };
                }
            }
            StatementKind::Window(window) => {
                if self.once(|seen| &mut seen.window, span, "budget window") {
                    self.window(span, window);
                }
            }
            StatementKind::Commitments(share) => {
                if self.once(|seen| &mut seen.commitments, span, "budget commitments") {
                    self.commitments(span, share);
                }
            }
            StatementKind::On(rule) => {
                let (index, what) = match rule.node {
                    OnRule::Mismatch(_) => (0, "on mismatch"),
                    OnRule::Unclassified(_) => (1, "on unclassified"),
                    OnRule::OverBudget(_) => (2, "on over-budget"),
                };
                if self.once(|seen| &mut seen.on[index], span, what) {
                    self.on_rule(span, rule);
                }
            }
        }
    }

    fn kind(&mut self, decl: &KindDecl) {
        let name = &decl.name.node;
        let name_span = decl.name.span.clone();
        if RESERVED_KINDS.contains(&name.as_str()) {
            self.report(codes::reserved_kind(name).label(
                self.file,
                name_span,
                "reserved by ctxguard",
            ));
            return;
        }
        if let Some(first) = self.seen.kinds.get(name.as_str()) {
            let first = first.clone();
            self.report(
                codes::duplicate_kind(name)
                    .label(self.file, name_span, "declared again here")
                    .label(self.file, first, "first declared here"),
            );
            return;
        }
        self.seen.kinds.insert(name.clone(), name_span.clone());

        for (what, spans) in [
            (
                "doc",
                decl.docs.iter().map(|d| d.span.clone()).collect::<Vec<_>>(),
            ),
            (
                "severity",
                decl.severities.iter().map(|s| s.span.clone()).collect(),
            ),
        ] {
            if let [first, second, ..] = spans.as_slice() {
                self.report(
                    codes::kind_setting_twice(name, what)
                        .label(self.file, second.clone(), "set again here")
                        .label(self.file, first.clone(), "first set here"),
                );
            }
        }

        let hints: Vec<Hint> = decl
            .hints
            .iter()
            .filter_map(|h| self.hint(name, h))
            .collect();
        let severity = decl.severities.first().map(|s| Setting {
            value: s.node,
            origin: Some(self.origin(&s.span)),
        });
        let inherited = self.policy.kind_position(name);
        match inherited {
            Some(index) => {
                // A child may refine a parent's kind: add hints, replace its doc, raise its severity.
                let parent_kind = &self.policy.kinds[index];
                if let Some(severity) = &severity {
                    if severity.value < parent_kind.severity.value {
                        let mut diagnostic = codes::kind_lowered(name);
                        if let Some(origin) = &severity.origin {
                            diagnostic =
                                diagnostic.label(self.file, origin.span.clone(), "lowered here");
                        }
                        let parent_origin = parent_kind
                            .severity
                            .origin
                            .as_ref()
                            .unwrap_or(&parent_kind.origin);
                        diagnostic = diagnostic.label(
                            &parent_origin.file,
                            parent_origin.span.clone(),
                            "the parent makes it an error",
                        );
                        self.report(diagnostic);
                    }
                }
                let kind = &mut self.policy.kinds[index];
                if let Some(doc) = decl.docs.first() {
                    kind.doc = Some(doc.node.clone());
                }
                kind.hints.extend(hints);
                if let Some(severity) = severity {
                    if severity.value >= kind.severity.value {
                        kind.severity = severity;
                    }
                }
            }
            None => {
                let origin = self.origin(&name_span);
                self.policy.add_kind(Kind {
                    name: name.clone(),
                    doc: decl.docs.first().map(|d| d.node.clone()),
                    hints,
                    severity: severity.unwrap_or(Setting::default(Severity::Error)),
                    origin,
                });
            }
        }
    }

    fn hint(&mut self, kind: &str, decl: &HintDecl) -> Option<Hint> {
        if self.hints >= hint::MAX_HINTS {
            if self.hints == hint::MAX_HINTS {
                self.report(codes::too_many_hints(hint::MAX_HINTS).label(
                    self.file,
                    decl.span.clone(),
                    "not compiled, nor any after it",
                ));
                self.hints += 1;
            }
            return None;
        }
        self.hints += 1;
        let body_start = decl.body.span.start;
        let flags_offset = decl.flags.span.start - body_start;
        let pattern = self.file.text()[decl.span.clone()].to_owned();
        let (body, flags) = (&decl.body.node, &decl.flags.node);
        // The built-in policy's hints compile (a test compiles each): they
        // are compiled when first asked, not at every start.
        let builtin = self.file.name() == crate::policy::load::DEFAULT_POLICY_NAME
            && self.file.text() == crate::policy::load::DEFAULT_POLICY;
        if builtin {
            return Some(Hint::deferred(
                body,
                flags,
                pattern,
                self.origin(&decl.span),
            ));
        }
        match hint::compile(body, flags, flags_offset) {
            Ok(regex) => Some(Hint::compiled(
                regex,
                pattern,
                flags,
                self.origin(&decl.span),
            )),
            Err(error) => {
                let span = body_start + error.range.start..body_start + error.range.end;
                self.report(codes::invalid_pattern(kind, error.help).label(
                    self.file,
                    span,
                    error.message,
                ));
                None
            }
        }
    }

    fn window(&mut self, span: &Span, window: &Spanned<Option<u64>>) {
        let value = match window.node {
            Some(0) => {
                self.report(codes::zero_window().label(
                    self.file,
                    window.span.clone(),
                    "must be at least 1",
                ));
                return;
            }
            None => {
                self.report(codes::huge_window().label(
                    self.file,
                    window.span.clone(),
                    "too large",
                ));
                return;
            }
            Some(value) => value,
        };
        if let Some(parent) = self.parent.and_then(|p| p.window.as_ref()) {
            if value > parent.value {
                self.weakens(
                    codes::window_grows(parent.value, value),
                    span,
                    "raises the window",
                    parent.origin.as_ref(),
                    format!("the parent allows at most {} tokens", parent.value),
                );
            }
        }
        self.policy.window = Some(Setting {
            value,
            origin: Some(self.origin(span)),
        });
    }

    fn commitments(&mut self, span: &Span, share: &Spanned<f64>) {
        let value = share.node;
        if !(value > 0.0 && value <= 100.0) {
            let text = &self.file.text()[share.span.clone()];
            self.report(codes::share_out_of_range(text).label(
                self.file,
                share.span.clone(),
                "must be more than 0% and at most 100%",
            ));
            return;
        }
        if value < 1.0 {
            let text = &self.file.text()[share.span.clone()];
            self.report(codes::share_tiny(text, value).label(
                self.file,
                share.span.clone(),
                "less than 1% of the window",
            ));
        }
        if let Some(parent) = self.parent.and_then(|p| p.commitment_share.as_ref()) {
            if value > parent.value {
                self.weakens(
                    codes::share_grows(parent.value, value),
                    span,
                    "raises the share",
                    parent.origin.as_ref(),
                    format!("the parent allows at most {}%", parent.value),
                );
            }
        }
        self.policy.commitment_share = Some(Setting {
            value,
            origin: Some(self.origin(span)),
        });
    }

    fn on_rule(&mut self, span: &Span, rule: &Spanned<OnRule>) {
        let on = rule.node;
        if on.is_weakened() {
            let consequence = match on {
                OnRule::Mismatch(_) => {
                    "a plan that loses or alters a commitment would pass with a warning"
                }
                OnRule::Unclassified(_) => {
                    "content nobody classified could be dropped, and it may hold a commitment"
                }
                OnRule::OverBudget(_) => {
                    "commitments could be truncated to fit the budget instead of escalating"
                }
            };
            self.report(
                codes::weakened_invariant(on.subject(), on.action(), on.safe().action()).label(
                    self.file,
                    rule.span.clone(),
                    consequence,
                ),
            );
        }
        let parent_origin = self
            .parent
            .and_then(|parent| parent.on_rules.clone().origin(on).clone());
        if let Some(parent_origin) = parent_origin {
            if on.is_weakened() {
                self.weakens(
                    codes::rule_weakened(on.subject(), on.safe().action(), on.action()),
                    span,
                    "weakens the rule",
                    Some(&parent_origin),
                    format!(
                        "the parent says `on {} {}`",
                        on.subject(),
                        on.safe().action()
                    ),
                );
                // The weaker rule is not adopted: a child cannot loosen its parent.
                return;
            }
        }
        if !on.is_weakened() {
            *self.policy.on_rules.origin(on) = Some(self.origin(span));
        }
    }

    /// A `weakens-parent` finding: labels on this statement and the parent's.
    fn weakens(
        &mut self,
        diagnostic: Diagnostic,
        span: &Span,
        here: &str,
        parent: Option<&Origin>,
        there: String,
    ) {
        let mut diagnostic = diagnostic.label(self.file, span.clone(), here);
        if let Some(origin) = parent {
            diagnostic = diagnostic.label(&origin.file, origin.span.clone(), there);
        }
        self.report(diagnostic);
    }

    fn order(
        &mut self,
        statement: &Statement,
        before: &Spanned<Selector>,
        after: &Spanned<Selector>,
    ) {
        for selector in [before, after] {
            if let Selector::Identity { key, .. } = &selector.node {
                let length = key.chars().count();
                if key.contains('*') && length > crate::policy::selector::MAX_GLOB {
                    self.report(codes::glob_too_long(length).label(
                        self.file,
                        selector.span.clone(),
                        "too long",
                    ));
                    return;
                }
            }
        }
        let mut known = true;
        for selector in [before, after] {
            let kind = selector.node.kind();
            if self.policy.kind(kind).is_some() {
                continue;
            }
            known = false;
            if self.parent_unavailable {
                continue;
            }
            let names: Vec<&str> = self.policy.kinds.iter().map(|k| k.name.as_str()).collect();
            let suggestion = did_you_mean(kind, names.iter().copied());
            let reserved = RESERVED_KINDS.contains(&kind);
            self.report(
                codes::unknown_kind_in_order(kind, &names, reserved, suggestion).label(
                    self.file,
                    selector.span.clone(),
                    "not a declared kind",
                ),
            );
        }
        if known {
            let origin = self.origin(&statement.span);
            self.policy.orders.push(OrderRule {
                before: before.node.clone(),
                after: after.node.clone(),
                origin,
            });
        }
    }

    /// Cycles and redundant statements that involve this file's `order`
    /// statements (a parent's own are reported with the parent).
    fn check_order_graph(&mut self, first_child_order: usize) {
        let orders = &self.policy.orders;
        if let Some(rule) = orders.get(MAX_ORDERS) {
            let diagnostic = codes::too_many_orders(MAX_ORDERS).label(
                &rule.origin.file,
                rule.origin.span.clone(),
                format!("statement {} of {}", MAX_ORDERS + 1, orders.len()),
            );
            self.diagnostics.push(diagnostic);
            return;
        }
        let graph = OrderGraph::new(orders);
        let mut diagnostics = Vec::new();
        for cycle in graph.cycles() {
            if cycle.iter().all(|&i| i < first_child_order) {
                continue;
            }
            let first = &orders[cycle[0]];
            let mut path: Vec<String> = vec![format!("`{}`", first.before)];
            path.extend(cycle.iter().map(|&i| format!("`{}`", orders[i].after)));
            // The last statement's subject overlaps the first's; name the first
            // again when they are written differently, so the loop reads closed.
            let last = &orders[cycle[cycle.len() - 1]];
            if last.after != first.before {
                path.push(format!("`{}`", first.before));
            }
            let itself = (cycle.len() == 1).then(|| first.after.to_string());
            let mut diagnostic = codes::order_cycle(&path, itself.as_deref());
            for &i in &cycle {
                let rule = &orders[i];
                let label = if cycle.len() == 1 {
                    "must come before itself".to_owned()
                } else {
                    format!("`{}` before `{}`", rule.before, rule.after)
                };
                diagnostic = diagnostic.label(&rule.origin.file, rule.origin.span.clone(), label);
            }
            diagnostics.push(diagnostic);
        }
        let mut steps = 0;
        for (index, rule) in orders.iter().enumerate().skip(first_child_order) {
            let chain = match graph.implied_by(orders, index, &mut steps) {
                Ok(Some(chain)) => chain,
                Ok(None) => continue,
                Err(Stopped) => {
                    let unchecked = orders.len() - index;
                    diagnostics.push(
                        codes::redundant_order_stopped(MAX_SEARCH_STEPS, unchecked).label(
                            &rule.origin.file,
                            rule.origin.span.clone(),
                            "not checked from here on",
                        ),
                    );
                    break;
                }
            };
            let mut diagnostic = codes::redundant_order(&rule.as_written()).label(
                &rule.origin.file,
                rule.origin.span.clone(),
                "already implied",
            );
            for &i in &chain {
                let other = &orders[i];
                diagnostic =
                    diagnostic.label(&other.origin.file, other.origin.span.clone(), "implies it");
            }
            diagnostics.push(diagnostic);
        }
        self.diagnostics.extend(diagnostics);
    }
}

/// Policies checked together that share a name: reports about one would be
/// read as being about the other.
pub fn shared_names<'a>(policies: impl IntoIterator<Item = &'a Policy>) -> Vec<Diagnostic> {
    let mut first_by_name: Vec<(&str, &Origin)> = Vec::new();
    let mut diagnostics = Vec::new();
    for policy in policies {
        let (Some(name), Some(origin)) = (&policy.name, &policy.name_origin) else {
            continue;
        };
        match first_by_name.iter().find(|(seen, _)| seen == name) {
            Some((_, first)) if !Arc::ptr_eq(&first.file, &origin.file) => diagnostics.push(
                codes::shared_policy_name(name, first.file.name())
                    .label(&origin.file, origin.span.clone(), "named here")
                    .label(&first.file, first.span.clone(), "and here"),
            ),
            Some(_) => {}
            None => first_by_name.push((name, origin)),
        }
    }
    diagnostics
}
