//! Hand-built edge cases: every version without a real sample, empty meshes, odd floats,
//! truncation at every byte, absurd counts, wrong magic and versions, and the fuzz findings.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::Format;
use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::LeBuilder;
use nav_source::{AreaCustom, EncounterPath, Flavour, SourceNav};

const MAGIC: u32 = 0xFEED_FACE;

/// The header of a file, built from the SDK's field table (not from the crate's writer).
fn header(version: u32, sub: u32, places: &[&[u8]]) -> LeBuilder {
    let mut b = LeBuilder::new().u32(MAGIC).u32(version);
    if version >= 10 {
        b = b.u32(sub);
    }
    if version >= 4 {
        b = b.u32(0x1234_5678);
    }
    if version >= 14 {
        b = b.u8(1);
    }
    if version >= 5 {
        b = b.u16(places.len() as u16);
        for p in places {
            b = b.u16(p.len() as u16).bytes(p);
        }
        if version >= 12 {
            b = b.u8(1);
        }
    }
    b
}

/// One area with one connection north to `to`, one hiding spot, one encounter path and (where
/// the version has them) a place, a ladder up, occupy times, light and one visible area.
fn area(b: LeBuilder, version: u32, id: u32, to: u32) -> LeBuilder {
    let mut b = b.u32(id);
    b = match version {
        ..=8 => b.u8(0x81),
        9..=12 => b.u16(0x8001),
        _ => b.u32(0x8000_0001),
    };
    b = b
        .vec3(0.0, 0.0, 1.0)
        .vec3(64.0, 64.0, 2.0)
        .f32(3.0)
        .f32(-0.0);
    b = b.u32(1).u32(to).u32(0).u32(0).u32(0);
    b = b.u8(1);
    b = if version == 1 {
        b.vec3(8.0, 8.0, 1.0)
    } else {
        b.u32(id * 100).vec3(8.0, 8.0, 1.0).u8(4)
    };
    if version < 15 {
        b = b.u8(1).u32(id).u32(to).u8(2).u32(to).u8(3);
    }
    b = b.u32(1);
    b = if version < 3 {
        b.u32(to)
            .u32(to)
            .vec3(1.0, 1.0, 1.0)
            .vec3(2.0, 2.0, 2.0)
            .u8(1)
            .vec3(5.0, 5.0, 5.0)
            .f32(0.5)
    } else {
        b.u32(to).u8(0).u32(to).u8(2).u8(1).u32(id * 100).u8(255)
    };
    if version >= 5 {
        b = b.u16(1);
    }
    if version >= 7 {
        b = b.u32(1).u32(9).u32(0);
    }
    if version >= 8 {
        b = b.f32(1.5).f32(f32::from_bits(0x7fc0_0001));
    }
    if version >= 11 {
        b = b.f32(1.0).f32(0.5).f32(0.25).f32(0.0);
    }
    if version >= 16 {
        b = b.u32(1).u32(to).u8(1).u32(0);
    }
    b
}

fn ladder(b: LeBuilder, version: u32) -> LeBuilder {
    let mut b = b
        .u32(9)
        .f32(24.0)
        .vec3(0.0, 0.0, 100.0)
        .vec3(0.0, 0.0, 0.0)
        .f32(100.0)
        .u32(1);
    if version == 6 {
        b = b.u8(1);
    }
    b.u32(1).u32(0).u32(0).u32(0).u32(2)
}

/// A two-area file of `version`, built by hand.
fn hand_file(version: u32) -> Vec<u8> {
    let mut b = header(version, 0, &[b"Alpha\0"]);
    b = b.u32(2);
    b = area(b, version, 1, 2);
    b = area(b, version, 2, 1);
    if version >= 6 {
        b = b.u32(1);
        b = ladder(b, version);
    }
    b.finish()
}

