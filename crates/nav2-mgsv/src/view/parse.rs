//! The parser: one function per section of the file, each reading its records through a
//! [`Reader`] that bounds them to their region and claims their bytes in the coverage map.

use core::fmt;

use nav_core::scalar::U32;
use nav_core::{Cursor, Error, ErrorKind, Result};

use super::reader::Reader;
use super::*;
use crate::FORMAT;
use crate::coverage::Coverage;

/// Parses a whole file: the FileHeader, the ChunkDescs, the chunks, the IslandGraphs, the
/// SearchSpace and the ConnectTileInfo, then the residue of bytes no record claimed.
///
/// The first pass claims bytes in the quick coverage map; when it fails or finds an overlap, a
/// second pass in the exact map names the first record at fault.
pub(super) fn file(data: &[u8]) -> Result<Nav2View<'_>> {
    let mut cov = Coverage::new(data.len());
    if let Ok(mut view) = sections(data, &mut cov) {
        if let Ok(residue) = cov.residue(data) {
            view.residue = residue;
            return Ok(view);
        }
    }
    exact(data)
}

/// The exact pass alone: one bit per byte, every overlap refused at the record that makes it.
fn exact(data: &[u8]) -> Result<Nav2View<'_>> {
    let mut cov = Coverage::exact(data.len());
    let mut view = sections(data, &mut cov)?;
    view.residue = cov.residue(data).map_err(|_| {
        Error::invalid(
            FORMAT,
            "file",
            0,
            "records overlap (found only by the quick check)",
        )
    })?;
    Ok(view)
}

/// Every section, claiming the bytes of each record in `cov`; the residue is left empty.
fn sections<'a>(data: &'a [u8], cov: &mut Coverage) -> Result<Nav2View<'a>> {
    let header = file_header(data)?;
    // The header, without its padding fields.
    for (start, end) in [(0, 0x30), (0x34, 0x3c), (0x44, 0x4f), (0x50, 0x60)] {
        cov.mark(start, end - start, "FileHeader")?;
    }
    let mut r = Reader {
        data,
        end: data.len(),
        what: "file",
        cov,
    };
    let (entry_count, chunk_descs) = chunk_descs(&mut r, header)?;
    section_offsets(header, data.len())?;
    let data_chunks = chunks(&mut r, header)?;
    let island_graphs = island_graphs(&mut r, header)?;
    let search_space = match header.search_space_offset.get() as usize {
        0 => None,
        at => Some(search_space(&mut r, at).map_err(|e| e.within("SearchSpace"))?),
    };
    let connect_tile_info = match header.connect_tile_info_offset.get() as usize {
        0 => None,
        at => Some(connect_tile_info(&mut r, at).map_err(|e| e.within("ConnectTileInfo"))?),
    };
    Ok(Nav2View {
        length: data.len(),
        header,
        chunk_desc_entry_count: entry_count,
        chunk_descs,
        data_chunks,
        island_graphs,
        search_space,
        connect_tile_info,
        residue: Vec::new(),
    })
}

/// The FileHeader: the size limit, the version, the 96 bytes.
fn file_header(data: &[u8]) -> Result<&FileHeader> {
    if data.len() > MAX_FILE_LEN {
        return Err(Error::invalid(
            FORMAT,
            "file",
            0,
            format_args!(
                "{} bytes is more than the {MAX_FILE_LEN} bytes this crate reads",
                data.len()
            ),
        ));
    }
    let mut top = Cursor::new(FORMAT, data);
    if let Ok(v) = top.clone().u32("FileHeader Version") {
        if v != VERSION && v != VERSION_OLD {
            return Err(Error::new(
                FORMAT,
                "FileHeader Version",
                ErrorKind::UnsupportedVersion {
                    offset: 0,
                    version: u64::from(v),
                    supported: format!("{VERSION} or {VERSION_OLD}"),
                },
            ));
        }
    }
    top.read("FileHeader")
}

