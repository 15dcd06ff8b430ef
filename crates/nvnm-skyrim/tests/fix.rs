//! `fix` of `NVNM` blobs and plugins: real files without an error come back untouched, byte for
//! byte (the Creation Kit's grids and one-sided neighbours included); real blobs and plugins
//! broken by an edit (or built ones, without the corpus) are made consistent again, write and
//! read back equal, and a second fix changes nothing; and the change lines of small built cases
//! are exact.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use nav_core::geometry::TriangleMesh;
use nav_core::testing::{
    assert_places, corpus_dir, files_have_places, fix_files, is_negative, real_files,
    skip_without_corpus,
};
use nav_core::{Finding, Format, Key, Place, Severity};
use nvnm_skyrim::nvnm::fix::mends;
use nvnm_skyrim::nvnm::{DoorTriangle, PATHING_DOOR_CRC};
use nvnm_skyrim::plugin::{Item, PluginFile, RecordBody};
use nvnm_skyrim::{NavmeshGeometry, Nvnm, Plugin, samples};

/// The parts of an `NVNM` model, as finding places name them.
const NVNM_ROOTS: &[&str] = &[
    "version",
    "pathing_cell_crc",
    "triangles",
    "door_triangles",
    "cover_triangles",
    "cover_array",
    "cover_mappings",
    "waypoints",
    "grid",
];

/// The records of a plugin, as finding places name them.
const PLUGIN_ROOTS: &[&str] = &["NAVM", "NAVI"];

fn errors<F: Format>(format: &F, m: &F::Model) -> Vec<Finding> {
    let all = format.validate(m);
    let roots = if format.name() == Plugin.name() {
        PLUGIN_ROOTS
    } else {
        NVNM_ROOTS
    };
    assert_places("model", &all, roots);
    all.into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// Fixes `m`: no error of a kind fix mends is left, the model writes and reads back equal, a
/// second fix changes nothing. Returns the change lines.
fn fix_and_check<F: Format>(
    format: &F,
    mends: fn(&Finding) -> bool,
    what: &str,
    m: &mut F::Model,
) -> Vec<String> {
    let changes = format.fix(m);
    let left: Vec<_> = errors(format, m).into_iter().filter(mends).collect();
    assert!(left.is_empty(), "{what}: fix left {left:#?}");
    let bytes = format
        .write(m)
        .unwrap_or_else(|e| panic!("{what}: the fixed model: {e}"));
    let back = format.read(&bytes).unwrap();
    assert_eq!(&back, m, "{what}: the fixed model does not read back equal");
    let mut again = back;
    let second = format.fix(&mut again);
    assert!(
        second.is_empty(),
        "{what}: a second fix changed {second:#?}"
    );
    changes
}

#[test]
fn real_blobs_fix_only_what_validate_finds() {
    let files: Vec<PathBuf> = real_files("skyrim/nvnm")
        .into_iter()
        .map(|(_, f)| f)
        .collect();
    if files.is_empty() {
        skip_without_corpus("no NVNM blob in the corpus or incoming folder");
        return;
    }
    let walked = files.iter().filter(|p| !is_negative(p)).count();
    let tally = fix_files(&Nvnm, files, mends);
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    assert!(tally.unchanged > 0, "no real blob came back unchanged");
}

fn is_plugin(p: &std::path::Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["esp", "esm", "esl"].contains(&e.to_ascii_lowercase().as_str()))
}

#[test]
fn real_plugins_fix_only_what_validate_finds() {
    let files: Vec<PathBuf> = real_files("skyrim")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| is_plugin(f))
        .collect();
    if files.is_empty() {
        skip_without_corpus("no plugin in the corpus or incoming folder");
        return;
    }
    // Dwemer Secrets.esp has an error fix does not mend (a deleted navmesh): it stays as it is.
    let walked = files.iter().filter(|p| !is_negative(p)).count();
    let tally = fix_files(&Plugin, files, nvnm_skyrim::plugin::fix::mends);
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    assert!(tally.unchanged > 0, "no real plugin came back unchanged");
}

/// A flat grid of `n` × `n` quads of 128 units, two counter-clockwise triangles each (Z up).
fn grid(n: u32) -> TriangleMesh {
    let mut mesh = TriangleMesh::default();
    for y in 0..=n {
        for x in 0..=n {
            mesh.vertices
                .push([x as f32 * 128.0, y as f32 * 128.0, 0.0]);
        }
    }
    let at = |x: u32, y: u32| y * (n + 1) + x;
    for y in 0..n {
        for x in 0..n {
            let (a, b, c, d) = (at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1));
            mesh.triangles.push([a, b, c]);
            mesh.triangles.push([a, c, d]);
        }
    }
    mesh
}

