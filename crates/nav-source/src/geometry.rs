//! The Source navigation mesh as format-neutral geometry: one quad per area, one graph node per
//! area at its centre, connections and ladders as links.
//!
//! Corners follow Valve's `NavCornerType` order NW, NE, SE, SW: the stored north-west corner, the
//! implicit north-east corner `(se.x, nw.y, ne_z)`, the stored south-east corner and the implicit
//! south-west corner `(nw.x, se.y, sw_z)`. In the engine north is -y (`NavDirType` NORTH points
//! along -y), so the north-west corner has the smallest x and y and the quad winds
//! counter-clockwise seen from above (Z up). Edge `i` of the quad (from corner `i` to corner
//! `i + 1`) is the side facing direction `i` of `NavDirType` (north, east, south, west), the same
//! order as [`Area::connections`](crate::Area::connections).

use std::collections::HashMap;

use nav_core::geometry::{Geometry, Record, UpAxis, VertexIdentity};

use crate::model::{Area, AreaCustom, SourceMesh};

/// `NavAttributeType` bits of Source SDK 2013 `nav.h`, with the kind name each maps to, in the
/// order a kind is picked when an area has several (the first bit set wins).
pub const ATTRIBUTE_KINDS: [(u32, &str); 19] = [
    (0x8000_0000, "blocked"),     // NAV_MESH_NAV_BLOCKER
    (0x0000_0002, "jump"),        // NAV_MESH_JUMP
    (0x0000_0001, "crouch"),      // NAV_MESH_CROUCH
    (0x0000_1000, "stairs"),      // NAV_MESH_STAIRS
    (0x0000_4000, "obstacle"),    // NAV_MESH_OBSTACLE_TOP
    (0x0000_8000, "cliff"),       // NAV_MESH_CLIFF
    (0x0000_0080, "avoid"),       // NAV_MESH_AVOID
    (0x4000_0000, "elevator"),    // NAV_MESH_HAS_ELEVATOR
    (0x0000_0004, "precise"),     // NAV_MESH_PRECISE
    (0x0000_0008, "no jump"),     // NAV_MESH_NO_JUMP
    (0x0000_0010, "stop"),        // NAV_MESH_STOP
    (0x0000_0020, "run"),         // NAV_MESH_RUN
    (0x0000_0040, "slow walk"),   // NAV_MESH_WALK (must walk, not run)
    (0x0000_0100, "transient"),   // NAV_MESH_TRANSIENT
    (0x0000_0400, "stand"),       // NAV_MESH_STAND
    (0x0000_0200, "no hiding"),   // NAV_MESH_DONT_HIDE
    (0x0000_0800, "no hostages"), // NAV_MESH_NO_HOSTAGES
    (0x0000_2000, "no merge"),    // NAV_MESH_NO_MERGE
    (0x2000_0000, "cost"),        // NAV_MESH_FUNC_COST
];

/// The named bits of the areas' `attribute_flags` ([`nav_core::Format::attribute_bits`]): those
/// of [`ATTRIBUTE_KINDS`]. TF2's `tf_attributes` and Left 4 Dead's `spawn_attributes` are not
/// named yet.
pub const ATTRIBUTE_BITS: [nav_core::AttributeBits; 1] = [nav_core::AttributeBits {
    attribute: "attribute_flags",
    bits: &ATTRIBUTE_KINDS,
}];

/// The kind of an area with none of the named bits set but some other bit (the game-specific
/// range `NAV_MESH_FIRST_CUSTOM` 0x10000 to 0x10000000).
pub const CUSTOM_KIND: &str = "custom";

/// The kind of an area with no attribute bit set.
pub const PLAIN_KIND: &str = "walk";

/// The kind name of an area's attribute flags: the first entry of [`ATTRIBUTE_KINDS`] whose bit is
/// set, else [`CUSTOM_KIND`] for any other bit, else [`PLAIN_KIND`].
pub fn attribute_kind(flags: u32) -> &'static str {
    ATTRIBUTE_KINDS
        .iter()
        .find(|(bit, _)| flags & bit != 0)
        .map_or(
            if flags == 0 { PLAIN_KIND } else { CUSTOM_KIND },
            |(_, name)| name,
        )
}

/// The four corners of an area, NW, NE, SE, SW.
pub fn corners(area: &Area) -> [[f32; 3]; 4] {
    let [nx, ny, nz] = area.nw_corner.map(|c| c.get());
    let [sx, sy, sz] = area.se_corner.map(|c| c.get());
    [
        [nx, ny, nz],
        [sx, ny, area.ne_z.get()],
        [sx, sy, sz],
        [nx, sy, area.sw_z.get()],
    ]
}

