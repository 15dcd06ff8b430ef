//! Models built in code: empty meshes of each version, the small KV3 documents the writer needs
//! for them, and the sample rooms that `samples/source2/` holds.
//!
//! A minimal KV3 encoder lives here too ([`kv3_v5`]): it writes an uncompressed KV3 version 5
//! blob of a [`Kv3Value`] in the layout the decoder reads, so that samples can carry custom
//! data (an `arealist`) without copying a game file.

use nav_core::{RawF32, ShortVec};

use crate::kv3::{CUSTOM_DATA_FORMAT, GENERIC_FORMAT, Kv3Blob, Kv3Value, TRAILER};
use crate::layout::{Layout, NO_MOVABLE_MESH, has_custom_data};
use crate::model::{
    Area, Connection, GenerationParams, HidingSpot, HullParams, Ladder, Polygon, Source2Mesh,
    TransformedBounds, Vec3,
};

fn f(v: f32) -> RawF32 {
    RawF32::new(v)
}

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    [f(x), f(y), f(z)]
}

#[derive(Default)]
struct Encoder {
    strings: Vec<String>,
    b1: Vec<u8>,
    b2: Vec<u8>,
    b4: Vec<u8>,
    b8: Vec<u8>,
    types: Vec<u8>,
    objects: Vec<u32>,
}

impl Encoder {
    fn string_id(&mut self, s: &str) -> u32 {
        let i = match self.strings.iter().position(|x| x == s) {
            Some(i) => i,
            None => {
                self.strings.push(s.to_string());
                self.strings.len() - 1
            }
        };
        u32::try_from(i).unwrap_or(u32::MAX)
    }

    fn value(&mut self, v: &Kv3Value) {
        match v {
            Kv3Value::Null => self.types.push(1),
            Kv3Value::Bool(b) => self.types.push(if *b { 13 } else { 14 }),
            Kv3Value::Int(i) => {
                self.types.push(3);
                self.b8.extend_from_slice(&i.to_le_bytes());
            }
            Kv3Value::UInt(u) => {
                self.types.push(4);
                self.b8.extend_from_slice(&u.to_le_bytes());
            }
            Kv3Value::Float(x) => {
                self.types.push(19);
                self.b4.extend_from_slice(&x.to_le_bytes());
            }
            Kv3Value::Double(x) => {
                self.types.push(5);
                self.b8.extend_from_slice(&x.to_le_bytes());
            }
            Kv3Value::String(s) => {
                self.types.push(6);
                let id = self.string_id(s);
                self.b4.extend_from_slice(&id.to_le_bytes());
            }
            Kv3Value::Array(items) => {
                self.types.push(8);
                let n = u32::try_from(items.len()).unwrap_or(u32::MAX);
                self.b4.extend_from_slice(&n.to_le_bytes());
                for i in items {
                    self.value(i);
                }
            }
            Kv3Value::Object(members) => {
                self.types.push(9);
                self.objects
                    .push(u32::try_from(members.len()).unwrap_or(u32::MAX));
                for (k, m) in members {
                    // The member's type byte comes before its name id.
                    let at = self.types.len();
                    let id = self.string_id(k);
                    self.b4.extend_from_slice(&id.to_le_bytes());
                    self.value(m);
                    debug_assert!(self.types.len() > at);
                }
            }
        }
    }
}

