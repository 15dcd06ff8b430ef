//! The game's layout in one pass over the model: `write` for a model without a stored layout.
//!
//! The layout is not computed first. The output grows section by section, in file order: each
//! chunk is put at the end of the one before, its link blocks and mesh records one after the
//! other from the start of their list, and its offsets and size follow from what was put. The
//! ChunkHeaders, the NavigationGraph headers and the FileHeader with the ChunkDescs, which hold
//! sizes and offsets of what comes after them, are put last. The sizing pass this saves streamed
//! every NavigationGraph node and mesh of the model once more.
//!
//! The bytes are those of [`place`](super::place) with the layout `layout::compute` gives.
//! Anything out of range (a count, an offset, a size, a field's bits) makes this writer give up
//! without naming it; the caller then lays the model out with every offset listed, which names
//! the first field at fault.

use super::chunks::{
    ng_edges_and_attributes, ng_header, ng_node_in_place, not_running, segment_chunk, segment_graph,
};
use super::navmesh::{header_and_positions, mesh_in_place};
use super::sections::{connect_tile_info, island_graph, search_space};
use super::*;
use crate::records::HEADER_SIZE;
use layout::a16;

/// The most bytes one NavigationGraph node's link block takes: 255 inside links of 4 bytes and
/// the three crossing links (2 + 4 + 6).
const NG_BLOCK_MAX: usize = 4 * 255 + 12;

/// The most bytes one mesh record takes, padded: 4 sides, 4 nodes and the crossing part.
const MESH_RECORD_MAX: usize = 48;

/// How far past the last block put the output is grown at a time (zero-filled), while the
/// blocks of a list are put: enough for a few hundred typical blocks, and for the largest.
const ROOM: usize = 16 << 10;

/// The bytes of `m` laid out the game's way, in `buf`'s memory, or an error (not meant to be
/// shown) when something does not fit.
pub(super) fn place(m: &Nav2File, buf: Vec<u8>) -> Result<Vec<u8>> {
    let n = m.data_chunks.len();
    let (descs_size, chunks_offset) = layout::head(n as u64);
    let mut o = Out::growing(buf, estimate(m));
    let mut l = StoredLayout {
        chunk_descs_offset: to_u32(HEADER_SIZE as u64)?,
        chunk_descs_data_size: to_u32(descs_size)?,
        chunks_offset: to_u32(chunks_offset)?,
        chunk_count: to_u32(4 * n as u64)?,
        chunk_desc_entry_count: to_u32(n as u64)?,
        ..StoredLayout::default()
    };
    // Each chunk's start and size, by kind (NavigationGraph, NavmeshChunk, SegmentChunk,
    // SegmentGraph), for the ChunkDescs.
    let mut chunks = vec![[(0u64, 0u32); 4]; n];
    let mut scratch = DataChunkLayout::default();
    let mut navmesh_indices = Vec::new();
    let mut at = chunks_offset;
    for (kind, ty) in [(0usize, 0u32), (1, 1), (2, 4), (3, 3)] {
        for (i, (dc, placed)) in m.data_chunks.iter().zip(chunks.iter_mut()).enumerate() {
            let p = at + 16;
            let size = match kind {
                0 => navigation_graph(&mut o, p, &dc.navigation_graph, &mut navmesh_indices)?,
                1 => navmesh_chunk(&mut o, p, &dc.navmesh_chunk)?,
                2 => {
                    let size = layout::segment_chunk(&dc.segment_chunk, &mut scratch)?;
                    segment_chunk(&mut o, p, &dc.segment_chunk, &scratch)?;
                    size
                }
                _ => {
                    let size = layout::segment_graph(&dc.segment_graph, &mut scratch)?;
                    segment_graph(&mut o, p, &dc.segment_graph, &scratch)?;
                    size
                }
            };
            let size = layout::chunk_size(size, i, kind)?;
            let head = ChunkHeader {
                chunk_type: U32::new(ty),
                next_chunk_offset: U32::new(size),
                data_offset: U32::new(16),
                uid: U32::new(dc.uid.0),
            };
            o.put(at, &head, "ChunkHeader")?;
            if let Some(c) = placed.get_mut(kind) {
                *c = (at, size);
            }
            at += u64::from(size);
        }
    }
    l.chunk_descs = layout::chunk_descs(m, &chunks)?;
    if !m.island_graphs.is_empty() {
        l.island_graphs_offset = to_u32(at)?;
        for (i, g) in m.island_graphs.iter().enumerate() {
            let (gl, size) = layout::island_graph(g, i)?;
            island_graph(&mut o, at, g, &gl)?;
            at += size;
        }
    }
    if let Some(ss) = &m.search_space {
        l.search_space_offset = to_u32(at)?;
        let (sl, size) = layout::search_space(ss)?;
        search_space(&mut o, at, ss, &sl)?;
        at += size;
    }
    if let Some(c) = &m.connect_tile_info {
        l.connect_tile_info_offset = to_u32(at)?;
        let (cl, size) = layout::connect_tile_info(c)?;
        connect_tile_info(&mut o, at, c, &cl)?;
        at += a16(size);
    }
    let end = usize::try_from(at)
        .ok()
        .filter(|e| *e <= MAX_FILE_LEN)
        .ok_or_else(|| not_running("file length"))?;
    l.file_size = to_u32(at)?;
    l.length = l.file_size;
    file_head(&mut o, m, &l)?;
    // The room grown past the last block is cut off; what is short of the end (the padding of
    // the last section) is zeros.
    o.buf.resize(end, 0);
    Ok(o.buf)
}

