//! The graphs above the NavigationGraph: the SegmentGraph, IslandGraph and SearchSpace of a
//! built or fixed file (steps 6 to 8 of [`super`]).

use super::*;

/// Step 6, from a data chunk's segments and NavigationGraph: one SegmentGraph node per segment,
/// at the segment's node nearest its bounds centre, and an inside link to each segment it
/// borders. Two segments border where a node has a crossing-segment link from one to the other;
/// the link lists the border nodes (segment-local, sorted), is weighted by the distance from
/// the node's position to the first of them, and its LinkIndex is the position of the reverse
/// link in the target's list. Island indices are left at `0xFFFF` ([`island_graph`] sets them);
/// no crossing links to other data chunks or tiles are made.
///
/// Segments and nodes are found through the prefix sums of the segment counts, as the engine
/// finds them; a node past every segment's nodes (counts that do not add up, as in Obj2Nav2
/// files) belongs to none. Refuses a segment without nodes or whose nodes pass the
/// NavigationGraph's, one that borders more than 255 others, and a border crossed one way only
/// (the link back has no LinkIndex to give).
pub fn segment_graph(file: &Nav2File, dc: &DataChunk) -> Result<Vec<SegmentGraphNode>> {
    let segs = &dc.segment_chunk.segments;
    let all = &dc.navigation_graph.nodes;
    let bases = crate::geometry::segment_bases(dc);
    // Each segment's first node and central node; the segment and local index of each node.
    let mut central = Vec::with_capacity(segs.len());
    let mut owner: Vec<Option<(usize, u8)>> = vec![None; all.len()];
    for (s, (seg, base)) in segs.iter().zip(&bases).enumerate() {
        let first = base[3];
        central.push((first, central_node(dc, s, seg, first)?));
        let own = owner.get_mut(first..first + usize::from(seg.navigation_graph_node_count));
        // In range: `central_node` refused a segment whose nodes pass the NavigationGraph's.
        for (local, slot) in (0..=u8::MAX).zip(own.into_iter().flatten()) {
            *slot = Some((s, local));
        }
    }
    // Border nodes per ordered pair of segments, from the crossing-segment links (a link to a
    // node that names nothing, or that no segment holds, is left out: validate reports it).
    let mut borders: BTreeMap<(usize, usize), Vec<u8>> = BTreeMap::new();
    for (n, me) in all.iter().zip(&owner) {
        let (Some(target), Some((a, local))) = (n.crossing_segment_link, me) else {
            continue;
        };
        let Some(Some((b, _))) = owner.get(usize::from(target)) else {
            continue;
        };
        if a != b {
            borders.entry((*a, *b)).or_default().push(*local);
        }
    }
    // Inside links, in target order; border nodes sorted.
    let mut links: Vec<Vec<(usize, Vec<u8>)>> = vec![Vec::new(); segs.len()];
    for ((a, b), mut via) in borders {
        via.sort_unstable();
        via.dedup();
        at_mut(&mut links, a, || format!("SegmentChunk Segments[{a}]"))?.push((b, via));
    }
    let mut nodes = Vec::with_capacity(segs.len());
    for (a, (list, (first, (_, position)))) in links.iter().zip(&central).enumerate() {
        if list.len() > 255 {
            return Err(refuse(
                "SegmentGraph",
                "a segment borders more than 255 others (InsideLinkCount is a u8)",
            ));
        }
        let record = || format!("SegmentGraph node {a}");
        let mut inside = ShortVec::with_capacity(list.len());
        for (b, via) in list {
            // Each list of border nodes was made with its first node.
            let border = via.first().map(|l| first + usize::from(*l));
            let border = border.ok_or_else(|| refuse(record(), "a link without border nodes"))?;
            let border = at(all, border, || format!("NavigationGraph node {border}"))?;
            let back = at(&links, *b, || format!("SegmentGraph node {b}"))?;
            let link_index = back.iter().position(|(t, _)| *t == a).ok_or_else(|| {
                refuse(
                    record(),
                    format!("segment {a} borders segment {b}, which has no link back"),
                )
            })?;
            inside.push(SegmentGraphInsideLink {
                weight: weight(file, *position, border.position),
                node_index: to_u16(*b, record)?,
                link_index: u8::try_from(link_index)
                    .map_err(|_| refuse(record(), "LinkIndex past 255"))?,
                navigation_graph_nodes: via.as_slice().into(),
            });
        }
        nodes.push(SegmentGraphNode {
            position: *position,
            unknown: 0,
            island_graph_node_indices: [0xffff; 3],
            inside_links: inside,
            crossing_data_chunk_links: ShortVec::new(),
            crossing_tile_links: ShortVec::new(),
        });
    }
    Ok(nodes)
}

