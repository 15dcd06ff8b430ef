//! Hand-built edge cases: every version's layout byte by byte, bad input of every kind, and the
//! writer's refusals.

mod common;

use nav_core::testing::LeBuilder;
use nav_core::{ErrorKind, RawF32, assert_bytes_eq};
use nav_quake::{EdictEntity, Magic, NavFile, Quake};

fn header(magic: &[u8], version: u32, n: u32, l: u32, t: u32) -> LeBuilder {
    LeBuilder::new()
        .magic(magic)
        .u32(version)
        .u32(n)
        .u32(l)
        .u32(t)
}

#[test]
fn empty_mesh_of_every_version() {
    for (magic, version) in common::all_versions() {
        let file = NavFile::new(magic, version).unwrap();
        let bytes = nav_quake::write(&file).unwrap();
        let header = if magic == Magic::Nav3 || version >= 16 {
            24
        } else {
            20
        };
        assert_eq!(bytes.len(), header + 4, "{magic:?} v{version}");
        assert_eq!(nav_quake::read(&bytes).unwrap(), file);
        nav_core::oracle::roundtrip_bytes(&Quake, &bytes).unwrap();
    }
}

#[test]
fn nav2_v13_is_read_with_34_byte_edicts() {
    // v13 has no public sample; the retail-checked reader gives it v14's two string ids.
    let bytes = header(b"NAV2", 13, 2, 1, 0)
        .u16(0)
        .u16(1)
        .u16(0)
        .u16(16)
        .u16(0)
        .u16(0)
        .u16(1)
        .u16(16)
        .vec3(0.0, 0.0, 0.0)
        .vec3(64.0, 0.0, 0.0)
        .u16(1)
        .u16(0)
        .u16(0xffff)
        .u32(1)
        .u16(0)
        .vec3(-1.0, -1.0, -1.0)
        .vec3(1.0, 1.0, 1.0)
        .i32(-59)
        .i32(-60)
        .finish();
    assert_eq!(bytes.len(), 20 + 40 + 6 + 4 + 34);
    let f = nav_quake::read(&bytes).unwrap();
    assert_eq!(f.heuristic, None);
    assert_eq!(
        f.edicts[0].entity,
        EdictEntity::StringIds {
            targetname: -59,
            classname: -60
        }
    );
    assert_bytes_eq!(bytes, nav_quake::write(&f).unwrap());
}

#[test]
fn nav2_v16_has_the_heuristic_and_30_byte_edicts() {
    let bytes = header(b"NAV2", 16, 1, 1, 1)
        .f32(0.8)
        .u16(0)
        .u16(1)
        .u16(0)
        .u16(16)
        .vec3(1.0, 2.0, 3.0)
        .u16(0)
        .u16(1)
        .u16(0)
        .vec3(0.0, 0.0, 0.0)
        .vec3(1.0, 2.0, 3.0)
        .vec3(1.0, 2.0, 40.0)
        .u32(1)
        .u16(0)
        .vec3(0.0, 0.0, 0.0)
        .vec3(8.0, 8.0, 8.0)
        .i32(-18)
        .finish();
    let f = nav_quake::read(&bytes).unwrap();
    assert_eq!(f.heuristic, Some(RawF32::new(0.8)));
    assert_eq!(f.edicts[0].entity, EdictEntity::EntityId(-18));
    assert_eq!(f.edicts[0].entity.entity_index(), Some(17));
    assert_eq!(f.links[0].traversal(), Some(0));
    assert_bytes_eq!(bytes, nav_quake::write(&f).unwrap());
}

#[test]
fn nav2_v12_edicts_end_after_the_box() {
    let bytes = header(b"NAV2", 12, 0, 0, 0)
        .u32(1)
        .u16(7)
        .vec3(0.0, 0.0, 0.0)
        .vec3(1.0, 1.0, 1.0)
        .finish();
    let f = nav_quake::read(&bytes).unwrap();
    assert_eq!(f.edicts[0].link, 7);
    assert_eq!(f.edicts[0].entity, EdictEntity::None);
    assert_bytes_eq!(bytes, nav_quake::write(&f).unwrap());
}

