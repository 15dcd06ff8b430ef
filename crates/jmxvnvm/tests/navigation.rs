//! The navigation graph: one polygon cell per terrain cell with the cell index as id, two directed
//! edges per internal edge (blocked where the flags or a solid cell say so), exits across global
//! edges; no panic on dangling indices; the samples and any corpus file map every edge they store.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::Path;

use arbitrary::{Arbitrary, Unstructured};
use jmxvnvm::build::town;
use jmxvnvm::{
    CellQuad, EdgeDirection, EdgeFlag, EdgeGlobal, EdgeInternal, NavMeshTerrain, Nvm, RegionId,
    TerrainBuilder,
};
use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};
use nav_core::testing::{corpus_files, is_negative, noise, real_paths};
use nav_core::{Format, RawF32};

fn cell(min: [f32; 2], max: [f32; 2]) -> CellQuad {
    CellQuad {
        min: min.map(RawF32::new),
        max: max.map(RawF32::new),
        object_indices: Vec::new(),
    }
}

fn internal(cells: [i16; 2], flags: u8) -> EdgeInternal {
    EdgeInternal {
        min: [RawF32::ZERO; 2],
        max: [RawF32::ZERO; 2],
        flags: EdgeFlag::INTERNAL | flags,
        assoc_direction: cells.map(|c| if c < 0 { -1 } else { EdgeDirection::TOP }),
        assoc_cell_index: cells,
    }
}

fn global(cells: [i16; 2], regions: [u16; 2], flags: u8) -> EdgeGlobal {
    EdgeGlobal {
        min: [RawF32::ZERO; 2],
        max: [RawF32::ZERO; 2],
        flags: EdgeFlag::GLOBAL | flags,
        assoc_direction: cells.map(|c| if c < 0 { -1 } else { EdgeDirection::LEFT }),
        assoc_cell_index: cells,
        assoc_region_id: regions,
    }
}

fn edges(g: &Graph) -> Vec<(u32, u32, EdgeKind)> {
    g.edges.iter().map(|e| (e.from, e.to, e.kind)).collect()
}

/// Cells A (0..100 × 0..200, open), B (100..300 × 0..200, open) and C (0..300 × 200..400, solid)
/// on heights `x / 20 + 2 z / 20`.
fn region() -> NavMeshTerrain {
    let mut m = TerrainBuilder::new(RegionId(0x61a8))
        .heights(|x, z| x as f32 + 2.0 * z as f32)
        .build();
    m.cells = vec![
        cell([0.0, 0.0], [100.0, 200.0]),
        cell([100.0, 0.0], [300.0, 200.0]),
        cell([0.0, 200.0], [300.0, 400.0]),
    ];
    m.open_cell_count = 2;
    m.internal_edges.clear();
    m.global_edges.clear();
    m
}

#[test]
fn cells_are_the_cell_rectangles_on_the_height_map_with_their_index() {
    let m = region();
    let g = Nvm.navigation(&m).unwrap();
    assert_eq!(g.up, UpAxis::Y);
    assert_eq!(g.cells.len(), 3);
    for (i, c) in g.cells.iter().enumerate() {
        assert_eq!(c.id, CellId::new(i as u64));
        assert_eq!(c.radius, None);
        assert_eq!(g.polygon(i as u32).len(), 4);
    }
    // Corners (min.x, max.z), (max.x, max.z), (max.x, min.z), (min.x, min.z), at x / 20 + 2 z / 20,
    // as the geometry places them.
    let expected = [
        [100.0, 25.0, 200.0],
        [300.0, 35.0, 200.0],
        [300.0, 15.0, 0.0],
        [100.0, 5.0, 0.0],
    ];
    assert_eq!(g.polygon(1), expected);
    assert_eq!(g.cells[1].centre, Some([200.0, 20.0, 100.0]));
    let geometry = jmxvnvm::geometry(&m);
    for (i, p) in geometry.polygons.iter().enumerate() {
        let corners: Vec<[f32; 3]> = p
            .vertices
            .iter()
            .map(|v| geometry.vertices[*v as usize])
            .collect();
        assert_eq!(g.polygon(i as u32), corners, "cell {i}");
    }
    assert!(g.edges.is_empty() && g.exits.is_empty() && g.is_consistent());
}

