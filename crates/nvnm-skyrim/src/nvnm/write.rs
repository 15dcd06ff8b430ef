//! The `NVNM` writer: from the view (record for record) and from the model.
//!
//! The blob has no offsets: every array is a `u32` count and its records, so the writer emits
//! the parts in order. Counts come from the lengths of the model's lists; the one stored count,
//! the grid divisor, must agree with the number of cell lists. A model that mixes the layouts of
//! versions 12 and 15, or names a version without a layout, is refused.

use nav_core::scalar::{F32, I16, U16, U32};
use nav_core::write::{check_stored, narrow};
use nav_core::{ByteWriter, Error, RawF32, Result};
use zerocopy::{Immutable, IntoBytes};

use super::model::NavmeshGeometry;
use super::view::{
    CoverMappingRecord, CoverRecord, CoverTrianglesView, DoorTriangleRecord, EdgeLink12Record,
    EdgeLink15Record, EdgeLinksView, GridHeaderRecord, HeaderRecord, NavmeshGeometryView,
    Triangle12Record, Triangle15Record, TrianglesView, VertexRecord, WaypointRecord,
};
use super::{FORMAT, Layout, Parent};

fn count(w: &mut ByteWriter, field: impl core::fmt::Display, n: usize) -> Result<()> {
    w.u32(fits(field, n)?);
    Ok(())
}

/// A list's length as its stored `u32` count, or the refusal that names the list.
fn fits(field: impl core::fmt::Display, n: usize) -> Result<u32> {
    narrow::<u32, usize>(FORMAT, format_args!("{field} count"), n)
}

/// Writes a view back, record for record; gives the parsed bytes back exactly.
pub fn write_view(view: &NavmeshGeometryView<'_>) -> Vec<u8> {
    let mut w = ByteWriter::with_capacity(view.bytes().len());
    // Counts come from slices of the input, so they fit a u32 (they were read from one).
    let n = |len: usize| u32::try_from(len).unwrap_or(u32::MAX);
    w.put(view.header());
    w.u32(n(view.vertices().len())).put(view.vertices());
    match view.triangles() {
        TrianglesView::V12(t) => w.u32(n(t.len())).put(t),
        TrianglesView::V15(t) => w.u32(n(t.len())).put(t),
    };
    match view.edge_links() {
        EdgeLinksView::V12(l) => w.u32(n(l.len())).put(l),
        EdgeLinksView::V15(l) => w.u32(n(l.len())).put(l),
    };
    w.u32(n(view.door_triangles().len()))
        .put(view.door_triangles());
    match view.cover_triangles() {
        CoverTrianglesView::V12(c) => {
            w.u32(n(c.len())).put(c);
        }
        CoverTrianglesView::V15(m) => {
            w.u32(n(view.cover_array().len())).put(view.cover_array());
            w.u32(n(m.len())).put(m);
            w.u32(n(view.waypoints().len())).put(view.waypoints());
        }
    }
    w.put(view.grid());
    for cell in view.cells() {
        w.u32(n(cell.len())).put(*cell);
    }
    debug_assert_eq!(w.len(), view.bytes().len());
    w.into_inner()
}

/// The number of bytes [`write`] produces for a model of `layout`.
fn size_of_model(model: &NavmeshGeometry, layout: Layout) -> usize {
    let (tri, link) = match layout {
        Layout::Skyrim => (16, 10),
        Layout::Fallout4 => (21, 11),
    };
    let cells: usize = model
        .grid
        .cells
        .iter()
        .map(|c| 4usize.saturating_add(c.len().saturating_mul(2)))
        .fold(0, usize::saturating_add);
    [
        16,
        4 + 12 * model.vertices.len(),
        4 + tri * model.triangles.len(),
        4 + link * model.edge_links.len(),
        4 + 10 * model.door_triangles.len(),
        if layout == Layout::Fallout4 {
            12 + 8 * model.cover_array.len()
                + 4 * model.cover_mappings.len()
                + 18 * model.waypoints.len()
        } else {
            4 + 2 * model.cover_triangles.len()
        },
        36,
        cells,
    ]
    .into_iter()
    .fold(0, usize::saturating_add)
}

