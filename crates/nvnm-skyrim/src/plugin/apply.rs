//! A mesh edit put onto a plugin ([`nav_core::Format::apply`]): each navmesh's share of it
//! applied to that navmesh's `NVNM` ([`crate::nvnm::apply`]), everything else kept.
//!
//! The plugin's geometry ([`crate::geometry::plugin_geometry`]) is every readable navmesh after
//! one another, each polygon naming its navmesh by [`nav_core::geometry::Record::part`]. The
//! edit is split by navmesh:
//!
//! - a **moved vertex** belongs to the navmesh whose vertex range holds it;
//! - a **deleted polygon** and an **attribute change** to the navmesh of the polygon's record;
//! - an **added face** to the one navmesh all its original corners belong to (a face whose
//!   corners are all new, or span two navmeshes, is refused: nothing says which navmesh it
//!   joins); its new vertices are added to that navmesh.
//!
//! Each navmesh with a share is then edited as an `NVNM` on its own, written, and put back with
//! [`super::PluginFile::replace_nvnm`], which brings its `NVMI` entry up to date as
//! [`nav_core::Format::replace_part`] does. Lines are those of the `NVNM` apply, each prefixed
//! with the navmesh (`navmesh 0410E930: triangles[12]: deleted`). Edge links of other navmeshes
//! to a deleted triangle are not followed (as for one `NVNM`).

use std::collections::{BTreeMap, HashMap};

use nav_core::edit::{AddedFace, AttributeChange, Corner, MeshEdit};
use nav_core::geometry::Geometry;
use nav_core::{Error, Format, Result};

use super::FORMAT;
use super::model::PluginFile;
use crate::nvnm::{NavmeshGeometry, Nvnm};

fn refuse(message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, "apply", message)
}

/// One navmesh of the geometry: its FormID, model, first vertex and vertex count.
struct Mesh {
    form_id: u32,
    model: NavmeshGeometry,
    base: usize,
    len: usize,
}

/// The share of the edit of one navmesh, in the navmesh's own numbering.
#[derive(Default)]
struct Share {
    edit: MeshEdit,
    /// Plugin new vertex → this navmesh's new vertex.
    new_vertices: HashMap<u32, u32>,
}

