//! Added faces become cells: a rectangle drawn over a region, as the matcher hands it to apply
//! (the region's geometry plus one quad), gives a cell that holds exactly the tiles under it;
//! the cells it cut keep the rest of their tiles (shrunk, or split into pieces inside their old
//! rectangle); every reference names the same cell by content; the file validates, writes and
//! reads back. Faces that are no rectangle, lie outside the region, hold no tile centre or mix
//! open and blocked tiles are refused, naming the face.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

mod common;

use std::path::Path;

use jmxvnvm::{CellQuad, NavMeshTerrain, Nvm, TileFlag, TileMap};
use nav_core::Format;
use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::navigation::Navigator;

fn sample(name: &str) -> NavMeshTerrain {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../samples/silkroad")
        .join(name);
    Nvm.read(&std::fs::read(path).unwrap()).unwrap()
}

/// The region's geometry as an edited mesh, plus the rectangle `min..max` as one more quad
/// (corners in the geometry's order, on the ground); returns the mesh and the new face's index.
fn with_rectangle(m: &NavMeshTerrain, min: [f32; 2], max: [f32; 2]) -> (EditedMesh, usize) {
    let corners = [
        [min[0], max[1]],
        [max[0], max[1]],
        [max[0], min[1]],
        [min[0], min[1]],
    ];
    with_face(m, &corners)
}

fn with_face(m: &NavMeshTerrain, corners: &[[f32; 2]]) -> (EditedMesh, usize) {
    with_faces(m, &[corners])
}

/// The region's geometry as an edited mesh, plus one face per corner list, each over its own
/// copies of its corners (as glTF writes triangles), on the ground; returns the mesh and the
/// first new face's index.
fn with_faces(m: &NavMeshTerrain, faces: &[&[[f32; 2]]]) -> (EditedMesh, usize) {
    let g = Nvm.geometry(m).unwrap();
    let mut mesh = EditedMesh {
        vertices: g.vertices.clone(),
        faces: g.polygons.iter().map(|p| p.vertices.to_vec()).collect(),
        attributes: Vec::new(),
    };
    let first = mesh.faces.len();
    for corners in faces {
        let n = u32::try_from(mesh.vertices.len()).unwrap();
        for &[x, z] in *corners {
            let y = m
                .height_at(x.clamp(0.0, 1920.0), z.clamp(0.0, 1920.0))
                .unwrap();
            mesh.vertices.push([x, y, z]);
        }
        mesh.faces
            .push((n..n + u32::try_from(corners.len()).unwrap()).collect());
    }
    (mesh, first)
}

fn tiles(m: &NavMeshTerrain) -> &[jmxvnvm::Tile] {
    match &m.tile_map {
        TileMap::Modern(t) => t,
        TileMap::Legacy(_) => panic!("a modern region"),
    }
}

fn inside(outer: &CellQuad, inner: &CellQuad) -> bool {
    (0..2).all(|k| {
        outer.min[k].get() <= inner.min[k].get() && inner.max[k].get() <= outer.max[k].get()
    })
}

fn rect(min: [f32; 2], max: [f32; 2]) -> ([f32; 2], [f32; 2]) {
    (min, max)
}

fn rect_of(c: &CellQuad) -> ([f32; 2], [f32; 2]) {
    (c.min.map(|v| v.get()), c.max.map(|v| v.get()))
}

/// The cells the tile map gives the tiles on either side of the middle of the edge `a`..`b`,
/// sorted; a side outside the region is left out.
fn cells_beside(m: &NavMeshTerrain, a: [f32; 2], b: [f32; 2]) -> Vec<i32> {
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let axis = usize::from(a[0] != b[0]);
    let mut out = Vec::new();
    for step in [-10.0f32, 10.0] {
        let mut p = mid;
        p[axis] += step;
        if (0.0..1920.0).contains(&p[0]) && (0.0..1920.0).contains(&p[1]) {
            out.push(tiles(m)[m.tile_at(p[0], p[1]).unwrap()].cell_index);
        }
    }
    out.sort_unstable();
    out
}

