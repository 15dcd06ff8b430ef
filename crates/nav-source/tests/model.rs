//! Structured round trips of arbitrary models, and model edits that must write, re-parse and
//! validate clean.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::vec3;
use nav_core::testing::{ArbitraryTally, arbitrary_models};
use nav_core::{Format, RawF32};
use nav_source::{
    Area, AreaCustom, EncounterPath, EncounterSpot, Flavour, HidingSpot, Ladder, NavString,
    ShortVec, SourceMesh, SourceNav, VisibleArea, VisibleAreaIndex,
};

#[test]
fn arbitrary_models_round_trip() {
    let mut flavours = std::collections::BTreeMap::new();
    let mut versions = std::collections::BTreeSet::new();
    let ArbitraryTally { written, refused } = arbitrary_models(
        &SourceNav,
        3000,
        |seed| 256 + (seed as usize % 7) * 512,
        |mesh: &SourceMesh, _| {
            *flavours.entry(mesh.flavour).or_insert(0usize) += 1;
            versions.insert(mesh.version);
        },
    );
    println!(
        "arbitrary models: {written} written and read back equal, {refused} refused; by flavour {flavours:?}"
    );
    assert!(written > 1500, "too few writable models: {written}");
    assert!(refused > 0, "the writer's refusals were never exercised");
    assert_eq!(flavours.len(), 5, "every flavour is covered: {flavours:?}");
    assert_eq!(versions.len(), 16, "every version is covered: {versions:?}");
}

fn area(id: u32, x: f32) -> Area {
    Area {
        id,
        nw_corner: vec3(x, 0.0, 0.0),
        se_corner: vec3(x + 50.0, 50.0, 0.0),
        ..Area::default()
    }
}

#[test]
fn built_tf2_mesh_writes_and_validates_clean() {
    let mut mesh = SourceMesh::new(Flavour::TeamFortress2, 16, 2);
    mesh.is_analyzed = 1;
    let mut a = area(1, 0.0);
    a.connections[1] = vec![2].into();
    a.visible_areas = vec![VisibleArea {
        area_id: 2,
        attributes: 3,
    }];
    a.custom = AreaCustom::TeamFortress2 { tf_attributes: 1 };
    let mut b = area(2, 50.0);
    b.connections[3] = vec![1].into();
    b.inherit_visibility_from = 1;
    b.custom = AreaCustom::TeamFortress2 { tf_attributes: 0 };
    mesh.areas = vec![a, b];
    let bytes = SourceNav.write(&mesh).expect("writes");
    let back = SourceNav.read(&bytes).expect("reads");
    assert_eq!(back, mesh);
    assert_eq!(SourceNav.validate(&back), []);

    // An edit: a connection to an area that does not exist is found by validate.
    let mut edited = back.clone();
    edited.areas[0].connections[0].push(99);
    let bytes = SourceNav.write(&edited).expect("writes");
    let findings = SourceNav.validate(&SourceNav.read(&bytes).expect("reads"));
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0].location, "areas[0] connections[0][0]");
}

#[test]
fn built_goldsrc_mesh_with_places_and_encounters() {
    let mut mesh = SourceMesh::new(Flavour::Base, 5, 0);
    mesh.bsp_size = 123_456;
    mesh.places = vec![
        NavString::with_nul("BombsiteA"),
        NavString::with_nul("CTSpawn"),
    ];
    let mut a = area(10, 0.0);
    a.place = 2;
    a.hiding_spots = vec![HidingSpot {
        id: 7,
        position: vec3(1.0, 2.0, 3.0),
        flags: 1,
    }];
    a.encounter_paths = vec![EncounterPath::Spots {
        from_area_id: 11,
        from_direction: 1,
        to_area_id: 11,
        to_direction: 3,
        spots: ShortVec::from([EncounterSpot {
            hiding_spot_id: 7,
            t: 128,
        }]),
    }];
    a.connections[0] = vec![11].into();
    let mut b = area(11, 50.0);
    b.connections[2] = vec![10].into();
    mesh.areas = vec![a, b];
    mesh.stale_tail = vec![0xde, 0xad];
    let bytes = SourceNav.write(&mesh).expect("writes");
    assert_eq!(&bytes[bytes.len() - 2..], [0xde, 0xad]);
    let back = SourceNav.read(&bytes).expect("reads");
    assert_eq!(back, mesh);
    assert_eq!(SourceNav.validate(&back), []);
    assert_eq!(back.places[1].text(), "CTSpawn");
}

