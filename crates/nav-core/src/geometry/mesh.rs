//! Triangle meshes as `navkit build` reads them, and the check of their triangles' shapes that
//! every builder shares ([`TriangleMesh::faults`], [`TriangleMesh::screen`]).
//!
//! Game files contain triangles of every shape: upright ones (Metal Gear Survive's
//! `ssav_137_128_nav.nav2`), ones whose corners lie on a line, ones wound clockwise. A builder
//! keeps those and says so ([`TriangleFault::is_refusal`] is `false`: a warning naming the
//! triangle); it refuses only what no navmesh can store: a corner that names no vertex or is not a
//! finite position, and a triangle with a zero-length edge (a vertex named twice, or two corners at
//! one position).

use crate::finding::{Finding, Place};

use super::axis::UpAxis;

/// A triangle mesh: what `navkit build` reads from a modelling tool's export.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TriangleMesh {
    /// Vertex positions, in the target format's world axes.
    pub vertices: Vec<[f32; 3]>,
    /// Triangles, as vertex indices, counter-clockwise seen from above where they can be.
    pub triangles: Vec<[u32; 3]>,
}

/// What is unusual about a triangle's shape ([`TriangleMesh::faults`]): a refusal
/// ([`TriangleFault::is_refusal`]) or a shape game files have, which builders keep with a warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TriangleFault {
    /// A corner names no vertex. Refused.
    MissingVertex,
    /// Two corners are the same vertex: a zero-length edge. Refused.
    RepeatedVertex,
    /// A corner has a coordinate that is not a finite number. Refused.
    NotFinite,
    /// Two corners are different vertices at the same position: a zero-length edge. Refused.
    CoincidentCorners,
    /// The three corners are different points on one line: no area, but every edge has a length.
    /// Kept, with a warning.
    Degenerate,
    /// The triangle has an area but none seen from above: it stands upright. Kept, with a
    /// warning.
    Vertical,
    /// The triangle is clockwise seen from above: it faces down. Kept by a builder, with a
    /// warning; [`TriangleMesh::face_up`] turns it.
    FacesDown,
}

impl TriangleFault {
    /// Whether a builder refuses the triangle: what no navmesh can store (a missing vertex, a
    /// non-finite corner, a zero-length edge). Every other shape is kept with a warning.
    pub fn is_refusal(self) -> bool {
        matches!(
            self,
            TriangleFault::MissingVertex
                | TriangleFault::RepeatedVertex
                | TriangleFault::NotFinite
                | TriangleFault::CoincidentCorners
        )
    }

    /// A short name of the fault, for counts and JSON (`vertical`, `faces-down`).
    pub fn name(self) -> &'static str {
        match self {
            TriangleFault::MissingVertex => "missing-vertex",
            TriangleFault::RepeatedVertex => "repeated-vertex",
            TriangleFault::NotFinite => "not-finite",
            TriangleFault::CoincidentCorners => "coincident-corners",
            TriangleFault::Degenerate => "degenerate",
            TriangleFault::Vertical => "vertical",
            TriangleFault::FacesDown => "faces-down",
        }
    }
}

impl core::fmt::Display for TriangleFault {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            TriangleFault::MissingVertex => "names a vertex that does not exist",
            TriangleFault::RepeatedVertex => "repeats a vertex: it has a zero-length edge",
            TriangleFault::NotFinite => "has a corner that is not a finite position",
            TriangleFault::CoincidentCorners => {
                "has two corners at one position: it has a zero-length edge"
            }
            TriangleFault::Degenerate => "is degenerate: its corners are on one line",
            TriangleFault::Vertical => "is vertical: it has no area seen from above",
            TriangleFault::FacesDown => "faces down: it is clockwise seen from above",
        })
    }
}

/// A triangle with a [`TriangleFault`]: its index in [`TriangleMesh::triangles`] and the fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultyTriangle {
    /// Index of the triangle.
    pub index: usize,
    /// What is unusual about it.
    pub fault: TriangleFault,
}

impl FaultyTriangle {
    /// The warning a builder gives for a triangle it keeps: at `triangles[index]`, the fault.
    pub fn warning(&self) -> Finding {
        Finding::warning(
            Place::at("triangles", self.index).cell(),
            self.fault.to_string(),
        )
    }
}

