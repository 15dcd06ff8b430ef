//! `fix` after a hand edit: real files that validate clean come back unchanged, a deleted area
//! leaves references that `fix` drops until `validate` is clean again, and small hand-built
//! meshes give exactly the expected change lines.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use nav_core::testing::{
    fix_files, is_negative, real_file, real_files, real_paths, skip_without_corpus, vec3,
};
use nav_core::{Finding, Format, RawF32, Severity};
use nav_source::{
    ApproachArea, Area, AreaCustom, EncounterPath, EncounterSpot, Flavour, HidingSpot, Ladder,
    NavString, ShortVec, SourceMesh, SourceNav, VisibleArea, VisibleAreaIndex,
};

fn errors(mesh: &SourceMesh) -> Vec<Finding> {
    nav_source::validate(mesh)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// The errors `fix` leaves to people: duplicate ids, where it cannot tell which record is meant.
fn is_duplicate_id(f: &Finding) -> bool {
    f.message.contains("is also used by")
}

/// Whether `line` names `id` as a whole number after `what ` (`area 60`, not `area 601`).
fn mentions(line: &str, what: &str, id: u32) -> bool {
    let needle = format!("{what} {id}");
    line.match_indices(&needle).any(|(at, _)| {
        !line[at + needle.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/source");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("samples/source exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "nav"))
        .collect();
    files.sort();
    files
}

/// Real files of the format that parse (negative files, which must be refused, are left out).
fn real_meshes() -> Vec<(String, Vec<u8>, SourceMesh)> {
    let mut out = Vec::new();
    for (_, path) in real_files("source") {
        if is_negative(&path) {
            continue;
        }
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).expect("corpus file is readable");
        let mesh = SourceNav
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, bytes, mesh));
    }
    out
}

#[test]
fn real_files_fix_only_what_validate_finds() {
    let files = real_paths("source");
    if files.is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
    let walked = files.iter().filter(|p| !is_negative(p)).count();
    let tally = fix_files(&SourceNav, files, |f| !is_duplicate_id(f));
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    assert!(tally.unchanged > 0, "no real file came back unchanged");
}

/// The first area, in file order, that has connections and that another area connects to.
fn connected_area(mesh: &SourceMesh) -> Option<usize> {
    mesh.areas.iter().position(|a| {
        a.connections.iter().any(|l| !l.is_empty())
            && mesh
                .areas
                .iter()
                .any(|b| b.id != a.id && b.connections.iter().flatten().any(|id| *id == a.id))
    })
}

/// The first area a ladder names.
fn laddered_area(mesh: &SourceMesh) -> Option<usize> {
    let named: Vec<u32> = mesh
        .ladders
        .iter()
        .flat_map(|l| l.area_ids().map(|(_, id)| id))
        .filter(|id| *id != 0)
        .collect();
    mesh.areas.iter().position(|a| named.contains(&a.id))
}

/// Removes `areas[index]`, checks that `validate` then reports errors and that `fix` clears
/// them, mentions the removed id, writes a file that reads back equal and is idempotent.
/// Returns the error count before and after and the number of changes.
fn break_then_fix(name: &str, mesh: &SourceMesh, index: usize) -> (usize, usize, usize) {
    let mut edited = mesh.clone();
    let removed = edited.areas.remove(index);
    let before = errors(&edited).len();
    assert!(
        before > 0,
        "{name}: removing area {} left no error",
        removed.id
    );
    let changes = nav_source::fix(&mut edited);
    let after = errors(&edited);
    assert!(
        after.is_empty(),
        "{name}: after removing area {} fix left {after:?}",
        removed.id
    );
    assert!(!changes.is_empty(), "{name}");
    assert!(
        changes.iter().any(|c| mentions(c, "area", removed.id)),
        "{name}: no change names area {}: {changes:#?}",
        removed.id
    );
    let bytes = SourceNav.write(&edited).expect("the fixed mesh writes");
    let back = SourceNav.read(&bytes).expect("the fixed file reads");
    assert_eq!(back, edited, "{name}: the fixed file reads back different");
    let mut again = back;
    assert_eq!(nav_source::fix(&mut again), Vec::<String>::new(), "{name}");
    assert_eq!(again, edited);
    (before, after.len(), changes.len())
}

