//! The Source navigation mesh as a navigation graph ([`nav_core::navigation::Graph`]): the areas
//! the bots path over, the connections between them and the ladders.
//!
//! - **Cells**: one per area, in file order, with the area id as the cell id and the area's four
//!   corners NW, NE, SE, SW as its polygon ([`crate::geometry::corners`]: the stored north-west
//!   and south-east corners, and the implicit north-east and south-west corners at their stored
//!   heights), in the file's axes (Z up).
//! - **Connections**: one edge per stored connection, from the area that lists it to the area it
//!   names. A connection the other area does not list back stays one edge. An area listing itself
//!   gives no edge (the engine drops such connections when it loads the file). The kind is that
//!   of moving *into* the target area, as the engine's path costs are: [`EdgeKind::Blocked`] when
//!   the target carries `NAV_MESH_NAV_BLOCKER`, [`EdgeKind::Jump`] when it carries
//!   `NAV_MESH_JUMP` ("must jump to traverse this area"), else [`EdgeKind::Walk`].
//! - **Ladders**: an area goes *up* a ladder when the ladder is in its up list or the ladder's
//!   bottom area is the area; it goes *down* when the ladder is in its down list or the area is
//!   one of the ladder's four top areas. Going up gives a [`EdgeKind::LadderUp`] edge to each
//!   distinct top area among forward, left and right (the engine's path search never climbs to
//!   the behind area, and never up a ladder marked dangling, a v6 field); going down gives a
//!   [`EdgeKind::LadderDown`] edge to the bottom area. A ladder into a blocked area is
//!   [`EdgeKind::Blocked`]. Each (area, ladder, direction) counts once, as the engine drops
//!   repeated ladder ids.
//!
//! References that name no area or no ladder (a hand-edited model) are skipped: `validate`
//! reports them, and the graph only holds what can be followed. Where area ids repeat, the first
//! area with the id is the one references reach, as in [`crate::geometry()`].

use std::collections::HashMap;

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use crate::geometry::corners;
use crate::model::{Area, Ladder, SourceMesh};

/// `NAV_MESH_JUMP`: the area must be jumped through.
pub const JUMP: u32 = 0x0000_0002;

/// `NAV_MESH_NAV_BLOCKER`: the area is blocked (by a `func_nav_blocker`, saved with the area).
pub const NAV_BLOCKER: u32 = 0x8000_0000;

/// The kind of a move into an area with these attribute flags, for a move that is otherwise
/// `kind`: blocked areas block every move, jump areas make a walk a jump.
pub fn entry_kind(target_flags: u32, kind: EdgeKind) -> EdgeKind {
    if target_flags & NAV_BLOCKER != 0 {
        EdgeKind::Blocked
    } else if kind == EdgeKind::Walk && target_flags & JUMP != 0 {
        EdgeKind::Jump
    } else {
        kind
    }
}

/// The mesh as a navigation graph (see the module documentation for the mapping).
pub fn navigation(mesh: &SourceMesh) -> Graph {
    let mut g = Graph::new(UpAxis::Z);
    g.cells.reserve_exact(mesh.areas.len());
    g.corners.reserve_exact(mesh.areas.len().saturating_mul(4));
    // Each cell's attribute flags, beside the cells: the edge loop reads them for every target.
    let mut flags: Vec<u32> = Vec::with_capacity(mesh.areas.len());
    let mut connections = 0;
    for area in &mesh.areas {
        g.add_polygon_cell(CellId::new(u64::from(area.id)), &corners(area));
        flags.push(area.attribute_flags);
        connections += area.connections.iter().map(|c| c.len()).sum::<usize>();
    }
    let index = IdIndex::new(mesh.areas.iter().map(|a| a.id));
    g.edges.reserve(connections);
    // The cell of an area id, with that area's attribute flags.
    let target = |id: u32| -> Option<(u32, u32)> {
        let cell = index.get(id)?;
        Some((cell, *flags.get(cell as usize)?))
    };

    for (from, area) in cells(&mesh.areas) {
        for id in area.connections.iter().flatten() {
            if *id == area.id {
                continue;
            }
            if let Some((to, flags)) = target(*id) {
                g.add_edge(from, to, entry_kind(flags, EdgeKind::Walk));
            }
        }
    }

    for (cell, ladder, up) in ladder_uses(mesh, &index) {
        let Some(l) = mesh.ladders.get(ladder) else {
            continue;
        };
        if up {
            if l.is_dangling != 0 {
                continue;
            }
            let mut reached = [u32::MAX; 3];
            for (k, id) in [
                l.top_forward_area_id,
                l.top_left_area_id,
                l.top_right_area_id,
            ]
            .into_iter()
            .enumerate()
            {
                let Some((to, flags)) = Some(id).filter(|id| *id != 0).and_then(target) else {
                    continue;
                };
                if to == cell || reached.contains(&to) {
                    continue;
                }
                if let Some(slot) = reached.get_mut(k) {
                    *slot = to;
                }
                g.add_edge(cell, to, entry_kind(flags, EdgeKind::LadderUp));
            }
        } else if let Some((to, flags)) = Some(l.bottom_area_id)
            .filter(|id| *id != 0)
            .and_then(target)
        {
            if to != cell {
                g.add_edge(cell, to, entry_kind(flags, EdgeKind::LadderDown));
            }
        }
    }
    g
}

