//! Added faces as new cells: the rectangle a face draws, the tiles it takes, what is left of the
//! cells it takes them from, and the renumbering that keeps open cells first (see the parent
//! module's docs for the rules).

use std::collections::{BTreeMap, BTreeSet};

use nav_core::edit::AddedFace;
use nav_core::{RawF32, Result};

use super::face::{Drawn, drawn, rectangle};
use super::shared::{refuse, renumber};
use crate::fix::{cells_of_tiles, redo_edges, tile_cells};
use crate::geometry::ground;
use crate::model::{
    CellQuad, NavMeshTerrain, REGION_SIZE, TILE_COUNT, TILE_SIZE, TILES_PER_SIDE, TileFlag, TileMap,
};

/// The most objects a cell lists (its count is a byte).
const MAX_CELL_OBJECTS: usize = 255;

/// A rectangle of tiles: x in `x.0..x.1`, z in `z.0..z.1` (tile indices, upper bounds excluded).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Tiles {
    /// Columns `x.0..x.1`.
    pub(super) x: (usize, usize),
    /// Rows `z.0..z.1`.
    pub(super) z: (usize, usize),
}

impl Tiles {
    /// The tiles whose centres lie in the rectangle `min..=max` (world units).
    pub(super) fn under(min: [f32; 2], max: [f32; 2]) -> Tiles {
        Tiles {
            x: tile_span(min[0], max[0]),
            z: tile_span(min[1], max[1]),
        }
    }

    /// How many tiles.
    pub(super) fn count(self) -> usize {
        self.x.1.saturating_sub(self.x.0) * self.z.1.saturating_sub(self.z.0)
    }

    /// Its rectangle in world units.
    fn world(self) -> ([f32; 2], [f32; 2]) {
        let at = |t: usize| t as f32 * TILE_SIZE;
        ([at(self.x.0), at(self.z.0)], [at(self.x.1), at(self.z.1)])
    }
}

/// Adds one cell per face (two triangles that make a rectangle being one face), in order, then
/// recomputes the edges from the tile map.
pub(super) fn add_cells(
    m: &mut NavMeshTerrain,
    faces: &[AddedFace],
    out: &mut Vec<String>,
) -> Result<()> {
    for face in drawn(faces)? {
        add_cell(m, &face, out)?;
    }
    if !faces.is_empty() {
        redo_edges(m, out);
    }
    Ok(())
}

/// The tiles whose centres lie in `lo..=hi` along one axis, as `first..end`.
fn tile_span(lo: f32, hi: f32) -> (usize, usize) {
    let n = TILES_PER_SIDE as f32;
    let first = (lo / TILE_SIZE - 0.5).ceil().clamp(0.0, n);
    let end = ((hi / TILE_SIZE - 0.5).floor() + 1.0).clamp(0.0, n);
    // Whole numbers clamped into 0..=96 (finite inputs, checked by `rectangle`): exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let span = (first as usize, end as usize);
    span
}

/// The new cell's indices: the affected cells' own after the renumbering, and the appended
/// ones'.
struct Placed {
    old: Vec<Option<usize>>,
    appended: Vec<usize>,
}

/// A cell to append: its record, whether it is open, the tiles it holds.
pub(super) struct Appended {
    cell: CellQuad,
    open: bool,
    tiles: Tiles,
}

/// The tiles of a rectangle of tiles that a taker does not hold yet: who holds them, and their
/// kinds.
pub(super) struct Survey {
    /// Each tile's cell as the edges see it ([`tile_cells`]).
    pub(super) owner: Vec<Option<usize>>,
    /// The cells that hold taken tiles (the taker left out).
    pub(super) from: BTreeSet<usize>,
    /// How many taken tiles there are (the taker's own left out).
    pub(super) tiles: usize,
    /// The first open and the first blocked taken tile, and how many of each.
    pub(super) open: (Option<usize>, usize),
    /// See `open`.
    pub(super) blocked: (Option<usize>, usize),
}

