//! Semantic checks: the invariants game files keep (section 7 of the format notes) and the
//! indices that must name something. Parsing never makes these checks, so files that break them
//! (Obj2Nav2 output does) still read and round-trip; `validate` tells the user.

use nav_core::{Finding, Place};

use crate::model::layout;
use crate::model::*;

/// Every finding for `m`.
pub fn validate(m: &Nav2File) -> Vec<Finding> {
    let mut f = Vec::new();
    if m.version != VERSION {
        f.push(Finding::info(
            header("Version"),
            format!("{} (game files use {VERSION})", m.version),
        ));
    }
    // WeightDenominator is each file's own fixed-point scale for weights (stored = metres ×
    // WeightDenominator): Metal Gear Survive tiles use 127, The Phantom Pain's 585. Only 0 is wrong.
    if m.weight_denominator == 0 {
        f.push(Finding::error(
            header("WeightDenominator"),
            "0: weights cannot be decoded",
        ));
    }
    for (i, d) in m.denominator.iter().enumerate() {
        if *d == 0 {
            f.push(Finding::error(
                Place::of("FileHeader").index("Denominator", i),
                "0: positions cannot be decoded",
            ));
        }
    }
    if m.unknown_crossing_tile_link_related != 0 {
        f.push(Finding::info(
            header("Unknown_CrossingTileLinkRelated"),
            format!(
                "{} (0 in every known file)",
                m.unknown_crossing_tile_link_related
            ),
        ));
    }
    if m.file_uid.reserved() {
        f.push(Finding::warning(header("FileUid"), "the top bit is set"));
    }
    if m.data_chunks.is_empty() != m.search_space.is_none() {
        f.push(Finding::warning(
            "SearchSpace",
            "game files have a SearchSpace exactly when they have chunks",
        ));
    }
    if m.island_graphs.len() > 3 {
        f.push(Finding::warning(
            "IslandGraphs",
            format!(
                "{} graphs, but SegmentGraph nodes have room for 3 island indices",
                m.island_graphs.len()
            ),
        ));
    }

    if let Some(stored) = &m.stored {
        stored_layout(m, stored, &mut f);
    }

    for (i, dc) in m.data_chunks.iter().enumerate() {
        data_chunk(m, i, dc, &mut f);
    }
    for (i, g) in m.island_graphs.iter().enumerate() {
        island_graph(i, g, &mut f);
    }
    if let Some(s) = &m.search_space {
        search_space(m, s, &mut f);
    }
    f
}

/// A field of the file header.
fn header(field: &'static str) -> Place {
    Place::of("FileHeader").field(field)
}

fn differs<T: PartialEq + core::fmt::Debug>(
    f: &mut Vec<Finding>,
    what: Place,
    stored: T,
    computed: T,
) {
    if stored != computed {
        f.push(Finding::warning(
            what,
            format!("stored {stored:?}, the game's layout gives {computed:?}"),
        ));
    }
}

