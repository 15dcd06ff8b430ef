//! The four chunk kinds of a data chunk: NavigationGraph, NavmeshChunk, SegmentChunk and
//! SegmentGraph, each put at the offsets of its layout.

use super::*;

pub(super) fn navigation_graph(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    l: &DataChunkLayout,
) -> Result<()> {
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
    // The node records first, all in one slice; then each node's link block, filled in place.
    let records = o.records::<NavigationGraphNodeRecord>(p + u64::from(nodes), n, "Nodes")?;
    for (i, ((r, n), &lo)) in records
        .iter_mut()
        .zip(&g.nodes)
        .zip(&l.navigation_graph_link_offsets)
        .enumerate()
    {
        // Every part in range is the rule; the refusal, naming the first part that is not, is
        // built only when one is out.
        if n.segment_index >> 12 != 0
            || lo >> 20 != 0
            || n.kind >> 2 != 0
            || n.reserved_flags >> 3 != 0
            || n.inside_links.len() > 0xff
        {
            return Err(ng_node_refusal(i, n, lo));
        }
        let flags = u8::from(n.crossing_segment_link.is_some())
            | u8::from(n.crossing_data_chunk_link.is_some()) << 1
            | u8::from(n.crossing_tile_link.is_some()) << 2
            | n.kind << 3
            | n.reserved_flags << 5;
        // 12 + 4 bits, both checked above: the packed word fits 16 bits.
        #[allow(clippy::cast_possible_truncation)]
        let segment_and_upper = n.segment_index | ((lo >> 16) as u16) << 12;
        // Checked above: at most 255 links.
        #[allow(clippy::cast_possible_truncation)]
        let inside_link_count = n.inside_links.len() as u8;
        *r = NavigationGraphNodeRecord {
            link_data_offset: U16::new((lo & 0xffff) as u16),
            segment_and_upper: U16::new(segment_and_upper),
            inside_link_count,
            flags,
        };
    }
    for (i, (n, &lo)) in g
        .nodes
        .iter()
        .zip(&l.navigation_graph_link_offsets)
        .enumerate()
    {
        // `lo >> 16` was checked to fit 4 bits above.
        let at = p + u64::from(link) + u64::from(lo >> 16) * 16 + u64::from(lo & 0xffff) * 2;
        let len = usize::try_from(layout::ng_link_block_len(n)).unwrap_or(usize::MAX);
        let mut b = Fill {
            rest: o.slot(at, len, format_args!("Nodes[{i}] link block"))?,
        };
        // The usual counts of inside links each as one record of constant size.
        let links = n.inside_links.as_slice();
        match links.len() {
            1 => inside_links::<1>(&mut b, links),
            2 => inside_links::<2>(&mut b, links),
            3 => inside_links::<3>(&mut b, links),
            4 => inside_links::<4>(&mut b, links),
            _ => {
                for li in links {
                    b.put(&inside_link(li));
                }
            }
        }
        if let Some(v) = n.crossing_segment_link {
            b.put(&U16::new(v));
        }
        if let Some(c) = n.crossing_data_chunk_link {
            b.put(&NavigationGraphCrossingDataChunkLinkRecord {
                data_chunk_id: U16::new(c.data_chunk_id),
                node_index: U16::new(c.node_index),
            });
        }
        if let Some(c) = n.crossing_tile_link {
            b.put(&NavigationGraphCrossingTileLinkRecord {
                tile_id: U16::new(c.tile_id),
                data_chunk_id: U16::new(c.data_chunk_id),
                node_index: U16::new(c.node_index),
            });
        }
        b.done();
    }
    let out =
        o.records::<NavigationGraphEdgeRecord>(p + u64::from(edges), g.edges.len(), "Edges")?;
    // Every edge is packed, and the bits out of range of any are gathered on the way: the edge
    // at fault is looked for only when there is one.
    let mut over = 0u16;
    for (r, ed) in out.iter_mut().zip(&g.edges) {
        over |= edge_bits_over(ed);
        let segment_and_kind =
            ed.segment_index | u16::from(ed.kind) << 12 | u16::from(ed.reserved) << 14;
        *r = NavigationGraphEdgeRecord {
            weight: U16::new(ed.weight),
            segment_and_kind: U16::new(segment_and_kind),
            node_indices: ed.node_indices,
        };
    }
    if over != 0 {
        return Err(edge_refusal(&g.edges));
    }
    let out = o.records::<U16>(p + u64::from(attr), g.attributes.len(), "Attributes")?;
    for (r, a) in out.iter_mut().zip(&g.attributes) {
        *r = U16::new(*a);
    }
    Ok(())
}

fn inside_link(li: &NavigationGraphInsideLink) -> NavigationGraphInsideLinkRecord {
    NavigationGraphInsideLinkRecord {
        node_index: U16::new(li.node_index),
        edge_index: U16::new(li.edge_index),
    }
}

/// `N` inside links (`links` holds that many) as one block of constant size.
#[inline(always)]
fn inside_links<const N: usize>(b: &mut Fill<'_>, links: &[NavigationGraphInsideLink]) {
    if let Ok(links) = <&[NavigationGraphInsideLink; N]>::try_from(links) {
        b.put(&links.map(|li| inside_link(&li)));
    }
}