/// The ChunkDescs: EntryCount, then 3 · EntryCount descriptors whose DataOffset must stay in the
/// file.
fn chunk_descs<'a>(
    r: &mut Reader<'a, '_>,
    header: &FileHeader,
) -> Result<(u32, &'a [ChunkDescRecord])> {
    let descs_at = header.chunk_descs_offset.get() as usize;
    let entry_count: &U32 = r.read(descs_at, "ChunkDescs EntryCount")?;
    let desc_count = u64::from(entry_count.get()) * 3;
    let at = descs_at.saturating_add(4);
    let chunk_descs = r
        .cursor(at, "ChunkDescs")?
        .slice::<ChunkDescRecord>(desc_count, "ChunkDescs")?;
    r.mark(at, core::mem::size_of_val(chunk_descs), "ChunkDescs")?;
    for (i, d) in chunk_descs.iter().enumerate() {
        within(
            u64::from(d.data_offset.get()),
            r.data.len(),
            descs_at.saturating_add(4 + 12 * i + 4),
            At("ChunkDescs", i, " DataOffset"),
            "file",
        )?;
    }
    Ok((entry_count.get(), chunk_descs))
}

/// The header's offsets that the parser does not follow as such but that must stay in the file.
fn section_offsets(header: &FileHeader, len: usize) -> Result<()> {
    within(
        u64::from(header.chunks_offset.get()),
        len,
        0x08,
        "FileHeader ChunksOffset",
        "file",
    )?;
    within(
        u64::from(header.island_graphs_offset.get()),
        len,
        0x18,
        "FileHeader IslandGraphsOffset",
        "file",
    )
}

/// The chunks, stored by type (every NavigationGraph, then every NavmeshChunk, SegmentChunk and
/// SegmentGraph), walked by NextChunkOffset from ChunksOffset and put back together per
/// DataChunkUid.
fn chunks<'a>(r: &mut Reader<'a, '_>, header: &FileHeader) -> Result<Vec<DataChunkView<'a>>> {
    let data = r.data;
    let chunk_count = header.chunk_count.get();
    if chunk_count % 4 != 0 {
        return Err(Error::invalid(
            FORMAT,
            "FileHeader ChunkCount",
            0x0c,
            format!("{chunk_count} is not a multiple of 4 (four chunks per DataChunkUid)"),
        ));
    }
    // Every chunk takes at least its 16-byte header.
    let groups = Cursor::at(FORMAT, data, 0x0c, "FileHeader ChunkCount")?.count(
        chunk_count,
        16,
        "FileHeader ChunkCount",
    )? / 4;
    let mut at = header.chunks_offset.get() as usize;
    let mut ngs = Vec::with_capacity(groups);
    let mut nms = Vec::with_capacity(groups);
    let mut scs = Vec::with_capacity(groups);
    let mut sgs = Vec::with_capacity(groups);
    let mut heads: Vec<[Option<&ChunkHeader>; 4]> = vec![[None; 4]; groups];
    const TYPES: [(u32, &str); 4] = [
        (0, "NavigationGraph"),
        (1, "NavmeshChunk"),
        (4, "SegmentChunk"),
        (3, "SegmentGraph"),
    ];
    for i in 0..chunk_count as usize {
        let kind = i / groups.max(1);
        let group = i % groups.max(1);
        let (ty, ty_name) = TYPES.get(kind).copied().unwrap_or((0, "?"));
        let ctx = ChunkCtx { index: i, ty_name };
        let head: &ChunkHeader = r.read(at, ctx)?;
        if head.chunk_type.get() != ty {
            return Err(Error::invalid(
                FORMAT,
                ctx,
                at,
                format!(
                    "type {} where the type-major order puts a {ty_name} (type {ty})",
                    head.chunk_type.get()
                ),
            ));
        }
        if let Some(first) = heads.get(group).and_then(|h| h[0]) {
            if first.uid != head.uid {
                return Err(Error::invalid(
                    FORMAT,
                    ctx,
                    at.saturating_add(12),
                    format!(
                        "DataChunkUid {:#x} differs from the {:#x} of the NavigationGraph in the same position",
                        head.uid.get(),
                        first.uid.get()
                    ),
                ));
            }
        }
        if let Some(h) = heads.get_mut(group).and_then(|h| h.get_mut(kind)) {
            *h = Some(head);
        }
        let size = head.next_chunk_offset.get() as usize;
        let data_offset = head.data_offset.get() as usize;
        if size < 16 || size > data.len().saturating_sub(at) {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at.saturating_add(4),
                size as u64,
                format!(
                    "not a chunk size: it must be at least 16 and stay inside the {}-byte file",
                    data.len()
                ),
            ));
        }
        if data_offset < 16 || data_offset > size {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at.saturating_add(8),
                data_offset as u64,
                format!("not a payload start inside the {size}-byte chunk"),
            ));
        }
        let end = at + size;
        let p = at + data_offset;
        let mut cr = Reader {
            data,
            end,
            what: ty_name,
            cov: &mut *r.cov,
        };
        let res = match kind {
            0 => navigation_graph(&mut cr, p).map(|v| ngs.push(v)),
            1 => navmesh_chunk(&mut cr, p).map(|v| nms.push(v)),
            2 => segment_chunk(&mut cr, p).map(|v| scs.push(v)),
            _ => segment_graph(&mut cr, p).map(|v| sgs.push(v)),
        };
        res.map_err(|e| e.within(ctx))?;
        at = end;
    }
    let mut data_chunks = Vec::with_capacity(groups);
    for ((((ng, nm), sc), sg), h) in ngs.into_iter().zip(nms).zip(scs).zip(sgs).zip(heads) {
        if let [Some(a), Some(b), Some(c), Some(d)] = h {
            data_chunks.push(DataChunkView {
                headers: [a, b, c, d],
                navigation_graph: ng,
                navmesh_chunk: nm,
                segment_chunk: sc,
                segment_graph: sg,
            });
        }
    }

    Ok(data_chunks)
}