/// Surveys the tiles of `taken` that `taker` (a cell of the file, or `None` for a new cell)
/// does not hold: modern tiles are of their `Blocked` flag's kind, legacy ones of the kind of
/// the cell whose rectangle holds them.
pub(super) fn survey(m: &NavMeshTerrain, taken: Tiles, taker: Option<usize>) -> Survey {
    let owner = tile_cells(m, &cells_of_tiles(&m.cells));
    let open = usize::try_from(m.open_cell_count)
        .unwrap_or(usize::MAX)
        .min(m.cells.len());
    let mut s = Survey {
        owner: Vec::new(),
        from: BTreeSet::new(),
        tiles: 0,
        open: (None, 0),
        blocked: (None, 0),
    };
    for z in taken.z.0..taken.z.1 {
        for x in taken.x.0..taken.x.1 {
            let i = z * TILES_PER_SIDE + x;
            let c = owner.get(i).copied().flatten();
            if c.is_some() && c == taker {
                continue;
            }
            s.tiles += 1;
            s.from.extend(c);
            let blocked = match &m.tile_map {
                TileMap::Modern(tiles) => tiles.get(i).map(|t| t.flags & TileFlag::BLOCKED != 0),
                TileMap::Legacy(_) => c.map(|c| c >= open),
            };
            let kind = match blocked {
                Some(true) => &mut s.blocked,
                Some(false) => &mut s.open,
                None => continue,
            };
            kind.0.get_or_insert(i);
            kind.1 += 1;
        }
    }
    s.owner = owner;
    s
}

/// The objects of the cells in `from` added to `own` (in order, each once), refused past the
/// most a cell can list.
pub(super) fn objects_of(
    m: &NavMeshTerrain,
    own: &[u16],
    from: &BTreeSet<usize>,
    at: &str,
) -> Result<Vec<u16>> {
    let mut objects: Vec<u16> = own.to_vec();
    let theirs: BTreeSet<u16> = from
        .iter()
        .filter_map(|&c| m.cells.get(c))
        .flat_map(|c| c.object_indices.iter().copied())
        .collect();
    objects.extend(theirs.into_iter().filter(|o| !own.contains(o)));
    if objects.len() > MAX_CELL_OBJECTS {
        return Err(refuse(
            at,
            format_args!(
                "the cells it takes tiles from list {} objects, more than the {MAX_CELL_OBJECTS} \
                 a cell can: make it smaller",
                objects.len()
            ),
        ));
    }
    Ok(objects)
}

/// Adds the cell `face` draws (see the module docs); one line per change.
fn add_cell(m: &mut NavMeshTerrain, face: &Drawn, out: &mut Vec<String>) -> Result<()> {
    let at = face.name.as_str();
    let (min, max, tol) = rectangle(face)?;
    if min.iter().any(|&v| v < -tol) || max.iter().any(|&v| v > REGION_SIZE + tol) {
        return Err(refuse(
            at,
            format_args!(
                "(x {}..{}, z {}..{}) lies outside the region: a region's cells lie within x and \
                 z 0..{REGION_SIZE} (region-local); draw the face inside it",
                min[0], max[0], min[1], max[1]
            ),
        ));
    }
    let taken = Tiles::under(min, max);
    if taken.count() == 0 {
        return Err(refuse(
            at,
            format_args!(
                "(x {}..{}, z {}..{}) covers no tile centre: a cell holds whole 20-unit tiles \
                 (centres at 10, 30, 50, ...); draw it at least one tile wide, best on the tile \
                 grid",
                min[0], max[0], min[1], max[1]
            ),
        ));
    }
    let s = survey(m, taken, None);
    let (open_tiles, blocked_tiles) = (s.open.1, s.blocked.1);
    if open_tiles > 0 && blocked_tiles > 0 {
        return Err(refuse(
            at,
            format_args!(
                "covers {open_tiles} open and {blocked_tiles} blocked tiles: a cell's tiles are \
                 all open or all blocked; draw it over tiles of one kind"
            ),
        ));
    }
    let new_open = blocked_tiles == 0;
    let (tmin, tmax) = taken.world();
    let objects = objects_of(m, &[], &s.from, at)?;
    let new_cell = Appended {
        cell: CellQuad {
            min: tmin.map(RawF32::new),
            max: tmax.map(RawF32::new),
            object_indices: objects,
        },
        open: new_open,
        tiles: taken,
    };
    let done = cut(m, at, "the new cell", taken, &s, Some(new_cell))?;
    let new_index = done.appended.first().copied().unwrap_or(m.cells.len());

    // The lines, naming cells by their index before this face.
    let mut line = format!(
        "cells[{new_index}]: new {} cell (x {}..{}, z {}..{}) from {at}, took {} tiles from {}",
        if new_open { "open" } else { "blocked" },
        tmin[0],
        tmax[0],
        tmin[1],
        tmax[1],
        taken.count(),
        show_cells(&s.from)
    );
    let snapped = min
        .iter()
        .zip(&tmin)
        .chain(max.iter().zip(&tmax))
        .any(|(a, b)| (a - b).abs() > tol);
    if snapped {
        line.push_str(&format!(
            "; the face (x {}..{}, z {}..{}) snapped to the tiles whose centres it holds",
            min[0], max[0], min[1], max[1]
        ));
    }
    let off = face
        .positions
        .iter()
        .map(|p| (p[1] - ground(m, p[0], p[2])).abs())
        .fold(0.0f32, f32::max);
    if off > tol {
        line.push_str(&format!(
            "; its corners' heights are the height map's, not the face's y (off by up to {off})"
        ));
    }
    out.push(line);
    out.extend(done.lines);
    Ok(())
}

