//! The navigation graph of Source 2 meshes: hand-made models that pin the mapping (ids, corners,
//! one-way and repeated connections, ladders up and down, references that name nothing, areas
//! without usable corners), arbitrary models, and every real file checked against counts made
//! here from the model alone and against awpy 3.1.1's own graph of the same file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use std::collections::{HashMap, HashSet};

use arbitrary::{Arbitrary, Unstructured};
use nav_core::navigation::{CellId, EdgeKind, Graph};
use nav_core::testing::noise;
use nav_core::{Format, Severity};
use nav_source2::samples::room;
use nav_source2::{Connection, Source2Mesh, Source2Nav};

fn graph(mesh: &Source2Mesh) -> Graph {
    let g = Source2Nav
        .navigation(mesh)
        .expect("nav-source2 maps itself");
    assert!(g.is_consistent());
    g
}

/// The edges as (from id, to id, kind), sorted.
fn edges(g: &Graph) -> Vec<(u64, u64, EdgeKind)> {
    let mut out: Vec<_> = g
        .edges
        .iter()
        .map(|e| {
            (
                g.cells[e.from as usize].id.id,
                g.cells[e.to as usize].id.id,
                e.kind,
            )
        })
        .collect();
    out.sort();
    out
}

fn of_kind(g: &Graph, kind: EdgeKind) -> Vec<(u64, u64)> {
    edges(g)
        .into_iter()
        .filter(|e| e.2 == kind)
        .map(|e| (e.0, e.1))
        .collect()
}

fn link(area_id: u32, edge: u32) -> Connection {
    Connection { area_id, edge }
}

/// The 2×2 room: areas 1 2 / 3 4, each joined both ways to the areas beside it.
const ROOM_WALKS: [(u64, u64); 8] = [
    (1, 2),
    (1, 3),
    (2, 1),
    (2, 4),
    (3, 1),
    (3, 4),
    (4, 2),
    (4, 3),
];

#[test]
fn cells_are_the_areas_with_their_ids_and_corners() {
    for version in [30, 31, 35, 36] {
        let g = graph(&room(version, 0));
        let ids: Vec<CellId> = g.cells.iter().map(|c| c.id).collect();
        assert_eq!(ids, [1, 2, 3, 4].map(CellId::new), "v{version}");
        // Area 1: (0,0) (128,0) (128,128) (0,128), the far column 16 units up.
        assert_eq!(
            g.polygon(0),
            &[
                [0.0, 0.0, 0.0],
                [128.0, 0.0, 16.0],
                [128.0, 128.0, 16.0],
                [0.0, 128.0, 0.0]
            ],
            "v{version}"
        );
        assert_eq!(g.cells[0].centre, Some([64.0, 64.0, 8.0]));
        assert_eq!(of_kind(&g, EdgeKind::Walk), ROOM_WALKS, "v{version}");
    }
}

#[test]
fn ladders_give_ladder_up_and_down_edges() {
    // v35 stores the bottom sides: the ladder's bottom left (area 2) also climbs it, and the top
    // (area 4) comes down to both bottom areas.
    let g = graph(&room(35, 0));
    assert_eq!(of_kind(&g, EdgeKind::LadderUp), [(1, 4), (2, 4)]);
    assert_eq!(of_kind(&g, EdgeKind::LadderDown), [(4, 1), (4, 2)]);
    // Before v35 there is one bottom area.
    let g = graph(&room(31, 0));
    assert_eq!(of_kind(&g, EdgeKind::LadderUp), [(1, 4)]);
    assert_eq!(of_kind(&g, EdgeKind::LadderDown), [(4, 1)]);
    // The behind area is reached going down only, as in Source 1's path search.
    let mut m = room(31, 0);
    m.ladders[0].top_behind_area_id = 3;
    let g = graph(&m);
    assert_eq!(of_kind(&g, EdgeKind::LadderUp), [(1, 4)]);
    assert_eq!(of_kind(&g, EdgeKind::LadderDown), [(3, 1), (4, 1)]);
}

#[test]
fn a_one_way_connection_is_one_edge_and_repeats_count_once() {
    let mut m = room(35, 0);
    // Area 2 no longer lists area 1 (its edge 3); area 1 names area 2 twice, on two edges.
    m.areas[1].connections[3].clear();
    m.areas[0].connections[0].push(link(2, 0));
    let walks = of_kind(&graph(&m), EdgeKind::Walk);
    assert!(walks.contains(&(1, 2)) && !walks.contains(&(2, 1)));
    assert_eq!(walks.iter().filter(|e| **e == (1, 2)).count(), 1);
    assert_eq!(walks.len(), ROOM_WALKS.len() - 1);
}

