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
//!
//! ```
//! use nav_core::geometry::UpAxis;
//! use nav_core::navigation::{CellId, EdgeKind, Endpoint, Graph, Navigator, Weight};
//!
//! let mut g = Graph::new(UpAxis::Z);
//! let a = g.add_polygon_cell(CellId::new(1), &[[0., 0., 0.], [2., 0., 0.], [2., 2., 0.]]);
//! let b = g.add_polygon_cell(CellId::new(2), &[[2., 0., 0.], [4., 0., 0.], [2., 2., 0.]]);
//! g.add_edge(a, b, EdgeKind::Walk);
//! let nav = Navigator::new(g)?;
//! assert_eq!(nav.locate([1.5, 0.5, 3.0]).map(|l| l.cell), Some(a));
//! let route = nav.path(Endpoint::Cell(CellId::new(1)), Endpoint::Point([3.0, 0.5, 0.0]),
//!     Weight::Hops, true)?;
//! assert_eq!((route.cells, route.cost), (vec![a, b], 1.0));
//! assert_eq!(nav.islands(true), vec![vec![a, b]]);
//! # Ok::<(), nav_core::navigation::NavError>(())
//! ```

mod graph;
mod landmarks;
mod navigator;
mod search;
mod spatial;
#[cfg(test)]
mod tests;

pub use graph::{Cell, CellId, CellIdError, Edge, EdgeKind, Exit, Graph};
pub use navigator::{Endpoint, Located, NavError, Navigator, Route};
pub use search::Weight;
