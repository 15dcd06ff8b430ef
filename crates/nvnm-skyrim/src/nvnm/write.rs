//! The `NVNM` writer: from the view (record for record) and from the model.
//!
//! The blob has no offsets: every array is a `u32` count and its records, so the writer emits
//! the parts in order. Counts come from the lengths of the model's lists; the one stored count,
//! the grid divisor, must agree with the number of cell lists. A model that mixes the layouts of
//! versions 12 and 15, or names a version without a layout, is refused.

use nav_core::write::{check_stored, narrow};
use nav_core::{ByteWriter, Error, Result};

use super::model::NavmeshGeometry;
use super::view::{CoverTrianglesView, EdgeLinksView, NavmeshGeometryView, TrianglesView};
use super::{FORMAT, Layout, Parent};

fn count(w: &mut ByteWriter, field: impl core::fmt::Display, n: usize) -> Result<()> {
    w.u32(narrow::<u32, usize>(
        FORMAT,
        format_args!("{field} count"),
        n,
    )?);
    Ok(())
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
fn size_of(model: &NavmeshGeometry, layout: Layout) -> usize {
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

/// Writes a model. Refuses what the format cannot hold (see the module docs).
pub fn write(model: &NavmeshGeometry) -> Result<Vec<u8>> {
    let layout = check_layout(model)?;
    let fo4 = layout == Layout::Fallout4;
    let expected = size_of(model, layout);
    let mut w = ByteWriter::with_capacity(expected);
    w.u32(model.version).u32(model.pathing_cell_crc);
    match model.parent {
        Parent::Cell { cell } => w.u32(0).u32(cell),
        Parent::Worldspace {
            worldspace,
            grid_x,
            grid_y,
        } => w.u32(worldspace).i16(grid_y).i16(grid_x),
    };
    count(&mut w, "vertices", model.vertices.len())?;
    for v in &model.vertices {
        w.f32(v[0]).f32(v[1]).f32(v[2]);
    }
    count(&mut w, "triangles", model.triangles.len())?;
    for t in &model.triangles {
        for v in t.vertices {
            w.u16(v);
        }
        for e in t.edges {
            w.i16(e);
        }
        if let Some(extra) = t.extra {
            w.f32(extra.height).u8(extra.unknown);
        }
        w.u16(t.flags).u16(t.cover_flags);
    }
    count(&mut w, "edge links", model.edge_links.len())?;
    for l in &model.edge_links {
        w.u32(l.link_type).u32(l.navmesh).i16(l.triangle);
        if let Some(e) = l.edge_index {
            w.u8(e);
        }
    }
    count(&mut w, "door triangles", model.door_triangles.len())?;
    for d in &model.door_triangles {
        w.i16(d.triangle).u32(d.door_type).u32(d.door);
    }
    if fo4 {
        count(&mut w, "cover array", model.cover_array.len())?;
        for c in &model.cover_array {
            w.u16(c.vertices[0]).u16(c.vertices[1]).bytes(&c.data);
        }
        count(&mut w, "cover mappings", model.cover_mappings.len())?;
        for m in &model.cover_mappings {
            w.u16(m.triangle_edge).u16(m.cover);
        }
        count(&mut w, "waypoints", model.waypoints.len())?;
        for p in &model.waypoints {
            w.f32(p.position[0]).f32(p.position[1]).f32(p.position[2]);
            w.i16(p.triangle).u32(p.flags);
        }
    } else {
        count(&mut w, "cover triangles", model.cover_triangles.len())?;
        for c in &model.cover_triangles {
            w.i16(*c);
        }
    }
    let g = &model.grid;
    w.u32(g.divisor);
    w.f32(g.cell_size[0]).f32(g.cell_size[1]);
    for v in g.min.iter().chain(&g.max) {
        w.f32(*v);
    }
    for (k, cell) in g.cells.iter().enumerate() {
        count(&mut w, format_args!("grid cells[{k}]"), cell.len())?;
        for t in cell {
            w.i16(*t);
        }
    }
    debug_assert_eq!(w.len(), expected);
    Ok(w.into_inner())
}
