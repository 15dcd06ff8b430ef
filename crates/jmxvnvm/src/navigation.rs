//! A terrain region as a navigation graph: one polygon cell per terrain cell, edges from the
//! internal edges between cells, exits from the global edges into the neighbour regions.
//!
//! A region is walked cell by cell, crossing from one cell to the next over the edges the file
//! stores between them, unless the edge's flags block that direction; a global edge leads into a
//! cell of the neighbouring region's file. Cells at or past the open-cell count are solid. That is what this graph
//! holds, in region-local coordinates with Y up, as [`crate::geometry()`] places the cells:
//!
//! - cell `i` is the file's cell `i` (`CellId::new(i)`); its polygon is the cell rectangle's four
//!   corners, counter-clockwise seen from above, each at the height the height map gives there
//!   (the geometry's `quad` and `ground`, reused);
//! - an internal edge naming two cells of the file gives two directed edges, one each way: `walk`,
//!   or `blocked` where its flags block that direction ([`EdgeFlag::BLOCK_SRC_TO_DST`] from side 0
//!   to side 1, [`EdgeFlag::BLOCK_DST_TO_SRC`] back) or where it enters a solid cell (one at or
//!   past [`open_cell_count`](NavMeshTerrain::open_cell_count));
//! - a global edge from a cell of this file to a cell of region `AssocRegionId[1]` is an exit
//!   from that cell naming the region and its cell, `walk` or `blocked` by the same flag. Its
//!   other direction belongs to the neighbour's file. A global edge whose two region ids are equal
//!   names a cell of this file on both sides, and maps as an internal edge does.
//!
//! Objects (bridges, houses, walls) carry their own navmeshes in `.bms` files this file does not
//! hold, so they, their linked edges and the cells' object lists give no cells or edges.

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use crate::geometry::{ground, quad};
use crate::model::{EdgeFlag, NavMeshTerrain};
use crate::query::RegionId;

/// The region's graph; see the module documentation.
///
/// References a hand-edited model may hold past the cells (an edge side naming a cell index the
/// file does not have) are left out without a panic; [`crate::validate()`] reports each of them
/// as an error. A side of -1 (no cell) is not a reference and gives nothing.
pub fn navigation(m: &NavMeshTerrain) -> Graph {
    let mut graph = Graph::new(UpAxis::Y);
    graph.cells.reserve_exact(m.cells.len());
    graph.corners.reserve_exact(m.cells.len().saturating_mul(4));
    for (i, cell) in m.cells.iter().enumerate() {
        let corners = quad(
            cell.min.map(|c| c.get()),
            cell.max.map(|c| c.get()),
            |x, z| ground(m, x, z),
        );
        graph.add_polygon_cell(CellId::new(u64::try_from(i).unwrap_or(u64::MAX)), &corners);
    }
    let cells = m.cells.len();
    // A cell index of this file, as the graph's index.
    let cell = |c: i16| {
        usize::try_from(c)
            .ok()
            .filter(|c| *c < cells)
            .and_then(|c| u32::try_from(c).ok())
    };
    let solid = |c: u32| c >= m.open_cell_count;
    let kind = |flags: u8, blocked_bit: u8, to: u32| {
        if flags & blocked_bit != 0 || solid(to) {
            EdgeKind::Blocked
        } else {
            EdgeKind::Walk
        }
    };
    let two_way = |graph: &mut Graph, flags: u8, a: u32, b: u32| {
        graph.add_edge(a, b, kind(flags, EdgeFlag::BLOCK_SRC_TO_DST, b));
        graph.add_edge(b, a, kind(flags, EdgeFlag::BLOCK_DST_TO_SRC, a));
    };

    graph
        .edges
        .reserve_exact(m.internal_edges.len().saturating_mul(2));
    for e in &m.internal_edges {
        let [a, b] = e.assoc_cell_index;
        if let (Some(a), Some(b)) = (cell(a), cell(b)) {
            two_way(&mut graph, e.flags, a, b);
        }
    }

    graph.exits.reserve_exact(m.global_edges.len());
    for e in &m.global_edges {
        let [a, far] = e.assoc_cell_index;
        let Some(a) = cell(a) else {
            continue; // no cell of this file on side 0 (or one past the cells)
        };
        let [here, there] = e.assoc_region_id;
        if here == there {
            if let Some(b) = cell(far) {
                two_way(&mut graph, e.flags, a, b);
            }
        } else if far >= 0 {
            let blocked = e.flags & EdgeFlag::BLOCK_SRC_TO_DST != 0;
            graph.add_exit(
                a,
                format!("region {} cell {far}", RegionId(there)),
                if blocked {
                    EdgeKind::Blocked
                } else {
                    EdgeKind::Walk
                },
            );
        }
    }
    graph
}
