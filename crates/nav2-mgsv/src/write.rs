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
use crate::records::MAX_FILE_LEN;
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

/// The output buffer: records are put at absolute offsets.
struct Out {
    buf: Vec<u8>,
}

impl Out {
    fn put(&mut self, at: u64, bytes: &[u8], field: impl fmt::Display) -> Result<()> {
        let start = usize::try_from(at).ok();
        let slot = start
            .and_then(|s| s.checked_add(bytes.len()).map(|e| (s, e)))
            .and_then(|(s, e)| self.buf.get_mut(s..e));
        match slot {
            Some(slot) => {
                slot.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(shape(
                field,
                format!(
                    "{} bytes at offset {at:#x} do not fit the {}-byte file the layout describes",
                    bytes.len(),
                    self.buf.len()
                ),
            )),
        }
    }
    fn u32(&mut self, at: u64, v: u32, field: impl fmt::Display) -> Result<()> {
        self.put(at, &v.to_le_bytes(), field)
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
    o.put(0, &h, "FileHeader")?;

    // ChunkDescs.
    let descs_at = u64::from(l.chunk_descs_offset);
    o.u32(descs_at, l.chunk_desc_entry_count, "ChunkDescs EntryCount")?;
    let mut d = Vec::with_capacity(l.chunk_descs.len() * 12);
    for c in &l.chunk_descs {
        d.extend(words(&[c.uid.0, c.data_offset, c.type_and_size]));
    }
    o.put(descs_at + 4, &d, "ChunkDescs")?;

    // Chunks, by type.
    let mut at = u64::from(l.chunks_offset);
    for (kind, ty) in [(0usize, 0u32), (1, 1), (2, 4), (3, 3)] {
        for (i, (dc, dl)) in m.data_chunks.iter().zip(&l.data_chunks).enumerate() {
            let c = dl.chunks.get(kind).copied().unwrap_or_default();
            let ctx = format_args!("data_chunks[{i}] chunk type {ty}");
            o.put(
                at,
                &words(&[ty, c.next_chunk_offset, c.data_offset, dc.uid.0]),
                ctx,
            )?;
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
        o.put(
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
    let node_count = len_u16(g.nodes.len(), "NodeCount")?;
    let mut h = words(&[pos, nodes, edges, link, 0, 0, attr, 0, nmi]);
    h.extend(node_count.to_le_bytes());
    h.extend(len_u16(g.edges.len(), "EdgeCount")?.to_le_bytes());
    h.extend([0u8; 6]);
    h.extend(len_u16(g.attributes.len(), "AttributesCount")?.to_le_bytes());
    o.put(p, &h, "header")?;
    let mut positions = Vec::with_capacity(g.nodes.len() * 6);
    let mut recs = Vec::with_capacity(g.nodes.len() * 6);
    let mut indices = Vec::with_capacity(g.nodes.len());
    for (i, (n, &lo)) in g
        .nodes
        .iter()
        .zip(&l.navigation_graph_link_offsets)
        .enumerate()
    {
        positions.extend(pos_bytes(&n.position));
        indices.push(n.navmesh_index);
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
        recs.extend(((lo & 0xffff) as u16).to_le_bytes());
        recs.extend(((seg | upper << 12) as u16).to_le_bytes());
        recs.push(len_u8(
            n.inside_links.len(),
            format_args!("Nodes[{i}] InsideLinkCount"),
        )?);
        recs.push(flags as u8);
        let mut b = Vec::new();
        for li in &n.inside_links {
            b.extend(u16s(&[li.node_index, li.edge_index]));
        }
        if let Some(v) = n.crossing_segment_link {
            b.extend(v.to_le_bytes());
        }
        if let Some(c) = n.crossing_data_chunk_link {
            b.extend(u16s(&[c.data_chunk_id, c.node_index]));
        }
        if let Some(c) = n.crossing_tile_link {
            b.extend(u16s(&[c.tile_id, c.data_chunk_id, c.node_index]));
        }
        let at = p + u64::from(link) + u64::from(upper) * 16 + u64::from(lo & 0xffff) * 2;
        o.put(at, &b, format_args!("Nodes[{i}] link block"))?;
    }
    o.put(p + u64::from(pos), &positions, "Positions")?;
    o.put(p + u64::from(nodes), &recs, "Nodes")?;
    let mut e = Vec::with_capacity(g.edges.len() * 6);
    for (i, ed) in g.edges.iter().enumerate() {
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
        e.extend(ed.weight.to_le_bytes());
        e.extend(((seg | kind << 12 | res << 14) as u16).to_le_bytes());
        e.extend(ed.node_indices);
    }
    o.put(p + u64::from(edges), &e, "Edges")?;
    o.put(p + u64::from(attr), &u16s(&g.attributes), "Attributes")?;
    o.put(p + u64::from(nmi), &u16s(&indices), "NavmeshIndices")?;
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
    let mut h = words(&[pos, meshes, data]);
    h.extend([0u8; 12]);
    h.extend(len_u16(c.meshes.len(), "MeshCount")?.to_le_bytes());
    h.extend(len_u16(c.positions.len(), "PositionCount")?.to_le_bytes());
    h.extend([0u8; 4]);
    o.put(p, &h, "header")?;
    let positions: Vec<u8> = c.positions.iter().flat_map(pos_bytes).collect();
    o.put(p + u64::from(pos), &positions, "Positions")?;
    let mut descs = Vec::with_capacity(c.meshes.len() * 4);
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
        descs.extend(packed.to_le_bytes());
        let mut b: Vec<u8> = m.neighbors.iter().flat_map(|n| n.0.to_le_bytes()).collect();
        b.extend(&m.positions);
        b.extend(&m.navigation_graph_nodes);
        if let Some(x) = &m.crossing {
            if x.data_chunk_ids.len() != k || x.tile_ids.len() != k {
                return Err(shape(
                    format_args!("Meshes[{i}] crossing"),
                    "NeighborDataChunkIds and NeighborTileIds need one entry per side",
                ));
            }
            b.extend(u16s(&x.data_chunk_ids));
            b.extend(u16s(&x.tile_ids));
        }
        o.put(
            p + u64::from(data) + 2 * u64::from(off),
            &b,
            format_args!("Meshes[{i}] record"),
        )?;
    }
    o.put(p + u64::from(meshes), &descs, "Meshes")?;
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
    o.put(
        p,
        &words(&[bounds, segments, self_size, c.segments.len() as u32]),
        "header",
    )?;
    let mut b = Vec::with_capacity(c.segments.len() * 12);
    let mut s = Vec::with_capacity(c.segments.len() * 12);
    for (seg, bases) in c.segments.iter().zip(&l.segment_bases) {
        b.extend(pos_bytes(&seg.min));
        b.extend(pos_bytes(&seg.max));
        s.extend(u16s(bases));
        s.extend([
            seg.navmesh_position_count,
            seg.navmesh_count,
            seg.navigation_graph_edge_count,
            seg.navigation_graph_node_count,
        ]);
    }
    o.put(p + u64::from(bounds), &b, "Bounds")?;
    o.put(p + u64::from(segments), &s, "Segments")?;
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
    let mut h = words(&[pos, nodes, link, 0, self_size]);
    h.extend(len_u16(g.nodes.len(), "NodeCount")?.to_le_bytes());
    h.extend([0u8; 4]);
    h.extend(l.segment_graph_total_node_index_count.to_le_bytes());
    h.extend([0u8; 4]);
    o.put(p, &h, "header")?;
    let positions: Vec<u8> = g
        .nodes
        .iter()
        .flat_map(|n| pos_bytes(&n.position))
        .collect();
    o.put(p + u64::from(pos), &positions, "Positions")?;
    let mut recs = Vec::with_capacity(g.nodes.len() * 12);
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
        recs.extend((off | unknown << 20 | u32::from(inside) << 24).to_le_bytes());
        recs.extend(u16s(&n.island_graph_node_indices));
        recs.push(len_u8(
            n.crossing_data_chunk_links.len(),
            format_args!("Nodes[{i}] CrossingDataChunkLinkCount"),
        )?);
        recs.push(len_u8(
            n.crossing_tile_links.len(),
            format_args!("Nodes[{i}] CrossingTileLinkCount"),
        )?);
        let mut b = Vec::new();
        let mut lists: Vec<u8> = Vec::new();
        for (k, li) in n.inside_links.iter().enumerate() {
            b.extend(u16s(&[li.weight, li.node_index]));
            b.push(len_u8(
                li.navigation_graph_nodes.len(),
                format_args!("Nodes[{i}] inside_links[{k}] NavGraphNodeIndexCount"),
            )?);
            b.push(li.link_index);
            lists.extend(&li.navigation_graph_nodes);
        }
        for (k, li) in n.crossing_data_chunk_links.iter().enumerate() {
            b.extend(u16s(&[li.data_chunk_id, li.weight, li.node_index]));
            b.push(len_u8(
                li.navigation_graph_nodes.len(),
                format_args!("Nodes[{i}] crossing_data_chunk_links[{k}] NavGraphNodeIndexCount"),
            )?);
            b.push(li.link_index);
            lists.extend(&li.navigation_graph_nodes);
        }
        for (k, li) in n.crossing_tile_links.iter().enumerate() {
            b.extend(u16s(&[
                li.tile_id,
                li.data_chunk_id,
                li.weight,
                li.node_index,
            ]));
            b.push(len_u8(
                li.navigation_graph_nodes.len(),
                format_args!("Nodes[{i}] crossing_tile_links[{k}] NavGraphNodeIndexCount"),
            )?);
            b.push(li.link_index);
            lists.extend(&li.navigation_graph_nodes);
        }
        b.extend(lists);
        o.put(
            p + u64::from(link) + 2 * u64::from(off),
            &b,
            format_args!("Nodes[{i}] link block"),
        )?;
    }
    o.put(p + u64::from(nodes), &recs, "Nodes")?;
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
    o.put(
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
        o.put(
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
    o.put(g + u64::from(nodes), &recs, "Nodes")?;
    o.put(g + u64::from(low), &lows, "LowGraphNodeLinks")?;
    o.put(g + u64::from(seg), &u16s(&counts), "SegmentCounts")?;
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
    o.put(g + u64::from(groups), &grp, "ConnectSideInfoGroups")?;
    let mut inf = Vec::with_capacity(sum * 4);
    for c in &ig.connect_side_infos {
        inf.extend(u16s(&[c.weight, c.node_index]));
    }
    o.put(g + u64::from(infos), &inf, "ConnectSideInfos")?;
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
    o.put(s, &h, "header")?;
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
        o.put(at, &e, format_args!("BucketDescs[{i}] entries"))?;
    }
    o.put(s + u64::from(descs), &d, "BucketDescs")?;
    Ok(())
}

fn connect_tile_info(o: &mut Out, c: u64, t: &ConnectTileInfo, l: &[u16; 3]) -> Result<()> {
    let mut h = u16s(l);
    h.extend(u16s(&[
        len_u16(t.groups.len(), "GroupCount")?,
        len_u16(t.infos.len(), "InfoCount")?,
        len_u16(t.nodes.len(), "NodeCount")?,
    ]));
    o.put(c, &h, "header")?;
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
    o.put(c + 2 * u64::from(l[0]), &g, "Groups")?;
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
    o.put(c + 2 * u64::from(l[1]), &f, "Infos")?;
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
    o.put(c + 2 * u64::from(l[2]), &n, "Nodes")?;
    Ok(())
}
