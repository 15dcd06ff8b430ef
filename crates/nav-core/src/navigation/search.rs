//! The graph's adjacency in compressed rows, and the searches over it: A* for one route, a
//! union-find for the islands.

use core::cmp::Ordering;
use std::collections::BinaryHeap;

use super::graph::{EdgeKind, Graph};

/// What a route minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Weight {
    /// The sum over the route's steps of the 3D distance between the two cells' centres (a
    /// polygon cell's centre is the mean of its corners, as awpy defines it). Cells without a
    /// centre cannot be crossed.
    #[default]
    Distance,
    /// The number of steps.
    Hops,
}

impl Weight {
    /// The weight's name, as the CLI takes it (`distance`, `hops`).
    pub const fn name(self) -> &'static str {
        match self {
            Weight::Distance => "distance",
            Weight::Hops => "hops",
        }
    }
}

/// The directed edges, grouped by the cell they leave (sorted by target, then kind, without
/// repeats and without edges from a cell to itself, which no shortest route takes).
#[derive(Debug, Clone, Default)]
pub(crate) struct Adjacency {
    /// Where each cell's run starts in `targets` (one entry more than there are cells).
    offsets: Vec<usize>,
    /// The cells the edges reach.
    targets: Vec<u32>,
    /// The edges' kinds, beside `targets`.
    kinds: Vec<EdgeKind>,
    /// The 3D distance between each edge's two cells' centres, beside `targets` (NaN where
    /// either has none).
    lengths: Vec<f64>,
}

impl Adjacency {
    /// The adjacency of a consistent graph (edges naming missing cells are dropped), with
    /// each edge's length between `centres` (every cell's centre in `f64`, where it has one).
    pub(crate) fn build(graph: &Graph, centres: &[Option<[f64; 3]>]) -> Self {
        let n = graph.cells.len();
        let mut edges: Vec<(u32, u32, EdgeKind)> = graph
            .edges
            .iter()
            .filter(|e| e.from != e.to && (e.from as usize) < n && (e.to as usize) < n)
            .map(|e| (e.from, e.to, e.kind))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let mut offsets = vec![0usize; n + 1];
        for &(from, _, _) in &edges {
            if let Some(o) = offsets.get_mut(from as usize + 1) {
                *o += 1;
            }
        }
        for k in 1..offsets.len() {
            offsets[k] += offsets[k - 1];
        }
        let centre = |c: u32| centres.get(c as usize).copied().flatten();
        Adjacency {
            offsets,
            targets: edges.iter().map(|e| e.1).collect(),
            kinds: edges.iter().map(|e| e.2).collect(),
            lengths: edges
                .iter()
                .map(|e| match (centre(e.0), centre(e.1)) {
                    (Some(a), Some(b)) => distance(a, b),
                    _ => f64::NAN,
                })
                .collect(),
        }
    }

