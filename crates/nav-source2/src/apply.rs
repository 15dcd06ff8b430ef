//! Geometry edited in a 3D tool put back onto a Source 2 `.nav` file ([`apply`], behind
//! [`nav_core::Format::apply`] and `navkit apply`).
//!
//! - A moved vertex moves a corner of the shared pool (v31+: every area whose polygon uses it
//!   moves with it) or one area's own corner (v30); a coordinate the edit left within the
//!   matcher's tolerance keeps its stored bits.
//! - A deleted face deletes its area; from v31 its pool polygon goes too when no other area
//!   uses it (the later areas' polygon indices follow), while its corners stay in the pool.
//!   [`crate::fix()`] then drops the connections and ladder fields that named the area.
//! - An added face becomes a new area with the next free id, no connections (one empty list per
//!   edge) and hull 0; from v31 it gets a new pool polygon over the pool corners it shares and
//!   new corners for the rest (with a straight-down gravity where the pool stores gravity).
//! - An attribute change sets the area's `attribute_flags` (its 64 bits as stored).
//!
//! CS2's bot analysis (the custom data's `arealist`) has one entry per area, by position, kept
//! as the game's bytes: after an area is added or deleted it no longer lines up, which a change
//! line says and `validate` warns of; the map has to be analysed again in the game.

use std::collections::{BTreeSet, HashMap};

use nav_core::edit::{AddedFace, Corner, MeshEdit, show_point};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::{Error, RawF32, Result};

use crate::FORMAT;
use crate::geometry::ATTRIBUTE_FLAGS;
use crate::layout::NO_MOVABLE_MESH;
use crate::model::{Area, Polygon, Source2Mesh, Vec3};

fn refuse(message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, "apply", message)
}

/// The most corners a polygon may have (its corner count is stored in a byte).
const MAX_CORNERS: usize = 255;

/// Puts `edit` (matched against `original`, the [`crate::geometry()`] of `mesh`) onto `mesh`
/// and returns one line per change, areas named by id (`corners[40]: moved to (1, 2, 3)`,
/// `areas[id 7]: deleted`), followed by the lines of [`crate::fix()`]. On an error `mesh` may
/// be partly edited: callers go through [`nav_core::edit::apply_mesh`], which edits a copy.
pub fn apply(mesh: &mut Source2Mesh, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    let pool = mesh.version >= 31;
    let expected = if pool {
        VertexIdentity::Shared
    } else {
        VertexIdentity::Corners
    };
    if original.vertex_identity != expected {
        return Err(refuse(
            if original.vertex_identity == VertexIdentity::Unknown {
                "the corner pool holds a corner that is not a finite point, so the mesh's vertices \
             cannot stand for it: fix that corner in the JSON first"
            } else {
                "the geometry the edit was matched against is not this mesh's"
            },
        ));
    }
    let tol = nav_core::edit::MatchOptions::default().tolerance(original);
    let mut lines = Vec::new();
    if pool {
        move_pool_corners(mesh, edit, tol, &mut lines)?;
    } else {
        move_own_corners(mesh, original, edit, tol, &mut lines)?;
    }
    for change in &edit.attributes {
        if original
            .attributes
            .get(change.attribute as usize)
            .map(String::as_str)
            != Some(ATTRIBUTE_FLAGS)
        {
            return Err(refuse(format_args!(
                "attribute {} is not one an area has",
                change.attribute
            )));
        }
        let area = area_mut(mesh, original, change.polygon)?;
        let now = u64::from_ne_bytes(change.value.to_ne_bytes());
        let was = core::mem::replace(&mut area.attribute_flags, now);
        lines.push(format!(
            "areas[id {}].attribute_flags: set to {now:#x} (was {was:#x})",
            area.id
        ));
    }
    add_areas(mesh, original, edit, &mut lines)?;
    delete_areas(mesh, original, edit, &mut lines)?;
    if mesh.custom_data.is_some() && !(edit.added.is_empty() && edit.deleted.is_empty()) {
        lines.push(
            "custom_data: the arealist (the game's bot analysis, one entry per area) no longer \
             lines up with the areas; analyse the map again in the game"
                .to_string(),
        );
    }
    lines.extend(crate::fix(mesh));
    Ok(lines)
}

