//! The writer.
//!
//! Two phases: first the layout (the stored one of a parsed file, or the game's layout that
//! [`crate::model::layout::compute`] derives from the model), then every record is placed at the
//! offset that layout gives it, in a buffer of the file's length. Bit fields and counts are
//! narrowed with an error naming the field, never wrapped.
//!
//! A stored layout (a file not laid out the way the game does, such as Obj2Nav2 output) is taken
//! at its word only while it describes the model: the writer parses what it placed and keeps it
//! when it reads back as the same model, so an unedited file, or one whose edits keep every
//! offset (a moved position), is written byte for byte. An edit the stored offsets cannot hold (a
//! node or a mesh more) makes the writer lay the model out the game's way instead, recomputing
//! every offset, size, count and prefix sum; reading that back gives the model with
//! `stored: None`, as [`Nav2File::relayout`] would.

use core::fmt;

use nav_core::{Error, Result};

use crate::FORMAT;
use crate::model::layout;
use crate::model::*;
use nav_core::scalar::{U16, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use crate::records::*;
use crate::view::Nav2View;

/// Serialises a model: [`Nav2File::write`].
#[deprecated(note = "use Nav2File::write")]
pub fn write(model: &Nav2File) -> Result<Vec<u8>> {
    model.write()
}

impl Nav2File {
    /// The file's bytes: laid out with the stored layout while it still describes the model
    /// (a file read and left as it was gives its bytes back), else the way the game lays files
    /// out. Refuses, naming the field, what the format cannot hold.
    pub fn write(&self) -> Result<Vec<u8>> {
        to_bytes(self)
    }

    /// Writes the file's bytes to `out` in one `write_all`. A model the format cannot hold fails
    /// with [`std::io::ErrorKind::InvalidData`] and the [`nav_core::Error`] inside.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let bytes = self
            .write()
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        out.write_all(&bytes)
    }
}

fn to_bytes(model: &Nav2File) -> Result<Vec<u8>> {
    if model.version != VERSION && model.version != VERSION_OLD {
        return Err(shape(
            "version",
            format!(
                "{} is not a version this crate reads ({VERSION} or {VERSION_OLD})",
                model.version
            ),
        ));
    }
    if let Some(out) = model.stored.as_deref().and_then(|s| stored_bytes(model, s)) {
        return Ok(out);
    }
    place(model, &layout::compute(model)?)
}

/// The bytes of `model` laid out with `stored`, when that layout still describes the model:
/// every record finds its place and the output reads back as this very model. `None` when the
/// model was edited past what the stored offsets can hold (or the layout is the game's own, which
/// a file does not keep), so that the writer lays the model out the game's way instead.
pub(crate) fn stored_bytes(model: &Nav2File, stored: &StoredLayout) -> Option<Vec<u8>> {
    let out = place(model, stored).ok()?;
    let view = Nav2View::parse(&out).ok()?;
    (Nav2File::from_view(&view) == *model).then_some(out)
}

/// A value that must fit `width` bits.
fn bits(value: u64, width: u32, field: impl fmt::Display) -> Result<u32> {
    if value >> width != 0 {
        return Err(Error::unrepresentable(
            FORMAT,
            field,
            format!("{value} does not fit the field's {width} bits"),
        ));
    }
    Ok(value as u32)
}

fn len_u8(n: usize, field: impl fmt::Display) -> Result<u8> {
    nav_core::write::narrow::<u8, usize>(FORMAT, field, n)
}

fn len_u16(n: usize, field: impl fmt::Display) -> Result<u16> {
    nav_core::write::narrow::<u16, usize>(FORMAT, field, n)
}

