//! The Source 2 navigation mesh as format-neutral geometry: one polygon per area, one graph node
//! per area at the mean of its corners, connections and ladders as links.
//!
//! An area's corners are its pool polygon's (v31+) or its own (v30), in stored order; edge `i`
//! runs from corner `i` to corner `i + 1`, and its neighbour is the first connection stored for
//! that edge. Areas without usable corners (a polygon or corner index past its list, fewer than
//! three corners, a coordinate that is not finite) get no polygon, no node and no links: no
//! position is invented for them.
//!
//! Every polygon names its area ([`Record`]: the area's index and id) and carries its raw
//! `attribute_flags`. From v31 the geometry's vertices are the corner pool, 1:1 in order
//! ([`VertexIdentity::Shared`]: areas sharing a pool corner share the vertex); in v30 each area
//! has its own corners ([`VertexIdentity::Corners`]). A pool with a corner that is not finite
//! gives each polygon its own copies of its corners instead, and says nothing of what a vertex
//! is ([`VertexIdentity::Unknown`]): no mesh edit can be put back onto such a file.

use std::collections::HashMap;

use nav_core::geometry::{Geometry, Polygon, Record, UpAxis, VertexIdentity};

use crate::model::Source2Mesh;

/// Named attribute bits of Source 2 areas (public readers' names, from version 35), in the
/// order a kind is picked when several are set.
pub const ATTRIBUTE_KINDS: [(u32, &str); 17] = [
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
        .find(|(bit, _)| flags & u64::from(*bit) != 0)
        .map_or(if flags == 0 { "walk" } else { "custom" }, |(_, n)| n)
}

/// The name of the one attribute the polygons carry: the area's raw flags, as the JSON names
/// them.
pub const ATTRIBUTE_FLAGS: &str = "attribute_flags";

/// The named bits of [`ATTRIBUTE_FLAGS`] ([`nav_core::Format::attribute_bits`]): those of
/// [`ATTRIBUTE_KINDS`].
pub const ATTRIBUTE_BITS: [nav_core::AttributeBits; 1] = [nav_core::AttributeBits {
    attribute: ATTRIBUTE_FLAGS,
    bits: &ATTRIBUTE_KINDS,
}];

/// Why an area has no usable polygon ([`usable_corners`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    /// The area's polygon index (v31+) is past the pool's polygons.
    NoPolygon(u32),
    /// The area's polygon names this corner, past the corner pool.
    CornerPastPool(u32),
    /// The area has this many corners, fewer than three.
    TooFew(usize),
    /// A corner is not a finite point.
    NotFinite,
}

impl core::fmt::Display for Unusable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Unusable::NoPolygon(p) => write!(f, "polygon {p} does not exist"),
            Unusable::CornerPastPool(c) => write!(f, "its polygon names corner {c}, past the pool"),
            Unusable::TooFew(n) => write!(f, "{n} corners"),
            Unusable::NotFinite => f.write_str("a corner is not finite"),
        }
    }
}

/// Appends the corners of area `i` to `out` as floats (the pool polygon's from v31, the area's
/// own in v30), and says whether they make a usable polygon: every pool index in range, at least
/// three corners, every coordinate finite. An area index past the areas has no corners.
pub fn usable_corners(
    mesh: &Source2Mesh,
    i: usize,
    out: &mut Vec<[f32; 3]>,
) -> Result<(), Unusable> {
    let start = out.len();
    let Some(area) = mesh.areas.get(i) else {
        return Err(Unusable::TooFew(0));
    };
    if mesh.version < 31 {
        out.extend(area.corners.iter().map(|c| c.map(|v| v.get())));
    } else {
        let poly = mesh
            .polygons
            .get(area.polygon as usize)
            .ok_or(Unusable::NoPolygon(area.polygon))?;
        for c in &poly.corners {
            let p = mesh
                .corners
                .get(*c as usize)
                .ok_or(Unusable::CornerPastPool(*c))?;
            out.push(p.map(|v| v.get()));
        }
    }
    let corners = out.get(start..).unwrap_or(&[]);
    if corners.len() < 3 {
        return Err(Unusable::TooFew(corners.len()));
    }
    if !corners.iter().flatten().all(|v| v.is_finite()) {
        return Err(Unusable::NotFinite);
    }
    Ok(())
}

/// The mesh as polygons (kind from the attribute flags), nodes (kind `area`, at the mean of the
/// corners) and links (kind `connection` per connection, `ladder` from a ladder's bottom area to
/// each distinct top area). An area without usable corners ([`usable_corners`]) gets no
/// polygon, no node and no links: there is no position to give it (`validate` names it).
/// Polygon and node `i` are area `i` where every area's corners are usable.
pub fn geometry(mesh: &Source2Mesh) -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    g.attributes = vec![ATTRIBUTE_FLAGS.to_string()];
    let pool = mesh.version >= 31 && mesh.corners.iter().flatten().all(|c| c.get().is_finite());
    g.vertex_identity = match (mesh.version >= 31, pool) {
        (false, _) => VertexIdentity::Corners,
        (true, true) => VertexIdentity::Shared,
        (true, false) => VertexIdentity::Unknown,
    };
    if pool {
        g.vertices = mesh.corners.iter().map(|c| c.map(|v| v.get())).collect();
    }
    let mut index: HashMap<u32, u32> = HashMap::with_capacity(mesh.areas.len());
    for (i, a) in mesh.areas.iter().enumerate() {
        if let Ok(i) = u32::try_from(i) {
            index.entry(a.id).or_insert(i);
        }
    }
    // Area index to its node and polygon (equal: both are pushed for usable areas only).
    let mut node_of: Vec<Option<u32>> = Vec::with_capacity(mesh.areas.len());
    let mut corners: Vec<[f32; 3]> = Vec::with_capacity(16);
    for (i, a) in mesh.areas.iter().enumerate() {
        corners.clear();
        if usable_corners(mesh, i, &mut corners).is_err() {
            node_of.push(None);
            continue;
        }
        let n = corners.len() as f32;
        let mut centre = [0.0f32; 3];
        for c in &corners {
            for k in 0..3 {
                centre[k] += c[k] / n;
            }
        }
        let node = g.push_node(centre, "area");
        let kind = g.kind(attribute_kind(a.attribute_flags));
        let pool_corners = mesh
            .polygons
            .get(a.polygon as usize)
            .filter(|_| pool)
            .map(|p| p.corners.to_vec());
        let vertices =
            pool_corners.unwrap_or_else(|| corners.iter().map(|c| g.vertex(*c)).collect());
        g.polygons.push(Polygon {
            vertices,
            kind,
            record: u32::try_from(i).ok().map(|index| Record {
                part: 0,
                index,
                id: Some(u64::from(a.id)),
            }),
            attributes: vec![i64::from_ne_bytes(a.attribute_flags.to_ne_bytes())],
            ..Polygon::default()
        });
        node_of.push(Some(node));
    }
    let find = |id: u32| -> Option<u32> { *node_of.get(*index.get(&id)? as usize)? };
    for (i, a) in mesh.areas.iter().enumerate() {
        let Some(Some(from)) = node_of.get(i).copied() else {
            continue;
        };
        let n: Vec<Option<u32>> = a
            .connections
            .iter()
            .map(|list| find(list.first()?.area_id))
            .collect();
        if let Some(poly) = g.polygons.get_mut(from as usize) {
            if n.len() == poly.vertices.len() {
                poly.neighbours = n;
            }
        }
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
