//! Making an edited region consistent again (`navkit fix`, [`nav_core::Format::fix`]).
//!
//! The geometry of a region is its cells (rectangles, open cells first), its tiles' flags and its
//! objects. The tile map's cell indices, the open-cell count and the edges derive from the
//! cells, the cell object lists from the objects. [`fix`] acts only on a model in which
//! [`crate::validate()`] finds an error of a kind it mends ([`mends`]), and then:
//!
//! 1. **Linked edges** that name an object past the objects, and **cell object list** entries that
//!    name an object past the objects, are dropped (one line each). The lists cannot be
//!    recomputed: the object footprints the builder fills them from are not in the file.
//! 2. **Tile map** (modern layout) with a tile that names no cell: every tile's cell index is
//!    recomputed from the cell rectangles (the cell holding the tile's centre). A tile that no
//!    rectangle holds keeps its index.
//! 3. **Open-cell count** past the cells: recomputed as the number of leading cells none of whose
//!    tiles is blocked (modern), or as the number of cells (legacy tiles carry no flags).
//! 4. **Internal edges** with an error, or whose tile map or open-cell count changed: recomputed
//!    with the builder's [`crate::build::internal_edges`]. An edge with the same ends and
//!    direction as before keeps its flag bits other than Internal and Blocked.
//! 5. **Global edges** with an error, or whose tile map changed: recomputed with the builder's
//!    [`crate::build::global_edges`] for the region most of them name. An edge with the same ends
//!    and direction as before keeps the neighbour region's side (cell, direction, region) and its
//!    flag bits other than Global, which the builder cannot know.
//!
//! Locations name records by their index before the fix.

use std::collections::HashMap;

use nav_core::{Finding, RawF32, Severity};

use crate::build::{global_edges, internal_edges};
use crate::model::{
    CellQuad, EdgeFlag, NavMeshTerrain, TILE_COUNT, TILE_SIZE, TILES_PER_SIDE, TileFlag, TileMap,
};
use crate::query::RegionId;
use crate::validate::validate;

/// The kinds of error [`fix`] mends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    LinkedEdge,
    OpenCellCount,
    CellObject,
    GlobalEdge,
    InternalEdge,
    TileMap,
}

fn kind_of(finding: &Finding) -> Option<Kind> {
    if finding.severity != Severity::Error {
        return None;
    }
    let p = &finding.place;
    match p.root()? {
        "objects" if p.has("linked_edges") => Some(Kind::LinkedEdge),
        "open_cell_count" => Some(Kind::OpenCellCount),
        "cells" if p.has("object_indices") => Some(Kind::CellObject),
        "global_edges" => Some(Kind::GlobalEdge),
        "internal_edges" => Some(Kind::InternalEdge),
        "tile_map" => Some(Kind::TileMap),
        _ => None,
    }
}

/// Whether `finding` is an error of a kind [`fix`] mends: an object, cell, edge or tile index
/// that names nothing, an open-cell count past the cells. (A tile that no cell rectangle holds
/// cannot be given a cell, and keeps its error.)
pub fn mends(finding: &Finding) -> bool {
    kind_of(finding).is_some()
}

/// Makes an edited model consistent again (see the module docs for the rules) and returns one
/// line per change, `"<location>: <what changed>"`. A model in which validate finds no error of a
/// kind fix mends is left exactly as it is, and the list is empty.
pub fn fix(m: &mut NavMeshTerrain) -> Vec<String> {
    let findings = validate(m);
    fix_after(m, &findings)
}