/// `no cell`, `cell 4`, `cells 4, 9`.
pub(super) fn show_cells(cells: &BTreeSet<usize>) -> String {
    let list: Vec<String> = cells.iter().map(usize::to_string).collect();
    match list.len() {
        0 => "no cell".to_string(),
        1 => format!("cell {}", list.join("")),
        _ => format!("cells {}", list.join(", ")),
    }
}

/// What [`cut`] did: every old cell's new index (`None` where it went), the appended cells'
/// indices, and its lines (naming cells by their index before it).
pub(super) struct Cut {
    /// Old position to new, `None` for a cell that went.
    pub(super) old: Vec<Option<usize>>,
    /// Where each appended cell went, in the order given.
    pub(super) appended: Vec<usize>,
    /// One line per change.
    pub(super) lines: Vec<String>,
}

/// Cuts the tiles of `taken` out of the cells that hold them (`s.from`, as `s` surveyed them):
/// each keeps what is left of it (shrunk, split into pieces appended as new cells of its kind,
/// or deleted), `new_cell` (if any) is appended first, open cells are kept first, every
/// reference is renumbered and the open-cell count kept; the appended cells' tiles are
/// rewritten. `by` names the taker in the lines (`the new cell`). Refused, changing nothing,
/// where a cell cut holds tiles that make no rectangle.
pub(super) fn cut(
    m: &mut NavMeshTerrain,
    at: &str,
    by: &str,
    taken: Tiles,
    s: &Survey,
    new_cell: Option<Appended>,
) -> Result<Cut> {
    let cells = m.cells.len();
    let open = usize::try_from(m.open_cell_count)
        .unwrap_or(usize::MAX)
        .min(cells);
    // Each affected cell's tiles, as a rectangle.
    let mut footprint: BTreeMap<usize, (Tiles, usize)> = BTreeMap::new();
    for (i, c) in s.owner.iter().enumerate() {
        let Some(c) = c.filter(|c| s.from.contains(c)) else {
            continue;
        };
        let (x, z) = (i % TILES_PER_SIDE, i / TILES_PER_SIDE);
        let (f, n) = footprint.entry(c).or_insert((
            Tiles {
                x: (x, x + 1),
                z: (z, z + 1),
            },
            0,
        ));
        f.x = (f.x.0.min(x), f.x.1.max(x + 1));
        f.z = (f.z.0.min(z), f.z.1.max(z + 1));
        *n += 1;
    }
    if let Some((c, _)) = footprint.iter().find(|(_, (f, n))| f.count() != *n) {
        return Err(refuse(
            at,
            format_args!(
                "cells[{c}], which it takes tiles from, holds tiles that make no rectangle: it \
                 cannot be cut; mend the tile map first"
            ),
        ));
    }

    let mut appended: Vec<Appended> = new_cell.into_iter().collect();
    let mut gone: BTreeSet<usize> = BTreeSet::new();
    // Affected cell → (piece kept, appended indices of the other pieces).
    let mut kept: BTreeMap<usize, (Tiles, Vec<usize>)> = BTreeMap::new();
    for (&c, &(f, _)) in &footprint {
        let mut pieces = pieces(f, taken);
        let Some(keep) = (0..pieces.len()).max_by_key(|&k| {
            (
                pieces.get(k).map_or(0, |p| p.count()),
                core::cmp::Reverse(k),
            )
        }) else {
            gone.insert(c);
            continue;
        };
        let keep = pieces.remove(keep);
        let Some(cell) = m.cells.get(c).cloned() else {
            continue;
        };
        let mut rest = Vec::new();
        for p in pieces {
            rest.push(appended.len());
            appended.push(Appended {
                cell: CellQuad {
                    object_indices: cell.object_indices.clone(),
                    ..piece_rectangle(&cell, f, p)
                },
                open: c < open,
                tiles: p,
            });
        }
        kept.insert(c, (keep, rest));
    }
    let placed = place(cells, open, &gone, &appended);

    let mut lines = Vec::new();
    for &c in &gone {
        if let Some(cell) = m.cells.get(c) {
            lines.push(format!(
                "cells[{c}]: wholly inside {by}, deleted ({})",
                show_rectangle(cell)
            ));
        }
    }
    for (&c, (keep, rest)) in &kept {
        let (Some(cell), Some(&(f, _))) = (m.cells.get_mut(c), footprint.get(&c)) else {
            continue;
        };
        let now = piece_rectangle(cell, f, *keep);
        let was = show_rectangle(cell);
        cell.min = now.min;
        cell.max = now.max;
        let mut line = format!("cells[{c}]: now {} (was {was})", show_rectangle(cell));
        if !rest.is_empty() {
            let names: Vec<String> = rest
                .iter()
                .filter_map(|&k| placed.appended.get(k))
                .map(|i| format!("cells[{i}]"))
                .collect();
            line.push_str(&format!(
                ", the rest of it in new {} {}",
                if c < open { "open" } else { "blocked" },
                names.join(", ")
            ));
        }
        lines.push(line);
    }

    // The new list, every reference renumbered, the tiles that changed cell rewritten.
    let moved = placed
        .old
        .iter()
        .enumerate()
        .filter(|(i, n)| n.is_some_and(|n| n != *i))
        .count();
    if moved > 0 {
        lines.push(format!(
            "cells: {moved} cells renumbered (open cells come first, new ones after them)"
        ));
    }
    let total = cells - gone.len() + appended.len();
    let mut slots: Vec<Option<CellQuad>> = vec![None; total];
    for (i, cell) in m.cells.drain(..).enumerate() {
        if let Some(slot) = placed
            .old
            .get(i)
            .copied()
            .flatten()
            .and_then(|n| slots.get_mut(n))
        {
            *slot = Some(cell);
        }
    }
    for (a, &n) in appended.iter().zip(&placed.appended) {
        if let Some(slot) = slots.get_mut(n) {
            *slot = Some(a.cell.clone());
        }
    }
    m.cells = slots.into_iter().flatten().collect();
    renumber(m, &placed.old);
    let open_now = (0..cells)
        .filter(|&i| i < open && !gone.contains(&i))
        .count()
        + appended.iter().filter(|a| a.open).count();
    if let Ok(open_now) = u32::try_from(open_now) {
        if open_now != m.open_cell_count {
            lines.push(format!(
                "open_cell_count: {open_now} (was {})",
                m.open_cell_count
            ));
            m.open_cell_count = open_now;
        }
    }
    for (a, &n) in appended.iter().zip(&placed.appended) {
        set_tiles(m, a.tiles, n);
    }
    debug_assert_eq!(m.tile_map.len(), TILE_COUNT);
    Ok(Cut {
        old: placed.old,
        appended: placed.appended,
        lines,
    })
}

