//! Hand-built edge cases: files made byte by byte from the documented layout (independently of
//! the writer), every truncation of a small file, absurd counts, wrong signatures and tails.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use jmxvnvm::{Layout, NavMeshTerrain, NavMeshTerrainView, Nvm, TileMap, read, validate, write};
use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::LeBuilder;
use nav_core::{ErrorKind, Format, RawF32, assert_bytes_eq};

const MODERN_TAIL: usize = 111_544;
const LEGACY_PLANES_TAIL: usize = 74_680;
const LEGACY_TAIL: usize = 74_500;

/// The documented tail: 96x96 tiles (8 or 4 bytes), 97x97 heights, optionally the plane maps.
fn tail(b: LeBuilder, legacy: bool, planes: bool) -> LeBuilder {
    let mut b = b;
    for i in 0..9216u32 {
        b = if legacy {
            b.u32(0)
        } else {
            b.i32((i % 2) as i32)
                .u16(if i == 5 { 0x8003 } else { 0 })
                .u16(7)
        };
    }
    for i in 0..9409u32 {
        b = b.f32(i as f32 * 0.5);
    }
    if planes {
        for i in 0..36u8 {
            b = b.u8(i % 4);
        }
        for _ in 0..36 {
            b = b.f32(800.0);
        }
    }
    b
}

/// One object with two links (one a -1 entry), two cells, one global and one internal edge,
/// with -0.0 and NaN floats, in the modern layout.
fn hand_made() -> Vec<u8> {
    let b = LeBuilder::new()
        .magic(b"JMXVNVM 1000")
        .u16(1)
        // object 0
        .u32(2088)
        .vec3(1752.06, 623.83, -141.96)
        .u16(0xffff)
        .f32(-0.0)
        .u16(0x1234)
        .u16(0xbeef)
        .u8(0)
        .u8(1)
        .u16(0x61a9)
        .u16(2)
        .i16(0)
        .i16(3)
        .i16(1)
        .i16(-1)
        .i16(-1)
        .i16(-1)
        // cells
        .u32(2)
        .u32(1)
        .f32(0.0)
        .f32(0.0)
        .f32(20.0)
        .f32_bits(0x7fc0_0001)
        .u8(1)
        .u16(0)
        .f32(20.0)
        .f32(0.0)
        .f32(1920.0)
        .f32(1920.0)
        .u8(0)
        // global edges
        .u32(1)
        .f32(0.0)
        .f32(0.0)
        .f32(0.0)
        .f32(1920.0)
        .u8(0x08)
        .u8(1)
        .u8(3)
        .i16(0)
        .i16(17)
        .u16(0x61a8)
        .u16(0x61a7)
        // internal edges
        .u32(1)
        .f32(20.0)
        .f32(0.0)
        .f32(20.0)
        .f32(20.0)
        .u8(0x07)
        .u8(3)
        .u8(0xff)
        .i16(0)
        .i16(-1);
    tail(b, false, true).finish()
}

