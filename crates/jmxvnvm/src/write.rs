//! The byte-exact writers: from the owned model and straight from a view.
//!
//! The format has no offsets, so writing is one pass in file order. Every count is narrowed into
//! its field with an error naming the field when it does not fit (65,536 objects, 256 object
//! indices in a cell), and the fixed maps must have their exact sizes. The position after each
//! section is checked against the size computed up front in debug builds.

use nav_core::write::narrow;
use nav_core::{ByteWriter, Error, RawF32, Result};

use crate::model::{
    HEIGHT_COUNT, NavMeshTerrain, PLANE_COUNT, TILE_COUNT, TILES_PER_SIDE, TileMap,
};
use crate::view::{NavMeshTerrainView, TileMapView};
use crate::{FORMAT, SIGNATURE};

fn check_len(field: &str, len: usize, expected: usize, shape: &str) -> Result<()> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::unrepresentable(
            FORMAT,
            field,
            format!("holds {len} entries; the format has exactly {expected} ({shape})"),
        ))
    }
}

/// Serialises a model. Refuses counts over their field's range, fixed maps of the wrong size, and
/// 8-byte tiles without plane maps (no file has that layout).
pub fn write(model: &NavMeshTerrain) -> Result<Vec<u8>> {
    let Some(layout) = model.layout() else {
        return Err(Error::unrepresentable(
            FORMAT,
            "planes",
            "a modern tile map (8-byte tiles) needs the plane maps; only legacy files end after \
             the height map",
        ));
    };
    check_len(
        "tile map",
        model.tile_map.len(),
        TILE_COUNT,
        &format!("{TILES_PER_SIDE} x {TILES_PER_SIDE}"),
    )?;
    check_len(
        "height map",
        model.height_map.len(),
        HEIGHT_COUNT,
        "97 x 97",
    )?;
    if let Some(p) = &model.planes {
        check_len("plane types", p.types.len(), PLANE_COUNT, "6 x 6")?;
        check_len("plane heights", p.heights.len(), PLANE_COUNT, "6 x 6")?;
    }

    let size = model.encoded_len();
    let mut w = ByteWriter::with_capacity(size);
    w.bytes(SIGNATURE);
    w.u16(narrow(FORMAT, "object count", model.objects.len())?);
    for (i, o) in model.objects.iter().enumerate() {
        w.u32(o.resource_id);
        for c in o.local_position {
            w.f32(c);
        }
        w.i16(o.is_static).f32(o.yaw).u16(o.uid).u16(o.unk_short01);
        w.u8(o.is_big).u8(o.is_struct).u16(o.region_id);
        w.u16(narrow(
            FORMAT,
            format_args!("objects[{i}] linked edge count"),
            o.linked_edges.len(),
        )?);
        for l in &o.linked_edges {
            w.i16(l.other_object_index)
                .i16(l.other_edge_index)
                .i16(l.edge_index);
        }
    }

    w.u32(narrow(FORMAT, "cell count", model.cells.len())?);
    w.u32(model.open_cell_count);
    for (i, c) in model.cells.iter().enumerate() {
        put2(&mut w, c.min);
        put2(&mut w, c.max);
        w.u8(narrow(
            FORMAT,
            format_args!("cells[{i}] object count"),
            c.object_indices.len(),
        )?);
        for &o in &c.object_indices {
            w.u16(o);
        }
    }

    w.u32(narrow(
        FORMAT,
        "global edge count",
        model.global_edges.len(),
    )?);
    for e in &model.global_edges {
        put2(&mut w, e.min);
        put2(&mut w, e.max);
        w.u8(e.flags);
        put_dir(&mut w, e.assoc_direction);
        w.i16(e.assoc_cell_index[0]).i16(e.assoc_cell_index[1]);
        w.u16(e.assoc_region_id[0]).u16(e.assoc_region_id[1]);
    }
    w.u32(narrow(
        FORMAT,
        "internal edge count",
        model.internal_edges.len(),
    )?);
    for e in &model.internal_edges {
        put2(&mut w, e.min);
        put2(&mut w, e.max);
        w.u8(e.flags);
        put_dir(&mut w, e.assoc_direction);
        w.i16(e.assoc_cell_index[0]).i16(e.assoc_cell_index[1]);
    }

    // The fixed maps are most of the file: reserve each one and fill it in place, which is many
    // times faster than appending 18,000 small values one by one.
    let tail_start = w.len();
    match &model.tile_map {
        TileMap::Modern(tiles) => {
            for (out, t) in reserve(&mut w, tiles.len(), 8).zip(tiles) {
                out[..4].copy_from_slice(&t.cell_index.to_le_bytes());
                out[4..6].copy_from_slice(&t.flags.to_le_bytes());
                out[6..].copy_from_slice(&t.texture_id.to_le_bytes());
            }
        }
        TileMap::Legacy(tiles) => {
            for (out, t) in reserve(&mut w, tiles.len(), 4).zip(tiles) {
                out.copy_from_slice(&t.to_le_bytes());
            }
        }
    }
    put_floats(&mut w, &model.height_map);
    if let Some(p) = &model.planes {
        w.bytes(&p.types);
        put_floats(&mut w, &p.heights);
    }
    debug_assert_eq!(w.len() - tail_start, layout.tail_len());
    debug_assert_eq!(w.len(), size);
    Ok(w.into_inner())
}

/// Appends `count` zeroed records of `size` bytes and hands them out to be filled.
fn reserve(w: &mut ByteWriter, count: usize, size: usize) -> core::slice::ChunksExactMut<'_, u8> {
    let start = w.len();
    w.fill(0, count.saturating_mul(size));
    let tail = w.as_mut_slice().get_mut(start..).unwrap_or_default();
    tail.chunks_exact_mut(size)
}

fn put_floats(w: &mut ByteWriter, values: &[RawF32]) {
    for (out, v) in reserve(w, values.len(), 4).zip(values) {
        out.copy_from_slice(&v.to_bits().to_le_bytes());
    }
}

fn put2(w: &mut ByteWriter, v: [RawF32; 2]) {
    w.f32(v[0]).f32(v[1]);
}

fn put_dir(w: &mut ByteWriter, d: [i8; 2]) {
    w.bytes(&[d[0].to_le_bytes()[0], d[1].to_le_bytes()[0]]);
}

/// Serialises straight from a view, record by record (no model in between).
pub fn write_view(view: &NavMeshTerrainView<'_>) -> Result<Vec<u8>> {
    let mut w = ByteWriter::with_capacity(view.data().len());
    w.bytes(SIGNATURE);
    w.u16(narrow(FORMAT, "object count", view.objects().len())?);
    for o in view.objects() {
        w.put(o.record).put(o.linked_edges);
    }
    w.u32(narrow(FORMAT, "cell count", view.cells().len())?);
    w.u32(view.open_cell_count());
    for c in view.cells() {
        w.put(c.record).put(c.object_indices);
    }
    w.u32(narrow(
        FORMAT,
        "global edge count",
        view.global_edges().len(),
    )?);
    w.put(view.global_edges());
    w.u32(narrow(
        FORMAT,
        "internal edge count",
        view.internal_edges().len(),
    )?);
    w.put(view.internal_edges());
    match view.tile_map() {
        TileMapView::Modern(t) => w.put(t),
        TileMapView::Legacy(t) => w.put(t),
    };
    w.put(view.height_map());
    if let Some(p) = view.planes() {
        w.put(p.types).put(p.heights);
    }
    debug_assert_eq!(w.len(), view.data().len());
    Ok(w.into_inner())
}