/// The largest version-12 blob of the corpus, or a built grid where the corpus is absent.
fn real_or_built_blob() -> (String, NavmeshGeometry) {
    let largest = real_files("skyrim/nvnm")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| !is_negative(f))
        .filter_map(|f| {
            let m = Nvnm.read(&std::fs::read(&f).unwrap()).unwrap();
            (m.version == 12 && errors(&Nvnm, &m).is_empty()).then_some((f, m))
        })
        .max_by_key(|(_, m)| m.triangles.len());
    match largest {
        Some((f, m)) => (f.display().to_string(), m),
        None => {
            println!("breaking a built grid instead of a real blob");
            let m = Nvnm.build(&grid(10)).unwrap().unwrap().model;
            ("built 10 × 10 grid".to_string(), m)
        }
    }
}

#[test]
fn a_vertex_deleted_from_a_real_blob_drops_its_triangles() {
    let (name, original) = real_or_built_blob();
    let mut m = original.clone();
    m.vertices.pop();
    let before = errors(&Nvnm, &m);
    assert!(!before.is_empty(), "{name}");
    let changes = fix_and_check(&Nvnm, mends, &name, &mut m);
    eprintln!(
        "{name}, last vertex deleted: {} errors before fix, {} after; {} changes, the first:\n  {}",
        before.len(),
        errors(&Nvnm, &m).len(),
        changes.len(),
        changes
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    assert_eq!(errors(&Nvnm, &m), [], "{name}");
    let dropped = changes
        .iter()
        .filter(|c| c.contains("dropped the triangle"))
        .count();
    assert!(dropped > 0);
    assert_eq!(m.triangles.len() + dropped, original.triangles.len());
    // Only references were renumbered: the vertices are as edited, the grid keeps its bounds.
    assert_eq!(m.vertices.len() + 1, original.vertices.len());
    assert_eq!(m.grid.min, original.grid.min);
    assert_eq!(m.grid.divisor, original.grid.divisor);
}

#[test]
fn a_triangle_deleted_from_a_real_blob_gets_adjacency_and_grid_recomputed() {
    let (name, original) = real_or_built_blob();
    let mut m = original.clone();
    // Delete a triangle in the middle, as an edit in JSON would: every later index shifts.
    let k = m.triangles.len() / 2;
    m.triangles.remove(k);
    let before = errors(&Nvnm, &m);
    assert!(!before.is_empty(), "{name}");
    let changes = fix_and_check(&Nvnm, mends, &name, &mut m);
    eprintln!(
        "{name}, triangle {k} deleted: {} errors before fix, {} after; {} changes, the last:\n  {}",
        before.len(),
        errors(&Nvnm, &m).len(),
        changes.len(),
        changes.last().cloned().unwrap_or_default()
    );
    assert_eq!(errors(&Nvnm, &m), [], "{name}");
    assert!(changes.iter().any(|c| c.starts_with("grid: recomputed")));
    // The neighbours are the builder's: every pair names each other back.
    let warnings: Vec<_> = Nvnm
        .validate(&m)
        .into_iter()
        .filter(|f| f.message.contains("has no edge back"))
        .collect();
    assert_eq!(warnings, []);
}

/// A plugin of the corpus (with a `NAVI`) whose first navmesh lost a vertex in an edit that did
/// not update the `NVMI` entry; the sample plugin where the corpus is absent.
#[test]
fn a_broken_navmesh_in_a_real_plugin_is_fixed_with_its_navmesh_info() {
    let (name, original) = match corpus_dir("skyrim") {
        Some(dir) => {
            let name = "Cheat Room.esp";
            let bytes = std::fs::read(dir.join(name)).unwrap();
            (name.to_string(), Plugin.read(&bytes).unwrap())
        }
        None => ("sample plugin".to_string(), samples::plugin()),
    };
    let (form_id, nvnm) = original.navmeshes()[0];
    let mut mesh = Nvnm.read(nvnm).unwrap();
    mesh.vertices.pop();
    let broken = Nvnm.write(&mesh).unwrap();
    let mut m = original.clone();
    set_nvnm_data(&mut m.items, form_id, &broken);
    let before = errors(&Plugin, &m);
    assert!(!before.is_empty(), "{name}");
    let changes = fix_and_check(&Plugin, nvnm_skyrim::plugin::fix::mends, &name, &mut m);
    eprintln!(
        "{name}, NAVM {form_id:08X} lost a vertex: {} errors before fix, {} after; changes:\n  {}",
        before.len(),
        errors(&Plugin, &m).len(),
        changes.join("\n  ")
    );
    assert!(
        changes
            .iter()
            .all(|c| c.starts_with(&format!("NAVM {form_id:08X} NVNM "))
                || c.starts_with(&format!("NAVI NVMI {form_id:08X}: ")))
    );
    if m.records().iter().any(|r| r.navi().is_some()) {
        assert!(changes.last().is_some_and(|c| c.starts_with("NAVI NVMI")));
    }
    // The other navmeshes are untouched.
    for ((a, x), (b, y)) in m.navmeshes().iter().zip(original.navmeshes()).skip(1) {
        assert_eq!((a, x), (&b, &y));
    }
}

/// Puts `data` into the `NVNM` of navmesh `form_id` without touching anything else.
fn set_nvnm_data(items: &mut [Item], form_id: u32, data: &[u8]) {
    for item in items {
        match item {
            Item::Group(g) => set_nvnm_data(&mut g.items, form_id, data),
            Item::Record(r) if r.form_id == form_id => {
                if let RecordBody::Navmesh(b) = &mut r.body {
                    for s in &mut b.subrecords {
                        if &s.signature.0 == b"NVNM" {
                            s.data = data.to_vec();
                        }
                    }
                }
            }
            Item::Record(_) => {}
        }
    }
}

/// A built 1 × 1 square (two triangles) with a door on the second; the second triangle's last
/// corner is edited to a vertex that does not exist.
#[test]
fn exact_lines_for_a_built_square() {
    let mut m = Nvnm.build(&grid(1)).unwrap().unwrap().model;
    m.door_triangles.push(DoorTriangle {
        triangle: 1,
        door_type: PATHING_DOOR_CRC,
        door: 0x0001_2345,
    });
    assert_eq!(m.triangles[0].edges, [-1, -1, 1]);
    m.triangles[1].vertices[2] = 9;
    let changes = fix_and_check(&Nvnm, mends, "built square", &mut m);
    assert_eq!(
        changes,
        [
            "triangles[1]: dropped the triangle: vertex 9 is past the 4 vertices",
            "triangles[0] edges[2]: neighbour triangle 1 was dropped; now -",
            "door_triangles[0]: dropped: its triangle 1 was dropped",
            "grid cells: removed 1 entry of dropped triangles, renumbered the rest",
        ]
    );
    assert_eq!(m.triangles.len(), 1);
    assert_eq!(m.triangles[0].edges, [-1, -1, -1]);
    assert_eq!(m.grid.cells, vec![vec![0]]);
}

/// A built 2 × 1 strip whose last triangle was deleted: the edges to it and its grid entry name
/// nothing, so the adjacency and the grid are recomputed.
#[test]
fn exact_lines_for_a_deleted_triangle() {
    let mut m = Nvnm.build(&grid(1)).unwrap().unwrap().model;
    m.triangles.pop();
    let changes = fix_and_check(&Nvnm, mends, "built square", &mut m);
    assert_eq!(
        changes,
        [
            "triangles[0] edges[2]: t1 recomputed to -",
            "grid: recomputed from the vertices and triangles: divisor 1, 1 entries (were divisor \
             1, 2 entries)",
        ]
    );
}

/// The sample plugin (no `NAVI`): the uncompressed floor's second triangle loses a corner; the
/// compressed navmesh is not recompressed.
#[test]
fn exact_lines_for_the_sample_plugin() {
    let original: PluginFile = samples::plugin();
    let bytes = Plugin.write(&original).unwrap();
    let mut floor = Nvnm.read(original.navmeshes()[1].1).unwrap();
    floor.triangles[1].vertices[2] = 9;
    let mut m = original.clone();
    set_nvnm_data(&mut m.items, 0x0000_0802, &Nvnm.write(&floor).unwrap());
    let changes = fix_and_check(&Plugin, nvnm_skyrim::plugin::fix::mends, "sample", &mut m);
    assert_eq!(
        changes,
        [
            "NAVM 00000802 NVNM triangles[1]: dropped the triangle: vertex 9 is past the 4 \
             vertices",
            "NAVM 00000802 NVNM triangles[0] edges[2]: neighbour triangle 1 was dropped; now -",
            "NAVM 00000802 NVNM grid cells: removed 1 entry of dropped triangles, renumbered the \
             rest",
        ]
    );
    // The compressed navmesh's record is written back as it was, zlib stream and all.
    assert_eq!(m.navmeshes()[0], original.navmeshes()[0]);
    let fixed = Plugin.write(&m).unwrap();
    assert_eq!(
        record_bytes(&fixed, 0x0000_0801),
        record_bytes(&bytes, 0x0000_0801)
    );
    assert!(record_bytes(&bytes, 0x0000_0801).is_some());
    assert_ne!(
        record_bytes(&fixed, 0x0000_0802),
        record_bytes(&bytes, 0x0000_0802)
    );
}

/// The whole `NAVM` record `form_id` (header and data) in a plugin's bytes.
fn record_bytes(plugin: &[u8], form_id: u32) -> Option<&[u8]> {
    let u32_at = |at: usize| {
        plugin
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    (0..plugin.len()).find_map(|at| {
        if plugin.get(at..at + 4) != Some(b"NAVM") || u32_at(at + 12) != Some(form_id) {
            return None;
        }
        let size = usize::try_from(u32_at(at + 4)?).ok()?;
        plugin.get(at..at + 24 + size)
    })
}

/// Arbitrary models (broken in many ways at once): fix never panics, and a second fix leaves
/// alone what the first one made.
#[test]
fn arbitrary_models_never_panic() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut fixed = 0;
    for seed in 0..3000u64 {
        let data = nav_core::testing::noise(seed, 64 + (seed as usize % 7) * 200);
        let Ok(mut m) = NavmeshGeometry::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        if Nvnm.fix(&mut m).is_empty() {
            continue;
        }
        fixed += 1;
        let left: Vec<_> = errors(&Nvnm, &m).into_iter().filter(mends).collect();
        assert!(left.is_empty(), "seed {seed}: fix left {left:#?}");
        let second = Nvnm.fix(&mut m.clone());
        assert!(
            second.is_empty(),
            "seed {seed}: a second fix changed {second:#?}"
        );
    }
    eprintln!("arbitrary models: {fixed} changed by fix");
    assert!(fixed > 0);
}

#[test]
fn every_finding_of_real_files_and_samples_has_a_place() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/skyrim");
    let samples = [
        "exterior_v12.nvnm",
        "fallout4_v15.nvnm",
        "interior_v12.nvnm",
    ]
    .map(|n| dir.join(n));
    let blobs = real_files("skyrim/nvnm").into_iter().map(|(_, f)| f);
    let (read, _) = files_have_places(&Nvnm, blobs.chain(samples), NVNM_ROOTS);
    assert!(read >= 3);
    let plugins = real_files("skyrim")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| is_plugin(f));
    let sample = dir.join("navkit_room.esp");
    let (read, checked) = files_have_places(&Plugin, plugins.chain([sample]), PLUGIN_ROOTS);
    assert!(read >= 1);
    eprintln!("{read} plugins, {checked} findings");
}