#[test]
fn nav3_edicts_put_the_model_first_and_v4_adds_the_ladder_plane() {
    for version in 2..=6 {
        let mut b = header(b"NAV3", version, 0, 0, 1)
            .f32(0.8)
            .vec3(1.0, 2.0, 3.0)
            .vec3(4.0, 5.0, 6.0)
            .vec3(7.0, 8.0, 9.0);
        if version >= 4 {
            b = b.vec3(0.0, 0.0, -0.0);
        }
        let bytes = b
            .u32(1)
            .u16(0)
            .i32(42)
            .vec3(-1.0, -2.0, -3.0)
            .vec3(1.0, 2.0, 3.0)
            .finish();
        let f = nav_quake::read(&bytes).unwrap();
        assert_eq!(f.edicts[0].entity, EdictEntity::Model(42), "v{version}");
        assert_eq!(f.edicts[0].mins[2], RawF32::new(-3.0));
        assert_eq!(f.traversals[0].ladder_plane.is_some(), version >= 4);
        assert_bytes_eq!(bytes, nav_quake::write(&f).unwrap());
    }
}

#[test]
fn negative_zero_nan_and_sentinels_survive() {
    let mut f = common::room(Magic::Nav3, 6);
    f.nodes[0].origin = [RawF32::new(-0.0), RawF32(0x7fc0_1234), RawF32(0xff80_0000)];
    f.nodes[1].radius = 0xffff;
    f.nodes[1].flags = 0xffff;
    f.links[0].link_type = 0xff;
    f.links[0].flags = 0xff;
    f.heuristic = Some(RawF32(0xffff_ffff));
    let bytes = nav_quake::write(&f).unwrap();
    let back = nav_quake::read(&bytes).unwrap();
    assert_eq!(back, f);
    assert_eq!(back.nodes[0].origin[0].to_bits(), 0x8000_0000);
    assert_eq!(back.nodes[0].origin[1].to_bits(), 0x7fc0_1234);
}

#[test]
fn every_truncation_is_an_error_naming_an_offset() {
    for (magic, version) in common::all_versions() {
        let bytes = nav_quake::write(&common::room(magic, version)).unwrap();
        for len in 0..bytes.len() {
            let err = nav_quake::read(&bytes[..len]).expect_err("truncated input must not parse");
            assert!(
                err.offset().is_some_and(|o| o <= len),
                "{magic:?} v{version} at {len}: {err}"
            );
            assert!(err.to_string().starts_with("nav-quake: "), "{err}");
        }
    }
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let bytes = header(b"NAV2", 15, u32::MAX, 0, 0).u32(0).finish();
    let err = nav_quake::read(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-quake: nodes: count 4294967295 at offset 0x14 exceeds the 4 bytes left (20 bytes each)"
    );
    let bytes = header(b"NAV3", 6, 0, 0, 0)
        .f32(0.8)
        .u32(0x4000_0000)
        .finish();
    let err = nav_quake::read(&bytes).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::CountTooLarge {
                count: 0x4000_0000,
                record_size: 30,
                offset: 0x1c,
                left: 0
            }
        ),
        "{err}"
    );
    assert_eq!(err.context(), "edicts");
}

#[test]
fn wrong_magic_and_unsupported_versions_are_refused() {
    // A short file of another kind is named by its signature, not by its length.
    let err = nav_quake::read(b"QSNM\x02\0\0\0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-quake: header: magic \"QSNM\" at offset 0x0 is not NAV2 or NAV3"
    );
    let err = nav_quake::read(&header(b"QSNM", 2, 0, 0, 0).u32(0).finish()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-quake: header: magic \"QSNM\" at offset 0x0 is not NAV2 or NAV3"
    );
    let err = nav_quake::read(b"NAV3\x02\0\0\0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-quake: header: 20 bytes needed at offset 0x0, only 8 left"
    );
    for (magic, version) in [
        (b"NAV2", 11u32),
        (b"NAV2", 19),
        (b"NAV3", 1),
        (b"NAV3", 7),
        (b"NAV2", u32::MAX),
    ] {
        let err =
            nav_quake::read(&header(magic, version, 0, 0, 0).f32(0.8).u32(0).finish()).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnsupportedVersion { offset: 4, .. }),
            "{err}"
        );
        assert!(
            err.to_string().contains(&format!("version {version}")),
            "{err}"
        );
    }
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = nav_quake::write(&common::room(Magic::Nav2, 15)).unwrap();
    let end = bytes.len();
    bytes.push(0);
    let err = nav_quake::read(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::TrailingBytes {
            offset: end,
            len: 1
        }
    );
}

