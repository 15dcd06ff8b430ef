//! The layout the game gives a file: every offset, size, count and prefix sum, computed from
//! the model.
//!
//! [`compute`] is the first phase of the writer for built or edited models (and what a parsed
//! file is compared with to decide whether its stored layout needs keeping). The order:
//!
//! ```text
//! FileHeader (96) · ChunkDescs (4 + 36n, padded to 16) ·
//! NavigationGraph ×n · NavmeshChunk ×n · SegmentChunk ×n · SegmentGraph ×n (each padded to 16) ·
//! IslandGraphs · SearchSpace · ConnectTileInfo (padded to 16)
//! ```

use nav_core::write::narrow;
use nav_core::{Error, Result};

use super::*;
use crate::FORMAT;
use crate::records::{HEADER_SIZE, mesh_record_len};

/// `x` rounded up to a multiple of 16.
pub(crate) fn a16(x: u64) -> u64 {
    x.saturating_add(15) & !15
}

fn n64(n: usize) -> u64 {
    n as u64
}

fn fits<T>(field: impl core::fmt::Display, value: u64) -> Result<T>
where
    u64: TryInto<T>,
{
    narrow::<T, u64>(FORMAT, field, value)
}

/// Where the writer takes the offset of each NavigationGraph link block and each mesh record
/// from: the two lists a layout holds for them, or the running sum of the sizes before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecordOffsets {
    /// From `navigation_graph_link_offsets` and `mesh_data_offsets`: a stored layout, or the one
    /// [`compute`] gives.
    Listed,
    /// From the running sums, the way the game lays the records out: the layout leaves both lists
    /// empty ([`compute_running`]), and the writer, which walks the records in order anyway,
    /// adds the sizes up as it goes.
    Running,
}

/// Each item's offset in 2-byte units (kept only for [`RecordOffsets::Listed`]), the running sum
/// of the sizes before it (in one pass, so that the list is collected rather than pushed to), the
/// sum of all sizes, and the last item's offset in units. An offset past `u32` is kept as
/// `u32::MAX`, which every field's range check refuses.
fn running_units<T>(
    items: &[T],
    size: impl Fn(&T) -> u64,
    offsets: RecordOffsets,
) -> (Vec<u32>, u64, u64) {
    let mut run = 0u64;
    let mut last = 0u64;
    if offsets == RecordOffsets::Running {
        for item in items {
            last = run;
            run += size(item);
        }
        return (Vec::new(), run, last / 2);
    }
    let units = items
        .iter()
        .map(|item| {
            last = run;
            run += size(item);
            u32::try_from(last / 2).unwrap_or(u32::MAX)
        })
        .collect();
    (units, run, last / 2)
}

/// The index of the first item whose offset is above `max`, when the last one's (`last`) is:
/// the first of `offsets` (which only grow) above it, or the last of `n` items when the list
/// was not kept ([`RecordOffsets::Running`], whose refusal the writer never shows: it lays the
/// model out again with the lists).
fn first_over(offsets: &[u32], n: usize, last: u64, max: u32) -> Option<(usize, u64)> {
    if last <= u64::from(max) {
        return None;
    }
    if offsets.is_empty() {
        return Some((n.saturating_sub(1), last));
    }
    let i = offsets.partition_point(|&o| o <= max);
    Some((i, offsets.get(i).map_or(last, |&o| u64::from(o))))
}

/// The size in bytes of a NavigationGraph node's link block.
#[inline]
pub(crate) fn ng_link_block_len(n: &NavigationGraphNode) -> u64 {
    4 * n64(n.inside_links.len())
        + if n.crossing_segment_link.is_some() {
            2
        } else {
            0
        }
        + if n.crossing_data_chunk_link.is_some() {
            4
        } else {
            0
        }
        + if n.crossing_tile_link.is_some() { 6 } else { 0 }
}

/// The size in bytes of a SegmentGraph link block with these numbers of inside,
/// crossing-data-chunk and crossing-tile links, listing `node_indices` NavigationGraph node
/// indices in all.
pub(crate) fn sg_link_block_bytes(
    inside: usize,
    crossing_data_chunk: usize,
    crossing_tile: usize,
    node_indices: u64,
) -> u64 {
    6 * n64(inside) + 8 * n64(crossing_data_chunk) + 10 * n64(crossing_tile) + node_indices
}