/// Step 7, over every data chunk of the file: one IslandGraph node per connected set of
/// segments (SegmentGraph inside links, and crossing-data-chunk links to another chunk of the
/// file), at its first segment's SegmentGraph node, with the segment count and a
/// LowGraphNodeLink to that segment and its central NavigationGraph node. Every SegmentGraph
/// node names its island node in the first slot (the other two `0xFFFF`). The graph has no
/// tile connections. Refuses a data chunk without one SegmentGraph node per segment, a segment
/// without NavigationGraph nodes, and more than 65,535 islands.
pub fn island_graph(file: &mut Nav2File) -> Result<IslandGraph> {
    let chunks = &file.data_chunks;
    for (c, dc) in chunks.iter().enumerate() {
        let (nodes, segs) = (
            dc.segment_graph.nodes.len(),
            dc.segment_chunk.segments.len(),
        );
        if nodes != segs {
            return Err(refuse(
                format!("data_chunks[{c}] SegmentGraph"),
                format!("{nodes} nodes for {segs} segments; an island needs one per segment"),
            ));
        }
    }
    // A chunk of the file by DataChunkId, with its segment count.
    let chunk_of_id = |id: u16| {
        let found = chunks.iter().enumerate().find(|(_, d)| d.uid.index() == id);
        found.map(|(c, d)| (c, d.segment_chunk.segments.len()))
    };
    // Neighbours of each (chunk, segment); a link to a segment that names nothing is left out.
    let mut adjacent: Vec<Vec<Vec<(usize, usize)>>> = Vec::with_capacity(chunks.len());
    for (c, dc) in chunks.iter().enumerate() {
        let segs = dc.segment_chunk.segments.len();
        let per = dc.segment_graph.nodes.iter().map(|n| {
            let inside = n
                .inside_links
                .iter()
                .map(|l| (c, usize::from(l.node_index)));
            let inside = inside.filter(|(_, s)| *s < segs);
            let crossing = n.crossing_data_chunk_links.iter().filter_map(|l| {
                let (d, target_segs) = chunk_of_id(l.data_chunk_id)?;
                let s = usize::from(l.node_index);
                (s < target_segs).then_some((d, s))
            });
            inside.chain(crossing).collect::<Vec<_>>()
        });
        adjacent.push(per.collect());
    }
    let mut island_of: Vec<Vec<Option<usize>>> =
        adjacent.iter().map(|per| vec![None; per.len()]).collect();
    let mut island_nodes = Vec::new();
    for (c, dc) in chunks.iter().enumerate() {
        let bases = crate::geometry::segment_bases(dc);
        let segments = dc.segment_chunk.segments.iter().zip(&bases);
        for (seed, ((seg, base), sg_node)) in segments.zip(&dc.segment_graph.nodes).enumerate() {
            let record = || format!("data_chunks[{c}] segment {seed}");
            if at(at(&island_of, c, record)?, seed, record)?.is_some() {
                continue;
            }
            let island = island_nodes.len();
            let mut stack = vec![(c, seed)];
            let mut count = 0usize;
            while let Some((d, s)) = stack.pop() {
                let record = || format!("data_chunks[{d}] segment {s}");
                let slot = at_mut(at_mut(&mut island_of, d, record)?, s, record)?;
                if slot.is_some() {
                    continue;
                }
                *slot = Some(island);
                count += 1;
                stack.extend_from_slice(at(at(&adjacent, d, record)?, s, record)?);
            }
            let (central, _) = central_node(dc, seed, seg, base[3])?;
            let ng_node = base[3] + usize::from(central);
            island_nodes.push(IslandGraphNode {
                position: sg_node.position,
                attributes: ATTRIBUTE,
                low_graph_node_link: LowGraphNodeLink {
                    data_chunk_uid: dc.uid,
                    segment_graph_node_index: to_u16(seed, record)?,
                    navigation_graph_node_index: to_u16(ng_node, record)?,
                },
                segment_count: to_u16(count, || format!("IslandGraph node {island}"))?,
                ..IslandGraphNode::default()
            });
        }
    }
    if island_nodes.len() > usize::from(u16::MAX) {
        return Err(refuse("IslandGraph", "more than 65,535 islands"));
    }
    // Every segment was reached from some seed, so has its island.
    let mut indices = Vec::with_capacity(island_of.len());
    for (c, islands) in island_of.iter().enumerate() {
        let chunk: Vec<u16> = islands
            .iter()
            .enumerate()
            .map(|(s, island)| {
                let record = || format!("data_chunks[{c}] segment {s}");
                let island = island.ok_or_else(|| refuse(record(), "reached by no island"))?;
                to_u16(island, record)
            })
            .collect::<Result<_>>()?;
        indices.push(chunk);
    }
    for (dc, islands) in file.data_chunks.iter_mut().zip(indices) {
        for (n, island) in dc.segment_graph.nodes.iter_mut().zip(islands) {
            n.island_graph_node_indices = [island, 0xffff, 0xffff];
        }
    }
    Ok(IslandGraph {
        nodes: island_nodes,
        connect_side_info_groups: [ConnectSideInfoGroup {
            tile_id: 0xffff,
            count: 0,
        }; 4],
        connect_side_infos: Vec::new(),
    })
}

