//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! Within each data chunk (`data_chunks[*]`) and each island graph (`island_graphs[*]`):
//!
//! | list | named by |
//! |---|---|
//! | `data_chunks[*].navigation_graph.edges` | the chunk's `navigation_graph.nodes[*].inside_links[*].edge_index` |
//! | `data_chunks[*].segment_graph.nodes` | the chunk's `segment_graph.nodes[*].inside_links[*].node_index` |
//! | `island_graphs[i].nodes` (i = 0, 1, 2) | the graph's `nodes[*].inside_links[*].node_index`, and entry i of every chunk's `segment_graph.nodes[*].island_graph_node_indices` (0xFFFF: none) |
//!
//! Not renumbered, because they are not plain positions in one list: navigation-graph nodes,
//! meshes and positions are named segment-locally (a segment's base plus a `u8`, as an edge's
//! `node_indices` and a mesh's `positions` and `navigation_graph_nodes` are) and segments own
//! runs of them by count; a mesh's neighbours pack the index with a type in 16 bits; crossing
//! links name records of other data chunks and tiles. Edit those lists at their end only.

use nav_core::positions::{PositionList, Reference};

/// The position list of island graph `$i`: its nodes, named by the graph's inside links and
/// by entry `$i` of every segment-graph node's island-graph node indices.
macro_rules! island_graph {
    ($i:literal) => {
        PositionList {
            list: concat!("island_graphs[", $i, "].nodes"),
            noun: "island-graph node",
            refs: &[
                Reference::new(concat!(
                    "island_graphs[",
                    $i,
                    "].nodes[*].inside_links[*].node_index"
                )),
                Reference::new(concat!(
                    "data_chunks[*].segment_graph.nodes[*].island_graph_node_indices[",
                    $i,
                    "]"
                ))
                .none(&[0xFFFF]),
            ],
        }
    };
}

/// The position lists of a Fox Engine `.nav2` file.
pub static POSITION_LISTS: &[PositionList] = &[
    PositionList {
        list: "data_chunks[*].navigation_graph.edges",
        noun: "navigation-graph edge",
        refs: &[Reference::new(
            "data_chunks[*].navigation_graph.nodes[*].inside_links[*].edge_index",
        )],
    },
    PositionList {
        list: "data_chunks[*].segment_graph.nodes",
        noun: "segment-graph node",
        refs: &[Reference::new(
            "data_chunks[*].segment_graph.nodes[*].inside_links[*].node_index",
        )],
    },
    island_graph!("0"),
    island_graph!("1"),
    island_graph!("2"),
];
