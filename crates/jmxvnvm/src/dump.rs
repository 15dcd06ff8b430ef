//! A readable text dump of a model, for `navkit dump` and snapshot tests.
//!
//! Header and counts first, then every object, cell and edge with its index. The fixed maps are
//! shown row by row with runs of equal entries folded (`0.0 x97`), so a flat region stays short.

use core::fmt::{self, Write};

use nav_core::RawF32;

use crate::model::{HEIGHTS_PER_SIDE, NavMeshTerrain, TILES_PER_SIDE, TileMap};

fn runs<T: PartialEq + Copy>(
    out: &mut dyn Write,
    items: &[T],
    show: impl Fn(&mut dyn Write, T) -> fmt::Result,
) -> fmt::Result {
    let mut i = 0;
    while let Some(&first) = items.get(i) {
        let n = items[i..].iter().take_while(|&&v| v == first).count();
        out.write_char(' ')?;
        show(out, first)?;
        if n > 1 {
            write!(out, " x{n}")?;
        }
        i += n;
    }
    Ok(())
}

/// Writes the dump of `m` into `out`.
pub fn dump(m: &NavMeshTerrain, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "JMXVNVM 1000")?;
    match m.layout() {
        Some(l) => writeln!(out, "layout: {}", l.describe())?,
        None => writeln!(
            out,
            "layout: none (8-byte tiles without plane maps cannot be written)"
        )?,
    }
    writeln!(
        out,
        "objects: {} ({} linked edges)",
        m.objects.len(),
        m.linked_edge_count()
    )?;
    writeln!(
        out,
        "cells: {} ({} open, {} object references)",
        m.cells.len(),
        m.open_cell_count,
        m.cell_object_count()
    )?;
    writeln!(out, "global edges: {}", m.global_edges.len())?;
    writeln!(out, "internal edges: {}", m.internal_edges.len())?;

    for (i, o) in m.objects.iter().enumerate() {
        let [x, y, z] = o.local_position;
        writeln!(
            out,
            "objects[{i}]: resource {} at ({x}, {y}, {z}) yaw {} uid {:#06x} static {} unk {:#06x} big {} struct {} region {:#06x}",
            o.resource_id,
            o.yaw,
            o.uid,
            o.is_static,
            o.unk_short01,
            o.is_big,
            o.is_struct,
            o.region_id
        )?;
        for (j, l) in o.linked_edges.iter().enumerate() {
            writeln!(
                out,
                "  linked_edges[{j}]: edge {} -> object {} edge {}",
                l.edge_index, l.other_object_index, l.other_edge_index
            )?;
        }
    }
    for (i, c) in m.cells.iter().enumerate() {
        write!(
            out,
            "cells[{i}]: ({}, {})..({}, {})",
            c.min[0], c.min[1], c.max[0], c.max[1]
        )?;
        if !c.object_indices.is_empty() {
            write!(out, " objects {:?}", c.object_indices)?;
        }
        writeln!(out)?;
    }
    for (i, e) in m.global_edges.iter().enumerate() {
        writeln!(
            out,
            "global_edges[{i}]: ({}, {})-({}, {}) flags {:#04x} cells {:?} directions {:?} regions [{:#06x}, {:#06x}]",
            e.min[0],
            e.min[1],
            e.max[0],
            e.max[1],
            e.flags,
            e.assoc_cell_index,
            e.assoc_direction,
            e.assoc_region_id[0],
            e.assoc_region_id[1]
        )?;
    }
    for (i, e) in m.internal_edges.iter().enumerate() {
        writeln!(
            out,
            "internal_edges[{i}]: ({}, {})-({}, {}) flags {:#04x} cells {:?} directions {:?}",
            e.min[0], e.min[1], e.max[0], e.max[1], e.flags, e.assoc_cell_index, e.assoc_direction
        )?;
    }
    match &m.tile_map {
        TileMap::Modern(tiles) => {
            writeln!(
                out,
                "tile map: {} tiles of 8 bytes (cell/flags/texture)",
                tiles.len()
            )?;
            for (z, row) in tiles.chunks(TILES_PER_SIDE).enumerate() {
                write!(out, "  z {z:2}:")?;
                runs(out, row, |o, t| {
                    write!(o, "{}/{:#x}/{}", t.cell_index, t.flags, t.texture_id)
                })?;
                writeln!(out)?;
            }
        }
        TileMap::Legacy(tiles) => {
            writeln!(out, "tile map: {} legacy tiles of 4 bytes", tiles.len())?;
            for (z, row) in tiles.chunks(TILES_PER_SIDE).enumerate() {
                write!(out, "  z {z:2}:")?;
                runs(out, row, |o, t| write!(o, "{t:#x}"))?;
                writeln!(out)?;
            }
        }
    }
    writeln!(out, "height map: {} heights", m.height_map.len())?;
    for (z, row) in m.height_map.chunks(HEIGHTS_PER_SIDE).enumerate() {
        write!(out, "  z {z:2}:")?;
        runs(out, row, |o, h: RawF32| write!(o, "{h}"))?;
        writeln!(out)?;
    }
    match &m.planes {
        Some(p) => {
            write!(out, "plane types:")?;
            runs(out, &p.types, |o, t| write!(o, "{t}"))?;
            writeln!(out)?;
            write!(out, "plane heights:")?;
            runs(out, &p.heights, |o, h| write!(o, "{h}"))?;
            writeln!(out)?;
        }
        None => writeln!(out, "plane maps: none")?,
    }
    Ok(())
}