/// Refuses a model whose lists do not fit the layout of its version.
fn check_layout(model: &NavmeshGeometry) -> Result<Layout> {
    let bad = |field: String, message: &str| Err(Error::unrepresentable(FORMAT, field, message));
    let Some(layout) = model.layout() else {
        return bad(
            "version".into(),
            &format!(
                "version {} has no known layout (12 Skyrim, 15 Fallout 4)",
                model.version
            ),
        );
    };
    if let Parent::Worldspace { worldspace: 0, .. } = model.parent {
        return bad(
            "parent".into(),
            "a worldspace parent needs a non-zero worldspace FormID (0 means an interior cell)",
        );
    }
    let fo4 = layout == Layout::Fallout4;
    for (i, t) in model.triangles.iter().enumerate() {
        if t.extra.is_some() != fo4 {
            return bad(
                format!("triangles[{i}] extra"),
                if fo4 {
                    "a version-15 triangle needs its height and unknown byte"
                } else {
                    "a version-12 triangle has no height or unknown byte"
                },
            );
        }
    }
    for (i, l) in model.edge_links.iter().enumerate() {
        if l.edge_index.is_some() != fo4 {
            return bad(
                format!("edge_links[{i}] edge_index"),
                if fo4 {
                    "a version-15 edge link needs its edge index"
                } else {
                    "a version-12 edge link has no edge index"
                },
            );
        }
    }
    if fo4 && !model.cover_triangles.is_empty() {
        return bad(
            "cover_triangles".into(),
            "version 15 stores cover-triangle mappings, not a cover-triangle list",
        );
    }
    if !fo4 {
        for (field, len) in [
            ("cover_array", model.cover_array.len()),
            ("cover_mappings", model.cover_mappings.len()),
            ("waypoints", model.waypoints.len()),
        ] {
            if len != 0 {
                return bad(field.into(), "version 12 has no place for this list");
            }
        }
    }
    let divisor = u64::from(model.grid.divisor);
    check_stored(
        FORMAT,
        "grid divisor² (cells)",
        divisor * divisor,
        model.grid.cells.len() as u64,
    )?;
    Ok(layout)
}

/// Appends a counted list as whole records: the `u32` count, then one copy of each record's
/// bytes into room made for all of them at once (no per-field pushes, no growth checks).
fn records<T, R: IntoBytes + Immutable>(
    w: &mut ByteWriter,
    field: impl core::fmt::Display,
    list: &[T],
    record: impl Fn(&T) -> R,
) -> Result<()> {
    count(w, field, list.len())?;
    let size = size_of::<R>();
    let start = w.len();
    w.fill(0, size.saturating_mul(list.len()));
    let room = w.as_mut_slice().get_mut(start..).unwrap_or_default();
    for (out, item) in room.chunks_exact_mut(size).zip(list) {
        out.copy_from_slice(record(item).as_bytes());
    }
    Ok(())
}

/// Every list's count fits its `u32`, or the refusal [`count`] would give while writing.
fn check_counts(model: &NavmeshGeometry) -> Result<()> {
    let lists = [
        ("vertices", model.vertices.len()),
        ("triangles", model.triangles.len()),
        ("edge links", model.edge_links.len()),
        ("door triangles", model.door_triangles.len()),
        ("cover array", model.cover_array.len()),
        ("cover mappings", model.cover_mappings.len()),
        ("waypoints", model.waypoints.len()),
        ("cover triangles", model.cover_triangles.len()),
    ];
    // Checked without a buffer: a model has a grid cell list per cell, hundreds of them.
    for (field, n) in lists {
        fits(field, n)?;
    }
    for (k, cell) in model.grid.cells.iter().enumerate() {
        fits(format_args!("grid cells[{k}]"), cell.len())?;
    }
    Ok(())
}

/// A writer's error as the streaming writers carry it: a refusal, or the destination's error.
pub(crate) fn from_io(e: std::io::Error) -> Error {
    match nav_core::error::refused(&e) {
        Some(refusal) => refusal.clone(),
        None => Error::unrepresentable(FORMAT, "output", e),
    }
}

/// Writes a model. Refuses what the format cannot hold (see the module docs).
///
/// Each list goes out as whole records: a model record becomes the view's record (whose memory
/// is its file bytes) and is copied in one piece into a buffer of the exact size.
pub fn write(model: &NavmeshGeometry) -> Result<Vec<u8>> {
    let layout = check_layout(model)?;
    let mut w = ByteWriter::with_capacity(size_of_model(model, layout));
    // Everything stays in `w`: no section is handed on.
    encode(model, layout, &mut w, &mut |_| Ok(())).map_err(from_io)?;
    Ok(w.into_inner())
}

/// Streams a model to `out`, list by list through one buffer the size of the largest list:
/// every refusal comes before the first byte.
pub fn write_to(model: &NavmeshGeometry, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let layout = check_layout(model).map_err(nav_core::error::refusal)?;
    check_counts(model).map_err(nav_core::error::refusal)?;
    let mut w = ByteWriter::new();
    let mut hand_on = |w: &mut ByteWriter| -> std::io::Result<()> {
        let mut buf = core::mem::replace(w, ByteWriter::new()).into_inner();
        out.write_all(&buf)?;
        buf.clear();
        *w = ByteWriter::from_vec(buf);
        Ok(())
    };
    encode(model, layout, &mut w, &mut hand_on)?;
    hand_on(&mut w)
}

