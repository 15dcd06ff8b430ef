//! Silkroad: a cell deleted from the middle of `cells` in the JSON document (its references set
//! to -1, as `from-json` asks), read back, `fix`ed: `validate` is clean, every remaining
//! reference names the same cell as before (by its rectangle), the deleted cell's tiles name the
//! nearest cell of their kind, and the edges run between the cells the tile map gives.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss
)]

use std::path::Path;

use jmxvnvm::{CellQuad, NavMeshTerrain, Nvm, TileFlag, TileMap};
use nav_core::Format;
use navkit_lib::registry;
use serde_json::Value;

fn town() -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad/nv_61a8_town.nvm");
    std::fs::read(path).unwrap()
}

/// Every `i64` at `v[key][*]` (or `v[key]` itself) that equals `from`, set to -1.
fn unlink(v: &mut Value, from: i64) {
    if v.as_i64() == Some(from) {
        *v = Value::from(-1);
    }
}

/// The document with cell `k` deleted and every reference to it set to -1.
fn delete_cell(doc: &Value, k: usize) -> Value {
    let mut doc = doc.clone();
    let m = &mut doc["model"];
    m["cells"].as_array_mut().unwrap().remove(k);
    let k = k as i64;
    for t in m["tile_map"]["modern"].as_array_mut().unwrap() {
        unlink(&mut t["cell_index"], k);
    }
    for e in m["internal_edges"].as_array_mut().unwrap() {
        for side in e["assoc_cell_index"].as_array_mut().unwrap() {
            unlink(side, k);
        }
    }
    for e in m["global_edges"].as_array_mut().unwrap() {
        unlink(&mut e["assoc_cell_index"][0], k);
    }
    doc
}

fn tiles(m: &NavMeshTerrain) -> &[jmxvnvm::Tile] {
    match &m.tile_map {
        TileMap::Modern(t) => t,
        TileMap::Legacy(_) => panic!("the town is a modern region"),
    }
}

/// The cell a tile, edge side... names, by content.
fn cell(m: &NavMeshTerrain, index: impl TryInto<usize>) -> Option<&CellQuad> {
    m.cells.get(index.try_into().ok()?)
}

/// The distance from `p` to `c`'s rectangle (0 inside).
fn distance(c: &CellQuad, p: [f32; 2]) -> f32 {
    let d: Vec<f32> = (0..2)
        .map(|a| (c.min[a].get() - p[a]).max(p[a] - c.max[a].get()).max(0.0))
        .collect();
    d[0].hypot(d[1])
}