#[test]
fn references_to_nothing_are_skipped_and_a_self_link_is_kept() {
    let mut m = room(35, 0);
    m.areas[0].connections[0].push(link(99, 0));
    m.areas[0].connections[0].push(link(1, 0));
    m.areas[0].ladders_above.push(77);
    m.ladders[0].top_left_area_id = 55;
    let g = graph(&m);
    let walks = of_kind(&g, EdgeKind::Walk);
    // awpy's neighbours include the area itself when it names itself.
    assert!(walks.contains(&(1, 1)));
    assert_eq!(walks.len(), ROOM_WALKS.len() + 1);
    assert_eq!(of_kind(&g, EdgeKind::LadderUp), [(1, 4), (2, 4)]);
    assert!(g.exits.is_empty());
}

#[test]
fn repeated_ids_reach_the_last_area_as_in_awpy() {
    let mut m = room(30, 0);
    let mut twin = m.areas[3].clone();
    twin.connections = vec![Default::default(); 4].into();
    m.areas.push(twin);
    let g = graph(&m);
    assert_eq!(g.cells.len(), 5);
    // Area 2 names area 4: the last area with id 4, cell 4.
    assert!(g.edges.iter().any(|e| (e.from, e.to) == (1, 4)));
    assert!(!g.edges.iter().any(|e| e.to == 3));
}

#[test]
fn an_area_without_usable_corners_gets_no_position_anywhere() {
    // v30: area 3 keeps two of its corners.
    let mut m = room(30, 0);
    m.areas[2].corners.truncate(2);
    m.areas[2].connections.truncate(2);
    let g = graph(&m);
    assert_eq!(g.cells.len(), 4);
    assert_eq!(g.cells[2].centre, None);
    assert!(g.polygon(2).is_empty());
    // Its connections stay: the graph holds it, only its position is unknown.
    assert!(of_kind(&g, EdgeKind::Walk).contains(&(3, 1)));
    let geometry = Source2Nav.geometry(&m).unwrap();
    assert!(geometry.is_consistent());
    assert_eq!((geometry.nodes.len(), geometry.polygons.len()), (3, 3));
    assert!(geometry.nodes.iter().all(|n| n.position != [0.0, 0.0, 0.0]));
    // 8 connections less the 2 from area 3 and the 2 into it, and the ladder.
    assert_eq!(geometry.links.len(), 5);
    let warnings: Vec<String> = Source2Nav
        .validate(&m)
        .into_iter()
        .filter(|f| f.severity == Severity::Warning)
        .map(|f| f.to_string())
        .collect();
    assert_eq!(
        warnings,
        ["warning: areas[2]: area 3 has no usable corners (2 corners)"]
    );

    // v35: a polygon naming a corner past the pool, and one that is not finite.
    let mut m = room(35, 0);
    m.polygons[0].corners[1] = 99;
    m.corners[4][0] = nav_core::RawF32::new(f32::INFINITY);
    let g = graph(&m);
    assert!(g.cells.iter().all(|c| c.centre.is_none()));
    let text: Vec<String> = Source2Nav
        .validate(&m)
        .into_iter()
        .map(|f| f.to_string())
        .collect();
    for want in [
        "warning: areas[0]: area 1 has no usable corners (its polygon names corner 99, past the pool)",
        "warning: areas[1]: area 2 has no usable corners (a corner is not finite)",
    ] {
        assert!(text.iter().any(|t| t == want), "{want} not in {text:#?}");
    }
    assert!(Source2Nav.geometry(&m).unwrap().nodes.is_empty());
}

#[test]
fn arbitrary_models_give_consistent_graphs() {
    let mut built = 0;
    for seed in 0..300 {
        let data = noise(seed, 64 + (seed as usize % 16) * 256);
        let Ok(mut m) = Source2Mesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        for (i, a) in m.areas.iter_mut().enumerate() {
            a.id = (i % 5) as u32;
            a.polygon %= 4;
            for c in a.connections.iter_mut().flatten() {
                c.area_id %= 7;
            }
        }
        for l in &mut m.ladders {
            l.id %= 3;
            l.bottom_area_id %= 7;
            l.top_forward_area_id %= 7;
        }
        let g = graph(&m);
        assert_eq!(g.cells.len(), m.areas.len(), "seed {seed}");
        let _ = Source2Nav.validate(&m);
        assert!(
            Source2Nav.geometry(&m).unwrap().is_consistent(),
            "seed {seed}"
        );
        built += 1;
    }
    assert!(built > 100, "only {built} arbitrary models");
}

