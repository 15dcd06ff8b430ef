//! The graph's adjacency in compressed rows, and the searches over it: A* for one route, a
//! union-find for the islands.

use core::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Mutex;

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
    /// Where each cell's run starts in `edges` (one entry more than there are cells).
    offsets: Vec<usize>,
    /// The edges, each with what a search reads of it side by side (one cache line holds four).
    edges: Vec<Out>,
}

/// One edge of a cell's run in [`Adjacency`].
#[derive(Debug, Clone, Copy)]
struct Out {
    /// The cell the edge reaches.
    target: u32,
    /// The edge's kind.
    kind: EdgeKind,
    /// Which searches follow it: [`FOLLOWED_ANY`] and/or [`FOLLOWED_WALKING`].
    followed: u8,
    /// The 3D distance between the two cells' centres (NaN where either has none).
    length: f64,
}

/// [`Out::followed`]: the edge is followed by a search that takes every kind.
const FOLLOWED_ANY: u8 = 1;
/// [`Out::followed`]: the edge is followed by a search that walks only.
const FOLLOWED_WALKING: u8 = 2;

/// The bit of [`Out::followed`] a search under `walk_only` asks for.
const fn followed_bit(walk_only: bool) -> u8 {
    if walk_only {
        FOLLOWED_WALKING
    } else {
        FOLLOWED_ANY
    }
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
        let offsets = row_offsets(n, edges.iter().map(|&(from, _, _)| from));
        let centre = |c: u32| centres.get(c as usize).copied().flatten();
        let edges = edges
            .iter()
            .map(|&(from, target, kind)| Out {
                target,
                kind,
                followed: [false, true]
                    .into_iter()
                    .filter(|&walk_only| kind.followed(walk_only))
                    .fold(0, |bits, walk_only| bits | followed_bit(walk_only)),
                length: match (centre(from), centre(target)) {
                    (Some(a), Some(b)) => distance(a, b),
                    _ => f64::NAN,
                },
            })
            .collect();
        Adjacency { offsets, edges }
    }

    /// The edges leaving `cell`: (target, kind).
    pub(crate) fn out(&self, cell: u32) -> impl Iterator<Item = (u32, EdgeKind)> + '_ {
        self.run(cell).iter().map(|e| (e.target, e.kind))
    }

    /// The edges leaving `cell`.
    #[inline]
    fn run(&self, cell: u32) -> &[Out] {
        let i = cell as usize;
        match (self.offsets.get(i), self.offsets.get(i + 1)) {
            (Some(&a), Some(&b)) => self.edges.get(a..b).unwrap_or_default(),
            _ => &[],
        }
    }

    /// Whether an edge of a kind followed under `walk_only` leads from `from` to `to`.
    pub(crate) fn follows(&self, from: u32, to: u32, walk_only: bool) -> bool {
        self.out(from)
            .any(|(t, kind)| t == to && kind.followed(walk_only))
    }

    /// How many distinct edges the adjacency holds.
    pub(crate) fn len(&self) -> usize {
        self.edges.len()
    }

    /// Each cell's connected component over the edges followed under `walk_only`, each edge
    /// taken both ways, as a label: the smallest cell index of the component. No route can join
    /// two cells of different labels, whatever the weight.
    pub(crate) fn components(&self, cells: usize, walk_only: bool) -> Vec<u32> {
        let mut parent: Vec<u32> = (0..cells).map(index_u32).collect();
        for from in 0..cells {
            let from = index_u32(from);
            for (to, kind) in self.out(from) {
                if kind.followed(walk_only) {
                    union(&mut parent, from, to);
                }
            }
        }
        for i in 0..cells {
            let root = find(&mut parent, index_u32(i));
            if let Some(slot) = parent.get_mut(i) {
                *slot = root;
            }
        }
        parent
    }

    /// The same edges, each turned round: the adjacency of the graph with every edge reversed.
    pub(crate) fn reversed(&self) -> Self {
        let n = self.offsets.len().saturating_sub(1);
        let offsets = row_offsets(n, self.edges.iter().map(|e| e.target));
        let mut next = offsets.clone();
        let mut edges = vec![
            Out {
                target: 0,
                kind: EdgeKind::Walk,
                followed: 0,
                length: f64::NAN,
            };
            self.edges.len()
        ];
        for from in 0..n {
            let from_u32 = index_u32(from);
            for edge in self.run(from_u32) {
                let Some(at) = next.get_mut(edge.target as usize) else {
                    continue;
                };
                if let Some(slot) = edges.get_mut(*at) {
                    *slot = Out {
                        target: from_u32,
                        ..*edge
                    };
                }
                *at += 1;
            }
        }
        Adjacency { offsets, edges }
    }

    /// The cost of the cheapest route from `source` to every cell under `weight` and
    /// `walk_only` (infinite where there is none): Dijkstra over the edges, each step costing what
    /// it costs in [`Adjacency::astar`].
    pub(crate) fn distances(&self, source: u32, weight: Weight, walk_only: bool) -> Vec<f64> {
        let n = self.offsets.len().saturating_sub(1);
        let mut best = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        let mut open = BinaryHeap::new();
        if let Some(b) = best.get_mut(source as usize) {
            *b = 0.0;
            open.push(Reverse((order_key(0.0), source)));
        }
        let wanted = followed_bit(walk_only);
        while let Some(Reverse((_, cell))) = open.pop() {
            let here = match (done.get_mut(cell as usize), best.get(cell as usize)) {
                (Some(d), Some(&b)) if !*d => {
                    *d = true;
                    b
                }
                _ => continue,
            };
            for edge in self.run(cell) {
                if edge.followed & wanted == 0 {
                    continue;
                }
                let cost = here + step_cost(weight, edge);
                if let Some(b) = best.get_mut(edge.target as usize) {
                    if cost < *b {
                        *b = cost;
                        open.push(Reverse((order_key(cost), edge.target)));
                    }
                }
            }
        }
        best
    }

    /// The cheapest route from `from` to `to` (both cells of the graph, different), or `None`
    /// when none follows the edges. `centres` holds every cell's centre in `f64` (needed for
    /// [`Weight::Distance`], where a cell without one is never entered and `to` must have one).
    /// `bound` gives, for a cell, a lower bound of its cost to `to` that the search may use
    /// besides the straight line (0.0 for none; infinite where `to` cannot be reached from
    /// it); it must be consistent with the edges' costs, up to rounding. `scratch` is the
    /// per-cell state, reused from one search to the next.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn astar(
        &self,
        centres: &[Option<[f64; 3]>],
        (from, to): (u32, u32),
        weight: Weight,
        walk_only: bool,
        bound: impl Fn(u32) -> f64,
        scratch: &mut Scratch,
    ) -> Option<(Vec<u32>, f64)> {
        let goal = centres.get(to as usize).copied().flatten();
        let heuristic = |cell: u32| -> f64 {
            let straight = match (weight, goal, centres.get(cell as usize).copied().flatten()) {
                (Weight::Distance, Some(g), Some(c)) => distance(c, g),
                _ => 0.0,
            };
            straight.max(bound(cell))
        };
        let stamp = scratch.begin(centres.len());
        let Scratch { slots, open, .. } = scratch;
        let start = slots.get_mut(from as usize)?;
        *start = Slot::fresh(stamp);
        start.best = 0.0;
        start.heuristic = heuristic(from);
        if start.heuristic == f64::INFINITY {
            return None;
        }
        open.push(Reverse((order_key(start.heuristic), from)));
        let wanted = followed_bit(walk_only);
        while let Some(Reverse((_, cell))) = open.pop() {
            // The first pop of a cell is its cheapest (the heuristic is consistent); later ones
            // are stale entries.
            let here = match slots.get_mut(cell as usize) {
                Some(slot) if slot.closed != stamp => {
                    slot.closed = stamp;
                    slot.best
                }
                _ => continue,
            };
            if cell == to {
                return Some((trace(slots, stamp, from, to)?, here));
            }
            for edge in self.run(cell) {
                if edge.followed & wanted == 0 {
                    continue;
                }
                let cost = here + step_cost(weight, edge);
                let Some(next) = slots.get_mut(edge.target as usize) else {
                    continue;
                };
                if next.seen != stamp {
                    *next = Slot::fresh(stamp);
                }
                // A closed cell keeps its route (rounding could otherwise relink it in a loop).
                if cost < next.best && next.closed != stamp {
                    next.best = cost;
                    next.previous = cell;
                    if next.heuristic.is_nan() {
                        next.heuristic = heuristic(edge.target);
                    }
                    if next.heuristic == f64::INFINITY {
                        continue; // `to` cannot be reached from there
                    }
                    open.push(Reverse((order_key(cost + next.heuristic), edge.target)));
                }
            }
        }
        None
    }
}