/// The IslandGraphs: IslandGraphCount graphs back to back from IslandGraphsOffset, each bounded
/// by its NextGraphOffset.
fn island_graphs<'a>(
    r: &mut Reader<'a, '_>,
    header: &FileHeader,
) -> Result<Vec<IslandGraphView<'a>>> {
    let data = r.data;
    let graph_count = header.island_graph_count as usize;
    let mut island_graphs = Vec::with_capacity(graph_count);
    let mut at = header.island_graphs_offset.get() as usize;
    if graph_count > 0 && at == 0 {
        return Err(Error::bad_offset(
            FORMAT,
            "FileHeader IslandGraphsOffset",
            0x18,
            0,
            format!("0 while IslandGraphCount is {graph_count}"),
        ));
    }
    for g in 0..graph_count {
        let ctx = At("IslandGraphs", g, "");
        let head: &IslandGraphHeader = r.read(at, ctx)?;
        let size = usize::from(head.next_graph_offset());
        if size < 16 || size > data.len().saturating_sub(at) {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at,
                size as u64,
                "not a graph size: it must be at least 16 and stay inside the file",
            ));
        }
        let mut gr = Reader {
            data,
            end: at + size,
            what: "IslandGraph",
            cov: &mut *r.cov,
        };
        island_graphs.push(island_graph(&mut gr, at, head).map_err(|e| e.within(ctx))?);
        at += size;
    }

    Ok(island_graphs)
}

/// `list[index]what`, built only when an error is.
#[derive(Clone, Copy)]
struct At(&'static str, usize, &'static str);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]{}", self.0, self.1, self.2)
    }
}

#[derive(Clone, Copy)]
struct ChunkCtx {
    index: usize,
    ty_name: &'static str,
}

impl fmt::Display for ChunkCtx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chunks[{}] ({})", self.index, self.ty_name)
    }
}

fn add(base: usize, off: impl Into<u64>, field: impl fmt::Display) -> Result<usize> {
    let off: u64 = off.into();
    usize::try_from(off)
        .ok()
        .and_then(|o| base.checked_add(o))
        .ok_or_else(|| Error::bad_offset(FORMAT, field, base, off, "too large"))
}

/// Refuses a stored offset or size that the parser does not follow but that must still point
/// inside `limit` bytes.
fn within(
    target: u64,
    limit: usize,
    stored_at: usize,
    field: impl fmt::Display,
    what: &str,
) -> Result<()> {
    if target > limit as u64 {
        return Err(Error::bad_offset(
            FORMAT,
            field,
            stored_at,
            target,
            format_args!("past the end of the {what} ({limit:#x})"),
        ));
    }
    Ok(())
}

