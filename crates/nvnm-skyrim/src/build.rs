//! A new version-12 (Skyrim) `NVNM` from a triangle mesh, laid out as the Creation Kit lays out
//! its own navmeshes.
//!
//! [`build`] keeps the mesh's vertices and triangles exactly as given (same order, same bits; no
//! welding: triangles are neighbours only where they share vertex indices), and adds what the
//! game needs:
//!
//! - **Neighbours** ([`link_triangles`]): each edge's value is the one other triangle that has
//!   the same two vertices, or −1. The edge-link bits (0x1, 0x2, 0x4) stay clear: a built mesh
//!   has no edge links.
//! - **Flags**: every triangle gets `0x0800` (*Found*), as on every triangle of 113 of the 130
//!   corpus blobs (15 have it on none, 2 on some); cover flags 0.
//! - **Grid** ([`lay_out_grid`]): the divisor [`divisor_for`] picks from the triangle count,
//!   bounds from the vertex bounding box and cell sizes `(max − min) / divisor` ([`NavmeshGeometry::rebuild_grid`]),
//!   and each triangle in every cell it overlaps in the XY plane ([`fill_cells`]), lists
//!   ascending, cells in rows of Y with X varying fastest. That is the closest rule to the
//!   Creation Kit's lists found on the corpus, not an exact reproduction (see [`fill_cells`]).
//! - No edge links, door triangles or cover triangles; the parent the caller names
//!   ([`crate::Nvnm`]'s `Format::build` uses interior cell `0`, to be set before the blob goes
//!   into a plugin).
//!
//! Meshes the format cannot store are refused with an error naming the limit: more than
//! [`MAX_VERTICES`] vertices (triangles name vertices with `u16`), more than [`MAX_TRIANGLES`]
//! triangles (edges and grid lists name triangles with `i16`), a non-finite coordinate, and the
//! triangles [`TriangleMesh::screen`] refuses (a vertex index past the vertices, a zero-length
//! edge). Shapes the game's own navmeshes have are kept, each with a warning naming the
//! triangle ([`Built::warnings`]): vertical, degenerate (corners on a line) and clockwise
//! triangles (the screen's), two triangles that run a shared edge the same way (a flipped or
//! duplicated triangle; 282 such edges in the corpus, as `Mundusform_4067dc7_04103FBE`'s
//! triangles 267 and 269), and edges three or more triangles share (89 in the corpus): such
//! an edge has no neighbour across it.

use std::collections::HashMap;

use nav_core::geometry::{TriangleMesh, UpAxis};
use nav_core::{Built, Error, Finding, Place, RawF32, Result};

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

