//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! | list | named by |
//! |---|---|
//! | `objects` | `cells[*].object_indices[*]`, `objects[*].linked_edges[*].other_object_index` (-1: none) |
//! | `cells` | `internal_edges[*].assoc_cell_index[*]` and side 0 of `global_edges[*].assoc_cell_index` (-1: none), `tile_map.modern[*].cell_index` |
//!
//! Side 1 of a global edge names a cell of the neighbouring region, and a linked edge's edge
//! indices name edges of the objects' `.bms` resources: not positions in this file.

use nav_core::positions::{PositionList, Reference};

/// The position lists of a Silkroad `.nvm` file.
pub static POSITION_LISTS: &[PositionList] = &[
    PositionList {
        list: "objects",
        noun: "object",
        refs: &[
            Reference::new("cells[*].object_indices[*]"),
            Reference::new("objects[*].linked_edges[*].other_object_index").none(&[-1]),
        ],
        runs: None,
    },
    PositionList {
        list: "cells",
        noun: "cell",
        refs: &[
            Reference::new("internal_edges[*].assoc_cell_index[*]").none(&[-1]),
            Reference::new("global_edges[*].assoc_cell_index[0]").none(&[-1]),
            Reference::new("tile_map.modern[*].cell_index").none(&[-1]),
        ],
        runs: None,
    },
];
