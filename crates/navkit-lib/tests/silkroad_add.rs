//! Silkroad end to end: a region's geometry written as OBJ text, a quad (or two triangles making
//! one, as glTF writes it) appended to the text as a modeller would add a face, the text read
//! back and applied through the registry's `apply`: the new cell is there, validate is clean,
//! the written file reads back and `diff` shows the new cell. A cell's side moved a tile row
//! outward in the text takes the tiles under it. (The OBJ writer and reader of
//! `navkit export`/`apply` live in the CLI crate; this test writes and reads the same plain
//! `v`/`f` lines itself, Y up as the geometry is.)
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;

use jmxvnvm::Nvm;
use nav_core::Format;
use nav_core::edit::{EditedMesh, MatchOptions};
use nav_core::geometry::{Geometry, UpAxis};
use navkit_lib::diff::{ChangeKind, diff};
use navkit_lib::registry;

/// The regions to edit: the real files (none yet: no public `.nvm` file exists, see the corpus
/// README), then the town and legacy samples.
fn regions() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = nav_core::testing::real_files("silkroad")
        .into_iter()
        .map(|(_, p)| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    if out.is_empty() {
        println!(
            "silkroad_add: 0 real .nvm files in the corpus (none is public yet); the samples \
             stand in"
        );
    }
    for sample in ["nv_61a8_town.nvm", "nv_1f29_legacy.nvm"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../samples/silkroad")
            .join(sample);
        out.push((path.display().to_string(), std::fs::read(path).unwrap()));
    }
    out
}

/// The errors validate finds in a written file.
fn errors(format: &dyn navkit_lib::registry::AnyFormat, bytes: &[u8]) -> Vec<nav_core::Finding> {
    format
        .validate(bytes)
        .unwrap()
        .into_iter()
        .filter(|f| f.severity == nav_core::Severity::Error)
        .collect()
}

/// The geometry as OBJ text: one `v` per vertex, one `f` per polygon (1-based).
fn to_obj(g: &Geometry) -> String {
    assert_eq!(g.up, UpAxis::Y, "a Silkroad region is Y up, as OBJ is");
    let mut s = String::from("# navkit test export\no region\n");
    for v in &g.vertices {
        writeln!(s, "v {} {} {}", v[0], v[1], v[2]).unwrap();
    }
    for p in &g.polygons {
        let ids: Vec<String> = p.vertices.iter().map(|v| (v + 1).to_string()).collect();
        writeln!(s, "f {}", ids.join(" ")).unwrap();
    }
    s
}

/// The `v` and `f` lines of OBJ text as an edited mesh (`f a/b/c` keeps the position index).
fn from_obj(text: &str) -> EditedMesh {
    let mut mesh = EditedMesh::default();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let p: Vec<f32> = words.map(|w| w.parse().unwrap()).collect();
                mesh.vertices.push([p[0], p[1], p[2]]);
            }
            Some("f") => mesh.faces.push(
                words
                    .map(|w| w.split('/').next().unwrap().parse::<u32>().unwrap() - 1)
                    .collect(),
            ),
            _ => {}
        }
    }
    mesh
}

/// The first 6 × 6 tiles that are all open (scanning row by row), as a rectangle: by their
/// `Blocked` flag in a modern region, by the kind of the cell holding them in a legacy one.
fn open_ground(m: &jmxvnvm::NavMeshTerrain) -> Option<([f32; 2], [f32; 2])> {
    let centre = |t: usize| t as f32 * 20.0 + 10.0;
    let open = |x: usize, z: usize| m.is_blocked(centre(x), centre(z)) == Some(false);
    let (x, z) = (0..90)
        .flat_map(|z| (0..90).map(move |x| (x, z)))
        .find(|&(x, z)| (z..z + 6).all(|zz| (x..x + 6).all(|xx| open(xx, zz))))?;
    let min = [x as f32 * 20.0, z as f32 * 20.0];
    Some((min, [min[0] + 120.0, min[1] + 120.0]))
}

#[test]
fn a_quad_appended_to_the_obj_becomes_a_cell() {
    appended_becomes_a_cell(false);
}

/// As glTF writes a quad: two triangles over the same four vertices, split along a diagonal.
#[test]
fn two_triangles_appended_to_the_obj_become_a_cell() {
    appended_becomes_a_cell(true);
}

