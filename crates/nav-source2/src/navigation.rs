//! The Source 2 navigation mesh as a navigation graph ([`nav_core::navigation::Graph`]), defined
//! as awpy 3.1.1 (`awpy::NavMesh`, the public reader CS2 analysts path with) defines it, plus the
//! ladders awpy leaves out.
//!
//! - **Cells**: one per area, in file order, with the area id as the cell id and the area's
//!   corners in stored order as its polygon (the pool polygon's from v31, the area's own in v30),
//!   in the file's axes (Z up). The centre is the mean of the corners, as awpy's `centroid`. An
//!   area without usable corners ([`usable_corners`]: fewer than three, one past the pool, or
//!   one not finite) keeps its cell but gets no polygon and no centre (awpy would put it at the
//!   origin; `validate` names it).
//! - **Connections** ([`EdgeKind::Walk`]): from each area to every distinct area its per-edge
//!   connection lists name, in the order first named: awpy's `neighbors`. A connection the other
//!   area does not list back stays one edge. As in awpy an area that names itself gets an edge to
//!   itself, where two areas share an id the last one is the one reached, and the attribute flags
//!   do not change the kind. With only the walk edges followed, paths are awpy's.
//! - **Ladders** (not in awpy's graph): the rule of `nav-source`'s mapping (the Source SDK 2013
//!   path search), extended to the two bottom sides v35 stores. An area goes *up* a ladder when it lists the ladder in its
//!   `ladders_above` (the bottom areas do, in `de_mirage`) or is one of the ladder's bottom areas,
//!   and *down* when it lists the ladder in `ladders_below` or is one of its four top areas. Up
//!   gives a [`EdgeKind::LadderUp`] edge to each distinct top area among forward, left and right;
//!   down gives a [`EdgeKind::LadderDown`] edge to each distinct bottom area (bottom, bottom left,
//!   bottom right). Each (area, ladder, direction) counts once; an area never gets a ladder edge
//!   to itself.
//!
//! References that name no area or no ladder (a hand-edited model) are skipped: `validate`
//! reports them, and the graph only holds what can be followed.

use std::collections::HashMap;

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use crate::geometry::usable_corners;
use crate::model::{Ladder, Source2Mesh};

/// The mesh as a navigation graph (see the module documentation for the mapping).
pub fn navigation(mesh: &Source2Mesh) -> Graph {
    let mut g = Graph::new(UpAxis::Z);
    g.cells.reserve_exact(mesh.areas.len());
    let mut corners: Vec<[f32; 3]> = Vec::with_capacity(16);
    let mut connections = 0;
    for (i, area) in mesh.areas.iter().enumerate() {
        corners.clear();
        if usable_corners(mesh, i, &mut corners).is_err() {
            corners.clear();
        }
        g.add_polygon_cell(CellId::new(u64::from(area.id)), &corners);
        connections += area
            .connections
            .iter()
            .map(|list| list.len())
            .sum::<usize>();
    }
    // The last area with an id is the one reached, as in awpy's id index.
    let index = IdIndex::new(mesh.areas.iter().map(|a| a.id));
    g.edges.reserve(connections);

    let mut seen: Vec<u32> = Vec::with_capacity(16);
    for (from, area) in mesh.areas.iter().enumerate() {
        let Ok(from) = u32::try_from(from) else {
            break;
        };
        seen.clear();
        for c in area.connections.iter().flatten() {
            // Neighbours are distinct per area, in the order first named (awpy's `neighbors`).
            if seen.contains(&c.area_id) {
                continue;
            }
            seen.push(c.area_id);
            if let Some(to) = index.get(c.area_id) {
                g.add_edge(from, to, EdgeKind::Walk);
            }
        }
    }

    for (cell, ladder, up) in ladder_uses(mesh, &index) {
        let Some(l) = mesh.ladders.get(ladder) else {
            continue;
        };
        let (ends, kind) = if up {
            (tops(l), EdgeKind::LadderUp)
        } else {
            (bottoms(l), EdgeKind::LadderDown)
        };
        let mut reached = [cell; 3];
        let mut n = 0;
        for id in ends {
            let Some(to) = Some(id).filter(|id| *id != 0).and_then(|id| index.get(id)) else {
                continue;
            };
            if reached.get(..n).is_some_and(|r| r.contains(&to)) || to == cell {
                continue;
            }
            if let Some(slot) = reached.get_mut(n) {
                *slot = to;
                n += 1;
            }
            g.add_edge(cell, to, kind);
        }
    }
    g
}

