//! Hand-built edge cases: truncation at every byte, absurd counts, bad magic and versions,
//! alignment padding, the encounter-path count, and the writer's refusals.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::LeBuilder;
use nav_core::{ErrorKind, Format, RawF32};
use nav_source2::samples::{empty_kv3, room};
use nav_source2::{Connection, Source2Nav, Source2View};

fn sample(version: u32, sub: u32) -> Vec<u8> {
    nav_source2::write(&room(version, sub)).expect("the sample writes")
}

#[test]
fn every_truncation_is_refused_without_panic() {
    for version in 30..=36 {
        let bytes = sample(version, u32::from(version >= 35));
        for len in 0..bytes.len() {
            let err =
                Source2View::parse(&bytes[..len]).expect_err("a truncated file must be refused");
            let text = err.to_string();
            assert!(text.starts_with("nav-source2: "), "{text}");
            assert!(
                err.offset().is_some_and(|o| o <= len),
                "v{version} len {len}: {text}"
            );
        }
        // And one byte too many.
        let mut long = bytes.clone();
        long.push(0);
        let err = Source2View::parse(&long).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TrailingBytes { len: 1, .. }),
            "v{version}: {err}"
        );
    }
}

/// Header of a v30 file with no places, then `rest`.
fn v30(rest: LeBuilder) -> Vec<u8> {
    LeBuilder::new()
        .u32(0xFEED_FACE)
        .u32(30)
        .u32(0)
        .u8(1)
        .u16(0)
        .u8(1)
        .bytes(&rest.finish())
        .finish()
}

#[test]
fn absurd_counts_name_the_field_and_offset() {
    let err = Source2View::parse(&v30(LeBuilder::new().u32(u32::MAX))).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source2: areas: count 4294967295 at offset 0x14 exceeds the 0 bytes left (34 bytes each)"
    );
    // One area whose inline corner count is absurd.
    let area = LeBuilder::new()
        .u32(1)
        .u32(1)
        .u64(0)
        .u8(0)
        .u32(0x4000_0000)
        .fill(0, 40);
    let err = Source2View::parse(&v30(area)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source2: areas[0] corners: count 1073741824 at offset 0x25 exceeds the 40 bytes left (12 bytes each)"
    );
    // A v31 pool with an absurd corner count.
    let mut b = v30(LeBuilder::new().u32(u32::MAX));
    b[4] = 31;
    let err = Source2View::parse(&b).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("nav-source2: corners: count 4294967295 at offset 0x14"),
        "{err}"
    );
    // Hull count.
    let mut m = room(30, 0);
    m.generation_params.hull_count = i32::MAX;
    let bytes = nav_source2::write(&{
        let mut ok = room(30, 0);
        ok.generation_params.hull_count = 1;
        ok
    })
    .unwrap();
    let at = bytes.len() - 3 * 28 - 4;
    let mut bad = bytes.clone();
    bad[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    let err = Source2View::parse(&bad).unwrap_err();
    assert!(
        err.to_string()
            .contains("generation_params hulls: count 2147483647"),
        "{err}"
    );
    bad[at..at + 4].copy_from_slice(&(-1i32).to_le_bytes());
    let err = Source2View::parse(&bad).unwrap_err();
    assert!(
        err.to_string().contains("hull count -1 is negative"),
        "{err}"
    );
    assert!(
        nav_source2::write(&m).is_err(),
        "a hull count past the records is refused"
    );
}

#[test]
fn magic_and_version_are_checked() {
    let err = Source2View::parse(b"NAV2\x0f\0\0\0").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::BadMagic { .. }), "{err}");
    for (v, words) in [(16u32, "Source 1"), (37, "30 to 36"), (29, "nav-source")] {
        let b = LeBuilder::new().u32(0xFEED_FACE).u32(v).finish();
        let err = Source2View::parse(&b).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnsupportedVersion { .. })
                && err.to_string().contains(words),
            "{err}"
        );
    }
    assert!(nav_source2::sniff(&sample(36, 1)));
    assert!(!nav_source2::sniff(
        &LeBuilder::new().u32(0xFEED_FACE).u32(16).finish()
    ));
    assert!(!nav_source2::sniff(&[0xce, 0xfa, 0xed, 0xfe, 30]));
}