#[test]
fn hand_made_file_reads_as_documented() {
    let bytes = hand_made();
    assert_eq!(
        bytes.len(),
        12 + 2 + 32 + 12 + 8 + 19 + 17 + 4 + 27 + 4 + 23 + MODERN_TAIL
    );
    let view = NavMeshTerrainView::parse(&bytes).unwrap();
    assert_eq!(view.layout(), Layout::Modern);
    let m = NavMeshTerrain::from_view(&view);
    let o = &m.objects[0];
    assert_eq!(o.resource_id, 2088);
    assert_eq!(o.local_position[2], RawF32::new(-141.96));
    assert_eq!(o.is_static, -1);
    assert_eq!(o.yaw, RawF32::new(-0.0));
    assert_ne!(o.yaw, RawF32::new(0.0));
    assert_eq!(
        (o.uid, o.unk_short01, o.is_big, o.is_struct),
        (0x1234, 0xbeef, 0, 1)
    );
    assert_eq!(o.region_id, 0x61a9);
    assert_eq!(o.linked_edges.len(), 2);
    assert_eq!(
        (
            o.linked_edges[0].other_object_index,
            o.linked_edges[0].other_edge_index,
            o.linked_edges[0].edge_index
        ),
        (0, 3, 1)
    );
    assert_eq!(o.linked_edges[1].edge_index, -1);
    assert_eq!(m.open_cell_count, 1);
    assert_eq!(m.cells[0].max[1], RawF32(0x7fc0_0001));
    assert_eq!(m.cells[0].object_indices, [0]);
    let g = m.global_edges[0];
    assert_eq!(
        (
            g.flags,
            g.assoc_direction,
            g.assoc_cell_index,
            g.assoc_region_id
        ),
        (8, [1, 3], [0, 17], [0x61a8, 0x61a7])
    );
    let e = m.internal_edges[0];
    assert_eq!(
        (e.flags, e.assoc_direction, e.assoc_cell_index),
        (7, [3, -1], [0, -1])
    );
    let TileMap::Modern(tiles) = &m.tile_map else {
        panic!("modern")
    };
    assert_eq!(
        (tiles[5].cell_index, tiles[5].flags, tiles[5].texture_id),
        (1, 0x8003, 7)
    );
    assert_eq!(m.height_map[9408], RawF32::new(4704.0));
    let planes = m.planes.as_ref().unwrap();
    assert_eq!(planes.types[3], 3);
    assert_eq!(planes.heights[35], RawF32::new(800.0));
    // Byte-exact both ways, and the writer agrees with the hand-made bytes.
    roundtrip_bytes(&Nvm, &bytes).unwrap();
    assert_bytes_eq!(bytes, write(&m).unwrap());
    // Queries on the hand-made file.
    assert_eq!(m.tile_at(25.0, 0.0), Some(1));
    assert_eq!(m.cell_at(25.0, 0.0), Some(1));
    assert_eq!(m.is_blocked(100.0, 0.0), Some(true)); // tile 5 has the Blocked bit
    assert_eq!(m.is_blocked(0.0, 0.0), Some(false));
    assert_eq!(m.height_at(10.0, 0.0), Some(0.25));
    assert_eq!(m.height_at(0.0, 20.0), Some(48.5));
    assert_eq!(m.height_at(1920.0, 1920.0), Some(4704.0));
    assert_eq!(m.height_at(-0.5, 3.0), None);
    assert_eq!(m.height_at(f32::NAN, 3.0), None);
    assert_eq!(m.plane_at(1919.0, 0.0), Some((1, 800.0)));
    // The global edge's far cell (17) is in the neighbour region: no finding; the internal
    // edge's -1 cell with direction -1 is consistent. The NaN corner is reported, and the tile
    // map, zero (cell 0) almost everywhere, against the rectangles: cell 1's tiles name cell 0
    // (one error for the pair). The first column lies in no rectangle (cell 0's holds no tile
    // centre with its NaN side): a hole, not reported.
    let findings: Vec<String> = validate(&m).iter().map(|f| f.to_string()).collect();
    assert_eq!(
        findings,
        [
            "warning: cells[0]: rectangle (0.0, 0.0)..(20.0, NaN(0x7fc00001)) is not a proper min/max pair",
            "error: tile_map[2] (x 2, z 0): 4512 tiles (this the first) name cells[0] but lie in \
             cells[1]'s rectangle, not in cells[0]'s: a tile names the cell whose rectangle \
             holds its centre"
        ]
    );
}

#[test]
fn empty_and_smallest_files() {
    // No object, no cell, no edge: only the header, counts and the fixed tail.
    for (legacy, planes, tail_len) in [
        (false, true, MODERN_TAIL),
        (true, true, LEGACY_PLANES_TAIL),
        (true, false, LEGACY_TAIL),
    ] {
        let b = LeBuilder::new()
            .magic(b"JMXVNVM 1000")
            .u16(0)
            .u32(0)
            .u32(0)
            .u32(0)
            .u32(0);
        let bytes = tail(b, legacy, planes).finish();
        assert_eq!(bytes.len(), 30 + tail_len);
        let m = roundtrip_bytes(&Nvm, &bytes).unwrap();
        assert!(m.objects.is_empty() && m.cells.is_empty());
        assert_eq!(m.planes.is_some(), planes);
        assert_eq!(Layout::from_tail_len(tail_len), m.layout());
    }
    // The smallest realistic modern file (one cell) is 111,591 bytes, as the notes compute.
    let b = LeBuilder::new()
        .magic(b"JMXVNVM 1000")
        .u16(0)
        .u32(1)
        .u32(1)
        .f32(0.0)
        .f32(0.0)
        .f32(1920.0)
        .f32(1920.0)
        .u8(0)
        .u32(0)
        .u32(0);
    let bytes = tail(b, false, true).finish();
    assert_eq!(bytes.len(), 111_591);
    roundtrip_bytes(&Nvm, &bytes).unwrap();
}