/// Compares a stored layout with the one the writer computes: every difference breaks one of
/// the offset, size, count or prefix-sum invariants of game files.
fn stored_layout(m: &Nav2File, s: &StoredLayout, f: &mut Vec<Finding>) {
    for (k, r) in s.residue.iter().enumerate() {
        f.push(
            Finding::warning(
                Place::of("stored").index("residue", k),
                format!(
                    "{} non-zero bytes outside every record (padding is zero in game files)",
                    r.bytes.len()
                ),
            )
            .worded(format!("bytes at {:#x}", r.offset)),
        );
    }
    let Ok(c) = layout::compute(m) else {
        f.push(Finding::error(
            "layout",
            "the model cannot be laid out the way the game does (a count or offset is too large)",
        ));
        return;
    };
    if s.length != s.file_size {
        f.push(Finding::warning(
            header("FileSize"),
            format!("{} but the file is {} bytes long", s.file_size, s.length),
        ));
    }
    differs(f, header("FileSize"), s.file_size, c.file_size);
    differs(f, header("ChunksOffset"), s.chunks_offset, c.chunks_offset);
    differs(f, header("ChunkCount"), s.chunk_count, c.chunk_count);
    differs(
        f,
        header("SearchSpaceOffset"),
        s.search_space_offset,
        c.search_space_offset,
    );
    differs(
        f,
        header("IslandGraphsOffset"),
        s.island_graphs_offset,
        c.island_graphs_offset,
    );
    differs(
        f,
        header("ConnectTileInfoOffset"),
        s.connect_tile_info_offset,
        c.connect_tile_info_offset,
    );
    differs(
        f,
        header("ChunkDescsOffset"),
        s.chunk_descs_offset,
        c.chunk_descs_offset,
    );
    differs(
        f,
        header("ChunkDescsDataSize"),
        s.chunk_descs_data_size,
        c.chunk_descs_data_size,
    );
    differs(
        f,
        Place::of("ChunkDescs").field("EntryCount"),
        s.chunk_desc_entry_count,
        c.chunk_desc_entry_count,
    );
    if s.chunk_descs != c.chunk_descs {
        let order: Vec<u8> = s.chunk_descs.iter().map(|d| d.chunk_type()).collect();
        f.push(Finding::warning(
            "ChunkDescs",
            format!(
                "descriptors differ from the game's (types in order {order:?}; game files list \
                 NavigationGraphs, SegmentGraphs, then NavmeshChunks, with their payload offsets \
                 and sizes)"
            ),
        ));
    }
    for (i, (sd, cd)) in s.data_chunks.iter().zip(&c.data_chunks).enumerate() {
        let at = |w: &'static str| Place::at("data_chunks", i).field(w);
        for (k, &name) in [
            "NavigationGraph",
            "NavmeshChunk",
            "SegmentChunk",
            "SegmentGraph",
        ]
        .iter()
        .enumerate()
        {
            differs(
                f,
                at(name).field("chunk header"),
                sd.chunks.get(k),
                cd.chunks.get(k),
            );
        }
        differs(
            f,
            at("NavigationGraph").field("offsets"),
            &sd.navigation_graph_offsets,
            &cd.navigation_graph_offsets,
        );
        if sd.navigation_graph_link_offsets != cd.navigation_graph_link_offsets {
            f.push(Finding::warning(
                at("NavigationGraph").field("Nodes").field("LinkDataOffset"),
                "link blocks are not contiguous in node order",
            ));
        }
        differs(
            f,
            at("NavmeshChunk").field("offsets"),
            &sd.navmesh_offsets,
            &cd.navmesh_offsets,
        );
        if sd.mesh_data_offsets != cd.mesh_data_offsets {
            f.push(Finding::warning(
                at("NavmeshChunk").field("Meshes").field("DataOffset"),
                "mesh records are not contiguous 16-byte-padded records in mesh order",
            ));
        }
        differs(
            f,
            at("SegmentChunk").field("offsets"),
            &sd.segment_chunk_offsets,
            &cd.segment_chunk_offsets,
        );
        if let Some(k) = sd
            .segment_bases
            .iter()
            .zip(&cd.segment_bases)
            .position(|(a, b)| a != b)
        {
            f.push(Finding::warning(
                at("SegmentChunk").index("Segments", k),
                format!(
                    "Base fields {:?} are not the prefix sums of the counts {:?}",
                    sd.segment_bases.get(k),
                    cd.segment_bases.get(k)
                ),
            ));
        }
        differs(
            f,
            at("SegmentGraph").field("offsets"),
            &sd.segment_graph_offsets,
            &cd.segment_graph_offsets,
        );
        differs(
            f,
            at("SegmentGraph").field("TotalNavigationGraphNodeIndexCount"),
            sd.segment_graph_total_node_index_count,
            cd.segment_graph_total_node_index_count,
        );
        if sd.segment_graph_link_offsets != cd.segment_graph_link_offsets {
            f.push(Finding::warning(
                at("SegmentGraph").field("Nodes").field("LinkDataOffset"),
                "link blocks are not in node order at even offsets",
            ));
        }
    }
    for (i, (sg, cg)) in s.island_graphs.iter().zip(&c.island_graphs).enumerate() {
        differs(
            f,
            Place::at("IslandGraphs", i).field("offsets"),
            &sg.offsets,
            &cg.offsets,
        );
        if sg.link_offsets != cg.link_offsets {
            f.push(Finding::warning(
                Place::at("IslandGraphs", i)
                    .field("Nodes")
                    .field("LinkDataOffset"),
                "link blocks are not contiguous in node order",
            ));
        }
        differs(
            f,
            Place::at("IslandGraphs", i)
                .field("ConnectSideInfoGroups")
                .field("StartIndex"),
            sg.group_start_indices,
            cg.group_start_indices,
        );
    }
    if let (Some(ss), Some(cs)) = (&s.search_space, &c.search_space) {
        differs(
            f,
            Place::of("SearchSpace").field("offsets"),
            &ss.offsets,
            &cs.offsets,
        );
        if ss.start_offsets != cs.start_offsets {
            f.push(Finding::warning(
                Place::of("SearchSpace")
                    .field("BucketDescs")
                    .field("StartOffset"),
                "bucket entries are not contiguous in bucket order",
            ));
        }
    }
    differs(
        f,
        Place::of("ConnectTileInfo").field("offsets"),
        s.connect_tile_info,
        c.connect_tile_info,
    );
}

