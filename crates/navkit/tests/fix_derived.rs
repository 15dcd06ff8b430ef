//! `navkit fix` end to end on formats whose derived structures it recomputes: a built Skyrim
//! `NVNM` and a built Fox Engine `.nav2`, each broken through the library as a hand edit would
//! break it, are reported by `fix --check` (exit 1), fixed by `fix -o` (exit 0) into a file that
//! `validate` passes; an unedited file comes back byte for byte.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::Path;
use std::process::Output;

use nav_core::Format;
use nav_core::geometry::TriangleMesh;
use nav2_mgsv::Nav2;
use nvnm_skyrim::Nvnm;

mod common;
use common::{navkit, stderr, stdout, temp};

fn text(o: &Output) -> String {
    format!("stdout:\n{}\nstderr:\n{}", stdout(o), stderr(o))
}

/// A flat `n` × `n` grid of unit quads, two triangles each, counter-clockwise seen from +Z and
/// from +Y alike (Y is constant, so the Skyrim and Fox Engine builders both take it: Z up for
/// one, Y up for the other).
fn grid(n: u32, up_y: bool) -> TriangleMesh {
    let mut mesh = TriangleMesh::default();
    for j in 0..=n {
        for i in 0..=n {
            let (x, y) = (i as f32 * 64.0, j as f32 * 64.0);
            mesh.vertices
                .push(if up_y { [x, 0.0, -y] } else { [x, y, 0.0] });
        }
    }
    let at = |i: u32, j: u32| j * (n + 1) + i;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            mesh.triangles.push([a, b, c]);
            mesh.triangles.push([a, c, d]);
        }
    }
    mesh
}

/// Runs the whole round: `fix --check` on the broken file exits 1 and writes nothing, `fix -o`
/// exits 0, `validate` passes the result, `fix` on the result and on the unedited file writes
/// their bytes back unchanged.
fn check_round(name: &str, clean: &[u8], broken: &[u8]) {
    let (clean_path, broken_path) = (
        temp(&format!("clean.{name}")),
        temp(&format!("broken.{name}")),
    );
    std::fs::write(&clean_path, clean).unwrap();
    std::fs::write(&broken_path, broken).unwrap();

    let o = navkit(&[Path::new("validate"), &broken_path]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "validate of the broken {name}: {}",
        text(&o)
    );

    let o = navkit(&[Path::new("fix"), Path::new("--check"), &broken_path]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "fix --check of the broken {name}: {}",
        text(&o)
    );
    assert!(stdout(&o).contains(" changes needed"), "{}", text(&o));
    assert_eq!(
        std::fs::read(&broken_path).unwrap(),
        broken,
        "--check wrote"
    );

    let fixed = temp(&format!("fixed.{name}"));
    let o = navkit(&[Path::new("fix"), &broken_path, Path::new("-o"), &fixed]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "fix of the broken {name}: {}",
        text(&o)
    );
    let o = navkit(&[Path::new("validate"), &fixed]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "validate of the fixed {name}: {}",
        text(&o)
    );

    // Fixing again, and fixing the unedited file, change nothing.
    for (what, path) in [("fixed", &fixed), ("unedited", &clean_path)] {
        let before = std::fs::read(path).unwrap();
        let out = temp(&format!("again-{what}.{name}"));
        let o = navkit(&[Path::new("fix"), path, Path::new("-o"), &out]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "fix of the {what} {name}: {}",
            text(&o)
        );
        assert!(stdout(&o).contains("nothing to fix"), "{}", text(&o));
        assert_eq!(
            std::fs::read(&out).unwrap(),
            before,
            "the {what} {name} changed"
        );
        let o = navkit(&[Path::new("fix"), Path::new("--check"), path]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "fix --check of the {what} {name}: {}",
            text(&o)
        );
    }
}

#[test]
fn a_built_skyrim_navmesh_with_a_deleted_triangle() {
    let model = Nvnm.build(&grid(4, false)).unwrap().unwrap().model;
    let clean = Nvnm.write(&model).unwrap();
    let mut broken = model;
    // Deleting a triangle in the middle leaves edges and grid entries past the end.
    broken.triangles.remove(5);
    check_round("nvnm", &clean, &Nvnm.write(&broken).unwrap());
}

#[test]
fn a_built_fox_engine_navmesh_with_a_deleted_face() {
    let model = Nav2.build(&grid(6, true)).unwrap().unwrap().model;
    let clean = Nav2.write(&model).unwrap();
    let mut broken = model;
    broken.data_chunks[0].navmesh_chunk.meshes.pop();
    check_round("nav2", &clean, &Nav2.write(&broken).unwrap());
}

#[test]
fn json_output_lists_the_changes() {
    let model = Nav2.build(&grid(2, true)).unwrap().unwrap().model;
    let mut broken = model;
    broken.data_chunks[0].navmesh_chunk.meshes.pop();
    let path = temp("json.nav2");
    std::fs::write(&path, Nav2.write(&broken).unwrap()).unwrap();
    let o = navkit(&[
        Path::new("fix"),
        Path::new("--check"),
        Path::new("--json"),
        &path,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(doc["format"], "nav2-mgsv");
    let changes = doc["changes"].as_array().unwrap();
    assert!(
        changes.iter().any(|c| c
            .as_str()
            .unwrap()
            .starts_with("data_chunks[0] NavigationGraph: recomputed")),
        "{doc:#}"
    );
    assert_eq!(doc["remaining_errors"].as_array().map(Vec::len), Some(0));
}
