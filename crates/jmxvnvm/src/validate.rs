//! Semantic checks of a model, beyond what parsing needs.
//!
//! Indices that name nothing are errors; oddities the game may cope with (directions that do not
//! face each other, a direction without a cell) are warnings; values outside what is documented
//! (a flag byte over 1, a plane type over 3) are informational.
//!
//! A modern tile names the cell that holds it, and the cells are rectangles: a tile whose centre
//! lies in another cell's rectangle and not in its own is an error (one finding per pair of
//! cells, at most [`MAX_TILE_PAIRS`] of them and then a count), which [`crate::fix()`] mends by
//! giving every tile the cell whose rectangle holds it. A tile whose centre lies in no cell's
//! rectangle at all is not reported: that is a hole in the cells, which deleting a cell (or
//! moving a side inward alone) leaves and fix keeps on purpose, giving the tiles the nearest cell
//! of their kind (it cannot move rectangles); the navkit-lib and jmxvnvm tests hold such a fixed
//! region as validating clean. No real `.nvm` file could be checked (none is public, see the
//! corpus README): the repository's four samples and the builder's regions have no tile outside
//! the cell it names, of either kind.

use std::collections::BTreeMap;

use nav_core::{Finding, Place};

use crate::model::{EdgeDirection, NavMeshTerrain, TILE_SIZE, TILES_PER_SIDE, TileMap};

/// The most findings about tiles in another cell's rectangle, one per pair of cells; the rest are
/// counted in one more.
pub const MAX_TILE_PAIRS: usize = 16;

/// Every finding about `model`, in file order.
pub fn validate(model: &NavMeshTerrain) -> Vec<Finding> {
    let mut out = Vec::new();
    let objects = model.objects.len();
    let cells = model.cells.len();

    for (i, o) in model.objects.iter().enumerate() {
        for (j, l) in o.linked_edges.iter().enumerate() {
            let at = || Place::at("objects", i).index("linked_edges", j);
            match usize::try_from(l.other_object_index) {
                Ok(k) if k >= objects => out.push(Finding::error(
                    at(),
                    format!("other object index {k} is past the {objects} objects of the region"),
                )),
                Ok(_) => {}
                Err(_) if l.other_object_index == -1 => {}
                Err(_) => out.push(Finding::warning(
                    at(),
                    format!(
                        "other object index {} is negative but not the -1 sentinel",
                        l.other_object_index
                    ),
                )),
            }
            for (name, v) in [
                ("other edge index", l.other_edge_index),
                ("edge index", l.edge_index),
            ] {
                if v < -1 {
                    out.push(Finding::warning(
                        at(),
                        format!("{name} {v} is negative but not the -1 sentinel"),
                    ));
                }
            }
        }
        for (name, v) in [("is_big", o.is_big), ("is_struct", o.is_struct)] {
            if v > 1 {
                out.push(Finding::info(
                    ("objects", i),
                    format!("{name} is {v}, not a boolean 0 or 1"),
                ));
            }
        }
    }

    if usize::try_from(model.open_cell_count).map_or(true, |n| n > cells) {
        out.push(Finding::error(
            "open_cell_count",
            format!(
                "open cell count {} exceeds the {cells} cells",
                model.open_cell_count
            ),
        ));
    }
    for (i, c) in model.cells.iter().enumerate() {
        for (j, &o) in c.object_indices.iter().enumerate() {
            if usize::from(o) >= objects {
                out.push(Finding::error(
                    Place::at("cells", i).cell().index("object_indices", j),
                    format!("object index {o} is past the {objects} objects"),
                ));
            }
        }
        let (min, max) = (c.min.map(|v| v.get()), c.max.map(|v| v.get()));
        if min[0] > max[0] || min[1] > max[1] || min.iter().chain(&max).any(|v| v.is_nan()) {
            out.push(Finding::warning(
                Place::at("cells", i).cell(),
                format!(
                    "rectangle ({}, {})..({}, {}) is not a proper min/max pair",
                    c.min[0], c.min[1], c.max[0], c.max[1]
                ),
            ));
        }
    }

    for (i, e) in model.global_edges.iter().enumerate() {
        // Side 1 names a cell of the neighbour region unless both sides are this region.
        let check_far = e.assoc_region_id[0] == e.assoc_region_id[1];
        edge_sides(
            &mut out,
            &Place::at("global_edges", i),
            e.assoc_cell_index,
            e.assoc_direction,
            cells,
            check_far,
        );
    }
    for (i, e) in model.internal_edges.iter().enumerate() {
        edge_sides(
            &mut out,
            &Place::at("internal_edges", i),
            e.assoc_cell_index,
            e.assoc_direction,
            cells,
            true,
        );
    }

    if let TileMap::Modern(tiles) = &model.tile_map {
        for (i, t) in tiles.iter().enumerate() {
            if usize::try_from(t.cell_index).map_or(true, |c| c >= cells) {
                out.push(
                    Finding::error(
                        ("tile_map", i),
                        format!(
                            "cell index {} is not one of the {cells} cells",
                            t.cell_index
                        ),
                    )
                    .worded(format!(
                        "tile_map[{i}] (x {}, z {})",
                        i % 96,
                        i / 96
                    )),
                );
            }
        }
    }
    tiles_against_cells(model, &mut out);
    let nan = model.height_map.iter().filter(|h| h.get().is_nan()).count();
    if nan > 0 {
        out.push(Finding::warning(
            "height_map",
            format!("{nan} heights are NaN"),
        ));
    }
    if let Some(p) = &model.planes {
        for (i, &t) in p.types.iter().enumerate() {
            if t > 3 {
                out.push(Finding::info(
                    Place::of("planes").index("types", i),
                    format!("plane type {t} is outside the documented 0..=3"),
                ));
            }
        }
    }
    out
}