/// Puts `edit`, matched against `original` (this plugin's geometry), onto `model`; one line per
/// change (see the module docs).
pub fn apply(model: &mut PluginFile, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    let meshes = readable_meshes(model, original)?;
    let part_of_vertex = |v: u32| -> Result<usize> {
        let v = v as usize;
        meshes
            .iter()
            .position(|m| v >= m.base && v < m.base + m.len)
            .ok_or_else(|| refuse(format_args!("vertex {v} is in no navmesh")))
    };
    let record_of = |p: u32| -> Result<(usize, u32)> {
        original
            .polygons
            .get(p as usize)
            .and_then(|q| q.record)
            .and_then(|r| usize::try_from(r.part).ok().map(|part| (part, r.index)))
            .filter(|(part, _)| *part < meshes.len())
            .ok_or_else(|| refuse(format_args!("polygon {p} names no navmesh triangle")))
    };
    let mut shares: BTreeMap<usize, Share> = BTreeMap::new();
    for &(v, to) in &edit.moved {
        let part = part_of_vertex(v)?;
        let local = local_vertex(&meshes, part, v)?;
        shares.entry(part).or_default().edit.moved.push((local, to));
    }
    for &p in &edit.deleted {
        let (part, t) = record_of(p)?;
        shares.entry(part).or_default().edit.deleted.push(t);
    }
    for change in &edit.attributes {
        let (part, t) = record_of(change.polygon)?;
        shares
            .entry(part)
            .or_default()
            .edit
            .attributes
            .push(AttributeChange {
                polygon: t,
                ..*change
            });
    }
    for face in &edit.added {
        let mut parts = face.corners.iter().filter_map(|c| match c {
            Corner::Vertex(v) => Some(part_of_vertex(*v)),
            Corner::New(_) => None,
        });
        let part = match parts.next() {
            Some(first) => first?,
            None => {
                return Err(refuse(format_args!(
                    "faces[{}]: no corner is a vertex of a navmesh, so nothing says which \
                     navmesh it joins; snap one corner onto a vertex of that navmesh",
                    face.face
                )));
            }
        };
        for other in parts {
            if other? != part {
                return Err(refuse(format_args!(
                    "faces[{}]: its corners are vertices of two navmeshes; a triangle belongs \
                     to one (link navmeshes with edge links instead)",
                    face.face
                )));
            }
        }
        let share = shares.entry(part).or_default();
        let mut corners = Vec::with_capacity(face.corners.len());
        for c in &face.corners {
            corners.push(match *c {
                Corner::Vertex(v) => Corner::Vertex(local_vertex(&meshes, part, v)?),
                Corner::New(n) => {
                    let next = u32::try_from(share.new_vertices.len())
                        .map_err(|_| refuse("too many new vertices"))?;
                    let local = *share.new_vertices.entry(n).or_insert(next);
                    if local == next {
                        let Some(p) = edit.new_vertices.get(n as usize) else {
                            return Err(refuse(format_args!("new vertex {n} is not in the edit")));
                        };
                        share.edit.new_vertices.push(*p);
                    }
                    Corner::New(local)
                }
            });
        }
        share.edit.added.push(AddedFace {
            corners,
            ..face.clone()
        });
    }

    let mut out = Vec::new();
    let mut edited: Vec<(u32, Vec<u8>)> = Vec::with_capacity(shares.len());
    for (part, mut share) in shares {
        let Some(mesh) = meshes.get(part) else {
            continue;
        };
        if meshes[..part].iter().any(|m| m.form_id == mesh.form_id) {
            return Err(refuse(format_args!(
                "navmesh {:08X} is defined twice in the plugin; only its first record can be \
                 edited",
                mesh.form_id
            )));
        }
        let local = crate::geometry::geometry(&mesh.model);
        // Triangle index → the polygon of the navmesh's own geometry.
        let polygon_of: HashMap<u32, u32> = local
            .polygons
            .iter()
            .zip(0u32..)
            .filter_map(|(q, i)| q.record.map(|r| (r.index, i)))
            .collect();
        let to_polygon = |t: u32| {
            polygon_of
                .get(&t)
                .copied()
                .ok_or_else(|| refuse(format_args!("triangle {t} has no polygon")))
        };
        for p in &mut share.edit.deleted {
            *p = to_polygon(*p)?;
        }
        share.edit.deleted.sort_unstable();
        for change in &mut share.edit.attributes {
            change.polygon = to_polygon(change.polygon)?;
        }
        let mut m = mesh.model.clone();
        let lines = crate::nvnm::apply::apply(&mut m, &local, &share.edit)?;
        out.extend(
            lines
                .into_iter()
                .map(|l| format!("navmesh {:08X}: {l}", mesh.form_id)),
        );
        edited.push((mesh.form_id, Nvnm.write(&m)?));
    }
    for (form_id, bytes) in edited {
        model.replace_nvnm(form_id, bytes)?;
    }
    Ok(out)
}

/// The navmeshes whose `NVNM` reads, in file order, as [`super::Plugin`]'s geometry has them;
/// refused when their vertices are not the geometry's.
fn readable_meshes(model: &PluginFile, original: &Geometry) -> Result<Vec<Mesh>> {
    let mut meshes = Vec::new();
    let mut base = 0usize;
    for (form_id, nvnm) in model.navmeshes() {
        let Ok(m) = Nvnm.read(nvnm) else { continue };
        let len = m.vertices.len();
        meshes.push(Mesh {
            form_id,
            model: m,
            base,
            len,
        });
        base += len;
    }
    let names_match = meshes.len() == original.parts.len()
        && meshes
            .iter()
            .zip(&original.parts)
            .all(|(m, name)| format!("{:08X}", m.form_id) == *name);
    if !names_match || base != original.vertices.len() {
        return Err(refuse(
            "the geometry is not this plugin's: its navmeshes or vertices differ",
        ));
    }
    Ok(meshes)
}

/// Vertex `v` of the geometry as a vertex of navmesh `part`.
fn local_vertex(meshes: &[Mesh], part: usize, v: u32) -> Result<u32> {
    meshes
        .get(part)
        .and_then(|m| (v as usize).checked_sub(m.base))
        .and_then(|l| u32::try_from(l).ok())
        .ok_or_else(|| refuse(format_args!("vertex {v} is not in navmesh {part}")))
}
