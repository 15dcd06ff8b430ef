//! Moved cell sides move the tiles: a side moved outward by a tile row takes the tiles under it
//! (the neighbour shrinks or goes), validates clean and is found by the navigation graph; a side
//! moved inward with its neighbour's gives the strip to the neighbour, alone to the nearest cell
//! of the strip's kind; a side grown over tiles of the other kind
//! is refused, naming the cell and a tile. And validate reports a tile re-pointed by hand to a
//! cell that does not hold it, naming both cells, which no sample or real file has.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

mod common;

use std::path::{Path, PathBuf};

use jmxvnvm::{NavMeshTerrain, Nvm, TileFlag, TileMap};
use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::navigation::Navigator;
use nav_core::{Format, Severity};

fn town() -> NavMeshTerrain {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad/nv_61a8_town.nvm");
    Nvm.read(&std::fs::read(path).unwrap()).unwrap()
}

fn tiles(m: &NavMeshTerrain) -> &[jmxvnvm::Tile] {
    match &m.tile_map {
        TileMap::Modern(t) => t,
        TileMap::Legacy(_) => panic!("a modern region"),
    }
}

fn mesh_of(m: &NavMeshTerrain) -> EditedMesh {
    let g = Nvm.geometry(m).unwrap();
    EditedMesh {
        vertices: g.vertices.clone(),
        faces: g.polygons.iter().map(|p| p.vertices.to_vec()).collect(),
        attributes: Vec::new(),
    }
}

/// A side of a cell: its max-x side (corners 1 and 2) or its min-x side (corners 0 and 3).
#[derive(Clone, Copy, Debug)]
enum Side {
    MaxX,
    MinX,
}

/// Moves `side` of cell `cell` to x = `to` in `mesh` (both corners, heights kept).
fn move_side(m: &NavMeshTerrain, mesh: &mut EditedMesh, cell: usize, side: Side, to: f32) {
    let g = Nvm.geometry(m).unwrap();
    let p = g
        .polygons
        .iter()
        .find(|p| p.record.map(|r| r.index as usize) == Some(cell))
        .unwrap();
    let corners = match side {
        Side::MaxX => [1, 2],
        Side::MinX => [0, 3],
    };
    for k in corners {
        mesh.vertices[p.vertices[k] as usize][0] = to;
    }
}

fn rect(m: &NavMeshTerrain, c: usize) -> ([f32; 2], [f32; 2]) {
    (
        m.cells[c].min.map(|v| v.get()),
        m.cells[c].max.map(|v| v.get()),
    )
}

fn blocked(m: &NavMeshTerrain, i: usize) -> bool {
    tiles(m)[i].flags & TileFlag::BLOCKED != 0
}

/// The tile indices of column `x` (tile units) across rows `z0..z1`.
fn column(x: usize, z0: usize, z1: usize) -> Vec<usize> {
    (z0..z1).map(|z| z * 96 + x).collect()
}

/// The rows (tile units) of cell `c`, and its sides in tile units.
fn tile_rect(m: &NavMeshTerrain, c: usize) -> (usize, usize, usize, usize) {
    let (min, max) = rect(m, c);
    let t = |v: f32| (v / 20.0) as usize;
    (t(min[0]), t(max[0]), t(min[1]), t(max[1]))
}

/// An open cell on the tile grid, with open tiles in the column right of it, all in open cells:
/// the first one, scanning the open cells.
fn open_cell_with_open_column_right(m: &NavMeshTerrain) -> usize {
    let open = m.open_cell_count as usize;
    (0..open)
        .find(|&c| {
            let (_, x1, z0, z1) = tile_rect(m, c);
            x1 < 96
                && column(x1, z0, z1)
                    .iter()
                    .all(|&i| !blocked(m, i) && (tiles(m)[i].cell_index as usize) < open)
        })
        .unwrap()
}

/// Applies `mesh` to a copy of `m`: the model and the lines.
fn applied(m: &NavMeshTerrain, mesh: &EditedMesh) -> (NavMeshTerrain, Vec<String>) {
    let mut out = m.clone();
    let lines = apply_mesh(&Nvm, &mut out, mesh, &MatchOptions::default()).unwrap();
    (out, lines)
}

/// No error; the model writes and reads back equal; a second fix changes nothing.
fn consistent(m: &NavMeshTerrain, lines: &[String]) {
    let errors: Vec<_> = Nvm
        .validate(m)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}\n{lines:#?}");
    assert!(Nvm.fix(&mut m.clone()).is_empty(), "{lines:#?}");
    assert_eq!(&Nvm.read(&Nvm.write(m).unwrap()).unwrap(), m);
    // Open cells first, the count right.
    let open = m.open_cell_count as usize;
    for (i, t) in tiles(m).iter().enumerate() {
        assert_eq!(
            (t.cell_index as usize) >= open,
            t.flags & TileFlag::BLOCKED != 0,
            "tile {i}"
        );
    }
}