/// How many NavigationGraph node indices a SegmentGraph node's links list in all.
pub(crate) fn sg_node_indices(n: &SegmentGraphNode) -> u64 {
    n.inside_links
        .iter()
        .map(|l| n64(l.navigation_graph_nodes.len()))
        .chain(
            n.crossing_data_chunk_links
                .iter()
                .map(|l| n64(l.navigation_graph_nodes.len())),
        )
        .chain(
            n.crossing_tile_links
                .iter()
                .map(|l| n64(l.navigation_graph_nodes.len())),
        )
        .sum()
}

/// The size in bytes of an IslandGraph link block with these numbers of crossing-data-chunk,
/// inside and crossing-tile links.
pub(crate) fn ig_link_block_bytes(
    crossing_data_chunk: usize,
    inside: usize,
    crossing_tile: usize,
) -> u64 {
    8 * n64(crossing_data_chunk) + 4 * n64(inside) + 2 * n64(crossing_tile)
}

/// The size in bytes of an IslandGraph node's link block.
fn ig_link_block_len(n: &IslandGraphNode) -> u64 {
    ig_link_block_bytes(
        n.crossing_data_chunk_links.len(),
        n.inside_links.len(),
        n.crossing_tile_links.len(),
    )
}

/// The size in bytes of a SearchSpace bucket entry listing `segments` segment indices: its
/// head, then the indices.
pub(crate) fn bucket_entry_bytes(segments: usize) -> u64 {
    8 + 2 * n64(segments)
}

/// The size in bytes of a SearchSpace bucket entry.
pub(crate) fn bucket_entry_len(e: &BucketEntry) -> u64 {
    bucket_entry_bytes(e.segment_indices.len())
}

/// The padded size of mesh `m`'s record, with the crossing part when its neighbours need one.
pub(crate) fn mesh_record_padded(m: &Mesh) -> u64 {
    mesh_record_padded_with(m, m.needs_crossing())
}

/// The padded size of mesh `m`'s record, with the crossing part when `crossing`: as the
/// neighbours want it ([`mesh_record_padded`]), or as the mesh has it, which is the same for
/// every mesh the writer takes.
fn mesh_record_padded_with(m: &Mesh, crossing: bool) -> u64 {
    a16(n64(mesh_record_len(
        m.neighbors.len(),
        m.navigation_graph_nodes.len(),
        crossing,
    )))
}

// The game's rules, from counts and totals. [`compute`] applies them to a model; the check of a
// parsed file (`super::game_layout`) applies them to the file's own records.

/// The FileHeader's ChunkDescsDataSize and ChunksOffset for `n` data chunks.
pub(crate) fn head(n: u64) -> (u64, u64) {
    let descs_size = 4 + 36 * n;
    (descs_size, a16(n64(HEADER_SIZE) + descs_size))
}

/// NavigationGraph offsets (Positions, Nodes, Edges, LinkData, Attributes, NavmeshIndices) and
/// chunk size, header included, for `nodes` nodes whose link blocks take `links` bytes.
pub(crate) fn ng_sections(nodes: u64, links: u64, edges: u64, attributes: u64) -> ([u64; 6], u64) {
    let positions = 48;
    let node_records = positions + a16(6 * nodes);
    let link = node_records + a16(6 * nodes);
    let edge_records = a16(link + links);
    let attribute_records = edge_records + a16(6 * edges);
    let navmesh_indices = attribute_records + a16(2 * attributes);
    let end = navmesh_indices + 2 * nodes;
    let offsets = [
        positions,
        node_records,
        edge_records,
        link,
        attribute_records,
        navmesh_indices,
    ];
    (offsets, a16(16 + end))
}

/// NavmeshChunk offsets (Positions, Meshes, MeshData) and chunk size, for mesh records that
/// take `data` bytes with their padding.
pub(crate) fn nm_sections(positions: u64, meshes: u64, data: u64) -> ([u64; 3], u64) {
    let position_records = 32;
    let mesh_records = position_records + a16(6 * positions);
    let mesh_data = mesh_records + 4 * meshes;
    (
        [position_records, mesh_records, mesh_data],
        a16(16 + mesh_data + data),
    )
}

/// SegmentChunk offsets (Bounds, Segments, SelfSize) and chunk size.
pub(crate) fn sc_sections(segments: u64) -> ([u64; 3], u64) {
    let segment_records = 16 + a16(12 * segments);
    let self_size = segment_records + a16(12 * segments);
    ([16, segment_records, self_size], 16 + self_size)
}

