//! A mesh edit put onto a region ([`nav_core::Format::apply`]), everything else kept.
//!
//! The geometry ([`crate::geometry()`]) gives every cell its own four corners
//! ([`VertexIdentity::Corners`]), in the order `(min.x, max.z)`, `(max.x, max.z)`,
//! `(max.x, min.z)`, `(min.x, min.z)`, with heights from the height map. So:
//!
//! - **moved corners across the ground** (x, z) move the cell's sides (`apply/side.rs`): a cell
//!   stays an axis-aligned rectangle, so both corners of a side must move together (else the
//!   edit is refused, saying so), and two moved cells may not come to hold one tile centre. The
//!   rectangle is the moved corners' (not snapped to the tile grid), and the tiles follow it:
//!   first every moved cell lets go of the tiles whose centres its new rectangle leaves out (so
//!   that a neighbour moved with it can take them); then each takes the tiles whose centres its
//!   new rectangle holds, exactly as an added cell does (below): the cells it cuts are shrunk,
//!   split or deleted, and it lists their objects too. The tiles it grows over must all be of its
//!   kind (a blocked tile under an open cell's moved side is refused, naming the cell and the
//!   tile). The tiles let go of and taken by no moved cell go to the cell whose rectangle holds
//!   their centre, else, no rectangle holding them (a cell moved inward alone leaves a hole), to
//!   the nearest cell of their kind as [`crate::fix()`] gives a deleted cell's tiles: the tile
//!   map must name a cell for every tile, and the nearest one of the tile's kind is the one the
//!   game's lookup is least wrong with (the hole is left, as a deleted cell leaves one; only
//!   another cell's side or an added cell closes it). The edges are recomputed as after an
//!   addition.
//!   Lines: the new rectangle, the tiles let go of, the tiles taken and the cells cut, then
//!   fix's. Heights are untouched by a move across the ground;
//! - **moved corners up or down** (y) set the height-map vertex under the corner, which must lie
//!   on the 20-unit grid of the height map (cell corners do); the cells that share that vertex
//!   follow, as they do in the game;
//! - **deleted faces** delete their cell. Cells are named by their position in the list, so
//!   every reference is renumbered: the tile map (a tile of the deleted cell names none), both
//!   sides of internal edges and side 0 of global edges (-1 where it named the deleted cell),
//!   and the open-cell count when an open cell went. [`crate::fix()`] then gives the orphaned
//!   tiles the nearest cell of their kind and redoes the edges from the tile map;
//! - **added faces** become new cells (`apply/add.rs`): a face must be an axis-aligned rectangle
//!   (four corners, or more with extra corners on its sides) within the region; two added
//!   triangles that share an edge and together make one (a quad as glTF, which holds only
//!   triangles, writes it) are one face, named `faces[12]+faces[13]` (`apply/face.rs`), and a
//!   triangle that pairs with none is refused. The new cell
//!   takes the tiles whose centres lie inside it and its rectangle is theirs (a face off the
//!   20-unit tile grid is snapped to the tiles it holds, and the line says so); its corner heights
//!   are the height map's, the face's y being ignored (the line says so where they differ). The
//!   tiles must be all open or all blocked, and the cell is of their kind. Each cell that loses
//!   tiles keeps what is left of it: shrunk where that is a rectangle, else split into up to four
//!   rectangles (the largest keeps the cell's index, the others become new cells of its kind with
//!   its object list), deleted where nothing is left. New open cells go at the end of the open
//!   cells (position `open_cell_count`, which grows), new blocked ones at the end; every
//!   reference after them is renumbered as for a deletion. The new cell lists the objects of the
//!   cells it took tiles from. The tile map is rewritten for the tiles that changed cell, and the
//!   internal and global edges are recomputed from it ([`crate::fix()`]'s steps 4 and 5; a
//!   global edge cut in pieces keeps the neighbour side it had). A legacy file (no tile map) is
//!   treated alike, tiles belonging to the cell whose rectangle holds them and being of its kind.
//!
//! Moved sides are applied first (renumbering the cells they cut; a deleted face names its cell
//! as it became), then deletions (and fixed), then additions, in the edited mesh's order, each
//! seeing the cells the ones before it made; the lines of an addition name the cells by their
//! index before it. Neighbour regions' global edges name this region's cells by index: a cell
//! inserted among the open cells moves every blocked cell up by one, which those files do not
//! learn.