fn navigation_graph<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<NavigationGraphView<'a>> {
    let header: &NavigationGraphHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 16), (24, 28), (32, 40), (46, 48)] {
        r.mark(p + s, e - s, "header")?;
    }
    let n = usize::from(header.node_count.get());
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        n,
        "Positions",
    )?;
    let nodes: &[NavigationGraphNodeRecord] = r.slice(
        add(p, header.nodes_offset.get(), "NodesOffset")?,
        n,
        "Nodes",
    )?;
    let link_base = add(p, header.link_data_offset.get(), "LinkDataOffset")?;
    // Each link block is checked and claimed whole; the view decodes it again from its node.
    // The blocks are packed the game's way when every one follows the one before from offset 0,
    // and no node uses the upper offset bits (which `from_view` reads as the game's writer
    // would give them: past 16 bits of 2-byte units).
    let mut upper = 0;
    let (done, mut run, packed) = r.claim_prefix::<1>(
        link_base,
        nodes.iter().map(|n| {
            upper |= n.link_data_offset_upper();
            (n.link_block_offset(), n.link_block_len())
        }),
        "link blocks",
    )?;
    let packed_links = packed.filter(|_| done == n && upper == 0);
    let mut ctx = At("Nodes", 0, " link block");
    for (i, node) in nodes.iter().enumerate().skip(done) {
        ctx.1 = i;
        let at = add(link_base, node.link_block_offset() as u64, ctx)?;
        let len = node.link_block_len();
        r.claim_in_run(&mut run, at, len, ctx)?;
    }
    r.end_run(&run, "link blocks")?;
    let edges = r.slice(
        add(p, header.edges_offset.get(), "EdgesOffset")?,
        usize::from(header.edge_count.get()),
        "Edges",
    )?;
    let attributes = r.slice(
        add(p, header.attributes_offset.get(), "AttributesOffset")?,
        usize::from(header.attributes_count.get()),
        "Attributes",
    )?;
    let navmesh_indices = r.slice(
        add(
            p,
            header.navmesh_indices_offset.get(),
            "NavmeshIndicesOffset",
        )?,
        n,
        "NavmeshIndices",
    )?;
    Ok(NavigationGraphView {
        header,
        positions,
        nodes,
        link_data: r.region_from(link_base),
        edges,
        attributes,
        navmesh_indices,
        packed_links,
    })
}

fn navmesh_chunk<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<NavmeshChunkView<'a>> {
    let header: &NavmeshChunkHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 12), (24, 28)] {
        r.mark(p + s, e - s, "header")?;
    }
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        usize::from(header.position_count.get()),
        "Positions",
    )?;
    let meshes: &[MeshRecord] = r.slice(
        add(p, header.meshes_offset.get(), "MeshesOffset")?,
        usize::from(header.mesh_count.get()),
        "Meshes",
    )?;
    let base = add(p, header.mesh_data_offset.get(), "MeshDataOffset")?;
    let region = r.region_from(base);
    let (done, mut run, packed) = r.claim_prefix::<16>(
        base,
        meshes.iter().map(|m| {
            let off = m.data_offset() as usize * 2;
            (off, m.record_len_in(region).unwrap_or(usize::MAX))
        }),
        "mesh records",
    )?;
    let packed_records = packed.filter(|_| done == meshes.len());
    let mut ctx = At("Meshes", 0, " record");
    for (i, m) in meshes.iter().enumerate().skip(done) {
        ctx.1 = i;
        let at = add(base, u64::from(m.data_offset()) * 2, ctx)?;
        // The record straight from the region's bytes when it is all there; the cursor names
        // what is missing otherwise.
        let rest = r.data.get(at..r.end).unwrap_or(&[]);
        let len = m.record_len_in(region).unwrap_or(usize::MAX);
        if len > rest.len() {
            let k = 3 + usize::from(m.use_4_neighbor_infos());
            let nn = 3 + usize::from(m.use_4_navigation_graph_nodes());
            let mut c = r.cursor(at, ctx)?;
            let neighbors: &[U16] = c.slice(k, ctx)?;
            c.bytes(k + nn, ctx)?;
            if needs_crossing(neighbors) {
                c.slice::<U16>(2 * k, ctx)?;
            }
        }
        r.claim_in_run(&mut run, at, len, ctx)?;
    }
    r.end_run(&run, "mesh records")?;
    Ok(NavmeshChunkView {
        header,
        positions,
        meshes,
        mesh_data: r.region_from(base),
        packed_records,
    })
}

fn segment_chunk<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<SegmentChunkView<'a>> {
    let header: &SegmentChunkHeader = r.read(p, "header")?;
    within(
        (p as u64).saturating_add(u64::from(header.self_size.get())),
        r.end,
        p + 8,
        "SelfSize",
        "chunk",
    )?;
    let n = header.segment_count.get() as usize;
    let bounds = r.slice(
        add(p, header.bounds_offset.get(), "BoundsOffset")?,
        n,
        "Bounds",
    )?;
    let segments = r.slice(
        add(p, header.segments_offset.get(), "SegmentsOffset")?,
        n,
        "Segments",
    )?;
    Ok(SegmentChunkView {
        header,
        bounds,
        segments,
    })
}

