//! The byte-exact writers: from the owned model ([`write()`] into a `Vec`, [`write_to`] into any
//! [`std::io::Write`], one writer behind both) and straight from a view ([`write_view`]).
//!
//! The format has no offsets, so writing is one pass in file order. Before the first byte, every
//! count is narrowed into its field with an error naming the field when it does not fit (65,536
//! objects, 256 object indices in a cell), and the fixed maps must have their exact sizes. Then
//! every record goes out whole, as its zerocopy struct, through a buffer handed to the output
//! 64 KiB at a time.

use std::io;

use nav_core::error::{refusal, refused};
use nav_core::scalar::{F32, I16, I32, U16, U32};
use nav_core::write::narrow;
use nav_core::zerocopy::{Immutable, IntoBytes};
use nav_core::{ByteWriter, Error, Result};

use crate::model::{
    HEIGHT_COUNT, NavMeshTerrain, PLANE_COUNT, TILE_COUNT, TILES_PER_SIDE, TileMap,
};
use crate::view::{
    CellRecord, EdgeGlobalRecord, EdgeInternalRecord, LinkedEdgeRecord, NavMeshTerrainView,
    ObjRecord, TileMapView, TileRecord,
};
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

/// The counts of the file, settled (and refused where they do not fit) before the first byte.
struct Plan {
    objects: u16,
    cells: u32,
    global_edges: u32,
    internal_edges: u32,
}

impl Plan {
    fn new(model: &NavMeshTerrain) -> Result<Plan> {
        if model.layout().is_none() {
            return Err(Error::unrepresentable(
                FORMAT,
                "planes",
                "a modern tile map (8-byte tiles) needs the plane maps; only legacy files end \
                 after the height map",
            ));
        }
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
        let objects = narrow(FORMAT, "object count", model.objects.len())?;
        for i in 0..model.objects.len() {
            linked_edge_count(model, i)?;
        }
        let cells = narrow(FORMAT, "cell count", model.cells.len())?;
        for i in 0..model.cells.len() {
            object_count(model, i)?;
        }
        Ok(Plan {
            objects,
            cells,
            global_edges: narrow(FORMAT, "global edge count", model.global_edges.len())?,
            internal_edges: narrow(FORMAT, "internal edge count", model.internal_edges.len())?,
        })
    }

    /// Writes the whole file, record by record.
    fn emit(&self, model: &NavMeshTerrain, w: &mut Records<'_>) -> io::Result<()> {
        w.bytes(SIGNATURE)?;
        w.put(&U16::new(self.objects))?;
        for (i, o) in model.objects.iter().enumerate() {
            w.put(&ObjRecord {
                resource_id: U32::new(o.resource_id),
                local_position: o.local_position.map(F32::from),
                is_static: I16::new(o.is_static),
                yaw: F32::from(o.yaw),
                uid: U16::new(o.uid),
                unk_short01: U16::new(o.unk_short01),
                is_big: o.is_big,
                is_struct: o.is_struct,
                region_id: U16::new(o.region_id),
                linked_edge_count: U16::new(linked_edge_count(model, i).map_err(refusal)?),
            })?;
            w.records(&o.linked_edges, |l| LinkedEdgeRecord {
                other_object_index: I16::new(l.other_object_index),
                other_edge_index: I16::new(l.other_edge_index),
                edge_index: I16::new(l.edge_index),
            })?;
        }

        w.put(&U32::new(self.cells))?;
        w.put(&U32::new(model.open_cell_count))?;
        for (i, c) in model.cells.iter().enumerate() {
            w.put(&CellRecord {
                min: c.min.map(F32::from),
                max: c.max.map(F32::from),
                object_count: object_count(model, i).map_err(refusal)?,
            })?;
            w.records(&c.object_indices, |&o| U16::new(o))?;
        }

        w.put(&U32::new(self.global_edges))?;
        w.records(&model.global_edges, |e| EdgeGlobalRecord {
            min: e.min.map(F32::from),
            max: e.max.map(F32::from),
            flags: e.flags,
            assoc_direction: e.assoc_direction.map(|d| d.to_le_bytes()[0]),
            assoc_cell_index: e.assoc_cell_index.map(I16::new),
            assoc_region_id: e.assoc_region_id.map(U16::new),
        })?;
        w.put(&U32::new(self.internal_edges))?;
        w.records(&model.internal_edges, |e| EdgeInternalRecord {
            min: e.min.map(F32::from),
            max: e.max.map(F32::from),
            flags: e.flags,
            assoc_direction: e.assoc_direction.map(|d| d.to_le_bytes()[0]),
            assoc_cell_index: e.assoc_cell_index.map(I16::new),
        })?;

        match &model.tile_map {
            TileMap::Modern(tiles) => w.records(tiles, |t| TileRecord {
                cell_index: I32::new(t.cell_index),
                flags: U16::new(t.flags),
                texture_id: U16::new(t.texture_id),
            })?,
            TileMap::Legacy(tiles) => w.records(tiles, |&t| U32::new(t))?,
        }
        w.records(&model.height_map, |&h| F32::from(h))?;
        if let Some(p) = &model.planes {
            w.bytes(&p.types)?;
            w.records(&p.heights, |&h| F32::from(h))?;
        }
        Ok(())
    }
}

