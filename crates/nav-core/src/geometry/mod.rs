//! A format-neutral picture of a navmesh: world-space polygons and a graph.
//!
//! Every format maps its own model into a [`Geometry`] (through [`crate::Format::geometry`]), and
//! the exporters and the renderer work on that alone. Polygons are triangles or quads (or any
//! convex polygon a format has) over one vertex array; each carries an attribute *kind* (a name
//! such as `walk`, `jump`, `water`) and, where the format knows it, the neighbour across each edge.
//! The graph is the format's nodes and links where it has one (Quake), or one derived from the
//! polygons (Source area connections).
//!
//! Every polygon also says which record of the file it is ([`Record`]: its position in the
//! format's list and the id users know) and carries that record's raw attribute values (flags as
//! stored, named by [`Geometry::attributes`]); [`Geometry::vertex_identity`] says whether the
//! vertices are the file's own shared vertices or each polygon's own corners. That is what
//! [`crate::edit`] needs to put geometry edited in a 3D tool back onto the file.
//!
//! Coordinates are the engine's own world units and axes; [`UpAxis`] says which axis points up, so
//! that an exporter can turn them into the Y-up convention of glTF and OBJ, and a renderer can look
//! down on the two horizontal axes.

mod axis;
mod mesh;

pub use axis::UpAxis;
#[cfg(feature = "arbitrary")]
pub use mesh::{ARBITRARY_MAX_TRIANGLES, ARBITRARY_MAX_VERTICES};
pub use mesh::{FaultyTriangle, TriangleFault, TriangleMesh};

/// Which record of the file a [`Polygon`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Record {
    /// The part of the file the record is in: an index into [`Geometry::parts`] (a navmesh of
    /// a Skyrim plugin); 0 in a file of one part.
    pub part: u32,
    /// The record's position in the format's list of such records (`triangles[12]`,
    /// `areas[3]`), within its part.
    pub index: u32,
    /// The id users know the record by, where the format has one (a Source area id); `None`
    /// where the position is the only name.
    pub id: Option<u64>,
}

/// How [`Geometry::vertices`] relate to what the file stores: what a vertex *is* for
/// [`crate::edit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum VertexIdentity {
    /// Not said: a format that has not mapped its vertices. Mesh edits cannot be applied.
    #[default]
    Unknown,
    /// The file has a vertex list (several, one per part, after one another) and vertex `i`
    /// here is its vertex `i`, 1:1 in order; polygons that share a vertex in the file share it
    /// here. Moving a vertex moves the file's vertex, in every polygon that uses it.
    Shared,
    /// The file has no vertex list: every polygon has its own corners, and every vertex here
    /// belongs to exactly one polygon. Moving a vertex moves that one corner of that one record.
    Corners,
}

/// A polygon over [`Geometry::vertices`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Polygon {
    /// Vertex indices, in winding order (3 for a triangle, 4 for a quad).
    pub vertices: Vec<u32>,
    /// Index into [`Geometry::kinds`].
    pub kind: u16,
    /// For edge `i` (from vertex `i` to vertex `i + 1`), the polygon across it, where known.
    /// Empty when the format does not record adjacency.
    pub neighbours: Vec<Option<u32>>,
    /// The record of the file this polygon is; `None` for a format that has not said.
    pub record: Option<Record>,
    /// The record's raw attribute values as stored (flags as the integer the file holds), one
    /// per name of [`Geometry::attributes`], in that order; empty when the format gives none.
    pub attributes: Vec<i64>,
}

/// A graph node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphNode {
    /// World position.
    pub position: [f32; 3],
    /// Index into [`Geometry::kinds`].
    pub kind: u16,
}

/// A directed graph link between two nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphLink {
    /// Index of the node the link leaves.
    pub from: u32,
    /// Index of the node it reaches.
    pub to: u32,
    /// Index into [`Geometry::kinds`].
    pub kind: u16,
}

/// A part of the input that a [`Geometry`] leaves out because it could not be read (a navmesh of a
/// Skyrim plugin whose `NVNM` does not parse), and why. Whoever exports or draws the geometry
/// can then say that the picture is incomplete instead of passing it off as the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Omitted {
    /// The part, as a person would name it (`navmesh 0410E930`).
    pub part: String,
    /// Why it was left out: the error reading it gave.
    pub reason: String,
}