#[test]
fn hand_built_versions_without_samples_round_trip() {
    for version in 1..=16u32 {
        let bytes = hand_file(version);
        let model = roundtrip_bytes(&SourceNav, &bytes)
            .unwrap_or_else(|e| panic!("version {version}: {e}"));
        assert_eq!(model.version, version);
        assert_eq!(model.flavour, Flavour::Base);
        assert_eq!(model.areas.len(), 2, "v{version}");
        let a = &model.areas[0];
        assert_eq!(a.id, 1);
        assert_eq!(a.connections[0], [2], "v{version}");
        let width_flags = match version {
            ..=8 => 0x81,
            9..=12 => 0x8001,
            _ => 0x8000_0001,
        };
        assert_eq!(a.attribute_flags, width_flags, "v{version}");
        assert_eq!(a.sw_z.to_bits(), 0x8000_0000, "v{version}: -0.0 kept");
        assert_eq!(a.hiding_spots.len(), 1);
        assert_eq!(a.hiding_spots[0].id, if version == 1 { 0 } else { 100 });
        assert_eq!(
            a.approach_areas.len(),
            usize::from(version < 15),
            "v{version}"
        );
        match &a.encounter_paths[0] {
            EncounterPath::Positions { spots, .. } => {
                assert!(version < 3);
                assert_eq!(spots[0][3].get(), 0.5);
            }
            EncounterPath::Spots { spots, .. } => {
                assert!(version >= 3);
                assert_eq!((spots[0].hiding_spot_id, spots[0].t), (100, 255));
            }
        }
        assert_eq!(a.place, u16::from(version >= 5));
        assert_eq!(model.places.len(), usize::from(version >= 5));
        assert_eq!(a.ladders[0].len(), usize::from(version >= 7));
        assert_eq!(model.ladders.len(), usize::from(version >= 6));
        if version == 6 {
            assert_eq!(model.ladders[0].is_dangling, 1);
        }
        if version >= 8 {
            assert_eq!(
                a.earliest_occupy_time[1].to_bits(),
                0x7fc0_0001,
                "NaN bits kept"
            );
        }
        assert_eq!(
            a.light_intensity[2].get(),
            if version >= 11 { 0.25 } else { 0.0 }
        );
        assert_eq!(a.visible_areas.len(), usize::from(version >= 16));
        assert_eq!(model.has_unnamed_areas, u8::from(version >= 12));
        assert_eq!(model.is_analyzed, u8::from(version >= 14));
        let findings = SourceNav.validate(&model);
        let errors: Vec<_> = findings
            .iter()
            .filter(|f| f.severity == nav_core::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "v{version}: {errors:?}");
    }
}

