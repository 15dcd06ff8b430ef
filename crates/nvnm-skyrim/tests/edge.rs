//! Hand-built edge cases for NVNM blobs and plugins: empty meshes, sentinels, odd floats,
//! every part of the version-15 layout (edge links and waypoints are in no real file yet),
//! truncation at every byte, absurd counts, bad group sizes, zlib oddities, and the writer's
//! refusals.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::oracle::{roundtrip_bytes, roundtrip_model};
use nav_core::testing::LeBuilder;
use nav_core::{ErrorKind, Format, RawF32, Severity};
use nvnm_skyrim::nvnm::{Edge, NavmeshGeometry, PATHING_CELL_CRC, Parent, TriangleExtra};
use nvnm_skyrim::plugin::{
    COMPRESSED, Compression, Item, NavmeshBody, RecordBody, Resolved, Signature, Subrecord, deflate,
};
use nvnm_skyrim::{Nvnm, Plugin, samples};

/// The header of a version-`v` blob of interior cell `cell`.
fn header(v: u32, cell: u32) -> LeBuilder {
    LeBuilder::new()
        .u32(v)
        .u32(PATHING_CELL_CRC)
        .u32(0)
        .u32(cell)
}

/// A grid with `divisor` and no entries.
fn empty_grid(b: LeBuilder, divisor: u32) -> LeBuilder {
    let b = b
        .u32(divisor)
        .f32(0.0)
        .f32(0.0)
        .vec3(0.0, 0.0, 0.0)
        .vec3(0.0, 0.0, 0.0);
    (0..divisor * divisor).fold(b, |b, _| b.u32(0))
}

fn empty_v12() -> Vec<u8> {
    let b = header(12, 0x1234).u32(0).u32(0).u32(0).u32(0).u32(0);
    empty_grid(b, 0).finish()
}

#[test]
fn empty_mesh_round_trips() {
    let bytes = empty_v12();
    assert_eq!(bytes.len(), 16 + 5 * 4 + 36);
    let m = roundtrip_bytes(&Nvnm, &bytes).unwrap();
    assert_eq!(m.parent, Parent::Cell { cell: 0x1234 });
    assert!(m.vertices.is_empty() && m.grid.cells.is_empty());
    // An empty Fallout 4 mesh has three more counts (cover array, mappings, waypoints).
    let b = header(15, 1)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0);
    let v15 = empty_grid(b, 1).finish();
    let m = roundtrip_bytes(&Nvnm, &v15).unwrap();
    assert_eq!(m.grid.cells, vec![Vec::<i16>::new()]);
}

/// A hand-built version-12 blob with every part: two triangles (one flagged edge link, one
/// door), an edge link, a door triangle, a cover triangle, a 2×2 grid.
fn full_v12() -> Vec<u8> {
    let b = LeBuilder::new()
        .u32(12)
        .u32(PATHING_CELL_CRC)
        .u32(0x3c)
        .i16(-7) // grid y first
        .i16(22) // grid x
        .u32(4)
        .vec3(0.0, 0.0, 1.0)
        .vec3(100.0, 0.0, 1.0)
        .vec3(100.0, 100.0, 1.0)
        .f32_bits(0x8000_0000) // -0.0
        .f32(100.0)
        .f32_bits(0x7fc0_1234) // a NaN with a payload
        .u32(2)
        // triangle 0: edge 0-1 links (flag 0x1) to edge link 0, edge 1-2 to triangle 1
        .u16(0)
        .u16(1)
        .u16(2)
        .i16(0)
        .i16(1)
        .i16(-1)
        .u16(0x0001)
        .u16(0x4001)
        // triangle 1: a door triangle
        .u16(0)
        .u16(2)
        .u16(3)
        .i16(0)
        .i16(-1)
        .i16(-1)
        .u16(0x0400)
        .u16(0)
        .u32(1)
        .u32(0)
        .u32(0x0001_0203)
        .i16(17)
        .u32(1)
        .i16(1)
        .u32(0xE48B_73F3)
        .u32(0x0000_1111)
        .u32(1)
        .i16(0)
        .u32(2)
        .f32(50.0)
        .f32(50.0)
        .vec3(0.0, 0.0, 1.0)
        .vec3(100.0, 100.0, 1.0);
    // Cells (0,0), (1,0), (0,1), (1,1): X fastest.
    b.u32(2)
        .i16(0)
        .i16(1)
        .u32(1)
        .i16(0)
        .u32(2)
        .i16(0)
        .i16(1)
        .u32(1)
        .i16(0)
        .finish()
}

