//! The ordering invariants as a graph. Each node is an `order` statement,
//! added in source order so every result is deterministic; an edge `i -> j`
//! says that statement `j` continues the chain of `i`: some commitment that
//! must come after `i`'s subject is one that must come before `j`'s.

use std::collections::VecDeque;

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

use crate::policy::OrderRule;

#[derive(Debug)]
pub struct OrderGraph {
    graph: DiGraph<usize, ()>,
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
        let mut cyclic = vec![false; rules.len()];
        for component in tarjan_scc(&graph) {
            let looped = match component.as_slice() {
                [only] => graph.contains_edge(*only, *only),
                _ => true,
            };
            for node in component {
                cyclic[node.index()] = looped;
            }
        }
        OrderGraph { graph, cyclic }
    }

    /// One cycle per strongly connected component that has one, as
    /// statement indices starting at the earliest statement of the component,
    /// ordered by that statement.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut cycles: Vec<Vec<usize>> = tarjan_scc(&self.graph)
            .into_iter()
            .filter_map(|component| {
                let start = *component.iter().min()?;
                let inside = |node: NodeIndex| component.contains(&node);
                let path = self.path(start, |node| node == start, inside)?;
                // The path ends back at `start`; the cycle begins there.
                let rest = path[..path.len() - 1].iter().map(|node| node.index());
                Some(std::iter::once(start.index()).chain(rest).collect())
            })
            .collect();
        cycles.sort();
        cycles
    }

    /// The shortest chain of other statements that implies statement `index`,
    /// if there is one. Statements on a cycle imply everything and are not
    /// judged here: the cycle is reported instead.
    pub fn implied_by(&self, rules: &[OrderRule], index: usize) -> Option<Vec<usize>> {
        let rule = &rules[index];
        let node = NodeIndex::new(index);
        if self.on_cycle(node) {
            return None;
        }
        let mut best: Option<Vec<usize>> = None;
        for (start, first) in rules.iter().enumerate() {
            if start == index || !first.before.contains(&rule.before) {
                continue;
            }
            let goal = |n: NodeIndex| n != node && rules[n.index()].after.contains(&rule.after);
            let chain = if goal(NodeIndex::new(start)) {
                vec![start]
            } else {
                let Some(path) = self.path(NodeIndex::new(start), goal, |n| n != node) else {
                    continue;
                };
                std::iter::once(start)
                    .chain(path.into_iter().map(NodeIndex::index))
                    .collect()
            };
            // Two statements that say the same thing: only the later one is redundant.
            if let [other] = chain.as_slice() {
                let same = rules[*other].before.contains(&rule.before)
                    && rule.before.contains(&rules[*other].before)
                    && rules[*other].after.contains(&rule.after)
                    && rule.after.contains(&rules[*other].after);
                if same && *other > index {
                    continue;
                }
            }
            if best.as_ref().is_none_or(|b| chain.len() < b.len()) {
                best = Some(chain);
            }
        }
        best
    }

    fn on_cycle(&self, node: NodeIndex) -> bool {
        self.cyclic.get(node.index()).copied().unwrap_or(false)
    }

    /// Breadth-first search from the successors of `from` to a node meeting
    /// `goal`, through nodes meeting `allowed`; returns the nodes after `from`.
    fn path(
        &self,
        from: impl Into<NodeIndex>,
        goal: impl Fn(NodeIndex) -> bool,
        allowed: impl Fn(NodeIndex) -> bool,
    ) -> Option<Vec<NodeIndex>> {
        let from = from.into();
        let mut parent: Vec<Option<NodeIndex>> = vec![None; self.graph.node_count()];
        let mut seen = vec![false; self.graph.node_count()];
        let mut queue = VecDeque::new();
        let mut successors = |node: NodeIndex,
                              queue: &mut VecDeque<NodeIndex>,
                              parent: &mut Vec<Option<NodeIndex>>| {
            let mut next: Vec<NodeIndex> =
                self.graph.edges(node).map(|edge| edge.target()).collect();
            next.sort();
            for target in next {
                if !seen[target.index()] && allowed(target) {
                    seen[target.index()] = true;
                    parent[target.index()] = Some(node);
                    queue.push_back(target);
                }
            }
        };
        successors(from, &mut queue, &mut parent);
        while let Some(node) = queue.pop_front() {
            if goal(node) {
                let mut path = vec![node];
                let mut current = node;
                while let Some(previous) = parent[current.index()] {
                    if previous == from {
                        break;
                    }
                    path.push(previous);
                    current = previous;
                }
                path.reverse();
                return Some(path);
            }
            successors(node, &mut queue, &mut parent);
        }
        None
    }
}