/// Encodes a model into `w`, calling `section` after each list (to hand the bytes on).
fn encode(
    model: &NavmeshGeometry,
    layout: Layout,
    w: &mut ByteWriter,
    section: &mut dyn FnMut(&mut ByteWriter) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let fo4 = layout == Layout::Fallout4;
    let refused = nav_core::error::refusal;
    let (worldspace, parent) = match model.parent {
        Parent::Cell { cell } => (0, cell.to_le_bytes()),
        Parent::Worldspace {
            worldspace,
            grid_x,
            grid_y,
        } => {
            let [a, b] = grid_y.to_le_bytes();
            let [c, d] = grid_x.to_le_bytes();
            (worldspace, [a, b, c, d])
        }
    };
    w.put(&HeaderRecord {
        version: U32::new(model.version),
        pathing_cell_crc: U32::new(model.pathing_cell_crc),
        worldspace: U32::new(worldspace),
        parent,
    });
    records(w, "vertices", &model.vertices, |v| VertexRecord {
        position: v.map(F32::from),
    })
    .map_err(refused)?;
    section(w)?;
    if fo4 {
        records(w, "triangles", &model.triangles, |t| {
            // `check_layout` made sure every version-15 triangle has its extra fields.
            let (height, unknown) = t.extra.map_or((RawF32::ZERO, 0), |e| (e.height, e.unknown));
            Triangle15Record {
                vertices: t.vertices.map(U16::new),
                edges: t.edges.map(I16::new),
                height: height.into(),
                unknown,
                flags: U16::new(t.flags),
                cover_flags: U16::new(t.cover_flags),
            }
        })
        .map_err(refused)?;
        section(w)?;
        records(w, "edge links", &model.edge_links, |l| {
            EdgeLink15Record {
                link_type: U32::new(l.link_type),
                navmesh: U32::new(l.navmesh),
                triangle: I16::new(l.triangle),
                // `check_layout` made sure every version-15 edge link has its edge index.
                edge_index: l.edge_index.unwrap_or_default(),
            }
        })
        .map_err(refused)?;
        section(w)?;
    } else {
        records(w, "triangles", &model.triangles, |t| Triangle12Record {
            vertices: t.vertices.map(U16::new),
            edges: t.edges.map(I16::new),
            flags: U16::new(t.flags),
            cover_flags: U16::new(t.cover_flags),
        })
        .map_err(refused)?;
        section(w)?;
        records(w, "edge links", &model.edge_links, |l| EdgeLink12Record {
            link_type: U32::new(l.link_type),
            navmesh: U32::new(l.navmesh),
            triangle: I16::new(l.triangle),
        })
        .map_err(refused)?;
        section(w)?;
    }
    records(w, "door triangles", &model.door_triangles, |d| {
        DoorTriangleRecord {
            triangle: I16::new(d.triangle),
            door_type: U32::new(d.door_type),
            door: U32::new(d.door),
        }
    })
    .map_err(refused)?;
    section(w)?;
    if fo4 {
        records(w, "cover array", &model.cover_array, |c| CoverRecord {
            vertices: c.vertices.map(U16::new),
            data: c.data,
        })
        .map_err(refused)?;
        section(w)?;
        records(w, "cover mappings", &model.cover_mappings, |m| {
            CoverMappingRecord {
                triangle_edge: U16::new(m.triangle_edge),
                cover: U16::new(m.cover),
            }
        })
        .map_err(refused)?;
        section(w)?;
        records(w, "waypoints", &model.waypoints, |p| WaypointRecord {
            position: p.position.map(F32::from),
            triangle: I16::new(p.triangle),
            flags: U32::new(p.flags),
        })
        .map_err(refused)?;
        section(w)?;
    } else {
        records(w, "cover triangles", &model.cover_triangles, |c| {
            I16::new(*c)
        })
        .map_err(refused)?;
        section(w)?;
    }
    let g = &model.grid;
    w.put(&GridHeaderRecord {
        divisor: U32::new(g.divisor),
        cell_size: g.cell_size.map(F32::from),
        min: g.min.map(F32::from),
        max: g.max.map(F32::from),
    });
    for (k, cell) in g.cells.iter().enumerate() {
        records(w, format_args!("grid cells[{k}]"), cell, |t| I16::new(*t)).map_err(refused)?;
        section(w)?;
    }
    Ok(())
}