#[test]
fn full_v12_parses_with_every_part_and_round_trips() {
    let bytes = full_v12();
    let view = Nvnm.parse(&bytes).unwrap();
    assert_eq!(view.vertices().len(), 4);
    assert_eq!(view.triangle_count(), 2);
    assert_eq!(view.triangle(0).unwrap().edge(0), Edge::EdgeLink(0));
    assert_eq!(view.triangle(0).unwrap().edge(1), Edge::Triangle(1));
    assert_eq!(view.triangle(0).unwrap().edge(2), Edge::None);
    assert_eq!(view.cells().len(), 4);
    let m = roundtrip_bytes(&Nvnm, &bytes).unwrap();
    assert_eq!(
        m.parent,
        Parent::Worldspace {
            worldspace: 0x3c,
            grid_x: 22,
            grid_y: -7
        }
    );
    assert_eq!(m.vertices[3][0], RawF32(0x8000_0000));
    assert_eq!(m.vertices[3][2], RawF32(0x7fc0_1234));
    assert_eq!(m.door_triangles[0].door, 0x1111);
    assert_eq!(m.edge_links[0].triangle, 17);
    assert_eq!(m.cover_triangles, [0]);
    assert_eq!(m.grid.cells[1], [0]);
    // JSON keeps the NaN payload and the -0.0.
    let json = serde_json::to_string(&m).unwrap();
    let back: NavmeshGeometry = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    assert_eq!(Nvnm.write(&back).unwrap(), bytes);
    // The NaN vertex lies outside any bounds: the only finding that is not info.
    let findings = Nvnm.validate(&m);
    let serious: Vec<_> = findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .collect();
    assert_eq!(serious.len(), 1, "{findings:#?}");
    assert_eq!(serious[0].severity, Severity::Warning);
    assert!(
        serious[0].message.contains("outside the grid bounds"),
        "{findings:#?}"
    );
    // Break the back edge: triangle 1 no longer names triangle 0.
    let mut m = m;
    m.triangles[1].edges[0] = -1;
    let findings = Nvnm.validate(&m);
    assert!(
        findings.iter().any(|f| f.severity == Severity::Warning
            && f.to_string()
                == "warning: triangles[0] edges[1]: neighbour triangle 1 has no edge back to triangle 0"),
        "{findings:#?}"
    );
}

/// A hand-built version-15 (Fallout 4) blob, laid out field by field from the documented
/// layout: 21-byte triangles, 11-byte edge links, cover array, cover mappings, waypoints.
fn full_v15() -> Vec<u8> {
    LeBuilder::new()
        .u32(15)
        .u32(PATHING_CELL_CRC)
        .u32(0)
        .u32(0x0002_0000)
        .u32(3)
        .vec3(0.0, 0.0, 0.0)
        .vec3(10.0, 0.0, 0.0)
        .vec3(0.0, 10.0, 0.0)
        .u32(1)
        .u16(0)
        .u16(1)
        .u16(2)
        .i16(0)
        .i16(-1)
        .i16(-1)
        .f32(2.5)
        .u8(0xab)
        .u16(0x0001)
        .u16(0)
        .u32(1)
        .u32(3)
        .u32(0x0002_0001)
        .i16(5)
        .u8(2)
        .u32(0)
        .u32(1)
        .u16(2)
        .u16(1)
        .bytes(&[1, 2, 3, 4])
        .u32(1)
        .u16(1) // triangle 0, edge 1 (1 -> 2)
        .u16(0) // cover 0
        .u32(1)
        .vec3(3.0, 3.0, 0.0)
        .i16(0)
        .u32(0x8000_0001)
        .u32(1)
        .f32(10.0)
        .f32(10.0)
        .vec3(0.0, 0.0, 0.0)
        .vec3(10.0, 10.0, 0.0)
        .u32(1)
        .i16(0)
        .finish()
}

