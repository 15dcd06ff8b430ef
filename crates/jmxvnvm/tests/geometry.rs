//! The geometry mapping: cell quads on the height map, open and blocked kinds, neighbours from the
//! internal edges, objects and their links; consistency over the samples, arbitrary models and
//! the corpus (no public file yet: the test says it checked 0).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::noise;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use arbitrary::{Arbitrary, Unstructured};
use jmxvnvm::build::{empty, town};
use jmxvnvm::{
    CellQuad, EdgeDirection, EdgeFlag, EdgeInternal, LinkedEdge, NavMeshObj, NavMeshTerrain, Nvm,
    RegionId, TerrainBuilder,
};
use nav_core::geometry::{Geometry, UpAxis};
use nav_core::testing::corpus_files;

mod common;
use nav_core::{Format, RawF32};

fn kinds(g: &Geometry) -> HashMap<String, (usize, usize, usize)> {
    let mut out: HashMap<String, (usize, usize, usize)> = HashMap::new();
    for p in &g.polygons {
        out.entry(g.kind_name(p.kind).into()).or_default().0 += 1;
    }
    for n in &g.nodes {
        out.entry(g.kind_name(n.kind).into()).or_default().1 += 1;
    }
    for l in &g.links {
        out.entry(g.kind_name(l.kind).into()).or_default().2 += 1;
    }
    out
}

fn cell(min: [f32; 2], max: [f32; 2]) -> CellQuad {
    CellQuad {
        min: min.map(RawF32::new),
        max: max.map(RawF32::new),
        object_indices: Vec::new(),
    }
}

fn edge(cells: [i16; 2], dirs: [i8; 2], flags: u8) -> EdgeInternal {
    EdgeInternal {
        min: [RawF32::ZERO; 2],
        max: [RawF32::ZERO; 2],
        flags: EdgeFlag::INTERNAL | flags,
        assoc_direction: dirs,
        assoc_cell_index: cells,
    }
}

fn object(x: f32, links: &[i16]) -> NavMeshObj {
    NavMeshObj {
        resource_id: 1,
        local_position: [x, 5.0, 7.0].map(RawF32::new),
        is_static: -1,
        yaw: RawF32::ZERO,
        uid: 1,
        unk_short01: 0,
        is_big: 0,
        is_struct: 0,
        region_id: 0x61a8,
        linked_edges: links
            .iter()
            .map(|&o| LinkedEdge {
                other_object_index: o,
                other_edge_index: 0,
                edge_index: 0,
            })
            .collect(),
    }
}

/// Cells A (0..100 × 0..200, open), B (100..300 × 0..200, open) and C (0..300 × 200..400,
/// blocked) on heights `x / 20 + 2 z / 20`, three objects.
fn hand_built() -> NavMeshTerrain {
    let mut m = TerrainBuilder::new(RegionId(0x61a8))
        .heights(|x, z| x as f32 + 2.0 * z as f32)
        .build();
    m.cells = vec![
        cell([0.0, 0.0], [100.0, 200.0]),
        cell([100.0, 0.0], [300.0, 200.0]),
        cell([0.0, 200.0], [300.0, 400.0]),
    ];
    m.open_cell_count = 2;
    const BOTTOM: i8 = EdgeDirection::BOTTOM;
    const LEFT: i8 = EdgeDirection::LEFT;
    const TOP: i8 = EdgeDirection::TOP;
    const RIGHT: i8 = EdgeDirection::RIGHT;
    m.internal_edges = vec![
        // A | B, passable both ways.
        edge([0, 1], [RIGHT, LEFT], 0),
        // A | C, blocked both ways.
        edge([0, 2], [TOP, BOTTOM], EdgeFlag::BLOCKED),
        // C | B, blocked from B (second) to C (first) only.
        edge([2, 1], [BOTTOM, TOP], EdgeFlag::BLOCK_DST_TO_SRC),
        // Dangling: a cell past the list, a missing cell, directions out of range.
        edge([0, 7], [LEFT, RIGHT], 0),
        edge([1, -1], [BOTTOM, -1], EdgeFlag::BLOCK_SRC_TO_DST),
        edge([1, 0], [9, -3], 0),
        // A second edge on A's right side: the first one stays (and 9 is no direction).
        edge([0, 2], [RIGHT, 9], 0),
    ];
    m.global_edges.clear();
    m.objects = vec![
        object(10.0, &[1, 1, -1, 9]),
        object(20.0, &[0]),
        object(30.0, &[]),
    ];
    m
}

#[test]
fn hand_built_region_maps_to_cells_objects_and_links() {
    let g = Nvm
        .geometry(&hand_built())
        .expect("jmxvnvm maps its geometry");
    assert!(g.is_consistent());
    assert_eq!(g.up, UpAxis::Y);
    assert_eq!(g.polygons.len(), 3);
    assert_eq!(g.vertices.len(), 12);
    assert_eq!(g.nodes.len(), 3);
    assert_eq!(g.links.len(), 2);
    let k = kinds(&g);
    assert_eq!(k["open"], (2, 0, 0));
    assert_eq!(k["blocked"], (1, 0, 0));
    assert_eq!(k["object"], (0, 3, 0));
    assert_eq!(k["linked"], (0, 0, 2));
    let links: Vec<(u32, u32)> = g.links.iter().map(|l| (l.from, l.to)).collect();
    assert_eq!(links, [(0, 1), (1, 0)]);
    assert_eq!(g.nodes[0].position, [10.0, 5.0, 7.0]);

    // Corners (min.x, max.z), (max.x, max.z), (max.x, min.z), (min.x, min.z); heights from the
    // map: x / 20 + 2 z / 20.
    let b: Vec<[f32; 3]> = g.polygons[1]
        .vertices
        .iter()
        .map(|v| g.vertices[*v as usize])
        .collect();
    assert_eq!(
        b,
        [
            [100.0, 25.0, 200.0],
            [300.0, 35.0, 200.0],
            [300.0, 15.0, 0.0],
            [100.0, 5.0, 0.0]
        ]
    );
    // Counter-clockwise seen from above, on the plan the renderer draws.
    let plan: Vec<(f32, f32)> = b.iter().map(|p| g.plan(*p)).collect();
    let twice_area: f32 = (0..4)
        .map(|i| {
            let (p, q) = (plan[i], plan[(i + 1) % 4]);
            p.0 * q.1 - q.0 * p.1
        })
        .sum();
    assert!(twice_area > 0.0);

    // Edges top (max z), right (max x), bottom (min z), left (min x).
    assert_eq!(g.polygons[0].neighbours, [None, Some(1), None, None]);
    assert_eq!(g.polygons[1].neighbours, [None, None, None, Some(0)]);
    assert_eq!(g.polygons[2].neighbours, [None, None, Some(1), None]);
}

