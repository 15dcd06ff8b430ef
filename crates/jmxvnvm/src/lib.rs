//! Silkroad Online terrain navmesh files (`JMXVNVM 1000`, `navmesh/nv_XXXX.nvm`).
//!
//! One file holds the navmesh of one 1920 × 1920 region: the object instances placed on it (with
//! their region id and linked edges), the terrain cells with their object lists, the global
//! (border) and internal edges, the 96 × 96 tile map, the 97 × 97 height map and the 6 × 6 plane
//! maps. Everything is little-endian and packed. Two legacy layouts share the signature (4-byte
//! tiles, with or without the plane maps); the crate tells the three apart by the number of bytes
//! left after the edges.
//!
//! - [`NavMeshTerrainView::parse`] gives a zero-copy view; [`NavMeshTerrain::from_view`] an
//!   owned [`NavMeshTerrain`]; [`write`](fn@write) writes it back byte for byte, and
//!   [`write_to`](fn@write_to) streams the same bytes to any `std::io::Write`.
//! - [`validate`](fn@validate) lists semantic problems (indices out of range, inconsistent edges);
//!   [`fix::fix`] mends the ones it can (`navkit fix`).
//! - [`navigation()`] gives the region as a navigation graph: the cells, the internal edges between
//!   them both ways, the global edges as exits into the neighbour regions.
//! - [`TerrainBuilder`] builds whole regions; [`RegionId`] and the query methods of
//!   [`NavMeshTerrain`] (`tile_at`, `cell_at`, `height_at`, `is_blocked`) answer questions about
//!   points.
//!
//! ```
//! use jmxvnvm::{NavMeshTerrain, NavMeshTerrainView, RegionId, TerrainBuilder, write};
//!
//! let region = RegionId(0x61a8);
//! let model = TerrainBuilder::new(region)
//!     .heights(|x, z| 100.0 + x as f32)
//!     .block_tiles(10, 10, 12, 20)
//!     .build();
//! let bytes = write(&model)?;
//! assert!(bytes.starts_with(b"JMXVNVM 1000"));
//! let back = NavMeshTerrain::from_view(&NavMeshTerrainView::parse(&bytes)?);
//! assert_eq!(back, model);
//! assert_eq!(back.height_at(30.0, 500.0), Some(101.5));
//! assert_eq!(back.is_blocked(210.0, 210.0), Some(true));
//! assert_eq!(region.origin(), [168.0 * 1920.0, 97.0 * 1920.0]);
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]

pub mod apply;
pub mod build;
pub mod dump;
pub mod fix;
pub mod geometry;
pub mod model;
pub mod navigation;
pub mod positions;
pub mod query;
pub mod validate;
pub mod view;
pub mod write;

use core::fmt;

use nav_core::{Finding, Format, Result, Summary};

pub use build::TerrainBuilder;
pub use fix::fix;
pub use geometry::geometry;
pub use model::{
    CellQuad, EdgeDirection, EdgeFlag, EdgeGlobal, EdgeInternal, Layout, LinkedEdge, NavMeshObj,
    NavMeshTerrain, PlaneMaps, PlaneType, Tile, TileFlag, TileMap,
};
pub use navigation::navigation;
pub use query::RegionId;
pub use validate::validate;
pub use view::NavMeshTerrainView;
pub use write::{write, write_into, write_to, write_view};

impl<'a> NavMeshTerrainView<'a> {
    /// Parses a whole `.nvm` file into a view: every count and size checked against the bytes.
    pub fn parse(data: &'a [u8]) -> Result<NavMeshTerrainView<'a>> {
        view::parse(data)
    }
}

/// Parses and copies into the owned model in one step.
pub fn read(bytes: &[u8]) -> Result<NavMeshTerrain> {
    Ok(NavMeshTerrain::from_view(&NavMeshTerrainView::parse(
        bytes,
    )?))
}

/// The crate name, as errors and the command-line tool show it.
pub const FORMAT: &str = "jmxvnvm";

/// The 12-byte signature every file starts with.
pub const SIGNATURE: &[u8; 12] = b"JMXVNVM 1000";

/// The `JMXVNVM 1000` format, for [`nav_core::Format`] users such as the `navkit` tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nvm;

impl Format for Nvm {
    type View<'a> = NavMeshTerrainView<'a>;
    type Model = NavMeshTerrain;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        positions::POSITION_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Silkroad Online terrain navmesh (JMXVNVM 1000, navmesh/nv_XXXX.nvm)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nvm"]
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        bytes.starts_with(SIGNATURE)
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Self::View<'a>> {
        NavMeshTerrainView::parse(bytes)
    }

