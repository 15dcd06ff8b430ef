//! Geometry edited in a 3D tool, put back onto the file it came from.
//!
//! `navkit export` writes a file's [`Geometry`] as a mesh; a modder edits it in Blender or any
//! other tool and exports it again; [`match_mesh`] compares that [`EditedMesh`] with the original
//! geometry and says what changed as a [`MeshEdit`]; [`crate::Format::apply`] puts the edit onto the
//! model, keeping everything the mesh does not show. [`apply_mesh`] does all three, and is what
//! the command-line tool, the Python package and the Blender add-on call.
//!
//! # How faces are known again
//!
//! Nothing but positions and topology survives a modelling tool: Blender's default exporters
//! drop custom glTF attributes and extras, renumber nothing but may split vertices (a glTF
//! export splits every vertex by its normals), triangulate (glTF holds only triangles) and round
//! coordinates (its OBJ writer keeps 6 decimals). So the matcher works on those alone:
//!
//! 1. **Vertices.** Edited vertices at the same position are welded into one. A welded vertex
//!    within the tolerance ([`MatchOptions`]) of an original vertex *is* that vertex, unmoved:
//!    the file keeps its raw bits. Several original vertices at one position (a file's
//!    duplicates, or each polygon's own corners) are all candidates.
//! 2. **Faces.** An edited face belongs to the original polygon whose corners it runs through in
//!    the same cyclic order, with at least two corners unmoved (a triangle of a triangulated
//!    quad runs through three of its four corners). Where two polygons fit equally, the one
//!    that is already covered by other faces is not a candidate; polygons with their corners
//!    at the same places (duplicates in one file, or a navmesh and its copy in a plugin) take
//!    their faces in order; anything else is refused. A face with fewer than two corners
//!    unmoved (a triangle of a quad whose side moved: one corner, or none inside a fan with
//!    several moved corners) then goes to the one polygon, partly made by the faces so far,
//!    whose faces share an edge (two welded vertices) with it, round after round until none is
//!    left; the polygon it completes is checked as any other (rule 3), and every corner of its
//!    outline at one of the polygon's vertices must be that vertex, in its place. A face that
//!    shares edges with two partly made polygons is refused, naming both.
//! 3. **Polygons.** The faces of one original polygon must together make it again (the pieces
//!    of a triangulation, or the polygon itself): their outline is the polygon's edited cycle
//!    of corners. A corner that is not where the original vertex was is that vertex, moved. A
//!    polygon no face belongs to is deleted; a face that belongs to no polygon is added, its
//!    corners naming original vertices where they are at one (moved or not) and new vertices
//!    elsewhere.
//! 4. **Attributes.** Where the edited mesh carries per-face values named like
//!    [`Geometry::attributes`] (the Python package and the Blender add-on pass them), a
//!    polygon whose faces all carry another value than the file's has that attribute changed.
//!
//! What cannot be told apart is refused with a message saying what to do, never guessed: a
//! vertex kept in one face and moved in another (the edit split it), a polygon only partly
//! covered by faces, a face that fits two polygons equally or could complete two.
//!
//! # Graphs
//!
//! A graph format (Quake's nodes and links) comes back as loose vertices and edges
//! ([`EditedGraph`]): node `k` is the file's node `k`, and only positions may change.
//! [`match_graph`] says which nodes moved ([`GraphEdit`]), [`crate::Format::apply_graph`] puts
//! them onto the model, [`apply_graph`] does both; nodes or links added or deleted are refused,
//! with a pointer to the JSON, since they re-index every link.

mod apply;
mod completion;
mod graph;
#[cfg(test)]
mod graph_tests;
mod matching;
#[cfg(test)]
mod tests;

pub use apply::{apply_graph, apply_mesh};
pub use graph::{EditedGraph, GraphEdit, match_graph};
pub use matching::match_mesh;

#[cfg(doc)]
use crate::geometry::Geometry;

/// A mesh as a modelling tool gives it back: positions in the format's own world axes (undo
/// the Y-up turn of glTF and OBJ with [`crate::geometry::UpAxis::from_y_up`]) and faces as
/// vertex-index lists in the winding the export wrote.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EditedMesh {
    /// Vertex positions, in the format's world axes.
    pub vertices: Vec<[f32; 3]>,
    /// Faces: polygons (triangles or more) as indices into [`EditedMesh::vertices`].
    pub faces: Vec<Vec<u32>>,
    /// Per-face integer values by name (`flags`), one per face, where the mesh carries them;
    /// names that are not in [`Geometry::attributes`] are ignored.
    pub attributes: Vec<(String, Vec<i64>)>,
}

