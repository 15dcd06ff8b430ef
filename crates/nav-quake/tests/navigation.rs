//! The navigation graph: node cells with the users' ids, one directed edge per stored link, kinds
//! from link types, flags, traversals and edicts; no panic on dangling indices; every corpus file
//! maps every link it stores.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use std::collections::BTreeMap;

use arbitrary::{Arbitrary, Unstructured};
use nav_core::Format;
use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};
use nav_core::testing::{corpus_dir, is_negative, noise, real_paths, vec3};
use nav_quake::{
    Edict, EdictEntity, Link, LinkFlags, LinkType, Magic, NavFile, Node, NodeFlags, Quake,
    Traversal,
};

/// A link: target, type, flags, traversal.
type L = (u16, u8, u8, u16);
/// A node: origin z, flags, links.
type N<'a> = (f32, u16, &'a [L]);

/// A file of `nodes` nodes at (64·i, 0, z_i), each with the links listed for it:
/// `(target, type, flags, traversal)`.
fn file(magic: Magic, version: u32, nodes: &[N<'_>]) -> NavFile {
    let mut f = NavFile::new(magic, version).unwrap();
    for (i, (z, flags, links)) in nodes.iter().enumerate() {
        f.nodes.push(Node {
            flags: *flags,
            num_links: links.len() as u16,
            first_link: f.links.len() as u16,
            radius: 16 + i as u16,
            origin: vec3(64.0 * i as f32, 0.0, *z),
        });
        for &(target, link_type, flags, traversal) in *links {
            f.links.push(Link {
                target,
                link_type,
                flags,
                traversal,
            });
        }
    }
    f
}

const NONE: u16 = Link::NO_TRAVERSAL;

fn edges(g: &Graph) -> Vec<(u32, u32, EdgeKind)> {
    g.edges.iter().map(|e| (e.from, e.to, e.kind)).collect()
}

fn edict(link: u16) -> Edict {
    Edict {
        link,
        mins: vec3(0.0, 0.0, 0.0),
        maxs: vec3(1.0, 1.0, 1.0),
        entity: EdictEntity::Model(1),
    }
}

#[test]
fn nodes_are_cells_with_the_node_index_origin_and_radius() {
    let f = file(
        Magic::Nav2,
        15,
        &[(24.0, 0, &[(1, 0, 0, NONE)]), (40.0, 0, &[]), (8.0, 0, &[])],
    );
    let g = Quake.navigation(&f).unwrap();
    assert_eq!(g.up, UpAxis::Z);
    assert_eq!(g.cells.len(), 3);
    for (i, c) in g.cells.iter().enumerate() {
        assert_eq!(c.id, CellId::new(i as u64));
        assert_eq!(c.radius, Some(16.0 + i as f32));
        assert_eq!(c.centre, Some([64.0 * i as f32, 0.0, [24.0, 40.0, 8.0][i]]));
        assert!(g.polygon(i as u32).is_empty());
    }
    assert!(g.corners.is_empty());
    assert!(g.exits.is_empty());
    assert!(g.is_consistent());
}

#[test]
fn a_one_way_link_is_one_edge_and_a_two_way_pair_two() {
    // 0 -> 1 one way; 1 <-> 2 both ways.
    let f = file(
        Magic::Nav3,
        6,
        &[
            (0.0, 0, &[(1, 0, 3, NONE)]),
            (0.0, 0, &[(2, 0, 3, NONE)]),
            (0.0, 0, &[(1, 0, 3, NONE)]),
        ],
    );
    let g = nav_quake::navigation(&f);
    assert_eq!(
        edges(&g),
        [
            (0, 1, EdgeKind::Walk),
            (1, 2, EdgeKind::Walk),
            (2, 1, EdgeKind::Walk)
        ]
    );
}

#[test]
fn every_link_type_has_its_kind() {
    let expected = [
        (0, EdgeKind::Walk),
        (1, EdgeKind::Jump),
        (2, EdgeKind::Teleport),
        (3, EdgeKind::Drop),
        (4, EdgeKind::Special),
        (5, EdgeKind::Jump),
        (6, EdgeKind::Elevator),
        (7, EdgeKind::Elevator),
        (8, EdgeKind::Jump),
        (9, EdgeKind::Walk),
        (10, EdgeKind::LadderUp),
        (11, EdgeKind::Jump),
        (12, EdgeKind::Jump),
        (13, EdgeKind::Jump),
        (14, EdgeKind::Special),
        (200, EdgeKind::Special),
    ];
    let links: Vec<L> = expected.iter().map(|(t, _)| (1, *t, 3, NONE)).collect();
    // Node 1 is higher, so the ladder climbs up.
    let f = file(Magic::Nav3, 6, &[(0.0, 0, &links), (128.0, 0, &[])]);
    let g = nav_quake::navigation(&f);
    let kinds: Vec<EdgeKind> = g.edges.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, expected.map(|(_, k)| k));
    assert_eq!(LinkType::from_byte(10), LinkType::Ladder);
}

