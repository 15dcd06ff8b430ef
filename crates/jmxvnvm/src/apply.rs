//! A mesh edit put onto a region ([`nav_core::Format::apply`]), everything else kept.
//!
//! The geometry ([`crate::geometry()`]) gives every cell its own four corners
//! ([`VertexIdentity::Corners`]), in the order `(min.x, max.z)`, `(max.x, max.z)`,
//! `(max.x, min.z)`, `(min.x, min.z)`, with heights from the height map. So:
//!
//! - **moved corners across the ground** (x, z) move the cell's sides: a cell stays an
//!   axis-aligned rectangle, so both corners of a side must move together (else the edit is
//!   refused, saying so); the tile map and edges that derive from the cells are then brought up
//!   to date by [`crate::fix()`] where validate finds them broken;
//! - **moved corners up or down** (y) set the height-map vertex under the corner, which must lie
//!   on the 20-unit grid of the height map (cell corners do); the cells that share that vertex
//!   follow, as they do in the game;
//! - **deleted and added faces** are refused for now: cells are named by their position in the
//!   list (tiles, edges and the open-cell count), and deleting or inserting one needs every such
//!   reference renumbered.

use std::collections::BTreeMap;

use nav_core::edit::{MeshEdit, show_point};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::{Error, RawF32, Result};

use crate::FORMAT;
use crate::model::{HEIGHTS_PER_SIDE, NavMeshTerrain, TILE_SIZE};

fn refuse(context: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, context, message)
}

/// Puts `edit`, matched against `original` (this model's geometry), onto `m`; one line per
/// change (see the module docs).
pub fn apply(m: &mut NavMeshTerrain, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    if original.vertex_identity != VertexIdentity::Corners {
        return Err(refuse("apply", "the geometry is not this format's"));
    }
    if let Some(&p) = edit.deleted.first() {
        return Err(refuse(
            format_args!("cells[{p}]"),
            "deleting cells is not supported yet (tiles, edges and the open-cell count name \
             cells by position): restore the face",
        ));
    }
    if let Some(face) = edit.added.first() {
        return Err(refuse(
            format_args!("faces[{}]", face.face),
            "adding cells is not supported yet (open cells come first, so a new cell renumbers \
             the others): remove the face",
        ));
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
            if let Some(c) = m.cells.get_mut(cell) {
                c.min = new_min.map(RawF32::new);
                c.max = new_max.map(RawF32::new);
            }
            out.push(format!(
                "cells[{cell}]: now ({}, {})..({}, {}) (was ({}, {})..({}, {}))",
                new_min[0], new_min[1], new_max[0], new_max[1], min[0], min[1], max[0], max[1]
            ));
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
    for (h, y) in heights {
        if let Some(slot) = m.height_map.get_mut(h) {
            out.push(format!("height_map[{h}]: {y} (was {})", slot.get()));
            *slot = RawF32::new(y);
        }
    }
    out.extend(crate::fix::fix(m));
    Ok(out)
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
