//! The ordering invariants as a graph. Each node is an `order` statement,
//! added in source order so every result is deterministic; an edge `i -> j`
//! says that statement `j` continues the chain of `i`: some commitment that
//! must come after `i`'s subject is one that must come before `j`'s.

use std::collections::VecDeque;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::policy::OrderRule;

/// The most `order` statements a policy (with its parents) may hold: each
/// pair is compared to find cycles.
pub const MAX_ORDERS: usize = 2048;

/// The most edges the search for redundant statements follows, over all
/// statements of a policy; past it the search stops and says so.
pub const MAX_SEARCH_STEPS: u64 = 20_000_000;

/// The search for redundant statements reached [`MAX_SEARCH_STEPS`].
#[derive(Debug)]
pub struct Stopped;

#[derive(Debug)]
pub struct OrderGraph {
    graph: DiGraph<usize, ()>,
    /// Each statement's strongly connected component.
    component: Vec<usize>,
    /// Whether each statement is on a cycle (its strongly connected
    /// component has more than one statement, or it follows itself).
    cyclic: Vec<bool>,
}

impl OrderGraph {
    pub fn new(rules: &[OrderRule]) -> Self {
        let mut graph = DiGraph::with_capacity(rules.len(), rules.len());
        for index in 0..rules.len() {
            graph.add_node(index);
        }
        for (i, first) in rules.iter().enumerate() {
            for (j, next) in rules.iter().enumerate() {
                if first.after.overlaps(&next.before) {
                    graph.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
                }
            }
        }
        let mut component = vec![0; rules.len()];
        let mut cyclic = vec![false; rules.len()];
        for (id, members) in tarjan_scc(&graph).into_iter().enumerate() {
            let looped = match members.as_slice() {
                [only] => graph.contains_edge(*only, *only),
                _ => true,
            };
            for node in members {
                component[node.index()] = id;
                cyclic[node.index()] = looped;
            }
        }
        OrderGraph {
            graph,
            component,
            cyclic,
        }
    }