#[test]
fn l4d_meshes_round_trip_in_both_flavours() {
    for (flavour, version, sub) in [
        (Flavour::Left4Dead, 12, 12),
        (Flavour::Left4Dead, 15, 13),
        (Flavour::Left4Dead2, 16, 14),
    ] {
        // Sub-version 14 names visible areas by index, 12 and 13 by id.
        let by_index = sub >= 14;
        let mut mesh = SourceMesh::new(flavour, version, sub);
        let terror = mesh.terror.as_mut().expect("terror data");
        terror.population = NavString(b"c1streets".to_vec());
        terror.fog_places = vec![NavString::with_nul("fog_a")];
        terror.max_view_distance = RawF32::new(1500.0);
        let mut a = area(1, 0.0);
        if version < 16 {
            a.visible_areas.clear();
            a.inherit_visibility_from = 0;
        }
        if version < 15 {
            a.approach_areas.clear();
        }
        a.custom = AreaCustom::Terror {
            spawn_attributes: 8,
            legacy_word: (sub < 13).then_some(0xdead_beef),
            fog_place: 1,
            visible_areas: vec![VisibleAreaIndex {
                area_index: if by_index { 0 } else { 1 },
                attributes: 2,
            }],
            inherit_visibility_from: 1,
        };
        mesh.areas = vec![a];
        let bytes = SourceNav.write(&mesh).expect("writes");
        let back = SourceNav.read(&bytes).expect("reads");
        assert_eq!(back, mesh, "{flavour}");
        assert_eq!(SourceNav.validate(&back), []);
        assert_eq!(
            SourceNav.summary(&back).variant.as_deref(),
            Some(flavour.name())
        );
        // An index past the area list, or an id that names no area, is an error.
        let mut bad = back.clone();
        if let AreaCustom::Terror { visible_areas, .. } = &mut bad.areas[0].custom {
            visible_areas[0].area_index = 2;
        }
        let findings = SourceNav.validate(&bad);
        assert_eq!(findings.len(), 1, "{findings:?}");
        let expected = if by_index {
            "visible area index 2 is past the 1 areas".to_string()
        } else {
            format!("visible area 2 does not exist (sub-version {sub} names visible areas by id)")
        };
        assert_eq!(findings[0].message, expected);
        // The unnamed word is stored exactly below sub-version 13.
        let mut word = back.clone();
        if let AreaCustom::Terror { legacy_word, .. } = &mut word.areas[0].custom {
            *legacy_word = if by_index || sub == 13 { Some(0) } else { None };
        }
        let err = SourceNav.write(&word).unwrap_err().to_string();
        assert!(
            err.starts_with("nav-source: areas[0] legacy_word: sub-version "),
            "{err}"
        );
        // The base visibility fields cannot hold data in an L4D file.
        let mut misplaced = back.clone();
        misplaced.areas[0].inherit_visibility_from = 1;
        assert!(SourceNav.write(&misplaced).is_err());
    }
}

#[test]
fn v6_ladders_keep_the_dangling_byte() {
    let mut mesh = SourceMesh::new(Flavour::Base, 6, 0);
    let mut a = area(1, 0.0);
    a.place = 0;
    mesh.areas = vec![a];
    mesh.ladders = vec![Ladder {
        id: 4,
        width: RawF32::new(20.0),
        top: vec3(0.0, 0.0, 128.0),
        bottom: vec3(0.0, 0.0, 0.0),
        length: RawF32::new(128.0),
        direction: 2,
        is_dangling: 1,
        bottom_area_id: 1,
        ..Ladder::default()
    }];
    let bytes = SourceNav.write(&mesh).expect("writes");
    let back = SourceNav.read(&bytes).expect("reads");
    assert_eq!(back.ladders[0].is_dangling, 1);
    assert_eq!(back, mesh);
    // The same ladder in v7 cannot hold the byte.
    let mut v7 = mesh.clone();
    v7.version = 7;
    let err = SourceNav.write(&v7).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: ladders[0] is_dangling: version 7 (base flavour) does not store this field, so it must be empty or zero"
    );
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let mut mesh = SourceMesh::new(Flavour::Base, 8, 0);
    let mut a = area(1, 0.0);
    a.attribute_flags = 0x100;
    mesh.areas = vec![a];
    let err = SourceNav.write(&mesh).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: areas[0] attribute_flags: 256 does not fit the field's 8-bit range"
    );
    mesh.areas[0].attribute_flags = 0;
    mesh.areas[0].hiding_spots = vec![HidingSpot::default(); 256];
    let err = SourceNav.write(&mesh).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: areas[0] hiding_spots count: 256 does not fit the field's 8-bit range"
    );
    mesh.areas[0].hiding_spots.clear();
    mesh.stale_tail = vec![1];
    assert!(
        SourceNav
            .write(&mesh)
            .unwrap_err()
            .to_string()
            .contains("stale_tail")
    );
    // A v16 sub-version 1 mesh in the base flavour holds no CS data, and auto-detection reads
    // an empty one back as CS: the Format writer refuses it, the plain writer does not.
    let base = SourceMesh::new(Flavour::Base, 16, 1);
    let err = SourceNav.write(&base).unwrap_err();
    assert!(
        err.to_string().contains("would be read back as cs"),
        "{err}"
    );
    let bytes = nav_source::write(&base).expect("plain writer");
    assert_eq!(
        nav_source::SourceMesh::from_view(
            &nav_source::SourceView::parse_with(&bytes, Flavour::Base).expect("explicit")
        ),
        base
    );
}

/// The streaming writer gives `write`'s bytes, and a model refused late in the file (the last
/// area's hiding spots past the `u8` count) is refused before the first byte reaches the stream.
#[test]
fn write_to_streams_and_refuses_before_any_byte() {
    let mut mesh = SourceMesh::new(Flavour::TeamFortress2, 16, 2);
    for id in 1..=3 {
        mesh.areas.push(Area {
            id,
            custom: AreaCustom::TeamFortress2 { tf_attributes: 0 },
            ..Area::default()
        });
    }
    let mut streamed = Vec::new();
    SourceNav.write_to(&mesh, &mut streamed).unwrap();
    assert_eq!(streamed, nav_source::write(&mesh).unwrap());
    mesh.areas[2].hiding_spots = vec![HidingSpot::default(); 256];
    let mut out = Vec::new();
    let err = nav_source::write_to(&mesh, &mut out).unwrap_err();
    let refusal = nav_core::error::refused(&err).expect("a refusal, not an I/O error");
    assert!(
        refusal.to_string().contains("areas[2] hiding_spots count"),
        "{refusal}"
    );
    assert!(
        out.is_empty(),
        "{} bytes written before the refusal",
        out.len()
    );
}
