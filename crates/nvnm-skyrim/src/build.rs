//! A new version-12 (Skyrim) `NVNM` from a triangle mesh, laid out as the Creation Kit lays out
//! its own navmeshes.
//!
//! [`build`] keeps the mesh's vertices and triangles exactly as given (same order, same bits; no
//! welding: triangles are neighbours only where they share vertex indices), and adds what the
//! game needs:
//!
//! - **Neighbours**: each edge's value is the one other triangle that has the same two vertices,
//!   or −1. The edge-link bits (0x1, 0x2, 0x4) stay clear: a built mesh has no edge links.
//! - **Flags**: every triangle gets `0x0800` (*Found*), as on every triangle of 113 of the 130
//!   corpus blobs (15 have it on none, 2 on some); cover flags 0.
//! - **Grid**: the divisor [`divisor_for`] picks from the triangle count, bounds from the vertex
//!   bounding box, cell sizes `(max − min) / divisor`, and each triangle in every cell its XY
//!   bounding box touches, lists ascending, cells in rows of Y with X varying fastest
//!   ([`NavmeshGeometry::rebuild_grid`]). The Creation Kit's lists are a little finer and follow
//!   no rule found so far; the bounding-box fill holds over 99% of the corpus's stored entries,
//!   and an entry too many only costs the game one more triangle to test.
//! - No edge links, door triangles or cover triangles; the parent the caller names
//!   ([`crate::Nvnm`]'s `Format::build` uses interior cell `0`, to be set before the blob goes
//!   into a plugin).
//!
//! Meshes the format cannot hold are refused with an error naming the limit: more than
//! [`MAX_VERTICES`] vertices (triangles name vertices with `u16`), more than [`MAX_TRIANGLES`]
//! triangles (edges and grid lists name triangles with `i16`), a vertex index past the vertices,
//! a triangle that repeats a vertex, a triangle that is clockwise or vertical seen from above
//! (the game's triangles are all counter-clockwise, Z up), a non-finite coordinate, an edge that
//! three or more triangles share (an edge has one neighbour), and two triangles that run a
//! shared edge the same way (a flipped or duplicated triangle).

use std::collections::HashMap;

use nav_core::geometry::TriangleMesh;
use nav_core::{Error, RawF32, Result};

use crate::nvnm::{FORMAT, NavmeshGeometry, Parent, Triangle, triangle_flags};

/// The most vertices a built navmesh can have: triangles name them with `u16` indices.
pub const MAX_VERTICES: usize = 1 << 16;

/// The most triangles a built navmesh can have: edges and grid lists name them with `i16`.
pub const MAX_TRIANGLES: usize = 1 << 15;

/// The grid divisor the Creation Kit gives a navmesh of `triangles` triangles:
/// `ceil((triangles + 34) / 48)`, at least 1 and at most 12.
///
/// The rule is fitted to the corpus (the notes give no formula): it gives the stored divisor for
/// every corpus blob but the one of 250 triangles that has 7 (the rule says 6); grids of 1 to 12
/// cells per side occur, and 12 is xEdit's limit.
pub fn divisor_for(triangles: usize) -> u8 {
    let d = triangles.saturating_add(34).div_ceil(48).clamp(1, 12);
    u8::try_from(d).unwrap_or(12)
}

fn refuse(context: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, context, message)
}

