//! Hand-built edge cases: empty files, truncation, absurd counts, bad and overlapping offsets,
//! wrong versions, odd floats, non-zero padding, the ConnectTileInfo, and fuzz regressions.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use nav_core::testing::LeBuilder;
use nav_core::{Format, RawF32, Severity, assert_bytes_eq};
use nav2_mgsv::*;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn set_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn err(bytes: &[u8]) -> String {
    Nav2.parse(bytes).unwrap_err().to_string()
}

/// The FileHeader of a file with no chunk: 96 bytes, then ChunkDescs with EntryCount 0.
fn empty_header(file_size: u32, cti: u32) -> LeBuilder {
    LeBuilder::new()
        .u32(VERSION)
        .u32(file_size)
        .u32(112) // ChunksOffset
        .u32(0) // ChunkCount
        .u32(0) // SearchSpaceOffset
        .u32(1 | (7 << 15)) // FileUid: index 1, tile 7
        .u32(0) // IslandGraphsOffset
        .u32(0)
        .vec3(128.0, -0.0, 256.0)
        .u32(cti)
        .u32(0)
        .u32(96) // ChunkDescsOffset
        .u32(4) // ChunkDescsDataSize
        .u32(0)
        .u32(0)
        .u16(511)
        .u16(1000)
        .u16(511)
        .u16(127)
        .u8(5) // FeatureFlags
        .u8(0)
        .u8(0)
        .u8(0)
        .bytes(&[0xa5; 16])
        .u32(0) // EntryCount
        .fill(0, 12)
}

#[test]
fn the_empty_112_byte_split_file() {
    let bytes = empty_header(112, 0).finish();
    assert_eq!(bytes.len(), 112);
    assert!(Nav2.sniff(&bytes));
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &bytes).unwrap();
    assert!(m.stored.is_none(), "the game's layout");
    assert!(m.data_chunks.is_empty() && m.search_space.is_none());
    assert_eq!((m.file_uid.index(), m.file_uid.tile_id()), (1, 7));
    assert_eq!(m.origin[1].to_bits(), 0x8000_0000, "-0.0 is kept");
    assert_eq!(m.header_tail, [0xa5; 16]);
    assert_bytes_eq!(bytes, Nav2.write(&m).unwrap());
}

#[test]
fn a_hand_built_connect_tile_info() {
    // Groups at 12 bytes (6 units), one group of 6 bytes; Infos at 18 (9); Nodes at 22 (11).
    let bytes = empty_header(144, 112)
        .u16(6)
        .u16(9)
        .u16(11)
        .u16(1)
        .u16(1)
        .u16(2)
        .u32(0xdead_beef)
        .u16(3 | (5 << 5)) // Count 3, StartIndex 5
        .u16(4)
        .u16(2 | (1 << 5))
        .u16(17)
        .u16(9 | (2 << 14))
        .u16(18)
        .u16(0x3fff | (3 << 14))
        .fill(0, 2)
        .finish();
    assert_eq!(bytes.len(), 144);
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &bytes).unwrap();
    assert!(m.stored.is_none(), "laid out the way the writer does");
    let c = m.connect_tile_info.as_ref().unwrap();
    assert_eq!(
        c.groups,
        [ConnectTileGroup {
            name: 0xdead_beef,
            count: 3,
            start_index: 5
        }]
    );
    assert_eq!(
        (
            c.infos[0].data_chunk_id,
            c.infos[0].count,
            c.infos[0].start_index
        ),
        (4, 2, 1)
    );
    assert_eq!(
        (
            c.nodes[1].navigation_graph_node_index,
            c.nodes[1].navmesh_index,
            c.nodes[1].navmesh_neighbor_index
        ),
        (18, 0x3fff, 3)
    );
    // A count past its five bits is refused by the writer.
    let mut m2 = m.clone();
    m2.connect_tile_info.as_mut().unwrap().groups[0].count = 32;
    assert!(Nav2.write(&m2).unwrap_err().to_string().contains("5 bits"));
    // Offsets that point past the file are refused with the field's name.
    let mut bad = bytes.clone();
    set_u16(&mut bad, 112 + 4, 100);
    let e = err(&bad);
    assert!(e.contains("ConnectTileInfo Nodes"), "{e}");
}