#[test]
fn every_truncation_is_an_error_not_a_panic() {
    let b = LeBuilder::new()
        .magic(b"JMXVNVM 1000")
        .u16(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0);
    let bytes = tail(b, true, false).finish();
    NavMeshTerrainView::parse(&bytes).unwrap();
    for n in 0..bytes.len() {
        let e = NavMeshTerrainView::parse(&bytes[..n]).unwrap_err();
        assert!(e.to_string().starts_with("jmxvnvm: "), "{e}");
    }
    // The hand-made modern file, cut inside its variable part.
    let bytes = hand_made();
    for n in 0..200 {
        let e = NavMeshTerrainView::parse(&bytes[..n]).unwrap_err();
        assert!(e.offset().is_some(), "{e}");
    }
}

#[test]
fn truncation_errors_name_field_and_offset() {
    let bytes = hand_made();
    assert_eq!(
        NavMeshTerrainView::parse(&bytes[..20])
            .unwrap_err()
            .to_string(),
        "jmxvnvm: objects: count 1 at offset 0xe exceeds the 6 bytes left (32 bytes each)"
    );
    assert_eq!(
        NavMeshTerrainView::parse(&bytes[..50])
            .unwrap_err()
            .to_string(),
        "jmxvnvm: objects[0] linked edges: count 2 at offset 0x2e exceeds the 4 bytes left (6 bytes each)"
    );
    assert_eq!(
        NavMeshTerrainView::parse(&bytes[..5])
            .unwrap_err()
            .to_string(),
        "jmxvnvm: signature: 12 bytes needed at offset 0x0, only 5 left"
    );
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            LeBuilder::new()
                .magic(b"JMXVNVM 1000")
                .u16(0xffff)
                .fill(0, 64)
                .finish(),
            "jmxvnvm: objects: count 65535 at offset 0xe exceeds the 64 bytes left (32 bytes each)",
        ),
        (
            LeBuilder::new()
                .magic(b"JMXVNVM 1000")
                .u16(0)
                .u32(u32::MAX)
                .u32(0)
                .fill(0, 8)
                .finish(),
            "jmxvnvm: cells: count 4294967295 at offset 0x16 exceeds the 8 bytes left (17 bytes each)",
        ),
        (
            LeBuilder::new()
                .magic(b"JMXVNVM 1000")
                .u16(0)
                .u32(0)
                .u32(0)
                .u32(u32::MAX)
                .finish(),
            "jmxvnvm: global edges: count 4294967295 at offset 0x1a exceeds the 0 bytes left (27 bytes each)",
        ),
        (
            LeBuilder::new()
                .magic(b"JMXVNVM 1000")
                .u16(0)
                .u32(0)
                .u32(0)
                .u32(0)
                .u32(0x0800_0000)
                .fill(0, 100)
                .finish(),
            "jmxvnvm: internal edges: count 134217728 at offset 0x1e exceeds the 100 bytes left (23 bytes each)",
        ),
        (
            LeBuilder::new()
                .magic(b"JMXVNVM 1000")
                .u16(0)
                .u32(1)
                .u32(1)
                .fill(0, 16)
                .u8(255)
                .fill(0, 10)
                .finish(),
            "jmxvnvm: cells[0] object indices: count 255 at offset 0x27 exceeds the 10 bytes left (2 bytes each)",
        ),
    ];
    for (bytes, expected) in cases {
        assert_eq!(
            NavMeshTerrainView::parse(&bytes).unwrap_err().to_string(),
            expected
        );
    }
}

#[test]
fn max_counts_that_fit_are_read() {
    // One object with 65,535 links and one cell with 255 object indices.
    let mut b = LeBuilder::new()
        .magic(b"JMXVNVM 1000")
        .u16(1)
        .u32(1)
        .vec3(0.0, 0.0, 0.0)
        .u16(0)
        .f32(0.0)
        .u16(1)
        .u16(0)
        .u8(0)
        .u8(0)
        .u16(0x61a8)
        .u16(0xffff);
    for i in 0..0xffffu32 {
        b = b.i16((i % 3) as i16 - 1).i16(-1).i16(i as i16);
    }
    b = b
        .u32(1)
        .u32(1)
        .f32(0.0)
        .f32(0.0)
        .f32(1920.0)
        .f32(1920.0)
        .u8(255);
    for _ in 0..255 {
        b = b.u16(0);
    }
    let bytes = tail(b.u32(0).u32(0), true, true).finish();
    let m = roundtrip_bytes(&Nvm, &bytes).unwrap();
    assert_eq!(m.objects[0].linked_edges.len(), 65_535);
    assert_eq!(m.cells[0].object_indices.len(), 255);
}

