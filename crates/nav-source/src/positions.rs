//! The lists whose records other records name by position
//! ([`nav_core::Format::position_lists`]): `to-json` writes each record's position as `"#"`,
//! and `from-json` renumbers the references when records were deleted, inserted or moved.
//!
//! Areas, ladders and hiding spots are named by their `id`, not by position, with these
//! exceptions:
//!
//! | list | named by |
//! |---|---|
//! | `areas` | a Left 4 Dead area's `custom.Terror.visible_areas[*].area_index`, from sub-version 14 (below it the value is an area id) |
//! | `places` | an area's `place`, 1-based (0: none) |
//! | `terror.fog_places` | a Left 4 Dead area's `custom.Terror.fog_place`, 1-based (0: none) |
//!
//! A place name is a string, so in JSON it is wrapped to carry its position:
//! `{"#": 2, "value": "BombsiteA"}` (a bare name reads too: a new place).

use nav_core::positions::{Condition, PositionList, Reference};

/// The position lists of a Source `.nav` file.
pub static POSITION_LISTS: &[PositionList] = &[
    PositionList {
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
        runs: None,
    },
    PositionList {
        list: "places",
        noun: "place",
        refs: &[Reference::new("areas[*].place").first(1).none(&[0])],
        runs: None,
    },
    PositionList {
        list: "terror.fog_places",
        noun: "fog place",
        refs: &[Reference::new("areas[*].custom.Terror.fog_place")
            .first(1)
            .none(&[0])],
        runs: None,
    },
];