#[test]
fn padding_before_a_blob_must_be_zero() {
    let without = sample(36, 0);
    let mut with = room(36, 0);
    with.sub_version = 1;
    with.custom_data = Some(nav_source2::samples::custom_data_for(&with));
    let bytes = nav_source2::write(&with).unwrap();
    let start = without.len().next_multiple_of(8);
    assert_eq!(&bytes[start..start + 4], &[5, 0x33, 0x56, 0x4b]);
    assert!(
        start > without.len(),
        "the sample needs padding before its custom data"
    );
    assert!(bytes[without.len()..start].iter().all(|b| *b == 0));
    let mut bad = bytes.clone();
    bad[without.len()] = 0x7f;
    let err = Source2View::parse(&bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "nav-source2: custom_data padding: alignment byte 0x7f is not zero at offset {:#x}",
            without.len()
        )
    );
}

#[test]
fn encounter_paths_and_bad_polygon_indices_are_refused() {
    let mut m = room(30, 0);
    m.areas.truncate(1);
    m.areas[0].connections = vec![Default::default(); 4].into();
    m.areas[0].ladders_above.clear();
    m.ladders.clear();
    let bytes = nav_source2::write(&m).unwrap();
    // The encounter count sits after the hiding spots: id 4, flags 8, hull 1, count 4,
    // corners 48, float 4, four empty lists 16, spot count 1, spot 17.
    let at = 20 + 4 + 8 + 1 + 4 + 48 + 4 + 16 + 1 + 17;
    assert_eq!(&bytes[at..at + 4], &[0, 0, 0, 0]);
    let mut bad = bytes.clone();
    bad[at] = 1;
    let err = Source2View::parse(&bad).unwrap_err();
    assert!(
        err.to_string()
            .contains("encounter paths: their Source 2 layout is unknown"),
        "{err}"
    );

    let m = room(31, 0);
    let mut bad_model = m.clone();
    bad_model.areas[0].polygon = 99;
    let err = nav_source2::write(&bad_model).unwrap_err();
    assert!(
        err.to_string()
            .contains("polygon index 99 is past the 4 polygons"),
        "{err}"
    );
}

#[test]
fn writer_refuses_what_the_version_cannot_hold() {
    let mut m = room(35, 0);
    m.areas[0].connections.pop();
    let err = nav_source2::write(&m).unwrap_err();
    assert!(
        err.to_string().contains("3 connection lists for 4 corners"),
        "{err}"
    );

    let mut m = room(36, 0);
    m.game_data = None;
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("game_data")
    );

    let mut m = room(35, 0);
    m.game_data = Some(empty_kv3([0; 16]));
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("must be absent")
    );

    let mut m = room(36, 0);
    m.extra_generation_params.as_mut().unwrap().bytes.push(0);
    let err = nav_source2::write(&m).unwrap_err();
    assert!(err.to_string().contains("not a whole KV3 blob"), "{err}");

    let mut m = room(30, 0);
    m.ladders[0].bottom_right_area_id = 3;
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("bottom_left_area_id")
    );

    let mut m = room(31, 0);
    m.corner_gravity_flags = 1;
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("corner_gravity_flags")
    );

    let mut m = room(30, 0);
    m.generation_params.hulls[0].border_erosion = 2;
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("border_erosion")
    );

    let mut m = room(33, 1);
    m.custom_data = None;
    assert!(
        nav_source2::write(&m)
            .unwrap_err()
            .to_string()
            .contains("custom_data")
    );

    let mut m = room(32, 0);
    m.areas[1].connections[0] = vec![
        Connection {
            area_id: 1,
            edge: 2
        };
        70_000
    ]
    .into();
    m.areas[0].hiding_spots = vec![m.areas[0].hiding_spots[0]; 256];
    let err = nav_source2::write(&m).unwrap_err();
    assert!(
        err.to_string()
            .contains("hiding_spots count: 256 does not fit"),
        "{err}"
    );
}

#[test]
fn floats_keep_their_bits() {
    let mut m = room(34, 0);
    m.corners[0][2] = RawF32::from_bits(0x7fc0_1234);
    m.areas[2].unknown_float = RawF32::new(-0.0);
    let bytes = nav_source2::write(&m).unwrap();
    assert_eq!(Source2Nav.read(&bytes).unwrap(), m);
}