#[test]
fn truncation_at_every_byte_is_an_error_not_a_panic() {
    for (name, model) in common::samples() {
        let bytes = Nav2.write(&model).unwrap();
        // Only the zero padding after the last record may be cut without an error.
        let last = bytes.iter().rposition(|b| *b != 0).unwrap();
        for len in 0..bytes.len() {
            match Nav2.parse(&bytes[..len]) {
                Err(e) => assert!(e.to_string().starts_with("nav2-mgsv: "), "{e}"),
                Ok(_) => {
                    assert!(
                        len > last,
                        "{name} cut at {len} of {} bytes parsed",
                        bytes.len()
                    );
                    nav_core::oracle::roundtrip_bytes(&Nav2, &bytes[..len]).unwrap();
                }
            }
        }
    }
}

#[test]
fn wrong_version_and_short_input() {
    let mut bytes = Nav2.write(&common::square()).unwrap();
    set_u32(&mut bytes, 0, 201_403_243);
    assert!(!Nav2.sniff(&bytes));
    assert_eq!(
        err(&bytes),
        "nav2-mgsv: FileHeader Version: version 201403243 at offset 0x0 is not supported (201403242 or 201403241)"
    );
    assert!(!Nav2.sniff(b"NAV2"));
    assert_eq!(
        err(&VERSION.to_le_bytes()),
        "nav2-mgsv: FileHeader: 96 bytes needed at offset 0x0, only 4 left"
    );
    // The older version word reads (Ground Zeroes, per the community template).
    let mut old = Nav2.write(&common::square()).unwrap();
    set_u32(&mut old, 0, VERSION_OLD);
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &old).unwrap();
    assert_eq!(m.version, VERSION_OLD);
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let good = Nav2.write(&common::square()).unwrap();
    // ChunkCount.
    let mut b = good.clone();
    set_u32(&mut b, 0x0c, 0xffff_fffc);
    let e = err(&b);
    assert!(
        e.contains("ChunkCount") && e.contains("count 4294967292"),
        "{e}"
    );
    // ChunkCount not a multiple of four.
    let mut b = good.clone();
    set_u32(&mut b, 0x0c, 3);
    assert!(err(&b).contains("not a multiple of 4"));
    // ChunkDescs EntryCount.
    let mut b = good.clone();
    set_u32(&mut b, 96, u32::MAX);
    let e = err(&b);
    assert!(e.contains("ChunkDescs") && e.contains("12884901885"), "{e}");
    // SearchSpace BlockCount: the product overflows.
    let ss = u32_at(&good, 0x10) as usize;
    let mut b = good.clone();
    for k in 0..3 {
        set_u32(&mut b, ss + 16 + 4 * k, u32::MAX);
    }
    let e = err(&b);
    assert!(e.contains("SearchSpace BucketDescs"), "{e}");
    // A bucket's SegmentCount.
    let mut b = good.clone();
    let entries = ss + 48 + 8;
    set_u32(&mut b, entries + 4, 0x7fff_ffff);
    let e = err(&b);
    assert!(
        e.contains("SearchSpace BucketDescs[0] entries") && e.contains("2147483647"),
        "{e}"
    );
}