/// Makes every modern tile of `tiles` name cell `n` (legacy tiles name none).
pub(super) fn set_tiles(m: &mut NavMeshTerrain, tiles: Tiles, n: usize) {
    let (TileMap::Modern(map), Ok(n)) = (&mut m.tile_map, i32::try_from(n)) else {
        return;
    };
    for z in tiles.z.0..tiles.z.1 {
        for x in tiles.x.0..tiles.x.1 {
            if let Some(t) = map.get_mut(z * TILES_PER_SIDE + x) {
                t.cell_index = n;
            }
        }
    }
}

/// What is left of the tiles `f` once `t` is taken: the rows below and above `t` across the
/// whole of `f`, then the columns left and right of `t` within its rows; empty pieces left out.
fn pieces(f: Tiles, t: Tiles) -> Vec<Tiles> {
    let (z0, z1) = (f.z.0.max(t.z.0), f.z.1.min(t.z.1));
    let (x0, x1) = (f.x.0.max(t.x.0), f.x.1.min(t.x.1));
    if z0 >= z1 || x0 >= x1 {
        return vec![f];
    }
    [
        Tiles {
            x: f.x,
            z: (f.z.0, z0),
        },
        Tiles {
            x: f.x,
            z: (z1, f.z.1),
        },
        Tiles {
            x: (f.x.0, x0),
            z: (z0, z1),
        },
        Tiles {
            x: (x1, f.x.1),
            z: (z0, z1),
        },
    ]
    .into_iter()
    .filter(|p| p.count() > 0)
    .collect()
}