fn data_chunk(m: &Nav2File, i: usize, dc: &DataChunk, f: &mut Vec<Finding>) {
    let at = |w: &'static str| Place::at("data_chunks", i).field(w);
    if dc.uid.tile_id() != m.file_uid.tile_id() {
        f.push(Finding::warning(
            at("DataChunkUid"),
            format!(
                "TileId {} differs from the file's {}",
                dc.uid.tile_id(),
                m.file_uid.tile_id()
            ),
        ));
    }
    let ng = &dc.navigation_graph;
    let nm = &dc.navmesh_chunk;
    let segs = &dc.segment_chunk.segments;
    let sg = &dc.segment_graph;

    // Segment totals and the counts that must agree across chunks.
    let total = |k: fn(&Segment) -> u8| segs.iter().map(|s| usize::from(k(s))).sum::<usize>();
    for (name, sum, actual) in [
        (
            "NavmeshPositionCount",
            total(|s| s.navmesh_position_count),
            nm.positions.len(),
        ),
        ("NavmeshCount", total(|s| s.navmesh_count), nm.meshes.len()),
        (
            "NavigationGraphEdgeCount",
            total(|s| s.navigation_graph_edge_count),
            ng.edges.len(),
        ),
        (
            "NavigationGraphNodeCount",
            total(|s| s.navigation_graph_node_count),
            ng.nodes.len(),
        ),
    ] {
        if sum != actual {
            f.push(Finding::warning(
                at("SegmentChunk").field(name),
                format!("the segments' counts add up to {sum}, but the chunk holds {actual}"),
            ));
        }
    }
    if ng.attributes.len() != segs.len() {
        f.push(Finding::warning(
            at("NavigationGraph").field("AttributesCount"),
            format!(
                "{} attributes for {} segments",
                ng.attributes.len(),
                segs.len()
            ),
        ));
    }
    if sg.nodes.len() != segs.len() {
        f.push(Finding::warning(
            at("SegmentGraph").field("NodeCount"),
            format!("{} nodes for {} segments", sg.nodes.len(), segs.len()),
        ));
    }
    // Segment-local indices are relative to the prefix sums of the counts.
    let mut bases = Vec::with_capacity(segs.len());
    let mut run = [0usize; 4];
    for s in segs {
        bases.push(run);
        run[0] += usize::from(s.navmesh_position_count);
        run[1] += usize::from(s.navmesh_count);
        run[2] += usize::from(s.navigation_graph_edge_count);
        run[3] += usize::from(s.navigation_graph_node_count);
    }

    for (k, n) in ng.nodes.iter().enumerate() {
        let node = || at("NavigationGraph").index("Nodes", k);
        let crossings = usize::from(n.crossing_segment_link.is_some())
            + usize::from(n.crossing_data_chunk_link.is_some())
            + usize::from(n.crossing_tile_link.is_some());
        if crossings > 1 {
            f.push(Finding::warning(
                node().field("flags"),
                "more than one crossing link (game files have at most one)",
            ));
        }
        if n.kind != 0 || n.reserved_flags != 0 {
            f.push(Finding::info(
                node().field("flags"),
                format!(
                    "Kind {} reserved {} (0 in every known file)",
                    n.kind, n.reserved_flags
                ),
            ));
        }
        if usize::from(n.segment_index) >= segs.len() {
            f.push(Finding::error(
                node().field("SegmentIndex"),
                format!("{} is past the {} segments", n.segment_index, segs.len()),
            ));
        }
        if usize::from(n.navmesh_index) >= nm.meshes.len() {
            f.push(Finding::error(
                node().field("NavmeshIndices"),
                format!("{} is past the {} meshes", n.navmesh_index, nm.meshes.len()),
            ));
        }
        for (l, link) in n.inside_links.iter().enumerate() {
            if usize::from(link.node_index) >= ng.nodes.len() {
                f.push(Finding::error(
                    node().index("inside_links", l).field("NodeIndex"),
                    format!("{} is past the {} nodes", link.node_index, ng.nodes.len()),
                ));
            }
            if usize::from(link.edge_index) >= ng.edges.len() {
                f.push(Finding::error(
                    node().index("inside_links", l).field("EdgeIndex"),
                    format!("{} is past the {} edges", link.edge_index, ng.edges.len()),
                ));
            }
        }
        if let Some(v) = n.crossing_segment_link {
            if usize::from(v) >= ng.nodes.len() {
                f.push(Finding::error(
                    node().field("crossing_segment_link"),
                    format!("{v} is past the {} nodes", ng.nodes.len()),
                ));
            }
        }
    }
    for (k, e) in ng.edges.iter().enumerate() {
        let edge = || at("NavigationGraph").index("Edges", k);
        match bases.get(usize::from(e.segment_index)) {
            None => f.push(Finding::error(
                edge().field("SegmentIndex"),
                format!("{} is past the {} segments", e.segment_index, segs.len()),
            )),
            Some(b) => {
                for node in e.node_indices {
                    if b[3] + usize::from(node) >= ng.nodes.len() {
                        f.push(Finding::error(
                            edge().field("NodeIndex"),
                            format!(
                                "segment-local {node} (+ base {}) is past the {} nodes",
                                b[3],
                                ng.nodes.len()
                            ),
                        ));
                    }
                }
            }
        }
    }
    for (k, mesh) in nm.meshes.iter().enumerate() {
        let mesh_at = || at("NavmeshChunk").index("Meshes", k).cell();
        match bases.get(usize::from(mesh.segment_index)) {
            None => f.push(Finding::error(
                mesh_at().field("SegmentIndex"),
                format!("{} is past the {} segments", mesh.segment_index, segs.len()),
            )),
            Some(b) => {
                for p in &mesh.positions {
                    if b[0] + usize::from(*p) >= nm.positions.len() {
                        f.push(Finding::error(
                            mesh_at().field("position index"),
                            format!(
                                "segment-local {p} (+ base {}) is past the {} positions",
                                b[0],
                                nm.positions.len()
                            ),
                        ));
                    }
                }
                for p in &mesh.navigation_graph_nodes {
                    if b[3] + usize::from(*p) >= ng.nodes.len() {
                        f.push(Finding::error(
                            mesh_at().field("NavigationGraph node index"),
                            format!(
                                "segment-local {p} (+ base {}) is past the {} nodes",
                                b[3],
                                ng.nodes.len()
                            ),
                        ));
                    }
                }
            }
        }
        for nb in &mesh.neighbors {
            if !nb.is_none()
                && nb.kind() == NeighborKind::Inside
                && usize::from(nb.navmesh_index()) >= nm.meshes.len()
            {
                f.push(Finding::error(
                    mesh_at().field("NeighborNavmeshInfo"),
                    format!(
                        "inside neighbour {} is past the {} meshes",
                        nb.navmesh_index(),
                        nm.meshes.len()
                    ),
                ));
            }
        }
    }
    for (k, n) in sg.nodes.iter().enumerate() {
        let node = || at("SegmentGraph").index("Nodes", k);
        if n.unknown != 0 {
            f.push(Finding::warning(
                node().field("Unknown"),
                format!("{} (0 in every known file)", n.unknown),
            ));
        }
        for (j, island) in n.island_graph_node_indices.iter().enumerate() {
            if *island != 0xffff {
                // Game files also set indices for graphs that are absent or have no node.
                match m.island_graphs.get(j) {
                    Some(g) if usize::from(*island) >= g.nodes.len() && !g.nodes.is_empty() => f
                        .push(Finding::error(
                            node().index("IslandGraphNodeIndices", j),
                            format!("{island} names no node of island graph {j}"),
                        )),
                    _ => {}
                }
            }
        }
        for (l, link) in n.inside_links.iter().enumerate() {
            if usize::from(link.node_index) >= sg.nodes.len() {
                f.push(Finding::error(
                    node().index("inside_links", l).field("NodeIndex"),
                    format!("{} is past the {} nodes", link.node_index, sg.nodes.len()),
                ));
            }
        }
    }
}

