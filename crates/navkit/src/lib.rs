//! The library behind the `navkit` command: the registry of formats and the commands.
//!
//! It is a library so that its tests can drive every registered format in-process; the binary
//! in `main.rs` only calls [`cli::main`].
#![forbid(unsafe_code)]

pub mod cli;
pub mod diff;
pub mod export;
pub mod font;
pub mod fuzzing;
pub mod import;
pub mod json;
pub mod palette;
pub mod registry;
pub mod render;
pub mod walk;
