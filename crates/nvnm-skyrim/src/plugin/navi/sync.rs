//! What an `NVMI` entry derives from its navmesh, and bringing an entry up to date after the
//! navmesh changed, the way the Creation Kit keeps it.
//!
//! Measured on every corpus entry whose navmesh is in the same plugin (131 of them):
//!
//! - the centre is the f32 running sum of the `NVNM` vertices in file order, times f32(1/n),
//!   bit for bit;
//! - the island bounds are the vertices' minimum and maximum, bit for bit;
//! - the pathing-cell CRC and parent are the `NVNM` header's;
//! - the edge-link list holds each navmesh the `NVNM` edge links point at, once, in an order
//!   that cannot be derived.
//!
//! The island's summary mesh (a reduced copy the Creation Kit makes by rules not known), the
//! unknown float, the flags, the preferred edge links and the door links cannot be derived
//! and are kept.

use nav_core::RawF32;

use super::NavmeshInfo;
use crate::nvnm::NavmeshGeometry;

/// The centre the Creation Kit stores: f32 running sum of `vertices` times f32(1/n); `None`
/// for no vertices.
pub fn centre(vertices: &[[RawF32; 3]]) -> Option<[RawF32; 3]> {
    if vertices.is_empty() {
        return None;
    }
    let mut sum = [0f32; 3];
    for v in vertices {
        for (s, c) in sum.iter_mut().zip(v) {
            *s += c.get();
        }
    }
    // The vertex count of an NVNM fits 16 bits, so the conversion is exact.
    let inv = 1.0f32 / vertices.len() as f32;
    Some(sum.map(|s| RawF32::new(s * inv)))
}

/// The minimum and maximum corners of `vertices`; `None` for no vertices.
pub fn bounds(vertices: &[[RawF32; 3]]) -> Option<([RawF32; 3], [RawF32; 3])> {
    let first = vertices.first()?.map(RawF32::get);
    let (mut min, mut max) = (first, first);
    for v in vertices {
        for i in 0..3 {
            let c = v[i].get();
            if c < min[i] {
                min[i] = c;
            }
            if c > max[i] {
                max[i] = c;
            }
        }
    }
    Some((min.map(RawF32::new), max.map(RawF32::new)))
}

/// The navmeshes the `NVNM` edge links point at, each once, in first-seen order.
pub fn edge_link_targets(mesh: &NavmeshGeometry) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for l in &mesh.edge_links {
        if !out.contains(&l.navmesh) {
            out.push(l.navmesh);
        }
    }
    out
}

/// Brings `info` up to date with `mesh`; returns whether anything changed.
///
/// Recomputed: the centre and, for an island, its bounds (both kept when the mesh has no
/// vertices); the pathing-cell CRC and parent (copied from the `NVNM` header); the edge-link
/// list (targets still linked keep their place, targets no longer linked go, new ones are
/// appended in first-seen order). Kept: the flags, the unknown float, the preferred edge links,
/// the door links, and the island's summary triangles and vertices.
pub fn update(info: &mut NavmeshInfo, mesh: &NavmeshGeometry) -> bool {
    let before = info.clone();
    if let Some(c) = centre(&mesh.vertices) {
        info.centre = c;
    }
    if let (Some(island), Some((min, max))) = (info.island.as_mut(), bounds(&mesh.vertices)) {
        island.min = min;
        island.max = max;
    }
    info.pathing_cell_crc = mesh.pathing_cell_crc;
    info.parent = mesh.parent;
    let targets = edge_link_targets(mesh);
    info.edge_links.retain(|id| targets.contains(id));
    for t in targets {
        if !info.edge_links.contains(&t) {
            info.edge_links.push(t);
        }
    }
    *info != before
}

/// How an entry disagrees with what its navmesh gives, in words (empty when it agrees).
pub fn disagreements(info: &NavmeshInfo, mesh: &NavmeshGeometry) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(c) = centre(&mesh.vertices) {
        if c != info.centre {
            out.push(format!(
                "centre ({}, {}, {}) is not the vertex mean ({}, {}, {})",
                info.centre[0], info.centre[1], info.centre[2], c[0], c[1], c[2]
            ));
        }
    }
    if let (Some(island), Some((min, max))) = (&info.island, bounds(&mesh.vertices)) {
        if island.min != min || island.max != max {
            out.push("island bounds are not the navmesh's vertex bounds".to_string());
        }
    }
    if info.pathing_cell_crc != mesh.pathing_cell_crc || info.parent != mesh.parent {
        out.push(format!(
            "parent {} disagrees with the NVNM's {}",
            parent_text(&info.parent),
            parent_text(&mesh.parent)
        ));
    }
    let targets = edge_link_targets(mesh);
    let missing: Vec<String> = targets
        .iter()
        .filter(|t| !info.edge_links.contains(t))
        .map(|t| format!("{t:08X}"))
        .collect();
    let extra: Vec<String> = info
        .edge_links
        .iter()
        .filter(|t| !targets.contains(t))
        .map(|t| format!("{t:08X}"))
        .collect();
    if !missing.is_empty() {
        out.push(format!(
            "edge-link list lacks {} that the NVNM links to",
            missing.join(", ")
        ));
    }
    if !extra.is_empty() {
        out.push(format!(
            "edge-link list names {} that the NVNM does not link to",
            extra.join(", ")
        ));
    }
    out
}

/// A parent in words: `cell 0420C8BA` or `worldspace 0000003C grid (-22, 2)`.
pub fn parent_text(p: &crate::nvnm::Parent) -> String {
    match p {
        crate::nvnm::Parent::Cell { cell } => format!("cell {cell:08X}"),
        crate::nvnm::Parent::Worldspace {
            worldspace,
            grid_x,
            grid_y,
        } => format!("worldspace {worldspace:08X} grid ({grid_x}, {grid_y})"),
    }
}