/// World-space polygons and a graph, with named attribute kinds.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry {
    /// Which axis points up.
    pub up: UpAxis,
    /// Vertex positions.
    pub vertices: Vec<[f32; 3]>,
    /// Polygons over the vertices.
    pub polygons: Vec<Polygon>,
    /// Graph nodes.
    pub nodes: Vec<GraphNode>,
    /// Graph links.
    pub links: Vec<GraphLink>,
    /// Names of the attribute kinds polygons, nodes and links refer to.
    pub kinds: Vec<String>,
    /// Parts of the input left out of this geometry, in file order (empty when nothing was).
    pub omitted: Vec<Omitted>,
    /// The names of [`Polygon::attributes`], in order, as the format's JSON names the fields
    /// (`flags`, `cover_flags`).
    pub attributes: Vec<String>,
    /// What a vertex is: the file's own shared vertex, or one polygon's own corner.
    pub vertex_identity: VertexIdentity,
    /// The names of the parts [`Record::part`] indexes (a plugin's navmeshes by FormID), in
    /// order; empty for a file of one part.
    pub parts: Vec<String>,
}

impl Geometry {
    /// An empty geometry.
    pub fn new(up: UpAxis) -> Self {
        Geometry {
            up,
            vertices: Vec::new(),
            polygons: Vec::new(),
            nodes: Vec::new(),
            links: Vec::new(),
            kinds: Vec::new(),
            omitted: Vec::new(),
            attributes: Vec::new(),
            vertex_identity: VertexIdentity::Unknown,
            parts: Vec::new(),
        }
    }

    /// Where each vertex is a corner: vertex index to (polygon index, corner position), the
    /// last polygon naming it winning. Under [`VertexIdentity::Corners`] each vertex is one
    /// corner of one polygon, so this names it exactly.
    pub fn corner_owners(&self) -> std::collections::HashMap<u32, (u32, usize)> {
        let mut owner = std::collections::HashMap::new();
        for (p, poly) in self.polygons.iter().enumerate() {
            let Ok(p) = u32::try_from(p) else { break };
            for (k, v) in poly.vertices.iter().enumerate() {
                owner.insert(*v, (p, k));
            }
        }
        owner
    }

    /// The index of a kind name, added on first use.
    pub fn kind(&mut self, name: &str) -> u16 {
        match self.kinds.iter().position(|k| k == name) {
            Some(i) => u16::try_from(i).unwrap_or(u16::MAX),
            None => {
                self.kinds.push(name.to_string());
                u16::try_from(self.kinds.len() - 1).unwrap_or(u16::MAX)
            }
        }
    }

    /// The name of a kind index (`"?"` for an index past the table).
    pub fn kind_name(&self, kind: u16) -> &str {
        self.kinds
            .get(usize::from(kind))
            .map_or("?", String::as_str)
    }

