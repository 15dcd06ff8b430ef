//! [`Nav2File::from_view`]: the copy of a view into the owned model, and the decision whether
//! the file's layout is the game's (`stored: None`) or must be kept.

use super::game_layout::{ChunkRuns, Run, is_game_layout_with, link_step, mesh_step};
use super::stored_offsets::{
    chunk_layout, cti_offsets, ig_offsets, ng_link_offset, ng_offsets, nm_offsets, sc_offsets,
    sg_offsets, ss_offsets, view_length,
};
use super::*;
use crate::records::*;
use crate::view::Nav2View;

impl Nav2File {
    /// Copies a view into the owned model. The stored layout is kept only when it differs from
    /// the one the writer computes.
    pub fn from_view(view: &Nav2View<'_>) -> Nav2File {
        let h = view.header();
        let pos = |p: &PositionRecord| p.get();
        let mut data_chunks = Vec::with_capacity(view.data_chunks().len());
        // Each chunk's link blocks and mesh records, checked against the game's layout as they
        // are copied (see `game_layout::Run`), unless the parser saw them packed the game's way.
        let mut runs = Vec::with_capacity(view.data_chunks().len());
        for dc in view.data_chunks() {
            let mut run = ChunkRuns::default();
            let ng = &dc.navigation_graph();
            let (packed_links, packed_records) =
                (ng.packed_links(), dc.navmesh_chunk().packed_records());
            let nodes = ng
                .nodes()
                .iter()
                .zip(ng.positions())
                .zip(ng.navmesh_indices())
                .zip(ng.links())
                .map(|(((n, p), mi), l)| {
                    if packed_links.is_none() {
                        link_step(&mut run.links, n);
                    }
                    NavigationGraphNode {
                        position: p.get(),
                        segment_index: n.segment_index(),
                        kind: n.kind(),
                        reserved_flags: n.flags >> 5,
                        navmesh_index: mi.get(),
                        inside_links: ShortVec::from_slice_map(l.inside_links(), |x| {
                            NavigationGraphInsideLink {
                                node_index: x.node_index.get(),
                                edge_index: x.edge_index.get(),
                            }
                        }),
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
                    }
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
                .map(|(m, r)| {
                    if packed_records.is_none() {
                        mesh_step(&mut run.meshes, m, r.record_len());
                    }
                    Mesh {
                        segment_index: m.segment_index(),
                        neighbors: sides(r.neighbors(), |n| NeighborNavmeshInfo(n.get())),
                        positions: sides(r.positions(), |v| v),
                        navigation_graph_nodes: sides(r.navigation_graph_nodes(), |v| v),
                        crossing: r.crossing().map(|(d, t)| MeshCrossing {
                            data_chunk_ids: sides(d, |v| v.get()),
                            tile_ids: sides(t, |v| v.get()),
                        }),
                    }
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
                        ShortVec::from_slice_with(a, |&v| v)
                    };
                    let inside_links =
                        ShortVec::from_slice_with(l.inside_links(), |x| SegmentGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        });
                    let crossing_data_chunk_links =
                        ShortVec::from_slice_with(l.crossing_data_chunk_links(), |x| {
                            SegmentGraphCrossingDataChunkLink {
                                data_chunk_id: x.data_chunk_id.get(),
                                weight: x.weight.get(),
                                node_index: x.node_index.get(),
                                link_index: x.link_index,
                                navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                            }
                        });
                    let crossing_tile_links =
                        ShortVec::from_slice_with(l.crossing_tile_links(), |x| {
                            SegmentGraphCrossingTileLink {
                                tile_id: x.tile_id.get(),
                                data_chunk_id: x.data_chunk_id.get(),
                                weight: x.weight.get(),
                                node_index: x.node_index.get(),
                                link_index: x.link_index,
                                navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                            }
                        });
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
            runs.push(ChunkRuns {
                links: packed_links.map_or(run.links, Run::packed),
                meshes: packed_records.map_or(run.meshes, Run::packed),
            });
        }

        let mut island_graphs = Vec::with_capacity(view.island_graphs().len());
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
                    crossing_data_chunk_links: ShortVec::from_slice_with(
                        l.crossing_data_chunk_links(),
                        |x| IslandGraphCrossingDataChunkLink {
                            data_chunk_uid: FileUid(x.data_chunk_uid.get()),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        },
                    ),
                    inside_links: ShortVec::from_slice_with(l.inside_links(), |x| {
                        IslandGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        }
                    }),
                    crossing_tile_links: ShortVec::from_slice_with(l.crossing_tile_links(), |x| {
                        IslandGraphCrossingTileLink(x.get())
                    }),
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
        }

        let search_space = view.search_space().map(|s| {
            let sh = s.header();
            // Each bucket takes the next `count` entries (the parser read them in this order).
            let mut entries = s.entries();
            let buckets = s
                .bucket_descs()
                .iter()
                .map(|d| {
                    let (mine, rest) =
                        entries.split_at(usize::from(d.count.get()).min(entries.len()));
                    entries = rest;
                    Bucket {
                        min_y: d.min_y,
                        max_y: d.max_y,
                        entries: ShortVec::from_slice_with(mine, |e| BucketEntry {
                            data_chunk_uid: FileUid(e.head().data_chunk_uid.get()),
                            segment_indices: ShortVec::from_slice_with(e.segment_indices(), |v| {
                                v.get()
                            }),
                        }),
                    }
                })
                .collect();
            SearchSpace {
                origin: sh.origin.map(nav_core::RawF32::from),
                range_y: sh.range_y.get(),
                block_count: sh.block_count.map(|v| v.get()),
                block_size_xz: sh.block_size_xz.get(),
                block_size_y: sh.block_size_y.get(),
                buckets,
            }
        });

        let connect_tile_info = view.connect_tile_info().map(|c| ConnectTileInfo {
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
        });

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
        // The game's layout is compared with the view's numbers where they lie; the stored layout
        // is copied out only for a file that does not follow it.
        if !is_game_layout_with(view, &runs) {
            model.stored = Some(Box::new(stored_layout(view)));
        }
        model
    }
}