/// SegmentGraph offsets (Positions, Nodes, LinkData, SelfSize) and chunk size, for link blocks
/// that take `links` bytes with their alignment.
pub(crate) fn sg_sections(nodes: u64, links: u64) -> ([u64; 4], u64) {
    let positions = 32;
    let node_records = positions + a16(6 * nodes);
    let link = node_records + a16(12 * nodes);
    let self_size = a16(link + links);
    ([positions, node_records, link, self_size], 16 + self_size)
}

/// Where a SegmentGraph link block starts, `run` bytes into the link data: on an even byte.
pub(crate) fn sg_block_start(run: u64) -> u64 {
    run + run % 2
}

/// IslandGraph offsets, in the order of [`IslandGraphLayout::offsets`] (NextGraphOffset, which
/// is the graph's size, first), for link blocks that take `links` bytes.
pub(crate) fn ig_sections(nodes: u64, links: u64, infos: u64) -> [u64; 7] {
    let node_records = 16u64;
    let link = node_records + a16(14 * nodes);
    let low = a16(link + links);
    let segment_counts = low + 8 * nodes;
    let groups = segment_counts + 2 * nodes;
    let info_records = groups + 24;
    let size = a16(info_records + 4 * infos);
    [
        size,
        node_records,
        link,
        low,
        segment_counts,
        groups,
        info_records,
    ]
}

/// SearchSpace offsets (BucketDescs, BucketEntries, SelfSize) for bucket entries that take
/// `entries` bytes.
pub(crate) fn ss_sections(buckets: u64, entries: u64) -> [u64; 3] {
    let descs = 48u64;
    let entry_records = descs + 8 * buckets;
    [descs, entry_records, a16(entry_records + entries)]
}

/// Bucket `i`'s StartOffset, `run` bytes into the SearchSpace: from its own desc.
pub(crate) fn ss_start_offset(i: u64, run: u64) -> u64 {
    run - (48 + 8 * i)
}

/// ConnectTileInfo offsets in bytes (Groups, Infos, Nodes; stored in 2-byte units) and its
/// unpadded size.
pub(crate) fn cti_sections(groups: u64, infos: u64, nodes: u64) -> ([u64; 3], u64) {
    let group_records = 12u64;
    let info_records = group_records + 6 * groups;
    let node_records = info_records + 4 * infos;
    (
        [group_records, info_records, node_records],
        node_records + 4 * nodes,
    )
}

/// Payload layout and chunk size (header included) of each chunk kind.
fn navigation_graph(
    ng: &NavigationGraph,
    d: &mut DataChunkLayout,
    record_offsets: RecordOffsets,
) -> Result<u64> {
    // The sums only grow, so the range is checked once, on the last offset; the refusal names
    // the first node out.
    let (offsets, run, last) = running_units(&ng.nodes, ng_link_block_len, record_offsets);
    if let Some((i, units)) = first_over(&offsets, ng.nodes.len(), last, 0xffff) {
        fits::<u16>(
            format_args!("NavigationGraph Nodes[{i}] LinkDataOffset"),
            units,
        )?;
    }
    d.navigation_graph_link_offsets = offsets;
    let (offsets, size) = ng_sections(
        n64(ng.nodes.len()),
        run,
        n64(ng.edges.len()),
        n64(ng.attributes.len()),
    );
    let [positions, nodes, edges, link, attributes, navmesh_indices] = offsets;
    // The last offset is the largest, so it is checked first: the error names it, as before.
    let navmesh_indices = fits("NavigationGraph NavmeshIndicesOffset", navmesh_indices)?;
    d.navigation_graph_offsets = [
        fits("NavigationGraph PositionsOffset", positions)?,
        fits("NavigationGraph NodesOffset", nodes)?,
        fits("NavigationGraph EdgesOffset", edges)?,
        fits("NavigationGraph LinkDataOffset", link)?,
        fits("NavigationGraph AttributesOffset", attributes)?,
        navmesh_indices,
    ];
    Ok(size)
}