fn segment_graph<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<SegmentGraphView<'a>> {
    let header: &SegmentGraphHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 12), (16, 22), (26, 28)] {
        r.mark(p + s, e - s, "header")?;
    }
    within(
        (p as u64).saturating_add(u64::from(header.self_size.get())),
        r.end,
        p + 16,
        "SelfSize",
        "chunk",
    )?;
    let n = usize::from(header.node_count.get());
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        n,
        "Positions",
    )?;
    let nodes: &[SegmentGraphNodeRecord] = r.slice(
        add(p, header.nodes_offset.get(), "NodesOffset")?,
        n,
        "Nodes",
    )?;
    let base = add(p, header.link_data_offset.get(), "LinkDataOffset")?;
    for (i, node) in nodes.iter().enumerate() {
        let ctx = At("Nodes", i, " link block");
        let mut at = add(base, u64::from(node.link_data_offset()) * 2, ctx)?;
        let inside_links: &[SegmentGraphInsideLinkRecord] =
            r.slice(at, usize::from(node.inside_link_count()), ctx)?;
        at += inside_links.len() * 6;
        let crossing_data_chunk_links: &[SegmentGraphCrossingDataChunkLinkRecord] =
            r.slice(at, usize::from(node.crossing_data_chunk_link_count), ctx)?;
        at += crossing_data_chunk_links.len() * 8;
        let crossing_tile_links: &[SegmentGraphCrossingTileLinkRecord] =
            r.slice(at, usize::from(node.crossing_tile_link_count), ctx)?;
        at += crossing_tile_links.len() * 10;
        let total =
            sg_node_index_total(inside_links, crossing_data_chunk_links, crossing_tile_links);
        r.slice::<u8>(at, total, ctx)?;
    }
    Ok(SegmentGraphView {
        header,
        positions,
        nodes,
        link_data: r.region_from(base),
    })
}

fn island_graph<'a>(
    r: &mut Reader<'a, '_>,
    g: usize,
    header: &'a IslandGraphHeader,
) -> Result<IslandGraphView<'a>> {
    let w = |i: usize| header.words.get(i).map_or(0, |v| v.get());
    let n = usize::from(header.node_count());
    let nodes: &[IslandGraphNodeRecord] = r.slice(add(g, w(1), "NodesOffset")?, n, "Nodes")?;
    let base = add(g, w(3), "LinkDataOffset")?;
    for (i, node) in nodes.iter().enumerate() {
        let ctx = At("Nodes", i, " link block");
        let at = add(base, node.link_data_offset.get(), ctx)?;
        let len = 8 * usize::from(node.crossing_data_chunk_link_count)
            + 4 * usize::from(node.inside_link_count)
            + 2 * usize::from(node.crossing_tile_link_count.get());
        r.slice::<u8>(at, len, ctx)?;
    }
    let low_graph_node_links = r.slice(
        add(g, w(4), "LowGraphNodeLinksOffset")?,
        n,
        "LowGraphNodeLinks",
    )?;
    let segment_counts = r.slice(add(g, w(5), "SegmentCountsOffset")?, n, "SegmentCounts")?;
    let connect_side_info_groups: &[ConnectSideInfoGroupRecord; 4] = r.read(
        add(g, w(6), "ConnectSideInfoGroupsOffset")?,
        "ConnectSideInfoGroups",
    )?;
    let info_count: usize = connect_side_info_groups
        .iter()
        .map(|c| usize::from(c.count.get()))
        .sum();
    let connect_side_infos = r.slice(
        add(g, w(7), "ConnectSideInfosOffset")?,
        info_count,
        "ConnectSideInfos",
    )?;
    Ok(IslandGraphView {
        header,
        nodes,
        link_data: r.region_from(base),
        low_graph_node_links,
        segment_counts,
        connect_side_info_groups,
        connect_side_infos,
    })
}