/// The plugin's `mends` reads the place `NAVM <FormID> NVNM <NVNM place>`, not the text: a
/// finding worded otherwise is mended all the same, and the cell it names is the triangle of
/// that navmesh.
#[test]
fn plugin_findings_are_mended_by_their_place() {
    let original: PluginFile = samples::plugin();
    let mut floor = Nvnm.read(original.navmeshes()[1].1).unwrap();
    floor.triangles[1].vertices[2] = 9;
    let mut m = original.clone();
    set_nvnm_data(&mut m.items, 0x0000_0802, &Nvnm.write(&floor).unwrap());
    let found = errors(&Plugin, &m);
    let mended: Vec<&Finding> = found
        .iter()
        .filter(|f| nvnm_skyrim::plugin::fix::mends(f))
        .collect();
    assert_eq!(mended.len(), 1, "{found:#?}");
    let f = mended[0];
    assert_eq!(f.location, "NAVM 00000802 NVNM triangles[1] vertices[2]");
    let cell = f.place.cell_ref().unwrap();
    assert_eq!(
        (cell.kind, cell.key, cell.part),
        ("triangles", &Key::Index(1), Some(0x0000_0802))
    );
    let reworded = Finding {
        location: "the floor's second triangle".to_string(),
        message: "has a corner that is not there".to_string(),
        ..f.clone()
    };
    assert!(nvnm_skyrim::plugin::fix::mends(&reworded));
    // The same NVNM place outside a navmesh record, or with its text alone, is not one.
    let inner = Finding::error(f.place.skip(2), "x");
    assert!(!nvnm_skyrim::plugin::fix::mends(&inner));
    assert!(mends(&inner));
    let textual = Finding {
        place: Place::new(),
        ..f.clone()
    };
    assert!(!nvnm_skyrim::plugin::fix::mends(&textual));
}
