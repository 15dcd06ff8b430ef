//! Moved cell sides: the cell's new rectangle, the tiles it leaves and the tiles it grows over
//! (see the parent module's docs for the rules).

use std::collections::BTreeSet;

use nav_core::{RawF32, Result};

use super::add::{Tiles, cut, objects_of, set_tiles, show_cells, survey};
use super::shared::refuse;
use crate::fix::redo_edges;
use crate::model::{NavMeshTerrain, REGION_SIZE, TILE_SIZE, TILES_PER_SIDE, TileMap};

/// A cell whose rectangle an edit moves: its index and new rectangle (`min`, `max`, region-local
/// x and z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Move {
    /// The cell's index in the file.
    pub(super) cell: usize,
    /// The new `min` corner.
    pub(super) min: [f32; 2],
    /// The new `max` corner.
    pub(super) max: [f32; 2],
}

/// Moves the cells' rectangles: each leaves the tiles outside its new rectangle and takes the
/// tiles inside it, cutting the cells that held them; the tiles left are given to the cell whose
/// rectangle holds them, else to the nearest cell of their kind ([`crate::fix()`]), and the
/// edges are recomputed. One line per change; refused where two moved cells would hold one tile
/// or a cell would grow over a tile not of its kind. Returns where each cell of the file went
/// (`None` where it went), for the edits after it.
pub(super) fn move_sides(
    m: &mut NavMeshTerrain,
    moves: &[Move],
    out: &mut Vec<String>,
) -> Result<Vec<Option<usize>>> {
    let mut went: Vec<Option<usize>> = (0..m.cells.len()).map(Some).collect();
    if moves.is_empty() {
        return Ok(went);
    }
    for mv in moves {
        let at = format_args!("cells[{}]", mv.cell);
        let shown = format!(
            "(x {}..{}, z {}..{})",
            mv.min[0], mv.max[0], mv.min[1], mv.max[1]
        );
        if mv
            .min
            .iter()
            .chain(&mv.max)
            .any(|v| !(0.0..=REGION_SIZE).contains(v))
        {
            return Err(refuse(
                at,
                format_args!(
                    "its moved rectangle {shown} reaches outside the region: a region's cells \
                     lie within x and z 0..{REGION_SIZE} (region-local)"
                ),
            ));
        }
        if Tiles::under(mv.min, mv.max).count() == 0 {
            return Err(refuse(
                at,
                format_args!(
                    "its moved rectangle {shown} holds no tile centre (centres at 10, 30, 50, \
                     ...): a cell holds whole 20-unit tiles; move its sides at least a tile \
                     apart, best on the tile grid"
                ),
            ));
        }
    }
    for (i, a) in moves.iter().enumerate() {
        for b in moves.iter().skip(i + 1) {
            let (ta, tb) = (Tiles::under(a.min, a.max), Tiles::under(b.min, b.max));
            let x = ta.x.0.max(tb.x.0) < ta.x.1.min(tb.x.1);
            let z = ta.z.0.max(tb.z.0) < ta.z.1.min(tb.z.1);
            if x && z {
                return Err(refuse(
                    format_args!("cells[{}]", a.cell),
                    format_args!(
                        "its moved rectangle overlaps cells[{}]'s, also moved: cells do not \
                         overlap; move the sides they share to the same place",
                        b.cell
                    ),
                ));
            }
        }
    }
    // First every cell shrinks to what it keeps and lets go of the tiles it leaves, so that one
    // cell can grow over what another left.
    for mv in moves {
        leave(m, mv, out);
    }
    // Then each grows to its new rectangle, its index followed through the renumbering.
    let mut at: Vec<Option<usize>> = moves.iter().map(|mv| Some(mv.cell)).collect();
    for (k, mv) in moves.iter().enumerate() {
        let Some(cell) = at.get(k).copied().flatten() else {
            continue;
        };
        let renumbered = grow(m, cell, mv, out)?;
        if let Some(old) = renumbered {
            for a in at.iter_mut().chain(&mut went) {
                *a = a.and_then(|c| old.get(c).copied().flatten());
            }
        }
    }
    out.extend(crate::fix::fix(m));
    redo_edges(m, out);
    Ok(went)
}

