//! A mesh edit put onto an `NVNM` ([`nav_core::Format::apply`]), everything else kept.
//!
//! The geometry ([`crate::geometry::geometry`]) shares the file's vertices 1:1 and names each
//! triangle by its index, so the edit maps straight onto the model:
//!
//! - a **moved vertex** gets the new coordinates; nothing else of it exists to change;
//! - an **attribute change** sets the triangle's `flags` or `cover_flags` (refused past `u16`);
//! - an **added face** becomes new triangles at the end of the list (an n-gon is fanned from
//!   its first corner), naming the file's vertex where a corner is one and new vertices at the
//!   end of the list elsewhere, with the builder's defaults: flags `0x0800` (*Found*) unless the
//!   mesh carries flags, cover 0, version-15 height 0; turned counter-clockwise seen from above
//!   where the tool wound it the other way. Each new edge gets as neighbour the one triangle
//!   that runs the same two vertices the other way and has no neighbour there yet (and that
//!   triangle gets it back);
//! - the **grid**: triangles that are new or have a moved corner are placed again in the cells
//!   they overlap (the builder's rule, [`crate::build::fill_cells`]); where a vertex now lies
//!   outside the grid's bounds, the grid is laid out again over the new bounds;
//! - a **deleted polygon** deletes its triangle; then [`super::fix::fix`] drops what referred to
//!   it (door and cover triangles, waypoints, grid entries) and renumbers every later
//!   triangle. Edge links of *other* navmeshes that named it are not in this file.

use std::collections::{BTreeSet, HashMap};

use nav_core::edit::{Corner, MeshEdit, show_point};
use nav_core::geometry::Geometry;
use nav_core::{Error, RawF32, Result};

use super::model::{NavmeshGeometry, Triangle, TriangleExtra};
use super::{FORMAT, triangle_flags};
use crate::build::{fill_cells, lay_out_grid};

fn refuse(context: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, context, message)
}

/// Puts `edit`, matched against `original` (this model's geometry), onto `m`; one line per
/// change (see the module docs).
pub fn apply(m: &mut NavmeshGeometry, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let count = m.triangles.len();
    let triangle_of = |p: u32| -> Result<usize> {
        original
            .polygons
            .get(p as usize)
            .and_then(|q| q.record)
            .and_then(|r| usize::try_from(r.index).ok())
            .filter(|t| *t < count)
            .ok_or_else(|| refuse("apply", format_args!("polygon {p} names no triangle")))
    };
    let mut touched: BTreeSet<usize> = BTreeSet::new();
    for &(v, to) in &edit.moved {
        let Some(slot) = m.vertices.get_mut(v as usize) else {
            return Err(refuse(
                "apply",
                format_args!("vertex {v} is not in the file"),
            ));
        };
        let from = slot.map(|c| c.get());
        *slot = to.map(RawF32::new);
        out.push(format!(
            "vertices[{v}]: moved to {} (was {})",
            show_point(to),
            show_point(from)
        ));
    }
    let moved: BTreeSet<u16> = edit
        .moved
        .iter()
        .filter_map(|(v, _)| u16::try_from(*v).ok())
        .collect();
    for (t, tri) in m.triangles.iter().enumerate() {
        if tri.vertices.iter().any(|v| moved.contains(v)) {
            touched.insert(t);
        }
    }
    for change in &edit.attributes {
        let t = triangle_of(change.polygon)?;
        let name = original
            .attributes
            .get(change.attribute as usize)
            .map_or("?", String::as_str);
        let value = u16::try_from(change.value).map_err(|_| {
            refuse(
                format_args!("triangles[{t}].{name}"),
                format_args!("{} does not fit 16 bits", change.value),
            )
        })?;
        let Some(tri) = m.triangles.get_mut(t) else {
            continue;
        };
        let field = match name {
            "flags" => &mut tri.flags,
            "cover_flags" => &mut tri.cover_flags,
            _ => continue,
        };
        out.push(format!(
            "triangles[{t}].{name}: {value:#06x} (was {:#06x})",
            *field
        ));
        *field = value;
    }
    let first_new = m.triangles.len();
    add_faces(m, original, edit, &mut out)?;
    touched.extend(first_new..m.triangles.len());
    link_new(m, first_new);
    regrid(m, &touched, &mut out);

    let mut deleted: Vec<usize> = Vec::with_capacity(edit.deleted.len());
    for &p in &edit.deleted {
        deleted.push(triangle_of(p)?);
    }
    if !deleted.is_empty() {
        if m.vertices.len() > usize::from(u16::MAX) {
            return Err(refuse(
                "apply",
                "cannot delete triangles of a navmesh of 65,536 vertices",
            ));
        }
        // A triangle naming a vertex past the list is one fix drops, with every reference.
        for &t in &deleted {
            if let Some(tri) = m.triangles.get_mut(t) {
                tri.vertices = [u16::MAX; 3];
            }
        }
        let dropped = format!("vertex {} is past the", u16::MAX);
        for line in super::fix::fix(m) {
            match line.split_once(": dropped the triangle: ") {
                Some((place, why)) if why.starts_with(&dropped) => {
                    out.push(format!("{place}: deleted"));
                }
                _ => out.push(line),
            }
        }
    }
    Ok(out)
}