/// The walk edges each area must have, counted here: the distinct areas its connections name
/// that exist (the last area of an id), in order; and the ladder edges the lists and records
/// give.
/// An edge by cell indices and kind.
type EdgeKey = (u32, u32, EdgeKind);

fn expected(m: &Source2Mesh) -> (Vec<Vec<u32>>, HashSet<EdgeKey>) {
    let last: HashMap<u32, u32> = m
        .areas
        .iter()
        .enumerate()
        .map(|(i, a)| (a.id, i as u32))
        .collect();
    let walks = m
        .areas
        .iter()
        .map(|a| {
            let mut out: Vec<u32> = Vec::new();
            for c in a.connections.iter().flatten() {
                let to = last[&c.area_id];
                if !out.contains(&to) {
                    out.push(to);
                }
            }
            out
        })
        .collect();
    let area = |id: u32| (id != 0).then(|| last.get(&id).copied()).flatten();
    let ladder_by_id: HashMap<u32, &nav_source2::Ladder> =
        m.ladders.iter().rev().map(|l| (l.id, l)).collect();
    let mut ladders = HashSet::new();
    let mut climb = |from: u32, l: &nav_source2::Ladder, up: bool| {
        let (ends, kind) = if up {
            (
                [
                    l.top_forward_area_id,
                    l.top_left_area_id,
                    l.top_right_area_id,
                ],
                EdgeKind::LadderUp,
            )
        } else {
            (
                [
                    l.bottom_area_id,
                    l.bottom_left_area_id,
                    l.bottom_right_area_id,
                ],
                EdgeKind::LadderDown,
            )
        };
        for to in ends.into_iter().filter_map(area) {
            if to != from {
                ladders.insert((from, to, kind));
            }
        }
    };
    for (i, a) in m.areas.iter().enumerate() {
        for id in &a.ladders_above {
            climb(i as u32, ladder_by_id[id], true);
        }
        for id in &a.ladders_below {
            climb(i as u32, ladder_by_id[id], false);
        }
    }
    for l in &m.ladders {
        for id in [
            l.bottom_area_id,
            l.bottom_left_area_id,
            l.bottom_right_area_id,
        ] {
            if let Some(from) = area(id) {
                climb(from, l, true);
            }
        }
        for id in [
            l.top_forward_area_id,
            l.top_left_area_id,
            l.top_right_area_id,
            l.top_behind_area_id,
        ] {
            if let Some(from) = area(id) {
                climb(from, l, false);
            }
        }
    }
    (walks, ladders)
}

/// awpy 3.1.1's graph of each real file, as `tests/awpy_digest.py` prints it: the area count,
/// the number of distinct neighbours over all areas, an FNV-1a 64 hash of every area's id,
/// corners and neighbours in file order, and the sums of the centroids weighted by
/// `index % 7 + 1`.
const AWPY: [(&str, usize, usize, u64, [f64; 3]); 6] = [
    (
        "vrf_a2_drainage.nav",
        7258,
        14780,
        0x8ee2_8307_b155_a60e,
        [42049259.90639496, -81448053.01879883, 3371227.397848271],
    ),
    (
        "vrf_de_mirage_v35.nav",
        2519,
        6349,
        0x773b_9c71_e8a5_65ce,
        [-5183804.634469628, -6977287.161744356, -1501823.9547843933],
    ),
    (
        "vrf_lobby_mapveto.nav",
        4,
        4,
        0x65cf_7056_7605_97a1,
        [3327.4990234375, -32637.5, 40.0],
    ),
    (
        "vrf_point_template_test_v36.nav",
        0,
        0,
        0xcbf2_9ce4_8422_2325,
        [0.0, 0.0, 0.0],
    ),
    (
        "vrf_preview_flat.nav",
        3,
        0,
        0x7f9c_84a2_2838_20e1,
        [-2.45843505859375, -2.46014404296875, 23.999927043914795],
    ),
    (
        "vrf_workshop_example_tilemesh.nav",
        414,
        898,
        0x19b4_3b07_a52e_47fc,
        [10301.617356419563, -286629.92436790466, 30488.919502735138],
    ),
];

