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
//! 2. **Tile map** (modern layout) with a tile that names no cell, or that names a cell whose
//!    rectangle does not hold its centre while another's does: every tile's cell index is
//!    recomputed from the cell rectangles (the cell holding the tile's centre). A tile that no
//!    rectangle holds keeps its index if it names a cell; one that names no cell (the tiles of a
//!    deleted cell, whose rectangle went with it) is given the **nearest** cell: the one whose
//!    rectangle is closest to the tile's centre, among the cells of the tile's kind (a blocked
//!    tile goes to a cell that holds blocked tiles, an open tile to one that holds none) where
//!    there is one, the lowest index on a tie. One line per cell that received such tiles.
//! 3. **Open-cell count** past the cells, or a tile map in which tiles were given the nearest cell
//!    (a deleted open cell leaves the count one too high, counting the first solid cell as
//!    open): recomputed as the number of leading cells none of whose tiles is blocked (modern),
//!    or as the number of cells (legacy tiles carry no flags).
//! 4. **Internal edges** with an error, or whose tile map or open-cell count changed: recomputed
//!    with the builder's [`crate::build::internal_edges`]. An edge with the same ends and
//!    direction as before keeps its flag bits other than Internal and Blocked.
//! 5. **Global edges** with an error, or whose tile map changed: recomputed with the builder's
//!    [`crate::build::global_edges`] for the region most of them name. An edge with the same ends
//!    and direction as before keeps the neighbour region's side (cell, direction, region) and its
//!    flag bits other than Global, which the builder cannot know. One that is new is first cut
//!    where an old edge on its line begins or ends, and each piece within an old edge keeps that
//!    edge's neighbour side and flag bits (a cell added by [`crate::apply`] cuts border runs).
//!
//! Locations name records by their index before the fix.

use std::collections::HashMap;

use nav_core::{Finding, RawF32, Severity};

use crate::build::{global_edges, internal_edges};
use crate::model::{
    CellQuad, EdgeFlag, EdgeGlobal, NavMeshTerrain, TILE_COUNT, TILE_SIZE, TILES_PER_SIDE, Tile,
    TileFlag, TileMap,
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
/// that names nothing, an open-cell count past the cells. (A tile that names no cell is given
/// the nearest one where no rectangle holds it; only a region without cells leaves it.)
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
    let retiled = if has(Kind::TileMap) {
        retile(m, &by_rectangle, &mut out)
    } else {
        Retiled::default()
    };
    let tiles_changed = retiled.changed();
    let open_changed = (has(Kind::OpenCellCount) || retiled.orphans > 0)
        && recount_open(m, &by_rectangle, &mut out);
    let table = tile_cells(m, &by_rectangle);
    if has(Kind::InternalEdge) || tiles_changed || open_changed {
        redo_internal_edges(m, &table, &mut out);
    }
    if has(Kind::GlobalEdge) || tiles_changed {
        redo_global_edges(m, &table, &mut out);
    }
    out
}

