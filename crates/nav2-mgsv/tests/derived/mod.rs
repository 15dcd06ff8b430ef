//! The rules the game files show for the SegmentGraph, IslandGraph and SearchSpace, written
//! independently of `src/apply`, for the rule measurements (`derived_rules.rs`) and to check
//! what apply changed (`apply.rs`, `apply_derived.rs`).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use nav_core::Severity;
use nav2_mgsv::geometry::segment_bases;
use nav2_mgsv::{DataChunk, Nav2File, SearchSpace};

/// The errors validate finds, as text.
pub fn errors(model: &Nav2File) -> Vec<String> {
    nav2_mgsv::validate(model)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.to_string())
        .collect()
}

/// Shortest path lengths (sum of stored edge weights) through segment `s`'s NavigationGraph
/// from its segment-local node `from`, by local node (`u64::MAX`: not reached).
pub fn paths(dc: &DataChunk, s: usize, from: usize) -> Vec<u64> {
    let b = segment_bases(dc)[s];
    let seg = &dc.segment_chunk.segments[s];
    let count = usize::from(seg.navigation_graph_node_count);
    let mut next: Vec<Vec<(usize, u64)>> = vec![Vec::new(); count];
    let edges =
        &dc.navigation_graph.edges[b[2]..b[2] + usize::from(seg.navigation_graph_edge_count)];
    for e in edges {
        let [x, y] = e.node_indices.map(usize::from);
        next[x].push((y, u64::from(e.weight)));
        next[y].push((x, u64::from(e.weight)));
    }
    let mut best = vec![u64::MAX; count];
    best[from] = 0;
    let mut heap = BinaryHeap::from([std::cmp::Reverse((0u64, from))]);
    while let Some(std::cmp::Reverse((d, u))) = heap.pop() {
        if d > best[u] {
            continue;
        }
        for &(v, w) in &next[u] {
            if d + w < best[v] {
                best[v] = d + w;
                heap.push(std::cmp::Reverse((d + w, v)));
            }
        }
    }
    best
}

/// The segment-local NavigationGraph node segment `s`'s SegmentGraph node stands on: the first
/// at its position.
pub fn standing_on(dc: &DataChunk, s: usize) -> Option<usize> {
    let b = segment_bases(dc)[s];
    let count = usize::from(dc.segment_chunk.segments[s].navigation_graph_node_count);
    let p = dc.segment_graph.nodes[s].position;
    dc.navigation_graph.nodes[b[3]..b[3] + count]
        .iter()
        .position(|n| n.position == p)
}

/// Each SegmentGraph link of segment `s` as (stored weight, first border node).
pub fn links(dc: &DataChunk, s: usize) -> Vec<(u16, Option<u8>)> {
    let n = &dc.segment_graph.nodes[s];
    let inside = n
        .inside_links
        .iter()
        .map(|l| (l.weight, l.navigation_graph_nodes.first().copied()));
    let data = n
        .crossing_data_chunk_links
        .iter()
        .map(|l| (l.weight, l.navigation_graph_nodes.first().copied()));
    let tile = n
        .crossing_tile_links
        .iter()
        .map(|l| (l.weight, l.navigation_graph_nodes.first().copied()));
    inside.chain(data).chain(tile).collect()
}

/// The buckets whose blocks segment bounds meet, both ends of a block included, the outer
/// blocks reaching past the grid (in world units from the SearchSpace origin).
pub fn blocks(f: &Nav2File, ss: &SearchSpace, min: [u16; 3], max: [u16; 3]) -> BTreeSet<usize> {
    let (a, b) = (f.decode_position(min), f.decode_position(max));
    let size = f64::from(ss.block_size_xz);
    let [bx, _, bz] = ss.block_count.map(|v| v as usize);
    let rel = |p: [f32; 3], i: usize| f64::from(p[i]) - f64::from(ss.origin[i].get());
    let meets = |i: usize, k: usize, n: usize| {
        let lo = if k == 0 { f64::MIN } else { k as f64 * size };
        let hi = if k + 1 == n {
            f64::MAX
        } else {
            (k + 1) as f64 * size
        };
        rel(a, i) <= hi && rel(b, i) >= lo
    };
    let mut out = BTreeSet::new();
    for z in (0..bz).filter(|z| meets(2, *z, bz)) {
        for x in (0..bx).filter(|x| meets(0, *x, bx)) {
            out.insert(z * bx + x);
        }
    }
    out
}