#[test]
fn internal_edges_are_two_way_unless_their_flags_or_a_solid_cell_block_a_way() {
    let mut m = region();
    m.internal_edges = vec![
        // A | B, both ways.
        internal([0, 1], 0),
        // B -> A blocked only: one way from A to B.
        internal([0, 1], EdgeFlag::BLOCK_DST_TO_SRC),
        // A -> B blocked only.
        internal([0, 1], EdgeFlag::BLOCK_SRC_TO_DST),
        // Both blocked.
        internal([1, 0], EdgeFlag::BLOCKED),
        // Into C, which is solid: blocked that way whatever the flags.
        internal([1, 2], 0),
    ];
    let g = jmxvnvm::navigation(&m);
    assert_eq!(
        edges(&g),
        [
            (0, 1, EdgeKind::Walk),
            (1, 0, EdgeKind::Walk),
            (0, 1, EdgeKind::Walk),
            (1, 0, EdgeKind::Blocked),
            (0, 1, EdgeKind::Blocked),
            (1, 0, EdgeKind::Walk),
            (1, 0, EdgeKind::Blocked),
            (0, 1, EdgeKind::Blocked),
            (1, 2, EdgeKind::Blocked),
            (2, 1, EdgeKind::Walk),
        ]
    );
    assert!(g.exits.is_empty());
}

#[test]
fn global_edges_are_exits_naming_the_region_and_cell() {
    let mut m = region();
    m.global_edges = vec![
        global([1, 12], [0x61a8, 0x61a9], 0),
        global([0, 3], [0x61a8, 0x60a8], EdgeFlag::BLOCK_SRC_TO_DST),
        // Blocked only the other way, which is the neighbour's to map.
        global([0, 4], [0x61a8, 0x60a8], EdgeFlag::BLOCK_DST_TO_SRC),
        // No cell on the far side, or none here: nothing.
        global([0, -1], [0x61a8, 0x60a8], 0),
        global([-1, 5], [0x61a8, 0x60a8], 0),
        // Both region ids equal: a cell of this file on both sides.
        global([0, 1], [0x61a8, 0x61a8], EdgeFlag::BLOCK_DST_TO_SRC),
    ];
    let g = jmxvnvm::navigation(&m);
    let exits: Vec<(u32, &str, EdgeKind)> = g
        .exits
        .iter()
        .map(|e| (e.from, e.target.as_str(), e.kind))
        .collect();
    assert_eq!(
        exits,
        [
            (1, "region 0x61a9 (x 169, z 97) cell 12", EdgeKind::Walk),
            (0, "region 0x60a8 (x 168, z 96) cell 3", EdgeKind::Blocked),
            (0, "region 0x60a8 (x 168, z 96) cell 4", EdgeKind::Walk),
        ]
    );
    assert_eq!(
        edges(&g),
        [(0, 1, EdgeKind::Walk), (1, 0, EdgeKind::Blocked)]
    );
    assert!(g.is_consistent());
}

#[test]
fn references_out_of_range_are_left_out_without_a_panic() {
    let mut m = region();
    m.internal_edges = vec![
        internal([0, 7], 0),
        internal([-5, 1], 0),
        internal([1, -1], EdgeFlag::BLOCK_SRC_TO_DST),
        internal([2, 0], 0),
    ];
    m.global_edges = vec![global([9, 1], [1, 2], 0), global([0, 9], [1, 1], 0)];
    // An open-cell count past the cells, a height map of the wrong size, a NaN corner.
    m.open_cell_count = 99;
    m.height_map.truncate(10);
    m.cells[2].max[0] = RawF32::new(f32::NAN);
    assert!(!jmxvnvm::validate(&m).is_empty());
    let g = jmxvnvm::navigation(&m);
    assert!(g.is_consistent());
    assert_eq!(edges(&g), [(2, 0, EdgeKind::Walk), (0, 2, EdgeKind::Walk)]);
    assert!(g.exits.is_empty());
    // The cell with a NaN corner keeps its place and id, without a polygon or a centre.
    assert_eq!(g.cells[2].id, CellId::new(2));
    assert_eq!(g.cells[2].centre, None);
    assert!(g.polygon(2).is_empty());
    // Heights the map cannot give are 0, as in the geometry.
    assert_eq!(g.polygon(0)[0], [0.0, 0.0, 200.0]);
}

