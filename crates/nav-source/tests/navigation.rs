//! The navigation graph of Source meshes: hand-made models that pin the mapping (ids, polygons,
//! one-way connections, jump and blocked areas, ladders up and down, references that name
//! nothing), arbitrary models, and every corpus file checked against counts made here from the
//! model alone.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::collections::{HashMap, HashSet};

use arbitrary::{Arbitrary, Unstructured};
use nav_core::navigation::{CellId, EdgeKind, Graph};
use nav_core::testing::{is_negative, noise, real_files};
use nav_core::{Format, RawF32};
use nav_source::{Area, Flavour, Ladder, SourceMesh, SourceNav, SourceNavAs};

fn area(id: u32, flags: u32, nw: [f32; 2], se: [f32; 2], z: f32) -> Area {
    Area {
        id,
        attribute_flags: flags,
        nw_corner: [nw[0], nw[1], z].map(RawF32::new),
        se_corner: [se[0], se[1], z + 2.0].map(RawF32::new),
        ne_z: RawF32::new(z + 1.0),
        sw_z: RawF32::new(z + 3.0),
        ..Area::default()
    }
}

fn graph(mesh: &SourceMesh) -> Graph {
    let g = SourceNav.navigation(mesh).expect("nav-source maps itself");
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

/// Areas 10, 20 and 30 in a row, 40 a jump area, 50 a blocked one: 10 <-> 20 both ways, 20 -> 30
/// one way only, 30 -> 40 (a jump), 40 -> 50 (blocked), a self connection and references to
/// missing areas.
fn connected() -> SourceMesh {
    let mut mesh = SourceMesh::new(Flavour::Base, 16, 0);
    let mut a = area(10, 0, [0.0, 0.0], [64.0, 32.0], 0.0);
    a.connections[1] = vec![20, 999].into();
    a.connections[2] = vec![10].into();
    let mut b = area(20, 0, [64.0, 0.0], [128.0, 32.0], 0.0);
    b.connections[1] = vec![30].into();
    b.connections[3] = vec![10].into();
    let mut c = area(30, 0, [128.0, 0.0], [192.0, 32.0], 0.0);
    c.connections[1] = vec![40].into();
    let mut d = area(40, 0x2, [192.0, 0.0], [256.0, 32.0], 0.0);
    d.connections[1] = vec![50].into();
    let e = area(50, 0x8000_0000, [256.0, 0.0], [320.0, 32.0], 0.0);
    mesh.areas = vec![a, b, c, d, e];
    mesh
}

#[test]
fn cells_are_the_areas_with_their_ids_and_corners() {
    let mesh = connected();
    let g = graph(&mesh);
    let ids: Vec<CellId> = g.cells.iter().map(|c| c.id).collect();
    assert_eq!(ids, [10, 20, 30, 40, 50].map(CellId::new));
    // NW, NE (se.x, nw.y, ne_z), SE, SW (nw.x, se.y, sw_z), in the file's axes.
    assert_eq!(
        g.polygon(0),
        &[
            [0.0, 0.0, 0.0],
            [64.0, 0.0, 1.0],
            [64.0, 32.0, 2.0],
            [0.0, 32.0, 3.0]
        ]
    );
    assert_eq!(g.cells[0].centre, Some([32.0, 16.0, 1.5]));
    assert_eq!(g.cells[0].radius, None);
    assert_eq!(g.up, nav_core::geometry::UpAxis::Z);
}

#[test]
fn connections_are_one_edge_per_direction_stored() {
    let g = graph(&connected());
    assert_eq!(
        edges(&g),
        [
            (10, 20, EdgeKind::Walk),
            (20, 10, EdgeKind::Walk),
            // One way: 30 does not list 20 back.
            (20, 30, EdgeKind::Walk),
            // Into a jump area.
            (30, 40, EdgeKind::Jump),
            // Into a blocked area: kept, never followed.
            (40, 50, EdgeKind::Blocked),
        ]
    );
    // The self connection of 10 and its connection to the missing area 999 give nothing.
    assert!(g.exits.is_empty());
}

#[test]
fn ladders_give_ladder_up_and_down_edges() {
    let mut mesh = connected();
    // Ladder 7: bottom 10, tops 30 (forward), 30 again (left), 40 (behind). Area 10 lists it
    // going up, 30 going down; 40 is a top area that does not list it (the record joins it).
    mesh.ladders = vec![
        Ladder {
            id: 7,
            bottom_area_id: 10,
            top_forward_area_id: 30,
            top_left_area_id: 30,
            top_behind_area_id: 40,
            ..Ladder::default()
        },
        // Ladder 8 only in area 20's up list, naming a missing top and a blocked one.
        Ladder {
            id: 8,
            bottom_area_id: 999,
            top_forward_area_id: 50,
            top_right_area_id: 12345,
            ..Ladder::default()
        },
    ];
    mesh.areas[0].ladders[0] = vec![7, 7, 66].into();
    mesh.areas[2].ladders[1] = vec![7].into();
    mesh.areas[1].ladders[0] = vec![8].into();
    let g = graph(&mesh);
    let mut ladder = edges(&g);
    for e in edges(&graph(&connected())) {
        let at = ladder
            .iter()
            .position(|x| *x == e)
            .expect("walk edges stay");
        ladder.remove(at);
    }
    assert_eq!(
        ladder,
        [
            // Up from the bottom to the forward (= left) top, once; never to the behind one.
            (10, 30, EdgeKind::LadderUp),
            // Up ladder 8 from 20 to its blocked top; its missing top is skipped.
            (20, 50, EdgeKind::Blocked),
            // Down from each top to the bottom.
            (30, 10, EdgeKind::LadderDown),
            (40, 10, EdgeKind::LadderDown),
        ]
    );
}

#[test]
fn a_dangling_ladder_is_not_climbed() {
    let mut mesh = connected();
    mesh.version = 6;
    mesh.areas.iter_mut().for_each(|a| {
        a.ladders = Default::default();
        a.visible_areas.clear();
    });
    mesh.ladders = vec![Ladder {
        id: 1,
        bottom_area_id: 10,
        top_forward_area_id: 20,
        is_dangling: 1,
        ..Ladder::default()
    }];
    let g = graph(&mesh);
    let kinds: Vec<_> = edges(&g)
        .into_iter()
        .filter(|e| matches!(e.2, EdgeKind::LadderUp | EdgeKind::LadderDown))
        .collect();
    assert_eq!(kinds, [(20, 10, EdgeKind::LadderDown)]);
}

#[test]
fn repeated_ids_reach_the_first_area() {
    let mut mesh = connected();
    let mut twin = area(20, 0, [0.0, 100.0], [10.0, 110.0], 5.0);
    twin.connections[0] = vec![20].into();
    mesh.areas.push(twin);
    let g = graph(&mesh);
    assert_eq!(g.cells.len(), 6);
    // 10 -> 20 reaches cell 1, the first area 20; the twin's own connection to id 20 is its id:
    // a self connection, dropped.
    assert!(g.edges.iter().any(|e| (e.from, e.to) == (0, 1)));
    assert!(!g.edges.iter().any(|e| e.to == 5 || e.from == 5));
}

#[test]
fn unusable_corners_give_no_centre() {
    let mut mesh = connected();
    mesh.areas[0].nw_corner[0] = RawF32::new(f32::NAN);
    let g = graph(&mesh);
    assert_eq!(g.cells[0].centre, None);
    assert!(g.polygon(0).is_empty());
    assert!(g.cells[1].centre.is_some());
}

#[test]
fn arbitrary_models_give_consistent_graphs() {
    let mut built = 0;
    for seed in 0..300 {
        let data = noise(seed, 64 + (seed as usize % 16) * 256);
        let Ok(mut mesh) = SourceMesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        // Make references hit: ids drawn from a small range.
        for (i, a) in mesh.areas.iter_mut().enumerate() {
            a.id = (i % 5) as u32;
            for list in a.connections.iter_mut() {
                list.iter_mut().for_each(|id| *id %= 7);
            }
        }
        for l in &mut mesh.ladders {
            l.bottom_area_id %= 7;
            l.top_forward_area_id %= 7;
        }
        let g = graph(&mesh);
        assert_eq!(g.cells.len(), mesh.areas.len(), "seed {seed}");
        built += 1;
    }
    assert!(built > 100, "only {built} arbitrary models");
}

/// What the model says the graph must hold, counted here without the mapping code: the walk
/// edges by (from, to) with their kind, and the ladder edges as a set.
struct Expected {
    walk: HashMap<(u32, u32, EdgeKind), usize>,
    ladder: HashSet<(u32, u32, EdgeKind)>,
}

fn expected(mesh: &SourceMesh) -> Expected {
    let mut first: HashMap<u32, u32> = HashMap::new();
    for (i, a) in mesh.areas.iter().enumerate() {
        first.entry(a.id).or_insert(i as u32);
    }
    let kind_into = |to: u32, kind: EdgeKind| {
        let flags = mesh.areas[to as usize].attribute_flags;
        if flags & 0x8000_0000 != 0 {
            EdgeKind::Blocked
        } else if kind == EdgeKind::Walk && flags & 0x2 != 0 {
            EdgeKind::Jump
        } else {
            kind
        }
    };
    let mut walk = HashMap::new();
    for (i, a) in mesh.areas.iter().enumerate() {
        for id in a.connections.iter().flatten() {
            if *id == a.id {
                continue;
            }
            let to = first[id];
            *walk
                .entry((i as u32, to, kind_into(to, EdgeKind::Walk)))
                .or_insert(0) += 1;
        }
    }
    let ladder_by_id: HashMap<u32, &Ladder> =
        mesh.ladders.iter().rev().map(|l| (l.id, l)).collect();
    let area = |id: u32| (id != 0).then(|| first.get(&id).copied()).flatten();
    let mut ladder = HashSet::new();
    let climb = |from: u32, l: &Ladder, up: bool, ladder: &mut HashSet<_>| {
        if up {
            for top in [
                l.top_forward_area_id,
                l.top_left_area_id,
                l.top_right_area_id,
            ] {
                if let Some(to) = area(top).filter(|to| *to != from) {
                    ladder.insert((from, to, kind_into(to, EdgeKind::LadderUp)));
                }
            }
        } else if let Some(to) = area(l.bottom_area_id).filter(|to| *to != from) {
            ladder.insert((from, to, kind_into(to, EdgeKind::LadderDown)));
        }
    };
    for (i, a) in mesh.areas.iter().enumerate() {
        for (list, up) in a.ladders.iter().zip([true, false]) {
            for id in list.iter() {
                climb(i as u32, ladder_by_id[id], up, &mut ladder);
            }
        }
    }
    for l in &mesh.ladders {
        if let Some(bottom) = area(l.bottom_area_id) {
            climb(bottom, l, true, &mut ladder);
        }
        for top in [
            l.top_forward_area_id,
            l.top_left_area_id,
            l.top_right_area_id,
            l.top_behind_area_id,
        ] {
            if let Some(from) = area(top) {
                climb(from, l, false, &mut ladder);
            }
        }
    }
    Expected { walk, ladder }
}

#[test]
fn every_corpus_file_maps_every_reference() {
    let (mut files, mut cells, mut edge_count, mut ladder_edges) = (0, 0, 0, 0);
    let mut kinds: std::collections::BTreeMap<EdgeKind, usize> = Default::default();
    for (_, path) in real_files("source") {
        if is_negative(&path) {
            continue;
        }
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let mesh = SourceNav
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let g = graph(&mesh);
        assert_eq!(g.cells.len(), mesh.areas.len(), "{name}");
        for (c, a) in g.cells.iter().zip(&mesh.areas) {
            assert_eq!(c.id, CellId::new(u64::from(a.id)), "{name}");
            assert!(c.centre.is_some(), "{name}: area {} has no centre", a.id);
        }
        let want = expected(&mesh);
        // Every connection appears as an edge, as often as it is stored.
        let mut walk: HashMap<(u32, u32, EdgeKind), usize> = HashMap::new();
        let mut ladder = HashSet::new();
        for e in &g.edges {
            let key = (e.from, e.to, e.kind);
            let is_ladder = match e.kind {
                EdgeKind::LadderUp | EdgeKind::LadderDown => true,
                EdgeKind::Blocked => !want.walk.contains_key(&key),
                _ => false,
            };
            if is_ladder {
                assert!(ladder.insert(key), "{name}: ladder edge {key:?} twice");
            } else {
                *walk.entry(key).or_insert(0) += 1;
            }
        }
        assert_eq!(walk, want.walk, "{name}: connection edges");
        assert_eq!(ladder, want.ladder, "{name}: ladder edges");
        assert!(g.exits.is_empty(), "{name}");
        files += 1;
        cells += g.cells.len();
        edge_count += g.edges.len();
        ladder_edges += ladder.len();
        for e in &g.edges {
            *kinds.entry(e.kind).or_insert(0) += 1;
        }
    }
    println!(
        "nav-source navigation: {files} files, {cells} cells, {edge_count} edges ({ladder_edges} on ladders), by kind {kinds:?}"
    );
    if !real_files("source").is_empty() {
        assert!(
            files > 20 && ladder_edges > 0,
            "{files} files, {ladder_edges} ladder edges"
        );
    }
}

/// The time to build the graph of the largest corpus file, printed (run with `--nocapture`).
#[test]
fn largest_corpus_file_builds_quickly() {
    let Some((path, bytes)) = nav_core::testing::largest_corpus_file("source") else {
        return;
    };
    let mesh = SourceNav.read(&bytes).unwrap();
    let start = std::time::Instant::now();
    let runs = 20;
    let mut edges = 0;
    for _ in 0..runs {
        edges += std::hint::black_box(graph(&mesh)).edges.len();
    }
    let each = start.elapsed() / runs;
    println!(
        "nav-source navigation of {} ({} areas): {each:?} per graph, {} edges",
        path.display(),
        mesh.areas.len(),
        edges / runs as usize
    );
    // --flavour gives the same graph.
    let flavoured = SourceNavAs(mesh.flavour).navigation(&mesh);
    assert_eq!(flavoured.as_ref(), Some(&graph(&mesh)));
}
