//! Geometry of `.nav2` files: a hand-built model maps to the expected polygons, kinds, neighbours,
//! nodes and links; every corpus file maps to consistent geometry whose neighbours lie across the
//! edges they are stored on.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::geometry::UpAxis;
use nav_core::testing::noise;
use nav_core::testing::{corpus_dir, corpus_files, is_negative};
use nav_core::{Format, RawF32};
use nav2_mgsv::*;

fn mesh(segment: u16, positions: [u8; 3], neighbors: [NeighborNavmeshInfo; 3]) -> Mesh {
    Mesh {
        segment_index: segment,
        neighbors: neighbors.into(),
        positions: positions.into(),
        navigation_graph_nodes: [0, 0, 0].into(),
        crossing: None,
    }
}

fn node(position: Position) -> NavigationGraphNode {
    NavigationGraphNode {
        position,
        ..NavigationGraphNode::default()
    }
}

fn sample() -> Nav2File {
    let none = NeighborNavmeshInfo::NONE;
    let inside = |i| NeighborNavmeshInfo::new(i, NeighborKind::Inside);
    let mut file = Nav2File::new(
        [RawF32::new(10.0), RawF32::new(0.0), RawF32::new(0.0)],
        [511; 3],
    );

    // Group 4: a square of two faces, sharing the edge from corner 0 to corner 2.
    let mut a = DataChunk {
        uid: FileUid::new(4, 0),
        ..DataChunk::default()
    };
    a.navmesh_chunk.positions = vec![[0, 0, 0], [511, 0, 0], [511, 0, 511], [0, 0, 511]];
    a.navmesh_chunk.meshes = vec![
        mesh(0, [0, 1, 2], [none, none, inside(1)]),
        mesh(0, [0, 2, 3], [inside(0), none, none]),
    ];
    a.segment_chunk.segments.push(Segment {
        max: [511, 0, 511],
        navmesh_position_count: 4,
        navmesh_count: 2,
        navigation_graph_edge_count: 1,
        navigation_graph_node_count: 2,
        ..Segment::default()
    });
    a.navigation_graph.attributes = vec![1249];
    a.navigation_graph.edges = vec![NavigationGraphEdge {
        node_indices: [0, 1],
        ..NavigationGraphEdge::default()
    }];
    let mut n0 = node([255, 0, 255]);
    n0.inside_links.push(NavigationGraphInsideLink {
        node_index: 1,
        edge_index: 0,
    });
    n0.crossing_segment_link = Some(1);
    let mut n1 = node([511, 0, 255]);
    n1.inside_links.push(NavigationGraphInsideLink {
        node_index: 0,
        edge_index: 0,
    });
    n1.crossing_data_chunk_link = Some(NavigationGraphCrossingDataChunkLink {
        data_chunk_id: 1,
        node_index: 0,
    });
    a.navigation_graph.nodes = vec![n0, n1];

    // Group 1: one face of the boss attribute, one face naming a position that does not exist,
    // a node leaving the tile and links that name nothing.
    let mut b = DataChunk {
        uid: FileUid::new(1, 0),
        ..DataChunk::default()
    };
    b.navmesh_chunk.positions = vec![[0, 511, 0], [511, 511, 0], [0, 511, 511]];
    b.navmesh_chunk.meshes = vec![
        mesh(0, [0, 2, 1], [none, inside(1), none]),
        mesh(0, [0, 1, 9], [none; 3]),
    ];
    b.segment_chunk.segments.push(Segment {
        navmesh_position_count: 3,
        navmesh_count: 2,
        navigation_graph_node_count: 1,
        ..Segment::default()
    });
    b.navigation_graph.attributes = vec![1];
    let mut m0 = node([0, 511, 255]);
    m0.crossing_tile_link = Some(NavigationGraphCrossingTileLink {
        tile_id: 7,
        data_chunk_id: 4,
        node_index: 0xffff,
    });
    m0.crossing_segment_link = Some(99);
    m0.inside_links.push(NavigationGraphInsideLink {
        node_index: 5,
        edge_index: 0,
    });
    b.navigation_graph.nodes = vec![m0];
    file.data_chunks = vec![a, b];
    file
}

