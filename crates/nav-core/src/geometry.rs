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

/// Which coordinate axis points up in a format's world space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// Y up (Fox Engine, Silkroad).
    Y,
    /// Z up (Quake, Source, Skyrim).
    Z,
}

impl UpAxis {
    /// A point of this axis convention in the Y-up, right-handed convention of glTF and OBJ: a
    /// Z-up `(x, y, z)` becomes `(x, z, -y)`. A rotation (no mirror), so a triangle that is
    /// counter-clockwise seen from above stays so. [`UpAxis::from_y_up`] is its exact inverse.
    pub fn to_y_up(self, p: [f32; 3]) -> [f32; 3] {
        match self {
            UpAxis::Y => p,
            UpAxis::Z => [p[0], p[2], -p[1]],
        }
    }

    /// A Y-up, right-handed point (glTF, OBJ) in this axis convention: a Z-up world gets
    /// `(x, -z, y)`. The exact inverse of [`UpAxis::to_y_up`] (only negation and swaps, so every
    /// bit comes back).
    pub fn from_y_up(self, p: [f32; 3]) -> [f32; 3] {
        match self {
            UpAxis::Y => p,
            UpAxis::Z => [p[0], -p[2], p[1]],
        }
    }

    /// The two horizontal coordinates of a point, as (east, north) seen from above.
    pub fn plan(self, p: [f32; 3]) -> (f32, f32) {
        match self {
            UpAxis::Z => (p[0], p[1]),
            // Y-up worlds are right-handed with Z toward the viewer; looking down, -Z is north.
            UpAxis::Y => (p[0], -p[2]),
        }
    }
}

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

/// A triangle mesh: what `navkit build` reads from a modelling tool's export.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TriangleMesh {
    /// Vertex positions, in the target format's world axes.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles, as vertex indices in counter-clockwise order seen from above.
    pub triangles: Vec<[u32; 3]>,
}

/// Why [`TriangleMesh::face_up`] refuses a triangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TriangleFault {
    /// A corner names no vertex.
    MissingVertex,
    /// Two corners are the same vertex.
    RepeatedVertex,
    /// A corner has a coordinate that is not a finite number.
    NotFinite,
    /// The corners are on one line (or one point): the triangle has no area.
    Degenerate,
    /// The triangle has an area but none seen from above: it stands upright.
    Vertical,
}

impl core::fmt::Display for TriangleFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TriangleFault::MissingVertex => "names a vertex that does not exist",
            TriangleFault::RepeatedVertex => "repeats a vertex",
            TriangleFault::NotFinite => "has a corner that is not a finite position",
            TriangleFault::Degenerate => "is degenerate: its corners are on one line",
            TriangleFault::Vertical => "is vertical: it has no area seen from above",
        })
    }
}

/// A triangle [`TriangleMesh::face_up`] refuses: its index in [`TriangleMesh::triangles`] and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedTriangle {
    /// Index of the triangle.
    pub index: usize,
    /// What is wrong with it.
    pub fault: TriangleFault,
}

impl core::fmt::Display for RefusedTriangle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "triangles[{}] {}", self.index, self.fault)
    }
}

impl TriangleMesh {
    /// Turns every triangle to face up in a world where `up` points up: a triangle that is
    /// clockwise seen from above gets two corners swapped, so that all are counter-clockwise as
    /// [`TriangleMesh::triangles`] requires. Returns how many were turned.
    ///
    /// Refuses, changing nothing, when any triangle cannot face up: vertical ones (no area seen
    /// from above) and degenerate ones (a missing or repeated vertex, a non-finite corner,
    /// corners on one line). The error lists every such triangle, by index.
    ///
    /// Orientation is the sign of the plan cross product computed in `f64` from the `f32`
    /// coordinates, as the builders compute it, so a triangle kept here is one they accept.
    pub fn face_up(&mut self, up: UpAxis) -> Result<usize, Vec<RefusedTriangle>> {
        let mut refused = Vec::new();
        let mut turn = Vec::new();
        for (index, t) in self.triangles.iter().enumerate() {
            match self.facing(up, *t) {
                Ok(true) => {}
                Ok(false) => turn.push(index),
                Err(fault) => refused.push(RefusedTriangle { index, fault }),
            }
        }
        if !refused.is_empty() {
            return Err(refused);
        }
        for &i in &turn {
            if let Some(t) = self.triangles.get_mut(i) {
                t.swap(1, 2);
            }
        }
        Ok(turn.len())
    }

