//! `NVNM`: the navmesh geometry of a Skyrim (and Fallout 4) `NAVM` record.
//!
//! The blob is the payload of the `NVNM` subrecord. It has no signature: a 16-byte header
//! (version, pathing-cell CRC, parent worldspace, parent cell or grid coordinates), counted
//! arrays (vertices, triangles, edge links, door triangles, cover data), then the triangle grid.
//! Version 12 is Skyrim LE and SE; version 15 is Fallout 4 (longer triangles and edge links, a
//! cover array, cover-triangle mappings and waypoints).
//!
//! - [`view`]: [`NavmeshGeometryView`], the zero-copy view.
//! - [`model`]: [`NavmeshGeometry`], the owned model.
//! - [`mod@write`]: the byte-exact writer.
//! - [`validate`]: semantic lints.
//! - [`mod@fix`]: making an edited blob consistent again (`navkit fix`).
//! - [`dump`]: the text dump.
//! - [`navigation`]: the navmesh as a navigation graph (`Format::navigation`).

pub mod dump;
pub mod fix;
pub mod model;
pub mod navigation;
pub mod validate;
pub mod view;
pub mod write;

use core::fmt;

use nav_core::{Finding, Format, Result, Summary};

pub use model::{
    Cover, CoverMapping, DoorTriangle, EdgeLink, Grid, NavmeshGeometry, Triangle, TriangleExtra,
    Waypoint,
};
pub use view::NavmeshGeometryView;

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
        cell: u32,
    },
    /// An exterior cell of a worldspace, by grid coordinates (stored `y` first).
    Worldspace {
        /// FormID of the worldspace; must not be 0.
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

/// The `NVNM` blob format (`nvnm-skyrim`), for [`nav_core::Format`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Nvnm;

impl Format for Nvnm {
    type View<'a> = NavmeshGeometryView<'a>;
    type Model = NavmeshGeometry;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        crate::positions::NVNM_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Skyrim LE/SE (version 12) and Fallout 4 (version 15) NVNM navmesh geometry blobs"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nvnm"]
    }

    fn sniff(&self, _bytes: &[u8]) -> bool {
        // The blob has no signature; it is chosen by extension or by name.
        false
    }

    fn has_signature(&self) -> bool {
        false
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Self::View<'a>> {
        NavmeshGeometryView::parse(bytes)
    }

    fn to_model(&self, view: &Self::View<'_>) -> Self::Model {
        NavmeshGeometry::from_view(view)
    }

    fn write(&self, model: &Self::Model) -> Result<Vec<u8>> {
        write::write(model)
    }

    fn write_to(&self, model: &Self::Model, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write::write_to(model, out)
    }

    fn write_view(&self, view: &Self::View<'_>) -> Result<Vec<u8>> {
        Ok(write::write_view(view))
    }

    fn validate(&self, model: &Self::Model) -> Vec<Finding> {
        validate::validate(model)
    }

    /// Drops triangles that name missing vertices and recomputes the adjacency and grid
    /// validate finds broken; see [`fix`].
    fn fix(&self, model: &mut Self::Model) -> Vec<String> {
        fix::fix(model)
    }

    fn summary(&self, model: &Self::Model) -> Summary {
        summary(
            (
                model.version,
                model.layout(),
                model.parent,
                model.grid.divisor,
            ),
            [
                model.vertices.len(),
                model.triangles.len(),
                model.edge_links.len(),
                model.door_triangles.len(),
                model.cover_array.len(),
                model.cover_triangles.len(),
                model.cover_mappings.len(),
                model.waypoints.len(),
                model.grid.cells.iter().map(Vec::len).sum(),
            ],
        )
    }

    /// The same figures from the view's records, without a model.
    fn view_summary(&self, v: &Self::View<'_>) -> Summary {
        let (cover_triangles, cover_mappings) = match v.cover_triangles() {
            view::CoverTrianglesView::V12(t) => (t.len(), 0),
            view::CoverTrianglesView::V15(m) => (0, m.len()),
        };
        summary(
            (
                v.version(),
                Some(v.layout()),
                v.header().parent(),
                v.grid().divisor.get(),
            ),
            [
                v.vertices().len(),
                v.triangle_count(),
                v.edge_link_count(),
                v.door_triangles().len(),
                v.cover_array().len(),
                cover_triangles,
                cover_mappings,
                v.waypoints().len(),
                v.cells().iter().map(|c| c.len()).sum(),
            ],
        )
    }

    fn dump(&self, model: &Self::Model, out: &mut dyn fmt::Write) -> fmt::Result {
        dump::dump(model, out)
    }

    /// Triangles with kinds from their flags, neighbours, edge-link and door nodes; see
    /// [`crate::geometry`].
    fn geometry(&self, model: &Self::Model) -> Option<nav_core::geometry::Geometry> {
        Some(crate::geometry::geometry(model))
    }

    /// Triangles as cells, neighbours as walk edges, edge links and door triangles as exits;
    /// see [`navigation`].
    fn navigation(&self, model: &Self::Model) -> Option<nav_core::navigation::Graph> {
        Some(navigation::navigation(model))
    }

    /// A version-12 navmesh of interior cell 0 (set [`NavmeshGeometry::parent`] before putting
    /// it into a plugin); see [`crate::build`].
    fn build(&self, mesh: &nav_core::geometry::TriangleMesh) -> Option<Result<Self::Model>> {
        Some(crate::build::build(mesh, Parent::Cell { cell: 0 }))
    }
}

/// [`Format::summary`] of a navmesh with this version, layout, parent and grid divisor and
/// these counts (vertices, triangles, edge links, door triangles, cover array, cover triangles,
/// cover mappings, waypoints, grid entries): one text for the model and the view.
fn summary(
    (version, layout, parent, divisor): (u32, Option<Layout>, Parent, u32),
    counts: [usize; 9],
) -> Summary {
    let [
        vertices,
        triangles,
        links,
        doors,
        cover,
        cover_triangles,
        mappings,
        waypoints,
        entries,
    ] = counts;
    let variant = match (layout, parent) {
        (Some(Layout::Fallout4), _) => "Fallout 4",
        (_, Parent::Cell { .. }) => "Skyrim, interior cell",
        (_, Parent::Worldspace { .. }) => "Skyrim, worldspace grid cell",
    };
    Summary::new(FORMAT, format!("NVNM v{version}"))
        .variant(variant)
        .count("vertices", vertices)
        .count("triangles", triangles)
        .count("edge links", links)
        .count("door triangles", doors)
        .count("cover array", cover)
        .count("cover triangles", cover_triangles)
        .count("cover mappings", mappings)
        .count("waypoints", waypoints)
        .count("grid divisor", divisor)
        .count("grid entries", entries)
}