#[test]
fn ladders_go_up_or_down_by_their_traversal_else_by_the_nodes() {
    let ladder = 10;
    // 0 -> 1 climbs (1 is higher), 1 -> 0 descends; 0 -> 2 has a traversal that goes down although
    // node 2 is higher, and 2 -> 0 a traversal with a NaN height, so the origins decide (down).
    let mut f = file(
        Magic::Nav3,
        6,
        &[
            (0.0, 0, &[(1, ladder, 3, NONE), (2, ladder, 3, 0)]),
            (200.0, 0, &[(0, ladder, 3, NONE)]),
            (100.0, 0, &[(0, ladder, 3, 1)]),
        ],
    );
    let t = |start: f32, end: f32| Traversal {
        funnel: vec3(0.0, 0.0, 0.0),
        start: vec3(0.0, 0.0, start),
        end: vec3(0.0, 0.0, end),
        ladder_plane: Some(vec3(0.0, 1.0, 0.0)),
    };
    f.traversals.push(t(50.0, 10.0));
    f.traversals.push(t(f32::NAN, 500.0));
    let g = nav_quake::navigation(&f);
    assert_eq!(
        edges(&g),
        [
            (0, 1, EdgeKind::LadderUp),
            (0, 2, EdgeKind::LadderDown),
            (1, 0, EdgeKind::LadderDown),
            (2, 0, EdgeKind::LadderDown),
        ]
    );
}

#[test]
fn disabled_links_and_nodes_give_blocked_edges_in_quake_ii_only() {
    let disabled = LinkFlags::DISABLED | 3;
    let node_disabled = 1 << 13;
    let nodes: [N<'_>; 3] = [
        (0.0, 0, &[(1, 0, disabled, NONE), (2, 3, 3, NONE)]),
        (0.0, 0, &[(0, 1, 3, NONE)]),
        (0.0, node_disabled, &[(0, 0, 3, NONE)]),
    ];
    let g = nav_quake::navigation(&file(Magic::Nav3, 6, &nodes));
    assert_eq!(
        edges(&g),
        [
            (0, 1, EdgeKind::Blocked),
            (0, 2, EdgeKind::Blocked),
            (1, 0, EdgeKind::Jump),
            (2, 0, EdgeKind::Walk),
        ]
    );
    // NAV3 v3 already has the link flags; v2 ignores the byte (its files store 0xFF there).
    let g = nav_quake::navigation(&file(Magic::Nav3, 3, &nodes));
    assert_eq!(g.edges[0].kind, EdgeKind::Blocked);
    let all = |magic, version, flags: u8| {
        let f = file(
            magic,
            version,
            &[(0.0, 0, &[(1, 0, flags, NONE)]), (0.0, 1 << 13, &[])],
        );
        nav_quake::navigation(&f).edges[0].kind
    };
    assert_eq!(all(Magic::Nav3, 2, 0xFF), EdgeKind::Blocked); // the node is still disabled
    let g = nav_quake::navigation(&file(Magic::Nav3, 2, &[(0.0, 0, &[(0, 0, 0xFF, NONE)])]));
    assert_eq!(g.edges[0].kind, EdgeKind::Walk);
    // NAV2: v18 stores 0xFF in every flags byte, and bit 13 of a node means nothing.
    assert_eq!(all(Magic::Nav2, 18, 0xFF), EdgeKind::Walk);
    assert_eq!(all(Magic::Nav2, 15, 0), EdgeKind::Walk);
}

