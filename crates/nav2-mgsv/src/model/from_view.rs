//! [`Nav2File::from_view`]: the copy of a view into the owned model, and the decision whether
//! the file's layout is the game's (`stored: None`) or must be kept.

use super::*;
use crate::records::PositionRecord;
use crate::view::Nav2View;

impl Nav2File {
    /// Copies a view into the owned model. The stored layout is kept only when it differs from
    /// the one the writer computes.
    pub fn from_view(view: &Nav2View<'_>) -> Nav2File {
        let h = view.header();
        let pos = |p: &PositionRecord| p.get();
        let mut data_chunks = Vec::with_capacity(view.data_chunks().len());
        let mut dls = Vec::with_capacity(view.data_chunks().len());
        for dc in view.data_chunks() {
            let ng = &dc.navigation_graph();
            let nodes = ng
                .nodes()
                .iter()
                .zip(ng.positions())
                .zip(ng.navmesh_indices())
                .zip(ng.links())
                .map(|(((n, p), mi), l)| NavigationGraphNode {
                    position: p.get(),
                    segment_index: n.segment_index(),
                    kind: n.kind(),
                    reserved_flags: n.flags >> 5,
                    navmesh_index: mi.get(),
                    inside_links: l
                        .inside_links()
                        .iter()
                        .map(|x| NavigationGraphInsideLink {
                            node_index: x.node_index.get(),
                            edge_index: x.edge_index.get(),
                        })
                        .collect(),
                    crossing_segment_link: l.crossing_segment_link().map(|v| v.get()),
                    crossing_data_chunk_link: l.crossing_data_chunk_link().map(|x| {
                        NavigationGraphCrossingDataChunkLink {
                            data_chunk_id: x.data_chunk_id.get(),
                            node_index: x.node_index.get(),
                        }
                    }),
                    crossing_tile_link: l.crossing_tile_link().map(|x| {
                        NavigationGraphCrossingTileLink {
                            tile_id: x.tile_id.get(),
                            data_chunk_id: x.data_chunk_id.get(),
                            node_index: x.node_index.get(),
                        }
                    }),
                })
                .collect();
            let edges = ng
                .edges()
                .iter()
                .map(|e| NavigationGraphEdge {
                    weight: e.weight.get(),
                    segment_index: e.segment_index(),
                    kind: e.kind(),
                    reserved: (e.segment_and_kind.get() >> 14) as u8,
                    node_indices: e.node_indices,
                })
                .collect();
            let nm = &dc.navmesh_chunk();
            let meshes = nm
                .meshes()
                .iter()
                .zip(nm.records())
                .map(|(m, r)| Mesh {
                    segment_index: m.segment_index(),
                    neighbors: r
                        .neighbors()
                        .iter()
                        .map(|n| NeighborNavmeshInfo(n.get()))
                        .collect(),
                    positions: r.positions().to_vec(),
                    navigation_graph_nodes: r.navigation_graph_nodes().to_vec(),
                    crossing: r.crossing().map(|(d, t)| MeshCrossing {
                        data_chunk_ids: d.iter().map(|v| v.get()).collect(),
                        tile_ids: t.iter().map(|v| v.get()).collect(),
                    }),
                })
                .collect();
            let sc = &dc.segment_chunk();
            let segments = sc
                .bounds()
                .iter()
                .zip(sc.segments())
                .map(|(b, s)| Segment {
                    min: b.min.get(),
                    max: b.max.get(),
                    navmesh_position_count: s.counts[0],
                    navmesh_count: s.counts[1],
                    navigation_graph_edge_count: s.counts[2],
                    navigation_graph_node_count: s.counts[3],
                })
                .collect();
            let sg = &dc.segment_graph();
            let sg_nodes = sg
                .nodes()
                .iter()
                .zip(sg.positions())
                .zip(sg.links())
                .map(|((n, p), l)| {
                    let mut lists = l.navigation_graph_nodes();
                    let mut take = |k: u8| {
                        let (a, b) = lists.split_at(usize::from(k).min(lists.len()));
                        lists = b;
                        a.to_vec()
                    };
                    let inside_links = l
                        .inside_links()
                        .iter()
                        .map(|x| SegmentGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    let crossing_data_chunk_links = l
                        .crossing_data_chunk_links()
                        .iter()
                        .map(|x| SegmentGraphCrossingDataChunkLink {
                            data_chunk_id: x.data_chunk_id.get(),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    let crossing_tile_links = l
                        .crossing_tile_links()
                        .iter()
                        .map(|x| SegmentGraphCrossingTileLink {
                            tile_id: x.tile_id.get(),
                            data_chunk_id: x.data_chunk_id.get(),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    SegmentGraphNode {
                        position: pos(p),
                        unknown: n.unknown(),
                        island_graph_node_indices: n.island_graph_node_indices.map(|v| v.get()),
                        inside_links,
                        crossing_data_chunk_links,
                        crossing_tile_links,
                    }
                })
                .collect();
            data_chunks.push(DataChunk {
                uid: FileUid(dc.headers()[0].uid.get()),
                navigation_graph: NavigationGraph {
                    nodes,
                    edges,
                    attributes: ng.attributes().iter().map(|v| v.get()).collect(),
                },
                navmesh_chunk: NavmeshChunk {
                    positions: nm.positions().iter().map(pos).collect(),
                    meshes,
                },
                segment_chunk: SegmentChunk { segments },
                segment_graph: SegmentGraph { nodes: sg_nodes },
            });
            let ngh = ng.header();
            dls.push(DataChunkLayout {
                chunks: dc.headers().map(|c| ChunkLayout {
                    next_chunk_offset: c.next_chunk_offset.get(),
                    data_offset: c.data_offset.get(),
                }),
                navigation_graph_offsets: [
                    ngh.positions_offset.get(),
                    ngh.nodes_offset.get(),
                    ngh.edges_offset.get(),
                    ngh.link_data_offset.get(),
                    ngh.attributes_offset.get(),
                    ngh.navmesh_indices_offset.get(),
                ],
                navigation_graph_link_offsets: ng
                    .nodes()
                    .iter()
                    .map(|n| {
                        u32::from(n.link_data_offset.get())
                            | u32::from(n.link_data_offset_upper()) << 16
                    })
                    .collect(),
                navmesh_offsets: [
                    nm.header().positions_offset.get(),
                    nm.header().meshes_offset.get(),
                    nm.header().mesh_data_offset.get(),
                ],
                mesh_data_offsets: nm.meshes().iter().map(|m| m.data_offset()).collect(),
                segment_chunk_offsets: [
                    sc.header().bounds_offset.get(),
                    sc.header().segments_offset.get(),
                    sc.header().self_size.get(),
                ],
                segment_bases: sc
                    .segments()
                    .iter()
                    .map(|s| s.bases.map(|b| b.get()))
                    .collect(),
                segment_graph_offsets: [
                    sg.header().positions_offset.get(),
                    sg.header().nodes_offset.get(),
                    sg.header().link_data_offset.get(),
                    sg.header().self_size.get(),
                ],
                segment_graph_total_node_index_count: sg
                    .header()
                    .total_navigation_graph_node_index_count
                    .get(),
                segment_graph_link_offsets: sg
                    .nodes()
                    .iter()
                    .map(|n| n.link_data_offset())
                    .collect(),
            });
        }

        let mut island_graphs = Vec::with_capacity(view.island_graphs().len());
        let mut igls = Vec::with_capacity(view.island_graphs().len());
        for g in view.island_graphs() {
            let nodes = g
                .nodes()
                .iter()
                .zip(g.links())
                .zip(g.low_graph_node_links())
                .zip(g.segment_counts())
                .map(|(((n, l), lo), sc)| IslandGraphNode {
                    position: n.position.get(),
                    attributes: n.attributes.get(),
                    crossing_data_chunk_links: l
                        .crossing_data_chunk_links()
                        .iter()
                        .map(|x| IslandGraphCrossingDataChunkLink {
                            data_chunk_uid: FileUid(x.data_chunk_uid.get()),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        })
                        .collect(),
                    inside_links: l
                        .inside_links()
                        .iter()
                        .map(|x| IslandGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        })
                        .collect(),
                    crossing_tile_links: l
                        .crossing_tile_links()
                        .iter()
                        .map(|x| IslandGraphCrossingTileLink(x.get()))
                        .collect(),
                    low_graph_node_link: LowGraphNodeLink {
                        data_chunk_uid: FileUid(lo.data_chunk_uid.get()),
                        segment_graph_node_index: lo.segment_graph_node_index.get(),
                        navigation_graph_node_index: lo.navigation_graph_node_index.get(),
                    },
                    segment_count: sc.get(),
                })
                .collect();
            let groups = g.connect_side_info_groups().map(|c| ConnectSideInfoGroup {
                tile_id: c.tile_id.get(),
                count: c.count.get(),
            });
            island_graphs.push(IslandGraph {
                nodes,
                connect_side_info_groups: groups,
                connect_side_infos: g
                    .connect_side_infos()
                    .iter()
                    .map(|x| ConnectSideInfo {
                        weight: x.weight.get(),
                        node_index: x.node_index.get(),
                    })
                    .collect(),
            });
            let w = g.header().words.map(|v| v.get());
            igls.push(IslandGraphLayout {
                offsets: [w[0], w[1], w[3], w[4], w[5], w[6], w[7]],
                link_offsets: g.nodes().iter().map(|n| n.link_data_offset.get()).collect(),
                group_start_indices: g.connect_side_info_groups().map(|c| c.start_index.get()),
            });
        }

        let (search_space, ssl) = match view.search_space() {
            None => (None, None),
            Some(s) => {
                let sh = s.header();
                let mut entries = s.entries().iter();
                let buckets = s
                    .bucket_descs()
                    .iter()
                    .map(|d| Bucket {
                        min_y: d.min_y,
                        max_y: d.max_y,
                        entries: entries
                            .by_ref()
                            .take(usize::from(d.count.get()))
                            .map(|e| BucketEntry {
                                data_chunk_uid: FileUid(e.head().data_chunk_uid.get()),
                                segment_indices: e
                                    .segment_indices()
                                    .iter()
                                    .map(|v| v.get())
                                    .collect(),
                            })
                            .collect(),
                    })
                    .collect();
                (
                    Some(SearchSpace {
                        origin: sh.origin.map(nav_core::RawF32::from),
                        range_y: sh.range_y.get(),
                        block_count: sh.block_count.map(|v| v.get()),
                        block_size_xz: sh.block_size_xz.get(),
                        block_size_y: sh.block_size_y.get(),
                        buckets,
                    }),
                    Some(SearchSpaceLayout {
                        offsets: [
                            sh.bucket_descs_offset.get(),
                            sh.bucket_entries_offset.get(),
                            sh.self_size.get(),
                        ],
                        start_offsets: s
                            .bucket_descs()
                            .iter()
                            .map(|d| d.start_offset.get())
                            .collect(),
                    }),
                )
            }
        };

        let (connect_tile_info, ctl) = match view.connect_tile_info() {
            None => (None, None),
            Some(c) => {
                let w = c.header().words.map(|v| v.get());
                (
                    Some(ConnectTileInfo {
                        groups: c
                            .groups()
                            .iter()
                            .map(|g| ConnectTileGroup {
                                name: g.name.get(),
                                count: (g.packed.get() & 0x1f) as u8,
                                start_index: g.packed.get() >> 5,
                            })
                            .collect(),
                        infos: c
                            .infos()
                            .iter()
                            .map(|g| ConnectTileInfoEntry {
                                data_chunk_id: g.first.get(),
                                count: (g.packed.get() & 0x1f) as u8,
                                start_index: g.packed.get() >> 5,
                            })
                            .collect(),
                        nodes: c
                            .nodes()
                            .iter()
                            .map(|g| ConnectTileNode {
                                navigation_graph_node_index: g.first.get(),
                                navmesh_index: g.packed.get() & 0x3fff,
                                navmesh_neighbor_index: (g.packed.get() >> 14) as u8,
                            })
                            .collect(),
                    }),
                    Some([w[0], w[1], w[2]]),
                )
            }
        };

        // The parser refuses input longer than MAX_FILE_LEN (16 MiB), so the length and every
        // residue offset inside it fit a `u32`.
        const _: () = assert!(crate::records::MAX_FILE_LEN <= u32::MAX as usize);
        #[allow(clippy::cast_possible_truncation)]
        let length = view.length() as u32;
        let stored = StoredLayout {
            length,
            file_size: h.file_size.get(),
            chunks_offset: h.chunks_offset.get(),
            chunk_count: h.chunk_count.get(),
            search_space_offset: h.search_space_offset.get(),
            island_graphs_offset: h.island_graphs_offset.get(),
            connect_tile_info_offset: h.connect_tile_info_offset.get(),
            chunk_descs_offset: h.chunk_descs_offset.get(),
            chunk_descs_data_size: h.chunk_descs_data_size.get(),
            chunk_desc_entry_count: view.chunk_desc_entry_count(),
            chunk_descs: view
                .chunk_descs()
                .iter()
                .map(|d| ChunkDesc {
                    uid: FileUid(d.uid.get()),
                    data_offset: d.data_offset.get(),
                    type_and_size: d.type_and_size.get(),
                })
                .collect(),
            data_chunks: dls,
            island_graphs: igls,
            search_space: ssl,
            connect_tile_info: ctl,
            residue: view
                .residue()
                .iter()
                .map(|(o, b)| Residue {
                    // Inside the file (at most MAX_FILE_LEN bytes, see above): the cast is exact.
                    #[allow(clippy::cast_possible_truncation)]
                    offset: *o as u32,
                    bytes: b.to_vec(),
                })
                .collect(),
        };
        let mut model = Nav2File {
            version: h.version.get(),
            file_uid: FileUid(h.file_uid.get()),
            unknown_crossing_tile_link_related: h.unknown_crossing_tile_link_related.get(),
            origin: h.origin.map(nav_core::RawF32::from),
            denominator: h.denominator.map(|v| v.get()),
            weight_denominator: h.weight_denominator.get(),
            feature_flags: h.feature_flags,
            pre2014_unknown_index: h.pre2014_unknown_index,
            header_tail: h.tail,
            data_chunks,
            island_graphs,
            search_space,
            connect_tile_info,
            stored: None,
        };
        let canonical = layout::compute(&model).is_ok_and(|c| c == stored);
        if !canonical {
            model.stored = Some(Box::new(stored));
        }
        model
    }
}