/// The real-world case: a user deletes one area (id 60) from the JSON of de_dust2 and writes it
/// back. Each error is one dangling reference, so fix makes exactly one change per error.
#[test]
fn deleting_an_area_from_the_json_of_de_dust2_then_fix() {
    // Without the corpus (a note, or a failure under NAVKIT_REQUIRE_CORPUS), the writer-made
    // CS sample stands in.
    let path = real_file("source", "awpy_de_dust2.nav").unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/source/cs_v16_1.nav")
    });
    let name = path.display().to_string();
    let bytes = std::fs::read(&path).expect("readable");
    let mesh = SourceNav.read(&bytes).expect("reads");
    assert!(
        errors(&mesh).is_empty(),
        "{name} validates clean as shipped"
    );
    let index = mesh
        .areas
        .iter()
        .position(|a| a.id == 60)
        .or_else(|| connected_area(&mesh))
        .expect("an area with connections");
    let mut json = serde_json::to_value(&mesh).expect("serialises");
    let removed = json["areas"]
        .as_array_mut()
        .expect("areas is an array")
        .remove(index);
    let id = removed["id"].as_u64().expect("an id");
    let edited: SourceMesh = serde_json::from_value(json).expect("the edited JSON reads");
    let mut with_area = edited.clone();
    with_area.areas.insert(index, mesh.areas[index].clone());
    assert_eq!(with_area, mesh, "the JSON edit removed exactly one area");
    let (before, after, changes) = break_then_fix(&name, &mesh, index);
    println!(
        "{name}: area id {id} deleted: {before} errors before fix, {after} after, {changes} changes"
    );
    assert_eq!(changes, before, "one change per dangling reference");
}

#[test]
fn removing_an_area_from_every_sample_and_real_file_then_fix() {
    let mut cases: Vec<(String, SourceMesh)> = samples()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("sample is readable");
            (
                p.display().to_string(),
                SourceNav.read(&bytes).expect("sample reads"),
            )
        })
        .collect();
    cases.extend(real_meshes().into_iter().map(|(n, _, m)| (n, m)));
    let (mut connected, mut laddered) = (0usize, 0usize);
    for (name, mesh) in &cases {
        // Every sample and real file validates clean (their own tests say so), so an error
        // after the removal is the removal's.
        assert_eq!(errors(mesh), [], "{name}");
        if let Some(i) = connected_area(mesh) {
            break_then_fix(name, mesh, i);
            connected += 1;
        }
        if let Some(i) = laddered_area(mesh) {
            break_then_fix(name, mesh, i);
            laddered += 1;
        }
    }
    println!(
        "nav-source fix: {connected} files with a connected area removed, {laddered} with a laddered one"
    );
    assert!(connected > 0);
    assert!(laddered > 0, "the ladder sample names areas");
}

fn area(id: u32, x: f32) -> Area {
    Area {
        id,
        nw_corner: vec3(x, 0.0, 0.0),
        se_corner: vec3(x + 50.0, 50.0, 0.0),
        ..Area::default()
    }
}

fn spot(id: u32) -> HidingSpot {
    HidingSpot {
        id,
        position: vec3(1.0, 2.0, 3.0),
        flags: 1,
    }
}