#[test]
fn wrong_signatures_are_refused() {
    let mut bytes = hand_made();
    bytes[11] = b'1';
    assert_eq!(
        NavMeshTerrainView::parse(&bytes).unwrap_err().to_string(),
        "jmxvnvm: signature: magic \"JMXVNVM 1001\" at offset 0x0 is not JMXVNVM 1000"
    );
    assert!(!Nvm.sniff(&bytes));
    let e = NavMeshTerrainView::parse(b"JMXVBMS 0110").unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::BadMagic { .. }), "{e}");
    let e = NavMeshTerrainView::parse(&[0xff, 0, 1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "jmxvnvm: signature: magic [ff 00 01] at offset 0x0 is not JMXVNVM 1000"
    );
    assert!(
        NavMeshTerrainView::parse(b"")
            .unwrap_err()
            .to_string()
            .contains("12 bytes needed")
    );
    assert!(Nvm.sniff(&hand_made()));
}

#[test]
fn any_other_tail_length_names_the_three_accepted_ones() {
    let mut bytes = hand_made();
    bytes.push(0);
    let e = NavMeshTerrainView::parse(&bytes).unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("jmxvnvm: tile map: 111545 bytes follow the internal edges"),
        "{text}"
    );
    for n in ["111544", "74680", "74500"] {
        assert!(text.contains(n), "{text}");
    }
    assert_eq!(e.offset(), Some(bytes.len() - 111_545));
    // 8-byte tiles without plane maps is not a layout either.
    let b = LeBuilder::new()
        .magic(b"JMXVNVM 1000")
        .u16(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0);
    let bytes = tail(b, false, false).finish();
    assert!(
        NavMeshTerrainView::parse(&bytes)
            .unwrap_err()
            .to_string()
            .contains("111364 bytes follow")
    );
}

#[test]
fn floats_keep_their_bits() {
    let mut m = read(&hand_made()).unwrap();
    for (i, bits) in [0x8000_0000u32, 0x7fc0_0000, 0xffff_ffff, 0x7f80_0001, 1]
        .into_iter()
        .enumerate()
    {
        m.height_map[i] = RawF32(bits);
        m.objects[0].local_position[i % 3] = RawF32(bits);
        m.planes.as_mut().unwrap().heights[i] = RawF32(bits);
    }
    let bytes = write(&m).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.height_map[2], RawF32(0xffff_ffff));
    roundtrip_bytes(&Nvm, &bytes).unwrap();
    // NaN heights are reported, and the query gives NaN rather than panicking.
    assert!(
        validate(&back)
            .iter()
            .any(|f| f.message.contains("heights are NaN"))
    );
    assert!(back.height_at(5.0, 0.0).unwrap().is_nan());
}

#[test]
fn sentinels_and_bad_indices_are_findings_not_errors() {
    let mut m = read(&hand_made()).unwrap();
    m.objects[0].linked_edges[0].other_object_index = 5;
    m.objects[0].linked_edges[1].edge_index = -7;
    m.cells[1].object_indices.push(9);
    m.internal_edges[0].assoc_cell_index = [2, -1];
    m.internal_edges[0].assoc_direction = [3, 1];
    m.global_edges[0].assoc_direction = [1, 1];
    m.global_edges[0].assoc_region_id = [0x61a8, 0x61a8];
    if let TileMap::Modern(t) = &mut m.tile_map {
        t[9215].cell_index = -1;
    }
    m.open_cell_count = 3;
    m.objects[0].is_big = 2;
    let text: Vec<String> = validate(&m).iter().map(|f| f.to_string()).collect();
    let expect = [
        "error: objects[0] linked_edges[0]: other object index 5 is past the 1 objects of the region",
        "warning: objects[0] linked_edges[1]: edge index -7 is negative but not the -1 sentinel",
        "info: objects[0]: is_big is 2, not a boolean 0 or 1",
        "error: open_cell_count: open cell count 3 exceeds the 2 cells",
        "error: cells[1] object_indices[0]: object index 9 is past the 1 objects",
        "error: global_edges[0]: cell index 17 on side 1 is past the 2 cells",
        "warning: global_edges[0]: directions 1 and 1 do not face each other",
        "error: internal_edges[0]: cell index 2 on side 0 is past the 2 cells",
        "warning: internal_edges[0]: side 1 pairs cell index -1 with direction 1: a missing cell and a missing direction go together",
        "error: tile_map[9215] (x 95, z 95): cell index -1 is not one of the 2 cells",
    ];
    for e in expect {
        assert!(text.iter().any(|t| t == e), "missing {e:?} in {text:#?}");
    }
    // Still round-trips: findings never stop a write.
    let bytes = write(&m).unwrap();
    roundtrip_bytes(&Nvm, &bytes).unwrap();
}

