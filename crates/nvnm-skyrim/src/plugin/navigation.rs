//! Every navmesh of a plugin as one navigation graph ([`nav_core::navigation::Graph`]).
//!
//! - **Cells**: the triangles of every navmesh whose `NVNM` reads, navmesh after navmesh in file
//!   order, each with id [`CellId::in_part`]`(navmesh FormID, triangle)`. Coordinates are the
//!   vertices as stored, as [`crate::geometry::plugin_geometry`] has them: exterior navmeshes
//!   share their worldspace's coordinates, so a path across cells is continuous; each interior
//!   cell has its own.
//! - **Edges inside a navmesh**: as for a lone `NVNM` ([`crate::nvnm::navigation`]).
//! - **Edge links**: to a navmesh the plugin holds, an edge to that triangle's cell (kind from the
//!   link type); else an exit naming the navmesh and triangle and why it is not followed (not in
//!   this plugin, deleted in it, its `NVNM` does not read, or it has no such triangle).
//! - **Door triangles**: the door reference a door triangle names leads, by the reference's
//!   teleport destination (`XTEL`, first field), to another door reference. When both references
//!   are in the plugin and the other one stands on door triangles of its navmeshes, each such
//!   triangle gets an [`EdgeKind::Door`] edge; otherwise the door is an exit (naming, from the
//!   `NAVI` record's door lists, the navmesh of the other door when the plugin knows it).
//! - **Navmeshes whose `NVNM` does not read** get no cells; [`PluginNavigation::unread`] names
//!   them, and the links into them are exits that say so.
//!
//! Should a FormID repeat (a hand-made model), links resolve to its first navmesh.

use std::collections::{HashMap, HashSet};

use nav_core::Format;
use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use super::model::{PluginFile, RecordBody};
use super::subrecord::subrecords;
use super::zlib::inflate;
use super::{COMPRESSED, MAX_INFLATED_RECORD};
use crate::nvnm::navigation::{add_mesh, cell_index, link_kind, move_kind, reserve};
use crate::nvnm::{Edge, NavmeshGeometry, Nvnm};

/// A plugin's graph, and what it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginNavigation {
    /// The graph.
    pub graph: Graph,
    /// The navmeshes whose `NVNM` does not read, with the error: they have no cells.
    pub unread: Vec<(u32, String)>,
}

/// One navmesh of the plugin: its FormID, and its model and first cell once it reads.
struct Mesh {
    form_id: u32,
    read: Option<(NavmeshGeometry, u32)>,
}

/// The plugin as one graph (see the module docs).
pub fn navigation(model: &PluginFile) -> PluginNavigation {
    let mut graph = Graph::new(UpAxis::Z);
    let mut unread = Vec::new();
    let navmeshes = model.navmeshes();
    let mut meshes = Vec::with_capacity(navmeshes.len());
    for (form_id, nvnm) in navmeshes {
        let read = match Nvnm.read(nvnm) {
            Ok(m) => {
                reserve(&mut graph, &m);
                let base = add_mesh(&mut graph, &m, |t| CellId::in_part(form_id, t));
                Some((m, base))
            }
            Err(e) => {
                unread.push((form_id, e.to_string()));
                None
            }
        };
        meshes.push(Mesh { form_id, read });
    }
    let mut by_form: HashMap<u32, usize> = HashMap::with_capacity(meshes.len());
    for (i, mesh) in meshes.iter().enumerate() {
        by_form.entry(mesh.form_id).or_insert(i);
    }
    let deleted: HashSet<u32> = model
        .records()
        .into_iter()
        .filter(|r| &r.signature.0 == b"NAVM" && r.is_deleted())
        .map(|r| r.form_id)
        .collect();
    for mesh in &meshes {
        if let Some((m, base)) = &mesh.read {
            edge_links(&mut graph, m, *base, &meshes, &by_form, &deleted);
        }
    }
    doors(&mut graph, model, &meshes);
    PluginNavigation { graph, unread }
}

/// The edges and exits of the edge links of mesh `m` (first cell `base`).
fn edge_links(
    g: &mut Graph,
    m: &NavmeshGeometry,
    base: u32,
    meshes: &[Mesh],
    by_form: &HashMap<u32, usize>,
    deleted: &HashSet<u32>,
) {
    for (t, tri) in m.triangles.iter().enumerate() {
        let Some(from) = cell_index(base, t) else {
            break;
        };
        for k in 0..3 {
            let Edge::EdgeLink(l) = tri.edge(k) else {
                continue;
            };
            // An edge link past the list is skipped: validate reports it.
            let Some(link) = m.edge_links.get(usize::from(l)) else {
                continue;
            };
            let kind = link_kind(link.link_type);
            let target = by_form
                .get(&link.navmesh)
                .and_then(|&j| meshes.get(j))
                .map(|mesh| &mesh.read);
            let why = match target {
                Some(Some((other, other_base))) => {
                    let to = usize::try_from(link.triangle)
                        .ok()
                        .and_then(|u| Some((other.triangles.get(u)?, cell_index(*other_base, u)?)));
                    match to {
                        Some((to_tri, to)) => {
                            g.add_edge(from, to, move_kind(tri.flags, Some(to_tri.flags), kind));
                            continue;
                        }
                        None => "which it does not have",
                    }
                }
                Some(None) => "whose NVNM does not read",
                None if deleted.contains(&link.navmesh) => "deleted in this plugin",
                None => "not in this plugin",
            };
            g.add_exit(
                from,
                format!(
                    "navmesh {:08X} triangle {}, {why}",
                    link.navmesh, link.triangle
                ),
                move_kind(tri.flags, None, kind),
            );
        }
    }
}

