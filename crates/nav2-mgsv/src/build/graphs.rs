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
/// finds them. Refuses a segment that borders more than 255 others.
pub fn segment_graph(file: &Nav2File, dc: &DataChunk) -> Result<Vec<SegmentGraphNode>> {
    let segs = &dc.segment_chunk.segments;
    let bases = crate::geometry::segment_bases(dc);
    let node_base = |s: usize| bases.get(s).map_or(0, |b| b[3]);
    let node_pos = |s: usize, local: u8| node_position(dc, node_base(s) + usize::from(local));
    // The segment a node belongs to, by the prefix sums.
    let segment_of_node = |g: usize| -> Option<usize> {
        let s = bases.partition_point(|b| b[3] <= g).checked_sub(1)?;
        let count = segs
            .get(s)
            .map_or(0, |x| usize::from(x.navigation_graph_node_count));
        (g < node_base(s) + count).then_some(s)
    };
    let central: Vec<u8> = (0..segs.len())
        .map(|s| central_node(dc, &bases, s))
        .collect();
    let positions: Vec<Position> = (0..segs.len())
        .map(|s| node_pos(s, central.get(s).copied().unwrap_or_default()))
        .collect();
    // Border nodes per ordered pair of segments, from the crossing-segment links.
    let mut borders: BTreeMap<(usize, usize), Vec<u8>> = BTreeMap::new();
    for (g, n) in dc.navigation_graph.nodes.iter().enumerate() {
        let Some(target) = n.crossing_segment_link else {
            continue;
        };
        let (Some(a), Some(b)) = (segment_of_node(g), segment_of_node(usize::from(target))) else {
            continue;
        };
        if a == b {
            continue;
        }
        if let Ok(la) = u8::try_from(g - node_base(a)) {
            borders.entry((a, b)).or_default().push(la);
        }
    }
    // Inside links, in target order; border nodes sorted.
    let mut links: Vec<Vec<(usize, Vec<u8>)>> = vec![Vec::new(); segs.len()];
    for ((a, b), mut via) in borders {
        via.sort_unstable();
        via.dedup();
        if let Some(l) = links.get_mut(a) {
            l.push((b, via));
        }
    }
    let mut nodes = Vec::with_capacity(segs.len());
    for (a, list) in links.iter().enumerate() {
        if list.len() > 255 {
            return Err(refuse(
                "SegmentGraph",
                "a segment borders more than 255 others (InsideLinkCount is a u8)",
            ));
        }
        let position = positions.get(a).copied().unwrap_or_default();
        let mut inside = ShortVec::with_capacity(list.len());
        for (b, via) in list {
            let first = via.first().copied().unwrap_or_default();
            let link_index = links
                .get(*b)
                .and_then(|l| l.iter().position(|(t, _)| *t == a))
                .unwrap_or_default();
            inside.push(SegmentGraphInsideLink {
                weight: weight(file, position, node_pos(a, first)),
                node_index: u16::try_from(*b).unwrap_or(u16::MAX),
                link_index: u8::try_from(link_index).unwrap_or(u8::MAX),
                navigation_graph_nodes: via.as_slice().into(),
            });
        }
        nodes.push(SegmentGraphNode {
            position,
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
/// tile connections. Refuses more than 65,535 islands.
pub fn island_graph(file: &mut Nav2File) -> Result<IslandGraph> {
    let chunk_of_id = |id: u16| file.data_chunks.iter().position(|d| d.uid.index() == id);
    // Neighbours of each (chunk, segment).
    let mut adjacent: Vec<Vec<Vec<(usize, usize)>>> = Vec::with_capacity(file.data_chunks.len());
    for (c, dc) in file.data_chunks.iter().enumerate() {
        let segs = dc.segment_chunk.segments.len();
        let mut per = vec![Vec::new(); segs];
        for (s, n) in dc.segment_graph.nodes.iter().enumerate().take(segs) {
            let list: &mut Vec<(usize, usize)> = match per.get_mut(s) {
                Some(l) => l,
                None => continue,
            };
            for l in &n.inside_links {
                if usize::from(l.node_index) < segs {
                    list.push((c, usize::from(l.node_index)));
                }
            }
            for l in &n.crossing_data_chunk_links {
                if let Some(d) = chunk_of_id(l.data_chunk_id) {
                    let target_segs = file
                        .data_chunks
                        .get(d)
                        .map_or(0, |x| x.segment_chunk.segments.len());
                    if usize::from(l.node_index) < target_segs {
                        list.push((d, usize::from(l.node_index)));
                    }
                }
            }
        }
        adjacent.push(per);
    }
    let mut island_of: Vec<Vec<usize>> = adjacent
        .iter()
        .map(|per| vec![usize::MAX; per.len()])
        .collect();
    let mut island_nodes = Vec::new();
    for (c, dc) in file.data_chunks.iter().enumerate() {
        let bases = crate::geometry::segment_bases(dc);
        for seed in 0..dc.segment_chunk.segments.len() {
            if island_of.get(c).and_then(|v| v.get(seed)) != Some(&usize::MAX) {
                continue;
            }
            let island = island_nodes.len();
            let mut stack = vec![(c, seed)];
            let mut count = 0u32;
            while let Some((d, s)) = stack.pop() {
                match island_of.get_mut(d).and_then(|v| v.get_mut(s)) {
                    Some(slot) if *slot == usize::MAX => *slot = island,
                    _ => continue,
                }
                count += 1;
                for n in adjacent
                    .get(d)
                    .and_then(|v| v.get(s))
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                {
                    stack.push(*n);
                }
            }
            let ng_node =
                bases.get(seed).map_or(0, |b| b[3]) + usize::from(central_node(dc, &bases, seed));
            island_nodes.push(IslandGraphNode {
                position: dc
                    .segment_graph
                    .nodes
                    .get(seed)
                    .map(|n| n.position)
                    .unwrap_or_default(),
                attributes: ATTRIBUTE,
                low_graph_node_link: LowGraphNodeLink {
                    data_chunk_uid: dc.uid,
                    segment_graph_node_index: u16::try_from(seed).unwrap_or(u16::MAX),
                    navigation_graph_node_index: u16::try_from(ng_node).unwrap_or(u16::MAX),
                },
                segment_count: u16::try_from(count).unwrap_or(u16::MAX),
                ..IslandGraphNode::default()
            });
        }
    }
    if island_nodes.len() > usize::from(u16::MAX) {
        return Err(refuse("IslandGraph", "more than 65,535 islands"));
    }
    for (dc, islands) in file.data_chunks.iter_mut().zip(&island_of) {
        for (n, island) in dc.segment_graph.nodes.iter_mut().zip(islands) {
            n.island_graph_node_indices =
                [u16::try_from(*island).unwrap_or(u16::MAX), 0xffff, 0xffff];
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
/// grid, so that every segment lands in one), and the Y range of those segments.
pub fn search_space(file: &Nav2File) -> SearchSpace {
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
                        indices.push(u16::try_from(k).unwrap_or(u16::MAX));
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
    SearchSpace {
        origin: file.origin,
        range_y,
        block_count: [bx, 1, bz],
        block_size_xz: size,
        block_size_y: 768,
        buckets,
    }
}