/// The buckets listing segment `s` of `dc`.
pub fn listed(ss: &SearchSpace, dc: &DataChunk, s: usize) -> BTreeSet<usize> {
    let s = u16::try_from(s).unwrap();
    (0..ss.buckets.len())
        .filter(|b| {
            ss.buckets[*b]
                .entries
                .iter()
                .any(|e| e.data_chunk_uid == dc.uid && e.segment_indices.contains(&s))
        })
        .collect()
}

/// The (MinY, MaxY) of a bucket from the segments it lists, `None` when empty.
pub fn bucket_y(f: &Nav2File, ss: &SearchSpace, b: usize) -> Option<(u8, u8)> {
    let mut y: Option<(u8, u8)> = None;
    for e in &ss.buckets[b].entries {
        let dc = f.data_chunks.iter().find(|d| d.uid == e.data_chunk_uid)?;
        for k in &e.segment_indices {
            let seg = &dc.segment_chunk.segments[usize::from(*k)];
            let (lo, hi) = ((seg.min[1] >> 8) as u8, (seg.max[1] >> 8) as u8);
            y = Some(y.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
    }
    y
}

/// Checks that what `edited` changed above chunk `c`'s NavigationGraph and segments follows
/// the rules: a SegmentGraph node of a segment whose nodes or edges changed stands on the same
/// NavigationGraph node and its link weights changed by the change of the path to their first
/// border node (everything else as it was); island nodes stand on their SegmentGraph node; the
/// SearchSpace lists each segment whose bounds changed in the buckets its bounds meet, with
/// the buckets' Y ranges recomputed, and nothing else changes. Returns the kinds of change (one
/// printed line each): SegmentGraph positions, SegmentGraph weights, IslandGraph positions,
/// SearchSpace buckets, RangeY.
pub fn check_upper(model: &Nav2File, edited: &Nav2File, c: usize) -> [usize; 5] {
    let (dc, ed) = (&model.data_chunks[c], &edited.data_chunks[c]);
    let bases = segment_bases(dc);
    let mut kinds = [0; 5];
    for (s, (seg, base)) in dc.segment_chunk.segments.iter().zip(&bases).enumerate() {
        let (a, b) = (&dc.segment_graph.nodes[s], &ed.segment_graph.nodes[s]);
        let nodes = base[3]..base[3] + usize::from(seg.navigation_graph_node_count);
        let edges = base[2]..base[2] + usize::from(seg.navigation_graph_edge_count);
        let changed = nodes
            .clone()
            .any(|n| dc.navigation_graph.nodes[n] != ed.navigation_graph.nodes[n])
            || edges
                .clone()
                .any(|e| dc.navigation_graph.edges[e] != ed.navigation_graph.edges[e]);
        if !changed {
            assert_eq!(a, b, "SegmentGraph node {s} of an unchanged segment");
            continue;
        }
        let on = standing_on(dc, s).unwrap();
        assert_eq!(
            b.position,
            ed.navigation_graph.nodes[nodes.start + on].position,
            "SegmentGraph node {s}"
        );
        kinds[0] += usize::from(a.position != b.position);
        let (old, new) = (paths(dc, s, on), paths(ed, s, on));
        for ((w0, border), (w1, _)) in links(dc, s).into_iter().zip(links(ed, s)) {
            let k = usize::from(border.unwrap());
            let want = i64::from(w0) + new[k] as i64 - old[k] as i64;
            assert_eq!(i64::from(w1), want.clamp(0, 65535), "segment {s}");
            kinds[1] += usize::from(w0 != w1);
        }
        let (mut x, mut y) = (a.clone(), b.clone());
        for n in [&mut x, &mut y] {
            n.position = [0; 3];
            n.inside_links.iter_mut().for_each(|l| l.weight = 0);
            n.crossing_data_chunk_links
                .iter_mut()
                .for_each(|l| l.weight = 0);
            n.crossing_tile_links.iter_mut().for_each(|l| l.weight = 0);
        }
        assert_eq!(
            x, y,
            "SegmentGraph node {s}: changed besides position and weights"
        );
    }
    for (g0, g1) in model.island_graphs.iter().zip(&edited.island_graphs) {
        for (a, b) in g0.nodes.iter().zip(&g1.nodes) {
            let l = b.low_graph_node_link;
            if l.data_chunk_uid == ed.uid {
                let sg = &ed.segment_graph.nodes[usize::from(l.segment_graph_node_index)];
                assert_eq!(b.position, sg.position);
            }
            kinds[2] += usize::from(a.position != b.position);
            let mut back = b.clone();
            back.position = a.position;
            assert_eq!(*a, back);
        }
    }
    let mut g = edited.island_graphs.clone();
    g.truncate(model.island_graphs.len());
    assert_eq!(g.len(), edited.island_graphs.len());
    let (Some(s0), Some(s1)) = (&model.search_space, &edited.search_space) else {
        assert_eq!(model.search_space, edited.search_space);
        return kinds;
    };
    let moved: BTreeMap<usize, BTreeSet<usize>> = (0..dc.segment_chunk.segments.len())
        .filter(|s| dc.segment_chunk.segments[*s] != ed.segment_chunk.segments[*s])
        .map(|s| {
            let seg = &ed.segment_chunk.segments[s];
            (s, blocks(edited, s0, seg.min, seg.max))
        })
        .collect();
    let mut touched = BTreeSet::new();
    for (s, want) in &moved {
        let was = listed(s0, dc, *s);
        assert_eq!(listed(s1, ed, *s), *want, "segment {s}'s buckets");
        kinds[3] += usize::from(was != *want);
        touched.extend(was.union(want).copied());
    }
    for b in 0..s0.buckets.len() {
        let (x, y) = (&s0.buckets[b], &s1.buckets[b]);
        if touched.contains(&b) {
            if let Some(want) = bucket_y(edited, s1, b) {
                assert_eq!((y.min_y, y.max_y), want, "bucket {b}");
            }
            // Every segment but the moved ones listed as before, in order.
            let keep = |e: &nav2_mgsv::BucketEntry| {
                let list: Vec<u16> = e
                    .segment_indices
                    .iter()
                    .copied()
                    .filter(|k| e.data_chunk_uid != dc.uid || !moved.contains_key(&usize::from(*k)))
                    .collect();
                (e.data_chunk_uid, list)
            };
            let strip = |v: Vec<(nav2_mgsv::DataChunkUid, Vec<u16>)>| {
                v.into_iter()
                    .filter(|(_, l)| !l.is_empty())
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                strip(x.entries.iter().map(keep).collect()),
                strip(y.entries.iter().map(keep).collect()),
                "bucket {b}"
            );
            for e in &y.entries {
                assert!(
                    e.segment_indices.windows(2).all(|w| w[0] < w[1]),
                    "bucket {b}"
                );
            }
        } else {
            assert_eq!(x, y, "bucket {b} lists no moved segment");
        }
    }
    let greatest = |f: &Nav2File| {
        f.data_chunks
            .iter()
            .flat_map(|d| &d.segment_chunk.segments)
            .map(|s| s.max[1])
            .max()
    };
    if Some(s0.range_y) == greatest(model) {
        assert_eq!(Some(s1.range_y), greatest(edited));
    } else {
        assert_eq!(s1.range_y, s0.range_y);
    }
    kinds[4] += usize::from(s0.range_y != s1.range_y);
    let (mut x, mut y) = (s0.clone(), s1.clone());
    (x.buckets, y.buckets, x.range_y, y.range_y) = (Vec::new(), Vec::new(), 0, 0);
    assert_eq!(x, y, "SearchSpace header");
    kinds
}