fn lanes(out: &mut Vec<u8>, b1: &[u8], b2: &[u8], b4: &[u8], b8: &[u8]) {
    out.extend_from_slice(b1);
    for (width, lane) in [(2usize, b2), (4, b4), (8, b8)] {
        if !lane.is_empty() {
            out.resize(out.len().next_multiple_of(width), 0);
            out.extend_from_slice(lane);
        }
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// An uncompressed KV3 version 5 blob holding `root`, with this format GUID.
pub fn kv3_v5(format: [u8; 16], root: &Kv3Value) -> Kv3Blob {
    let mut e = Encoder::default();
    e.value(root);
    // Buffer 1: the strings in the 1-byte lane, and the string count first in the 4-byte lane.
    let mut strings = Vec::new();
    for s in &e.strings {
        strings.extend_from_slice(s.as_bytes());
        strings.push(0);
    }
    let mut buffer1 = Vec::new();
    lanes(
        &mut buffer1,
        &strings,
        &[],
        &u32_of(e.strings.len()).to_le_bytes(),
        &[],
    );
    // Buffer 2: object lengths, the main lanes, the types, the trailer.
    let mut buffer2 = Vec::new();
    for n in &e.objects {
        buffer2.extend_from_slice(&n.to_le_bytes());
    }
    lanes(&mut buffer2, &e.b1, &e.b2, &e.b4, &e.b8);
    buffer2.extend_from_slice(&e.types);
    buffer2.extend_from_slice(&TRAILER.to_le_bytes());
    let mut h = Vec::with_capacity(120 + buffer1.len() + buffer2.len());
    h.extend_from_slice(&[5, 0x33, 0x56, 0x4b]);
    h.extend_from_slice(&format);
    let words = [
        0u32, // compression: none
        0,    // dictionary id and frame size (two u16)
        u32_of(strings.len()),
        1,
        0,
        u32_of(e.types.len()),
        0, // objects and arrays (two u16), unused by readers
        u32_of(buffer1.len() + buffer2.len()),
        u32_of(buffer1.len() + buffer2.len()),
        0, // blocks
        0, // blob bytes
        0, // bytes2
        0, // block sizes
        u32_of(buffer1.len()),
        0,
        u32_of(buffer2.len()),
        0,
        u32_of(e.b1.len()),
        u32_of(e.b2.len() / 2),
        u32_of(e.b4.len() / 4),
        u32_of(e.b8.len() / 8),
        1,
        u32_of(e.objects.len()),
        0,
        0,
    ];
    for w in words {
        h.extend_from_slice(&w.to_le_bytes());
    }
    h.extend_from_slice(&buffer1);
    h.extend_from_slice(&buffer2);
    Kv3Blob { bytes: h }
}

/// The null document the games store in the three mid-file version-36 blobs, with `format` as
/// its GUID (theirs is [`GENERIC_FORMAT`]).
pub fn empty_kv3(format: [u8; 16]) -> Kv3Blob {
    kv3_v5(format, &Kv3Value::Null)
}

/// The hull of the samples: a CS2 player (radius 16, height 72).
fn hull() -> HullParams {
    HullParams {
        enabled: 1,
        radius: f(16.0),
        height: f(72.0),
        short_height_enabled: 1,
        short_height: f(54.0),
        agent_crawl_enabled: 0,
        agent_crawl_height: f(0.0),
        max_climb: f(18.0),
        max_slope: 50,
        max_jump_down_dist: f(240.0),
        max_jump_horiz_dist_base: f(64.0),
        max_jump_up_dist: f(68.0),
        border_erosion: 0,
    }
}

/// Generation parameters of this generator version with one hull, shaped for its gates.
pub fn generation_params(nav_gen_version: i32) -> GenerationParams {
    let mut p = GenerationParams {
        nav_gen_version,
        use_project_defaults: 1,
        tile_size: f(128.0),
        cell_size: f(1.5),
        cell_height: f(2.0),
        min_region_size: 8,
        merged_region_size: 20,
        mesh_sample_distance: f(120.0),
        max_sample_error: f(2.0),
        max_edge_length: 1200,
        max_edge_error: f(45.0),
        verts_per_poly: 4,
        hull_count: 1,
        ..GenerationParams::default()
    };
    let g = p.layout();
    if g.has_small_area_removal() {
        p.small_area_on_edge_removal = f(-1.0);
    }
    let mut h = hull();
    if !g.has_hull_short_height() {
        (h.enabled, h.short_height_enabled, h.short_height) = (0, 0, f(0.0));
    }
    if g.has_hull_crawl() {
        (h.agent_crawl_enabled, h.agent_crawl_height) = (1, f(36.0));
    }
    if g.has_hull_border_erosion() {
        h.border_erosion = 1;
    }
    p.hulls = vec![h; g.hull_records(1).unwrap_or(1)];
    p
}

/// The generator version the games used with a file version: 7 up to v34, 12 for v35, 13 for
/// v36.
pub fn nav_gen_version_of(version: u32) -> i32 {
    match version {
        ..=34 => 7,
        35 => 12,
        _ => 13,
    }
}

/// An empty mesh of this version and sub-version (see [`Source2Mesh::new`]).
pub fn empty(version: u32, sub_version: u32) -> Source2Mesh {
    let v36 = Layout::new(version).is_some_and(|l| l.has_kv3_blobs());
    let blob = || v36.then(|| empty_kv3(GENERIC_FORMAT));
    Source2Mesh {
        version,
        sub_version,
        is_analyzed: 1,
        has_unnamed_areas: 1,
        movable_mesh_settings: blob(),
        game_data: blob(),
        extra_generation_params: blob(),
        custom_data: has_custom_data(sub_version).then(|| {
            kv3_v5(
                CUSTOM_DATA_FORMAT,
                &Kv3Value::Object(vec![("arealist".into(), Kv3Value::Array(Vec::new()))]),
            )
        }),
        generation_params: generation_params(nav_gen_version_of(version)),
        ..Source2Mesh::default()
    }
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