/// The added faces as new triangles (and new vertices) at the ends of the lists.
fn add_faces(
    m: &mut NavmeshGeometry,
    original: &Geometry,
    edit: &MeshEdit,
    out: &mut Vec<String>,
) -> Result<()> {
    let first_vertex = m.vertices.len();
    let flags_at = original.attributes.iter().position(|a| a == "flags");
    let cover_at = original.attributes.iter().position(|a| a == "cover_flags");
    for p in &edit.new_vertices {
        m.vertices.push(p.map(RawF32::new));
    }
    if m.vertices.len() > usize::from(u16::MAX) + 1 {
        return Err(refuse(
            "vertices",
            format_args!(
                "{} vertices: triangles name at most 65,536",
                m.vertices.len()
            ),
        ));
    }
    for (i, _) in edit.new_vertices.iter().enumerate() {
        let v = first_vertex + i;
        if let Some(p) = m.vertices.get(v) {
            out.push(format!(
                "vertices[{v}]: added at {}",
                show_point(p.map(|c| c.get()))
            ));
        }
    }
    let value = |face: &nav_core::edit::AddedFace, at: Option<usize>, default: u16| {
        at.and_then(|a| face.attributes.get(a).copied().flatten())
            .map_or(Ok(default), |v| {
                u16::try_from(v).map_err(|_| {
                    refuse(
                        format_args!("faces[{}]", face.face),
                        format_args!("attribute value {v} does not fit 16 bits"),
                    )
                })
            })
    };
    for face in &edit.added {
        let mut corners = Vec::with_capacity(face.corners.len());
        for c in &face.corners {
            let index = match *c {
                Corner::Vertex(v) => v as usize,
                Corner::New(n) => first_vertex + n as usize,
            };
            corners.push(u16::try_from(index).map_err(|_| {
                refuse(
                    format_args!("faces[{}]", face.face),
                    "names a vertex past 65,535",
                )
            })?);
        }
        let flags = value(face, flags_at, triangle_flags::FOUND)?;
        let cover_flags = value(face, cover_at, 0)?;
        let extra = (m.version == 15).then_some(TriangleExtra {
            height: RawF32::ZERO,
            unknown: 0,
        });
        let Some((&first, rest)) = corners.split_first() else {
            continue;
        };
        for pair in rest.windows(2) {
            let (Some(&b), Some(&c)) = (pair.first(), pair.get(1)) else {
                continue;
            };
            let mut vertices = [first, b, c];
            let turned = clockwise(m, vertices);
            if turned {
                vertices.swap(1, 2);
            }
            let t = m.triangles.len();
            if t > usize::from(i16::MAX.unsigned_abs()) {
                return Err(refuse(
                    "triangles",
                    "more than 32,768 triangles: edges name them with 16-bit signed numbers",
                ));
            }
            m.triangles.push(Triangle {
                vertices,
                edges: [-1; 3],
                extra,
                flags: flags & !0x7,
                cover_flags,
            });
            out.push(format!(
                "triangles[{t}]: added from faces[{}], vertices {vertices:?}{}",
                face.face,
                if turned { " (turned to face up)" } else { "" }
            ));
        }
    }
    Ok(())
}

