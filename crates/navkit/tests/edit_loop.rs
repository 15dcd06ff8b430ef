//! `export` and `build` are inverses end to end through the binary, in OBJ and glTF, with
//! `--up z`, turned triangles, warned-about shapes and refused ones (`build_corpus.rs` runs the
//! loop over every real file).
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;

use nav_core::testing::real_file;
use navkit::registry;

mod common;
use common::{navkit, stderr, temp};

#[test]
fn the_loop_through_the_binary_in_obj_and_gltf() {
    // A Skyrim blob: export (Y up), build back, both ways give the same file.
    let Some(blob) = real_file("skyrim/nvnm", "Cheat_Room_05005793.nvnm") else {
        return;
    };
    let blob = blob.to_str().unwrap().to_string();
    let mut built = Vec::new();
    for ending in ["obj", "glb"] {
        let mesh = temp(&format!("loop.{ending}"));
        let out = temp(&format!("loop-{ending}.nvnm"));
        let o = navkit(&["export", &blob, "-o", mesh.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = navkit(&[
            "build",
            "--format",
            "nvnm-skyrim",
            mesh.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{ending}: {}", stderr(&o));
        assert!(!stderr(&o).contains("cannot be stored"), "{}", stderr(&o));
        built.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(built[0], built[1], "OBJ and glTF give the same navmesh");
    // The built blob exports to the same positions as the original (the OBJ vertex lines, as a
    // set: the builder drops nothing, adds nothing and moves nothing).
    let vertex_lines = |file: &str| -> HashSet<String> {
        let obj = temp("v.obj");
        let o = navkit(&[
            "export",
            "--format",
            "nvnm-skyrim",
            file,
            "-o",
            obj.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(&obj)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("v "))
            .map(str::to_string)
            .collect()
    };
    let rebuilt = temp("loop-obj.nvnm");
    let before = vertex_lines(&blob);
    let after = vertex_lines(rebuilt.to_str().unwrap());
    assert!(!before.is_empty());
    let new: Vec<_> = after.difference(&before).collect();
    let dropped: Vec<_> = before.difference(&after).collect();
    assert!(new.is_empty(), "new positions: {new:?}");
    assert!(dropped.is_empty(), "dropped positions: {dropped:?}");
}

#[test]
fn build_reads_y_up_by_default_and_z_up_when_told() {
    // The Z-up sample read as Y-up stands on its side: every triangle is vertical, kept with a
    // warning line each that names it.
    let out = temp("zup.nvnm");
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "samples/meshes/skyrim_flat_square.obj",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(", 8 warnings)"), "{err}");
    let vertical = err.lines().filter(|l| l.contains("is vertical")).count();
    assert_eq!(vertical, 8, "{err}");
    assert!(
        err.contains("skyrim_flat_square.obj: warning: triangles[0]: is vertical")
            && err.contains("warning: triangles[7]: is vertical"),
        "{err}"
    );
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "--up",
        "z",
        "samples/meshes/skyrim_flat_square.obj",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // And a Y-up mesh with --up z reads as it is: Y-up sample into nav2 (Y up) stands upright.
    let o = navkit(&[
        "build",
        "--format",
        "nav2-mgsv",
        "--up",
        "z",
        "samples/meshes/flat_square.obj",
        "-o",
        temp("x.nav2").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("is vertical"), "{}", stderr(&o));
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "--up",
        "x",
        "m.obj",
        "-o",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn down_facing_triangles_are_turned_and_counted() {
    // Blender's default OBJ export: Y up; one triangle wound clockwise seen from above.
    let obj = temp("mixed.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 0 0 -10\nv 0 5 0\nv 10 5 0\nf 1 2 3\nf 1 4 3\n",
    )
    .unwrap();
    for format in ["nvnm-skyrim", "nav2-mgsv"] {
        let out = temp(&format!("mixed-{format}"));
        let o = navkit(&[
            "build",
            "--format",
            format,
            obj.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("turned 1 triangle that faced down to face up"),
            "{format}: {}",
            stderr(&o)
        );
        let o = navkit(&["validate", "--format", format, out.to_str().unwrap()]);
        assert!(o.status.success(), "{format}");
    }
    // A wall and a sliver are kept, each with a warning naming it; the built file validates.
    std::fs::write(
        &obj,
        "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 20 0 0\nv 30 0 0\nv 20 5 0\nv 40 0 0\nv 50 0 0\n\
         v 60 0 0\nf 1 2 3\nf 4 5 6\nf 7 8 9\n",
    )
    .unwrap();
    for format in ["nvnm-skyrim", "nav2-mgsv"] {
        let out = temp(&format!("shapes-{format}"));
        let o = navkit(&[
            "build",
            "--format",
            format,
            obj.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("warning: triangles[1]: is vertical"), "{err}");
        assert!(
            err.contains("warning: triangles[2]: is degenerate"),
            "{err}"
        );
        assert!(!err.contains("triangles[0]"), "{err}");
        assert!(err.contains(", 2 warnings)"), "{err}");
        let o = navkit(&["validate", "--format", format, out.to_str().unwrap()]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
    }
    // A zero-length edge and a non-finite corner are refused by index; the good triangles do
    // not hide them.
    std::fs::write(
        &obj,
        "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 0 0 0\nv 20 inf 0\nf 1 2 3\nf 1 2 4\nf 1 2 5\n",
    )
    .unwrap();
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        obj.to_str().unwrap(),
        "-o",
        temp("bad").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("2 triangles cannot be stored"), "{err}");
    assert!(err.contains("triangles[1] repeats a vertex"), "{err}");
    assert!(
        err.contains("triangles[2] has a corner that is not a finite"),
        "{err}"
    );
    assert!(!err.contains("triangles[0]"), "{err}");
    // glTF without a BIN chunk or with a broken buffer is refused with the file's name.
    let gltf = temp("broken.gltf");
    std::fs::write(
        &gltf,
        r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"missing.bin"}]}"#,
    )
    .unwrap();
    let o = navkit(&[
        "build",
        "--format",
        "nav2-mgsv",
        gltf.to_str().unwrap(),
        "-o",
        temp("y").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("broken.gltf: buffers[0]"),
        "{}",
        stderr(&o)
    );
    let o = navkit(&["build", "--format", "nav2-mgsv", "mesh.fbx", "-o", "y"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn gltf_node_transforms_and_data_uris_are_read() {
    // One triangle, counter-clockwise seen from above (Y up), in a node moved by (100, 5, 0);
    // its buffer inline as base64.
    let gltf = temp("moved.gltf");
    std::fs::write(
        &gltf,
        r#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
        "nodes":[{"mesh":0,"translation":[100,5,0]}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
          "min":[0,0,-10],"max":[10,0,0]}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "buffers":[{"byteLength":36,
          "uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAgQQAAAAAAAAAAAAAgQQAAAAAAACDB"}]}"#,
    )
    .unwrap();
    let out = temp("moved.nvnm");
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        gltf.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("turned"), "{}", stderr(&o));
    // Skyrim is Z up: (x, y, z) Y-up is (x, -z, y) there; export turns it back.
    let bytes = std::fs::read(&out).unwrap();
    let g = registry::by_name("nvnm-skyrim")
        .unwrap()
        .geometry(&bytes)
        .unwrap()
        .unwrap();
    assert_eq!(
        g.vertices,
        [[100.0, 0.0, 5.0], [110.0, 0.0, 5.0], [110.0, 10.0, 5.0]]
    );
}