fn edge_sides(
    out: &mut Vec<Finding>,
    at: &Place,
    cell: [i16; 2],
    direction: [i8; 2],
    cells: usize,
    check_far: bool,
) {
    for side in 0..2 {
        let (c, d) = (cell[side], direction[side]);
        if side == 0 || check_far {
            match usize::try_from(c) {
                Ok(k) if k >= cells => out.push(Finding::error(
                    at.clone(),
                    format!("cell index {k} on side {side} is past the {cells} cells"),
                )),
                Ok(_) => {}
                Err(_) if c == -1 => {}
                Err(_) => out.push(Finding::warning(
                    at.clone(),
                    format!("cell index {c} on side {side} is negative but not the -1 sentinel"),
                )),
            }
        }
        if EdgeDirection::opposite(d).is_none() {
            out.push(Finding::warning(
                at.clone(),
                format!("direction {d} on side {side} is outside -1..=3"),
            ));
        } else if (c == -1) != (d == -1) {
            out.push(Finding::warning(
                at.clone(),
                format!(
                    "side {side} pairs cell index {c} with direction {d}: a missing cell and a \
                     missing direction go together"
                ),
            ));
        }
    }
    if cell[0] != -1 && cell[1] != -1 && direction[0] != -1 && direction[1] != -1 {
        if let Some(opp) = EdgeDirection::opposite(direction[0]) {
            if EdgeDirection::opposite(direction[1]).is_some() && opp != direction[1] {
                out.push(Finding::warning(
                    at.clone(),
                    format!(
                        "directions {} and {} do not face each other",
                        direction[0], direction[1]
                    ),
                ));
            }
        }
    }
}

/// Whether the centre of tile `i` lies in `c`'s rectangle (bounds included, as
/// [`crate::fix()`] reads them).
fn holds(c: &crate::model::CellQuad, i: usize) -> bool {
    let centre = [
        ((i % TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE,
        ((i / TILES_PER_SIDE) as f32 + 0.5) * TILE_SIZE,
    ];
    (0..2).all(|a| {
        c.min.get(a).is_some_and(|lo| lo.get() <= centre[a])
            && c.max.get(a).is_some_and(|hi| centre[a] <= hi.get())
    })
}

/// The tiles a pair of cells (or one cell and no other) share: the first, and how many.
#[derive(Debug, Clone, Copy)]
struct Tally {
    first: usize,
    count: usize,
}

impl Tally {
    fn add(entry: Option<&mut Tally>, i: usize) -> Option<Tally> {
        match entry {
            Some(t) => {
                t.count += 1;
                None
            }
            None => Some(Tally { first: i, count: 1 }),
        }
    }

    /// `tile_map[97] (x 1, z 1)`, `12 tiles (this the first) name` (`this tile names` for one),
    /// and `lie` (`lies`).
    fn show(self) -> (String, String, &'static str) {
        let i = self.first;
        let at = format!(
            "tile_map[{i}] (x {}, z {})",
            i % TILES_PER_SIDE,
            i / TILES_PER_SIDE
        );
        let how_many = match self.count {
            0 | 1 => "this tile names".to_string(),
            n => format!("{n} tiles (this the first) name"),
        };
        (at, how_many, if self.count > 1 { "lie" } else { "lies" })
    }
}

/// Modern tiles whose centre lies outside the cell they name and in another cell's rectangle
/// (see the module docs).
fn tiles_against_cells(model: &NavMeshTerrain, out: &mut Vec<Finding>) {
    let TileMap::Modern(tiles) = &model.tile_map else {
        return;
    };
    let cells = &model.cells;
    // (named cell, holding cell) → tiles.
    let mut elsewhere: BTreeMap<(usize, usize), Tally> = BTreeMap::new();
    for (i, t) in tiles.iter().enumerate() {
        let Some(own) = usize::try_from(t.cell_index)
            .ok()
            .and_then(|c| cells.get(c).map(|q| (c, q)))
        else {
            continue; // names no cell: reported above
        };
        if holds(own.1, i) {
            continue;
        }
        // A tile in no rectangle is a hole in the cells, not a wrong reference (see the module
        // docs).
        if let Some(d) = cells.iter().position(|q| holds(q, i)) {
            if let Some(t) = Tally::add(elsewhere.get_mut(&(own.0, d)), i) {
                elsewhere.insert((own.0, d), t);
            }
        }
    }
    for (&(c, d), &t) in elsewhere.iter().take(MAX_TILE_PAIRS) {
        let (at, who, lie) = t.show();
        out.push(
            Finding::error(
                ("tile_map", t.first),
                format!(
                    "{who} cells[{c}] but {lie} in cells[{d}]'s rectangle, not in \
                     cells[{c}]'s: a tile names the cell whose rectangle holds its centre"
                ),
            )
            .worded(at),
        );
    }
    if elsewhere.len() > MAX_TILE_PAIRS {
        let rest: Vec<Tally> = elsewhere.values().skip(MAX_TILE_PAIRS).copied().collect();
        let tiles: usize = rest.iter().map(|t| t.count).sum();
        let first = rest.first().map_or(0, |t| t.first);
        out.push(
            Finding::error(
                ("tile_map", first),
                format!(
                    "and {tiles} more tiles, for {} more pairs of cells, name a cell whose \
                     rectangle does not hold them while another's does",
                    rest.len()
                ),
            )
            .worded(Tally { first, count: 1 }.show().0),
        );
    }
}
