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

pub mod apply;
pub mod dump;
pub mod fix;
pub mod model;
pub mod navigation;
mod types;
pub mod validate;
pub mod view;
pub mod write;

use core::fmt;

use nav_core::{Finding, Format, Result, Summary};

pub use model::{
    Cover, CoverMapping, DoorTriangle, EdgeLink, Grid, NavmeshGeometry, Triangle, TriangleExtra,
    Waypoint,
};
pub use types::{Edge, FORMAT, Layout, PATHING_CELL_CRC, PATHING_DOOR_CRC, Parent, triangle_flags};
pub use view::NavmeshGeometryView;

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

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        &crate::geometry::ATTRIBUTE_BITS
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

    /// The navmesh's vertices as they are (the geometry's, without building its triangles).
    fn vertices(&self, model: &Self::Model) -> Option<Vec<[f32; 3]>> {
        Some(crate::geometry::vertices(model))
    }

    /// Moves vertices, adds triangles, deletes triangles (then [`fix`]); see [`apply`].
    fn apply(
        &self,
        model: &mut Self::Model,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }

    /// Triangles as cells, neighbours as walk edges, edge links and door triangles as exits;
    /// see [`navigation`].
    fn navigation(&self, model: &Self::Model) -> Option<nav_core::navigation::Graph> {
        Some(navigation::navigation(model))
    }

    /// A version-12 navmesh of interior cell 0 (set [`NavmeshGeometry::parent`] before putting
    /// it into a plugin); see [`crate::build`].
    fn build(
        &self,
        mesh: &nav_core::geometry::TriangleMesh,
    ) -> Option<Result<nav_core::Built<Self::Model>>> {
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