/// Sets `corner` to `to`, keeping the stored bits of every coordinate `to` leaves within `tol`;
/// returns where the corner is now.
fn move_corner(corner: &mut Vec3, to: [f32; 3], tol: f32) -> [f32; 3] {
    for (c, t) in corner.iter_mut().zip(to) {
        if (c.get() - t).abs() > tol {
            *c = RawF32::new(t);
        }
    }
    corner.map(RawF32::get)
}

/// The area index of polygon `p` of the original geometry.
fn area_index(original: &Geometry, p: u32) -> Result<usize> {
    original
        .polygons
        .get(p as usize)
        .and_then(|poly| poly.record)
        .map(|r| r.index as usize)
        .ok_or_else(|| refuse(format_args!("polygon {p} names no area")))
}

fn area_mut<'m>(mesh: &'m mut Source2Mesh, original: &Geometry, p: u32) -> Result<&'m mut Area> {
    let a = area_index(original, p)?;
    mesh.areas
        .get_mut(a)
        .ok_or_else(|| refuse(format_args!("area {a} does not exist")))
}

/// v31+: vertex `i` is pool corner `i`.
fn move_pool_corners(
    mesh: &mut Source2Mesh,
    edit: &MeshEdit,
    tol: f32,
    lines: &mut Vec<String>,
) -> Result<()> {
    for (v, to) in &edit.moved {
        let corner = mesh
            .corners
            .get_mut(*v as usize)
            .ok_or_else(|| refuse(format_args!("vertex {v} is past the corner pool")))?;
        let at = move_corner(corner, *to, tol);
        lines.push(format!("corners[{v}]: moved to {}", show_point(at)));
    }
    Ok(())
}

/// v30: each polygon's vertices are its area's own corners, in order.
fn move_own_corners(
    mesh: &mut Source2Mesh,
    original: &Geometry,
    edit: &MeshEdit,
    tol: f32,
    lines: &mut Vec<String>,
) -> Result<()> {
    // Vertex to (polygon, corner): each vertex is one corner of one polygon.
    let owner = original.corner_owners();
    for (v, to) in &edit.moved {
        let Some(&(p, k)) = owner.get(v) else {
            return Err(refuse(format_args!("vertex {v} is no area's corner")));
        };
        let area = area_mut(mesh, original, p)?;
        let id = area.id;
        let corner = area
            .corners
            .get_mut(k)
            .ok_or_else(|| refuse(format_args!("areas[id {id}] has no corner {k}")))?;
        let at = move_corner(corner, *to, tol);
        lines.push(format!(
            "areas[id {id}].corners[{k}]: moved to {}",
            show_point(at)
        ));
    }
    Ok(())
}

/// Appends an area for every added face (and, from v31, its pool polygon and new corners).
fn add_areas(
    mesh: &mut Source2Mesh,
    original: &Geometry,
    edit: &MeshEdit,
    lines: &mut Vec<String>,
) -> Result<()> {
    let mut next_id = mesh
        .areas
        .iter()
        .map(|a| a.id)
        .max()
        .unwrap_or(0)
        .checked_add(1);
    // Pool index of each new vertex, once it has one.
    let mut pooled: HashMap<u32, u32> = HashMap::new();
    let flags = original
        .attributes
        .iter()
        .position(|n| n == ATTRIBUTE_FLAGS);
    for face in &edit.added {
        let id = next_id.ok_or_else(|| refuse("no area id is left for a new area"))?;
        let n = face.corners.len();
        if !(3..=MAX_CORNERS).contains(&n) {
            return Err(refuse(format_args!(
                "faces[{}] has {n} corners; an area has 3 to {MAX_CORNERS}: split it",
                face.face
            )));
        }
        let mut area = Area {
            id,
            attribute_flags: flags
                .and_then(|a| face.attributes.get(a).copied().flatten())
                .map_or(0, |v| u64::from_ne_bytes(v.to_ne_bytes())),
            connections: (0..n).map(|_| Default::default()).collect(),
            ..Area::default()
        };
        let what = if mesh.version >= 31 {
            area.polygon = new_polygon(mesh, edit, face, &mut pooled)?;
            format!("pool polygon {}", area.polygon)
        } else {
            area.corners = face.positions.iter().map(|p| p.map(RawF32::new)).collect();
            "its own corners".to_string()
        };
        let corners: Vec<String> = face.positions.iter().map(|p| show_point(*p)).collect();
        lines.push(format!(
            "areas[id {id}]: added from faces[{}], {what}, corners {}",
            face.face,
            corners.join(" ")
        ));
        mesh.areas.push(area);
        next_id = id.checked_add(1);
    }
    Ok(())
}