/// A CS:S mesh of three areas in a row, every reference kind pointing at area 2 or its spot.
fn cs_mesh() -> SourceMesh {
    let mut mesh = SourceMesh::new(Flavour::CounterStrike, 16, 1);
    mesh.places = vec![NavString::with_nul("BombsiteA")];
    let mut a = area(1, 0.0);
    a.connections[1] = vec![2, 3].into();
    a.hiding_spots = vec![spot(10)];
    a.visible_areas = vec![
        VisibleArea {
            area_id: 2,
            attributes: 1,
        },
        VisibleArea {
            area_id: 3,
            attributes: 1,
        },
    ];
    a.encounter_paths = vec![
        EncounterPath::Spots {
            from_area_id: 2,
            from_direction: 1,
            to_area_id: 3,
            to_direction: 1,
            spots: ShortVec::from([EncounterSpot {
                hiding_spot_id: 10,
                t: 0,
            }]),
        },
        EncounterPath::Spots {
            from_area_id: 3,
            from_direction: 3,
            to_area_id: 3,
            to_direction: 1,
            spots: ShortVec::from([
                EncounterSpot {
                    hiding_spot_id: 20,
                    t: 10,
                },
                EncounterSpot {
                    hiding_spot_id: 10,
                    t: 200,
                },
            ]),
        },
    ];
    a.ladders[0] = vec![7].into();
    a.custom = AreaCustom::CounterStrike {
        approach_areas: vec![
            ApproachArea {
                here_area_id: 2,
                prev_area_id: 2,
                prev_to_here_how: 0,
                next_area_id: 3,
                here_to_next_how: 0,
            },
            ApproachArea {
                here_area_id: 3,
                prev_area_id: 0,
                prev_to_here_how: 0,
                next_area_id: 0,
                here_to_next_how: 0,
            },
        ],
    };
    let mut b = area(2, 50.0);
    b.connections = [vec![], vec![3], vec![], vec![1]].map(Into::into);
    b.hiding_spots = vec![spot(20)];
    b.custom = AreaCustom::CounterStrike {
        approach_areas: Vec::new(),
    };
    let mut c = area(3, 100.0);
    c.connections[3] = vec![2].into();
    c.place = 1;
    c.inherit_visibility_from = 2;
    c.ladders[1] = vec![7].into();
    c.custom = AreaCustom::CounterStrike {
        approach_areas: Vec::new(),
    };
    mesh.areas = vec![a, b, c];
    mesh.ladders = vec![Ladder {
        id: 7,
        width: RawF32::new(20.0),
        length: RawF32::new(100.0),
        top_forward_area_id: 2,
        bottom_area_id: 3,
        ..Ladder::default()
    }];
    mesh
}

#[test]
fn hand_built_cs_mesh_gives_the_expected_lines() {
    let mesh = cs_mesh();
    assert_eq!(nav_source::validate(&mesh), []);
    assert_eq!(SourceNav.fix(&mut mesh.clone()), Vec::<String>::new());

    let mut edited = mesh.clone();
    edited.areas.remove(1);
    edited.ladders.clear();
    edited.places.clear();
    let changes = nav_source::fix(&mut edited);
    assert_eq!(
        changes,
        [
            "areas[id 1].connections[east]: dropped area 2, which does not exist",
            "areas[id 1].visible_areas: dropped area 2, which does not exist",
            "areas[id 1].ladders[up]: dropped ladder 7, which does not exist",
            "areas[id 1].encounter_paths: dropped the path from area 2 to area 3 with its 1 spot: area 2 does not exist",
            "areas[id 1].encounter_paths[from 3 to 3].spots: dropped hiding spot 20, which does not exist",
            "areas[id 1].approach_areas: dropped the entry here 2 (prev 2, next 3): area 2 does not exist",
            "areas[id 3].connections[west]: dropped area 2, which does not exist",
            "areas[id 3].inherit_visibility_from: area 2 does not exist; set to 0 (none)",
            "areas[id 3].place: place 1 is past the 0 entries of the place directory; set to 0 (no place)",
            "areas[id 3].ladders[down]: dropped ladder 7, which does not exist",
        ]
    );
    assert_eq!(nav_source::validate(&edited), []);
    let a = &edited.areas[0];
    assert_eq!(a.connections[1], [3]);
    assert_eq!(a.encounter_paths.len(), 1);
    let AreaCustom::CounterStrike { approach_areas } = &a.custom else {
        panic!("CS data kept");
    };
    assert_eq!(approach_areas.len(), 1);
    assert_eq!(approach_areas[0].here_area_id, 3);
    let bytes = SourceNav.write(&edited).expect("writes");
    assert_eq!(SourceNav.read(&bytes).expect("reads"), edited);
}

#[test]
fn hand_built_ladder_areas_are_set_to_none() {
    let mut mesh = cs_mesh();
    mesh.areas.remove(2);
    mesh.areas[0].connections[1] = vec![2].into();
    mesh.areas[1].connections[1].clear();
    mesh.areas[0].visible_areas.truncate(1);
    mesh.areas[0].encounter_paths.clear();
    if let AreaCustom::CounterStrike { approach_areas } = &mut mesh.areas[0].custom {
        approach_areas.clear();
    }
    assert_eq!(
        nav_source::fix(&mut mesh),
        ["ladders[id 7].bottom_area_id: area 3 does not exist; set to 0 (none)"]
    );
    assert_eq!(mesh.ladders[0].bottom_area_id, 0);
    assert_eq!(mesh.ladders[0].top_forward_area_id, 2);
    assert_eq!(nav_source::validate(&mesh), []);
}

