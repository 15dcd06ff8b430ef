//! The SegmentGraph (and the IslandGraph nodes standing on it) brought up to date after
//! [`super::derived`] moved NavigationGraph nodes and changed edge weights, for the segments
//! whose nodes moved only. What the game files in the corpus show (7,567 SegmentGraph nodes;
//! `tests/derived_rules.rs` prints these counts and asserts their fractions):
//!
//! - **Node position**: every SegmentGraph node stands exactly at one of its segment's
//!   NavigationGraph nodes (7,567 of 7,567), but which one follows no rule we know: the node
//!   nearest the bounds centre (the builder's rule) is it in 5,025 only, the bounds centre
//!   itself in 1,293 and the mean of the nodes in 1,089. So a SegmentGraph node keeps the
//!   NavigationGraph node it stands on (the first of its segment at its stored position) and
//!   follows that node when it moves; no other node is chosen when the bounds change.
//! - **Link weights**: the shortest path through the segment's NavigationGraph (sum of the
//!   stored edge weights) from the node it stands on to the link's first border node is the
//!   stored weight of 15,113 of 22,728 inside links (within 1 in 18,266), of 4,419 of 4,831
//!   crossing-data-chunk links and of 2,286 of 2,374 crossing-tile links; the straight distance
//!   to that border node (the builder's rule for inside links) only of 4,773, 2,192 and 1,620,
//!   the distance between the two SegmentGraph nodes of 30 inside links. The weight of every
//!   link of a segment whose nodes or edges changed is therefore changed by the change of that
//!   path (stored + new − old, with the edge weights before and after the move), which keeps
//!   whatever the game added to it and changes nothing when the path does not change.
//! - **IslandGraph node position**: every island node stands at the SegmentGraph node its
//!   LowGraphNodeLink names (171 of 171), and follows it.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::show::{count, shown};
use crate::geometry::segment_bases;
use crate::model::{DataChunk, Nav2File, Position};

/// What changed in one data chunk's NavigationGraph: the old position of each moved node and
/// the old weight of each edge whose weight changed (chunk-global indices).
pub(super) struct Moved<'a> {
    /// Old positions of the moved nodes.
    pub nodes: &'a BTreeMap<usize, Position>,
    /// Old weights of the re-weighted edges.
    pub weights: &'a BTreeMap<usize, u16>,
}

/// Updates the SegmentGraph of data chunk `c` (see the module docs) after `moved`, and the
/// IslandGraph nodes standing on a moved SegmentGraph node; one line per kind of change.
pub(super) fn refresh(file: &mut Nav2File, c: usize, moved: &Moved, lines: &mut Vec<String>) {
    let Some(dc) = file.data_chunks.get(c) else {
        return;
    };
    let (positions, weights) = plan(dc, moved);
    let uid = dc.uid;
    let Some(dc) = file.data_chunks.get_mut(c) else {
        return;
    };
    for (s, p) in &positions {
        if let Some(node) = dc.segment_graph.nodes.get_mut(*s) {
            node.position = *p;
        }
    }
    let mut links = 0;
    for ((s, kind, k), w) in &weights {
        let Some(node) = dc.segment_graph.nodes.get_mut(*s) else {
            continue;
        };
        let slot = match kind {
            Kind::Inside => node.inside_links.get_mut(*k).map(|l| &mut l.weight),
            Kind::DataChunk => node
                .crossing_data_chunk_links
                .get_mut(*k)
                .map(|l| &mut l.weight),
            Kind::Tile => node.crossing_tile_links.get_mut(*k).map(|l| &mut l.weight),
        };
        if let Some(slot) = slot {
            *slot = *w;
            links += 1;
        }
    }
    let mut islands = Vec::new();
    for (g, graph) in file.island_graphs.iter_mut().enumerate() {
        for (i, node) in graph.nodes.iter_mut().enumerate() {
            let l = node.low_graph_node_link;
            let p = positions.get(&usize::from(l.segment_graph_node_index));
            if let (true, Some(p)) = (l.data_chunk_uid == uid, p) {
                node.position = *p;
                islands.push(format!("graph {g} node {i}"));
            }
        }
    }
    if !positions.is_empty() {
        lines.push(format!(
            "data_chunks[{c}] SegmentGraph: {} moved with the NavigationGraph node they stand on \
             ({})",
            count(positions.len(), "node"),
            shown(positions.keys())
        ));
    }
    if links > 0 {
        let segments: std::collections::BTreeSet<usize> =
            weights.keys().map(|(s, _, _)| *s).collect();
        lines.push(format!(
            "data_chunks[{c}] SegmentGraph: weights of {} changed by the change of the path to \
             their border node (in {} {})",
            count(links, "link"),
            if segments.len() == 1 {
                "segment"
            } else {
                "segments"
            },
            shown(segments.iter())
        ));
    }
    if !islands.is_empty() {
        lines.push(format!(
            "data_chunks[{c}] IslandGraphs: {} moved with the SegmentGraph node they stand on \
             ({})",
            count(islands.len(), "node"),
            islands.join(", ")
        ));
    }
}