/// Builds a version-12 navmesh of `parent` from `mesh`, with its warnings (see the module docs
/// for what is added, what is refused and what is warned about).
pub fn build(mesh: &TriangleMesh, parent: Parent) -> Result<Built<NavmeshGeometry>> {
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
    let mut warnings = mesh.screen(FORMAT, UpAxis::Z)?;
    let mut triangles = Vec::with_capacity(nt);
    for (t, tri) in mesh.triangles.iter().enumerate() {
        let mut vertices = [0u16; 3];
        for (slot, &v) in vertices.iter_mut().zip(tri) {
            // The screen refused vertices past the vertices, and there are at most 2^16.
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
        triangles.push(Triangle {
            vertices,
            edges: [-1; 3],
            extra: None,
            flags: triangle_flags::FOUND,
            cover_flags: 0,
        });
    }
    warnings.extend(edge_warnings(&triangles));
    link_triangles(&mut triangles);
    let mut m = NavmeshGeometry::new_skyrim(0);
    m.parent = parent;
    m.vertices = mesh.vertices.iter().map(|v| v.map(RawF32::new)).collect();
    m.triangles = triangles;
    lay_out_grid(&mut m, divisor_for(nt));
    Ok(Built { model: m, warnings })
}

/// A warning for each edge that gets no neighbour because of how triangles share it: two that
/// run it the same way (at the later triangle), three or more (at the first).
fn edge_warnings(triangles: &[Triangle]) -> Vec<Finding> {
    let mut out = Vec::new();
    for ((a, b), sides) in shared_edges(triangles) {
        match sides.as_slice() {
            [(t, k), (u, j)] => {
                if run(triangles, *t, *k) == run(triangles, *u, *j) {
                    out.push(Finding::warning(
                        Place::at("triangles", *u).cell(),
                        format!(
                            "runs edge {a}-{b} the same way as triangle {t}: one of them is \
                             flipped or a duplicate; no neighbour across it"
                        ),
                    ));
                }
            }
            many => {
                let names: Vec<String> = many.iter().map(|(t, _)| t.to_string()).collect();
                let first = many.first().map_or(0, |(t, _)| *t);
                out.push(Finding::warning(
                    Place::at("triangles", first).cell(),
                    format!(
                        "edge {a}-{b} is shared by {} triangles ({}): an NVNM edge has one \
                         neighbour, so none is given",
                        many.len(),
                        names.join(", ")
                    ),
                ));
            }
        }
    }
    out
}

/// The vertices edge `k` of triangle `t` runs from and to.
fn run(triangles: &[Triangle], t: usize, k: usize) -> Option<(u16, u16)> {
    triangles
        .get(t)
        .map(|x| (x.vertices[k % 3], x.vertices[(k + 1) % 3]))
}

/// An undirected edge (its two vertices, smaller first) and the (triangle, edge) pairs that
/// have it.
pub type SharedEdge = ((u16, u16), Vec<(usize, usize)>);

/// Every undirected edge that more than one triangle has, sorted by edge.
pub fn shared_edges(triangles: &[Triangle]) -> Vec<SharedEdge> {
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
    shared
}

/// Sets the neighbours the builder gives: each edge that is not an edge link (its flag bit
/// clear) gets the one other triangle with the same two vertices, where exactly two triangles
/// share the edge and run it opposite ways; every other such edge gets −1 (an edge three
/// triangles share, or two run the same way, has no neighbour the game could use). Triangles
/// past `i16::MAX` are no one's neighbour. Edge-link edges are left as they are.
pub fn link_triangles(triangles: &mut [Triangle]) {
    let mut neighbour: HashMap<(usize, usize), i16> = HashMap::new();
    for (_, sides) in shared_edges(triangles) {
        if let [(t, k), (u, j)] = sides.as_slice() {
            if run(triangles, *t, *k) != run(triangles, *u, *j) {
                if let (Ok(ti), Ok(ui)) = (i16::try_from(*t), i16::try_from(*u)) {
                    neighbour.insert((*t, *k), ui);
                    neighbour.insert((*u, *j), ti);
                }
            }
        }
    }
    for (t, tri) in triangles.iter_mut().enumerate() {
        for k in 0..3 {
            if tri.flags & (1 << k) == 0 {
                tri.edges[k] = neighbour.get(&(t, k)).copied().unwrap_or(-1);
            }
        }
    }
}

/// Lays out the grid the builder gives: a `divisor`-wide grid over the vertices' bounds
/// ([`NavmeshGeometry::rebuild_grid`]), its cells filled with the triangles that overlap them
/// ([`fill_cells`]).
pub fn lay_out_grid(m: &mut NavmeshGeometry, divisor: u8) {
    m.rebuild_grid(divisor);
    fill_cells(m);
}

/// Whether triangle `p` (in the XY plane, either winding) and the rectangle `lo`..`hi` overlap,
/// touching within `eps` included: no separating axis among the rectangle's two and the
/// triangle's three edge normals.
fn overlaps(p: [[f64; 2]; 3], lo: [f64; 2], hi: [f64; 2], eps: f64) -> bool {
    for a in 0..2 {
        let (min, max) = p
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), q| {
                (l.min(q[a]), h.max(q[a]))
            });
        if max < lo[a] - eps || min > hi[a] + eps {
            return false;
        }
    }
    let area =
        (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
    if area == 0.0 || !area.is_finite() {
        return true; // a degenerate triangle: its bounding box decides
    }
    let corners = [lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]];
    for k in 0..3 {
        let (a, b) = (p[k], p[(k + 1) % 3]);
        // The outward normal of edge a→b (the interior lies to the left when counter-clockwise).
        let n = [
            (b[1] - a[1]) * area.signum(),
            -(b[0] - a[0]) * area.signum(),
        ];
        let len = n[0].hypot(n[1]);
        let nearest = corners
            .iter()
            .map(|c| (c[0] - a[0]) * n[0] + (c[1] - a[1]) * n[1])
            .fold(f64::INFINITY, f64::min);
        if nearest > eps * len {
            return false;
        }
    }
    true
}

