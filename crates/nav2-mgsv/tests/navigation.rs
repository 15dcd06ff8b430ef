//! The navigation graph of `.nav2` files: hand-made models pin the mapping (cells are
//! NavigationGraph nodes with `chunk:node` ids, one edge per stored link, the NavigationGraph Kind
//! as the edge kind, crossing-tile links as exits, references that name nothing skipped), and
//! every corpus file maps to a consistent graph holding every link the file stores.
//!
//! The format has no ladders and no blocked connections: its only traversal attribute is the
//! 2-bit NavigationGraph Kind (static or dynamic), pinned here as walk and special.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use std::collections::HashMap;

use nav_core::Format;
use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};
use nav_core::testing::{is_negative, noise, real_paths};
use nav2_mgsv::*;

fn link(node_index: u16, edge_index: u16) -> NavigationGraphInsideLink {
    NavigationGraphInsideLink {
        node_index,
        edge_index,
    }
}

/// How many edges the graph has from cell `a` to cell `b`, of each kind.
fn edges(g: &Graph, a: u32, b: u32) -> Vec<EdgeKind> {
    g.edges
        .iter()
        .filter(|e| e.from == a && e.to == b)
        .map(|e| e.kind)
        .collect()
}

/// Chunk 4 (nodes 0..3) and chunk 0 (nodes 0..2), stored in that order.
fn two_chunks() -> Nav2File {
    let mut f = common::header();
    let mut a = DataChunk {
        uid: FileUid::new(4, common::TILE),
        ..DataChunk::default()
    };
    let ng = &mut a.navigation_graph;
    ng.edges = vec![
        NavigationGraphEdge::default(),
        NavigationGraphEdge {
            kind: 1, // dynamic
            ..NavigationGraphEdge::default()
        },
    ];
    ng.nodes = vec![
        NavigationGraphNode {
            position: [4, 0, 8],
            inside_links: vec![link(1, 0)].into(),
            crossing_tile_link: Some(NavigationGraphCrossingTileLink {
                tile_id: common::TILE + 1,
                data_chunk_id: 2,
                node_index: 0xffff,
            }),
            ..NavigationGraphNode::default()
        },
        NavigationGraphNode {
            position: [8, 16, 8],
            // Back to 0 along edge 0, and one way to 2 along the dynamic edge 1.
            inside_links: vec![link(0, 0), link(2, 1)].into(),
            ..NavigationGraphNode::default()
        },
        NavigationGraphNode {
            position: [8, 0, 0],
            crossing_segment_link: Some(0),
            ..NavigationGraphNode::default()
        },
    ];
    let mut b = DataChunk {
        uid: FileUid::new(0, common::TILE),
        ..DataChunk::default()
    };
    b.navigation_graph.nodes = vec![
        NavigationGraphNode {
            position: [0, 0, 0],
            crossing_data_chunk_link: Some(NavigationGraphCrossingDataChunkLink {
                data_chunk_id: 4,
                node_index: 2,
            }),
            ..NavigationGraphNode::default()
        },
        NavigationGraphNode {
            position: [0, 0, 4],
            kind: 1, // a dynamic node: its links without an edge record are special
            crossing_data_chunk_link: Some(NavigationGraphCrossingDataChunkLink {
                data_chunk_id: 9,
                node_index: 3,
            }),
            ..NavigationGraphNode::default()
        },
    ];
    f.data_chunks = vec![a, b];
    f
}

#[test]
fn cells_are_navigation_graph_nodes_with_chunk_and_node_ids() {
    let f = two_chunks();
    let g = Nav2.navigation(&f).expect("nav2 maps to a graph");
    assert_eq!(g.up, UpAxis::Y);
    let ids: Vec<CellId> = g.cells.iter().map(|c| c.id).collect();
    assert_eq!(
        ids,
        [
            CellId::in_part(4, 0),
            CellId::in_part(4, 1),
            CellId::in_part(4, 2),
            CellId::in_part(0, 0),
            CellId::in_part(0, 1),
        ]
    );
    assert_eq!(g.cells[1].id.to_string(), "00000004:1");
    // Centres are the decoded node positions (header: origin (-2560, 12.5, -3456), 4/16/4).
    assert_eq!(g.cells[1].centre, Some([-2558.0, 13.5, -3454.0]));
    assert_eq!(g.cells[1].centre, Some(f.decode_position([8, 16, 8])));
    // No mesh names these nodes: a radius of 0, and no polygon.
    assert!(g.cells.iter().all(|c| c.radius == Some(0.0)));
    assert!((0..5).all(|i| g.polygon(i).is_empty()));
    assert!(g.is_consistent());
}

