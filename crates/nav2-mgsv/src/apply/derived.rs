//! What a `.nav2` file derives from its positions, brought up to date after [`super::apply`]
//! moved some, for the segments whose positions moved only: the rest keeps its stored values,
//! so that an unedited file and an edit that moves nothing give the original bytes.
//!
//! - **Segment bounds**: the least and greatest stored coordinates of the segment's positions,
//!   as [`crate::build::navigation_graph`] computes them (every one of the 7,567 segments of the
//!   game files in the corpus holds exactly that; Obj2Nav2 files differ in 9 of 101).
//! - **NavigationGraph node positions**: a node stands at the midpoint of its mesh edge's
//!   corners. The game rounds that midpoint either way (in the corpus, 117,293 of 117,325 nodes
//!   have each coordinate at the floor or the ceiling of the midpoint, 47,808 at the ceiling in
//!   every coordinate, as the builder rounds), so a node on an edge with a moved corner keeps its
//!   rounding per coordinate where the old midpoint shows it (a stored floor of an odd sum stays
//!   a floor), else takes the builder's (the ceiling).
//! - **NavigationGraph edge weights** of edges with a moved node: the distance × the weight
//!   denominator, rounded, as the builder computes them (the game's own match that exactly in
//!   84,914 of 165,762 edges and within 1 in the rest but 1,177).
//!
//! The SegmentGraph and IslandGraph nodes above the moved nodes follow them
//! ([`super::segment_graph`]), and the SearchSpace lists the segments whose bounds changed in
//! the buckets they now meet ([`super::search`]).

use std::collections::{BTreeMap, BTreeSet};

use super::show::{count, shown};
use super::{search, segment_graph};
use crate::geometry::segment_bases;
use crate::model::{Nav2File, Position};

/// Updates what derives from the positions that moved: `old` holds, per (data chunk, index into
/// its positions) moved, the stored position before the move. One line per kind of change per
/// data chunk.
pub(super) fn refresh(
    file: &mut Nav2File,
    old: &BTreeMap<(usize, usize), Position>,
    lines: &mut Vec<String>,
) {
    let chunks: BTreeSet<usize> = old.keys().map(|(c, _)| *c).collect();
    let mut bounds = BTreeMap::new();
    for c in chunks {
        let moved = |i: usize| old.get(&(c, i)).copied();
        let Some(plan) = plan(file, c, &moved) else {
            continue;
        };
        let Some(dc) = file.data_chunks.get_mut(c) else {
            continue;
        };
        for (s, (min, max)) in &plan.bounds {
            if let Some(seg) = dc.segment_chunk.segments.get_mut(*s) {
                let was = (seg.min, seg.max);
                (seg.min, seg.max) = (*min, *max);
                bounds.insert((c, *s), was);
            }
        }
        let mut old_nodes = BTreeMap::new();
        for (n, p) in &plan.nodes {
            if let Some(node) = dc.navigation_graph.nodes.get_mut(*n) {
                old_nodes.insert(*n, core::mem::replace(&mut node.position, *p));
            }
        }
        let mut old_weights = BTreeMap::new();
        for (e, w) in &plan.weights {
            if let Some(edge) = dc.navigation_graph.edges.get_mut(*e) {
                old_weights.insert(*e, core::mem::replace(&mut edge.weight, *w));
            }
        }
        if !plan.bounds.is_empty() {
            lines.push(format!(
                "data_chunks[{c}] SegmentChunk Segments: bounds of {} recomputed from the moved \
                 positions ({})",
                count(plan.bounds.len(), "segment"),
                shown(plan.bounds.keys())
            ));
        }
        if !plan.nodes.is_empty() {
            lines.push(format!(
                "data_chunks[{c}] NavigationGraph: {} moved to the midpoint of their mesh edge \
                 ({})",
                count(plan.nodes.len(), "node"),
                shown(plan.nodes.keys())
            ));
        }
        if !plan.weights.is_empty() {
            lines.push(format!(
                "data_chunks[{c}] NavigationGraph: weights of {} recomputed from their nodes' \
                 positions ({})",
                count(plan.weights.len(), "edge"),
                shown(plan.weights.keys())
            ));
        }
        let moved = segment_graph::Moved {
            nodes: &old_nodes,
            weights: &old_weights,
        };
        segment_graph::refresh(file, c, &moved, lines);
    }
    search::refresh(file, &bounds, lines);
}