/// A new pool polygon for `face`: its original vertices are the pool corners they are, its new
/// vertices new corners (each once, however many faces share it). Returns the polygon's index.
fn new_polygon(
    mesh: &mut Source2Mesh,
    edit: &MeshEdit,
    face: &AddedFace,
    pooled: &mut HashMap<u32, u32>,
) -> Result<u32> {
    let full = || refuse("the corner pool or the polygon list is full");
    let mut corners = Vec::with_capacity(face.corners.len());
    for corner in &face.corners {
        let index = match corner {
            Corner::Vertex(v) => *v,
            Corner::New(j) => match pooled.get(j) {
                Some(i) => *i,
                None => {
                    let p = edit.new_vertices.get(*j as usize).ok_or_else(|| {
                        refuse(format_args!("faces[{}] names no new vertex {j}", face.face))
                    })?;
                    let i = u32::try_from(mesh.corners.len()).map_err(|_| full())?;
                    mesh.corners.push(p.map(RawF32::new));
                    if mesh.corner_gravity_flags & 1 != 0 {
                        mesh.corner_gravity.push([0.0, 0.0, -1.0].map(RawF32::new));
                    }
                    pooled.insert(*j, i);
                    i
                }
            },
        };
        corners.push(index);
    }
    let index = u32::try_from(mesh.polygons.len()).map_err(|_| full())?;
    mesh.polygons.push(Polygon {
        corners: corners.into(),
        movable_mesh_id: NO_MOVABLE_MESH,
    });
    Ok(index)
}

/// Deletes the areas of [`MeshEdit::deleted`] and, from v31, the pool polygons no area uses any
/// more (renumbering the areas' polygon indices after them).
fn delete_areas(
    mesh: &mut Source2Mesh,
    original: &Geometry,
    edit: &MeshEdit,
    lines: &mut Vec<String>,
) -> Result<()> {
    if edit.deleted.is_empty() {
        return Ok(());
    }
    let mut gone = BTreeSet::new();
    for p in &edit.deleted {
        gone.insert(area_index(original, *p)?);
    }
    let mut freed: BTreeSet<u32> = BTreeSet::new();
    for a in &gone {
        if let Some(area) = mesh.areas.get(*a) {
            lines.push(format!("areas[id {}]: deleted", area.id));
            if mesh.version >= 31 {
                freed.insert(area.polygon);
            }
        }
    }
    let mut i = 0;
    mesh.areas.retain(|_| {
        i += 1;
        !gone.contains(&(i - 1))
    });
    // A polygon another area still uses, or one past the list, stays.
    for area in &mesh.areas {
        freed.remove(&area.polygon);
    }
    freed.retain(|p| (*p as usize) < mesh.polygons.len());
    if freed.is_empty() {
        return Ok(());
    }
    let mut k = 0u32;
    mesh.polygons.retain(|_| {
        k += 1;
        !freed.contains(&(k - 1))
    });
    for area in &mut mesh.areas {
        let before = u32::try_from(freed.range(..area.polygon).count()).unwrap_or(u32::MAX);
        area.polygon = area.polygon.saturating_sub(before);
    }
    for p in &freed {
        lines.push(format!(
            "polygons[{p}]: removed, no area uses it any more (the later areas' polygon indices \
             follow)"
        ));
    }
    Ok(())
}
