//! The order checks: `preserve order` (the commitments outside a longest
//! run already in trace order moved) and `order A before B` (a plan may not
//! invert a pair the trace has in the required order).

use crate::diagnostics::codes::verify as codes;
use crate::policy::ast::Selector;
use crate::policy::quote_selector;
use crate::verify::findings::Anchor;
use crate::verify::verifier::Verifier;

impl Verifier<'_> {
    /// `preserve order`: the commitments that must move are those outside a
    /// longest run already in trace order; each is reported once, against a
    /// neighbour it is out of order with.
    pub(super) fn preserve_order(&mut self) {
        let Some(origin) = self.policy().preserve_order.clone() else {
            return;
        };
        let sequence = &self.sequence;
        let in_order = longest_increasing(sequence.iter().map(|(_, c)| *c));
        // The next element of the in-order run after each position, found
        // in one pass from the end, so the check stays linear after sorting.
        let mut next_in_order = vec![None; sequence.len() + 1];
        for k in (0..sequence.len()).rev() {
            next_in_order[k] = if in_order[k] {
                Some(k)
            } else {
                next_in_order[k + 1]
            };
        }
        let mut last_in_order: Option<usize> = None;
        let mut violations = Vec::new();
        for (k, &(_, c)) in sequence.iter().enumerate() {
            if in_order[k] {
                last_in_order = Some(k);
                continue;
            }
            let pair = match last_in_order {
                Some(l) if sequence[l].1 > c => Some((l, k)),
                _ => next_in_order[k + 1]
                    .filter(|&m| sequence[m].1 < c)
                    .map(|m| (k, m)),
            };
            if let Some(pair) = pair {
                violations.push(pair);
            }
        }
        // Each pair is (earlier in the plan, later in the plan); the one
        // outside the in-order run is the one that moved.
        for (first, second) in violations {
            let (p1, c1) = self.sequence[first];
            let (p2, c2) = self.sequence[second];
            let first_moved = !in_order[first];
            let (a, b) = (self.identity(c1), self.identity(c2));
            let anchor = if first_moved { p1 } else { p2 };
            let diagnostic = codes::order_moved(&a, &b, first_moved);
            let diagnostic = self.plan_label(
                diagnostic,
                p1,
                self.plan.regions[p1].place.span.clone(),
                format!("`{a}` at plan position {}", p1 + 1),
            );
            let diagnostic = self.plan_label(
                diagnostic,
                p2,
                self.plan.regions[p2].place.span.clone(),
                format!("`{b}` at plan position {}", p2 + 1),
            );
            let diagnostic = diagnostic.label(
                &origin.file,
                origin.span.clone(),
                "commitments keep their trace order",
            );
            self.push(Anchor::Plan(anchor), diagnostic);
        }
    }

    /// `order A before B`: the plan must not invert a pair that the trace
    /// has in the required order. A pair the trace itself has inverted is not the
    /// compaction's doing: it is reported once per rule, as a warning.
    pub(super) fn order_rules(&mut self) {
        let policy = self.policy();
        for rule in &policy.orders {
            let matches = |selector: &Selector, c: usize| {
                (self.index.commitment_of(c)).is_some_and(|(kind, key)| selector.matches(kind, key))
            };
            // Plan order: the B seen so far that stands latest in the trace.
            let mut latest_b: Option<(usize, usize)> = None;
            let mut introduced: Option<((usize, usize), (usize, usize))> = None;
            for &(p, c) in &self.sequence {
                if matches(&rule.before, c) {
                    if let Some((pb, cb)) = latest_b.filter(|&(_, cb)| cb > c) {
                        introduced = Some(((p, c), (pb, cb)));
                        break;
                    }
                }
                if matches(&rule.after, c) && latest_b.is_none_or(|(_, cb)| c > cb) {
                    latest_b = Some((p, c));
                }
            }
            if let Some(((pa, ca), (pb, cb))) = introduced {
                let (a, b) = (self.identity(ca), self.identity(cb));
                let diagnostic = codes::order_rule_inverted(&a, &b, &rule.as_written());
                let diagnostic = self.plan_label(
                    diagnostic,
                    pb,
                    self.plan.regions[pb].place.span.clone(),
                    format!("`{b}` at plan position {}", pb + 1),
                );
                let diagnostic = self.plan_label(
                    diagnostic,
                    pa,
                    self.plan.regions[pa].place.span.clone(),
                    format!("`{a}` at plan position {}", pa + 1),
                );
                let statement = format!(
                    "requires {} before {}",
                    quote_selector(&rule.before),
                    quote_selector(&rule.after)
                );
                let diagnostic =
                    diagnostic.label(&rule.origin.file, rule.origin.span.clone(), statement);
                self.push(Anchor::Plan(pb), diagnostic);
            }
            self.inverted_in_trace(rule);
        }
    }

    /// A pair the trace already has against `rule`: the first B followed later by an A.
    fn inverted_in_trace(&mut self, rule: &crate::policy::OrderRule) {
        let index = &self.index;
        let matches = |selector: &Selector, t: usize| {
            (index.commitment_of(t)).is_some_and(|(kind, key)| selector.matches(kind, key))
        };
        let Some(first_b) = (0..index.len()).find(|&t| matches(&rule.after, t)) else {
            return;
        };
        let Some(later_a) = (first_b + 1..index.len()).find(|&t| matches(&rule.before, t)) else {
            return;
        };
        let (a, b) = (self.identity(later_a), self.identity(first_b));
        let diagnostic = codes::order_inverted_in_trace(&a, &b, &rule.as_written());
        let diagnostic = self.trace_label(
            diagnostic,
            first_b,
            self.index.opening(first_b),
            format!("`{b}` here"),
        );
        let diagnostic = self.trace_label(
            diagnostic,
            later_a,
            self.index.opening(later_a),
            format!("`{a}` only here"),
        );
        let diagnostic = diagnostic.label(&rule.origin.file, rule.origin.span.clone(), "the rule");
        self.push(Anchor::Trace(later_a), diagnostic);
    }
}

/// Marks the elements of a longest strictly increasing subsequence
/// (patience sorting, n log n).
fn longest_increasing(values: impl Iterator<Item = usize>) -> Vec<bool> {
    let values: Vec<usize> = values.collect();
    let mut tails: Vec<usize> = Vec::new();
    let mut previous: Vec<Option<usize>> = vec![None; values.len()];
    for (i, &value) in values.iter().enumerate() {
        let position = tails.partition_point(|&t| values[t] < value);
        previous[i] = position.checked_sub(1).map(|p| tails[p]);
        if position == tails.len() {
            tails.push(i);
        } else {
            tails[position] = i;
        }
    }
    let mut marked = vec![false; values.len()];
    let mut current = tails.last().copied();
    while let Some(i) = current {
        marked[i] = true;
        current = previous[i];
    }
    marked
}

#[cfg(test)]
mod tests {
    use super::longest_increasing;

    #[test]
    fn longest_run_in_order() {
        assert_eq!(
            longest_increasing([1, 3, 5, 8, 6].into_iter()),
            [true, true, true, false, true]
        );
        assert_eq!(
            longest_increasing([5, 1, 2, 3].into_iter()),
            [false, true, true, true]
        );
        assert!(longest_increasing(std::iter::empty()).is_empty());
    }
}