    /// The edges leaving `cell`: (target, kind).
    pub(crate) fn out(&self, cell: u32) -> impl Iterator<Item = (u32, EdgeKind)> + '_ {
        self.out_measured(cell).map(|(t, kind, _)| (t, kind))
    }

    /// The edges leaving `cell`: (target, kind, length).
    fn out_measured(&self, cell: u32) -> impl Iterator<Item = (u32, EdgeKind, f64)> + '_ {
        let i = cell as usize;
        let (a, b) = match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => (a, b),
            _ => (0, 0),
        };
        let targets = self.targets.get(a..b).unwrap_or_default();
        let kinds = self.kinds.get(a..b).unwrap_or_default();
        let lengths = self.lengths.get(a..b).unwrap_or_default();
        targets
            .iter()
            .zip(kinds)
            .zip(lengths)
            .map(|((&t, &k), &l)| (t, k, l))
    }

    /// Whether an edge of a kind followed under `walk_only` leads from `from` to `to`.
    pub(crate) fn follows(&self, from: u32, to: u32, walk_only: bool) -> bool {
        self.out(from)
            .any(|(t, kind)| t == to && kind.followed(walk_only))
    }

    /// How many distinct edges the adjacency holds.
    pub(crate) fn len(&self) -> usize {
        self.targets.len()
    }

    /// The connected components over the edges followed under `walk_only`, each edge taken both
    /// ways: largest first, ties by smallest cell index; cells sorted.
    pub(crate) fn islands(&self, cells: usize, walk_only: bool) -> Vec<Vec<u32>> {
        let mut parent: Vec<u32> = (0..cells).map(index_u32).collect();
        for from in 0..cells {
            let from = index_u32(from);
            for (to, kind) in self.out(from) {
                if kind.followed(walk_only) {
                    union(&mut parent, from, to);
                }
            }
        }
        // Group by root, in index order, so each island's cells come out sorted.
        let mut slot = vec![u32::MAX; cells];
        let mut islands: Vec<Vec<u32>> = Vec::new();
        for i in 0..cells {
            let i = index_u32(i);
            let root = find(&mut parent, i) as usize;
            let Some(s) = slot.get_mut(root) else {
                continue;
            };
            if *s == u32::MAX {
                *s = index_u32(islands.len());
                islands.push(Vec::new());
            }
            if let Some(island) = islands.get_mut(*s as usize) {
                island.push(i);
            }
        }
        // Islands were made in order of their smallest cell; a stable sort keeps that for ties.
        islands.sort_by_key(|island| core::cmp::Reverse(island.len()));
        islands
    }

    /// The cheapest route from `from` to `to` (both cells of the graph, different), or `None`
    /// when none follows the edges. `centres` holds every cell's centre in `f64` (needed for
    /// [`Weight::Distance`], where a cell without one is never entered and `to` must have one).
    pub(crate) fn astar(
        &self,
        centres: &[Option<[f64; 3]>],
        from: u32,
        to: u32,
        weight: Weight,
        walk_only: bool,
    ) -> Option<(Vec<u32>, f64)> {
        let n = centres.len();
        let goal = centres.get(to as usize).copied().flatten();
        let heuristic = |cell: u32| -> f64 {
            match (weight, goal, centres.get(cell as usize).copied().flatten()) {
                (Weight::Distance, Some(g), Some(c)) => distance(c, g),
                _ => 0.0,
            }
        };
        let mut best = vec![f64::INFINITY; n];
        let mut previous = vec![u32::MAX; n];
        let mut closed = vec![false; n];
        *best.get_mut(from as usize)? = 0.0;
        let mut open = BinaryHeap::new();
        open.push(Open {
            estimate: heuristic(from),
            cell: from,
        });
        while let Some(Open { cell, .. }) = open.pop() {
            // The first pop of a cell is its cheapest (the heuristic is consistent); later ones
            // are stale entries.
            match closed.get_mut(cell as usize) {
                Some(done) if !*done => *done = true,
                _ => continue,
            }
            let here = best.get(cell as usize).copied().unwrap_or(f64::INFINITY);
            if cell == to {
                return Some((trace(&previous, from, to)?, here));
            }
            for (next, kind, length) in self.out_measured(cell) {
                let step = match weight {
                    Weight::Hops => 1.0,
                    Weight::Distance => length, // NaN where a centre is missing: never taken
                };
                let cost = here + step;
                let Some(known) = best.get_mut(next as usize) else {
                    continue;
                };
                // A closed cell keeps its route (rounding could otherwise relink it in a loop).
                let open_still = closed.get(next as usize).is_some_and(|done| !done);
                if cost < *known && open_still && kind.followed(walk_only) {
                    *known = cost;
                    if let Some(p) = previous.get_mut(next as usize) {
                        *p = cell;
                    }
                    open.push(Open {
                        estimate: cost + heuristic(next),
                        cell: next,
                    });
                }
            }
        }
        None
    }
}

/// The cells from `from` to `to` along `previous`, or `None` if the chain breaks or loops.
fn trace(previous: &[u32], from: u32, to: u32) -> Option<Vec<u32>> {
    let mut cells = vec![to];
    let mut at = to;
    while at != from {
        at = *previous.get(at as usize)?;
        cells.push(at);
        if cells.len() > previous.len() {
            return None;
        }
    }
    cells.reverse();
    Some(cells)
}

/// The 3D distance between two points.
pub(crate) fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (dx, dy, dz) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    (dx * dx + dy * dy + dz * dz).sqrt()
}

/// An index below a graph's cell count as `u32` (graphs store cells by `u32` index, and
/// [`Graph::is_consistent`] holds for every graph searched).
fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The root of `i`'s set, halving the path on the way.
fn find(parent: &mut [u32], mut i: u32) -> u32 {
    loop {
        let Some(&p) = parent.get(i as usize) else {
            return i;
        };
        if p == i {
            return i;
        }
        let grand = parent.get(p as usize).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(i as usize) {
            *slot = grand;
        }
        i = grand;
    }
}

/// Joins the sets of `a` and `b` (the smaller root becomes the parent, so roots stay minimal).
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    let (low, high) = if ra < rb { (ra, rb) } else { (rb, ra) };
    if let Some(slot) = parent.get_mut(high as usize) {
        *slot = low;
    }
}

/// An entry of the open list: cheapest estimate first, then the smaller cell index, so
/// searches are deterministic.
#[derive(Debug, Clone, Copy)]
struct Open {
    estimate: f64,
    cell: u32,
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .estimate
            .total_cmp(&self.estimate)
            .then(other.cell.cmp(&self.cell))
    }
}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Open {}