/// The rectangle of piece `p` of `cell` (whose tiles are `f`): the cell's own side where the
/// piece reaches it (its stored bits kept), the tile border where the piece was cut.
fn piece_rectangle(cell: &CellQuad, f: Tiles, p: Tiles) -> CellQuad {
    let at = |t: usize| RawF32::new(t as f32 * TILE_SIZE);
    let side = |own: RawF32, reaches: bool, t: usize| if reaches { own } else { at(t) };
    CellQuad {
        min: [
            side(cell.min[0], p.x.0 == f.x.0, p.x.0),
            side(cell.min[1], p.z.0 == f.z.0, p.z.0),
        ],
        max: [
            side(cell.max[0], p.x.1 == f.x.1, p.x.1),
            side(cell.max[1], p.z.1 == f.z.1, p.z.1),
        ],
        object_indices: Vec::new(),
    }
}

/// Where every cell goes: the kept open cells in order, the new open ones, the kept blocked
/// cells in order, the new blocked ones.
fn place(cells: usize, open: usize, gone: &BTreeSet<usize>, appended: &[Appended]) -> Placed {
    let mut old = vec![None; cells];
    let mut new = vec![0; appended.len()];
    let mut next = 0usize;
    let mut take = |slot: &mut usize| {
        *slot = next;
        next += 1;
    };
    for (i, o) in old.iter_mut().enumerate().take(open) {
        if !gone.contains(&i) {
            take(o.insert(0));
        }
    }
    for (a, n) in appended.iter().zip(new.iter_mut()) {
        if a.open {
            take(n);
        }
    }
    for (i, o) in old.iter_mut().enumerate().skip(open) {
        if !gone.contains(&i) {
            take(o.insert(0));
        }
    }
    for (a, n) in appended.iter().zip(new.iter_mut()) {
        if !a.open {
            take(n);
        }
    }
    Placed { old, appended: new }
}

/// `(x0, z0)..(x1, z1)`, as the other lines of apply show a cell.
fn show_rectangle(c: &CellQuad) -> String {
    format!(
        "({}, {})..({}, {})",
        c.min[0].get(),
        c.min[1].get(),
        c.max[0].get(),
        c.max[1].get()
    )
}
