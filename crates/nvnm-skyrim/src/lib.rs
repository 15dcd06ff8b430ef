//! Skyrim navmesh geometry (`NVNM`) and the plugin container that holds it.
//!
//! Two formats live here:
//!
//! - [`Nvnm`] (`nvnm-skyrim`): the payload of a `NAVM` record's `NVNM` subrecord, version 12
//!   (Skyrim LE and SE) and version 15 (Fallout 4). See [`nvnm`].
//! - [`Plugin`] (`skyrim-plugin`): `.esp`/`.esm`/`.esl` files, walked without copying; `NAVM`
//!   records are inflated and their subrecords handed out, and a navmesh can be replaced with
//!   [`PluginFile::replace_nvnm`]. See [`plugin`].
//!
//! [`geometry`] maps both to navkit's format-neutral geometry, [`nvnm::navigation`] and
//! [`plugin::navigation`] to its navigation graph (triangles as cells; a plugin's navmeshes
//! joined by their edge links and doors), and [`mod@build`] makes a new version-12 navmesh from
//! a triangle mesh (`Format::build` of [`Nvnm`]).
//!
//! Both follow navkit's path: `parse` gives a zero-copy view, `to_model` an owned model, and
//! `write` gives the same bytes back for an unchanged model.
//!
//! # A whole game's plugin
//!
//! A master file holds tens of thousands of navmeshes. [`samples::game_scale_plugin`] lays out
//! 20,000 of the corpus navmeshes the way a master does (interior cell blocks, a worldspace's
//! exterior blocks, a `NAVI` naming every navmesh), one in four compressed: a 149 MiB plugin.
//! Measured on it (2 shared cores, medians of criterion runs, `cargo bench -p nvnm-skyrim --
//! "game scale"`):
//!
//! | operation | throughput |
//! |---|---|
//! | parse (walk, inflate the compressed `NAVM`s) | 326 MiB/s |
//! | parse and walk every `NVNM` | 306 MiB/s |
//! | `to_model` | 2.3 GiB/s |
//! | write, unchanged (stored zlib streams given back) | 829 MiB/s into a `Vec`, 1.6 GiB/s streamed |
//! | write with one navmesh edited (one record recompressed) | 1.2 GiB/s |
//!
//! Parsing is C zlib's inflate for 84 % of its time, so it slows as more records are compressed.
//!
//! Memory: bytes, view and model together hold such a plugin three times over (peak 3.02 × the
//! file, reading the bytes, `to_model`, then [`Format::write_to`](nav_core::Format::write_to)
//! into a `BufWriter<File>`). [`PluginFile::read_from`] reads record by record straight into the
//! model, and [`Plugin`]'s `write_to` streams it back out (sizes first, then the bytes): peak
//! 1.58 × the file, the model itself (every navmesh inflated, plus the stored streams). The
//! `scale` example measures both and fails over 2 ×.
//!
//! ```
//! use nav_core::Format;
//! use nav_core::testing::vec3;
//! use nvnm_skyrim::nvnm::{NavmeshGeometry, Nvnm, Triangle};
//!
//! // One triangle in an interior cell, with a 1×1 grid over it.
//! let mut mesh = NavmeshGeometry::new_skyrim(0x0001_2345);
//! mesh.vertices = vec![vec3(0.0, 0.0, 0.0), vec3(128.0, 0.0, 0.0), vec3(0.0, 128.0, 0.0)];
//! mesh.triangles.push(Triangle {
//!     vertices: [0, 1, 2],
//!     edges: [-1, -1, -1],
//!     extra: None,
//!     flags: 0,
//!     cover_flags: 0,
//! });
//! mesh.rebuild_grid(1);
//! let bytes = Nvnm.write(&mesh)?;
//! assert_eq!(bytes.len(), 16 + 4 + 36 + 4 + 16 + 4 + 4 + 4 + 36 + 4 + 2);
//! let back = Nvnm.read(&bytes)?;
//! assert_eq!(back, mesh);
//! assert_eq!(back.grid.cells, vec![vec![0]]);
//! assert!(Nvnm.validate(&back).is_empty());
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]

pub mod build;
#[cfg(feature = "serde")]
pub mod form_id;
pub mod geometry;
pub mod nvnm;
pub mod plugin;
pub mod positions;
pub mod samples;

pub use nvnm::{NavmeshGeometry, NavmeshGeometryView, Nvnm};
pub use plugin::{Plugin, PluginFile, PluginView};