/// A rectangle appended to each region's OBJ text, as one quad or as two triangles (`split`).
fn appended_becomes_a_cell(split: bool) {
    let format = registry::by_name("jmxvnvm").unwrap();
    let mut checked = 0;
    for (name, bytes) in regions() {
        let original = Nvm.read(&bytes).unwrap();
        let (min, max) = open_ground(&original)
            .unwrap_or_else(|| panic!("{name}: no 6 × 6 open tiles to draw a cell over"));
        let g = format.geometry(&bytes).unwrap().unwrap();
        let mut obj = to_obj(&g);
        // The quad, counter-clockwise seen from above as the export's faces are, on the ground.
        let n = g.vertices.len();
        for [x, z] in [
            [min[0], max[1]],
            [max[0], max[1]],
            [max[0], min[1]],
            [min[0], min[1]],
        ] {
            let y = original.height_at(x, z).unwrap();
            writeln!(obj, "v {x} {y} {z}").unwrap();
        }
        if split {
            writeln!(obj, "f {} {} {}", n + 1, n + 2, n + 3).unwrap();
            writeln!(obj, "f {} {} {}", n + 3, n + 4, n + 1).unwrap();
        } else {
            writeln!(obj, "f {} {} {} {}", n + 1, n + 2, n + 3, n + 4).unwrap();
        }

        let mut opened = format.open(&bytes).unwrap();
        let lines = opened
            .apply(&from_obj(&obj), &MatchOptions::default())
            .unwrap();
        assert!(
            lines[0].contains(&format!(
                "new open cell (x {}..{}, z {}..{})",
                min[0], max[0], min[1], max[1]
            )),
            "{name}: {lines:#?}"
        );
        let face = g.polygons.len();
        let from = if split {
            format!("from faces[{face}]+faces[{}]", face + 1)
        } else {
            format!("from faces[{face}],")
        };
        assert!(lines[0].contains(&from), "{name}: {lines:#?}");
        let written = opened.write().unwrap();
        assert_eq!(errors(format, &written), [], "{name}: {lines:#?}");
        let m = Nvm.read(&written).unwrap();
        let centre = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
        let k = m.cell_at(centre[0], centre[1]).unwrap();
        let cell = &m.cells[k];
        assert_eq!(
            (cell.min.map(|v| v.get()), cell.max.map(|v| v.get())),
            (min, max),
            "{name}"
        );

        // The diff shows the new cell: its rectangle at its index (or the cell added there), one
        // more cell, one more open cell.
        let changes = diff(
            format.name(),
            &format.model_tree(&bytes).unwrap(),
            &format.model_tree(&written).unwrap(),
        );
        let shown: Vec<String> = changes.iter().map(ToString::to_string).collect();
        let at_new = |c: &&navkit_lib::diff::Change| c.path.starts_with(&format!("cells[{k}]"));
        assert!(
            changes.iter().filter(at_new).any(|c| match &c.kind {
                ChangeKind::Changed(_, new) => new.contains(&min[0].to_string()),
                ChangeKind::Added => true,
                ChangeKind::Removed => false,
            }),
            "{name}: {shown:#?}"
        );
        assert!(
            changes
                .iter()
                .any(|c| c.path == "open_cell_count" && matches!(c.kind, ChangeKind::Changed(..))),
            "{name}: {shown:#?}"
        );
        assert!(
            changes
                .iter()
                .any(|c| c.path.starts_with("cells[") && c.kind == ChangeKind::Added),
            "{name}: {shown:#?}"
        );
        eprintln!(
            "{name}: {} changes applied, diff {} entries; first: {}",
            lines.len(),
            changes.len(),
            lines[0]
        );
        checked += 1;
    }
    assert!(checked >= 2, "both samples are edited");
}

/// An open cell on the tile grid whose max-x side has, in the tile column beyond it, only open
/// tiles of open cells: the first one.
// The rectangle sides cast are whole tile multiples within 0..=1920 (checked by `grid`).
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
fn open_cell_with_open_column_right(m: &jmxvnvm::NavMeshTerrain) -> Option<usize> {
    let open = m.open_cell_count as usize;
    let centre = |t: usize| t as f32 * 20.0 + 10.0;
    (0..open).find(|&c| {
        let (min, max) = (m.cells[c].min, m.cells[c].max);
        let grid = [min[0], min[1], max[0], max[1]]
            .iter()
            .all(|v| v.get() % 20.0 == 0.0);
        let x = (max[0].get() / 20.0) as usize;
        let rows = (min[1].get() / 20.0) as usize..(max[1].get() / 20.0) as usize;
        grid && x < 96
            && rows.clone().all(|z| {
                m.is_blocked(centre(x), centre(z)) == Some(false)
                    && m.cell_at(centre(x), centre(z)).is_some_and(|k| k < open)
            })
    })
}

/// Both corners of a cell's max-x side moved one tile further in the OBJ text: the cell takes
/// the column of tiles under it, its neighbour gives them up, validate finds no error.
#[test]
fn a_side_moved_in_the_obj_takes_the_tiles_under_it() {
    let format = registry::by_name("jmxvnvm").unwrap();
    let mut checked = 0;
    for (name, bytes) in regions() {
        let original = Nvm.read(&bytes).unwrap();
        let Some(k) = open_cell_with_open_column_right(&original) else {
            // The legacy sample is one cell over the whole region: no side to move outward.
            assert_eq!(original.cells.len(), 1, "{name}: no open cell to grow");
            println!("{name}: one cell over the whole region, no side to move outward");
            continue;
        };
        let mut g = format.geometry(&bytes).unwrap().unwrap();
        let p = g
            .polygons
            .iter()
            .find(|p| p.record.map(|r| r.index as usize) == Some(k))
            .unwrap()
            .clone();
        let to = original.cells[k].max[0].get() + 20.0;
        // Corners 1 and 2 are the max-x side.
        for c in [1, 2] {
            g.vertices[p.vertices[c] as usize][0] = to;
        }
        let mut opened = format.open(&bytes).unwrap();
        let lines = opened
            .apply(&from_obj(&to_obj(&g)), &MatchOptions::default())
            .unwrap();
        assert!(
            lines[0].starts_with(&format!("cells[{k}]: now")),
            "{name}: {lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("cells[{k}]: took "))),
            "{name}: {lines:#?}"
        );
        let written = opened.write().unwrap();
        assert_eq!(errors(format, &written), [], "{name}: {lines:#?}");
        let m = Nvm.read(&written).unwrap();
        // The grown-over column is the moved cell's, whose rectangle reaches `to`.
        let (z0, z1) = (
            original.cells[k].min[1].get(),
            original.cells[k].max[1].get(),
        );
        let mut z = z0 + 10.0;
        while z < z1 {
            let c = m.cell_at(to - 10.0, z).unwrap();
            assert_eq!(m.cells[c].max[0].get(), to, "{name}: z {z}");
            assert_eq!(m.cells[c].min[1].get(), z0, "{name}: z {z}");
            z += 20.0;
        }
        eprintln!("{name}: cell {k} grown to x {to}: {}", lines.join("; "));
        checked += 1;
    }
    assert!(checked >= 1, "the town sample is edited");
}