/// The changes for data chunk `c`: new bounds by segment, node positions and edge weights by
/// chunk-global index, each only where it differs from the stored value.
#[derive(Debug, Default)]
struct Plan {
    bounds: BTreeMap<usize, (Position, Position)>,
    nodes: BTreeMap<usize, Position>,
    weights: BTreeMap<usize, u16>,
}

/// The [`Plan`] for chunk `c`; `moved(i)` is the old value of position `i` when it moved.
fn plan(file: &Nav2File, c: usize, moved: &dyn Fn(usize) -> Option<Position>) -> Option<Plan> {
    let dc = file.data_chunks.get(c)?;
    let bases = segment_bases(dc);
    let positions = &dc.navmesh_chunk.positions;
    let mut plan = Plan::default();
    for (s, (seg, b)) in dc.segment_chunk.segments.iter().zip(&bases).enumerate() {
        let own = b[0]..b[0] + usize::from(seg.navmesh_position_count);
        if !own.clone().any(|i| moved(i).is_some()) {
            continue;
        }
        let mut min = [u16::MAX; 3];
        let mut max = [0u16; 3];
        for p in positions.get(own.start..own.end.min(positions.len()))? {
            for a in 0..3 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        if (min, max) != (seg.min, seg.max) && min[0] <= max[0] {
            plan.bounds.insert(s, (min, max));
        }
    }
    // Nodes on a mesh side with a moved corner.
    let nodes = &dc.navigation_graph.nodes;
    for m in &dc.navmesh_chunk.meshes {
        let Some(b) = bases.get(usize::from(m.segment_index)) else {
            continue;
        };
        let corners = m.positions.as_slice();
        for (side, local) in m.navigation_graph_nodes.iter().enumerate() {
            let (Some(pa), Some(pb)) = (
                corners.get(side),
                corners.get((side + 1) % corners.len().max(1)),
            ) else {
                continue;
            };
            let (ia, ib) = (b[0] + usize::from(*pa), b[0] + usize::from(*pb));
            if moved(ia).is_none() && moved(ib).is_none() {
                continue;
            }
            let (Some(na), Some(nb)) = (positions.get(ia), positions.get(ib)) else {
                continue;
            };
            let (oa, ob) = (moved(ia).unwrap_or(*na), moved(ib).unwrap_or(*nb));
            let n = b[3] + usize::from(*local);
            let Some(node) = nodes.get(n) else {
                continue;
            };
            let p = midpoint(node.position, (oa, ob), (*na, *nb));
            if p != node.position {
                plan.nodes.insert(n, p);
            }
        }
    }
    // Edges with a moved node.
    for (e, edge) in dc.navigation_graph.edges.iter().enumerate() {
        let Some(b) = bases.get(usize::from(edge.segment_index)) else {
            continue;
        };
        let [x, y] = edge.node_indices.map(|k| b[3] + usize::from(k));
        if !plan.nodes.contains_key(&x) && !plan.nodes.contains_key(&y) {
            continue;
        }
        let at = |n: usize| {
            plan.nodes
                .get(&n)
                .copied()
                .or_else(|| nodes.get(n).map(|node| node.position))
        };
        let (Some(px), Some(py)) = (at(x), at(y)) else {
            continue;
        };
        let w = crate::build::weight(file, px, py);
        if w != edge.weight {
            plan.weights.insert(e, w);
        }
    }
    Some(plan)
}

/// The midpoint of `new`'s two corners, rounded per coordinate as `stored` is rounded from the
/// midpoint of `old`'s: down where the old sum was odd and `stored` holds its floor, else up.
fn midpoint(stored: Position, old: (Position, Position), new: (Position, Position)) -> Position {
    core::array::from_fn(|a| {
        let so = u32::from(old.0[a]) + u32::from(old.1[a]);
        let sn = u32::from(new.0[a]) + u32::from(new.1[a]);
        let down = so % 2 == 1 && u32::from(stored[a]) == so / 2;
        let m = if down { sn / 2 } else { sn.div_ceil(2) };
        // The mean of two u16 values, at most 65,535.
        u16::try_from(m).unwrap_or(u16::MAX)
    })
}