fn to_u32(v: u64) -> Result<u32> {
    u32::try_from(v).map_err(|_| not_running("offset"))
}

/// A little over the file's length, from the model's counts alone (what the blocks take is
/// guessed from the game's files), so that the output is seldom grown past its first
/// allocation: the guess is within 12 % of the length of every real file, and a quarter more
/// is allowed.
fn estimate(m: &Nav2File) -> usize {
    let mut bytes = HEADER_SIZE + 36 * m.data_chunks.len() + 64;
    for dc in &m.data_chunks {
        let g = &dc.navigation_graph;
        let c = &dc.navmesh_chunk;
        bytes += 4 * 64
            + (6 + 6 + 2 + 10) * g.nodes.len()
            + 6 * g.edges.len()
            + 2 * g.attributes.len()
            + 6 * c.positions.len()
            + (4 + 32) * c.meshes.len()
            + 24 * dc.segment_chunk.segments.len()
            + (6 + 12 + 16) * dc.segment_graph.nodes.len();
    }
    for g in &m.island_graphs {
        bytes += 64 + 40 * g.nodes.len() + 4 * g.connect_side_infos.len();
    }
    bytes.saturating_add(bytes / 4).min(MAX_FILE_LEN)
}

/// A NavigationGraph chunk's payload at `p`: its size with the chunk header.
///
/// The positions and node records have their places before the link blocks; the NavmeshIndices,
/// after the edges and attributes, have theirs only once the blocks are put, so they are
/// gathered in `navmesh_indices` on the way and put after.
fn navigation_graph(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    navmesh_indices: &mut Vec<U16>,
) -> Result<u64> {
    let n = g.nodes.len();
    let array = a16(6 * n as u64);
    let (pos, nodes, link) = (48u64, 48 + array, 48 + 2 * array);
    let (head_len, records_at) = (to_usize(link - pos)?, to_usize(nodes - pos)?);
    navmesh_indices.clear();
    // The running offset of the next block, in 2-byte units, and whether any node did not fit.
    let (mut units, mut differs, mut done) = (0u32, 0u32, 0usize);
    while done < n {
        let before = done;
        let (head, mut rest) = batch(o, p + pos, head_len, units)?;
        let (positions, records) = head.split_at_mut(records_at.min(head.len()));
        let (Ok((positions, _)), Ok((records, _))) = (
            <[PositionRecord]>::mut_from_prefix_with_elems(positions, n),
            <[NavigationGraphNodeRecord]>::mut_from_prefix_with_elems(records, n),
        ) else {
            return Err(not_running("NavigationGraph"));
        };
        let todo = g
            .nodes
            .iter()
            .zip(positions.iter_mut())
            .zip(records.iter_mut());
        for ((node, pr), rr) in todo.skip(done) {
            if rest.len() < NG_BLOCK_MAX {
                break;
            }
            differs |= units >> 16;
            let Some(len) = ng_node_in_place(node, units, pr, rr, &mut rest) else {
                differs = 1;
                break;
            };
            navmesh_indices.push(U16::new(node.navmesh_index));
            units = units.saturating_add(len);
            done += 1;
        }
        // A batch that put nothing (which the room grown makes impossible) ends the pass too.
        if differs != 0 || done == before {
            return Err(not_running("NavigationGraph"));
        }
    }
    let (offsets, size) = layout::ng_sections(
        n as u64,
        2 * u64::from(units),
        g.edges.len() as u64,
        g.attributes.len() as u64,
    );
    let [_, _, edges, _, attr, nmi] = offsets;
    ng_header(o, p, g, u32s(offsets)?)?;
    o.put(p + nmi, navmesh_indices.as_slice(), "NavmeshIndices")?;
    ng_edges_and_attributes(o, p, g, to_u32(edges)?, to_u32(attr)?)?;
    Ok(size)
}

