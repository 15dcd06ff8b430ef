//! Samples this crate's writer makes (kept in `samples/source/`), snapshots of their dumps,
//! snapshots of the summaries of a few corpus files, and dumps of the two smallest Left 4 Dead
//! development maps (a few hundred bytes of readable text; the files themselves are not copied).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use nav_core::testing::{corpus_dir, real_file, vec3};
use nav_core::{Format, RawF32};
use nav_source::{
    ApproachArea, Area, AreaCustom, EncounterPath, EncounterSpot, Flavour, HidingSpot, Ladder,
    NavString, ShortVec, SourceMesh, SourceNav, VisibleArea, VisibleAreaIndex,
};

/// A small square grid of areas, connected to their neighbours, with one hiding spot each and
/// an encounter path across the first area, shaped for the version's fields.
fn grid(mesh: &mut SourceMesh, side: u32) {
    let layout = mesh.layout();
    let id = |x: u32, y: u32| 1 + y * side + x;
    for y in 0..side {
        for x in 0..side {
            let (fx, fy) = (x as f32 * 100.0, y as f32 * 100.0);
            let mut a = Area {
                id: id(x, y),
                attribute_flags: if (x + y) % 3 == 0 { 0x2 } else { 0 },
                nw_corner: vec3(fx, fy, 0.0),
                se_corner: vec3(fx + 100.0, fy + 100.0, 8.0),
                ne_z: RawF32::new(4.0),
                sw_z: RawF32::new(4.0),
                ..Area::default()
            };
            if y > 0 {
                a.connections[0].push(id(x, y - 1));
            }
            if x + 1 < side {
                a.connections[1].push(id(x + 1, y));
            }
            if y + 1 < side {
                a.connections[2].push(id(x, y + 1));
            }
            if x > 0 {
                a.connections[3].push(id(x - 1, y));
            }
            a.hiding_spots.push(HidingSpot {
                id: if layout.legacy_hiding_spots() {
                    0
                } else {
                    a.id * 10
                },
                position: vec3(fx + 50.0, fy + 50.0, 2.0),
                flags: if layout.legacy_hiding_spots() { 0 } else { 1 },
            });
            if layout.has_places() && !mesh.places.is_empty() {
                a.place = 1 + (x % mesh.places.len() as u32) as u16;
            }
            if layout.has_occupy_times() {
                a.earliest_occupy_time = [RawF32::new(x as f32), RawF32::new(y as f32)];
            }
            if layout.has_light_intensity() {
                a.light_intensity = [RawF32::new(1.0); 4];
            }
            if layout.has_base_visibility() {
                a.visible_areas = a
                    .connections
                    .iter()
                    .flatten()
                    .map(|&area_id| VisibleArea {
                        area_id,
                        attributes: 1,
                    })
                    .collect();
            }
            mesh.areas.push(a);
        }
    }
    let first = mesh.areas[0].id;
    let second = mesh.areas[1].id;
    let path = if layout.legacy_encounter_paths() {
        EncounterPath::Positions {
            from_area_id: second,
            to_area_id: second,
            from_position: vec3(150.0, 50.0, 0.0),
            to_position: vec3(150.0, 60.0, 0.0),
            spots: vec![[
                RawF32::new(50.0),
                RawF32::new(50.0),
                RawF32::new(2.0),
                RawF32::new(0.5),
            ]],
        }
    } else {
        EncounterPath::Spots {
            from_area_id: second,
            from_direction: 1,
            to_area_id: second,
            to_direction: 1,
            spots: ShortVec::from([EncounterSpot {
                hiding_spot_id: first * 10,
                t: 128,
            }]),
        }
    };
    mesh.areas[0].encounter_paths.push(path);
    if layout.has_base_approach() {
        mesh.areas[0].approach_areas.push(ApproachArea {
            here_area_id: second,
            prev_area_id: 0,
            prev_to_here_how: 9,
            next_area_id: 0,
            here_to_next_how: 9,
        });
    }
}

fn with_custom(mut mesh: SourceMesh) -> SourceMesh {
    let layout = mesh.layout();
    for a in &mut mesh.areas {
        a.custom = if layout.has_cs_approach() {
            AreaCustom::CounterStrike {
                approach_areas: vec![ApproachArea {
                    here_area_id: a.id,
                    prev_area_id: a.connections[1].first().copied().unwrap_or(0),
                    prev_to_here_how: 0,
                    next_area_id: 0,
                    here_to_next_how: 9,
                }],
            }
        } else if layout.has_tf_attributes() {
            AreaCustom::TeamFortress2 {
                tf_attributes: if a.id == 1 { 0x2 } else { 0 },
            }
        } else if layout.is_terror() {
            let index = |id: u32| id - 1;
            AreaCustom::Terror {
                spawn_attributes: 0x8,
                legacy_word: layout.has_terror_legacy_word().then_some(0),
                fog_place: 1,
                visible_areas: a
                    .connections
                    .iter()
                    .flatten()
                    .map(|&id| VisibleAreaIndex {
                        area_index: index(id),
                        attributes: 1,
                    })
                    .collect(),
                inherit_visibility_from: 0,
            }
        } else {
            AreaCustom::None
        };
    }
    mesh
}

