//! The Source 2 navigation mesh as format-neutral geometry: one polygon per area, one graph node
//! per area at the mean of its corners, connections and ladders as links.
//!
//! An area's corners are its pool polygon's (v31+) or its own (v30), in stored order; edge `i`
//! runs from corner `i` to corner `i + 1`, and its neighbour is the first connection stored for
//! that edge. Areas whose polygon names missing corners, or that have fewer than three corners,
//! get no polygon (their node and links are kept, at the mean of the corners that exist).

use std::collections::HashMap;

use nav_core::geometry::{Geometry, Polygon, UpAxis};

use crate::model::Source2Mesh;

/// Named attribute bits of Source 2 areas (public readers' names, from version 35), in the
/// order a kind is picked when several are set.
pub const ATTRIBUTE_KINDS: [(u64, &str); 17] = [
    (0x2, "jump"),
    (0x1000, "stairs"),
    (0x4000, "obstacle"),
    (0x10000, "crouch"),
    (0x40000, "crawl"),
    (0x8000, "non-z-up"),
    (0x20000, "non-z-up transition"),
    (0x80, "avoid"),
    (0x8, "no jump"),
    (0x10, "stop"),
    (0x20, "run"),
    (0x40, "slow walk"),
    (0x100, "transient"),
    (0x200, "no hiding"),
    (0x400, "stand"),
    (0x800, "no hostages"),
    (0x2000, "no merge"),
];

/// The kind of an area's attribute flags: the first named bit set, `custom` for any other bit,
/// `walk` for none.
pub fn attribute_kind(flags: u64) -> &'static str {
    ATTRIBUTE_KINDS
        .iter()
        .find(|(bit, _)| flags & bit != 0)
        .map_or(if flags == 0 { "walk" } else { "custom" }, |(_, n)| n)
}

/// The mesh as polygons (kind from the attribute flags), nodes (kind `area`) and links (kind
/// `connection` per connection, `ladder` from a ladder's bottom area to each distinct top area).
/// Polygon and node `i` are area `i` where every area has a polygon.
pub fn geometry(mesh: &Source2Mesh) -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    let mut index: HashMap<u32, u32> = HashMap::with_capacity(mesh.areas.len());
    for (i, a) in mesh.areas.iter().enumerate() {
        if let Ok(i) = u32::try_from(i) {
            index.entry(a.id).or_insert(i);
        }
    }
    let find = |id: u32| index.get(&id).copied();
    let mut polygon_of = Vec::with_capacity(mesh.areas.len());
    for (i, a) in mesh.areas.iter().enumerate() {
        let corners: Vec<[f32; 3]> = mesh
            .area_corners(i)
            .unwrap_or_default()
            .iter()
            .map(|c| c.map(|v| v.get()))
            .collect();
        let mut centre = [0.0f32; 3];
        for c in &corners {
            for k in 0..3 {
                centre[k] += c[k] / corners.len() as f32;
            }
        }
        g.push_node(centre, "area");
        if corners.len() >= 3 {
            let kind = g.kind(attribute_kind(a.attribute_flags));
            let vertices = corners.iter().map(|c| g.vertex(*c)).collect();
            g.polygons.push(Polygon {
                vertices,
                kind,
                neighbours: Vec::new(),
            });
            polygon_of.push(Some(g.polygons.len() - 1));
        } else {
            polygon_of.push(None);
        }
    }
    for (i, a) in mesh.areas.iter().enumerate() {
        if let Some(Some(p)) = polygon_of.get(i) {
            let n: Vec<Option<u32>> = a
                .connections
                .iter()
                .map(|list| {
                    let t = find(list.first()?.area_id)?;
                    let q = (*polygon_of.get(t as usize)?)?;
                    u32::try_from(q).ok()
                })
                .collect();
            if let Some(poly) = g.polygons.get_mut(*p) {
                if n.len() == poly.vertices.len() {
                    poly.neighbours = n;
                }
            }
        }
        let Ok(from) = u32::try_from(i) else { continue };
        for c in a.connections.iter().flatten() {
            if let Some(to) = find(c.area_id) {
                g.push_link(from, to, "connection");
            }
        }
    }
    for l in &mesh.ladders {
        let Some(bottom) = Some(l.bottom_area_id).filter(|id| *id != 0).and_then(find) else {
            continue;
        };
        let mut tops: Vec<u32> = Vec::with_capacity(4);
        for id in [
            l.top_forward_area_id,
            l.top_left_area_id,
            l.top_right_area_id,
            l.top_behind_area_id,
        ] {
            if let Some(t) = Some(id).filter(|id| *id != 0).and_then(find) {
                if !tops.contains(&t) {
                    tops.push(t);
                }
            }
        }
        for t in tops {
            g.push_link(bottom, t, "ladder");
        }
    }
    g
}