fn centre(c: &[[f32; 3]; 4]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for (axis, o) in out.iter_mut().enumerate() {
        *o = c.iter().map(|p| p[axis]).sum::<f32>() / 4.0;
    }
    out
}

/// Areas as quads (kind from their attribute flags, see [`attribute_kind`]) with the first
/// connection in each direction as the neighbour across that side (`None` when there is none or
/// it names no area); one node per area (kind
/// `area`) at the mean of its corners; one link per connection (kind `connection`) and one link
/// from a ladder's bottom area to each distinct area at its top (kind `ladder`).
///
/// Polygon `i` and node `i` are area `i` in file order (its [`Record`]: index `i`, the area's
/// id); every polygon has its own four corners ([`VertexIdentity::Corners`]), vertex `4i + k`
/// being corner `k` of area `i`. The polygons carry the raw flag fields named by
/// [`attribute_names`]. Areas are found by id, the first area with an id winning where ids
/// repeat; connections, neighbours and ladder links naming no area (or id 0, "none", for
/// ladders) are left out.
pub fn geometry(mesh: &SourceMesh) -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Corners;
    let names = attribute_names(mesh);
    g.attributes = names.iter().map(|n| (*n).to_string()).collect();
    let mut index: HashMap<u32, u32> = HashMap::with_capacity(mesh.areas.len());
    for (i, area) in mesh.areas.iter().enumerate() {
        if let Ok(i) = u32::try_from(i) {
            index.entry(area.id).or_insert(i);
        }
    }
    let find = |id: u32| index.get(&id).copied();

    for (i, area) in mesh.areas.iter().enumerate() {
        let c = corners(area);
        let p = g.push_polygon(&c, attribute_kind(area.attribute_flags));
        let neighbours = area
            .connections
            .iter()
            .map(|ids| ids.first().and_then(|id| find(*id)))
            .collect();
        if let Some(poly) = g.polygons.get_mut(p as usize) {
            poly.neighbours = neighbours;
            poly.record = u32::try_from(i).ok().map(|index| Record {
                part: 0,
                index,
                id: Some(u64::from(area.id)),
            });
            poly.attributes = attribute_values(names, area);
        }
        g.push_node(centre(&c), "area");
    }
    for (from, area) in mesh.areas.iter().enumerate() {
        let Ok(from) = u32::try_from(from) else {
            continue;
        };
        for id in area.connections.iter().flatten() {
            if let Some(to) = find(*id) {
                g.push_link(from, to, "connection");
            }
        }
    }
    for ladder in &mesh.ladders {
        let Some(bottom) = Some(ladder.bottom_area_id)
            .filter(|id| *id != 0)
            .and_then(find)
        else {
            continue;
        };
        let mut tops: Vec<u32> = Vec::with_capacity(4);
        for id in [
            ladder.top_forward_area_id,
            ladder.top_left_area_id,
            ladder.top_right_area_id,
            ladder.top_behind_area_id,
        ] {
            if let Some(top) = Some(id).filter(|id| *id != 0).and_then(find) {
                if !tops.contains(&top) {
                    tops.push(top);
                }
            }
        }
        for top in tops {
            g.push_link(bottom, top, "ladder");
        }
    }
    g
}

/// The names of the raw flag fields an area's polygon carries, as the JSON names them:
/// `attribute_flags`, then the flavour's own word where the layout stores one (`tf_attributes`
/// of Team Fortress 2, `spawn_attributes` of Left 4 Dead).
pub fn attribute_names(mesh: &SourceMesh) -> &'static [&'static str] {
    let layout = mesh.layout();
    if layout.has_tf_attributes() {
        &["attribute_flags", "tf_attributes"]
    } else if layout.is_terror() {
        &["attribute_flags", "spawn_attributes"]
    } else {
        &["attribute_flags"]
    }
}

/// An area's raw flag fields, in the order of `names` ([`attribute_names`] of its mesh): the
/// flavour's word only where the area holds the one the layout names.
pub fn attribute_values(names: &[&str], area: &Area) -> Vec<i64> {
    let mut out = vec![i64::from(area.attribute_flags)];
    let word = match &area.custom {
        AreaCustom::TeamFortress2 { tf_attributes } => Some(("tf_attributes", *tf_attributes)),
        AreaCustom::Terror {
            spawn_attributes, ..
        } => Some(("spawn_attributes", *spawn_attributes)),
        AreaCustom::None | AreaCustom::CounterStrike { .. } => None,
    };
    if let Some((_, value)) = word.filter(|(name, _)| names.get(1) == Some(name)) {
        out.push(i64::from(value));
    }
    out
}