    fn to_model(&self, view: &Self::View<'_>) -> Self::Model {
        NavMeshTerrain::from_view(view)
    }

    fn write(&self, model: &Self::Model) -> Result<Vec<u8>> {
        write(model)
    }

    fn write_into(&self, model: &Self::Model, out: &mut Vec<u8>) -> Result<()> {
        write_into(model, out)
    }

    fn write_to(&self, model: &Self::Model, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_to(model, out)
    }

    fn write_view(&self, view: &Self::View<'_>) -> Result<Vec<u8>> {
        write_view(view)
    }

    fn validate(&self, model: &Self::Model) -> Vec<Finding> {
        validate(model)
    }

    /// Drops references to missing objects and recomputes the tile map, open-cell count and
    /// edges validate finds broken; see [`fix()`].
    fn fix(&self, model: &mut Self::Model) -> Vec<String> {
        fix::fix(model)
    }

    fn summary(&self, m: &Self::Model) -> Summary {
        summary(
            m.layout(),
            m.open_cell_count,
            [
                m.objects.len(),
                m.linked_edge_count(),
                m.cells.len(),
                m.cell_object_count(),
                m.global_edges.len(),
                m.internal_edges.len(),
                m.tile_map.len(),
                m.height_map.len(),
                m.planes.as_ref().map_or(0, |p| p.types.len()),
            ],
        )
    }

    /// The same figures from the view's arrays, without a model.
    fn view_summary(&self, v: &Self::View<'_>) -> Summary {
        summary(
            Some(v.layout()),
            v.open_cell_count(),
            [
                v.objects().len(),
                v.objects().iter().map(|o| o.linked_edges().len()).sum(),
                v.cells().len(),
                v.cells().iter().map(|c| c.object_indices().len()).sum(),
                v.global_edges().len(),
                v.internal_edges().len(),
                match v.tile_map() {
                    view::TileMapView::Modern(t) => t.len(),
                    view::TileMapView::Legacy(t) => t.len(),
                },
                v.height_map().len(),
                v.planes().map_or(0, |p| p.types().len()),
            ],
        )
    }

    fn dump(&self, model: &Self::Model, out: &mut dyn fmt::Write) -> fmt::Result {
        dump::dump(model, out)
    }

    fn geometry(&self, model: &Self::Model) -> Option<nav_core::geometry::Geometry> {
        Some(geometry(model))
    }

    fn navigation(&self, model: &Self::Model) -> Option<nav_core::navigation::Graph> {
        Some(navigation(model))
    }

    /// Moves cell sides and height-map vertices, deletes the cells of deleted faces and adds a
    /// cell for each added rectangle. See [`apply`].
    fn apply(
        &self,
        model: &mut Self::Model,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }
}

/// [`Format::summary`] of a region with this layout, `OpenCellCount` and these counts (objects,
/// linked edges, cells, cell object references, global edges, internal edges, tiles, heights,
/// planes): one text for the model and the view.
fn summary(layout: Option<Layout>, open_cells: u32, counts: [usize; 9]) -> Summary {
    let [
        objects,
        linked,
        cells,
        cell_objects,
        global,
        internal,
        tiles,
        heights,
        planes,
    ] = counts;
    let variant = layout.map_or("8-byte tiles without plane maps (not writable)", |l| {
        l.describe()
    });
    Summary::new(FORMAT, "JMXVNVM 1000")
        .variant(variant)
        .count("objects", objects)
        .count("linked edges", linked)
        .count("cells", cells)
        .count("open cells", open_cells)
        .count("cell object references", cell_objects)
        .count("global edges", global)
        .count("internal edges", internal)
        .count("tiles", tiles)
        .count("heights", heights)
        .count("planes", planes)
}
