//! A vertex of a game file moved far enough (12 m) to change its segment's bounds: the
//! SegmentGraph node of that segment follows its NavigationGraph node, the segment's links'
//! weights follow the path to their border nodes, and the SearchSpace lists the segment in the
//! buckets its new bounds meet, as `tests/derived/mod.rs` has the rules; nothing in other
//! segments or data chunks changes, validate stays clean and the file reads back as written.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::Format;
use nav_core::RawF32;
use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::testing::{as_ngons, real_file};
use nav2_mgsv::geometry::segment_bases;
use nav2_mgsv::{Nav2, Nav2File};

mod derived;
use derived::errors;

/// Game tiles of several data chunks, and a boss mesh.
const FILES: [&str; 3] = [
    "ssav_136_127_nav.nav2",
    "ssav_140_130_nav.nav2",
    "ssav_139_130_nav_boss.nav2",
];

/// In the largest segment of the first chunk with segments: (chunk, segment, index into the
/// chunk's positions) of a corner of the mesh side whose NavigationGraph node the segment's
/// SegmentGraph node stands on.
fn corner_under_segment_node(model: &Nav2File) -> (usize, usize, usize) {
    for (c, dc) in model.data_chunks.iter().enumerate() {
        let bases = segment_bases(dc);
        let mut segments: Vec<usize> = (0..dc.segment_chunk.segments.len()).collect();
        segments.sort_by_key(|s| std::cmp::Reverse(dc.segment_chunk.segments[*s].navmesh_count));
        for s in segments {
            let on = derived::standing_on(dc, s).unwrap();
            for m in &dc.navmesh_chunk.meshes {
                if usize::from(m.segment_index) != s {
                    continue;
                }
                if let Some(side) = m
                    .navigation_graph_nodes
                    .iter()
                    .position(|n| usize::from(*n) == on)
                {
                    return (c, s, bases[s][0] + usize::from(m.positions[side]));
                }
            }
        }
    }
    panic!("no segment node stands on a mesh side");
}

/// The far move of [`corner_under_segment_node`]'s corner: (chunk, segment, index into the
/// chunk's positions, its new stored value, the file's mesh with the move).
fn far_move(model: &Nav2File) -> (usize, usize, usize, [u16; 3], EditedMesh) {
    let g = Nav2.geometry(model).unwrap();
    let (c, s, i) = corner_under_segment_node(model);
    let dc = &model.data_chunks[c];
    let seg = &dc.segment_chunk.segments[s];
    // At least 12 m (more than a SearchSpace block) west of the segment's bounds, exactly on
    // a block edge, so that the segment newly meets the blocks on both sides of that edge;
    // else as far east, also on an edge.
    let (step, edge) = (
        12 * u32::from(model.denominator[0]),
        model.search_space.as_ref().unwrap().block_size_xz * u32::from(model.denominator[0]),
    );
    let mut new = dc.navmesh_chunk.positions[i];
    let west = u32::from(seg.min[0])
        .checked_sub(step)
        .map(|x| x / edge * edge);
    let east = (u32::from(seg.max[0]) + step).div_ceil(edge) * edge;
    new[0] = u16::try_from(west.filter(|x| *x >= edge).unwrap_or(east)).unwrap();
    let before: usize = model.data_chunks[..c]
        .iter()
        .map(|d| d.navmesh_chunk.positions.len())
        .sum();
    let mut mesh = as_ngons(&g);
    mesh.vertices[before + i] = model.decode_position(new);
    (c, s, i, new, mesh)
}

#[test]
fn a_search_space_not_on_the_file_origin_is_kept_and_said_so() {
    let Some(path) = real_file("mgsv", FILES[0]) else {
        return;
    };
    let mut model = nav2_mgsv::read(&std::fs::read(path).unwrap()).unwrap();
    model.search_space.as_mut().unwrap().origin[0] = RawF32::from(1.5f32);
    let (_, _, _, _, mesh) = far_move(&model);
    let mut edited = model.clone();
    let lines = apply_mesh(&Nav2, &mut edited, &mesh, &MatchOptions::default()).unwrap();
    assert_eq!(edited.search_space, model.search_space);
    let kept = lines
        .iter()
        .filter(|l| l.starts_with("SearchSpace: kept"))
        .count();
    assert_eq!(kept, 1, "{lines:#?}");
}

#[test]
fn a_vertex_moved_out_of_its_segment_bounds_moves_its_segment_node_and_buckets() {
    let mut checked = 0;
    for file in FILES {
        let Some(path) = real_file("mgsv", file) else {
            continue;
        };
        let model = nav2_mgsv::read(&std::fs::read(path).unwrap()).unwrap();
        assert_eq!(errors(&model), Vec::<String>::new(), "{file}");
        let (c, s, i, new, mesh) = far_move(&model);
        let dc = &model.data_chunks[c];
        let seg = &dc.segment_chunk.segments[s];
        let mut edited = model.clone();
        let lines = apply_mesh(&Nav2, &mut edited, &mesh, &MatchOptions::default())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        eprintln!("{file}: {}", lines.join("\n  "));
        let ed = &edited.data_chunks[c];
        assert_eq!(ed.navmesh_chunk.positions[i], new, "{file}");
        // The segment's bounds, SegmentGraph node and buckets changed, as the rules say.
        assert_ne!(ed.segment_chunk.segments[s], *seg, "{file}: bounds");
        let (a, b) = (&dc.segment_graph.nodes[s], &ed.segment_graph.nodes[s]);
        assert_ne!(a.position, b.position, "{file}: SegmentGraph node {s}");
        let (s0, s1) = (
            model.search_space.as_ref().unwrap(),
            edited.search_space.as_ref().unwrap(),
        );
        assert_ne!(
            derived::listed(s0, dc, s),
            derived::listed(s1, ed, s),
            "{file}: the segment's buckets"
        );
        let kinds = derived::check_upper(&model, &edited, c);
        assert!(kinds[0] == 1 && kinds[3] == 1, "{file}: {kinds:?}");
        let lined = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
        assert_eq!(lined("SegmentGraph: 1 node moved"), 1, "{file}");
        assert_eq!(lined("SearchSpace: 1 segment entered or left"), 1, "{file}");
        // Nothing in other segments or data chunks.
        for (t, (x, y)) in dc
            .segment_chunk
            .segments
            .iter()
            .zip(&ed.segment_chunk.segments)
            .enumerate()
        {
            assert!(t == s || x == y, "{file}: segment {t}");
        }
        for (d, (x, y)) in model
            .data_chunks
            .iter()
            .zip(&edited.data_chunks)
            .enumerate()
        {
            assert!(d == c || x == y, "{file}: data chunk {d}");
        }
        assert_eq!(errors(&edited), Vec::<String>::new(), "{file}");
        let bytes = Nav2.write(&edited).unwrap();
        assert!(
            nav2_mgsv::read(&bytes).unwrap() == edited,
            "{file}: round trip"
        );
        checked += 1;
    }
    println!("{checked} files: a far move keeps the SegmentGraph and SearchSpace true");
}
