//! Geometry edited in a 3D tool put back onto a `.nav` file ([`apply`], behind
//! [`nav_core::Format::apply`] and `navkit apply`).
//!
//! A Source area is an axis-aligned rectangle: two stored corners (north-west and south-east,
//! each with its height) and the heights of the other two. So:
//!
//! - a moved corner sets the area's fields it is made of; every corner may move up and down,
//!   but its x and y must still make a rectangle with the other corners (move a whole side, not
//!   one corner of it), else the edit is refused naming the area;
//! - a deleted face deletes its area, and [`crate::fix()`] then drops what named it
//!   (connections, ladders' area fields, encounter paths, approach areas);
//! - an added face must be four corners making an axis-aligned rectangle; it becomes a new area
//!   with the next free id and the defaults of the file's layout;
//! - an attribute change sets `attribute_flags` (within the version's width) or the flavour's
//!   word (`tf_attributes`, `spawn_attributes`).
//!
//! Left 4 Dead files from sub-version 14 name visible areas by their position in the area list
//! (`custom.Terror.visible_areas[*].area_index`). Deleting areas there renumbers every entry:
//! an entry naming a deleted area is dropped (one line each), later ones shift down to the
//! area's new position (one line in all), so every entry left names the same area as before.
//! An entry already past the areas is left for [`crate::fix()`] to drop.

use std::collections::{BTreeSet, HashMap};

use nav_core::edit::{AddedFace, MatchOptions, MeshEdit, show_point};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::{Error, RawF32, Result};

use crate::FORMAT;
use crate::geometry::{attribute_names, corners};
use crate::model::{Area, AreaCustom, SourceMesh};

/// The corner names in geometry order (Valve's `NavCornerType`).
const CORNERS: [&str; 4] = ["NW", "NE", "SE", "SW"];

fn refuse(message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, "apply", message)
}

/// Puts `edit` (matched against `original`, the [`crate::geometry()`] of `mesh`) onto `mesh`
/// and returns one line per change, areas named by id (`areas[id 12]: corner NE moved to (1,
/// 2, 3)`), followed by the lines of [`crate::fix()`]. On an error `mesh` may be partly edited:
/// callers go through [`nav_core::edit::apply_mesh`], which edits a copy.
pub fn apply(mesh: &mut SourceMesh, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    if original.vertex_identity != VertexIdentity::Corners
        || original.polygons.len() != mesh.areas.len()
    {
        return Err(refuse(
            "the geometry the edit was matched against is not this mesh's",
        ));
    }
    let tol = nav_core::edit::MatchOptions::default();
    let mut lines = Vec::new();
    move_corners(mesh, original, edit, tol, &mut lines)?;
    set_attributes(mesh, original, edit, &mut lines)?;
    let mut next_id = mesh
        .areas
        .iter()
        .map(|a| a.id)
        .max()
        .unwrap_or(0)
        .checked_add(1);
    for face in &edit.added {
        let id = next_id.ok_or_else(|| refuse("no area id is left for a new area"))?;
        let area = added_area(mesh, face, id, tol)?;
        lines.push(format!(
            "areas[id {id}]: added from faces[{}], NW {} to SE {}",
            face.face,
            show_point(area.nw_corner.map(RawF32::get)),
            show_point(area.se_corner.map(RawF32::get)),
        ));
        mesh.areas.push(area);
        next_id = id.checked_add(1);
    }
    delete_areas(mesh, original, edit, &mut lines)?;
    lines.extend(crate::fix(mesh));
    Ok(lines)
}

/// The area index of polygon `p` of the original geometry.
fn area_of(original: &Geometry, p: u32) -> Result<usize> {
    original
        .polygons
        .get(p as usize)
        .and_then(|poly| poly.record)
        .map(|r| r.index as usize)
        .ok_or_else(|| refuse(format_args!("polygon {p} names no area")))
}

