//! Small models built in code: the files of the repository's `samples/skyrim/`, and test inputs.
//!
//! Every sample is a square floor of `n × n` quads, 128 units each, split into two triangles per
//! quad, with neighbours linked and a grid built the way the Creation Kit lays it out. The
//! variants add what real files carry: a door triangle and cover triangles (interior), edge
//! links to neighbouring navmeshes (exterior), and the Fallout 4 extras (version 15).

use nav_core::{ByteWriter, RawF32};

use crate::nvnm::{
    Cover, CoverMapping, DoorTriangle, EdgeLink, NavmeshGeometry, PATHING_DOOR_CRC, Parent,
    Triangle, TriangleExtra, Waypoint, triangle_flags,
};
use crate::plugin::{COMPRESSED, Compression, Group, Item, NavmeshBody, PluginFile, Record};
use crate::plugin::{RecordBody, Signature, Subrecord};

/// A floor of `n × n` quads at height `z`, neighbours linked, a `divisor`-wide grid.
pub fn floor(n: u16, z: f32, divisor: u8) -> NavmeshGeometry {
    let mut m = NavmeshGeometry::new_skyrim(0);
    let side = n + 1;
    for j in 0..side {
        for i in 0..side {
            m.vertices.push([
                RawF32::new(f32::from(i) * 128.0),
                RawF32::new(f32::from(j) * 128.0),
                RawF32::new(z),
            ]);
        }
    }
    for j in 0..n {
        for i in 0..n {
            let a = j * side + i;
            let (b, c, d) = (a + 1, a + side + 1, a + side);
            for vertices in [[a, b, c], [a, c, d]] {
                m.triangles.push(Triangle {
                    vertices,
                    edges: [-1; 3],
                    extra: None,
                    flags: 0,
                    cover_flags: 0,
                });
            }
        }
    }
    m.link_neighbours();
    m.rebuild_grid(divisor);
    m
}

/// An interior navmesh (Skyrim, version 12): a 3×3 floor with a door triangle and two cover
/// triangles.
pub fn interior() -> NavmeshGeometry {
    let mut m = floor(3, 64.0, 2);
    m.parent = Parent::Cell { cell: 0x0000_0800 };
    // Triangle 0 lies on the floor's edge; a door stands there.
    if let Some(t) = m.triangles.get_mut(0) {
        t.flags |= triangle_flags::DOOR;
    }
    m.door_triangles.push(DoorTriangle {
        triangle: 0,
        door_type: PATHING_DOOR_CRC,
        door: 0x0000_0810,
    });
    for t in [1usize, 5] {
        if let Some(tri) = m.triangles.get_mut(t) {
            // Autogen cover, wall on edge 0-1.
            tri.cover_flags = 0x4000 | 0x0001;
        }
    }
    m.cover_triangles = vec![1, 5];
    m
}

/// An exterior navmesh (Skyrim, version 12) in Tamriel cell (-3, 5): a 2×2 floor whose west
/// edges link to the navmesh of the next cell.
pub fn exterior() -> NavmeshGeometry {
    let mut m = floor(2, -12.5, 1);
    m.parent = Parent::Worldspace {
        worldspace: 0x0000_003C,
        grid_x: -3,
        grid_y: 5,
    };
    // The west edge (x = 0) is edge 2-0 of every second triangle of the first column.
    // (edge link, triangle, the neighbour's triangle across the edge: 7 - triangle).
    for (link, t, across) in [(0i16, 1usize, 6i16), (1, 5, 2)] {
        if let Some(tri) = m.triangles.get_mut(t) {
            tri.flags |= triangle_flags::EDGE_LINK_2_0;
            tri.edges[2] = link;
        }
        m.edge_links.push(EdgeLink {
            link_type: 0,
            navmesh: 0x0001_0A00,
            triangle: across,
            edge_index: None,
        });
    }
    m
}