/// Recomputes the internal and global edges from the tile map (steps 4 and 5), whether or not
/// validate finds them broken: for an edit that changed which cell holds which tiles without
/// leaving a reference that names nothing (a cell added by [`crate::apply`]). One line per list
/// that changed.
pub(crate) fn redo_edges(m: &mut NavMeshTerrain, out: &mut Vec<String>) {
    let table = tile_cells(m, &cells_of_tiles(&m.cells));
    redo_internal_edges(m, &table, out);
    redo_global_edges(m, &table, out);
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
pub(crate) fn cells_of_tiles(cells: &[CellQuad]) -> Vec<Option<usize>> {
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
pub(crate) fn tile_cells(m: &NavMeshTerrain, by_rectangle: &[Option<usize>]) -> Vec<Option<usize>> {
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

/// What [`retile`] changed: tiles given the cell whose rectangle holds them, and tiles that named
/// no cell given the nearest one.
#[derive(Debug, Default, Clone, Copy)]
struct Retiled {
    by_rectangle: usize,
    orphans: usize,
}

impl Retiled {
    fn changed(self) -> bool {
        self.by_rectangle > 0 || self.orphans > 0
    }
}

/// Step 2: every modern tile's cell index from the rectangles; a tile that no rectangle holds
/// and that names no cell gets the nearest cell.
fn retile(
    m: &mut NavMeshTerrain,
    by_rectangle: &[Option<usize>],
    out: &mut Vec<String>,
) -> Retiled {
    let cells = m.cells.len();
    let TileMap::Modern(tiles) = &mut m.tile_map else {
        return Retiled::default();
    };
    let names_cell = |t: &Tile| usize::try_from(t.cell_index).is_ok_and(|c| c < cells);
    // The tiles that name no cell and that no rectangle holds, before anything changes.
    let orphaned: Vec<usize> = tiles
        .iter()
        .zip(by_rectangle)
        .enumerate()
        .filter(|(_, (t, cell))| cell.is_none() && !names_cell(t))
        .map(|(i, _)| i)
        .collect();
    let (mut done, mut homeless) = (Retiled::default(), 0usize);
    for (t, cell) in tiles.iter_mut().zip(by_rectangle) {
        match cell.and_then(|c| i32::try_from(c).ok()) {
            Some(c) if c != t.cell_index => {
                t.cell_index = c;
                done.by_rectangle += 1;
            }
            Some(_) => {}
            None => homeless += 1,
        }
    }
    if done.by_rectangle > 0 {
        out.push(format!(
            "tile_map: recomputed the cell index of {} tiles from the cell rectangles{}",
            done.by_rectangle,
            if homeless > orphaned.len() {
                format!(
                    " ({} tiles lie in no cell and keep theirs)",
                    homeless - orphaned.len()
                )
            } else {
                String::new()
            }
        ));
    }
    done.orphans = adopt_orphans(&m.cells, tiles, &orphaned, out);
    done
}

/// Gives each tile of `orphaned` (tiles that name no cell and that no rectangle holds) the
/// nearest cell of its kind, else the nearest cell; one line per cell that received tiles.
/// Returns how many tiles were given a cell.
fn adopt_orphans(
    cells: &[CellQuad],
    tiles: &mut [Tile],
    orphaned: &[usize],
    out: &mut Vec<String>,
) -> usize {
    if orphaned.is_empty() || cells.is_empty() {
        return 0;
    }
    // A cell's kind, from the tiles that name it: solid when it holds a blocked tile.
    let mut solid = vec![false; cells.len()];
    for t in tiles.iter() {
        if let Some(s) = usize::try_from(t.cell_index)
            .ok()
            .and_then(|c| solid.get_mut(c))
        {
            *s |= t.flags & TileFlag::BLOCKED != 0;
        }
    }
    // Receiving cell -> (tiles, x range, z range, old indices).
    let mut given: std::collections::BTreeMap<usize, Adopted> = std::collections::BTreeMap::new();
    for &i in orphaned {
        let Some(t) = tiles.get_mut(i) else {
            continue;
        };
        let (x, z) = (i % TILES_PER_SIDE, i / TILES_PER_SIDE);
        let blocked = t.flags & TileFlag::BLOCKED != 0;
        let Some(c) = nearest_cell(cells, x, z, |c| solid.get(c) == Some(&blocked))
            .or_else(|| nearest_cell(cells, x, z, |_| true))
        else {
            continue;
        };
        let Ok(index) = i32::try_from(c) else {
            continue;
        };
        let a = given.entry(c).or_insert_with(|| Adopted::new(x, z));
        a.add(x, z, t.cell_index);
        t.cell_index = index;
    }
    let mut adopted = 0;
    for (c, a) in &given {
        adopted += a.tiles;
        out.push(format!(
            "tile_map: {} tiles (x {}..={}, z {}..={}) named no cell ({}) and lie in no cell's \
             rectangle: given the nearest cell, {c}",
            a.tiles,
            a.x.0,
            a.x.1,
            a.z.0,
            a.z.1,
            a.old_indices()
        ));
    }
    adopted
}

/// The tiles one cell received from [`adopt_orphans`]: how many, their bounds in tiles, and the
/// indices they held.
#[derive(Debug)]
struct Adopted {
    tiles: usize,
    x: (usize, usize),
    z: (usize, usize),
    old: std::collections::BTreeSet<i32>,
}

impl Adopted {
    fn new(x: usize, z: usize) -> Adopted {
        Adopted {
            tiles: 0,
            x: (x, x),
            z: (z, z),
            old: std::collections::BTreeSet::new(),
        }
    }

    fn add(&mut self, x: usize, z: usize, old: i32) {
        self.tiles += 1;
        self.x = (self.x.0.min(x), self.x.1.max(x));
        self.z = (self.z.0.min(z), self.z.1.max(z));
        self.old.insert(old);
    }

    /// `cell index 12`, `cell indices -1, 40`, at most four of them shown.
    fn old_indices(&self) -> String {
        let shown: Vec<String> = self.old.iter().take(4).map(i32::to_string).collect();
        let more = if self.old.len() > 4 { ", ..." } else { "" };
        let noun = if self.old.len() == 1 {
            "cell index"
        } else {
            "cell indices"
        };
        format!("{noun} {}{more}", shown.join(", "))
    }
}

/// The cell whose rectangle is nearest to the centre of tile (`x`, `z`) among those `wanted`
/// accepts, the lowest index on a tie; cells whose rectangle is not a finite min/max pair are
/// skipped.
fn nearest_cell(
    cells: &[CellQuad],
    x: usize,
    z: usize,
    wanted: impl Fn(usize) -> bool,
) -> Option<usize> {
    let centre = [(x as f32 + 0.5) * TILE_SIZE, (z as f32 + 0.5) * TILE_SIZE];
    let mut best: Option<(f32, usize)> = None;
    for (i, c) in cells.iter().enumerate() {
        if !wanted(i) {
            continue;
        }
        let mut d2 = 0.0f32;
        let mut proper = true;
        for ((lo, hi), p) in c.min.iter().zip(&c.max).zip(centre) {
            let (lo, hi) = (lo.get(), hi.get());
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                proper = false;
            }
            let d = (lo - p).max(p - hi).max(0.0);
            d2 += d * d;
        }
        if proper && best.is_none_or(|(b, _)| d2 < b) {
            best = Some((d2, i));
        }
    }
    best.map(|(_, i)| i)
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
    let mut edges: Vec<EdgeGlobal> = global_edges(table, region)
        .into_iter()
        .flat_map(|e| {
            if old.contains_key(&(e.min, e.max, e.assoc_direction[0])) {
                vec![e]
            } else {
                cut_at_old_ends(&m.global_edges, e)
            }
        })
        .collect();
    for e in &mut edges {
        let key = (e.min, e.max, e.assoc_direction[0]);
        let kept = old
            .get(&key)
            .or_else(|| within_old_edge(&m.global_edges, e).and_then(|w| old.get(&w)));
        if let Some((flags, direction, cell, id)) = kept {
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

/// `e` cut where an old global edge on its line, facing its way, begins or ends inside it: so
/// that each piece lies within one old edge (or none) and keeps that edge's neighbour side.
fn cut_at_old_ends(old: &[EdgeGlobal], e: EdgeGlobal) -> Vec<EdgeGlobal> {
    // The axis the edge runs along, and the other (constant) one.
    let along = usize::from(e.min[0] == e.max[0]);
    let across = 1 - along;
    let (lo, hi) = (e.min[along].get(), e.max[along].get());
    if lo.partial_cmp(&hi) != Some(core::cmp::Ordering::Less) {
        return vec![e];
    }
    let mut cuts: Vec<RawF32> = old
        .iter()
        .filter(|o| {
            o.assoc_direction[0] == e.assoc_direction[0]
                && o.min[across] == e.min[across]
                && o.max[across] == e.min[across]
        })
        .flat_map(|o| [o.min[along], o.max[along]])
        .filter(|c| lo < c.get() && c.get() < hi)
        .collect();
    cuts.sort_by(|a, b| a.get().total_cmp(&b.get()));
    cuts.dedup();
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = e.min[along];
    for c in cuts.into_iter().chain([e.max[along]]) {
        let mut piece = e;
        piece.min[along] = start;
        piece.max[along] = c;
        pieces.push(piece);
        start = c;
    }
    pieces
}

/// The key of the first old global edge with `e`'s direction whose span holds `e`'s (a border
/// run a new cell cut in pieces): its neighbour side still lies across every piece.
fn within_old_edge(old: &[EdgeGlobal], e: &EdgeGlobal) -> Option<EdgeKey> {
    let span = |a: [RawF32; 2], b: [RawF32; 2]| {
        let (a, b) = (a.map(|v| v.get()), b.map(|v| v.get()));
        (
            [a[0].min(b[0]), a[1].min(b[1])],
            [a[0].max(b[0]), a[1].max(b[1])],
        )
    };
    let (lo, hi) = span(e.min, e.max);
    old.iter()
        .find(|o| {
            let (olo, ohi) = span(o.min, o.max);
            o.assoc_direction[0] == e.assoc_direction[0]
                && (0..2).all(|k| olo[k] <= lo[k] && hi[k] <= ohi[k])
        })
        .map(|o| (o.min, o.max, o.assoc_direction[0]))
}

#[cfg(test)]
mod tests;