impl core::fmt::Display for FaultyTriangle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "triangles[{}] {}", self.index, self.fault)
    }
}

/// The most refused triangles a builder's error names one by one.
const NAMED_REFUSALS: usize = 8;

impl TriangleMesh {
    /// Every triangle whose shape is unusual, in index order, with the first fault found:
    /// refusals ([`TriangleFault::is_refusal`]) and shapes builders keep (degenerate, vertical,
    /// facing down) in a world where `up` points up.
    ///
    /// Orientation is the sign of the plan cross product computed in `f64` from the `f32`
    /// coordinates, as the builders compute it.
    pub fn faults(&self, up: UpAxis) -> Vec<FaultyTriangle> {
        self.triangles
            .iter()
            .enumerate()
            .filter_map(|(index, t)| {
                let fault = self.fault(up, *t)?;
                Some(FaultyTriangle { index, fault })
            })
            .collect()
    }

    /// Turns every triangle to face up in a world where `up` points up: a triangle that is
    /// clockwise seen from above gets two corners swapped, so that it is counter-clockwise as
    /// [`TriangleMesh::triangles`] asks. Returns how many were turned.
    ///
    /// Refuses, changing nothing, when any triangle is one no builder takes
    /// ([`TriangleFault::is_refusal`]: a missing vertex, a non-finite corner, a zero-length
    /// edge); the error lists every such triangle, by index. Vertical and degenerate triangles,
    /// which cannot face up, are left as they are: builders keep them with a warning.
    pub fn face_up(&mut self, up: UpAxis) -> Result<usize, Vec<FaultyTriangle>> {
        let faults = self.faults(up);
        let refused: Vec<FaultyTriangle> = faults
            .iter()
            .filter(|f| f.fault.is_refusal())
            .copied()
            .collect();
        if !refused.is_empty() {
            return Err(refused);
        }
        let mut turned = 0;
        for f in faults {
            if f.fault == TriangleFault::FacesDown {
                if let Some(t) = self.triangles.get_mut(f.index) {
                    t.swap(1, 2);
                    turned += 1;
                }
            }
        }
        Ok(turned)
    }

    /// The check every builder makes of the triangles' shapes, in a world where `up` points up:
    /// an error of `format` naming the refused triangles ([`TriangleFault::is_refusal`]) when
    /// there are any, or else one warning per kept triangle of an unusual shape, at
    /// `triangles[i]`.
    pub fn screen(&self, format: &'static str, up: UpAxis) -> crate::Result<Vec<Finding>> {
        let faults = self.faults(up);
        let refused: Vec<&FaultyTriangle> =
            faults.iter().filter(|f| f.fault.is_refusal()).collect();
        if let Some(first) = refused.first() {
            let mut message = first.fault.to_string();
            let others: Vec<String> = refused
                .iter()
                .skip(1)
                .take(NAMED_REFUSALS)
                .map(|f| f.to_string())
                .collect();
            if !others.is_empty() {
                message.push_str(&format!("; also {}", others.join(", ")));
            }
            if refused.len() > NAMED_REFUSALS + 1 {
                message.push_str(&format!(" and {} more", refused.len() - NAMED_REFUSALS - 1));
            }
            return Err(crate::Error::unrepresentable(
                format,
                format_args!("mesh triangles[{}]", first.index),
                message,
            ));
        }
        Ok(faults.iter().map(FaultyTriangle::warning).collect())
    }

