//! `fix` after a hand edit: real files that validate clean come back unchanged, a deleted area
//! leaves references that `fix` drops until `validate` reports no error, and the sample room
//! gives exactly the expected change lines.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use std::path::{Path, PathBuf};

use nav_core::testing::{
    assert_places, files_have_places, fix_files, is_negative, skip_without_corpus,
};
use nav_core::{Finding, Format, Severity};
use nav_source2::{Connection, Source2Mesh, Source2Nav};

/// The model's top-level parts, as finding places name them.
const ROOTS: &[&str] = &[
    "polygons",
    "corner_gravity",
    "areas",
    "ladders",
    "movable_mesh_settings",
    "game_data",
    "extra_generation_params",
    "custom_data",
];

fn errors(mesh: &Source2Mesh) -> Vec<Finding> {
    let all = nav_source2::validate(mesh);
    assert_places("model", &all, ROOTS);
    all.into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// The errors fix mends: dangling area, ladder and edge references (not duplicate ids, corner or
/// polygon indices, which it leaves to people).
fn is_reference_error(f: &Finding) -> bool {
    let p = &f.place;
    p.has("connections")
        || p.has("ladders_above")
        || p.has("ladders_below")
        || p.root() == Some("ladders")
}

/// Whether `line` names `id` as a whole number after `what ` (`area 6`, not `area 60`).
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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/source2");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("samples/source2 exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "nav"))
        .collect();
    files.sort();
    files
}

fn real_meshes() -> Vec<(String, Vec<u8>, Source2Mesh)> {
    let mut out = Vec::new();
    for (name, path) in common::source2_files() {
        let bytes = std::fs::read(&path).expect("readable");
        let mesh = nav_source2::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, bytes, mesh));
    }
    if out.is_empty() {
        skip_without_corpus("no real Source 2 file; only the samples are used");
    }
    out
}

#[test]
fn real_files_fix_only_what_validate_finds() {
    let files: Vec<_> = common::source2_files()
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    if files.is_empty() {
        skip_without_corpus("no real Source 2 file");
        return;
    }
    // `fix_files` leaves out what lies in a `negative/` folder: here the two Source 2 files among
    // the Source 1 negatives, which the round-trip test reads.
    let walked = files.iter().filter(|p| !is_negative(p)).count();
    let tally = fix_files(&Source2Nav, files, is_reference_error);
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    // Real files validate clean (the corpus test says so): fix has nothing to mend.
    assert_eq!(tally.mended, 0, "{tally:?}");
}

/// The first area, in file order, that has connections and that another area connects to.
fn connected_area(mesh: &Source2Mesh) -> Option<usize> {
    mesh.areas.iter().position(|a| {
        a.connections.iter().any(|l| !l.is_empty())
            && mesh
                .areas
                .iter()
                .any(|b| b.id != a.id && b.connections.iter().flatten().any(|c| c.area_id == a.id))
    })
}

/// The first area a ladder names.
fn laddered_area(mesh: &Source2Mesh) -> Option<usize> {
    let named: Vec<u32> = mesh
        .ladders
        .iter()
        .flat_map(|l| l.area_ids().map(|(_, id)| id))
        .filter(|id| *id != 0)
        .collect();
    mesh.areas.iter().position(|a| named.contains(&a.id))
}

/// Removes `areas[index]`; `validate` must then report errors, and after `fix` none; the changes
/// name the removed id, the written file reads back equal, and a second fix changes nothing.
fn break_then_fix(name: &str, mesh: &Source2Mesh, index: usize) -> (usize, usize) {
    let mut edited = mesh.clone();
    let removed = edited.areas.remove(index);
    let before = errors(&edited).len();
    assert!(
        before > 0,
        "{name}: removing area {} left no error",
        removed.id
    );
    let changes = nav_source2::fix(&mut edited);
    let after = errors(&edited);
    assert!(
        after.is_empty(),
        "{name}: after removing area {} fix left {after:?}",
        removed.id
    );
    assert!(
        changes.iter().any(|c| mentions(c, "area", removed.id)),
        "{name}: no change names area {}: {changes:#?}",
        removed.id
    );
    let bytes = Source2Nav.write(&edited).expect("the fixed mesh writes");
    let back = Source2Nav.read(&bytes).expect("the fixed file reads");
    assert_eq!(back, edited, "{name}: the fixed file reads back different");
    let mut again = back;
    assert_eq!(nav_source2::fix(&mut again), Vec::<String>::new(), "{name}");
    assert_eq!(again, edited);
    (before, changes.len())
}

#[test]
fn removing_an_area_from_every_sample_and_real_file_then_fix() {
    let mut cases: Vec<(String, Source2Mesh)> = samples()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("sample is readable");
            let mesh = nav_source2::read(&bytes).expect("sample reads");
            (p.display().to_string(), mesh)
        })
        .collect();
    cases.extend(real_meshes().into_iter().map(|(n, _, m)| (n, m)));
    let (mut connected, mut laddered) = (0usize, 0usize);
    for (name, mesh) in &cases {
        // Every sample and real file validates clean (their own tests say so), so an error
        // after the removal is the removal's.
        assert_eq!(errors(mesh), [], "{name}");
        if let Some(i) = connected_area(mesh) {
            let (before, changes) = break_then_fix(name, mesh, i);
            println!(
                "{name}: area id {} deleted: {before} errors, {changes} changes",
                mesh.areas[i].id
            );
            connected += 1;
        }
        if let Some(i) = laddered_area(mesh) {
            break_then_fix(name, mesh, i);
            laddered += 1;
        }
    }
    println!("nav-source2 fix: {connected} connected areas removed, {laddered} laddered ones");
    assert!(connected >= 7, "every sample has connected areas");
    assert!(laddered >= 7, "every sample has a ladder");
}