/// Left 4 Dead visible areas: by index from sub-version 14, by id in 12 and 13.
#[test]
fn hand_built_l4d_visibility_follows_the_sub_version() {
    for (flavour, version, sub) in [(Flavour::Left4Dead, 15, 13), (Flavour::Left4Dead2, 16, 14)] {
        let by_index = sub >= 14;
        let mut mesh = SourceMesh::new(flavour, version, sub);
        let mut areas: Vec<Area> = [5, 6, 7].map(|id| area(id, id as f32 * 50.0)).into();
        let names = |refs: [u32; 3]| {
            refs.map(|r| VisibleAreaIndex {
                area_index: r,
                attributes: 2,
            })
            .to_vec()
        };
        for a in &mut areas {
            if version < 15 {
                a.approach_areas.clear();
            }
            a.custom = AreaCustom::Terror {
                spawn_attributes: 0,
                legacy_word: None,
                fog_place: 0,
                visible_areas: if by_index {
                    names([0, 1, 2])
                } else {
                    names([5, 6, 7])
                },
                inherit_visibility_from: 7,
            };
        }
        mesh.areas = areas;
        assert_eq!(nav_source::validate(&mesh), [], "{sub}");
        mesh.areas.remove(2);
        let changes = nav_source::fix(&mut mesh);
        let expected: Vec<String> = [5, 6]
            .into_iter()
            .flat_map(|id| {
                [
                    if by_index {
                        format!("areas[id {id}].visible_areas: dropped area index 2, past the 2 areas")
                    } else {
                        format!(
                            "areas[id {id}].visible_areas: dropped area 7, which does not exist (sub-version 13 names visible areas by id)"
                        )
                    },
                    format!(
                        "areas[id {id}].inherit_visibility_from: area 7 does not exist; set to 0 (none)"
                    ),
                ]
            })
            .collect();
        assert_eq!(changes, expected, "sub-version {sub}");
        assert_eq!(nav_source::validate(&mesh), [], "{sub}");
        let bytes = SourceNav.write(&mesh).expect("writes");
        assert_eq!(SourceNav.read(&bytes).expect("reads"), mesh);
    }
}

/// Warnings and infos are not fix's business: a mesh with no error comes back as it is.
#[test]
fn warnings_alone_are_left_alone() {
    let mut mesh = SourceMesh::new(Flavour::Left4Dead2, 16, 14);
    let mut a = area(1, 0.0);
    a.connections[0] = vec![1].into();
    a.custom = AreaCustom::Terror {
        spawn_attributes: 0,
        legacy_word: None,
        fog_place: 3,
        visible_areas: Vec::new(),
        inherit_visibility_from: 0,
    };
    mesh.areas = vec![a, area(0, 50.0)];
    mesh.areas[1].custom = mesh.areas[0].custom.clone();
    let findings = nav_source::validate(&mesh);
    assert!(
        !findings.is_empty() && errors(&mesh).is_empty(),
        "{findings:?}"
    );
    let before = mesh.clone();
    assert_eq!(nav_source::fix(&mut mesh), Vec::<String>::new());
    assert_eq!(mesh, before);
}

/// Arbitrary models (mostly full of ids that name nothing): fix never panics, leaves no error
/// but duplicate ids, is idempotent, and leaves a model without errors as it is.
#[test]
fn arbitrary_models_fix_cleanly() {
    use arbitrary::{Arbitrary, Unstructured};
    let (mut mended, mut untouched) = (0usize, 0usize);
    for seed in 0..2000u64 {
        let data = nav_core::testing::noise(seed, 256 + (seed as usize % 7) * 512);
        let Ok(mesh) = SourceMesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let mut fixed = mesh.clone();
        let changes = nav_source::fix(&mut fixed);
        if errors(&mesh).is_empty() {
            assert_eq!(changes, Vec::<String>::new(), "seed {seed}");
            assert_eq!(fixed, mesh, "seed {seed}");
            untouched += 1;
            continue;
        }
        let left: Vec<_> = errors(&fixed)
            .into_iter()
            .filter(|f| !is_duplicate_id(f))
            .collect();
        assert!(left.is_empty(), "seed {seed}: {left:?}");
        assert_eq!(nav_source::fix(&mut fixed.clone()), Vec::<String>::new());
        if !changes.is_empty() {
            mended += 1;
        }
    }
    println!("arbitrary models: {mended} mended, {untouched} without errors left as they were");
    assert!(mended > 500, "{mended}");
}