fn shape(field: impl fmt::Display, message: impl fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

/// The output buffer: records are put at absolute offsets, whole, as their zerocopy bytes. A
/// scratch buffer, reused, assembles the variable-length blocks.
struct Out {
    buf: Vec<u8>,
    scratch: Vec<u8>,
}

impl Out {
    /// The `len` bytes at `at`, or an error naming `field` when they are past the file.
    #[inline]
    fn slot(&mut self, at: u64, len: usize, field: impl fmt::Display) -> Result<&mut [u8]> {
        let total = self.buf.len();
        let range = usize::try_from(at)
            .ok()
            .and_then(|s| s.checked_add(len).map(|e| s..e));
        match range.and_then(|r| self.buf.get_mut(r)) {
            Some(slot) => Ok(slot),
            None => Err(past_the_file(field, len, at, total)),
        }
    }

    #[inline]
    fn put_bytes(&mut self, at: u64, bytes: &[u8], field: impl fmt::Display) -> Result<()> {
        self.slot(at, bytes.len(), field)?.copy_from_slice(bytes);
        Ok(())
    }

    /// One record (or a slice of records), as its bytes.
    #[inline]
    fn put<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        at: u64,
        value: &T,
        field: impl fmt::Display,
    ) -> Result<()> {
        self.put_bytes(at, value.as_bytes(), field)
    }

    /// `n` records at `at`, to be filled in place.
    #[inline]
    fn records<T: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned>(
        &mut self,
        at: u64,
        n: usize,
        field: impl fmt::Display,
    ) -> Result<&mut [T]> {
        let len = n.saturating_mul(core::mem::size_of::<T>());
        let slot = self.slot(at, len, &field)?;
        <[T]>::mut_from_bytes(slot).map_err(|_| shape(field, "records do not fit their type"))
    }

    /// The scratch buffer, emptied; give it back with [`Out::put_scratch`].
    fn take_scratch(&mut self) -> Vec<u8> {
        let mut b = core::mem::take(&mut self.scratch);
        b.clear();
        b
    }

    /// Puts the scratch buffer's bytes at `at` and keeps the buffer for the next block.
    fn put_scratch(&mut self, at: u64, b: Vec<u8>, field: impl fmt::Display) -> Result<()> {
        let r = self.put_bytes(at, &b, field);
        self.scratch = b;
        r
    }
}

#[cold]
fn past_the_file(field: impl fmt::Display, len: usize, at: u64, total: usize) -> Error {
    shape(
        field,
        format!(
            "{len} bytes at offset {at:#x} do not fit the {total}-byte file the layout describes"
        ),
    )
}

fn position(p: &Position) -> PositionRecord {
    PositionRecord {
        xyz: p.map(U16::new),
    }
}

fn pos_bytes(p: &Position) -> [u8; 6] {
    let mut b = [0u8; 6];
    for (i, v) in p.iter().enumerate() {
        if let Some(s) = b.get_mut(2 * i..2 * i + 2) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    }
    b
}

