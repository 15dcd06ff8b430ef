//! What the deletion and addition of cells share: the refusal and the renumbering of every
//! reference to a cell.

use nav_core::Error;

use crate::FORMAT;
use crate::model::{NavMeshTerrain, TileMap};

/// An edit this format cannot take, at `context`, saying why and what to do.
pub(super) fn refuse(context: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, context, message)
}

/// Renumbers every reference to a cell by `new` (old position → new position, `None` for a cell
/// that went, which a reference then names as -1; a reference past the list is left as it
/// was): the modern tile map, both sides of internal edges, side 0 of global edges.
pub(super) fn renumber(m: &mut NavMeshTerrain, new: &[Option<usize>]) {
    let map = |c: i64| -> Option<i64> {
        let old = usize::try_from(c).ok()?;
        match new.get(old) {
            Some(Some(n)) => i64::try_from(*n).ok(),
            Some(None) => Some(-1),
            None => Some(c),
        }
    };
    if let TileMap::Modern(tiles) = &mut m.tile_map {
        for t in tiles.iter_mut() {
            if let Some(c) = map(i64::from(t.cell_index)).and_then(|c| i32::try_from(c).ok()) {
                t.cell_index = c;
            }
        }
    }
    let side = |c: &mut i16| {
        if *c >= 0 {
            if let Some(n) = map(i64::from(*c)).and_then(|n| i16::try_from(n).ok()) {
                *c = n;
            }
        }
    };
    for e in &mut m.internal_edges {
        e.assoc_cell_index.iter_mut().for_each(side);
    }
    for e in &mut m.global_edges {
        if let Some(c) = e.assoc_cell_index.first_mut() {
            side(c);
        }
    }
}