/// The kind of a SegmentGraph link.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Inside,
    DataChunk,
    Tile,
}

/// New SegmentGraph node positions by segment, and new link weights by (segment, kind, link),
/// each only where it differs from the stored value.
type Plan = (
    BTreeMap<usize, Position>,
    BTreeMap<(usize, Kind, usize), u16>,
);

fn plan(dc: &DataChunk, moved: &Moved) -> Plan {
    let mut positions = BTreeMap::new();
    let mut weights = BTreeMap::new();
    let bases = segment_bases(dc);
    let ng = &dc.navigation_graph;
    for (s, ((seg, b), node)) in dc
        .segment_chunk
        .segments
        .iter()
        .zip(&bases)
        .zip(&dc.segment_graph.nodes)
        .enumerate()
    {
        let nodes = b[3]..b[3] + usize::from(seg.navigation_graph_node_count);
        let edges = b[2]..b[2] + usize::from(seg.navigation_graph_edge_count);
        let touched = moved.nodes.range(nodes.clone()).next().is_some()
            || moved.weights.range(edges.clone()).next().is_some();
        if !touched {
            continue;
        }
        // The node it stands on: the first of the segment at its position before the move.
        let old_at = |n: usize| {
            let now = ng.nodes.get(n).map(|x| x.position);
            moved.nodes.get(&n).copied().or(now)
        };
        let Some(start) = nodes.clone().find(|n| old_at(*n) == Some(node.position)) else {
            continue;
        };
        if let Some(p) = ng.nodes.get(start).map(|x| x.position) {
            if p != node.position {
                positions.insert(s, p);
            }
        }
        let count = nodes.len();
        let local = start - nodes.start;
        let weight_now = |e: usize| ng.edges.get(e).map_or(0, |x| x.weight);
        let weight_then = |e: usize| moved.weights.get(&e).copied().unwrap_or(weight_now(e));
        let new = paths(dc, edges.clone(), count, local, &weight_now);
        let old = paths(dc, edges, count, local, &weight_then);
        let links = node
            .inside_links
            .iter()
            .map(|l| (Kind::Inside, l.weight, &l.navigation_graph_nodes));
        let data = node
            .crossing_data_chunk_links
            .iter()
            .map(|l| (Kind::DataChunk, l.weight, &l.navigation_graph_nodes));
        let tile = node
            .crossing_tile_links
            .iter()
            .map(|l| (Kind::Tile, l.weight, &l.navigation_graph_nodes));
        let mut index: BTreeMap<Kind, usize> = BTreeMap::new();
        for (kind, stored, via) in links.chain(data).chain(tile) {
            let k = index.entry(kind).or_default();
            let here = *k;
            *k += 1;
            let Some(border) = via.first().map(|v| usize::from(*v)) else {
                continue;
            };
            let (Some(Some(a)), Some(Some(b))) = (old.get(border), new.get(border)) else {
                continue;
            };
            let w = i64::from(stored) + i64::try_from(*b).unwrap_or(i64::MAX)
                - i64::try_from(*a).unwrap_or(i64::MAX);
            let w = u16::try_from(w.clamp(0, i64::from(u16::MAX))).unwrap_or(u16::MAX);
            if w != stored {
                weights.insert((s, kind, here), w);
            }
        }
    }
    (positions, weights)
}

/// The shortest path lengths from segment-local node `from` to each of the segment's `count`
/// nodes through its edges (`edges`, chunk-global, with `weight(e)`); `None` for a node it does
/// not reach.
fn paths(
    dc: &DataChunk,
    edges: core::ops::Range<usize>,
    count: usize,
    from: usize,
    weight: &dyn Fn(usize) -> u16,
) -> Vec<Option<u64>> {
    let mut next: Vec<Vec<(usize, u64)>> = vec![Vec::new(); count];
    for (e, edge) in dc
        .navigation_graph
        .edges
        .iter()
        .enumerate()
        .skip(edges.start)
        .take(edges.len())
    {
        let [x, y] = edge.node_indices.map(usize::from);
        let w = u64::from(weight(e));
        if let Some(list) = next.get_mut(x) {
            list.push((y, w));
        }
        if let Some(list) = next.get_mut(y) {
            list.push((x, w));
        }
    }
    let mut best: Vec<Option<u64>> = vec![None; count];
    let mut heap = BinaryHeap::new();
    if let Some(slot) = best.get_mut(from) {
        *slot = Some(0);
        heap.push(Reverse((0u64, from)));
    }
    while let Some(Reverse((d, u))) = heap.pop() {
        if best.get(u).copied().flatten().is_some_and(|b| d > b) {
            continue;
        }
        for &(v, w) in next.get(u).map_or(&[][..], Vec::as_slice) {
            let nd = d + w;
            if let Some(slot) = best.get_mut(v) {
                if slot.is_none_or(|b| nd < b) {
                    *slot = Some(nd);
                    heap.push(Reverse((nd, v)));
                }
            }
        }
    }
    best
}