/// [`fix`], given the findings of [`crate::validate()`] on `m`: what to mend is read from
/// their places.
fn fix_after(m: &mut NavMeshTerrain, findings: &[Finding]) -> Vec<String> {
    let kinds: Vec<Kind> = findings.iter().filter_map(kind_of).collect();
    if kinds.is_empty() {
        return Vec::new();
    }
    let has = |k: Kind| kinds.contains(&k);
    let mut out = Vec::new();
    drop_object_references(m, &mut out);
    let by_rectangle = cells_of_tiles(&m.cells);
    let tiles_changed = has(Kind::TileMap) && retile(m, &by_rectangle, &mut out);
    let open_changed = has(Kind::OpenCellCount) && recount_open(m, &by_rectangle, &mut out);
    let table = tile_cells(m, &by_rectangle);
    if has(Kind::InternalEdge) || tiles_changed || open_changed {
        redo_internal_edges(m, &table, &mut out);
    }
    if has(Kind::GlobalEdge) || tiles_changed {
        redo_global_edges(m, &table, &mut out);
    }
    out
}

/// Step 1: linked edges and cell list entries that name an object past the objects.
fn drop_object_references(m: &mut NavMeshTerrain, out: &mut Vec<String>) {
    let n = m.objects.len();
    for (i, o) in m.objects.iter_mut().enumerate() {
        let mut j = 0usize;
        o.linked_edges.retain(|l| {
            let past = usize::try_from(l.other_object_index).is_ok_and(|k| k >= n);
            if past {
                out.push(format!(
                    "objects[{i}] linked_edges[{j}]: dropped: other object index {} is past the \
                     {n} objects",
                    l.other_object_index
                ));
            }
            j += 1;
            !past
        });
    }
    for (i, c) in m.cells.iter_mut().enumerate() {
        let mut j = 0usize;
        c.object_indices.retain(|&o| {
            let past = usize::from(o) >= n;
            if past {
                out.push(format!(
                    "cells[{i}] object_indices[{j}]: dropped: object index {o} is past the {n} \
                     objects"
                ));
            }
            j += 1;
            !past
        });
    }
}