/// Refills the grid's cell lists, keeping its divisor, bounds and cell sizes: each triangle goes
/// into every cell it overlaps in the XY plane (touching within a few float steps counts), and
/// into the cell of its first vertex should rounding leave it in none. Lists are ascending.
///
/// On the corpus this is closer to the Creation Kit's lists than the bounding-box fill of
/// [`NavmeshGeometry::rebuild_grid`]: of 64,402 stored entries it misses 356 and adds 1,066, where
/// the bounding-box fill adds 3,566. Neither reproduces them exactly. Triangles past `i16::MAX`
/// and triangles naming a missing vertex are left out; a divisor over 12 leaves the grid as it is.
pub fn fill_cells(m: &mut NavmeshGeometry) {
    let d = usize::try_from(m.grid.divisor).unwrap_or(0);
    let cells = d.saturating_mul(d);
    if cells == 0 || cells > 144 {
        return; // real grids have 1 to 12 cells per side
    }
    let min = [
        f64::from(m.grid.min[0].get()),
        f64::from(m.grid.min[1].get()),
    ];
    let size = [
        f64::from(m.grid.cell_size[0].get()),
        f64::from(m.grid.cell_size[1].get()),
    ];
    let scale = m
        .vertices
        .iter()
        .flat_map(|v| [v[0].get().abs(), v[1].get().abs()])
        .fold(1.0f32, f32::max);
    let eps = f64::from(scale) * f64::from(f32::EPSILON) * 4.0;
    // The cell of a coordinate, clamped to the grid (0 for an empty or non-finite size).
    let cell_of = |value: f64, a: usize| -> usize {
        let c = (value - min[a]) / size[a];
        if size[a] > 0.0 && c.is_finite() && c > 0.0 {
            // Clamped to the last cell first (`d` is at most 12, checked above), so the cast
            // is exact.
            #[allow(clippy::cast_possible_truncation)]
            let cell = c.floor().min((d - 1) as f64) as usize;
            cell
        } else {
            0
        }
    };
    // Cell bounds: the outer cells reach far past the grid's bounds, so that rounding (or
    // stored bounds that miss a vertex) loses nothing.
    const FAR: f64 = 1e9;
    let bound = |i: usize, a: usize| -> (f64, f64) {
        let lo = if i == 0 {
            -FAR
        } else {
            min[a] + i as f64 * size[a]
        };
        let hi = if i + 1 == d {
            FAR
        } else {
            min[a] + (i + 1) as f64 * size[a]
        };
        (lo, hi)
    };
    let mut lists: Vec<Vec<i16>> = vec![Vec::new(); cells];
    for (t, tri) in m.triangles.iter().enumerate() {
        let Ok(index) = i16::try_from(t) else { break };
        let mut p = [[0.0f64; 2]; 3];
        let mut complete = true;
        for (q, &v) in p.iter_mut().zip(&tri.vertices) {
            match m.vertices.get(usize::from(v)) {
                Some(c) => *q = [f64::from(c[0].get()), f64::from(c[1].get())],
                None => complete = false,
            }
        }
        if !complete {
            continue;
        }
        let range = |a: usize| {
            let lo = p.iter().map(|q| q[a]).fold(f64::INFINITY, f64::min);
            let hi = p.iter().map(|q| q[a]).fold(f64::NEG_INFINITY, f64::max);
            (cell_of(lo - eps, a), cell_of(hi + eps, a))
        };
        let ((x0, x1), (y0, y1)) = (range(0), range(1));
        let mut placed = false;
        for iy in y0..=y1 {
            for ix in x0..=x1 {
                let ((xl, xh), (yl, yh)) = (bound(ix, 0), bound(iy, 1));
                if overlaps(p, [xl, yl], [xh, yh], eps) {
                    if let Some(list) = lists.get_mut(iy * d + ix) {
                        list.push(index);
                        placed = true;
                    }
                }
            }
        }
        if !placed {
            let k = cell_of(p[0][1], 1) * d + cell_of(p[0][0], 0);
            if let Some(list) = lists.get_mut(k) {
                list.push(index);
            }
        }
    }
    m.grid.cells = lists;
}
