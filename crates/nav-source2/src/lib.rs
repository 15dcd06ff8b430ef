//! Source 2 bot navigation meshes (`.nav`, magic `0xFEEDFACE`, versions 30 to 36).
//!
//! Counter-Strike 2, Half-Life: Alyx, SteamVR Home and workshop maps keep their bot navigation
//! in `.nav` files that share the Source 1 magic but not its format. This crate reads and writes
//! them byte for byte: the header and place directory, the shared corner and polygon pool
//! (v31+), corner gravity (v32+), movable meshes (v35+), areas, ladders, transformed bounds, the
//! generation parameters (gated by their own generator version), and the KV3 blobs: three
//! mid-file blobs in v36, and CS2's bot analysis as one trailing blob when the sub-version is
//! above 0.
//!
//! - [`Source2View::parse`]: a zero-copy view; [`Source2Mesh::from_view`] copies it into the owned
//!   [`Source2Mesh`]; [`write()`] serialises a model and [`write_view`] a view.
//! - KV3 blobs are kept as their exact bytes ([`Kv3Blob`]) and decoded for reading only
//!   ([`kv3::decode`]: KV3 versions 2 to 5, uncompressed, LZ4 or zstd), so that `dump` and JSON
//!   show the custom data's `arealist` as data.
//! - [`validate()`] reports dangling ids, areas without usable corners and stale custom data;
//!   [`fix()`] drops the dangling references after a hand edit (what `navkit fix` runs).
//! - [`apply::apply`] puts geometry edited in a 3D tool back onto the model, keeping the rest
//!   (what `navkit apply` runs).
//! - [`navigation()`] maps the areas, connections and ladders to the navigation graph
//!   ([`nav_core::navigation::Graph`]) the path queries run on, as awpy 3.1.1 defines it.
//! - [`Source2Nav`] implements [`nav_core::Format`].
//!
//! ```
//! use nav_source2::{Source2Mesh, Source2View};
//!
//! let mesh = nav_source2::samples::room(36, 1);
//! let bytes = nav_source2::write(&mesh)?;
//! let view = Source2View::parse(&bytes)?;
//! assert_eq!(view.areas().len(), 4);
//! assert_eq!(Source2Mesh::from_view(&view), mesh);
//! assert!(nav_source2::validate(&mesh).is_empty());
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]
// Library code never unwraps: every value read from input is checked.

pub mod apply;
#[cfg(feature = "arbitrary")]
mod arbitrary_impl;
pub mod dump;
pub mod fix;
pub mod geometry;
pub mod kv3;
pub mod layout;
pub mod model;
pub mod navigation;
pub mod samples;
pub mod validate;
pub mod view;
pub mod write;

pub use fix::fix;
pub use geometry::geometry;
pub use kv3::{Kv3Blob, Kv3Document, Kv3Value};
pub use layout::{GenLayout, Layout};
pub use model::{
    Area, ByteString, Connection, ConnectionList, GenerationParams, HidingSpot, HullParams, Ladder,
    MovableMesh, Polygon, Source2Mesh, TransformedBounds,
};
pub use navigation::navigation;
pub use validate::validate;
pub use view::Source2View;
pub use write::{write, write_to, write_view};

use nav_core::{Finding, Format, Result, Summary};

/// The crate name, as errors and `--format` spell it.
pub const FORMAT: &str = "nav-source2";

/// Parses and copies into the owned model.
pub fn read(bytes: &[u8]) -> Result<Source2Mesh> {
    Ok(Source2Mesh::from_view(&Source2View::parse(bytes)?))
}

/// Whether `bytes` start like a Source 2 `.nav`: the magic and a version of 30 or more.
pub fn sniff(bytes: &[u8]) -> bool {
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    word(0) == Some(layout::MAGIC) && word(4).is_some_and(|v| v >= layout::MIN_VERSION)
}

/// The Source 2 `.nav` format, for code that handles formats generically.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Source2Nav;

