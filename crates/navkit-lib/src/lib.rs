//! navkit's formats behind one object-safe registry, for the command-line tool and the Python
//! package alike.
//!
//! - [`registry`]: every format as a `&'static dyn` [`registry::AnyFormat`], found by name, by
//!   signature or by file name ending; [`registry::AnyFormat::open`] reads a file once into an
//!   [`registry::Opened`] model that is then written, validated, fixed, converted and queried
//!   without parsing again.
//! - [`json`]: the model as JSON, streamed straight from and into the model.
//! - [`positions`]: the records other records name by position, written with a `"#"` and
//!   renumbered when a document's lists were edited, and removed from a model with
//!   [`positions::remove_records`].
//! - [`diff`]: structural differences of two models of one format.
//!
//! ```
//! let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/quake/room_nav3_v6.nav"))?;
//! let format = navkit_lib::registry::sniff(&bytes).ok_or("not a navmesh")?;
//! let opened = format.open(&bytes)?;
//! assert_eq!(opened.summary().format, "nav-quake");
//! assert_eq!(opened.write()?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

pub mod diff;
pub mod json;
pub mod positions;
pub mod registry;