    /// Whether a triangle faces up (`true`) or down (`false`), or why it does neither.
    fn facing(&self, up: UpAxis, t: [u32; 3]) -> Result<bool, TriangleFault> {
        let [a, b, c] = t;
        if a == b || b == c || c == a {
            return Err(TriangleFault::RepeatedVertex);
        }
        let corner = |v: u32| self.vertices.get(usize::try_from(v).ok()?).copied();
        let (Some(pa), Some(pb), Some(pc)) = (corner(a), corner(b), corner(c)) else {
            return Err(TriangleFault::MissingVertex);
        };
        if [pa, pb, pc].iter().flatten().any(|c| !c.is_finite()) {
            return Err(TriangleFault::NotFinite);
        }
        let plan = |p: [f32; 3]| {
            let (x, y) = up.plan(p);
            [f64::from(x), f64::from(y)]
        };
        let (qa, qb, qc) = (plan(pa), plan(pb), plan(pc));
        let cross = (qb[0] - qa[0]) * (qc[1] - qa[1]) - (qb[1] - qa[1]) * (qc[0] - qa[0]);
        if cross > 0.0 {
            return Ok(true);
        }
        if cross < 0.0 {
            return Ok(false);
        }
        let sub = |p: [f32; 3], q: [f32; 3]| -> [f64; 3] {
            core::array::from_fn(|i| f64::from(p[i]) - f64::from(q[i]))
        };
        let (u, v) = (sub(pb, pa), sub(pc, pa));
        let normal = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        if normal.iter().all(|n| *n == 0.0) {
            Err(TriangleFault::Degenerate)
        } else {
            Err(TriangleFault::Vertical)
        }
    }
}

/// Small triangle meshes for fuzzing the builders: at most [`ARBITRARY_MAX_VERTICES`] vertices and
/// [`ARBITRARY_MAX_TRIANGLES`] triangles, of three kinds, so that most inputs reach a builder's
/// work rather than its first refusal:
///
/// - a **grid** (half the inputs): up to 8 × 8 points with a height each, every cell split into two
///   triangles along either diagonal, or one, or none, counter-clockwise seen from above with Z
///   or Y up, at a spacing from a thousandth to ten thousand units and an offset from the origin;
///   one cell in sixteen is turned over, so that the refusals of clockwise triangles are reached;
/// - a **soup** (three eighths): vertices on a small integer lattice times a scale, triangles
///   naming any vertex or one past the last, turned to face up (Z or Y) half the time;
/// - **anything** (one eighth): any float bits (NaN, infinities, huge values), any indices.
#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for TriangleMesh {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let kind: u8 = u.arbitrary()?;
        match kind % 8 {
            0..4 => arbitrary_grid(u, kind & 0x80 != 0),
            4..7 => arbitrary_soup(u, kind),
            _ => arbitrary_anything(u),
        }
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, None)
    }
}

/// The most vertices an arbitrary [`TriangleMesh`] has.
#[cfg(feature = "arbitrary")]
pub const ARBITRARY_MAX_VERTICES: usize = 64;

/// The most triangles an arbitrary [`TriangleMesh`] has.
#[cfg(feature = "arbitrary")]
pub const ARBITRARY_MAX_TRIANGLES: usize = 128;

#[cfg(feature = "arbitrary")]
fn arbitrary_grid(
    u: &mut arbitrary::Unstructured<'_>,
    y_up: bool,
) -> arbitrary::Result<TriangleMesh> {
    const SPACINGS: [f32; 6] = [1.0, 0.5, 32.0, 0.001, 250.0, 10_000.0];
    const OFFSETS: [f32; 4] = [0.0, -1024.0, 40_000.0, -3.5e6];
    let (nx, ny) = (u.int_in_range(2..=8u32)?, u.int_in_range(2..=8u32)?);
    let spacing = SPACINGS[usize::from(u.int_in_range(0..=5u8)?)];
    let step: f32 = *u.choose(&[0.0, 0.25, 1.0, 8.0])?;
    let offset = [
        OFFSETS[usize::from(u.int_in_range(0..=3u8)?)],
        OFFSETS[usize::from(u.int_in_range(0..=3u8)?)],
        OFFSETS[usize::from(u.int_in_range(0..=3u8)?)],
    ];
    let mut mesh = TriangleMesh::default();
    for j in 0..ny {
        for i in 0..nx {
            let (east, north) = (i as f32 * spacing, j as f32 * spacing);
            let height = f32::from(u.arbitrary::<i8>()?) * step;
            mesh.vertices.push(if y_up {
                [offset[0] + east, offset[1] + height, offset[2] - north]
            } else {
                [offset[0] + east, offset[1] + north, offset[2] + height]
            });
        }
    }
    let at = |i: u32, j: u32| j * nx + i;
    for j in 0..ny - 1 {
        for i in 0..nx - 1 {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            let cell: u8 = u.arbitrary()?;
            let mut pair = match cell % 6 {
                0 => vec![],
                1 | 2 => vec![[a, b, c], [a, c, d]],
                3 => vec![[a, b, d], [b, c, d]],
                4 => vec![[a, b, c]],
                _ => vec![[a, c, d]],
            };
            if cell >> 4 == 0 {
                for t in &mut pair {
                    t.swap(1, 2);
                }
            }
            mesh.triangles.extend(pair);
        }
    }
    Ok(mesh)
}

