//! A `.nav2` file as a navigation graph: the NavigationGraph of every data chunk.
//!
//! The Fox Engine plans paths on three levels: IslandGraph (which parts of the world connect at
//! all), SegmentGraph (which segments to cross) and NavigationGraph (the walk itself, node to
//! node along weighted edges). The lowest level is what an agent follows, and the two above are
//! summaries of it, so the graph is built from the NavigationGraph:
//!
//! - **Cells** are NavigationGraph nodes, data chunk by data chunk in file order, each chunk's
//!   nodes in their stored order. A cell's id is `CellId::in_part(index, node)`: the chunk's
//!   DataChunkUid index (the group `navkit dump` shows, and the id crossing links name) and the
//!   node's index in that chunk's NavigationGraph (`node 17` in the dump), written `00000004:17`.
//!   Its centre is the node's decoded position (nodes sit at navmesh edge midpoints); its radius
//!   is the largest distance, in plan, from the node to a corner of a mesh that names it, so that
//!   every point of a mesh counts as on each of the mesh's nodes (0 for a node no mesh names).
//! - **Edges**, one per link the file stores (a node lists its own links, so a link stored one
//!   way is one edge): inside links (to another node of a face, along a NavigationGraph edge),
//!   the crossing-segment link (the twin node of a segment border) and the crossing-data-chunk
//!   link (a node of another data chunk of the file). The kind is the NavigationGraph Kind of the
//!   edge record an inside link names, else of the node the link leaves: 0 (static) is
//!   [`EdgeKind::Walk`], anything else (1 is dynamic; no known file has one) [`EdgeKind::Special`].
//! - **Exits**: a crossing-tile link (its node index is resolved by the game at run time, in
//!   another file), and a crossing-data-chunk link to a data chunk this file does not hold.
//!
//! A link whose node index names nothing in a hand-edited model is skipped rather than emitted
//! as a bad index; [`crate::validate()`] reports those.

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use crate::model::{DataChunk, Nav2File};

/// The kind of a NavigationGraph Kind value (`fox::nav::NavigationGraphKind`).
pub fn edge_kind(kind: u8) -> EdgeKind {
    match kind {
        0 => EdgeKind::Walk,
        _ => EdgeKind::Special,
    }
}

