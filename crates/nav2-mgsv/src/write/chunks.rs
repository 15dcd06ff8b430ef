//! Three of the four chunk kinds of a data chunk: NavigationGraph, SegmentChunk and
//! SegmentGraph, each put at the offsets of its layout (the NavmeshChunk is in `navmesh.rs`), and
//! what the one-pass writers of the NavigationGraph and the NavmeshChunk share.

use super::*;

pub(super) fn navigation_graph(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    l: &DataChunkLayout,
    r: RecordOffsets,
) -> Result<()> {
    let [_, _, edges, _, attr, _] = l.navigation_graph_offsets;
    if r == RecordOffsets::Listed && l.navigation_graph_link_offsets.len() != g.nodes.len() {
        return Err(shape(
            "NavigationGraph",
            "stored link offsets do not match the nodes",
        ));
    }
    ng_header(o, p, g, l.navigation_graph_offsets)?;
    // Written out rather than through a helper taking the writers as closures, which cost 10 k
    // instructions per write of ssav_140_130 (the same in `navmesh_chunk`).
    match r {
        RecordOffsets::Listed => {
            if !ng_nodes_in_one_pass::<true>(o, p, g, l)? {
                ng_nodes(o, p, g, l)?;
            }
        }
        RecordOffsets::Running => {
            if !ng_nodes_in_one_pass::<false>(o, p, g, l)? {
                return Err(not_running("NavigationGraph"));
            }
        }
    }
    ng_edges_and_attributes(o, p, g, edges, attr)
}

/// The NavigationGraph payload header at `p`, with the section offsets `offsets` (Positions,
/// Nodes, Edges, LinkData, Attributes, NavmeshIndices) and the counts, each checked to fit.
pub(super) fn ng_header(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    offsets: [u32; 6],
) -> Result<()> {
    let [pos, nodes, edges, link, attr, nmi] = offsets;
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
    o.put(p, &header, "header")
}