/// Adds `min..max` to `original` and checks everything the module docs promise; returns the
/// edited region, the new cell's index and apply's lines.
fn add_and_check(
    original: &NavMeshTerrain,
    min: [f32; 2],
    max: [f32; 2],
) -> (NavMeshTerrain, usize, Vec<String>) {
    assert!(Nvm.validate(original).is_empty());
    let (mesh, face) = with_rectangle(original, min, max);
    let mut m = original.clone();
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    let findings = Nvm.validate(&m);
    assert!(findings.is_empty(), "{findings:#?}\n{lines:#?}");
    assert!(
        Nvm.fix(&mut m.clone()).is_empty(),
        "a fix after apply changed something"
    );

    // Exactly one cell has the rectangle, and it is where the line says.
    let new: Vec<usize> = (0..m.cells.len())
        .filter(|&i| rect_of(&m.cells[i]) == rect(min, max))
        .collect();
    assert_eq!(new.len(), 1, "{lines:#?}");
    let k = new[0];
    let first = &lines[0];
    assert!(
        first.starts_with(&format!("cells[{k}]: new "))
            && first.contains(&format!("faces[{face}]")),
        "{lines:#?}"
    );
    // It is found at its centre, by the tile map and by the navigation graph.
    let centre = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
    assert_eq!(m.cell_at(centre[0], centre[1]), Some(k));
    let y = m.height_at(centre[0], centre[1]).unwrap();
    let nav = Navigator::new(Nvm.navigation(&m).unwrap()).unwrap();
    assert_eq!(
        nav.locate([centre[0], y, centre[1]]).map(|l| l.cell),
        Some(k as u32)
    );

    // Open cells first, and the count is right.
    let open = m.open_cell_count as usize;
    for (i, t) in tiles(&m).iter().enumerate() {
        let c = t.cell_index as usize;
        assert_eq!(
            c >= open,
            t.flags & TileFlag::BLOCKED != 0,
            "tile {i} in cell {c}"
        );
    }

    // Every tile under the rectangle names the new cell; every other names the cell it did (by
    // content), or a piece of it: a cell inside its old rectangle with its objects.
    let new_cell = &m.cells[k];
    for (i, (was, now)) in tiles(original).iter().zip(tiles(&m)).enumerate() {
        assert_eq!((was.flags, was.texture_id), (now.flags, now.texture_id));
        let centre = [(i % 96) as f32 * 20.0 + 10.0, (i / 96) as f32 * 20.0 + 10.0];
        let under = (0..2).all(|a| min[a] <= centre[a] && centre[a] <= max[a]);
        let (before, after) = (
            &original.cells[was.cell_index as usize],
            &m.cells[now.cell_index as usize],
        );
        if under {
            assert_eq!(now.cell_index as usize, k, "tile {i}");
            for o in &before.object_indices {
                assert!(new_cell.object_indices.contains(o));
            }
        } else {
            assert!(inside(before, after), "tile {i}: {before:?} -> {after:?}");
            assert_eq!(before.object_indices, after.object_indices, "tile {i}");
        }
    }
    // Cells no tile under the rectangle named are all there, unchanged.
    let cut: Vec<i32> = tiles(original)
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let c = [(i % 96) as f32 * 20.0 + 10.0, (i / 96) as f32 * 20.0 + 10.0];
            (0..2).all(|a| min[a] <= c[a] && c[a] <= max[a])
        })
        .map(|(_, t)| t.cell_index)
        .collect();
    for (i, c) in original.cells.iter().enumerate() {
        if !cut.contains(&(i as i32)) {
            assert!(m.cells.contains(c), "cells[{i}] went");
        }
    }

    // Edges run between the cells the tile map gives; a global edge that was there keeps its
    // neighbour side.
    for e in &m.internal_edges {
        let (a, b) = (e.min.map(|v| v.get()), e.max.map(|v| v.get()));
        let mut sides = e.assoc_cell_index.map(i32::from).to_vec();
        sides.sort_unstable();
        assert_eq!(sides, cells_beside(&m, a, b), "internal edge {a:?}..{b:?}");
    }
    for e in &m.global_edges {
        let (a, b) = (e.min.map(|v| v.get()), e.max.map(|v| v.get()));
        assert_eq!(
            cells_beside(&m, a, b),
            [i32::from(e.assoc_cell_index[0])],
            "global edge {a:?}..{b:?}"
        );
        let was = original.global_edges.iter().find(|o| {
            o.assoc_direction[0] == e.assoc_direction[0]
                && (0..2)
                    .all(|k| o.min[k].get() <= e.min[k].get() && e.max[k].get() <= o.max[k].get())
        });
        let was = was.unwrap();
        assert_eq!(
            (
                was.assoc_cell_index[1],
                was.assoc_region_id[1],
                was.assoc_direction[1]
            ),
            (
                e.assoc_cell_index[1],
                e.assoc_region_id[1],
                e.assoc_direction[1]
            )
        );
    }

    // Written and read back, the same region.
    let bytes = Nvm.write(&m).unwrap();
    assert_eq!(Nvm.read(&bytes).unwrap(), m);
    (m, k, lines)
}

