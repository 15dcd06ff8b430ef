//! The geometry mapping: quads, kinds, neighbours, the area graph and ladder links of a hand-built
//! mesh; consistency over arbitrary models, the samples and every corpus file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::noise;
use std::collections::BTreeMap;
use std::path::Path;

use arbitrary::{Arbitrary, Unstructured};
use nav_core::geometry::{Geometry, UpAxis};
use nav_core::testing::{corpus_files, is_negative, real_files, skip_without_corpus};
use nav_core::{Format, RawF32};
use nav_source::geometry::{ATTRIBUTE_KINDS, attribute_kind};
use nav_source::{Area, Flavour, Ladder, SourceMesh, SourceNav};

fn area(id: u32, flags: u32, nw: [f32; 3], se: [f32; 3], ne_z: f32, sw_z: f32) -> Area {
    Area {
        id,
        attribute_flags: flags,
        nw_corner: nw.map(RawF32::new),
        se_corner: se.map(RawF32::new),
        ne_z: RawF32::new(ne_z),
        sw_z: RawF32::new(sw_z),
        ..Area::default()
    }
}

/// Three areas in a row along x (ids 10, 20, 30), a crouch area and a jump+crouch area, connected
/// 10 <-> 20 east/west and 20 -> 30 east, plus a connection to a missing id and a ladder from 10
/// up to 30.
fn sample() -> SourceMesh {
    let mut mesh = SourceMesh::new(Flavour::Base, 16, 0);
    let mut a = area(10, 0, [0.0, 0.0, 0.0], [64.0, 32.0, 8.0], 2.0, 6.0);
    a.connections[1] = vec![20, 999].into();
    let mut b = area(20, 0x1, [64.0, 0.0, 0.0], [128.0, 32.0, 0.0], 0.0, 0.0);
    b.connections[1] = vec![30].into();
    b.connections[3] = vec![10].into();
    let mut c = area(
        30,
        0x3 | 0x1000,
        [128.0, 0.0, 100.0],
        [192.0, 32.0, 100.0],
        100.0,
        100.0,
    );
    c.connections[0] = vec![999, 20].into();
    mesh.areas = vec![a, b, c];
    mesh.ladders = vec![Ladder {
        id: 1,
        bottom_area_id: 10,
        top_forward_area_id: 30,
        top_left_area_id: 30,
        top_right_area_id: 0,
        top_behind_area_id: 777,
        ..Ladder::default()
    }];
    mesh
}

fn count_kind(g: &Geometry, name: &str) -> (usize, usize, usize) {
    let Some(k) = g.kinds.iter().position(|k| k == name) else {
        return (0, 0, 0);
    };
    let k = u16::try_from(k).unwrap();
    (
        g.polygons.iter().filter(|p| p.kind == k).count(),
        g.nodes.iter().filter(|n| n.kind == k).count(),
        g.links.iter().filter(|l| l.kind == k).count(),
    )
}