/// The NavigationGraph's edges and attributes, at `edges` and `attr` past `p`.
pub(super) fn ng_edges_and_attributes(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    edges: u32,
    attr: u32,
) -> Result<()> {
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

/// A refusal the writer never shows: with [`RecordOffsets::Running`], a list whose one-pass
/// writer gives up (`Ok(false)`) sends the whole model back to be laid out with every offset
/// listed, which names the field at fault.
#[cold]
pub(super) fn not_running(list: &str) -> Error {
    shape(list, "a record does not fit at the running offsets")
}

/// The nodes' positions, records, link blocks and NavmeshIndices in one pass over the nodes, for
/// the layout the game writes: the four arrays in that order, and every node's link block right
/// after the one before it (its offset the running sum of the sizes before, below 2^16 units).
/// `LISTED`: each running offset is checked against the layout's list; without, it is the
/// offset ([`RecordOffsets::Running`]).
///
/// `Ok(false)` when the layout is another one, or a node does not fit its record: the link
/// blocks it put are then zeroed again, so that [`ng_nodes`], which places every record by its
/// own offset and names the first part out of range, starts from what it would have found.
fn ng_nodes_in_one_pass<const LISTED: bool>(
    o: &mut Out<'_>,
    p: u64,
    g: &NavigationGraph,
    l: &DataChunkLayout,
) -> Result<bool> {
    let [pos, nodes, _, link, _, nmi] = l.navigation_graph_offsets.map(u64::from);
    let n = g.nodes.len();
    let array = 6 * n as u64;
    let in_order = pos + array <= nodes && nodes + array <= link && link <= nmi;
    if !in_order || (LISTED && l.navigation_graph_link_offsets.len() != n) {
        return Ok(false);
    }
    // Positions to the end of the NavmeshIndices, in one slice cut at each array's offset.
    let Ok(all) = usize::try_from(nmi + 2 * n as u64 - pos) else {
        return Ok(false);
    };
    let Ok(whole) = o.slot(p + pos, all, "Nodes") else {
        return Ok(false);
    };
    let cut = |at: u64| usize::try_from(at).unwrap_or(usize::MAX);
    let Some((head, nmis)) = whole.split_at_mut_checked(cut(nmi - pos)) else {
        return Ok(false);
    };
    let Some((head, mut rest)) = head.split_at_mut_checked(cut(link - pos)) else {
        return Ok(false);
    };
    let Some((positions, records)) = head.split_at_mut_checked(cut(nodes - pos)) else {
        return Ok(false);
    };
    let (Ok((positions, _)), Ok((records, _)), Ok((nmis, _))) = (
        <[PositionRecord]>::mut_from_prefix_with_elems(positions, n),
        <[NavigationGraphNodeRecord]>::mut_from_prefix_with_elems(records, n),
        <[U16]>::mut_from_prefix_with_elems(nmis, n),
    ) else {
        return Ok(false);
    };
    // The running offset, in 2-byte units; every stored offset that differs from it, or that
    // needs the upper bits, is gathered here, and sends the nodes to `ng_nodes`.
    let mut units = 0u32;
    let mut differs = 0u32;
    let mut listed = l.navigation_graph_link_offsets.iter();
    for (((node, pr), rr), mr) in g
        .nodes
        .iter()
        .zip(positions.iter_mut())
        .zip(records.iter_mut())
        .zip(nmis.iter_mut())
    {
        let lo = if LISTED {
            listed.next().copied().unwrap_or(u32::MAX)
        } else {
            units
        };
        differs |= (lo ^ units) | lo >> 16;
        *mr = U16::new(node.navmesh_index);
        let Some(len) = ng_node_in_place(node, lo, pr, rr, &mut rest) else {
            differs = 1;
            break;
        };
        units = units.saturating_add(len);
    }
    one_pass_done(o, differs, p + link, units)
}

/// Node `node`'s position and record, with its link block at `lo` (2-byte units, the low 16
/// bits kept: the caller checks the upper ones), and the block itself at the start of `rest`,
/// which is then cut past it. The block's size in 2-byte units, or `None` when the node does not
/// fit its record or `rest` is too short for the block.
#[inline(always)]
pub(super) fn ng_node_in_place(
    node: &NavigationGraphNode,
    lo: u32,
    pr: &mut PositionRecord,
    rr: &mut NavigationGraphNodeRecord,
    rest: &mut &mut [u8],
) -> Option<u32> {
    if !ng_node_fits(node) {
        return None;
    }
    *pr = position(&node.position);
    // Checked above: at most 255 links; the offset is the low 16 bits.
    #[allow(clippy::cast_possible_truncation)]
    let (inside_link_count, low) = (node.inside_links.len() as u8, lo as u16);
    *rr = NavigationGraphNodeRecord {
        link_data_offset: U16::new(low),
        segment_and_upper: U16::new(node.segment_index),
        inside_link_count,
        flags: ng_flags(node),
    };
    // At most 255 · 4 + 12 bytes.
    #[allow(clippy::cast_possible_truncation)]
    let len = layout::ng_link_block_len(node) as usize;
    let (block, tail) = core::mem::take(rest).split_at_mut_checked(len)?;
    link_block(Fill { rest: block }, node);
    *rest = tail;
    Some(half(len))
}

/// A block's size in 2-byte units. A link block is at most 255 · 4 + 12 bytes, a padded mesh
/// record 48: the cast keeps every bit.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
pub(super) fn half(len: usize) -> u32 {
    (len / 2) as u32
}

/// The end of a one-pass writer: `Ok(true)` when every stored offset matched the running one
/// (`differs` is 0), else the `units` 2-byte units of blocks put from `at` on are zeroed again
/// and `Ok(false)` sends the list to the record-by-record writer.
pub(super) fn one_pass_done(o: &mut Out<'_>, differs: u32, at: u64, units: u32) -> Result<bool> {
    if differs == 0 {
        return Ok(true);
    }
    let written = usize::try_from(2 * u64::from(units)).unwrap_or(usize::MAX);
    o.slot(at, written, "blocks put in one pass")?.fill(0);
    Ok(false)
}

/// The nodes' positions, NavmeshIndices, records and link blocks, each at the offset the layout
/// gives it: any layout.
fn ng_nodes(o: &mut Out<'_>, p: u64, g: &NavigationGraph, l: &DataChunkLayout) -> Result<()> {
    let [pos, nodes, _, link, _, nmi] = l.navigation_graph_offsets;
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
        if !ng_node_fits(n) || lo >> 20 != 0 {
            return Err(ng_node_refusal(i, n, lo));
        }
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
            flags: ng_flags(n),
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
        link_block(
            Fill {
                rest: o.slot(at, len, format_args!("Nodes[{i}] link block"))?,
            },
            n,
        );
    }
    Ok(())
}

/// Node `n`'s flag byte: which crossing links it has, its Kind and the reserved bits.
#[inline(always)]
fn ng_flags(n: &NavigationGraphNode) -> u8 {
    u8::from(n.crossing_segment_link.is_some())
        | u8::from(n.crossing_data_chunk_link.is_some()) << 1
        | u8::from(n.crossing_tile_link.is_some()) << 2
        | n.kind << 3
        | n.reserved_flags << 5
}