#[test]
fn edicts_make_walk_links_doors_and_underwater_targets_make_them_swims() {
    let mut f = file(
        Magic::Nav2,
        17,
        &[
            (0.0, 0, &[(1, 0, 0, NONE), (2, 0, 0, NONE), (1, 6, 0, NONE)]),
            (0.0, 0, &[(0, 0, 0, NONE)]),
            (0.0, NodeFlags::UNDERWATER, &[(0, 0, 0, NONE)]),
        ],
    );
    f.edicts = vec![edict(0), edict(2), edict(99)];
    for e in &mut f.edicts {
        e.entity = EdictEntity::EntityId(-18);
    }
    let g = nav_quake::navigation(&f);
    assert_eq!(
        edges(&g),
        [
            (0, 1, EdgeKind::Door),
            (0, 2, EdgeKind::Swim),
            (0, 1, EdgeKind::Elevator),
            (1, 0, EdgeKind::Walk),
            (2, 0, EdgeKind::Walk),
        ]
    );
}

#[test]
fn the_room_sample_maps_its_links_and_door_in_every_version() {
    for (magic, version) in common::all_versions() {
        let f = common::room(magic, version);
        let g = nav_quake::navigation(&f);
        assert!(g.is_consistent());
        assert_eq!(g.cells.len(), 5);
        assert_eq!(g.edges.len(), f.links.len(), "{magic:?} v{version}");
        let count = |k| g.edges.iter().filter(|e| e.kind == k).count();
        assert_eq!(
            [
                EdgeKind::Walk,
                EdgeKind::Door,
                EdgeKind::Jump,
                EdgeKind::Drop
            ]
            .map(count),
            [7, 1, 1, 1],
            "{magic:?} v{version}"
        );
        assert!(g.edges.contains(&nav_core::navigation::Edge {
            from: 2,
            to: 3,
            kind: EdgeKind::Door
        }));
    }
}

#[test]
fn indices_out_of_range_are_left_out_without_a_panic() {
    let mut f = file(
        Magic::Nav3,
        6,
        &[
            (0.0, 0, &[(1, 0, 3, NONE), (7, 0, 3, NONE), (1, 10, 3, 40)]),
            (0.0, 0, &[]),
        ],
    );
    // Node 1's range runs past the links; an edict names a link that does not exist.
    f.nodes[1].first_link = 2;
    f.nodes[1].num_links = 9;
    f.edicts.push(edict(500));
    assert!(!nav_quake::validate(&f).is_empty());
    let g = nav_quake::navigation(&f);
    assert!(g.is_consistent());
    assert_eq!(
        edges(&g),
        [(0, 1, EdgeKind::Walk), (0, 1, EdgeKind::LadderUp)]
    );
    // And a file with no nodes at all.
    let g = nav_quake::navigation(&NavFile::new(Magic::Nav2, 12).unwrap());
    assert!(g.cells.is_empty() && g.edges.is_empty() && g.is_consistent());
}

#[test]
fn arbitrary_models_map_consistently() {
    let mut links = 0;
    for seed in 0..2000u64 {
        let bytes = noise(seed, 64 + (seed as usize % 2048));
        let Ok(mut f) = NavFile::arbitrary(&mut Unstructured::new(&bytes)) else {
            continue;
        };
        for round in 0..2 {
            let g = nav_quake::navigation(&f);
            assert!(g.is_consistent(), "seed {seed}");
            assert_eq!(g.cells.len(), f.nodes.len(), "seed {seed}");
            // Ranges may overlap: a link two nodes' ranges hold leaves from both.
            let ranged: usize = f.nodes.iter().map(|n| usize::from(n.num_links)).sum();
            assert!(g.edges.len() <= ranged, "seed {seed}");
            links += g.edges.len();
            if round == 0 {
                // Then with every index folded into range, so that edges exist.
                let (nodes, all) = (f.nodes.len().max(1) as u16, f.links.len() as u16);
                for l in &mut f.links {
                    l.target %= nodes;
                }
                for n in &mut f.nodes {
                    n.first_link %= all.saturating_add(1);
                    n.num_links = n.num_links.min(all - n.first_link);
                }
            }
        }
    }
    assert!(links > 0, "no arbitrary model had an edge");
}