#[test]
fn one_edge_per_stored_link_with_the_file_s_kind() {
    let g = Nav2.navigation(&two_chunks()).unwrap();
    // Inside links 0 → 1 and 1 → 0 along the static edge 0: two walk edges.
    assert_eq!(edges(&g, 0, 1), [EdgeKind::Walk]);
    assert_eq!(edges(&g, 1, 0), [EdgeKind::Walk]);
    // 1 → 2 along the dynamic edge 1 is stored one way: one special edge, none back.
    assert_eq!(edges(&g, 1, 2), [EdgeKind::Special]);
    assert!(edges(&g, 2, 1).is_empty());
    // The crossing-segment link 2 → 0, one way.
    assert_eq!(edges(&g, 2, 0), [EdgeKind::Walk]);
    // The crossing-data-chunk link from chunk 0 node 0 to chunk 4 node 2.
    assert_eq!(edges(&g, 3, 2), [EdgeKind::Walk]);
    assert_eq!(g.edges.len(), 5);
    // Exits: the crossing-tile link, and the link to data chunk 9, which the file does not
    // hold (from a dynamic node: special).
    assert_eq!(g.exits.len(), 2);
    assert_eq!((g.exits[0].from, g.exits[0].kind), (0, EdgeKind::Walk));
    assert!(
        g.exits[0]
            .target
            .contains(&format!("tile {}", common::TILE + 1))
    );
    assert_eq!((g.exits[1].from, g.exits[1].kind), (4, EdgeKind::Special));
    assert_eq!(g.exits[1].target, "data chunk 9 node 3, not in this file");
}

#[test]
fn references_that_name_nothing_are_skipped() {
    let mut f = two_chunks();
    let ng = &mut f.data_chunks[0].navigation_graph;
    // A node past the chunk's three, and an edge record past its two (kept: the link's node
    // exists; its kind falls back to the node's).
    ng.nodes[2].inside_links = vec![link(99, 0), link(1, 500)].into();
    ng.nodes[2].crossing_segment_link = Some(3);
    f.data_chunks[1].navigation_graph.nodes[0].crossing_data_chunk_link =
        Some(NavigationGraphCrossingDataChunkLink {
            data_chunk_id: 4,
            node_index: 3,
        });
    // A mesh whose segment, corners and nodes name nothing.
    f.data_chunks[0].navmesh_chunk.meshes = vec![Mesh {
        segment_index: 7,
        positions: [0, 1, 2].into(),
        navigation_graph_nodes: [0, 1, 2].into(),
        ..Mesh::default()
    }];
    let g = Nav2.navigation(&f).unwrap();
    assert!(g.is_consistent());
    assert_eq!(edges(&g, 2, 1), [EdgeKind::Walk]);
    assert!(edges(&g, 2, 0).is_empty());
    assert!(g.edges.iter().all(|e| e.from != 3));
    assert_eq!(g.edges.len(), 4);
    assert_eq!(g.cells.len(), 5);
}