fn navmesh_chunk(
    nm: &NavmeshChunk,
    d: &mut DataChunkLayout,
    record_offsets: RecordOffsets,
) -> Result<u64> {
    // As for the NavigationGraph link offsets: running sums, checked once.
    // With running offsets, a record is sized by whether the mesh has its crossing part, not by
    // whether its neighbours need one (a loop over the sides): the writer refuses a mesh where
    // the two disagree, and the model is then laid out again with the lists, sized as ever.
    let (offsets, run, last) = match record_offsets {
        RecordOffsets::Listed => running_units(&nm.meshes, mesh_record_padded, record_offsets),
        RecordOffsets::Running => running_units(
            &nm.meshes,
            |m| mesh_record_padded_with(m, m.crossing.is_some()),
            record_offsets,
        ),
    };
    d.mesh_data_offsets = offsets;
    if let Some((i, units)) = first_over(&d.mesh_data_offsets, nm.meshes.len(), last, 0x3ffff) {
        return Err(Error::unrepresentable(
            FORMAT,
            format_args!("NavmeshChunk Meshes[{i}] DataOffset"),
            format!("{units} does not fit the field's 18 bits"),
        ));
    }
    let (offsets, size) = nm_sections(n64(nm.positions.len()), n64(nm.meshes.len()), run);
    let [positions, meshes, data] = offsets;
    // The end of the mesh data is past every offset, so it is checked first: the error names
    // it, as before.
    fits::<u32>("NavmeshChunk MeshDataOffset", data + run)?;
    d.navmesh_offsets = [
        fits("NavmeshChunk PositionsOffset", positions)?,
        fits("NavmeshChunk MeshesOffset", meshes)?,
        fits("NavmeshChunk MeshDataOffset", data)?,
    ];
    Ok(size)
}

pub(crate) fn segment_chunk(sc: &SegmentChunk, d: &mut DataChunkLayout) -> Result<u64> {
    let ([bounds, segments, self_size], size) = sc_sections(n64(sc.segments.len()));
    d.segment_chunk_offsets = [
        fits("SegmentChunk BoundsOffset", bounds)?,
        fits("SegmentChunk SegmentsOffset", segments)?,
        fits("SegmentChunk SelfSize", self_size)?,
    ];
    let mut sums = [0u64; 4];
    d.segment_bases = Vec::with_capacity(sc.segments.len());
    for (i, s) in sc.segments.iter().enumerate() {
        let mut bases = [0u16; 4];
        for (k, b) in bases.iter_mut().enumerate() {
            *b = match u16::try_from(sums[k]) {
                Ok(v) => v,
                Err(_) => fits(format_args!("SegmentChunk Segments[{i}] base {k}"), sums[k])?,
            };
        }
        d.segment_bases.push(bases);
        let counts = [
            s.navmesh_position_count,
            s.navmesh_count,
            s.navigation_graph_edge_count,
            s.navigation_graph_node_count,
        ];
        for (sum, c) in sums.iter_mut().zip(counts) {
            *sum += u64::from(c);
        }
    }
    Ok(size)
}

pub(crate) fn segment_graph(sg: &SegmentGraph, d: &mut DataChunkLayout) -> Result<u64> {
    let mut run = 0u64;
    let mut total = 0u64;
    d.segment_graph_link_offsets = Vec::with_capacity(sg.nodes.len());
    for (i, node) in sg.nodes.iter().enumerate() {
        run = sg_block_start(run);
        let units = u32::try_from(run / 2)
            .ok()
            .filter(|u| *u <= 0xf_ffff)
            .ok_or_else(|| {
                Error::unrepresentable(
                    FORMAT,
                    format_args!("SegmentGraph Nodes[{i}] LinkDataOffset"),
                    format!("{} does not fit the field's 20 bits", run / 2),
                )
            })?;
        d.segment_graph_link_offsets.push(units);
        let lists = sg_node_indices(node);
        run += sg_link_block_bytes(
            node.inside_links.len(),
            node.crossing_data_chunk_links.len(),
            node.crossing_tile_links.len(),
            lists,
        );
        total += lists;
    }
    let ([positions, nodes, link, self_size], size) = sg_sections(n64(sg.nodes.len()), run);
    d.segment_graph_offsets = [
        fits("SegmentGraph PositionsOffset", positions)?,
        fits("SegmentGraph NodesOffset", nodes)?,
        fits("SegmentGraph LinkDataOffset", link)?,
        fits("SegmentGraph SelfSize", self_size)?,
    ];
    d.segment_graph_total_node_index_count =
        fits("SegmentGraph TotalNavigationGraphNodeIndexCount", total)?;
    Ok(size)
}

