//! Fox Engine `.nav2` navigation files (Metal Gear Solid V: Ground Zeroes and The Phantom Pain,
//! Metal Gear Survive): a zero-copy view, an owned model and a byte-exact writer.
//!
//! A file holds, per DataChunkUid, four chunks (NavigationGraph, NavmeshChunk, SegmentChunk,
//! SegmentGraph, stored by type rather than by group), then optional IslandGraphs, a SearchSpace
//! and a ConnectTileInfo. The names are the engine's own (see `docs/formats/mgsv.md`).
//!
//! - [`Nav2View::parse`] checks every offset, size and count against the input (in range, no
//!   overlap) and returns a [`Nav2View`] of borrowed records.
//! - [`Nav2File::from_view`] copies it into the owned model. A file laid out the way the game
//!   does has `stored == None`; any other file (Obj2Nav2 output, say) keeps its stored offsets,
//!   sizes and non-zero padding in [`StoredLayout`], so that it is written back byte for byte.
//! - [`Nav2File::write`] (or [`Nav2File::write_to`] a `std::io::Write`) lays out a model whose
//!   `stored` is `None` the way the game does, recomputing every offset, size, count and prefix
//!   sum, and refuses what the format cannot hold.
//! - [`validate()`] reports the invariants game files keep as findings, and [`fix::fix`]
//!   recomputes the derived structures it finds an error in (`navkit fix`).
//! - [`apply::apply`] puts geometry edited in a 3D tool back onto the file (`navkit apply`),
//!   everything the mesh does not show kept.
//!
//! The modules: [`records`] (the zerocopy records and sizes), [`view`] (the view and its parser,
//! one function per section), [`model`] (the owned model, `from_view`, and [`layout`]: the
//! game's layout, computed from a model), [`mod@write`], [`mod@validate`], [`mod@fix`], [`dump`], [`geometry`],
//! [`mod@navigation`], [`build`] and [`mod@apply`].
//!
//! ```
//! use nav2_mgsv::{Nav2, Nav2File, DataChunk, FileUid, Segment};
//! use nav_core::{Format, RawF32};
//!
//! let mut file = Nav2File::new([RawF32::new(0.0); 3], [511, 1000, 511]);
//! let mut chunk = DataChunk { uid: FileUid::new(4, 0), ..DataChunk::default() };
//! chunk.navmesh_chunk.positions = vec![[0, 0, 0], [511, 0, 0], [0, 0, 511]];
//! chunk.segment_chunk.segments.push(Segment {
//!     max: [511, 0, 511],
//!     navmesh_position_count: 3,
//!     ..Segment::default()
//! });
//! file.data_chunks.push(chunk);
//!
//! let bytes = Nav2.write(&file)?;
//! let back = Nav2.read(&bytes)?;
//! assert_eq!(back, file);
//! assert_eq!(back.decode_position([511, 0, 0]), [1.0, 0.0, 0.0]);
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]

use core::fmt;

use nav_core::{Finding, Format, Result, Summary};

pub mod apply;
#[cfg(feature = "arbitrary")]
mod arbitrary_impls;
pub mod build;
mod coverage;
pub mod dump;
pub mod fix;
pub mod geometry;
pub mod model;
pub mod navigation;
pub mod positions;
pub mod records;
pub mod validate;
pub mod view;
pub mod write;

pub use fix::fix;
pub use model::*;
pub use validate::validate;
#[allow(deprecated)]
pub use view::parse;
pub use view::{
    BucketEntryView, ConnectTileInfoView, DataChunkView, IslandGraphLinkBlock, IslandGraphView,
    MeshDataView, Nav2View, NavigationGraphLinkBlock, NavigationGraphView, NavmeshChunkView,
    SearchSpaceView, SegmentChunkView, SegmentGraphLinkBlock, SegmentGraphView,
};
pub use write::write;

/// Parses and copies into the owned model in one step.
pub fn read(bytes: &[u8]) -> nav_core::Result<Nav2File> {
    Ok(Nav2File::from_view(&Nav2View::parse(bytes)?))
}

/// The crate name, used in errors.
pub const FORMAT: &str = "nav2-mgsv";

/// The Fox Engine `.nav2` format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nav2;

impl Format for Nav2 {
    type View<'a> = Nav2View<'a>;
    type Model = Nav2File;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        positions::POSITION_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Fox Engine .nav2 navigation files (Metal Gear Solid V, Metal Gear Survive)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nav2"]
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        bytes
            .get(..4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(u32::from_le_bytes)
            .is_some_and(|v| v == VERSION || v == VERSION_OLD)
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Nav2View<'a>> {
        Nav2View::parse(bytes)
    }

