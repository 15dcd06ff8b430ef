//! A text dump of an `NVNM` model for people and snapshot tests.
//!
//! The header fields first, then every list with indices; triangle edges are shown decoded
//! (`-` no neighbour, `t12` triangle 12, `link3` edge link 3).

use core::fmt::{self, Write};

use super::model::NavmeshGeometry;
use super::{Parent, triangle_flags};

fn vec3(v: &[nav_core::RawF32; 3]) -> String {
    nav_core::scalar::Tuple(v).to_string()
}

/// Writes the dump of `m` to `out`.
pub fn dump(m: &NavmeshGeometry, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "NVNM version {}", m.version)?;
    writeln!(out, "pathing cell CRC {:#010x}", m.pathing_cell_crc)?;
    match m.parent {
        Parent::Cell { cell } => writeln!(out, "parent cell {cell:08X}")?,
        Parent::Worldspace {
            worldspace,
            grid_x,
            grid_y,
        } => writeln!(
            out,
            "parent worldspace {worldspace:08X} grid ({grid_x}, {grid_y})"
        )?,
    }
    writeln!(out, "vertices: {}", m.vertices.len())?;
    for (i, v) in m.vertices.iter().enumerate() {
        writeln!(out, "  [{i}] {}", vec3(v))?;
    }
    writeln!(out, "triangles: {}", m.triangles.len())?;
    for (i, t) in m.triangles.iter().enumerate() {
        write!(
            out,
            "  [{i}] v({}, {}, {}) edges({}, {}, {}) flags {:#06x} cover {:#06x}",
            t.vertices[0],
            t.vertices[1],
            t.vertices[2],
            t.edge(0),
            t.edge(1),
            t.edge(2),
            t.flags,
            t.cover_flags
        )?;
        if t.flags & triangle_flags::DOOR != 0 {
            write!(out, " door")?;
        }
        if let Some(e) = t.extra {
            write!(out, " height {} unknown {}", e.height, e.unknown)?;
        }
        writeln!(out)?;
    }
    writeln!(out, "edge links: {}", m.edge_links.len())?;
    for (i, l) in m.edge_links.iter().enumerate() {
        write!(
            out,
            "  [{i}] type {} navmesh {:08X} triangle {}",
            l.link_type, l.navmesh, l.triangle
        )?;
        if let Some(e) = l.edge_index {
            write!(out, " edge {e}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "door triangles: {}", m.door_triangles.len())?;
    for (i, d) in m.door_triangles.iter().enumerate() {
        writeln!(
            out,
            "  [{i}] triangle {} type {:#010x} door {:08X}",
            d.triangle, d.door_type, d.door
        )?;
    }
    if !m.cover_array.is_empty() {
        writeln!(out, "cover array: {}", m.cover_array.len())?;
        for (i, c) in m.cover_array.iter().enumerate() {
            writeln!(
                out,
                "  [{i}] v({}, {}) data {:02x?}",
                c.vertices[0], c.vertices[1], c.data
            )?;
        }
    }
    if !m.cover_triangles.is_empty() {
        writeln!(out, "cover triangles: {:?}", m.cover_triangles)?;
    }
    if !m.cover_mappings.is_empty() {
        writeln!(out, "cover mappings: {}", m.cover_mappings.len())?;
        for (i, c) in m.cover_mappings.iter().enumerate() {
            writeln!(
                out,
                "  [{i}] triangle {} edge {} ({:#06x}) cover {}",
                c.triangle(),
                c.edge(),
                c.triangle_edge,
                c.cover
            )?;
        }
    }
    if !m.waypoints.is_empty() {
        writeln!(out, "waypoints: {}", m.waypoints.len())?;
        for (i, w) in m.waypoints.iter().enumerate() {
            writeln!(
                out,
                "  [{i}] {} triangle {} flags {:#010x}",
                vec3(&w.position),
                w.triangle,
                w.flags
            )?;
        }
    }
    let g = &m.grid;
    writeln!(
        out,
        "grid: divisor {} cell size ({}, {}) min {} max {}",
        g.divisor,
        g.cell_size[0],
        g.cell_size[1],
        vec3(&g.min),
        vec3(&g.max)
    )?;
    let width = usize::try_from(g.divisor).unwrap_or(usize::MAX).max(1);
    for (k, cell) in g.cells.iter().enumerate() {
        if !cell.is_empty() {
            writeln!(out, "  cell ({}, {}): {:?}", k % width, k / width, cell)?;
        }
    }
    Ok(())
}
