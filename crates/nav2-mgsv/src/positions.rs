//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! Within each data chunk (`data_chunks[*]`), the segments own runs of four lists by count
//! (segment 0's run first, then segment 1's): `navigation_graph_node_count` nodes,
//! `navigation_graph_edge_count` edges, `navmesh_position_count` positions and
//! `navmesh_count` meshes ([`nav_core::positions::Runs`]). A record stays in the run it was
//! in when written (a new one joins the run of the record before it), and each segment's count
//! becomes its run's new length. Some references count from the start of their segment's run
//! (*run-local*); some name a record of another data chunk, chosen by a chunk id beside them
//! (*across*: a chunk's id is its uid's low 15 bits).
//!
//! | list | named by |
//! |---|---|
//! | `navigation_graph.nodes` | its nodes' `inside_links[*].node_index` and `crossing_segment_link`; run-local: edges' `node_indices`, meshes' `navigation_graph_nodes` (the mesh's `segment_index`), segment-graph links' `navigation_graph_nodes` (segment-graph node k is segment k's); across: other chunks' `crossing_data_chunk_link.node_index` (`data_chunk_id`), island-graph nodes' `low_graph_node_link.navigation_graph_node_index` (`data_chunk_uid`); guarded: ConnectTileInfo nodes |
//! | `navigation_graph.edges` | nodes' `inside_links[*].edge_index` |
//! | `navmesh_chunk.positions` | run-local: meshes' `positions` |
//! | `navmesh_chunk.meshes` | nodes' `navmesh_index`; neighbours of type 0 (below 0x4000); across: neighbours of type 1 (0x4000 + index, in the chunk of the same side of `crossing.data_chunk_ids`); guarded: ConnectTileInfo nodes |
//! | `segment_chunk.segments` | nodes', edges' and meshes' `segment_index`; across: SearchSpace bucket entries' `segment_indices` (`data_chunk_uid`). Segments own runs: deleting, inserting or moving one is refused (adding one at the end is not) |
//! | `segment_graph.nodes` | its nodes' `inside_links[*].node_index`; across: other chunks' `crossing_data_chunk_links[*].node_index`, island-graph nodes' `low_graph_node_link.segment_graph_node_index` |
//! | `island_graphs[i].nodes` (i = 0, 1, 2) | the graph's `nodes[*].inside_links[*].node_index`, and entry i of every chunk's `segment_graph.nodes[*].island_graph_node_indices` (0xFFFF: none) |
//!
//! Guarded references (ConnectTileInfo nodes, in no corpus file) name a node or mesh without
//! saying which chunk's: an edit that changes the position of one they may name is refused.
//! Not renumbered: neighbours and crossing links of type "tile" name records of other files.

use nav_core::positions::{Condition, Owner, PositionList, Reference};

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
            runs: None,
        }
    };
}

/// The segments, whose counts cut a data chunk's nodes, edges, positions and meshes into runs.
const SEGMENTS: &str = "data_chunks[*].segment_chunk.segments";

/// A data chunk's id (`data_chunk_id`) is its uid's index: the uid's low 15 bits.
const CHUNK_ID: u64 = 0x7fff;

/// A data chunk's whole uid (`data_chunk_uid`).
const CHUNK_UID: u64 = 0xffff_ffff;

