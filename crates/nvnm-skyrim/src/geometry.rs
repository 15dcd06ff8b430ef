//! Skyrim navmeshes as format-neutral geometry: triangles over the vertices (Z up), a kind per
//! triangle from its flags, neighbours across in-mesh edges, and graph nodes for the edge links
//! and door triangles.
//!
//! - [`geometry`] maps one `NVNM` blob: every vertex as stored (world units, Z up), one polygon
//!   per triangle whose three vertex indices exist, the neighbour across each edge whose value
//!   names a triangle of this mesh, a graph node at the midpoint of every edge that is an edge
//!   link (kind from the link type) and one at the centroid of every door triangle (`door`).
//!   A lone blob has no graph links: the other end of an edge link is in another navmesh.
//! - [`plugin_geometry`] puts every navmesh of a plugin into one geometry (each mesh's vertex and
//!   polygon indices offset by those before it), and joins the edge-link nodes of two navmeshes
//!   of the plugin that link to each other with a graph link each way.
//!
//! Every polygon names its triangle ([`Record`]: part = the navmesh's place in the list, index =
//! the triangle's) and carries its raw `flags` and `cover_flags` ([`ATTRIBUTES`]); vertex `i` is
//! the file's vertex `i` (meshes of a plugin after one another), so the geometry's vertices are
//! shared as the file shares them.
//!
//! Kinds, by the first flag that is set: `deleted` (0x8), `door` (0x400), `water` (0x200),
//! `preferred` (0x40), `no large creatures` (0x10), else `walk`. Edge-link nodes: `portal`,
//! `ledge up`, `ledge down`, `toggled portal` (link types 0 to 3), `link type N` otherwise.
//!
//! Nothing here indexes without a check: a triangle naming a missing vertex is left out, and so
//! is every reference to it; edges, door triangles and edge links that name nothing are skipped.

use std::collections::HashMap;

use nav_core::geometry::{Geometry, Polygon, Record, UpAxis, VertexIdentity};

use crate::nvnm::{Edge, NavmeshGeometry, triangle_flags};

/// The kind name of a triangle with these flags.
pub fn triangle_kind(flags: u16) -> &'static str {
    if flags & triangle_flags::DELETED != 0 {
        "deleted"
    } else if flags & triangle_flags::DOOR != 0 {
        "door"
    } else if flags & triangle_flags::WATER != 0 {
        "water"
    } else if flags & triangle_flags::PREFERRED != 0 {
        "preferred"
    } else if flags & triangle_flags::NO_LARGE_CREATURES != 0 {
        "no large creatures"
    } else {
        "walk"
    }
}

/// The kind name of an edge link of this type.
pub fn link_kind(link_type: u32) -> String {
    match link_type {
        0 => "portal".into(),
        1 => "ledge up".into(),
        2 => "ledge down".into(),
        3 => "toggled portal".into(),
        t => format!("link type {t}"),
    }
}

/// An edge-link node of a mapped mesh: which triangle and edge link it stands for.
struct LinkNode {
    triangle: usize,
    link: usize,
    node: u32,
}

/// What [`add_mesh`] hands back for joining meshes.
struct Mapped {
    link_nodes: Vec<LinkNode>,
}

fn index(i: usize) -> Option<u32> {
    u32::try_from(i).ok()
}

/// The corners of triangle `t` as positions, when all three vertices exist.
fn corners(m: &NavmeshGeometry, t: usize) -> Option<[[f32; 3]; 3]> {
    let tri = m.triangles.get(t)?;
    let mut out = [[0.0; 3]; 3];
    for (slot, &v) in out.iter_mut().zip(&tri.vertices) {
        *slot = m.vertices.get(usize::from(v))?.map(|c| c.get());
    }
    Some(out)
}

fn mean(points: &[[f32; 3]]) -> [f32; 3] {
    let n = points.len().max(1) as f32;
    let mut s = [0.0f32; 3];
    for p in points {
        for (sum, c) in s.iter_mut().zip(p) {
            *sum += c;
        }
    }
    s.map(|c| c / n)
}

/// The names of [`Polygon::attributes`] of a triangle: its flags and cover word as stored.
pub const ATTRIBUTES: [&str; 2] = ["flags", "cover_flags"];

/// The named bits of [`ATTRIBUTES`] ([`nav_core::Format::attribute_bits`]): the triangle flags
/// ([`triangle_flags`], xEdit's and Mutagen's names) and the single bits xEdit names in the cover
/// word (its 4-bit cover values per edge are an enumeration, not bits, and stay unnamed).
pub const ATTRIBUTE_BITS: [nav_core::AttributeBits; 2] = [
    nav_core::AttributeBits {
        attribute: "flags",
        bits: &[
            (triangle_flags::EDGE_LINK_0_1 as u32, "edge 0-1 link"),
            (triangle_flags::EDGE_LINK_1_2 as u32, "edge 1-2 link"),
            (triangle_flags::EDGE_LINK_2_0 as u32, "edge 2-0 link"),
            (triangle_flags::DELETED as u32, "deleted"),
            (
                triangle_flags::NO_LARGE_CREATURES as u32,
                "no large creatures",
            ),
            (triangle_flags::OVERLAPPING as u32, "overlapping"),
            (triangle_flags::PREFERRED as u32, "preferred"),
            (triangle_flags::WATER as u32, "water"),
            (triangle_flags::DOOR as u32, "door"),
            (triangle_flags::FOUND as u32, "found"),
        ],
    },
    nav_core::AttributeBits {
        attribute: "cover_flags",
        bits: &[
            (0x0010, "edge 0-1 left"),
            (0x0020, "edge 0-1 right"),
            (0x0400, "edge 1-2 left"),
            (0x0800, "edge 1-2 right"),
            (0x4000, "autogen cover"),
        ],
    },
];