#[test]
fn hand_built_flavour_blocks() {
    // CS 16.1: the approach list after the visibility block.
    let mut b = header(16, 1, &[]).u32(1);
    b = area(b, 16, 1, 1).u8(1).u32(1).u32(1).u8(0).u32(1).u8(1);
    let cs = b.u32(0).finish();
    let m = roundtrip_bytes(&SourceNav, &cs).expect("cs");
    assert_eq!(m.flavour, Flavour::CounterStrike);
    assert!(
        matches!(&m.areas[0].custom, AreaCustom::CounterStrike { approach_areas } if approach_areas.len() == 1)
    );

    // TF2 16.2: one word per area.
    let tf = area(header(16, 2, &[]).u32(1), 16, 1, 1)
        .u32(0x40)
        .u32(0)
        .finish();
    let m = roundtrip_bytes(&SourceNav, &tf).expect("tf2");
    assert_eq!(
        m.areas[0].custom,
        AreaCustom::TeamFortress2 {
            tf_attributes: 0x40
        }
    );

    // L4D 16.13: population, fog places, the per-area block instead of base visibility, float.
    let mut b = header(16, 13, &[])
        .bytes(b"hospital\0")
        .u16(1)
        .u16(4)
        .bytes(b"fog\0")
        .u32(1);
    // Base area up to light intensity: build a v15-shaped area with a v16 header by hand.
    b = b
        .u32(1)
        .u32(0)
        .vec3(0.0, 0.0, 0.0)
        .vec3(1.0, 1.0, 0.0)
        .f32(0.0)
        .f32(0.0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u8(0)
        .u32(0)
        .u16(0)
        .u32(0)
        .u32(0)
        .f32(0.0)
        .f32(0.0)
        .fill(0, 16);
    b = b.u32(8).u16(1).u32(1).u32(1).u8(0).u32(0);
    let l4d = b.u32(0).f32(1500.0).finish();
    let m = roundtrip_bytes(&SourceNav, &l4d).expect("l4d");
    assert_eq!(m.flavour, Flavour::Left4Dead);
    let t = m.terror.as_ref().expect("terror");
    assert_eq!(t.population.0, b"hospital");
    assert_eq!(t.fog_places[0].0, b"fog\0");
    assert_eq!(t.max_view_distance.get(), 1500.0);
    assert!(m.areas[0].visible_areas.is_empty());
    assert_eq!(
        m.areas[0].custom,
        AreaCustom::Terror {
            spawn_attributes: 8,
            legacy_word: None,
            fog_place: 1,
            visible_areas: vec![nav_source::VisibleAreaIndex {
                area_index: 1,
                attributes: 0
            }],
            inherit_visibility_from: 0,
        }
    );
}

#[test]
fn empty_meshes() {
    // The 28-byte shape of an empty v16 file (areas 0, ladders 0).
    let empty = header(16, 0, &[]).u32(0).u32(0).finish();
    assert_eq!(empty.len(), 28);
    let m = roundtrip_bytes(&SourceNav, &empty).expect("empty v16");
    assert!(m.areas.is_empty() && m.ladders.is_empty());
    // The smallest file of all: v1 with no areas.
    let v1 = LeBuilder::new().u32(MAGIC).u32(1).u32(0).finish();
    roundtrip_bytes(&SourceNav, &v1).expect("empty v1");
}

#[test]
fn truncation_at_every_byte_is_an_error() {
    for version in [1u32, 2, 5, 6, 9, 13, 16] {
        let bytes = hand_file(version);
        for len in 0..bytes.len() {
            let cut = &bytes[..len];
            let result = nav_source::SourceView::parse(cut);
            if version <= 5 {
                // A cut GoldSrc file may still end after a whole record; then the rest is kept.
                if let Ok(view) = result {
                    panic!(
                        "v{version} cut at {len} parsed with {} areas",
                        view.area_count()
                    );
                }
            } else {
                let err = result.expect_err("a truncated file is refused");
                assert!(err.to_string().starts_with("nav-source: "), "{err}");
            }
        }
    }
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let bytes = header(16, 0, &[]).u32(u32::MAX).u32(0).finish();
    let err = nav_source::SourceView::parse(&bytes).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: areas: count 4294967295 at offset 0x18 exceeds the 4 bytes left (58 bytes each)"
    );
    let mut b = header(16, 0, &[]).u32(1).u32(7).u32(0);
    b = b.vec3(0.0, 0.0, 0.0).vec3(0.0, 0.0, 0.0).f32(0.0).f32(0.0);
    b = b.u32(u32::MAX).fill(0, 40);
    let err = nav_source::SourceView::parse(&b.finish()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: areas[0] connections[0]: count 4294967295 at offset 0x44 exceeds the 40 bytes left (4 bytes each)"
    );
    let mut b = header(16, 0, &[]).u32(1).u32(7).u32(0);
    b = b.vec3(0.0, 0.0, 0.0).vec3(0.0, 0.0, 0.0).f32(0.0).f32(0.0);
    b = b
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u8(0)
        .u32(0x1000_0000)
        .fill(0, 30);
    let err = nav_source::SourceView::parse(&b.finish()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("nav-source: areas[0] encounter_paths: count 268435456"),
        "{err}"
    );
    let places = LeBuilder::new()
        .u32(MAGIC)
        .u32(5)
        .u32(0)
        .u16(3)
        .u16(0xffff)
        .finish();
    let err = nav_source::SourceView::parse(&places).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: places[0] name: 65535 bytes needed at offset 0x10, only 0 left"
    );
}

