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
//! In a plugin, also the reduced mesh of each navmesh's `NVMI` island data:
//!
//! | list | named by |
//! |---|---|
//! | `**.NavmeshInfo.island.vertices` | the same island's `triangles[*][*]` |
//!
//! A vertex is written as `[x, y, z]`, an array, so in JSON it is wrapped to carry its
//! position: `{"#": 12, "value": [x, y, z]}` (a bare `[x, y, z]` reads too: a new vertex). An
//! edge link's `triangle` names a triangle of another navmesh, not of this one.

use nav_core::positions::{Condition, PositionList, Reference};

/// The lists of one navmesh, every path after `$prefix`.
macro_rules! navmesh_lists {
    ($prefix:literal $(, $more:expr)*) => {
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
                runs: None,
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
                runs: None,
            },
            PositionList {
                list: concat!($prefix, "cover_array"),
                noun: "cover entry",
                refs: &[Reference::new(concat!($prefix, "cover_mappings[*].cover"))],
                runs: None,
            },
            PositionList {
                list: concat!($prefix, "vertices"),
                noun: "vertex",
                refs: &[
                    Reference::new(concat!($prefix, "triangles[*].vertices[*]")),
                    Reference::new(concat!($prefix, "cover_array[*].vertices[*]")),
                ],
                runs: None,
            },
            $($more,)*
        ]
    };
}

/// The position lists of an `NVNM` navmesh.
pub static NVNM_LISTS: &[PositionList] = navmesh_lists!("");

/// The position lists of a plugin: those of each navmesh, wherever its group is.
pub static PLUGIN_LISTS: &[PositionList] = navmesh_lists!(
    "**.navmesh.",
    PositionList {
        list: "**.NavmeshInfo.island.vertices",
        noun: "island vertex",
        refs: &[Reference::new("**.NavmeshInfo.island.triangles[*][*]")],
        runs: None,
    }
);