#[test]
fn bad_and_overlapping_offsets_are_refused() {
    let good = Nav2.write(&common::square()).unwrap();
    let len = good.len() as u32;
    // SearchSpace past the end.
    let mut b = good.clone();
    set_u32(&mut b, 0x10, len + 64);
    let e = err(&b);
    assert!(
        e.contains("SearchSpace header") && e.contains("past the end"),
        "{e}"
    );
    // SearchSpace on top of the ChunkDescs.
    let mut b = good.clone();
    set_u32(&mut b, 0x10, 96);
    let e = err(&b);
    assert!(e.contains("SearchSpace") && e.contains("overlaps"), "{e}");
    // Two NavigationGraph nodes sharing one link block.
    let p = 144 + 16;
    let nodes = p + u32_at(&good, p + 4) as usize;
    let mut b = good.clone();
    let first = u16::from_le_bytes([good[nodes], good[nodes + 1]]);
    set_u16(&mut b, nodes + 6, first);
    let e = err(&b);
    assert!(
        e.contains("chunks[0] (NavigationGraph) Nodes[1] link block") && e.contains("overlaps"),
        "{e}"
    );
    // A chunk size that runs past the file, and one that is too small to hold its header.
    let mut b = good.clone();
    set_u32(&mut b, 144 + 4, len);
    let e = err(&b);
    assert!(
        e.contains("chunks[0] (NavigationGraph)") && e.contains("not a chunk size"),
        "{e}"
    );
    let mut b = good.clone();
    set_u32(&mut b, 144 + 4, 8);
    assert!(err(&b).contains("not a chunk size"));
    // A chunk in the wrong place of the type-major order.
    let mut b = good.clone();
    set_u32(&mut b, 144, 3);
    let e = err(&b);
    assert!(
        e.contains("type 3 where the type-major order puts a NavigationGraph"),
        "{e}"
    );
    // A ChunkDesc DataOffset past the file.
    let mut b = good.clone();
    set_u32(&mut b, 96 + 4 + 12 + 4, len + 1);
    let e = err(&b);
    assert!(
        e.contains("ChunkDescs[1] DataOffset") && e.contains("past the end of the file"),
        "{e}"
    );
    // A SegmentChunk SelfSize past its chunk.
    let mut at = 144;
    for _ in 0..2 {
        at += u32_at(&good, at + 4) as usize;
    }
    assert_eq!(u32_at(&good, at), 4, "the third chunk is the SegmentChunk");
    let mut b = good.clone();
    set_u32(&mut b, at + 16 + 8, 0x1000);
    let e = err(&b);
    assert!(
        e.contains("chunks[2] (SegmentChunk) SelfSize") && e.contains("past the end of the chunk"),
        "{e}"
    );
    // IslandGraphCount without an offset.
    let mut b = good.clone();
    set_u32(&mut b, 0x18, 0);
    assert!(err(&b).contains("IslandGraphsOffset"));
    // A mesh record offset past the chunk.
    let nm = 144 + u32_at(&good, 144 + 4) as usize;
    let meshes = nm + 16 + u32_at(&good, nm + 16 + 4) as usize;
    let mut b = good.clone();
    set_u32(&mut b, meshes, 0x3ffff);
    let e = err(&b);
    assert!(
        e.contains("Meshes[0] record") && e.contains("past the end of the NavmeshChunk"),
        "{e}"
    );
}

#[test]
fn odd_floats_and_sentinels_survive() {
    let mut m = common::square();
    m.origin = [
        RawF32::new(-0.0),
        RawF32::from_bits(0x7fc0_1234),
        RawF32::from_bits(0xff80_0000),
    ];
    m.search_space.as_mut().unwrap().origin = [RawF32::from_bits(0xffff_ffff); 3];
    m.data_chunks[0].navigation_graph.nodes[0].crossing_tile_link =
        Some(NavigationGraphCrossingTileLink {
            tile_id: 0xffff,
            data_chunk_id: 0xffff,
            node_index: 0xffff,
        });
    let bytes = Nav2.write(&m).unwrap();
    let back = Nav2.read(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.origin[1].to_bits(), 0x7fc0_1234);
    assert_eq!(u32_at(&bytes, 0x20), 0x8000_0000);
    let json = serde_json::to_string(&back).unwrap();
    let again: Nav2File = serde_json::from_str(&json).unwrap();
    assert_eq!(Nav2.write(&again).unwrap(), bytes);
}

#[test]
fn non_zero_padding_is_kept_and_reported() {
    let mut bytes = Nav2.write(&common::square()).unwrap();
    bytes[0x30] = 0x11; // Padding0
    bytes[0x4f] = 0x22; // Padding3
    let end = bytes.len();
    bytes[end - 1] = 0x33; // the SearchSpace's tail padding
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &bytes).unwrap();
    let stored = m
        .stored
        .as_ref()
        .expect("a stored layout keeps the padding");
    assert_eq!(stored.residue.len(), 3);
    assert_eq!(
        stored.residue[0],
        Residue {
            offset: 0x30,
            bytes: vec![0x11]
        }
    );
    let f = Nav2.validate(&m);
    assert_eq!(
        f.iter()
            .filter(|f| f.message.contains("non-zero bytes outside every record"))
            .count(),
        3,
        "{f:#?}"
    );
    // relayout() drops the padding and gives the game's layout back.
    let mut m = m;
    m.relayout();
    assert_eq!(
        Nav2.write(&m).unwrap(),
        Nav2.write(&common::square()).unwrap()
    );
}

