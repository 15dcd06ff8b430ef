//! Models built in code: the samples in `samples/mgsv/` and the starting points of the edit
//! tests.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
#![allow(dead_code)]

use nav_core::RawF32;
use nav2_mgsv::*;

/// Tile (12, 5): TileId 12 + 64 · 5.
pub const TILE: u16 = 12 + 64 * 5;

fn dist(a: Position, b: Position) -> f32 {
    let d: Vec<f32> = (0..3).map(|i| f32::from(a[i]) - f32::from(b[i])).collect();
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

/// A data chunk of one segment from positions and triangles (position indices): one
/// NavigationGraph node per unique edge at its midpoint, the edges between the nodes of each
/// face, inside neighbours between faces that share an edge.
pub fn data_chunk(index: u16, positions: &[Position], faces: &[[u8; 3]]) -> DataChunk {
    let mut edge_nodes: Vec<(u8, u8)> = Vec::new();
    let mut face_nodes = Vec::new();
    for f in faces {
        let mut ids = [0u8; 3];
        for s in 0..3 {
            let (a, b) = (f[s], f[(s + 1) % 3]);
            let key = (a.min(b), a.max(b));
            let id = match edge_nodes.iter().position(|e| *e == key) {
                Some(i) => i,
                None => {
                    edge_nodes.push(key);
                    edge_nodes.len() - 1
                }
            };
            ids[s] = id as u8;
        }
        face_nodes.push(ids);
    }
    let node_pos: Vec<Position> = edge_nodes
        .iter()
        .map(|&(a, b)| {
            let (pa, pb) = (positions[a as usize], positions[b as usize]);
            [0, 1, 2].map(|i| ((u32::from(pa[i]) + u32::from(pb[i])) / 2) as u16)
        })
        .collect();
    let mut ng = NavigationGraph {
        attributes: vec![1249],
        ..NavigationGraph::default()
    };
    for (i, p) in node_pos.iter().enumerate() {
        ng.nodes.push(NavigationGraphNode {
            position: *p,
            navmesh_index: face_nodes
                .iter()
                .position(|f| f.contains(&(i as u8)))
                .unwrap_or(0) as u16,
            ..NavigationGraphNode::default()
        });
    }
    for f in &face_nodes {
        for s in 0..3 {
            let (a, b) = (f[s], f[(s + 1) % 3]);
            let e = ng.edges.len() as u16;
            ng.edges.push(NavigationGraphEdge {
                weight: (dist(node_pos[a as usize], node_pos[b as usize]) * 12.7) as u16,
                node_indices: [a, b],
                ..NavigationGraphEdge::default()
            });
            for (from, to) in [(a, b), (b, a)] {
                ng.nodes[from as usize]
                    .inside_links
                    .push(NavigationGraphInsideLink {
                        node_index: u16::from(to),
                        edge_index: e,
                    });
            }
        }
    }
    let mut meshes = Vec::new();
    for (fi, f) in faces.iter().enumerate() {
        let neighbors = std::array::from_fn::<_, 3, _>(|s| {
            let node = face_nodes[fi][s];
            match face_nodes
                .iter()
                .enumerate()
                .find(|(o, other)| *o != fi && other.contains(&node))
            {
                Some((o, _)) => NeighborNavmeshInfo::new(o as u16, NeighborKind::Inside),
                None => NeighborNavmeshInfo::NONE,
            }
        })
        .into();
        meshes.push(Mesh {
            segment_index: 0,
            neighbors,
            positions: (*f).into(),
            navigation_graph_nodes: face_nodes[fi].into(),
            crossing: None,
        });
    }
    let mut min = [u16::MAX; 3];
    let mut max = [0u16; 3];
    for p in positions {
        for i in 0..3 {
            min[i] = min[i].min(p[i]);
            max[i] = max[i].max(p[i]);
        }
    }
    let centre = node_pos[node_pos.len() / 2];
    DataChunk {
        uid: FileUid::new(index, TILE),
        segment_chunk: SegmentChunk {
            segments: vec![Segment {
                min,
                max,
                navmesh_position_count: positions.len() as u8,
                navmesh_count: faces.len() as u8,
                navigation_graph_edge_count: ng.edges.len() as u8,
                navigation_graph_node_count: ng.nodes.len() as u8,
            }],
        },
        navigation_graph: ng,
        navmesh_chunk: NavmeshChunk {
            positions: positions.to_vec(),
            meshes,
        },
        segment_graph: SegmentGraph {
            nodes: vec![SegmentGraphNode {
                position: centre,
                island_graph_node_indices: [0, 0xffff, 0xffff],
                ..SegmentGraphNode::default()
            }],
        },
    }
}

/// A file header the way the game writes one for tile (12, 5).
pub fn header() -> Nav2File {
    let mut f = Nav2File::new(
        [
            RawF32::new(-2560.0),
            RawF32::new(12.5),
            RawF32::new(-3456.0),
        ],
        [4, 16, 4],
    );
    f.file_uid = FileUid::new(0, TILE);
    f
}

/// One island graph over the given data chunks (one node per data chunk).
pub fn island_graph(chunks: &[DataChunk]) -> IslandGraph {
    let nodes = chunks
        .iter()
        .enumerate()
        .map(|(i, dc)| IslandGraphNode {
            position: dc.segment_graph.nodes[0].position,
            attributes: 1,
            inside_links: (0..chunks.len())
                .filter(|o| *o != i)
                .map(|o| IslandGraphInsideLink {
                    weight: 100,
                    node_index: o as u16,
                })
                .collect(),
            low_graph_node_link: LowGraphNodeLink {
                data_chunk_uid: dc.uid,
                segment_graph_node_index: 0,
                navigation_graph_node_index: 0,
            },
            segment_count: 1,
            ..IslandGraphNode::default()
        })
        .collect();
    IslandGraph {
        nodes,
        ..IslandGraph::default()
    }
}

/// A 1×1×1 SearchSpace listing segment 0 of every data chunk.
pub fn search_space(f: &Nav2File) -> SearchSpace {
    SearchSpace {
        origin: f.origin,
        range_y: 32,
        block_count: [1, 1, 1],
        block_size_xz: 10,
        block_size_y: 768,
        buckets: vec![Bucket {
            min_y: 0,
            max_y: 1,
            entries: f
                .data_chunks
                .iter()
                .map(|d| BucketEntry {
                    data_chunk_uid: d.uid,
                    segment_indices: vec![0].into(),
                })
                .collect(),
        }],
    }
}

/// A square of two triangles: one data chunk, one segment, one island graph.
pub fn square() -> Nav2File {
    let mut f = header();
    f.data_chunks.push(data_chunk(
        4,
        &[[0, 0, 0], [40, 0, 0], [40, 0, 40], [0, 0, 40]],
        &[[0, 1, 2], [0, 2, 3]],
    ));
    f.island_graphs.push(island_graph(&f.data_chunks));
    f.search_space = Some(search_space(&f));
    f
}

/// An empty split file (`x.1.nav2`): no chunks, no SearchSpace, the 112-byte file of the game.
pub fn empty_split() -> Nav2File {
    let mut f = header();
    f.file_uid = FileUid::new(1, TILE);
    f.feature_flags = 5;
    f
}

/// Two data chunks joined by crossing links of every kind, a quad mesh, three island graphs and
/// a ConnectTileInfo (laid out from the documented layout; no game file has one).
pub fn crossing() -> Nav2File {
    let mut f = header();
    let mut a = data_chunk(
        4,
        &[[0, 0, 0], [40, 0, 0], [40, 0, 40], [0, 0, 40]],
        &[[0, 1, 2], [0, 2, 3]],
    );
    let b = data_chunk(
        0,
        &[[40, 0, 0], [80, 4, 0], [80, 4, 40], [40, 0, 40]],
        &[[0, 1, 2], [0, 2, 3]],
    );
    // Face 0 of chunk 4 faces chunk 0 across its side 1, and a tile to the east on side 0.
    let m = &mut a.navmesh_chunk.meshes[0];
    m.neighbors[1] = NeighborNavmeshInfo::new(1, NeighborKind::CrossingDataChunk);
    m.neighbors[0] = NeighborNavmeshInfo::new(7, NeighborKind::CrossingTile);
    m.crossing = Some(MeshCrossing {
        data_chunk_ids: [2, 0, 0xffff].into(),
        tile_ids: [TILE + 1, 0, 0].into(),
    });
    // A quad face with a fourth node on its own segment-local node 0.
    let quad = &mut a.navmesh_chunk.meshes[1];
    quad.neighbors.try_push(NeighborNavmeshInfo::NONE).unwrap();
    quad.positions = [0, 1, 2, 3].into();
    quad.navigation_graph_nodes.try_push(0).unwrap();
    let ng = &mut a.navigation_graph;
    ng.nodes[1].crossing_data_chunk_link = Some(NavigationGraphCrossingDataChunkLink {
        data_chunk_id: 0,
        node_index: 4,
    });
    ng.nodes[0].crossing_tile_link = Some(NavigationGraphCrossingTileLink {
        tile_id: TILE + 1,
        data_chunk_id: 2,
        node_index: 0xffff,
    });
    ng.nodes[3].crossing_segment_link = Some(2);
    let sg = &mut a.segment_graph.nodes[0];
    sg.island_graph_node_indices = [0, 0, 0];
    sg.crossing_data_chunk_links
        .push(SegmentGraphCrossingDataChunkLink {
            data_chunk_id: 0,
            weight: 300,
            node_index: 0,
            link_index: 1,
            navigation_graph_nodes: vec![1].into(),
        });
    sg.crossing_tile_links.push(SegmentGraphCrossingTileLink {
        tile_id: TILE + 1,
        data_chunk_id: 2,
        weight: 500,
        node_index: 0x0fff,
        link_index: 2,
        navigation_graph_nodes: vec![0, 1, 2].into(),
    });
    f.data_chunks = vec![b, a];
    f.data_chunks.sort_by_key(|d| d.uid.index());
    for _ in 0..3 {
        let mut g = island_graph(&f.data_chunks);
        g.connect_side_info_groups[1] = ConnectSideInfoGroup {
            tile_id: TILE + 1,
            count: 2,
        };
        g.connect_side_infos = vec![
            ConnectSideInfo {
                weight: 10,
                node_index: 0,
            },
            ConnectSideInfo {
                weight: 20,
                node_index: 1,
            },
        ];
        g.nodes[1].crossing_tile_links = vec![IslandGraphCrossingTileLink(1 << 14 | 1)].into();
        g.nodes[0].crossing_data_chunk_links = vec![IslandGraphCrossingDataChunkLink {
            data_chunk_uid: f.data_chunks[1].uid,
            weight: 40,
            node_index: 1,
        }]
        .into();
        f.island_graphs.push(g);
    }
    f.search_space = Some(search_space(&f));
    f.connect_tile_info = Some(ConnectTileInfo {
        groups: vec![ConnectTileGroup {
            name: 0x1234_5678,
            count: 1,
            start_index: 0,
        }],
        infos: vec![ConnectTileInfoEntry {
            data_chunk_id: 4,
            count: 2,
            start_index: 0,
        }],
        nodes: vec![
            ConnectTileNode {
                navigation_graph_node_index: 0,
                navmesh_index: 0,
                navmesh_neighbor_index: 0,
            },
            ConnectTileNode {
                navigation_graph_node_index: 1,
                navmesh_index: 0,
                navmesh_neighbor_index: 1,
            },
        ],
    });
    f
}

/// Every sample: file name and model.
pub fn samples() -> Vec<(&'static str, Nav2File)> {
    vec![
        ("square.nav2", square()),
        ("empty_split.1.nav2", empty_split()),
        ("crossing.nav2", crossing()),
    ]
}
