//! The names every part of the `NVNM` format shares, below all of them: the format name, the
//! CRC constants, the triangle flag bits, the version layouts, the parent cell or worldspace
//! and what a triangle edge leads to. [`super`] re-exports them.

use core::fmt;

/// The format name errors carry.
pub const FORMAT: &str = "nvnm-skyrim";

/// The CRC of "PathingCell", the usual value of the header's second field.
pub const PATHING_CELL_CRC: u32 = 0xA5E9_A03C;

/// The CRC of "PathingDoor", the usual door type of a door triangle.
pub const PATHING_DOOR_CRC: u32 = 0xE48B_73F3;

/// Triangle flag bits (xEdit's and Mutagen's names).
pub mod triangle_flags {
    /// Edge 0-1 is an edge link: its value indexes the edge links.
    pub const EDGE_LINK_0_1: u16 = 0x0001;
    /// Edge 1-2 is an edge link.
    pub const EDGE_LINK_1_2: u16 = 0x0002;
    /// Edge 2-0 is an edge link.
    pub const EDGE_LINK_2_0: u16 = 0x0004;
    /// Deleted.
    pub const DELETED: u16 = 0x0008;
    /// No large creatures.
    pub const NO_LARGE_CREATURES: u16 = 0x0010;
    /// Overlapping.
    pub const OVERLAPPING: u16 = 0x0020;
    /// Preferred.
    pub const PREFERRED: u16 = 0x0040;
    /// Water.
    pub const WATER: u16 = 0x0200;
    /// Door.
    pub const DOOR: u16 = 0x0400;
    /// Found (a Creation Kit working bit).
    pub const FOUND: u16 = 0x0800;
}

/// Which array layout a version uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Version 12 (Skyrim LE and SE): 16-byte triangles, 10-byte edge links, cover triangles.
    Skyrim,
    /// Version 15 (Fallout 4): 21-byte triangles, 11-byte edge links, cover array, cover-triangle
    /// mappings and waypoints.
    Fallout4,
}

impl Layout {
    /// The layout of an NVNM version, or `None` for a version the crate does not read.
    pub fn of_version(version: u32) -> Option<Layout> {
        match version {
            12 => Some(Layout::Skyrim),
            15 => Some(Layout::Fallout4),
            _ => None,
        }
    }
}

/// What the navmesh belongs to: the header's worldspace field decides which form the next
/// four bytes take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Parent {
    /// An interior cell (worldspace field 0).
    Cell {
        /// FormID of the cell.
        #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
        cell: u32,
    },
    /// An exterior cell of a worldspace, by grid coordinates (stored `y` first).
    Worldspace {
        /// FormID of the worldspace; must not be 0.
        #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
        worldspace: u32,
        /// Grid X.
        grid_x: i16,
        /// Grid Y.
        grid_y: i16,
    },
}

/// What a triangle edge leads to, from its value and the triangle's flag bit for that edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    /// No neighbour (`-1`, flag clear).
    None,
    /// A triangle of this navmesh (flag clear).
    Triangle(u16),
    /// An entry of the edge links, to another navmesh (flag set).
    EdgeLink(u16),
    /// A value no file should hold: negative but not `-1` with the flag clear, or negative with
    /// the flag set.
    Invalid(i16),
}

impl Edge {
    /// Decodes edge `i` of a triangle with these flags.
    pub fn decode(flags: u16, i: usize, value: i16) -> Edge {
        let linked = i < 3 && flags & (1u16 << i) != 0;
        match (linked, u16::try_from(value)) {
            (true, Ok(v)) => Edge::EdgeLink(v),
            (false, Ok(v)) => Edge::Triangle(v),
            (false, Err(_)) if value == -1 => Edge::None,
            _ => Edge::Invalid(value),
        }
    }
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Edge::None => f.write_str("-"),
            Edge::Triangle(t) => write!(f, "t{t}"),
            Edge::EdgeLink(l) => write!(f, "link{l}"),
            Edge::Invalid(v) => write!(f, "invalid({v})"),
        }
    }
}
