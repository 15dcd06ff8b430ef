//! Shared primitives for the navkit format crates.
//!
//! Every format crate (`nav-quake`, `nav-source`, `nav2-mgsv`, `nvnm-skyrim`, `jmxvnvm`) builds on
//! the same few pieces, so that they read, fail and test alike:
//!
//! - [`scalar`]: little-endian, alignment-1 scalars re-exported from zerocopy, and [`RawF32`], a
//!   float kept as its bit pattern so that `-0.0` and NaN payloads survive a round trip.
//! - [`Cursor`]: a bounds-checked reader that hands out zero-copy records and slices and builds
//!   errors that name the byte offset and the field.
//! - [`Error`]: the one error type, with a [`ErrorKind`], a byte offset and a field path.
//! - [`Format`]: the trait every format implements (name, sniff, parse, to_model, write, validate,
//!   summary, dump), and [`Finding`]/[`Summary`] that it returns.
//! - [`finding`]: [`Finding`] and its [`Place`], the structured path in the model that code
//!   acting on a finding (`fix`, a GUI) reads instead of its text.
//! - [`geometry`]: a format-neutral view of a navmesh (world-space polygons and a graph) that
//!   the exporters and the renderer work on.
//! - [`edit`]: geometry edited in a 3D tool matched against the original ([`edit::match_mesh`])
//!   and put back onto the model ([`edit::apply_mesh`], [`Format::apply`]).
//! - [`navigation`]: one navigation graph (cells, directed edges) that every format builds from
//!   its model, and the queries over it: which cell a point is on, the way between two cells.
//! - [`ShortVec`]: the list type of the models' short per-record lists (a node's links, an
//!   area's connections), kept inside the record up to a few items so that copying a file into
//!   a model does not allocate once per record.
//! - [`positions`]: the lists whose records others name by position, and those references, for
//!   the JSON tools to renumber.
//! - [`oracle`]: the round-trip checks used by the tests, the fuzz targets and `navkit roundtrip`.
//! - `bytes` (with the `serde` feature): byte strings in JSON, as text where they are UTF-8, and
//!   NUL-terminated names as plain strings with the terminator implied.
//! - `testing` (with the `testing` feature, for tests and benches only): a little-endian byte
//!   builder for hand-made inputs, a hex-diff assertion and the
//!   corpus walker.
//!
//! ```
//! use nav_core::{Cursor, scalar::U32};
//!
//! let bytes = [0x4e, 0x41, 0x56, 0x32, 0x0f, 0x00, 0x00, 0x00];
//! let mut cur = Cursor::new("example", &bytes);
//! let magic = cur.bytes(4, "magic")?;
//! let version: &U32 = cur.read("version")?;
//! assert_eq!(magic, b"NAV2");
//! assert_eq!(version.get(), 15);
//! let err = cur.read::<U32>("node count").unwrap_err();
//! assert_eq!(err.to_string(), "example: node count: 4 bytes needed at offset 0x8, only 0 left");
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]
// Library code never unwraps: every value read from input is checked.

#[cfg(feature = "serde")]
pub mod bytes;
pub mod cursor;
pub mod edit;
pub mod error;
pub mod finding;
pub mod format;
pub mod geometry;
pub mod navigation;
pub mod oracle;
pub mod positions;
pub mod scalar;
pub mod short_vec;
#[cfg(feature = "testing")]
pub mod testing;
pub mod write;

pub use cursor::Cursor;
pub use error::{Error, ErrorKind, Result};
pub use finding::{CellRef, Finding, Key, Place, Severity, Step};
pub use format::{AttributeBits, Built, Format, Part, RecordIdentity, Summary};
pub use scalar::RawF32;
pub use short_vec::ShortVec;
pub use write::ByteWriter;

/// zerocopy, re-exported so that format crates and their users derive against the same version.
pub use zerocopy;