/// Step 8, over every data chunk of the file: blocks of at least 10 world units (the game's
/// size), grown so that no axis has more than [`MAX_BLOCKS`], one layer in Y; each bucket lists,
/// per data chunk, the segments whose bounds meet the block (the outer blocks reach past the
/// grid, so that every segment lands in one), and the Y range of those segments. Refuses a
/// chunk with a segment index past the entries' `u16`.
pub fn search_space(file: &Nav2File) -> Result<SearchSpace> {
    let world = |p: Position| file.decode_position(p);
    let all = || {
        file.data_chunks
            .iter()
            .flat_map(|d| d.segment_chunk.segments.iter())
    };
    let mut extent = [0f32; 3];
    let mut range_y = 0u16;
    for s in all() {
        let hi = world(s.max);
        for a in 0..3 {
            extent[a] = extent[a].max(hi[a] - file.origin[a].get());
        }
        range_y = range_y.max(s.max[1]);
    }
    // BlockSizeXZ: 10 world units (the game's), or larger so that no axis passes MAX_BLOCKS.
    let widest = extent[0].max(extent[2]).max(0.0);
    // Clamped to 10..=u32::MAX first (`max`/`min` also map NaN into the range), so the casts
    // only drop the fraction `ceil` already removed (the top, 2^32 as `f32`, saturates to
    // u32::MAX, as the bare cast did).
    #[allow(clippy::cast_possible_truncation)]
    let size = (widest / MAX_BLOCKS as f32)
        .ceil()
        .max(10.0)
        .min(u32::MAX as f32) as u32;
    #[allow(clippy::cast_possible_truncation)]
    let blocks = |e: f32| (e / size as f32).ceil().max(1.0).min(MAX_BLOCKS as f32) as u32;
    let (bx, bz) = (blocks(extent[0]), blocks(extent[2]));
    let mut buckets = Vec::new();
    for z in 0..bz {
        for x in 0..bx {
            // The outer blocks reach past the grid, so that every segment lands in one.
            let edge = |i: u32, n: u32| {
                let lo = if i == 0 {
                    f32::NEG_INFINITY
                } else {
                    i as f32 * size as f32
                };
                let hi = if i + 1 == n {
                    f32::INFINITY
                } else {
                    (i + 1) as f32 * size as f32
                };
                (lo, hi)
            };
            let ((lx, hx), (lz, hz)) = (edge(x, bx), edge(z, bz));
            let (lo, hi) = ([lx, lz], [hx, hz]);
            let mut entries = Vec::new();
            let (mut min_y, mut max_y) = (u8::MAX, 0u8);
            for dc in &file.data_chunks {
                let mut indices = Vec::new();
                for (k, s) in dc.segment_chunk.segments.iter().enumerate() {
                    let (a, b) = (world(s.min), world(s.max));
                    let rel = |p: [f32; 3], i: usize| p[i] - file.origin[i].get();
                    let meets = rel(a, 0) < hi[0]
                        && rel(b, 0) >= lo[0]
                        && rel(a, 2) < hi[1]
                        && rel(b, 2) >= lo[1];
                    if meets {
                        indices.push(to_u16(k, || format!("SearchSpace segment {k}"))?);
                        min_y = min_y.min((s.min[1] >> 8) as u8);
                        max_y = max_y.max((s.max[1] >> 8) as u8);
                    }
                }
                if !indices.is_empty() {
                    entries.push(BucketEntry {
                        data_chunk_uid: dc.uid,
                        segment_indices: indices.into(),
                    });
                }
            }
            buckets.push(if entries.is_empty() {
                Bucket::default()
            } else {
                Bucket {
                    min_y,
                    max_y,
                    entries: entries.into(),
                }
            });
        }
    }
    Ok(SearchSpace {
        origin: file.origin,
        range_y,
        block_count: [bx, 1, bz],
        block_size_xz: size,
        block_size_y: 768,
        buckets,
    })
}