/// Builds a version-12 navmesh of `parent` from `mesh` (see the module docs for what is added and
/// what is refused).
pub fn build(mesh: &TriangleMesh, parent: Parent) -> Result<NavmeshGeometry> {
    let nv = mesh.vertices.len();
    let nt = mesh.triangles.len();
    if nv > MAX_VERTICES {
        return Err(refuse(
            "mesh vertices",
            format!(
                "{nv} vertices: NVNM triangles name vertices with 16-bit indices, at most {MAX_VERTICES}"
            ),
        ));
    }
    if nt > MAX_TRIANGLES {
        return Err(refuse(
            "mesh triangles",
            format!(
                "{nt} triangles: NVNM edges and grid lists name triangles with signed 16-bit values, at most {MAX_TRIANGLES}"
            ),
        ));
    }
    if let Parent::Worldspace { worldspace: 0, .. } = parent {
        return Err(refuse(
            "parent",
            "a worldspace parent needs a non-zero worldspace FormID (0 means an interior cell)",
        ));
    }
    for (i, v) in mesh.vertices.iter().enumerate() {
        if !v.iter().all(|c| c.is_finite()) {
            return Err(refuse(
                format!("mesh vertices[{i}]"),
                format!("{v:?} is not a finite position"),
            ));
        }
    }
    let mut triangles = Vec::with_capacity(nt);
    for (t, tri) in mesh.triangles.iter().enumerate() {
        let mut vertices = [0u16; 3];
        for (slot, &v) in vertices.iter_mut().zip(tri) {
            *slot = u16::try_from(v)
                .ok()
                .filter(|&v| usize::from(v) < nv)
                .ok_or_else(|| {
                    refuse(
                        format!("mesh triangles[{t}]"),
                        format!("vertex {v} is past the {nv} vertices"),
                    )
                })?;
        }
        let [a, b, c] = vertices;
        if a == b || b == c || c == a {
            return Err(refuse(
                format!("mesh triangles[{t}]"),
                format!("repeats a vertex ({a}, {b}, {c}); a navmesh triangle has three corners"),
            ));
        }
        let p = |v: u16| {
            mesh.vertices
                .get(usize::from(v))
                .map_or([0.0; 2], |p| [f64::from(p[0]), f64::from(p[1])])
        };
        let (pa, pb, pc) = (p(a), p(b), p(c));
        let cross = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pb[1] - pa[1]) * (pc[0] - pa[0]);
        if cross.partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater) {
            return Err(refuse(
                format!("mesh triangles[{t}]"),
                "is clockwise or vertical seen from above (Z up): the game's triangles are \
                 counter-clockwise in the XY plane",
            ));
        }
        triangles.push(Triangle {
            vertices,
            edges: [-1; 3],
            extra: None,
            flags: triangle_flags::FOUND,
            cover_flags: 0,
        });
    }
    // Every undirected edge and the (triangle, edge) pairs that have it.
    let mut by_edge: HashMap<(u16, u16), Vec<(usize, usize)>> = HashMap::new();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
            by_edge
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((t, k));
        }
    }
    let mut shared: Vec<_> = by_edge.into_iter().filter(|(_, s)| s.len() > 1).collect();
    shared.sort_unstable();
    for ((a, b), sides) in shared {
        match sides.as_slice() {
            [(t, k), (u, j)] => {
                let dir = |t: usize, k: usize| {
                    triangles
                        .get(t)
                        .map(|x| (x.vertices[k], x.vertices[(k + 1) % 3]))
                };
                if dir(*t, *k) == dir(*u, *j) {
                    return Err(refuse(
                        format!("mesh triangles[{u}]"),
                        format!(
                            "runs edge {a}-{b} the same way as triangle {t}: one of them is flipped or a duplicate"
                        ),
                    ));
                }
                // Both indices are below MAX_TRIANGLES, so they fit an i16.
                let (ti, ui) = (i16::try_from(*t), i16::try_from(*u));
                if let (Ok(ti), Ok(ui)) = (ti, ui) {
                    if let Some(x) = triangles.get_mut(*t) {
                        x.edges[*k] = ui;
                    }
                    if let Some(x) = triangles.get_mut(*u) {
                        x.edges[*j] = ti;
                    }
                }
            }
            many => {
                let names: Vec<String> = many.iter().map(|(t, _)| t.to_string()).collect();
                return Err(refuse(
                    format!("mesh edge {a}-{b}"),
                    format!(
                        "is shared by {} triangles ({}): an NVNM edge has at most one neighbour",
                        many.len(),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    let mut m = NavmeshGeometry::new_skyrim(0);
    m.parent = parent;
    m.vertices = mesh.vertices.iter().map(|v| v.map(RawF32::new)).collect();
    m.triangles = triangles;
    m.rebuild_grid(divisor_for(nt));
    Ok(m)
}