fn u16s(v: &[u16]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn words(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Puts every record of `m` where `l` says.
pub(crate) fn place(m: &Nav2File, l: &StoredLayout) -> Result<Vec<u8>> {
    let length = l.length as usize;
    if length > MAX_FILE_LEN {
        return Err(shape(
            "stored length",
            format!("{length} bytes is more than the {MAX_FILE_LEN} bytes this crate writes"),
        ));
    }
    if l.data_chunks.len() != m.data_chunks.len()
        || l.island_graphs.len() != m.island_graphs.len()
        || l.search_space.is_some() != m.search_space.is_some()
        || l.connect_tile_info.is_some() != m.connect_tile_info.is_some()
    {
        return Err(shape(
            "stored",
            "the stored layout has a different number of chunks or sections than the model",
        ));
    }
    let mut o = Out {
        buf: vec![0u8; length],
        scratch: Vec::with_capacity(64),
    };

    // FileHeader.
    let graph_count = len_u8(m.island_graphs.len(), "IslandGraphCount")?;
    let mut h = Vec::with_capacity(96);
    h.extend(words(&[
        m.version,
        l.file_size,
        l.chunks_offset,
        l.chunk_count,
        l.search_space_offset,
        m.file_uid.0,
        l.island_graphs_offset,
        m.unknown_crossing_tile_link_related,
    ]));
    h.extend(words(&m.origin.map(|f| f.0)));
    h.extend(words(&[
        l.connect_tile_info_offset,
        0,
        l.chunk_descs_offset,
        l.chunk_descs_data_size,
        0,
        0,
    ]));
    h.extend(u16s(&m.denominator));
    h.extend(m.weight_denominator.to_le_bytes());
    h.extend([m.feature_flags, graph_count, m.pre2014_unknown_index, 0]);
    h.extend(m.header_tail);
    o.put_bytes(0, &h, "FileHeader")?;

    // ChunkDescs.
    let descs_at = u64::from(l.chunk_descs_offset);
    o.put(
        descs_at,
        &U32::new(l.chunk_desc_entry_count),
        "ChunkDescs EntryCount",
    )?;
    let descs = o.records::<ChunkDescRecord>(descs_at + 4, l.chunk_descs.len(), "ChunkDescs")?;
    for (r, c) in descs.iter_mut().zip(&l.chunk_descs) {
        *r = ChunkDescRecord {
            uid: U32::new(c.uid.0),
            data_offset: U32::new(c.data_offset),
            type_and_size: U32::new(c.type_and_size),
        };
    }

    // Chunks, by type.
    let mut at = u64::from(l.chunks_offset);
    for (kind, ty) in [(0usize, 0u32), (1, 1), (2, 4), (3, 3)] {
        for (i, (dc, dl)) in m.data_chunks.iter().zip(&l.data_chunks).enumerate() {
            let c = dl.chunks.get(kind).copied().unwrap_or_default();
            let ctx = format_args!("data_chunks[{i}] chunk type {ty}");
            let head = ChunkHeader {
                chunk_type: U32::new(ty),
                next_chunk_offset: U32::new(c.next_chunk_offset),
                data_offset: U32::new(c.data_offset),
                uid: U32::new(dc.uid.0),
            };
            o.put(at, &head, ctx)?;
            let p = at + u64::from(c.data_offset);
            let r = match kind {
                0 => navigation_graph(&mut o, p, &dc.navigation_graph, dl),
                1 => navmesh_chunk(&mut o, p, &dc.navmesh_chunk, dl),
                2 => segment_chunk(&mut o, p, &dc.segment_chunk, dl),
                _ => segment_graph(&mut o, p, &dc.segment_graph, dl),
            };
            r.map_err(|e| e.within(format_args!("data_chunks[{i}] chunk type {ty}")))?;
            at += u64::from(c.next_chunk_offset);
        }
    }

    // IslandGraphs.
    let mut at = u64::from(l.island_graphs_offset);
    for (i, (g, gl)) in m.island_graphs.iter().zip(&l.island_graphs).enumerate() {
        island_graph(&mut o, at, g, gl).map_err(|e| e.within(format_args!("IslandGraphs[{i}]")))?;
        at += u64::from(gl.offsets[0]);
    }

    if let (Some(ss), Some(sl)) = (&m.search_space, &l.search_space) {
        search_space(&mut o, u64::from(l.search_space_offset), ss, sl)
            .map_err(|e| e.within("SearchSpace"))?;
    }
    if let (Some(c), Some(cl)) = (&m.connect_tile_info, &l.connect_tile_info) {
        connect_tile_info(&mut o, u64::from(l.connect_tile_info_offset), c, cl)
            .map_err(|e| e.within("ConnectTileInfo"))?;
    }
    for (i, r) in l.residue.iter().enumerate() {
        o.put_bytes(
            u64::from(r.offset),
            &r.bytes,
            format_args!("stored residue[{i}]"),
        )?;
    }
    Ok(o.buf)
}

fn navigation_graph(o: &mut Out, p: u64, g: &NavigationGraph, l: &DataChunkLayout) -> Result<()> {
    let [pos, nodes, edges, link, attr, nmi] = l.navigation_graph_offsets;
    if l.navigation_graph_link_offsets.len() != g.nodes.len() {
        return Err(shape(
            "NavigationGraph",
            "stored link offsets do not match the nodes",
        ));
    }
    let header = NavigationGraphHeader {
        positions_offset: U32::new(pos),
        nodes_offset: U32::new(nodes),
        edges_offset: U32::new(edges),
        link_data_offset: U32::new(link),
        zero0: [U32::ZERO; 2],
        attributes_offset: U32::new(attr),
        zero1: U32::ZERO,
        navmesh_indices_offset: U32::new(nmi),
        node_count: U16::new(len_u16(g.nodes.len(), "NodeCount")?),
        edge_count: U16::new(len_u16(g.edges.len(), "EdgeCount")?),
        zero2: [0; 6],
        attributes_count: U16::new(len_u16(g.attributes.len(), "AttributesCount")?),
    };
    o.put(p, &header, "header")?;
    let n = g.nodes.len();
    for (r, node) in o
        .records::<PositionRecord>(p + u64::from(pos), n, "Positions")?
        .iter_mut()
        .zip(&g.nodes)
    {
        *r = position(&node.position);
    }
    for (r, node) in o
        .records::<U16>(p + u64::from(nmi), n, "NavmeshIndices")?
        .iter_mut()
        .zip(&g.nodes)
    {
        *r = U16::new(node.navmesh_index);
    }
    let nodes_at = p + u64::from(nodes);
    for (i, (n, &lo)) in g
        .nodes
        .iter()
        .zip(&l.navigation_graph_link_offsets)
        .enumerate()
    {
        let seg = bits(
            u64::from(n.segment_index),
            12,
            format_args!("Nodes[{i}] SegmentIndex"),
        )?;
        let upper = bits(
            u64::from(lo >> 16),
            4,
            format_args!("Nodes[{i}] LinkDataOffsetUpper"),
        )?;
        let kind = bits(u64::from(n.kind), 2, format_args!("Nodes[{i}] Kind"))?;
        let reserved = bits(
            u64::from(n.reserved_flags),
            3,
            format_args!("Nodes[{i}] flags"),
        )?;
        let flags = u32::from(n.crossing_segment_link.is_some())
            | u32::from(n.crossing_data_chunk_link.is_some()) << 1
            | u32::from(n.crossing_tile_link.is_some()) << 2
            | kind << 3
            | reserved << 5;
        let record = NavigationGraphNodeRecord {
            link_data_offset: U16::new((lo & 0xffff) as u16),
            segment_and_upper: U16::new((seg | upper << 12) as u16),
            inside_link_count: len_u8(
                n.inside_links.len(),
                format_args!("Nodes[{i}] InsideLinkCount"),
            )?,
            flags: flags as u8,
        };
        o.put(nodes_at + 6 * i as u64, &record, format_args!("Nodes[{i}]"))?;
        let mut b = o.take_scratch();
        for li in &n.inside_links {
            let r = NavigationGraphInsideLinkRecord {
                node_index: U16::new(li.node_index),
                edge_index: U16::new(li.edge_index),
            };
            b.extend_from_slice(r.as_bytes());
        }
        if let Some(v) = n.crossing_segment_link {
            b.extend_from_slice(&v.to_le_bytes());
        }
        if let Some(c) = n.crossing_data_chunk_link {
            let r = NavigationGraphCrossingDataChunkLinkRecord {
                data_chunk_id: U16::new(c.data_chunk_id),
                node_index: U16::new(c.node_index),
            };
            b.extend_from_slice(r.as_bytes());
        }
        if let Some(c) = n.crossing_tile_link {
            let r = NavigationGraphCrossingTileLinkRecord {
                tile_id: U16::new(c.tile_id),
                data_chunk_id: U16::new(c.data_chunk_id),
                node_index: U16::new(c.node_index),
            };
            b.extend_from_slice(r.as_bytes());
        }
        let at = p + u64::from(link) + u64::from(upper) * 16 + u64::from(lo & 0xffff) * 2;
        o.put_scratch(at, b, format_args!("Nodes[{i}] link block"))?;
    }
    let out =
        o.records::<NavigationGraphEdgeRecord>(p + u64::from(edges), g.edges.len(), "Edges")?;
    for (i, (r, ed)) in out.iter_mut().zip(&g.edges).enumerate() {
        let seg = bits(
            u64::from(ed.segment_index),
            12,
            format_args!("Edges[{i}] SegmentIndex"),
        )?;
        let kind = bits(u64::from(ed.kind), 2, format_args!("Edges[{i}] Kind"))?;
        let res = bits(
            u64::from(ed.reserved),
            2,
            format_args!("Edges[{i}] reserved"),
        )?;
        *r = NavigationGraphEdgeRecord {
            weight: U16::new(ed.weight),
            segment_and_kind: U16::new((seg | kind << 12 | res << 14) as u16),
            node_indices: ed.node_indices,
        };
    }
    let out = o.records::<U16>(p + u64::from(attr), g.attributes.len(), "Attributes")?;
    for (r, a) in out.iter_mut().zip(&g.attributes) {
        *r = U16::new(*a);
    }
    Ok(())
}

fn navmesh_chunk(o: &mut Out, p: u64, c: &NavmeshChunk, l: &DataChunkLayout) -> Result<()> {
    let [pos, meshes, data] = l.navmesh_offsets;
    if l.mesh_data_offsets.len() != c.meshes.len() {
        return Err(shape(
            "NavmeshChunk",
            "stored mesh offsets do not match the meshes",
        ));
    }
    let header = NavmeshChunkHeader {
        positions_offset: U32::new(pos),
        meshes_offset: U32::new(meshes),
        mesh_data_offset: U32::new(data),
        zero0: [0; 12],
        mesh_count: U16::new(len_u16(c.meshes.len(), "MeshCount")?),
        position_count: U16::new(len_u16(c.positions.len(), "PositionCount")?),
        zero1: U32::ZERO,
    };
    o.put(p, &header, "header")?;
    let out = o.records::<PositionRecord>(p + u64::from(pos), c.positions.len(), "Positions")?;
    for (r, q) in out.iter_mut().zip(&c.positions) {
        *r = position(q);
    }
    let meshes_at = p + u64::from(meshes);
    for (i, (m, &off)) in c.meshes.iter().zip(&l.mesh_data_offsets).enumerate() {
        let k = m.neighbors.len();
        let nn = m.navigation_graph_nodes.len();
        if !(3..=4).contains(&k) || m.positions.len() != k {
            return Err(shape(
                format_args!("Meshes[{i}]"),
                format!(
                    "{k} neighbours and {} positions: a mesh has 3 or 4 sides, one of each per side",
                    m.positions.len()
                ),
            ));
        }
        if !(3..=4).contains(&nn) {
            return Err(shape(
                format_args!("Meshes[{i}]"),
                format!("{nn} NavigationGraph nodes: a mesh has 3 or 4"),
            ));
        }
        if m.needs_crossing() != m.crossing.is_some() {
            return Err(shape(
                format_args!("Meshes[{i}] crossing"),
                "present exactly when some neighbour's Type is not 0",
            ));
        }
        let off = bits(u64::from(off), 18, format_args!("Meshes[{i}] DataOffset"))?;
        let seg = bits(
            u64::from(m.segment_index),
            12,
            format_args!("Meshes[{i}] SegmentIndex"),
        )?;
        let packed = off | u32::from(k == 4) << 18 | u32::from(nn == 4) << 19 | seg << 20;
        o.put(
            meshes_at + 4 * i as u64,
            &U32::new(packed),
            format_args!("Meshes[{i}]"),
        )?;
        let mut b = o.take_scratch();
        for n in &m.neighbors {
            b.extend_from_slice(&n.0.to_le_bytes());
        }
        b.extend_from_slice(&m.positions);
        b.extend_from_slice(&m.navigation_graph_nodes);
        if let Some(x) = &m.crossing {
            if x.data_chunk_ids.len() != k || x.tile_ids.len() != k {
                o.scratch = b;
                return Err(shape(
                    format_args!("Meshes[{i}] crossing"),
                    "NeighborDataChunkIds and NeighborTileIds need one entry per side",
                ));
            }
            for v in x.data_chunk_ids.iter().chain(&x.tile_ids) {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        o.put_scratch(
            p + u64::from(data) + 2 * u64::from(off),
            b,
            format_args!("Meshes[{i}] record"),
        )?;
    }
    Ok(())
}

fn segment_chunk(o: &mut Out, p: u64, c: &SegmentChunk, l: &DataChunkLayout) -> Result<()> {
    let [bounds, segments, self_size] = l.segment_chunk_offsets;
    if l.segment_bases.len() != c.segments.len() {
        return Err(shape(
            "SegmentChunk",
            "stored bases do not match the segments",
        ));
    }
    let header = SegmentChunkHeader {
        bounds_offset: U32::new(bounds),
        segments_offset: U32::new(segments),
        self_size: U32::new(self_size),
        segment_count: U32::new(c.segments.len() as u32),
    };
    o.put(p, &header, "header")?;
    let n = c.segments.len();
    let out = o.records::<BoundsRecord>(p + u64::from(bounds), n, "Bounds")?;
    for (r, seg) in out.iter_mut().zip(&c.segments) {
        *r = BoundsRecord {
            min: position(&seg.min),
            max: position(&seg.max),
        };
    }
    let out = o.records::<SegmentRecord>(p + u64::from(segments), n, "Segments")?;
    for ((r, seg), bases) in out.iter_mut().zip(&c.segments).zip(&l.segment_bases) {
        *r = SegmentRecord {
            bases: bases.map(U16::new),
            counts: [
                seg.navmesh_position_count,
                seg.navmesh_count,
                seg.navigation_graph_edge_count,
                seg.navigation_graph_node_count,
            ],
        };
    }
    Ok(())
}

fn segment_graph(o: &mut Out, p: u64, g: &SegmentGraph, l: &DataChunkLayout) -> Result<()> {
    let [pos, nodes, link, self_size] = l.segment_graph_offsets;
    if l.segment_graph_link_offsets.len() != g.nodes.len() {
        return Err(shape(
            "SegmentGraph",
            "stored link offsets do not match the nodes",
        ));
    }
    let header = SegmentGraphHeader {
        positions_offset: U32::new(pos),
        nodes_offset: U32::new(nodes),
        link_data_offset: U32::new(link),
        zero0: U32::ZERO,
        self_size: U32::new(self_size),
        node_count: U16::new(len_u16(g.nodes.len(), "NodeCount")?),
        zero1: [0; 4],
        total_navigation_graph_node_index_count: U16::new(l.segment_graph_total_node_index_count),
        zero2: [0; 4],
    };
    o.put(p, &header, "header")?;
    let out = o.records::<PositionRecord>(p + u64::from(pos), g.nodes.len(), "Positions")?;
    for (r, n) in out.iter_mut().zip(&g.nodes) {
        *r = position(&n.position);
    }
    let nodes_at = p + u64::from(nodes);
    for (i, (n, &off)) in g
        .nodes
        .iter()
        .zip(&l.segment_graph_link_offsets)
        .enumerate()
    {
        let off = bits(
            u64::from(off),
            20,
            format_args!("Nodes[{i}] LinkDataOffset"),
        )?;
        let unknown = bits(u64::from(n.unknown), 4, format_args!("Nodes[{i}] Unknown"))?;
        let inside = len_u8(
            n.inside_links.len(),
            format_args!("Nodes[{i}] InsideLinkCount"),
        )?;
        let record = SegmentGraphNodeRecord {
            packed: U32::new(off | unknown << 20 | u32::from(inside) << 24),
            island_graph_node_indices: n.island_graph_node_indices.map(U16::new),
            crossing_data_chunk_link_count: len_u8(
                n.crossing_data_chunk_links.len(),
                format_args!("Nodes[{i}] CrossingDataChunkLinkCount"),
            )?,
            crossing_tile_link_count: len_u8(
                n.crossing_tile_links.len(),
                format_args!("Nodes[{i}] CrossingTileLinkCount"),
            )?,
        };
        o.put(
            nodes_at + 12 * i as u64,
            &record,
            format_args!("Nodes[{i}]"),
        )?;
        let mut b = o.take_scratch();
        let r = segment_graph_link_block(&mut b, n, i);
        if let Err(e) = r {
            o.scratch = b;
            return Err(e);
        }
        o.put_scratch(
            p + u64::from(link) + 2 * u64::from(off),
            b,
            format_args!("Nodes[{i}] link block"),
        )?;
    }
    Ok(())
}

/// The link block of SegmentGraph node `i`: its links, then the NavigationGraph node indices of
/// every link in the same order.
fn segment_graph_link_block(b: &mut Vec<u8>, n: &SegmentGraphNode, i: usize) -> Result<()> {
    let count = |nodes: &[u8], list: &str, k: usize| {
        len_u8(
            nodes.len(),
            format_args!("Nodes[{i}] {list}[{k}] NavGraphNodeIndexCount"),
        )
    };
    for (k, li) in n.inside_links.iter().enumerate() {
        let r = SegmentGraphInsideLinkRecord {
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(
                &li.navigation_graph_nodes,
                "inside_links",
                k,
            )?,
            link_index: li.link_index,
        };
        b.extend_from_slice(r.as_bytes());
    }
    for (k, li) in n.crossing_data_chunk_links.iter().enumerate() {
        let r = SegmentGraphCrossingDataChunkLinkRecord {
            data_chunk_id: U16::new(li.data_chunk_id),
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(
                &li.navigation_graph_nodes,
                "crossing_data_chunk_links",
                k,
            )?,
            link_index: li.link_index,
        };
        b.extend_from_slice(r.as_bytes());
    }
    for (k, li) in n.crossing_tile_links.iter().enumerate() {
        let r = SegmentGraphCrossingTileLinkRecord {
            tile_id: U16::new(li.tile_id),
            data_chunk_id: U16::new(li.data_chunk_id),
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(
                &li.navigation_graph_nodes,
                "crossing_tile_links",
                k,
            )?,
            link_index: li.link_index,
        };
        b.extend_from_slice(r.as_bytes());
    }
    for li in &n.inside_links {
        b.extend_from_slice(&li.navigation_graph_nodes);
    }
    for li in &n.crossing_data_chunk_links {
        b.extend_from_slice(&li.navigation_graph_nodes);
    }
    for li in &n.crossing_tile_links {
        b.extend_from_slice(&li.navigation_graph_nodes);
    }
    Ok(())
}

fn island_graph(o: &mut Out, g: u64, ig: &IslandGraph, l: &IslandGraphLayout) -> Result<()> {
    let [size, nodes, link, low, seg, groups, infos] = l.offsets;
    if l.link_offsets.len() != ig.nodes.len() {
        return Err(shape(
            "IslandGraph",
            "stored link offsets do not match the nodes",
        ));
    }
    let count = len_u16(ig.nodes.len(), "NodeCount")?;
    o.put_bytes(
        g,
        &u16s(&[size, nodes, count, link, low, seg, groups, infos]),
        "header",
    )?;
    let mut recs = Vec::with_capacity(ig.nodes.len() * 14);
    let mut lows = Vec::with_capacity(ig.nodes.len() * 8);
    let mut counts = Vec::with_capacity(ig.nodes.len());
    for (i, (n, &off)) in ig.nodes.iter().zip(&l.link_offsets).enumerate() {
        recs.extend(pos_bytes(&n.position));
        recs.extend(u16s(&[
            n.attributes,
            off,
            len_u16(
                n.crossing_tile_links.len(),
                format_args!("Nodes[{i}] CrossingTileLinkCount"),
            )?,
        ]));
        recs.push(len_u8(
            n.inside_links.len(),
            format_args!("Nodes[{i}] InsideLinkCount"),
        )?);
        recs.push(len_u8(
            n.crossing_data_chunk_links.len(),
            format_args!("Nodes[{i}] CrossingDataChunkLinkCount"),
        )?);
        let mut b = Vec::new();
        for c in &n.crossing_data_chunk_links {
            b.extend(c.data_chunk_uid.0.to_le_bytes());
            b.extend(u16s(&[c.weight, c.node_index]));
        }
        for c in &n.inside_links {
            b.extend(u16s(&[c.weight, c.node_index]));
        }
        for c in &n.crossing_tile_links {
            b.extend(c.0.to_le_bytes());
        }
        o.put_bytes(
            g + u64::from(link) + u64::from(off),
            &b,
            format_args!("Nodes[{i}] link block"),
        )?;
        let lg = &n.low_graph_node_link;
        lows.extend(lg.data_chunk_uid.0.to_le_bytes());
        lows.extend(u16s(&[
            lg.segment_graph_node_index,
            lg.navigation_graph_node_index,
        ]));
        counts.push(n.segment_count);
    }
    o.put_bytes(g + u64::from(nodes), &recs, "Nodes")?;
    o.put_bytes(g + u64::from(low), &lows, "LowGraphNodeLinks")?;
    o.put_bytes(g + u64::from(seg), &u16s(&counts), "SegmentCounts")?;
    let mut grp = Vec::with_capacity(24);
    let mut sum = 0usize;
    for (c, start) in ig
        .connect_side_info_groups
        .iter()
        .zip(l.group_start_indices)
    {
        grp.extend(u16s(&[c.tile_id, start, c.count]));
        sum += usize::from(c.count);
    }
    if sum != ig.connect_side_infos.len() {
        return Err(shape(
            "ConnectSideInfos",
            format!(
                "{} infos, but the ConnectSideInfoGroups count {sum}",
                ig.connect_side_infos.len()
            ),
        ));
    }
    o.put_bytes(g + u64::from(groups), &grp, "ConnectSideInfoGroups")?;
    let mut inf = Vec::with_capacity(sum * 4);
    for c in &ig.connect_side_infos {
        inf.extend(u16s(&[c.weight, c.node_index]));
    }
    o.put_bytes(g + u64::from(infos), &inf, "ConnectSideInfos")?;
    Ok(())
}

fn search_space(o: &mut Out, s: u64, ss: &SearchSpace, l: &SearchSpaceLayout) -> Result<()> {
    let blocks = ss
        .block_count
        .iter()
        .try_fold(1u64, |a, c| a.checked_mul(u64::from(*c)));
    if blocks != Some(ss.buckets.len() as u64) || l.start_offsets.len() != ss.buckets.len() {
        return Err(shape(
            "buckets",
            format!(
                "{} buckets for {}×{}×{} blocks",
                ss.buckets.len(),
                ss.block_count[0],
                ss.block_count[1],
                ss.block_count[2]
            ),
        ));
    }
    let [descs, entries, self_size] = l.offsets;
    let mut h = words(&ss.origin.map(|f| f.0));
    h.extend(ss.range_y.to_le_bytes());
    h.extend([0u8; 2]);
    h.extend(words(&ss.block_count));
    h.extend(words(&[
        ss.block_size_xz,
        ss.block_size_y,
        descs,
        entries,
        self_size,
    ]));
    o.put_bytes(s, &h, "header")?;
    let mut d = Vec::with_capacity(ss.buckets.len() * 8);
    for (i, (b, &start)) in ss.buckets.iter().zip(&l.start_offsets).enumerate() {
        d.extend(start.to_le_bytes());
        d.extend(len_u16(b.entries.len(), format_args!("BucketDescs[{i}] Count"))?.to_le_bytes());
        d.extend([b.min_y, b.max_y]);
        let mut e = Vec::new();
        for (k, en) in b.entries.iter().enumerate() {
            e.extend(en.data_chunk_uid.0.to_le_bytes());
            let n: u32 = nav_core::write::narrow(
                FORMAT,
                format_args!("buckets[{i}] entries[{k}] SegmentCount"),
                en.segment_indices.len(),
            )?;
            e.extend(n.to_le_bytes());
            e.extend(u16s(&en.segment_indices));
        }
        let at = s + u64::from(descs) + 8 * i as u64 + u64::from(start);
        o.put_bytes(at, &e, format_args!("BucketDescs[{i}] entries"))?;
    }
    o.put_bytes(s + u64::from(descs), &d, "BucketDescs")?;
    Ok(())
}

fn connect_tile_info(o: &mut Out, c: u64, t: &ConnectTileInfo, l: &[u16; 3]) -> Result<()> {
    let mut h = u16s(l);
    h.extend(u16s(&[
        len_u16(t.groups.len(), "GroupCount")?,
        len_u16(t.infos.len(), "InfoCount")?,
        len_u16(t.nodes.len(), "NodeCount")?,
    ]));
    o.put_bytes(c, &h, "header")?;
    let mut g = Vec::new();
    for (i, x) in t.groups.iter().enumerate() {
        g.extend(x.name.to_le_bytes());
        let count = bits(u64::from(x.count), 5, format_args!("Groups[{i}] Count"))?;
        let start = bits(
            u64::from(x.start_index),
            11,
            format_args!("Groups[{i}] StartIndex"),
        )?;
        g.extend(((count | start << 5) as u16).to_le_bytes());
    }
    o.put_bytes(c + 2 * u64::from(l[0]), &g, "Groups")?;
    let mut f = Vec::new();
    for (i, x) in t.infos.iter().enumerate() {
        let count = bits(u64::from(x.count), 5, format_args!("Infos[{i}] Count"))?;
        let start = bits(
            u64::from(x.start_index),
            11,
            format_args!("Infos[{i}] StartIndex"),
        )?;
        f.extend(u16s(&[x.data_chunk_id, (count | start << 5) as u16]));
    }
    o.put_bytes(c + 2 * u64::from(l[1]), &f, "Infos")?;
    let mut n = Vec::new();
    for (i, x) in t.nodes.iter().enumerate() {
        let mi = bits(
            u64::from(x.navmesh_index),
            14,
            format_args!("Nodes[{i}] NavmeshIndex"),
        )?;
        let ni = bits(
            u64::from(x.navmesh_neighbor_index),
            2,
            format_args!("Nodes[{i}] NavmeshNeighborIndex"),
        )?;
        n.extend(u16s(&[
            x.navigation_graph_node_index,
            (mi | ni << 14) as u16,
        ]));
    }
    o.put_bytes(c + 2 * u64::from(l[2]), &n, "Nodes")?;
    Ok(())
}