/// Moves the corners of [`MeshEdit::moved`], one area at a time, keeping each area a rectangle.
fn move_corners(
    mesh: &mut SourceMesh,
    original: &Geometry,
    edit: &MeshEdit,
    tol: MatchOptions,
    lines: &mut Vec<String>,
) -> Result<()> {
    // Vertex to (polygon, corner): each vertex is one corner of one polygon.
    let owner = original.corner_owners();
    // Per area: its corners' new positions, where moved.
    let mut moved: BTreeSet<usize> = BTreeSet::new();
    let mut by_area: HashMap<usize, [Option<[f32; 3]>; 4]> = HashMap::new();
    for (v, to) in &edit.moved {
        let Some(&(p, k)) = owner.get(v) else {
            return Err(refuse(format_args!("vertex {v} is no area's corner")));
        };
        let a = area_of(original, p)?;
        let slot = by_area
            .entry(a)
            .or_default()
            .get_mut(k)
            .ok_or_else(|| refuse(format_args!("vertex {v} is no area's corner")))?;
        *slot = Some(*to);
        moved.insert(a);
    }
    for a in moved {
        let Some(area) = mesh.areas.get_mut(a) else {
            return Err(refuse(format_args!("area {a} does not exist")));
        };
        let old = corners(area);
        let new = by_area.get(&a).copied().unwrap_or_default();
        let c = rectangle(area.id, &old, &new, tol)?;
        set_corners(area, &c);
        for (k, to) in new.iter().enumerate() {
            if to.is_some() {
                let (name, at) = (CORNERS.get(k).unwrap_or(&"?"), c.get(k).copied());
                lines.push(format!(
                    "areas[id {}]: corner {name} moved to {}",
                    area.id,
                    show_point(at.unwrap_or_default())
                ));
            }
        }
    }
    Ok(())
}

/// The corners of an area after moving some (`new`, `None` where unmoved) from `old`, as a
/// rectangle: a moved coordinate within the matcher's tolerance at the old corner
/// ([`MatchOptions::tolerance_at`]) of the old one keeps the old one (a mesh tool rounds what it
/// did not move), and the sides that must share an x or a y do (within the larger tolerance of
/// their two corners). Refused, naming the area, when they do not or the rectangle turns inside
/// out.
fn rectangle(
    id: u32,
    old: &[[f32; 3]; 4],
    new: &[Option<[f32; 3]>; 4],
    tol: MatchOptions,
) -> Result<[[f32; 3]; 4]> {
    let mut c = *old;
    for ((corner, before), after) in c.iter_mut().zip(old).zip(new) {
        if let Some(after) = after {
            let t = tol.tolerance_at(*before);
            for ((x, b), a) in corner.iter_mut().zip(before).zip(after) {
                *x = if (a - b).abs() <= t { *b } else { *a };
            }
        }
    }
    // (corner, corner, axis) that must agree: NW/SW and NE/SE share x, NW/NE and SE/SW share y.
    for (i, j, axis) in [(0, 3, 0), (1, 2, 0), (0, 1, 1), (2, 3, 1)] {
        let (ci, cj) = (c[i][axis], c[j][axis]);
        if ci.to_bits() == cj.to_bits() {
            continue;
        }
        let t = tol.tolerance_at(old[i]).max(tol.tolerance_at(old[j]));
        if (ci - cj).abs() > t {
            return Err(refuse(format_args!(
                "areas[id {id}]: corners {} and {} no longer share their {} ({ci} and {cj}): a \
                 Source area is an axis-aligned rectangle, so move the whole side (both \
                 corners), or only up and down",
                CORNERS[i],
                CORNERS[j],
                ["x", "y"][axis],
            )));
        }
        // Within the tolerance: the one that did not move wins.
        let keep = if new[j].is_none() { cj } else { ci };
        c[i][axis] = keep;
        c[j][axis] = keep;
    }
    let was_sound = old[0][0] < old[2][0] && old[0][1] < old[2][1];
    if was_sound && !(c[0][0] < c[2][0] && c[0][1] < c[2][1]) {
        return Err(refuse(format_args!(
            "areas[id {id}]: the moved corners turn the area inside out (its north-west corner \
             {} is no longer west and north of its south-east corner {}): move them back, or \
             delete the face and draw a new one",
            show_point(c[0]),
            show_point(c[2])
        )));
    }
    Ok(c)
}

/// Sets the fields of `area` that `c` (NW, NE, SE, SW) changes; unchanged ones keep their bits.
fn set_corners(area: &mut Area, c: &[[f32; 3]; 4]) {
    let set = |field: &mut RawF32, value: f32| {
        if field.get().to_bits() != value.to_bits() {
            *field = RawF32::new(value);
        }
    };
    for (field, value) in area.nw_corner.iter_mut().zip(c[0]) {
        set(field, value);
    }
    for (field, value) in area.se_corner.iter_mut().zip(c[2]) {
        set(field, value);
    }
    set(&mut area.ne_z, c[1][2]);
    set(&mut area.sw_z, c[3][2]);
}