#[test]
fn a_side_moved_out_by_a_row_takes_the_tiles_under_it() {
    let town = town();
    assert!(Nvm.validate(&town).is_empty());
    let k = open_cell_with_open_column_right(&town);
    let (x0, x1, z0, z1) = tile_rect(&town, k);
    let strip = column(x1, z0, z1);
    let neighbours: std::collections::BTreeSet<i32> =
        strip.iter().map(|&i| tiles(&town)[i].cell_index).collect();
    let mut mesh = mesh_of(&town);
    let to = (x1 + 1) as f32 * 20.0;
    move_side(&town, &mut mesh, k, Side::MaxX, to);
    let (m, lines) = applied(&town, &mesh);
    eprintln!("cell {k}, neighbours {neighbours:?}:\n{}", lines.join("\n"));
    consistent(&m, &lines);
    assert!(Nvm.validate(&m).is_empty(), "{:#?}", Nvm.validate(&m));
    assert!(
        lines[0].starts_with(&format!("cells[{k}]: now")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("cells[{k}]: took {} tiles from", strip.len()))),
        "{lines:#?}"
    );
    // The grown cell, wherever the renumbering put it, has the new rectangle and every tile
    // under it; the navigation graph finds it at a grown-over tile's centre.
    let now = tiles(&m)[strip[0]].cell_index as usize;
    let (min, max) = rect(&m, now);
    assert_eq!(
        (min, max),
        ([x0 as f32 * 20.0, z0 as f32 * 20.0], [to, z1 as f32 * 20.0])
    );
    for z in z0..z1 {
        for x in x0..=x1 {
            assert_eq!(tiles(&m)[z * 96 + x].cell_index as usize, now, "({x}, {z})");
        }
    }
    let (cx, cz) = (x1 as f32 * 20.0 + 10.0, z0 as f32 * 20.0 + 10.0);
    let y = m.height_at(cx, cz).unwrap();
    let nav = Navigator::new(Nvm.navigation(&m).unwrap()).unwrap();
    assert_eq!(nav.locate([cx, y, cz]).map(|l| l.cell), Some(now as u32));
    // Each neighbour shrank or went: no cell but the grown one holds a strip tile's centre.
    for &i in &strip {
        let c = [(i % 96) as f32 * 20.0 + 10.0, (i / 96) as f32 * 20.0 + 10.0];
        let holding: Vec<usize> = (0..m.cells.len())
            .filter(|&q| {
                let (lo, hi) = rect(&m, q);
                (0..2).all(|a| lo[a] <= c[a] && c[a] <= hi[a])
            })
            .collect();
        assert_eq!(holding, [now], "tile {i}");
    }
    assert!(
        lines
            .iter()
            .skip(1)
            .any(|l| l.contains(": now (") || l.contains("deleted")),
        "{lines:#?}"
    );
    // Heights untouched.
    assert_eq!(m.height_map, town.height_map);
}

/// Two open cells side by side along x, sharing the whole side: (left, right).
fn open_pair(m: &NavMeshTerrain) -> (usize, usize) {
    let open = m.open_cell_count as usize;
    for a in 0..open {
        for b in 0..open {
            let (ra, rb) = (tile_rect(m, a), tile_rect(m, b));
            if ra.1 == rb.0 && ra.2 == rb.2 && ra.3 == rb.3 && ra.1 - ra.0 >= 2 && rb.1 - rb.0 >= 2
            {
                return (a, b);
            }
        }
    }
    panic!("no two open cells share a whole side");
}