fn search_space<'a>(r: &mut Reader<'a, '_>, s: usize) -> Result<SearchSpaceView<'a>> {
    let header: &SearchSpaceHeader = r.cursor(s, "header")?.read("header")?;
    r.mark(s, 14, "header")?;
    r.mark(s + 16, 32, "header")?;
    let bucket_count = header
        .block_count
        .iter()
        .try_fold(1u64, |acc, c| acc.checked_mul(u64::from(c.get())))
        .unwrap_or(u64::MAX);
    within(
        (s as u64).saturating_add(u64::from(header.bucket_entries_offset.get())),
        r.end,
        s + 40,
        "BucketEntriesOffset",
        "file",
    )?;
    let descs_at = add(s, header.bucket_descs_offset.get(), "BucketDescsOffset")?;
    let bucket_descs: &[BucketDescRecord] = {
        let c = r
            .cursor(descs_at, "BucketDescs")?
            .slice::<BucketDescRecord>(bucket_count, "BucketDescs (BlockCountX · Y · Z)")?;
        r.mark(descs_at, core::mem::size_of_val(c), "BucketDescs")?;
        c
    };
    let mut entries = Vec::new();
    for (i, d) in bucket_descs.iter().enumerate() {
        let ctx = At("BucketDescs", i, " entries");
        let mut at = add(descs_at + 8 * i, d.start_offset.get(), ctx)?;
        let count = usize::from(d.count.get());
        // Each entry takes at least 8 bytes; refuse a count the input cannot hold before
        // reserving room for it.
        r.cursor(at, ctx)?.count(count, 8, ctx)?;
        entries.reserve(count);
        for _ in 0..count {
            let head: &BucketEntryRecord = r.read(at, ctx)?;
            at += 8;
            let segment_indices: &[U16] = r.slice(at, head.segment_count.get() as usize, ctx)?;
            at += segment_indices.len() * 2;
            entries.push(BucketEntryView {
                head,
                segment_indices,
            });
        }
    }
    Ok(SearchSpaceView {
        header,
        bucket_descs,
        entries,
    })
}

fn connect_tile_info<'a>(r: &mut Reader<'a, '_>, c: usize) -> Result<ConnectTileInfoView<'a>> {
    let header: &ConnectTileInfoHeader = r.read(c, "header")?;
    let w = |i: usize| header.words.get(i).map_or(0, |v| u64::from(v.get()));
    let count = |i: usize| header.words.get(i).map_or(0, |v| usize::from(v.get()));
    let groups = r.slice(add(c, w(0) * 2, "GroupsOffset")?, count(3), "Groups")?;
    let infos = r.slice(add(c, w(1) * 2, "InfosOffset")?, count(4), "Infos")?;
    let nodes = r.slice(add(c, w(2) * 2, "NodesOffset")?, count(5), "Nodes")?;
    Ok(ConnectTileInfoView {
        header,
        groups,
        infos,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    // Test code: a panic is a failed test.
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The quick pass (runs of records, ranges) and the exact pass (one bit per byte) give the
    /// same view or the same error: on every real file, and on copies of each with one byte
    /// changed every 997 bytes in turn (a padding byte made non-zero, an offset or a count
    /// broken).
    #[test]
    fn the_quick_and_the_exact_pass_agree() {
        let mut files = 0;
        let (mut compared, mut refused, mut with_residue) = (0, 0, 0);
        for (_, path) in nav_core::testing::real_files("mgsv") {
            let good = std::fs::read(&path).unwrap();
            let mut inputs = vec![good.clone()];
            for at in (0..good.len()).step_by(997) {
                let mut b = good.clone();
                b[at] ^= 0x5a;
                inputs.push(b);
            }
            for b in &inputs {
                // The two passes build the same records; they can differ only in the residue
                // and in whether (and where) they refuse the input.
                let residue = |v: Nav2View<'_>| format!("{:?}", v.residue());
                let quick = file(b).map(residue).map_err(|e| e.to_string());
                let exact = exact(b).map(residue).map_err(|e| e.to_string());
                assert_eq!(quick, exact, "{}", path.display());
                match &quick {
                    Err(_) => refused += 1,
                    Ok(r) if r != "[]" => with_residue += 1,
                    Ok(_) => {}
                }
                compared += 1;
            }
            files += 1;
        }
        eprintln!(
            "compared {compared} inputs from {files} files: {refused} refused, {with_residue} \
             with residue"
        );
        if nav_core::testing::corpus_dir("mgsv").is_some() {
            // The changed bytes reach both outcomes the passes could disagree on.
            assert!(files > 0 && refused > 0 && with_residue > 0);
        }
    }
}
