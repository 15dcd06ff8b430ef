//! The library behind the `navkit` command: the commands, and what they write (glTF, OBJ,
//! pictures) and read (meshes).
//!
//! The formats themselves are reached through `navkit-lib`'s registry, re-exported here as
//! [`registry`], [`json`] and [`diff`]. It is a library so that its tests can drive every
//! registered format in-process; the binary in `main.rs` only calls [`cli::main`].
#![forbid(unsafe_code)]

pub mod cli;
pub mod export;
pub mod font;
pub mod fuzzing;
pub mod graph_obj;
pub mod import;
pub mod palette;
pub mod render;
pub mod walk;

pub use navkit_lib::{diff, json, positions, registry};