    fn to_model(&self, view: &Nav2View<'_>) -> Nav2File {
        Nav2File::from_view(view)
    }

    fn write(&self, model: &Nav2File) -> Result<Vec<u8>> {
        model.write()
    }

    /// Into `out`'s memory: a model without a stored layout is put there in one pass.
    fn write_into(&self, model: &Nav2File, out: &mut Vec<u8>) -> Result<()> {
        *out = write::into_buffer(model, core::mem::take(out))?;
        Ok(())
    }

    /// Streams section by section, refusing before the first byte: see [`write::stream`].
    fn write_to(&self, model: &Nav2File, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write::stream(model, out)
    }

    fn validate(&self, model: &Nav2File) -> Vec<Finding> {
        validate::validate(model)
    }

    /// Recomputes what [`validate()`] finds inconsistent with the geometry; see [`fix()`].
    fn fix(&self, model: &mut Nav2File) -> Vec<String> {
        fix::fix(model)
    }

    fn summary(&self, m: &Nav2File) -> Summary {
        let sum = |f: &dyn Fn(&DataChunk) -> usize| m.data_chunks.iter().map(f).sum::<usize>();
        summary(
            m.version,
            m.file_uid,
            [
                m.data_chunks.len(),
                sum(&|d| d.navmesh_chunk.positions.len()),
                sum(&|d| d.navmesh_chunk.meshes.len()),
                sum(&|d| d.navigation_graph.nodes.len()),
                sum(&|d| d.navigation_graph.edges.len()),
                sum(&|d| d.segment_chunk.segments.len()),
                sum(&|d| d.segment_graph.nodes.len()),
                m.island_graphs.len(),
                m.search_space.as_ref().map_or(0, |s| s.buckets.len()),
                usize::from(m.stored.is_some()),
            ],
        )
    }

    /// The same counts from the view, without a model: whether the stored layout would be kept
    /// is the same check [`Nav2File::from_view`] makes.
    fn view_summary(&self, v: &Nav2View<'_>) -> Summary {
        let chunks = v.data_chunks();
        let sum = |f: &dyn Fn(&view::DataChunkView<'_>) -> usize| chunks.iter().map(f).sum();
        summary(
            v.header().version.get(),
            FileUid(v.header().file_uid.get()),
            [
                chunks.len(),
                sum(&|d| d.navmesh_chunk().positions().len()),
                sum(&|d| d.navmesh_chunk().meshes().len()),
                sum(&|d| d.navigation_graph().nodes().len()),
                sum(&|d| d.navigation_graph().edges().len()),
                sum(&|d| d.segment_chunk().segments().len()),
                sum(&|d| d.segment_graph().nodes().len()),
                v.island_graphs().len(),
                v.search_space().map_or(0, |s| s.bucket_descs().len()),
                usize::from(!model::game_layout::is_game_layout(v)),
            ],
        )
    }

    fn dump(&self, model: &Nav2File, out: &mut dyn fmt::Write) -> fmt::Result {
        dump::dump(model, out)
    }

    fn geometry(&self, model: &Nav2File) -> Option<nav_core::geometry::Geometry> {
        Some(geometry::geometry(model))
    }

    /// The NavigationGraph nodes of every data chunk and their links: see [`navigation`].
    fn navigation(&self, model: &Nav2File) -> Option<nav_core::navigation::Graph> {
        Some(navigation::navigation(model))
    }

    /// Moved positions, deleted and added meshes, segment attributes: see [`apply`].
    fn apply(
        &self,
        model: &mut Nav2File,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }

    fn build(
        &self,
        mesh: &nav_core::geometry::TriangleMesh,
    ) -> Option<Result<nav_core::Built<Nav2File>>> {
        Some(build::build(mesh))
    }
}

/// `navkit info`'s lines, from the counts a model or a view gives.
fn summary(version: u32, file_uid: FileUid, counts: [usize; 10]) -> Summary {
    const NAMES: [&str; 10] = [
        "data chunks",
        "navmesh positions",
        "meshes",
        "navigation graph nodes",
        "navigation graph edges",
        "segments",
        "segment graph nodes",
        "island graphs",
        "search space buckets",
        "stored layout kept",
    ];
    let mut s = Summary::new(FORMAT, version.to_string());
    if file_uid.index() != 0 {
        s = s.variant(format!("split file {}", file_uid.index()));
    }
    for (name, n) in NAMES.into_iter().zip(counts) {
        s = s.count(name, n);
    }
    s
}