#[test]
fn a_rectangle_over_open_ground_becomes_an_open_cell() {
    let town = sample("nv_61a8_town.nvm");
    let open = town.open_cell_count as usize;
    let (m, k, lines) = add_and_check(&town, [100.0, 100.0], [340.0, 400.0]);
    eprintln!("{}", lines.join("\n"));
    // Right after the open cells of the file that are left.
    let gone = lines.iter().filter(|l| l.contains("wholly inside")).count();
    assert_eq!(gone, 1, "{lines:#?}");
    assert_eq!(k, open - gone, "{lines:#?}");
    assert!(m.open_cell_count as usize > open);
    assert!(
        lines[0].contains("new open cell (x 100..340, z 100..400)"),
        "{lines:#?}"
    );
    assert!(lines[0].contains("took 180 tiles from cells"), "{lines:#?}");
    // It cut cells in the middle: some were split.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("the rest of it in new open cells[")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("wholly inside the new cell")),
        "{lines:#?}"
    );
}

#[test]
fn a_rectangle_on_the_border_keeps_the_neighbours_side() {
    let mut town = sample("nv_61a8_town.nvm");
    // As in a real region, the neighbour's cells across the east border are not this region's
    // mirrored: split the edge at z 1760..1920 in two halves facing two different cells.
    let i = town
        .global_edges
        .iter()
        .position(|e| {
            e.assoc_direction[0] == jmxvnvm::EdgeDirection::RIGHT
                && e.min[1].get() == 1760.0
                && e.max[1].get() == 1920.0
        })
        .unwrap();
    let mut upper = town.global_edges[i];
    town.global_edges[i].max[1] = nav_core::RawF32::new(1840.0);
    upper.min[1] = nav_core::RawF32::new(1840.0);
    upper.assoc_cell_index[1] += 1;
    town.global_edges.insert(i + 1, upper);
    let (m, _, lines) = add_and_check(&town, [1820.0, 1700.0], [1920.0, 1920.0]);
    assert!(
        lines.iter().any(|l| l.starts_with("global_edges:")),
        "{lines:#?}"
    );
    // Both halves are still there, each facing its own cell (add_and_check compared the
    // neighbour sides).
    let halves = m
        .global_edges
        .iter()
        .filter(|e| {
            e.assoc_direction[0] == jmxvnvm::EdgeDirection::RIGHT
                && (e.min[1].get() == 1840.0 || e.max[1].get() == 1840.0)
        })
        .count();
    assert_eq!(halves, 2, "{:#?}", m.global_edges);
}

#[test]
fn a_rectangle_over_blocked_tiles_becomes_a_blocked_cell_at_the_end() {
    let town = sample("nv_61a8_town.nvm");
    // Inside the cliff along the west (tiles x 0..4, z 36..80 are blocked).
    let (m, k, lines) = add_and_check(&town, [0.0, 800.0], [60.0, 1000.0]);
    assert!(lines[0].contains("new blocked cell"), "{lines:#?}");
    assert!(k >= m.open_cell_count as usize);
    // After it come only the pieces of the cells it cut: no cell of the file.
    for c in &m.cells[k + 1..] {
        assert!(!town.cells.contains(c), "{c:?}");
    }
    assert_eq!(
        m.open_cell_count, town.open_cell_count,
        "no open cell was added or removed"
    );
}

#[test]
fn a_face_off_the_grid_snaps_and_heights_come_from_the_map() {
    let town = sample("nv_61a8_town.nvm");
    let (mut mesh, face) = with_rectangle(&town, [505.0, 705.0], [595.0, 795.0]);
    for v in mesh.faces[face].clone() {
        mesh.vertices[v as usize][1] = 0.0;
    }
    let mut m = town.clone();
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    assert!(lines[0].contains("(x 500..600, z 700..800)"), "{lines:#?}");
    assert!(lines[0].contains("snapped to the tiles"), "{lines:#?}");
    assert!(lines[0].contains("not the face's y"), "{lines:#?}");
    assert!(Nvm.validate(&m).is_empty());
}