mod add;
mod face;
mod shared;
mod side;

use std::collections::BTreeMap;

use nav_core::edit::{MeshEdit, show_point};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::{RawF32, Result};

use shared::{refuse, renumber};
use side::Move;

use crate::model::{HEIGHTS_PER_SIDE, NavMeshTerrain, TILE_SIZE};

/// Puts `edit`, matched against `original` (this model's geometry), onto `m`; one line per
/// change (see the module docs).
pub fn apply(m: &mut NavMeshTerrain, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    if original.vertex_identity != VertexIdentity::Corners {
        return Err(refuse("apply", "the geometry is not this format's"));
    }
    if !edit.attributes.is_empty() {
        return Err(refuse("apply", "cells carry no attributes to change"));
    }
    // Moved corners by cell: (cell, corner) → new position.
    let mut by_cell: BTreeMap<usize, [Option<[f32; 3]>; 4]> = BTreeMap::new();
    for &(v, to) in &edit.moved {
        let (cell, corner) = corner_of(original, v)?;
        if let Some(slot) = by_cell.entry(cell).or_default().get_mut(corner) {
            *slot = Some(to);
        }
    }
    let mut out = Vec::new();
    let mut heights: BTreeMap<usize, f32> = BTreeMap::new();
    let mut moves: Vec<Move> = Vec::new();
    for (&cell, moved) in &by_cell {
        let Some(c) = m.cells.get(cell) else {
            return Err(refuse(format_args!("cells[{cell}]"), "is not in the file"));
        };
        let (min, max) = (c.min.map(|v| v.get()), c.max.map(|v| v.get()));
        let was = [
            [min[0], max[1]],
            [max[0], max[1]],
            [max[0], min[1]],
            [min[0], min[1]],
        ];
        let at = |k: usize| -> [f32; 2] {
            match moved.get(k).copied().flatten() {
                Some(p) => [p[0], p[2]],
                None => was.get(k).copied().unwrap_or_default(),
            }
        };
        let (c0, c1, c2, c3) = (at(0), at(1), at(2), at(3));
        if c0[0] != c3[0] || c1[0] != c2[0] || c0[1] != c1[1] || c2[1] != c3[1] {
            return Err(refuse(
                format_args!("cells[{cell}]"),
                "a cell is an axis-aligned rectangle: move both corners of a side together",
            ));
        }
        let (new_min, new_max) = ([c3[0], c3[1]], [c1[0], c1[1]]);
        if !(new_min[0] < new_max[0] && new_min[1] < new_max[1]) {
            return Err(refuse(
                format_args!("cells[{cell}]"),
                "the moved corners turn the cell inside out",
            ));
        }
        if new_min != min || new_max != max {
            moves.push(Move {
                cell,
                min: new_min,
                max: new_max,
            });
        }
        for (k, p) in moved.iter().enumerate() {
            let (Some(p), Some(old)) = (p, original_corner(original, cell, k)) else {
                continue;
            };
            if p[1] != old[1] {
                let h = height_index(p[0], p[2]).ok_or_else(|| {
                    refuse(
                        format_args!("cells[{cell}]"),
                        format_args!(
                            "corner {} is not on the 20-unit height grid: its height cannot move",
                            show_point(*p)
                        ),
                    )
                })?;
                if heights.insert(h, p[1]).is_some_and(|before| before != p[1]) {
                    return Err(refuse(
                        format_args!("height_map[{h}]"),
                        "corners on one height-map vertex moved to different heights",
                    ));
                }
            }
        }
    }
    let went = side::move_sides(m, &moves, &mut out)?;
    for (h, y) in heights {
        if let Some(slot) = m.height_map.get_mut(h) {
            out.push(format!("height_map[{h}]: {y} (was {})", slot.get()));
            *slot = RawF32::new(y);
        }
    }
    let deleted = edit
        .deleted
        .iter()
        .map(|&p| {
            original
                .polygons
                .get(p as usize)
                .and_then(|poly| poly.record)
                .map(|r| r.index as usize)
                .ok_or_else(|| refuse("apply", format_args!("polygon {p} names no cell")))
        })
        .collect::<Result<Vec<usize>>>()?;
    // A moved side may have deleted or renumbered cells: delete what each deleted face's cell
    // became (nothing where it went).
    let mut deleted: Vec<usize> = deleted
        .into_iter()
        .filter_map(|c| went.get(c).copied().unwrap_or(Some(c)))
        .collect();
    deleted.sort_unstable();
    deleted.dedup();
    delete_cells(m, &deleted, &mut out);
    out.extend(crate::fix::fix(m));
    if !edit.added.is_empty() {
        add::add_cells(m, &edit.added, &mut out)?;
        out.extend(crate::fix::fix(m));
    }
    Ok(out)
}