#[test]
fn wrong_magic_and_versions() {
    let err = nav_source::SourceView::parse(b"NAV2\x10\0\0\0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: magic: magic \"NAV2\" at offset 0x0 is not 0xFEEDFACE (bytes ce fa ed fe)"
    );
    for v in [0u32, 17, 29] {
        let bytes = LeBuilder::new().u32(MAGIC).u32(v).fill(0, 32).finish();
        // The magic is enough to claim the file, so that the parser's message reaches the user.
        assert!(SourceNav.sniff(&bytes));
        let err = nav_source::SourceView::parse(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "nav-source: version: version {v} at offset 0x4 is not supported (nav-source reads Source 1 versions 1 to 16)"
            )
        );
    }
    let s2 = LeBuilder::new()
        .u32(MAGIC)
        .u32(35)
        .u32(1)
        .fill(0, 32)
        .finish();
    let err = nav_source::SourceView::parse(&s2).unwrap_err();
    assert!(
        err.to_string().contains("this is a Source 2 nav file"),
        "{err}"
    );
    assert!(SourceNav.sniff(&s2));
    assert!(SourceNav.sniff(&hand_file(16)));
    assert!(!SourceNav.sniff(&[0xce, 0xfa, 0xed]));
}

#[test]
fn trailing_bytes_from_v6_are_refused_and_every_flavour_is_named() {
    let mut bytes = header(16, 2, &[]).u32(0).u32(0).finish();
    bytes.extend_from_slice(&[1, 2, 3]);
    let err = nav_source::SourceView::parse(&bytes).unwrap_err();
    // All three stop at the same offset: the first tried (the sub-version's own) leads.
    assert_eq!(
        err.to_string(),
        "nav-source: no flavour reads the file to its end; furthest as tf2 (the others: base \
         stops at 0x1c in end of file, cs at 0x1c in end of file): end of file: 3 unexpected \
         bytes after the last record, at offset 0x1c"
    );
    assert_eq!(err.offset(), Some(0x1c));
    // The same bytes in a v5 file are a stale tail, kept and written back.
    let mut v5 = header(5, 0, &[]).u32(0).finish();
    v5.extend_from_slice(&[1, 2, 3]);
    let m = roundtrip_bytes(&SourceNav, &v5).expect("v5 tail");
    assert_eq!(m.stale_tail, [1, 2, 3]);
}

#[test]
fn place_names_longer_than_the_engine_buffer_are_consumed() {
    let long = vec![b'x'; 300];
    let bytes = header(16, 0, &[&long]).u32(0).u32(0).finish();
    let m = roundtrip_bytes(&SourceNav, &bytes).expect("long name");
    assert_eq!(m.places[0].0.len(), 300);
}

#[test]
fn l4d_population_without_nul_is_refused() {
    let bytes = header(16, 14, &[]).bytes(b"abc").finish();
    let err = nav_source::SourceView::parse_with(&bytes, Flavour::Left4Dead2).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: population: no NUL ends the population name at offset 0x14"
    );
}

#[test]
fn maximum_u8_and_u16_counts() {
    // 255 hiding spots (the u8 count's maximum) and 65,535 empty place names.
    let mut b = LeBuilder::new()
        .u32(MAGIC)
        .u32(16)
        .u32(0)
        .u32(0)
        .u8(1)
        .u16(u16::MAX);
    b = b.fill(0, 2 * usize::from(u16::MAX)).u8(0).u32(1);
    b = b
        .u32(5)
        .u32(0)
        .fill(0, 32)
        .u32(0)
        .u32(0)
        .u32(0)
        .u32(0)
        .u8(255);
    for i in 0..255u32 {
        b = b.u32(i).vec3(0.0, 0.0, 0.0).u8(0);
    }
    b = b
        .u32(0)
        .u16(u16::MAX)
        .u32(0)
        .u32(0)
        .fill(0, 24)
        .u32(0)
        .u32(0)
        .u32(0);
    let bytes = b.finish();
    let m = roundtrip_bytes(&SourceNav, &bytes).expect("max counts");
    assert_eq!(m.places.len(), 65_535);
    assert_eq!(m.areas[0].hiding_spots.len(), 255);
    assert_eq!(m.areas[0].place, u16::MAX);
    // A place index equal to the directory size is valid (1-based), one more would not be.
    assert!(
        SourceNav
            .validate(&m)
            .iter()
            .all(|f| !f.location.ends_with("place"))
    );
    let mut too_many = m.clone();
    too_many.places.push(nav_source::NavString::default());
    let err = SourceNav.write(&too_many).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: places count: 65536 does not fit the field's 16-bit range"
    );
}