/// The node whose range holds each link, from the ranges alone.
fn owners(f: &NavFile) -> Vec<Option<usize>> {
    let mut owner = vec![None; f.links.len()];
    for (i, n) in f.nodes.iter().enumerate() {
        let start = usize::from(n.first_link);
        for k in start..start + usize::from(n.num_links) {
            if let Some(o) = owner.get_mut(k) {
                *o = Some(i);
            }
        }
    }
    owner
}

#[test]
fn every_corpus_file_maps_every_link() {
    let Some(_) = corpus_dir("quake") else {
        return;
    };
    let mut files = 0;
    let mut totals: BTreeMap<EdgeKind, usize> = BTreeMap::new();
    for path in real_paths("quake").iter().filter(|p| !is_negative(p)) {
        let name = path.display();
        let f = nav_quake::read(&std::fs::read(path).unwrap()).unwrap();
        let g = Quake.navigation(&f).unwrap();
        assert!(g.is_consistent(), "{name}");
        assert_eq!(g.cells.len(), f.nodes.len(), "{name}");
        // Every link is owned by a node and names a node, so every link is one edge: the same
        // (from, to) pairs, counted from the file's arrays.
        let owner = owners(&f);
        let mut stored: Vec<(u32, u32)> = Vec::with_capacity(f.links.len());
        for (k, l) in f.links.iter().enumerate() {
            let from = owner[k].unwrap_or_else(|| panic!("{name}: link {k} has no node"));
            assert!(usize::from(l.target) < f.nodes.len(), "{name}: link {k}");
            stored.push((from as u32, u32::from(l.target)));
        }
        let mut mapped: Vec<(u32, u32)> = g.edges.iter().map(|e| (e.from, e.to)).collect();
        stored.sort_unstable();
        mapped.sort_unstable();
        assert_eq!(mapped, stored, "{name}");
        assert!(g.exits.is_empty(), "{name}");
        // Kinds that follow from the link type alone (no corpus link is disabled).
        let links_of = |types: &[u8]| {
            f.links
                .iter()
                .filter(|l| types.contains(&l.link_type))
                .count()
        };
        let edges_of =
            |kinds: &[EdgeKind]| g.edges.iter().filter(|e| kinds.contains(&e.kind)).count();
        assert_eq!(edges_of(&[EdgeKind::Blocked]), 0, "{name}");
        assert_eq!(
            edges_of(&[EdgeKind::LadderUp, EdgeKind::LadderDown]),
            links_of(&[10]),
            "{name}"
        );
        assert_eq!(edges_of(&[EdgeKind::Elevator]), links_of(&[6, 7]), "{name}");
        assert_eq!(edges_of(&[EdgeKind::Drop]), links_of(&[3]), "{name}");
        assert_eq!(edges_of(&[EdgeKind::Teleport]), links_of(&[2]), "{name}");
        // A door is a walk link an edict names.
        let mut gated: Vec<u16> = f
            .edicts
            .iter()
            .map(|e| e.link)
            .filter(|&k| f.links[usize::from(k)].link_type == 0)
            .collect();
        gated.sort_unstable();
        gated.dedup();
        assert_eq!(edges_of(&[EdgeKind::Door]), gated.len(), "{name}");
        for e in &g.edges {
            *totals.entry(e.kind).or_default() += 1;
        }
        files += 1;
    }
    assert!(files > 0, "no corpus file was mapped");
    println!("nav-quake corpus: {files} files mapped, edges by kind {totals:?}");
    assert!(totals.get(&EdgeKind::LadderUp).is_some_and(|n| *n > 100));
    assert!(totals.contains_key(&EdgeKind::Swim) && totals.contains_key(&EdgeKind::Door));
}

#[test]
fn the_largest_corpus_file_maps_quickly() {
    let Some((path, bytes)) = nav_core::testing::largest_corpus_file("quake") else {
        return;
    };
    let f = nav_quake::read(&bytes).unwrap();
    let runs = 50;
    let start = std::time::Instant::now();
    let mut edges = 0;
    for _ in 0..runs {
        edges += std::hint::black_box(nav_quake::navigation(&f)).edges.len();
    }
    let each = start.elapsed() / runs;
    assert_eq!(edges, f.links.len() * runs as usize);
    println!(
        "nav-quake navigation of {} ({} nodes, {} links): {each:?} per graph",
        path.display(),
        f.nodes.len(),
        f.links.len()
    );
}
