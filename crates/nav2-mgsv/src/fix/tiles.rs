//! Keeping an IslandGraph's connections to other tiles when [`super::fix`] recomputes the
//! IslandGraphs: the builder makes a graph without them, and they are what ties the tile to its
//! neighbours.
//!
//! The connections of the first graph (the one whose node every SegmentGraph node names in its
//! first slot, which the recomputed graph replaces) are carried over as they are: the four
//! ConnectSideInfoGroups and the ConnectSideInfos, which describe the other side, and each
//! node's CrossingTileLinks, moved to the recomputed island that holds the segment the old node
//! stood for (its LowGraphNodeLink, or else a segment whose first island index named it).

use crate::model::{DataChunkUid, IslandGraph, LowGraphNodeLink, Nav2File};

/// What was carried over.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Kept {
    /// CrossingTileLinks carried over.
    pub links: usize,
    /// CrossingTileLinks dropped: no recomputed island holds their node's segments.
    pub dropped: usize,
    /// CrossingTileLinks of the other graphs, dropped with them.
    pub other_graphs: usize,
}

/// Carries the tile connections of `before[0]` into `graph`, recomputed over `m`, whose
/// SegmentGraph nodes name their new island in the first slot; `slots_before[c][s]` is the
/// island node segment `s` of chunk `c` named in the first slot before.
pub(super) fn keep_tile_connections(
    before: &[IslandGraph],
    slots_before: &[Vec<u16>],
    m: &Nav2File,
    graph: &mut IslandGraph,
) -> Kept {
    let mut kept = Kept {
        other_graphs: before
            .iter()
            .skip(1)
            .flat_map(|g| &g.nodes)
            .map(|n| n.crossing_tile_links.len())
            .sum(),
        ..Kept::default()
    };
    let Some(old) = before.first() else {
        return kept;
    };
    graph.connect_side_info_groups = old.connect_side_info_groups;
    graph.connect_side_infos.clone_from(&old.connect_side_infos);
    for (k, node) in old.nodes.iter().enumerate() {
        if node.crossing_tile_links.is_empty() {
            continue;
        }
        let island = island_of(m, node.low_graph_node_link).or_else(|| {
            // A segment that named this node before.
            let k = u16::try_from(k).ok()?;
            slots_before.iter().enumerate().find_map(|(c, slots)| {
                let s = slots.iter().position(|x| *x == k)?;
                let dc = m.data_chunks.get(c)?;
                let island = dc.segment_graph.nodes.get(s)?.island_graph_node_indices[0];
                (island != 0xffff).then_some(usize::from(island))
            })
        });
        match island.and_then(|i| graph.nodes.get_mut(i)) {
            Some(new) => {
                for link in &node.crossing_tile_links {
                    if !new.crossing_tile_links.contains(link) {
                        new.crossing_tile_links.push(*link);
                    }
                    kept.links += 1;
                }
            }
            None => kept.dropped += node.crossing_tile_links.len(),
        }
    }
    kept
}

/// The recomputed island that holds the segment `link` names.
fn island_of(m: &Nav2File, link: LowGraphNodeLink) -> Option<usize> {
    let uid: DataChunkUid = link.data_chunk_uid;
    let dc = m.data_chunks.iter().find(|d| d.uid == uid)?;
    let node = dc
        .segment_graph
        .nodes
        .get(usize::from(link.segment_graph_node_index))?;
    let island = node.island_graph_node_indices[0];
    (island != 0xffff).then_some(usize::from(island))
}
