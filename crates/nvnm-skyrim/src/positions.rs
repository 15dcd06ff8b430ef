//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! In an `NVNM` navmesh (a plugin's navmeshes alike, each on its own):
//!
//! | list | named by |
//! |---|---|
//! | `triangles` | `triangles[*].edges[k]` where flag bit `k` is clear (-1: none), `door_triangles[*].triangle`, `cover_triangles[*]`, `waypoints[*].triangle`, the triangle of `cover_mappings[*].triangle_edge` (`triangle << 2 \| edge`), `grid.cells[*][*]` |
//! | `edge_links` | `triangles[*].edges[k]` where flag bit `k` is set (-1: none) |
//! | `cover_array` | `cover_mappings[*].cover` |
//! | `vertices` | `triangles[*].vertices[*]`, `cover_array[*].vertices[*]` |
//!
//! A vertex is written as `[x, y, z]`, which cannot carry `"#"`: deleting a vertex from the
//! middle of the list in JSON is not seen. Delete vertices with `navkit_lib`'s
//! `remove_records`, or leave unused ones in place. An edge link's `triangle` names a triangle
//! of another navmesh, not of this one.

use nav_core::positions::{Condition, PositionList, Reference};

/// The lists of one navmesh, every path after `$prefix`.
macro_rules! navmesh_lists {
    ($prefix:literal) => {
        &[
            PositionList {
                list: concat!($prefix, "triangles"),
                noun: "triangle",
                refs: &[
                    Reference::new(concat!($prefix, "triangles[*].edges[*]"))
                        .none(&[-1])
                        .when(Condition::Bit {
                            field: "flags",
                            set: false,
                        }),
                    Reference::new(concat!($prefix, "door_triangles[*].triangle")),
                    Reference::new(concat!($prefix, "cover_triangles[*]")),
                    Reference::new(concat!($prefix, "waypoints[*].triangle")).none(&[-1]),
                    Reference::new(concat!($prefix, "cover_mappings[*].triangle_edge")).shift(2),
                    Reference::new(concat!($prefix, "grid.cells[*][*]")),
                ],
            },
            PositionList {
                list: concat!($prefix, "edge_links"),
                noun: "edge link",
                refs: &[Reference::new(concat!($prefix, "triangles[*].edges[*]"))
                    .none(&[-1])
                    .when(Condition::Bit {
                        field: "flags",
                        set: true,
                    })],
            },
            PositionList {
                list: concat!($prefix, "cover_array"),
                noun: "cover entry",
                refs: &[Reference::new(concat!($prefix, "cover_mappings[*].cover"))],
            },
            PositionList {
                list: concat!($prefix, "vertices"),
                noun: "vertex",
                refs: &[
                    Reference::new(concat!($prefix, "triangles[*].vertices[*]")),
                    Reference::new(concat!($prefix, "cover_array[*].vertices[*]")),
                ],
            },
        ]
    };
}

/// The position lists of an `NVNM` navmesh.
pub static NVNM_LISTS: &[PositionList] = navmesh_lists!("");

/// The position lists of a plugin: those of each navmesh, wherever its group is.
pub static PLUGIN_LISTS: &[PositionList] = navmesh_lists!("**.navmesh.");