/// How close an edited vertex must be to an original one to be it, unmoved: within
/// `absolute + relative × m` on every axis, where `m` is the largest coordinate magnitude of
/// *that original vertex* (`max(|x|, |y|, |z|)`, [`MatchOptions::tolerance_at`]), so a vertex
/// near the origin of a large map matches within its own float precision, not the far corner's.
/// The defaults (`1e-5` and `1e-6`) cover Blender's 6-decimal OBJ and its axis turns in `f32`,
/// and are far below any edit a person makes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchOptions {
    /// The absolute part of the tolerance, in world units.
    pub absolute: f32,
    /// The part of the tolerance relative to the vertex's largest coordinate magnitude.
    pub relative: f32,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            absolute: 1e-5,
            relative: 1e-6,
        }
    }
}

impl MatchOptions {
    /// The tolerance at the original position `p`: `absolute + relative × m`, `m` the largest
    /// finite coordinate magnitude of `p` (see [`MatchOptions`]). A format that keeps a
    /// coordinate's stored bits when the edit leaves it within this of the original uses the
    /// matcher's own measure.
    pub fn tolerance_at(&self, p: [f32; 3]) -> f32 {
        let magnitude = p
            .iter()
            .filter(|c| c.is_finite())
            .fold(0.0f32, |m, c| m.max(c.abs()));
        self.absolute.abs() + self.relative.abs() * magnitude
    }

    /// The largest tolerance over the vertices of `g`: [`MatchOptions::tolerance_at`] of its
    /// largest finite coordinate magnitude. An upper bound of every vertex's own tolerance (the
    /// matcher's grid is that coarse); a vertex matches within its own.
    pub fn tolerance(&self, g: &crate::geometry::Geometry) -> f32 {
        let magnitude = g
            .vertices
            .iter()
            .flatten()
            .filter(|c| c.is_finite())
            .fold(0.0f32, |m, c| m.max(c.abs()));
        self.tolerance_at([magnitude, 0.0, 0.0])
    }
}

/// A corner of an added face: an original vertex (moved or not), or a vertex the edit added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corner {
    /// Index into the original [`Geometry::vertices`].
    Vertex(u32),
    /// Index into [`MeshEdit::new_vertices`].
    New(u32),
}

/// A face the edit added: a new record for the format to make with its defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct AddedFace {
    /// Which face of the [`EditedMesh`] it is.
    pub face: u32,
    /// Its corners, in winding order. A format whose vertices are shared
    /// ([`crate::geometry::VertexIdentity::Shared`]) uses [`Corner::Vertex`] to share the file's vertex.
    pub corners: Vec<Corner>,
    /// The position of each corner (after the edit's moves), for formats that store corners
    /// by position.
    pub positions: Vec<[f32; 3]>,
    /// The face's value of each of [`Geometry::attributes`], where the mesh carries it.
    pub attributes: Vec<Option<i64>>,
}

/// One attribute value the edit changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributeChange {
    /// Index into the original [`Geometry::polygons`].
    pub polygon: u32,
    /// Index into [`Geometry::attributes`].
    pub attribute: u32,
    /// The new value.
    pub value: i64,
}

/// What an edited mesh changed in a [`Geometry`]; indices name the original geometry's vertices
/// and polygons (whose [`crate::geometry::Polygon::record`] names the file's record).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshEdit {
    /// Original vertices that moved, and where to, ascending by vertex.
    pub moved: Vec<(u32, [f32; 3])>,
    /// Original polygons the edit deleted, ascending.
    pub deleted: Vec<u32>,
    /// Vertices the edit added, which [`Corner::New`] names.
    pub new_vertices: Vec<[f32; 3]>,
    /// Faces the edit added, in the edited mesh's order.
    pub added: Vec<AddedFace>,
    /// Attribute values the edit changed, by polygon then attribute.
    pub attributes: Vec<AttributeChange>,
}

impl MeshEdit {
    /// Whether the edit changes nothing.
    pub fn is_empty(&self) -> bool {
        self.moved.is_empty()
            && self.deleted.is_empty()
            && self.added.is_empty()
            && self.attributes.is_empty()
    }
}

/// Why [`match_mesh`] refused an edited mesh: what could not be told apart, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct MatchError(pub String);

/// `(x, y, z)` with each coordinate in Rust's shortest form that reads back to the same `f32`,
/// for change lines.
pub fn show_point(p: [f32; 3]) -> String {
    format!("({}, {}, {})", p[0], p[1], p[2])
}
