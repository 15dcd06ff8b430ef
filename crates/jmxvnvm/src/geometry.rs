//! A terrain navmesh as format-neutral geometry: cells as quads on the height map, objects as graph
//! nodes joined by their linked edges.
//!
//! The plane maps (water and ice) are left out: a plane covers a whole 320 × 320 block at one
//! height, and where the water really is depends on the ground under it, which a flat quad over
//! the block would misstate.
//!
//! Coordinates are region-local world units with Y up, as the file stores them: x and z run
//! `0..1920` across the region and y is the height. A cell's corners take their heights from the
//! height map ([`NavMeshTerrain::height_at`]). Quads wind counter-clockwise seen from above (+y):
//! corner order `(min.x, max.z)`, `(max.x, max.z)`, `(max.x, min.z)`, `(min.x, min.z)`, so edge 0
//! is the cell's max-z side ([`EdgeDirection::TOP`]), edge 1 its max-x side (`RIGHT`), edge 2 its
//! min-z side (`BOTTOM`) and edge 3 its min-x side (`LEFT`).
//!
//! Region-local coordinates keep a region's file on its own: the world position adds the
//! region's origin ([`RegionId::origin`](crate::RegionId::origin)), which the file does not store
//! (it is in the file name).

use std::collections::HashSet;

use nav_core::geometry::{Geometry, Record, UpAxis, VertexIdentity};

use crate::model::{EdgeDirection, EdgeFlag, HEIGHTS_PER_SIDE, NavMeshTerrain, REGION_SIZE};

/// The [`EdgeDirection`] of each quad edge, in corner order.
const EDGE_DIRECTIONS: [i8; 4] = [
    EdgeDirection::TOP,
    EdgeDirection::RIGHT,
    EdgeDirection::BOTTOM,
    EdgeDirection::LEFT,
];

/// The ground height at a region-local point, clamped into the region; 0 where the height map
/// cannot answer (a point that is not finite, or a map of the wrong size).
pub(crate) fn ground(m: &NavMeshTerrain, x: f32, z: f32) -> f32 {
    if m.height_map.len() < HEIGHTS_PER_SIDE * HEIGHTS_PER_SIDE {
        return 0.0;
    }
    m.height_at(x.clamp(0.0, REGION_SIZE), z.clamp(0.0, REGION_SIZE))
        .unwrap_or(0.0)
}

/// The four corners of an axis-aligned rectangle in corner order, with their heights.
pub(crate) fn quad(
    min: [f32; 2],
    max: [f32; 2],
    height: impl Fn(f32, f32) -> f32,
) -> [[f32; 3]; 4] {
    [
        [min[0], max[1]],
        [max[0], max[1]],
        [max[0], min[1]],
        [min[0], min[1]],
    ]
    .map(|[x, z]| [x, height(x, z), z])
}

/// Cells as polygons, objects as nodes and object links as links:
///
/// - Polygon `i` is cell `i` (its [`Record`]), with its own four corners
///   ([`VertexIdentity::Corners`]: vertex `4i + k` is corner `k` of cell `i`), kind `open` for the first
///   [`open_cell_count`](NavMeshTerrain::open_cell_count) cells and `blocked` for the rest. The
///   neighbour across each quad edge is the other cell of the first internal edge (in file order)
///   that lies on that side of the cell, names a cell of this file on its other side, and is not
///   blocked in the direction leaving the cell ([`EdgeFlag::BLOCK_SRC_TO_DST`] from side 0,
///   [`EdgeFlag::BLOCK_DST_TO_SRC`] from side 1). Global edges lead into the neighbour region's
///   file, so they give no neighbour.
/// - One node per object (kind `object`) at its stored local position.
/// - One link (kind `linked`) from an object to each object its linked edges name, once per
///   ordered pair; entries naming no object (-1, or past the list) are left out.
pub fn geometry(m: &NavMeshTerrain) -> Geometry {
    let mut g = Geometry::new(UpAxis::Y);
    g.vertex_identity = VertexIdentity::Corners;
    let open = usize::try_from(m.open_cell_count).unwrap_or(usize::MAX);
    for (i, cell) in m.cells.iter().enumerate() {
        let corners = quad(
            cell.min.map(|c| c.get()),
            cell.max.map(|c| c.get()),
            |x, z| ground(m, x, z),
        );
        let p = g.push_polygon(&corners, if i < open { "open" } else { "blocked" });
        if let Some(poly) = g.polygons.get_mut(p as usize) {
            poly.record = u32::try_from(i).ok().map(|index| Record {
                part: 0,
                index,
                id: None,
            });
        }
    }

    // Neighbours from the internal edges.
    let cells = m.cells.len();
    let mut neighbours: Vec<[Option<u32>; 4]> = vec![[None; 4]; cells];
    let cell = |c: i16| {
        usize::try_from(c)
            .ok()
            .filter(|c| *c < cells)
            .and_then(|c| u32::try_from(c).ok())
    };
    for e in &m.internal_edges {
        for side in 0..2 {
            let (Some(&this), Some(&dir), Some(&other)) = (
                e.assoc_cell_index.get(side),
                e.assoc_direction.get(side),
                e.assoc_cell_index.get(1 - side),
            ) else {
                continue;
            };
            let leaving_blocked = if side == 0 {
                EdgeFlag::BLOCK_SRC_TO_DST
            } else {
                EdgeFlag::BLOCK_DST_TO_SRC
            };
            let (Some(this), Some(other)) = (cell(this), cell(other)) else {
                continue;
            };
            let Some(slot) = EDGE_DIRECTIONS.iter().position(|d| *d == dir) else {
                continue;
            };
            if e.flags & leaving_blocked != 0 {
                continue;
            }
            if let Some(n) = neighbours
                .get_mut(this as usize)
                .and_then(|n| n.get_mut(slot))
            {
                n.get_or_insert(other);
            }
        }
    }
    for (poly, n) in g.polygons.iter_mut().zip(&neighbours) {
        poly.neighbours = n.to_vec();
    }

    // Objects and their links.
    for o in &m.objects {
        g.push_node(o.local_position.map(|c| c.get()), "object");
    }
    let objects = m.objects.len();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    for (from, o) in m.objects.iter().enumerate() {
        let Ok(from) = u32::try_from(from) else {
            continue;
        };
        for l in &o.linked_edges {
            let Some(to) = usize::try_from(l.other_object_index)
                .ok()
                .filter(|t| *t < objects)
                .and_then(|t| u32::try_from(t).ok())
            else {
                continue;
            };
            if seen.insert((from, to)) {
                pairs.push((from, to));
            }
        }
    }
    for (from, to) in pairs {
        g.push_link(from, to, "linked");
    }
    g
}