#[test]
fn region_ids_and_world_positions() {
    use jmxvnvm::RegionId;
    let jangan = RegionId(0x61a8);
    assert_eq!((jangan.x(), jangan.z()), (0xa8, 0x61));
    assert_eq!(jangan.origin(), [168.0 * 1920.0, 97.0 * 1920.0]);
    assert_eq!(jangan.file_name(), "nv_61a8.nvm");
    assert_eq!(RegionId::from_xz(0xa8, 0x61), jangan);
    let (id, local) = RegionId::locate(168.0 * 1920.0 + 12.5, 97.0 * 1920.0 + 1900.0).unwrap();
    assert_eq!((id, local), (jangan, [12.5, 1900.0]));
    assert_eq!(RegionId::locate(-1.0, 0.0), None);
    assert_eq!(RegionId::locate(256.0 * 1920.0, 0.0), None);
    assert_eq!(RegionId::locate(f32::NAN, 0.0), None);
    assert_eq!(jangan.neighbour(-1, 1), RegionId(0x62a7));
    assert_eq!(jangan.to_string(), "0x61a8 (x 168, z 97)");
}

#[test]
fn write_to_streams_write_s_bytes_and_refuses_before_the_first_byte() {
    use jmxvnvm::build::{generated, legacy, town};
    use jmxvnvm::{RegionId, write_to};
    for model in [
        town(RegionId(0x61a8)),
        legacy(RegionId(0x11a5), true),
        legacy(RegionId(0x1f29), false),
        generated(7),
    ] {
        let mut out = Vec::new();
        write_to(&model, &mut out).unwrap();
        assert_bytes_eq!(&out, &write(&model).unwrap());
    }
    // Refusals found only at the last object or cell still come before any byte.
    let mut object = town(RegionId(0x61a8));
    let last_object = object.objects.len() - 1;
    let link = jmxvnvm::LinkedEdge {
        other_object_index: 0,
        other_edge_index: 0,
        edge_index: 0,
    };
    object.objects[last_object].linked_edges = vec![link; 65_536];
    let mut cell = town(RegionId(0x61a8));
    let last_cell = cell.cells.len() - 1;
    cell.cells[last_cell].object_indices = vec![0; 256];
    for (model, message) in [
        (
            object,
            format!("jmxvnvm: objects[{last_object}] linked edge count: 65536 does not fit"),
        ),
        (
            cell,
            format!("jmxvnvm: cells[{last_cell}] object count: 256 does not fit"),
        ),
    ] {
        let mut out = Vec::new();
        let err = write_to(&model, &mut out).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        let refused = nav_core::error::refused(&err).unwrap();
        assert_eq!(refused, &write(&model).unwrap_err());
        assert!(refused.to_string().starts_with(&message), "{refused}");
        assert!(out.is_empty(), "{} bytes before the refusal", out.len());
    }
}

#[test]
fn generated_regions_differ_validate_clean_and_round_trip() {
    use jmxvnvm::build::generated;
    let mut seen = std::collections::HashSet::new();
    for seed in 0..12 {
        let model = generated(seed);
        assert!(validate(&model).is_empty(), "seed {seed}");
        let bytes = write(&model).unwrap();
        assert_eq!(roundtrip_bytes(&Nvm, &bytes).unwrap(), model, "seed {seed}");
        assert!(seen.insert(bytes), "seed {seed} repeats an earlier region");
    }
    assert_eq!(write(&generated(3)).unwrap(), write(&generated(3)).unwrap());
}

#[test]
fn write_into_reuses_the_buffer_and_gives_write_s_bytes() {
    use jmxvnvm::build::town;
    let model = town(jmxvnvm::RegionId(0x61a8));
    let expected = write(&model).unwrap();
    let mut buf = vec![0xAA; 300_000];
    let capacity = buf.capacity();
    Nvm.write_into(&model, &mut buf).unwrap();
    assert_bytes_eq!(&buf, &expected);
    assert_eq!(buf.capacity(), capacity, "the buffer's memory is reused");
    // Every refusal comes before the first byte: the buffer is left as it was.
    let mut broken = model;
    broken.height_map.pop();
    assert!(Nvm.write_into(&broken, &mut buf).is_err());
    assert_bytes_eq!(&buf, &expected);
}
