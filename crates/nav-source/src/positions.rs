//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! Areas, ladders and hiding spots are named by their `id`, not by position, with one
//! exception:
//!
//! | list | named by |
//! |---|---|
//! | `areas` | a Left 4 Dead area's `custom.Terror.visible_areas[*].area_index`, from sub-version 14 (below it the value is an area id) |
//!
//! Two more lists are named by position but are lists of strings, which cannot carry `"#"`:
//! `places` (an area's 1-based `place`) and `terror.fog_places` (a Left 4 Dead area's
//! `fog_place`). Delete a place from the end only, or renumber the areas' `place` by hand.

use nav_core::positions::{Condition, PositionList, Reference};

/// The position lists of a Source `.nav` file.
pub static POSITION_LISTS: &[PositionList] = &[PositionList {
    list: "areas",
    noun: "area",
    refs: &[
        Reference::new("areas[*].custom.Terror.visible_areas[*].area_index").when(
            Condition::AtLeast {
                path: "sub_version",
                min: 14,
            },
        ),
    ],
}];