/// The position lists of a Fox Engine `.nav2` file.
pub static POSITION_LISTS: &[PositionList] = &[
    PositionList::new(
        "data_chunks[*].navigation_graph.nodes",
        "navigation-graph node",
        &[
            Reference::new("data_chunks[*].navigation_graph.nodes[*].inside_links[*].node_index"),
            Reference::new("data_chunks[*].navigation_graph.nodes[*].crossing_segment_link"),
            Reference::new("data_chunks[*].navigation_graph.edges[*].node_indices[*]")
                .local(Owner::Field("segment_index")),
            Reference::new("data_chunks[*].navmesh_chunk.meshes[*].navigation_graph_nodes[*]")
                .local(Owner::Field("segment_index")),
            Reference::new(
                "data_chunks[*].segment_graph.nodes[*].inside_links[*].navigation_graph_nodes[*]",
            )
            .local(Owner::Index(1)),
            Reference::new(
                "data_chunks[*].segment_graph.nodes[*].crossing_data_chunk_links[*].\
                 navigation_graph_nodes[*]",
            )
            .local(Owner::Index(1)),
            Reference::new(
                "data_chunks[*].segment_graph.nodes[*].crossing_tile_links[*].\
                 navigation_graph_nodes[*]",
            )
            .local(Owner::Index(1)),
            Reference::new(
                "data_chunks[*].navigation_graph.nodes[*].crossing_data_chunk_link.node_index",
            )
            .across("data_chunk_id", "uid", CHUNK_ID),
            Reference::new(
                "island_graphs[*].nodes[*].low_graph_node_link.navigation_graph_node_index",
            )
            .across("data_chunk_uid", "uid", CHUNK_UID),
            Reference::new("connect_tile_info.nodes[*].navigation_graph_node_index").guarded(),
        ],
    )
    .runs(SEGMENTS, "navigation_graph_node_count"),
    PositionList::new(
        "data_chunks[*].navigation_graph.edges",
        "navigation-graph edge",
        &[Reference::new(
            "data_chunks[*].navigation_graph.nodes[*].inside_links[*].edge_index",
        )],
    )
    .runs(SEGMENTS, "navigation_graph_edge_count"),
    PositionList::new(
        "data_chunks[*].navmesh_chunk.positions",
        "navmesh position",
        &[
            Reference::new("data_chunks[*].navmesh_chunk.meshes[*].positions[*]")
                .local(Owner::Field("segment_index")),
        ],
    )
    .runs(SEGMENTS, "navmesh_position_count"),
    PositionList::new(
        "data_chunks[*].navmesh_chunk.meshes",
        "mesh",
        &[
            Reference::new("data_chunks[*].navigation_graph.nodes[*].navmesh_index"),
            // A neighbour is {NavmeshIndex:14, Type:2}: type 0 a mesh of this chunk, type 1 a
            // mesh of the chunk that the same side of `crossing.data_chunk_ids` names.
            Reference::new("data_chunks[*].navmesh_chunk.meshes[*].neighbors[*]").when(
                Condition::Range {
                    min: 0,
                    max: 0x4000,
                },
            ),
            Reference::new("data_chunks[*].navmesh_chunk.meshes[*].neighbors[*]")
                .when(Condition::Range {
                    min: 0x4000,
                    max: 0x8000,
                })
                .first(0x4000)
                .across("crossing.data_chunk_ids[=]", "uid", CHUNK_ID),
            Reference::new("connect_tile_info.nodes[*].navmesh_index").guarded(),
        ],
    )
    .runs(SEGMENTS, "navmesh_count"),
    PositionList::new(
        "data_chunks[*].segment_chunk.segments",
        "segment",
        &[
            Reference::new("data_chunks[*].navigation_graph.nodes[*].segment_index"),
            Reference::new("data_chunks[*].navigation_graph.edges[*].segment_index"),
            Reference::new("data_chunks[*].navmesh_chunk.meshes[*].segment_index"),
            Reference::new("search_space.buckets[*].entries[*].segment_indices[*]").across(
                "data_chunk_uid",
                "uid",
                CHUNK_UID,
            ),
        ],
    ),
    PositionList::new(
        "data_chunks[*].segment_graph.nodes",
        "segment-graph node",
        &[
            Reference::new("data_chunks[*].segment_graph.nodes[*].inside_links[*].node_index"),
            Reference::new(
                "data_chunks[*].segment_graph.nodes[*].crossing_data_chunk_links[*].node_index",
            )
            .across("data_chunk_id", "uid", CHUNK_ID),
            Reference::new(
                "island_graphs[*].nodes[*].low_graph_node_link.segment_graph_node_index",
            )
            .across("data_chunk_uid", "uid", CHUNK_UID),
        ],
    ),
    island_graph!("0"),
    island_graph!("1"),
    island_graph!("2"),
];