    /// Adds a vertex and returns its index.
    pub fn vertex(&mut self, p: [f32; 3]) -> u32 {
        self.vertices.push(p);
        u32::try_from(self.vertices.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds a polygon of fresh vertices, of the named kind, without adjacency.
    pub fn push_polygon(&mut self, corners: &[[f32; 3]], kind: &str) -> u32 {
        let kind = self.kind(kind);
        let vertices = corners.iter().map(|c| self.vertex(*c)).collect();
        self.polygons.push(Polygon {
            vertices,
            kind,
            ..Polygon::default()
        });
        u32::try_from(self.polygons.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds a graph node of the named kind and returns its index.
    pub fn push_node(&mut self, position: [f32; 3], kind: &str) -> u32 {
        let kind = self.kind(kind);
        self.nodes.push(GraphNode { position, kind });
        u32::try_from(self.nodes.len() - 1).unwrap_or(u32::MAX)
    }

    /// Adds a graph link of the named kind.
    pub fn push_link(&mut self, from: u32, to: u32, kind: &str) {
        let kind = self.kind(kind);
        self.links.push(GraphLink { from, to, kind });
    }

    /// The two horizontal coordinates of a point, as (east, north) seen from above.
    pub fn plan(&self, p: [f32; 3]) -> (f32, f32) {
        self.up.plan(p)
    }

    /// A point in the Y-up, right-handed convention of glTF and OBJ.
    pub fn y_up(&self, p: [f32; 3]) -> [f32; 3] {
        self.up.to_y_up(p)
    }

    /// Smallest and largest plan coordinates of every vertex and node with finite coordinates,
    /// or `None` when there are none.
    pub fn plan_bounds(&self) -> Option<((f32, f32), (f32, f32))> {
        let mut it = self
            .vertices
            .iter()
            .copied()
            .chain(self.nodes.iter().map(|n| n.position))
            .filter(|p| p.iter().all(|c| c.is_finite()))
            .map(|p| self.plan(p));
        let first = it.next()?;
        Some(it.fold((first, first), |((x0, y0), (x1, y1)), (x, y)| {
            ((x0.min(x), y0.min(y)), (x1.max(x), y1.max(y)))
        }))
    }

    /// Whether every index (polygon vertices, neighbours, link ends, kinds, record parts) names
    /// something that exists and no polygon has more attribute values than there are names.
    /// Format mappings keep this true; exporters rely on it.
    pub fn is_consistent(&self) -> bool {
        let nv = self.vertices.len();
        let np = self.polygons.len();
        let nn = self.nodes.len();
        let nk = self.kinds.len();
        let parts = self.parts.len().max(1);
        self.polygons.iter().all(|p| {
            p.vertices.len() >= 3
                && p.vertices.iter().all(|v| (*v as usize) < nv)
                && usize::from(p.kind) < nk
                && (p.neighbours.is_empty() || p.neighbours.len() == p.vertices.len())
                && p.neighbours.iter().flatten().all(|n| (*n as usize) < np)
                && p.record.is_none_or(|r| (r.part as usize) < parts)
                && p.attributes.len() <= self.attributes.len()
        }) && self.nodes.iter().all(|n| usize::from(n.kind) < nk)
            && self
                .links
                .iter()
                .all(|l| (l.from as usize) < nn && (l.to as usize) < nn && usize::from(l.kind) < nk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_interned_and_axes_converted() {
        let mut g = Geometry::new(UpAxis::Z);
        let a = g.push_polygon(&[[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 1.0]], "walk");
        let n0 = g.push_node([0.0, 0.0, 0.0], "node");
        let n1 = g.push_node([2.0, 3.0, 0.0], "node");
        g.push_link(n0, n1, "walk");
        assert_eq!(a, 0);
        assert_eq!(g.kinds, ["walk", "node"]);
        assert_eq!(g.links[0].kind, 0);
        assert!(g.is_consistent());
        assert_eq!(g.y_up([1.0, 2.0, 3.0]), [1.0, 3.0, -2.0]);
        assert_eq!(g.plan_bounds(), Some(((0.0, 0.0), (2.0, 3.0))));
        g.links[0].to = 9;
        assert!(!g.is_consistent());
    }

    /// The determinant of the linear map `f` (its columns are the images of the unit vectors).
    fn determinant(f: impl Fn([f32; 3]) -> [f32; 3]) -> f32 {
        let [a, b, c] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]].map(&f);
        a[0] * (b[1] * c[2] - b[2] * c[1]) - b[0] * (a[1] * c[2] - a[2] * c[1])
            + c[0] * (a[1] * b[2] - a[2] * b[1])
    }

    #[test]
    fn y_up_conversions_are_inverse_rotations() {
        let odd = [1.5, -2.25e-7, f32::MAX];
        for up in [UpAxis::Y, UpAxis::Z] {
            for p in [[1.0, 2.0, 3.0], [-0.0, 0.1, -7.5], odd] {
                let back = up.from_y_up(up.to_y_up(p));
                assert_eq!(back.map(f32::to_bits), p.map(f32::to_bits), "{up:?} {p:?}");
                let there = up.to_y_up(up.from_y_up(p));
                assert_eq!(there.map(f32::to_bits), p.map(f32::to_bits), "{up:?} {p:?}");
            }
            // Rotations, not mirrors: handedness is kept.
            assert_eq!(determinant(|p| up.to_y_up(p)), 1.0, "{up:?}");
            assert_eq!(determinant(|p| up.from_y_up(p)), 1.0, "{up:?}");
        }
        // Up goes to up, and the plan seen from above is the same picture.
        assert_eq!(UpAxis::Z.to_y_up([0.0, 0.0, 1.0]), [0.0, 1.0, 0.0]);
        assert_eq!(UpAxis::Z.from_y_up([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]);
        let p = [3.0, 4.0, 5.0];
        assert_eq!(UpAxis::Z.plan(p), UpAxis::Y.plan(UpAxis::Z.to_y_up(p)));
    }
}