/// The offsets, sizes, counts and prefix sums the view's file stores: what [`StoredLayout`]
/// keeps of a file not laid out the way the game does.
pub(crate) fn stored_layout(view: &Nav2View<'_>) -> StoredLayout {
    let h = view.header();
    let data_chunks = view
        .data_chunks()
        .iter()
        .map(|dc| {
            let (ng, nm, sc, sg) = (
                dc.navigation_graph(),
                dc.navmesh_chunk(),
                dc.segment_chunk(),
                dc.segment_graph(),
            );
            DataChunkLayout {
                chunks: dc.headers().map(chunk_layout),
                navigation_graph_offsets: ng_offsets(ng.header()),
                navigation_graph_link_offsets: ng.nodes().iter().map(ng_link_offset).collect(),
                navmesh_offsets: nm_offsets(nm.header()),
                mesh_data_offsets: nm.meshes().iter().map(|m| m.data_offset()).collect(),
                segment_chunk_offsets: sc_offsets(sc.header()),
                segment_bases: sc.segments().iter().map(segment_bases).collect(),
                segment_graph_offsets: sg_offsets(sg.header()),
                segment_graph_total_node_index_count: sg
                    .header()
                    .total_navigation_graph_node_index_count
                    .get(),
                segment_graph_link_offsets: sg
                    .nodes()
                    .iter()
                    .map(|n| n.link_data_offset())
                    .collect(),
            }
        })
        .collect();
    let island_graphs = view
        .island_graphs()
        .iter()
        .map(|g| IslandGraphLayout {
            offsets: ig_offsets(g.header()),
            link_offsets: g.nodes().iter().map(|n| n.link_data_offset.get()).collect(),
            group_start_indices: g.connect_side_info_groups().map(|c| c.start_index.get()),
        })
        .collect();
    let search_space = view.search_space().map(|s| SearchSpaceLayout {
        offsets: ss_offsets(s.header()),
        start_offsets: s
            .bucket_descs()
            .iter()
            .map(|d| d.start_offset.get())
            .collect(),
    });
    StoredLayout {
        length: view_length(view),
        file_size: h.file_size.get(),
        chunks_offset: h.chunks_offset.get(),
        chunk_count: h.chunk_count.get(),
        search_space_offset: h.search_space_offset.get(),
        island_graphs_offset: h.island_graphs_offset.get(),
        connect_tile_info_offset: h.connect_tile_info_offset.get(),
        chunk_descs_offset: h.chunk_descs_offset.get(),
        chunk_descs_data_size: h.chunk_descs_data_size.get(),
        chunk_desc_entry_count: view.chunk_desc_entry_count(),
        chunk_descs: view.chunk_descs().iter().map(chunk_desc).collect(),
        data_chunks,
        island_graphs,
        search_space,
        connect_tile_info: view.connect_tile_info().map(|c| cti_offsets(c.header())),
        residue: view
            .residue()
            .iter()
            .map(|(o, b)| Residue {
                // Inside the file (at most MAX_FILE_LEN bytes, see `view_length`): exact.
                #[allow(clippy::cast_possible_truncation)]
                offset: *o as u32,
                bytes: b.to_vec(),
            })
            .collect(),
    }
}

fn chunk_desc(d: &ChunkDescRecord) -> ChunkDesc {
    ChunkDesc {
        uid: FileUid(d.uid.get()),
        data_offset: d.data_offset.get(),
        type_and_size: d.type_and_size.get(),
    }
}

fn segment_bases(s: &SegmentRecord) -> [u16; 4] {
    s.bases.map(|b| b.get())
}