/// Object `i`'s link count, narrowed into its `u16` field.
fn linked_edge_count(model: &NavMeshTerrain, i: usize) -> Result<u16> {
    let n = model.objects.get(i).map_or(0, |o| o.linked_edges.len());
    narrow(FORMAT, format_args!("objects[{i}] linked edge count"), n)
}

/// Cell `i`'s object-index count, narrowed into its `u8` field.
fn object_count(model: &NavMeshTerrain, i: usize) -> Result<u8> {
    let n = model.cells.get(i).map_or(0, |c| c.object_indices.len());
    narrow(FORMAT, format_args!("cells[{i}] object count"), n)
}

/// How many bytes [`Records`] gathers before it hands them to an output.
const CHUNK: usize = 64 << 10;

/// Whole records converted straight into a byte buffer: the file itself for [`write()`], or a
/// chunk handed to the output of [`write_to`] whenever 64 KiB have gathered, so that an
/// unbuffered output sees few large writes.
struct Records<'o> {
    out: Option<&'o mut dyn io::Write>,
    buf: Vec<u8>,
}

impl Records<'_> {
    /// Hands the buffer to the output once a chunk has gathered (never without an output).
    fn spill(&mut self) -> io::Result<()> {
        if let Some(out) = &mut self.out
            && self.buf.len() >= CHUNK
        {
            out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.spill()
    }

    fn put<R: IntoBytes + Immutable>(&mut self, record: &R) -> io::Result<()> {
        self.bytes(record.as_bytes())
    }

    /// One record per item, made by `record`, converted in place a chunk at a time.
    fn records<T, R: IntoBytes + Immutable>(
        &mut self,
        items: &[T],
        record: impl Fn(&T) -> R,
    ) -> io::Result<()> {
        let size = size_of::<R>();
        if size == 0 {
            return Ok(());
        }
        for chunk in items.chunks((CHUNK / size).max(1)) {
            let start = self.buf.len();
            self.buf
                .resize(start.saturating_add(chunk.len().saturating_mul(size)), 0);
            let fresh = self.buf.get_mut(start..).unwrap_or_default();
            for (out, item) in fresh.chunks_exact_mut(size).zip(chunk) {
                out.copy_from_slice(record(item).as_bytes());
            }
            self.spill()?;
        }
        Ok(())
    }

    /// Hands what is left to the output.
    fn finish(mut self) -> io::Result<()> {
        match &mut self.out {
            Some(out) => out.write_all(&self.buf),
            None => Ok(()),
        }
    }
}

/// Serialises a model. Refuses counts over their field's range, fixed maps of the wrong size, and
/// 8-byte tiles without plane maps (no file has that layout).
pub fn write(model: &NavMeshTerrain) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    write_into(model, &mut bytes)?;
    Ok(bytes)
}

/// [`write()`] into `out`, replacing its contents and reusing its memory (`navkit rewrite` hands
/// over the input's buffer). Every refusal comes before the first byte, so on error `out` is
/// left as it was.
pub fn write_into(model: &NavMeshTerrain, out: &mut Vec<u8>) -> Result<()> {
    let plan = Plan::new(model)?;
    let size = model.encoded_len();
    let mut buf = core::mem::take(out);
    buf.clear();
    buf.reserve(size);
    let mut w = Records { out: None, buf };
    plan.emit(model, &mut w).map_err(|e| match refused(&e) {
        Some(refusal) => refusal.clone(),
        // Without an output, nothing else can fail.
        None => Error::unrepresentable(FORMAT, "output", e),
    })?;
    debug_assert_eq!(w.buf.len(), size);
    *out = w.buf;
    Ok(())
}

/// Streams a model to `out`: the bytes of [`write()`], record by record. What `write` refuses is
/// refused ([`std::io::ErrorKind::InvalidData`] carrying the [`nav_core::Error`]) before anything
/// is written.
pub fn write_to(model: &NavMeshTerrain, out: &mut dyn io::Write) -> io::Result<()> {
    let plan = Plan::new(model).map_err(refusal)?;
    let mut w = Records {
        out: Some(out),
        buf: Vec::with_capacity(CHUNK.min(model.encoded_len())),
    };
    plan.emit(model, &mut w)?;
    w.finish()
}

/// Serialises straight from a view, record by record (no model in between).
pub fn write_view(view: &NavMeshTerrainView<'_>) -> Result<Vec<u8>> {
    let mut w = ByteWriter::with_capacity(view.data().len());
    w.bytes(SIGNATURE);
    w.u16(narrow(FORMAT, "object count", view.objects().len())?);
    for o in view.objects() {
        w.put(o.record()).put(o.linked_edges());
    }
    w.u32(narrow(FORMAT, "cell count", view.cells().len())?);
    w.u32(view.open_cell_count());
    for c in view.cells() {
        w.put(c.record()).put(c.object_indices());
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
        w.put(p.types()).put(p.heights());
    }
    debug_assert_eq!(w.len(), view.data().len());
    Ok(w.into_inner())
}
