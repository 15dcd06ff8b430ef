//! Models built in code: empty meshes of each version, the small KV3 documents the writer needs
//! for them, and the sample rooms that `samples/source2/` holds.
//!
//! The KV3 documents come from the minimal encoder of [`crate::kv3`] ([`kv3_v5`]), so that
//! samples can carry custom data (an `arealist`) without copying a game file; the empty meshes
//! and their generation parameters from [`crate::model`].

use nav_core::{RawF32, ShortVec};

use crate::kv3::{CUSTOM_DATA_FORMAT, Kv3Blob, Kv3Value};
pub use crate::kv3::{empty_kv3, kv3_v5};
use crate::layout::{Layout, NO_MOVABLE_MESH, has_custom_data};
use crate::model::{
    Area, Connection, HidingSpot, Ladder, Polygon, Source2Mesh, TransformedBounds, Vec3,
};
pub use crate::model::{generation_params, nav_gen_version_of};

fn f(v: f32) -> RawF32 {
    RawF32::new(v)
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    [f(x), f(y), f(z)]
}

/// An empty mesh of this version and sub-version (see [`Source2Mesh::new`]).
pub fn empty(version: u32, sub_version: u32) -> Source2Mesh {
    Source2Mesh::new(version, sub_version)
}

/// The `arealist` entry of one area: its hiding spots, no encounters, no approach data, and
/// two earliest occupy times.
fn arealist_entry(area: &Area) -> Kv3Value {
    let spots = area
        .hiding_spots
        .iter()
        .map(|s| {
            Kv3Value::Object(vec![
                ("id".into(), Kv3Value::UInt(u64::from(s.id))),
                (
                    "pos".into(),
                    Kv3Value::Array(
                        s.position
                            .iter()
                            .map(|c| Kv3Value::Float(c.get()))
                            .collect(),
                    ),
                ),
                ("flags".into(), Kv3Value::UInt(u64::from(s.flags))),
            ])
        })
        .collect();
    Kv3Value::Object(vec![
        ("hidingspotdata".into(), Kv3Value::Array(spots)),
        ("spotencounterdata".into(), Kv3Value::Array(Vec::new())),
        ("approachdata".into(), Kv3Value::Array(Vec::new())),
        (
            "earliestoccupytime".into(),
            Kv3Value::Array(
                [4.5, 6.0]
                    .map(|t| Kv3Value::Object(vec![("time".into(), Kv3Value::Float(t))]))
                    .to_vec(),
            ),
        ),
    ])
}

/// Custom data whose `arealist` matches the mesh's areas.
pub fn custom_data_for(mesh: &Source2Mesh) -> Kv3Blob {
    let list = mesh.areas.iter().map(arealist_entry).collect();
    kv3_v5(
        CUSTOM_DATA_FORMAT,
        &Kv3Value::Object(vec![("arealist".into(), Kv3Value::Array(list))]),
    )
}

/// The sample room of a version: a 2×2 grid of square areas (pool polygons from v31, inline
/// corners in v30) connected across their shared edges, a ladder from the first area up to the
/// last, one hiding spot, a transformed bound, and (sub-version 1) custom data whose `arealist`
/// matches the areas.
pub fn room(version: u32, sub_version: u32) -> Source2Mesh {
    let mut m = empty(version, sub_version);
    let Some(layout) = Layout::new(version) else {
        return m;
    };
    let side = 2u32;
    let id = |x: u32, y: u32| 1 + y * side + x;
    // Corner (i, j) of the grid, i and j in 0..=side; the far column rises by 16 units.
    let corner = |i: u32, j: u32| v3(i as f32 * 128.0, j as f32 * 128.0, (i * 16) as f32);
    let cindex = |i: u32, j: u32| j * (side + 1) + i;
    if layout.has_polygon_pool() {
        for j in 0..=side {
            for i in 0..=side {
                m.corners.push(corner(i, j));
            }
        }
    }
    for y in 0..side {
        for x in 0..side {
            // Counter-clockwise from above: (x,y) (x+1,y) (x+1,y+1) (x,y+1). Edge 0 faces -y,
            // edge 1 +x, edge 2 +y, edge 3 -x.
            let quad = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)];
            let mut a = Area {
                id: id(x, y),
                attribute_flags: if x == 1 && y == 1 { 0x10000 } else { 0 },
                hull_index: 0,
                connections: ShortVec::from([
                    ShortVec::new(),
                    ShortVec::new(),
                    ShortVec::new(),
                    ShortVec::new(),
                ]),
                ..Area::default()
            };
            if layout.has_polygon_pool() {
                a.polygon = u32_of(m.polygons.len());
                m.polygons.push(Polygon {
                    corners: quad.iter().map(|(i, j)| cindex(*i, *j)).collect(),
                    movable_mesh_id: NO_MOVABLE_MESH,
                });
            } else {
                a.corners = quad.iter().map(|(i, j)| corner(*i, *j)).collect();
            }
            let neighbours = [
                (y > 0).then(|| id(x, y.wrapping_sub(1))),
                (x + 1 < side).then(|| id(x + 1, y)),
                (y + 1 < side).then(|| id(x, y + 1)),
                (x > 0).then(|| id(x.wrapping_sub(1), y)),
            ];
            for (edge, n) in neighbours.iter().enumerate() {
                if let Some(n) = n {
                    // The neighbour's facing edge is the opposite one.
                    a.connections[edge].push(Connection {
                        area_id: *n,
                        edge: u32_of((edge + 2) % 4),
                    });
                }
            }
            m.areas.push(a);
        }
    }
    m.areas[0].hiding_spots.push(HidingSpot {
        id: 1,
        position: v3(32.0, 32.0, 0.0),
        flags: 1,
    });
    m.areas[0].ladders_above.push(1);
    m.areas[3].ladders_below.push(1);
    m.ladders.push(Ladder {
        id: 1,
        width: f(32.0),
        top: v3(200.0, 200.0, 96.0),
        bottom: v3(40.0, 40.0, 0.0),
        length: f(96.0),
        direction: 1,
        top_forward_area_id: 4,
        bottom_area_id: 1,
        bottom_left_area_id: if layout.has_ladder_bottom_sides() {
            2
        } else {
            0
        },
        ..Ladder::default()
    });
    let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 64.0];
    m.transformed_bounds.push(TransformedBounds {
        mins: v3(0.0, 0.0, -8.0),
        maxs: v3(256.0, 256.0, 8.0),
        transform: identity.map(f),
    });
    if has_custom_data(sub_version) {
        m.custom_data = Some(custom_data_for(&m));
    }
    m
}