/// The navigation graph of `file`: see the module documentation for the mapping.
pub fn navigation(file: &Nav2File) -> Graph {
    let chunks = &file.data_chunks;
    let (mut cells, mut links) = (0usize, 0usize);
    for dc in chunks {
        cells += dc.navigation_graph.nodes.len();
        links += dc
            .navigation_graph
            .nodes
            .iter()
            .map(|n| {
                n.inside_links.len()
                    + usize::from(n.crossing_segment_link.is_some())
                    + usize::from(n.crossing_data_chunk_link.is_some())
            })
            .sum::<usize>();
    }
    // At most one edge per stored link (a crossing-data-chunk link may be an exit instead).
    let mut g = Graph::new(UpAxis::Y);
    g.cells.reserve_exact(cells);
    g.edges.reserve_exact(links);

    // The first cell of each chunk, and the chunks by DataChunkUid index (the first of equal
    // indices, as `Nav2File::data_chunk` finds it; validate reports a duplicate).
    let mut first_cell = Vec::with_capacity(chunks.len());
    let mut by_index: Vec<(u16, usize)> = Vec::with_capacity(chunks.len());
    for (c, dc) in chunks.iter().enumerate() {
        by_index.push((dc.uid.index(), c));
        let first = g.cells.len();
        first_cell.push(first);
        let part = u32::from(dc.uid.index());
        for (k, n) in dc.navigation_graph.nodes.iter().enumerate() {
            let id = CellId::in_part(part, k as u64);
            g.add_node_cell(id, file.decode_position(n.position), 0.0);
        }
        if let Some(own) = g.cells.get_mut(first..) {
            radii(file, dc, own);
        }
    }
    by_index.sort_by_key(|(index, _)| *index);
    by_index.dedup_by_key(|(index, _)| *index);
    let chunk = |index: u16| -> Option<usize> {
        let at = by_index.binary_search_by_key(&index, |(i, _)| *i).ok()?;
        by_index.get(at).map(|(_, c)| *c)
    };

    for (dc, &base) in chunks.iter().zip(&first_cell) {
        let ng = &dc.navigation_graph;
        let count = ng.nodes.len();
        for (k, n) in ng.nodes.iter().enumerate() {
            let from = cell(base + k);
            let node_kind = edge_kind(n.kind);
            for l in &n.inside_links {
                // A node index past the chunk's nodes is skipped (validate reports it); an edge
                // index past the edges only loses the edge's kind.
                if usize::from(l.node_index) < count {
                    let kind = ng
                        .edges
                        .get(usize::from(l.edge_index))
                        .map_or(node_kind, |e| edge_kind(e.kind));
                    g.add_edge(from, cell(base + usize::from(l.node_index)), kind);
                }
            }
            if let Some(twin) = n.crossing_segment_link {
                if usize::from(twin) < count {
                    g.add_edge(from, cell(base + usize::from(twin)), node_kind);
                }
            }
            if let Some(l) = n.crossing_data_chunk_link {
                match chunk(l.data_chunk_id) {
                    Some(c) => {
                        let target = chunks.get(c).map_or(0, |d| d.navigation_graph.nodes.len());
                        if usize::from(l.node_index) < target {
                            let to = first_cell
                                .get(c)
                                .map_or(0, |b| b + usize::from(l.node_index));
                            g.add_edge(from, cell(to), node_kind);
                        }
                    }
                    None => g.add_exit(
                        from,
                        format!(
                            "data chunk {} node {}, not in this file",
                            l.data_chunk_id, l.node_index
                        ),
                        node_kind,
                    ),
                }
            }
            if let Some(l) = n.crossing_tile_link {
                g.add_exit(
                    from,
                    format!(
                        "tile {} data chunk {} (the game finds the node at run time)",
                        l.tile_id, l.data_chunk_id
                    ),
                    node_kind,
                );
            }
        }
    }
    g
}

/// A cell index as the graph stores it (graphs hold far fewer than 2^32 cells: NodeCount is a
/// `u16` per chunk); past that it saturates, which `Graph::is_consistent` reports.
fn cell(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Sets each node cell's radius (`cells` are the chunk's, in node order) to the largest
/// distance in plan (X and Z; Y is up) from the node to a corner of a mesh that names it.
/// Meshes, corners and nodes that name nothing are skipped.
fn radii(file: &Nav2File, dc: &DataChunk, cells: &mut [nav_core::navigation::Cell]) {
    let bases = crate::geometry::segment_bases(dc);
    let nm = &dc.navmesh_chunk;
    for m in &nm.meshes {
        let Some(&[position_base, _, _, node_base]) = bases.get(usize::from(m.segment_index))
        else {
            continue;
        };
        let mut corners = [[0f32; 2]; 4];
        let mut n = 0;
        for p in &m.positions {
            if let (Some(pos), Some(slot)) = (
                nm.positions.get(position_base + usize::from(*p)),
                corners.get_mut(n),
            ) {
                let w = file.decode_position(*pos);
                *slot = [w[0], w[2]];
                n += 1;
            }
        }
        let corners = corners.get(..n).unwrap_or_default();
        for local in &m.navigation_graph_nodes {
            let Some(c) = cells.get_mut(node_base + usize::from(*local)) else {
                continue;
            };
            // The radius holds its square until the end: one square root per node.
            let (Some(centre), Some(squared)) = (c.centre, c.radius.as_mut()) else {
                continue;
            };
            for [x, z] in corners {
                let (dx, dz) = (x - centre[0], z - centre[2]);
                let d = dx * dx + dz * dz;
                // `>` is false for NaN: a corner that does not decode leaves the radius alone.
                if d > *squared {
                    *squared = d;
                }
            }
        }
    }
    for r in cells.iter_mut().filter_map(|c| c.radius.as_mut()) {
        *r = r.sqrt();
    }
}