/// Sets the attribute values of [`MeshEdit::attributes`].
fn set_attributes(
    mesh: &mut SourceMesh,
    original: &Geometry,
    edit: &MeshEdit,
    lines: &mut Vec<String>,
) -> Result<()> {
    let width = mesh.layout().attribute_width();
    for change in &edit.attributes {
        let a = area_of(original, change.polygon)?;
        let name = original
            .attributes
            .get(change.attribute as usize)
            .map_or("?", String::as_str);
        let Some(area) = mesh.areas.get_mut(a) else {
            return Err(refuse(format_args!("area {a} does not exist")));
        };
        let (was, now) = set_attribute(area, name, change.value, width)?;
        lines.push(format!(
            "areas[id {}].{name}: set to {now:#x} (was {was:#x})",
            area.id
        ));
    }
    Ok(())
}

/// Sets the flag field `name` of `area` to `value`, which must fit the field (`width` bytes for
/// `attribute_flags`, 4 for the flavour's word); returns the old and new values.
fn set_attribute(area: &mut Area, name: &str, value: i64, width: usize) -> Result<(u32, u32)> {
    let bits = u32::try_from(width.saturating_mul(8)).unwrap_or(32);
    let fits = u32::try_from(value)
        .ok()
        .filter(|v| bits >= 32 || u64::from(*v) < 1u64 << bits);
    let too_wide = || {
        refuse(format_args!(
            "areas[id {}].{name}: {value} does not fit the field's {bits} bits",
            area.id
        ))
    };
    let field = match (name, &mut area.custom) {
        ("attribute_flags", _) => &mut area.attribute_flags,
        ("tf_attributes", AreaCustom::TeamFortress2 { tf_attributes }) => tf_attributes,
        (
            "spawn_attributes",
            AreaCustom::Terror {
                spawn_attributes, ..
            },
        ) => spawn_attributes,
        _ => {
            return Err(refuse(format_args!(
                "areas[id {}] has no attribute {name}",
                area.id
            )));
        }
    };
    let value = fits.ok_or_else(too_wide)?;
    let was = core::mem::replace(field, value);
    Ok((was, value))
}

/// The area an added face makes: its corners must be an axis-aligned rectangle (within the
/// matcher's tolerance at its corner farthest from the origin).
fn added_area(mesh: &SourceMesh, face: &AddedFace, id: u32, tol: MatchOptions) -> Result<Area> {
    let not_a_rectangle = |why: &str| {
        refuse(format_args!(
            "faces[{}] (a new area) {why}: a Source area is an axis-aligned rectangle, so draw \
             new faces as 4-corner rectangles along x and y",
            face.face
        ))
    };
    let [p0, p1, p2, p3] = face.positions.as_slice() else {
        return Err(not_a_rectangle(&format!(
            "has {} corners",
            face.positions.len()
        )));
    };
    let ps = [*p0, *p1, *p2, *p3];
    let tol = ps.iter().fold(0.0f32, |t, p| t.max(tol.tolerance_at(*p)));
    let span = |axis: usize| {
        ps.iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| {
                (l.min(p[axis]), h.max(p[axis]))
            })
    };
    let ((x0, x1), (y0, y1)) = (span(0), span(1));
    if !(x1 - x0 > tol && y1 - y0 > tol) {
        return Err(not_a_rectangle("has no extent along x or y"));
    }
    // Which corner of the rectangle each point is: 0 NW, 1 NE, 2 SE, 3 SW.
    let mut slot: [Option<f32>; 4] = [None; 4];
    for p in &ps {
        let side = |v: f32, lo: f32, hi: f32| {
            if (v - lo).abs() <= tol {
                Some(false)
            } else if (v - hi).abs() <= tol {
                Some(true)
            } else {
                None
            }
        };
        let (Some(east), Some(south)) = (side(p[0], x0, x1), side(p[1], y0, y1)) else {
            return Err(not_a_rectangle(&format!(
                "has corner {} off its bounding rectangle",
                show_point(*p)
            )));
        };
        let k = match (east, south) {
            (false, false) => 0,
            (true, false) => 1,
            (true, true) => 2,
            (false, true) => 3,
        };
        if slot[k].replace(p[2]).is_some() {
            return Err(not_a_rectangle(&format!(
                "has two corners at its {} corner",
                CORNERS[k]
            )));
        }
    }
    let [Some(nw), Some(ne), Some(se), Some(sw)] = slot else {
        return Err(not_a_rectangle("misses a corner"));
    };
    let mut area = new_area(mesh, id);
    area.nw_corner = [x0, y0, nw].map(RawF32::new);
    area.se_corner = [x1, y1, se].map(RawF32::new);
    area.ne_z = RawF32::new(ne);
    area.sw_z = RawF32::new(sw);
    let names = attribute_names(mesh);
    let width = mesh.layout().attribute_width();
    for (name, value) in names.iter().zip(&face.attributes) {
        if let Some(value) = value {
            set_attribute(&mut area, name, *value, width)?;
        }
    }
    Ok(area)
}