#[test]
fn a_node_covers_the_meshes_that_name_it() {
    // One triangle (0,0) (2,0) (0,2) in world X/Z; nodes at the edge midpoints (1,0), (1,1),
    // (0,1). The farthest corner from (1,0) and (0,1) is √5 away, from (1,1) √2.
    let mut f = Nav2File::new([nav_core::RawF32::new(0.0); 3], [4, 4, 4]);
    f.data_chunks.push(common::data_chunk(
        4,
        &[[0, 0, 0], [8, 0, 0], [0, 0, 8]],
        &[[0, 1, 2]],
    ));
    let g = Nav2.navigation(&f).unwrap();
    let centres: Vec<[f32; 3]> = g.cells.iter().map(|c| c.centre.unwrap()).collect();
    assert_eq!(centres, [[1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]);
    let radii: Vec<f32> = g.cells.iter().map(|c| c.radius.unwrap()).collect();
    let expected = [5f32.sqrt(), 2f32.sqrt(), 5f32.sqrt()];
    for (r, e) in radii.iter().zip(expected) {
        assert!((r - e).abs() < 1e-6, "{radii:?} against {expected:?}");
    }
    // Each node links to the other two, both ways: six walk edges.
    assert_eq!(g.edges.len(), 6);
    assert!(g.edges.iter().all(|e| e.kind == EdgeKind::Walk));
}

#[test]
fn the_samples_and_arbitrary_models_map_consistently() {
    for (name, f) in common::samples() {
        let g = Nav2.navigation(&f).unwrap();
        assert!(g.is_consistent(), "{name}");
        assert_eq!(g.cells.len(), node_count(&f), "{name}");
    }
    use arbitrary::{Arbitrary, Unstructured};
    let mut mapped = 0;
    for seed in 0..300u64 {
        let data = noise(seed, 512 + (seed as usize % 7) * 512);
        let Ok(f) = Nav2File::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let g = Nav2.navigation(&f).unwrap();
        assert!(g.is_consistent(), "seed {seed}");
        assert_eq!(g.cells.len(), node_count(&f), "seed {seed}");
        mapped += 1;
    }
    assert!(mapped > 100, "only {mapped} arbitrary models");
}

fn node_count(f: &Nav2File) -> usize {
    f.data_chunks
        .iter()
        .map(|d| d.navigation_graph.nodes.len())
        .sum()
}

/// Every link `f` stores, counted from the model without the mapping code: the expected edges
/// `(from, to) → how many`, and the number of exits.
fn stored_links(f: &Nav2File) -> (HashMap<(u32, u32), usize>, usize) {
    let mut first = Vec::new();
    let mut total = 0u32;
    for d in &f.data_chunks {
        first.push(total);
        total += d.navigation_graph.nodes.len() as u32;
    }
    let first_of = |id: u16| {
        f.data_chunks
            .iter()
            .position(|d| d.uid.index() == id)
            .map(|c| first[c])
    };
    let mut expected: HashMap<(u32, u32), usize> = HashMap::new();
    let mut exits = 0;
    for (d, base) in f.data_chunks.iter().zip(&first) {
        for (k, n) in d.navigation_graph.nodes.iter().enumerate() {
            let from = base + k as u32;
            let mut to = |t: u32| *expected.entry((from, t)).or_default() += 1;
            for l in &n.inside_links {
                to(base + u32::from(l.node_index));
            }
            if let Some(t) = n.crossing_segment_link {
                to(base + u32::from(t));
            }
            if let Some(l) = n.crossing_data_chunk_link {
                match first_of(l.data_chunk_id) {
                    Some(b) => to(b + u32::from(l.node_index)),
                    None => exits += 1,
                }
            }
            exits += usize::from(n.crossing_tile_link.is_some());
        }
    }
    (expected, exits)
}

#[test]
fn every_corpus_file_maps_every_stored_link() {
    let paths: Vec<_> = real_paths("mgsv")
        .into_iter()
        .filter(|p| !is_negative(p))
        .collect();
    if std::env::var_os("NAVKIT_REQUIRE_CORPUS").is_some_and(|v| v != "0") {
        assert!(!paths.is_empty(), "the mgsv corpus holds no file");
    }
    let (mut files, mut cells, mut links, mut exits) = (0, 0, 0, 0);
    let mut largest = (0usize, String::new(), std::time::Duration::ZERO);
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let f = Nav2
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let start = std::time::Instant::now();
        let g = Nav2.navigation(&f).unwrap();
        let took = start.elapsed();
        if bytes.len() > largest.0 {
            largest = (bytes.len(), path.display().to_string(), took);
        }
        let name = path.display();
        assert!(g.is_consistent(), "{name}");
        assert_eq!(g.cells.len(), node_count(&f), "{name}");
        let (expected, exit_count) = stored_links(&f);
        let mut found: HashMap<(u32, u32), usize> = HashMap::new();
        for e in &g.edges {
            *found.entry((e.from, e.to)).or_default() += 1;
        }
        assert_eq!(found, expected, "{name}");
        assert_eq!(g.exits.len(), exit_count, "{name}");
        // Every node of a game file lies on a mesh (a radius above 0), and decodes.
        if !path.to_string_lossy().contains("obj2nav2") {
            assert!(
                g.cells
                    .iter()
                    .all(|c| c.centre.is_some() && c.radius.is_some_and(|r| r > 0.0)),
                "{name}"
            );
        }
        files += 1;
        cells += g.cells.len();
        links += g.edges.len();
        exits += g.exits.len();
    }
    assert_eq!(files, paths.len());
    eprintln!(
        "nav2-mgsv navigation: {files} files, {cells} cells, {links} edges, {exits} exits; \
         the largest ({} bytes, {}) maps in {:?}",
        largest.0, largest.1, largest.2
    );
}