/// The Left 4 Dead layout of sub-version 12 (a v12 development map): the L4D blocks of
/// sub-version 13, plus one unnamed word after each area's spawn attributes.
fn l4d_sub_12_file(sub: u32) -> Vec<u8> {
    let mut b = header(12, sub, &[b"Alpha\0"])
        .bytes(b"default\0")
        .u16(0)
        .u32(1);
    b = area(b, 12, 1, 1);
    b = b
        .u32(0x2)
        .u32(0xdead_beef)
        .u16(0)
        .u32(1)
        .u32(1)
        .u8(2)
        .u32(0);
    b.u32(0).f32(0.0).finish()
}

#[test]
fn l4d_sub_version_12_reads_its_extra_word() {
    let bytes = l4d_sub_12_file(12);
    let m = roundtrip_bytes(&SourceNav, &bytes).expect("l4d 12.12");
    assert_eq!(m.flavour, Flavour::Left4Dead);
    assert_eq!(
        m.areas[0].custom,
        AreaCustom::Terror {
            spawn_attributes: 2,
            legacy_word: Some(0xdead_beef),
            fog_place: 0,
            visible_areas: vec![nav_source::VisibleAreaIndex {
                area_index: 1,
                attributes: 2
            }],
            inherit_visibility_from: 0,
        }
    );
    // At sub-version 12 visible areas are ids: area 1 is this area, so nothing to report.
    assert!(
        SourceNav
            .validate(&m)
            .iter()
            .all(|f| !f.location.contains("visible_areas")),
        "{:?}",
        SourceNav.validate(&m)
    );
    // The two Left 4 Dead flavours share their rules; the word is gated on the sub-version.
    let l4d2 = nav_source::SourceView::parse_with(&bytes, Flavour::Left4Dead2).expect("as l4d2");
    assert_eq!(nav_source::SourceMesh::from_view(&l4d2).areas, m.areas);
    // No other flavour reads it.
    for f in [
        Flavour::Base,
        Flavour::CounterStrike,
        Flavour::TeamFortress2,
    ] {
        assert!(
            nav_source::SourceView::parse_with(&bytes, f).is_err(),
            "{f}"
        );
    }
}

#[test]
fn the_flavour_that_got_furthest_leads_the_error() {
    let bytes = l4d_sub_12_file(12);
    let cut = &bytes[..bytes.len() - 1];
    let err = nav_source::SourceView::parse(cut).unwrap_err();
    // The header with its one place ends at 0x1b, where base, cs and tf2 take "defa" for the
    // area count and stop at 0x1f, where its areas would start; l4d reads up to the float after
    // the ladders.
    let at = bytes.len() - 4;
    assert_eq!(
        err.to_string(),
        format!(
            "nav-source: no flavour reads the file to its end; furthest as l4d (the others: base \
             stops at 0x1f in areas, cs at 0x1f in areas, tf2 at 0x1f in areas): \
             max_view_distance: 4 bytes needed at offset {at:#x}, only 3 left"
        )
    );
    assert_eq!(err.offset(), Some(at));
}

#[test]
fn l4d_below_sub_version_12_is_refused() {
    let bytes = l4d_sub_12_file(11);
    let err = nav_source::SourceView::parse_with(&bytes, Flavour::Left4Dead).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: sub_version: the l4d flavour needs sub-version 12 or more, this file has 11 at offset 0x8"
    );
    // Auto-detection does not try the Left 4 Dead flavours there.
    let err = nav_source::SourceView::parse(&bytes)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("furthest as base") && !err.contains("l4d"),
        "{err}"
    );
}