#[test]
fn a_legacy_region_takes_a_cell_too() {
    let legacy = sample("nv_1f29_legacy.nvm");
    assert!(matches!(legacy.tile_map, TileMap::Legacy(_)));
    let (mesh, _) = with_rectangle(&legacy, [400.0, 400.0], [600.0, 520.0]);
    let mut m = legacy.clone();
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    assert!(lines[0].contains("new "), "{lines:#?}");
    let errors: Vec<_> = Nvm
        .validate(&m)
        .into_iter()
        .filter(|f| f.severity == nav_core::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let k = m.cell_at(500.0, 460.0).unwrap();
    assert_eq!(rect_of(&m.cells[k]), rect([400.0, 400.0], [600.0, 520.0]));
    // No two cells hold one tile centre.
    for z in 0..96 {
        for x in 0..96 {
            let c = [x as f32 * 20.0 + 10.0, z as f32 * 20.0 + 10.0];
            let holding = m
                .cells
                .iter()
                .filter(|q| (0..2).all(|a| q.min[a].get() <= c[a] && c[a] <= q.max[a].get()))
                .count();
            assert!(holding <= 1, "tile ({x}, {z}) in {holding} cells");
        }
    }
    assert_eq!(Nvm.read(&Nvm.write(&m).unwrap()).unwrap(), m);
}

/// Apply's error for `corners` added to the town, which must name the face; the model is left
/// as it was.
fn refused(corners: &[[f32; 2]]) -> String {
    refused_faces(&[corners], 0)
}

/// Apply's error for the faces added to the town, which must name the added face `named`
/// (counted from the first added); the model is left as it was.
fn refused_faces(faces: &[&[[f32; 2]]], named: usize) -> String {
    let town = sample("nv_61a8_town.nvm");
    let (mesh, first) = with_faces(&town, faces);
    let mut m = town.clone();
    let err = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains(&format!("faces[{}]", first + named)), "{err}");
    assert_eq!(m, town, "a refused edit leaves the model as it was");
    err
}

#[test]
fn what_no_cell_can_be_is_refused() {
    // A triangle, and a quad with a slanted side.
    let err = refused(&[[500.0, 700.0], [600.0, 700.0], [600.0, 800.0]]);
    assert!(
        err.contains("is a triangle that shares no edge")
            && err.contains("a quad")
            && err.contains("two triangles that make one"),
        "{err}"
    );
    let err = refused(&[
        [500.0, 800.0],
        [620.0, 800.0],
        [600.0, 700.0],
        [500.0, 700.0],
    ]);
    assert!(err.contains("rectangle"), "{err}");
    // Outside the region.
    let err = refused(&[
        [1900.0, 100.0],
        [1960.0, 100.0],
        [1960.0, 40.0],
        [1900.0, 40.0],
    ]);
    assert!(err.contains("outside the region"), "{err}");
    // Between tile centres: 100..105 holds none (they are at 90 and 110).
    let err = refused(&[
        [100.0, 105.0],
        [105.0, 105.0],
        [105.0, 100.0],
        [100.0, 100.0],
    ]);
    assert!(err.contains("covers no tile centre"), "{err}");
    // Over the cliff's edge: open and blocked tiles both.
    let err = refused(&[[40.0, 900.0], [200.0, 900.0], [200.0, 800.0], [40.0, 800.0]]);
    assert!(
        err.contains("open and") && err.contains("blocked tiles"),
        "{err}"
    );
}

#[test]
fn collinear_extra_corners_are_accepted() {
    let town = sample("nv_61a8_town.nvm");
    let (mesh, _) = with_face(
        &town,
        &[
            [1000.0, 1100.0],
            [1100.0, 1100.0],
            [1200.0, 1100.0],
            [1200.0, 1000.0],
            [1000.0, 1000.0],
        ],
    );
    let mut m = town.clone();
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    assert!(
        lines[0].contains("(x 1000..1200, z 1000..1100)"),
        "{lines:#?}"
    );
    assert!(Nvm.validate(&m).is_empty());
}

#[test]
fn real_regions_take_a_cell() {
    for path in common::real_nvm_files("apply_add") {
        let m = Nvm.read(&std::fs::read(&path).unwrap()).unwrap();
        if !matches!(m.tile_map, TileMap::Modern(_)) || !Nvm.validate(&m).is_empty() {
            continue;
        }
        // The first 6 × 6 tiles that are all open, scanning row by row.
        let open = |x: usize, z: usize| tiles(&m)[z * 96 + x].flags & TileFlag::BLOCKED == 0;
        let corner = (0..90)
            .flat_map(|z| (0..90).map(move |x| (x, z)))
            .find(|&(x, z)| (z..z + 6).all(|zz| (x..x + 6).all(|xx| open(xx, zz))));
        if let Some((x, z)) = corner {
            let min = [x as f32 * 20.0, z as f32 * 20.0];
            add_and_check(&m, min, [min[0] + 120.0, min[1] + 120.0]);
        }
    }
}