#[test]
fn hand_built_model() {
    let g = Nav2.geometry(&sample()).unwrap();
    assert!(g.is_consistent());
    assert_eq!(g.up, UpAxis::Y);
    assert_eq!(g.vertices.len(), 7);
    assert_eq!(
        g.vertices[2],
        [11.0, 0.0, 1.0],
        "u16 / denominator + origin"
    );
    // The face naming position 9 is left out.
    assert_eq!(g.polygons.len(), 3);
    let kinds: Vec<&str> = g.polygons.iter().map(|p| g.kind_name(p.kind)).collect();
    assert_eq!(kinds, ["walk", "walk", "boss"]);
    assert_eq!(g.polygons[0].vertices, [0, 1, 2]);
    assert_eq!(g.polygons[0].neighbours, [None, None, Some(1)]);
    assert_eq!(g.polygons[1].neighbours, [Some(0), None, None]);
    // Its neighbour was the face that was left out.
    assert_eq!(g.polygons[2].neighbours, [None, None, None]);
    assert_eq!(g.polygons[2].vertices, [4, 6, 5]);

    assert_eq!(g.nodes.len(), 3);
    let node_kinds: Vec<&str> = g.nodes.iter().map(|n| g.kind_name(n.kind)).collect();
    assert_eq!(node_kinds, ["node", "node", "tile border"]);
    assert_eq!(g.nodes[1].position, [11.0, 0.0, 255.0 / 511.0]);
    let links: Vec<(u32, u32, &str)> = g
        .links
        .iter()
        .map(|l| (l.from, l.to, g.kind_name(l.kind)))
        .collect();
    assert_eq!(
        links,
        [
            (0, 1, "inside"),
            (0, 1, "crossing segment"),
            (1, 0, "inside"),
            (1, 2, "crossing chunk"),
        ]
    );
}

#[test]
fn an_empty_file_has_empty_geometry() {
    let g = Nav2
        .geometry(&Nav2File::new([RawF32::new(0.0); 3], [0; 3]))
        .unwrap();
    assert!(g.is_consistent());
    assert!(g.polygons.is_empty() && g.nodes.is_empty());
}

#[test]
fn every_corpus_file_maps_consistently() {
    let Some(dir) = corpus_dir("mgsv") else {
        return;
    };
    let (mut files, mut faces, mut across, mut off_edge) = (0, 0usize, 0usize, 0usize);
    let mut counter_clockwise = 0usize;
    let mut clockwise = 0usize;
    for path in corpus_files(&dir) {
        if is_negative(&path) {
            continue;
        }
        let model = Nav2.read(&std::fs::read(&path).unwrap()).unwrap();
        let g = Nav2.geometry(&model).unwrap();
        let name = path.display();
        assert!(g.is_consistent(), "{name}");
        let meshes: usize = model
            .data_chunks
            .iter()
            .map(|d| d.navmesh_chunk.meshes.len())
            .sum();
        let nodes: usize = model
            .data_chunks
            .iter()
            .map(|d| d.navigation_graph.nodes.len())
            .sum();
        assert_eq!(g.polygons.len(), meshes, "{name}: every face maps");
        assert_eq!(g.nodes.len(), nodes, "{name}: every node maps");
        files += 1;
        faces += g.polygons.len();
        for p in &g.polygons {
            let pos = |v: u32| g.vertices[v as usize];
            let n = p.vertices.len();
            // Winding in plan (x, -z), seen from above.
            let [a, b, c] = [0, 1, 2].map(|i| g.plan(pos(p.vertices[i])));
            let cross = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
            if cross > 0.0 {
                counter_clockwise += 1;
            } else if cross < 0.0 {
                clockwise += 1;
            }
            for i in 0..n {
                let Some(q) = p.neighbours[i] else { continue };
                let q = &g.polygons[q as usize];
                let has = |v: u32| q.vertices.iter().any(|w| pos(*w) == pos(v));
                if has(p.vertices[i]) && has(p.vertices[(i + 1) % n]) {
                    across += 1;
                } else {
                    off_edge += 1;
                }
            }
        }
    }
    eprintln!(
        "{files} files, {faces} faces, {across} neighbours across their edge, {off_edge} not; \
         {counter_clockwise} faces counter-clockwise from above, {clockwise} clockwise"
    );
    assert!(files > 0, "the corpus folder holds no file");
    // Neighbour i lies across the edge from corner i to corner i + 1.
    assert!(across > 100 * off_edge.max(1), "{across} / {off_edge}");
    // Game faces wind counter-clockwise seen from above, as the builder's input does.
    assert!(counter_clockwise > 100 * clockwise.max(1));
}

#[test]
fn arbitrary_models_map_consistently() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut mapped = 0;
    for seed in 0..2000u64 {
        let data = noise(seed, 512 + (seed as usize % 7) * 512);
        let Ok(model) = Nav2File::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let g = Nav2.geometry(&model).unwrap();
        assert!(g.is_consistent(), "seed {seed}");
        mapped += 1;
    }
    assert!(mapped > 1000, "{mapped} models");
}