#[test]
fn sample_room_without_area_2_gives_the_expected_lines() {
    for version in [30, 35] {
        let mesh = nav_source2::samples::room(version, 1);
        assert_eq!(nav_source2::validate(&mesh), [], "v{version}");
        assert_eq!(nav_source2::fix(&mut mesh.clone()), Vec::<String>::new());

        let mut edited = mesh.clone();
        edited.areas.remove(1);
        // Area 3 meets area 4 across an edge that area does not have.
        edited.areas[1].connections[1] = vec![Connection {
            area_id: 4,
            edge: 7,
        }]
        .into();
        let changes = nav_source2::fix(&mut edited);
        let mut expected = vec![
            "areas[id 1].connections[edge 1]: dropped area 2, which does not exist",
            "areas[id 3].connections[edge 1]: dropped the connection to edge 7 of area 4, which has 4 edges",
            "areas[id 4].connections[edge 0]: dropped area 2, which does not exist",
        ];
        if version >= 35 {
            expected
                .push("ladders[id 1].bottom_left_area_id: area 2 does not exist; set to 0 (none)");
        }
        assert_eq!(changes, expected, "v{version}");
        assert!(edited.areas.iter().all(|a| a.connections.len() == 4));
        assert_eq!(edited.areas[1].connections[1], []);
        // The custom data is the game's bytes: left alone, and still warned about.
        assert_eq!(edited.custom_data, mesh.custom_data);
        let findings = nav_source2::validate(&edited);
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].severity, Severity::Warning);
        assert!(findings[0].message.contains("3 areas"), "{findings:?}");
        let bytes = Source2Nav.write(&edited).expect("writes");
        assert_eq!(Source2Nav.read(&bytes).expect("reads"), edited);
    }
}

#[test]
fn sample_room_without_its_ladder_gives_the_expected_lines() {
    let mut mesh = nav_source2::samples::room(36, 0);
    mesh.ladders.clear();
    assert_eq!(
        nav_source2::fix(&mut mesh),
        [
            "areas[id 1].ladders_above: dropped ladder 1, which does not exist",
            "areas[id 4].ladders_below: dropped ladder 1, which does not exist",
        ]
    );
    assert_eq!(nav_source2::validate(&mesh), []);
}

/// Errors fix does not mend (a duplicate id) and warnings are left as they are: fix changes
/// nothing that is not a dangling reference.
#[test]
fn other_findings_are_left_alone() {
    let mut mesh = nav_source2::samples::room(35, 0);
    mesh.areas[3].id = 3;
    mesh.areas[2].hull_index = 9;
    let before = mesh.clone();
    let findings = nav_source2::validate(&mesh);
    assert!(
        findings.iter().any(|f| f.message.contains("also used by"))
            && findings.iter().any(|f| f.severity == Severity::Warning),
        "{findings:?}"
    );
    let changes = nav_source2::fix(&mut mesh);
    // Area id 4 no longer exists: the references to it go, the duplicate stays.
    assert!(
        changes.iter().all(|c| mentions(c, "area", 4)),
        "{changes:?}"
    );
    assert_eq!(mesh.areas[3].id, 3);
    assert_eq!(mesh.areas[2].hull_index, 9);
    assert_ne!(mesh, before);
    let left = errors(&mesh);
    assert!(left.iter().all(|f| !is_reference_error(f)), "{left:?}");
}

/// Arbitrary models (mostly full of ids that name nothing): fix never panics, leaves no
/// reference error, is idempotent, and leaves a model without errors as it is.
#[test]
fn arbitrary_models_fix_cleanly() {
    use arbitrary::{Arbitrary, Unstructured};
    let (mut mended, mut untouched) = (0usize, 0usize);
    for seed in 0..2000u64 {
        let data = nav_core::testing::noise(seed, 256 + (seed as usize % 7) * 512);
        let Ok(mesh) = Source2Mesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let mut fixed = mesh.clone();
        let changes = nav_source2::fix(&mut fixed);
        if errors(&mesh).is_empty() {
            assert_eq!(changes, Vec::<String>::new(), "seed {seed}");
            assert_eq!(fixed, mesh, "seed {seed}");
            untouched += 1;
            continue;
        }
        let left: Vec<_> = errors(&fixed)
            .into_iter()
            .filter(is_reference_error)
            .collect();
        assert!(left.is_empty(), "seed {seed}: {left:?}");
        assert_eq!(nav_source2::fix(&mut fixed.clone()), Vec::<String>::new());
        if !changes.is_empty() {
            mended += 1;
        }
    }
    println!("arbitrary models: {mended} mended, {untouched} without errors left as they were");
    assert!(mended > 200, "{mended}");
}

#[test]
fn every_finding_of_real_files_and_samples_has_a_place() {
    let files = common::source2_files().into_iter().map(|(_, p)| p);
    let (read, _) = files_have_places(&Source2Nav, files.chain(samples()), ROOTS);
    assert!(read > 0);
}