pub(crate) fn island_graph(g: &IslandGraph, i: usize) -> Result<(IslandGraphLayout, u64)> {
    let mut run = 0u64;
    let mut link_offsets = Vec::with_capacity(g.nodes.len());
    for (k, node) in g.nodes.iter().enumerate() {
        link_offsets.push(fits(
            format_args!("IslandGraphs[{i}] Nodes[{k}] LinkDataOffset"),
            run,
        )?);
        run += ig_link_block_len(node);
    }
    let sections = ig_sections(n64(g.nodes.len()), run, n64(g.connect_side_infos.len()));
    let size = sections[0];
    let mut offsets = [0u16; 7];
    let names = [
        "NextGraphOffset",
        "NodesOffset",
        "LinkDataOffset",
        "LowGraphNodeLinksOffset",
        "SegmentCountsOffset",
        "ConnectSideInfoGroupsOffset",
        "ConnectSideInfosOffset",
    ];
    for ((o, v), name) in offsets.iter_mut().zip(sections).zip(names) {
        *o = fits(format_args!("IslandGraphs[{i}] {name}"), v)?;
    }
    let mut starts = [0u16; 4];
    let mut sum = 0u64;
    for (s, grp) in starts.iter_mut().zip(&g.connect_side_info_groups) {
        *s = fits(
            format_args!("IslandGraphs[{i}] ConnectSideInfoGroups StartIndex"),
            sum,
        )?;
        sum += u64::from(grp.count);
    }
    Ok((
        IslandGraphLayout {
            offsets,
            link_offsets,
            group_start_indices: starts,
        },
        size,
    ))
}

pub(crate) fn search_space(ss: &SearchSpace) -> Result<(SearchSpaceLayout, u64)> {
    let [descs, entries, _] = ss_sections(n64(ss.buckets.len()), 0);
    let mut run = entries;
    let mut start_offsets = Vec::with_capacity(ss.buckets.len());
    for (i, b) in ss.buckets.iter().enumerate() {
        start_offsets.push(fits(
            format_args!("SearchSpace BucketDescs[{i}] StartOffset"),
            ss_start_offset(n64(i), run),
        )?);
        for e in &b.entries {
            run += bucket_entry_len(e);
        }
    }
    let self_size = ss_sections(n64(ss.buckets.len()), run - entries)[2];
    Ok((
        SearchSpaceLayout {
            offsets: [
                fits("SearchSpace BucketDescsOffset", descs)?,
                fits("SearchSpace BucketEntriesOffset", entries)?,
                fits("SearchSpace SelfSize", self_size)?,
            ],
            start_offsets,
        },
        self_size,
    ))
}

/// ConnectTileInfo offsets (2-byte units) and unpadded size.
pub(crate) fn connect_tile_info(c: &ConnectTileInfo) -> Result<([u16; 3], u64)> {
    let ([groups, infos, nodes], end) =
        cti_sections(n64(c.groups.len()), n64(c.infos.len()), n64(c.nodes.len()));
    Ok((
        [
            fits("ConnectTileInfo GroupsOffset", groups / 2)?,
            fits("ConnectTileInfo InfosOffset", infos / 2)?,
            fits("ConnectTileInfo NodesOffset", nodes / 2)?,
        ],
        end,
    ))
}

/// A chunk's size (its header included) as its NextChunkOffset, which its ChunkDesc's DataSize
/// (24 bits) must hold too: data chunk `i`'s chunk of `kind`.
pub(crate) fn chunk_size(size: u64, i: usize, kind: usize) -> Result<u32> {
    u32::try_from(size)
        .ok()
        .filter(|s| *s <= 0x00ff_ffff)
        .ok_or_else(|| {
            Error::unrepresentable(
                FORMAT,
                format_args!("data_chunks[{i}] chunk {kind}"),
                format!("size {size} does not fit ChunkDesc DataSize (24 bits)"),
            )
        })
}