/// The cells the tile map gives the tiles on either side of the middle of the edge `a`..`b`
/// (a tile border: x constant or z constant), sorted; a side outside the region is left out.
fn cells_beside(m: &NavMeshTerrain, a: [f32; 2], b: [f32; 2]) -> Vec<i32> {
    let mid = [(a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0];
    let axis = usize::from(a[0] != b[0]); // the axis the edge crosses: x for a vertical edge
    let mut out = Vec::new();
    for step in [-10.0f32, 10.0] {
        let mut p = mid;
        p[axis] += step;
        if !(0.0..1920.0).contains(&p[0]) || !(0.0..1920.0).contains(&p[1]) {
            continue;
        }
        let (x, z) = ((p[0] / 20.0) as usize, (p[1] / 20.0) as usize);
        out.push(tiles(m)[z * 96 + x].cell_index);
    }
    out.sort_unstable();
    out
}

/// Deletes cell `k` of the town through the JSON document and checks the fixed result; returns
/// fix's lines.
fn delete_and_check(k: usize) -> Vec<String> {
    let format = registry::by_name("jmxvnvm").unwrap();
    let bytes = town();
    let original = Nvm.read(&bytes).unwrap();
    assert!(Nvm.validate(&original).is_empty());
    let mut text = Vec::new();
    format.to_json(&bytes, &mut text).unwrap();
    let doc: Value = serde_json::from_slice(&text).unwrap();
    let edited = serde_json::to_vec(&delete_cell(&doc, k)).unwrap();

    let (mut opened, _) = format.open_json(edited.as_slice().into()).unwrap();
    let before = opened.validate();
    assert!(
        before.iter().any(|f| f.place.root() == Some("tile_map")),
        "cell {k} deleted: no tile names the gap"
    );
    let lines = opened.fix();
    let written = opened.write().unwrap();
    let findings = format.validate(&written).unwrap();
    assert!(
        findings.is_empty(),
        "cell {k} deleted and fixed: {findings:#?}"
    );
    let m = Nvm.read(&written).unwrap();
    assert!(
        Nvm.fix(&mut m.clone()).is_empty(),
        "a second fix changed something"
    );

    // The cells are the others, in order, unchanged.
    let mut cells = original.cells.clone();
    cells.remove(k);
    assert_eq!(m.cells, cells);
    let open = original.open_cell_count as usize;
    let open_after = if k < open { open - 1 } else { open };
    assert_eq!(m.open_cell_count as usize, open_after, "cell {k} deleted");

    // Every tile names the cell it did, by content; those of the deleted cell the nearest of
    // their kind.
    let solid = |m: &NavMeshTerrain, c: usize| c >= m.open_cell_count as usize;
    let mut adopted = 0;
    for (i, (t, u)) in tiles(&original).iter().zip(tiles(&m)).enumerate() {
        assert_eq!((t.flags, t.texture_id), (u.flags, u.texture_id));
        let now = cell(&m, u.cell_index).unwrap_or_else(|| panic!("tile {i} names no cell"));
        if t.cell_index as usize == k {
            adopted += 1;
            let blocked = u.flags & TileFlag::BLOCKED != 0;
            assert_eq!(solid(&m, u.cell_index as usize), blocked, "tile {i}");
            // No cell of its kind is nearer to the tile's centre.
            let centre = [(i % 96) as f32 * 20.0 + 10.0, (i / 96) as f32 * 20.0 + 10.0];
            let d = distance(now, centre);
            let nearer = (0..m.cells.len())
                .filter(|&c| solid(&m, c) == blocked)
                .find(|&c| distance(&m.cells[c], centre) < d);
            assert_eq!(nearer, None, "tile {i}: given cell {}", u.cell_index);
        } else {
            assert_eq!(cell(&original, t.cell_index), Some(now), "tile {i}");
        }
    }
    assert!(adopted > 0);

    // Every edge's sides name the cells of the tiles on either side of it; an edge that was
    // there before names the same cells by content, unless one was the deleted one.
    let old: Vec<_> = original
        .internal_edges
        .iter()
        .map(|e| ((e.min, e.max, e.assoc_direction), e.assoc_cell_index))
        .collect();
    for e in &m.internal_edges {
        let (a, b) = (e.min.map(|v| v.get()), e.max.map(|v| v.get()));
        let mut sides = e.assoc_cell_index.map(i32::from).to_vec();
        sides.sort_unstable();
        assert_eq!(sides, cells_beside(&m, a, b), "internal edge {a:?}..{b:?}");
        if let Some((_, was)) = old
            .iter()
            .find(|(key, _)| *key == (e.min, e.max, e.assoc_direction))
        {
            if !was.contains(&(k as i16)) {
                for (w, n) in was.iter().zip(e.assoc_cell_index) {
                    assert_eq!(cell(&original, *w), cell(&m, n));
                }
            }
        }
    }
    for e in &m.global_edges {
        let (a, b) = (e.min.map(|v| v.get()), e.max.map(|v| v.get()));
        let side = i32::from(e.assoc_cell_index[0]);
        assert_eq!(cells_beside(&m, a, b), [side], "global edge {a:?}..{b:?}");
    }
    eprintln!(
        "cell {k} deleted: {} tiles re-homed; fix:\n  {}",
        adopted,
        lines.join("\n  ")
    );
    lines
}

#[test]
fn a_deleted_middle_cell_leaves_no_uncovered_tile() {
    let original = Nvm.read(&town()).unwrap();
    let open = original.open_cell_count as usize;
    let n = original.cells.len();
    assert!(open > 2 && n > open + 2, "{open} open of {n}");
    // A middle open cell and a middle solid one.
    for k in [open / 2, open + (n - open) / 2] {
        let lines = delete_and_check(k);
        assert!(
            lines.iter().any(|l| l.contains("given the nearest cell")),
            "{lines:#?}"
        );
    }
}