#[test]
fn hand_built_mesh_maps_to_quads_nodes_and_links() {
    let g = SourceNav
        .geometry(&sample())
        .expect("nav-source maps its geometry");
    assert!(g.is_consistent());
    assert_eq!(g.up, UpAxis::Z);
    assert_eq!(g.polygons.len(), 3);
    assert_eq!(g.vertices.len(), 12);
    assert_eq!(g.nodes.len(), 3);
    // 10->20, 20->30, 20->10, 30->20 (999 names no area), and one ladder link 10->30 (30 named
    // twice, 777 missing, 0 none).
    assert_eq!(g.links.len(), 5);
    assert_eq!(count_kind(&g, "connection"), (0, 0, 4));
    assert_eq!(count_kind(&g, "ladder"), (0, 0, 1));
    assert_eq!(count_kind(&g, "area"), (0, 3, 0));
    assert_eq!(count_kind(&g, "walk"), (1, 0, 0));
    assert_eq!(count_kind(&g, "crouch"), (1, 0, 0));
    // Jump wins over crouch and stairs.
    assert_eq!(count_kind(&g, "jump"), (1, 0, 0));
    let ladder = g.links.iter().find(|l| g.kind_name(l.kind) == "ladder");
    assert_eq!(ladder.map(|l| (l.from, l.to)), Some((0, 2)));

    // Corners NW, NE (se.x, nw.y, ne_z), SE, SW (nw.x, se.y, sw_z).
    let first: Vec<[f32; 3]> = g.polygons[0]
        .vertices
        .iter()
        .map(|v| g.vertices[*v as usize])
        .collect();
    assert_eq!(
        first,
        [
            [0.0, 0.0, 0.0],
            [64.0, 0.0, 2.0],
            [64.0, 32.0, 8.0],
            [0.0, 32.0, 6.0]
        ]
    );
    // Counter-clockwise seen from above (positive signed area in x/y).
    let twice_area: f32 = (0..4)
        .map(|i| {
            let (p, q) = (first[i], first[(i + 1) % 4]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum();
    assert!(twice_area > 0.0);
    assert_eq!(g.nodes[0].position, [32.0, 16.0, 4.0]);

    // Edges N, E, S, W: the first connection per direction, when it names an area (area 30's
    // first northern connection is the missing 999).
    assert_eq!(g.polygons[0].neighbours, [None, Some(1), None, None]);
    assert_eq!(g.polygons[1].neighbours, [None, Some(2), None, Some(0)]);
    assert_eq!(g.polygons[2].neighbours, [None, None, None, None]);
}

#[test]
fn kinds_follow_a_fixed_priority() {
    assert_eq!(attribute_kind(0), "walk");
    assert_eq!(attribute_kind(0x1), "crouch");
    assert_eq!(attribute_kind(0x2 | 0x1), "jump");
    assert_eq!(attribute_kind(0x8000_0000 | 0x2), "blocked");
    assert_eq!(attribute_kind(0x40), "slow walk");
    assert_eq!(attribute_kind(0x200 | 0x800), "no hiding");
    assert_eq!(attribute_kind(0x4000 | 0x10), "obstacle");
    assert_eq!(attribute_kind(0x0001_0000), "custom");
    assert_eq!(attribute_kind(0x0002_0000 | 0x2000), "no merge");
    // Every named bit is a single distinct bit with a distinct name.
    for (i, (bit, name)) in ATTRIBUTE_KINDS.iter().enumerate() {
        assert_eq!(bit.count_ones(), 1, "{name}");
        assert_eq!(attribute_kind(*bit), *name);
        for (other, other_name) in &ATTRIBUTE_KINDS[i + 1..] {
            assert_ne!(bit, other);
            assert_ne!(name, other_name);
        }
    }
}

#[test]
fn duplicate_ids_and_dangling_references_stay_consistent() {
    let mut mesh = sample();
    mesh.areas[2].id = 10;
    mesh.areas[1].connections[1] = vec![10].into();
    mesh.ladders[0].bottom_area_id = 0;
    let g = SourceNav.geometry(&mesh).unwrap();
    assert!(g.is_consistent());
    // Id 10 is the first area; no ladder link without a bottom area.
    assert_eq!(g.polygons[1].neighbours[1], Some(0));
    assert_eq!(count_kind(&g, "ladder"), (0, 0, 0));
}

#[test]
fn arbitrary_models_map_consistently() {
    let mut mapped = 0;
    for seed in 0..2000u64 {
        let data = noise(seed, 256 + (seed as usize % 7) * 512);
        let Ok(mesh) = SourceMesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let g = nav_source::geometry(&mesh);
        assert!(g.is_consistent(), "seed {seed}");
        assert_eq!(g.polygons.len(), mesh.areas.len());
        mapped += 1;
    }
    assert!(mapped > 1000, "only {mapped} arbitrary models");
}

fn check_file(path: &Path, totals: &mut BTreeMap<String, usize>) -> Geometry {
    let bytes = std::fs::read(path).unwrap();
    let mesh = SourceNav.read(&bytes).unwrap();
    let g = nav_source::geometry(&mesh);
    let name = path.display();
    assert!(g.is_consistent(), "{name}");
    assert_eq!(g.polygons.len(), mesh.areas.len(), "{name}");
    assert_eq!(g.nodes.len(), mesh.areas.len(), "{name}");
    assert_eq!(g.vertices.len(), 4 * mesh.areas.len(), "{name}");
    let connections: usize = mesh
        .areas
        .iter()
        .map(|a| a.connections.iter().map(|l| l.len()).sum::<usize>())
        .sum();
    assert!(count_kind(&g, "connection").2 <= connections, "{name}");
    for p in &g.polygons {
        *totals.entry(g.kind_name(p.kind).to_string()).or_default() += 1;
    }
    for l in &g.links {
        *totals
            .entry(format!("{} links", g.kind_name(l.kind)))
            .or_default() += 1;
    }
    g
}

#[test]
fn samples_map_consistently() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/source");
    let mut totals = BTreeMap::new();
    let mut files = 0;
    for path in corpus_files(&dir) {
        check_file(&path, &mut totals);
        files += 1;
    }
    assert_eq!(files, 8);
    println!("nav-source samples: {files} files mapped: {totals:?}");
    // One sample has a ladder whose bottom and top areas exist.
    assert_eq!(totals.get("ladder links"), Some(&1));
}

#[test]
fn every_real_file_maps_consistently() {
    let real = real_files("source");
    if real.is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
    let mut totals = BTreeMap::new();
    let mut files = 0;
    for (_, path) in real.iter().filter(|(_, p)| !is_negative(p)) {
        check_file(path, &mut totals);
        files += 1;
    }
    println!("nav-source real files: {files} mapped: {totals:?}");
    assert!(files > 0);
    // Real meshes are connected and have more than one kind of area.
    assert!(totals.get("connection links").is_some_and(|n| *n > 1000));
    assert!(totals.contains_key("walk") && totals.len() > 3);
}