#[test]
fn version_15_layout_from_the_documentation() {
    let bytes = full_v15();
    assert_eq!(
        bytes.len(),
        16 + 4 + 36 + 4 + 21 + 4 + 11 + 4 + 4 + 8 + 4 + 4 + 4 + 18 + 36 + 6
    );
    let view = Nvnm.parse(&bytes).unwrap();
    assert_eq!(view.layout(), nvnm_skyrim::nvnm::Layout::Fallout4);
    let m = roundtrip_bytes(&Nvnm, &bytes).unwrap();
    assert_eq!(
        m.triangles[0].extra,
        Some(TriangleExtra {
            height: RawF32::new(2.5),
            unknown: 0xab
        })
    );
    assert_eq!(m.triangles[0].edge(0), Edge::EdgeLink(0));
    assert_eq!(m.edge_links[0].edge_index, Some(2));
    assert_eq!(m.edge_links[0].link_type, 3);
    assert_eq!(m.cover_array[0].data, [1, 2, 3, 4]);
    assert_eq!(m.cover_array[0].vertices, [2, 1]);
    let map = &m.cover_mappings[0];
    assert_eq!((map.triangle_edge, map.cover), (1, 0));
    assert_eq!((map.triangle(), map.edge()), (0, 1));
    assert_eq!(m.waypoints[0].flags, 0x8000_0001);
    assert!(m.cover_triangles.is_empty());
    assert_eq!(Nvnm.validate(&m), vec![]);
}

