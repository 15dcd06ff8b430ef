//! One `NVNM` navmesh as a navigation graph ([`nav_core::navigation::Graph`]).
//!
//! - **Cells**: every triangle, in file order, with its index as id ([`CellId::new`]); its
//!   polygon is its three vertices in stored order (counter-clockwise seen from above in every
//!   known file), Z up, the file's own coordinates. A triangle naming a missing vertex is still a
//!   cell, without a polygon or centre.
//! - **Edges**: one per triangle edge whose value names a triangle of this mesh (flag bit clear),
//!   from the triangle to that neighbour. The file stores each direction on its own triangle, so
//!   a neighbour that does not name the triangle back gives one edge only.
//! - **Exits**: every edge that is an edge link (flag bit set) leads into another navmesh
//!   ("navmesh 0001A2B3 triangle 4, not in this file"), and every door triangle leads through a
//!   door ("door 0300175D, not in this file"): a lone blob holds neither other side.
//!
//! Kinds ([`move_kind`], [`link_kind`]): a move from or to a *deleted* triangle (0x8) is
//! [`EdgeKind::Blocked`]; an edge link is by its type (0 portal: walk, 1 ledge up: jump, 2 ledge
//! down: drop, 3 enable/disable portal and any other type: special); a walk from or to a *water*
//! triangle (0x200) is [`EdgeKind::Swim`]; a door triangle's exit is [`EdgeKind::Door`].
//! *Preferred* (0x40) and *no large creatures* (0x10) change who goes where and at what cost,
//! not how: their edges stay walks. The crate's docs (`docs/formats/skyrim.md`, "Navigation")
//! give the reasons.
//!
//! Nothing indexes without a check: an edge, edge link or door triangle that names nothing
//! (possible only in a hand-edited model, which [`super::validate`] reports) is skipped.

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use super::{Edge, NavmeshGeometry, Triangle, triangle_flags};

/// What an edge link of this type is as a move: 0 (portal) a walk, 1 (ledge up) a jump, 2
/// (ledge down) a drop, 3 (a portal the game enables and disables) and unknown types special.
pub fn link_kind(link_type: u32) -> EdgeKind {
    match link_type {
        0 => EdgeKind::Walk,
        1 => EdgeKind::Jump,
        2 => EdgeKind::Drop,
        _ => EdgeKind::Special,
    }
}

/// The kind of a move of kind `kind` (from the link, or [`EdgeKind::Walk`] across a shared
/// edge) between triangles with flags `from` and `to` (`None`: the other side is not known):
/// blocked when either is deleted, a swim when a walk touches water, else `kind`.
pub fn move_kind(from: u16, to: Option<u16>, kind: EdgeKind) -> EdgeKind {
    let both = from | to.unwrap_or(0);
    if both & triangle_flags::DELETED != 0 {
        EdgeKind::Blocked
    } else if kind == EdgeKind::Walk && both & triangle_flags::WATER != 0 {
        EdgeKind::Swim
    } else {
        kind
    }
}

/// The graph index of triangle `t` of a mesh whose first cell is at `base`, if it fits.
pub(crate) fn cell_index(base: u32, t: usize) -> Option<u32> {
    u32::try_from(t).ok().and_then(|t| base.checked_add(t))
}

/// The corners of a triangle, when its three vertices exist.
fn corners(m: &NavmeshGeometry, tri: &Triangle) -> Option<[[f32; 3]; 3]> {
    let mut out = [[0.0; 3]; 3];
    for (slot, &v) in out.iter_mut().zip(&tri.vertices) {
        *slot = m.vertices.get(usize::from(v))?.map(|c| c.get());
    }
    Some(out)
}

/// Room in `g` for one more mesh: its cells, corners and (at most) an edge or exit per triangle
/// edge and door triangle.
pub(crate) fn reserve(g: &mut Graph, m: &NavmeshGeometry) {
    let n = m.triangles.len();
    g.cells.reserve(n);
    g.corners.reserve(n.saturating_mul(3));
    g.edges.reserve(n.saturating_mul(3));
}

/// Adds a cell per triangle of `m` (ids from `id`), then an edge across every triangle edge that
/// names a triangle of `m`. Returns the index of the mesh's first cell.
pub(crate) fn add_mesh(g: &mut Graph, m: &NavmeshGeometry, id: impl Fn(u64) -> CellId) -> u32 {
    let base = u32::try_from(g.cells.len()).unwrap_or(u32::MAX);
    for (t, tri) in m.triangles.iter().enumerate() {
        let t = u64::try_from(t).unwrap_or(u64::MAX);
        match corners(m, tri) {
            Some(c) => g.add_polygon_cell(id(t), &c),
            None => g.add_polygon_cell(id(t), &[]),
        };
    }
    for (t, tri) in m.triangles.iter().enumerate() {
        let Some(from) = cell_index(base, t) else {
            break;
        };
        for k in 0..3 {
            let Edge::Triangle(n) = tri.edge(k) else {
                continue;
            };
            // A neighbour past the triangles is skipped: validate reports it.
            let (Some(other), Some(to)) = (
                m.triangles.get(usize::from(n)),
                cell_index(base, usize::from(n)),
            ) else {
                continue;
            };
            g.add_edge(
                from,
                to,
                move_kind(tri.flags, Some(other.flags), EdgeKind::Walk),
            );
        }
    }
    base
}

/// One navmesh as a graph (see the module docs).
pub fn navigation(m: &NavmeshGeometry) -> Graph {
    let mut g = Graph::new(UpAxis::Z);
    reserve(&mut g, m);
    let base = add_mesh(&mut g, m, CellId::new);
    for (t, tri) in m.triangles.iter().enumerate() {
        let Some(from) = cell_index(base, t) else {
            break;
        };
        for k in 0..3 {
            let Edge::EdgeLink(l) = tri.edge(k) else {
                continue;
            };
            // An edge link past the list is skipped: validate reports it.
            let Some(link) = m.edge_links.get(usize::from(l)) else {
                continue;
            };
            g.add_exit(
                from,
                format!(
                    "navmesh {:08X} triangle {}, not in this file",
                    link.navmesh, link.triangle
                ),
                move_kind(tri.flags, None, link_kind(link.link_type)),
            );
        }
    }
    for d in &m.door_triangles {
        // A door triangle that names no triangle is skipped: validate reports it.
        let Some((t, tri)) = usize::try_from(d.triangle)
            .ok()
            .and_then(|t| Some((t, m.triangles.get(t)?)))
        else {
            continue;
        };
        if let Some(from) = cell_index(base, t) {
            g.add_exit(
                from,
                format!("door {:08X}, not in this file", d.door),
                move_kind(tri.flags, None, EdgeKind::Door),
            );
        }
    }
    g
}
