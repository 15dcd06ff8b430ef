//! Export and pictures: every corpus file exports to OBJ and glTF that independent readers (tobj,
//! gltf) load with the counts of the source; pictures have the right size and are not blank.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::Path;

use nav_core::geometry::Geometry;
use nav_core::testing::{corpus_files, corpus_root, is_negative, skip_without_corpus};
use navkit::registry::{self, AnyFormat};

fn detect(path: &Path, bytes: &[u8]) -> Option<&'static dyn AnyFormat> {
    registry::sniff(bytes).or_else(|| registry::by_extension(path))
}

/// Checks one geometry's OBJ and glTF against its counts.
fn check_exports(g: &Geometry, name: &str) {
    assert!(
        g.is_consistent(),
        "{name}: geometry indices are inconsistent"
    );
    // OBJ through tobj: polygons as faces, as stored (no triangulation).
    let obj = navkit::export::to_obj(g, name);
    let opts = tobj::LoadOptions {
        triangulate: false,
        single_index: false,
        ..tobj::LoadOptions::default()
    };
    let (models, _) =
        tobj::load_obj_buf(&mut obj.as_bytes(), &opts, |_| Ok(Default::default())).unwrap();
    // tobj reads line elements as two-corner faces; `face_arities` is empty when all are triangles.
    let arities: Vec<u32> = models
        .iter()
        .flat_map(|m| {
            if m.mesh.face_arities.is_empty() {
                vec![3; m.mesh.indices.len() / 3]
            } else {
                m.mesh.face_arities.clone()
            }
        })
        .collect();
    let faces = arities.iter().filter(|a| **a >= 3).count();
    assert_eq!(faces, g.polygons.len(), "{name}: OBJ face count");
    let corners: u32 = arities.iter().filter(|a| **a >= 3).sum();
    assert_eq!(
        corners as usize,
        g.polygons.iter().map(|p| p.vertices.len()).sum::<usize>(),
        "{name}: OBJ corners"
    );
    assert_eq!(
        arities.iter().filter(|a| **a == 2).count(),
        g.links.len(),
        "{name}: OBJ link count"
    );
    let v_lines = obj.lines().filter(|l| l.starts_with("v ")).count();
    assert_eq!(
        v_lines,
        g.vertices.len() + g.nodes.len(),
        "{name}: OBJ vertex count"
    );

    // glTF through the gltf crate, which validates the document as it loads it.
    let glb = navkit::export::to_glb(g, name).unwrap();
    let doc =
        gltf::Gltf::from_slice(&glb).unwrap_or_else(|e| panic!("{name}: glTF does not load: {e}"));
    let (mut tris, mut lines, mut points, mut positions) = (0, 0, 0, 0);
    for mesh in doc.meshes() {
        for p in mesh.primitives() {
            let count = p.indices().map_or(0, |a| a.count());
            match p.mode() {
                gltf::mesh::Mode::Triangles => tris += count / 3,
                gltf::mesh::Mode::Lines => lines += count / 2,
                gltf::mesh::Mode::Points => points += count,
                m => panic!("{name}: unexpected primitive mode {m:?}"),
            }
            positions = p.get(&gltf::Semantic::Positions).map_or(0, |a| a.count());
        }
    }
    let expected_tris: usize = g.polygons.iter().map(|p| p.vertices.len() - 2).sum();
    assert_eq!(tris, expected_tris, "{name}: glTF triangles");
    assert_eq!(lines, g.links.len(), "{name}: glTF lines");
    assert_eq!(points, g.nodes.len(), "{name}: glTF points");
    if tris + lines + points > 0 {
        assert_eq!(
            positions,
            g.vertices.len() + g.nodes.len(),
            "{name}: glTF positions"
        );
    }
}

#[test]
fn every_corpus_file_exports_to_obj_and_gltf() {
    let Some(root) = corpus_root() else {
        skip_without_corpus("no corpus found (set NAVKIT_CORPUS)");
        return;
    };
    let mut per_format: std::collections::BTreeMap<&str, (usize, Vec<String>)> = Default::default();
    let mut unknown = Vec::new();
    for path in corpus_files(&root).into_iter().filter(|p| !is_negative(p)) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let Some(format) = detect(&path, &bytes) else {
            unknown.push(name);
            continue;
        };
        let entry = per_format.entry(format.name()).or_default();
        match format.geometry(&bytes).unwrap() {
            Some(g) => {
                check_exports(&g, &name);
                entry.0 += 1;
            }
            None => entry.1.push(name),
        }
    }
    for (format, (exported, unmapped)) in &per_format {
        println!(
            "export: {format}: {exported} files exported to OBJ and glTF and read back, {} without a geometry mapping",
            unmapped.len()
        );
    }
    // Every real file is some format's.
    assert_eq!(unknown, Vec::<String>::new(), "no format recognises these");
    // Every format maps every file it reads.
    for (format, (exported, unmapped)) in &per_format {
        assert!(*exported > 0, "{format}: no file was exported");
        assert_eq!(
            unmapped,
            &Vec::<String>::new(),
            "{format}: files without geometry"
        );
    }
    let formats: Vec<&str> = per_format.keys().copied().collect();
    assert_eq!(formats, CORPUS_FORMATS, "the formats of the corpus");
}

/// The formats of the corpus files, by name (Silkroad has no public file yet).
const CORPUS_FORMATS: &[&str] = &[
    "nav-quake",
    "nav-source",
    "nav-source2",
    "nav2-mgsv",
    "nvnm-skyrim",
    "skyrim-plugin",
];

#[test]
fn samples_export_and_render() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let mut rendered = 0;
    for path in corpus_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = detect(&path, &bytes) else {
            continue;
        };
        let Some(g) = format.geometry(&bytes).unwrap() else {
            continue;
        };
        let name = path.display().to_string();
        check_exports(&g, &name);
        if g.polygons.is_empty() && g.nodes.is_empty() {
            // An empty navmesh (a split file with no chunks) has nothing to draw.
            continue;
        }
        let png = navkit::render::to_png(&g, 256).unwrap();
        let pm = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert!(pm.width() >= 64 && pm.height() >= 64, "{name}");
        let first = pm.pixels()[0];
        let differing = pm.pixels().iter().filter(|p| **p != first).count();
        assert!(differing > 100, "{name}: the picture is blank");
        rendered += 1;
    }
    assert!(rendered >= 12, "only {rendered} samples rendered");
}

#[test]
fn picture_of_a_quake_room() {
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake/room_nav3_v6.nav"),
    )
    .unwrap();
    let g = nav_quake::geometry(&nav_quake::read(&bytes).unwrap());
    insta::assert_snapshot!(navkit::render::to_svg(&g, 128));
    let png = navkit::render::to_png(&g, 300).unwrap();
    let pm = tiny_skia::Pixmap::decode_png(&png).unwrap();
    // The plan is 300 px on its longer side; the legend may widen the picture and adds lines below.
    assert!(
        pm.width() >= 300 && pm.height() > 300,
        "{}x{}",
        pm.width(),
        pm.height()
    );
}