#[test]
fn truncation_at_every_byte_is_an_error() {
    for bytes in [full_v12(), full_v15(), empty_v12()] {
        for len in 0..bytes.len() {
            let err = Nvnm.parse(&bytes[..len]).unwrap_err();
            assert!(err.to_string().starts_with("nvnm-skyrim: "), "{err}");
            assert!(err.offset().is_some_and(|o| o <= len), "{err}");
        }
    }
    // The sample plugin: its 55-byte TES4 record, then one top group to the end. Only the
    // prefix that ends with the header is a plugin of its own.
    let plugin = Plugin.write(&samples::plugin()).unwrap();
    for len in 0..plugin.len() {
        let result = Plugin.parse(&plugin[..len]);
        assert_eq!(result.is_ok(), len == 55, "prefix of {len} bytes");
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = empty_v12();
    bytes.push(0);
    let err = Nvnm.parse(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nvnm-skyrim: end of the grid: 1 unexpected bytes after the last record, at offset 0x48"
    );
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let bytes = header(12, 0).u32(u32::MAX).u32(0).finish();
    let err = Nvnm.parse(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nvnm-skyrim: vertices: count 4294967295 at offset 0x14 exceeds the 4 bytes left (12 bytes each)"
    );
    // A grid divisor of 65,535 asks for 4 billion cells.
    let b = header(12, 0).u32(0).u32(0).u32(0).u32(0).u32(0);
    let bytes = b.u32(0xffff).fill(0, 32).u32(0).finish();
    let err = Nvnm.parse(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::CountTooLarge {
                count: 4_294_836_225,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("grid cells"), "{err}");
    // And a cell list longer than the input.
    let b = header(12, 0).u32(0).u32(0).u32(0).u32(0).u32(0);
    let bytes = b.u32(1).fill(0, 32).u32(0x4000_0000).finish();
    let err = Nvnm.parse(&bytes).unwrap_err();
    assert!(err.to_string().contains("grid cells[0]"), "{err}");
}

#[test]
fn unknown_versions_are_refused() {
    for v in [0u32, 11, 13, 14, 16, u32::MAX] {
        let mut bytes = empty_v12();
        bytes[..4].copy_from_slice(&v.to_le_bytes());
        let err = Nvnm.parse(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "nvnm-skyrim: header version: version {v} at offset 0x0 is not supported (12 (Skyrim LE/SE) or 15 (Fallout 4))"
            )
        );
    }
}

#[test]
fn edge_values_decode_by_flag_bits() {
    assert_eq!(Edge::decode(0, 0, -1), Edge::None);
    assert_eq!(Edge::decode(0, 1, 7), Edge::Triangle(7));
    assert_eq!(Edge::decode(0x2, 1, 7), Edge::EdgeLink(7));
    assert_eq!(Edge::decode(0x2, 0, 7), Edge::Triangle(7));
    assert_eq!(Edge::decode(0x4, 2, -1), Edge::Invalid(-1));
    assert_eq!(Edge::decode(0, 2, -2), Edge::Invalid(-2));
    assert_eq!(Edge::decode(0, 0, i16::MAX), Edge::Triangle(32767));
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let base = samples::interior();
    let refuse = |m: NavmeshGeometry, needle: &str| {
        let err = Nvnm.write(&m).unwrap_err();
        assert!(err.to_string().contains(needle), "{err}");
        assert_eq!(roundtrip_model(&Nvnm, &m), Ok(None));
    };
    let mut m = base.clone();
    m.version = 13;
    refuse(m, "version 13 has no known layout");
    let mut m = base.clone();
    m.parent = Parent::Worldspace {
        worldspace: 0,
        grid_x: 1,
        grid_y: 2,
    };
    refuse(m, "non-zero worldspace");
    let mut m = base.clone();
    m.triangles[3].extra = Some(TriangleExtra {
        height: RawF32::ZERO,
        unknown: 0,
    });
    refuse(m, "triangles[3] extra");
    let mut m = base.clone();
    m.version = 15;
    refuse(m, "version-15 triangle needs");
    let mut m = base.clone();
    m.grid.cells.pop();
    refuse(m, "stored value 4 disagrees with the computed 3");
    let mut m = samples::fallout4();
    m.cover_triangles.push(0);
    refuse(m, "cover-triangle mappings");
    let mut m = base;
    m.waypoints = samples::fallout4().waypoints;
    refuse(m, "waypoints");
}

#[test]
fn validate_finds_broken_indices_and_grid_entries() {
    let mut m = samples::interior();
    m.triangles[0].vertices[1] = 99;
    m.triangles[2].edges[0] = 500;
    m.triangles[4].flags |= 0x1;
    m.triangles[4].edges[0] = 3; // edge link 3 of 0
    m.door_triangles[0].triangle = -5;
    m.cover_triangles.push(18);
    m.grid.cells[0].push(17); // triangle 17 sits in the far corner cell
    m.grid.max[0] = RawF32::new(10.0);
    let findings = Nvnm.validate(&m);
    let text: Vec<String> = findings.iter().map(ToString::to_string).collect();
    let has = |s: &str| text.iter().any(|t| t.contains(s));
    assert!(
        has("error: triangles[0] vertices[1]: vertex 99 is past the 16 vertices"),
        "{text:#?}"
    );
    assert!(
        has("error: triangles[2] edges[0]: neighbour triangle 500 is past the 18 triangles"),
        "{text:#?}"
    );
    assert!(
        has("error: triangles[4] edges[0]: edge link 3 is past the 0 edge links"),
        "{text:#?}"
    );
    assert!(
        has("error: door_triangles[0] triangle: triangle -5 is not one of the 18 triangles"),
        "{text:#?}"
    );
    assert!(has("error: cover_triangles[2]: triangle 18"), "{text:#?}");
    assert!(has("does not touch cell (0, 0)"), "{text:#?}");
    assert!(has("vertices lie outside the grid bounds"), "{text:#?}");
    assert!(has("info: grid cell_size[0]"), "{text:#?}");
}

// ---- plugins ----

fn plugin_bytes() -> Vec<u8> {
    Plugin.write(&samples::plugin()).unwrap()
}

/// A record header.
fn record(b: LeBuilder, sig: &[u8; 4], size: u32, flags: u32, form_id: u32) -> LeBuilder {
    b.magic(sig)
        .u32(size)
        .u32(flags)
        .u32(form_id)
        .u16(0)
        .u16(0)
        .u16(44)
        .u16(0)
}

fn tes4() -> LeBuilder {
    record(LeBuilder::new(), b"TES4", 0, 0, 0)
}

#[test]
fn plugin_sample_walks_as_built() {
    let bytes = plugin_bytes();
    let view = Plugin.parse(&bytes).unwrap();
    let found: Vec<u32> = view.navmeshes().map(|(id, _)| id).collect();
    assert_eq!(found, [0x801, 0x802]);
    let first = view.records().find(|r| r.form_id() == 0x801).unwrap();
    assert_eq!(nvnm_skyrim::PluginView::reproducing_level(first), Some(9));
    assert_eq!(
        first.nvnm().unwrap(),
        Nvnm.write(&samples::interior()).unwrap()
    );
}

#[test]
fn plugin_needs_the_tes4_signature() {
    let err = Plugin.parse(b"TES3\0\0\0\0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "skyrim-plugin: header: magic \"TES3\" at offset 0x0 is not TES4"
    );
    assert!(Plugin.sniff(&plugin_bytes()) && !Plugin.sniff(b"NVNM"));
    assert!(!Nvnm.sniff(&full_v12()));
}

#[test]
fn group_sizes_are_checked() {
    // Under 24.
    let bytes = tes4().magic(b"GRUP").u32(8).fill(0, 16).finish();
    let err = Plugin.parse(&bytes).unwrap_err();
    assert!(
        err.to_string().contains("group size 8 is under 24"),
        "{err}"
    );
    // Past the end of the file.
    let bytes = tes4().magic(b"GRUP").u32(4096).fill(0, 16).finish();
    assert!(
        Plugin
            .parse(&bytes)
            .unwrap_err()
            .to_string()
            .contains("runs past")
    );
    // A record that runs past its group.
    let b = tes4().magic(b"GRUP").u32(24 + 24 + 2).fill(0, 16);
    let bytes = record(b, b"STAT", 4, 0, 1).fill(0, 4).finish();
    let err = Plugin.parse(&bytes).unwrap_err();
    assert!(
        err.to_string().contains("data size 4 runs past its group"),
        "{err}"
    );
    // A record header that straddles the end of its group.
    let b = tes4().magic(b"GRUP").u32(24 + 10).fill(0, 16);
    let bytes = record(b, b"STAT", 0, 0, 1).finish();
    let err = Plugin.parse(&bytes).unwrap_err();
    assert!(err.to_string().contains("24 bytes needed"), "{err}");
}

#[test]
fn deep_nesting_is_refused_without_recursion() {
    let depth = 10_000usize;
    let mut b = tes4();
    for level in 0..depth {
        b = b
            .magic(b"GRUP")
            .u32(((depth - level) * 24) as u32)
            .fill(0, 16);
    }
    let err = Plugin.parse(&b.finish()).unwrap_err();
    assert!(
        err.to_string()
            .contains("groups nest deeper than 32 levels"),
        "{err}"
    );
    // 32 levels are fine, and round-trip.
    let mut b = tes4();
    for level in 0..32usize {
        b = b.magic(b"GRUP").u32(((32 - level) * 24) as u32).fill(0, 16);
    }
    roundtrip_bytes(&Plugin, &b.finish()).unwrap();
}

fn navm_with(data: &[u8], flags: u32) -> Vec<u8> {
    record(tes4(), b"NAVM", data.len() as u32, flags, 0x42)
        .bytes(data)
        .finish()
}

#[test]
fn large_subrecords_use_xxxx() {
    let mut mesh = samples::floor(60, 0.0, 12);
    mesh.parent = Parent::Cell { cell: 1 };
    let nvnm = Nvnm.write(&mesh).unwrap();
    assert!(nvnm.len() > 65_535, "{}", nvnm.len());
    let mut model = Plugin.read(&plugin_bytes()).unwrap();
    model.replace_nvnm(0x802, nvnm.clone()).unwrap();
    let bytes = Plugin.write(&model).unwrap();
    let at = bytes.windows(4).position(|w| w == b"XXXX").unwrap();
    assert_eq!(&bytes[at + 4..at + 6], &[4, 0]);
    assert_eq!(&bytes[at + 6..at + 10], &(nvnm.len() as u32).to_le_bytes());
    assert_eq!(&bytes[at + 10..at + 16], b"NVNM\0\0");
    let back = roundtrip_bytes(&Plugin, &bytes).unwrap();
    assert_eq!(back.navmeshes()[1], (0x802, nvnm.as_slice()));
    // The writer will not squeeze it into a 16-bit size.
    if let Some(Item::Group(_)) = model.items.first() {
        let mut m = model.clone();
        set_large(&mut m.items, None);
        let err = Plugin.write(&m).unwrap_err();
        assert!(
            err.to_string()
                .contains("does not fit the field's 16-bit range"),
            "{err}"
        );
    }
    // An XXXX subrecord must hold 4 bytes.
    let data = LeBuilder::new().magic(b"XXXX").u16(2).u16(0).finish();
    let err = Plugin.parse(&navm_with(&data, 0)).unwrap_err();
    assert!(err.to_string().contains("size 2 is not 4"), "{err}");
    // Two in a row name no subrecord (the writer could not give them back).
    let data = LeBuilder::new()
        .magic(b"XXXX")
        .u16(4)
        .u32(2)
        .magic(b"XXXX")
        .u16(0)
        .u16(0)
        .finish();
    let err = Plugin.parse(&navm_with(&data, 0)).unwrap_err();
    assert!(
        err.to_string()
            .contains("a second XXXX cannot follow an XXXX"),
        "{err}"
    );
    // And must be followed by a subrecord.
    let data = LeBuilder::new().magic(b"XXXX").u16(4).u32(9).finish();
    assert!(Plugin.parse(&navm_with(&data, 0)).is_err());
}

fn set_large(items: &mut [Item], large: Option<u16>) {
    for item in items {
        match item {
            Item::Group(g) => set_large(&mut g.items, large),
            Item::Record(r) => {
                if let RecordBody::Navmesh(b) = &mut r.body {
                    for s in &mut b.subrecords {
                        s.large = large;
                    }
                }
            }
        }
    }
}

#[test]
fn zlib_oddities_are_refused_or_kept() {
    let payload = LeBuilder::new()
        .magic(b"EDID")
        .u16(3)
        .bytes(b"ab\0")
        .finish();
    let stream = deflate(&payload, 9);
    // A declared size far beyond what the stream could hold.
    let data = LeBuilder::new().u32(0xffff_fff0).bytes(&stream).finish();
    let err = Plugin.parse(&navm_with(&data, COMPRESSED)).unwrap_err();
    assert!(
        err.to_string().contains("more than the crate inflates"),
        "{err}"
    );
    // A declared size that disagrees with the stream.
    let data = LeBuilder::new().u32(5).bytes(&stream).finish();
    let err = Plugin.parse(&navm_with(&data, COMPRESSED)).unwrap_err();
    assert!(
        err.to_string().contains("more than the declared 5 bytes"),
        "{err}"
    );
    let data = LeBuilder::new().u32(20).bytes(&stream).finish();
    let err = Plugin.parse(&navm_with(&data, COMPRESSED)).unwrap_err();
    assert!(
        err.to_string()
            .contains("inflates to 9 bytes, not the declared 20"),
        "{err}"
    );
    // Bytes after the stream.
    let data = LeBuilder::new().u32(9).bytes(&stream).u8(0).finish();
    let err = Plugin.parse(&navm_with(&data, COMPRESSED)).unwrap_err();
    assert!(
        err.to_string()
            .contains("1 bytes follow the end of the zlib stream"),
        "{err}"
    );
    // Garbage.
    let data = LeBuilder::new().u32(9).fill(0xee, 12).finish();
    let err = Plugin.parse(&navm_with(&data, COMPRESSED)).unwrap_err();
    assert!(err.to_string().contains("zlib stream"), "{err}");
    // A stream no zlib level makes (a stored block under a level-6 header) is kept.
    let mut odd = vec![0x78, 0x9c, 0x01, 9, 0, !9, 0xff];
    odd.extend_from_slice(&payload);
    odd.extend_from_slice(&adler32(&payload).to_be_bytes());
    let data = LeBuilder::new().u32(9).bytes(&odd).finish();
    let bytes = navm_with(&data, COMPRESSED);
    let model = roundtrip_bytes(&Plugin, &bytes).unwrap();
    let Item::Record(r) = &model.items[0] else {
        panic!("not a record")
    };
    let RecordBody::Navmesh(body) = &r.body else {
        panic!("not opened")
    };
    assert_eq!(
        body.compression,
        Compression::Kept {
            stream: odd.clone()
        }
    );
    assert_eq!(body.subrecords[0].data, b"ab\0");
    // validate does not search a stream as read for its level (a deflate per level per record):
    // no finding, though the stream resolves as kept.
    assert!(Plugin.validate(&model).is_empty());
    assert!(matches!(body.compression.resolve(), Resolved::Kept(_)));
    // Once the subrecords change, the stored stream gives way: no level reproduces it and no
    // other record has one, so the record is recompressed at the default level.
    let mut edited = model.clone();
    if let Item::Record(r) = &mut edited.items[0] {
        if let RecordBody::Navmesh(b) = &mut r.body {
            b.subrecords[0].data = b"cd\0".to_vec();
        }
    }
    let written = Plugin.write(&edited).unwrap();
    let plain = LeBuilder::new()
        .magic(b"EDID")
        .u16(3)
        .bytes(b"cd\0")
        .finish();
    let data = LeBuilder::new().u32(9).bytes(&deflate(&plain, 9)).finish();
    assert_eq!(written, navm_with(&data, COMPRESSED));
    // A stream kept as such (as JSON gives it) cannot be written once the subrecords change.
    if let Item::Record(r) = &mut edited.items[0] {
        if let RecordBody::Navmesh(b) = &mut r.body {
            b.compression = Compression::Kept {
                stream: odd.clone(),
            };
        }
    }
    let err = Plugin.write(&edited).unwrap_err();
    assert!(err.to_string().contains("no longer inflates"), "{err}");
}

/// Adler-32 of `data` (the zlib trailer), for the hand-made stream above.
fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

#[test]
fn deleted_navmesh_with_no_data_round_trips() {
    // The compressed flag on an empty record (a deleted navmesh) opens to no subrecords.
    let bytes = navm_with(&[], COMPRESSED | 0x20);
    let model = roundtrip_bytes(&Plugin, &bytes).unwrap();
    let Item::Record(r) = &model.items[0] else {
        panic!("not a record")
    };
    assert_eq!(
        r.body,
        RecordBody::Navmesh(NavmeshBody {
            compression: Compression::None,
            subrecords: vec![],
        })
    );
    assert_eq!(model.navmeshes(), vec![]);
}

#[test]
fn plugin_writer_refuses_what_a_read_would_not_give_back() {
    let model = Plugin.read(&plugin_bytes()).unwrap();
    let with = |f: &dyn Fn(&mut nvnm_skyrim::plugin::Record)| {
        let mut m = model.clone();
        fn first_navm(items: &mut [Item]) -> Option<&mut nvnm_skyrim::plugin::Record> {
            for item in items {
                match item {
                    Item::Group(g) => {
                        if let Some(r) = first_navm(&mut g.items) {
                            return Some(r);
                        }
                    }
                    Item::Record(r) if &r.signature.0 == b"NAVM" => return Some(r),
                    Item::Record(_) => {}
                }
            }
            None
        }
        f(first_navm(&mut m.items).unwrap());
        let err = Plugin.write(&m).unwrap_err();
        assert_eq!(roundtrip_model(&Plugin, &m), Ok(None));
        err.to_string()
    };
    assert!(with(&|r| r.flags = 0).contains("needs the compressed flag"));
    assert!(with(&|r| r.body = RecordBody::Raw(vec![])).contains("must be opened"));
    assert!(with(&|r| r.signature = Signature(*b"GRUP")).contains("cannot be named GRUP"));
    assert!(with(&|r| r.signature = Signature(*b"STAT")).contains("only NAVM records"));
    assert!(
        with(&|r| {
            if let RecordBody::Navmesh(b) = &mut r.body {
                b.compression = Compression::Zlib { level: 10 };
            }
        })
        .contains("zlib level 10 is not 0-9")
    );
    assert!(
        with(&|r| {
            if let RecordBody::Navmesh(b) = &mut r.body {
                b.compression = Compression::None;
            }
        })
        .contains("compression is None")
    );
    assert!(
        with(&|r| {
            if let RecordBody::Navmesh(b) = &mut r.body {
                b.subrecords.push(Subrecord {
                    signature: Signature(*b"XXXX"),
                    data: vec![0; 4],
                    large: None,
                });
            }
        })
        .contains("large-subrecord marker")
    );
    // Level 8 makes the same stream as level 9 for this small mesh: a read would say 9.
    let err = with(&|r| {
        if let RecordBody::Navmesh(b) = &mut r.body {
            b.compression = Compression::Zlib { level: 8 };
        }
    });
    assert!(err.contains("gives the same stream as level 9"), "{err}");
    // The header must be TES4.
    let mut m = model.clone();
    m.header.signature = Signature(*b"TES3");
    assert!(
        Plugin
            .write(&m)
            .unwrap_err()
            .to_string()
            .contains("must be TES4")
    );
}

#[test]
fn replace_needs_an_existing_navmesh() {
    let err = Plugin::replace_nvnm(&plugin_bytes(), 0xdead, &full_v12()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "skyrim-plugin: NAVM record 0000DEAD: no navmesh record with an NVNM subrecord has this FormID at offset 0x0"
    );
    // Replacing with the same bytes changes nothing.
    let bytes = plugin_bytes();
    let nvnm = Nvnm.write(&samples::interior()).unwrap();
    assert_eq!(Plugin::replace_nvnm(&bytes, 0x801, &nvnm).unwrap(), bytes);
}

#[test]
fn signatures_show_as_text_or_hex() {
    assert_eq!(Signature(*b"NAVM").to_string(), "NAVM");
    assert_eq!(Signature([0, 1, 2, 0xff]).to_string(), "0xff020100");
    assert_eq!(Signature(*b"0x12").to_string(), "0x32317830");
    for sig in [*b"NAVM", [0, 1, 2, 0xff], *b"0x12", *b"    "] {
        let json = serde_json::to_string(&Signature(sig)).unwrap();
        let back: Signature = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Signature(sig), "{json}");
    }
    assert!(serde_json::from_str::<Signature>("\"NAV\"").is_err());
}