#[test]
fn a_side_moved_in_gives_the_strip_to_the_right_cell() {
    let town = town();
    let (a, b) = open_pair(&town);
    let (_, x1, z0, z1) = tile_rect(&town, a);
    let strip = column(x1 - 1, z0, z1);
    let to = (x1 - 1) as f32 * 20.0;

    // With the neighbour's side moved along: the strip is the neighbour's.
    let mut mesh = mesh_of(&town);
    move_side(&town, &mut mesh, a, Side::MaxX, to);
    move_side(&town, &mut mesh, b, Side::MinX, to);
    let (m, lines) = applied(&town, &mesh);
    eprintln!("cells {a} and {b}:\n{}", lines.join("\n"));
    consistent(&m, &lines);
    assert!(Nvm.validate(&m).is_empty(), "{:#?}", Nvm.validate(&m));
    assert_eq!(m.cells.len(), town.cells.len());
    assert_eq!(rect(&m, a).1[0], to);
    assert_eq!(rect(&m, b).0[0], to);
    for &i in &strip {
        assert_eq!(tiles(&m)[i].cell_index as usize, b, "tile {i}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("cells[{a}]: left {} tiles", strip.len()))),
        "{lines:#?}"
    );

    // Alone: no rectangle holds the strip, which goes to the nearest cell of its kind (open),
    // one of the two beside it; validate takes the hole as it does a deleted cell's.
    let mut mesh = mesh_of(&town);
    move_side(&town, &mut mesh, a, Side::MaxX, to);
    let (m, lines) = applied(&town, &mesh);
    consistent(&m, &lines);
    assert!(Nvm.validate(&m).is_empty(), "{:#?}", Nvm.validate(&m));
    let open = m.open_cell_count as usize;
    for &i in &strip {
        let c = tiles(&m)[i].cell_index as usize;
        assert!(c == a || c == b, "tile {i} went to cell {c}");
        assert!(c < open);
    }
    assert!(
        lines.iter().any(|l| l.contains("given the nearest cell")),
        "{lines:#?}"
    );
}

#[test]
fn a_side_grown_over_tiles_of_the_other_kind_is_refused() {
    let town = town();
    let open = town.open_cell_count as usize;
    // An open cell with a blocked tile in the column left of it.
    let k = (0..open)
        .find(|&c| {
            let (x0, _, z0, z1) = tile_rect(&town, c);
            x0 > 0 && column(x0 - 1, z0, z1).iter().any(|&i| blocked(&town, i))
        })
        .unwrap();
    let (x0, _, _, _) = tile_rect(&town, k);
    let mut mesh = mesh_of(&town);
    move_side(&town, &mut mesh, k, Side::MinX, (x0 - 1) as f32 * 20.0);
    let mut m = town.clone();
    let err = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&format!("cells[{k}]"))
            && err.contains("tile_map[")
            && err.contains("a blocked tile"),
        "{err}"
    );
    assert_eq!(m, town, "a refused edit leaves the model as it was");
}

#[test]
fn moving_nothing_changes_nothing() {
    let town = town();
    let (m, lines) = applied(&town, &mesh_of(&town));
    assert!(lines.is_empty(), "{lines:#?}");
    assert_eq!(Nvm.write(&m).unwrap(), Nvm.write(&town).unwrap());
}

#[test]
fn a_tile_repointed_by_hand_is_reported_and_fixed() {
    let town = town();
    let mut m = town.clone();
    let TileMap::Modern(t) = &mut m.tile_map else {
        panic!("modern")
    };
    let i = 40 * 96 + 40;
    let was = t[i].cell_index;
    let other = t
        .iter()
        .map(|t| t.cell_index)
        .find(|&c| c != was && (c as usize) < town.open_cell_count as usize)
        .unwrap();
    t[i].cell_index = other;
    let findings: Vec<String> = Nvm
        .validate(&m)
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(findings.len(), 1, "{findings:#?}");
    assert!(
        findings[0].contains(&format!("tile_map[{i}] (x 40, z 40)"))
            && findings[0].contains(&format!("this tile names cells[{other}]"))
            && findings[0].contains(&format!("cells[{was}]'s rectangle")),
        "{findings:#?}"
    );
    let lines = Nvm.fix(&mut m);
    assert!(!lines.is_empty());
    assert_eq!(m, town, "{lines:#?}");
}

/// Every sample, and every real file (none yet), has no tile outside the cell it names.
#[test]
fn no_sample_or_real_file_has_a_tile_outside_its_cell() {
    let files: Vec<PathBuf> = common::real_nvm_files("tiles against cells")
        .into_iter()
        .chain(common::samples())
        .collect();
    assert!(files.len() >= 4);
    let mut modern = 0;
    for f in &files {
        let m = Nvm.read(&std::fs::read(f).unwrap()).unwrap();
        modern += usize::from(matches!(m.tile_map, TileMap::Modern(_)));
        let tile_findings: Vec<String> = Nvm
            .validate(&m)
            .iter()
            .filter(|f| f.place.root() == Some("tile_map"))
            .map(ToString::to_string)
            .collect();
        assert!(
            tile_findings.is_empty(),
            "{}: {tile_findings:#?}",
            f.display()
        );
        // Nor a hole: every modern tile's centre lies in the cell it names.
        if let TileMap::Modern(t) = &m.tile_map {
            for (i, t) in t.iter().enumerate() {
                let (lo, hi) = rect(&m, t.cell_index as usize);
                let c = [(i % 96) as f32 * 20.0 + 10.0, (i / 96) as f32 * 20.0 + 10.0];
                assert!(
                    (0..2).all(|a| lo[a] <= c[a] && c[a] <= hi[a]),
                    "{}: tile {i}",
                    f.display()
                );
            }
        }
    }
    assert!(modern >= 1, "a modern file was checked");
    println!(
        "tiles against cells: {} files, {modern} modern",
        files.len()
    );
}