/// A Fallout 4 navmesh (version 15) shaped like the one real file: a 2×2 floor whose triangles
/// have heights (the grid's maximum Z is the floor plus the greatest height), a wall along the
/// south and east borders as three cover edges (each a triangle edge's vertices in reverse
/// winding) with their cover-triangle mappings (`triangle << 2 | edge`, not in sorted order)
/// and the cover-word bits of the mapped edges. The edge link and the waypoint follow the
/// documented layout only: no real file has one yet.
pub fn fallout4() -> NavmeshGeometry {
    let mut m = floor(2, 0.0, 1);
    m.version = 15;
    m.parent = Parent::Cell { cell: 0x0001_F00D };
    for (i, t) in m.triangles.iter_mut().enumerate() {
        // 170 units (the real file's height), and lower under the north half.
        let height = if i < 4 { 170.0 } else { 128.0 };
        t.extra = Some(TriangleExtra {
            height: RawF32::new(height),
            unknown: 0,
        });
    }
    if let Some(t) = m.triangles.get_mut(1) {
        t.flags |= triangle_flags::EDGE_LINK_2_0;
        t.edges[2] = 0;
    }
    m.edge_links.push(EdgeLink {
        link_type: 1,
        navmesh: 0x0002_0B00,
        triangle: 3,
        edge_index: Some(1),
    });
    // Triangle 0 is (0, 1, 4): edge 0 runs 0 -> 1 along the south border. Triangle 2 is
    // (1, 2, 5): edge 0 runs 1 -> 2 (south), edge 1 runs 2 -> 5 (east).
    m.cover_array = vec![
        Cover {
            vertices: [1, 0],
            data: [0x10, 0x09, 0x00, 0x80],
        },
        Cover {
            vertices: [2, 1],
            data: [0x10, 0x09, 0x00, 0x00],
        },
        Cover {
            vertices: [5, 2],
            data: [0x10, 0x09, 0x00, 0x00],
        },
    ];
    m.cover_mappings = [(0, 0, 0), (2, 1, 2), (2, 0, 1)]
        .into_iter()
        .filter_map(|(triangle, edge, cover)| CoverMapping::new(triangle, edge, cover))
        .collect();
    for (t, word) in [(0usize, 0x0001), (2, 0x0003)] {
        if let Some(tri) = m.triangles.get_mut(t) {
            tri.cover_flags = word;
        }
    }
    m.waypoints = vec![Waypoint {
        position: [RawF32::new(64.0), RawF32::new(32.0), RawF32::new(0.0)],
        triangle: 0,
        flags: 0,
    }];
    m.rebuild_grid(1);
    m
}

fn subrecord(sig: &[u8; 4], data: &[u8]) -> Vec<u8> {
    // Only the sample plugin's own short constant subrecords (at most a few dozen bytes) come
    // here, so the length fits its `u16`.
    #[allow(clippy::cast_possible_truncation)]
    let len = data.len() as u16;
    let mut w = ByteWriter::new();
    w.bytes(sig).u16(len).bytes(data);
    w.into_inner()
}

fn record(sig: &[u8; 4], flags: u32, form_id: u32, body: RecordBody) -> Record {
    Record {
        signature: Signature(*sig),
        flags,
        form_id,
        timestamp: 0,
        version_control: 0,
        form_version: 44,
        version_control_2: 0,
        body,
    }
}

fn group(label: u32, group_type: i32, items: Vec<Item>) -> Item {
    Item::Group(Group {
        label,
        group_type,
        timestamp: 0,
        version_control: 0,
        unknown: 0,
        items,
    })
}

/// A navmesh record holding `nvnm`, zlib-compressed at level 9 when `compressed`.
pub fn navmesh_record(form_id: u32, nvnm: Vec<u8>, compressed: bool) -> Record {
    let (flags, compression) = if compressed {
        (COMPRESSED, Compression::Zlib { level: 9 })
    } else {
        (0, Compression::None)
    };
    record(
        b"NAVM",
        flags,
        form_id,
        RecordBody::Navmesh(NavmeshBody {
            compression,
            subrecords: vec![Subrecord {
                signature: Signature(*b"NVNM"),
                data: nvnm,
                large: None,
            }],
        }),
    )
}

/// A Skyrim SE plugin with one interior cell (`NavkitRoom`, FormID `00000800`) whose temporary
/// children hold two navmeshes: [`interior`] compressed (`00000801`) and a 1×1 floor
/// uncompressed (`00000802`), in the group nesting the Creation Kit uses (0 → 2 → 3 → 6 → 9).
pub fn plugin() -> PluginFile {
    let mut hedr = ByteWriter::new();
    hedr.f32(RawF32::new(1.71)).u32(4).u32(0x0000_0803);
    let mut header = subrecord(b"HEDR", hedr.as_slice());
    header.extend(subrecord(b"CNAM", b"navkit\0"));
    let mut cell = subrecord(b"EDID", b"NavkitRoom\0");
    cell.extend(subrecord(b"DATA", &[1, 0]));
    let nvnm = |m: &NavmeshGeometry| crate::nvnm::write::write(m).unwrap_or_default();
    let mut small = floor(1, 0.0, 1);
    small.parent = Parent::Cell { cell: 0x0000_0800 };
    let temporary = group(
        0x0000_0800,
        9,
        vec![
            Item::Record(navmesh_record(0x0000_0801, nvnm(&interior()), true)),
            Item::Record(navmesh_record(0x0000_0802, nvnm(&small), false)),
        ],
    );
    let cell_children = group(0x0000_0800, 6, vec![temporary]);
    let sub_block = group(
        0,
        3,
        vec![
            Item::Record(record(b"CELL", 0, 0x0000_0800, RecordBody::Raw(cell))),
            cell_children,
        ],
    );
    let block = group(0, 2, vec![sub_block]);
    PluginFile {
        header: record(b"TES4", 0, 0, RecordBody::Raw(header)),
        items: vec![group(u32::from_le_bytes(*b"CELL"), 0, vec![block])],
    }
}