    /// What is unusual about one triangle, if anything (the first fault found).
    fn fault(&self, up: UpAxis, t: [u32; 3]) -> Option<TriangleFault> {
        let [a, b, c] = t;
        let corner = |v: u32| self.vertices.get(usize::try_from(v).ok()?).copied();
        let (Some(pa), Some(pb), Some(pc)) = (corner(a), corner(b), corner(c)) else {
            return Some(TriangleFault::MissingVertex);
        };
        if a == b || b == c || c == a {
            return Some(TriangleFault::RepeatedVertex);
        }
        if [pa, pb, pc].iter().flatten().any(|c| !c.is_finite()) {
            return Some(TriangleFault::NotFinite);
        }
        if pa == pb || pb == pc || pc == pa {
            return Some(TriangleFault::CoincidentCorners);
        }
        let plan = |p: [f32; 3]| {
            let (x, y) = up.plan(p);
            [f64::from(x), f64::from(y)]
        };
        let (qa, qb, qc) = (plan(pa), plan(pb), plan(pc));
        let cross = (qb[0] - qa[0]) * (qc[1] - qa[1]) - (qb[1] - qa[1]) * (qc[0] - qa[0]);
        if cross > 0.0 {
            return None;
        }
        if cross < 0.0 {
            return Some(TriangleFault::FacesDown);
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
        Some(if normal.iter().all(|n| *n == 0.0) {
            TriangleFault::Degenerate
        } else {
            TriangleFault::Vertical
        })
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
        // Read with the wrong axis, the square is vertical: kept as it is, with a fault each.
        let mut wrong = y.clone();
        assert_eq!(wrong.face_up(UpAxis::Z), Ok(0));
        assert_eq!(wrong, y);
        let faults: Vec<_> = y
            .faults(UpAxis::Z)
            .iter()
            .map(|f| (f.index, f.fault))
            .collect();
        assert_eq!(
            faults,
            [(0, TriangleFault::Vertical), (1, TriangleFault::Vertical)]
        );
        // Y up, clockwise seen from +Y: turned.
        y.triangles[1] = [0, 3, 2];
        assert_eq!(y.face_up(UpAxis::Y), Ok(1));
        assert_eq!(y.triangles[1], [0, 2, 3]);
    }

    #[test]
    fn face_up_refuses_only_zero_length_edges_missing_and_non_finite_corners() {
        let v = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
            [2.0, 0.0, 0.0],
            [f32::NAN, 0.0, 0.0],
            [-0.0, 0.0, 0.0],
        ];
        let tris = [
            [0, 2, 1], // down: would be turned
            [0, 1, 3], // vertical wall
            [0, 1, 4], // on one line
            [0, 0, 1], // repeated vertex
            [0, 1, 9], // missing vertex
            [0, 1, 5], // not finite
            [0, 1, 2], // fine
            [6, 1, 0], // two corners at one position (-0 is 0)
        ];
        let mut m = mesh(&v, &tris);
        let all: Vec<_> = m
            .faults(UpAxis::Z)
            .iter()
            .map(|r| (r.index, r.fault))
            .collect();
        assert_eq!(
            all,
            [
                (0, TriangleFault::FacesDown),
                (1, TriangleFault::Vertical),
                (2, TriangleFault::Degenerate),
                (3, TriangleFault::RepeatedVertex),
                (4, TriangleFault::MissingVertex),
                (5, TriangleFault::NotFinite),
                (7, TriangleFault::CoincidentCorners),
            ]
        );
        let err = m.face_up(UpAxis::Z).unwrap_err();
        let got: Vec<_> = err.iter().map(|r| (r.index, r.fault)).collect();
        assert_eq!(
            got,
            [
                (3, TriangleFault::RepeatedVertex),
                (4, TriangleFault::MissingVertex),
                (5, TriangleFault::NotFinite),
                (7, TriangleFault::CoincidentCorners),
            ]
        );
        assert_eq!(
            err[0].to_string(),
            "triangles[3] repeats a vertex: it has a zero-length edge"
        );
        assert_eq!(m.triangles, tris, "a refused mesh is left as it was");
        // A builder's screen: the same refusals, as one error naming them.
        let e = m.screen("test", UpAxis::Z).unwrap_err().to_string();
        assert!(e.contains("mesh triangles[3]"), "{e}");
        assert!(e.contains("triangles[4] names a vertex"), "{e}");
        assert!(
            e.contains("triangles[7] has two corners at one position"),
            "{e}"
        );
        // Without them: the kept shapes are turned (down) or left, and warned about.
        m.triangles.truncate(3);
        let warnings = m.screen("test", UpAxis::Z).unwrap();
        let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "warning: triangles[0]: faces down: it is clockwise seen from above",
                "warning: triangles[1]: is vertical: it has no area seen from above",
                "warning: triangles[2]: is degenerate: its corners are on one line",
            ]
        );
        assert_eq!(m.face_up(UpAxis::Z), Ok(1));
        assert_eq!(m.triangles, [[0, 1, 2], [0, 1, 3], [0, 1, 4]]);
        assert!(
            TriangleFault::Vertical.name() == "vertical" && !TriangleFault::Vertical.is_refusal()
        );
    }
}