#[cfg(feature = "arbitrary")]
fn arbitrary_soup(
    u: &mut arbitrary::Unstructured<'_>,
    kind: u8,
) -> arbitrary::Result<TriangleMesh> {
    let scale: f32 = *u.choose(&[1.0, 0.125, 16.0, 1000.0])?;
    let nv = u.int_in_range(0..=ARBITRARY_MAX_VERTICES)?;
    let mut mesh = TriangleMesh::default();
    for _ in 0..nv {
        let [x, y, z]: [i8; 3] = u.arbitrary()?;
        mesh.vertices
            .push([x, y, z].map(|c| f32::from(c % 16) * scale));
    }
    let nt = u.int_in_range(0..=ARBITRARY_MAX_TRIANGLES)?;
    let last = u32::try_from(nv).unwrap_or(u32::MAX);
    for _ in 0..nt {
        if u.is_empty() {
            break;
        }
        mesh.triangles.push([
            u.int_in_range(0..=last)?,
            u.int_in_range(0..=last)?,
            u.int_in_range(0..=last)?,
        ]);
    }
    if kind & 0x10 != 0 {
        let up = if kind & 0x20 != 0 {
            UpAxis::Y
        } else {
            UpAxis::Z
        };
        // A mesh face_up refuses stays as drawn.
        let _ = mesh.face_up(up);
    }
    Ok(mesh)
}

#[cfg(feature = "arbitrary")]
fn arbitrary_anything(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<TriangleMesh> {
    let nv = u.int_in_range(0..=ARBITRARY_MAX_VERTICES)?;
    let mut mesh = TriangleMesh::default();
    for _ in 0..nv {
        mesh.vertices.push(u.arbitrary()?);
    }
    let nt = u.int_in_range(0..=ARBITRARY_MAX_TRIANGLES)?;
    for _ in 0..nt {
        if u.is_empty() {
            break;
        }
        mesh.triangles.push(u.arbitrary()?);
    }
    Ok(mesh)
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

    fn mesh(vertices: &[[f32; 3]], triangles: &[[u32; 3]]) -> TriangleMesh {
        TriangleMesh {
            vertices: vertices.to_vec(),
            triangles: triangles.to_vec(),
        }
    }

    #[test]
    fn face_up_turns_down_facing_triangles_in_either_axis_convention() {
        // Z up: counter-clockwise in the XY plane is up.
        let square = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        let mut m = mesh(&square, &[[0, 1, 2], [0, 3, 2]]);
        assert_eq!(m.face_up(UpAxis::Z), Ok(1));
        assert_eq!(m.triangles, [[0, 1, 2], [0, 2, 3]]);
        assert_eq!(m.face_up(UpAxis::Z), Ok(0));
        // The same triangles turned to Y up face up there too: nothing to turn.
        let mut y = mesh(
            &square.map(|p| UpAxis::Z.to_y_up(p)),
            &[[0, 1, 2], [0, 2, 3]],
        );
        assert_eq!(y.face_up(UpAxis::Y), Ok(0));
        // Read with the wrong axis, the square is vertical.
        assert_eq!(
            y.clone().face_up(UpAxis::Z),
            Err(vec![
                RefusedTriangle {
                    index: 0,
                    fault: TriangleFault::Vertical
                },
                RefusedTriangle {
                    index: 1,
                    fault: TriangleFault::Vertical
                },
            ])
        );
        // Y up, clockwise seen from +Y: turned.
        y.triangles[1] = [0, 3, 2];
        assert_eq!(y.face_up(UpAxis::Y), Ok(1));
        assert_eq!(y.triangles[1], [0, 2, 3]);
    }

    #[test]
    fn face_up_refuses_vertical_and_degenerate_triangles_by_index_and_changes_nothing() {
        let v = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
            [2.0, 0.0, 0.0],
            [f32::NAN, 0.0, 0.0],
        ];
        let tris = [
            [0, 2, 1], // down: would be turned
            [0, 1, 3], // vertical wall
            [0, 1, 4], // on one line
            [0, 0, 1], // repeated vertex
            [0, 1, 9], // missing vertex
            [0, 1, 5], // not finite
            [0, 1, 2], // fine
        ];
        let mut m = mesh(&v, &tris);
        let err = m.face_up(UpAxis::Z).unwrap_err();
        let got: Vec<_> = err.iter().map(|r| (r.index, r.fault)).collect();
        assert_eq!(
            got,
            [
                (1, TriangleFault::Vertical),
                (2, TriangleFault::Degenerate),
                (3, TriangleFault::RepeatedVertex),
                (4, TriangleFault::MissingVertex),
                (5, TriangleFault::NotFinite),
            ]
        );
        assert_eq!(
            err[0].to_string(),
            "triangles[1] is vertical: it has no area seen from above"
        );
        assert_eq!(m.triangles, tris, "a refused mesh is left as it was");
    }
}