/// A NavmeshChunk's payload at `p`: its size with the chunk header. Every offset but the end of
/// the mesh records is known before them.
fn navmesh_chunk(o: &mut Out<'_>, p: u64, c: &NavmeshChunk) -> Result<u64> {
    let n = c.meshes.len();
    let meshes = 32 + a16(6 * c.positions.len() as u64);
    let data = meshes + 4 * n as u64;
    header_and_positions(o, p, c, [32, to_u32(meshes)?, to_u32(data)?])?;
    let words_len = to_usize(data - meshes)?;
    let (mut units, mut differs, mut done) = (0u32, 0u32, 0usize);
    while done < n {
        let before = done;
        let (words, mut rest) = batch(o, p + meshes, words_len, units)?;
        let Ok((words, _)) = <[U32]>::mut_from_prefix_with_elems(words, n) else {
            return Err(not_running("NavmeshChunk"));
        };
        for (m, w) in c.meshes.iter().zip(words.iter_mut()).skip(done) {
            if rest.len() < MESH_RECORD_MAX {
                break;
            }
            differs |= units >> 18;
            let Some(len) = mesh_in_place(m, units, w, &mut rest) else {
                differs = 1;
                break;
            };
            units = units.saturating_add(len);
            done += 1;
        }
        // A batch that put nothing (which the room grown makes impossible) ends the pass too.
        if differs != 0 || done == before {
            return Err(not_running("NavmeshChunk"));
        }
    }
    let (_, size) = layout::nm_sections(c.positions.len() as u64, n as u64, 2 * u64::from(units));
    Ok(size)
}

/// The next batch of a list of blocks: the `head_len` bytes at `at` that come before the
/// blocks (the arrays of fixed-size records), and the room after the `units` 2-byte units of
/// blocks already put, grown by [`ROOM`] bytes.
fn batch<'o>(
    o: &'o mut Out<'_>,
    at: u64,
    head_len: usize,
    units: u32,
) -> Result<(&'o mut [u8], &'o mut [u8])> {
    let written = 2 * units as usize;
    let whole = o.slot(at, head_len + written + ROOM, "blocks")?;
    let (head, rest) = whole.split_at_mut(head_len.min(whole.len()));
    let room = rest
        .get_mut(written..)
        .ok_or_else(|| not_running("blocks"))?;
    Ok((head, room))
}

fn u32s<const N: usize>(values: [u64; N]) -> Result<[u32; N]> {
    let mut out = [0u32; N];
    for (o, v) in out.iter_mut().zip(values) {
        *o = to_u32(v)?;
    }
    Ok(out)
}

fn to_usize(v: u64) -> Result<usize> {
    usize::try_from(v).map_err(|_| not_running("offset"))
}