#[test]
fn writer_refuses_what_the_layout_cannot_hold() {
    let mut f = NavFile::new(Magic::Nav2, 15).unwrap();
    f.heuristic = Some(RawF32::new(0.8));
    assert!(
        nav_quake::write(&f)
            .unwrap_err()
            .to_string()
            .contains("has no heuristic field")
    );

    let mut f = NavFile::new(Magic::Nav2, 17).unwrap();
    f.heuristic = None;
    assert!(
        nav_quake::write(&f)
            .unwrap_err()
            .to_string()
            .contains("needs a heuristic")
    );

    let mut f = common::room(Magic::Nav3, 3);
    f.traversals[0].ladder_plane = Some([RawF32::ZERO; 3]);
    assert!(
        nav_quake::write(&f)
            .unwrap_err()
            .to_string()
            .starts_with("nav-quake: traversals[0]:")
    );

    let mut f = common::room(Magic::Nav3, 4);
    f.traversals[1].ladder_plane = None;
    assert!(
        nav_quake::write(&f)
            .unwrap_err()
            .to_string()
            .contains("need a ladder plane")
    );

    let mut f = common::room(Magic::Nav2, 15);
    f.edicts[0].entity = EdictEntity::Model(1);
    assert_eq!(
        nav_quake::write(&f).unwrap_err().to_string(),
        "nav-quake: edicts[0]: NAV2 v15 edicts are `entity_id`, not `model`"
    );

    let mut f = common::room(Magic::Nav2, 15);
    f.version = 19;
    assert!(
        nav_quake::write(&f)
            .unwrap_err()
            .to_string()
            .contains("has no known layout")
    );
}

#[test]
fn write_to_streams_write_s_bytes_and_refuses_before_the_first_byte() {
    for (magic, version) in common::all_versions() {
        let file = common::room(magic, version);
        let mut out = Vec::new();
        nav_quake::write_to(&file, &mut out).unwrap();
        assert_bytes_eq!(&out, &nav_quake::write(&file).unwrap());
    }
    // More than one batch of records per array.
    let mut big = common::room(Magic::Nav3, 6);
    let (node, link) = (big.nodes[0], big.links[0]);
    let (traversal, edict) = (big.traversals[0], big.edicts[0]);
    big.nodes.resize(1500, node);
    big.links.resize(1300, link);
    big.traversals.resize(600, traversal);
    big.edicts.resize(700, edict);
    let mut out = Vec::new();
    nav_quake::write_to(&big, &mut out).unwrap();
    assert_bytes_eq!(&out, &nav_quake::write(&big).unwrap());

    // The last edict is of another version's form: nothing at all is written.
    let mut f = common::room(Magic::Nav2, 15);
    let last = f.edicts.len() - 1;
    f.edicts[last].entity = EdictEntity::Model(1);
    let mut out = Vec::new();
    let err = nav_quake::write_to(&f, &mut out).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
    assert_eq!(
        nav_core::error::refused(&err),
        Some(&nav_quake::write(&f).unwrap_err())
    );
    assert!(
        out.is_empty(),
        "{} bytes written before the refusal",
        out.len()
    );
}

#[test]
fn largest_indices_round_trip_and_validate_flags_overflow() {
    // 65,536 nodes is the most a u16 target can address; one more is a validation error.
    let mut f = NavFile::new(Magic::Nav3, 6).unwrap();
    let node = nav_quake::Node {
        flags: 0,
        num_links: 1,
        first_link: 0,
        radius: 1,
        origin: [RawF32::ZERO; 3],
    };
    f.nodes = vec![node; 0x1_0000];
    f.links = vec![nav_quake::Link {
        target: 0xffff,
        link_type: 0,
        flags: 3,
        traversal: 0xffff,
    }];
    let bytes = nav_quake::write(&f).unwrap();
    assert_eq!(nav_quake::read(&bytes).unwrap(), f);
    assert!(
        nav_quake::validate(&f).is_empty(),
        "{:?}",
        nav_quake::validate(&f)
    );
    f.nodes.push(node);
    let findings = nav_quake::validate(&f);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert!(findings[0].message.contains("65,536"));
}

#[test]
fn validate_reports_dangling_indices() {
    let mut f = common::room(Magic::Nav2, 17);
    f.links[0].target = 99;
    f.links[1].traversal = 7;
    f.nodes[4].num_links = 5;
    f.edicts[0].link = 200;
    let found: Vec<String> = nav_quake::validate(&f)
        .iter()
        .map(|x| x.to_string())
        .collect();
    assert!(
        found.contains(&"error: links[0]: target node 99 is past the 5 nodes".to_string()),
        "{found:#?}"
    );
    assert!(
        found.contains(
            &"error: links[1]: traversal index 0x0007 is past the 2 traversals".to_string()
        ),
        "{found:#?}"
    );
    assert!(
        found.contains(&"error: nodes[4]: links 9..14 run past the 10 links".to_string()),
        "{found:#?}"
    );
    assert!(
        found.contains(&"error: edicts[0]: link index 200 is past the 10 links".to_string()),
        "{found:#?}"
    );
}