/// The digest `tests/awpy_digest.py` makes of awpy's graph, made of ours.
fn digest(g: &Graph) -> (usize, usize, u64, [f64; 3]) {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut walks: Vec<Vec<u32>> = vec![Vec::new(); g.cells.len()];
    for e in g.edges.iter().filter(|e| e.kind == EdgeKind::Walk) {
        walks[e.from as usize].push(g.cells[e.to as usize].id.id as u32);
    }
    let mut sums = [0f64; 3];
    for (i, c) in g.cells.iter().enumerate() {
        let polygon = g.polygon(i as u32);
        feed(&(c.id.id as u32).to_le_bytes());
        feed(&(polygon.len() as u32).to_le_bytes());
        for p in polygon.iter().flatten() {
            feed(&p.to_le_bytes());
        }
        feed(&(walks[i].len() as u32).to_le_bytes());
        for id in &walks[i] {
            feed(&id.to_le_bytes());
        }
        let centre = c.centre.expect("every real area has corners");
        for (s, v) in sums.iter_mut().zip(centre) {
            *s += f64::from(v) * (i % 7 + 1) as f64;
        }
    }
    (g.cells.len(), walks.iter().map(Vec::len).sum(), hash, sums)
}

#[test]
fn every_real_file_maps_every_reference_and_matches_awpy() {
    let files = common::source2_files();
    let (mut cells, mut edge_count, mut ladder_edges, mut compared) = (0, 0, 0, 0);
    for (name, path) in &files {
        let m = nav_source2::read(&std::fs::read(path).unwrap()).unwrap();
        let g = graph(&m);
        assert_eq!(g.cells.len(), m.areas.len(), "{name}");
        for (c, a) in g.cells.iter().zip(&m.areas) {
            assert_eq!(c.id, CellId::new(u64::from(a.id)), "{name}");
        }
        let (walks, ladders) = expected(&m);
        let mut got_walks: Vec<Vec<u32>> = vec![Vec::new(); g.cells.len()];
        let mut got_ladders = HashSet::new();
        for e in &g.edges {
            match e.kind {
                EdgeKind::Walk => got_walks[e.from as usize].push(e.to),
                EdgeKind::LadderUp | EdgeKind::LadderDown => {
                    assert!(
                        got_ladders.insert((e.from, e.to, e.kind)),
                        "{name}: {e:?} twice"
                    );
                }
                other => panic!("{name}: a {other} edge"),
            }
        }
        assert_eq!(got_walks, walks, "{name}: connection edges");
        assert_eq!(got_ladders, ladders, "{name}: ladder edges");
        assert!(g.exits.is_empty(), "{name}");

        let file = path.file_name().unwrap().to_string_lossy();
        let (_, areas, neighbours, hash, sums) = AWPY
            .iter()
            .find(|o| o.0 == file)
            .unwrap_or_else(|| panic!("{name}: no awpy digest (run tests/awpy_digest.py)"));
        let (n, e, h, s) = digest(&g);
        assert_eq!(
            (n, e, h),
            (*areas, *neighbours, *hash),
            "{name}: awpy's graph"
        );
        for (ours, theirs) in s.iter().zip(sums) {
            // awpy sums the corners in f32, the graph in f64: equal to a few f32 ulps.
            let tolerance = 1e-6 * theirs.abs().max(1.0) * 8.0;
            assert!(
                (ours - theirs).abs() <= tolerance,
                "{name}: centroid sum {ours} against awpy's {theirs}"
            );
        }
        compared += 1;
        cells += g.cells.len();
        edge_count += g.edges.len();
        ladder_edges += got_ladders.len();
    }
    println!(
        "nav-source2 navigation: {} files, {cells} cells, {edge_count} edges ({ladder_edges} on ladders), {compared} equal to awpy's graph",
        files.len()
    );
    if !files.is_empty() {
        assert!(compared >= 6 && ladder_edges > 0, "{compared} compared");
    }
}

/// The time to build the graph of the largest real file, printed (run with `--nocapture`).
#[test]
fn largest_real_file_builds_quickly() {
    let Some((name, path)) = common::source2_files()
        .into_iter()
        .max_by_key(|(_, p)| std::fs::metadata(p).map_or(0, |m| m.len()))
    else {
        return;
    };
    let m = nav_source2::read(&std::fs::read(&path).unwrap()).unwrap();
    let runs = 20;
    let start = std::time::Instant::now();
    let mut edges = 0;
    for _ in 0..runs {
        edges += std::hint::black_box(graph(&m)).edges.len();
    }
    println!(
        "nav-source2 navigation of {name} ({} areas): {:?} per graph, {} edges",
        m.areas.len(),
        start.elapsed() / runs,
        edges / runs as usize
    );
}