#[test]
fn mesh_with_no_room_for_a_15_layout_is_not_mistaken() {
    // A version-12 blob relabelled 15 does not parse: the longer records run out of bytes or
    // leave a different tail.
    let mut bytes = full_v12();
    bytes[..4].copy_from_slice(&15u32.to_le_bytes());
    assert!(Nvnm.parse(&bytes).is_err());
    let m = Nvnm.read(&full_v15()).unwrap();
    assert_eq!(m.layout(), Some(nvnm_skyrim::nvnm::Layout::Fallout4));
    assert_ne!(m.pathing_cell_crc, 0);
    assert_eq!(Parent::Cell { cell: 0x0002_0000 }, m.parent);
}

#[test]
fn a_changed_record_whose_stream_no_level_makes_takes_another_records_level() {
    let payload = LeBuilder::new()
        .magic(b"EDID")
        .u16(3)
        .bytes(b"ab\0")
        .finish();
    // A stored block under a level-6 header: no level reproduces it.
    let mut odd = vec![0x78, 0x9c, 0x01, 9, 0, !9, 0xff];
    odd.extend_from_slice(&payload);
    odd.extend_from_slice(&adler32(&payload).to_be_bytes());
    let first = LeBuilder::new().u32(9).bytes(&odd).finish();
    // Then a record at level 1.
    let second = LeBuilder::new()
        .u32(9)
        .bytes(&deflate(&payload, 1))
        .finish();
    let bytes = record(tes4(), b"NAVM", first.len() as u32, COMPRESSED, 0x42)
        .bytes(&first)
        .finish();
    let bytes = record(
        LeBuilder::new().bytes(&bytes),
        b"NAVM",
        second.len() as u32,
        COMPRESSED,
        0x43,
    )
    .bytes(&second)
    .finish();
    let mut model = roundtrip_bytes(&Plugin, &bytes).unwrap();
    if let Item::Record(r) = &mut model.items[0] {
        if let RecordBody::Navmesh(b) = &mut r.body {
            b.subrecords[0].data = b"cd\0".to_vec();
        }
    }
    let written = Plugin.write(&model).unwrap();
    let plain = LeBuilder::new()
        .magic(b"EDID")
        .u16(3)
        .bytes(b"cd\0")
        .finish();
    let view = Plugin.parse(&written).unwrap();
    let stored: Vec<&[u8]> = view.records().map(|r| r.data()).collect();
    assert_eq!(stored[0][4..], deflate(&plain, 1)[..]);
    // The unchanged record keeps its stream.
    assert_eq!(stored[1], second.as_slice());
}