#[test]
fn town_sample_maps_every_cell_and_object() {
    let m = town(RegionId(0x61a8));
    let g = jmxvnvm::geometry(&m);
    assert!(g.is_consistent());
    let k = kinds(&g);
    assert_eq!(g.polygons.len(), m.cells.len());
    assert_eq!(k["open"].0, m.open_cell_count as usize);
    assert_eq!(k["open"].0 + k["blocked"].0, 266);
    assert_eq!(k["object"].1, 39);
    // Two chains of six linked wall segments: 5 links each way per chain; the removed (-1) entry
    // and the duplicated link add none.
    assert_eq!(k["linked"].2, 20);
    let pairs: BTreeSet<(i64, i64)> = m
        .objects
        .iter()
        .enumerate()
        .flat_map(|(i, o)| {
            o.linked_edges
                .iter()
                .map(move |l| (i as i64, i64::from(l.other_object_index)))
        })
        .filter(|(_, t)| *t >= 0)
        .collect();
    assert_eq!(pairs.len(), 20);

    // Each neighbour shares the side it is recorded on, and open cells only lead to open cells
    // (the builder blocks every edge that touches a blocked cell).
    let open = m.open_cell_count as usize;
    let mut with_neighbours = 0;
    for (a, p) in g.polygons.iter().enumerate() {
        for (side, n) in p.neighbours.iter().enumerate() {
            let Some(b) = n else { continue };
            let (ca, cb) = (&m.cells[a], &m.cells[*b as usize]);
            let shared = match side {
                0 => ca.max[1] == cb.min[1],
                1 => ca.max[0] == cb.min[0],
                2 => ca.min[1] == cb.max[1],
                _ => ca.min[0] == cb.max[0],
            };
            assert!(shared, "cell {a} side {side} -> {b}");
            assert!(a < open && (*b as usize) < open, "cell {a} -> {b}");
            with_neighbours += 1;
        }
    }
    assert!(with_neighbours > 300, "{with_neighbours} neighbours");
    // Heights come from the map: a corner at a height-map vertex has that vertex's height.
    let c = &m.cells[0];
    let corner = g.vertices[g.polygons[0].vertices[3] as usize];
    assert_eq!([corner[0], corner[2]], [c.min[0].get(), c.min[1].get()]);
    assert_eq!(Some(corner[1]), m.height_at(corner[0], corner[2]));
}

#[test]
fn empty_region_is_all_open_and_flat() {
    let g = jmxvnvm::geometry(&empty(RegionId(0x5c81), 212.5));
    assert!(g.is_consistent());
    assert_eq!(g.polygons.len(), 36);
    assert_eq!(kinds(&g)["open"].0, 36);
    assert!(g.vertices.iter().all(|v| v[1] == 212.5));
    assert!(g.nodes.is_empty() && g.links.is_empty());
    // A 6 × 6 grid: 2 × 6 × 5 shared sides, each seen from both cells.
    let n: usize = g
        .polygons
        .iter()
        .map(|p| p.neighbours.iter().flatten().count())
        .sum();
    assert_eq!(n, 120);
}

fn check_file(path: &Path) -> Geometry {
    let bytes = std::fs::read(path).unwrap();
    let m = Nvm.read(&bytes).unwrap();
    let g = jmxvnvm::geometry(&m);
    assert!(g.is_consistent(), "{}", path.display());
    assert_eq!(g.polygons.len(), m.cells.len(), "{}", path.display());
    assert_eq!(g.nodes.len(), m.objects.len(), "{}", path.display());
    assert_eq!(g.vertices.len(), 4 * m.cells.len(), "{}", path.display());
    g
}

#[test]
fn samples_map_consistently() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad");
    let files = corpus_files(&dir);
    assert_eq!(files.len(), 4);
    for path in files {
        check_file(&path);
    }
}

#[test]
fn every_corpus_file_maps_consistently() {
    // With no real file (none is public yet), `real_nvm_files` checks that and says so.
    let files = common::real_nvm_files("geometry");
    for path in &files {
        check_file(path);
    }
    println!("jmxvnvm corpus: {} real files mapped", files.len());
}

#[test]
fn arbitrary_models_map_consistently() {
    let mut mapped = 0;
    for seed in 0..400u64 {
        let data = noise(seed, 512 + (seed as usize % 5) * 1024);
        let Ok(m) = NavMeshTerrain::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let g = jmxvnvm::geometry(&m);
        assert!(g.is_consistent(), "seed {seed}");
        assert_eq!(g.polygons.len(), m.cells.len());
        assert_eq!(g.nodes.len(), m.objects.len());
        mapped += 1;
    }
    assert!(mapped > 200, "only {mapped} arbitrary models");
}