fn island_graph(i: usize, g: &IslandGraph, f: &mut Vec<Finding>) {
    let info_total: usize = g
        .connect_side_info_groups
        .iter()
        .map(|c| usize::from(c.count))
        .sum();
    if info_total != g.connect_side_infos.len() {
        f.push(Finding::error(
            Place::at("IslandGraphs", i).field("ConnectSideInfos"),
            format!(
                "{} infos, but the groups count {info_total}",
                g.connect_side_infos.len()
            ),
        ));
    }
    for (k, n) in g.nodes.iter().enumerate() {
        for (l, link) in n.inside_links.iter().enumerate() {
            if usize::from(link.node_index) >= g.nodes.len() {
                f.push(Finding::error(
                    Place::at("IslandGraphs", i)
                        .index("Nodes", k)
                        .index("inside_links", l)
                        .field("NodeIndex"),
                    format!("{} is past the {} nodes", link.node_index, g.nodes.len()),
                ));
            }
        }
        for (l, link) in n.crossing_tile_links.iter().enumerate() {
            let side = usize::from(link.connect_side_index());
            let count = g.connect_side_info_groups.get(side).map_or(0, |c| c.count);
            if link.connect_side_info_index() >= count {
                f.push(Finding::error(
                    Place::at("IslandGraphs", i)
                        .index("Nodes", k)
                        .index("crossing_tile_links", l),
                    format!(
                        "ConnectSideInfoIndex {} is past the {count} infos of side {side}",
                        link.connect_side_info_index()
                    ),
                ));
            }
        }
    }
}