/// The door triangles of every mesh that reads, as (door reference, mesh index, triangle),
/// skipping those that name no triangle (validate reports them).
fn door_triangles(meshes: &[Mesh]) -> Vec<(u32, usize, usize)> {
    let mut out = Vec::new();
    for (i, mesh) in meshes.iter().enumerate() {
        let Some((m, _)) = &mesh.read else { continue };
        for d in &m.door_triangles {
            if let Some(t) = usize::try_from(d.triangle)
                .ok()
                .filter(|&t| t < m.triangles.len())
            {
                out.push((d.door, i, t));
            }
        }
    }
    out
}

/// The teleport destination (`XTEL`'s first field) of a reference record's data, when it reads.
fn teleport_destination(flags: u32, data: &[u8]) -> Option<u32> {
    let inflated;
    let body = if flags & COMPRESSED != 0 {
        let size = data.get(..4)?;
        let size = usize::try_from(u32::from_le_bytes(size.try_into().ok()?)).ok()?;
        if size > MAX_INFLATED_RECORD {
            return None;
        }
        inflated = inflate(data.get(4..)?, size).ok()?;
        inflated.as_slice()
    } else {
        data
    };
    let xtel = subrecords(body)
        .ok()?
        .into_iter()
        .find(|s| &s.signature().0 == b"XTEL")?;
    let first = body.get(xtel.range())?.get(..4)?;
    Some(u32::from_le_bytes(first.try_into().ok()?))
}

/// The door edges and exits (see the module docs).
fn doors(g: &mut Graph, model: &PluginFile, meshes: &[Mesh]) {
    let doors = door_triangles(meshes);
    if doors.is_empty() {
        return;
    }
    // Where each door reference stands: its door triangles.
    let mut stands: HashMap<u32, Vec<(usize, usize)>> = HashMap::with_capacity(doors.len());
    for &(door, i, t) in &doors {
        stands.entry(door).or_default().push((i, t));
    }
    // The door references of the plugin, with their destinations when they have one.
    let mut destination: HashMap<u32, Option<u32>> = HashMap::with_capacity(stands.len());
    // The navmesh the NAVI record's door lists put each door reference on.
    let mut on_navmesh: HashMap<u32, u32> = HashMap::new();
    for r in model.records() {
        match &r.body {
            RecordBody::Raw(data)
                if &r.signature.0 == b"REFR" && stands.contains_key(&r.form_id) =>
            {
                destination
                    .entry(r.form_id)
                    .or_insert_with(|| teleport_destination(r.flags, data));
            }
            RecordBody::NavigationInfo(navi) => {
                for info in navi.navmesh_infos() {
                    for d in &info.doors {
                        on_navmesh.entry(d.door).or_insert(info.navmesh);
                    }
                }
            }
            _ => {}
        }
    }
    g.edges.reserve(doors.len());
    for (door, i, t) in doors {
        let from_side = meshes.get(i).and_then(|mesh| {
            let (m, base) = mesh.read.as_ref()?;
            Some((m.triangles.get(t)?.flags, cell_index(*base, t)?))
        });
        let Some((flags, from)) = from_side else {
            continue;
        };
        let why = match destination.get(&door) {
            None => "its reference is not in this plugin".to_string(),
            Some(None) => "its reference has no teleport destination".to_string(),
            Some(Some(other)) => {
                let mut followed = false;
                for &(j, u) in stands.get(other).map_or(&[][..], Vec::as_slice) {
                    let to_side = meshes.get(j).and_then(|mesh| {
                        let (m, base) = mesh.read.as_ref()?;
                        Some((m.triangles.get(u)?.flags, cell_index(*base, u)?))
                    });
                    if let Some((to_flags, to)) = to_side {
                        g.add_edge(from, to, move_kind(flags, Some(to_flags), EdgeKind::Door));
                        followed = true;
                    }
                }
                if followed {
                    continue;
                }
                match on_navmesh.get(other) {
                    Some(navmesh) => format!(
                        "leads to door {other:08X} (on navmesh {navmesh:08X} by the NAVI record), \
                         on no door triangle of this plugin"
                    ),
                    None => format!("leads to door {other:08X}, on no navmesh of this plugin"),
                }
            }
        };
        g.add_exit(
            from,
            format!("door {door:08X}: {why}"),
            move_kind(flags, None, EdgeKind::Door),
        );
    }
}
