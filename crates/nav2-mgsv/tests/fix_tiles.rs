//! `fix` keeps an IslandGraph's connections to other tiles when it recomputes the IslandGraphs:
//! on every real file that has some, an error in the first IslandGraph makes fix recompute
//! the graphs, and every connection is still there afterwards, by content (the neighbour
//! tile, the weight and the node there), on the island of the segment its node stood for.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use nav_core::Format;
use nav_core::testing::{corpus_dir, is_negative, real_paths, skip_without_corpus};
use nav2_mgsv::{Nav2, Nav2File};

/// A connection to another tile by content: the neighbour's TileId, the weight and its node.
type Connection = (u16, u16, u16);

/// The first IslandGraph's connections to other tiles, each with the segment (data chunk uid,
/// segment index) its node stands for.
fn connections(m: &Nav2File) -> Vec<((u32, u16), Connection)> {
    let Some(g) = m.island_graphs.first() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for n in &g.nodes {
        let at = (
            n.low_graph_node_link.data_chunk_uid.0,
            n.low_graph_node_link.segment_graph_node_index,
        );
        for l in &n.crossing_tile_links {
            out.push((at, content(g, *l)));
        }
    }
    out
}

/// What a link names: its side's TileId and the ConnectSideInfo it indexes in that side.
fn content(g: &nav2_mgsv::IslandGraph, l: nav2_mgsv::IslandGraphCrossingTileLink) -> Connection {
    let side = usize::from(l.connect_side_index());
    let start: usize = g.connect_side_info_groups[..side]
        .iter()
        .map(|x| usize::from(x.count))
        .sum();
    let info = g.connect_side_infos[start + usize::from(l.connect_side_info_index())];
    (
        g.connect_side_info_groups[side].tile_id,
        info.weight,
        info.node_index,
    )
}

/// The connections of the first IslandGraph's node that holds segment `at` now (through the
/// SegmentGraph node's first island index).
fn connections_at(m: &Nav2File, at: (u32, u16)) -> Vec<Connection> {
    let dc = m.data_chunks.iter().find(|d| d.uid.0 == at.0).unwrap();
    let island = dc.segment_graph.nodes[usize::from(at.1)].island_graph_node_indices[0];
    let g = &m.island_graphs[0];
    g.nodes[usize::from(island)]
        .crossing_tile_links
        .iter()
        .map(|l| content(g, *l))
        .collect()
}

fn tally(list: impl IntoIterator<Item = Connection>) -> BTreeMap<Connection, usize> {
    let mut out = BTreeMap::new();
    for c in list {
        *out.entry(c).or_insert(0) += 1;
    }
    out
}

#[test]
fn recomputed_island_graphs_keep_their_tile_connections() {
    let files = real_paths("mgsv");
    if files.is_empty() {
        skip_without_corpus("no real `mgsv` file");
        return;
    }
    let (mut files_checked, mut checked) = (0, 0);
    for path in files.iter().filter(|p| !is_negative(p)) {
        let name = path.file_name().unwrap().to_string_lossy();
        let mut m = Nav2.read(&std::fs::read(path).unwrap()).unwrap();
        let before = connections(&m);
        if before.is_empty() {
            continue;
        }
        // An error in the first IslandGraph: an inside link to a node that is not there.
        let g = &mut m.island_graphs[0];
        match g.nodes.iter_mut().find_map(|n| n.inside_links.first_mut()) {
            Some(link) => link.node_index = 0xfffe,
            None => g.nodes[0]
                .inside_links
                .push(nav2_mgsv::IslandGraphInsideLink {
                    weight: 0,
                    node_index: 0xfffe,
                }),
        }
        let changes = Nav2.fix(&mut m);
        assert!(
            changes
                .iter()
                .any(|c| c.starts_with("IslandGraphs: recomputed")),
            "{name}: {changes:#?}"
        );
        assert!(
            changes.iter().all(|c| !c.contains("dropped (no island")),
            "{name}: {changes:#?}"
        );
        // The same connections, as many of each, each on the island of its segment.
        let after = connections(&m);
        assert_eq!(
            tally(after.iter().map(|(_, c)| *c)),
            tally(before.iter().map(|(_, c)| *c)),
            "{name}"
        );
        for (at, c) in &before {
            assert!(
                connections_at(&m, *at).contains(c),
                "{name}: {at:?} lost {c:?}"
            );
        }
        let bytes = Nav2.write(&m).unwrap();
        assert_eq!(
            Nav2.read(&bytes).unwrap(),
            m,
            "{name}: does not read back equal"
        );
        files_checked += 1;
        checked += before.len();
    }
    println!(
        "mgsv: {checked} connections to other tiles kept through fix in {files_checked} files"
    );
    if corpus_dir("mgsv").is_some() {
        assert!(
            files_checked > 0,
            "no real file has a connection to another tile"
        );
    }
}