/// Every sample: file name and model.
fn samples() -> Vec<(&'static str, SourceMesh)> {
    let mut out = Vec::new();

    let mut base = SourceMesh::new(Flavour::Base, 16, 0);
    base.bsp_size = 4096;
    base.is_analyzed = 1;
    grid(&mut base, 3);
    out.push(("base_v16.nav", base));

    let mut cs = SourceMesh::new(Flavour::CounterStrike, 16, 1);
    cs.places = vec![
        NavString::with_nul("BombsiteA"),
        NavString::with_nul("CTSpawn"),
    ];
    cs.bsp_size = 8192;
    cs.is_analyzed = 1;
    grid(&mut cs, 2);
    out.push(("cs_v16_1.nav", with_custom(cs)));

    let mut tf = SourceMesh::new(Flavour::TeamFortress2, 16, 2);
    tf.is_analyzed = 1;
    grid(&mut tf, 2);
    out.push(("tf2_v16_2.nav", with_custom(tf)));

    let mut l4d2 = SourceMesh::new(Flavour::Left4Dead2, 16, 14);
    if let Some(t) = l4d2.terror.as_mut() {
        t.population = NavString(b"c1streets".to_vec());
        t.fog_places = vec![NavString::with_nul("fog_street")];
        t.max_view_distance = RawF32::new(1500.0);
    }
    grid(&mut l4d2, 2);
    out.push(("l4d2_v16_14.nav", with_custom(l4d2)));

    let mut css9 = SourceMesh::new(Flavour::Base, 9, 0);
    css9.places = vec![NavString::with_nul("Hostages")];
    grid(&mut css9, 2);
    css9.areas[0].ladders[0].push(1);
    css9.ladders.push(Ladder {
        id: 1,
        width: RawF32::new(24.0),
        top: vec3(10.0, 10.0, 128.0),
        bottom: vec3(10.0, 10.0, 0.0),
        length: RawF32::new(128.0),
        direction: 2,
        bottom_area_id: 1,
        top_forward_area_id: 2,
        ..Ladder::default()
    });
    out.push(("css_v9.nav", css9));

    let mut v6 = SourceMesh::new(Flavour::Base, 6, 0);
    grid(&mut v6, 2);
    v6.ladders.push(Ladder {
        id: 1,
        width: RawF32::new(24.0),
        length: RawF32::new(64.0),
        is_dangling: 1,
        bottom_area_id: 1,
        ..Ladder::default()
    });
    out.push(("ladder_v6.nav", v6));

    let mut gold = SourceMesh::new(Flavour::Base, 5, 0);
    gold.places = vec![NavString::with_nul("Middle")];
    gold.bsp_size = 1000;
    grid(&mut gold, 2);
    gold.stale_tail = b"stale bytes of an older save".to_vec();
    out.push(("goldsrc_v5_stale_tail.nav", gold));

    let mut v1 = SourceMesh::new(Flavour::Base, 1, 0);
    grid(&mut v1, 2);
    out.push(("legacy_v1.nav", v1));
    out
}

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/source")
}

#[test]
fn samples_are_current() {
    let dir = samples_dir();
    let mut stale = Vec::new();
    for (name, mesh) in samples() {
        let bytes = SourceNav
            .write(&mesh)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(bytes.len() < 4096, "{name} is {} bytes", bytes.len());
        assert_eq!(SourceNav.read(&bytes).expect("reads back"), mesh, "{name}");
        let errors: Vec<_> = SourceNav
            .validate(&mesh)
            .into_iter()
            .filter(|f| f.severity != nav_core::Severity::Info)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let path = dir.join(name);
        if let Err(e) = nav_core::testing::golden_file(&path, &bytes) {
            stale.push(e);
        }
    }
    assert!(
        stale.is_empty(),
        "samples out of date (run with NAVKIT_BLESS=1): {stale:?}"
    );
}

#[test]
fn sample_dumps() {
    for (name, mesh) in samples() {
        let mut text = String::new();
        SourceNav.dump(&mesh, &mut text).expect("dump");
        insta::assert_snapshot!(format!("dump_{}", name.trim_end_matches(".nav")), text);
    }
}

#[test]
fn corpus_summaries() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let mut text = String::new();
    for file in [
        "dodp_dod_jagd.nav",
        "gs_fy_iceworld.nav",
        "css_cs_militia.nav",
        "awpy_de_vertigo.nav",
        "tfnm_itemtest.nav",
        "l4d2_c1m1_hotel.nav",
    ] {
        let bytes = std::fs::read(dir.join(file)).expect("corpus file");
        let s = SourceNav.summary(&SourceNav.read(&bytes).expect("parses"));
        text.push_str(&format!(
            "{file}: {} {} {:?}\n",
            s.version,
            s.variant.unwrap_or_default(),
            s.counts
        ));
    }
    insta::assert_snapshot!("corpus_summaries", text);
}

/// The dumps of the smallest new real file of each folder: `l4dfd_test_box2.nav` (v12, the
/// incoming folder, or the corpus once it has moved there) and `l4dfd_tutorial01.nav` (v15, the
/// corpus).
#[test]
fn real_file_dumps() {
    for name in ["l4dfd_test_box2.nav", "l4dfd_tutorial01.nav"] {
        let Some(path) = real_file("source", name) else {
            return;
        };
        let bytes = std::fs::read(path).expect("readable");
        let mut text = String::new();
        SourceNav
            .dump(&SourceNav.read(&bytes).expect("parses"), &mut text)
            .expect("dump");
        insta::assert_snapshot!(format!("real_dump_{}", name.trim_end_matches(".nav")), text);
    }
}