/// An area with id `id` and the defaults of the mesh's layout: no flags, connections or spots,
/// full light (the engine's default) where the version stores it, and the flavour's block.
pub fn new_area(mesh: &SourceMesh, id: u32) -> Area {
    let layout = mesh.layout();
    let custom = if layout.has_cs_approach() {
        AreaCustom::CounterStrike {
            approach_areas: Vec::new(),
        }
    } else if layout.has_tf_attributes() {
        AreaCustom::TeamFortress2 { tf_attributes: 0 }
    } else if layout.is_terror() {
        AreaCustom::Terror {
            spawn_attributes: 0,
            legacy_word: layout.has_terror_legacy_word().then_some(0),
            fog_place: 0,
            visible_areas: Vec::new(),
            inherit_visibility_from: 0,
        }
    } else {
        AreaCustom::None
    };
    let light = if layout.has_light_intensity() {
        RawF32::new(1.0)
    } else {
        RawF32::ZERO
    };
    Area {
        id,
        light_intensity: [light; 4],
        custom,
        ..Area::default()
    }
}

/// Deletes the areas of [`MeshEdit::deleted`].
fn delete_areas(
    mesh: &mut SourceMesh,
    original: &Geometry,
    edit: &MeshEdit,
    lines: &mut Vec<String>,
) -> Result<()> {
    if edit.deleted.is_empty() {
        return Ok(());
    }
    let mut gone = BTreeSet::new();
    for p in &edit.deleted {
        gone.insert(area_of(original, *p)?);
    }
    for a in &gone {
        if let Some(area) = mesh.areas.get(*a) {
            lines.push(format!("areas[id {}]: deleted", area.id));
        }
    }
    if mesh.layout().terror_visibility_by_index() {
        renumber_visible_areas(mesh, &gone, lines);
    }
    let mut i = 0;
    mesh.areas.retain(|_| {
        i += 1;
        !gone.contains(&(i - 1))
    });
    Ok(())
}

/// Renumbers the visible-area entries (area positions, sub-version 14 on) of the areas that stay
/// for the deletion of the areas at the positions `gone`: entries naming a deleted area are
/// dropped, later ones shift down. Entries past the areas are kept as they are.
fn renumber_visible_areas(mesh: &mut SourceMesh, gone: &BTreeSet<usize>, lines: &mut Vec<String>) {
    let count = mesh.areas.len();
    // Old position → new position, None for a deleted area.
    let mut new_index: Vec<Option<u32>> = Vec::with_capacity(count);
    let mut next = 0u32;
    for i in 0..count {
        if gone.contains(&i) {
            new_index.push(None);
        } else {
            new_index.push(Some(next));
            next = next.saturating_add(1);
        }
    }
    let ids: Vec<u32> = mesh.areas.iter().map(|a| a.id).collect();
    let mut shifted = 0usize;
    for (i, area) in mesh.areas.iter_mut().enumerate() {
        if gone.contains(&i) {
            continue;
        }
        let AreaCustom::Terror { visible_areas, .. } = &mut area.custom else {
            continue;
        };
        let id = area.id;
        visible_areas.retain_mut(|v| {
            let old = v.area_index;
            match usize::try_from(old).ok().and_then(|o| new_index.get(o)) {
                Some(Some(new)) => {
                    if *new != old {
                        v.area_index = *new;
                        shifted += 1;
                    }
                    true
                }
                Some(None) => {
                    let named = usize::try_from(old).ok().and_then(|o| ids.get(o));
                    lines.push(format!(
                        "areas[id {id}].visible_areas: dropped area index {old} (area id {}, \
                         deleted)",
                        named.map_or_else(|| "?".to_string(), u32::to_string)
                    ));
                    false
                }
                None => true,
            }
        });
    }
    if shifted > 0 {
        lines.push(format!(
            "visible_areas: {shifted} entries naming areas after the deleted ones renumbered to \
             their new positions"
        ));
    }
}