/// Each tile's cell by the rectangles: the first cell whose rectangle holds the tile's centre.
fn cells_of_tiles(cells: &[CellQuad]) -> Vec<Option<usize>> {
    (0..TILE_COUNT)
        .map(|i| {
            let x = ((i % TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE;
            let z = ((i / TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE;
            cells.iter().position(|c| {
                c.min[0].get() <= x
                    && x <= c.max[0].get()
                    && c.min[1].get() <= z
                    && z <= c.max[1].get()
            })
        })
        .collect()
}

/// The tile → cell table the edges derive from: a modern tile's index where it names a cell,
/// else the rectangle that holds the tile.
fn tile_cells(m: &NavMeshTerrain, by_rectangle: &[Option<usize>]) -> Vec<Option<usize>> {
    let cells = m.cells.len();
    (0..TILE_COUNT)
        .map(|i| {
            let stored = match &m.tile_map {
                TileMap::Modern(tiles) => tiles
                    .get(i)
                    .and_then(|t| usize::try_from(t.cell_index).ok())
                    .filter(|&c| c < cells),
                TileMap::Legacy(_) => None,
            };
            stored.or_else(|| by_rectangle.get(i).copied().flatten())
        })
        .collect()
}

/// Step 2: every modern tile's cell index from the rectangles. Returns whether any changed.
fn retile(m: &mut NavMeshTerrain, by_rectangle: &[Option<usize>], out: &mut Vec<String>) -> bool {
    let TileMap::Modern(tiles) = &mut m.tile_map else {
        return false;
    };
    let (mut changed, mut homeless) = (0usize, 0usize);
    for (t, cell) in tiles.iter_mut().zip(by_rectangle) {
        match cell.and_then(|c| i32::try_from(c).ok()) {
            Some(c) if c != t.cell_index => {
                t.cell_index = c;
                changed += 1;
            }
            Some(_) => {}
            None => homeless += 1,
        }
    }
    if changed > 0 {
        out.push(format!(
            "tile_map: recomputed the cell index of {changed} tiles from the cell rectangles{}",
            if homeless > 0 {
                format!(" ({homeless} tiles lie in no cell and keep theirs)")
            } else {
                String::new()
            }
        ));
    }
    changed > 0
}

/// Step 3: the open-cell count. Returns whether it changed.
fn recount_open(
    m: &mut NavMeshTerrain,
    by_rectangle: &[Option<usize>],
    out: &mut Vec<String>,
) -> bool {
    let cells = m.cells.len();
    let open = match &m.tile_map {
        TileMap::Modern(tiles) => {
            let mut blocked = vec![false; cells];
            for (t, cell) in tiles.iter().zip(by_rectangle) {
                if let Some(b) = cell.and_then(|c| blocked.get_mut(c)) {
                    *b |= t.flags & TileFlag::BLOCKED != 0;
                }
            }
            blocked.iter().take_while(|b| !**b).count()
        }
        TileMap::Legacy(_) => cells,
    };
    let Ok(open) = u32::try_from(open) else {
        return false;
    };
    if open == m.open_cell_count {
        return false;
    }
    out.push(format!(
        "open_cell_count: {} recomputed to {open} (of {cells} cells)",
        m.open_cell_count
    ));
    m.open_cell_count = open;
    true
}

/// An edge's ends and first direction, to find it again after a recompute.
type EdgeKey = ([RawF32; 2], [RawF32; 2], i8);

/// Step 4: the internal edges.
fn redo_internal_edges(m: &mut NavMeshTerrain, table: &[Option<usize>], out: &mut Vec<String>) {
    let open = usize::try_from(m.open_cell_count).unwrap_or(usize::MAX);
    let old: HashMap<EdgeKey, u8> = m
        .internal_edges
        .iter()
        .map(|e| ((e.min, e.max, e.assoc_direction[0]), e.flags))
        .collect();
    let mut edges = internal_edges(table, open);
    for e in &mut edges {
        if let Some(flags) = old.get(&(e.min, e.max, e.assoc_direction[0])) {
            e.flags |= flags & !(EdgeFlag::INTERNAL | EdgeFlag::BLOCKED);
        }
    }
    if edges != m.internal_edges {
        out.push(format!(
            "internal_edges: recomputed from the tile map: {} edges (were {})",
            edges.len(),
            m.internal_edges.len()
        ));
        m.internal_edges = edges;
    }
}

/// Step 5: the global edges, for the region most of them name.
fn redo_global_edges(m: &mut NavMeshTerrain, table: &[Option<usize>], out: &mut Vec<String>) {
    let mut votes: HashMap<u16, usize> = HashMap::new();
    for e in &m.global_edges {
        *votes.entry(e.assoc_region_id[0]).or_default() += 1;
    }
    let Some(region) = votes
        .into_iter()
        .max_by_key(|(id, n)| (*n, core::cmp::Reverse(*id)))
        .map(|(id, _)| RegionId(id))
    else {
        return; // no edge names the region
    };
    let old: HashMap<EdgeKey, (u8, i8, i16, u16)> = m
        .global_edges
        .iter()
        .map(|e| {
            (
                (e.min, e.max, e.assoc_direction[0]),
                (
                    e.flags,
                    e.assoc_direction[1],
                    e.assoc_cell_index[1],
                    e.assoc_region_id[1],
                ),
            )
        })
        .collect();
    let mut edges = global_edges(table, region);
    for e in &mut edges {
        if let Some((flags, direction, cell, id)) = old.get(&(e.min, e.max, e.assoc_direction[0])) {
            e.flags |= flags & !EdgeFlag::GLOBAL;
            e.assoc_direction[1] = *direction;
            e.assoc_cell_index[1] = *cell;
            e.assoc_region_id[1] = *id;
        }
    }
    if edges != m.global_edges {
        out.push(format!(
            "global_edges: recomputed from the tile map for region {region}: {} edges (were {})",
            edges.len(),
            m.global_edges.len()
        ));
        m.global_edges = edges;
    }
}

#[cfg(test)]
mod tests;
