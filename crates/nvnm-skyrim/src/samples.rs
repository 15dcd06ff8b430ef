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

/// What [`game_scale_plugin`] made: the plugin, and how many navmesh records it holds.
#[derive(Debug, Clone)]
pub struct ScalePlugin {
    /// The plugin.
    pub plugin: PluginFile,
    /// `NAVM` records in it.
    pub navmeshes: usize,
    /// Of those, the compressed ones.
    pub compressed: usize,
}

/// A plugin laid out the way a master file holds its navmeshes, for measuring the crate at the
/// scale of a whole game: `navmeshes` `NAVM` records whose `NVNM` payloads cycle through
/// `nvnms` (version-12 blobs; any other is skipped), one in `compress_every` zlib-compressed
/// (level 9, each distinct payload compressed once).
///
/// A quarter of the navmeshes sit in interior cells, two per cell (`CELL` top group → blocks
/// (type 2) → sub-blocks (type 3) → `CELL` record and its children (6) → temporary children
/// (9)); the rest in the exterior cells of worldspace `0000003C`, one per cell (`WRLD` top group
/// → `WRLD` record and its children (1) → blocks (4) of 32 × 32 cells → sub-blocks (5) of 8 × 8
/// → `CELL` record, 6, 9). A `NAVI` top group ends the file: one `NAVI` record whose `NVER` is
/// 12 and whose `NVMI` entries name every navmesh once (in the order the navmeshes were made), centre, parent and edge links
/// taken from its `NVNM`. `None` when no payload is a version-12 `NVNM`.
pub fn game_scale_plugin(
    nvnms: &[Vec<u8>],
    navmeshes: usize,
    compress_every: usize,
) -> Option<ScalePlugin> {
    use crate::plugin::navi::{NaviBody, NaviField, NaviSubrecord, NavmeshInfo, PATHING_CELL_CRC};
    use std::collections::BTreeMap;

    struct Blob {
        nvnm: Vec<u8>,
        info: NavmeshInfo,
        stream: Option<crate::plugin::StoredStream>,
    }
    let blobs: Vec<Blob> = nvnms
        .iter()
        .filter_map(|b| {
            let mesh = crate::nvnm::view::NavmeshGeometryView::parse(b)
                .ok()
                .map(|v| NavmeshGeometry::from_view(&v))?;
            (mesh.version == 12).then_some(())?;
            let mut info = NavmeshInfo {
                navmesh: 0,
                flags: 0,
                centre: crate::plugin::navi::sync::centre(&mesh.vertices).unwrap_or_default(),
                unknown: RawF32::default(),
                edge_links: Vec::new(),
                preferred_edge_links: Vec::new(),
                doors: Vec::new(),
                island: None,
                pathing_cell_crc: PATHING_CELL_CRC,
                parent: mesh.parent,
                trailing: Vec::new(),
            };
            // The edge-link list, as the Creation Kit keeps it.
            crate::plugin::navi::sync::update(&mut info, &mesh);
            Some(Blob {
                nvnm: b.clone(),
                info,
                stream: None,
            })
        })
        .collect();
    if blobs.is_empty() {
        return None;
    }
    let mut blobs = blobs;
    let body = |nvnm: Vec<u8>| NavmeshBody {
        compression: Compression::None,
        subrecords: vec![Subrecord {
            signature: Signature(*b"NVNM"),
            large: (nvnm.len() > usize::from(u16::MAX)).then_some(0),
            data: nvnm,
        }],
    };
    let mut next_id = 0x0000_0800u32;
    let mut id = || {
        next_id += 1;
        next_id
    };
    let mut infos = Vec::with_capacity(navmeshes);
    let mut compressed = 0;
    let mut navmesh = |i: usize, id: u32, infos: &mut Vec<NavmeshInfo>| -> Item {
        let k = i % blobs.len();
        let blob = &mut blobs[k];
        let mut info = blob.info.clone();
        info.navmesh = id;
        infos.push(info);
        let mut body = body(blob.nvnm.clone());
        let compress = compress_every > 0 && i % compress_every == 0;
        if compress {
            compressed += 1;
            let stream = blob.stream.get_or_insert_with(|| {
                let plain = crate::plugin::write::subrecord_bytes(&body, 0).unwrap_or_default();
                crate::plugin::StoredStream::new(crate::plugin::deflate(&plain, 9), &plain)
            });
            body.compression = Compression::Stored(stream.clone());
        }
        let mut r = record(
            b"NAVM",
            if compress { COMPRESSED } else { 0 },
            id,
            RecordBody::Navmesh(body),
        );
        r.form_version = 43;
        Item::Record(r)
    };
    let cell = |id: u32, children: Vec<Item>| -> Vec<Item> {
        let mut data = subrecord(b"DATA", &[0, 0]);
        data.extend(subrecord(b"XCLC", &[0; 12]));
        vec![
            Item::Record(record(b"CELL", 0, id, RecordBody::Raw(data))),
            group(id, 6, vec![group(id, 9, children)]),
        ]
    };

    // Interior cells: two navmeshes each, 100 cells to a sub-block, 10 sub-blocks to a block.
    let interior = navmeshes / 4;
    let mut blocks: Vec<Item> = Vec::new();
    let mut subs: Vec<Item> = Vec::new();
    let mut cells: Vec<Item> = Vec::new();
    let mut i = 0;
    while i < interior {
        let cell_id = id();
        let mut children = vec![navmesh(i, id(), &mut infos)];
        if i + 1 < interior {
            children.push(navmesh(i + 1, id(), &mut infos));
        }
        i += 2;
        cells.extend(cell(cell_id, children));
        if cells.len() == 200 || i >= interior {
            let label = u32::try_from(subs.len()).unwrap_or(0);
            subs.push(group(label, 3, std::mem::take(&mut cells)));
        }
        if subs.len() == 10 || (i >= interior && !subs.is_empty()) {
            let label = u32::try_from(blocks.len()).unwrap_or(0);
            blocks.push(group(label, 2, std::mem::take(&mut subs)));
        }
    }
    let interior_group = group(u32::from_le_bytes(*b"CELL"), 0, blocks);

    // Exterior cells: one navmesh each, on a square grid centred on 0.
    let exterior = navmeshes - interior;
    let side = (1..).find(|s: &usize| s * s >= exterior).unwrap_or(1);
    let half = i32::try_from(side / 2).unwrap_or(0);
    // Block (y, x) → sub-block (y, x) → the cells' items.
    type Cells = BTreeMap<(i32, i32), Vec<Item>>;
    let mut by_block: BTreeMap<(i32, i32), Cells> = BTreeMap::new();
    for e in 0..exterior {
        let x = i32::try_from(e % side).unwrap_or(0) - half;
        let y = i32::try_from(e / side).unwrap_or(0) - half;
        let cell_id = id();
        let item = navmesh(interior + e, id(), &mut infos);
        by_block
            .entry((y.div_euclid(32), x.div_euclid(32)))
            .or_default()
            .entry((y.div_euclid(8), x.div_euclid(8)))
            .or_default()
            .extend(cell(cell_id, vec![item]));
    }
    let label = |y: i32, x: i32| {
        let (y, x) = (i16::try_from(y).unwrap_or(0), i16::try_from(x).unwrap_or(0));
        u32::from(u16::from_le_bytes(y.to_le_bytes())) << 16
            | u32::from(u16::from_le_bytes(x.to_le_bytes()))
    };
    let world_blocks: Vec<Item> = by_block
        .into_iter()
        .map(|((by, bx), subs)| {
            let subs = subs
                .into_iter()
                .map(|((sy, sx), cells)| group(label(sy, sx), 5, cells))
                .collect();
            group(label(by, bx), 4, subs)
        })
        .collect();
    let mut wrld = subrecord(b"EDID", b"Tamriel\0");
    wrld.extend(subrecord(b"DATA", &[0]));
    let world_group = group(
        u32::from_le_bytes(*b"WRLD"),
        0,
        vec![
            Item::Record(record(b"WRLD", 0, 0x0000_003C, RecordBody::Raw(wrld))),
            group(0x0000_003C, 1, world_blocks),
        ],
    );

    let mut fields = vec![NaviSubrecord {
        field: NaviField::Version(12),
        large: None,
    }];
    fields.extend(infos.into_iter().map(|info| NaviSubrecord {
        field: NaviField::NavmeshInfo(info),
        large: None,
    }));
    let navi = record(
        b"NAVI",
        0,
        0x0001_2FB4,
        RecordBody::NavigationInfo(NaviBody {
            compression: Compression::None,
            subrecords: fields,
        }),
    );
    let navi_group = group(u32::from_le_bytes(*b"NAVI"), 0, vec![Item::Record(navi)]);

    let mut hedr = ByteWriter::new();
    hedr.f32(RawF32::new(1.71))
        .u32(u32::try_from(navmeshes).unwrap_or(u32::MAX))
        .u32(next_id + 1);
    let mut header = subrecord(b"HEDR", hedr.as_slice());
    header.extend(subrecord(b"CNAM", b"navkit\0"));
    Some(ScalePlugin {
        plugin: PluginFile {
            header: record(b"TES4", 1, 0, RecordBody::Raw(header)),
            items: vec![interior_group, world_group, navi_group],
        },
        navmeshes,
        compressed,
    })
}