/// Deletes the cells at `deleted` (ascending) and renumbers every reference to the cells after
/// them; a reference to a deleted cell names none (-1), for [`crate::fix()`] to mend.
fn delete_cells(m: &mut NavMeshTerrain, deleted: &[usize], out: &mut Vec<String>) {
    if deleted.is_empty() {
        return;
    }
    // Old position to new, `None` for a deleted cell.
    let mut kept = 0usize;
    let new: Vec<Option<usize>> = (0..m.cells.len())
        .map(|i| {
            if deleted.binary_search(&i).is_ok() {
                None
            } else {
                kept += 1;
                Some(kept - 1)
            }
        })
        .collect();
    let open = usize::try_from(m.open_cell_count).unwrap_or(usize::MAX);
    let open_gone = deleted.iter().filter(|&&i| i < open).count();
    for &i in deleted.iter().rev() {
        if i < m.cells.len() {
            let c = m.cells.remove(i);
            out.push(format!(
                "cells[{i}]: deleted (({}, {})..({}, {}))",
                c.min[0].get(),
                c.min[1].get(),
                c.max[0].get(),
                c.max[1].get()
            ));
        }
    }
    if open_gone > 0 {
        let was = m.open_cell_count;
        m.open_cell_count = was.saturating_sub(u32::try_from(open_gone).unwrap_or(u32::MAX));
        out.push(format!(
            "open_cell_count: {} (was {was})",
            m.open_cell_count
        ));
    }
    renumber(m, &new);
}

/// The cell and corner (0 to 3) a geometry vertex is: cells push their four corners in order.
fn corner_of(g: &Geometry, v: u32) -> Result<(usize, usize)> {
    let v = usize::try_from(v).map_err(|_| refuse("apply", "vertex index"))?;
    let (cell, corner) = (v / 4, v % 4);
    let record = g
        .polygons
        .get(cell)
        .filter(|p| p.vertices.get(corner).is_some_and(|&w| w as usize == v))
        .and_then(|p| p.record);
    match record {
        Some(r) => Ok((r.index as usize, corner)),
        None => Err(refuse(
            "apply",
            format_args!("vertex {v} is no cell corner"),
        )),
    }
}

/// The original position of corner `k` of polygon `cell`.
fn original_corner(g: &Geometry, cell: usize, k: usize) -> Option<[f32; 3]> {
    let v = *g.polygons.get(cell)?.vertices.get(k)?;
    g.vertices.get(v as usize).copied()
}

/// The height-map index of a region-local point on the 20-unit grid, if it is on it.
fn height_index(x: f32, z: f32) -> Option<usize> {
    let grid = |c: f32| -> Option<usize> {
        let q = c / TILE_SIZE;
        if q.fract() != 0.0 || !(0.0..=96.0).contains(&q) {
            return None;
        }
        // A whole number from 0 to 96, checked above: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let i = q as usize;
        Some(i)
    };
    Some(grid(z)? * HEIGHTS_PER_SIDE + grid(x)?)
}