/// The rectangle `min..max` as two triangles split along one diagonal (`split` 0 or 1), the
/// second's corners moved `nudge` along x.
fn halves(min: [f32; 2], max: [f32; 2], split: usize, nudge: f32) -> [Vec<[f32; 2]>; 2] {
    let c = [
        [min[0], max[1]],
        [max[0], max[1]],
        [max[0], min[1]],
        [min[0], min[1]],
    ];
    let at = |k: usize, dx: f32| {
        let [x, z] = c[k % 4];
        [x + dx, z]
    };
    [
        vec![at(split, 0.0), at(split + 1, 0.0), at(split + 2, 0.0)],
        vec![at(split + 2, nudge), at(split + 3, nudge), at(split, nudge)],
    ]
}

#[test]
fn two_triangles_make_the_same_cell_as_the_quad() {
    let town = sample("nv_61a8_town.nvm");
    // On the tile grid (corners shared with the file's cells), and off it (new corners only,
    // the second triangle's copies a little off the first's, within the matcher's tolerance).
    for (min, max, nudge) in [
        ([100.0, 100.0], [340.0, 400.0], 0.0),
        ([505.0, 705.0], [595.0, 795.0], 0.0),
        ([505.0, 705.0], [595.0, 795.0], 2e-4),
    ] {
        let (quad, face) = with_rectangle(&town, min, max);
        let mut by_quad = town.clone();
        let quad_lines = apply_mesh(&Nvm, &mut by_quad, &quad, &MatchOptions::default()).unwrap();
        for split in 0..2 {
            let [a, b] = halves(min, max, split, nudge);
            let (mesh, first) = with_faces(&town, &[&a, &b]);
            assert_eq!(first, face);
            let mut m = town.clone();
            let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
            assert_eq!(m, by_quad, "{min:?}..{max:?} split {split}: {lines:#?}");
            let named = format!("faces[{face}]+faces[{}]", face + 1);
            let expected: Vec<String> = quad_lines
                .iter()
                .map(|l| l.replace(&format!("faces[{face}]"), &named))
                .collect();
            assert_eq!(lines, expected);
            assert!(lines[0].contains(&format!("from {named}")), "{lines:#?}");
        }
    }
    // Both rectangles at once, their triangles interleaved: each pair is its own cell.
    let [a, b] = halves([100.0, 100.0], [340.0, 400.0], 0, 0.0);
    let [c, d] = halves([1000.0, 1000.0], [1200.0, 1100.0], 1, 0.0);
    let (mesh, first) = with_faces(&town, &[&a, &c, &b, &d]);
    let mut m = town.clone();
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    let news: Vec<&String> = lines.iter().filter(|l| l.contains(": new ")).collect();
    assert_eq!(news.len(), 2, "{lines:#?}");
    assert!(news[0].contains(&format!("from faces[{first}]+faces[{}]", first + 2)));
    assert!(news[1].contains(&format!("from faces[{}]+faces[{}]", first + 1, first + 3)));
    assert!(Nvm.validate(&m).is_empty());
}

#[test]
fn triangles_that_make_no_rectangle_are_refused() {
    // Sharing the diagonal, but the second's far corner is off the rectangle: a trapezoid.
    let err = refused_faces(
        &[
            &[[500.0, 700.0], [600.0, 700.0], [600.0, 800.0]],
            &[[600.0, 800.0], [520.0, 800.0], [500.0, 700.0]],
        ],
        0,
    );
    assert!(
        err.contains("makes no axis-aligned rectangle with faces[") && err.contains("a quad"),
        "{err}"
    );
    // Sharing a side: the two overlap.
    let err = refused_faces(
        &[
            &[[500.0, 700.0], [600.0, 700.0], [600.0, 800.0]],
            &[[600.0, 700.0], [500.0, 700.0], [500.0, 800.0]],
        ],
        0,
    );
    assert!(err.contains("makes no axis-aligned rectangle"), "{err}");
    // Copies too far apart to be one corner (a unit): no shared edge.
    let [a, b] = halves([500.0, 700.0], [600.0, 800.0], 0, 1.0);
    let err = refused_faces(&[&a, &b], 0);
    assert!(err.contains("shares no edge"), "{err}");
    // A pair and a third triangle beside it: the third is named.
    let [a, b] = halves([500.0, 700.0], [600.0, 800.0], 0, 0.0);
    let third = [[600.0, 700.0], [700.0, 700.0], [600.0, 800.0]];
    let err = refused_faces(&[&a, &b, &third], 2);
    assert!(err.contains("is a triangle"), "{err}");
}