/// Whether the centre of tile `i` lies in `min..=max`.
fn holds(min: [f32; 2], max: [f32; 2], i: usize) -> bool {
    let c = [
        ((i % TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE,
        ((i / TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE,
    ];
    (0..2).all(|a| min[a] <= c[a] && c[a] <= max[a])
}

/// Shrinks `mv`'s cell to the part of its rectangle it keeps (its old rectangle within the new
/// one) and makes the modern tiles it leaves name no cell, for the growth and the fix after it.
fn leave(m: &mut NavMeshTerrain, mv: &Move, out: &mut Vec<String>) {
    let Some(c) = m.cells.get_mut(mv.cell) else {
        return;
    };
    let (old_min, old_max) = (c.min.map(|v| v.get()), c.max.map(|v| v.get()));
    out.push(format!(
        "cells[{}]: now ({}, {})..({}, {}) (was ({}, {})..({}, {}))",
        mv.cell,
        mv.min[0],
        mv.min[1],
        mv.max[0],
        mv.max[1],
        old_min[0],
        old_min[1],
        old_max[0],
        old_max[1]
    ));
    let keep_min = [old_min[0].max(mv.min[0]), old_min[1].max(mv.min[1])];
    let keep_max = [old_max[0].min(mv.max[0]), old_max[1].min(mv.max[1])];
    c.min = keep_min.map(RawF32::new);
    c.max = keep_max.map(RawF32::new);
    let TileMap::Modern(tiles) = &mut m.tile_map else {
        return;
    };
    let own = i32::try_from(mv.cell).ok();
    let mut left = 0usize;
    let (mut lo, mut hi) = ([usize::MAX; 2], [0usize; 2]);
    for (i, t) in tiles.iter_mut().enumerate() {
        if Some(t.cell_index) != own || holds(keep_min, keep_max, i) {
            continue;
        }
        t.cell_index = -1;
        left += 1;
        let xz = [i % TILES_PER_SIDE, i / TILES_PER_SIDE];
        for a in 0..2 {
            lo[a] = lo[a].min(xz[a]);
            hi[a] = hi[a].max(xz[a]);
        }
    }
    if left > 0 {
        out.push(format!(
            "cells[{}]: left {left} tiles (x {}..={}, z {}..={}), given below to the cell \
             whose rectangle holds them, else to the nearest cell of their kind",
            mv.cell, lo[0], hi[0], lo[1], hi[1]
        ));
    }
}

/// Grows cell `cell` (`mv`'s, renumbered) to `mv`'s rectangle: it takes the tiles whose centres
/// it holds, cutting the cells that held them. Returns the renumbering, if cells were cut.
fn grow(
    m: &mut NavMeshTerrain,
    cell: usize,
    mv: &Move,
    out: &mut Vec<String>,
) -> Result<Option<Vec<Option<usize>>>> {
    let name = format!("cells[{cell}]");
    let taken = Tiles::under(mv.min, mv.max);
    let s = survey(m, taken, Some(cell));
    let open_cell = usize::try_from(m.open_cell_count).is_ok_and(|n| cell < n);
    let wrong = if open_cell { s.blocked } else { s.open };
    if let (Some(i), n) = wrong {
        let (x, z) = (i % TILES_PER_SIDE, i / TILES_PER_SIDE);
        let holder = s
            .owner
            .get(i)
            .copied()
            .flatten()
            .map_or_else(|| "no cell".to_string(), |c| format!("cells[{c}]"));
        return Err(refuse(
            &name,
            format_args!(
                "its moved side grows over tile_map[{i}] (x {x}, z {z}) of {holder}, a {} tile \
                 ({n} such in all), but it is {} cell: a cell's tiles are all open or all \
                 blocked; move the side over tiles of its kind only",
                if open_cell { "blocked" } else { "open" },
                if open_cell { "an open" } else { "a blocked" },
            ),
        ));
    }
    let renumbered = if s.tiles == 0 {
        set_size(m, cell, mv);
        None
    } else {
        let own = m
            .cells
            .get(cell)
            .map(|c| c.object_indices.clone())
            .unwrap_or_default();
        let objects = objects_of(m, &own, &s.from, &name)?;
        let by = format!("{name}'s moved rectangle");
        let from: BTreeSet<usize> = s.from.clone();
        let done = cut(m, &name, &by, taken, &s, None)?;
        let now = done.old.get(cell).copied().flatten().unwrap_or(cell);
        let more = objects.len().saturating_sub(own.len());
        let mut line = format!(
            "{name}: took {} tiles from {} (under its moved rectangle)",
            s.tiles,
            show_cells(&from)
        );
        if more > 0 {
            line.push_str(&format!(", and lists their {more} objects too"));
        }
        out.push(line);
        out.extend(done.lines);
        if let Some(c) = m.cells.get_mut(now) {
            c.object_indices = objects;
        }
        set_size(m, now, mv);
        set_tiles(m, taken, now);
        Some(done.old)
    };
    Ok(renumbered)
}

/// Gives cell `cell` `mv`'s rectangle.
fn set_size(m: &mut NavMeshTerrain, cell: usize, mv: &Move) {
    if let Some(c) = m.cells.get_mut(cell) {
        c.min = mv.min.map(RawF32::new);
        c.max = mv.max.map(RawF32::new);
    }
}