/// An empty geometry of navmeshes: Z up, the file's vertices shared, [`ATTRIBUTES`] named.
fn empty() -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Shared;
    g.attributes = ATTRIBUTES.map(String::from).to_vec();
    g
}

/// Appends navmesh number `part` to `g`.
fn add_mesh(g: &mut Geometry, m: &NavmeshGeometry, part: u32) -> Mapped {
    let mut mapped = Mapped {
        link_nodes: Vec::new(),
    };
    let Some(base) = index(g.vertices.len()) else {
        return mapped;
    };
    let Some(first_polygon) = index(g.polygons.len()) else {
        return mapped;
    };
    let nv = m.vertices.len();
    if index(nv).and_then(|n| base.checked_add(n)).is_none() {
        return mapped;
    }
    g.vertices
        .extend(m.vertices.iter().map(|v| v.map(|c| c.get())));
    // Which polygon each triangle became (None: left out for a missing vertex).
    let mut polygon_of: Vec<Option<u32>> = Vec::with_capacity(m.triangles.len());
    let mut next = first_polygon;
    for tri in &m.triangles {
        if tri.vertices.iter().all(|&v| usize::from(v) < nv) {
            polygon_of.push(Some(next));
            next = next.saturating_add(1);
        } else {
            polygon_of.push(None);
        }
    }
    for (t, tri) in m.triangles.iter().enumerate() {
        if polygon_of.get(t).copied().flatten().is_none() {
            continue;
        }
        let kind = g.kind(triangle_kind(tri.flags));
        let neighbours = (0..3)
            .map(|k| match tri.edge(k) {
                Edge::Triangle(n) => polygon_of.get(usize::from(n)).copied().flatten(),
                _ => None,
            })
            .collect();
        g.polygons.push(Polygon {
            // In range: each index is below `nv`, and `base + nv` fits a u32 (checked above).
            vertices: tri.vertices.iter().map(|&v| base + u32::from(v)).collect(),
            kind,
            neighbours,
            record: u32::try_from(t).ok().map(|index| Record {
                part,
                index,
                id: None,
            }),
            attributes: vec![i64::from(tri.flags), i64::from(tri.cover_flags)],
        });
    }
    // Edge links: a node at the midpoint of the linking edge.
    for (t, tri) in m.triangles.iter().enumerate() {
        let Some(c) = corners(m, t) else { continue };
        for k in 0..3 {
            let Edge::EdgeLink(l) = tri.edge(k) else {
                continue;
            };
            let Some(link) = m.edge_links.get(usize::from(l)) else {
                continue;
            };
            let (a, b) = (c[k], c[(k + 1) % 3]);
            let node = g.push_node(mean(&[a, b]), &link_kind(link.link_type));
            mapped.link_nodes.push(LinkNode {
                triangle: t,
                link: usize::from(l),
                node,
            });
        }
    }
    // Door triangles: a node at the triangle's centroid.
    for d in &m.door_triangles {
        if let Some(c) = usize::try_from(d.triangle).ok().and_then(|t| corners(m, t)) {
            g.push_node(mean(&c), "door");
        }
    }
    mapped
}

/// One `NVNM` blob as geometry (see the module docs).
pub fn geometry(m: &NavmeshGeometry) -> Geometry {
    let mut g = empty();
    add_mesh(&mut g, m, 0);
    g
}

/// Every navmesh of a plugin in one geometry, given as (FormID, model) pairs: meshes after one
/// another, and a graph link from each edge-link node to the node of the navmesh it names when
/// that navmesh is in the list and links back to the same triangle (see the module docs). Should a
/// FormID repeat, links resolve to its first mesh.
pub fn plugin_geometry(meshes: &[(u32, NavmeshGeometry)]) -> Geometry {
    let mut g = empty();
    g.parts = meshes
        .iter()
        .map(|(form, _)| format!("{form:08X}"))
        .collect();
    let mapped: Vec<Mapped> = meshes
        .iter()
        .zip(0u32..)
        .map(|((_, m), part)| add_mesh(&mut g, m, part))
        .collect();
    let mut by_form: HashMap<u32, usize> = HashMap::new();
    for (i, (form, _)) in meshes.iter().enumerate() {
        by_form.entry(*form).or_insert(i);
    }
    let mut links = Vec::new();
    for ((form, m), mine) in meshes.iter().zip(&mapped) {
        for from in &mine.link_nodes {
            let Some(link) = m.edge_links.get(from.link) else {
                continue;
            };
            let Some(&j) = by_form.get(&link.navmesh) else {
                continue;
            };
            let (Some((_, other)), Some(theirs)) = (meshes.get(j), mapped.get(j)) else {
                continue;
            };
            let back = theirs.link_nodes.iter().find(|to| {
                usize::try_from(link.triangle).is_ok_and(|t| t == to.triangle)
                    && other.edge_links.get(to.link).is_some_and(|l| {
                        l.navmesh == *form
                            && usize::try_from(l.triangle).is_ok_and(|t| t == from.triangle)
                    })
            });
            if let Some(to) = back {
                links.push((from.node, to.node, link_kind(link.link_type)));
            }
        }
    }
    for (from, to, kind) in links {
        g.push_link(from, to, &kind);
    }
    g
}