/// A mesh record's per-side list. The view gives 3 or 4 items (one bit of the mesh descriptor
/// chooses), so the list always fits.
fn sides<S: Copy, T: Copy + Default>(items: &[S], f: impl Fn(S) -> T) -> Sides<T> {
    debug_assert!(items.len() <= MAX_SIDES);
    Sides::from_slice_map(items, f).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    // Test code: a panic is a failed test.
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// `is_game_layout` says what comparing the computed layout with a full copy of the stored
    /// one says: on every real file (the game's layout and Obj2Nav2's), on copies with one byte
    /// changed every 997 bytes, on files this crate laid out (canonical by construction), and on
    /// those with one stored offset of a record moved (the per-record checks `from_view` makes
    /// as it copies, and `is_game_layout` makes from the view alone).
    #[test]
    fn the_game_layout_check_agrees_with_the_computed_layout() {
        let agree = |bytes: &[u8], what: &str| -> Option<bool> {
            let view = Nav2View::parse(bytes).ok()?;
            // A list the parser saw packed has the run that stepping over its records gives.
            for dc in view.data_chunks() {
                assert_eq!(
                    super::super::game_layout::chunk_runs(dc),
                    super::super::game_layout::stepped_runs(dc),
                    "{what}"
                );
            }
            let model = Nav2File::from_view(&view);
            let want = layout::compute(&model).is_ok_and(|c| c == stored_layout(&view));
            assert_eq!(
                super::super::game_layout::is_game_layout(&view),
                want,
                "{what}"
            );
            assert_eq!(model.stored.is_none(), want, "{what}");
            Some(want)
        };
        let (mut files, mut compared, mut canonical, mut moved) = (0, 0, 0, [0; 3]);
        for (_, path) in nav_core::testing::real_files("mgsv") {
            let good = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            let mut inputs = vec![good.clone()];
            for at in (0..good.len()).step_by(997) {
                let mut b = good.clone();
                b[at] ^= 0x5a;
                inputs.push(b);
            }
            // The file as this crate lays it out: the game's layout.
            if let Ok(view) = Nav2View::parse(&good) {
                let mut model = Nav2File::from_view(&view);
                model.relayout();
                if let Ok(out) = model.write() {
                    // Then one number of it changed: a stored offset of a NavigationGraph link
                    // block, a mesh record or a SegmentGraph link block (the first, middle or
                    // last one, one unit later or earlier).
                    if let Ok(v) = Nav2View::parse(&out) {
                        let stored = stored_layout(&v);
                        for (kind, count) in moved.iter_mut().enumerate() {
                            for (which, delta) in [(0, 1), (1, 1), (2, 1), (1, -1), (2, -1)] {
                                let mut changed = stored.clone();
                                let Some(d) = changed.data_chunks.last_mut() else {
                                    continue;
                                };
                                let offsets = match kind {
                                    0 => &mut d.navigation_graph_link_offsets,
                                    1 => &mut d.mesh_data_offsets,
                                    _ => &mut d.segment_graph_link_offsets,
                                };
                                let Some(i) = [0, offsets.len() / 2, offsets.len().wrapping_sub(1)]
                                    .get(which)
                                    .copied()
                                    .filter(|&i| i < offsets.len())
                                else {
                                    continue;
                                };
                                let Some(o) = offsets[i].checked_add_signed(delta) else {
                                    continue;
                                };
                                offsets[i] = o;
                                let mut m = Nav2File::from_view(&v);
                                m.stored = Some(Box::new(changed.clone()));
                                if let Ok(b) = crate::write::place(
                                    &m,
                                    m.stored.as_deref().unwrap(),
                                    crate::model::layout::RecordOffsets::Listed,
                                ) {
                                    // The writer put every record where the changed layout
                                    // says, and nothing else: a record's block left at the
                                    // place the game's layout gives it would show as residue.
                                    if let Ok(v) = Nav2View::parse(&b) {
                                        assert_eq!(
                                            stored_layout(&v),
                                            changed,
                                            "{what}: kind {kind}, offset {i} {delta:+}"
                                        );
                                    }
                                    // Where it still parses, it is not the game's layout.
                                    if let Some(c) = agree(&b, &what) {
                                        assert!(!c, "{what}: kind {kind}, offset {i} {delta:+}");
                                        *count += 1;
                                    }
                                }
                            }
                        }
                    }
                    inputs.push(out);
                }
            }
            for b in &inputs {
                if let Some(c) = agree(b, &what) {
                    compared += 1;
                    canonical += usize::from(c);
                }
            }
            files += 1;
        }
        eprintln!(
            "compared {compared} parsed inputs from {files} files: {canonical} canonical; \
             with one offset moved: {} NavigationGraph link blocks, {} mesh records, \
             {} SegmentGraph link blocks",
            moved[0], moved[1], moved[2]
        );
        if nav_core::testing::corpus_dir("mgsv").is_some() {
            // Both answers occur.
            assert!(files > 0 && canonical > 0 && canonical < compared);
            assert!(moved.iter().all(|&n| n > 0), "{moved:?}");
        }
    }
}