/// Whether a triangle is clockwise seen from above (Z up).
fn clockwise(m: &NavmeshGeometry, t: [u16; 3]) -> bool {
    let p = t.map(|v| {
        m.vertices
            .get(usize::from(v))
            .map_or([0.0; 2], |c| [f64::from(c[0].get()), f64::from(c[1].get())])
    });
    let [a, b, c] = p;
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) < 0.0
}

/// Neighbours of the triangles from `first_new` on: across each edge, the one triangle that
/// runs the same two vertices the other way and has no neighbour there yet.
fn link_new(m: &mut NavmeshGeometry, first_new: usize) {
    if first_new >= m.triangles.len() {
        return;
    }
    let mut open: HashMap<(u16, u16), Vec<(usize, usize)>> = HashMap::new();
    for (t, tri) in m.triangles.iter().enumerate() {
        for k in 0..3 {
            let link = tri.flags & (1 << k) != 0;
            if link || tri.edges.get(k) != Some(&-1) {
                continue;
            }
            let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
            open.entry((a, b)).or_default().push((t, k));
        }
    }
    for t in first_new..m.triangles.len() {
        for k in 0..3 {
            let Some(tri) = m.triangles.get(t) else {
                continue;
            };
            if tri.edges.get(k) != Some(&-1) {
                continue;
            }
            let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
            let Some([(u, j)]) = open.get(&(b, a)).map(Vec::as_slice) else {
                continue;
            };
            let (u, j) = (*u, *j);
            let (Ok(ti), Ok(ui)) = (i16::try_from(t), i16::try_from(u)) else {
                continue;
            };
            if let Some(x) = m.triangles.get_mut(t).and_then(|x| x.edges.get_mut(k)) {
                *x = ui;
            }
            if let Some(x) = m.triangles.get_mut(u).and_then(|x| x.edges.get_mut(j)) {
                *x = ti;
            }
            open.remove(&(b, a));
        }
    }
}

/// Places the `touched` triangles in the grid again, or lays the grid out again when a vertex
/// lies outside its bounds.
fn regrid(m: &mut NavmeshGeometry, touched: &BTreeSet<usize>, out: &mut Vec<String>) {
    if touched.is_empty() {
        return;
    }
    let (min, max) = (m.grid.min.map(|c| c.get()), m.grid.max.map(|c| c.get()));
    let outside = m.vertices.iter().any(|v| {
        (0..3).any(|a| {
            let x = v[a].get();
            !(x >= min[a] && x <= max[a])
        })
    });
    if outside {
        let divisor = u8::try_from(m.grid.divisor)
            .ok()
            .filter(|d| (1..=12).contains(d))
            .unwrap_or_else(|| crate::build::divisor_for(m.triangles.len()));
        lay_out_grid(m, divisor);
        out.push(format!(
            "grid: laid out again over the new bounds (divisor {divisor}): a vertex lies outside \
             the old ones"
        ));
        return;
    }
    let mut fresh = m.clone();
    fill_cells(&mut fresh);
    if fresh.grid.cells.len() != m.grid.cells.len() {
        return; // a grid fill_cells does not lay out (divisor over 12) is left as it is
    }
    let is_touched = |t: &i16| usize::try_from(*t).is_ok_and(|t| touched.contains(&t));
    let mut changed = 0usize;
    for (cell, new) in m.grid.cells.iter_mut().zip(&fresh.grid.cells) {
        let mut list: Vec<i16> = cell.iter().copied().filter(|t| !is_touched(t)).collect();
        list.extend(new.iter().copied().filter(is_touched));
        list.sort_unstable();
        list.dedup();
        if *cell != list {
            changed += 1;
            *cell = list;
        }
    }
    if changed > 0 {
        out.push(format!(
            "grid: {} edited triangles placed again ({changed} cells changed)",
            touched.len()
        ));
    }
}
