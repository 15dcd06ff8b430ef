//! `fix`: real files (none public yet) and the built samples come back untouched when they
//! validate clean; a region whose cells were merged by an edit, or whose last object was
//! deleted, is made consistent again, writes and reads back equal, and a second fix changes
//! nothing; the change lines of a small built case are exact.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use jmxvnvm::fix::mends;
use jmxvnvm::{NavMeshTerrain, Nvm, RegionId, TerrainBuilder, build};
use nav_core::testing::{assert_places, files_have_places, fix_files};

mod common;
use nav_core::{Finding, Format, RawF32, Severity};

/// The model's top-level parts, as finding places name them.
const ROOTS: &[&str] = &[
    "objects",
    "open_cell_count",
    "cells",
    "global_edges",
    "internal_edges",
    "tile_map",
    "height_map",
    "planes",
];

fn errors(m: &NavMeshTerrain) -> Vec<Finding> {
    let all = Nvm.validate(m);
    assert_places("model", &all, ROOTS);
    all.into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// Fixes `m`: no error of a kind fix mends is left, the model writes and reads back equal, and
/// a second fix changes nothing. Returns the change lines.
fn fix_and_check(what: &str, m: &mut NavMeshTerrain) -> Vec<String> {
    let changes = Nvm.fix(m);
    let left: Vec<_> = errors(m).into_iter().filter(mends).collect();
    assert!(left.is_empty(), "{what}: fix left {left:#?}");
    let bytes = Nvm
        .write(m)
        .unwrap_or_else(|e| panic!("{what}: the fixed model: {e}"));
    let back = Nvm.read(&bytes).unwrap();
    assert_eq!(&back, m, "{what}: the fixed model does not read back equal");
    let mut again = back;
    let second = Nvm.fix(&mut again);
    assert!(
        second.is_empty(),
        "{what}: a second fix changed {second:#?}"
    );
    changes
}

/// Every real file, and every sample the builder made: untouched when validate finds no error
/// fix mends; fewer errors, none that fix mends, otherwise.
#[test]
fn real_files_and_samples_fix_only_what_validate_finds() {
    let real = common::real_nvm_files("fix");
    let samples = common::samples();
    assert_eq!(samples.len(), 4);
    let walked = real.len() + samples.len();
    let tally = fix_files(&Nvm, real.into_iter().chain(samples), mends);
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    assert!(tally.unchanged > 0, "no file came back unchanged");
}

/// Merges the last cell into another cell of the same kind (both open or both blocked) that
/// shares a whole side with it, as an edit of the cells would: the last cell is deleted and the
/// other one grown over it. `None` when no cell shares a whole side with the last one.
fn merge_last_cell(m: &mut NavMeshTerrain) -> Option<usize> {
    let last = m.cells.len().checked_sub(1)?;
    let open = m.open_cell_count as usize;
    let l = m.cells[last].clone();
    let (lmin, lmax) = (l.min.map(RawF32::get), l.max.map(RawF32::get));
    let j = (0..last).find(|&j| {
        let c = &m.cells[j];
        let (cmin, cmax) = (c.min.map(RawF32::get), c.max.map(RawF32::get));
        let same_kind = (j < open) == (last < open);
        let beside_x =
            cmin[1] == lmin[1] && cmax[1] == lmax[1] && (cmax[0] == lmin[0] || lmax[0] == cmin[0]);
        let beside_z =
            cmin[0] == lmin[0] && cmax[0] == lmax[0] && (cmax[1] == lmin[1] || lmax[1] == cmin[1]);
        same_kind && (beside_x || beside_z)
    })?;
    let c = &mut m.cells[j];
    for a in 0..2 {
        c.min[a] = RawF32::new(c.min[a].get().min(lmin[a]));
        c.max[a] = RawF32::new(c.max[a].get().max(lmax[a]));
    }
    for o in l.object_indices {
        if !c.object_indices.contains(&o) {
            c.object_indices.push(o);
        }
    }
    m.cells.pop();
    Some(j)
}

/// Two blocked cells side by side at the end of the cell list: the tiles 12..20 × 0..4 blocked
/// across the border of two 16-tile blocks.
fn two_blocked_cells() -> NavMeshTerrain {
    TerrainBuilder::new(RegionId(0x61a8))
        .heights(|x, z| (x + z) as f32)
        .block_tiles(12, 0, 20, 4)
        .build()
}

/// The first real file where the corpus has one, else the built town sample.
fn real_or_built() -> (String, NavMeshTerrain) {
    match common::real_nvm_files("fix after an edit")
        .into_iter()
        .next()
    {
        Some(f) => {
            let m = Nvm.read(&std::fs::read(&f).unwrap()).unwrap();
            (f.display().to_string(), m)
        }
        None => {
            println!("jmxvnvm: breaking the built town region instead of a real file");
            ("built town".to_string(), build::town(RegionId(0x61a8)))
        }
    }
}

#[test]
fn merged_cells_get_their_tiles_and_edges_recomputed() {
    for (name, original) in [
        real_or_built(),
        ("two blocked cells".to_string(), two_blocked_cells()),
    ] {
        assert_eq!(errors(&original), [], "{name}");
        let mut m = original.clone();
        // Both the built town and the two blocked cells have a neighbour of the last cell; a
        // real file that does not needs another edit here, so the test fails rather than
        // checking nothing.
        let into = merge_last_cell(&mut m)
            .unwrap_or_else(|| panic!("{name}: no cell shares a whole side with the last one"));
        let before = errors(&m);
        assert!(
            !before.is_empty(),
            "{name}: no error after merging the last cell"
        );
        let changes = fix_and_check(&name, &mut m);
        eprintln!(
            "{name}, last cell merged into cell {into}: {} errors before fix, {} after; \
             changes:\n  {}",
            before.len(),
            errors(&m).len(),
            changes.join("\n  ")
        );
        assert_eq!(errors(&m), [], "{name}");
        assert!(!changes.is_empty());
        // The tiles of the merged cell name the cell that took them over.
        let last = original.cells.len() - 1;
        if let (jmxvnvm::TileMap::Modern(a), jmxvnvm::TileMap::Modern(b)) =
            (&original.tile_map, &m.tile_map)
        {
            for (t, u) in a.iter().zip(b) {
                if t.cell_index as usize == last {
                    assert_eq!(u.cell_index as usize, into, "{name}");
                }
            }
        }
        // No edge between the two merged cells is left.
        assert!(
            m.internal_edges
                .iter()
                .all(|e| e.assoc_cell_index[0] != e.assoc_cell_index[1])
        );
    }
}

#[test]
fn a_deleted_object_loses_its_references() {
    let (name, original) = real_or_built();
    let mut m = original.clone();
    let last = m.objects.len() - 1;
    let referenced = m
        .cells
        .iter()
        .any(|c| c.object_indices.contains(&(last as u16)));
    m.objects.pop();
    // The built town lists its last object in a cell; a real file that does not needs another
    // edit here, so the test fails rather than checking nothing.
    assert!(referenced, "{name}: no cell lists the last object");
    let before = errors(&m);
    let changes = fix_and_check(&name, &mut m);
    eprintln!(
        "{name}, last object deleted: {} errors before fix, {} after; changes:\n  {}",
        before.len(),
        errors(&m).len(),
        changes.join("\n  ")
    );
    assert_eq!(errors(&m), []);
    assert!(changes.iter().all(|c| c.contains("dropped")));
    // Nothing derived from the cells moved.
    assert_eq!(m.internal_edges, original.internal_edges);
    assert_eq!(m.tile_map, original.tile_map);
}

#[test]
fn exact_lines_for_two_merged_cells() {
    let mut m = two_blocked_cells();
    let n = m.cells.len();
    assert_eq!(n - m.open_cell_count as usize, 2);
    let into = merge_last_cell(&mut m);
    assert_eq!(into, Some(n - 2));
    let changes = fix_and_check("two blocked cells", &mut m);
    assert_eq!(
        changes,
        [
            "tile_map: recomputed the cell index of 16 tiles from the cell rectangles",
            "internal_edges: recomputed from the tile map: 68 edges (were 69)",
            "global_edges: recomputed from the tile map for region 0x61a8 (x 168, z 97): 28 \
             edges (were 28)",
        ]
    );
    // 38 open cells (34 blocks of one cell, two blocks of two) and the two blocked ones; the
    // edge between the blocked ones is gone, and the border run along the merged cell now names
    // it (the runs stay apart: across the border they face two different cells).
    assert_eq!(m.cells.len(), 39);
    let merged = 38;
    let bottom: Vec<_> = m
        .global_edges
        .iter()
        .filter(|e| e.assoc_cell_index[0] == merged)
        .map(|e| (e.min[0].get(), e.max[0].get()))
        .collect();
    assert_eq!(bottom, [(240.0, 320.0), (320.0, 400.0)]);
}

/// Arbitrary regions: fix never panics, and a second fix changes nothing.
#[test]
fn arbitrary_models_never_panic() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut fixed = 0;
    for seed in 0..300u64 {
        let data = nav_core::testing::noise(seed, 4096);
        let Ok(mut m) = NavMeshTerrain::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        if Nvm.fix(&mut m).is_empty() {
            continue;
        }
        fixed += 1;
        let second = Nvm.fix(&mut m.clone());
        assert!(
            second.is_empty(),
            "seed {seed}: a second fix changed {second:#?}"
        );
    }
    eprintln!("arbitrary models: {fixed} changed by fix");
    assert!(fixed > 0);
}

#[test]
fn every_finding_of_real_files_and_samples_has_a_place() {
    let real = common::real_nvm_files("finding places").into_iter();
    let (read, _) = files_have_places(&Nvm, real.chain(common::samples()), ROOTS);
    assert!(read > 0);
}