/// Every (cell, ladder index, going up) the mesh gives, sorted and without repeats: from the
/// areas' `ladders_above` (up) and `ladders_below` (down), and from the ladder records' bottom
/// areas (up) and top areas (down).
fn ladder_uses(mesh: &Source2Mesh, index: &IdIndex) -> Vec<(u32, usize, bool)> {
    if mesh.ladders.is_empty() {
        return Vec::new();
    }
    let mut by_id: HashMap<u32, usize> = HashMap::with_capacity(mesh.ladders.len());
    for (i, l) in mesh.ladders.iter().enumerate() {
        by_id.entry(l.id).or_insert(i);
    }
    let listed: usize = mesh
        .areas
        .iter()
        .map(|a| a.ladders_above.len() + a.ladders_below.len())
        .sum();
    let mut uses = Vec::with_capacity(listed + 7 * mesh.ladders.len());
    for (cell, area) in mesh.areas.iter().enumerate() {
        let Ok(cell) = u32::try_from(cell) else {
            break;
        };
        for (list, up) in [(&area.ladders_above, true), (&area.ladders_below, false)] {
            for id in list {
                if let Some(ladder) = by_id.get(id) {
                    uses.push((cell, *ladder, up));
                }
            }
        }
    }
    let cell_of = |id: u32| Some(id).filter(|id| *id != 0).and_then(|id| index.get(id));
    for (ladder, l) in mesh.ladders.iter().enumerate() {
        for id in bottoms(l) {
            if let Some(cell) = cell_of(id) {
                uses.push((cell, ladder, true));
            }
        }
        for id in tops(l).into_iter().chain([l.top_behind_area_id]) {
            if let Some(cell) = cell_of(id) {
                uses.push((cell, ladder, false));
            }
        }
    }
    uses.sort_unstable();
    uses.dedup();
    uses
}

/// The top areas a climb reaches: forward, left, right (never behind, as in Source 1's path
/// search).
fn tops(l: &Ladder) -> [u32; 3] {
    [
        l.top_forward_area_id,
        l.top_left_area_id,
        l.top_right_area_id,
    ]
}

/// The bottom areas: bottom, and from v35 bottom left and bottom right (0 before).
fn bottoms(l: &Ladder) -> [u32; 3] {
    [
        l.bottom_area_id,
        l.bottom_left_area_id,
        l.bottom_right_area_id,
    ]
}

/// Area id to cell index, the last area of an id winning (as awpy's index does): a table
/// indexed by id when the ids are dense (a real file's largest id is close to its area count),
/// a hash map otherwise.
enum IdIndex {
    /// `table[id]` is the cell, `u32::MAX` for none.
    Table(Vec<u32>),
    /// Sparse ids.
    Map(HashMap<u32, u32>),
}

impl IdIndex {
    fn new(ids: impl ExactSizeIterator<Item = u32> + Clone) -> Self {
        let n = ids.len();
        let max = ids.clone().max().map_or(0, |m| m as usize);
        let cells = ids
            .enumerate()
            .filter_map(|(c, id)| Some((id, u32::try_from(c).ok()?)));
        if max <= n.saturating_mul(4).saturating_add(1024) {
            let mut table = vec![u32::MAX; max.saturating_add(1)];
            for (id, cell) in cells {
                if let Some(slot) = table.get_mut(id as usize) {
                    *slot = cell;
                }
            }
            IdIndex::Table(table)
        } else {
            IdIndex::Map(cells.collect())
        }
    }

    fn get(&self, id: u32) -> Option<u32> {
        match self {
            IdIndex::Table(t) => t.get(id as usize).copied().filter(|c| *c != u32::MAX),
            IdIndex::Map(m) => m.get(&id).copied(),
        }
    }
}