#[test]
fn obj2nav2_style_header_and_upper_link_offsets_round_trip() {
    let good = Nav2.write(&common::square()).unwrap();
    // Obj2Nav2 writes ChunkDescsDataSize = 36n and a FileSize that is not the file's length.
    let mut b = good.clone();
    set_u32(&mut b, 0x38, 36);
    set_u32(&mut b, 0x04, 3200);
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &b).unwrap();
    let s = m.stored.as_ref().unwrap();
    assert_eq!((s.chunk_descs_data_size, s.file_size), (36, 3200));
    let f = Nav2.validate(&m);
    assert!(
        f.iter()
            .any(|f| f.location == "FileHeader ChunkDescsDataSize"
                && f.severity == Severity::Warning)
    );
    assert!(f.iter().any(|f| f.message.contains("3200 but the file is")));

    // The same link block, addressed with LinkDataOffsetUpper (·16 bytes) instead.
    let p = 144 + 16;
    let nodes = p + u32_at(&good, p + 4) as usize;
    let node1 = nodes + 12; // node 2, whose block starts 16 bytes in
    let low = u16::from_le_bytes([good[node1], good[node1 + 1]]);
    assert_eq!(low, 8);
    let mut b = good.clone();
    set_u16(&mut b, node1, low - 8);
    let word = u16::from_le_bytes([good[node1 + 2], good[node1 + 3]]);
    set_u16(&mut b, node1 + 2, word | 1 << 12);
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &b).unwrap();
    let mut plain = m.clone();
    plain.relayout();
    assert_eq!(plain, common::square(), "the same links");
    assert_eq!(
        m.stored.as_ref().unwrap().data_chunks[0].navigation_graph_link_offsets[2],
        u32::from(low - 8) | 1 << 16
    );
}

#[test]
fn max_counts_fit_and_one_more_does_not() {
    let mut m = common::square();
    let node = &mut m.data_chunks[0].navigation_graph.nodes[0];
    node.inside_links = vec![
        NavigationGraphInsideLink {
            node_index: 1,
            edge_index: 0
        };
        255
    ]
    .into();
    let sg = &mut m.data_chunks[0].segment_graph.nodes[0];
    sg.inside_links = vec![
        SegmentGraphInsideLink {
            weight: 1,
            node_index: 0,
            link_index: 0,
            navigation_graph_nodes: vec![7; 255].into(),
        };
        255
    ]
    .into();
    let bytes = Nav2.write(&m).unwrap();
    assert_eq!(Nav2.read(&bytes).unwrap(), m);
    m.data_chunks[0].segment_graph.nodes[0].inside_links[3]
        .navigation_graph_nodes
        .push(1);
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("NavGraphNodeIndexCount"), "{e}");
}

#[test]
fn non_zero_bytes_between_mesh_records_are_kept() {
    let good = Nav2.write(&common::square()).unwrap();
    let view = Nav2.parse(&good).unwrap();
    let nm = view.data_chunks()[0].navmesh_chunk();
    let offset = |p: *const u8| p as usize - good.as_ptr() as usize;
    let first = nm.record(0).unwrap();
    assert!(first.crossing().is_none());
    let first_end = offset(first.navigation_graph_nodes().as_ptr_range().end);
    let second = offset(nm.record(1).unwrap().neighbors().as_ptr().cast());
    assert!(second > first_end, "the writer pads a 12-byte mesh record");
    assert!(good[first_end..second].iter().all(|b| *b == 0));
    let mut b = good.clone();
    b[first_end + 1] = 0x5a;
    let m = nav_core::oracle::roundtrip_bytes(&Nav2, &b).unwrap();
    let stored = m.stored.as_ref().expect("a stored layout keeps the byte");
    assert_eq!(
        stored.residue,
        vec![Residue {
            offset: (first_end + 1) as u32,
            bytes: vec![0x5a]
        }]
    );
}