/// Node `n`'s link block into `b`, which is the block's exact size.
#[inline(always)]
fn link_block(mut b: Fill<'_>, n: &NavigationGraphNode) {
    // The counts of the game's nodes, 4 and 2 (about evenly, at random), each as one record of
    // constant size, tested one after the other: a `match` over the counts 1 to 4 compiled to
    // a jump through a table, which the branch predictor got wrong so often that writing took
    // a tenth longer.
    let links = n.inside_links.as_slice();
    if let [l0, l1, l2, l3] = links {
        b.put(&[l0, l1, l2, l3].map(inside_link));
    } else if let [l0, l1] = links {
        b.put(&[l0, l1].map(inside_link));
    } else {
        for li in links {
            b.put(&inside_link(li));
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

fn inside_link(li: &NavigationGraphInsideLink) -> NavigationGraphInsideLinkRecord {
    NavigationGraphInsideLinkRecord {
        node_index: U16::new(li.node_index),
        edge_index: U16::new(li.edge_index),
    }
}

/// Whether node `n`'s SegmentIndex, Kind, flag bits and count of inside links fit its record
/// (the offset of its link block is the caller's).
#[inline(always)]
fn ng_node_fits(n: &NavigationGraphNode) -> bool {
    n.segment_index >> 12 == 0
        && n.kind >> 2 == 0
        && n.reserved_flags >> 3 == 0
        && n.inside_links.len() <= 0xff
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
        // The counts first (each list's count is one byte), then the block straight into its
        // place: its links, then the lists of node indices in the same order.
        sg_node_index_counts_fit(n, i)?;
        let len = layout::sg_link_block_bytes(
            n.inside_links.len(),
            n.crossing_data_chunk_links.len(),
            n.crossing_tile_links.len(),
            layout::sg_node_indices(n),
        );
        let block = o.slot(
            p + u64::from(link) + 2 * u64::from(off),
            usize::try_from(len).unwrap_or(usize::MAX),
            format_args!("Nodes[{i}] link block"),
        )?;
        segment_graph_link_block(Fill { rest: block }, n);
    }
    Ok(())
}

/// Whether each list of NavigationGraph node indices of SegmentGraph node `i`'s links fits its
/// one-byte count; the first that does not is named.
fn sg_node_index_counts_fit(n: &SegmentGraphNode, i: usize) -> Result<()> {
    let count = |nodes: &[u8], list: &str, k: usize| {
        len_u8(
            nodes.len(),
            format_args!("Nodes[{i}] {list}[{k}] NavGraphNodeIndexCount"),
        )
        .map(|_| ())
    };
    for (k, li) in n.inside_links.iter().enumerate() {
        count(&li.navigation_graph_nodes, "inside_links", k)?;
    }
    for (k, li) in n.crossing_data_chunk_links.iter().enumerate() {
        count(&li.navigation_graph_nodes, "crossing_data_chunk_links", k)?;
    }
    for (k, li) in n.crossing_tile_links.iter().enumerate() {
        count(&li.navigation_graph_nodes, "crossing_tile_links", k)?;
    }
    Ok(())
}

/// The link block of SegmentGraph node `n` into `b`, which is its exact size: its links, then the
/// NavigationGraph node indices of every link in the same order (each list's count checked to
/// fit its byte beforehand, by [`sg_node_index_counts_fit`]).
fn segment_graph_link_block(mut b: Fill<'_>, n: &SegmentGraphNode) {
    // Checked: at most 255 items per list.
    #[allow(clippy::cast_possible_truncation)]
    let count = |nodes: &[u8]| nodes.len() as u8;
    for li in &n.inside_links {
        b.put(&SegmentGraphInsideLinkRecord {
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(&li.navigation_graph_nodes),
            link_index: li.link_index,
        });
    }
    for li in &n.crossing_data_chunk_links {
        b.put(&SegmentGraphCrossingDataChunkLinkRecord {
            data_chunk_id: U16::new(li.data_chunk_id),
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(&li.navigation_graph_nodes),
            link_index: li.link_index,
        });
    }
    for li in &n.crossing_tile_links {
        b.put(&SegmentGraphCrossingTileLinkRecord {
            tile_id: U16::new(li.tile_id),
            data_chunk_id: U16::new(li.data_chunk_id),
            weight: U16::new(li.weight),
            node_index: U16::new(li.node_index),
            navigation_graph_node_index_count: count(&li.navigation_graph_nodes),
            link_index: li.link_index,
        });
    }
    for li in &n.inside_links {
        b.put_bytes(&li.navigation_graph_nodes);
    }
    for li in &n.crossing_data_chunk_links {
        b.put_bytes(&li.navigation_graph_nodes);
    }
    for li in &n.crossing_tile_links {
        b.put_bytes(&li.navigation_graph_nodes);
    }
    b.done();
}