#[test]
fn arbitrary_models_map_consistently() {
    let mut mapped = 0;
    for seed in 0..400u64 {
        let data = noise(seed, 512 + (seed as usize % 5) * 1024);
        let Ok(m) = NavMeshTerrain::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let g = jmxvnvm::navigation(&m);
        assert!(g.is_consistent(), "seed {seed}");
        assert_eq!(g.cells.len(), m.cells.len(), "seed {seed}");
        assert!(g.edges.len() <= 2 * (m.internal_edges.len() + m.global_edges.len()));
        mapped += 1;
    }
    assert!(mapped > 200, "only {mapped} arbitrary models");
}

/// Maps one file and checks it against counts taken from the model's records.
fn check_file(path: &Path) -> Graph {
    let name = path.display();
    let m = Nvm.read(&std::fs::read(path).unwrap()).unwrap();
    let g = Nvm.navigation(&m).unwrap();
    assert!(g.is_consistent(), "{name}");
    assert_eq!(g.cells.len(), m.cells.len(), "{name}");
    let ok = |c: i16| c >= 0 && (c as usize) < m.cells.len();
    // Every internal edge names two cells of the file (the builder's edges do, and validate
    // finds no error), so each is two graph edges; each global edge an exit, or two edges when
    // both of its regions are this one.
    let internal = m
        .internal_edges
        .iter()
        .filter(|e| e.assoc_cell_index.iter().all(|&c| ok(c)))
        .count();
    let same_region = m
        .global_edges
        .iter()
        .filter(|e| e.assoc_region_id[0] == e.assoc_region_id[1])
        .count();
    let crossing = m
        .global_edges
        .iter()
        .filter(|e| e.assoc_region_id[0] != e.assoc_region_id[1] && e.assoc_cell_index[1] >= 0)
        .count();
    assert_eq!(internal, m.internal_edges.len(), "{name}");
    assert_eq!(g.edges.len(), 2 * (internal + same_region), "{name}");
    assert_eq!(g.exits.len(), crossing, "{name}");
    // Blocked edges: each direction a flag blocks or that enters a solid cell.
    let solid = |c: i16| c as u32 >= m.open_cell_count;
    let blocked: usize = m
        .internal_edges
        .iter()
        .map(|e| {
            let [a, b] = e.assoc_cell_index;
            usize::from(e.flags & EdgeFlag::BLOCK_SRC_TO_DST != 0 || solid(b))
                + usize::from(e.flags & EdgeFlag::BLOCK_DST_TO_SRC != 0 || solid(a))
        })
        .sum();
    let mapped = g
        .edges
        .iter()
        .filter(|e| e.kind == EdgeKind::Blocked)
        .count();
    assert_eq!(mapped, blocked, "{name}");
    g
}

#[test]
fn samples_map_every_edge() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad");
    let files = corpus_files(&dir);
    assert_eq!(files.len(), 4);
    let mut exits = 0;
    let mut walk = 0;
    for path in files {
        let g = check_file(&path);
        let blocked = g
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Blocked)
            .count();
        println!(
            "{}: {} cells, {} edges ({blocked} blocked), {} exits",
            path.display(),
            g.cells.len(),
            g.edges.len(),
            g.exits.len()
        );
        exits += g.exits.len();
        walk += g.edges.iter().filter(|e| e.kind == EdgeKind::Walk).count();
    }
    // The town alone has 64 global edges and 558 internal edges, most of them open.
    assert!(exits >= 64, "{exits} exits");
    assert!(walk > 500, "{walk} walk edges");
}

#[test]
fn every_corpus_file_maps_every_edge() {
    // No public .nvm file exists: the folder holds none yet (real_paths notes a missing folder,
    // and panics under NAVKIT_REQUIRE_CORPUS).
    let mut mapped = 0;
    for path in real_paths("silkroad").iter().filter(|p| !is_negative(p)) {
        check_file(path);
        mapped += 1;
    }
    println!("jmxvnvm corpus: {mapped} files mapped");
}

#[test]
fn the_town_maps_quickly() {
    let m = town(RegionId(0x61a8));
    let runs = 50;
    let start = std::time::Instant::now();
    let mut cells = 0;
    for _ in 0..runs {
        cells += std::hint::black_box(jmxvnvm::navigation(&m)).cells.len();
    }
    let each = start.elapsed() / runs;
    assert_eq!(cells, m.cells.len() * runs as usize);
    println!(
        "jmxvnvm navigation of the town sample ({} cells, {} internal and {} global edges): {each:?} per graph",
        m.cells.len(),
        m.internal_edges.len(),
        m.global_edges.len()
    );
}