/// The areas with their cell index (cells are added in area order).
fn cells(areas: &[Area]) -> impl Iterator<Item = (u32, &Area)> {
    areas
        .iter()
        .enumerate()
        .filter_map(|(i, a)| Some((u32::try_from(i).ok()?, a)))
}

/// Every (cell, ladder index, going up) the mesh gives, sorted and without repeats: from the
/// areas' own ladder lists (v7+) and from the ladder records' bottom and top areas.
fn ladder_uses(mesh: &SourceMesh, index: &IdIndex) -> Vec<(u32, usize, bool)> {
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
        .map(|a| a.ladders.iter().map(|l| l.len()).sum::<usize>())
        .sum();
    let mut uses = Vec::with_capacity(listed + 5 * mesh.ladders.len());
    for (cell, area) in cells(&mesh.areas) {
        for (list, up) in area.ladders.iter().zip([true, false]) {
            for id in list.iter() {
                if let Some(ladder) = by_id.get(id) {
                    uses.push((cell, *ladder, up));
                }
            }
        }
    }
    let cell_of = |id: u32| Some(id).filter(|id| *id != 0).and_then(|id| index.get(id));
    for (ladder, l) in mesh.ladders.iter().enumerate() {
        if let Some(cell) = cell_of(l.bottom_area_id) {
            uses.push((cell, ladder, true));
        }
        for id in tops(l) {
            if let Some(cell) = cell_of(id) {
                uses.push((cell, ladder, false));
            }
        }
    }
    uses.sort_unstable();
    uses.dedup();
    uses
}

/// A ladder's four top area ids: forward, left, right, behind.
fn tops(l: &Ladder) -> [u32; 4] {
    [
        l.top_forward_area_id,
        l.top_left_area_id,
        l.top_right_area_id,
        l.top_behind_area_id,
    ]
}

/// Area id to cell index, the first area of an id winning: a table indexed by id when the ids
/// are dense (the editor numbers areas from 1 up, so a real file's largest id is close to its
/// area count), a hash map otherwise.
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
        if max <= n.saturating_mul(4).saturating_add(1024) {
            let mut table = vec![u32::MAX; max.saturating_add(1)];
            for (cell, id) in ids.enumerate() {
                let (Ok(cell), Some(slot)) = (u32::try_from(cell), table.get_mut(id as usize))
                else {
                    continue;
                };
                if *slot == u32::MAX {
                    *slot = cell;
                }
            }
            IdIndex::Table(table)
        } else {
            let mut map = HashMap::with_capacity(n);
            for (cell, id) in ids.enumerate() {
                if let Ok(cell) = u32::try_from(cell) {
                    map.entry(id).or_insert(cell);
                }
            }
            IdIndex::Map(map)
        }
    }

    fn get(&self, id: u32) -> Option<u32> {
        match self {
            IdIndex::Table(t) => t.get(id as usize).copied().filter(|c| *c != u32::MAX),
            IdIndex::Map(m) => m.get(&id).copied(),
        }
    }
}
