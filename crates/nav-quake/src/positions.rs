//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! | list | named by |
//! |---|---|
//! | `nodes` | `links[*].target` |
//! | `links` | each node's run `first_link` .. `first_link + num_links`, `edicts[*].link` |
//! | `traversals` | `links[*].traversal` (`0xFFFF`: none) |
//!
//! A node's run is renumbered as a whole: it starts at its first surviving link and spans to
//! its last one, so deleting a link shortens the run of its node.

use nav_core::positions::{PositionList, Reference};

/// The position lists of a Quake navigation file.
pub static POSITION_LISTS: &[PositionList] = &[
    PositionList {
        list: "nodes",
        noun: "node",
        refs: &[Reference::new("links[*].target")],
        runs: None,
    },
    PositionList {
        list: "links",
        noun: "link",
        refs: &[
            Reference::new("nodes[*].first_link").count("num_links"),
            Reference::new("edicts[*].link"),
        ],
        runs: None,
    },
    PositionList {
        list: "traversals",
        noun: "traversal",
        refs: &[Reference::new("links[*].traversal").none(&[0xFFFF])],
        runs: None,
    },
];