/// Why NavigationGraph node `i` does not fit its record: the first part out of range.
#[cold]
fn ng_node_refusal(i: usize, n: &NavigationGraphNode, lo: u32) -> Error {
    let checks = [
        bits(
            u64::from(n.segment_index),
            12,
            format_args!("Nodes[{i}] SegmentIndex"),
        ),
        bits(
            u64::from(lo >> 16),
            4,
            format_args!("Nodes[{i}] LinkDataOffsetUpper"),
        ),
        bits(u64::from(n.kind), 2, format_args!("Nodes[{i}] Kind")),
        bits(
            u64::from(n.reserved_flags),
            3,
            format_args!("Nodes[{i}] flags"),
        ),
        len_u8(
            n.inside_links.len(),
            format_args!("Nodes[{i}] InsideLinkCount"),
        )
        .map(u32::from),
    ];
    checks
        .into_iter()
        .find_map(|c| c.err())
        .unwrap_or_else(|| shape(format_args!("Nodes[{i}]"), "does not fit its record"))
}

/// The bits of an edge's SegmentIndex (12 bits), Kind (2) and reserved field (2) past their
/// widths, ORed together: 0 when the edge fits its record.
#[inline]
fn edge_bits_over(ed: &NavigationGraphEdge) -> u16 {
    ed.segment_index >> 12 | u16::from(ed.kind >> 2 | ed.reserved >> 2)
}

/// Why the first NavigationGraph edge that does not fit its record does not: its first part out
/// of range.
#[cold]
fn edge_refusal(edges: &[NavigationGraphEdge]) -> Error {
    let Some((i, ed)) = edges
        .iter()
        .enumerate()
        .find(|(_, ed)| edge_bits_over(ed) != 0)
    else {
        return shape("Edges", "do not fit their records");
    };
    let checks = [
        bits(
            u64::from(ed.segment_index),
            12,
            format_args!("Edges[{i}] SegmentIndex"),
        ),
        bits(u64::from(ed.kind), 2, format_args!("Edges[{i}] Kind")),
        bits(
            u64::from(ed.reserved),
            2,
            format_args!("Edges[{i}] reserved"),
        ),
    ];
    checks
        .into_iter()
        .find_map(|c| c.err())
        .unwrap_or_else(|| shape(format_args!("Edges[{i}]"), "does not fit its record"))
}

pub(super) fn navmesh_chunk(
    o: &mut Out<'_>,
    p: u64,
    c: &NavmeshChunk,
    l: &DataChunkLayout,
) -> Result<()> {
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
    // The packed mesh words first, all in one slice; then each mesh record, filled in place.
    let words = o.records::<U32>(p + u64::from(meshes), c.meshes.len(), "Meshes")?;
    for (i, ((r, m), &off)) in words
        .iter_mut()
        .zip(&c.meshes)
        .zip(&l.mesh_data_offsets)
        .enumerate()
    {
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
        if let Some(x) = &m.crossing {
            if x.data_chunk_ids.len() != k || x.tile_ids.len() != k {
                return Err(shape(
                    format_args!("Meshes[{i}] crossing"),
                    "NeighborDataChunkIds and NeighborTileIds need one entry per side",
                ));
            }
        }
        let off = bits(u64::from(off), 18, format_args!("Meshes[{i}] DataOffset"))?;
        let seg = bits(
            u64::from(m.segment_index),
            12,
            format_args!("Meshes[{i}] SegmentIndex"),
        )?;
        *r = U32::new(off | u32::from(k == 4) << 18 | u32::from(nn == 4) << 19 | seg << 20);
    }
    for (i, (m, &off)) in c.meshes.iter().zip(&l.mesh_data_offsets).enumerate() {
        // Sides, nodes and crossing lists were checked above, so this is the record's size.
        let k = m.neighbors.len();
        let nn = m.navigation_graph_nodes.len();
        let len = crate::records::mesh_record_len(k, nn, m.crossing.is_some());
        let slot = o.slot(
            p + u64::from(data) + 2 * u64::from(off),
            len,
            format_args!("Meshes[{i}] record"),
        )?;
        // One writer per case of sides and nodes, its sizes constants.
        match (k, nn) {
            (3, 3) => mesh_record::<3, 3>(slot, m),
            (3, _) => mesh_record::<3, 4>(slot, m),
            (_, 3) => mesh_record::<4, 3>(slot, m),
            _ => mesh_record::<4, 4>(slot, m),
        }
    }
    Ok(())
}

/// One mesh record of `K` sides and `NN` NavigationGraph nodes (and the crossing part when the
/// mesh has one) into `slot`, which is the record's exact size. With the counts constants, every
/// field is a plain store.
#[inline(always)]
fn mesh_record<const K: usize, const NN: usize>(slot: &mut [u8], m: &Mesh) {
    fn first<const N: usize, T: Copy>(items: &[T; MAX_SIDES]) -> [T; N] {
        core::array::from_fn(|i| items[i])
    }
    let mut b = Fill { rest: slot };
    b.put(&first::<K, _>(m.neighbors.slots()).map(|n| U16::new(n.0)));
    b.put(&first::<K, _>(m.positions.slots()));
    b.put(&first::<NN, _>(m.navigation_graph_nodes.slots()));
    if let Some(x) = &m.crossing {
        b.put(&first::<K, _>(x.data_chunk_ids.slots()).map(U16::new));
        b.put(&first::<K, _>(x.tile_ids.slots()).map(U16::new));
    }
    b.done();
}

pub(super) fn segment_chunk(
    o: &mut Out<'_>,
    p: u64,
    c: &SegmentChunk,
    l: &DataChunkLayout,
) -> Result<()> {
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
        segment_count: U32::new(len_u32(c.segments.len(), "SegmentCount")?),
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

pub(super) fn segment_graph(
    o: &mut Out<'_>,
    p: u64,
    g: &SegmentGraph,
    l: &DataChunkLayout,
) -> Result<()> {
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