impl Format for Source2Nav {
    type View<'a> = Source2View<'a>;
    type Model = Source2Mesh;

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Source 2 .nav v30-36 (Counter-Strike 2, Half-Life: Alyx, SteamVR), KV3 blobs decoded"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nav"]
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        sniff(bytes)
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Source2View<'a>> {
        Source2View::parse(bytes)
    }

    fn to_model(&self, view: &Source2View<'_>) -> Source2Mesh {
        Source2Mesh::from_view(view)
    }

    fn write(&self, model: &Source2Mesh) -> Result<Vec<u8>> {
        write(model)
    }

    fn write_to(&self, model: &Source2Mesh, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_to(model, out)
    }

    fn write_view(&self, view: &Source2View<'_>) -> Result<Vec<u8>> {
        write_view(view)
    }

    fn validate(&self, model: &Source2Mesh) -> Vec<Finding> {
        validate(model)
    }

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        &geometry::ATTRIBUTE_BITS
    }

    fn fix(&self, model: &mut Source2Mesh) -> Vec<String> {
        fix(model)
    }

    fn summary(&self, model: &Source2Mesh) -> Summary {
        let blobs = [
            &model.movable_mesh_settings,
            &model.game_data,
            &model.extra_generation_params,
            &model.custom_data,
        ];
        summary(
            (model.version, model.sub_version),
            &model.generation_params,
            [
                model.areas.len(),
                model.corners.len(),
                model.polygons.len(),
                model
                    .areas
                    .iter()
                    .flat_map(|a| a.connections.iter().map(|list| list.len()))
                    .sum(),
                model.areas.iter().map(|a| a.hiding_spots.len()).sum(),
                model.ladders.len(),
                model.transformed_bounds.len(),
                blobs.iter().filter(|b| b.is_some()).count(),
            ],
        )
    }

    /// The same figures from the view's records, without a model.
    fn view_summary(&self, v: &Source2View<'_>) -> Summary {
        let blobs = [
            v.movable_mesh_settings(),
            v.game_data(),
            v.extra_generation_params(),
            v.custom_data(),
        ];
        summary(
            (v.layout().version(), v.sub_version()),
            v.generation_params(),
            [
                v.areas().len(),
                v.corners().len(),
                v.polygons().len(),
                v.areas()
                    .iter()
                    .flat_map(|a| a.connections().iter().map(|c| c.len()))
                    .sum(),
                v.areas().iter().map(|a| a.hiding_spots().len()).sum(),
                v.ladders().len(),
                v.transformed_bounds().len(),
                blobs.iter().filter(|b| b.is_some()).count(),
            ],
        )
    }

    fn dump(&self, model: &Source2Mesh, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
        dump::dump(model, out)
    }

    fn geometry(&self, model: &Source2Mesh) -> Option<nav_core::geometry::Geometry> {
        Some(geometry(model))
    }

    fn navigation(&self, model: &Source2Mesh) -> Option<nav_core::navigation::Graph> {
        Some(navigation(model))
    }

    fn apply(
        &self,
        model: &mut Source2Mesh,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }

    /// Areas are known by their ids.
    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity> {
        (list == "areas").then_some(nav_core::RecordIdentity::Field("id"))
    }
}

/// [`Format::summary`] of a mesh with this version and sub-version, these generation
/// parameters and these counts (areas, corners, polygons, connections, hiding spots, ladders,
/// transformed bounds, KV3 blobs present): one text for the model and the view.
fn summary(
    (version, sub_version): (u32, u32),
    params: &GenerationParams,
    counts: [usize; 8],
) -> Summary {
    let [
        areas,
        corners,
        polygons,
        connections,
        spots,
        ladders,
        bounds,
        blobs,
    ] = counts;
    let mut s = Summary::new(FORMAT, version.to_string())
        .variant(format!(
            "sub-version {sub_version}, generator {}",
            params.nav_gen_version
        ))
        .count("areas", areas);
    if version >= 31 {
        s = s.count("corners", corners).count("polygons", polygons);
    }
    s.count("connections", connections)
        .count("hiding spots", spots)
        .count("ladders", ladders)
        .count("transformed bounds", bounds)
        .count("hulls", params.hulls.len())
        .count("kv3 blobs", blobs)
}