    /// One cycle per strongly connected component that has one, as
    /// statement indices starting at the earliest statement of the component,
    /// ordered by that statement.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut earliest: Vec<Option<usize>> = vec![None; self.component.len()];
        for (node, &id) in self.component.iter().enumerate() {
            if self.cyclic[node] && earliest[id].is_none() {
                earliest[id] = Some(node);
            }
        }
        let mut cycles: Vec<Vec<usize>> = earliest
            .into_iter()
            .flatten()
            .filter_map(|start| {
                let id = self.component[start];
                let inside = |node: NodeIndex| self.component[node.index()] == id;
                let mut unbounded = 0;
                let start = NodeIndex::new(start);
                let path = self
                    .search(
                        &[start],
                        |node| node == start,
                        inside,
                        &mut unbounded,
                        u64::MAX,
                    )
                    .ok()??;
                // The path ends back at `start`; the cycle is the rest.
                Some(path[..path.len() - 1].to_vec())
            })
            .collect();
        cycles.sort();
        cycles
    }

    /// The shortest chain of other statements that implies statement `index`,
    /// if there is one. Statements on a cycle imply everything and are not
    /// judged here: the cycle is reported instead. `steps` counts the edges
    /// followed, over all calls; past [`MAX_SEARCH_STEPS`] the search stops.
    pub fn implied_by(
        &self,
        rules: &[OrderRule],
        index: usize,
        steps: &mut u64,
    ) -> Result<Option<Vec<usize>>, Stopped> {
        let rule = &rules[index];
        let node = NodeIndex::new(index);
        if self.on_cycle(node) {
            return Ok(None);
        }
        let goal = |n: NodeIndex| n != node && rules[n.index()].after.contains(&rule.after);
        let mut starts = Vec::new();
        for (start, first) in rules.iter().enumerate() {
            if start == index || !first.before.contains(&rule.before) {
                continue;
            }
            if goal(NodeIndex::new(start)) {
                // Two statements that say the same thing: only the later one is redundant.
                let other = &rules[start];
                let same = other.before.contains(&rule.before)
                    && rule.before.contains(&other.before)
                    && other.after.contains(&rule.after)
                    && rule.after.contains(&other.after);
                if same && start > index {
                    continue;
                }
                return Ok(Some(vec![start]));
            }
            starts.push(NodeIndex::new(start));
        }
        // From every start at once: the first goal reached ends the shortest chain.
        self.search(&starts, goal, |n| n != node, steps, MAX_SEARCH_STEPS)
    }

    fn on_cycle(&self, node: NodeIndex) -> bool {
        self.cyclic.get(node.index()).copied().unwrap_or(false)
    }

    /// Breadth-first search from `starts` (in order) to a node meeting
    /// `goal`, through nodes meeting `allowed`; returns the statements from
    /// a start to that node. Each edge followed adds one to `steps`; past
    /// `limit` the search stops.
    fn search(
        &self,
        starts: &[NodeIndex],
        goal: impl Fn(NodeIndex) -> bool,
        allowed: impl Fn(NodeIndex) -> bool,
        steps: &mut u64,
        limit: u64,
    ) -> Result<Option<Vec<usize>>, Stopped> {
        let mut parent: Vec<Option<NodeIndex>> = vec![None; self.graph.node_count()];
        let mut seen = vec![false; self.graph.node_count()];
        for start in starts {
            seen[start.index()] = true;
        }
        let mut queue: VecDeque<NodeIndex> = starts.iter().copied().collect();
        while let Some(node) = queue.pop_front() {
            let mut next: Vec<NodeIndex> =
                self.graph.edges(node).map(|edge| edge.target()).collect();
            next.sort();
            *steps = steps.saturating_add(next.len() as u64);
            if *steps > limit {
                return Err(Stopped);
            }
            for target in next {
                if !allowed(target) {
                    continue;
                }
                if goal(target) {
                    let mut path = vec![target.index(), node.index()];
                    let mut current = node;
                    while let Some(previous) = parent[current.index()] {
                        path.push(previous.index());
                        current = previous;
                    }
                    path.reverse();
                    return Ok(Some(path));
                }
                if !seen[target.index()] {
                    seen[target.index()] = true;
                    parent[target.index()] = Some(node);
                    queue.push_back(target);
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::policy::load::Loader;
    use crate::source::SourceFile;

    fn rules(statements: &[(usize, usize)]) -> Vec<OrderRule> {
        const SELECTORS: [&str; 7] = ["a", "b", "c", "\"a:x\"", "\"a:x*\"", "\"b:*\"", "\"c:y\""];
        let text: String = std::iter::once("kind a\nkind b\nkind c\n".to_owned())
            .chain(statements.iter().map(|&(before, after)| {
                format!("order {} before {}\n", SELECTORS[before], SELECTORS[after])
            }))
            .collect();
        let mut loader = Loader::new();
        let loaded = loader.load_source(SourceFile::new("p.policy", &text), None);
        loaded
            .policy
            .as_ref()
            .map(|policy| policy.orders.clone())
            .unwrap_or_default()
    }

    /// The shortest implying chain by the obvious search: every chain of
    /// other statements, shortest first (statements at most 6, so it ends).
    fn oracle(rules: &[OrderRule], index: usize) -> Option<usize> {
        let rule = &rules[index];
        let n = rules.len();
        let same = |o: usize| {
            let other = &rules[o];
            other.before.contains(&rule.before)
                && rule.before.contains(&other.before)
                && other.after.contains(&rule.after)
                && rule.after.contains(&other.after)
        };
        // A later statement that says the same thing is the redundant one of
        // the two: no chain starts from it.
        let mut chains: Vec<Vec<usize>> = (0..n)
            .filter(|&s| s != index && rules[s].before.contains(&rule.before))
            .filter(|&s| !(same(s) && s > index))
            .map(|s| vec![s])
            .collect();
        for length in 1..=n {
            for chain in &chains {
                if rules[chain[chain.len() - 1]].after.contains(&rule.after) {
                    return Some(length);
                }
            }
            chains = chains
                .iter()
                .flat_map(|chain| {
                    let last = chain[chain.len() - 1];
                    (0..n)
                        .filter(move |&next| {
                            next != index
                                && !chain.contains(&next)
                                && rules[last].after.overlaps(&rules[next].before)
                        })
                        .map(move |next| [chain.as_slice(), &[next]].concat())
                })
                .collect();
        }
        None
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// The search from every start at once finds a chain exactly when
        /// one exists, and one as short as the shortest.
        #[test]
        fn implied_by_agrees_with_the_obvious_search(
            statements in prop::collection::vec((0usize..7, 0usize..7), 1..7)
        ) {
            let rules = rules(&statements);
            let graph = OrderGraph::new(&rules);
            for index in 0..rules.len() {
                if graph.on_cycle(NodeIndex::new(index)) {
                    continue;
                }
                let mut steps = 0;
                let found = graph.implied_by(&rules, index, &mut steps).ok().flatten();
                prop_assert_eq!(found.as_ref().map(Vec::len), oracle(&rules, index));
                if let Some(chain) = found {
                    let rule = &rules[index];
                    prop_assert!(!chain.contains(&index));
                    prop_assert!(rules[chain[0]].before.contains(&rule.before));
                    prop_assert!(rules[chain[chain.len() - 1]].after.contains(&rule.after));
                    for pair in chain.windows(2) {
                        prop_assert!(rules[pair[0]].after.overlaps(&rules[pair[1]].before));
                    }
                }
            }
        }
    }
}