fn search_space(m: &Nav2File, s: &SearchSpace, f: &mut Vec<Finding>) {
    let blocks = s
        .block_count
        .iter()
        .try_fold(1u64, |a, c| a.checked_mul(u64::from(*c)));
    if blocks != Some(s.buckets.len() as u64) {
        f.push(Finding::error(
            "SearchSpace",
            format!("{} buckets for {:?} blocks", s.buckets.len(), s.block_count),
        ));
    }
    for (k, b) in s.buckets.iter().enumerate() {
        if b.min_y > b.max_y {
            f.push(Finding::warning(
                Place::of("SearchSpace").index("buckets", k),
                format!("MinY {} is above MaxY {}", b.min_y, b.max_y),
            ));
        }
        for (e, entry) in b.entries.iter().enumerate() {
            match m.data_chunks.iter().find(|d| d.uid == entry.data_chunk_uid) {
                None => f.push(Finding::error(
                    Place::of("SearchSpace")
                        .index("buckets", k)
                        .index("entries", e)
                        .field("DataChunkUid"),
                    format!(
                        "{:#010x} names no data chunk of the file",
                        entry.data_chunk_uid.0
                    ),
                )),
                Some(dc) => {
                    let n = dc.segment_chunk.segments.len();
                    if let Some(bad) = entry.segment_indices.iter().find(|s| usize::from(**s) >= n)
                    {
                        f.push(Finding::error(
                            Place::of("SearchSpace")
                                .index("buckets", k)
                                .index("entries", e),
                            format!("segment index {bad} is past the {n} segments"),
                        ));
                    }
                }
            }
        }
    }
}