/// Where each of `n` rows starts in a list of edges sorted by row, given each edge's row (one
/// entry more than there are rows; rows past `n` are not counted).
fn row_offsets(n: usize, rows: impl Iterator<Item = u32>) -> Vec<usize> {
    let mut offsets = vec![0usize; n + 1];
    for row in rows {
        if let Some(o) = offsets.get_mut(row as usize + 1) {
            *o += 1;
        }
    }
    for k in 1..offsets.len() {
        offsets[k] += offsets[k - 1];
    }
    offsets
}

/// What following `edge` costs under `weight` (NaN under [`Weight::Distance`] where either cell
/// has no centre: such a step is never taken, every comparison with NaN being false).
#[inline]
fn step_cost(weight: Weight, edge: &Out) -> f64 {
    match weight {
        Weight::Hops => 1.0,
        Weight::Distance => edge.length,
    }
}

/// The islands of the component labels `roots` ([`Adjacency::components`]): largest first,
/// ties by smallest cell index; cells sorted.
pub(crate) fn islands(roots: &[u32]) -> Vec<Vec<u32>> {
    // Group by root, in index order, so each island's cells come out sorted.
    let mut slot = vec![u32::MAX; roots.len()];
    let mut islands: Vec<Vec<u32>> = Vec::new();
    for (i, &root) in roots.iter().enumerate() {
        let i = index_u32(i);
        let Some(s) = slot.get_mut(root as usize) else {
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

/// What a search knows of one cell; valid only where `seen` is the search's stamp.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    /// The cheapest cost found so far from the start.
    best: f64,
    /// The heuristic from the cell to the goal, once computed (NaN until then).
    heuristic: f64,
    /// The cell the cheapest route so far comes from.
    previous: u32,
    /// The stamp of the search that last reached the cell.
    seen: u32,
    /// The stamp of the search that last closed the cell.
    closed: u32,
}

impl Slot {
    /// A cell first reached by the search of `stamp`.
    fn fresh(stamp: u32) -> Self {
        Slot {
            best: f64::INFINITY,
            heuristic: f64::NAN,
            previous: u32::MAX,
            seen: stamp,
            closed: 0,
        }
    }
}

/// The state of a search, kept from one search to the next so that none allocates or clears
/// an array per cell: each search takes a new stamp, and a cell's slot counts only where it
/// holds that stamp.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    /// One slot per cell.
    slots: Vec<Slot>,
    /// The stamp of the current search (0: none yet).
    stamp: u32,
    /// The open list: cheapest estimate first ([`order_key`]), then the smaller cell index, so
    /// searches are deterministic.
    open: BinaryHeap<Reverse<(i64, u32)>>,
}

impl Scratch {
    /// Makes the state ready for a search over `cells` cells; returns its stamp.
    fn begin(&mut self, cells: usize) -> u32 {
        if self.slots.len() != cells {
            self.slots.clear();
            self.slots.resize(cells, Slot::default());
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // Once every 2^32 searches: no slot may keep a stamp that comes round again.
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
        self.open.clear();
        self.stamp
    }
}

/// A key that orders `f64`s as [`f64::total_cmp`] does, computed once per entry of the open list
/// rather than at every comparison.
pub(crate) fn order_key(x: f64) -> i64 {
    // Same-width reinterpretations, as `total_cmp` does them.
    let bits = x.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// A [`Scratch`] kept by a navigator for its searches. A search takes it when no other thread
/// holds it, and works in a fresh one otherwise, so queries from many threads never wait for
/// each other. A clone starts empty.
#[derive(Debug, Default)]
pub(crate) struct ScratchPool(Mutex<Scratch>);

impl ScratchPool {
    /// Runs `f` with the kept scratch, or with a fresh one while another search holds it.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut Scratch) -> R) -> R {
        match self.0.try_lock() {
            Ok(mut kept) => f(&mut kept),
            Err(_) => f(&mut Scratch::default()),
        }
    }
}

impl Clone for ScratchPool {
    fn clone(&self) -> Self {
        ScratchPool::default()
    }
}

/// The cells from `from` to `to` along the slots' `previous` links, or `None` if the chain
/// breaks, loops or leaves the search of `stamp`.
fn trace(slots: &[Slot], stamp: u32, from: u32, to: u32) -> Option<Vec<u32>> {
    let mut cells = vec![to];
    let mut at = to;
    while at != from {
        at = slots.get(at as usize).filter(|s| s.seen == stamp)?.previous;
        cells.push(at);
        if cells.len() > slots.len() {
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