/// The ChunkDescs, from each data chunk's chunk starts and sizes by kind (NavigationGraph,
/// NavmeshChunk, SegmentChunk, SegmentGraph): the NavigationGraphs', then the SegmentGraphs',
/// then the NavmeshChunks' (SegmentChunks have none).
pub(crate) fn chunk_descs(model: &Nav2File, placed: &[[(u64, u32); 4]]) -> Result<Vec<ChunkDesc>> {
    let mut descs = Vec::with_capacity(3 * placed.len());
    for (kind, ty) in [(0usize, 0u32), (3, 3), (1, 1)] {
        for (dc, at) in model.data_chunks.iter().zip(placed) {
            let (start, size) = at.get(kind).copied().unwrap_or_default();
            descs.push(ChunkDesc {
                uid: dc.uid,
                data_offset: fits("ChunkDesc DataOffset", start + 16)?,
                type_and_size: ty | (size << 8),
            });
        }
    }
    Ok(descs)
}

/// The layout the writer gives `model` when it has no stored layout.
pub fn compute(model: &Nav2File) -> Result<StoredLayout> {
    compute_with(model, RecordOffsets::Listed)
}

/// The same layout without its two per-record offset lists (NavigationGraph link blocks, mesh
/// records), which the writer adds up as it goes ([`RecordOffsets::Running`]); `None` where
/// [`compute`] refuses the model, whose refusal the writer then gives.
pub(crate) fn compute_running(model: &Nav2File) -> Option<StoredLayout> {
    compute_with(model, RecordOffsets::Running).ok()
}

fn compute_with(model: &Nav2File, record_offsets: RecordOffsets) -> Result<StoredLayout> {
    let n = n64(model.data_chunks.len());
    let (descs_size, chunks_offset) = head(n);
    let mut layout = StoredLayout {
        chunk_descs_offset: fits("ChunkDescsOffset", n64(HEADER_SIZE))?,
        chunk_descs_data_size: fits("ChunkDescsDataSize", descs_size)?,
        chunks_offset: fits("ChunksOffset", chunks_offset)?,
        chunk_count: fits("ChunkCount", 4 * n)?,
        chunk_desc_entry_count: fits("ChunkDescs EntryCount", n)?,
        ..StoredLayout::default()
    };
    layout.data_chunks = vec![DataChunkLayout::default(); model.data_chunks.len()];
    let mut pos = chunks_offset;
    // Each chunk's start and size, by kind (NavigationGraph, NavmeshChunk, SegmentChunk,
    // SegmentGraph).
    let mut placed = vec![[(0u64, 0u32); 4]; model.data_chunks.len()];
    for kind in 0..4 {
        for (i, ((dc, d), at)) in model
            .data_chunks
            .iter()
            .zip(layout.data_chunks.iter_mut())
            .zip(placed.iter_mut())
            .enumerate()
        {
            let size = match kind {
                0 => navigation_graph(&dc.navigation_graph, d, record_offsets),
                1 => navmesh_chunk(&dc.navmesh_chunk, d, record_offsets),
                2 => segment_chunk(&dc.segment_chunk, d),
                _ => segment_graph(&dc.segment_graph, d),
            }
            .map_err(|e| e.within(format_args!("data_chunks[{i}]")))?;
            let next_chunk_offset = chunk_size(size, i, kind)?;
            if let Some(at) = at.get_mut(kind) {
                *at = (pos, next_chunk_offset);
            }
            if let Some(c) = d.chunks.get_mut(kind) {
                *c = ChunkLayout {
                    next_chunk_offset,
                    data_offset: 16,
                };
            }
            pos += size;
        }
    }
    layout.chunk_descs = chunk_descs(model, &placed)?;
    if !model.island_graphs.is_empty() {
        fits::<u8>("IslandGraphCount", n64(model.island_graphs.len()))?;
        layout.island_graphs_offset = fits("IslandGraphsOffset", pos)?;
        for (i, g) in model.island_graphs.iter().enumerate() {
            let (l, size) = island_graph(g, i)?;
            layout.island_graphs.push(l);
            pos += size;
        }
    }
    if let Some(ss) = &model.search_space {
        layout.search_space_offset = fits("SearchSpaceOffset", pos)?;
        let (l, size) = search_space(ss)?;
        layout.search_space = Some(l);
        pos += size;
    }
    if let Some(c) = &model.connect_tile_info {
        layout.connect_tile_info_offset = fits("ConnectTileInfoOffset", pos)?;
        let (l, size) = connect_tile_info(c)?;
        layout.connect_tile_info = Some(l);
        pos += a16(size);
    }
    layout.file_size = fits("FileSize", pos)?;
    layout.length = layout.file_size;
    Ok(layout)
}
