//! Lists whose records other records name by their position, described for the JSON tools.
//!
//! A format names some of its records by where they stand in a list (a Quake link's target node,
//! a Skyrim triangle's neighbours). Deleting a record from the middle of such a list in a JSON
//! document would silently re-point every later reference, so [`crate::Format::position_lists`]
//! describes those lists and the fields that refer into them, and the JSON tools
//! (`navkit_lib::positions`) write each record's position as a `"#"` key and renumber the
//! references when records were deleted, inserted or reordered.
//!
//! # Paths
//!
//! A path is a pattern over the model's JSON (as serde writes it), relative to the model, of
//! `.`-separated steps:
//!
//! - `name`: the field `name` of an object (an enum's variant in serde's external tagging is a
//!   field too: `custom.Terror.visible_areas`);
//! - `name[*]` (or a step `[*]` alone after an array): every element of an array;
//! - `**`: any number of steps, none included (a Skyrim plugin's navmeshes sit in groups nested
//!   to any depth: `**.navmesh.triangles`).
//!
//! A list and its references share a *scope*: the longest common prefix of their patterns. An
//! edge of `sections[*].edges[*].from` names a node of `sections[*].nodes` in the same section,
//! because both patterns start with `sections[*]`.
//!
//! ```
//! use nav_core::positions::{PositionList, Reference};
//!
//! static LISTS: &[PositionList] = &[PositionList {
//!     list: "nodes",
//!     noun: "node",
//!     refs: &[Reference::new("links[*].target"), Reference::new("links[*].via").none(&[0xFFFF])],
//! }];
//! assert_eq!(LISTS[0].refs[1].none, &[0xFFFF]);
//! ```

/// A list whose records other records name by position, and those references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositionList {
    /// The path of the list (`triangles`, `data_chunks[*].navigation_graph.nodes`).
    pub list: &'static str,
    /// What one record is called in messages (`triangle`).
    pub noun: &'static str,
    /// Every field that names a record of the list by its position.
    pub refs: &'static [Reference],
}

/// A field that names a record of a [`PositionList`] by its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// The path of the field (`links[*].target`, `triangles[*].edges[*]`).
    pub path: &'static str,
    /// Values that mean "no record" (`0xFFFF`, `-1`), left as they are.
    pub none: &'static [i64],
    /// The position is the value shifted right by this many bits; the bits below are kept (a
    /// Skyrim cover mapping packs `triangle << 2 | edge`). 0 for a plain index.
    pub shift: u32,
    /// Where the reference holds only sometimes, when it does.
    pub when: Option<Condition>,
    /// For the first record of a run: the sibling field (in the same object) holding the run's
    /// length (a Quake node's `first_link` with `num_links`). The run is renumbered as a whole:
    /// it starts at the first surviving record and spans to the last one.
    pub count: Option<&'static str>,
}

/// When a [`Reference`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The integer at `path` (relative to the model, no wildcards) is at least `min` (a Left 4
    /// Dead file names visible areas by position from sub-version 14).
    AtLeast {
        /// The path of the integer.
        path: &'static str,
        /// The least value at which the reference holds.
        min: i64,
    },
    /// The reference is element `k` of an array field of some record, and bit `k` of the
    /// record's integer field `field` is `set` (a Skyrim triangle's edge `k` names a triangle
    /// when flag bit `k` is clear, an edge link when it is set).
    Bit {
        /// The record's field holding the bits.
        field: &'static str,
        /// Whether the bit must be set (or clear) for the reference to hold.
        set: bool,
    },
}

impl Reference {
    /// A plain reference at `path`: every value is a position.
    pub const fn new(path: &'static str) -> Self {
        Reference {
            path,
            none: &[],
            shift: 0,
            when: None,
            count: None,
        }
    }

    /// The same reference, with values meaning "no record".
    pub const fn none(self, none: &'static [i64]) -> Self {
        Reference { none, ..self }
    }

    /// The same reference, packed: the position is the value shifted right by `shift` bits.
    pub const fn shift(self, shift: u32) -> Self {
        Reference { shift, ..self }
    }

    /// The same reference, holding only when `when` does.
    pub const fn when(self, when: Condition) -> Self {
        Reference {
            when: Some(when),
            ..self
        }
    }

    /// The same reference, as the start of a run whose length is the sibling field `count`.
    pub const fn count(self, count: &'static str) -> Self {
        Reference {
            count: Some(count),
            ..self
        }
    }
}
