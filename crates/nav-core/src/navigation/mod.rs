//! One navigation graph for every format, and the queries over it.
//!
//! A navmesh exists to answer two questions: which walkable cell is this point on, and what is
//! the way from here to there. Each format crate turns its model into a [`Graph`] (its
//! `navigation` module, behind [`crate::Format::navigation`]); the queries are written once, here,
//! over that graph ([`Navigator`]):
//!
//! ```text
//! Model ──Format::navigation──▶ Graph ──Navigator::new──▶ locate / path / islands
//! ```
//!
//! - A **cell** is what the game paths over: a Source area, a Skyrim triangle, a Quake node, a
//!   Fox Engine graph node, a Silkroad cell. It carries the id users know ([`CellId`]), a centre
//!   (the mean of its polygon's corners, or a node's position) and, where the format has one, its
//!   polygon. A cell without a usable polygon gets no centre: none is invented.
//! - An **edge** is directed, from one cell to another, with an [`EdgeKind`] taken from the file.
//!   A one-way connection is one edge; a two-way connection is two.
//! - An **exit** is a link the file stores to a cell the graph does not hold (a Skyrim edge link
//!   to a navmesh of another plugin): reported, never followed.
//!
//! Coordinates are the file's own axes; [`Graph::up`] says which one points up.

mod graph;

pub use graph::{Cell, CellId, CellIdError, Edge, EdgeKind, Exit, Graph};
