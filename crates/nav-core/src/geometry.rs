//! A format-neutral picture of a navmesh: world-space polygons and a graph.
//!
//! Every format maps its own model into a [`Geometry`] (through [`crate::Format::geometry`]), and
//! the exporters and the renderer work on that alone. Polygons are triangles or quads (or any
//! convex polygon a format has) over one vertex array; each carries an attribute *kind* (a name
//! such as `walk`, `jump`, `water`) and, where the format knows it, the neighbour across each edge.
//! The graph is the format's nodes and links where it has one (Quake), or one derived from the
//! polygons (Source area connections).
//!
//! Coordinates are the engine's own world units and axes; [`UpAxis`] says which axis points up, so
//! that an exporter can turn them into the Y-up convention of glTF and OBJ, and a renderer can look
//! down on the two horizontal axes.

/// Which coordinate axis points up in a format's world space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// Y up (Fox Engine, Silkroad).
    Y,
    /// Z up (Quake, Source, Skyrim).
    Z,
}

/// A polygon over [`Geometry::vertices`].
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    /// Vertex indices, in winding order (3 for a triangle, 4 for a quad).
    pub vertices: Vec<u32>,
    /// Index into [`Geometry::kinds`].
    pub kind: u16,
    /// For edge `i` (from vertex `i` to vertex `i + 1`), the polygon across it, where known.
    /// Empty when the format does not record adjacency.
    pub neighbours: Vec<Option<u32>>,
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
        }
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
            neighbours: Vec::new(),
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
        match self.up {
            UpAxis::Z => (p[0], p[1]),
            // Y-up worlds are right-handed with Z toward the viewer; looking down, -Z is north.
            UpAxis::Y => (p[0], -p[2]),
        }
    }

    /// A point in the Y-up, right-handed convention of glTF and OBJ.
    pub fn y_up(&self, p: [f32; 3]) -> [f32; 3] {
        match self.up {
            UpAxis::Y => p,
            UpAxis::Z => [p[0], p[2], -p[1]],
        }
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

    /// Whether every index (polygon vertices, neighbours, link ends, kinds) names something that
    /// exists. Format mappings keep this true; exporters rely on it.
    pub fn is_consistent(&self) -> bool {
        let nv = self.vertices.len();
        let np = self.polygons.len();
        let nn = self.nodes.len();
        let nk = self.kinds.len();
        self.polygons.iter().all(|p| {
            p.vertices.len() >= 3
                && p.vertices.iter().all(|v| (*v as usize) < nv)
                && usize::from(p.kind) < nk
                && (p.neighbours.is_empty() || p.neighbours.len() == p.vertices.len())
                && p.neighbours.iter().flatten().all(|n| (*n as usize) < np)
        }) && self.nodes.iter().all(|n| usize::from(n.kind) < nk)
            && self
                .links
                .iter()
                .all(|l| (l.from as usize) < nn && (l.to as usize) < nn && usize::from(l.kind) < nk)
    }
}

/// A triangle mesh: what `navkit build` reads from a modelling tool's export.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TriangleMesh {
    /// Vertex positions, in the target format's world axes.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles, as vertex indices in counter-clockwise order seen from above.
    pub triangles: Vec<[u32; 3]>,
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
}
